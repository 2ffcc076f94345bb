//! Unit tests of `cast_shapes_rotating`: the classic misses of a spinning bar, both argument
//! orders, translations as `cast_shapes`, the start and degenerate inputs.

use super::*;
use crate::shape::{Capsule, Circle, Obb, Segment};
use crate::test_support::{boxed, l_shape, v};
use core::f32::consts::{FRAC_PI_2, PI};

fn circle(x: f32, y: f32, r: f32) -> Shape {
    Circle::new(v(x, y), r).unwrap().into()
}

fn segment(a: Vec2, b: Vec2) -> Shape {
    Segment::new(a, b).unwrap().into()
}

fn still() -> Sweep {
    Sweep::translation(Vec2::ZERO)
}

/// Both argument orders: the same `t` and point, the normal flipped.
fn cast_both(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep) -> Option<CastHit> {
    let ab = cast_shapes_rotating(a, sa, b, sb);
    let ba = cast_shapes_rotating(b, sb, a, sa);
    match (ab, ba) {
        (Some(x), Some(y)) => {
            assert_eq!(x.t, y.t, "{x:?} vs {y:?}");
            assert_eq!(x.point, y.point, "{x:?} vs {y:?}");
            assert_eq!(x.normal, -y.normal, "{x:?} vs {y:?}");
        }
        (x, y) => assert_eq!(x.is_some(), y.is_some(), "{x:?} vs {y:?}"),
    }
    ab
}

/// The first of `n + 1` evenly spaced times at which the placed shapes intersect.
fn first_sampled(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep, n: u32) -> Option<f32> {
    (0..=n).map(|k| k as f32 / n as f32).find(|&t| {
        intersects(
            &a.transformed(&sa.pose_at(t)),
            &b.transformed(&sb.pose_at(t)),
        )
    })
}

/// A hit no later than the first sampled contact, the shapes near each other at it.
fn assert_first_hit(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep) -> CastHit {
    let sampled = first_sampled(a, sa, b, sb, 4096).expect("the samples touch");
    let hit = cast_both(a, sa, b, sb).expect("a hit");
    assert!(
        hit.t <= sampled,
        "{hit:?} later than the sample at {sampled}"
    );
    let gap = crate::distance(
        &a.transformed(&sa.pose_at(hit.t)),
        &b.transformed(&sb.pose_at(hit.t)),
    );
    assert!(gap <= 1e-3, "{hit:?}: apart by {gap}");
    assert!(sampled - hit.t < 1e-3, "{hit:?}: far before {sampled}");
    hit
}

#[test]
fn a_spinning_thin_bar_hits_a_small_circle_between_its_end_poses() {
    // The bar turns a whole turn less a little: it starts and ends clear of the coin, which sits
    // across its path at a quarter turn. Sampling the two ends, or a few times, misses it.
    let bar = segment(v(-5.0, 0.0), v(5.0, 0.0));
    let coin = circle(0.0, 4.0, 0.05);
    let spin = Sweep::about_center(&bar, Vec2::ZERO, 2.0 * PI - 0.1);
    assert!(!intersects(&bar.transformed(&spin.pose_at(1.0)), &coin));
    assert!(first_sampled(&bar, spin, &coin, still(), 4).is_none());
    let hit = assert_first_hit(&bar, spin, &coin, still());
    assert!(
        (hit.t - 0.25 / (1.0 - 0.1 / (2.0 * PI))).abs() < 0.01,
        "{hit:?}"
    );
    // The circle is hit on the side the bar comes from, turning counter-clockwise.
    assert!(hit.normal.x < -0.9, "{hit:?}");
}

#[test]
fn a_spinning_thin_bar_hits_a_thin_wall_it_would_pass_by_translation() {
    // A bar turning about one end towards a wall of no thickness: straight up at the end, it
    // crosses x = 3 on the way; its end poses are both clear of the wall.
    let bar = segment(v(0.0, 0.0), v(0.0, -4.0));
    let wall = segment(v(3.0, -1.0), v(3.0, -0.5));
    let swing = Sweep::new(Vec2::ZERO, PI, Vec2::ZERO);
    for t in [0.0, 1.0] {
        assert!(!intersects(&bar.transformed(&swing.pose_at(t)), &wall));
    }
    let hit = assert_first_hit(&bar, swing, &wall, still());
    assert!(hit.t > 0.2 && hit.t < 0.5, "{hit:?}");
    // A thin wall moving through the spinning bar's path is met too.
    let sliding = Sweep::translation(v(-6.0, 0.0));
    assert_first_hit(&wall, sliding, &bar, swing);
}

#[test]
fn a_fast_spinning_box_hits_a_circle_that_only_its_corner_reaches() {
    // Two turns in one step: the corner (at sqrt 2 from the center) reaches the coin at
    // distance 1.4 from it, the faces (at 1) never do.
    let b: Shape = Obb::new(Vec2::ZERO, v(1.0, 1.0), 0.0).unwrap().into();
    let coin = circle(1.4, 0.0, 0.0);
    let spin = Sweep::about_center(&b, Vec2::ZERO, 4.0 * PI);
    let hit = assert_first_hit(&b, spin, &coin, still());
    assert!(hit.t < 0.125, "{hit:?}");
    let slower = Sweep::about_center(&b, Vec2::ZERO, 0.1);
    assert!(cast_both(&b, slower, &coin, still()).is_none());
}

#[test]
fn sweeps_that_do_not_turn_are_cast_shapes_bit_for_bit() {
    let a = circle(0.0, 0.0, 1.0);
    let shapes = [boxed(4.0, -1.0, 5.0, 1.0), circle(5.0, 0.5, 1.0), l_shape()];
    for b in &shapes {
        for (va, vb) in [(v(8.0, 0.0), Vec2::ZERO), (v(3.0, 1.0), v(-2.0, 0.0))] {
            // The pivot plays no part in a translation.
            let sa = Sweep::new(va, 0.0, v(100.0, 7.0));
            let rotating = cast_shapes_rotating(&a, sa, b, vb.into());
            assert_eq!(rotating, cast_shapes(&a, va, b, vb), "{b:?}");
        }
    }
}

#[test]
fn a_circle_turning_about_its_center_meets_as_if_it_only_moved() {
    let a = circle(0.0, 0.0, 1.0);
    let wall = boxed(4.0, -5.0, 5.0, 5.0);
    let spin = Sweep::about_center(&a, v(6.0, 0.0), 3.0);
    let hit = cast_both(&a, spin, &wall, still()).unwrap();
    assert!((hit.t - 0.5).abs() < 1e-4, "{hit:?}");
    assert!(hit.t <= 0.5);
    assert!(hit.normal.distance(Vec2::X) < 1e-4, "{hit:?}");
    assert!(hit.point.distance(v(4.0, 0.0)) < 1e-3, "{hit:?}");
}

#[test]
fn shapes_overlapping_at_the_start_hit_at_zero_with_their_contact() {
    let a = circle(0.0, 0.0, 2.0);
    let b = circle(3.0, 0.0, 2.0);
    let h = cast_both(&a, Sweep::about_center(&a, Vec2::ZERO, 1.0), &b, still()).unwrap();
    assert_eq!((h.t, h.normal, h.depth), (0.0, Vec2::X, 1.0));
}

#[test]
fn shapes_far_apart_or_turning_away_never_hit() {
    let bar = segment(v(-5.0, 0.0), v(5.0, 0.0));
    let coin = circle(0.0, 5.5, 0.25);
    let spin = Sweep::about_center(&bar, Vec2::ZERO, 2.0 * PI);
    assert!(cast_both(&bar, spin, &coin, still()).is_none());
    let far = circle(100.0, 0.0, 1.0);
    assert!(cast_both(&bar, spin, &far, Sweep::translation(v(10.0, 0.0))).is_none());
}

#[test]
fn a_capsule_swinging_into_a_box_is_met_on_its_rounded_end() {
    let arm: Shape = Capsule::new(v(0.0, 0.0), v(0.0, 3.0), 0.5).unwrap().into();
    let post = boxed(2.0, -1.0, 3.0, 5.0);
    let swing = Sweep::new(Vec2::ZERO, -FRAC_PI_2, Vec2::ZERO);
    let hit = assert_first_hit(&arm, swing, &post, still());
    assert!(hit.normal.x > 0.5, "{hit:?}");
}

#[test]
fn sweeps_not_finite_never_hit() {
    let a = circle(0.0, 0.0, 1.0);
    let b = circle(3.0, 0.0, 1.0);
    for bad in [
        Sweep::new(Vec2::ZERO, f32::NAN, Vec2::ZERO),
        Sweep::new(Vec2::ZERO, 1.0, v(f32::INFINITY, 0.0)),
        Sweep::new(v(f32::NAN, 0.0), 1.0, Vec2::ZERO),
    ] {
        assert!(cast_both(&a, bad, &b, still()).is_none(), "{bad:?}");
    }
}
