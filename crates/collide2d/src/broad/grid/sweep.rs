//! Candidate pairs from sorted lists: sweeps on `x` along each row and between neighbouring
//! rows of one list, and the 3x3 cells around each cell for two lists.

use super::cells::{key, unkey, Entry};
use crate::shape::Aabb;
use alloc::vec::Vec;
use glam::Vec4;

/// Overlapping pairs within one sorted list: a sweep on `x` along each row (entries are sorted by
/// `min x` within a row), then a merged sweep of each row with the row above. An object spans
/// at most its row and the next, so no other pair can overlap; each pair is tested once, and
/// only when the boxes already overlap on `x`. Stops soon after the sink is full.
pub(super) fn self_pairs(list: &[Entry], sink: &mut Sink<'_>) {
    let n = list.len();
    let mut below = 0..0;
    let mut start = 0;
    while start < n && !sink.full() {
        let row = list[start].row();
        let end = row_end(list, start);
        let run = &list[start..end];
        sweep_one(run, sink);
        if !below.is_empty() && list[below.start].row() + 1 == row {
            sweep_two(&list[below], run, sink);
        }
        below = start..end;
        start = end;
    }
}

/// The end of the run of `list[start]`'s row: a [`gallop`] to the next row's first key, as
/// rows hold hundreds of entries in large worlds, which a scan would compare one by one.
pub(super) fn row_end(list: &[Entry], start: usize) -> usize {
    let next = list[start].row() + 1;
    if next > u64::from(u32::MAX) {
        // The last row there can be.
        return list.len();
    }
    gallop(list, start, next << 32)
}

/// The column range of a sorted list, `(i32::MAX, i32::MIN)` when empty: from the first and
/// last entry of each row (columns grow with `min x` along a row), so per row, not per entry.
pub(super) fn column_range(list: &[Entry]) -> (i32, i32) {
    let (mut c0, mut c1) = (i32::MAX, i32::MIN);
    let mut start = 0;
    while start < list.len() {
        let end = row_end(list, start);
        (c0, c1) = (c0.min(list[start].cx), c1.max(list[end - 1].cx));
        start = end;
    }
    (c0, c1)
}

/// The pairs within one row's run, sorted by `min x`: each entry against those starting before it
/// ends.
#[inline]
pub(super) fn sweep_one(run: &[Entry], sink: &mut Sink<'_>) {
    sink.reserve(2 * run.len());
    for (i, a) in run.iter().enumerate() {
        // Checked per entry: a crowded row finds as many pairs as its entries, squared.
        if sink.full() {
            return;
        }
        let others = &run[i + 1..];
        sink.test_starting_before_end(a, others, others.len());
    }
}

/// The pairs between two runs sorted by `min x`: whichever starts first meets the other run's
/// entries starting before it ends.
#[inline]
pub(super) fn sweep_two(a: &[Entry], b: &[Entry], sink: &mut Sink<'_>) {
    sink.reserve(2 * (a.len() + b.len()));
    let (mut p, mut q) = (0, 0);
    while p < a.len() && q < b.len() && !sink.full() {
        // Which list goes next is a coin toss, so it must compile to conditional moves, not a
        // branch: `min x` compared as the ordered bits in the entries' keys (integers; a float
        // selection becomes a branch on baseline x86-64).
        let take_a = a[p].order as u32 <= b[q].order as u32;
        let (x, others) = if take_a {
            (&a[p], &b[q..])
        } else {
            (&b[q], &a[p..])
        };
        p += usize::from(take_a);
        q += usize::from(!take_a);
        sink.test_starting_before_end(x, others, (a.len() - p) + (b.len() - q));
    }
}

/// Writes candidate pairs without a branch per test: every test writes, and only an overlap
/// advances the length (the writes land in space reserved beforehand).
///
/// It writes over `buf`'s old contents from the start, and [`finish`](Self::finish) cuts `buf`
/// to the pairs found: `buf` keeps its length from one update to the next, so the room made
/// for the tests is not zero-filled again each update (as it was when `buf` was cleared
/// first and grown back).
pub(super) struct Sink<'a> {
    buf: &'a mut Vec<(u32, u32)>,
    len: usize,
    /// How many pairs `buf` may hold before the sweeps stop.
    limit: usize,
}

impl<'a> Sink<'a> {
    pub(super) fn new(buf: &'a mut Vec<(u32, u32)>, limit: usize) -> Sink<'a> {
        Sink { buf, len: 0, limit }
    }

    /// True once `limit` pairs are found.
    #[inline]
    pub(super) fn full(&self) -> bool {
        self.len >= self.limit
    }

    /// Room for `k` more tests.
    #[inline]
    pub(super) fn reserve(&mut self, k: usize) {
        if self.buf.len() < self.len + k {
            self.grow(k);
        }
    }

    /// Grows `buf` by an eighth (zero-filled), not double: `buf` starts an update as long as
    /// the last update's pairs, so an update finding a few more would fill as many again.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, k: usize) {
        let grow = (self.len + k)
            .max(self.buf.len() + self.buf.len() / 8)
            .max(64);
        self.buf.resize(grow, (0, 0));
    }

    /// The next `k` places, after making room for them: write candidates there from the
    /// front, then [`keep`](Self::keep) how many.
    #[inline]
    pub(super) fn room(&mut self, k: usize) -> &mut [(u32, u32)] {
        self.reserve(k);
        &mut self.buf[self.len..self.len + k]
    }

    /// Keeps the first `n` pairs written to [`room`](Self::room).
    #[inline]
    pub(super) fn keep(&mut self, n: usize) {
        self.len += n;
    }

    /// Keeps `(a, b)` when their boxes overlap (room made by the caller); `finish` orders
    /// the slots.
    #[inline]
    pub(super) fn test(&mut self, a: &Entry, b: &Entry) {
        self.test_boxes(a.slot, &a.aabb, b.slot, &b.aabb);
    }

    /// [`Sink::test`] of slots `a` and `b` with boxes `box_a` and `box_b`.
    #[inline]
    pub(super) fn test_boxes(&mut self, a: u32, box_a: &Aabb, b: u32, box_b: &Aabb) {
        self.buf[self.len] = (a, b);
        self.len += usize::from(box_a.overlaps(box_b));
    }

    /// [`Sink::test`] of `a` against the first of `others` (sorted by `min x`, none starting
    /// before `a`) that start on `x` before `a` ends.
    ///
    /// Whether the next entry starts before `a` ends is a coin toss, which a branch mispredicts
    /// half the time: the first two are tested whatever their start (the start joins the test),
    /// and the loop past them runs only when the second starts before `a` ends (seldom). The
    /// sweep made room for two tests per step; `steps_after` is how many steps it has left.
    #[inline(always)]
    fn test_starting_before_end(&mut self, a: &Entry, others: &[Entry], steps_after: usize) {
        let right = a.aabb.max().x;
        // `min x <= right`, `min y <= a's max y` and `max y >= a's min y` as two four-lane
        // compares (the lanes that do not matter compare against infinities).
        let below = Vec4::new(right, a.aabb.max().y, f32::INFINITY, f32::INFINITY);
        let above = Vec4::new(
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            a.aabb.min().y,
        );
        let hits = |b: &Entry| {
            let v = Vec4::new(
                b.aabb.min().x,
                b.aabb.min().y,
                b.aabb.max().x,
                b.aabb.max().y,
            );
            (v.cmple(below) & v.cmpge(above)).all()
        };
        let test = |sink: &mut Sink<'_>, b: &Entry| {
            sink.buf[sink.len] = (a.slot, b.slot);
            sink.len += usize::from(hits(b));
        };
        match others {
            [first, second, rest @ ..] => {
                // Room for these two was made by the sweep (two per step); the loop past them
                // makes room for itself and for the steps after this one, whose room it may use.
                test(self, first);
                test(self, second);
                if second.aabb.min().x <= right {
                    self.reserve(rest.len() + 2 * steps_after);
                    for b in rest.iter().take_while(|b| b.aabb.min().x <= right) {
                        test(self, b);
                    }
                }
            }
            [only] => test(self, only),
            [] => {}
        }
    }

    /// `buf` cut to the pairs found, each as `(lower slot, higher slot)`.
    pub(super) fn finish(self) {
        self.buf.truncate(self.len);
        for p in self.buf.iter_mut() {
            *p = (p.0.min(p.1), p.0.max(p.1));
        }
    }
}

/// Overlapping pairs between two sorted lists: each cell of `a` against the 3x3 cells around it
/// in `b`, found by galloping search (cost grows with `a`, and only logarithmically with `b`).
pub(super) fn cross_pairs(a: &[Entry], b: &[Entry], sink: &mut Sink<'_>) {
    // One cursor per row of `b` (below, same, above); each only moves forward.
    let mut cursors = [0usize; 3];
    let mut i = 0;
    while i < a.len() && !sink.full() {
        let k = a[i].key();
        let mut j = i + 1;
        while j < a.len() && a[j].key() == k {
            j += 1;
        }
        let (cx, cy) = unkey(k);
        for (d, cursor) in cursors.iter_mut().enumerate() {
            let row = match d {
                0 => cy.checked_sub(1),
                1 => Some(cy),
                _ => cy.checked_add(1),
            };
            let Some(row) = row else { continue };
            let lo = key(cx.saturating_sub(1), row);
            let hi = key(cx.saturating_add(1), row);
            *cursor = gallop(b, *cursor, lo);
            for e in b[*cursor..].iter().take_while(|e| e.key() <= hi) {
                if sink.full() {
                    break;
                }
                sink.reserve(j - i);
                for p in &a[i..j] {
                    sink.test(p, e);
                }
            }
        }
        i = j;
    }
}

/// The first index at or after `from` whose key is `>= key`, by doubling steps then bisection.
pub(super) fn gallop(v: &[Entry], from: usize, key: u64) -> usize {
    let mut step = 1;
    let mut lo = from;
    while lo + step < v.len() && v[lo + step].key() < key {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step + 1).min(v.len());
    lo + v[lo..hi].partition_point(|e| e.key() < key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::Aabb;

    /// Entries in the given rows, one each, slots and `min x` bits in order, column 0.
    fn in_rows(rows: &[u64]) -> Vec<Entry> {
        let b = Aabb::raw(Vec2::ZERO, Vec2::ZERO);
        rows.iter()
            .enumerate()
            .map(|(i, &r)| Entry {
                order: r << 32 | i as u64,
                slot: i as u32,
                cx: 0,
                aabb: b,
            })
            .collect()
    }

    #[test]
    fn row_end_and_column_range_walk_the_rows() {
        // Rows of 1, 2, 3, 7, 1 and 40 entries.
        let rows: Vec<u64> = [1usize, 2, 3, 7, 1, 40]
            .iter()
            .enumerate()
            .flat_map(|(r, &len)| core::iter::repeat_n(r as u64 * 5, len))
            .collect();
        let list = in_rows(&rows);
        assert_eq!(column_range(&[]), (i32::MAX, i32::MIN));
        // Columns grow along each row, as `min x` does.
        let mut sorted = list.clone();
        for (i, e) in sorted.iter_mut().enumerate() {
            e.cx = (i as i32 * 7) % 11 + e.row() as i32 - 20 + (i as i32 / 3);
        }
        for run in sorted.chunk_by_mut(|a, b| a.row() == b.row()) {
            run.sort_unstable_by_key(|e| e.cx);
        }
        let want = sorted
            .iter()
            .map(|e| e.cx)
            .fold((i32::MAX, i32::MIN), |(a, b), c| (a.min(c), b.max(c)));
        assert_eq!(column_range(&sorted), want);
        for start in 0..list.len() {
            let want = start
                + list[start..]
                    .iter()
                    .take_while(|e| e.row() == list[start].row())
                    .count();
            assert_eq!(row_end(&list, start), want, "{start}");
        }
        // The last two rows there can be.
        let top = u64::from(u32::MAX);
        let last = in_rows(&[top - 1, top - 1, top, top, top]);
        let ends: Vec<usize> = (0..last.len()).map(|i| row_end(&last, i)).collect();
        assert_eq!(ends, [2, 2, 5, 5, 5]);
    }

    #[test]
    fn gallop_finds_the_first_key_not_below() {
        let b = Aabb::raw(Vec2::ZERO, Vec2::ZERO);
        let v: Vec<Entry> = (0..50u64)
            .map(|k| Entry {
                order: 0,
                slot: 0,
                cx: ((k * 2) as u32 ^ 0x8000_0000) as i32,
                aabb: b,
            })
            .collect();
        for from in [0, 3, 49] {
            for key in 0..110u64 {
                let want = v.partition_point(|e| e.key() < key).max(from);
                assert_eq!(gallop(&v, from, key), want, "{from} {key}");
            }
        }
    }
}
