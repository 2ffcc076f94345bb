//! Rotated box against rotated (or axis-aligned) box: the separating axis test on the two boxes'
//! four axes (Ericson, RTCD 4.4.1), in `f64`.
//!
//! The boxes *are* the hulls of their `f32` corners, which lie within a known rounding error
//! `e` of the ideal rectangles. So a separation on some axis larger than the errors proves the
//! hulls apart, and an overlap deeper than the errors on every axis proves them intersecting
//! (each hull contains its ideal rectangle shrunk by `2e`). Only pairs within that margin of
//! touching take the exact generic path.

use crate::query::convex;
use crate::shape::{Aabb, Obb, Shape};
use glam::DVec2;

/// A box as center, half extents, unit axis, and how far its hull may stray from that ideal.
#[derive(Clone, Copy)]
pub(crate) struct BoxView {
    center: DVec2,
    half: DVec2,
    axis: DVec2,
    err: f64,
}

impl BoxView {
    /// `None` for a rotation that is not a unit vector (a hand-made pose): the generic path
    /// takes those.
    #[inline]
    pub(crate) fn of_obb(o: &Obb) -> Option<BoxView> {
        let rot = o.rotation().as_dvec2();
        if (rot.length_squared() - 1.0).abs() > 1e-6 {
            return None;
        }
        let (center, half) = (o.center().as_dvec2(), o.half_extents().as_dvec2());
        // Each corner coordinate takes at most 3 f32 roundings of terms no larger than
        // |center| + hx + hy, so it lies within 2^-21 of that from the ideal: 2^-20 leaves room
        // (and covers |rot| differing from 1 by 1e-6).
        let err = (center.abs().max_element() + half.x + half.y) * (1.0 / (1u64 << 20) as f64)
            + (half.x + half.y) * 1e-6;
        // The axis is `rot` itself, not normalised: its length is within 5e-7 of 1, the box
        // `center +- rot * hx +- rot.perp() * hy` it spans (a rectangle scaled by |rot|) is the
        // exact value of the corners' f32 expressions, so they lie within `err` of it, and the
        // separating-axis test below is exact for such rectangles on axes of any length (every
        // projection scales by the axis length, which `certain`'s margin allows for).
        Some(BoxView {
            center,
            half,
            axis: rot,
            err,
        })
    }

    #[inline]
    pub(crate) fn of_aabb(b: &Aabb) -> BoxView {
        let (min, max) = (b.min().as_dvec2(), b.max().as_dvec2());
        // The corners are exact; only the f64 center and half size round.
        let err = (min.abs().max_element() + max.abs().max_element()) * 1e-15;
        BoxView {
            center: (min + max) * 0.5,
            half: (max - min) * 0.5,
            axis: DVec2::X,
            err,
        }
    }
}

/// `Some(answer)` when the float test is certain, `None` near touching.
#[inline(always)]
fn certain(a: &BoxView, b: &BoxView) -> Option<bool> {
    if a.half.min_element() <= 2.0 * a.err || b.half.min_element() <= 2.0 * b.err {
        return None; // too thin for the shrunk-rectangle argument
    }
    let (ua, va, ub, vb) = (a.axis, a.axis.perp(), b.axis, b.axis.perp());
    let d = b.center - a.center;
    // The sixteen axis products of the classic loop reduce to four, exactly in floating point:
    // u.u_perp = -u.x*u.y + u.y*u.x = 0, va.vb = ua.ub and ua.vb = -(va.ub) (the same products,
    // summed in an order that does not matter for two terms, or negated).
    let (la2, lb2) = (ua.length_squared(), ub.length_squared());
    let (c, s) = (ua.dot(ub).abs(), va.dot(ub).abs());
    let (ha, hb) = (a.half, b.half);
    // Plain comparisons rather than f64::max: every term is finite.
    let max = |x: f64, y: f64| if x > y { x } else { y };
    let sep = max(
        max(
            d.dot(ua).abs() - ha.x * la2 - (hb.x * c + hb.y * s),
            d.dot(va).abs() - ha.y * la2 - (hb.x * s + hb.y * c),
        ),
        max(
            d.dot(ub).abs() - (ha.x * c + ha.y * s) - hb.x * lb2,
            d.dot(vb).abs() - (ha.x * s + ha.y * c) - hb.y * lb2,
        ),
    );
    // Axes of length 1 ± 1e-6 scale `sep` by as much; the margin is twice what the argument needs.
    let margin = 4.0 * (a.err + b.err);
    if sep > margin {
        Some(false)
    } else if sep < -margin {
        Some(true)
    } else {
        None
    }
}

/// The closed boxes share a point, exactly (for their computed corners).
#[inline(always)]
pub(crate) fn intersects(x: Option<BoxView>, y: Option<BoxView>, a: &Shape, b: &Shape) -> bool {
    let float = match (x, y) {
        (Some(x), Some(y)) => certain(&x, &y),
        _ => None,
    };
    float.unwrap_or_else(|| generic(a, b))
}

/// The boxes are certainly apart by the float test (`false` when it is not certain).
#[inline(always)]
pub(crate) fn certainly_apart(x: Option<BoxView>, y: Option<BoxView>) -> bool {
    matches!((x, y), (Some(x), Some(y)) if certain(&x, &y) == Some(false))
}

#[cold]
fn generic(a: &Shape, b: &Shape) -> bool {
    match (a.as_convex(), b.as_convex()) {
        (Some(ha), Some(hb)) => convex::intersects(&ha, &hb),
        _ => false, // boxes are always convex
    }
}

#[cfg(test)]
mod tests {
    use crate::math::Vec2;
    use crate::shape::{Obb, Shape};
    use crate::{intersects, Aabb};
    use core::f32::consts::FRAC_PI_4;

    fn obb(x: f32, y: f32, hx: f32, hy: f32, angle: f32) -> Shape {
        Obb::new(Vec2::new(x, y), Vec2::new(hx, hy), angle)
            .unwrap()
            .into()
    }

    #[test]
    fn diamond_near_a_box_corner_misses() {
        // The diamond's tip at (2 + sqrt 2 - 0.5 ...) stays clear of the corner region.
        let a = obb(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = obb(2.5, 2.5, 1.0, 1.0, FRAC_PI_4);
        assert!(!intersects(&a, &b));
        assert!(!intersects(&b, &a));
    }

    #[test]
    fn touching_rotated_boxes_intersect() {
        // Two unrotated obbs sharing an edge: the exact path decides the touching case.
        let a = obb(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = obb(2.0, 0.5, 1.0, 1.0, 0.0);
        assert!(intersects(&a, &b));
        let apart = obb(2.0f32.next_up(), 0.5, 1.0, 1.0, 0.0);
        assert!(!intersects(&a, &apart));
    }

    #[test]
    fn deep_and_far_pairs_agree_with_the_generic_path() {
        let a = obb(0.0, 0.0, 3.0, 1.0, 0.3);
        for (x, y, angle) in [
            (1.0, 1.0, 0.7),
            (5.0, 0.0, 1.1),
            (0.0, 3.0, -0.4),
            (9.0, 9.0, 2.0),
        ] {
            let b = obb(x, y, 1.5, 0.5, angle);
            let generic =
                crate::query::convex::intersects(&a.as_convex().unwrap(), &b.as_convex().unwrap());
            assert_eq!(intersects(&a, &b), generic, "{x} {y} {angle}");
        }
    }

    #[test]
    fn aabb_against_obb_uses_the_same_test() {
        let b: Shape = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 2.0)).unwrap().into();
        assert!(intersects(&b, &obb(3.0, 1.0, 1.0, 1.0, FRAC_PI_4)));
        assert!(!intersects(&b, &obb(3.5, 1.0, 1.0, 1.0, FRAC_PI_4)));
    }
}
