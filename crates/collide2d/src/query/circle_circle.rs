//! Circle against circle: one exact distance comparison (Ericson, RTCD 4.3.1).

use crate::exact::cmp_dist2;
use crate::query::Contact;
use crate::shape::Circle;

/// The discs share a point: `|c1 - c2| <= r1 + r2`, exactly.
#[inline]
pub(crate) fn intersects(a: &Circle, b: &Circle) -> bool {
    cmp_dist2(a.center(), b.center(), a.radius(), b.radius()).is_le()
}

/// The contact of the discs (concentric discs get normal `+X`), or `None` when they do not
/// intersect, decided by the distance the contact needs anyway, with the exact [`intersects`]
/// only near touching.
///
/// Error bound: each component of the `f32` difference is the exact one rounded once (relative
/// error at most `2^-24`; exact when subnormal), so `|delta|` is within `2^-24` of the true
/// distance `D` relative, and the `f64` length adds under `2^-51`; `ra + rb` is rounded once in
/// `f64`. So `|dist - D| <= 2^-23 dist` and a margin of `2^-22 (dist + r)` decides. A difference
/// that overflows `f32` gives `dist = inf`, an infinite margin, and the exact test.
#[inline]
pub(crate) fn contact_checked(a: &Circle, b: &Circle) -> Option<Contact> {
    let delta = (b.center() - a.center()).as_dvec2();
    let dist = delta.length();
    let r = f64::from(a.radius()) + f64::from(b.radius());
    let tol = (dist + r) * (1.0 / (1u64 << 22) as f64);
    if dist > r + tol {
        return None;
    }
    if dist >= r - tol && !intersects_near_touching(a, b) {
        return None;
    }
    Some(finish(a, b, delta, dist))
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
    fn concentric_circles_get_normal_plus_x() {
        let c = contact_checked(&circle(1.0, 1.0, 1.0), &circle(1.0, 1.0, 2.0)).unwrap();
        assert_eq!(c.normal, Vec2::X);
        assert_eq!(c.depth, 3.0);
    }
}
