//! Rotated box against rotated (or axis-aligned) box: the separating axis test on the two boxes'
//! four axes (Ericson, RTCD 4.4.1), in `f64`.
//!
//! The boxes *are* the hulls of their `f32` corners, which lie within a known rounding error
//! `e` of the ideal rectangles. So a separation on some axis larger than the errors proves the
//! hulls apart, and an overlap deeper than the errors on every axis proves them intersecting
//! (each hull contains its ideal rectangle shrunk by `2e`). Only pairs within that margin of
//! touching take the exact generic path.

use crate::math::Vec2;
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

/// What [`BoxView::of_obb`] needs beyond the box's own fields, computed once when the box is
/// built (boxes are immutable): the error bound `err` below, rounded up to `f32`, or infinity
/// when the float test does not apply (a rotation that is not a unit vector, a hand-made pose;
/// or a box too thin for the shrunk-rectangle argument). Infinity makes [`certain`] undecided,
/// so the exact generic path takes those boxes.
pub(crate) fn obb_filter_err(center: Vec2, half: Vec2, rotation: Vec2) -> f32 {
    let rot = rotation.as_dvec2();
    if (rot.length_squared() - 1.0).abs() > 1e-6 {
        return f32::INFINITY;
    }
    let (center, half) = (center.as_dvec2(), half.as_dvec2());
    // Each corner coordinate takes at most 3 f32 roundings of terms no larger than
    // |center| + hx + hy, so it lies within 2^-21 of that from the ideal: 2^-20 leaves room
    // (and covers |rot| differing from 1 by 1e-6).
    let err = (center.abs().max_element() + half.x + half.y) * (1.0 / (1u64 << 20) as f64)
        + (half.x + half.y) * 1e-6;
    round_up(err, half)
}

/// `err` rounded up to `f32` (never below it), or infinity when a half extent is at most
/// twice that: too thin for the shrunk-rectangle argument.
fn round_up(err: f64, half: DVec2) -> f32 {
    let mut e = err as f32;
    if f64::from(e) < err {
        e = e.next_up();
    }
    if half.min_element() <= 2.0 * f64::from(e) {
        return f32::INFINITY;
    }
    e
}

impl BoxView {
    /// The box's view, with the error bound computed when it was built (infinite, so never
    /// certain, for a rotation that is not a unit vector or a box too thin).
    #[inline(always)]
    pub(crate) fn of_obb(o: &Obb) -> BoxView {
        // The axis is `rot` itself, not normalised: its length is within 5e-7 of 1, the box
        // `center +- rot * hx +- rot.perp() * hy` it spans (a rectangle scaled by |rot|) is the
        // exact value of the corners' f32 expressions, so they lie within `err` of it, and the
        // separating-axis test below is exact for such rectangles on axes of any length (every
        // projection scales by the axis length, which `certain`'s margin allows for).
        BoxView {
            center: o.center().as_dvec2(),
            half: o.half_extents().as_dvec2(),
            axis: o.rotation().as_dvec2(),
            err: f64::from(o.filter_err()),
        }
    }

    #[inline(always)]
    pub(crate) fn of_aabb(b: &Aabb) -> BoxView {
        let (min, max) = (b.min().as_dvec2(), b.max().as_dvec2());
        let half = (max - min) * 0.5;
        // The corners are exact; only the f64 center and half size round.
        let err = (min.abs().max_element() + max.abs().max_element()) * 1e-15;
        BoxView {
            center: (min + max) * 0.5,
            half,
            axis: DVec2::X,
            err: if half.min_element() <= 2.0 * err {
                f64::INFINITY
            } else {
                err
            },
        }
    }
}

/// `Some(answer)` when the float test is certain, `None` near touching (or when a box's `err`
/// is infinite: then the margin is infinite).
///
/// The separation on each axis is the same expression as the classic four-axis loop; the test
/// stops at the first axis separating the boxes by more than the margin (the maximum of the
/// four would exceed it too), and answers `true` only when all four overlap by more.
#[inline(always)]
fn certain(a: &BoxView, b: &BoxView) -> Option<bool> {
    // Axes of length 1 ± 1e-6 scale each separation by as much; the margin is twice what the
    // argument needs.
    let margin = 4.0 * (a.err + b.err);
    let (ua, va, ub, vb) = (a.axis, a.axis.perp(), b.axis, b.axis.perp());
    let d = b.center - a.center;
    // The sixteen axis products of the classic loop reduce to four, exactly in floating point:
    // u.u_perp = -u.x*u.y + u.y*u.x = 0, va.vb = ua.ub and ua.vb = -(va.ub) (the same products,
    // summed in an order that does not matter for two terms, or negated).
    let (la2, lb2) = (ua.length_squared(), ub.length_squared());
    let (c, s) = (ua.dot(ub).abs(), va.dot(ub).abs());
    let (ha, hb) = (a.half, b.half);
    // The four separations, two at a time, each lane the classic expression with its
    // operations in the same order:
    // (|d.ua|, |d.va|) - ha * la2 - (hb.x * c + hb.y * s, hb.x * s + hb.y * c), and
    // (|d.ub|, |d.vb|) - (ha.x * c + ha.y * s, ha.x * s + ha.y * c) - hb * lb2, where
    // d.va = d.x * (-ua.y) + d.y * ua.x (`perp`), and likewise for b.
    let sc = DVec2::new(c, s);
    let cs = DVec2::new(s, c);
    let proj_a = d.x * DVec2::new(ua.x, va.x) + d.y * DVec2::new(ua.y, va.y);
    let sep_a = proj_a.abs() - ha * la2 - (hb.x * sc + hb.y * cs);
    if sep_a.x > margin || sep_a.y > margin {
        return Some(false);
    }
    let proj_b = d.x * DVec2::new(ub.x, vb.x) + d.y * DVec2::new(ub.y, vb.y);
    let sep_b = proj_b.abs() - (ha.x * sc + ha.y * cs) - hb * lb2;
    if sep_b.x > margin || sep_b.y > margin {
        return Some(false);
    }
    let deep = sep_a.max(sep_b).max_element() < -margin;
    deep.then_some(true)
}

/// The closed boxes share a point, exactly (for their computed corners).
#[inline(always)]
pub(crate) fn intersects(x: BoxView, y: BoxView, a: &Shape, b: &Shape) -> bool {
    certain(&x, &y).unwrap_or_else(|| generic(a, b))
}

/// The boxes are certainly apart by the float test (`false` when it is not certain).
#[inline(always)]
pub(crate) fn certainly_apart(x: BoxView, y: BoxView) -> bool {
    certain(&x, &y) == Some(false)
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
