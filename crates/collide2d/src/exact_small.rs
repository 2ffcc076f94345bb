//! Exact signs of small polynomials in `f64` values that are themselves exact, in expansions
//! of fixed size on the stack (no allocation, no copies of large buffers): the exact path of
//! the union contact's decisions, taken when the filter of [`exact`](crate::exact) cannot
//! tell, most often because the value is exactly zero (a seam, a shared vertex).
//!
//! A degree-2 number `a b ± c d` is at most 4 components (two exact products); the product
//! of two such at most 32; the difference of two products at most 64. Each step is
//! Shewchuk's GROW-EXPANSION or SCALE-EXPANSION with zero elimination, so each component
//! added grows an expansion by at most one.

use crate::exact::{two_product, two_sum};
use core::cmp::Ordering;

/// An exact sum of at most `N` non-overlapping components, increasing in magnitude, zeros
/// removed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Small<const N: usize> {
    c: [f64; N],
    n: usize,
}

impl<const N: usize> Small<N> {
    #[inline]
    fn zero() -> Self {
        Small { c: [0.0; N], n: 0 }
    }

    /// The components, smallest first.
    #[inline]
    fn parts(&self) -> &[f64] {
        &self.c[..self.n]
    }

    /// Adds `b` in place: each step reads one component and writes at most one, at or
    /// before it; the last may add one. The callers' sizes keep `n < N` here.
    #[inline]
    fn grow(&mut self, b: f64) {
        let mut q = b;
        let mut kept = 0;
        for r in 0..self.n {
            let (s, h) = two_sum(q, self.c[r]);
            if h != 0.0 {
                self.c[kept] = h;
                kept += 1;
            }
            q = s;
        }
        self.n = kept;
        debug_assert!(self.n < N || q == 0.0, "an expansion outgrew its size");
        if q != 0.0 && self.n < N {
            self.c[self.n] = q;
            self.n += 1;
        }
    }

    /// The sign of the exact value: the largest component's.
    #[inline]
    pub fn sign(&self) -> Ordering {
        match self.n.checked_sub(1).map(|i| self.c[i]) {
            Some(x) if x > 0.0 => Ordering::Greater,
            Some(x) if x < 0.0 => Ordering::Less,
            _ => Ordering::Equal,
        }
    }

    /// The value negated, exactly.
    #[inline]
    pub fn neg(mut self) -> Self {
        self.c[..self.n].iter_mut().for_each(|x| *x = -*x);
        self
    }
}

/// `a b + c d`, exactly (at most 4 components).
#[inline]
pub(crate) fn two_products(a: f64, b: f64, c: f64, d: f64) -> Small<4> {
    let (x1, y1) = two_product(a, b);
    let (x2, y2) = two_product(c, d);
    let mut s = Small::<4>::zero();
    for x in [y1, x1, y2, x2] {
        s.grow(x);
    }
    s
}

/// `x y`, exactly (at most 32 components).
fn product(x: &Small<4>, y: &Small<4>) -> Small<32> {
    let mut acc = Small::<32>::zero();
    for &b in y.parts() {
        for &a in x.parts() {
            let (p, e) = two_product(a, b);
            acc.grow(e);
            acc.grow(p);
        }
    }
    acc
}

/// The sign of `p q − r s`, exactly.
pub(crate) fn cross_sign(p: &Small<4>, q: &Small<4>, r: &Small<4>, s: &Small<4>) -> Ordering {
    let (left, right) = (product(p, q), product(r, s));
    let mut acc = Small::<64>::zero();
    for &x in left.parts() {
        acc.grow(x);
    }
    for &x in right.parts() {
        acc.grow(-x);
    }
    acc.sign()
}

/// The sign of `p + q`, exactly.
pub(crate) fn sum_sign(p: &Small<4>, q: &Small<4>) -> Ordering {
    let mut acc = Small::<8>::zero();
    for &x in p.parts().iter().chain(q.parts()) {
        acc.grow(x);
    }
    acc.sign()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_of_rounded_values_compare_exactly() {
        // (1 + 2^-30)^2 against 1 + 2^-29 + 2^-60: equal, though f64 rounds the square.
        let x = 1.0 + 2f64.powi(-30);
        let sq = two_products(x, x, 0.0, 0.0);
        let one = two_products(1.0, 1.0, 0.0, 0.0);
        let rest = two_products(2f64.powi(-29), 1.0, 2f64.powi(-30), 2f64.powi(-30));
        // sq * 1 − (1 + rest) * 1 == 0.
        let mut whole = Small::<4>::zero();
        for &c in one.parts().iter().chain(rest.parts()) {
            whole.grow(c);
        }
        assert_eq!(cross_sign(&sq, &one, &whole, &one), Ordering::Equal);
        let bigger = two_products(x, x, 2f64.powi(-100), 1.0);
        assert_eq!(cross_sign(&bigger, &one, &whole, &one), Ordering::Greater);
        assert_eq!(sum_sign(&sq, &sq.neg()), Ordering::Equal);
        assert_eq!(sum_sign(&sq, &one.neg()), Ordering::Greater);
    }
}
