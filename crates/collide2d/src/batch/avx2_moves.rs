//! The AVX2 kernel of `moves.rs`'s [`step`](super::moves::step): 32 rows a block, in one pass.
//! Each block's deltas are split into x and y vectors (per-row `Vec2` deltas: two loads and
//! two shuffles for 8 rows; x and y columns: loaded as they are), its sums made and checked
//! in registers and stored only when all are finite; else its rows go one by one, as the portable code does. The same additions as the
//! portable code, so the same results bit for bit.
// Before Rust 1.87 (MSRV 1.86) every intrinsic call needs `unsafe`; since, only the loads do.
#![allow(unused_unsafe)]

use super::avx2::{load, Avx2};
use super::moves::{one_by_one, rows, Deltas};
use crate::math::Vec2;
use core::arch::x86_64::*;

/// Rows per block: four vectors of 8 lanes a column.
const BLOCK: usize = 32;

/// [`run`]'s kinds of deltas: one for all rows, a `Vec2` per row, or per-row x and y columns.
const ALL: u8 = 0;
const EACH: u8 = 1;
const COLUMNS: u8 = 2;

impl Avx2 {
    /// [`moves::step`](super::moves::step) on this CPU's 8-lane vectors.
    pub(super) fn step<const N: usize>(
        self,
        columns: [(&mut [f32], &mut [f32]); N],
        deltas: Deltas<'_>,
    ) -> Option<usize> {
        // SAFETY: `self` exists only because `detect` found AVX2 on this CPU; each call's
        // arguments are the deltas of its kind.
        unsafe {
            match deltas {
                Deltas::All(d) => run::<N, ALL>(columns, deltas, d, &[], [&[], &[]]),
                Deltas::Each(ds) => run::<N, EACH>(columns, deltas, Vec2::ZERO, ds, [&[], &[]]),
                Deltas::Columns(dxs, dys) => {
                    run::<N, COLUMNS>(columns, deltas, Vec2::ZERO, &[], [dxs, dys])
                }
            }
        }
    }
}

/// [`Avx2::step`], its loop compiled for one kind of deltas: `all` for every row when `KIND`
/// is [`ALL`], `each` row's when [`EACH`], `xy`'s columns when [`COLUMNS`].
///
/// # Safety
/// The CPU has AVX2; `deltas` is `Deltas::All(all)`, `Deltas::Each(each)` or
/// `Deltas::Columns(xy[0], xy[1])`, by `KIND`.
#[target_feature(enable = "avx2")]
unsafe fn run<const N: usize, const KIND: u8>(
    mut columns: [(&mut [f32], &mut [f32]); N],
    deltas: Deltas<'_>,
    all: Vec2,
    each: &[Vec2],
    xy: [&[f32]; 2],
) -> Option<usize> {
    let n = rows(&columns, deltas);
    let mut first_stayed = None;
    let mut start = 0;
    while start + BLOCK <= n {
        // SAFETY (both calls): AVX2 (the contract); the deltas are those of `KIND` (the
        // contract), so their rows `start..start + BLOCK` exist (`n` is the shortest length).
        let (dx, dy) = match KIND {
            EACH => unsafe { split(each, start) },
            COLUMNS => unsafe { (four(xy[0], start), four(xy[1], start)) },
            _ => ([_mm256_set1_ps(all.x); 4], [_mm256_set1_ps(all.y); 4]),
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

/// Rows `start..start + BLOCK` of `col`, 8 rows a vector.
///
/// # Safety
/// The CPU has AVX2; rows `start..start + BLOCK` of `col` exist.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn four(col: &[f32], start: usize) -> [__m256; 4] {
    // SAFETY: AVX2 (the contract); each load reads 8 of rows `start..start + BLOCK`, which
    // `col` has (the contract).
    unsafe {
        [
            load(col, start),
            load(col, start + 8),
            load(col, start + 16),
            load(col, start + 24),
        ]
    }
}

/// The x and y deltas of rows `start..start + BLOCK`, 8 rows a vector: two loads of four
/// rows' halves each and two in-lane shuffles for 8 rows (shuffles share one port).
///
/// # Safety
/// The CPU has AVX2; rows `start..start + BLOCK` of `ds` exist.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn split(ds: &[Vec2], start: usize) -> ([__m256; 4], [__m256; 4]) {
    debug_assert!(start + BLOCK <= ds.len());
    let (mut dx, mut dy) = ([_mm256_setzero_ps(); 4], [_mm256_setzero_ps(); 4]);
    for k in 0..4 {
        // SAFETY: `Vec2` is `#[repr(C)]` `{ x, y }` of `f32`, so rows `r..r + 8` are 16 floats
        // from `ds[r]`; rows up to `start + BLOCK` exist (the contract), and the loads have no
        // alignment requirement.
        let (a, b) = unsafe {
            let at = ds.as_ptr().add(start + 8 * k).cast::<f32>();
            // Rows 0, 1 | 4, 5 and rows 2, 3 | 6, 7, as (x, y) pairs.
            let a = _mm256_loadu2_m128(at.add(8), at);
            let b = _mm256_loadu2_m128(at.add(12), at.add(4));
            (a, b)
        };
        // Per 128-bit half, the even floats of `a` then of `b` (x), or the odd ones (y).
        dx[k] = _mm256_shuffle_ps::<0b10_00_10_00>(a, b);
        dy[k] = _mm256_shuffle_ps::<0b11_01_11_01>(a, b);
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
