//! A uniform grid kept as sorted lists, one per filter group: each object sits in the one cell
//! holding its box's `min` corner, and each list holds `(row, min x, slot)` sorted, so it is also
//! sorted by integer cell key (rows, then columns). Objects at most one cell wide and tall can
//! only overlap objects of their own row and the rows next to it, so pairs come from a sweep on
//! `x` along each row and a merged sweep of each row with the row above (sweep and prune in
//! strips one cell tall; the sort-based grid of Le Grand, GPU Gems 3 ch. 32, with one cell per
//! object as in Ericson, RTCD 7.1.6).
//!
//! Filtering happens before any pair is made: a group is swept against itself only when its
//! filter accepts itself, and two groups against each other only when compatible, so a bullet
//! layer that ignores itself is never swept at all. Lists are refreshed each update in one pass
//! that re-keys every entry and insertion-sorts as it goes (linear when objects move a little);
//! objects that changed rows are set aside, sorted and merged back, so they do not each move
//! past a whole row (with a fallback to a full sort when the insertion sort does too much). An
//! object spanning more than two cells on an axis (a long wall, or a fast object's swept box)
//! goes to a side list: those are tested against each other by a sweep on `x` per pair of
//! compatible groups, and against the lists by searching the rows they cover.

use super::{inverse_dir, ray_box, BroadBox, BroadBoxKind, View};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use crate::world::Handle;
use glam::Vec4;

const NONE: u32 = u32::MAX;

/// One object in a list: its row and `min x` as one sort key, the column of its cell (the cell
/// of its box's `min` corner), its slot, and a copy of its box so the sweep reads memory in order.
/// Sorted by `order` (then slot), a list is also sorted by cell key, rows then columns, as the
/// column is a monotone function of `min x`.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The row, biased as in [`key`], in the high half; [`ordered`]`(min x)` in the low half.
    order: u64,
    slot: u32,
    /// The column.
    cx: i32,
    aabb: Aabb,
}

impl Entry {
    #[inline]
    fn order(&self) -> (u64, u32) {
        (self.order, self.slot)
    }

    /// The biased row: consecutive rows give consecutive values.
    #[inline]
    fn row(&self) -> u64 {
        self.order >> 32
    }

    /// The cell key, as [`key`].
    #[inline]
    fn key(&self) -> u64 {
        (self.order & !0xffff_ffff) | u64::from(self.cx as u32 ^ 0x8000_0000)
    }
}

/// The bits of `x` as an integer with the order of the floats (`-0.0` just below `0.0`).
#[inline]
fn ordered(x: f32) -> u32 {
    let b = x.to_bits();
    b ^ (((b as i32 >> 31) as u32) | 0x8000_0000)
}

#[derive(Debug)]
pub(crate) struct Grid {
    cell: f32,
    inv: f32,
    /// Sorted entries by group.
    lists: Vec<Vec<Entry>>,
    /// Whether some slot of the group changed since the last rebuild.
    group_dirty: Vec<bool>,
    /// Whether the group's list needs sorting.
    unsorted: Vec<bool>,
    /// Whether some member of the group was removed or moved to another group.
    evict: Vec<bool>,
    /// The column range of each list's keys, `(i32::MAX, i32::MIN)` when empty.
    columns: Vec<(i32, i32)>,
    /// The group whose list holds each slot, or `NONE` (also for large objects).
    member: Vec<u32>,
    /// Slots of objects wider or taller than a cell.
    large: Vec<u32>,
    /// The large objects as `(group, min x, slot)`, sorted, as of the last `sync`.
    large_order: Vec<(u32, f32, u32)>,
    /// The runs of one group in `large_order`: `(group, start, end, widest box on x)`.
    large_runs: Vec<(u32, usize, usize, f64)>,
    is_large: Vec<bool>,
    /// Scratch for [`refresh`].
    strays: Vec<Entry>,
    /// Changed slots in no list (new, large, removed) or that left one in this `sync`: the
    /// only ones that may join a list or the side list.
    pending: Vec<u32>,
    /// The occupied cell range `(x0, y0, x1, y1)` over all lists (objects reach one cell
    /// further right and up).
    extent: Option<(i32, i32, i32, i32)>,
}

/// The integer cell coordinate of `x`: `floor(x * inv)`, saturating at the `i32` range.
#[inline]
fn cell_of(x: f32, inv: f32) -> i32 {
    let t = x * inv;
    let i = t as i32;
    // One less where the cast rounded up (a negative non-integer), without a branch.
    i.saturating_sub(i32::from((i as f32) > t))
}

/// [`cell_of`] of both coordinates of `p`. On x86-64 as one SSE2 vector: truncate, then one less
/// where that rounded up; a lane the truncation could not represent (`i32::MIN`, also for NaN and
/// out-of-range values) takes the scalar path, so the results are [`cell_of`]'s exactly. The
/// scalar form spends most of its instructions on saturation, twice.
#[cfg(target_arch = "x86_64")]
#[inline]
fn cells_of(p: Vec2, inv: f32) -> (i32, i32) {
    // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 CPU runs `cells_of_sse2`.
    #[allow(unsafe_code)]
    let cells = unsafe { cells_of_sse2(p, inv) };
    cells.unwrap_or_else(|| (cell_of(p.x, inv), cell_of(p.y, inv)))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn cells_of_sse2(p: Vec2, inv: f32) -> Option<(i32, i32)> {
    use core::arch::x86_64::*;
    let t = _mm_mul_ps(_mm_set_ps(0.0, 0.0, p.y, p.x), _mm_set1_ps(inv));
    let i = _mm_cvttps_epi32(t);
    // The all-ones mask of a lane rounded up (negative non-integers) adds -1.
    let floor = _mm_add_epi32(i, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), t)));
    let invalid = _mm_movemask_epi8(_mm_cmpeq_epi32(i, _mm_set1_epi32(i32::MIN))) & 0xff;
    (invalid == 0).then(|| {
        (
            _mm_cvtsi128_si32(floor),
            _mm_cvtsi128_si32(_mm_shuffle_epi32(floor, 1)),
        )
    })
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn cells_of(p: Vec2, inv: f32) -> (i32, i32) {
    (cell_of(p.x, inv), cell_of(p.y, inv))
}

/// True when the box spans at most two cells on each axis: then any box overlapping it is keyed
/// within one cell of its key (`cell_of` is monotone), whatever the rounding.
#[inline]
fn fits(b: &Aabb, inv: f32) -> bool {
    let span = |lo: f32, hi: f32| i64::from(cell_of(hi, inv)) - i64::from(cell_of(lo, inv)) <= 1;
    span(b.min().x, b.max().x) && span(b.min().y, b.max().y)
}

/// The sort key of cell `(cx, cy)`: rows first, then columns, both in increasing order.
#[inline]
fn key(cx: i32, cy: i32) -> u64 {
    (u64::from(cy as u32 ^ 0x8000_0000) << 32) | u64::from(cx as u32 ^ 0x8000_0000)
}

#[inline]
fn unkey(k: u64) -> (i32, i32) {
    (
        (k as u32 ^ 0x8000_0000) as i32,
        ((k >> 32) as u32 ^ 0x8000_0000) as i32,
    )
}

/// Brings one group's list up to date in one pass: each entry's new key and box, leavers out
/// (their `member` set to `NONE`, their slot pushed on `leavers`), and an insertion sort as it
/// goes, linear when objects move a little. Objects that changed rows would move past a whole
/// row each: they are set aside in `strays`, sorted, and merged back in one pass. Returns false
/// when the insertion sort gave up after too many moves (the list then needs a full sort).
#[allow(clippy::too_many_arguments)]
fn refresh(
    list: &mut Vec<Entry>,
    view: &View<'_>,
    g: u32,
    check_group: bool,
    inv: f32,
    member: &mut [u32],
    strays: &mut Vec<Entry>,
    leavers: &mut Vec<u32>,
) -> bool {
    strays.clear();
    let mut out = Refreshed {
        strays,
        leavers,
        member,
    };
    // Two copies of the loop: without evictions, no member's group needs reading.
    let (kept, sorted) = if check_group {
        rekey_all::<true>(list, view, g, inv, &mut out)
    } else {
        rekey_all::<false>(list, view, g, inv, &mut out)
    };
    list.truncate(kept);
    if sorted && !strays.is_empty() {
        strays.sort_unstable_by_key(Entry::order);
        merge_from_back(list, strays);
    } else {
        list.append(strays);
    }
    sorted
}

/// Where [`rekey_all`] puts what does not stay in place.
struct Refreshed<'a> {
    strays: &'a mut Vec<Entry>,
    leavers: &'a mut Vec<u32>,
    member: &'a mut [u32],
}

/// The loop of [`refresh`] over a slice (its length stays in a register): entries kept move
/// to the front, insertion-sorted until the budget of moves runs out, then only rekeyed.
/// Returns how many were kept and whether they are sorted (strays aside).
fn rekey_all<const CHECK_GROUP: bool>(
    list: &mut [Entry],
    view: &View<'_>,
    g: u32,
    inv: f32,
    out: &mut Refreshed<'_>,
) -> (usize, bool) {
    let mut budget = 8 * list.len() + 64;
    let (mut r, mut w) = (0, 0);
    while r < list.len() {
        let Some((e, moved_row)) = rekey::<CHECK_GROUP>(list[r], view, g, inv, out) else {
            r += 1;
            continue;
        };
        r += 1;
        if moved_row {
            out.strays.push(e);
            continue;
        }
        let mut j = w;
        while j > 0 && list[j - 1].order() > e.order() {
            list[j] = list[j - 1];
            j -= 1;
            budget = budget.saturating_sub(1);
        }
        list[j] = e;
        w += 1;
        if budget == 0 {
            // Given up: the rest only rekeyed, in place; the caller sorts.
            while r < list.len() {
                if let Some((e, _)) = rekey::<CHECK_GROUP>(list[r], view, g, inv, out) {
                    list[w] = e;
                    w += 1;
                }
                r += 1;
            }
            return (w, false);
        }
    }
    (w, true)
}

/// One entry's new key and box, and whether its row changed; `None` for a leaver (no longer
/// fitting a cell, or, with `CHECK_GROUP`, moved to another group), recorded in `out`.
#[inline(always)]
fn rekey<const CHECK_GROUP: bool>(
    mut e: Entry,
    view: &View<'_>,
    g: u32,
    inv: f32,
    out: &mut Refreshed<'_>,
) -> Option<(Entry, bool)> {
    let s = e.slot as usize;
    // Up to date: `sync` copied the box in.
    let b = e.aabb;
    let (x0, y0) = cells_of(b.min(), inv);
    // Corners less than a cell apart in cell units (a rounded difference below 1 is below
    // 1 exactly) floor at most one apart: most boxes need no floor of their far corner.
    let small =
        (b.max().x * inv - b.min().x * inv < 1.0) & (b.max().y * inv - b.min().y * inv < 1.0);
    let fits = small
        || (i64::from(cell_of(b.max().x, inv)) - i64::from(x0) <= 1
            && i64::from(cell_of(b.max().y, inv)) - i64::from(y0) <= 1);
    if !fits || (CHECK_GROUP && view.groups[s] != g) {
        out.member[s] = NONE;
        out.leavers.push(e.slot);
        return None;
    }
    let row = key(0, y0) & !0xffff_ffff;
    let moved_row = row != e.order & !0xffff_ffff;
    e.order = row | u64::from(ordered(b.min().x));
    e.cx = x0;
    Some((e, moved_row))
}

/// Merges sorted `extra` into sorted `list`, moving each entry of `list` at most once: from the
/// back, each run of `list` between two of `extra` moves up in one block copy (far fewer
/// instructions than moving entry by entry when `extra` is short).
fn merge_from_back(list: &mut Vec<Entry>, extra: &[Entry]) {
    let Some(&filler) = extra.first() else {
        return;
    };
    let n = list.len();
    list.resize(n + extra.len(), filler);
    // `list[..end]` holds the entries not moved yet; those after `e` move up by `j + 1`.
    let mut end = n;
    for (j, e) in extra.iter().enumerate().rev() {
        let at = gallop_back(&list[..end], e.order());
        list.copy_within(at..end, at + j + 1);
        list[at + j] = *e;
        end = at;
    }
}

/// The first index of sorted `v` whose order is above `key`, by doubling steps back from the
/// end then bisection (the next entry to merge is usually close to the previous one).
fn gallop_back(v: &[Entry], key: (u64, u32)) -> usize {
    // Invariant: everything from `hi` on is above `key`.
    let (mut hi, mut step) = (v.len(), 1);
    while hi >= step && v[hi - step].order() > key {
        hi -= step;
        step *= 2;
    }
    let lo = hi.saturating_sub(step);
    lo + v[lo..hi].partition_point(|e| e.order() <= key)
}

/// Sorts nearly sorted entries by insertion; after `budget` element moves, finishes with a full
/// sort instead.
fn sort_entries(v: &mut [Entry]) {
    let mut budget = 8 * v.len() + 64;
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1].order() > x.order() {
            v[j] = v[j - 1];
            j -= 1;
            budget = budget.saturating_sub(1);
        }
        v[j] = x;
        if budget == 0 {
            v.sort_unstable_by_key(Entry::order);
            return;
        }
    }
}

impl Grid {
    pub(crate) fn new(cell: f32) -> Grid {
        Grid {
            cell,
            inv: 1.0 / cell,
            lists: Vec::new(),
            group_dirty: Vec::new(),
            unsorted: Vec::new(),
            evict: Vec::new(),
            columns: Vec::new(),
            member: Vec::new(),
            large: Vec::new(),
            large_order: Vec::new(),
            large_runs: Vec::new(),
            is_large: Vec::new(),
            strays: Vec::new(),
            pending: Vec::new(),
            extent: None,
        }
    }

    #[inline]
    fn fits(&self, b: &Aabb) -> bool {
        fits(b, self.inv)
    }

    /// Brings the lists up to date with the current boxes and groups.
    pub(crate) fn sync(&mut self, view: &View<'_>, changed: &[u32]) {
        let slots = view.groups.len();
        self.member.resize(slots, NONE);
        self.is_large.resize(slots, false);
        while self.lists.len() < view.table.len() {
            self.lists.push(Vec::new());
            self.group_dirty.push(false);
            self.unsorted.push(false);
            self.evict.push(false);
            self.columns.push((i32::MAX, i32::MIN));
        }
        self.pending.clear();
        // Slices of one known length: one bounds check per slot for both.
        let (member, groups) = (&self.member[..slots], &view.groups[..slots]);
        let (dirty, evict) = (&mut self.group_dirty[..], &mut self.evict[..]);
        for &slot in changed {
            let s = slot as usize;
            let old = member[s];
            if old == NONE {
                self.pending.push(slot);
                continue;
            }
            dirty[old as usize] = true;
            if groups[s] != old {
                evict[old as usize] = true;
            }
        }
        // Refresh the lists of groups with changes: new keys, leavers out.
        for (g, list) in self.lists.iter_mut().enumerate() {
            if !self.group_dirty[g] {
                continue;
            }
            // Without evictions every member is still in the group: no need to read its group.
            let check_group = core::mem::take(&mut self.evict[g]);
            // The boxes into the entries first, in a loop with no branch, so their cache misses
            // (by slot, in list order) overlap; `refresh` then reads only the list.
            for e in list.iter_mut() {
                e.aabb = view.aabbs[e.slot as usize];
            }
            let sorted = refresh(
                list,
                view,
                g as u32,
                check_group,
                self.inv,
                &mut self.member,
                &mut self.strays,
                &mut self.pending,
            );
            self.unsorted[g] = !sorted;
        }
        // Large objects that are no longer large (or gone) leave the side list.
        let mut i = 0;
        while i < self.large.len() {
            let s = self.large[i] as usize;
            if view.groups[s] == NONE || self.fits(&view.aabbs[s]) {
                self.is_large[s] = false;
                self.large.swap_remove(i);
            } else {
                i += 1;
            }
        }
        // Newcomers, movers between groups, and objects that grew or shrank (the order does not
        // matter: lists are sorted below, the side list too).
        for &slot in &self.pending {
            let s = slot as usize;
            let g = view.groups[s];
            if g == NONE || self.member[s] != NONE || self.is_large[s] {
                continue;
            }
            if self.fits(&view.aabbs[s]) {
                let b = view.aabbs[s];
                let (x, y) = (cell_of(b.min().x, self.inv), cell_of(b.min().y, self.inv));
                self.unsorted[g as usize] = true;
                self.lists[g as usize].push(Entry {
                    order: key(0, y) & !0xffff_ffff | u64::from(ordered(b.min().x)),
                    slot,
                    cx: x,
                    aabb: b,
                });
                self.member[s] = g;
            } else {
                self.is_large[s] = true;
                self.large.push(slot);
            }
        }
        // Deterministic order for the side list; then the lists and their extent.
        self.large.sort_unstable();
        self.index_large(view);
        let mut extent: Option<(i32, i32, i32, i32)> = None;
        for (g, list) in self.lists.iter_mut().enumerate() {
            // Refreshed or given newcomers: the columns may have changed.
            let touched = core::mem::take(&mut self.group_dirty[g]) | self.unsorted[g];
            if core::mem::take(&mut self.unsorted[g]) {
                sort_entries(list);
            }
            if touched {
                self.columns[g] = column_range(list);
            }
            if let (Some(first), Some(last)) = (list.first(), list.last()) {
                let (_, y0) = unkey(first.key());
                let (_, y1) = unkey(last.key());
                let (x0, x1) = self.columns[g];
                let (x1, y1) = (x1.saturating_add(1), y1.saturating_add(1));
                extent = Some(match extent {
                    None => (x0, y0, x1, y1),
                    Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
                });
            }
        }
        self.extent = extent;
    }

    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>) {
        let groups = self.lists.len();
        for g in 0..groups {
            if self.lists[g].is_empty() {
                continue;
            }
            for h in g..groups {
                if self.lists[h].is_empty() || !view.table.compatible(g as u32, h as u32) {
                    continue;
                }
                if g == h {
                    self_pairs(&self.lists[g], out);
                } else {
                    // Walk the shorter list, search the longer one.
                    let (a, b) = if self.lists[g].len() <= self.lists[h].len() {
                        (&self.lists[g], &self.lists[h])
                    } else {
                        (&self.lists[h], &self.lists[g])
                    };
                    cross_pairs(a, b, out);
                }
            }
        }
        self.large_pairs(view, out);
        // Large objects against the lists: by searching the rows their box covers (or by scanning
        // the list when that is shorter).
        for &l in &self.large {
            let gl = view.groups[l as usize];
            let aabb_l = &view.aabbs[l as usize];
            // Keys that may overlap: one cell left of and below the box's own cells.
            let x0 = cell_of(aabb_l.min().x, self.inv).saturating_sub(1);
            let y0 = cell_of(aabb_l.min().y, self.inv).saturating_sub(1);
            let x1 = cell_of(aabb_l.max().x, self.inv);
            let y1 = cell_of(aabb_l.max().y, self.inv);
            let rows = i64::from(y1) - i64::from(y0) + 1;
            for (g, list) in self.lists.iter().enumerate() {
                if list.is_empty() || !view.table.compatible(gl, g as u32) {
                    continue;
                }
                let mut visit = |e: &Entry| {
                    if aabb_l.overlaps(&e.aabb) {
                        out.push((l.min(e.slot), l.max(e.slot)));
                    }
                };
                if rows * 8 > list.len() as i64 {
                    list.iter().for_each(&mut visit);
                } else {
                    let mut at = 0;
                    for cy in y0..=y1 {
                        let (lo, hi) = (key(x0, cy), key(x1, cy));
                        at = gallop(list, at, lo);
                        list[at..]
                            .iter()
                            .take_while(|e| e.key() <= hi)
                            .for_each(&mut visit);
                    }
                }
            }
        }
    }

    /// Every cell holding an object (all groups together), by row then column, then the large
    /// objects by slot.
    pub(crate) fn boxes(
        &self,
        view: &View<'_>,
        handle: &dyn Fn(u32) -> Handle,
        out: &mut Vec<BroadBox>,
    ) {
        let mut keys: Vec<u64> = self.lists.iter().flatten().map(Entry::key).collect();
        keys.sort_unstable();
        let c = self.cell;
        for run in keys.chunk_by(|a, b| a == b) {
            let (x, y) = unkey(run[0]);
            let min = Vec2::new(x as f32 * c, y as f32 * c);
            out.push(BroadBox {
                aabb: Aabb::new_unchecked(min, min + c),
                kind: BroadBoxKind::Cell {
                    x,
                    y,
                    objects: run.len() as u32,
                },
            });
        }
        for &l in &self.large {
            out.push(BroadBox {
                aabb: view.aabbs[l as usize],
                kind: BroadBoxKind::Large { object: handle(l) },
            });
        }
    }

    /// The large objects against each other: sorted by group, then `min x`; each pair of
    /// compatible groups' runs is swept on `x`, so objects far apart on `x`, or of groups that
    /// ignore each other (bullets), cost no pair test.
    fn large_pairs(&self, view: &View<'_>, out: &mut Vec<(u32, u32)>) {
        let (order, runs) = (&self.large_order, &self.large_runs);
        let max_x = |e: &(u32, f32, u32)| view.aabbs[e.2 as usize].max().x;
        let mut test = |p: u32, q: u32| {
            if view.aabbs[p as usize].overlaps(&view.aabbs[q as usize]) {
                out.push((p.min(q), p.max(q)));
            }
        };
        for (r, &(g, i0, i1, _)) in runs.iter().enumerate() {
            for &(h, j0, j1, _) in &runs[r..] {
                if !view.table.compatible(g, h) {
                    continue;
                }
                if g == h {
                    let run = &order[i0..i1];
                    for (k, e) in run.iter().enumerate() {
                        let right = max_x(e);
                        for o in run[k + 1..].iter().take_while(|o| o.1 <= right) {
                            test(e.2, o.2);
                        }
                    }
                } else {
                    // Two sorted runs: whichever starts first meets the other's boxes starting
                    // before it ends.
                    let (a, b) = (&order[i0..i1], &order[j0..j1]);
                    let (mut p, mut q) = (0, 0);
                    while p < a.len() && q < b.len() {
                        if a[p].1 <= b[q].1 {
                            let right = max_x(&a[p]);
                            for o in b[q..].iter().take_while(|o| o.1 <= right) {
                                test(a[p].2, o.2);
                            }
                            p += 1;
                        } else {
                            let right = max_x(&b[q]);
                            for o in a[p..].iter().take_while(|o| o.1 <= right) {
                                test(b[q].2, o.2);
                            }
                            q += 1;
                        }
                    }
                }
            }
        }
    }

    /// Sorts the large objects by group, then `min x`, into runs of one group each.
    fn index_large(&mut self, view: &View<'_>) {
        let order = &mut self.large_order;
        order.clear();
        order.extend(
            self.large
                .iter()
                .map(|&l| (view.groups[l as usize], view.aabbs[l as usize].min().x, l)),
        );
        order.sort_unstable_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2)));
        self.large_runs.clear();
        let mut i = 0;
        while i < order.len() {
            let g = order[i].0;
            let mut j = i;
            let mut width = 0.0f64;
            while j < order.len() && order[j].0 == g {
                let b = &view.aabbs[order[j].2 as usize];
                width = width.max(f64::from(b.max().x) - f64::from(b.min().x));
                j += 1;
            }
            self.large_runs.push((g, i, j, width));
            i = j;
        }
    }

    /// Calls `f` for the slots of visible groups keyed in row `cy` with `x0 <= cx <= x1`.
    fn row(&self, view: &View<'_>, cy: i32, x0: i32, x1: i32, mask: u64, f: &mut dyn FnMut(u32)) {
        let (lo, hi) = (key(x0, cy), key(x1, cy));
        for (g, list) in self.lists.iter().enumerate() {
            if list.is_empty() || !view.table.visible(g as u32, mask) {
                continue;
            }
            let start = list.partition_point(|e| e.key() < lo);
            for e in &list[start..] {
                if e.key() > hi {
                    break;
                }
                f(e.slot);
            }
        }
    }

    /// The row of the nearest entry of a visible group at or above row `cy` (`up`) or at or
    /// below it, so walks over rows skip the empty ones: a small cell in a spread-out world has
    /// billions of rows.
    fn next_row(&self, view: &View<'_>, cy: i32, mask: u64, up: bool) -> Option<i32> {
        let mut best: Option<i32> = None;
        for (g, list) in self.lists.iter().enumerate() {
            if list.is_empty() || !view.table.visible(g as u32, mask) {
                continue;
            }
            let row = if up {
                let i = list.partition_point(|e| e.key() < key(i32::MIN, cy));
                list.get(i).map(|e| unkey(e.key()).1)
            } else {
                let i = list.partition_point(|e| e.key() <= key(i32::MAX, cy));
                i.checked_sub(1).map(|i| unkey(list[i].key()).1)
            };
            best = match (best, row) {
                (Some(b), Some(r)) => Some(if up { b.min(r) } else { b.max(r) }),
                (b, r) => b.or(r),
            };
        }
        best
    }

    /// The large objects of visible groups whose box overlaps `region`: in each group's run,
    /// those starting on `x` from the region's left minus the run's widest box to its right.
    fn each_large(&self, view: &View<'_>, region: &Aabb, mask: u64, f: &mut dyn FnMut(u32)) {
        let (left, right) = (region.min().x, region.max().x);
        for &(g, i0, i1, width) in &self.large_runs {
            if !view.table.visible(g, mask) {
                continue;
            }
            let run = &self.large_order[i0..i1];
            // `min x >= left - width` for any box reaching `left`; a little lower for rounding.
            let from = f64::from(left) - width * (1.0 + 1e-9);
            let start = run.partition_point(|e| f64::from(e.1) < from);
            for e in run[start..].iter().take_while(|e| e.1 <= right) {
                if view.aabbs[e.2 as usize].overlaps(region) {
                    f(e.2);
                }
            }
        }
    }

    pub(crate) fn query(&self, view: &View<'_>, region: &Aabb, mask: u64, f: &mut dyn FnMut(u32)) {
        self.each_large(view, region, mask, f);
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        // An object keyed one cell left of or below the region may still reach into it.
        let x0 = cell_of(region.min().x, self.inv).saturating_sub(1).max(ex0);
        let y0 = cell_of(region.min().y, self.inv).saturating_sub(1).max(ey0);
        let x1 = cell_of(region.max().x, self.inv).min(ex1);
        let y1 = cell_of(region.max().y, self.inv).min(ey1);
        if x0 > x1 || y0 > y1 {
            return;
        }
        let mut cy = y0;
        while let Some(row) = self.next_row(view, cy, mask, true).filter(|&r| r <= y1) {
            self.row(view, row, x0, x1, mask, f);
            match row.checked_add(1) {
                Some(next) => cy = next,
                None => break,
            }
        }
    }

    pub(crate) fn ray(
        &self,
        view: &View<'_>,
        ray: &Ray,
        max_t: f32,
        mask: u64,
        f: &mut dyn FnMut(u32) -> f32,
    ) {
        let mut max_t = max_t;
        let inv_dir = inverse_dir(ray.dir);
        for &l in &self.large {
            let g = view.groups[l as usize];
            if g != NONE
                && view.table.visible(g, mask)
                // One ulp wider, as the trees' leaves: a ray along an edge stays in.
                && ray_box(ray, inv_dir, &view.aabbs[l as usize].outward(), max_t).is_some()
            {
                max_t = max_t.min(f(l));
            }
        }
        let Some((ex0, ey0, ex1, ey1)) = self.extent else {
            return;
        };
        // Rows and cells of the ray are found in `f64` and widened by a relative `1e-6` (more
        // than the rounding of `cell_of`'s `f32` product), so neither a far ray origin nor a
        // cell index beyond `f32`'s integers drops an object. Rows saturated at the edges of the
        // `i32` range hold everything beyond.
        let c = f64::from(self.cell);
        let (o, d) = (ray.origin.as_dvec2(), ray.dir.as_dvec2());
        // `v` on `axis`, moved by a relative `1e-6` of it and of the origin (a `t` rounded to
        // `f32` moves the point by a relative `6e-8` of its distance from the origin).
        let widen = |v: f64, axis: usize, up: bool| {
            let slack = (v.abs() + o[axis].abs()) * 1e-6;
            let v = if up { v + slack } else { v - slack };
            // `as f32` saturates to an infinity, which `cell_of` saturates to the `i32` range.
            cell_of(v as f32, self.inv)
        };
        let at = |t: f64, axis: usize| {
            if d[axis] == 0.0 {
                o[axis]
            } else {
                o[axis] + d[axis] * t
            }
        };
        let t_max = f64::from(max_t);
        // Rows in the order the ray crosses them; each row's cells from the ray's x span there,
        // one cell wider on each side (objects reach one cell right and up from their key), and
        // one row more below.
        let (ya, yb) = (at(0.0, 1), at(t_max, 1));
        let r0 = widen(ya.min(yb), 1, false).saturating_sub(1).max(ey0);
        let r1 = widen(ya.max(yb), 1, true).saturating_add(1).min(ey1);
        if r0 > r1 {
            return;
        }
        let up = ray.dir.y >= 0.0;
        let mut cy = if up { r0 } else { r1 };
        loop {
            match self.next_row(view, cy, mask, up) {
                Some(row) if (r0..=r1).contains(&row) => cy = row,
                _ => break,
            }
            // The ray's t-span over the rows this row's objects can reach (cy to cy + 1),
            // widened by a hundredth of a cell and the relative rounding of `cell_of`.
            let row = f64::from(cy);
            let slack = 0.01 + row.abs() * 1e-6;
            let band0 = if cy == i32::MIN {
                f64::NEG_INFINITY
            } else {
                (row - slack) * c
            };
            let band1 = if cy >= i32::MAX - 1 {
                f64::INFINITY
            } else {
                (row + 2.0 + slack) * c
            };
            let (mut ta, mut tb) = (0.0, f64::from(max_t));
            if d.y != 0.0 {
                let (a, b) = ((band0 - o.y) / d.y, (band1 - o.y) / d.y);
                ta = a.min(b).max(0.0);
                tb = tb.min(a.max(b));
            }
            if ta <= tb {
                let (xa, xb) = (at(ta, 0), at(tb, 0));
                let x0 = widen(xa.min(xb), 0, false).saturating_sub(1).max(ex0);
                let x1 = widen(xa.max(xb), 0, true).saturating_add(1).min(ex1);
                if x0 <= x1 {
                    self.row(view, cy, x0, x1, mask, &mut |slot| {
                        max_t = max_t.min(f(slot));
                    });
                }
            }
            if up {
                if cy >= r1 {
                    break;
                }
                cy += 1;
            } else {
                if cy <= r0 {
                    break;
                }
                cy -= 1;
            }
        }
    }
}

/// Overlapping pairs within one sorted list: a sweep on `x` along each row (entries are sorted by
/// `min x` within a row), then a merged sweep of each row with the row above. An object spans
/// at most its row and the next, so no other pair can overlap; each pair is tested once, and
/// only when the boxes already overlap on `x`.
fn self_pairs(list: &[Entry], out: &mut Vec<(u32, u32)>) {
    let mut sink = Sink::new(out);
    let n = list.len();
    let mut below = 0..0;
    let mut start = 0;
    while start < n {
        let row = list[start].row();
        let end = row_end(list, start);
        let run = &list[start..end];
        sweep_one(run, &mut sink);
        if !below.is_empty() && list[below.start].row() + 1 == row {
            sweep_two(&list[below], run, &mut sink);
        }
        below = start..end;
        start = end;
    }
    sink.finish();
}

/// The end of the run of `list[start]`'s row: a [`gallop`] to the next row's first key, as
/// rows hold hundreds of entries in large worlds, which a scan would compare one by one.
fn row_end(list: &[Entry], start: usize) -> usize {
    let next = list[start].row() + 1;
    if next > u64::from(u32::MAX) {
        // The last row there can be.
        return list.len();
    }
    gallop(list, start, next << 32)
}

/// The column range of a sorted list, `(i32::MAX, i32::MIN)` when empty: from the first and
/// last entry of each row (columns grow with `min x` along a row), so per row, not per entry.
fn column_range(list: &[Entry]) -> (i32, i32) {
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
fn sweep_one(run: &[Entry], sink: &mut Sink<'_>) {
    sink.reserve(2 * run.len());
    for (i, a) in run.iter().enumerate() {
        let others = &run[i + 1..];
        sink.test_starting_before_end(a, others, others.len());
    }
}

/// The pairs between two runs sorted by `min x`: whichever starts first meets the other run's
/// entries starting before it ends.
#[inline]
fn sweep_two(a: &[Entry], b: &[Entry], sink: &mut Sink<'_>) {
    sink.reserve(2 * (a.len() + b.len()));
    let (mut p, mut q) = (0, 0);
    while p < a.len() && q < b.len() {
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
struct Sink<'a> {
    buf: &'a mut Vec<(u32, u32)>,
    /// Where this sink's pairs start in `buf`.
    start: usize,
    len: usize,
}

impl<'a> Sink<'a> {
    fn new(buf: &'a mut Vec<(u32, u32)>) -> Sink<'a> {
        let len = buf.len();
        Sink {
            buf,
            start: len,
            len,
        }
    }

    /// Room for `k` more tests.
    #[inline]
    fn reserve(&mut self, k: usize) {
        if self.buf.len() < self.len + k {
            self.grow(k);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, k: usize) {
        let grow = (self.len + k).max(2 * self.buf.len()).max(64);
        self.buf.resize(grow, (0, 0));
    }

    /// Keeps `(a, b)` when their boxes overlap (room made by the caller); `finish` orders
    /// the slots.
    #[inline]
    fn test(&mut self, a: &Entry, b: &Entry) {
        self.buf[self.len] = (a.slot, b.slot);
        self.len += usize::from(a.aabb.overlaps(&b.aabb));
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

    /// The pairs found, each as `(lower slot, higher slot)`.
    fn finish(self) {
        self.buf.truncate(self.len);
        for p in &mut self.buf[self.start..] {
            *p = (p.0.min(p.1), p.0.max(p.1));
        }
    }
}

/// Overlapping pairs between two sorted lists: each cell of `a` against the 3x3 cells around it
/// in `b`, found by galloping search (cost grows with `a`, and only logarithmically with `b`).
fn cross_pairs(a: &[Entry], b: &[Entry], out: &mut Vec<(u32, u32)>) {
    let mut sink = Sink::new(out);
    // One cursor per row of `b` (below, same, above); each only moves forward.
    let mut cursors = [0usize; 3];
    let mut i = 0;
    while i < a.len() {
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

/// The first index at or after `from` whose key is `>= key`, by doubling steps then bisection.
fn gallop(v: &[Entry], from: usize, key: u64) -> usize {
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

    #[test]
    fn both_cells_match_cell_of() {
        let xs = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            3.999_999_8,
            -4.000_000_5,
            1e-40,
            -1e-40,
            8.589_934e9,
            -8.589_934e9,
            8.589_935e9,
            -8.589_936e9,
            1e30,
            -1e30,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for inv in [0.25f32, 1.0, 0.3, 4.0] {
            for &x in &xs {
                for &y in &xs {
                    let want = (cell_of(x, inv), cell_of(y, inv));
                    assert_eq!(cells_of(Vec2::new(x, y), inv), want, "{x} {y} {inv}");
                }
            }
        }
    }

    #[test]
    fn floor_matches_the_standard_one() {
        for x in [-2.5f32, -2.0, -1e-30, -0.0, 0.0, 0.3, 1.0, 7.9, 1e20, -1e20] {
            let want = (x * 0.5).floor() as i32;
            assert_eq!(cell_of(x, 0.5), want, "{x}");
        }
        assert_eq!(cell_of(f32::NAN, 1.0), 0);
    }

    #[test]
    fn ordered_bits_sort_as_the_floats() {
        let xs = [
            f32::MIN,
            -1e20,
            -2.5,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            0.3,
            7.9,
            f32::MAX,
        ];
        for w in xs.windows(2) {
            assert!(ordered(w[0]) < ordered(w[1]), "{} {}", w[0], w[1]);
        }
    }

    #[test]
    fn keys_sort_rows_then_columns() {
        assert!(key(5, -1) < key(-5, 0));
        assert!(key(-1, 0) < key(0, 0));
        assert_eq!(unkey(key(-7, 9)), (-7, 9));
    }

    #[test]
    fn merge_from_back_gives_the_sorted_union() {
        let b = Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO);
        let entry = |order: u64, slot: u32| Entry {
            order,
            slot,
            cx: 0,
            aabb: b,
        };
        // Extra entries before, between (also equal orders, told apart by slot) and after.
        let list: Vec<Entry> = (0..40u32).map(|i| entry(u64::from(i / 2) * 3, i)).collect();
        for extra_orders in [vec![], vec![0], vec![0, 0, 7, 30, 31, 90], vec![100, 101]] {
            let extra: Vec<Entry> = extra_orders
                .iter()
                .enumerate()
                .map(|(k, &o)| entry(o, 100 + k as u32))
                .collect();
            let mut got = list.clone();
            merge_from_back(&mut got, &extra);
            let mut want: Vec<Entry> = list.iter().chain(&extra).copied().collect();
            want.sort_unstable_by_key(Entry::order);
            let orders = |v: &[Entry]| v.iter().map(Entry::order).collect::<Vec<_>>();
            assert_eq!(orders(&got), orders(&want), "{extra_orders:?}");
        }
    }

    #[test]
    fn row_end_and_column_range_walk_the_rows() {
        let b = Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO);
        // Rows of 1, 2, 3, 7, 1 and 40 entries.
        let rows: Vec<u64> = [1usize, 2, 3, 7, 1, 40]
            .iter()
            .enumerate()
            .flat_map(|(r, &len)| core::iter::repeat_n(r as u64 * 5, len))
            .collect();
        let list: Vec<Entry> = rows
            .iter()
            .enumerate()
            .map(|(i, &r)| Entry {
                order: r << 32 | i as u64,
                slot: i as u32,
                cx: 0,
                aabb: b,
            })
            .collect();
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
        let last: Vec<Entry> = [top - 1, top - 1, top, top, top]
            .iter()
            .enumerate()
            .map(|(i, &r)| Entry {
                order: r << 32 | i as u64,
                slot: i as u32,
                cx: 0,
                aabb: b,
            })
            .collect();
        let ends: Vec<usize> = (0..last.len()).map(|i| row_end(&last, i)).collect();
        assert_eq!(ends, [2, 2, 5, 5, 5]);
    }

    #[test]
    fn gallop_finds_the_first_key_not_below() {
        let b = Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO);
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
