//! The timed loops, shared by the criterion bench and the instruction-count example: one call
//! runs the query on every pair and passes each result through [`black_box`].
//!
//! Each is `#[inline(never)]` so callgrind can count exactly these instructions
//! (`--toggle-collect='collide2d_benches::runs::*'`).

use crate::box2d::{self, B2Placed, Manifold};
use crate::rotating::CollideRotating;
use crate::sweeps::{parry_options, CollideSweep};
use crate::Placed;
use boxdd_sys::ffi::{b2ShapeCast, b2ShapeCastPairInput, b2TOIInput, b2TimeOfImpact};
use collide2d::{math::Vec2, PairQuery, Shape};
use parry2d::query::NonlinearRigidMotion;
use std::hint::black_box;

/// [`PairQuery::intersects`] on every pair stored by type.
#[inline(never)]
pub fn collide2d_typed_intersects<A: PairQuery<B>, B>(pairs: &[(A, B)]) {
    for (a, b) in pairs {
        black_box(a.intersects(b));
    }
}

/// [`PairQuery::contact`] on every pair stored by type.
#[inline(never)]
pub fn collide2d_typed_contact<A: PairQuery<B>, B>(pairs: &[(A, B)]) {
    for (a, b) in pairs {
        black_box(a.contact(b));
    }
}

/// [`PairQuery::cast`] on every moving pair stored by type.
#[inline(never)]
pub fn collide2d_typed_cast<A: PairQuery<B>, B>(sweeps: &[(A, Vec2, B, Vec2)]) {
    for (a, va, b, vb) in sweeps {
        black_box(a.cast(*va, b, *vb));
    }
}

/// `collide2d::intersects` on every pair.
#[inline(never)]
pub fn collide2d_intersects(pairs: &[(Shape, Shape)]) {
    for (a, b) in pairs {
        black_box(collide2d::intersects(a, b));
    }
}

/// `collide2d::contact` on every pair.
#[inline(never)]
pub fn collide2d_contact(pairs: &[(Shape, Shape)]) {
    for (a, b) in pairs {
        black_box(collide2d::contact(a, b));
    }
}

/// `parry2d::query::intersection_test` on every pair.
#[inline(never)]
pub fn parry2d_intersects<A: parry2d::shape::Shape, B: parry2d::shape::Shape>(
    pairs: &[(Placed<A>, Placed<B>)],
) {
    for ((pa, a), (pb, b)) in pairs {
        let hit = parry2d::query::intersection_test(pa, a, pb, b);
        black_box(matches!(hit, Ok(r) if r.intersecting));
    }
}

/// `parry2d::query::contact` (prediction 0) on every pair.
#[inline(never)]
pub fn parry2d_contact<A: parry2d::shape::Shape, B: parry2d::shape::Shape>(
    pairs: &[(Placed<A>, Placed<B>)],
) {
    for ((pa, a), (pb, b)) in pairs {
        black_box(parry2d::query::contact(pa, a, pb, b, 0.0)).ok();
    }
}

/// The plain `f32` test on every pair.
#[inline(never)]
pub fn plain_intersects<A, B>(pairs: &[(A, B)], test: impl Fn(&A, &B) -> bool) {
    for (a, b) in pairs {
        black_box(test(a, b));
    }
}

/// [`plain::dispatch_intersects`](crate::plain::dispatch_intersects) (plain `f32` tests behind
/// collide2d's `Shape` dispatch) on every pair.
#[inline(never)]
pub fn plain_dispatch_intersects(pairs: &[(Shape, Shape)]) {
    for (a, b) in pairs {
        black_box(crate::plain::dispatch_intersects(a, b));
    }
}

/// `collide2d::cast_shapes` on every moving pair.
#[inline(never)]
pub fn collide2d_cast(sweeps: &[CollideSweep]) {
    for (a, va, b, vb) in sweeps {
        black_box(collide2d::cast_shapes(a, *va, b, *vb));
    }
}

/// `collide2d::cast_shapes_rotating` on every rotating pair.
#[inline(never)]
pub fn collide2d_cast_rotating(sweeps: &[CollideRotating]) {
    for (a, sa, b, sb) in sweeps {
        black_box(collide2d::cast_shapes_rotating(a, *sa, b, *sb));
    }
}

/// `parry2d::query::cast_shapes_nonlinear` (times in `[0, 1]`, shapes overlapping at the
/// start hit) on every rotating pair.
#[inline(never)]
pub fn parry2d_cast_nonlinear<A: parry2d::shape::Shape, B: parry2d::shape::Shape>(
    sweeps: &[(NonlinearRigidMotion, A, NonlinearRigidMotion, B)],
) {
    for (ma, a, mb, b) in sweeps {
        black_box(parry2d::query::cast_shapes_nonlinear(
            ma, a, mb, b, 0.0, 1.0, true,
        ))
        .ok();
    }
}

/// Box2D's `b2TimeOfImpact` on every rotating pair.
#[inline(never)]
pub fn box2d_time_of_impact(inputs: &[b2TOIInput]) {
    for input in inputs {
        // SAFETY: `input` is a live, fully built input; Box2D only reads it.
        black_box(unsafe { b2TimeOfImpact(input) });
    }
}

/// `parry2d::query::cast_shapes` (impacts in `[0, 1]`) on every moving pair.
#[inline(never)]
pub fn parry2d_cast<A: parry2d::shape::Shape, B: parry2d::shape::Shape>(
    sweeps: &[(
        Placed<A>,
        parry2d::math::Vector,
        Placed<B>,
        parry2d::math::Vector,
    )],
) {
    for ((pa, a), va, (pb, b), vb) in sweeps {
        black_box(parry2d::query::cast_shapes(
            pa,
            *va,
            a,
            pb,
            *vb,
            b,
            parry_options(),
        ))
        .ok();
    }
}

/// Box2D's manifold (`b2Collide*`, after the relative transform as its contact update computes
/// it) on every pair, read as hit or miss ([`box2d::hit`]): Box2D's pair test.
#[inline(never)]
pub fn box2d_intersects<A: Manifold<B>, B>(pairs: &[(B2Placed<A>, B2Placed<B>)]) {
    for (a, b) in pairs {
        black_box(box2d::hit(&box2d::manifold(a, b)));
    }
}

/// Box2D's manifold on every pair.
#[inline(never)]
pub fn box2d_contact<A: Manifold<B>, B>(pairs: &[(B2Placed<A>, B2Placed<B>)]) {
    for (a, b) in pairs {
        black_box(box2d::manifold(a, b));
    }
}

/// Box2D's `b2ShapeCast` on every moving pair.
#[inline(never)]
pub fn box2d_cast(inputs: &[b2ShapeCastPairInput]) {
    for input in inputs {
        // SAFETY: `input` is a live, fully built cast input; Box2D only reads it.
        black_box(unsafe { b2ShapeCast(input) });
    }
}
