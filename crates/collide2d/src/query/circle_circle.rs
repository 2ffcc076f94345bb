//! Circle against circle: one exact distance comparison (Ericson, RTCD 4.3.1).

use crate::exact::{cmp_dist2_f64, dist2_filter};
use crate::query::Contact;
use crate::shape::Circle;

/// The discs share a point: `|c1 - c2| <= r1 + r2`, exactly.
#[inline]
pub(crate) fn intersects(a: &Circle, b: &Circle) -> bool {
    match dist2_filter(a.center(), b.center(), a.radius(), b.radius()) {
        Some(order) => order.is_le(),
        None => intersects_f64(a, b),
    }
}

/// [`intersects`] past its `f32` filter, taking the discs by reference so that the common
/// path need not keep their numbers for it.
#[cold]
#[inline(never)]
fn intersects_f64(a: &Circle, b: &Circle) -> bool {
    cmp_dist2_f64(a.center(), b.center(), a.radius(), b.radius()).is_le()
}

/// The contact of the discs (concentric discs get normal `+X`), or `None` when they do not
/// intersect, decided by the squared distance the contact needs anyway (no square root for
/// pairs apart), with the exact [`intersects`] only near touching.
///
/// Error bound: each component of the `f32` difference is the exact one rounded once (relative
/// error at most `2^-24`; exact when subnormal), so `|delta|` is within `2^-24` of the true
/// distance `D` relative, `d2 = |delta|^2` adds under `2^-51`, and `r = ra + rb` and the
/// bounds `(r (1 -+ 2^-20))^2` a few `2^-53` each. So `d2 < lo^2` proves `D < r`, and
/// `d2 > hi^2` proves `D > r` (for a finite `d2`: a difference that overflows `f32` takes
/// [`contact_far`]). With `r = 0`, `lo = 0` proves nothing and `hi = 0` separates any two
/// distinct centers.
#[inline]
pub(crate) fn contact_checked(a: &Circle, b: &Circle) -> Option<Contact> {
    let delta = (b.center() - a.center()).as_dvec2();
    let d2 = delta.length_squared();
    let r = f64::from(a.radius()) + f64::from(b.radius());
    const K: f64 = 1.0 / (1u64 << 20) as f64;
    let (lo, hi) = (r * (1.0 - K), r * (1.0 + K));
    if d2 >= lo * lo {
        if d2 == f64::INFINITY {
            return contact_far(a, b);
        }
        if d2 > hi * hi || !intersects_near_touching(a, b) {
            return None;
        }
    }
    // `delta.length()`, rounded the same way.
    Some(finish(a, b, delta, d2.sqrt()))
}

/// The contact of discs whose center difference overflows `f32` (centers near opposite ends
/// of the range), from the exact `f64` difference: the `f32` one would give a NaN normal.
#[cold]
#[inline(never)]
fn contact_far(a: &Circle, b: &Circle) -> Option<Contact> {
    if !intersects(a, b) {
        return None;
    }
    let delta = b.center().as_dvec2() - a.center().as_dvec2();
    Some(finish(a, b, delta, delta.length()))
}

/// [`intersects`] out of line, for the rare near-touching pairs.
#[cold]
#[inline(never)]
fn intersects_near_touching(a: &Circle, b: &Circle) -> bool {
    intersects(a, b)
}

#[inline(always)]
fn finish(a: &Circle, b: &Circle, delta: glam::DVec2, dist: f64) -> Contact {
    let n = if dist > 0.0 {
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
