//! Circle against axis-aligned box: distance to the clamped center (Ericson, RTCD 5.2.5), so
//! the corners are round, not square as in a box-against-box test.

use crate::exact::cmp_dist2;
use crate::math::Vec2;
use crate::query::aabb_aabb::shallowest;
use crate::query::Contact;
use crate::shape::{Aabb, Circle};
use glam::DVec2;

/// The disc and the box share a point, exactly: clamping is exact, and so is the comparison.
#[inline]
pub(crate) fn intersects(c: &Circle, b: &Aabb) -> bool {
    let nearest = c.center().clamp(b.min(), b.max());
    cmp_dist2(c.center(), nearest, c.radius(), 0.0).is_le()
}

/// Where a disc's centre lies against a box.
enum Nearest {
    /// Outside: the box's point nearest the centre, its offset from the centre, and that
    /// offset's length.
    Outside(DVec2, DVec2, f64),
    /// Inside: the distance to the nearest face (the first of equals) and the normal out
    /// through it, negated.
    Inside(f64, Vec2),
}

/// The disc's centre against the box, in `f64`.
#[inline]
fn nearest(center: DVec2, min: DVec2, max: DVec2) -> Nearest {
    let nearest = center.clamp(min, max);
    if nearest != center {
        // Center outside the box: the nearest box point is on its surface.
        let delta = nearest - center;
        return Nearest::Outside(nearest, delta, delta.length());
    }
    // Center inside: the box is pushed out through the nearest face.
    let (to_face, normal) = shallowest([
        (center.x - min.x, Vec2::X),
        (max.x - center.x, Vec2::NEG_X),
        (center.y - min.y, Vec2::Y),
        (max.y - center.y, Vec2::NEG_Y),
    ]);
    Nearest::Inside(to_face, normal)
}

/// Contact of an intersecting disc and box, normal from the disc towards the box.
#[inline]
pub(crate) fn contact(c: &Circle, b: &Aabb) -> Contact {
    let center = c.center().as_dvec2();
    let r = f64::from(c.radius());
    match nearest(center, b.min().as_dvec2(), b.max().as_dvec2()) {
        Nearest::Outside(nearest, delta, dist) => {
            let n = delta / dist;
            let point = (center + n * r + nearest) * 0.5;
            Contact::new(n.as_vec2(), (r - dist).max(0.0) as f32, &[point.as_vec2()])
        }
        Nearest::Inside(to_face, normal) => {
            let n = normal.as_dvec2();
            let face_point = center - n * to_face;
            let point = (center + n * r + face_point) * 0.5;
            Contact::new(normal, (r + to_face) as f32, &[point.as_vec2()])
        }
    }
}

/// [`contact`]'s depth, the same bits, without its normal and point (a hitbox's parts are
/// weighed by depth before the deepest one's contact is built).
#[cfg(feature = "concave-search")]
#[inline]
pub(crate) fn depth(c: &Circle, b: &Aabb) -> f32 {
    let r = f64::from(c.radius());
    let depth = match nearest(
        c.center().as_dvec2(),
        b.min().as_dvec2(),
        b.max().as_dvec2(),
    ) {
        Nearest::Outside(_, _, dist) => (r - dist).max(0.0),
        Nearest::Inside(to_face, _) => r + to_face,
    };
    // As `Contact::new` clamps it.
    (depth as f32).min(f32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Aabb {
        Aabb::new(Vec2::ZERO, Vec2::new(2.0, 2.0)).unwrap()
    }

    #[test]
    fn circle_near_a_corner_misses_where_box_against_box_would_hit() {
        // The tutorial bug: the circle's bounding box overlaps the box, the disc does not.
        let c = Circle::new(Vec2::new(2.8, 2.8), 1.0).unwrap();
        assert!(c.aabb().overlaps(&unit_box()));
        assert!(!intersects(&c, &unit_box()));
    }

    #[test]
    fn circle_touching_an_edge_and_a_corner_intersects() {
        assert!(intersects(
            &Circle::new(Vec2::new(3.0, 1.0), 1.0).unwrap(),
            &unit_box()
        ));
        // Corner (2, 2), center (5, 6): distance 5.
        assert!(intersects(
            &Circle::new(Vec2::new(5.0, 6.0), 5.0).unwrap(),
            &unit_box()
        ));
        assert!(!intersects(
            &Circle::new(Vec2::new(5.0, 6.0), 4.999_999_5).unwrap(),
            &unit_box()
        ));
    }

    #[test]
    fn center_inside_pushes_through_the_nearest_face() {
        let c = contact(
            &Circle::new(Vec2::new(1.5, 1.0), 0.25).unwrap(),
            &unit_box(),
        );
        assert_eq!(c.normal, Vec2::NEG_X);
        assert_eq!(c.depth, 0.75);
    }
}
