//! `move_shape` in small hand-built scenes: seams, corners, each response, masks, edge cases.

use super::*;
use crate::shape::Capsule;
use crate::test_support::{boxed, v};
use crate::world::{Filter, ObjectKind};
use crate::BroadPhase;

/// A world of static boxes `(x0, y0, x1, y1)`, each object's data its response.
fn world(boxes: &[(f32, f32, f32, f32, Response)]) -> CollisionWorld<Response> {
    let mut w = CollisionWorld::new(BroadPhase::default());
    for &(x0, y0, x1, y1, r) in boxes {
        w.insert(
            boxed(x0, y0, x1, y1),
            Filter::DEFAULT,
            ObjectKind::Static,
            r,
        )
        .unwrap();
    }
    w
}

fn floor(n: usize) -> Vec<(f32, f32, f32, f32, Response)> {
    (0..n)
        .map(|i| (i as f32, 0.0, i as f32 + 1.0, 1.0, Response::Slide))
        .collect()
}

fn go(w: &CollisionWorld<Response>, s: &Shape, m: Vec2) -> Movement {
    w.move_shape(s, m, u64::MAX, |_, r| *r)
}

#[test]
fn sliding_along_flush_tiles_never_snags() {
    let w = world(&floor(20));
    let mover = boxed(0.0, 1.0, 1.0, 2.0);
    let m = go(&w, &mover, v(15.0, 0.0));
    assert_eq!(m.delta, v(15.0, 0.0));
    assert!(m.contacts.is_empty(), "{:?}", m.contacts);
}

#[test]
fn resting_mover_pressing_down_slides_with_t_zero_and_the_floor_normal() {
    let w = world(&floor(20));
    let mover = boxed(0.0, 1.0, 1.0, 2.0); // its right edge on the seam at x = 1
    let m = go(&w, &mover, v(4.0, -5.0));
    assert_eq!(m.delta, v(4.0, 0.0));
    assert_eq!(m.contacts.len(), 1, "{:?}", m.contacts);
    assert_eq!((m.contacts[0].t, m.contacts[0].normal), (0.0, Vec2::Y));
}

#[test]
fn falling_into_a_corner_stops_without_sinking() {
    let mut boxes = floor(10);
    boxes.push((6.0, 1.0, 7.0, 5.0, Response::Slide)); // a wall on the floor
    let w = world(&boxes);
    let m = go(&w, &boxed(2.0, 3.0, 3.0, 4.0), v(20.0, -20.0));
    assert_eq!(m.shape, boxed(5.0, 1.0, 6.0, 2.0));
    let normals: Vec<Vec2> = m.contacts.iter().map(|c| c.normal).collect();
    assert_eq!(normals, [Vec2::Y, -Vec2::X]);
}

#[test]
fn capsule_meeting_a_wall_at_its_seam_is_not_deflected() {
    // Its bottom cap reaches the seam corner at (7.75, 1) just as its flank meets the face.
    let mut boxes: Vec<_> = (0..20)
        .map(|i| (i as f32, -1.0, i as f32 + 1.0, 0.0, Response::Slide))
        .collect();
    boxes.push((7.75, 0.0, 8.75, 1.0, Response::Slide));
    boxes.push((7.75, 1.0, 8.75, 30.0, Response::Slide));
    let w = world(&boxes);
    let c: Shape = Capsule::new(v(3.75, 1.75), v(3.75, 2.75), 0.5)
        .unwrap()
        .into();
    let m = go(&w, &c, v(83.0, -17.75));
    let b = m.shape.aabb();
    assert!(
        (b.max().x - 7.75).abs() < 1e-4 && b.min().y.abs() < 1e-4,
        "{m:?}"
    );
    assert_eq!(m.contacts[0].normal, -Vec2::X);
}

#[test]
fn capsule_landing_just_beside_a_seam_is_not_deflected() {
    // Its lowest point lands on the left tile 0.0016 from the seam; the right tile's corner
    // is touched a moment later with a tilted normal.
    let w = world(&[
        (9.75, -1.0, 10.5, 0.0, Response::Slide),
        (10.5, -0.25, 10.75, 0.0, Response::Slide),
        (0.0, -1.0, 9.75, 0.0, Response::Slide),
    ]);
    let c: Shape = Capsule::new(v(10.75, 4.5), v(10.75, 5.5), 0.5)
        .unwrap()
        .into();
    let m = go(&w, &c, v(-2.5, -39.75));
    assert!((m.delta - v(-2.5, -4.0)).length() < 1e-4, "{m:?}");
    assert_eq!(m.contacts.len(), 1, "{m:?}");
}

#[test]
fn stop_ends_the_move_at_the_contact() {
    let w = world(&[(5.0, -5.0, 6.0, 5.0, Response::Stop)]);
    let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(10.0, 3.0));
    assert_eq!(m.shape.aabb().max().x, 5.0);
    assert_eq!(m.contacts[0].response, Response::Stop);
    assert!((m.contacts[0].t - 0.4).abs() < 1e-6);
}

#[test]
fn cross_reports_without_blocking() {
    let w = world(&[
        (3.0, 0.0, 4.0, 1.0, Response::Cross),
        (8.0, -5.0, 9.0, 5.0, Response::Slide),
    ]);
    let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(10.0, 0.0));
    assert_eq!(m.delta, v(7.0, 0.0));
    let got: Vec<(u32, Response)> = m
        .contacts
        .iter()
        .map(|c| (c.handle.index(), c.response))
        .collect();
    assert_eq!(got, [(0, Response::Cross), (1, Response::Slide)]);
    assert!((m.contacts[0].t - 0.2).abs() < 1e-6);
}

#[test]
fn bounce_mirrors_the_rest_of_the_motion() {
    let w = world(&[(-10.0, -1.0, 10.0, 0.0, Response::Bounce)]);
    let m = go(&w, &boxed(0.0, 2.0, 1.0, 3.0), v(4.0, -4.0));
    // Half the motion down to the floor, then the other half mirrored upwards.
    assert!((m.delta - v(4.0, 0.0)).length() < 1e-5, "{m:?}");
    assert_eq!(m.contacts[0].normal, Vec2::Y);
}

#[test]
fn one_way_platform_holds_from_above_only() {
    let up = Response::OneWay { up: Vec2::Y };
    let w = world(&[(0.0, 0.0, 10.0, 1.0, up)]);
    let mover = boxed(2.0, 3.0, 3.0, 4.0);
    let m = go(&w, &mover, v(0.0, -5.0));
    assert_eq!(m.shape, boxed(2.0, 1.0, 3.0, 2.0)); // landed
    let from_below = go(&w, &boxed(2.0, -3.0, 3.0, -2.0), v(0.0, 8.0));
    assert_eq!(from_below.delta, v(0.0, 8.0));
    assert!(from_below.contacts.is_empty());
    let from_side = go(&w, &boxed(-3.0, 0.0, -2.0, 1.0), v(20.0, 0.0));
    assert_eq!(from_side.delta, v(20.0, 0.0));
    // Starting inside it (jumped half way through): falls back through.
    let inside = go(&w, &boxed(2.0, 0.5, 3.0, 1.5), v(0.0, -5.0));
    assert_eq!(inside.delta, v(0.0, -5.0));
}

#[test]
fn capsule_slides_along_tiles_and_lands() {
    let w = world(&floor(20));
    let c: Shape = Capsule::new(v(0.5, 1.5), v(0.5, 2.5), 0.5).unwrap().into();
    let m = go(&w, &c, v(12.3, 0.0));
    assert_eq!(m.delta, v(12.3, 0.0));
    let high: Shape = Capsule::new(v(0.5, 5.5), v(0.5, 6.5), 0.5).unwrap().into();
    let m = go(&w, &high, v(7.0, -10.0));
    assert!((m.delta - v(7.0, -4.0)).length() < 1e-4, "{m:?}");
}

#[test]
fn mask_and_dynamic_objects_are_respected() {
    let mut w = world(&[]);
    w.insert(
        boxed(5.0, -5.0, 6.0, 5.0),
        Filter::new(2, u64::MAX),
        ObjectKind::Static,
        Response::Slide,
    )
    .unwrap();
    w.insert(
        boxed(3.0, -5.0, 4.0, 5.0),
        Filter::DEFAULT,
        ObjectKind::Dynamic,
        Response::Slide,
    )
    .unwrap();
    let mover = boxed(0.0, 0.0, 1.0, 1.0);
    let m = w.move_shape(&mover, v(10.0, 0.0), 1, |_, r| *r);
    assert_eq!(m.delta, v(10.0, 0.0));
    let m = w.move_shape(&mover, v(10.0, 0.0), 2, |_, r| *r);
    assert_eq!(m.delta, v(4.0, 0.0));
}

#[test]
fn zero_thickness_wall_is_met() {
    let mut w = world(&[]);
    let wall: Shape = crate::Segment::new(v(10.0, -5.0), v(10.0, 5.0))
        .unwrap()
        .into();
    w.insert(wall, Filter::DEFAULT, ObjectKind::Static, Response::Slide)
        .unwrap();
    let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(100.0, 0.0));
    assert!((m.delta.x - 9.0).abs() < 1e-5, "{m:?}");
    assert_eq!(m.contacts[0].normal, -Vec2::X);
}

#[test]
fn sliding_along_a_concave_polygons_floor_never_snags() {
    // A U whose floor is split between several convex parts.
    let ring = [
        (0.0, 0.0),
        (12.0, 0.0),
        (12.0, 6.0),
        (11.0, 6.0),
        (11.0, 1.0),
    ]
    .into_iter()
    .chain([(1.0, 1.0), (1.0, 6.0), (0.0, 6.0)])
    .map(|(x, y)| v(x, y))
    .collect::<Vec<_>>();
    let mut w = world(&[]);
    let u: Shape = crate::Polygon::new(&ring).unwrap().into();
    w.insert(u, Filter::DEFAULT, ObjectKind::Static, Response::Slide)
        .unwrap();
    let m = go(&w, &boxed(1.0, 1.0, 2.0, 2.0), v(20.0, -3.0));
    assert_eq!(m.shape, boxed(10.0, 1.0, 11.0, 2.0));
    assert_eq!(m.contacts.len(), 2, "{:?}", m.contacts);
}

#[test]
fn a_mover_inside_an_obstacle_may_leave_it_but_not_go_deeper() {
    let w = world(&[(0.0, 0.0, 10.0, 10.0, Response::Slide)]);
    let inside = boxed(1.0, 9.0, 2.0, 12.0); // 1 deep, pushed out upwards
    assert_eq!(go(&w, &inside, v(0.0, 5.0)).delta, v(0.0, 5.0));
    let down = go(&w, &inside, v(0.0, -5.0));
    assert_eq!(down.delta, Vec2::ZERO);
    assert_eq!(down.contacts[0].t, 0.0);
}

#[test]
fn non_finite_or_overflowing_motion_moves_nothing() {
    let w = world(&floor(3));
    for motion in [v(f32::NAN, 0.0), v(0.0, f32::INFINITY), v(f32::MAX, 0.0)] {
        let m = go(&w, &boxed(0.0, 1.0, 1.0, 2.0), motion);
        assert_eq!(m.delta, Vec2::ZERO);
        assert!(m.contacts.is_empty());
    }
}

#[test]
fn running_fast_with_a_little_gravity_stays_on_the_tiles() {
    let w = world(&floor(2000));
    let capsule: Shape = Capsule::new(v(0.5, 1.5), v(0.5, 2.0), 0.5).unwrap().into();
    for (dx, dy) in [(15.0, -1e-4), (1500.0, -1e-3), (15.0, -1e-6), (700.0, -0.3)] {
        let m = go(&w, &boxed(0.0, 1.0, 1.0, 2.0), v(dx, dy));
        assert_eq!(m.delta, v(dx, 0.0), "{dx} {dy}: {m:?}");
        let m = go(&w, &capsule, v(dx, dy));
        assert!((m.delta - v(dx, 0.0)).length() < 1e-5, "{dx} {dy}: {m:?}");
    }
}
