//! Circle against capsule: the distance from the center to the capsule's segment
//! (Ericson, RTCD 5.1.2), against the sum of the radii.

use crate::exact::point_segment_within;
use crate::query::Contact;
use crate::shape::{Capsule, Circle};
use glam::DVec2;

/// The disc and the capsule share a point, exactly.
#[inline]
pub(crate) fn intersects(c: &Circle, k: &Capsule) -> bool {
    point_segment_within(c.center(), k.a(), k.b(), c.radius(), k.radius())
}

/// Contact of an intersecting disc and capsule, normal from the disc towards the capsule.
/// A center on the capsule's segment gets the segment's left normal (`+X` for a point capsule).
#[inline]
pub(crate) fn contact(c: &Circle, k: &Capsule) -> Contact {
    let center = c.center().as_dvec2();
    let (a, b) = (k.a().as_dvec2(), k.b().as_dvec2());
    let e = b - a;
    let (from_a, from_b) = (center - a, center - b);
    // Which part of the segment is nearest, from dot products with each end (a projection
    // parameter `t` would round to 0 or 1 for a center just inside the slab).
    let (along_a, along_b) = (from_a.dot(e), from_b.dot(e));
    let (nearest, n, dist) = if along_a > 0.0 && along_b < 0.0 {
        // Beside the segment: the normal is the segment's, its side and the distance from the
        // cross product with the nearer end. (The nearest point's offset from the center would
        // be lost in rounding when the center is near the axis of a long segment.)
        let rel = if along_a <= -along_b { from_a } else { from_b };
        let cross = e.perp_dot(rel);
        let len = e.length();
        let left = e.perp() / len;
        let n = if cross > 0.0 { -left } else { left };
        let dist = cross.abs() / len;
        (center + n * dist, n, dist)
    } else {
        let nearest = if along_a <= 0.0 { a } else { b };
        let delta = nearest - center;
        let dist = delta.length();
        let n = if dist > 0.0 {
            delta / dist
        } else {
            e.perp().try_normalize().unwrap_or(DVec2::X)
        };
        (nearest, n, dist)
    };
    let (rc, rk) = (f64::from(c.radius()), f64::from(k.radius()));
    let point = ((center + n * rc) + (nearest - n * rk)) * 0.5;
    Contact::new(
        n.as_vec2(),
        (rc + rk - dist).max(0.0) as f32,
        &[point.as_vec2()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn capsule() -> Capsule {
        Capsule::new(Vec2::ZERO, Vec2::new(4.0, 0.0), 1.0).unwrap()
    }

    #[test]
    fn circle_touching_the_side_and_the_round_end_intersects() {
        let side = Circle::new(Vec2::new(2.0, 3.0), 2.0).unwrap();
        assert!(intersects(&side, &capsule()));
        // End cap centered at (4, 0): (7, 4) is 5 away, radii 1 + 4.
        let end = Circle::new(Vec2::new(7.0, 4.0), 4.0).unwrap();
        assert!(intersects(&end, &capsule()));
        let end_apart = Circle::new(Vec2::new(7.0, 4.0), 3.999_999_8).unwrap();
        assert!(!intersects(&end_apart, &capsule()));
    }

    #[test]
    fn contact_pushes_the_capsule_away_from_the_circle() {
        let c = contact(&Circle::new(Vec2::new(2.0, 2.5), 2.0).unwrap(), &capsule());
        assert_eq!(c.normal, Vec2::NEG_Y);
        assert_eq!(c.depth, 0.5);
        assert_eq!(&c.points[..], &[Vec2::new(2.0, 0.75)]);
    }

    #[test]
    fn center_on_the_segment_uses_its_left_normal() {
        let c = contact(&Circle::new(Vec2::new(1.0, 0.0), 0.5).unwrap(), &capsule());
        assert_eq!(c.normal, Vec2::Y);
        assert_eq!(c.depth, 1.5);
    }
}
