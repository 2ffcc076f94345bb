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
        // The hot loop keeps only the step's mask in registers: each vector is tested right
        // after its move, and the rare step that holds a lane not certainly missed reloads
        // its moved items (from L1) to classify them.
        let (mut maybe, mut stays) = (0, 0);
        for k in 0..STEP / 16 {
            // SAFETY: AVX-512F (the contract); i + 16 * 2 <= rows.n, which every column holds.
            unsafe {
                let (v, s) = match step(rows, i + 16 * k) {
                    Some(v) => (v, 0),
                    None => step_each(rows, i + 16 * k),
                };
                (maybe, stays) = (maybe | u32::from(lanes.maybe(v)), stays | s << (16 * k));
            }
        }
        // Rarely taken: a branch, not a conditional move into a loop-carried state.
        if stays != 0 && first_stayed.is_none() {
            first_stayed = Some(i + stays.trailing_zeros() as usize);
        }
        if maybe != 0 {
            let (mut hit, mut undecided) = (0, 0);
            for k in 0..STEP / 16 {
                // SAFETY: as above.
                let (h, u) = unsafe { lanes.masks(reload(rows, i + 16 * k)) };
                (hit, undecided) = (hit | h << (16 * k), undecided | u << (16 * k));
            }
            if hit | undecided != 0 {
                sink(i, hit, undecided, rows.items(i..rows.n));
            }
        }
        i += STEP;
    }
    (i, first_stayed)
}

/// Moves rows `i..i + 16` by their deltas and returns their item columns as moved, or
/// changes nothing and returns `None` when some moved coordinate would not be finite (or,
/// rarely, when they are finite but their sum overflows): then [`step_each`] moves them.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= rows.n`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn step<const N: usize>(rows: &mut Rows<'_, N>, i: usize) -> Option<[__m512; 4]> {
    // SAFETY: AVX-512F (the contract); every load and store reads or writes rows `i..i + 16`,
    // which every column holds (`i + 16 <= rows.n`), the moved ones borrowed mutably.
    unsafe {
        let zero = _mm512_setzero_ps();
        let (dx, dy) = (load(rows.dxs, i), load(rows.dys, i));
        let mut sums = [[zero; 2]; N];
        let mut total = zero;
        for ((xs, ys), sums) in rows.pairs.iter().zip(&mut sums) {
            *sums = [
                _mm512_add_ps(load(xs, i), dx),
                _mm512_add_ps(load(ys, i), dy),
            ];
            total = _mm512_add_ps(total, _mm512_add_ps(sums[0], sums[1]));
        }
        // `t - t` is +0 for a finite `t`, else NaN: one test for all the sums.
        if !finite(_mm512_sub_ps(total, total)) {
            return None;
        }
        let mut items = [zero; 4];
        for (k, ((xs, ys), [x, y])) in rows.pairs.iter_mut().zip(sums).enumerate() {
            _mm512_storeu_ps(xs.as_mut_ptr().add(i), x);
            _mm512_storeu_ps(ys.as_mut_ptr().add(i), y);
            (items[2 * k], items[2 * k + 1]) = (x, y);
        }
        if N == 1 {
            // Discs' rows hold their radii.
            items[2] = load(rows.radii, i);
        }
        Some(items)
    }
}

/// Moves rows `i..i + 16` by their deltas, each row only when all its moved coordinates are
/// finite (else it stays), and returns their item columns as they now are and the rows that
/// stayed (bit `k` for row `i + k`).
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= rows.n`.
#[target_feature(enable = "avx512f")]
#[cold]
unsafe fn step_each<const N: usize>(rows: &mut Rows<'_, N>, i: usize) -> ([__m512; 4], u32) {
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

/// The item columns of rows `i..i + 16`, as [`step`] returned them.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= rows.n`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn reload<const N: usize>(rows: &Rows<'_, N>, i: usize) -> [__m512; 4] {
    let mut items = [_mm512_setzero_ps(); 4];
    for (item, col) in items.iter_mut().zip(rows.items(i..i + 16)) {
        if !col.is_empty() {
            // SAFETY: AVX-512F (the contract); the load reads rows `i..i + 16`, which every
            // item column holds (`i + 16 <= rows.n`).
            *item = unsafe { load(col, 0) };
        }
    }
    items
}

/// True when no lane of `zero_or_nan` is NaN.
#[target_feature(enable = "avx512f")]
#[inline]
fn finite(zero_or_nan: __m512) -> bool {
    _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(zero_or_nan, zero_or_nan) == 0
}
