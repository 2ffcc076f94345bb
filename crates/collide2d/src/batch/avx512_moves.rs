//! The AVX-512 kernel of `moves.rs`'s [`step`](super::moves::step): 32 rows a block (two
//! vectors of 16 a column), in one pass. Per-row deltas, stored `x, y` row after row, are
//! split into an x and a y vector by one two-source permute each per 16 rows (AVX2 needs six
//! shuffles for that many). A block's sums are made and checked in registers and stored only
//! when all are finite; else its rows go one by one, as the portable code does. The same
//! additions as the portable code, so the same results bit for bit.

use super::avx512::{load, Avx512};
use super::moves::{one_by_one, rows, Deltas};
use crate::math::Vec2;
use core::arch::x86_64::*;

/// Rows per block: two vectors of 16 lanes a column.
const BLOCK: usize = 32;

impl Avx512 {
    /// [`moves::step`](super::moves::step) on this CPU's 16-lane vectors.
    pub(super) fn step<const N: usize>(
        self,
        columns: [(&mut [f32], &mut [f32]); N],
        deltas: Deltas<'_>,
    ) -> Option<usize> {
        // SAFETY: `self` exists only because `detect` found AVX-512F on this CPU.
        unsafe {
            match deltas {
                Deltas::All(d) => run::<N, false>(columns, deltas, d, &[]),
                Deltas::Each(ds) => run::<N, true>(columns, deltas, Vec2::ZERO, ds),
            }
        }
    }
}

/// [`Avx512::step`], its loop compiled for one kind of deltas: `all` for every row, or `each`
/// row's when `EACH`.
///
/// # Safety
/// The CPU has AVX-512F; `deltas` is `Deltas::Each(each)` when `EACH`, else
/// `Deltas::All(all)`.
#[target_feature(enable = "avx512f")]
unsafe fn run<const N: usize, const EACH: bool>(
    mut columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
    all: Vec2,
    each: &[Vec2],
) -> Option<usize> {
    let n = rows(&columns, deltas);
    let mut first_stayed = None;
    let mut start = 0;
    while start + BLOCK <= n {
        let (dx, dy) = if EACH {
            // SAFETY: AVX-512F (the contract); `each` is the deltas (the contract), so its
            // rows `start..start + BLOCK` exist (`n` is the shortest length).
            unsafe { split(each, start) }
        } else {
            ([_mm512_set1_ps(all.x); 2], [_mm512_set1_ps(all.y); 2])
        };
        // SAFETY: AVX-512F (the contract); rows `start..start + BLOCK` exist in every column.
        if !unsafe { block(&mut columns, start, dx, dy) } {
            let rows = start..start + BLOCK;
            first_stayed = first_stayed.or(one_by_one(&mut columns, deltas, rows));
        }
        start += BLOCK;
    }
    first_stayed.or(one_by_one(&mut columns, deltas, start..n))
}

/// Moves rows `start..start + BLOCK` by `dx` and `dy` (16 rows a vector) when every moved
/// coordinate is finite (then `true`), else changes nothing (`false`).
///
/// The check is one sum of all the moved coordinates: it is finite when they all are, else
/// infinite or NaN. It may also overflow when they are finite but huge (about `f32::MAX / 8`
/// or more): the block then goes row by row, to the same result.
///
/// # Safety
/// The CPU has AVX-512F; rows `start..start + BLOCK` exist in every column.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn block<const N: usize>(
    columns: &mut [(&mut [f32], &mut [f32]); N],
    start: usize,
    dx: [__m512; 2],
    dy: [__m512; 2],
) -> bool {
    let mut sums = [[[_mm512_setzero_ps(); 2]; 2]; N];
    let mut total = _mm512_setzero_ps();
    for ((xs, ys), [sx, sy]) in columns.iter().zip(&mut sums) {
        for k in 0..2 {
            let at = start + 16 * k;
            // SAFETY: AVX-512F and rows `at..at + 16` exist (this function's contract).
            let (x, y) = unsafe { (load(xs, at), load(ys, at)) };
            sx[k] = _mm512_add_ps(x, dx[k]);
            sy[k] = _mm512_add_ps(y, dy[k]);
            total = _mm512_add_ps(total, _mm512_add_ps(sx[k], sy[k]));
        }
    }
    // `t - t` is +0 (no bit set) for a finite `t`, else NaN.
    let bad = _mm512_castps_si512(_mm512_sub_ps(total, total));
    if _mm512_test_epi32_mask(bad, bad) != 0 {
        return false;
    }
    for ((xs, ys), [sx, sy]) in columns.iter_mut().zip(&sums) {
        for k in 0..2 {
            let at = start + 16 * k;
            // SAFETY: as above.
            unsafe {
                store(xs, at, sx[k]);
                store(ys, at, sy[k]);
            }
        }
    }
    true
}

/// The x and y deltas of rows `start..start + BLOCK`, 16 rows a vector.
///
/// # Safety
/// The CPU has AVX-512F; rows `start..start + BLOCK` of `ds` exist.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn split(ds: &[Vec2], start: usize) -> ([__m512; 2], [__m512; 2]) {
    debug_assert!(start + BLOCK <= ds.len());
    // Lanes of the two sources (16 on from the second): every even one, then every odd one.
    let xs = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    let ys = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    let (mut dx, mut dy) = ([_mm512_setzero_ps(); 2], [_mm512_setzero_ps(); 2]);
    for k in 0..2 {
        // SAFETY: `Vec2` is `#[repr(C)]` `{ x, y }` of `f32`, so rows `r..r + 16` are 32
        // floats from `ds[r]`; rows up to `start + BLOCK` exist (the contract), and `loadu`
        // has no alignment requirement.
        let (lo, hi) = unsafe {
            let at = ds.as_ptr().add(start + 16 * k).cast::<f32>();
            (_mm512_loadu_ps(at), _mm512_loadu_ps(at.add(16)))
        };
        dx[k] = _mm512_permutex2var_ps(lo, xs, hi);
        dy[k] = _mm512_permutex2var_ps(lo, ys, hi);
    }
    (dx, dy)
}

/// Writes `v` to lanes `i..i + 16` of `col`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= col.len()`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn store(col: &mut [f32], i: usize, v: __m512) {
    debug_assert!(i + 16 <= col.len());
    // SAFETY: `i + 16 <= col.len()` (the contract): the 16 floats written lie inside `col`,
    // which is borrowed mutably.
    unsafe { _mm512_storeu_ps(col.as_mut_ptr().add(i), v) }
}
