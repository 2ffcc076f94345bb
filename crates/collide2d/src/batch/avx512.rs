//! AVX-512 kernels: the filter of `filter.rs` on 16 lanes per vector, two vectors per step.
//! Built only by Rust 1.89 or later (`build.rs` sets `collide2d_avx512`), which has the
//! intrinsics.
//!
//! The only unsafe code besides `avx2.rs`, in the same two kinds of block: unaligned loads of
//! 16 lanes, whose bounds the scan loop checks, and intrinsic calls that touch no memory,
//! which need only the CPU feature that an [`Avx512`] value proves. (Since Rust 1.87 the
//! arithmetic intrinsics are safe inside `#[target_feature]` functions, so those need no
//! `unsafe` here; the loads still do.)
//!
//! The hot loop only asks whether a step of 32 lanes holds any lane that is not a certain
//! miss (one compare per vector into a mask register) and calls nothing; the rare steps that
//! do are classified again in full.

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
    /// `Some` when the CPU has AVX-512F (std caches the detection; without std, when the build targets it).
    pub(super) fn detect() -> Option<Avx512> {
        #[cfg(feature = "std")]
        let found = std::is_x86_feature_detected!("avx512f");
        // Without std there is no run-time detection: only what the build targets.
        #[cfg(not(feature = "std"))]
        let found = cfg!(target_feature = "avx512f");
        found.then_some(Avx512(()))
    }

    /// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
    pub(super) fn scan(self, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
        // SAFETY: `self` exists only because `detect` found AVX-512F on this CPU, which is all
        // `scan` requires.
        unsafe { scan(filter, sink) }
    }
}

/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn scan(filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
    // SAFETY (each arm): AVX-512F by this function's contract; `run` checks the loads' bounds
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

/// A filter on 16 lanes at a time.
trait Lanes {
    /// The number of lanes: the shortest column's length.
    fn len(&self) -> usize;
    /// The mask of lanes `i..i + 16` that are not certain misses.
    ///
    /// # Safety
    /// The CPU has AVX-512F; `i + 16 <= self.len()`.
    unsafe fn maybe(&self, i: usize) -> u16;
    /// The masks `(certainly hit, undecided)` of lanes `i..i + 16`, lane `k` in bit `k`.
    ///
    /// # Safety
    /// As [`Lanes::maybe`].
    unsafe fn masks(&self, i: usize) -> (u32, u32);
}

/// Calls `sink` for each step of 32 lanes that holds a lane not certainly missed; returns the
/// lanes covered (whole steps only).
///
/// # Safety
/// The CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn run<L: Lanes>(lanes: L, sink: Sink<'_>) -> ControlFlow<(), usize> {
    let n = lanes.len();
    let mut i = 0;
    loop {
        // Every call below reads lanes i..i + 32 at most, and i + 32 <= n holds at each.
        while i + STEP <= n {
            // SAFETY: AVX-512F (contract); i + 16 * 2 <= n = lanes.len().
            let any = unsafe { lanes.maybe(i) | lanes.maybe(i + 16) != 0 };
            if any {
                break;
            }
            i += STEP;
        }
        if i + STEP > n {
            return ControlFlow::Continue(i);
        }
        // SAFETY: as above, i + 32 <= n.
        let [a, b] = unsafe { [lanes.masks(i), lanes.masks(i + 16)] };
        let (hit, undecided) = (a.0 | b.0 << 16, a.1 | b.1 << 16);
        if hit | undecided != 0 {
            sink(i, hit, undecided)?;
        }
        i += STEP;
    }
}

/// Lanes `i..i + 16` of `col`.
///
/// # Safety
/// The CPU has AVX-512F; `i + 16 <= col.len()`.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn load(col: &[f32], i: usize) -> __m512 {
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

/// `filter::classify`'s `diff` and `bound` on 16 lanes.
#[target_feature(enable = "avx512f")]
#[inline]
fn diff_bound(dx: __m512, dy: __m512, s: __m512) -> (__m512, __m512) {
    let d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    let rr = _mm512_mul_ps(s, s);
    let diff = _mm512_sub_ps(d2, rr);
    let bound = _mm512_add_ps(
        _mm512_mul_ps(_mm512_add_ps(d2, rr), _mm512_set1_ps(ERR)),
        _mm512_set1_ps(TINY),
    );
    (diff, bound)
}

/// The mask of lanes whose `diff > bound` fails (a NaN fails too): not certain misses.
#[target_feature(enable = "avx512f")]
#[inline]
fn not_missed((diff, bound): (__m512, __m512)) -> u16 {
    _mm512_cmp_ps_mask::<_CMP_NGT_UQ>(diff, bound)
}

/// `filter::classify`'s masks from `diff` and `bound`.
#[target_feature(enable = "avx512f")]
#[inline]
fn classify((diff, bound): (__m512, __m512)) -> (u32, u32) {
    let decided = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(_mm512_abs_ps(diff), bound);
    // A decided lane's diff is nonzero, so its sign is the answer.
    let negative = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(diff, _mm512_setzero_ps());
    (u32::from(negative & decided), u32::from(!decided))
}

/// Probe disc `[x, y, r]` against discs `[xs, ys, radii]`.
struct CircleCircles<'a> {
    items: [&'a [f32]; 3],
    q: [__m512; 3],
    n: usize,
}

impl<'a> CircleCircles<'a> {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new(items: [&'a [f32]; 3], q: [f32; 3]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        let q = q.map(|v| _mm512_set1_ps(v));
        CircleCircles { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m512, __m512) {
        let ([xs, ys, rs], [qx, qy, qr]) = (self.items, self.q);
        // SAFETY: i + 16 <= n <= every column's length, and AVX-512F, by the contract.
        unsafe {
            // (q - x)^2 = (x - q)^2, and rounding is symmetric: the filter's numbers.
            let dx = _mm512_sub_ps(qx, load(xs, i));
            let dy = _mm512_sub_ps(qy, load(ys, i));
            let s = _mm512_add_ps(qr, load(rs, i));
            diff_bound(dx, dy, s)
        }
    }
}

/// Probe box `[x0, y0, x1, y1]` against discs.
struct BoxCircles<'a> {
    items: [&'a [f32]; 3],
    q: [__m512; 4],
    n: usize,
}

impl<'a> BoxCircles<'a> {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new(items: [&'a [f32]; 3], q: [f32; 4]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        let q = q.map(|v| _mm512_set1_ps(v));
        BoxCircles { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m512, __m512) {
        let ([xs, ys, rs], [x0, y0, x1, y1]) = (self.items, self.q);
        // SAFETY: i + 16 <= n <= every column's length, and AVX-512F, by the contract.
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
    q: [__m512; 3],
    n: usize,
}

impl<'a> CircleBoxes<'a> {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new(items: [&'a [f32]; 4], q: [f32; 3]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        let q = q.map(|v| _mm512_set1_ps(v));
        CircleBoxes { items, q, n }
    }

    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn diff_bound(&self, i: usize) -> (__m512, __m512) {
        let ([x0s, y0s, x1s, y1s], [qx, qy, qr]) = (self.items, self.q);
        // SAFETY: i + 16 <= n <= every column's length, and AVX-512F, by the contract.
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
            #[target_feature(enable = "avx512f")]
            #[inline]
            unsafe fn maybe(&self, i: usize) -> u16 {
                // SAFETY: the contract of `maybe` is that of `diff_bound` and `not_missed`.
                unsafe { not_missed(self.diff_bound(i)) }
            }
            #[target_feature(enable = "avx512f")]
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
    q: [__m512; 4],
    n: usize,
}

impl<'a> BoxBoxes<'a> {
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn new(items: [&'a [f32]; 4], q: [f32; 4]) -> Self {
        let n = items.iter().map(|c| c.len()).min().unwrap_or(0);
        let q = q.map(|v| _mm512_set1_ps(v));
        BoxBoxes { items, q, n }
    }

    /// The mask of lanes whose box shares a point with the probe.
    ///
    /// # Safety
    /// As [`Lanes::maybe`].
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn overlap(&self, i: usize) -> u16 {
        let ([x0s, y0s, x1s, y1s], [qx0, qy0, qx1, qy1]) = (self.items, self.q);
        // SAFETY: i + 16 <= n <= every column's length, and AVX-512F, by the contract.
        unsafe {
            let k = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(qx1, load(x0s, i));
            let k = _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(k, qx0, load(x1s, i));
            let k = _mm512_mask_cmp_ps_mask::<_CMP_GE_OQ>(k, qy1, load(y0s, i));
            _mm512_mask_cmp_ps_mask::<_CMP_LE_OQ>(k, qy0, load(y1s, i))
        }
    }
}

impl Lanes for BoxBoxes<'_> {
    fn len(&self) -> usize {
        self.n
    }
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn maybe(&self, i: usize) -> u16 {
        // SAFETY: the contract of `maybe` is that of `overlap`.
        unsafe { self.overlap(i) }
    }
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn masks(&self, i: usize) -> (u32, u32) {
        // SAFETY: the contract of `masks` is that of `overlap`; the rest is register work.
        unsafe { (u32::from(self.overlap(i)), 0) }
    }
}
