//! The portable kernel: plain Rust over blocks of 32 lanes, for every target (wasm32
//! included), and for the tails the SIMD kernels leave. Like the SIMD kernels, it first asks
//! whether a block holds any lane that is not a certain miss (a branch-free reduction the
//! compiler can vectorise), and classifies the rare blocks that do.

use super::filter::{decide, diff_bound, gap, not_missed, Sink};
use super::kernel::Filter;
use core::ops::ControlFlow;

/// Lanes per block: one bit each in the sink's `u32` masks.
const BLOCK: usize = 32;

/// Runs `filter` over all its lanes, numbering them from `base`.
pub(super) fn scan(filter: Filter<'_>, base: usize, sink: Sink<'_>) -> ControlFlow<()> {
    match filter {
        Filter::CircleCircles {
            items: [xs, ys, rs],
            q: [qx, qy, qr],
        } => blocks([xs, ys, rs], base, sink, |[x, y, r]| {
            Lane::Disc(diff_bound(x - qx, y - qy, r + qr))
        }),
        Filter::BoxCircles {
            items: [xs, ys, rs],
            q: [x0, y0, x1, y1],
        } => blocks([xs, ys, rs], base, sink, |[x, y, r]| {
            Lane::Disc(diff_bound(gap(x, x0, x1), gap(y, y0, y1), r))
        }),
        Filter::CircleBoxes {
            items: [x0s, y0s, x1s, y1s],
            q: [qx, qy, qr],
        } => blocks([x0s, y0s, x1s, y1s], base, sink, |[x0, y0, x1, y1]| {
            Lane::Disc(diff_bound(gap(qx, x0, x1), gap(qy, y0, y1), qr))
        }),
        Filter::BoxBoxes {
            items: [x0s, y0s, x1s, y1s],
            q: [qx0, qy0, qx1, qy1],
        } => blocks([x0s, y0s, x1s, y1s], base, sink, |[x0, y0, x1, y1]| {
            Lane::Exact(x0 <= qx1 && qx0 <= x1 && y0 <= qy1 && qy0 <= y1)
        }),
    }
}

/// What a filter computes for one lane.
#[derive(Clone, Copy)]
enum Lane {
    /// A disc test's `(diff, bound)`.
    Disc((f32, f32)),
    /// An exact answer.
    Exact(bool),
}

impl Lane {
    #[inline(always)]
    fn not_missed(self) -> bool {
        match self {
            Lane::Disc(d) => not_missed(d),
            Lane::Exact(hit) => hit,
        }
    }

    #[inline(always)]
    fn decide(self) -> (bool, bool) {
        match self {
            Lane::Disc(d) => decide(d),
            Lane::Exact(hit) => (hit, false),
        }
    }
}

/// Runs `lane` over the columns in blocks of [`BLOCK`], passing each block that holds a lane
/// not certainly missed to the sink.
#[inline(always)]
fn blocks<const K: usize>(
    columns: [&[f32]; K],
    base: usize,
    sink: Sink<'_>,
    lane: impl Fn([f32; K]) -> Lane,
) -> ControlFlow<()> {
    let n = columns.iter().map(|c| c.len()).min().unwrap_or(0);
    let mut start = 0;
    // Whole blocks: a loop of a constant trip count over slices of a constant length, with
    // no branch and an integer OR reduction, which compilers unroll and vectorise (SSE2,
    // NEON, simd128) where a bool fold over a variable length was left scalar.
    while start + BLOCK <= n {
        let block = columns.map(|c| &c[start..start + BLOCK]);
        let mut any = 0u32;
        for i in 0..BLOCK {
            any |= u32::from(lane(block.map(|c| c[i])).not_missed());
        }
        if any != 0 {
            classify(&block, base + start, sink, &lane)?;
        }
        start += BLOCK;
    }
    if start < n {
        let block = columns.map(|c| &c[start..n]);
        classify(&block, base + start, sink, &lane)?;
    }
    ControlFlow::Continue(())
}

/// Classifies the lanes of one block (at most [`BLOCK`]) and passes its masks to the sink.
#[inline(always)]
fn classify<const K: usize>(
    block: &[&[f32]; K],
    base: usize,
    sink: Sink<'_>,
    lane: &impl Fn([f32; K]) -> Lane,
) -> ControlFlow<()> {
    let len = block.iter().map(|c| c.len()).min().unwrap_or(0);
    let (mut hit, mut undecided) = (0u32, 0u32);
    for i in 0..len {
        let (h, u) = lane(block.map(|c| c[i])).decide();
        hit |= u32::from(h) << i;
        undecided |= u32::from(u) << i;
    }
    if hit | undecided != 0 {
        sink(base, hit, undecided)?;
    }
    ControlFlow::Continue(())
}
