//! Circle against axis-aligned box: distance to the clamped center (Ericson, RTCD 5.2.5), so
//! the corners are round, not square as in a box-against-box test.

use crate::exact::cmp_dist2;
use crate::math::Vec2;
use crate::query::aabb_aabb::shallowest;
use crate::query::Contact;
use crate::shape::{Aabb, Circle};

/// The disc and the box share a point, exactly: clamping is exact, and so is the comparison.
#[inline]
pub(crate) fn intersects(c: &Circle, b: &Aabb) -> bool {
    let nearest = c.center().clamp(b.min(), b.max());
    cmp_dist2(c.center(), nearest, c.radius(), 0.0).is_le()
}

/// Contact of an intersecting disc and box, normal from the disc towards the box.
#[inline]
pub(crate) fn contact(c: &Circle, b: &Aabb) -> Contact {
    let center = c.center().as_dvec2();
    let (min, max) = (b.min().as_dvec2(), b.max().as_dvec2());
    let r = f64::from(c.radius());
    let nearest = center.clamp(min, max);
    if nearest != center {
        // Center outside the box: the nearest box point is on its surface.
        let delta = nearest - center;
        let dist = delta.length();
        let n = delta / dist;
        let point = (center + n * r + nearest) * 0.5;
        return Contact::new(n.as_vec2(), (r - dist).max(0.0) as f32, &[point.as_vec2()]);
    }
    // Center inside: push the box out through the nearest face.
    let candidates = [
        (center.x - min.x, Vec2::X),
        (max.x - center.x, Vec2::NEG_X),
        (center.y - min.y, Vec2::Y),
        (max.y - center.y, Vec2::NEG_Y),
    ];
    let (to_face, normal) = shallowest(candidates);
    let n = normal.as_dvec2();
    let face_point = center - n * to_face;
    let point = (center + n * r + face_point) * 0.5;
    Contact::new(normal, (r + to_face) as f32, &[point.as_vec2()])
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
