//! Numbers at the edges of `f32`: coordinates near `±f32::MAX`, subnormal values, radius and
//! sizes 0, small shapes far from the origin. No query panics or answers NaN, distances and
//! depths stay finite, and the predicates stay exact (checked against the reference).
//!
//! The named tests at the bottom are inputs the `query_pair` fuzz target found.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::Vec2;
use collide2d::{
    cast_ray, closest_points, contact, contains, contains_point, distance, distance_to_point,
    intersects, project_point, Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Polygon,
    Ray, Segment, Shape,
};
use support::reference;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// Every query on the pair, both orders: no panic, no NaN, the documented laws, and
/// `intersects` and `contains` equal to the exact reference.
fn check_pair(a: &Shape, b: &Shape) {
    let hit = intersects(a, b);
    assert_eq!(
        hit,
        reference::intersects(a, b),
        "intersects\na = {a:?}\nb = {b:?}"
    );
    assert_eq!(
        intersects(b, a),
        hit,
        "intersects(b, a)\na = {a:?}\nb = {b:?}"
    );
    assert_eq!(
        contains(a, b),
        reference::contains(a, b),
        "contains\na = {a:?}\nb = {b:?}"
    );
    let d = distance(a, b);
    assert!(
        d.is_finite() && d >= 0.0,
        "distance {d}\na = {a:?}\nb = {b:?}"
    );
    assert_eq!(d == 0.0, hit, "distance {d}\na = {a:?}\nb = {b:?}");
    assert_eq!(distance(b, a).to_bits(), d.to_bits());
    // Accuracy, as documented in the crate docs: within 1e-6 of the largest coordinate, and
    // at least f32::MIN_POSITIVE when apart.
    let exact = reference::distance(a, b).min(f64::from(f32::MAX));
    let scale = f64::from(extent(a).max(extent(b)));
    let err = (f64::from(d) - exact).abs();
    WORST.with(|w| w.set(w.get().max(err / scale.max(1e-300))));
    assert!(
        err <= 1e-6 * scale + f64::from(f32::MIN_POSITIVE),
        "distance {d} vs exact {exact}\na = {a:?}\nb = {b:?}"
    );
    match closest_points(a, b) {
        None => assert!(hit),
        Some(c) => {
            assert!(c.point_a.is_finite() && c.point_b.is_finite(), "{c:?}");
            assert_eq!(c.distance.to_bits(), d.to_bits());
        }
    }
    let c = contact(a, b);
    assert_eq!(c.is_some(), hit);
    if let Some(c) = c {
        assert!(
            c.depth.is_finite() && c.depth >= 0.0,
            "{c:?}\na = {a:?}\nb = {b:?}"
        );
        assert!(
            (c.normal.length() - 1.0).abs() <= 1e-5,
            "{c:?}\na = {a:?}\nb = {b:?}"
        );
        assert!(c.points.iter().all(|p| p.is_finite()), "{c:?}");
        if a != b {
            assert_eq!(contact(b, a), Some(c.flipped()));
        }
    }
    for s in [a, b] {
        let bb = s.aabb();
        assert!(bb.min().is_finite() && bb.max().is_finite(), "{bb:?}");
    }
    let bb = b.aabb();
    for p in [bb.min(), bb.max(), bb.center()] {
        let inside = contains_point(a, p);
        assert_eq!(
            inside,
            reference::intersects(a, &Point::new(p).unwrap().into()),
            "contains_point {p}\na = {a:?}"
        );
        let dp = distance_to_point(a, p);
        assert!(
            dp.is_finite() && dp >= 0.0 && (dp == 0.0) == inside,
            "distance_to_point {dp}"
        );
        let proj = project_point(a, p);
        assert!(
            proj.point.is_finite() && proj.is_inside == inside,
            "{proj:?}"
        );
        let dir = a.aabb().center() - p;
        if let Some(h) = cast_ray(a, &Ray::new(p, dir), f32::INFINITY) {
            assert!(
                h.t >= 0.0 && h.point.is_finite() && h.normal.is_finite(),
                "{h:?}"
            );
        }
    }
}

std::thread_local! {
    /// The largest distance error seen, relative to the coordinates' size.
    static WORST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The largest coordinate magnitude of the shape's bounding box.
fn extent(s: &Shape) -> f32 {
    let b = s.aabb();
    b.min().abs().max(b.max().abs()).max_element()
}

/// Every pair from `shapes`, both orders.
fn check_all(shapes: &[Shape]) {
    for a in shapes {
        for b in shapes {
            check_pair(a, b);
        }
    }
}

/// One shape of every kind, built around `o` at size `s`; `None` for those the constructors
/// reject at that place and size (an overflowing box, a polygon that rounds flat).
fn kit(o: Vec2, s: f32) -> Vec<Shape> {
    let p = |x: f32, y: f32| o + v(x * s, y * s);
    let shapes: Vec<Option<Shape>> = vec![
        Point::new(p(0.0, 0.0)).ok().map(Shape::from),
        Segment::new(p(-1.0, 0.0), p(1.0, 1.0))
            .ok()
            .map(Shape::from),
        Circle::new(p(0.5, 0.5), s).ok().map(Shape::from),
        Circle::new(p(1.0, 0.0), 0.0).ok().map(Shape::from),
        Aabb::new(p(0.0, 0.0), p(2.0, 1.0)).ok().map(Shape::from),
        Aabb::new(p(1.0, 1.0), p(1.0, 1.0)).ok().map(Shape::from),
        Aabb::from_rect(p(1.0, 0.0).x, p(1.0, 0.0).y, s, 0.0)
            .ok()
            .map(Shape::from),
        Obb::new(p(1.0, 1.0), v(s, s), core::f32::consts::FRAC_PI_4)
            .ok()
            .map(Shape::from),
        Obb::new(p(0.0, 1.0), v(0.0, 0.0), 0.3)
            .ok()
            .map(Shape::from),
        Capsule::new(p(0.0, 2.0), p(2.0, 2.0), s)
            .ok()
            .map(Shape::from),
        Capsule::new(p(0.0, 0.0), p(0.0, 0.0), 0.0)
            .ok()
            .map(Shape::from),
        ConvexPolygon::new(&[p(0.0, 0.0), p(2.0, 0.0), p(0.0, 2.0)])
            .ok()
            .map(Shape::from),
        Polygon::new(&[
            p(0.0, 0.0),
            p(2.0, 0.0),
            p(2.0, 1.0),
            p(1.0, 1.0),
            p(1.0, 2.0),
            p(0.0, 2.0),
        ])
        .ok()
        .map(Shape::from),
    ];
    let mut shapes: Vec<Shape> = shapes.into_iter().flatten().collect();
    if shapes.len() >= 2 {
        shapes.push(Compound::new(shapes[..2].to_vec()).unwrap().into());
    }
    shapes
}

#[test]
fn small_shapes_far_from_the_origin() {
    for o in [
        v(1e7, -1e7),
        v(16_777_216.0, 3.0),
        v(-3e9, 1e12),
        v(1e30, 1e30),
    ] {
        for s in [0.0, 0.5, 1.0, 8.0] {
            check_all(&kit(o, s));
        }
    }
    eprintln!(
        "worst relative distance error {:e}",
        WORST.with(|w| w.get())
    );
}

#[test]
fn subnormal_coordinates_and_sizes() {
    let tiny = f32::from_bits(1); // 1e-45, the smallest subnormal
    for (o, s) in [
        (v(0.0, 0.0), tiny),
        (v(0.0, 0.0), 8.0 * tiny),
        (v(tiny, -tiny), tiny),
        (v(0.0, 0.0), f32::MIN_POSITIVE),
        (v(f32::MIN_POSITIVE, 0.0), tiny),
        (v(1.0, 1.0), tiny),
    ] {
        check_all(&kit(o, s));
    }
}

#[test]
fn coordinates_near_the_limits_of_f32() {
    let max = f32::MAX;
    for (o, s) in [
        (v(max, max), 0.0),
        (v(-max, max), 1.0),
        (v(max / 2.0, -max / 2.0), max / 8.0),
        (v(0.0, 0.0), max / 4.0),
        (v(-max, -max), max / 4.0),
        (v(max, 0.0), 1e30),
    ] {
        check_all(&kit(o, s));
    }
    // Shapes at opposite ends: the distance is about 2 * f32::MAX, saturated to f32::MAX.
    let far = [
        Circle::new(v(-max, -max), max).unwrap().into(),
        Circle::new(v(max, max), max).unwrap().into(),
        Point::new(v(max, -max)).unwrap().into(),
        Capsule::new(v(-max, 0.0), v(max, 0.0), 1.0).unwrap().into(),
        Aabb::new(v(-max, -max), v(max, -max)).unwrap().into(),
    ];
    check_all(&far);
}

#[test]
fn zero_sizes_touch_exactly() {
    // A zero-radius circle, a zero-size box and a point at the same place, on a box corner.
    let shapes: Vec<Shape> = vec![
        Circle::new(v(2.0, 1.0), 0.0).unwrap().into(),
        Aabb::from_rect(2.0, 1.0, 0.0, 0.0).unwrap().into(),
        Point::new(v(2.0, 1.0)).unwrap().into(),
        Capsule::new(v(2.0, 1.0), v(2.0, 1.0), 0.0).unwrap().into(),
        Obb::new(v(2.0, 1.0), Vec2::ZERO, 1.0).unwrap().into(),
        Aabb::new(v(0.0, 0.0), v(2.0, 1.0)).unwrap().into(),
    ];
    check_all(&shapes);
    for a in &shapes {
        for b in &shapes {
            assert!(intersects(a, b), "{a:?} {b:?}");
        }
    }
}

// ---- found by the fuzz target `query_pair` ----

#[test]
fn capsule_reaching_to_minus_f32_max_has_a_finite_bounding_box() {
    // Its box was widened by one ulp past -f32::MAX, to -inf.
    let a: Shape = Capsule::new(v(-f32::MAX, -8.0), v(-8.0, -8.0), 8.0)
        .unwrap()
        .into();
    let b: Shape = Point::new(v(-8.0, -8.0)).unwrap().into();
    assert_eq!(a.aabb().min().x, -f32::MAX);
    check_pair(&a, &b);
    check_pair(&b, &a);
}

#[test]
fn ray_hitting_a_small_far_circle_has_a_normal() {
    // The disc's normal cancelled to zero in f64, and normalising it gave NaN.
    let a: Shape = Circle::new(v(2051.0, -1.1529215e18), 8.0).unwrap().into();
    let from = v(-8.0, -8.0);
    let hit = cast_ray(&a, &Ray::new(from, a.aabb().center() - from), f32::INFINITY).unwrap();
    assert!(
        hit.normal.is_finite() && (hit.normal.length() - 1.0).abs() < 1e-6,
        "{hit:?}"
    );
}

#[test]
fn circle_on_the_end_of_a_very_long_capsule_is_pushed_off_the_end() {
    // The nearest point on the capsule's axis was computed from its far end and cancelled,
    // landing 1e17 away, so the normal pointed the wrong way.
    let a: Shape = Capsule::new(v(-2.5961484e33, -8.0), v(-8.0, -8.0), 8.0)
        .unwrap()
        .into();
    let b: Shape = Circle::new(v(-1.1e-44, -8.0), 8.0).unwrap().into();
    let c = contact(&a, &b).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::X, 8.0), "{c:?}");
    check_pair(&a, &b);
}

#[test]
fn circle_centered_on_a_capsule_axis_gets_the_axis_normal() {
    // The nearest point on the axis came out 1e-44 from the center, and that rounding noise
    // set the normal along the axis, where the way out is three times as long.
    let a: Shape = Capsule::new(v(2048.0, -8.0), v(-8.0, -8.0), 8.0)
        .unwrap()
        .into();
    let b: Shape = Circle::new(v(-1.1e-44, -8.0), 8.0).unwrap().into();
    let c = contact(&a, &b).unwrap();
    assert_eq!(
        (c.normal.x, c.normal.y.abs(), c.depth),
        (0.0, 1.0, 16.0),
        "{c:?}"
    );
    check_pair(&a, &b);
}

#[test]
fn small_polygon_moved_far_collapses_to_the_point_it_rounds_to() {
    // `transformed` kept the three vertices, rounded to one point, as a "triangle", which
    // intersected a segment it did not touch.
    use collide2d::math::Pose;
    let a: Shape = Obb::new(
        v(-1.2376951e17, -1.2376951e17),
        v(7.6293945e-6, 1.4757395e20),
        2.3561945,
    )
    .unwrap()
    .into();
    let b: Shape = ConvexPolygon::new(&[v(-8.0, -8.0), v(1e7, 0.0), v(1e7, 1e7)])
        .unwrap()
        .into();
    check_pair(&a, &b);
    let c = contact(&a, &b).unwrap();
    let moved = b.transformed(&Pose::from_translation(c.normal * 1.5e17));
    let Shape::ConvexPolygon(p) = &moved else {
        panic!("{moved:?}")
    };
    assert_eq!(p.points().len(), 1, "{moved:?}");
    assert!(!intersects(&a, &moved));
    check_pair(&a, &moved);
}

#[test]
fn circle_centered_just_inside_a_capsule_end_is_pushed_sideways() {
    // The projection onto the axis rounded to the end point, whose direction (along the axis)
    // does not separate them; the center lies beside the segment, by 3e-40.
    let a: Shape = Capsule::new(v(-6.0, -7.0), v(1.659521e-39, -8.0), 2.0)
        .unwrap()
        .into();
    let b: Shape = Circle::new(v(6.745e-41, -8.0), 8.0).unwrap().into();
    let c = contact(&a, &b).unwrap();
    let axis = v(6.0, -1.0).normalize();
    assert!(c.normal.dot(axis).abs() < 1e-6, "{c:?}");
    assert_eq!(c.depth, 10.0);
    check_pair(&a, &b);
}

/// Found by `world_ops`: measured from the far end, `a - o` rounded the ray's origin onto the
/// segment's line, so a ray starting 1.7e7 below the near end hit it at `t = 0` (and the grid
/// and tree worlds disagreed, as only the tree prunes by bounding box).
#[test]
fn ray_far_off_the_near_end_of_a_long_steep_segment_misses() {
    let segment: Shape = Segment::new(v(7.205_759_4e16, 1e30), v(1.183_291_4e-30, 16_777_220.0))
        .unwrap()
        .into();
    let ray = Ray::new(v(-1.0, 3.75), v(-1.0, -3.0));
    assert_eq!(cast_ray(&segment, &ray, f32::INFINITY), None);
    // Aimed at the near end, it still hits there.
    let up = Ray::new(v(1.183_291_4e-30, 0.0), v(0.0, 1.0));
    let hit = cast_ray(&segment, &up, f32::INFINITY).unwrap();
    assert_eq!(hit.t, 16_777_220.0);
}

/// Found by `world_ops`: a capsule whose radius (5e-34) vanishes against its ends' coordinates
/// became a rectangle of zero width, whose end edges bound nothing: a ray crossing its axis's
/// line far past the end (at y = 8.8, the capsule ending at 0.8) hit it.
#[test]
fn ray_past_the_end_of_a_capsule_thinner_than_rounding_misses() {
    let capsule: Shape = Capsule::new(
        v(2.300_000_2, -2.199_958_8),
        v(2.300_000_2, 0.8),
        5.186_764_6e-34,
    )
    .unwrap()
    .into();
    let ray = Ray::new(v(-1.5, 1.2), v(1.0, 2.0));
    assert_eq!(cast_ray(&capsule, &ray, f32::INFINITY), None);
    // Across its middle, it is hit like the segment.
    let across = Ray::new(v(0.0, 0.0), v(1.0, 0.0));
    let hit = cast_ray(&capsule, &across, f32::INFINITY).unwrap();
    assert_eq!((hit.t, hit.normal), (2.300_000_2, v(-1.0, 0.0)));
    check_pair(&capsule, &Point::new(v(2.300_000_2, 8.8)).unwrap().into());
}

/// Shapes moved past `±f32::MAX` by `transformed` have infinite coordinates, and moved again,
/// NaN ones. The documented contract: every query answers (unspecified), none panics, also in
/// debug builds (which run the library's internal assertions); and a world refuses such a shape
/// with `NonFiniteShape` rather than take it in behind a bounding box clamped to `±f32::MAX`.
#[test]
fn shapes_moved_past_f32_max_never_panic_and_a_world_refuses_them() {
    use collide2d::math::Pose;
    use collide2d::{cast_shapes, BroadPhase, CollisionWorld, Filter, ObjectKind, WorldError};
    let far = Pose::from_translation(v(f32::MAX, -f32::MAX));
    let mut broken = Vec::new();
    for s in kit(v(1e38, -1e38), 1.0) {
        let infinite = s.transformed(&far).transformed(&far);
        let nan = infinite.transformed(&Pose::new(v(1.0, 1.0), 0.5));
        broken.extend([infinite, nan]);
    }
    let fine = kit(v(0.0, 0.0), 1.0);
    let ray = Ray::new(v(-5.0, -5.0), v(1.0, 1.0));
    for a in &broken {
        let _ = (a.aabb(), cast_ray(a, &ray, f32::INFINITY));
        let _ = (
            contains_point(a, v(0.0, 0.0)),
            distance_to_point(a, v(1.0, 2.0)),
        );
        let _ = project_point(a, v(1.0, 2.0));
        for b in fine.iter().chain(&broken) {
            for (a, b) in [(a, b), (b, a)] {
                let _ = (intersects(a, b), contact(a, b), distance(a, b));
                let _ = (closest_points(a, b), contains(a, b));
                let _ = cast_shapes(a, v(1.0, 0.0), b, v(0.0, -1.0));
            }
        }
        let mut world = CollisionWorld::new(BroadPhase::default());
        assert_eq!(
            world.insert(a.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ()),
            Err(WorldError::NonFiniteShape),
            "{a:?}"
        );
        let h = world
            .insert(fine[2].clone(), Filter::DEFAULT, ObjectKind::Dynamic, ())
            .unwrap();
        assert_eq!(
            world.set_shape(h, a.clone()),
            Err(WorldError::NonFiniteShape)
        );
        // Moved past f32::MAX in two steps: the second is refused, the object stays finite.
        assert_eq!(world.move_by(h, v(f32::MAX, 0.0)), Ok(()));
        assert_eq!(
            world.move_by(h, v(f32::MAX, 0.0)),
            Err(WorldError::NonFiniteShape)
        );
        assert!(world.shape(h).unwrap().is_finite());
        world.update();
        // Queries with such a shape answer; none panics.
        let _ = world.objects_overlapping(a, u64::MAX);
        let _ = world.cast_shape_all(a, v(1.0, 1.0), u64::MAX);
        let _ = world.move_shape(a, v(1.0, 1.0), u64::MAX, |_, _| collide2d::Response::Slide);
    }
}
