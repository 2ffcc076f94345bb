//! Box against axis-aligned box: interval overlap on both axes (Ericson, RTCD 4.2.1).

use crate::math::Vec2;
use crate::query::Contact;
use crate::shape::Aabb;

/// The closed boxes share a point. Exact: only comparisons.
#[inline]
pub(crate) fn intersects(a: &Aabb, b: &Aabb) -> bool {
    a.overlaps(b)
}

/// Contact of overlapping boxes: the axis of least overlap; two points at the ends of the
/// overlap of the touching faces (one when that overlap is a single point).
pub(crate) fn contact(a: &Aabb, b: &Aabb) -> Contact {
    let (amin, amax, bmin, bmax) = (
        a.min().as_dvec2(),
        a.max().as_dvec2(),
        b.min().as_dvec2(),
        b.max().as_dvec2(),
    );
    // Penetration if b moves + / - along each axis.
    let candidates = [
        (amax.x - bmin.x, Vec2::X),
        (bmax.x - amin.x, Vec2::NEG_X),
        (amax.y - bmin.y, Vec2::Y),
        (bmax.y - amin.y, Vec2::NEG_Y),
    ];
    let (depth, normal) = shallowest(candidates);
    // The overlap region is a box; its face across the normal is where the surfaces meet.
    let (lo, hi) = (amin.max(bmin), amax.min(bmax));
    let mid = (lo + hi) * 0.5;
    let points = if normal.x != 0.0 {
        [glam::DVec2::new(mid.x, lo.y), glam::DVec2::new(mid.x, hi.y)]
    } else {
        [glam::DVec2::new(lo.x, mid.y), glam::DVec2::new(hi.x, mid.y)]
    };
    let pts = [points[0].as_vec2(), points[1].as_vec2()];
    let count = if pts[0] == pts[1] { 1 } else { 2 };
    Contact::new(normal, depth.max(0.0) as f32, &pts[..count])
}

/// The candidate with the least penetration (the first one on ties).
#[inline]
pub(crate) fn shallowest(candidates: [(f64, Vec2); 4]) -> (f64, Vec2) {
    candidates
        .into_iter()
        .fold(candidates[0], |best, c| if c.0 < best.0 { c } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1)).unwrap()
    }

    #[test]
    fn touching_boxes_intersect_with_zero_depth() {
        let (a, b) = (aabb(0.0, 0.0, 1.0, 1.0), aabb(1.0, 0.0, 2.0, 1.0));
        assert!(intersects(&a, &b));
        let c = contact(&a, &b);
        assert_eq!((c.normal, c.depth, c.points.len()), (Vec2::X, 0.0, 2));
    }

    #[test]
    fn corner_touching_boxes_give_one_point() {
        let c = contact(&aabb(0.0, 0.0, 1.0, 1.0), &aabb(1.0, 1.0, 2.0, 2.0));
        assert_eq!(c.depth, 0.0);
        assert_eq!(&c.points[..], &[Vec2::ONE]);
    }

    #[test]
    fn boxes_one_unit_apart_do_not_intersect() {
        assert!(!intersects(
            &aabb(0.0, 0.0, 1.0, 1.0),
            &aabb(2.0, 0.0, 3.0, 1.0)
        ));
    }

    #[test]
    fn deep_overlap_picks_the_shallow_axis() {
        let c = contact(&aabb(0.0, 0.0, 10.0, 10.0), &aabb(9.0, 2.0, 20.0, 4.0));
        assert_eq!((c.normal, c.depth), (Vec2::X, 1.0));
        assert_eq!(&c.points[..], &[Vec2::new(9.5, 2.0), Vec2::new(9.5, 4.0)]);
    }
}
