//! The filter of `filter.rs` on 4-lane vectors, written once over [`Simd4`]: the wasm32
//! `simd128` kernel (`simd128.rs`) and the aarch64 NEON kernel (`neon.rs`) only say how to
//! do each operation. The same operations in the same order as the scalar filter, without
//! fused multiply-adds, so every lane's `(diff, bound)` is bit-identical to the portable
//! kernel's.
//!
//! Like the AVX2 kernel, the hot loop only asks whether a step of 32 lanes holds any lane
//! that is not a certain miss; the rare steps that do are classified in full.

use super::filter::{Sink, ERR, TINY};
use super::kernel::Filter;
use core::ops::ControlFlow;

/// Lanes per step: eight vectors, all 32 bits of the sink's masks.
const STEP: usize = 32;

/// Vectors per step.
const VECTORS: usize = STEP / 4;

/// A 4-lane `f32` instruction set. A value exists only where the instructions run.
pub(super) trait Simd4: Copy {
    /// Four `f32` lanes.
    type V: Copy;
    /// Four lane masks (all bits set or clear).
    type M: Copy;
    fn load(self, lanes: &[f32; 4]) -> Self::V;
    fn splat(self, v: f32) -> Self::V;
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    /// `min(max(c, lo), hi)` as `filter::gap` computes it (inputs are finite).
    fn clamp(self, c: Self::V, lo: Self::V, hi: Self::V) -> Self::V;
    fn abs(self, a: Self::V) -> Self::V;
    /// `a > b`, false when either is NaN.
    fn gt(self, a: Self::V, b: Self::V) -> Self::M;
    /// `a <= b`, false when either is NaN.
    fn le(self, a: Self::V, b: Self::V) -> Self::M;
    fn not(self, m: Self::M) -> Self::M;
    fn and(self, a: Self::M, b: Self::M) -> Self::M;
    fn or(self, a: Self::M, b: Self::M) -> Self::M;
    /// Whether any lane is set.
    fn any(self, m: Self::M) -> bool;
    /// Lane `k`'s mask in bit `k`.
    fn bits(self, m: Self::M) -> u32;
    /// Lane `k`'s sign bit in bit `k`.
    fn signs(self, v: Self::V) -> u32;
}

/// What the filter computes for 4 lanes.
#[derive(Clone, Copy)]
enum Lanes<S: Simd4> {
    /// A disc test's `(diff, bound)`.
    Disc(S::V, S::V),
    /// Exact answers (box against box).
    Exact(S::M),
}

/// `filter::diff_bound` on 4 lanes.
#[inline(always)]
fn disc<S: Simd4>(s: S, dx: S::V, dy: S::V, r: S::V) -> Lanes<S> {
    let d2 = s.add(s.mul(dx, dx), s.mul(dy, dy));
    let rr = s.mul(r, r);
    let diff = s.sub(d2, rr);
    let bound = s.add(s.mul(s.add(d2, rr), s.splat(ERR)), s.splat(TINY));
    Lanes::Disc(diff, bound)
}

/// `filter::gap` on 4 lanes.
#[inline(always)]
fn gap<S: Simd4>(s: S, c: S::V, lo: S::V, hi: S::V) -> S::V {
    s.sub(c, s.clamp(c, lo, hi))
}

impl<S: Simd4> Lanes<S> {
    /// Lanes that are not certain misses (`!(diff > bound)`: a NaN is not certain).
    #[inline(always)]
    fn not_missed(self, s: S) -> S::M {
        match self {
            Lanes::Disc(diff, bound) => s.not(s.gt(diff, bound)),
            Lanes::Exact(hit) => hit,
        }
    }

    /// `filter::decide` per lane, as 4-bit masks `(certainly hit, undecided)`.
    #[inline(always)]
    fn masks(self, s: S) -> (u32, u32) {
        match self {
            Lanes::Disc(diff, bound) => {
                let decided = s.bits(s.gt(s.abs(diff), bound));
                // A decided diff is nonzero, so its sign bit is the answer.
                (s.signs(diff) & decided, !decided & 0xf)
            }
            Lanes::Exact(hit) => (s.bits(hit), 0),
        }
    }
}

/// Runs `filter` over whole steps of lanes; returns how many lanes it covered.
#[inline(always)]
pub(super) fn scan<S: Simd4>(s: S, filter: Filter<'_>, sink: Sink<'_>) -> ControlFlow<(), usize> {
    match filter {
        Filter::CircleCircles { items, q } => {
            let [qx, qy, qr] = q.map(|v| s.splat(v));
            run(s, items, sink, |[x, y, r]| {
                // (q - x)^2 = (x - q)^2, and rounding is symmetric: the filter's numbers.
                disc(s, s.sub(qx, x), s.sub(qy, y), s.add(qr, r))
            })
        }
        Filter::BoxCircles { items, q } => {
            let [x0, y0, x1, y1] = q.map(|v| s.splat(v));
            run(s, items, sink, |[x, y, r]| {
                disc(s, gap(s, x, x0, x1), gap(s, y, y0, y1), r)
            })
        }
        Filter::CircleBoxes { items, q } => {
            let [qx, qy, qr] = q.map(|v| s.splat(v));
            run(s, items, sink, |[x0, y0, x1, y1]| {
                disc(s, gap(s, qx, x0, x1), gap(s, qy, y0, y1), qr)
            })
        }
        Filter::BoxBoxes { items, q } => {
            let [qx0, qy0, qx1, qy1] = q.map(|v| s.splat(v));
            run(s, items, sink, |[x0, y0, x1, y1]| {
                let x = s.and(s.le(x0, qx1), s.le(qx0, x1));
                let y = s.and(s.le(y0, qy1), s.le(qy0, y1));
                Lanes::Exact(s.and(x, y))
            })
        }
    }
}

/// Calls `sink` for each step of 32 lanes that holds a lane not certainly missed; returns the
/// lanes covered (whole steps only).
#[inline(always)]
fn run<S: Simd4, const K: usize>(
    s: S,
    columns: [&[f32]; K],
    sink: Sink<'_>,
    lanes: impl Fn([S::V; K]) -> Lanes<S>,
) -> ControlFlow<(), usize> {
    let n = columns.iter().map(|c| c.len()).min().unwrap_or(0);
    let mut i = 0;
    while i + STEP <= n {
        let step = columns.map(|c| &c[i..i + STEP]);
        let mut any = lanes(vectors(s, &step, 0)).not_missed(s);
        for j in 1..VECTORS {
            any = s.or(any, lanes(vectors(s, &step, j)).not_missed(s));
        }
        if s.any(any) {
            let (hit, undecided) = classify(s, &step, &lanes);
            if hit | undecided != 0 {
                sink(i, hit, undecided)?;
            }
        }
        i += STEP;
    }
    ControlFlow::Continue(i)
}

/// The masks `(certainly hit, undecided)` of one step's lanes. Out of line: inlined, it kept
/// the hot loop's addresses alive for its own loads, and V8 (node 20) then ran the `simd128`
/// kernel's circle-against-boxes loop at half the portable kernel's speed.
#[inline(never)]
fn classify<S: Simd4, const K: usize>(
    s: S,
    step: &[&[f32]; K],
    lanes: &impl Fn([S::V; K]) -> Lanes<S>,
) -> (u32, u32) {
    let (mut hit, mut undecided) = (0, 0);
    for j in 0..VECTORS {
        let (h, u) = lanes(vectors(s, step, j)).masks(s);
        hit |= h << (4 * j);
        undecided |= u << (4 * j);
    }
    (hit, undecided)
}

/// Lanes `4 j .. 4 j + 4` of each of `step`'s columns.
#[inline(always)]
fn vectors<S: Simd4, const K: usize>(s: S, step: &[&[f32]; K], j: usize) -> [S::V; K] {
    step.map(|c| {
        let four = c.get(4 * j..).and_then(<[f32]>::first_chunk::<4>);
        // Never the zeros: `step`'s columns hold STEP lanes and j < VECTORS.
        s.load(four.unwrap_or(&[0.0; 4]))
    })
}
