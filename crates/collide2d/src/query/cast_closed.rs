//! Casts with closed forms (`cast_pairs.rs`): a circle against a box or a capsule and two
//! boxes, the point taken between the two surfaces. Generic over the pair's types, so that
//! [`cast_shapes`] on two [`Shape`](crate::Shape)s and [`PairQuery::cast`] on the typed shapes
//! run the same code.
//!
//! [`cast_shapes`]: crate::cast_shapes

use crate::math::Vec2;
use crate::query::cast::{round_t, start_hit};
use crate::query::{cast_pairs, CastHit, PairQuery};
use crate::shape::{Aabb, Capsule, Circle};
use glam::DVec2;

/// Two finite motions in `f64` and their difference `d = va - vb`.
#[derive(Clone, Copy)]
pub(crate) struct Motion {
    pub va: DVec2,
    pub vb: DVec2,
    pub d: DVec2,
}

impl Motion {
    /// The motions, or `None` when one is not finite (no hit, as [`cast_shapes`] answers).
    ///
    /// [`cast_shapes`]: crate::cast_shapes
    #[inline]
    pub(crate) fn of(va: Vec2, vb: Vec2) -> Option<Motion> {
        if !va.is_finite() || !vb.is_finite() {
            return None;
        }
        let (va, vb) = (va.as_dvec2(), vb.as_dvec2());
        Some(Motion { va, vb, d: va - vb })
    }

    /// The same motions seen from `b`: `va` and `vb` exchanged, `d` negated (exactly).
    #[inline]
    fn swapped(self) -> Motion {
        Motion {
            va: self.vb,
            vb: self.va,
            d: -self.d,
        }
    }
}

/// `Some(answer)` when the shapes intersect at `t = 0` (their contact) or do not move
/// apart from each other (no hit); `None` when the closed form must decide.
#[allow(clippy::option_option)] // outer: whether the start decided
#[inline(always)]
fn at_start<P: PairQuery<Q> + ?Sized, Q: ?Sized>(
    a: &P,
    b: &Q,
    d: DVec2,
) -> Option<Option<CastHit>> {
    if a.intersects(b) {
        Some(start_hit(a.contact(b)))
    } else if d == DVec2::ZERO {
        Some(None)
    } else {
        None
    }
}

/// The hit at time `t` with normal `n` and surface points `pa` and `pb`: midway between them.
#[inline(always)]
fn done(t: f64, n: DVec2, pa: DVec2, pb: DVec2) -> CastHit {
    CastHit {
        t: round_t(t),
        point: ((pa + pb) * 0.5).as_vec2(),
        normal: n.as_vec2(),
        depth: 0.0,
    }
}

/// A circle's surface point towards `n` at time `t`.
#[inline(always)]
fn disc(c: &Circle, v: DVec2, t: f64, n: DVec2) -> DVec2 {
    c.center().as_dvec2() + v * t + n * f64::from(c.radius())
}

/// A box's point nearest to `p` at time `t`.
#[inline(always)]
fn nearest(r: &Aabb, v: DVec2, t: f64, p: DVec2) -> DVec2 {
    p.clamp(r.min().as_dvec2() + v * t, r.max().as_dvec2() + v * t)
}

/// The cast of `a`, the circle `c`, against `b`, the box `r`.
#[inline]
pub(crate) fn circle_aabb<P: PairQuery<Q> + ?Sized, Q: ?Sized>(
    (a, c): (&P, &Circle),
    (b, r): (&Q, &Aabb),
    m: Motion,
) -> Option<CastHit> {
    if let Some(answer) = at_start(a, b, m.d) {
        return answer;
    }
    cast_pairs::circle_aabb(c, r, m.d).map(|(t, n)| {
        let pa = disc(c, m.va, t, n);
        done(
            t,
            n,
            pa,
            nearest(r, m.vb, t, c.center().as_dvec2() + m.va * t),
        )
    })
}

/// The cast of `a`, the box `r`, against `b`, the circle `c`: the circle's cast against the
/// box, flipped (the same numbers: the point is a sum of the same two terms, the start's contact
/// is the flipped one).
#[inline]
pub(crate) fn aabb_circle<P, Q>(
    (a, r): (&P, &Aabb),
    (b, c): (&Q, &Circle),
    m: Motion,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: PairQuery<P> + ?Sized,
{
    circle_aabb((b, c), (a, r), m.swapped()).map(CastHit::flipped)
}

/// The cast of `a`, the box `x`, against `b`, the box `y`.
#[inline]
pub(crate) fn aabbs<P: PairQuery<Q> + ?Sized, Q: ?Sized>(
    (a, x): (&P, &Aabb),
    (b, y): (&Q, &Aabb),
    m: Motion,
) -> Option<CastHit> {
    if let Some(answer) = at_start(a, b, m.d) {
        return answer;
    }
    let (va, vb) = (m.va, m.vb);
    cast_pairs::aabb_aabb(x, y, m.d).map(|(t, n)| {
        // Each box's face against the other, in the middle of their overlap.
        let (a_lo, a_hi) = (x.min().as_dvec2() + va * t, x.max().as_dvec2() + va * t);
        let (b_lo, b_hi) = (y.min().as_dvec2() + vb * t, y.max().as_dvec2() + vb * t);
        let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
        let mid = (lo + hi) * 0.5;
        let (pa, pb) = if n.x != 0.0 {
            let (fa, fb) = if n.x > 0.0 {
                (a_hi.x, b_lo.x)
            } else {
                (a_lo.x, b_hi.x)
            };
            (DVec2::new(fa, mid.y), DVec2::new(fb, mid.y))
        } else {
            let (fa, fb) = if n.y > 0.0 {
                (a_hi.y, b_lo.y)
            } else {
                (a_lo.y, b_hi.y)
            };
            (DVec2::new(mid.x, fa), DVec2::new(mid.x, fb))
        };
        done(t, n, pa, pb)
    })
}

/// The cast of `a`, the circle `c`, against `b`, the capsule `k`. The point is the circle's
/// surface point towards the capsule: the capsule's surface meets it there at the exact time of
/// impact, and the two differ only by the rounding of `t`.
#[inline]
pub(crate) fn circle_capsule<P: PairQuery<Q> + ?Sized, Q: ?Sized>(
    (a, c): (&P, &Circle),
    (b, k): (&Q, &Capsule),
    m: Motion,
) -> Option<CastHit> {
    if let Some(answer) = at_start(a, b, m.d) {
        return answer;
    }
    cast_pairs::circle_capsule(c, k, m.d).map(|(t, n)| {
        let pa = disc(c, m.va, t, n);
        done(t, n, pa, pa)
    })
}

/// The cast of `a`, the capsule `k`, against `b`, the circle `c`: the circle's cast, flipped
/// (as [`aabb_circle`]).
#[inline]
pub(crate) fn capsule_circle<P, Q>(
    (a, k): (&P, &Capsule),
    (b, c): (&Q, &Circle),
    m: Motion,
) -> Option<CastHit>
where
    P: PairQuery<Q> + ?Sized,
    Q: PairQuery<P> + ?Sized,
{
    circle_capsule((b, c), (a, k), m.swapped()).map(CastHit::flipped)
}

#[cfg(test)]
mod tests {
    use crate::query::cast::cast_convex_for_tests as generic;
    use crate::shape::{Capsule, Circle, Shape};
    use crate::test_support::v;
    use crate::{cast_shapes, contact, intersects};

    /// Circle–capsule casts on a small integer grid (many touch at `t = 0` or graze): both
    /// argument orders give the same bits (the normal negated), a start that touches gives the
    /// contact, and a later hit the generic path's time.
    #[test]
    fn circle_capsule_casts_in_both_orders_on_a_grid() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut int = |lo: i32, hi: i32| {
            let bits = crate::test_support::xorshift_next(&mut seed);
            (lo + (bits % (hi - lo + 1) as u64) as i32) as f32
        };
        let (mut starts, mut later) = (0, 0);
        for _ in 0..20_000 {
            let c: Shape = Circle::new(v(int(-6, 6), int(-6, 6)), int(0, 4) / 2.0)
                .unwrap()
                .into();
            let k: Shape = Capsule::new(
                v(int(-6, 6), int(-6, 6)),
                v(int(-6, 6), int(-6, 6)),
                int(0, 4) / 2.0,
            )
            .unwrap()
            .into();
            let (va, vb) = (v(int(-9, 9), int(-9, 9)), v(int(-3, 3), int(-3, 3)));
            let ab = cast_shapes(&c, va, &k, vb);
            let ba = cast_shapes(&k, vb, &c, va);
            assert_eq!(ab, ba.map(super::CastHit::flipped), "{c:?} {va} {k:?} {vb}");
            if intersects(&c, &k) {
                starts += 1;
                assert_eq!(ab, super::start_hit(contact(&c, &k)), "{c:?} {k:?}");
                continue;
            }
            let d = (va - vb).as_dvec2();
            if d == glam::DVec2::ZERO {
                assert_eq!(ab, None);
                continue;
            }
            match (ab, generic(&c, &k, d)) {
                (Some(h), Some((t, n))) => {
                    later += 1;
                    assert!((f64::from(h.t) - t).abs() * d.length() < 1e-6, "{h:?} {t}");
                    assert!(h.normal.as_dvec2().distance(n) < 1e-6, "{h:?} {n}");
                }
                (None, None) => {}
                // A graze at t = 1 exactly that the generic path's rounding misses.
                (Some(h), None) => assert_eq!(h.t, 1.0, "{c:?} {va} {k:?} {vb}: {h:?}"),
                (None, Some(g)) => panic!("{c:?} {va} {k:?} {vb}: missed {g:?}"),
            }
        }
        assert!(starts > 1000 && later > 1000, "{starts} {later}");
    }
}
