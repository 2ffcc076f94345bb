//! Two `Arbitrary` shapes (built through the constructors), then every query, checking the
//! documented laws: symmetry, `intersects` ⇔ `contact` ⇔ `distance == 0`, no NaN, contacts that
//! separate the shapes when followed (a convex pair exactly along the normal; concave and
//! compound pairs along it or within a small move of it).
#![no_main]

use collide2d::math::{Pose, Vec2};
use collide2d::{
    cast_ray, closest_points, contact, contains, contains_point, distance, distance_to_point,
    intersects, project_point, Ray, Shape,
};
use libfuzzer_sys::fuzz_target;

/// The largest coordinate magnitude of the shape's bounding box.
fn extent(s: &Shape) -> f32 {
    let b = s.aabb();
    b.min().abs().max(b.max().abs()).max_element()
}

/// Not a compound, not a polygon of several parts.
fn is_convex(s: &Shape) -> bool {
    match s {
        Shape::Compound(_) => false,
        Shape::Polygon(p) => p.is_convex(),
        _ => true,
    }
}

/// The convex parts of `s`, compounds and concave polygons opened.
fn convex_parts(s: &Shape, out: &mut Vec<Shape>) {
    match s {
        Shape::Compound(c) => c.parts().iter().for_each(|p| convex_parts(p, out)),
        Shape::Polygon(p) if !p.is_convex() => {
            out.extend(p.parts().iter().map(|q| Shape::ConvexPolygon(q.clone())))
        }
        _ => out.push(s.clone()),
    }
}

/// Every pair of convex parts of `a` and `b` that meets only touches: its contact is no deeper
/// than `touch`.
fn only_touching(a: &Shape, b: &Shape, touch: f32) -> bool {
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    convex_parts(a, &mut pa);
    convex_parts(b, &mut pb);
    pa.iter().all(|x| {
        pb.iter()
            .all(|y| contact(x, y).is_none_or(|c| c.depth <= touch))
    })
}

fn check(a: &Shape, b: &Shape) {
    for s in [a, b] {
        let bb = s.aabb();
        assert!(bb.min().is_finite() && bb.max().is_finite(), "{bb:?}");
        assert!(bb.center().is_finite(), "{bb:?}");
    }
    let hit = intersects(a, b);
    assert_eq!(intersects(b, a), hit, "intersects is symmetric");
    let c = contact(a, b);
    let d = distance(a, b);
    assert_eq!(c.is_some(), hit, "contact exactly when intersecting");
    assert!(!d.is_nan() && d >= 0.0, "distance {d}");
    assert_eq!(d == 0.0, hit, "distance {d} is 0 exactly when intersecting");
    assert_eq!(
        distance(b, a).to_bits(),
        d.to_bits(),
        "distance is symmetric"
    );
    let cp = closest_points(a, b);
    assert_eq!(cp.is_none(), hit, "closest points exactly when apart");
    if let Some(cp) = cp {
        assert_eq!(cp.distance.to_bits(), d.to_bits());
        assert!(!cp.point_a.is_nan() && !cp.point_b.is_nan(), "{cp:?}");
        let back = closest_points(b, a).expect("symmetric");
        assert_eq!((back.point_a, back.point_b), (cp.point_b, cp.point_a));
    }
    if a != b {
        assert_eq!(contact(b, a), c.map(|c| c.flipped()), "contact flips");
    }
    if let Some(c) = c {
        assert!(c.depth.is_finite() && c.depth >= 0.0, "depth {c:?}");
        assert!(c.normal.is_finite(), "normal {c:?}");
        assert!((c.normal.length() - 1.0).abs() <= 1e-5, "normal {c:?}");
        assert!(matches!(c.points.len(), 1 | 2), "{c:?}");
        assert!(c.points.iter().all(|p| p.is_finite()), "points {c:?}");
        // Soundness: b moved along the normal a little past the depth no longer overlaps a.
        // The margin covers the rounding of coordinates up to `scale`.
        let scale = extent(a).max(extent(b)).max(c.depth);
        let margin = 1e-3 * scale + 1e-40;
        let apart_after = |v: Vec2| !intersects(a, &b.transformed(&Pose::from_translation(v)));
        if is_convex(a) && is_convex(b) && scale < 1e36 {
            let step = c.normal * (c.depth + margin);
            assert!(apart_after(step), "contact {c:?} does not separate");
        } else if scale < 1e30 {
            // The depth counts only pieces `B_j − A_i` with interior: two collinear segments,
            // or a point on a segment, may stay touching along the move (the docs' exception),
            // and in `f32` a move across a line at 1e27 keeps it touching too. So a move is
            // accepted when the shapes are apart or only touch: every pair of parts that still
            // meets has a contact depth within the rounding of `scale`. Any overlap of area
            // (a part of `b` left inside one of `a`) still fails.
            let touch = f32::EPSILON * scale;
            let parted_after = |v: Vec2| {
                let moved = b.transformed(&Pose::from_translation(v));
                apart_after(v) || only_touching(a, &moved, touch)
            };
            // The whole shape's minimum translation: past the depth the shapes are apart, or
            // (the nearest boundary point is the tip of a narrow notch facing sideways) a
            // further move of `2 margin` in some direction parts them, or (an end beside a
            // cusp, where two round parts touch one behind the other; or a far part of `a`
            // lies within `margin` beyond the exit, as at 1e27) a smaller move past the depth
            // parts them, as the docs promise: "a further small move separates". The
            // smallest tried, margin / 4^6, is still 4 times the f32 rounding of the move.
            let step = c.normal * (c.depth + margin);
            let ring = (0..16).map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 16.0));
            let beside_a_cusp = (1..=6).map(|k| c.normal * (c.depth + margin / 4f32.powi(k)));
            // A slit narrower than the margin (a segment through a gap of 1e-31 between two
            // parts of `b`, near coordinates of 20): moves past the depth by a part of itself.
            // Where the depth is wrong these still overlap.
            let in_a_slit = (1..=6).map(|k| c.normal * (c.depth * (1.0 + 0.25f32.powi(k))));
            let apart = core::iter::once(Vec2::ZERO)
                .chain(ring.map(|u| u * (2.0 * margin)))
                .map(|d| step + d)
                .chain(beside_a_cusp)
                .chain(in_a_slit)
                .any(parted_after);
            assert!(apart, "contact {c:?} does not separate the whole shapes");
        }
    }
    let _ = contains(a, b);
    let _ = contains(b, a);
    // Point queries at b's corners and center.
    let bb = b.aabb();
    for p in [bb.min(), bb.max(), bb.center()] {
        if !p.is_finite() {
            continue;
        }
        let inside = contains_point(a, p);
        let dp = distance_to_point(a, p);
        assert!(!dp.is_nan() && dp >= 0.0, "distance_to_point {dp}");
        assert_eq!(
            dp == 0.0,
            inside,
            "distance_to_point {dp} vs contains_point {inside}"
        );
        let proj = project_point(a, p);
        assert!(!proj.point.is_nan(), "{proj:?}");
        assert_eq!(proj.is_inside, inside);
    }
    // A ray from b's center towards a's.
    let (from, to) = (bb.center(), a.aabb().center());
    if from.is_finite() && to.is_finite() && from != to {
        let dir = (to - from).normalize_or_zero();
        if dir != Vec2::ZERO {
            let ray = Ray::new(from, dir);
            if let Some(hit) = cast_ray(a, &ray, f32::INFINITY) {
                assert!(
                    hit.t >= 0.0 && !hit.point.is_nan() && !hit.normal.is_nan(),
                    "{hit:?}"
                );
            }
        }
    }
}

fuzz_target!(|pair: (Shape, Shape)| {
    check(&pair.0, &pair.1);
});
