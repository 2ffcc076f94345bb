//! Exact numbers for the union contact's decisions: vectors made of `f32` points by sums and
//! differences, their cross and dot products (degree 2), and fractions of those compared
//! exactly (degree 4), each first in `f64` with a bound ([`Filtered`]), exactly
//! ([`Expansion`]) only when the bound cannot tell.
//!
//! The vertices of a Minkowski difference are `b − a` for `f32` points, which `f64` may not
//! hold exactly (far apart exponents); kept as the points themselves, every decision is a
//! polynomial in the inputs, of degree at most 4, which the predicates of `exact` evaluate
//! without overflow.

use crate::exact::{two_sum, Expansion, Field, Filtered};
use crate::exact_small::{self, Small};
use crate::math::Vec2;
use core::cell::Cell;
use core::cmp::Ordering;
use glam::DVec2;

/// `p[0] − p[1] + p[2] − p[3]`: a vector made exactly of four `f32` points (some zero).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sum([Vec2; 4]);

impl Sum {
    /// `p − q + r − s`.
    #[inline]
    pub fn of(p: Vec2, q: Vec2, r: Vec2, s: Vec2) -> Sum {
        Sum([p, q, r, s])
    }

    /// `p − q`.
    #[inline]
    pub fn diff(p: Vec2, q: Vec2) -> Sum {
        Sum([p, q, Vec2::ZERO, Vec2::ZERO])
    }

    /// The vector turned a quarter counter-clockwise: exact, as each point turns exactly.
    #[inline]
    pub fn perp(self) -> Sum {
        Sum(self.0.map(Vec2::perp))
    }

    #[inline(always)]
    fn eval<T: Field>(&self) -> (T, T) {
        let [p, q, r, s] = self.0;
        let c = |f: fn(Vec2) -> f32| {
            T::from_f32(f(p))
                .sub(T::from_f32(f(q)))
                .add(T::from_f32(f(r)).sub(T::from_f32(f(s))))
        };
        (c(|v| v.x), c(|v| v.y))
    }

    /// The vector in `f64`, with its bounds (exact, bound itself, when nothing rounds).
    #[inline]
    pub fn filtered(&self) -> (Filtered, Filtered) {
        let [p, q, r, s] = self.0;
        (
            Filtered::sum4(p.x, q.x, r.x, s.x),
            Filtered::sum4(p.y, q.y, r.y, s.y),
        )
    }

    /// The vector in `f64` when no step of its sums rounds (inputs within `2^29` of each
    /// other's magnitude, almost always).
    #[inline]
    fn exact_f64(&self) -> Option<(f64, f64)> {
        let [p, q, r, s] = self.0;
        let c = |p: f32, q: f32, r: f32, s: f32| {
            let (d1, e1) = two_sum(f64::from(p), -f64::from(q));
            let (d2, e2) = two_sum(f64::from(r), -f64::from(s));
            let (v, e3) = two_sum(d1, d2);
            (e1 == 0.0 && e2 == 0.0 && e3 == 0.0).then_some(v)
        };
        Some((c(p.x, q.x, r.x, s.x)?, c(p.y, q.y, r.y, s.y)?))
    }

    /// The vector, rounded to `f64`.
    #[inline]
    pub fn approx(&self) -> DVec2 {
        let [p, q, r, s] = self.0.map(Vec2::as_dvec2);
        (p - q) + (r - s)
    }

    /// The vector rounded to `f64`, and a bound on each coordinate's error: the sum of its
    /// points' coordinates' magnitudes (each step rounds within `2^-53` of its result).
    #[inline]
    pub fn approx_bounded(&self) -> (DVec2, f64) {
        let m = self
            .0
            .iter()
            .fold(0.0, |m, p| m + p.as_dvec2().abs().element_sum());
        (self.approx(), m)
    }

    /// Which half of the directions the vector points into, exactly: 0 for angles in `[0, π)`,
    /// 1 for `[π, 2π)` (the zero vector counts as 0).
    pub fn half(&self) -> u8 {
        let (x, y) = (self.coord_sign(1), self.coord_sign(0));
        u8::from(x.is_lt() || (x.is_eq() && y.is_lt()))
    }

    /// The exact sign of coordinate `i` (0: x, 1: y).
    fn coord_sign(&self, i: usize) -> Ordering {
        let pick = |(x, y): (Filtered, Filtered)| if i == 0 { x } else { y };
        pick(self.filtered()).sign().unwrap_or_else(|| {
            let (x, y) = self.eval::<Expansion>();
            if i == 0 {
                x.sign()
            } else {
                y.sign()
            }
        })
    }
}

/// A number of degree 2: the cross or dot product of two [`Sum`]s, maybe negated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Prod {
    u: Sum,
    w: Sum,
    dot: bool,
    neg: bool,
}

impl Prod {
    /// `u × w`.
    #[inline]
    pub fn cross(u: Sum, w: Sum) -> Prod {
        Prod {
            u,
            w,
            dot: false,
            neg: false,
        }
    }

    /// `u · w`.
    #[inline]
    pub fn dot(u: Sum, w: Sum) -> Prod {
        Prod {
            u,
            w,
            dot: true,
            neg: false,
        }
    }

    /// The number negated.
    #[inline]
    pub fn neg(self) -> Prod {
        Prod {
            neg: !self.neg,
            ..self
        }
    }

    #[inline(always)]
    fn eval<T: Field>(&self) -> T {
        let (ux, uy) = self.u.eval::<T>();
        let (wx, wy) = self.w.eval::<T>();
        let (l, r) = if self.dot {
            (ux.mul(wx), uy.mul(wy).mul(T::from_f32(-1.0)))
        } else {
            (ux.mul(wy), uy.mul(wx))
        };
        if self.neg {
            r.sub(l)
        } else {
            l.sub(r)
        }
    }

    /// The value in `f64`, with its bound.
    /// (`always`: left to the inliner, whether the outline search inlined it hung on how the
    /// crate fell into codegen units; star–box pairs paid about 1,200 instructions when not.)
    #[inline(always)]
    pub fn filtered(&self) -> Filtered {
        let (u, w) = (self.u.filtered(), self.w.filtered());
        let v = if self.dot { dot_f(u, w) } else { cross_f(u, w) };
        if self.neg {
            Filtered::exact(0.0).sub(v)
        } else {
            v
        }
    }

    /// The exact sign.
    #[inline(always)]
    pub fn sign(&self) -> Ordering {
        self.sign_given(self.filtered())
    }

    /// The exact sign, given the number's value computed in [`Filtered`] by any evaluation.
    #[inline]
    pub fn sign_given(&self, value: Filtered) -> Ordering {
        value.sign().unwrap_or_else(|| self.exact_sign())
    }

    #[cold]
    #[inline(never)]
    fn exact(&self) -> Expansion {
        self.eval::<Expansion>()
    }

    /// The number exactly, on the stack, when its vectors are exact in `f64`.
    #[inline]
    fn small(&self) -> Option<Small<4>> {
        let (ux, uy) = self.u.exact_f64()?;
        let (wx, wy) = self.w.exact_f64()?;
        let v = if self.dot {
            exact_small::two_products(ux, wx, uy, wy)
        } else {
            exact_small::two_products(ux, wy, -uy, wx)
        };
        Some(if self.neg { v.neg() } else { v })
    }

    /// The exact sign, without the filter.
    #[cold]
    #[inline(never)]
    fn exact_sign(&self) -> Ordering {
        match self.small() {
            Some(v) => v.sign(),
            None => self.exact().sign(),
        }
    }
}

/// `u × w` in [`Filtered`], of vectors already evaluated.
#[inline]
pub(crate) fn cross_f(u: (Filtered, Filtered), w: (Filtered, Filtered)) -> Filtered {
    u.0.mul(w.1).sub(u.1.mul(w.0))
}

/// `u · w` in [`Filtered`], of vectors already evaluated.
#[inline]
pub(crate) fn dot_f(u: (Filtered, Filtered), w: (Filtered, Filtered)) -> Filtered {
    u.0.mul(w.0).add(u.1.mul(w.1))
}

/// The exact sign of `p + q`.
pub(crate) fn sum_sign(p: &Prod, q: &Prod) -> Ordering {
    p.filtered()
        .add(q.filtered())
        .sign()
        .unwrap_or_else(|| match (p.small(), q.small()) {
            (Some(x), Some(y)) => exact_small::sum_sign(&x, &y),
            _ => p.exact().add(q.exact()).sign(),
        })
}

/// The exact sign of `p q − r s` (degree 4).
pub(crate) fn products_sign(p: &Prod, q: &Prod, r: &Prod, s: &Prod) -> Ordering {
    p.filtered()
        .mul(q.filtered())
        .sub(r.filtered().mul(s.filtered()))
        .sign()
        .unwrap_or_else(|| products_sign_exact(p, q, r, s))
}

#[cold]
#[inline(never)]
fn products_sign_exact(p: &Prod, q: &Prod, r: &Prod, s: &Prod) -> Ordering {
    if let (Some(a), Some(b), Some(c), Some(d)) = (p.small(), q.small(), r.small(), s.small()) {
        return exact_small::cross_sign(&a, &b, &c, &d);
    }
    p.exact()
        .mul(q.exact())
        .sub(r.exact().mul(s.exact()))
        .sign()
}

/// The work of a decision that needs exact products, in units of one piece weighed against a
/// face in `f64`: the searches' work bounds count it.
pub(crate) const EXACT_COST: usize = 16;

/// How many times a comparison of fractions on heap expansions costs one on fixed-size
/// products (coordinates far apart in magnitude make expansions long).
pub(crate) const HEAVY: usize = 32;

/// The work [`Ratio::cmp_weighed`] counts for an exact comparison of fractions made of
/// products of `sums`: [`EXACT_COST`] when every one is exact in `f64` (the fixed-size
/// products), [`HEAVY`] times that otherwise. For a decision found without the products,
/// at the work they would have counted.
pub(crate) fn exact_cmp_cost(sums: &[Sum]) -> usize {
    if sums.iter().all(|s| s.exact_f64().is_some()) {
        EXACT_COST
    } else {
        EXACT_COST * HEAVY
    }
}

/// A fraction `num / den` of degree-2 numbers, `den > 0`, with their `f64` values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ratio {
    num: Prod,
    den: Prod,
    nf: Filtered,
    df: Filtered,
}

impl Ratio {
    /// `num / den`; `den` must be positive.
    #[inline]
    pub fn new(num: Prod, den: Prod) -> Ratio {
        Ratio {
            nf: num.filtered(),
            df: den.filtered(),
            num,
            den,
        }
    }

    /// `num / den` with their values already computed (`nf`, `df`: those of `num` and `den`,
    /// by any evaluation in [`Filtered`] that bounds its rounding).
    #[inline]
    pub fn with(num: Prod, den: Prod, nf: Filtered, df: Filtered) -> Ratio {
        Ratio { num, den, nf, df }
    }

    /// The numerator and the (positive) denominator.
    #[inline]
    pub fn terms(&self) -> (Prod, Prod) {
        (self.num, self.den)
    }

    /// The numerator's and denominator's values in `f64`, with their bounds.
    #[inline]
    pub fn filtered(&self) -> (Filtered, Filtered) {
        (self.nf, self.df)
    }

    /// The integer `k` (0 or 1).
    pub fn int(k: f32) -> Ratio {
        let one = Sum::diff(Vec2::X, Vec2::ZERO);
        let k = Sum::diff(Vec2::new(k, 0.0), Vec2::ZERO);
        Ratio::new(Prod::dot(k, one), Prod::dot(one, one))
    }

    /// The value, rounded (from the exact numbers when the denominator's `f64` value may be
    /// all rounding: a near-parallel crossing whose `f64` value is `0 / 0`).
    #[inline]
    pub fn approx(&self) -> f64 {
        if self.df.sign().is_none() {
            return self.approx_exact();
        }
        self.nf.value() / self.df.value()
    }

    #[cold]
    #[inline(never)]
    fn approx_exact(&self) -> f64 {
        self.num.exact().approx() / self.den.exact().approx()
    }

    /// Compares the two fractions exactly.
    #[inline]
    pub fn cmp(&self, o: &Ratio) -> Ordering {
        self.nf
            .mul(o.df)
            .sub(o.nf.mul(self.df))
            .sign()
            .unwrap_or_else(|| self.cmp_exact(o))
    }

    /// The point `start + dir * self`, each coordinate within a few ulps of the exact one
    /// (however much the sum cancels).
    #[cold]
    #[inline(never)]
    pub fn point_on(&self, start: Sum, dir: Sum) -> DVec2 {
        let (num, den) = (self.num.exact(), self.den.exact());
        let (sx, sy) = start.eval::<Expansion>();
        let (dx, dy) = dir.eval::<Expansion>();
        let den_f = den.approx();
        let at = |s: Expansion, d: Expansion| {
            s.mul(den.clone()).add(d.mul(num.clone())).approx() / den_f
        };
        DVec2::new(at(sx, dx), at(sy, dy))
    }

    /// [`cmp`](Self::cmp), adding the work of an exact comparison to `cost` when the filter
    /// cannot tell: [`EXACT_COST`] on fixed-size products, [`HEAVY`] times that on heap
    /// expansions.
    #[inline]
    pub fn cmp_weighed(&self, o: &Ratio, cost: &Cell<usize>) -> Ordering {
        self.nf
            .mul(o.df)
            .sub(o.nf.mul(self.df))
            .sign()
            .unwrap_or_else(|| self.cmp_exact_weighed(o, cost))
    }

    #[cold]
    #[inline(never)]
    fn cmp_exact(&self, o: &Ratio) -> Ordering {
        self.cmp_exact_weighed(o, &Cell::new(0))
    }

    #[cold]
    #[inline(never)]
    fn cmp_exact_weighed(&self, o: &Ratio, cost: &Cell<usize>) -> Ordering {
        let small = (
            self.num.small(),
            o.den.small(),
            o.num.small(),
            self.den.small(),
        );
        if let (Some(a), Some(b), Some(c), Some(d)) = small {
            cost.set(cost.get() + EXACT_COST);
            return exact_small::cross_sign(&a, &b, &c, &d);
        }
        cost.set(cost.get() + EXACT_COST * HEAVY);
        self.num
            .exact()
            .mul(o.den.exact())
            .sub(o.num.exact().mul(self.den.exact()))
            .sign()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn fractions_equal_exactly_where_floats_round() {
        // 1/3 from two different products: equal, though neither is exact in f64.
        let a = Ratio::new(
            Prod::dot(
                Sum::diff(v(1.0, 0.0), v(0.0, 0.0)),
                Sum::diff(v(1.0, 0.0), Vec2::ZERO),
            ),
            Prod::dot(
                Sum::diff(v(3.0, 0.0), v(0.0, 0.0)),
                Sum::diff(v(1.0, 0.0), Vec2::ZERO),
            ),
        );
        let b = Ratio::new(
            Prod::cross(
                Sum::diff(v(7.0, 0.0), Vec2::ZERO),
                Sum::diff(v(0.0, 1.0), Vec2::ZERO),
            ),
            Prod::cross(
                Sum::diff(v(21.0, 0.0), Vec2::ZERO),
                Sum::diff(v(0.0, 1.0), Vec2::ZERO),
            ),
        );
        assert_eq!(a.cmp(&b), Ordering::Equal);
        assert_eq!(a.cmp(&Ratio::int(0.0)), Ordering::Greater);
        assert_eq!(a.cmp(&Ratio::int(1.0)), Ordering::Less);
    }

    #[test]
    fn signs_of_sums_are_exact_across_exponents() {
        // 2^60 + 1 - 2^60: one, though f64 drops the 1.
        let big = 2f32.powi(60);
        let s = Sum::of(v(big, 0.0), v(big, 0.0), v(0.0, 1.0), Vec2::ZERO);
        assert_eq!(s.half(), 0);
        let c = Prod::cross(Sum::diff(v(1.0, 0.0), Vec2::ZERO), s);
        assert_eq!(c.sign(), Ordering::Greater);
        let d = Sum::of(v(big, 0.0), v(big, 0.0), Vec2::ZERO, v(0.0, 2f32.powi(-60)));
        assert_eq!(d.half(), 1);
    }
}
