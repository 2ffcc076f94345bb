//! Checks of the exact reference itself, on hand-computed cases (no library predicate involved),
//! so that property tests comparing the library with it compare against something right.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::Vec2;
use collide2d::{
    Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon, Segment, Shape,
};
use support::reference::{contains, convex_hull, distance, intersects, point_distance};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn circle(x: f32, y: f32, r: f32) -> Shape {
    Circle::new(v(x, y), r).unwrap().into()
}

fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into()
}

fn l_shape() -> Shape {
    Polygon::new(&[
        v(0.0, 0.0),
        v(4.0, 0.0),
        v(4.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 4.0),
        v(0.0, 4.0),
    ])
    .unwrap()
    .into()
}

#[test]
fn reference_circles_touch_exactly_at_the_sum_of_radii() {
    assert!(intersects(&circle(0.0, 0.0, 2.0), &circle(3.0, 4.0, 3.0)));
    assert!(!intersects(
        &circle(0.0, 0.0, 2.0),
        &circle(3.0, 4.0, 3.0_f32.next_down())
    ));
    assert_eq!(
        distance(&circle(0.0, 0.0, 1.0), &circle(4.0, 0.0, 1.0)),
        2.0
    );
}

#[test]
fn reference_circle_near_box_corner_misses() {
    assert!(!intersects(
        &circle(3.0, 3.0, 1.0),
        &aabb(0.0, 0.0, 2.0, 2.0)
    ));
    assert!(intersects(
        &circle(5.0, 6.0, 5.0),
        &aabb(0.0, 0.0, 2.0, 2.0)
    ));
    assert!(
        (distance(&circle(3.0, 3.0, 1.0), &aabb(0.0, 0.0, 2.0, 2.0)) - (2f64.sqrt() - 1.0)).abs()
            < 1e-12
    );
}

#[test]
fn reference_l_shape_has_a_hole_in_its_hull() {
    let l = l_shape();
    let notch: Shape = Point::new(v(2.0, 2.0)).unwrap().into();
    assert!(!intersects(&l, &notch));
    assert!(intersects(&l, &Point::new(v(1.0, 1.0)).unwrap().into()));
    assert!(intersects(&l, &Point::new(v(0.5, 3.0)).unwrap().into()));
    assert_eq!(point_distance(&l, v(2.0, 2.0)), 1.0);
    // The segment across the notch leaves the polygon; the one along the inner corner does not.
    assert!(!contains(
        &l,
        &Segment::new(v(0.5, 3.0), v(3.0, 0.5)).unwrap().into()
    ));
    assert!(contains(
        &l,
        &Segment::new(v(1.0, 1.0), v(1.0, 3.0)).unwrap().into()
    ));
    assert!(contains(
        &l,
        &Segment::new(v(0.0, 0.0), v(1.0, 1.0)).unwrap().into()
    ));
    assert!(!contains(
        &l,
        &Segment::new(v(1.0, 4.0), v(4.0, 1.0)).unwrap().into()
    ));
}

#[test]
fn reference_contains_respects_radii() {
    let room = aabb(0.0, 0.0, 10.0, 10.0);
    assert!(contains(&room, &circle(9.0, 5.0, 1.0)));
    assert!(!contains(&room, &circle(9.0, 5.0, 1.5)));
    assert!(contains(&circle(0.0, 0.0, 5.0), &circle(3.0, 0.0, 2.0)));
    assert!(!contains(&circle(0.0, 0.0, 5.0), &circle(3.0, 0.0, 2.5)));
    assert!(contains(&circle(0.0, 0.0, 5.0), &aabb(0.0, 0.0, 3.0, 4.0)));
    assert!(!contains(&circle(0.0, 0.0, 5.0), &aabb(0.0, 0.0, 3.0, 4.5)));
    let cap: Shape = Capsule::new(v(0.0, 0.0), v(10.0, 0.0), 2.0).unwrap().into();
    assert!(contains(&cap, &circle(10.0, 0.0, 2.0)));
    assert!(!contains(&cap, &circle(10.5, 0.0, 2.0)));
    assert!(!contains(
        &Segment::new(v(0.0, 0.0), v(4.0, 0.0)).unwrap().into(),
        &circle(1.0, 0.0, 0.5)
    ));
    assert!(contains(
        &Segment::new(v(0.0, 0.0), v(4.0, 0.0)).unwrap().into(),
        &circle(1.0, 0.0, 0.0)
    ));
    // A circle in the L's corner touching both inner walls fits; one radius more does not.
    assert!(contains(&l_shape(), &circle(0.5, 0.5, 0.5)));
    assert!(!contains(&l_shape(), &circle(0.5, 2.5, 0.75)));
}

#[test]
fn reference_compound_contains_follows_the_documented_rule() {
    let halves: Shape = Compound::new(vec![
        aabb(0.0, 0.0, 2.0, 2.0).clone(),
        aabb(2.0, 0.0, 4.0, 2.0),
    ])
    .unwrap()
    .into();
    assert!(contains(&halves, &aabb(0.0, 0.0, 2.0, 1.0)));
    // Inside the union but straddling both parts: outside by the documented rule.
    assert!(!contains(&halves, &aabb(1.0, 0.0, 3.0, 1.0)));
    assert!(intersects(&halves, &aabb(1.0, 0.0, 3.0, 1.0)));
}

#[test]
fn reference_hull_of_rotated_box_corners_and_degenerate_boxes() {
    let b = Obb::new(v(0.0, 0.0), v(2.0, 1.0), 0.0).unwrap();
    assert_eq!(convex_hull(&b.corners()).len(), 4);
    let flat = Obb::new(v(0.0, 0.0), v(2.0, 0.0), 0.0).unwrap();
    assert_eq!(
        convex_hull(&flat.corners()),
        vec![v(-2.0, 0.0), v(2.0, 0.0)]
    );
    let seg: Shape = flat.into();
    assert!(intersects(&seg, &Point::new(v(2.0, 0.0)).unwrap().into()));
    assert!(!intersects(&seg, &Point::new(v(2.0, 0.5)).unwrap().into()));
    assert!(!contains(&seg, &aabb(0.0, 0.0, 1.0, 1.0)));
    assert!(contains(
        &aabb(-2.0, 0.0, 2.0, 0.0),
        &Segment::new(v(-1.0, 0.0), v(2.0, 0.0)).unwrap().into()
    ));
}

#[test]
fn reference_polygons_separated_only_by_one_edge_normal() {
    let square: Shape = ConvexPolygon::new(&[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)])
        .unwrap()
        .into();
    let apart: Shape = ConvexPolygon::new(&[v(4.0, 1.0), v(5.0, 5.0), v(1.0, 4.0)])
        .unwrap()
        .into();
    let touching: Shape = ConvexPolygon::new(&[v(4.0, 0.0), v(5.0, 5.0), v(0.0, 4.0)])
        .unwrap()
        .into();
    assert!(!intersects(&square, &apart));
    assert!(intersects(&square, &touching));
    assert!((distance(&square, &apart) - 0.5f64.sqrt()).abs() < 1e-12);
}
