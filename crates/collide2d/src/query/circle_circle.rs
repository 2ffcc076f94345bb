//! Circle against circle: one exact distance comparison (Ericson, RTCD 4.3.1).

use crate::exact::{cmp_dist2_f64, dist2_gap, DIST_F32_GAP};
use crate::query::Contact;
use crate::shape::Circle;

/// The discs share a point: `|c1 - c2| <= r1 + r2`, exactly.
#[inline]
pub(crate) fn intersects(a: &Circle, b: &Circle) -> bool {
    // `cmp_dist2(..).is_le()`, written out: `gap < -DIST_F32_GAP` (the same as `gap < 0`
    // once decided) keeps LLVM from merging this tail with `cmp_dist2`'s in other arms,
    // which cost a taken jump per pair (1.92 -> 1.72 ns per pair in the bench).
    let gap = dist2_gap(a.center(), b.center(), a.radius(), b.radius());
    // `|gap| <= DIST_F32_GAP` (undecided), as one unsigned comparison.
    if gap.wrapping_add(DIST_F32_GAP) as u32 <= 2 * DIST_F32_GAP as u32 {
        return intersects_f64(a, b);
    }
    gap < -DIST_F32_GAP
}

/// [`intersects`] past its `f32` filter, taking the discs by reference so that the common
/// path need not keep their numbers for it.
#[cold]
#[inline(never)]
fn intersects_f64(a: &Circle, b: &Circle) -> bool {
    cmp_dist2_f64(a.center(), b.center(), a.radius(), b.radius()).is_le()
}

/// The contact of the discs (concentric discs get normal `+X`), or `None` when they do not
/// intersect, decided by [`intersects`]'s `f32` filter (pairs apart cost no `f64` at all),
/// with its exact fallback only near touching.
#[inline]
pub(crate) fn contact_checked(a: &Circle, b: &Circle) -> Option<Contact> {
    let gap = dist2_gap(b.center(), a.center(), a.radius(), b.radius());
    if gap > DIST_F32_GAP {
        return None;
    }
    if gap < -DIST_F32_GAP {
        // A certain hit: `d2` is below `rr`, which is finite, so the `f32` difference is too.
        return Some(finish_from_f32::<false>(a, b));
    }
    contact_near_touching(a, b)
}

/// [`contact_checked`] for the dispatcher, in either argument order: it answers the pairs
/// its filter proves apart (`None` in both orders) and the certain hits whose centers differ
/// in both coordinates, and leaves the others to `canonical`, which must be
/// [`contact_checked`] in the canonical argument order (touching or nearly so, or a shared
/// coordinate, whose zero normal component would change sign with the order).
///
/// Certain hits with distinct coordinates need no canonical order: swapping the discs negates
/// the center difference exactly, hence the normal (no zero component to change sign), and
/// leaves the depth and the midpoint (sums of the same two terms) unchanged, so `(b, a)` gives
/// the flipped contact bit for bit. Their distance is never 0, so the normal needs no fallback.
#[inline(always)]
pub(crate) fn contact_or(
    a: &Circle,
    b: &Circle,
    canonical: impl FnOnce() -> Option<Contact>,
) -> Option<Contact> {
    // `b - a`, the difference the contact uses (the filter's squares do not see the sign).
    let gap = dist2_gap(b.center(), a.center(), a.radius(), b.radius());
    if gap > DIST_F32_GAP {
        return None;
    }
    // For finite floats, a difference is 0 exactly when they are equal.
    let d = b.center() - a.center();
    if gap < -DIST_F32_GAP && d.x != 0.0 && d.y != 0.0 {
        // `d2` is below `rr`, which is finite, so the `f32` difference is too.
        return Some(finish_from_f32::<true>(a, b));
    }
    canonical()
}

/// The contact from the `f32` center difference (finite), its length in `f64`.
#[inline(always)]
fn finish_from_f32<const POSITIVE: bool>(a: &Circle, b: &Circle) -> Contact {
    let delta = (b.center() - a.center()).as_dvec2();
    // `delta.length()`, rounded the same way.
    finish::<POSITIVE>(a, b, delta, crate::math::sqrt(delta.length_squared()))
}

/// [`contact_checked`] for the rare pairs its filter leaves undecided: the exact test, then
/// the contact. A center difference that overflows `f32` (centers near opposite ends of the
/// range) takes the `f64` difference instead, as the `f32` one would give a NaN normal.
#[cold]
#[inline(never)]
fn contact_near_touching(a: &Circle, b: &Circle) -> Option<Contact> {
    if !intersects_f64(a, b) {
        return None;
    }
    if (b.center() - a.center()).is_finite() {
        return Some(finish_from_f32::<false>(a, b));
    }
    let delta = b.center().as_dvec2() - a.center().as_dvec2();
    Some(finish::<false>(a, b, delta, delta.length()))
}

/// The contact from the center difference and its length; `POSITIVE` when `dist > 0` is known.
#[inline(always)]
fn finish<const POSITIVE: bool>(a: &Circle, b: &Circle, delta: glam::DVec2, dist: f64) -> Contact {
    // (NaN for shapes moved past `f32::MAX`, whose contacts are unspecified.)
    debug_assert!(!POSITIVE || dist > 0.0 || dist.is_nan());
    let n = if POSITIVE || dist > 0.0 {
        delta / dist
    } else {
        glam::DVec2::X
    };
    let (ra, rb) = (f64::from(a.radius()), f64::from(b.radius()));
    let depth = (ra + rb - dist).max(0.0);
    let on_a = a.center().as_dvec2() + n * ra;
    let on_b = b.center().as_dvec2() - n * rb;
    Contact::new(
        n.as_vec2(),
        depth as f32,
        &[((on_a + on_b) * 0.5).as_vec2()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn circle(x: f32, y: f32, r: f32) -> Circle {
        Circle::new(Vec2::new(x, y), r).unwrap()
    }

    #[test]
    fn touching_circles_intersect() {
        assert!(intersects(&circle(0.0, 0.0, 1.0), &circle(2.0, 0.0, 1.0)));
        assert!(intersects(&circle(0.0, 0.0, 2.0), &circle(3.0, 4.0, 3.0)));
    }

    #[test]
    fn circles_one_ulp_apart_do_not_intersect() {
        let far = 2.0_f32.next_up();
        assert!(!intersects(&circle(0.0, 0.0, 1.0), &circle(far, 0.0, 1.0)));
    }

    #[test]
    fn large_integer_radii_do_not_overflow_or_round() {
        // 2^20 scale: f32 squares would round; the exact test must not.
        let (a, b) = (
            circle(0.0, 0.0, 600_000.0),
            circle(786_432.0, 1_048_576.0, 710_720.0),
        );
        assert!(intersects(&a, &b)); // 3-4-5: distance 1_310_720 = 600_000 + 710_720
        let b_apart = circle(786_432.0, 1_048_576.0, 710_719.0);
        assert!(!intersects(&a, &b_apart));
    }

    #[test]
    fn contact_decides_touching_and_one_ulp_apart_exactly() {
        let a = circle(0.0, 0.0, 1.0);
        assert!(contact_checked(&a, &circle(2.0, 0.0, 1.0)).is_some());
        assert!(contact_checked(&a, &circle(2.0f32.next_up(), 0.0, 1.0)).is_none());
        let a = circle(0.0, 0.0, 2.0);
        assert!(contact_checked(&a, &circle(3.0, 4.0, 3.0)).is_some()); // 3-4-5: |d| = 5
        assert!(contact_checked(&a, &circle(3.0, 4.0f32.next_up(), 3.0)).is_none());
    }

    #[test]
    fn contact_of_circles_whose_difference_overflows() {
        // The f32 difference is infinite, yet the discs overlap: the exact test decides.
        let (a, b) = (circle(-3e38, 0.0, 3.4e38), circle(3e38, 0.0, 3.4e38));
        assert!(intersects(&a, &b));
        let c = contact_checked(&a, &b).unwrap();
        assert_eq!((c.normal, c.points[0]), (Vec2::X, Vec2::ZERO));
        let depth = 2.0 * f64::from(3.4e38f32) - 2.0 * f64::from(3e38f32);
        assert_eq!(c.depth, depth as f32);
        let (a, b) = (circle(-3e38, 0.0, 1.0), circle(3e38, 0.0, 1.0));
        assert!(contact_checked(&a, &b).is_none());
    }

    #[test]
    fn concentric_circles_get_normal_plus_x() {
        let c = contact_checked(&circle(1.0, 1.0, 1.0), &circle(1.0, 1.0, 2.0)).unwrap();
        assert_eq!(c.normal, Vec2::X);
        assert_eq!(c.depth, 3.0);
    }
}
