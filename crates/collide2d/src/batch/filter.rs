//! The certified `f32` filter each kernel evaluates per lane, and its scalar form.
//!
//! A disc of radius `s` around the origin reaches a point at offset `(dx, dy)` iff
//! `D - R <= 0` with `D = dx^2 + dy^2` and `R = s^2`, where `dx`, `dy`, `s` are exact real
//! differences or sums of `f32` inputs (for a box, `dx` is the gap `c - clamp(c, min, max)`;
//! the clamp is exact). The kernels evaluate, in `f32`, in this order and without fused
//! operations,
//!
//! ```text
//! dx, dy, s   one rounding each           d2 = dx*dx + dy*dy     rr = s*s
//! diff = d2 - rr                          bound = (d2 + rr) * ERR + TINY
//! ```
//!
//! and call a lane decided when `|diff| > bound`; the sign of `diff` is then the sign of
//! `D - R`. Error bound, with `u = 2^-24` and every rounding a factor `(1 + e)`, `|e| <= u`,
//! plus at most `2^-150` absolute per product that underflows (sums of `f32` are exact when
//! subnormal): `|d2 - D| <= 4.01u D + 2^-148`, `|rr - R| <= 3.01u R + 2^-150`, and the final
//! subtraction adds `u |d2 - rr| <= u (d2 + rr)`. So `|diff - (D - R)| <= 5.05u (d2 + rr) +
//! 2^-146`, while the computed `bound` is at least `15.9u (d2 + rr) + 0.99 TINY` with
//! `ERR = 2^-20 = 16u`, `TINY = 2^-100`. A decided lane therefore has the exact answer.
//! Overflow cannot fake a decision: an infinite `d2` or `rr` makes `diff` NaN or infinite and
//! `bound` infinite, and neither NaN nor infinity compares above infinity. Undecided lanes
//! (touching or nearly touching pairs, huge coordinates) go to the exact scalar predicate.
//!
//! Every kernel computes the same operations, so they also agree on which lanes are decided;
//! the answers would agree anyway, since each one is exact.

use core::ops::ControlFlow;

/// Relative part of the bound: `2^-20`, sixteen units in the last place of `f32`.
pub(super) const ERR: f32 = 1.0 / (1u32 << 20) as f32;

/// Absolute part of the bound, for products that underflow: `2^-100` (a normal `f32`).
pub(super) const TINY: f32 = f32::from_bits(27 << 23);

/// Receives one block of lanes: the index of its first lane, the lanes certainly hit (bit `k`
/// is index `base + k`) and the lanes the filter left undecided. Breaking stops the scan.
pub(super) type Sink<'a> = &'a mut dyn FnMut(usize, u32, u32) -> ControlFlow<()>;

/// The filter's `(diff, bound)` for the disc test `dx^2 + dy^2 <= s^2`.
#[inline(always)]
pub(super) fn diff_bound(dx: f32, dy: f32, s: f32) -> (f32, f32) {
    let d2 = dx * dx + dy * dy;
    let rr = s * s;
    (d2 - rr, (d2 + rr) * ERR + TINY)
}

/// True unless the lane is a certain miss (`diff > bound`; a NaN is not certain).
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // the negation is the point: NaN is not a miss
pub(super) fn not_missed((diff, bound): (f32, f32)) -> bool {
    !(diff > bound)
}

/// One lane of the filter: `(certainly hit, undecided)`.
#[inline(always)]
pub(super) fn decide((diff, bound): (f32, f32)) -> (bool, bool) {
    let decided = diff.abs() > bound;
    // A decided diff is nonzero, so its sign is the answer.
    (decided && diff < 0.0, !decided)
}

/// [`decide`] of [`diff_bound`].
#[cfg(test)]
pub(super) fn classify(dx: f32, dy: f32, s: f32) -> (bool, bool) {
    decide(diff_bound(dx, dy, s))
}

/// The gap from `c` to the interval `[lo, hi]` (`lo <= hi`): `c - clamp(c, lo, hi)`, rounded
/// once (the clamp is exact). In the order the SIMD kernels compute it: `min(max(c, lo), hi)`,
/// written as selects: on wasm32, `f32::max` and `min` are calls to `fmaxf` / `fminf` (its
/// `f32.max` propagates NaN, Rust's does not), which kept the box loops scalar and 20 times
/// slower. The inputs are finite, where both forms agree (up to the sign of a zero gap,
/// which squaring drops).
#[inline(always)]
pub(super) fn gap(c: f32, lo: f32, hi: f32) -> f32 {
    let low = if c < lo { lo } else { c };
    c - if low > hi { hi } else { low }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_the_powers_of_two_the_proof_uses() {
        // Products by powers of two are exact (and, unlike `powi`, exact under Miri too).
        assert_eq!(ERR * (1u32 << 20) as f32, 1.0);
        assert_eq!(TINY * (1u128 << 100) as f32, 1.0);
        assert!(TINY.is_normal());
    }

    #[test]
    fn touching_discs_are_left_to_the_exact_test() {
        // 3-4-5: exactly touching, the filter must not decide.
        assert_eq!(classify(3.0, 4.0, 5.0), (false, true));
        assert_eq!(classify(3.0, 4.0, 6.0), (true, false));
        assert_eq!(classify(3.0, 4.0, 4.0), (false, false));
    }

    #[test]
    fn overflow_and_underflow_stay_undecided() {
        assert_eq!(classify(f32::MAX, 0.0, f32::MAX), (false, true));
        assert_eq!(classify(f32::MAX, f32::MAX, 1.0), (false, true));
        let t = f32::from_bits(1);
        assert_eq!(classify(t, 0.0, t), (false, true));
        assert_eq!(classify(t, t, 0.0), (false, true));
    }

    #[test]
    fn gap_is_zero_inside_and_the_distance_outside() {
        assert_eq!(gap(1.0, 0.0, 2.0), 0.0);
        assert_eq!(gap(-3.0, 0.0, 2.0), -3.0);
        assert_eq!(gap(5.0, 0.0, 2.0), 3.0);
    }
}
