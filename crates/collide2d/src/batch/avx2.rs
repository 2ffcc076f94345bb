//! AVX2 kernels: the filter of `filter.rs` on 8 lanes per vector, four vectors per step.
//!
//! The only unsafe code besides `avx512.rs`. Two kinds of block: unaligned loads of 8 lanes,
//! whose bounds the scan loop checks, and intrinsic calls that touch no memory, which need
//! only the CPU feature that an [`Avx2`] value proves.
//!
//! The hot loop only asks whether a step of 32 lanes holds any lane that is not a certain
//! miss (one compare per vector, one test per step) and calls nothing, so the broadcast
//! probe stays in registers; the rare steps that do are classified again in full.
// Before Rust 1.87 (MSRV 1.86) every intrinsic call needs `unsafe`; since, only the loads do.
#![allow(unused_unsafe)]

use super::filter::{Sink, ERR, TINY};
use super::kernel::Filter;
use core::arch::x86_64::*;
use core::ops::ControlFlow;

/// Lanes per step: four vectors, all 32 bits of the sink's masks.
const STEP: usize = 32;

/// Proof that this CPU runs AVX2: only [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU has AVX2 (std caches the detection; without std, when the build targets it).
    pub(super) fn detect() -> Option<Avx2> {
        #[cfg(feature = "std")]
        let found = std::is_x86_feature_detected!("avx2");
        // Without std there is no run-time detection: only what the build targets.
        #[cfg(not(feature = "std"))]
        let found = cfg!(target_feature = "avx2");
        found.then_some(Avx2(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        // SAFETY: `self` exists only because `detect` found AVX2 on this CPU, which is all
        // `scan` requires.
        unsafe { scan(filter, sink) }
    }
}

/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn scan(filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
    // SAFETY (each arm): AVX2 by this function's contract; `run` checks the loads' bounds
    // against `n`, the shortest column's length, which `Lanes::len` returns.
    unsafe {
        match filter {
            Filter::CircleCircles { items, q } => run(CircleCircles::new(items, q), sink),
            Filter::BoxCircles { items, q } => run(BoxCircles::new(items, q), sink),
            Filter::CircleBoxes { items, q } => run(CircleBoxes::new(items, q), sink),
            Filter::BoxBoxes { items, q } => run(BoxBoxes::new(items, q), sink),
        }
    }
}

/// A filter on 8 lanes at a time.
trait Lanes {
    /// The number of lanes: the shortest column's length.
    fn len(&self) -> usize;
    /// All bits set in each lane of `i..i + 8` that is not a certain miss.
    ///
    /// # Safety
    /// The CPU has AVX2; `i + 8 <= self.len()`.
    unsafe fn maybe(&self, i: usize) -> __m256;
    /// The masks `(certainly hit, undecided)` of lanes `i..i + 8`, lane `k` in bit `k`.
    ///
    /// # Safety
    /// As [`Lanes::maybe`].
    unsafe fn masks(&self, i: usize) -> (u32, u32);
}

/// Calls `sink` for each step of 32 lanes that holds a lane not certainly missed; returns the
/// lanes covered (whole steps only).
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn run<L: Lanes>(lanes: L, sink: Sink<'_>) -> ControlFlow<(), usize> {
    let n = lanes.len();
    let mut i = 0;
    loop {
        // Every call below reads lanes i..i + 32 at most, and i + 32 <= n holds at each.
        while i + STEP <= n {
            // SAFETY: AVX2 (contract); i + 8 * 4 <= n = lanes.len().
            let any = unsafe {
                let m = _mm256_or_ps(
                    _mm256_or_ps(lanes.maybe(i), lanes.maybe(i + 8)),
                    _mm256_or_ps(lanes.maybe(i + 16), lanes.maybe(i + 24)),
                );
                _mm256_testz_ps(m, m) == 0
            };
            if any {
                break;
            }
            i += STEP;
        }
        if i + STEP > n {
            return ControlFlow::Continue(i);
        }
        // SAFETY: as above, i + 32 <= n.
        let [a, b, c, d] = unsafe {
            [
                lanes.masks(i),
                lanes.masks(i + 8),
                lanes.masks(i + 16),
                lanes.masks(i + 24),
            ]
        };
        let hit = a.0 | b.0 << 8 | c.0 << 16 | d.0 << 24;
        let undecided = a.1 | b.1 << 8 | c.1 << 16 | d.1 << 24;
        if hit | undecided != 0 {
            sink(i, hit, undecided)?;
        }
        i += STEP;
    }
}

/// Lanes `i..i + 8` of `col`.
///
/// # Safety
/// The CPU has AVX; `i + 8 <= col.len()`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn load(col: &[f32], i: usize) -> __m256 {
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

/// `filter::classify`'s `diff` and `bound` on 8 lanes.
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn diff_bound(dx: __m256, dy: __m256, s: __m256) -> (__m256, __m256) {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe {
        let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        let rr = _mm256_mul_ps(s, s);
        let diff = _mm256_sub_ps(d2, rr);
        let bound = _mm256_add_ps(
            _mm256_mul_ps(_mm256_add_ps(d2, rr), _mm256_set1_ps(ERR)),
            _mm256_set1_ps(TINY),
        );
        (diff, bound)
    }
}

/// Lanes whose `diff > bound` fails (a NaN fails too): not certain misses.
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn not_missed((diff, bound): (__m256, __m256)) -> __m256 {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe { _mm256_cmp_ps::<_CMP_NGT_UQ>(diff, bound) }
}

/// `filter::classify`'s masks from `diff` and `bound`.
///
/// # Safety
/// The CPU has AVX.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn classify((diff, bound): (__m256, __m256)) -> (u32, u32) {
    // SAFETY: register arithmetic only; AVX per the contract.
    unsafe {
        let abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0), diff);
        let decided = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(abs, bound)) as u32;
        // A decided lane's diff is nonzero, so its sign bit is the answer.
        let negative = _mm256_movemask_ps(diff) as u32;
        (negative & decided, !decided & 0xff)
    }
}

/// Probe disc `[x, y, r]` against discs `[xs, ys, radii]`.
struct CircleCircles<'a> {
    items: [&'a [f32]; 3],
    q: [__m256; 3],
    n: usize,
}

impl<'a> CircleCircles<'a> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn new(items: [&'a [f32]; 3], q: [f32; 3]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        // SAFETY: register arithmetic only; AVX per the contract.
        let q = unsafe {
            [
                _mm256_set1_ps(q[0]),
                _mm256_set1_ps(q[1]),
                _mm256_set1_ps(q[2]),
            ]
        };
        CircleCircles { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m256, __m256) {
        let ([xs, ys, rs], [qx, qy, qr]) = (self.items, self.q);
        // SAFETY: i + 8 <= n <= every column's length, and AVX2, by the contract.
        unsafe {
            // (q - x)^2 = (x - q)^2, and rounding is symmetric: the filter's numbers.
            let dx = _mm256_sub_ps(qx, load(xs, i));
            let dy = _mm256_sub_ps(qy, load(ys, i));
            let s = _mm256_add_ps(qr, load(rs, i));
            diff_bound(dx, dy, s)
        }
    }
}

/// Probe box `[x0, y0, x1, y1]` against discs.
struct BoxCircles<'a> {
    items: [&'a [f32]; 3],
    q: [__m256; 4],
    n: usize,
}

impl<'a> BoxCircles<'a> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn new(items: [&'a [f32]; 3], q: [f32; 4]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        // SAFETY: register arithmetic only; AVX per the contract.
        let q = unsafe { q.map(|v| _mm256_set1_ps(v)) };
        BoxCircles { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m256, __m256) {
        let ([xs, ys, rs], [x0, y0, x1, y1]) = (self.items, self.q);
        // SAFETY: i + 8 <= n <= every column's length, and AVX2, by the contract.
        unsafe {
            let dx = gap(load(xs, i), x0, x1);
            let dy = gap(load(ys, i), y0, y1);
            diff_bound(dx, dy, load(rs, i))
        }
    }
}

/// Probe disc `[x, y, r]` against boxes `[x0s, y0s, x1s, y1s]`.
struct CircleBoxes<'a> {
    items: [&'a [f32]; 4],
    q: [__m256; 3],
    n: usize,
}

impl<'a> CircleBoxes<'a> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn new(items: [&'a [f32]; 4], q: [f32; 3]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        // SAFETY: register arithmetic only; AVX per the contract.
        let q = unsafe { q.map(|v| _mm256_set1_ps(v)) };
        CircleBoxes { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m256, __m256) {
        let ([x0s, y0s, x1s, y1s], [qx, qy, qr]) = (self.items, self.q);
        // SAFETY: i + 8 <= n <= every column's length, and AVX2, by the contract.
        unsafe {
            let dx = gap(qx, load(x0s, i), load(x1s, i));
            let dy = gap(qy, load(y0s, i), load(y1s, i));
            diff_bound(dx, dy, qr)
        }
    }
}

/// Implements [`Lanes`] for a disc filter from its `diff_bound`.
macro_rules! disc_lanes {
    ($($t:ident),*) => {$(
        impl Lanes for $t<'_> {
            fn len(&self) -> usize {
                self.n
            }
            #[target_feature(enable = "avx2")]
            #[inline]
            unsafe fn maybe(&self, i: usize) -> __m256 {
                // SAFETY: the contract of `maybe` is that of `diff_bound` and `not_missed`.
                unsafe { not_missed(self.diff_bound(i)) }
            }
            #[target_feature(enable = "avx2")]
            #[inline]
            unsafe fn masks(&self, i: usize) -> (u32, u32) {
                // SAFETY: the contract of `masks` is that of `diff_bound` and `classify`.
                unsafe { classify(self.diff_bound(i)) }
            }
        }
    )*};
}
disc_lanes!(CircleCircles, BoxCircles, CircleBoxes);

/// Probe box `[x0, y0, x1, y1]` against boxes: comparisons only, never undecided.
struct BoxBoxes<'a> {
    items: [&'a [f32]; 4],
    q: [__m256; 4],
    n: usize,
}

impl<'a> BoxBoxes<'a> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn new(items: [&'a [f32]; 4], q: [f32; 4]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        // SAFETY: register arithmetic only; AVX per the contract.
        let q = unsafe { q.map(|v| _mm256_set1_ps(v)) };
        BoxBoxes { items, q, n }
    }

    /// All bits set in each lane whose box shares a point with the probe.
    ///
    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn overlap(&self, i: usize) -> __m256 {
        let ([x0s, y0s, x1s, y1s], [qx0, qy0, qx1, qy1]) = (self.items, self.q);
        // SAFETY: i + 8 <= n <= every column's length, and AVX2, by the contract.
        unsafe {
            let x = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(qx1, load(x0s, i)),
                _mm256_cmp_ps::<_CMP_LE_OQ>(qx0, load(x1s, i)),
            );
            let y = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(qy1, load(y0s, i)),
                _mm256_cmp_ps::<_CMP_LE_OQ>(qy0, load(y1s, i)),
            );
            _mm256_and_ps(x, y)
        }
    }
}

impl Lanes for BoxBoxes<'_> {
    fn len(&self) -> usize {
        self.n
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn maybe(&self, i: usize) -> __m256 {
        // SAFETY: the contract of `maybe` is that of `overlap`.
        unsafe { self.overlap(i) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn masks(&self, i: usize) -> (u32, u32) {
        // SAFETY: the contract of `masks` is that of `overlap`; the rest is register work.
        unsafe { (_mm256_movemask_ps(self.overlap(i)) as u32, 0) }
    }
}
