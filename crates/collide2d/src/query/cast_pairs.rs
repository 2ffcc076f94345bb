//! Closed forms of the shape cast for the cheapest pairs, without building the Minkowski
//! difference: circle–circle is a quadratic, box–box a ray against a box (slab test,
//! Kay and Kajiya 1986), circle–box a ray against a rounded box: the slab test on the box grown
//! by the radius, then the corner's disc when the entry lies in a corner square (Ericson,
//! RTCD 5.5.7, in 2D), circle–capsule a ray against a capsule: the slab beside its segment,
//! then the end disc beyond which the slab is entered. Each takes two shapes apart at `t = 0`
//! and their relative motion `d = va − vb != 0`, and returns the time of impact with the unit
//! normal from `a` towards `b`.

use crate::query::ray::{disc_span, line_span_parts, more_head_on};
use crate::shape::{Aabb, Capsule, Circle};
use glam::DVec2;

/// Two circles are apart beyond any doubt: `|c|^2 - r^2` (`c` the difference of their
/// centers, `r` the sum of their radii), computed in `f64` from the `f32` inputs with an error
/// below `1e-15 (|c|^2 + r^2)`, exceeds `1e-12` of that.
#[inline]
pub(crate) fn clearly_apart(cc: f64, rr: f64) -> bool {
    cc - rr > 1e-12 * (cc + rr)
}

/// `v` normalised, as `DVec2::try_normalize`, or `d` normalised when `v` is zero (`v` finite).
#[inline]
pub(crate) fn unit_or(v: DVec2, d: DVec2) -> DVec2 {
    let len = v.length();
    // For a finite `v`, `1 / len` is finite and positive exactly when `len > 0`.
    if len > 0.0 {
        v * (1.0 / len)
    } else {
        d.normalize()
    }
}

/// Circle `a` moving by `d` against the still circle `b`.
pub(crate) fn circle_circle(a: &Circle, b: &Circle, d: DVec2) -> Option<(f64, DVec2)> {
    let c = b.center().as_dvec2() - a.center().as_dvec2();
    let r = f64::from(a.radius()) + f64::from(b.radius());
    disc_time(c, r, d)
}

/// The ray `t d` from the origin against the disc of center `c` and radius `r`, the origin
/// outside it: when it enters, within `[0, 1]`, and the unit normal from the origin's side
/// towards `c` there.
#[inline(always)]
fn disc_time(c: DVec2, r: f64, d: DVec2) -> Option<(f64, DVec2)> {
    // |c - t d| = r, the smaller root of a t^2 - 2 b t + k = 0 in its cancellation-free form
    // k / (b + sqrt(b^2 - a k)) (Haines et al., Ray Tracing Gems 7): a, b, k are the same in
    // both argument orders, so is t.
    let (dd, b, k) = (d.length_squared(), c.dot(d), c.length_squared() - r * r);
    let disc = b * b - dd * k;
    if b <= 0.0 || disc < 0.0 {
        return None; // moving apart, or passing by
    }
    let t = (k / (b + crate::math::sqrt(disc))).max(0.0);
    if t > 1.0 {
        return None;
    }
    // From a's center to b's at time t.
    let n = unit_or(c - d * t, d);
    Some((t, n))
}

/// Circle `c` moving by `d` against the still capsule `k`: the circle's center as a ray against
/// the capsule grown by the circle's radius. The ray enters the slab beside the segment either
/// beside it (the hit) or beyond one end, and then, to reach the rest of the capsule, it must
/// cross that end's disc, which spans the slab there: the disc decides. A center starting in
/// the slab beyond an end likewise meets that end's disc first or nothing.
pub(crate) fn circle_capsule(c: &Circle, k: &Capsule, d: DVec2) -> Option<(f64, DVec2)> {
    let center = c.center().as_dvec2();
    let (a, b) = (k.a().as_dvec2(), k.b().as_dvec2());
    let r = f64::from(c.radius()) + f64::from(k.radius());
    let (to_a, to_b) = (a - center, b - center);
    let e = b - a;
    let len2 = e.length_squared();
    if r == 0.0 {
        // A point against a segment: no slab to enter, only the line (or the point).
        let span = line_span_parts(2, |i| if i == 0 { to_a } else { to_b }, 0.0, DVec2::ZERO, d)?;
        if span.exit < 0.0 || span.enter > 1.0 {
            return None;
        }
        let n = (-span.normal).try_normalize().unwrap_or(d.normalize());
        return Some((span.enter.max(0.0), n));
    }
    if len2 == 0.0 {
        return disc_time(to_a, r, d);
    }
    // Along the segment, `e . (x - a)` runs over [0, |e|^2]; across it, `e x (x - a)` (the
    // same from `b`) over [-r |e|, r |e|]. The cross product from the nearer end, whose offset
    // from the center is the smaller (less rounding).
    let (along_a, along_b) = (-to_a.dot(e), -to_b.dot(e));
    let near = if along_a <= -along_b { to_a } else { to_b };
    let side = -e.perp_dot(near); // e x (center - end)
    let (closing, ed) = (e.perp_dot(d), e.dot(d));
    let len = crate::math::sqrt(len2);
    let half_width = r * len;
    let along = if side.abs() > half_width {
        // Outside the slab: it must close in on the side facing the center.
        if closing == 0.0 || (closing > 0.0) == (side > 0.0) {
            return None;
        }
        let t = (side.abs() - half_width) / closing.abs();
        let along = along_a + ed * t;
        if (0.0..=len2).contains(&along) {
            if t > 1.0 {
                return None;
            }
            // From the center's side towards the segment.
            let left = e.perp() * (1.0 / len);
            let n = if side > 0.0 { -left } else { left };
            return Some((t.max(0.0), n));
        }
        along
    } else {
        along_a
    };
    if along < 0.0 {
        disc_time(to_a, r, d)
    } else if along > len2 {
        disc_time(to_b, r, d)
    } else {
        // In the rectangle at t = 0 by these numbers, which the exact test (the caller's)
        // found apart: a touch lost in rounding, at once, facing the side.
        let left = e.perp() * (1.0 / len);
        let n = if side > 0.0 {
            -left
        } else if side < 0.0 {
            left
        } else {
            d.normalize()
        };
        Some((0.0, n))
    }
}

/// Box `a` moving by `d` against the still box `b`.
pub(crate) fn aabb_aabb(a: &Aabb, b: &Aabb, d: DVec2) -> Option<(f64, DVec2)> {
    let lo = b.min().as_dvec2() - a.max().as_dvec2();
    let hi = b.max().as_dvec2() - a.min().as_dvec2();
    let (enter, exit, outward) = box_span(lo, hi, d)?;
    (exit >= 0.0 && enter <= 1.0).then(|| (enter.max(0.0), -outward))
}

/// Circle `c` moving by `d` against the still box `r`.
pub(crate) fn circle_aabb(c: &Circle, r: &Aabb, d: DVec2) -> Option<(f64, DVec2)> {
    let center = c.center().as_dvec2();
    let (lo, hi) = (r.min().as_dvec2() - center, r.max().as_dvec2() - center);
    let radius = f64::from(c.radius());
    let grow = DVec2::splat(radius);
    let (mut enter, mut exit, mut outward) = box_span(lo - grow, hi + grow, d)?;
    if radius > 0.0 {
        // Where the line enters or leaves the grown box through a corner square, the rounded
        // box there is the corner's disc. (The line cannot pass from a corner square into the
        // rest of the box without crossing that disc, so missing it misses the shape.)
        let in_corner = |p: DVec2| (p.x < lo.x || p.x > hi.x) && (p.y < lo.y || p.y > hi.y);
        let p = d * enter;
        if in_corner(p) {
            let span = disc_span(p.clamp(lo, hi), radius, DVec2::ZERO, d)?;
            enter = span.enter;
            outward = span.normal.try_normalize().unwrap_or(-d.normalize());
        }
        let q = d * exit;
        if in_corner(q) {
            exit = disc_span(q.clamp(lo, hi), radius, DVec2::ZERO, d)?.exit;
        }
    }
    (enter <= exit && exit >= 0.0 && enter <= 1.0).then(|| (enter.max(0.0), -outward))
}

/// Where the ray `t d` runs through the box `[lo, hi]`: entry, exit and the unit outward normal
/// of the face entered (`-d` normalised when no face is, the ray starting inside).
fn box_span(lo: DVec2, hi: DVec2, d: DVec2) -> Option<(f64, f64, DVec2)> {
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut outward = DVec2::ZERO;
    for (axis, unit) in [(0, DVec2::X), (1, DVec2::Y)] {
        let (l, h, v) = (lo[axis], hi[axis], d[axis]);
        if v == 0.0 {
            if l > 0.0 || h < 0.0 {
                return None;
            }
            continue;
        }
        let (t_in, t_out, n) = if v > 0.0 {
            (l / v, h / v, -unit)
        } else {
            (h / v, l / v, unit)
        };
        if t_in > enter || (t_in == enter && more_head_on(n, outward, d)) {
            (enter, outward) = (t_in, n);
        }
        exit = exit.min(t_out);
    }
    if outward == DVec2::ZERO {
        outward = -d.normalize();
    }
    (enter <= exit).then_some((enter, exit, outward))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::v;

    fn circle(x: f32, y: f32, r: f32) -> Circle {
        Circle::new(v(x, y), r).unwrap()
    }

    fn aabb(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(v(x0, y0), v(x1, y1)).unwrap()
    }

    #[test]
    fn circle_reaches_a_box_face_and_a_box_corner() {
        let r = aabb(4.0, -1.0, 6.0, 1.0);
        let (t, n) = circle_aabb(&circle(0.0, 0.0, 1.0), &r, DVec2::new(6.0, 0.0)).unwrap();
        assert_eq!((t, n), (0.5, DVec2::X));
        // Towards the corner (4, -1) along the diagonal: touches at distance 1 from it.
        let d = DVec2::new(4.0, 4.0);
        let (t, n) = circle_aabb(&circle(0.0, -5.0, 1.0), &r, d).unwrap();
        let s = core::f64::consts::FRAC_1_SQRT_2;
        assert!((t - (1.0 - s / 4.0)).abs() < 1e-12, "{t}");
        assert!(n.distance(DVec2::new(s, s)) < 1e-12, "{n}");
        // Past the corner, outside its disc: a miss although the grown box is crossed.
        // (The center's path x - y = 1.2 crosses only the grown box's corner square, 1.27 from
        // the corner.)
        assert!(circle_aabb(&circle(1.1, -0.1, 1.0), &r, DVec2::new(4.0, 4.0)).is_none());
    }

    #[test]
    fn circle_leaving_past_a_corner_is_a_miss() {
        // The line runs through the grown box, entering and leaving through corner squares,
        // but the circle only moves away from the box's top end at (0, 1).
        let r = aabb(0.0, 0.0, 0.0, 1.0);
        assert!(circle_aabb(&circle(-2.0, 5.0, 4.0), &r, DVec2::new(0.0, 1.0)).is_none());
    }

    #[test]
    fn boxes_meet_on_the_face_entered_last() {
        let a = aabb(0.0, 0.0, 1.0, 1.0);
        let b = aabb(3.0, 2.0, 4.0, 3.0);
        // x closes at t = 0.5, y at t = 0.25: the x faces meet.
        let (t, n) = aabb_aabb(&a, &b, DVec2::new(4.0, 4.0)).unwrap();
        assert_eq!((t, n), (0.5, DVec2::X));
        assert!(aabb_aabb(&a, &b, DVec2::new(4.0, 0.0)).is_none());
        assert!(aabb_aabb(&a, &b, DVec2::new(1.0, 1.0)).is_none()); // short of it
    }

    /// xorshift64*: a fixed-seed generator.
    struct Rng(u64);

    impl Rng {
        fn int(&mut self, lo: i32, hi: i32) -> f32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let r = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33;
            (lo + (r % (hi - lo + 1) as u64) as i32) as f32
        }
    }

    type Case = (crate::Shape, crate::Shape, Option<(f64, DVec2)>);

    #[test]
    fn closed_forms_agree_with_the_minkowski_path() {
        use crate::query::cast::cast_convex_for_tests as generic;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut hits = 0;
        for _ in 0..20_000 {
            let mut p = || v(rng.int(-8, 8), rng.int(-8, 8));
            let (p0, p1, p2, p3, dv) = (p(), p(), p(), p(), p());
            let d = dv.as_dvec2() * 2.0;
            let c = Circle::new(p0, p1.x.abs() / 2.0).unwrap();
            let c2 = Circle::new(p2, p3.y.abs() / 2.0).unwrap();
            let a = Aabb::new(p1.min(p2), p1.max(p2)).unwrap();
            let b = Aabb::new(p0.min(p3), p0.max(p3)).unwrap();
            let k = Capsule::new(p1, p3, p2.y.abs() / 2.0).unwrap();
            let cases: [Case; 4] = [
                (c.into(), c2.into(), circle_circle(&c, &c2, d)),
                (a.into(), b.into(), aabb_aabb(&a, &b, d)),
                (c.into(), b.into(), circle_aabb(&c, &b, d)),
                (c.into(), k.into(), circle_capsule(&c, &k, d)),
            ];
            for (x, y, special) in cases {
                if crate::intersects(&x, &y) || d == DVec2::ZERO {
                    continue;
                }
                let slow = generic(&x, &y, d);
                match (special, slow) {
                    (Some((t, n)), Some((u, m))) => {
                        hits += 1;
                        assert!((t - u).abs() < 1e-12, "{x:?} {y:?} {d}: {t} vs {u}");
                        assert!(n.distance(m) < 1e-9, "{x:?} {y:?} {d}: {n} vs {m}");
                    }
                    (None, None) => {}
                    (s, g) => {
                        // A touch exactly at t = 1 (the grid's coordinates make those) that one
                        // path's rounding misses: the other's hit is there, and touching.
                        let t = s.or(g).map_or(0.0, |(t, _)| t);
                        let moved = crate::math::Pose::from_translation(d.as_vec2());
                        let gap = crate::distance(&x.transformed(&moved), &y);
                        assert!(t > 1.0 - 1e-9 && gap < 1e-6, "{x:?} {y:?} {d}: {s:?} {g:?}");
                    }
                }
            }
        }
        assert!(hits > 4000, "{hits}");
    }

    /// The capsule's closed form against the generic path on random `f32` shapes at every
    /// scale, circles of radius 0 and segments of length 0 among them.
    #[test]
    fn circle_capsule_agrees_with_the_minkowski_path_off_the_grid() {
        use crate::query::cast::cast_convex_for_tests as generic;
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut hits = 0;
        for i in 0..90_000 {
            let scale = [1e-3, 1.0, 1e3][i % 3];
            // Radii far below the coordinates (a capsule thinner than their rounding) and far
            // above them (a segment shorter than the radius's rounding) too.
            let grow = [1e-6, 1.0, 1e3][i / 3 % 3];
            let mut f = || rng.int(-1 << 20, 1 << 20) * scale / (1 << 20) as f32 * 8.0;
            let (x0, y0, x1, y1, x2, y2) = (f(), f(), f(), f(), f(), f());
            let (r0, r1) = (f().abs() / 2.0 * grow, f().abs() / 2.0 * grow);
            let (dx, dy) = (f() * 2.0 * grow.max(1.0), f() * 2.0 * grow.max(1.0));
            let scale = scale * grow.max(1.0);
            let c = Circle::new(v(x0, y0), if i % 7 == 0 { 0.0 } else { r0 }).unwrap();
            let end = if i % 11 == 0 { v(x1, y1) } else { v(x2, y2) };
            let k = Capsule::new(v(x1, y1), end, if i % 5 == 0 { 0.0 } else { r1 }).unwrap();
            let d = DVec2::new(f64::from(dx), f64::from(dy));
            let (x, y) = (crate::Shape::from(c), crate::Shape::from(k));
            if crate::intersects(&x, &y) || d == DVec2::ZERO {
                continue;
            }
            let tol = 1e-12 * f64::from(scale) * 64.0;
            match (circle_capsule(&c, &k, d), generic(&x, &y, d)) {
                (Some((t, n)), Some((u, m))) => {
                    hits += 1;
                    assert!(
                        (t - u).abs() * d.length() < tol,
                        "{c:?} {k:?} {d}: {t} vs {u}"
                    );
                    assert!(n.distance(m) < 1e-6, "{c:?} {k:?} {d}: {n} vs {m}");
                }
                (None, None) => {}
                (s, g) => {
                    // Either may see a graze the other misses by a rounding error (placed in
                    // `f32`, here).
                    // The hit touches, and no later time overlaps deeper than rounding: a
                    // graze, not a hit one path lost.
                    let t = s.or(g).map_or(0.0, |(t, _)| t as f32);
                    let placed = |at: f32| {
                        x.transformed(&crate::math::Pose::from_translation(d.as_vec2() * at))
                    };
                    let gap = crate::distance(&placed(t), &y);
                    assert!(gap < 1e-5 * scale * 8.0, "{c:?} {k:?} {d}: {s:?} {g:?}");
                    for later in [t + (1.0 - t) / 2.0, 1.0] {
                        let depth = crate::contact(&placed(later), &y).map_or(0.0, |c| c.depth);
                        assert!(depth < 1e-5 * scale * 8.0, "{c:?} {k:?} {d}: {s:?} {g:?}");
                    }
                }
            }
        }
        assert!(hits > 6000, "{hits}");
    }

    #[test]
    fn circles_meet_head_on_and_graze() {
        let (t, n) = circle_circle(
            &circle(0.0, 0.0, 1.0),
            &circle(5.0, 2.0, 1.0),
            DVec2::new(10.0, 0.0),
        )
        .unwrap();
        assert_eq!((t, n), (0.5, DVec2::Y));
    }
}
