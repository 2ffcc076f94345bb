//! A static list's cells indexed densely, so moving objects find the static ones near them
//! without searching: a level of 100,000 tiles costs a mover two reads per row it looks at,
//! where a galloping search in the sorted list missed the cache a dozen times.
//!
//! Built only for lists of static objects (which change seldom) and only when the list's cell
//! range is not much larger than the list, so a sparse level keeps the search instead.
//!
//! The index also knows its widest and tallest box: a mover then reads only the cells whose
//! objects can reach its box (on average fewer than 3 of the 3x3 around its cell when the
//! objects are about half a cell wide), not every neighbour cell.

use super::cells::{cell_of, key, unkey, Entry};
use super::sweep::Sink;
use crate::math::Vec2;
use alloc::vec::Vec;
use core::ops::Range;

/// For each cell of a list's range, row by row, the index of its first entry.
#[derive(Debug)]
pub(super) struct Dense {
    x0: i64,
    y0: i64,
    width: i64,
    height: i64,
    /// `width * height + 1` indices: cell `i`'s entries are `starts[i]..starts[i + 1]`.
    starts: Vec<u32>,
    /// The largest width and height of the boxes listed (in `f64`: exact differences).
    reach: (f64, f64),
}

impl Dense {
    /// The index of a sorted `list` whose columns span `columns`, or `None` when it would hold
    /// more than four cells per entry.
    pub(super) fn build(list: &[Entry], columns: (i32, i32)) -> Option<Dense> {
        let (first, last) = (list.first()?, list.last()?);
        let (y0, y1) = (
            i64::from(unkey(first.key()).1),
            i64::from(unkey(last.key()).1),
        );
        let (x0, x1) = (i64::from(columns.0), i64::from(columns.1));
        let (width, height) = (x1 - x0 + 1, y1 - y0 + 1);
        if width <= 0 || width.saturating_mul(height) > 4 * list.len() as i64 + 64 {
            return None;
        }
        let mut starts = Vec::with_capacity((width * height) as usize + 1);
        let mut at = 0;
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let k = key(cx as i32, cy as i32);
                while at < list.len() && list[at].key() < k {
                    at += 1;
                }
                starts.push(at as u32);
            }
        }
        starts.push(list.len() as u32);
        let reach = list.iter().fold((0.0f64, 0.0f64), |(w, h), e| {
            let (lo, hi) = (e.aabb.min().as_dvec2(), e.aabb.max().as_dvec2());
            (w.max(hi.x - lo.x), h.max(hi.y - lo.y))
        });
        Some(Dense {
            x0,
            y0,
            width,
            height,
            starts,
            reach,
        })
    }

    /// The entries keyed in row `cy`, columns `cx0..=cx1`: consecutive cells of a row are
    /// consecutive in the list.
    fn range(&self, cx0: i64, cx1: i64, cy: i64) -> Range<usize> {
        let (row, lo, hi) = (
            cy - self.y0,
            cx0.max(self.x0),
            cx1.min(self.x0 + self.width - 1),
        );
        if row < 0 || row >= self.height || lo > hi {
            return 0..0;
        }
        let at = (row * self.width + lo - self.x0) as usize;
        let end = at + (hi - lo) as usize + 1;
        self.starts[at] as usize..self.starts[end] as usize
    }
}

/// The cell (of cells `1 / inv` wide) of every coordinate at or above `x - reach`: an object
/// of `b` whose box ends at or after `x` starts at or after `x - reach`, and so in this cell or
/// a later one ([`cell_of`] never decreases). The difference is rounded down (in `f64`, with a
/// margin over its rounding, then to the `f32` at or below it), so the cell is never too late.
fn first_cell_reaching(x: f32, reach: f64, inv: f32) -> i64 {
    let low = f64::from(x) - reach;
    let low = low - (f64::from(x).abs() + reach) * 1e-12 - f64::from(f32::MIN_POSITIVE);
    let mut f = low as f32;
    if f64::from(f) > low {
        f = f.next_down();
    }
    i64::from(cell_of(f, inv))
}

/// [`cross_pairs`](super::sweep::cross_pairs) with `b`'s cells read from its index: each cell
/// of `a` against the cells around it in `b` (of the 3x3) that `b`'s boxes, at most
/// `dense.reach` wide and tall, can reach from the cell's objects' boxes; cells are `1 / inv`
/// wide.
pub(super) fn cross_pairs_dense(
    a: &[Entry],
    b: &[Entry],
    dense: &Dense,
    inv: f32,
    out: &mut Vec<(u32, u32)>,
    limit: usize,
) {
    let mut sink = Sink::new(out, limit);
    let mut i = 0;
    while i < a.len() && !sink.full() {
        let k = a[i].key();
        let mut j = i + 1;
        while j < a.len() && a[j].key() == k {
            j += 1;
        }
        let (cx, cy) = unkey(k);
        let (cx, cy) = (i64::from(cx), i64::from(cy));
        // The cell's objects' extent: `b`'s objects starting right of or above it, or ending
        // left of or below it, are in cells not read.
        let (lo, hi) = a[i..j]
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.aabb.min()), hi.max(p.aabb.max()))
            });
        let right = hi.x;
        let (x0, x1) = (
            first_cell_reaching(lo.x, dense.reach.0, inv).max(cx - 1),
            i64::from(cell_of(hi.x, inv)).min(cx + 1),
        );
        let (y0, y1) = (
            first_cell_reaching(lo.y, dense.reach.1, inv).max(cy - 1),
            i64::from(cell_of(hi.y, inv)).min(cy + 1),
        );
        for row in y0..=y1 {
            // One row's cells in a row of the list: sorted by `min x`, so the entries starting
            // right of the cell's objects end the row.
            for e in b[dense.range(x0, x1, row)]
                .iter()
                .take_while(|e| e.aabb.min().x <= right)
            {
                sink.reserve(j - i);
                for p in &a[i..j] {
                    sink.test(p, e);
                }
            }
        }
        i = j;
    }
    sink.finish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Aabb;

    #[test]
    fn a_range_holds_exactly_the_entries_of_its_cells() {
        // Entries in a scattered set of cells, sorted by key.
        let b = Aabb::raw(Vec2::ZERO, Vec2::ZERO);
        let mut list: Vec<Entry> = (0..60u32)
            .map(|i| {
                let (cx, cy) = ((i * 7 % 11) as i32 - 3, (i * 5 % 9) as i32 - 4);
                Entry {
                    order: key(0, cy) & !0xffff_ffff | u64::from(cx as u32 ^ 0x8000_0000),
                    slot: i,
                    cx,
                    aabb: b,
                }
            })
            .collect();
        list.sort_unstable_by_key(Entry::order);
        let dense = Dense::build(&list, (-3, 7)).unwrap();
        for cy in -6..7i64 {
            for cx0 in -5..9i64 {
                for cx1 in cx0 - 1..cx0 + 3 {
                    let mut want: Vec<u32> = list
                        .iter()
                        .filter(|e| {
                            let (x, y) = unkey(e.key());
                            i64::from(y) == cy && (cx0..=cx1).contains(&i64::from(x))
                        })
                        .map(|e| e.slot)
                        .collect();
                    let mut got: Vec<u32> = list[dense.range(cx0, cx1, cy)]
                        .iter()
                        .map(|e| e.slot)
                        .collect();
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "row {cy}, columns {cx0}..={cx1}");
                }
            }
        }
    }
}
