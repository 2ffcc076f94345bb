//! AVX2 kernels: the filter of `filter.rs` on 8 lanes per vector, two vectors per step.
//!
//! The only unsafe code besides `avx512.rs`. Two kinds of block: unaligned loads of 8 lanes,
//! whose bounds every caller checks, and intrinsic calls that touch no memory, which need only
//! the CPU feature that an [`Avx2`] value proves.
// Before Rust 1.87 (MSRV 1.86) every intrinsic call needs `unsafe`; since, only the loads do.
#![allow(unused_unsafe)]

use super::filter::{Sink, ERR, TINY};
use super::kernel::Filter;
use core::arch::x86_64::*;
use core::ops::ControlFlow;

/// Lanes per step: two vectors, one 16-bit half of the sink's masks.
const STEP: usize = 16;

/// Proof that this CPU runs AVX2: only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU has AVX2 (std caches the detection).
    pub(super) fn detect() -> Option<Avx2> {
        std::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        // SAFETY: `self` exists only because `detect` found AVX2 on this CPU, which is all
        // `scan` requires.
        unsafe { scan(filter, sink) }
    }
}

/// Calls `$sink` with the masks `$block` computes for each whole step of lanes from 0 to `$n`.
macro_rules! steps {
    ($n:expr, $sink:expr, |$i:ident| $block:expr) => {{
        let n: usize = $n;
        let mut $i = 0;
        while $i + STEP <= n {
            let (hit, undecided): (u32, u32) = $block;
            if hit | undecided != 0 {
                $sink($i, hit, undecided)?;
            }
            $i += STEP;
        }
        ControlFlow::Continue($i)
    }};
}

/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn scan(filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
    // Each block calls lane functions of this file whose one precondition besides AVX2 (this
    // function's contract) is `i + 8 <= len` for every column passed: `steps!` runs `i` while
    // `i + 16 <= n`, and `n` is the shortest column's length.
    match filter {
        Filter::CircleCircles { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX2 and i + 16 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(circle_circles(items, q, i), circle_circles(items, q, i + 8))
            })
        }
        Filter::BoxCircles { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX2 and i + 16 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(box_circles(items, q, i), box_circles(items, q, i + 8))
            })
        }
        Filter::CircleBoxes { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX2 and i + 16 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(circle_boxes(items, q, i), circle_boxes(items, q, i + 8))
            })
        }
        Filter::BoxBoxes { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX2 and i + 16 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(box_boxes(items, q, i), box_boxes(items, q, i + 8))
            })
        }
    }
}

/// The length of the shortest column.
fn shortest(columns: &[&[f32]]) -> usize {
    columns.iter().map(|c| c.len()).min().unwrap_or(0)
}

/// Probe disc `[x, y, r]` against discs: lanes `i..i + 8`.
///
/// # Safety
/// The CPU has AVX2; `i + 8 <= len` for every column.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn circle_circles(
    [xs, ys, rs]: [&[f32]; 3],
    [qx, qy, qr]: [f32; 3],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX2 is present, both by the contract.
    unsafe {
        let dx = _mm256_sub_ps(load(xs, i), _mm256_set1_ps(qx));
        let dy = _mm256_sub_ps(load(ys, i), _mm256_set1_ps(qy));
        let s = _mm256_add_ps(load(rs, i), _mm256_set1_ps(qr));
        classify(dx, dy, s)
    }
}

/// Probe box `[x0, y0, x1, y1]` against discs: lanes `i..i + 8`.
///
/// # Safety
/// The CPU has AVX2; `i + 8 <= len` for every column.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn box_circles(
    [xs, ys, rs]: [&[f32]; 3],
    [x0, y0, x1, y1]: [f32; 4],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX2 is present, both by the contract.
    unsafe {
        let (x, y) = (load(xs, i), load(ys, i));
        let dx = gap(x, _mm256_set1_ps(x0), _mm256_set1_ps(x1));
        let dy = gap(y, _mm256_set1_ps(y0), _mm256_set1_ps(y1));
        classify(dx, dy, load(rs, i))
    }
}

/// Probe disc against boxes `[x0s, y0s, x1s, y1s]`: lanes `i..i + 8`.
///
/// # Safety
/// The CPU has AVX2; `i + 8 <= len` for every column.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn circle_boxes(
    [x0s, y0s, x1s, y1s]: [&[f32]; 4],
    [qx, qy, qr]: [f32; 3],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX2 is present, both by the contract.
    unsafe {
        let dx = gap(_mm256_set1_ps(qx), load(x0s, i), load(x1s, i));
        let dy = gap(_mm256_set1_ps(qy), load(y0s, i), load(y1s, i));
        classify(dx, dy, _mm256_set1_ps(qr))
    }
}

/// Probe box against boxes: lanes `i..i + 8`, comparisons only (never undecided).
///
/// # Safety
/// The CPU has AVX2; `i + 8 <= len` for every column.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn box_boxes(
    [x0s, y0s, x1s, y1s]: [&[f32]; 4],
    [qx0, qy0, qx1, qy1]: [f32; 4],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX2 is present, both by the contract.
    unsafe {
        let x = _mm256_and_ps(
            le(load(x0s, i), _mm256_set1_ps(qx1)),
            le(_mm256_set1_ps(qx0), load(x1s, i)),
        );
        let y = _mm256_and_ps(
            le(load(y0s, i), _mm256_set1_ps(qy1)),
            le(_mm256_set1_ps(qy0), load(y1s, i)),
        );
        (_mm256_movemask_ps(_mm256_and_ps(x, y)) as u32, 0)
    }
}

/// Two 8-lane masks as one 16-lane mask, the first in the low bits.
#[inline(always)]
fn join(lo: (u32, u32), hi: (u32, u32)) -> (u32, u32) {
    (lo.0 | hi.0 << 8, lo.1 | hi.1 << 8)
}

/// Lanes `i..i + 8` of `col`.
///
/// # Safety
/// The CPU has AVX; `i + 8 <= col.len()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load(col: &[f32], i: usize) -> __m256 {
    debug_assert!(i + 8 <= col.len());
    // SAFETY: `i + 8 <= col.len()` (the caller's contract), so the 8 floats read lie inside
    // `col`; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_ps(col.as_ptr().add(i)) }
}

/// `filter::gap(c, lo, hi)` per lane: `c - min(max(c, lo), hi)`.
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn gap(c: __m256, lo: __m256, hi: __m256) -> __m256 {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe { _mm256_sub_ps(c, _mm256_min_ps(_mm256_max_ps(c, lo), hi)) }
}

/// Lane mask of `a <= b` (ordered: false for NaN, which the columns never hold).
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn le(a: __m256, b: __m256) -> __m256 {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(a, b) }
}

/// `filter::classify` on 8 lanes: the masks `(certainly hit, undecided)`, lane `k` in bit `k`.
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn classify(dx: __m256, dy: __m256, s: __m256) -> (u32, u32) {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe {
        let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        let rr = _mm256_mul_ps(s, s);
        let diff = _mm256_sub_ps(d2, rr);
        let bound = _mm256_add_ps(
            _mm256_mul_ps(_mm256_add_ps(d2, rr), _mm256_set1_ps(ERR)),
            _mm256_set1_ps(TINY),
        );
        let abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0), diff);
        let decided = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(abs, bound)) as u32;
        // A decided lane's diff is nonzero, so its sign bit is the answer.
        let negative = _mm256_movemask_ps(diff) as u32;
        (negative & decided, !decided & 0xff)
    }
}
