//! The portable kernel: plain Rust over blocks of 32 lanes, for every target (wasm32
//! included), and for the tails the SIMD kernels leave.

use super::filter::{classify, gap, Sink};
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
        } => blocks3(xs, ys, rs, base, sink, |x, y, r| {
            classify(x - qx, y - qy, r + qr)
        }),
        Filter::BoxCircles {
            items: [xs, ys, rs],
            q: [x0, y0, x1, y1],
        } => blocks3(xs, ys, rs, base, sink, |x, y, r| {
            classify(gap(x, x0, x1), gap(y, y0, y1), r)
        }),
        Filter::CircleBoxes {
            items: [x0s, y0s, x1s, y1s],
            q: [qx, qy, qr],
        } => blocks4(x0s, y0s, x1s, y1s, base, sink, |x0, y0, x1, y1| {
            classify(gap(qx, x0, x1), gap(qy, y0, y1), qr)
        }),
        Filter::BoxBoxes {
            items: [x0s, y0s, x1s, y1s],
            q: [qx0, qy0, qx1, qy1],
        } => blocks4(x0s, y0s, x1s, y1s, base, sink, |x0, y0, x1, y1| {
            (x0 <= qx1 && qx0 <= x1 && y0 <= qy1 && qy0 <= y1, false)
        }),
    }
}

/// Passes a block's masks to the sink unless every lane is a certain miss.
#[inline(always)]
fn emit(sink: Sink<'_>, base: usize, (hit, undecided): (u32, u32)) -> ControlFlow<()> {
    if hit | undecided != 0 {
        sink(base, hit, undecided)
    } else {
        ControlFlow::Continue(())
    }
}

/// Packs per-lane `(hit, undecided)` flags into the two masks.
#[inline(always)]
fn pack(lanes: impl Iterator<Item = (bool, bool)>) -> (u32, u32) {
    lanes.enumerate().fold((0, 0), |(hit, und), (bit, (h, u))| {
        (hit | u32::from(h) << bit, und | u32::from(u) << bit)
    })
}

#[inline(always)]
fn blocks3(
    a: &[f32],
    b: &[f32],
    c: &[f32],
    base: usize,
    sink: Sink<'_>,
    lane: impl Fn(f32, f32, f32) -> (bool, bool),
) -> ControlFlow<()> {
    let blocks = a.chunks(BLOCK).zip(b.chunks(BLOCK)).zip(c.chunks(BLOCK));
    for (k, ((a, b), c)) in blocks.enumerate() {
        let lanes = a.iter().zip(b).zip(c).map(|((&a, &b), &c)| lane(a, b, c));
        emit(sink, base + k * BLOCK, pack(lanes))?;
    }
    ControlFlow::Continue(())
}

#[inline(always)]
fn blocks4(
    a: &[f32],
    b: &[f32],
    c: &[f32],
    d: &[f32],
    base: usize,
    sink: Sink<'_>,
    lane: impl Fn(f32, f32, f32, f32) -> (bool, bool),
) -> ControlFlow<()> {
    let blocks = a
        .chunks(BLOCK)
        .zip(b.chunks(BLOCK))
        .zip(c.chunks(BLOCK))
        .zip(d.chunks(BLOCK));
    for (k, (((a, b), c), d)) in blocks.enumerate() {
        let lanes = a
            .iter()
            .zip(b)
            .zip(c)
            .zip(d)
            .map(|(((&a, &b), &c), &d)| lane(a, b, c, d));
        emit(sink, base + k * BLOCK, pack(lanes))?;
    }
    ControlFlow::Continue(())
}
