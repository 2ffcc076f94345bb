//! Bringing a list up to date each update: new keys and boxes, leavers out, and a sort that is
//! linear when objects move a little.

use super::cells::{cell_of, cells_of, key, ordered, Entry};
use super::{View, NONE};
use alloc::vec::Vec;

/// Brings one group's list up to date in one pass: each entry's new key and box, leavers out
/// (their `member` set to `NONE`, their slot pushed on `leavers`), and an insertion sort as it
/// goes, linear when objects move a little. Objects that changed rows would move past a whole
/// row each: they are set aside in `strays`, sorted, and merged back in one pass. Returns false
/// when the insertion sort gave up after too many moves (the list then needs a full sort).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn refresh(
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
pub(super) struct Refreshed<'a> {
    strays: &'a mut Vec<Entry>,
    leavers: &'a mut Vec<u32>,
    member: &'a mut [u32],
}

/// The loop of [`refresh`] over a slice (its length stays in a register): entries kept move
/// to the front, insertion-sorted until the budget of moves runs out, then only rekeyed.
/// Returns how many were kept and whether they are sorted (strays aside).
pub(super) fn rekey_all<const CHECK_GROUP: bool>(
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
        insert_sorted(list, w, e, &mut budget);
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
pub(super) fn rekey<const CHECK_GROUP: bool>(
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
pub(super) fn merge_from_back(list: &mut Vec<Entry>, extra: &[Entry]) {
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
pub(super) fn gallop_back(v: &[Entry], key: (u64, u32)) -> usize {
    // Invariant: everything from `hi` on is above `key`.
    let (mut hi, mut step) = (v.len(), 1);
    while hi >= step && v[hi - step].order() > key {
        hi -= step;
        step *= 2;
    }
    let lo = hi.saturating_sub(step);
    lo + v[lo..hi].partition_point(|e| e.order() <= key)
}

/// Puts `e` into the sorted `v[..end]`, `v[end]` being free: the entries after it move up one
/// place, each move spending one of `budget`.
#[inline(always)]
fn insert_sorted(v: &mut [Entry], end: usize, e: Entry, budget: &mut usize) {
    let mut j = end;
    while j > 0 && v[j - 1].order() > e.order() {
        v[j] = v[j - 1];
        j -= 1;
        *budget = budget.saturating_sub(1);
    }
    v[j] = e;
}

/// Sorts nearly sorted entries by insertion; after `budget` element moves, finishes with a full
/// sort instead.
pub(super) fn sort_entries(v: &mut [Entry]) {
    let mut budget = 8 * v.len() + 64;
    for i in 1..v.len() {
        insert_sorted(v, i, v[i], &mut budget);
        if budget == 0 {
            v.sort_unstable_by_key(Entry::order);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::Aabb;
    use alloc::vec;

    #[test]
    fn merge_from_back_gives_the_sorted_union() {
        let b = Aabb::raw(Vec2::ZERO, Vec2::ZERO);
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
}
