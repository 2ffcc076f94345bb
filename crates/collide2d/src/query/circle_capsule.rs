//! Circle against capsule: the distance from the center to the capsule's segment
//! (Ericson, RTCD 5.1.2), against the sum of the radii.

use crate::exact::{point_segment_filter, point_segment_within_f64};
use crate::query::Contact;
use crate::shape::{Capsule, Circle};
use glam::DVec2;

/// The disc and the capsule share a point, exactly.
#[inline]
pub(crate) fn intersects(c: &Circle, k: &Capsule) -> bool {
    // Both radii are >= 0 (the constructors check), so their sum is, as the filter needs.
    let r = c.radius() + k.radius();
    debug_assert!(r >= 0.0 || r.is_nan(), "negative radius sum {r}");
    match point_segment_filter(c.center(), k.a(), k.b(), r) {
        Some(within) => within,
        None => intersects_f64(c, k),
    }
}

/// [`intersects`] past its `f32` filter, taking the shapes by reference so that the common
/// path need not keep their numbers for it.
#[cold]
#[inline(never)]
fn intersects_f64(c: &Circle, k: &Capsule) -> bool {
    point_segment_within_f64(c.center(), k.a(), k.b(), c.radius(), k.radius())
}

/// The contact (normal from the disc towards the capsule; a center on the capsule's segment
/// gets the segment's left normal, `+X` for a point capsule), or `None` when the disc and the
/// capsule do not intersect, decided by the same exact predicate as [`intersects`], which runs
/// only when the distance the contact computes anyway is within its error bound of the sum of
/// the radii.
///
/// Error bound. Let `m` be the largest coordinate magnitude of the center and the segment's
/// ends, `D` the true distance from the center to the segment, `dist` the computed one.
/// Every difference of `f32` inputs is rounded once in `f64` (relative error `e = 2^-53`), so
/// `|from_a|, |from_b| <= 2.83 m`, and the products and sums add a few `e` each. Nearest
/// point an end: `dist` is `|center - end|` within `3e` relative; if the true projection is
/// not before that end, the computed dot product that chose it was within `2e |e||from|` of 0,
/// which puts the end within `8 e^2 |from|` of `D`. Beside the segment: `cross` is within
/// `8e |e||rel|` of the exact cross product, `len` within `2e` of `|e|`, so `dist` is within
/// `10e |rel| + 3e dist` of the distance to the line, which is `D` or (when the float side
/// test was wrong by its rounding) within `8 e^2 |rel|` of it. So `|dist - D| <= 40e (m +
/// dist)`, and `r = rc + rk` is rounded once (`e r`): a margin of `2^-40 (m + dist + r)`
/// (over 8000 `e`) leaves room, and the comparison is certain outside it. No step overflows
/// or underflows (`f32` inputs in `f64`; nonzero squares of `f32` differences are at least
/// `2^-298`).
///
/// Pairs clearly apart are found before any square root or division: `dist > hi` with
/// `hi = r + 2^-36 (m + r)`, tested as `d2 > hi^2` at an end and `cross^2 > hi^2 len^2`
/// beside, implies the computed `dist` (within a few `e` of what those squares say) exceeds
/// `r + 2^-40 (m + dist + r)` (as `dist <= 2.83 m`), so `D > r`: a certain miss. Squares that
/// overflow to infinity only arise for distances far beyond any radius, or leave the
/// comparison false (both infinite). The pairs left with `dist >= r - tol` (touching, or
/// within the thin band up to `hi`) take the exact test.
#[inline]
pub(crate) fn contact_checked(c: &Circle, k: &Capsule) -> Option<Contact> {
    contact_impl::<false>(c, k)
}

/// [`contact_checked`] with the normal negated: the contact seen from the capsule, `(k, c)`.
#[inline]
pub(crate) fn contact_flipped(c: &Circle, k: &Capsule) -> Option<Contact> {
    contact_impl::<true>(c, k)
}

#[inline(always)]
fn contact_impl<const FLIP: bool>(c: &Circle, k: &Capsule) -> Option<Contact> {
    let r = f64::from(c.radius()) + f64::from(k.radius());
    let m = c
        .center()
        .abs()
        .max(k.a().abs())
        .max(k.b().abs())
        .max_element();
    let m = f64::from(m);
    let hi = r + (m + r) * (1.0 / (1u64 << 36) as f64);
    let near = nearest(c, k, hi * hi)?;
    let dist = near.2;
    // Below `r - tol`, certainly touching; from there to `hi` (a band of `2^-36 (m + r)`),
    // the exact test decides.
    let tol = (m + dist + r) * (1.0 / (1u64 << 40) as f64);
    if dist >= r - tol && !intersects_near_touching(c, k) {
        return None;
    }
    Some(finish::<FLIP>(c, k, near))
}

/// [`intersects`] out of line: near-touching pairs are rare, and the exact test inlined into
/// [`contact_checked`] would crowd its common path.
#[cold]
#[inline(never)]
fn intersects_near_touching(c: &Circle, k: &Capsule) -> bool {
    intersects(c, k)
}

/// The nearest point of the segment to the center, the unit normal from the center towards
/// it (see [`contact_checked`] when they coincide), and their distance; `None` when the
/// squared distance is certainly above `hi2` (see [`contact_checked`]).
#[inline(always)]
fn nearest(c: &Circle, k: &Capsule, hi2: f64) -> Option<(DVec2, DVec2, f64)> {
    let center = c.center().as_dvec2();
    let (a, b) = (k.a().as_dvec2(), k.b().as_dvec2());
    let e = b - a;
    let (from_a, from_b) = (center - a, center - b);
    // Which part of the segment is nearest, from dot products with each end (a projection
    // parameter `t` would round to 0 or 1 for a center just inside the slab).
    let (along_a, along_b) = (from_a.dot(e), from_b.dot(e));
    if along_a > 0.0 && along_b < 0.0 {
        // Beside the segment: the normal is the segment's, its side and the distance from the
        // cross product with the nearer end. (The nearest point's offset from the center would
        // be lost in rounding when the center is near the axis of a long segment.)
        let rel = if along_a <= -along_b { from_a } else { from_b };
        let cross = e.perp_dot(rel);
        // `e.length()`, rounded the same way.
        let len2 = e.dot(e);
        if cross * cross > hi2 * len2 {
            return None;
        }
        let len = crate::math::sqrt(len2);
        let left = e.perp() / len;
        let n = if cross > 0.0 { -left } else { left };
        let dist = cross.abs() / len;
        Some((center + n * dist, n, dist))
    } else {
        let nearest = if along_a <= 0.0 { a } else { b };
        let delta = nearest - center;
        let d2 = delta.dot(delta);
        if d2 > hi2 {
            return None;
        }
        let dist = crate::math::sqrt(d2);
        let n = if dist > 0.0 {
            delta / dist
        } else {
            e.perp().try_normalize().unwrap_or(DVec2::X)
        };
        Some((nearest, n, dist))
    }
}

/// The contact from [`nearest`]'s answer, its normal negated when `FLIP`.
#[inline(always)]
fn finish<const FLIP: bool>(
    c: &Circle,
    k: &Capsule,
    (nearest, n, dist): (DVec2, DVec2, f64),
) -> Contact {
    let center = c.center().as_dvec2();
    let (rc, rk) = (f64::from(c.radius()), f64::from(k.radius()));
    let point = ((center + n * rc) + (nearest - n * rk)) * 0.5;
    let normal = n.as_vec2();
    Contact::new(
        if FLIP { -normal } else { normal },
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
        let c =
            contact_checked(&Circle::new(Vec2::new(2.0, 2.5), 2.0).unwrap(), &capsule()).unwrap();
        assert_eq!(c.normal, Vec2::NEG_Y);
        assert_eq!(c.depth, 0.5);
        assert_eq!(&c.points[..], &[Vec2::new(2.0, 0.75)]);
    }

    #[test]
    fn center_on_the_segment_uses_its_left_normal() {
        let c =
            contact_checked(&Circle::new(Vec2::new(1.0, 0.0), 0.5).unwrap(), &capsule()).unwrap();
        assert_eq!(c.normal, Vec2::Y);
        assert_eq!(c.depth, 1.5);
    }
}
