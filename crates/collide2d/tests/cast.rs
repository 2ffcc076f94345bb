//! Property tests of `cast_shapes`: the time of impact against a sampled sweep refined by
//! bisection on the exact `intersects`, both argument orders, translation, thin walls.
//!
//! Shapes of every kind are drawn on a small integer grid (touching and grazing motions are
//! common) and from random `f32`s; `COLLIDE2D_SOAK=N` multiplies the case counts.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::{Pose, Vec2};
use collide2d::{
    cast_shapes, contact, distance, distance_to_point, intersects, Aabb, CastHit, Obb, Segment,
    Shape,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use support::kinds::{motion, shape, soak, KINDS};

/// The shape moved by `v * t`.
fn at(s: &Shape, v: Vec2, t: f32) -> Shape {
    s.transformed(&Pose::from_translation(v * t))
}

fn touch(a: &Shape, va: Vec2, b: &Shape, vb: Vec2, t: f32) -> bool {
    intersects(&at(a, va, t), &at(b, vb, t))
}

/// The first time the shapes intersect, sampled at 1/200 steps then bisected; also the first
/// sample that intersects.
fn sampled_first(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Option<(f32, f32)> {
    const STEPS: u32 = 200;
    let k = (0..=STEPS).find(|&k| touch(a, va, b, vb, k as f32 / STEPS as f32))?;
    let sample = k as f32 / STEPS as f32;
    if k == 0 {
        return Some((0.0, 0.0));
    }
    let (mut lo, mut hi) = ((k - 1) as f32 / STEPS as f32, sample);
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if touch(a, va, b, vb, mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some((hi, sample))
}

/// The largest coordinate involved, for tolerances.
fn scale(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> f32 {
    let (ba, bb) = (a.aabb(), b.aabb());
    [ba.min(), ba.max(), bb.min(), bb.max(), va, vb]
        .iter()
        .map(|p| p.abs().max_element())
        .fold(1.0, f32::max)
}

/// Neither a compound nor a polygon of several parts.
fn is_convex(s: &Shape) -> bool {
    match s {
        Shape::Compound(_) => false,
        Shape::Polygon(p) => p.is_convex(),
        _ => true,
    }
}

/// After a hit at `t > 0`, the point lies on both shapes (within tolerance) at time `t`.
fn check_touching_point(
    a: &Shape,
    va: Vec2,
    b: &Shape,
    vb: Vec2,
    h: &CastHit,
) -> Result<(), TestCaseError> {
    if h.t > 0.0 {
        let tol = 1e-5 * scale(a, va, b, vb);
        let da = distance_to_point(&at(a, va, h.t), h.point);
        let db = distance_to_point(&at(b, vb, h.t), h.point);
        prop_assert!(da <= tol && db <= tol, "{h:?}: {da} from a, {db} from b");
    }
    Ok(())
}

/// The claims of `cast_shapes` against the sampled sweep.
fn check_against_sweep(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Result<(), TestCaseError> {
    let hit = cast_shapes(a, va, b, vb);
    let speed = (va - vb).length();
    let tol_d = 1e-5 * scale(a, va, b, vb);
    let tol_t = if speed > 0.0 { tol_d / speed } else { 0.0 };
    let first = sampled_first(a, va, b, vb);
    if let Some(h) = hit {
        prop_assert!((0.0..=1.0).contains(&h.t), "{h:?}");
        prop_assert!((h.normal.length() - 1.0).abs() < 1e-5, "{h:?}");
        prop_assert!(h.depth >= 0.0 && (h.t == 0.0 || h.depth == 0.0), "{h:?}");
        // At the returned time the shapes touch (within tolerance) ...
        let gap = distance(&at(a, va, h.t), &at(b, vb, h.t));
        prop_assert!(gap <= tol_d, "{h:?}: apart by {gap} at t");
        check_touching_point(a, va, b, vb, &h)?;
        // ... the motion closes along the normal (it is not a leaving contact) ...
        if h.t > 0.0 {
            prop_assert!((va - vb).dot(h.normal) >= -1e-4 * speed, "{h:?}");
        }
        // ... and, for a convex pair, the line through the point across the normal separates
        // the shapes (a half-plane is a big rotated box beyond the line).
        if h.t > 0.0 && is_convex(a) && is_convex(b) {
            let big = 4.0 * scale(a, va, b, vb);
            let beyond = |side: f32| -> Shape {
                let center = h.point + h.normal * side * (tol_d + big);
                Obb::new(center, Vec2::splat(big), h.normal.to_angle())
                    .unwrap()
                    .into()
            };
            prop_assert!(
                !intersects(&at(a, va, h.t), &beyond(1.0)),
                "{h:?}: a crosses"
            );
            prop_assert!(
                !intersects(&at(b, vb, h.t), &beyond(-1.0)),
                "{h:?}: b crosses"
            );
        }
    }
    // Where the sweep and the cast disagree by more than the tolerance, the sweep's shapes only
    // overlap by a rounding error (a grazing motion, placed in `f32`).
    let depth_at = |t: f32| contact(&at(a, va, t), &at(b, vb, t)).map_or(0.0, |c| c.depth);
    match (first, hit) {
        (Some((0.0, _)), h) => {
            prop_assert_eq!(h.map(|h| h.t), Some(0.0), "intersecting at t = 0");
        }
        (Some((t, sample)), Some(h)) => {
            prop_assert!(
                h.t <= t + tol_t || depth_at(t).max(depth_at(sample)) <= tol_d,
                "{h:?} later than the sweep's {t}"
            );
            // No sampled time before the hit intersects.
            prop_assert!(
                sample >= h.t - tol_t || depth_at(sample) <= tol_d,
                "{h:?}: the sweep intersects at {sample}"
            );
        }
        (Some((t, sample)), None) => {
            prop_assert!(
                depth_at(t).max(depth_at(sample)) <= tol_d,
                "missed; the sweep intersects from {t}"
            );
        }
        (None, _) => {} // a graze between samples is checked above
    }
    Ok(())
}

fn check_swapped(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> Result<(), TestCaseError> {
    let ab = cast_shapes(a, va, b, vb);
    let ba = cast_shapes(b, vb, a, va);
    match (ab, ba) {
        (Some(x), Some(y)) => {
            let tol = 1e-6 * scale(a, va, b, vb);
            let speed = (va - vb).length().max(1e-30);
            prop_assert!((x.t - y.t).abs() * speed <= tol, "{x:?} vs {y:?}");
            if x.t == 0.0 {
                prop_assert_eq!(x.depth, y.depth);
            }
            // Parts of a compound that touch at the same time may give different normals and
            // points in the two orders; convex pairs touch in one place.
            if x.t > 0.0 && is_convex(a) && is_convex(b) {
                prop_assert!(x.normal.distance(-y.normal) < 1e-6, "{x:?} vs {y:?}");
                prop_assert!(x.point.distance(y.point) <= tol * 10.0, "{x:?} vs {y:?}");
            }
            check_touching_point(a, va, b, vb, &y)?;
        }
        (x, y) => prop_assert_eq!(x.is_some(), y.is_some(), "{:?} vs {:?}", x, y),
    }
    Ok(())
}

type Case = (Shape, Vec2, Shape, Vec2);

/// Runs `check` on `cases` random moving pairs of every ordered pair of kinds.
fn for_every_kind_pair(cases: u32, check: impl Fn(&Case) -> Result<(), TestCaseError>) {
    for (ka, name_a) in KINDS.iter().enumerate() {
        for (kb, name_b) in KINDS.iter().enumerate() {
            let config = Config {
                cases: soak(cases),
                max_global_rejects: 100_000,
                // Failures are saved beside this file and replayed first (proptest's default).
                source_file: Some(file!()),
                ..Config::default()
            };
            let mut runner = TestRunner::new(config);
            let strategy = prop_oneof![3 => Just(true), 1 => Just(false)]
                .prop_flat_map(move |g| (shape(ka, g), motion(g), shape(kb, g), motion(g)));
            match runner.run(&strategy, |case| check(&case)) {
                Ok(()) => {}
                Err(TestError::Fail(why, case)) => {
                    panic!("{name_a} vs {name_b}: {why}\ncase = {case:?}")
                }
                Err(e) => panic!("{name_a} vs {name_b}: {e}"),
            }
        }
    }
}

#[test]
fn time_of_impact_agrees_with_a_bisected_sweep_for_every_pair_of_kinds() {
    for_every_kind_pair(12, |(a, va, b, vb)| check_against_sweep(a, *va, b, *vb));
}

#[test]
fn swapping_the_shapes_keeps_the_time_and_flips_the_normal() {
    for_every_kind_pair(12, |(a, va, b, vb)| check_swapped(a, *va, b, *vb));
}

#[test]
fn translating_both_shapes_keeps_the_time_and_moves_the_point() {
    for_every_kind_pair(8, |(a, va, b, vb)| {
        let offset = Vec2::new(64.0, -32.0); // exact on the grids used
        let moved = |s: &Shape| s.transformed(&Pose::from_translation(offset));
        let (ma, mb) = (moved(a), moved(b));
        let here = cast_shapes(a, *va, b, *vb);
        let there = cast_shapes(&ma, *va, &mb, *vb);
        let tol = 1e-5 * (scale(a, *va, b, *vb) + 64.0);
        // A rotated box's corners are recomputed, and rounded, where it lands: where one
        // placement grazes the other may miss by a rounding error, or graze elsewhere.
        let near = |a: &Shape, b: &Shape, t: f32| distance(&at(a, *va, t), &at(b, *vb, t)) <= tol;
        match (here, there) {
            (Some(x), Some(y)) => {
                let speed = (*va - *vb).length().max(1e-30);
                if (x.t - y.t).abs() * speed > tol {
                    prop_assert!(near(&ma, &mb, x.t) && near(a, b, y.t), "{x:?} vs {y:?}");
                } else if x.t > 0.0 && is_convex(a) && is_convex(b) {
                    let moved = x.point + offset;
                    prop_assert!(moved.distance(y.point) <= tol, "{x:?} vs {y:?}");
                }
            }
            (Some(x), None) => prop_assert!(near(&ma, &mb, x.t), "{x:?} vs a miss"),
            (None, Some(y)) => prop_assert!(near(a, b, y.t), "a miss vs {y:?}"),
            (None, None) => {}
        }
        Ok(())
    });
}

/// A tall wall of no thickness at `x`: a segment, a zero-width box or a zero-width rotated box.
fn wall(kind: u8, x: f32) -> Shape {
    let (lo, hi) = (Vec2::new(x, -1e4), Vec2::new(x, 1e4));
    match kind {
        0 => Segment::new(lo, hi).unwrap().into(),
        1 => Aabb::new(lo, hi).unwrap().into(),
        _ => Obb::new(Vec2::new(x, 0.0), Vec2::new(0.0, 1e4), 0.0)
            .unwrap()
            .into(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: soak(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn thin_wall_crossed_in_one_step_is_always_hit(
        (s, small) in (0usize..9, any::<bool>()).prop_flat_map(|(k, g)| (shape(k, g), Just(g))),
        gap in 0.0f32..10.0,
        beyond in 0.001f32..1000.0,
        vy in -50.0f32..50.0,
        kind in 0u8..3,
        wall_moves in any::<bool>(),
    ) {
        let _ = small;
        let bounds = s.aabb();
        let x = bounds.max().x + gap;
        let w = wall(kind, x);
        // The whole shape ends up beyond the wall.
        let vx = bounds.size().x + gap + beyond;
        let (va, vb) = if wall_moves {
            (Vec2::new(0.0, vy), Vec2::new(-vx, 0.0))
        } else {
            (Vec2::new(vx, vy), Vec2::ZERO)
        };
        let expected = gap / vx;
        for h in [cast_shapes(&s, va, &w, vb), cast_shapes(&w, vb, &s, va).map(CastHit::flipped)] {
            let h = h.unwrap_or_else(|| panic!("{s:?} passed through the wall"));
            let tol = 1e-5 * (x.abs() + vx + vy.abs() + 1.0) / vx;
            prop_assert!((h.t - expected).abs() <= tol, "{h:?}, expected t = {expected}");
            prop_assert!(h.normal.distance(Vec2::X) < 1e-4, "{h:?}");
        }
    }
}
