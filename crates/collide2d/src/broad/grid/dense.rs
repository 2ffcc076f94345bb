//! A static list indexed densely in cells of its own, so moving objects find the static ones
//! near them without searching: a level of 100,000 tiles costs a mover one read per row of
//! cells its box can reach, where a galloping search in the sorted list missed the cache a
//! dozen times.
//!
//! The index's cells are half as wide as the widest (and tallest) static box, rounded up to a
//! power of two, not the grid's: a mover then reads only the cells where a box reaching its own
//! can start, which hold about as many boxes as can overlap it (the grid's cells, sized for the
//! movers, held several times that). Built only for lists of static objects (which change
//! seldom), with cells made coarser until there are at most four per box, so a sparse level
//! keeps a small index.

use super::cells::{cell_of, cells4, Entry};
use super::sweep::Sink;
use crate::prefetch::prefetch;
use crate::shape::Aabb;
use alloc::vec::Vec;
use glam::{IVec4, Vec4};

/// A static box of the index and its slot, in 32 bytes so that none straddles two cache lines
/// (a mover's row of cells usually holds one or two).
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct Item {
    aabb: Aabb,
    slot: u32,
}

/// The cells of an index: `1 /` their width (a power of two, so cells are exact), and the
/// range where boxes start, from cell `(x0, y0)`, `width * height` cells.
#[derive(Clone, Copy, Debug)]
struct Cells {
    inv: f32,
    x0: i32,
    y0: i32,
    width: i64,
    height: i64,
    /// The first cells `(x0, y0)` plus how many cells cover the widest and the tallest box
    /// (one or two: the cells are at least half as wide as the widest box).
    x0_before: i32,
    y0_before: i32,
    /// Bounds for a box's corners in cells, `(min x, min y, max x, max y) * inv`, that keep
    /// what [`Dense::reaching`] finds (see there): all integers below `2^24`, so exact.
    clamp_lo: Vec4,
    clamp_hi: Vec4,
}

/// The boxes of a static list sorted by their cell (of the index's own cells, row by row), then
/// `min x`; for each cell of the range, the index of its first box.
#[derive(Debug)]
pub(super) struct Dense {
    cells: Cells,
    /// `width * height + 1` indices: cell `i`'s boxes are `items[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    items: Vec<Item>,
}

impl Dense {
    /// The index of `list`, or `None` for an empty list or boxes too large for cells of `f32`.
    pub(super) fn build(list: &[Entry]) -> Option<Dense> {
        let first = list.first()?;
        let (mut lo, mut hi) = (first.aabb.min(), first.aabb.min());
        let mut reach = (0.0f64, 0.0f64);
        for e in list {
            let (min, max) = (e.aabb.min(), e.aabb.max());
            (lo, hi) = (lo.min(min), hi.max(min));
            let (dmin, dmax) = (min.as_dvec2(), max.as_dvec2());
            reach = (reach.0.max(dmax.x - dmin.x), reach.1.max(dmax.y - dmin.y));
        }
        // The smallest power of two at least the widest box (and a normal `f32`), then coarser
        // while the cells would be more than four per box.
        let mut size = f64::from(f32::MIN_POSITIVE);
        while size < reach.0.max(reach.1) / 2.0 {
            size *= 2.0;
        }
        loop {
            let inv = (1.0 / size) as f32;
            if !(size <= f64::from(f32::MAX) && inv > 0.0 && inv.is_finite()) {
                return None;
            }
            let (x0, y0) = (cell_of(lo.x, inv), cell_of(lo.y, inv));
            let (x1, y1) = (cell_of(hi.x, inv), cell_of(hi.y, inv));
            let (width, height) = (
                i64::from(x1) - i64::from(x0) + 1,
                i64::from(y1) - i64::from(y0) + 1,
            );
            if width.saturating_mul(height) <= 4 * list.len() as i64 + 64 {
                // Whole cells covering the widest box (exact: `size` is a power of two).
                let cover = |reach: f64| {
                    let mut k = 0;
                    while f64::from(k) * size < reach {
                        k += 1;
                    }
                    k
                };
                // The clamps, `x1 + before + 1` and `x0 - 1` (and on `y`), exact as `f32`
                // far from `2^24` cells (else no index: the lists are searched instead).
                let exact = |v: i32| v.unsigned_abs() < 1 << 23;
                if ![x0, y0, x1, y1].into_iter().all(exact) {
                    return None;
                }
                let (x0_before, y0_before) = (x0 + cover(reach.0), y0 + cover(reach.1));
                let cells = Cells {
                    inv,
                    x0,
                    y0,
                    width,
                    height,
                    x0_before,
                    y0_before,
                    clamp_lo: IVec4::new(x0_before, y0_before, x0 - 1, y0 - 1).as_vec4(),
                    clamp_hi: IVec4::new(x1 + 1 + x0_before - x0, y1 + 1 + y0_before - y0, x1, y1)
                        .as_vec4(),
                };
                return Some(Dense::fill(first, list, cells));
            }
            size *= 2.0;
        }
    }

    /// The index of `list` in `cells`, where every box starts.
    fn fill(first: &Entry, list: &[Entry], cells: Cells) -> Dense {
        let Cells {
            inv,
            x0,
            y0,
            width,
            height,
            ..
        } = cells;
        let cell = |e: &Entry| {
            let min = e.aabb.min();
            let (x, y) = (cell_of(min.x, inv), cell_of(min.y, inv));
            ((i64::from(y) - i64::from(y0)) * width + (i64::from(x) - i64::from(x0))) as usize
        };
        // A counting sort by cell, then each cell's few boxes by `min x` (then slot).
        let mut starts = alloc::vec![0u32; (width * height) as usize + 1];
        for e in list {
            starts[cell(e) + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut at = starts.clone();
        // Every place is written by the scatter; the list's first entry fills them until then.
        let blank = Item {
            aabb: first.aabb,
            slot: first.slot,
        };
        let mut items = alloc::vec![blank; list.len()];
        for e in list {
            let c = cell(e);
            items[at[c] as usize] = Item {
                aabb: e.aabb,
                slot: e.slot,
            };
            at[c] += 1;
        }
        for w in starts.windows(2) {
            items[w[0] as usize..w[1] as usize]
                .sort_unstable_by_key(|i| (super::cells::ordered(i.aabb.min().x), i.slot));
        }
        Dense {
            cells,
            starts,
            items,
        }
    }

    /// The cells where a box overlapping `b` can start, within the index: its rows, and in
    /// each row its columns, as inclusive ranges counted from the index's first cell; `None`
    /// when there is none. `before` whole cells cover every box listed, so one that reaches `b`
    /// starts at most that many cells before `b` does: from `max(cell(min) - before, x0)` to
    /// `min(cell(max), x1)` (and on `y`). The cells are a power of two wide, so `x * inv` is
    /// exact (or saturates), and `floor` commutes with a clamp to integers: `b`'s corners in
    /// cells are clamped first (`clamp_lo`, `clamp_hi`, just past the range so a box beyond
    /// it still finds none), then floored, all four in one vector, with no bound left to
    /// take in integers (SSE2 has no 32-bit `min` or `max`: they compiled to emulations).
    #[inline]
    fn reaching(&self, b: &Aabb) -> Option<((usize, usize), (usize, usize))> {
        let c = &self.cells;
        let corners = Vec4::new(b.min().x, b.min().y, b.max().x, b.max().y) * c.inv;
        let clamped = corners.max(c.clamp_lo).min(c.clamp_hi);
        let [lx, ly, hx, hy] = cells4(clamped.to_array(), 1.0);
        // From the first cell: `max(cell(min), x0 + before) - before - x0`, and so on.
        let (x_lo, y_lo) = (lx - c.x0_before, ly - c.y0_before);
        let (x_hi, y_hi) = (hx - c.x0, hy - c.y0);
        (x_lo <= x_hi && y_lo <= y_hi).then_some((
            (y_lo as usize, y_hi as usize),
            (x_lo as usize, x_hi as usize),
        ))
    }

    /// [`Dense::reaching`] of `b` as a [`Span`].
    #[inline]
    fn span(&self, b: &Aabb) -> Span {
        match self.reaching(b) {
            Some((rows, columns)) => Span {
                at: rows.0 * self.cells.width as usize + columns.0,
                rows: rows.1 - rows.0 + 1,
                count: columns.1 - columns.0 + 1,
            },
            None => Span::default(),
        }
    }

    /// The boxes starting in the `count` cells from cell `at` (of one row of
    /// [`Dense::reaching`]): consecutive cells of a row are consecutive in `items`, sorted by
    /// `min x`.
    #[inline]
    fn cells(&self, at: usize, count: usize) -> &[Item] {
        &self.items[self.starts[at] as usize..self.starts[at + count] as usize]
    }
}

/// The cells of [`Dense::reaching`] as [`cross_pairs_dense`] walks them: `rows` rows (none when
/// nothing is in reach) of `count` cells from cell `at`.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    at: usize,
    rows: usize,
    count: usize,
}

/// How many movers ahead [`cross_pairs_dense`] finds a mover's cells and fetches their starts.
const AHEAD: usize = 8;

/// [`cross_pairs`](super::sweep::cross_pairs) with the static list read from its index: each
/// object of `a` against the boxes starting in the cells its box can be reached from.
pub(super) fn cross_pairs_dense(a: &[Entry], dense: &Dense, sink: &mut Sink<'_>) {
    // Each mover's cells found `AHEAD` movers early, their starts fetched then, and the first
    // boxes of their rows half way: the lines are on their way while earlier movers are tested.
    let mut ring = [Span::default(); 2 * AHEAD];
    for (j, q) in a.iter().enumerate().take(AHEAD) {
        ring[j] = dense.span(&q.aabb);
    }
    let width = dense.cells.width as usize;
    for (i, p) in a.iter().enumerate() {
        if sink.full() {
            break;
        }
        if let Some(q) = a.get(i + AHEAD) {
            let span = dense.span(&q.aabb);
            ring[(i + AHEAD) % (2 * AHEAD)] = span;
            for r in 0..span.rows {
                prefetch(&dense.starts[span.at + r * width]);
            }
        }
        // (Past the end of `a`, an older mover's: still cells of the index.)
        let half = ring[(i + AHEAD / 2) % (2 * AHEAD)];
        for r in 0..half.rows {
            if let Some(item) = dense.items.get(dense.starts[half.at + r * width] as usize) {
                prefetch(item);
            }
        }
        let Span {
            mut at,
            rows,
            count,
        } = ring[i % (2 * AHEAD)];
        // A box misses `p` when `min > p's max` or `max < p's min`: two four-lane compares
        // (the lanes that do not matter compare against infinities; boxes are finite).
        let (lo, hi) = (p.aabb.min(), p.aabb.max());
        let below = Vec4::new(hi.x, hi.y, f32::INFINITY, f32::INFINITY);
        let above = Vec4::new(f32::NEG_INFINITY, f32::NEG_INFINITY, lo.x, lo.y);
        // Row by row, from the first cell of the first row.
        let slot = p.slot;
        for _ in 0..rows {
            // Each box of the row's cells is tested, past the mover's right side too: the
            // cells end there, and a test costs less than the branch that would stop early.
            let items = dense.cells(at, count);
            at += width;
            // A row of cells is often empty (a third of them in a level of tiles).
            if items.is_empty() {
                continue;
            }
            let room = sink.room(items.len());
            let mut kept = 0;
            for e in items {
                room[kept] = (slot, e.slot);
                let (min, max) = (e.aabb.min(), e.aabb.max());
                let v = Vec4::new(min.x, min.y, max.x, max.y);
                kept += usize::from(!(v.cmpgt(below) | v.cmplt(above)).any());
            }
            sink.keep(kept);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    fn entry(slot: u32, min: Vec2, size: Vec2) -> Entry {
        Entry {
            order: 0,
            slot,
            cx: 0,
            aabb: Aabb::raw(min, min + size),
        }
    }

    #[test]
    fn movers_meet_exactly_the_static_boxes_they_overlap() {
        let mut x = 12345u32;
        let mut next = |n: u32| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 8) % n
        };
        // Static boxes on integer and half-integer coordinates (so many only touch), of sizes
        // 0 to 3, dense and sparse (coarser cells), near the origin and far from it, and movers
        // over the same ground.
        for (spread, offset, scale) in [(20, 0.0, 1.0), (200, -3.0, 0.5), (60, 1.0e6, 2.0)] {
            let point = |next: &mut dyn FnMut(u32) -> u32| {
                Vec2::new(next(spread) as f32, next(spread) as f32) * scale
                    - Vec2::splat(spread as f32 * scale / 2.0)
                    + Vec2::splat(offset)
            };
            let statics: Vec<Entry> = (0..300)
                .map(|i| {
                    let size = Vec2::new(next(7) as f32, next(7) as f32) * 0.5;
                    entry(i, point(&mut next), size)
                })
                .collect();
            let movers: Vec<Entry> = (0..200)
                .map(|i| {
                    let size = Vec2::new(next(9) as f32, next(9) as f32) * 0.5;
                    entry(1000 + i, point(&mut next), size)
                })
                .collect();
            let dense = Dense::build(&statics).unwrap();
            let mut got = Vec::new();
            pairs_of(&movers, &dense, &mut got);
            got.sort_unstable();
            let mut want: Vec<(u32, u32)> = movers
                .iter()
                .flat_map(|m| {
                    statics
                        .iter()
                        .filter(|s| s.aabb.overlaps(&m.aabb))
                        .map(|s| (s.slot, m.slot))
                })
                .collect();
            want.sort_unstable();
            assert!(want.len() > 20, "{spread}: {}", want.len());
            assert_eq!(got, want, "spread {spread}");
        }
        // Points only (no width): the smallest cells, made coarser until few.
        let statics: Vec<Entry> = (0..64)
            .map(|i| entry(i, Vec2::new(i as f32, (i % 8) as f32) * 1e-3, Vec2::ZERO))
            .collect();
        let dense = Dense::build(&statics).unwrap();
        let mover = entry(99, Vec2::new(0.004, 0.0), Vec2::splat(0.002));
        check_one_mover(&statics, &dense, &mover, "points");
    }

    /// [`cross_pairs_dense`] into `out`, over its old contents.
    fn pairs_of(movers: &[Entry], dense: &Dense, out: &mut Vec<(u32, u32)>) {
        let mut sink = Sink::new(out, usize::MAX);
        cross_pairs_dense(movers, dense, &mut sink);
        sink.finish();
    }

    /// Checks that the candidates of `mover` from the index are the static boxes it overlaps.
    fn check_one_mover(statics: &[Entry], dense: &Dense, mover: &Entry, what: &str) {
        let mut got = Vec::new();
        pairs_of(core::slice::from_ref(mover), dense, &mut got);
        got.sort_unstable();
        let want: Vec<(u32, u32)> = statics
            .iter()
            .filter(|s| s.aabb.overlaps(&mover.aabb))
            .map(|s| (s.slot, mover.slot))
            .collect();
        assert_eq!(got, want, "{what}");
    }

    #[test]
    fn movers_beside_around_and_far_from_the_index_meet_what_they_overlap() {
        // A 10 x 10 block of unit boxes 2 apart, from (0, 0) to (19, 19).
        let statics: Vec<Entry> = (0..100)
            .map(|i| {
                entry(
                    i,
                    Vec2::new((i % 10) as f32, (i / 10) as f32) * 2.0,
                    Vec2::ONE,
                )
            })
            .collect();
        let dense = Dense::build(&statics).unwrap();
        let far = 1.0e30;
        // Touching the block from each side, beside it, around all of it, and far away (cells
        // that saturate `i32`).
        let movers = [
            (Vec2::new(-1.0, 4.0), Vec2::ONE),
            (Vec2::new(19.0, 18.5), Vec2::ONE),
            (Vec2::new(7.0, -1.0), Vec2::ONE),
            (Vec2::new(3.0, 19.0), Vec2::splat(5.0)),
            (Vec2::new(-3.0, -3.0), Vec2::splat(1.5)),
            (Vec2::new(-5.0, -5.0), Vec2::splat(40.0)),
            (Vec2::splat(-far), Vec2::splat(far)),
            (Vec2::splat(far), Vec2::ONE),
            (Vec2::new(-far, 5.0), Vec2::ONE),
        ];
        for (k, (min, size)) in movers.into_iter().enumerate() {
            let mover = entry(500 + k as u32, min, size);
            check_one_mover(&statics, &dense, &mover, &alloc::format!("mover {k}"));
        }
    }
}
