//! The convex path against its exact references, at every scale.

use crate::math::Vec2;
use crate::shape::{Aabb, Capsule, ConvexPolygon, Point, Segment, Shape};

/// The point `(-7, -2) * u` against the capsule `(-3, 0)-(-6, 0)` of radius `3 * u`.
fn point_in_capsule_end(u: f32) -> (Shape, Shape) {
    let p = Point::new(Vec2::new(-7.0, -2.0) * u).unwrap();
    let c = Capsule::new(Vec2::new(-3.0, 0.0) * u, Vec2::new(-6.0, 0.0) * u, 3.0 * u).unwrap();
    (p.into(), c.into())
}

#[test]
fn tiny_shapes_get_the_same_contact_as_unit_ones() {
    // Found by the property tests: the "hulls clearly apart" threshold had an absolute floor
    // of 1e-9, so below that size a capsule end got a face normal (0, 1) and depth 1 * u
    // instead of the closest-points normal and 3 - sqrt(5) = 0.764 * u.
    let unit =
        crate::query::contact(&point_in_capsule_end(1.0).0, &point_in_capsule_end(1.0).1).unwrap();
    for e in [-34, -60, -140] {
        let u = 2f64.powi(e) as f32;
        let (a, b) = point_in_capsule_end(u);
        let c = crate::query::contact(&a, &b).unwrap();
        assert!(
            (c.normal - unit.normal).length() < 1e-6,
            "2^{e}: normal {} vs {}",
            c.normal,
            unit.normal
        );
        assert!(
            (c.depth / u - unit.depth).abs() < 1e-2,
            "2^{e}: depth {} vs {}",
            c.depth / u,
            unit.depth
        );
    }
}

#[test]
fn perpendicular_segments_get_a_contact_point_where_they_cross() {
    // Found by the property tests: b's tangent axis tied a's face normal up to rounding and
    // won, and the contact point became b's first vertex, (4.88, 1.08), about 5 units from
    // the crossing near (2, -3).
    let a: Shape = Segment::new(Vec2::new(2.0, -3.0), Vec2::new(8.0, -7.0))
        .unwrap()
        .into();
    let b: Shape = Segment::new(Vec2::new(5.0, 1.0), Vec2::new(-1.0, -8.0))
        .unwrap()
        .into();
    let c = crate::query::contact(&a, &b).unwrap();
    assert!(
        (c.depth - 1.0 / 13f32.sqrt()).abs() < 1e-6,
        "depth {}",
        c.depth
    );
    assert_eq!(c.points.len(), 1);
    assert!(
        c.points[0].distance(Vec2::new(2.0, -3.0)) < 0.2,
        "point {}",
        c.points[0]
    );
}

#[test]
fn tiny_shapes_keep_only_contact_points_within_reach() {
    // Found by the property tests: the clipping tolerance had an absolute floor of 1e-9, so
    // at 2^-140 a point about one unit (scaled) outside the overlap was kept as a second
    // contact point. Unit scale keeps one point; so must every scale.
    let contact_at = |u: f32| {
        let v = |x: f32, y: f32| Vec2::new(x, y) * u;
        let flat = Aabb::new(v(-7.0, 8.0), v(0.0, 8.0)).unwrap();
        let hull = [
            v(-1.4375, 9.050781),
            v(4.109375, 0.73046875),
            v(7.4375, 2.9492188),
            v(1.890625, 11.269531),
        ];
        let tilted = ConvexPolygon::new(&hull).unwrap();
        crate::query::contact(&flat.into(), &tilted.into()).unwrap()
    };
    let unit = contact_at(1.0);
    assert_eq!(unit.points.len(), 1);
    let u = 2f64.powi(-140) as f32;
    let tiny = contact_at(u);
    assert_eq!(tiny.points.len(), 1, "{tiny:?}");
    assert!(
        (tiny.points[0] / u - unit.points[0]).length() < 0.01,
        "{tiny:?}"
    );
}

mod polygons {
    use super::super::*;
    use crate::shape::hull::convex_hull;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The hull of `pts` on a grid of `unit`, moved by `(ox, oy)`.
    fn hull(pts: &[(i8, i8)], unit: f32, ox: f32, oy: f32) -> Vec<Vec2> {
        let pts: Vec<Vec2> = pts
            .iter()
            .map(|&(x, y)| Vec2::new(f32::from(x) * unit + ox, f32::from(y) * unit + oy))
            .collect();
        convex_hull(&pts)
    }

    /// Two hulls of fewer than `most` grid points each, at one of five scales, `b` moved
    /// from `a` on or off the grid, both near the origin or far from it: on the grid,
    /// edges and vertices of the two meet exactly; far away, the `f32` filters' rounding is
    /// large against the polygons.
    fn grid_hulls(most: usize) -> impl Strategy<Value = (Vec<Vec2>, Vec<Vec2>)> {
        let points = || prop::collection::vec((-6i8..=6, -6i8..=6), 3..most);
        (
            points(),
            points(),
            prop_oneof![
                Just(1.0f32),
                Just(0.37),
                Just(1e-20),
                Just(3e-17),
                Just(1e10)
            ],
            (-3.0f32..3.0, -3.0f32..3.0, any::<bool>()),
            prop_oneof![Just(0.0f32), Just(1e4), Just(3e6)],
        )
            .prop_map(|(pa, pb, unit, (ox, oy, on_grid), far)| {
                let (ox, oy) = if on_grid {
                    (ox.round(), oy.round())
                } else {
                    (ox, oy)
                };
                let a = hull(&pa, unit, far * unit, 0.0);
                (a, hull(&pb, unit, (far + ox) * unit, oy * unit))
            })
    }

    fn extent(pts: &[Vec2]) -> f32 {
        pts.iter().fold(0.0, |m, p| m.max(p.abs().max_element()))
    }

    /// The contact's numbers as bits: normal, depth, then the points.
    fn bits(c: Option<Contact>) -> Option<Vec<u32>> {
        c.map(|c| {
            let mut out = vec![
                c.normal.x.to_bits(),
                c.normal.y.to_bits(),
                c.depth.to_bits(),
            ];
            out.extend(c.points.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits()]));
            out
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Grid points touch, share edges and tie often; 3 to 24 points cover the 8- and
        /// 16-slot copies and the fallback; the scales cover the `f32` filter and both
        /// ends it leaves to the `f64` scan.
        #[test]
        fn polygons_contact_is_contact_checked_bit_for_bit((a, b) in grid_hulls(24)) {
            prop_assume!(a.len() >= 3 && b.len() >= 3);
            let e = extent(&a).max(extent(&b));
            let fast = polygons_contact(&a, &b, e);
            let generic = contact_checked(&Convex::slice(&a, 0.0), &Convex::slice(&b, 0.0));
            prop_assert_eq!(bits(fast), bits(generic));
            let depth = polygons_depth(&a, &b, e).map(f32::to_bits);
            prop_assert_eq!(depth, fast.map(|c| c.depth.to_bits()));
        }

        /// Grid hulls touching, sharing edges and crossing at every scale: the `f32`
        /// filter of `polygons_intersect` answers as the exact face test, whenever it answers.
        #[test]
        fn polygons_intersect_is_the_exact_face_test((a, b) in grid_hulls(12)) {
            prop_assume!(a.len() >= 3 && b.len() >= 3);
            let e = extent(&a).max(extent(&b));
            let exact = !face_separates(&a, &b) && !face_separates(&b, &a);
            prop_assert_eq!(polygons_intersect(&a, &b, e), exact);
            #[cfg(not(target_arch = "wasm32"))]
            if let Some(answer) = filter::polygons_intersect(&a, &b, e) {
                prop_assert_eq!(answer, exact);
            }
        }

        /// A triangle with a corner on (rounded off) an edge of another, at several
        /// scales and offsets: where rounding decides, the filter must leave it to the
        /// exact test.
        #[test]
        fn polygons_intersect_at_a_rounded_touch_is_exact(
            pts in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 3),
            (edge, t, spread) in (0usize..3, 0.05f32..0.95, 0.1f32..2.0),
            scale in prop_oneof![Just(1.0f32), Just(3e-15), Just(1e12)],
            far in prop_oneof![Just(0.0f32), Just(10.0), Just(3e3)],
        ) {
            let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| (Vec2::new(x, y) + far) * scale).collect();
            let a = convex_hull(&pts);
            prop_assume!(a.len() == 3);
            let (p, q) = (a[edge], a[(edge + 1) % 3]);
            let e = q - p;
            let out = Vec2::new(e.y, -e.x);
            let v = p + e * t;
            let b = convex_hull(&[v, v + out + e * spread, v + out - e * spread]);
            prop_assume!(b.len() == 3);
            let x = extent(&a).max(extent(&b));
            let exact = !face_separates(&a, &b) && !face_separates(&b, &a);
            prop_assert_eq!(polygons_intersect(&a, &b, x), exact);
        }

        /// A grid hull against a box (or the segment or point of a flat one) touching
        /// it, or random, at several scales: `sharp_depth` gives `contact_checked`'s depth
        /// and its axis the same contact, bit for bit, and `None` together.
        #[test]
        fn sharp_depth_is_contact_checked_bit_for_bit(
            pa in prop::collection::vec((-6i8..=6, -6i8..=6), 1..12),
            (bx, by, bw, bh) in (-8i8..=8, -8i8..=8, 0i8..=6, 0i8..=6),
            unit in prop_oneof![Just(1.0f32), Just(0.37), Just(1e-20), Just(1e10)],
            (ox, oy, on_grid) in (-3.0f32..3.0, -3.0f32..3.0, any::<bool>()),
            far in prop_oneof![Just(0.0f32), Just(1e4), Just(3e6)],
        ) {
            let (ox, oy) = if on_grid { (ox.round(), oy.round()) } else { (ox, oy) };
            let a = hull(&pa, unit, far * unit, 0.0);
            let min = Vec2::new((f32::from(bx) + far + ox) * unit, (f32::from(by) + oy) * unit);
            let max = min + Vec2::new(f32::from(bw), f32::from(bh)) * unit;
            let boxed = crate::shape::convex::box_hull(min, max);
            let part = Convex::slice(&a, 0.0);
            for (x, y) in [(&part, &boxed), (&boxed, &part)] {
                let generic = contact_checked(x, y);
                let fast = sharp_depth(x, y);
                prop_assert_eq!(fast.map(|f| f.0.to_bits()), generic.map(|c| c.depth.to_bits()));
                prop_assert_eq!(bits(fast.map(|f| f.1.contact(x, y))), bits(generic));
            }
        }

        /// Hulls of random points (of 1 to 24, so segments and points too) at random
        /// scales: the depth pass answers as the contact does, bit for bit.
        #[test]
        fn polygons_depth_is_polygons_contact_depth_bit_for_bit(
            pa in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 1..24),
            pb in prop::collection::vec((-1.0f32..1.0, -1.0f32..1.0), 1..24),
            (ox, oy) in (-2.5f32..2.5, -2.5f32..2.5),
            scale in prop_oneof![Just(1.0f32), Just(3e-15), Just(7e-25), Just(1e12), Just(1e30)],
        ) {
            let at = |p: &[(f32, f32)], dx: f32, dy: f32| -> Vec<Vec2> {
                let pts: Vec<Vec2> =
                    p.iter().map(|&(x, y)| Vec2::new(x + dx, y + dy) * scale).collect();
                convex_hull(&pts)
            };
            let (a, b) = (at(&pa, 0.0, 0.0), at(&pb, ox, oy));
            let e = extent(&a).max(extent(&b));
            let fast = polygons_contact(&a, &b, e);
            let depth = polygons_depth(&a, &b, e).map(f32::to_bits);
            prop_assert_eq!(depth, fast.map(|c| c.depth.to_bits()));
        }
    }
}

mod shapes {
    use super::super::*;
    use crate::shape::Shape;
    use crate::{Aabb, Capsule, Obb, Segment};

    fn hit(a: &Shape, b: &Shape) -> Contact {
        let (ca, cb) = (a.as_convex().unwrap(), b.as_convex().unwrap());
        assert!(intersects(&ca, &cb));
        contact_checked(&ca, &cb).unwrap()
    }

    #[test]
    fn capsule_lying_on_a_box_gets_two_points() {
        let floor: Shape = Aabb::new(Vec2::new(-10.0, -2.0), Vec2::new(10.0, 0.0))
            .unwrap()
            .into();
        let capsule: Shape = Capsule::new(Vec2::new(-1.0, 0.5), Vec2::new(1.0, 0.5), 0.75)
            .unwrap()
            .into();
        let c = hit(&floor, &capsule);
        assert_eq!(c.normal, Vec2::Y);
        assert!((c.depth - 0.25).abs() < 1e-6);
        assert_eq!(c.points.len(), 2);
        for p in c.points.iter() {
            assert!(
                (p.y + 0.125).abs() < 1e-6,
                "midway between the surfaces: {p}"
            );
        }
    }

    #[test]
    fn rotated_boxes_overlapping_push_along_a_face_normal() {
        let a: Shape = Obb::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.0)
            .unwrap()
            .into();
        let b: Shape = Obb::new(
            Vec2::new(2.5, 0.0),
            Vec2::new(1.0, 1.0),
            core::f32::consts::FRAC_PI_4,
        )
        .unwrap()
        .into();
        let c = hit(&a, &b);
        assert!((c.normal - Vec2::X).length() < 1e-6);
        // b's left corner is at 2.5 - sqrt(2), a's right face at 2.
        assert!((c.depth - (2.0 - (2.5 - core::f32::consts::SQRT_2))).abs() < 1e-5);
        assert_eq!(c.points.len(), 1);
    }

    #[test]
    fn crossing_segments_touch_with_zero_depth() {
        let a: Shape = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))
            .unwrap()
            .into();
        let b: Shape = Segment::new(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0))
            .unwrap()
            .into();
        let c = hit(&a, &b);
        assert_eq!(c.depth, 1.0); // b must move 1 along a's normal to stop crossing
        assert!((c.normal.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn collinear_segments_apart_do_not_intersect() {
        let a: Shape = Segment::new(Vec2::ZERO, Vec2::new(1.0, 1.0))
            .unwrap()
            .into();
        let b: Shape = Segment::new(Vec2::new(2.0, 2.0), Vec2::new(3.0, 3.0))
            .unwrap()
            .into();
        assert!(!intersects(
            &a.as_convex().unwrap(),
            &b.as_convex().unwrap()
        ));
        let b_touching: Shape = Segment::new(Vec2::new(1.0, 1.0), Vec2::new(3.0, 3.0))
            .unwrap()
            .into();
        let c = hit(&a, &b_touching);
        assert_eq!(c.depth, 0.0);
    }

    #[test]
    fn capsule_contains_a_circle_touching_its_end_from_inside() {
        let capsule: Shape = Capsule::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 2.0)
            .unwrap()
            .into();
        let inside: Shape = crate::Circle::new(Vec2::new(5.0, 0.0), 1.0).unwrap().into();
        let poking: Shape = crate::Circle::new(Vec2::new(5.0, 0.5), 1.0).unwrap().into();
        let (cap, c_in, c_out) = (
            capsule.as_convex().unwrap(),
            inside.as_convex().unwrap(),
            poking.as_convex().unwrap(),
        );
        assert!(contains(&cap, &c_in));
        assert!(!contains(&cap, &c_out));
    }
}
