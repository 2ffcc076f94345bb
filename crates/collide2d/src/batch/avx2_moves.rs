//! The AVX2 kernel of `moves.rs`'s [`step`](super::moves::step): 32 rows a block, in one pass.
//! Each block's deltas are split into x and y vectors (per-row deltas: two loads and four
//! shuffles for 8 rows), its sums made and checked in registers and stored only when all are
//! finite; else its rows go one by one, as the portable code does. The same additions as the
//! portable code, so the same results bit for bit.
// Before Rust 1.87 (MSRV 1.86) every intrinsic call needs `unsafe`; since, only the loads do.
#![allow(unused_unsafe)]

use super::avx2::{load, Avx2};
use super::moves::{one_by_one, rows, Deltas};
use crate::math::Vec2;
use core::arch::x86_64::*;

/// Rows per block: four vectors of 8 lanes a column.
const BLOCK: usize = 32;

impl Avx2 {
    /// [`moves::step`](super::moves::step) on this CPU's 8-lane vectors.
    pub(super) fn step<const N: usize>(
        self,
        columns: [(&mut [f32], &mut [f32]); N],
        deltas: Deltas<'_>,
    ) -> Option<usize> {
        // SAFETY: `self` exists only because `detect` found AVX2 on this CPU.
        unsafe {
            match deltas {
                Deltas::All(d) => run::<N, false>(columns, deltas, d, &[]),
                Deltas::Each(ds) => run::<N, true>(columns, deltas, Vec2::ZERO, ds),
            }
        }
    }
}

/// [`Avx2::step`], its loop compiled for one kind of deltas: `all` for every row, or `each`
/// row's when `EACH`.
///
/// # Safety
/// The CPU has AVX2; `deltas` is `Deltas::Each(each)` when `EACH`, else `Deltas::All(all)`.
#[target_feature(enable = "avx2")]
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
            // SAFETY: AVX2 (the contract); `each` is the deltas (the contract), so its rows
            // `start..start + BLOCK` exist (`n` is the shortest length).
            unsafe { split(each, start) }
        } else {
            ([_mm256_set1_ps(all.x); 4], [_mm256_set1_ps(all.y); 4])
        };
        // SAFETY: AVX2 (the contract); rows `start..start + BLOCK` exist in every column.
        if !unsafe { block(&mut columns, start, dx, dy) } {
            let rows = start..start + BLOCK;
            first_stayed = first_stayed.or(one_by_one(&mut columns, deltas, rows));
        }
        start += BLOCK;
    }
    first_stayed.or(one_by_one(&mut columns, deltas, start..n))
}

/// Moves rows `start..start + BLOCK` by `dx` and `dy` (8 rows a vector) when every moved
/// coordinate is finite (then `true`), else changes nothing (`false`).
///
/// The check is one sum of all the moved coordinates: it is finite when they all are, else
/// infinite or NaN. It may also overflow when they are finite but huge (about `f32::MAX / 16`
/// or more): the block then goes row by row, to the same result.
///
/// # Safety
/// The CPU has AVX2; rows `start..start + BLOCK` exist in every column.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn block<const N: usize>(
    columns: &mut [(&mut [f32], &mut [f32]); N],
    start: usize,
    dx: [__m256; 4],
    dy: [__m256; 4],
) -> bool {
    // SAFETY: AVX2 and the rows' existence are this function's contract.
    unsafe {
        let mut sums = [[[_mm256_setzero_ps(); 4]; 2]; N];
        let mut total = _mm256_setzero_ps();
        for ((xs, ys), [sx, sy]) in columns.iter().zip(&mut sums) {
            for k in 0..4 {
                let at = start + 8 * k;
                sx[k] = _mm256_add_ps(load(xs, at), dx[k]);
                sy[k] = _mm256_add_ps(load(ys, at), dy[k]);
                total = _mm256_add_ps(total, _mm256_add_ps(sx[k], sy[k]));
            }
        }
        // `t - t` is +0 for a finite `t`, else NaN.
        let bad = _mm256_castps_si256(_mm256_sub_ps(total, total));
        if _mm256_testz_si256(bad, bad) == 0 {
            return false;
        }
        for ((xs, ys), [sx, sy]) in columns.iter_mut().zip(&sums) {
            for (k, (&sx, &sy)) in sx.iter().zip(sy).enumerate() {
                let at = start + 8 * k;
                store(xs, at, sx);
                store(ys, at, sy);
            }
        }
        true
    }
}

/// The x and y deltas of rows `start..start + BLOCK`, 8 rows a vector.
///
/// # Safety
/// The CPU has AVX2; rows `start..start + BLOCK` of `ds` exist.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn split(ds: &[Vec2], start: usize) -> ([__m256; 4], [__m256; 4]) {
    debug_assert!(start + BLOCK <= ds.len());
    // Per 128-bit half, the x of 4 rows, then their y.
    let halves = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    let (mut dx, mut dy) = ([_mm256_setzero_ps(); 4], [_mm256_setzero_ps(); 4]);
    for k in 0..4 {
        // SAFETY: `Vec2` is `#[repr(C)]` `{ x, y }` of `f32`, so rows `r..r + 4` are 8 floats
        // from `ds[r]`; rows up to `start + BLOCK` exist (the contract), and `loadu` has no
        // alignment requirement.
        let (lo, hi) = unsafe {
            let at = ds.as_ptr().add(start + 8 * k).cast::<f32>();
            (_mm256_loadu_ps(at), _mm256_loadu_ps(at.add(8)))
        };
        let lo = _mm256_permutevar8x32_ps(lo, halves);
        let hi = _mm256_permutevar8x32_ps(hi, halves);
        dx[k] = _mm256_permute2f128_ps::<0x20>(lo, hi);
        dy[k] = _mm256_permute2f128_ps::<0x31>(lo, hi);
    }
    (dx, dy)
}

/// Writes `v` to lanes `i..i + 8` of `col`.
///
/// # Safety
/// The CPU has AVX; `i + 8 <= col.len()`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store(col: &mut [f32], i: usize, v: __m256) {
    debug_assert!(i + 8 <= col.len());
    // SAFETY: `i + 8 <= col.len()` (the contract): the 8 floats written lie inside `col`,
    // which is borrowed mutably.
    unsafe { _mm256_storeu_ps(col.as_mut_ptr().add(i), v) }
}
