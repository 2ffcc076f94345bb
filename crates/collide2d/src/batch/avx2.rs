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

/// A filter on 8 lanes at a time, over item columns loaded at an index ([`Lanes::at`]) or
/// already in registers (the fused move and query, `avx2_fused.rs`).
pub(super) trait Lanes {
    /// The number of lanes: the shortest column's length.
    fn len(&self) -> usize;
    /// Lanes `i..i + 8` of the item columns, in the filter's order (a disc filter's fourth
    /// vector is unused).
    ///
    /// # Safety
    /// The CPU has AVX2; `i + 8 <= self.len()`.
    unsafe fn at(&self, i: usize) -> [__m256; 4];
    /// All bits set in each lane of items `v` that is not a certain miss.
    ///
    /// # Safety
    /// The CPU has AVX2.
    unsafe fn maybe(&self, v: [__m256; 4]) -> __m256;
    /// The masks `(certainly hit, undecided)` of the lanes of items `v`, lane `k` in bit `k`.
    ///
    /// # Safety
    /// As [`Lanes::maybe`].
    unsafe fn masks(&self, v: [__m256; 4]) -> (u32, u32);
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
                    _mm256_or_ps(lanes.maybe(lanes.at(i)), lanes.maybe(lanes.at(i + 8))),
                    _mm256_or_ps(lanes.maybe(lanes.at(i + 16)), lanes.maybe(lanes.at(i + 24))),
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
                lanes.masks(lanes.at(i)),
                lanes.masks(lanes.at(i + 8)),
                lanes.masks(lanes.at(i + 16)),
                lanes.masks(lanes.at(i + 24)),
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

/// Makes each filter's `new` (the probe's numbers broadcast) and its item loads.
macro_rules! filters {
    ($($(#[$doc:meta])* $t:ident: $k:literal items, $q:literal numbers;)*) => {$(
        $(#[$doc])*
        pub(super) struct $t<'a> {
            items: [&'a [f32]; $k],
            q: [__m256; $q],
            n: usize,
        }

        impl<'a> $t<'a> {
            /// # Safety
            /// The CPU has AVX.
            #[target_feature(enable = "avx2")]
            #[inline]
            pub(super) unsafe fn new(items: [&'a [f32]; $k], q: [f32; $q]) -> Self {
                let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
                // SAFETY: register arithmetic only; AVX per the contract.
                let q = unsafe { q.map(|v| _mm256_set1_ps(v)) };
                $t { items, q, n }
            }

            /// Lanes `i..i + 8` of the items, the fourth vector zero for discs.
            ///
            /// # Safety
            /// As [`Lanes::at`].
            #[target_feature(enable = "avx2")]
            #[inline]
            unsafe fn load_items(&self, i: usize) -> [__m256; 4] {
                // SAFETY: i + 8 <= n <= every column's length, and AVX2, by the contract.
                unsafe {
                    let mut v = [_mm256_setzero_ps(); 4];
                    for (v, col) in v.iter_mut().zip(self.items) {
                        *v = load(col, i);
                    }
                    v
                }
            }
        }
    )*};
}

filters! {
    /// Probe disc `[x, y, r]` against discs `[xs, ys, radii]`.
    CircleCircles: 3 items, 3 numbers;
    /// Probe box `[x0, y0, x1, y1]` against discs.
    BoxCircles: 3 items, 4 numbers;
    /// Probe disc `[x, y, r]` against boxes `[x0s, y0s, x1s, y1s]`.
    CircleBoxes: 4 items, 3 numbers;
    /// Probe box `[x0, y0, x1, y1]` against boxes: comparisons only, never undecided.
    BoxBoxes: 4 items, 4 numbers;
}

impl CircleCircles<'_> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, [x, y, r, _]: [__m256; 4]) -> (__m256, __m256) {
        let [qx, qy, qr] = self.q;
        // SAFETY: register arithmetic only; AVX per the contract.
        unsafe {
            // (q - x)^2 = (x - q)^2, and rounding is symmetric: the filter's numbers.
            let dx = _mm256_sub_ps(qx, x);
            let dy = _mm256_sub_ps(qy, y);
            diff_bound(dx, dy, _mm256_add_ps(qr, r))
        }
    }
}

impl BoxCircles<'_> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, [x, y, r, _]: [__m256; 4]) -> (__m256, __m256) {
        let [x0, y0, x1, y1] = self.q;
        // SAFETY: register arithmetic only; AVX per the contract.
        unsafe { diff_bound(gap(x, x0, x1), gap(y, y0, y1), r) }
    }
}

impl CircleBoxes<'_> {
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn diff_bound(&self, [x0, y0, x1, y1]: [__m256; 4]) -> (__m256, __m256) {
        let [qx, qy, qr] = self.q;
        // SAFETY: register arithmetic only; AVX per the contract.
        unsafe { diff_bound(gap(qx, x0, x1), gap(qy, y0, y1), qr) }
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
            unsafe fn at(&self, i: usize) -> [__m256; 4] {
                // SAFETY: the contract of `at` is that of `load_items`.
                unsafe { self.load_items(i) }
            }
            #[target_feature(enable = "avx2")]
            #[inline]
            unsafe fn maybe(&self, v: [__m256; 4]) -> __m256 {
                // SAFETY: register arithmetic only; AVX2 per the contract.
                unsafe { not_missed(self.diff_bound(v)) }
            }
            #[target_feature(enable = "avx2")]
            #[inline]
            unsafe fn masks(&self, v: [__m256; 4]) -> (u32, u32) {
                // SAFETY: register arithmetic only; AVX2 per the contract.
                unsafe { classify(self.diff_bound(v)) }
            }
        }
    )*};
}
disc_lanes!(CircleCircles, BoxCircles, CircleBoxes);

impl BoxBoxes<'_> {
    /// All bits set in each lane whose box shares a point with the probe.
    ///
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn overlap(&self, [x0, y0, x1, y1]: [__m256; 4]) -> __m256 {
        let [qx0, qy0, qx1, qy1] = self.q;
        // SAFETY: register arithmetic only; AVX per the contract.
        unsafe {
            let x = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(qx1, x0),
                _mm256_cmp_ps::<_CMP_LE_OQ>(qx0, x1),
            );
            let y = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(qy1, y0),
                _mm256_cmp_ps::<_CMP_LE_OQ>(qy0, y1),
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
    unsafe fn at(&self, i: usize) -> [__m256; 4] {
        // SAFETY: the contract of `at` is that of `load_items`.
        unsafe { self.load_items(i) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn maybe(&self, v: [__m256; 4]) -> __m256 {
        // SAFETY: register arithmetic only; AVX2 per the contract.
        unsafe { self.overlap(v) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn masks(&self, v: [__m256; 4]) -> (u32, u32) {
        // SAFETY: register arithmetic only; AVX2 per the contract.
        unsafe { (_mm256_movemask_ps(self.overlap(v)) as u32, 0) }
    }
}
