//! The AVX-512 pass of `fused.rs`: each 16 rows moved, stored and tested from the same
//! registers, two vectors a step as the scan of `avx512.rs` does.

use super::avx512::{load, Avx512, BoxBoxes, BoxCircles, CircleBoxes, CircleCircles, Lanes};
use super::fused::{FusedSink, Rows};
use super::kernel::Filter;
use core::arch::x86_64::*;

/// Rows per step: two vectors, all 32 bits of the sink's masks.
const STEP: usize = 32;

impl Avx512 {
    /// Moves and queries the whole steps of `rows`; returns the rows covered and the first
    /// that stayed.
    pub(super) fn step_and_scan<const N: usize>(
        self,
        rows: &mut Rows<'_, N>,
        filter: Filter<'_>,
        sink: FusedSink<'_>,
    ) -> (usize, Option<usize>) {
        // SAFETY: `self` exists only because `detect` found AVX-512F on this CPU, which is all
        // `pass` requires.
        unsafe { pass(rows, filter, sink) }
    }
}

/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn pass<const N: usize>(
    rows: &mut Rows<'_, N>,
    filter: Filter<'_>,
    sink: FusedSink<'_>,
) -> (usize, Option<usize>) {
    // SAFETY (each arm): AVX-512F by this function's contract; the filters' items are not
    // read (only their probe numbers), and `run`'s loads stay below `rows.n`.
    unsafe {
        match filter {
            Filter::CircleCircles { q, .. } => run(CircleCircles::new([&[]; 3], q), rows, sink),
            Filter::BoxCircles { q, .. } => run(BoxCircles::new([&[]; 3], q), rows, sink),
            Filter::CircleBoxes { q, .. } => run(CircleBoxes::new([&[]; 4], q), rows, sink),
            Filter::BoxBoxes { q, .. } => run(BoxBoxes::new([&[]; 4], q), rows, sink),
        }
    }
}

/// The pass over whole steps of `rows`, testing the lanes by `lanes` (whose items it never
/// reads); calls `sink` for each step that holds a lane not certainly missed.
///
/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn run<const N: usize, L: Lanes>(
    lanes: L,
    rows: &mut Rows<'_, N>,
    sink: FusedSink<'_>,
) -> (usize, Option<usize>) {
    let mut first_stayed = None;
    let mut i = 0;
    while i + STEP <= rows.n {
        // SAFETY: AVX-512F (the contract); i + 16 * 2 <= rows.n, which every column holds.
        let [(a, stays_a), (b, stays_b)] = unsafe { [step(rows, i), step(rows, i + 16)] };
        // Rarely taken: a branch, not a conditional move into a loop-carried state.
        if stays_a | stays_b != 0 && first_stayed.is_none() {
            first_stayed = Some(i + (stays_a | stays_b << 16).trailing_zeros() as usize);
        }
        // SAFETY: AVX-512F (the contract); register work only.
        let any = unsafe { lanes.maybe(a) | lanes.maybe(b) != 0 };
        if any {
            // SAFETY: as above.
            let [a, b] = unsafe { [lanes.masks(a), lanes.masks(b)] };
            let (hit, undecided) = (a.0 | b.0 << 16, a.1 | b.1 << 16);
            if hit | undecided != 0 {
                sink(i, hit, undecided, rows.items(i..rows.n));
            }
        }
        i += STEP;
    }
    (i, first_stayed)
}

/// Moves rows `i..i + 16` by their deltas, each row only when all its moved coordinates are
/// finite (else it stays), and returns their item columns as they now are and the rows that
/// stayed (bit `k` for row `i + k`).
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= rows.n`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn step<const N: usize>(rows: &mut Rows<'_, N>, i: usize) -> ([__m512; 4], u32) {
    let zero = _mm512_setzero_ps();
    // SAFETY: i + 16 <= rows.n (the contract), which every column holds.
    let (dx, dy) = unsafe { (load(rows.dxs, i), load(rows.dys, i)) };
    let (mut was, mut sums) = ([[zero; 2]; N], [[zero; 2]; N]);
    let mut stays = 0u16;
    for ((xs, ys), (was, sums)) in rows.pairs.iter().zip(was.iter_mut().zip(&mut sums)) {
        // SAFETY: as above.
        *was = unsafe { [load(xs, i), load(ys, i)] };
        *sums = [_mm512_add_ps(was[0], dx), _mm512_add_ps(was[1], dy)];
        // `s - s` is NaN exactly when `s` is infinite or NaN.
        let [sx, sy] = *sums;
        let (x, y) = (_mm512_sub_ps(sx, sx), _mm512_sub_ps(sy, sy));
        stays |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(x, y);
    }
    let mut items = [zero; 4];
    for (k, ((xs, ys), (was, sums))) in rows.pairs.iter_mut().zip(was.iter().zip(&sums)).enumerate()
    {
        // The sums, but the rows that stay keep their coordinates (the same bits).
        let x = _mm512_mask_blend_ps(stays, sums[0], was[0]);
        let y = _mm512_mask_blend_ps(stays, sums[1], was[1]);
        // SAFETY: i + 16 <= rows.n (the contract): the 16 floats written lie inside each
        // column, which is borrowed mutably.
        unsafe {
            _mm512_storeu_ps(xs.as_mut_ptr().add(i), x);
            _mm512_storeu_ps(ys.as_mut_ptr().add(i), y);
        }
        (items[2 * k], items[2 * k + 1]) = (x, y);
    }
    if N == 1 {
        // SAFETY: as above; discs' rows hold their radii.
        items[2] = unsafe { load(rows.radii, i) };
    }
    (items, u32::from(stays))
}
