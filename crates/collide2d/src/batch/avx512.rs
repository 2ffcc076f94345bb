//! AVX-512 kernels: the filter of `filter.rs` on 16 lanes per vector, two vectors per step.
//! Built only by Rust 1.89 or later (`build.rs` sets `collide2d_avx512`), which has the
//! intrinsics.
//!
//! The only unsafe code besides `avx2.rs`, in the same two kinds of block: unaligned loads of
//! 16 lanes, whose bounds every caller checks, and intrinsic calls that touch no memory, which
//! need only the CPU feature that an [`Avx512`] value proves. (Since Rust 1.87 the arithmetic
//! intrinsics are safe inside `#[target_feature]` functions, so `gap` and `classify` need no
//! `unsafe` here; the loads still do.)
use super::filter::{Sink, ERR, TINY};
use super::kernel::Filter;
use core::arch::x86_64::*;
use core::ops::ControlFlow;

/// Lanes per step: two vectors, all 32 bits of the sink's masks.
const STEP: usize = 32;

/// Proof that this CPU runs AVX-512F: only [`Avx512::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU has AVX-512F (std caches the detection).
    pub(super) fn detect() -> Option<Avx512> {
        std::is_x86_feature_detected!("avx512f").then_some(Avx512(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        // SAFETY: `self` exists only because `detect` found AVX-512F on this CPU, which is all
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
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn scan(filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
    // Each block calls lane functions of this file whose one precondition besides AVX-512F (this
    // function's contract) is `i + 16 <= len` for every column passed: `steps!` runs `i` while
    // `i + 32 <= n`, and `n` is the shortest column's length.
    match filter {
        Filter::CircleCircles { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX-512F and i + 32 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(
                    circle_circles(items, q, i),
                    circle_circles(items, q, i + 16),
                )
            })
        }
        Filter::BoxCircles { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX-512F and i + 32 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(box_circles(items, q, i), box_circles(items, q, i + 16))
            })
        }
        Filter::CircleBoxes { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX-512F and i + 32 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(circle_boxes(items, q, i), circle_boxes(items, q, i + 16))
            })
        }
        Filter::BoxBoxes { items, q } => {
            let n = shortest(&items);
            // SAFETY: AVX-512F and i + 32 <= n, as above.
            steps!(n, sink, |i| unsafe {
                join(box_boxes(items, q, i), box_boxes(items, q, i + 16))
            })
        }
    }
}

/// The length of the shortest column.
fn shortest(columns: &[&[f32]]) -> usize {
    columns.iter().map(|c| c.len()).min().unwrap_or(0)
}

/// Probe disc `[x, y, r]` against discs: lanes `i..i + 16`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= len` for every column.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn circle_circles(
    [xs, ys, rs]: [&[f32]; 3],
    [qx, qy, qr]: [f32; 3],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX-512F is present, both by the contract.
    unsafe {
        let dx = _mm512_sub_ps(load(xs, i), _mm512_set1_ps(qx));
        let dy = _mm512_sub_ps(load(ys, i), _mm512_set1_ps(qy));
        let s = _mm512_add_ps(load(rs, i), _mm512_set1_ps(qr));
        classify(dx, dy, s)
    }
}

/// Probe box `[x0, y0, x1, y1]` against discs: lanes `i..i + 16`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= len` for every column.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn box_circles(
    [xs, ys, rs]: [&[f32]; 3],
    [x0, y0, x1, y1]: [f32; 4],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX-512F is present, both by the contract.
    unsafe {
        let (x, y) = (load(xs, i), load(ys, i));
        let dx = gap(x, _mm512_set1_ps(x0), _mm512_set1_ps(x1));
        let dy = gap(y, _mm512_set1_ps(y0), _mm512_set1_ps(y1));
        classify(dx, dy, load(rs, i))
    }
}

/// Probe disc against boxes `[x0s, y0s, x1s, y1s]`: lanes `i..i + 16`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= len` for every column.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn circle_boxes(
    [x0s, y0s, x1s, y1s]: [&[f32]; 4],
    [qx, qy, qr]: [f32; 3],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX-512F is present, both by the contract.
    unsafe {
        let dx = gap(_mm512_set1_ps(qx), load(x0s, i), load(x1s, i));
        let dy = gap(_mm512_set1_ps(qy), load(y0s, i), load(y1s, i));
        classify(dx, dy, _mm512_set1_ps(qr))
    }
}

/// Probe box against boxes: lanes `i..i + 16`, comparisons only (never undecided).
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= len` for every column.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn box_boxes(
    [x0s, y0s, x1s, y1s]: [&[f32]; 4],
    [qx0, qy0, qx1, qy1]: [f32; 4],
    i: usize,
) -> (u32, u32) {
    // SAFETY: the loads are in bounds and AVX-512F is present, both by the contract.
    unsafe {
        let k = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(load(x0s, i), _mm512_set1_ps(qx1));
        let k = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(k, _mm512_set1_ps(qx0), load(x1s, i));
        let k = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(k, load(y0s, i), _mm512_set1_ps(qy1));
        let k = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(k, _mm512_set1_ps(qy0), load(y1s, i));
        (u32::from(k), 0)
    }
}

/// Two 16-lane masks as one 32-lane mask, the first in the low bits.
#[inline(always)]
fn join(lo: (u32, u32), hi: (u32, u32)) -> (u32, u32) {
    (lo.0 | hi.0 << 16, lo.1 | hi.1 << 16)
}

/// Lanes `i..i + 16` of `col`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= col.len()`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn load(col: &[f32], i: usize) -> __m512 {
    debug_assert!(i + 16 <= col.len());
    // SAFETY: `i + 16 <= col.len()` (the caller's contract), so the 16 floats read lie inside
    // `col`; `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_ps(col.as_ptr().add(i)) }
}

/// `filter::gap(c, lo, hi)` per lane: `c - min(max(c, lo), hi)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn gap(c: __m512, lo: __m512, hi: __m512) -> __m512 {
    _mm512_sub_ps(c, _mm512_min_ps(_mm512_max_ps(c, lo), hi))
}

/// `filter::classify` on 16 lanes: the masks `(certainly hit, undecided)`, lane `k` in bit `k`.
#[target_feature(enable = "avx512f")]
#[inline]
fn classify(dx: __m512, dy: __m512, s: __m512) -> (u32, u32) {
    let d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    let rr = _mm512_mul_ps(s, s);
    let diff = _mm512_sub_ps(d2, rr);
    let bound = _mm512_add_ps(
        _mm512_mul_ps(_mm512_add_ps(d2, rr), _mm512_set1_ps(ERR)),
        _mm512_set1_ps(TINY),
    );
    let decided = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(_mm512_abs_ps(diff), bound);
    // A decided lane's diff is nonzero, so its sign is the answer.
    let negative = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(diff, _mm512_setzero_ps());
    (u32::from(negative & decided), u32::from(!decided))
}
