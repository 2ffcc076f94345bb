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

use alloc::vec::Vec;
mod cells;
mod dense;
mod queries;
mod refresh;
mod sweep;

use super::View;
use crate::shape::Aabb;
use cells::{cell_of, fits, key, ordered, unkey, Entry};
use dense::{cross_pairs_dense, Dense};
use refresh::{refresh, sort_entries};
use sweep::{column_range, cross_pairs, gallop, self_pairs, Sink};

const NONE: u32 = u32::MAX;

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
    /// By group, for a list of static objects unchanged since the previous `sync`, its boxes
    /// indexed (see [`Dense`]).
    dense: Vec<Option<Dense>>,
    /// The group whose list holds each slot, or `NONE` (also for large objects).
    member: Vec<u32>,
    /// Slots of objects wider or taller than a cell.
    large: Vec<u32>,
    /// The large objects as `(group, min x, slot)`, sorted, as of the last `sync`.
    large_order: Vec<(u32, f32, u32)>,
    /// The runs of one group in `large_order`: `(group, start, end, widest box on x)`.
    large_runs: Vec<(u32, usize, usize, f64)>,
    is_large: Vec<bool>,
    /// Scratch for [`refresh()`].
    strays: Vec<Entry>,
    /// Changed slots in no list (new, large, removed) or that left one in this `sync`: the
    /// only ones that may join a list or the side list.
    pending: Vec<u32>,
    /// The occupied cell range `(x0, y0, x1, y1)` over all lists (objects reach one cell
    /// further right and up).
    extent: Option<(i32, i32, i32, i32)>,
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
            dense: Vec::new(),
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

    /// Brings the lists up to date with the current boxes and groups. Not inlined, as
    /// [`pairs`](Self::pairs).
    #[inline(never)]
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
            self.dense.push(None);
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
                self.dense[g] = None;
            } else if self.dense[g].is_none() && list.len() >= 256 && view.table.is_static(g as u32)
            {
                self.dense[g] = Dense::build(list);
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

    /// See [`Broad::pairs`](super::Broad::pairs): replaces `out`'s contents (written over in
    /// place, see [`Sink`]); stops soon after `out` holds `limit` pairs. Not inlined: inlined
    /// into `Broad::pairs`, its sweeps compiled to more instructions.
    #[inline(never)]
    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>, limit: usize) {
        let groups = self.lists.len();
        let mut sink = Sink::new(out, limit);
        'lists: for g in 0..groups {
            if self.lists[g].is_empty() {
                continue;
            }
            for h in g..groups {
                if self.lists[h].is_empty() || !view.table.compatible(g as u32, h as u32) {
                    continue;
                }
                if sink.full() {
                    break 'lists;
                }
                if g == h {
                    self_pairs(&self.lists[g], &mut sink);
                } else {
                    // Walk the shorter list, search the longer one (by its index if it has
                    // one).
                    let (a, b) = if self.lists[g].len() <= self.lists[h].len() {
                        (g, h)
                    } else {
                        (h, g)
                    };
                    match &self.dense[b] {
                        Some(d) => cross_pairs_dense(&self.lists[a], d, &mut sink),
                        None => cross_pairs(&self.lists[a], &self.lists[b], &mut sink),
                    }
                }
            }
        }
        sink.finish();
        if out.len() >= limit {
            return;
        }
        self.large_pairs(view, out, limit);
        // Large objects against the lists: by searching the rows their box covers (or by scanning
        // the list when that is shorter).
        for &l in &self.large {
            if out.len() >= limit {
                return;
            }
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

    /// The large objects against each other: sorted by group, then `min x`; each pair of
    /// compatible groups' runs is swept on `x`, so objects far apart on `x`, or of groups that
    /// ignore each other (bullets), cost no pair test.
    fn large_pairs(&self, view: &View<'_>, out: &mut Vec<(u32, u32)>, limit: usize) {
        let (order, runs) = (&self.large_order, &self.large_runs);
        let max_x = |e: &(u32, f32, u32)| view.aabbs[e.2 as usize].max().x;
        let test = |out: &mut Vec<(u32, u32)>, p: u32, q: u32| {
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
                        if out.len() >= limit {
                            return;
                        }
                        let right = max_x(e);
                        for o in run[k + 1..].iter().take_while(|o| o.1 <= right) {
                            test(out, e.2, o.2);
                        }
                    }
                } else {
                    // Two sorted runs: whichever starts first meets the other's boxes starting
                    // before it ends.
                    let (a, b) = (&order[i0..i1], &order[j0..j1]);
                    let (mut p, mut q) = (0, 0);
                    while p < a.len() && q < b.len() && out.len() < limit {
                        if a[p].1 <= b[q].1 {
                            let right = max_x(&a[p]);
                            for o in b[q..].iter().take_while(|o| o.1 <= right) {
                                test(out, a[p].2, o.2);
                            }
                            p += 1;
                        } else {
                            let right = max_x(&b[q]);
                            for o in a[p..].iter().take_while(|o| o.1 <= right) {
                                test(out, b[q].2, o.2);
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
        crate::sort::sort_distinct_by(order, |x, y| {
            x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2))
        });
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
}
