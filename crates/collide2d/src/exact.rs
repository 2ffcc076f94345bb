//! Exact signs of small polynomials in `f32` inputs: a float filter with an exact fallback.
//!
//! Every predicate is written once, generically over [`Field`], and evaluated first with
//! [`Filtered`] (`f64` plus a running magnitude bound), then, only when the filter cannot decide,
//! with [`Expansion`] (Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust
//! Geometric Predicates", 1997: non-overlapping sums of `f64`, exact while nothing overflows).
//! For `f32` inputs and degree <= 4 no `f64` step can overflow or underflow: `f32` magnitudes lie
//! in `[2^-149, 2^128]`, so a product of four stays in `[2^-596, 2^520]`.

use crate::math::Vec2;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// Arithmetic the predicates are written in.
pub(crate) trait Field: Clone {
    fn from_f32(x: f32) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn square(self) -> Self {
        self.clone().mul(self)
    }
}

/// An `f64` value with a bound on the magnitude of every term that went into it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filtered {
    v: f64,
    m: f64,
}

/// Relative error bound of the filter: far above the `~8 * 2^-53` that a degree-4 predicate of a
/// dozen operations can accumulate, still far below the gap of any non-degenerate input.
const FILTER_EPS: f64 = 1.0 / (1u64 << 45) as f64;

impl Filtered {
    /// The sign of the exact value, when the bound proves it.
    pub(crate) fn sign(self) -> Option<Ordering> {
        let bound = self.m * FILTER_EPS;
        if self.v > bound {
            Some(Ordering::Greater)
        } else if self.v < -bound {
            Some(Ordering::Less)
        } else if self.m == 0.0 {
            // Every term had a zero factor, so the exact value is zero.
            Some(Ordering::Equal)
        } else {
            None
        }
    }

    /// The computed value (rounded; within the bound of the exact one).
    #[cfg(feature = "concave-search")]
    pub(crate) fn value(self) -> f64 {
        self.v
    }

    /// A bound on the distance from the computed value to the exact one (what [`sign`](Self::sign)
    /// trusts).
    #[cfg(feature = "concave-search")]
    pub(crate) fn error(self) -> f64 {
        self.m * FILTER_EPS
    }

    /// A value known to be exact: its bound is itself (an exact zero decides at once).
    #[cfg(feature = "concave-search")]
    pub(crate) fn exact(v: f64) -> Filtered {
        Filtered { v, m: v.abs() }
    }

    /// `p − q + r − s` of `f32` inputs: exact (bound: itself) when no step rounds, as
    /// Knuth's two-sum tells, else bounded by the inputs' magnitudes.
    #[cfg(feature = "concave-search")]
    pub(crate) fn sum4(p: f32, q: f32, r: f32, s: f32) -> Filtered {
        let (p, q, r, s) = (f64::from(p), f64::from(q), f64::from(r), f64::from(s));
        let (d1, e1) = two_sum(p, -q);
        let (d2, e2) = two_sum(r, -s);
        let (v, e3) = two_sum(d1, d2);
        if e1 == 0.0 && e2 == 0.0 && e3 == 0.0 {
            Filtered::exact(v)
        } else {
            Filtered::sum4_rounded(p, q, r, s)
        }
    }

    /// [`Filtered::sum4`] where `f64` rounds: the exact sum as a compressed expansion, its
    /// largest component as the value, bounded by the others. A bound from the inputs'
    /// magnitudes instead (`|p| + |q| + ...`) is useless where they cancel: at coordinates
    /// near `1e38` every later filter would fail and fall to exact arithmetic.
    #[cfg(feature = "concave-search")]
    #[cold]
    #[inline(never)]
    fn sum4_rounded(p: f64, q: f64, r: f64, s: f64) -> Filtered {
        let mut e = Expansion::default();
        for x in [p, -q, r, -s] {
            if x != 0.0 {
                e.grow(x);
            }
        }
        e.compress();
        match e.parts().split_last() {
            None => Filtered::exact(0.0),
            Some((&top, rest)) => {
                // The value misses `sum(rest)`, at most `sum |rest|` (rounded here, hence the
                // factor above 2^52): within `2^-52 m`, as an input rounded once is.
                let missed: f64 = rest.iter().map(|x| x.abs()).sum();
                Filtered {
                    v: top,
                    m: top.abs() + missed * 6_755_399_441_055_744.0, // 1.5 * 2^52
                }
            }
        }
    }
}

impl Field for Filtered {
    #[inline(always)]
    fn from_f32(x: f32) -> Self {
        let v = f64::from(x);
        Filtered { v, m: v.abs() }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Filtered {
            v: self.v + o.v,
            m: self.m + o.m,
        }
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Filtered {
            v: self.v - o.v,
            m: self.m + o.m,
        }
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Filtered {
            v: self.v * o.v,
            m: self.m * o.m,
        }
    }
}

/// Components an [`Expansion`] holds without allocating: the union contact's degree-4
/// comparisons of sums of four `f32` points stay within this after zero elimination, almost
/// always (larger ones spill to the heap).
const INLINE: usize = 24;

/// Past this many components a product's partial sum is compressed (see
/// [`Expansion::compress`]), so it stays inline and each step's cost bounded.
const COMPRESS_AT: usize = 12;

/// An exact sum of non-overlapping `f64` components, increasing in magnitude, zeros removed;
/// stored inline up to [`INLINE`] components, on the heap past that.
#[derive(Clone, Debug)]
pub(crate) struct Expansion {
    /// Components held inline (when not `heap`).
    len: usize,
    inline: [f64; INLINE],
    /// The components, once more than [`INLINE`] were needed.
    spilled: Vec<f64>,
    heap: bool,
}

impl Default for Expansion {
    #[inline]
    fn default() -> Self {
        Expansion {
            len: 0,
            inline: [0.0; INLINE],
            spilled: Vec::new(),
            heap: false,
        }
    }
}

#[inline]
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let x = a + b;
    let bv = x - a;
    let av = x - bv;
    (x, (a - av) + (b - bv))
}

#[inline]
fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let x = a + b;
    (x, b - (x - a))
}

/// Dekker's split: `a == hi + lo`, each with at most 26 significant bits.
#[inline]
fn split(a: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134_217_729.0; // 2^27 + 1
    let c = SPLITTER * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// `a * b == x + y` exactly, without relying on a fused multiply-add.
#[inline]
pub(crate) fn two_product(a: f64, b: f64) -> (f64, f64) {
    let x = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let err = ((x - ah * bh) - al * bh) - ah * bl;
    (x, al * bl - err)
}

impl Expansion {
    /// The components, smallest first.
    #[inline]
    fn parts(&self) -> &[f64] {
        if self.heap {
            &self.spilled
        } else {
            &self.inline[..self.len]
        }
    }

    /// Appends a component (zeros are the caller's to skip).
    #[inline]
    fn push(&mut self, x: f64) {
        if self.heap {
            self.spilled.push(x);
        } else if self.len < INLINE {
            self.inline[self.len] = x;
            self.len += 1;
        } else {
            self.spilled.extend_from_slice(&self.inline);
            self.spilled.push(x);
            self.heap = true;
        }
    }

    /// Adds one `f64` in place (Shewchuk's GROW-EXPANSION with zero elimination: each step
    /// reads one component and writes at most one, at or before it).
    fn grow(&mut self, b: f64) {
        let parts: &mut [f64] = if self.heap {
            &mut self.spilled
        } else {
            &mut self.inline[..self.len]
        };
        let mut q = b;
        let mut kept = 0;
        for r in 0..parts.len() {
            let (s, h) = two_sum(q, parts[r]);
            if h != 0.0 {
                parts[kept] = h;
                kept += 1;
            }
            q = s;
        }
        if self.heap {
            self.spilled.truncate(kept);
        } else {
            self.len = kept;
        }
        if q != 0.0 {
            self.push(q);
        }
    }

    /// Multiplies by one `f64` (Shewchuk's SCALE-EXPANSION with zero elimination).
    fn scale(&self, b: f64) -> Expansion {
        let mut out = Expansion::default();
        let Some((&first, rest)) = self.parts().split_first() else {
            return out;
        };
        let (mut q, h) = two_product(first, b);
        if h != 0.0 {
            out.push(h);
        }
        for &e in rest {
            let (p1, p0) = two_product(e, b);
            let (sum, h) = two_sum(q, p0);
            if h != 0.0 {
                out.push(h);
            }
            let (s, h) = fast_two_sum(p1, sum);
            if h != 0.0 {
                out.push(h);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        out
    }

    /// Rewrites the components so that no two overlap or sit next to each other (Shewchuk's
    /// COMPRESS): the same value in at most as many components as its span of exponents
    /// needs, about 22 for any degree-4 polynomial of `f32` inputs (`[2^-596, 2^520]`).
    /// Without it, products of sums keep every partial product and grow to thousands of
    /// components where exponents are far apart, each later step costing their square.
    fn compress(&mut self) {
        let parts: &mut [f64] = if self.heap {
            &mut self.spilled
        } else {
            &mut self.inline[..self.len]
        };
        let m = parts.len();
        if m < 2 {
            return;
        }
        // Largest first: sums that carry into larger components, stored from the top down.
        let mut bottom = m - 1;
        let mut q = parts[m - 1];
        for i in (0..m - 1).rev() {
            let (big, small) = fast_two_sum(q, parts[i]);
            if small != 0.0 {
                parts[bottom] = big;
                bottom -= 1;
                q = small;
            } else {
                q = big;
            }
        }
        parts[bottom] = q;
        // Then smallest first, keeping each non-zero remainder.
        let mut top = 0;
        for i in bottom + 1..m {
            let (big, small) = fast_two_sum(parts[i], q);
            if small != 0.0 {
                parts[top] = small;
                top += 1;
            }
            q = big;
        }
        parts[top] = q;
        let kept = if q == 0.0 { top } else { top + 1 };
        if self.heap {
            self.spilled.truncate(kept);
            if kept <= INLINE {
                self.inline[..kept].copy_from_slice(&self.spilled);
                self.len = kept;
                self.spilled.clear();
                self.heap = false;
            }
        } else {
            self.len = kept;
        }
    }

    /// The sign of the exact value.
    pub(crate) fn sign(&self) -> Ordering {
        // The largest component decides: the others sum to less than half an ulp of it.
        match self.parts().last() {
            Some(&x) if x > 0.0 => Ordering::Greater,
            Some(&x) if x < 0.0 => Ordering::Less,
            _ => Ordering::Equal,
        }
    }

    /// The closest `f64` to the exact value (within a few ulps: good enough for reporting).
    #[cfg(feature = "concave-search")]
    pub(crate) fn approx(&self) -> f64 {
        self.parts().iter().sum()
    }
}

impl Field for Expansion {
    fn from_f32(x: f32) -> Self {
        let mut out = Expansion::default();
        if x != 0.0 {
            out.push(f64::from(x));
        }
        out
    }
    fn add(self, o: Self) -> Self {
        let (small, mut large) = if self.parts().len() < o.parts().len() {
            (self, o)
        } else {
            (o, self)
        };
        for &c in small.parts() {
            large.grow(c);
        }
        if large.parts().len() > COMPRESS_AT {
            large.compress();
        }
        large
    }
    fn sub(self, o: Self) -> Self {
        let mut out = self;
        for &c in o.parts() {
            out.grow(-c);
        }
        if out.parts().len() > COMPRESS_AT {
            out.compress();
        }
        out
    }
    fn mul(self, o: Self) -> Self {
        let mut acc = Expansion::default();
        for &c in o.parts() {
            let term = self.scale(c);
            acc = acc.add(term);
            if acc.parts().len() > COMPRESS_AT {
                acc.compress();
            }
        }
        acc.compress();
        acc
    }
}

/// Evaluates a generic predicate with the filter, then exactly if the filter cannot tell.
macro_rules! exact_sign {
    ($f:ident($($arg:expr),* $(,)?)) => {{
        match $f::<Filtered>($($arg),*).sign() {
            Some(s) => s,
            None => $f::<Expansion>($($arg),*).sign(),
        }
    }};
}

#[inline(always)]
fn v<T: Field>(p: Vec2) -> (T, T) {
    (T::from_f32(p.x), T::from_f32(p.y))
}

#[inline(always)]
fn orient_expr<T: Field>(a: Vec2, b: Vec2, c: Vec2) -> T {
    let (ax, ay) = v::<T>(a);
    let (bx, by) = v::<T>(b);
    let (cx, cy) = v::<T>(c);
    let (ux, uy) = (bx.sub(ax.clone()), by.sub(ay.clone()));
    let (wx, wy) = (cx.sub(ax), cy.sub(ay));
    ux.mul(wy).sub(uy.mul(wx))
}

/// Sign of `(b - a) x (c - a)`: `Greater` when `c` lies to the left of `a -> b` (counter-clockwise).
#[inline(always)]
pub(crate) fn orient(a: Vec2, b: Vec2, c: Vec2) -> Ordering {
    let (u, w) = (b.as_dvec2() - a.as_dvec2(), c.as_dvec2() - a.as_dvec2());
    let (t1, t2) = (u.x * w.y, u.y * w.x);
    // Each difference is rounded once, so (Shewchuk's ccwerrboundA) the error is below
    // 4 ulp of |t1| + |t2|; 8 leaves room.
    decide(t1 - t2, (t1.abs() + t2.abs()) * ERR_2).unwrap_or_else(|| orient_exact(a, b, c))
}

/// [`orient`] with `da = a.as_dvec2()` and `u = b.as_dvec2() - da` already computed (by a
/// caller testing many points against one edge): the same filter, the same answer.
#[inline(always)]
pub(crate) fn orient_from(a: Vec2, b: Vec2, da: glam::DVec2, u: glam::DVec2, c: Vec2) -> Ordering {
    let w = c.as_dvec2() - da;
    let (t1, t2) = (u.x * w.y, u.y * w.x);
    decide(t1 - t2, (t1.abs() + t2.abs()) * ERR_2).unwrap_or_else(|| orient_exact(a, b, c))
}

#[cold]
#[inline(never)]
fn orient_exact(a: Vec2, b: Vec2, c: Vec2) -> Ordering {
    orient_expr::<Expansion>(a, b, c).sign()
}

/// Relative error bounds of the hand-derived filters below (`2^-50` = 8 ulp of `f64`, and so on):
/// each is several times the worst rounding of its expression, whose first operations are
/// differences of `f32` inputs, each rounded once in `f64`.
pub(crate) const ERR_2: f64 = 1.0 / (1u64 << 50) as f64;
const ERR_DIST: f64 = 1.0 / (1u64 << 49) as f64;
const ERR_4: f64 = 1.0 / (1u64 << 45) as f64;

/// The sign of `v` when the filter decides it: `|v|` above the error bound, or a bound of 0,
/// which (no `f64` product of `f32` differences underflows) means every term is exactly 0.
#[inline(always)]
fn decide(v: f64, bound: f64) -> Option<Ordering> {
    if v.abs() > bound || bound == 0.0 {
        Some(v.partial_cmp(&0.0).unwrap_or(Ordering::Equal))
    } else {
        None
    }
}

#[inline(always)]
fn dot_expr<T: Field>(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> T {
    let (ax, ay) = v::<T>(a);
    let (bx, by) = v::<T>(b);
    let (cx, cy) = v::<T>(c);
    let (dx, dy) = v::<T>(d);
    bx.sub(ax).mul(dx.sub(cx)).add(by.sub(ay).mul(dy.sub(cy)))
}

/// Sign of `(b - a) . (d - c)`.
#[inline(always)]
pub(crate) fn dot(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> Ordering {
    let (u, w) = (b.as_dvec2() - a.as_dvec2(), d.as_dvec2() - c.as_dvec2());
    let (t1, t2) = (u.x * w.x, u.y * w.y);
    decide(t1 + t2, (t1.abs() + t2.abs()) * ERR_2).unwrap_or_else(|| dot_exact(a, b, c, d))
}

#[cold]
#[inline(never)]
fn dot_exact(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> Ordering {
    dot_expr::<Expansion>(a, b, c, d).sign()
}

#[inline(always)]
fn dist2_expr<T: Field>(p: Vec2, q: Vec2, r1: f32, r2: f32) -> T {
    let (px, py) = v::<T>(p);
    let (qx, qy) = v::<T>(q);
    let r = T::from_f32(r1).add(T::from_f32(r2));
    px.sub(qx).square().add(py.sub(qy).square()).sub(r.square())
}

/// Sign of `|p - q|^2 - (r1 + r2)^2`: an `f32` filter first, which decides almost every input
/// at the cost of the tutorial test, then an `f64` one, then exact arithmetic.
///
/// The `f32` filter compares the tutorial's `d2 = dx * dx + dy * dy` and `rr = r * r` by how
/// many floats lie between them: for non-negative floats the bit patterns, read as integers,
/// are in the same order as the values, and their difference counts the floats in between,
/// each at least `2^-149` and, above a normal `x`, more than `u x` apart (`u = 2^-24`). That
/// one integer difference covers both the relative error of normal values and the absolute
/// error of ones that underflow, with no floor to add.
///
/// Error bound. Each of `dx`, `dy`, `r` is the exact value rounded once, each square adds a
/// relative `u` and an absolute `2^-150` (underflow), the sum a relative `u`: so
/// `d2 <= D2 (1 + u)^4 + 2^-149 (1 + u)` and `d2 >= (D2 (1 - u)^3 - 2^-149) (1 - u)`, where `D2`
/// is the true `|p - q|^2`, and `rr` is within `R2 (1 -+ u)^3 -+ 2^-150` of the true `R2`. If
/// `D2 <= R2`, then `d2 - rr < 7.01u rr + 1.51 * 2^-149`, so at most 8 floats lie above `rr`
/// up to `d2`; if `D2 >= R2`, likewise at most 8 above `d2` up to `rr`. A gap of more than
/// [`DIST_F32_GAP`] (12) floats therefore decides. Overflow: `+inf` is the float after
/// `f32::MAX`, and the same count holds (a `d2` that overflows while `rr` is 12 floats below
/// `f32::MAX` is a certain miss); both infinite is a gap of 0, which does not decide. (Inputs
/// with NaN or infinite coordinates give some answer, never a panic, as `Shape` documents.)
#[inline(always)]
pub(crate) fn cmp_dist2(p: Vec2, q: Vec2, r1: f32, r2: f32) -> Ordering {
    dist2_filter(p, q, r1, r2).unwrap_or_else(|| cmp_dist2_f64(p, q, r1, r2))
}

/// The `f32` filter of [`cmp_dist2`]: its answer, or `None` for [`cmp_dist2_f64`] to decide.
/// (Callers holding the inputs behind references use [`dist2_gap`] and pass those to a cold
/// fallback instead of keeping the numbers in registers.)
#[inline(always)]
fn dist2_filter(p: Vec2, q: Vec2, r1: f32, r2: f32) -> Option<Ordering> {
    let gap = dist2_gap(p, q, r1, r2);
    // `|gap| > DIST_F32_GAP`, as one unsigned comparison.
    if gap.wrapping_add(DIST_F32_GAP) as u32 > 2 * DIST_F32_GAP as u32 {
        return Some(if gap < 0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    None
}

/// How many floats apart the `f32` filter of [`cmp_dist2`] needs `d2` and `rr`: at most 8 when
/// the answer is the other one (4 is the worst a search found: see the tests), and a margin.
pub(crate) const DIST_F32_GAP: i32 = 12;

/// The tutorial's `d2 = |p - q|^2` and `rr = (r1 + r2)^2` in `f32`, and the count of floats
/// from `rr` up to `d2` (negative when `d2` is below): the bits of floats `>= +0` are in value
/// order (wrapping, as NaN's may not be). Above [`DIST_F32_GAP`], `|p - q| > r1 + r2`
/// certainly; below `-DIST_F32_GAP`, `<` certainly (see [`cmp_dist2`]).
#[inline(always)]
pub(crate) fn dist2_gap(p: Vec2, q: Vec2, r1: f32, r2: f32) -> i32 {
    let d = p - q;
    let r = r1 + r2;
    let (d2, rr) = (d.x * d.x + d.y * d.y, r * r);
    (d2.to_bits() as i32).wrapping_sub(rr.to_bits() as i32)
}

/// [`cmp_dist2`] for the inputs its `f32` filter leaves undecided (touching or nearly so).
#[cold]
#[inline(never)]
pub(crate) fn cmp_dist2_f64(p: Vec2, q: Vec2, r1: f32, r2: f32) -> Ordering {
    let delta = p.as_dvec2() - q.as_dvec2();
    let r = f64::from(r1) + f64::from(r2);
    let (d2, rr) = (delta.x * delta.x + delta.y * delta.y, r * r);
    // Each of delta.x, delta.y, r is rounded once: the error is below 5 ulp of d2 + rr.
    decide(d2 - rr, (d2 + rr) * ERR_DIST).unwrap_or_else(|| cmp_dist2_exact(p, q, r1, r2))
}

#[inline(never)]
fn cmp_dist2_exact(p: Vec2, q: Vec2, r1: f32, r2: f32) -> Ordering {
    dist2_expr::<Expansion>(p, q, r1, r2).sign()
}

#[inline(always)]
fn line_dist2_expr<T: Field>(a: Vec2, b: Vec2, p: Vec2, r1: f32, r2: f32) -> T {
    let cross = orient_expr::<T>(a, b, p);
    let (ax, ay) = v::<T>(a);
    let (bx, by) = v::<T>(b);
    let len2 = bx.sub(ax).square().add(by.sub(ay).square());
    let r = T::from_f32(r1).add(T::from_f32(r2));
    cross.square().sub(r.square().mul(len2))
}

/// Sign of `dist(p, line ab)^2 - (r1 + r2)^2`, scaled by `|b - a|^2` (so exact, no division).
#[inline]
pub(crate) fn cmp_line_dist2(a: Vec2, b: Vec2, p: Vec2, r1: f32, r2: f32) -> Ordering {
    let (u, w) = (b.as_dvec2() - a.as_dvec2(), p.as_dvec2() - a.as_dvec2());
    let (t1, t2) = (u.x * w.y, u.y * w.x);
    let (cross, perm) = (t1 - t2, t1.abs() + t2.abs());
    let r = f64::from(r1) + f64::from(r2);
    let rl = r * r * u.length_squared();
    // cross^2 is off by under ~10 ulp of perm^2, r^2 |u|^2 by under ~9 ulp of itself.
    decide(cross * cross - rl, (perm * perm + rl) * ERR_4)
        .unwrap_or_else(|| line_dist2_exact(a, b, p, r1, r2))
}

#[cold]
#[inline(never)]
fn line_dist2_exact(a: Vec2, b: Vec2, p: Vec2, r1: f32, r2: f32) -> Ordering {
    line_dist2_expr::<Expansion>(a, b, p, r1, r2).sign()
}

#[inline(always)]
fn area2_expr<T: Field>(points: &[Vec2]) -> T {
    let n = points.len();
    (0..n).fold(T::from_f32(0.0), |acc, i| {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let (ax, ay) = v::<T>(a);
        let (bx, by) = v::<T>(b);
        acc.add(ax.mul(by).sub(ay.mul(bx)))
    })
}

/// Sign of the signed area of a closed polygon: `Greater` when counter-clockwise.
pub(crate) fn area_sign(points: &[Vec2]) -> Ordering {
    exact_sign!(area2_expr(points))
}

// ---- exact geometric predicates built on the signs above ----

/// `p` lies in the closed axis-aligned box spanned by `a` and `b`.
#[inline]
fn in_span(a: Vec2, b: Vec2, p: Vec2) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

/// The closed segments `ab` and `cd` share a point (either may be a single point).
pub(crate) fn segments_intersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    if a.x.max(b.x) < c.x.min(d.x)
        || c.x.max(d.x) < a.x.min(b.x)
        || a.y.max(b.y) < c.y.min(d.y)
        || c.y.max(d.y) < a.y.min(b.y)
    {
        return false;
    }
    let o1 = orient(a, b, c);
    let o2 = orient(a, b, d);
    let o3 = orient(c, d, a);
    let o4 = orient(c, d, b);
    let opposite =
        |x: Ordering, y: Ordering| x != Ordering::Equal && y != Ordering::Equal && x != y;
    if opposite(o1, o2) && opposite(o3, o4) {
        return true;
    }
    (o1.is_eq() && in_span(a, b, c))
        || (o2.is_eq() && in_span(a, b, d))
        || (o3.is_eq() && in_span(c, d, a))
        || (o4.is_eq() && in_span(c, d, b))
}

/// Sign of `dist(p, segment ab) - (r1 + r2)`, exactly.
#[inline]
pub(crate) fn point_segment_cmp(p: Vec2, a: Vec2, b: Vec2, r1: f32, r2: f32) -> Ordering {
    if radius_sum_sign(r1, r2).is_lt() {
        return Ordering::Greater;
    }
    // Both sides are >= 0, so comparing squares compares the distances.
    if a == b || dot(a, b, a, p).is_le() {
        return cmp_dist2(p, a, r1, r2);
    }
    if dot(b, a, b, p).is_le() {
        return cmp_dist2(p, b, r1, r2);
    }
    cmp_line_dist2(a, b, p, r1, r2)
}

/// `dist(p, segment ab) <= r1 + r2`, exactly (never when `r1 + r2 < 0`).
///
/// The same decisions as `point_segment_cmp(..).is_le()`, with the filters' differences
/// `b - a`, `p - a` (as `dot`, `cmp_line_dist2` compute them) and `p - b` computed once, and
/// each filter's expression and bound unchanged.
#[inline(always)]
pub(crate) fn point_segment_within(p: Vec2, a: Vec2, b: Vec2, r1: f32, r2: f32) -> bool {
    // The sign of an `f32` sum is exact.
    let r = r1 + r2;
    if r < 0.0 {
        return false;
    }
    match point_segment_filter(p, a, b, r) {
        Some(within) => within,
        None => point_segment_within_f64(p, a, b, r1, r2),
    }
}

/// The `f32` filter of [`point_segment_within`] (`r >= 0`), or `None` when its error bound
/// does not decide. No division: with `w = p - a`, `e = b - a`, the point of the segment nearest
/// `p` is `a` when `w . e <= 0`, `b` when `w . e >= |e|^2`, and otherwise at distance
/// `|w x e| / |e|`, so the test compares `|p - a|^2`, `|p - b|^2` or `(w x e)^2` with `rr`,
/// `rr` or `rr |e|^2` (`rr = r^2`). The three are computed and one is picked by bits (the part
/// of the segment nearest is no pattern a branch could learn; a float picked by `if` compiles
/// to a branch), which is also why this beats the tutorial's division.
///
/// Error bound (`u = 2^-24`; `W`, `E`, `R` exact, `S = |w|^2 + |e|^2 + rr` as computed). Each
/// difference is the exact one rounded once, each product and sum adds a relative `u`:
/// `|p - a|^2` and `|p - b|^2` are within `4u` of theirs, `rr` within `3u`, so an end's `v` is
/// within `8u (|p - b|^2 + rr) <= 16u S` (`|p - b|^2 <= 2 (|w|^2 + |e|^2)`). Inside, `w x e`
/// is within `6u |W| |E|` of `W x E`, its square within `13u |W|^2 |E|^2`, `rr |e|^2` within
/// `9u R^2 |E|^2`: `v` within `15u S |e|^2`. A wrong pick (the rounded `w . e` on the other side
/// of `0` or `|e|^2`, so within `10u (|W| |E| + |E|^2)` of it) changes the exact value by at
/// most the square of that over `|E|^2`, under `200u^2 S` (times `|e|^2` inside). So the bound
/// `2^-16 S` (times `|e|^2` inside) covers all with a margin over 15 times. Products that
/// underflow add up to `2^-147` each: inside, scaled by up to `rr` or `|w| |e|` through
/// `|e|^2` and `w x e`, which `2^-140 S` covers; the floor `2^-100` covers the rest. A NaN or
/// an infinity anywhere decides nothing: the bound is then infinite or NaN, or `|v|` is.
#[inline(always)]
pub(crate) fn point_segment_filter(p: Vec2, a: Vec2, b: Vec2, r: f32) -> Option<bool> {
    // Scalar: packed two-lane dot products cost shuffles here.
    let (ex, ey) = (b.x - a.x, b.y - a.y);
    let (wx, wy) = (p.x - a.x, p.y - a.y);
    let (bx, by) = (p.x - b.x, p.y - b.y);
    let ee = ex * ex + ey * ey;
    let we = wx * ex + wy * ey;
    let ww = wx * wx + wy * wy;
    let rr = r * r;
    let cross = wx * ey - wy * ex;
    let pick = |c: bool, x: f32, y: f32| f32::from_bits(if c { x.to_bits() } else { y.to_bits() });
    let (before, beyond) = (we <= 0.0, we >= ee);
    let inside = !(before | beyond);
    let end = pick(before, ww, bx * bx + by * by) - rr;
    let v = pick(inside, cross * cross - rr * ee, end);
    let scale = pick(inside, ee, 1.0) * ERR_SEGMENT_F32 + SEGMENT_F32_UNDERFLOW;
    let bound = (ww + ee + rr) * scale + SEGMENT_F32_FLOOR;
    (v.abs() > bound && v.abs() < f32::INFINITY).then_some(v < 0.0)
}

/// Relative error bound of [`point_segment_filter`], `2^-16`, the part of it that covers
/// products underflowing inside the segment, and its absolute floor.
const ERR_SEGMENT_F32: f32 = 1.0 / (1u32 << 16) as f32;
const SEGMENT_F32_UNDERFLOW: f32 = 1.0 / (1u128 << 127) as f32 / 8192.0;
const SEGMENT_F32_FLOOR: f32 = 1.0 / (1u128 << 100) as f32;

/// [`point_segment_within`] past its `f32` filter: `f64` filters, then exact arithmetic.
#[cold]
#[inline(never)]
pub(crate) fn point_segment_within_f64(p: Vec2, a: Vec2, b: Vec2, r1: f32, r2: f32) -> bool {
    let r = f64::from(r1) + f64::from(r2);
    if a == b {
        return cmp_dist2(p, a, r1, r2).is_le();
    }
    let (da, db, dp) = (a.as_dvec2(), b.as_dvec2(), p.as_dvec2());
    let (u, w) = (db - da, dp - da);
    // dot(a, b, a, p) <= 0: p projects before a.
    let (t1, t2) = (u.x * w.x, u.y * w.y);
    let before_a = decide(t1 + t2, (t1.abs() + t2.abs()) * ERR_2)
        .unwrap_or_else(|| dot_exact(a, b, a, p))
        .is_le();
    if before_a {
        return cmp_dist2(p, a, r1, r2).is_le();
    }
    // dot(b, a, b, p) <= 0: p projects beyond b (a - b is -u exactly).
    let (ub, wb) = (-u, dp - db);
    let (t1, t2) = (ub.x * wb.x, ub.y * wb.y);
    let beyond_b = decide(t1 + t2, (t1.abs() + t2.abs()) * ERR_2)
        .unwrap_or_else(|| dot_exact(b, a, b, p))
        .is_le();
    if beyond_b {
        return cmp_dist2(p, b, r1, r2).is_le();
    }
    // cmp_line_dist2(a, b, p, r1, r2) <= 0.
    let (t1, t2) = (u.x * w.y, u.y * w.x);
    let (cross, perm) = (t1 - t2, t1.abs() + t2.abs());
    let rl = r * r * u.length_squared();
    decide(cross * cross - rl, (perm * perm + rl) * ERR_4)
        .unwrap_or_else(|| line_dist2_exact(a, b, p, r1, r2))
        .is_le()
}

/// Sign of `r1 + r2`, exactly: rounding never changes the sign of a sum, and (with gradual
/// underflow) a sum rounds to 0 only when it is 0.
#[inline(always)]
pub(crate) fn radius_sum_sign(r1: f32, r2: f32) -> Ordering {
    (f64::from(r1) + f64::from(r2))
        .partial_cmp(&0.0)
        .unwrap_or(Ordering::Equal)
}

/// Sign of `dist(segment ab, segment cd) - (r1 + r2)`, exactly.
pub(crate) fn segment_segment_cmp(
    a: Vec2,
    b: Vec2,
    c: Vec2,
    d: Vec2,
    r1: f32,
    r2: f32,
) -> Ordering {
    let r = radius_sum_sign(r1, r2);
    if r.is_lt() {
        return Ordering::Greater;
    }
    if segments_intersect(a, b, c, d) {
        return r.reverse(); // distance 0 against r >= 0
    }
    point_segment_cmp(a, c, d, r1, r2)
        .min(point_segment_cmp(b, c, d, r1, r2))
        .min(point_segment_cmp(c, a, b, r1, r2))
        .min(point_segment_cmp(d, a, b, r1, r2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64: a seeded stream for the filter tests below.
    struct Mix(u64);
    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        /// Uniform in `[-1, 1)`.
        fn unit(&mut self) -> f32 {
            (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        }
        /// A point near `c` at `scale`.
        fn near(&mut self, c: Vec2, scale: f32) -> Vec2 {
            c + Vec2::new(self.unit(), self.unit()) * scale
        }
    }

    /// `dist(p, segment ab)^2 <= (r1 + r2)^2`, every decision in [`Expansion`] arithmetic.
    fn segment_within_reference(p: Vec2, a: Vec2, b: Vec2, r1: f32, r2: f32) -> bool {
        if f64::from(r1) + f64::from(r2) < 0.0 {
            return false;
        }
        let le = |e: Expansion| e.sign().is_le();
        if a == b || le(dot_expr(a, b, a, p)) {
            return le(dist2_expr(p, a, r1, r2));
        }
        if le(dot_expr(b, a, b, p)) {
            return le(dist2_expr(p, b, r1, r2));
        }
        le(line_dist2_expr(a, b, p, r1, r2))
    }

    /// Radii that put the distance `dist` within a few of the `f32` filters' bounds of touching,
    /// on either side, or exactly on it.
    fn radius_near(rng: &mut Mix, dist: f64) -> f32 {
        let k = (rng.next() % 9) as i32 - 4;
        let rel = f64::from(k) * 2f64.powi(-16 - (rng.next() % 12) as i32);
        (dist * (1.0 + rel)) as f32
    }

    #[test]
    fn f32_filters_agree_with_exact_arithmetic_at_every_scale() {
        let mut rng = Mix(7);
        for i in 0..60_000 {
            // Scales from 2^-70 to 2^70: underflowing squares to overflowing ones.
            let scale = 2f32.powi((rng.next() % 141) as i32 - 70);
            let far = 2f32.powi((rng.next() % 30) as i32);
            let c = Vec2::new(rng.unit(), rng.unit()) * scale * far;
            let (p, q) = (rng.near(c, scale), rng.near(c, scale));
            let a = rng.near(c, scale);
            let b = if i % 16 == 0 { a } else { rng.near(c, scale) };
            let dist = f64::from((p - q).length());
            let r1 = radius_near(&mut rng, dist);
            let exact = dist2_expr::<Expansion>(p, q, r1, 0.0).sign();
            assert_eq!(cmp_dist2(p, q, r1, 0.0), exact, "{p:?} {q:?} {r1}");
            assert_eq!(cmp_dist2(q, p, 0.0, r1), exact, "{p:?} {q:?} {r1}");
            // A sum of radii that rounds.
            let (r1, r2) = (r1 * 0.375, r1 * 0.625);
            let exact = dist2_expr::<Expansion>(p, q, r1, r2).sign();
            assert_eq!(cmp_dist2(p, q, r1, r2), exact, "{p:?} {q:?} {r1} {r2}");

            let seg = segment_distance(p.as_dvec2(), a.as_dvec2(), b.as_dvec2());
            let (r1, r2) = (radius_near(&mut rng, seg), 0.0);
            let (r1, r2) = match i % 4 {
                0 | 1 => (r1, r2),
                2 => (r1 * 0.25, r1 * 0.75),
                // A negative sum (as convex paths pass `-radius`): never within.
                _ => (r1 * 0.5, -r1),
            };
            let expected = segment_within_reference(p, a, b, r1, r2);
            assert_eq!(
                point_segment_within(p, a, b, r1, r2),
                expected,
                "{p:?} {a:?} {b:?} {r1} {r2}"
            );
        }
    }

    /// Inputs whose roundings all push [`cmp_dist2`]'s `f32` squares the same wrong way (found
    /// by a search): a difference or radius sum that rounds by nearly half an ulp, squares
    /// and sums rounding with it. Each `d2` lies 4 floats on the wrong side of `rr`, so a
    /// filter trusting a gap of 4 (a third of the one it has) answers wrong on them.
    #[test]
    #[allow(clippy::excessive_precision)] // the literals are exact f32 values
    fn dist2_filter_survives_its_worst_roundings() {
        let cases = [
            // (p, q, r1, r2, gap): gap > 0 says "apart", yet the discs touch; < 0 the reverse.
            (
                (9.529229, 5.9329944),
                (-4.6472996e-7, -2.30968e-7),
                1.1225267e1,
                4.917383e-7,
                -4,
            ),
            (
                (2.5499358, 1.2213825),
                (-1.1874363e-7, -5.8673322e-8),
                2.827357,
                1.1967495e-7,
                -4,
            ),
            (
                (1.1647421, 0.7914735),
                (5.9022568e-8, 2.96277e-8),
                1.4082096,
                5.8556907e-8,
                4,
            ),
            (
                (149.95377, 95.68347),
                (7.6144934e-6, 3.7923455e-6),
                1.7788045e2,
                7.405877e-6,
                4,
            ),
            (
                (18.658447, 11.824928),
                (9.406358e-7, 4.7311187e-7),
                2.2089964e1,
                9.406358e-7,
                4,
            ),
            (
                (76.0043, 41.820934),
                (3.7103891e-6, 1.8961728e-6),
                8.6750465e1,
                3.784895e-6,
                4,
            ),
        ];
        for ((px, py), (qx, qy), r1, r2, gap) in cases {
            let (p, q) = (Vec2::new(px, py), Vec2::new(qx, qy));
            assert_eq!(dist2_gap(p, q, r1, r2), gap, "{p:?} {q:?} {r1} {r2}");
            let exact = dist2_expr::<Expansion>(p, q, r1, r2).sign();
            assert_eq!(
                exact,
                if gap > 0 {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            );
            assert_eq!(cmp_dist2(p, q, r1, r2), exact, "{p:?} {q:?} {r1} {r2}");
            assert_eq!(cmp_dist2(q, p, r2, r1), exact, "{p:?} {q:?} {r1} {r2}");
        }
    }

    /// Distance from `p` to segment `ab`, in `f64`: only a guide for radii near touching.
    fn segment_distance(p: glam::DVec2, a: glam::DVec2, b: glam::DVec2) -> f64 {
        let u = b - a;
        let t = if u == glam::DVec2::ZERO {
            0.0
        } else {
            ((p - a).dot(u) / u.length_squared()).clamp(0.0, 1.0)
        };
        (p - (a + u * t)).length()
    }

    #[test]
    fn two_product_is_exact_for_large_and_small_factors() {
        let (x, y) = two_product(1.0 + f64::EPSILON, 1.0 - f64::EPSILON);
        // (1 + e)(1 - e) = 1 - e^2: the rounded product is 1, the error term is -e^2.
        assert_eq!(x, 1.0);
        assert_eq!(y, -f64::EPSILON * f64::EPSILON);
    }

    #[test]
    fn products_of_sums_across_every_exponent_stay_compressed_and_exact() {
        // Sums of four f32 of exponents far apart (the differences of far vertices), their
        // degree-4 products: without compression thousands of components.
        let sum = |p: [f32; 4]| {
            Expansion::from_f32(p[0])
                .sub(Expansion::from_f32(p[1]))
                .add(Expansion::from_f32(p[2]).sub(Expansion::from_f32(p[3])))
        };
        let x = sum([1.8e38, -3.1e-38, 7.0e19, 1.0e-45]);
        let y = sum([-1.7e38, 2.9e-30, -5.0e9, 3.0e-41]);
        let z = sum([1.1e38, 1.0, -1.0e-20, 2.5e28]);
        let w = sum([-9.0e37, 4.0e-42, 6.0e3, -1.0e-33]);
        let xy = x.clone().mul(y.clone()).sub(z.clone().mul(w.clone()));
        let zw = z.clone().mul(w.clone()).sub(x.clone().mul(y.clone()));
        let big = xy.clone().mul(zw.clone());
        assert!(
            big.parts().len() <= INLINE,
            "{} components",
            big.parts().len()
        );
        assert!(!big.heap);
        // xy = -zw exactly: their sum is zero, their product minus -xy² is zero.
        assert_eq!(xy.clone().add(zw).sign(), Ordering::Equal);
        let square = xy.clone().mul(xy);
        assert_eq!(big.add(square).sign(), Ordering::Equal);
        // Compression keeps the value: a small term past the large ones still decides.
        let tiny = Expansion::from_f32(1.0e-45);
        let e = x.clone().mul(x.clone()).add(tiny).sub(x.clone().mul(x));
        assert_eq!(e.sign(), Ordering::Greater);
    }

    #[test]
    fn expansion_keeps_what_f64_rounds_away() {
        let big = Expansion::from_f32(16_777_216.0); // 2^24
        let e = big.clone().mul(big.clone()).mul(big.clone()).mul(big);
        let e = e
            .add(Expansion::from_f32(1.0))
            .sub(Expansion::from_f32(16_777_216.0).square().square());
        assert_eq!(e.sign(), Ordering::Greater);
        assert_eq!(e.approx(), 1.0);
    }

    #[test]
    #[allow(clippy::excessive_precision)] // the literals are exact f32 values
    fn orient_is_exact_where_f32_rounds() {
        // Three points on a line y = x + 0.5 near 2^20: the f32 determinant is not reliable.
        let a = Vec2::new(1_048_576.0, 1_048_576.5);
        let b = Vec2::new(1_048_577.0, 1_048_577.5);
        let c = Vec2::new(1_048_578.0, 1_048_578.5);
        assert_eq!(orient(a, b, c), Ordering::Equal);
        let c_up = Vec2::new(1_048_578.0, 1_048_578.625);
        assert_eq!(orient(a, b, c_up), Ordering::Greater);
    }

    #[test]
    fn dist2_of_touching_circles_far_from_origin_is_zero() {
        let p = Vec2::new(3_000_000.0, 4_000_000.0);
        let q = Vec2::new(3_000_003.0, 4_000_004.0);
        assert_eq!(cmp_dist2(p, q, 2.0, 3.0), Ordering::Equal);
        assert_eq!(cmp_dist2(p, q, 2.0, 2.75), Ordering::Greater);
    }

    #[test]
    fn tiny_values_keep_their_sign() {
        let t = f32::from_bits(1); // smallest subnormal
        assert_eq!(
            orient(Vec2::ZERO, Vec2::new(t, 0.0), Vec2::new(0.0, t)),
            Ordering::Greater
        );
        assert_eq!(
            cmp_dist2(Vec2::ZERO, Vec2::new(t, 0.0), t, 0.0),
            Ordering::Equal
        );
    }

    #[test]
    fn segments_touching_at_an_end_intersect() {
        let z = Vec2::ZERO;
        assert!(segments_intersect(z, Vec2::X, Vec2::X, Vec2::new(2.0, 3.0)));
        assert!(segments_intersect(
            z,
            Vec2::X,
            Vec2::new(0.5, 0.0),
            Vec2::new(0.5, 0.0)
        ));
        assert!(!segments_intersect(
            z,
            Vec2::X,
            Vec2::new(1.5, 0.0),
            Vec2::new(2.0, 0.0)
        ));
        assert!(segments_intersect(z, z, z, z));
    }
}
