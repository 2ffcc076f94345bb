//! [`Groups`]: objects of the same filter and static-ness, which the broad phase pairs group by
//! group before it pairs objects.
//!
//! At most [`DEDICATED`] filters in use at once get a group of their own; objects of any other
//! filter share one group per static-ness, in which filters are tested pair by pair. So a world
//! of thousands of distinct filters costs what one filter costs (plus a filter test per pair of
//! overlapping boxes), not the square of the number of filters, while the common case (a few
//! layers, bullets that ignore each other) is still filtered before any pair is made. A group
//! no object uses is freed at once and its number reused.

use crate::world::Filter;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// The most groups of one filter each (beside the two shared ones).
pub(crate) const DEDICATED: usize = 64;

/// The groups, and each object slot's filter.
#[derive(Debug, Default)]
pub(crate) struct Groups {
    /// By group: its filter (that of its first member for a shared group) and static-ness.
    list: Vec<(Filter, bool)>,
    /// By group: how many objects it holds.
    members: Vec<u32>,
    /// By group: whether objects of many filters share it.
    shared: Vec<bool>,
    /// The dedicated group of each filter in use.
    lookup: BTreeMap<(u64, u64, bool), u32>,
    /// Group numbers no object uses, for reuse.
    free: Vec<u32>,
    /// The shared groups, of dynamic and of static objects, once made.
    shared_ids: [Option<u32>; 2],
    /// Objects now in shared groups.
    in_shared: usize,
    /// The filter of each slot that joined a group.
    filters: Vec<Filter>,
}

impl Groups {
    /// Puts the object in `slot` in the group of `filter` and `is_static` (made on first use,
    /// or the shared one when [`DEDICATED`] filters are in use) and returns its number.
    pub(crate) fn join(&mut self, slot: u32, filter: Filter, is_static: bool) -> u32 {
        let s = slot as usize;
        if self.filters.len() <= s {
            self.filters.resize(s + 1, Filter::DEFAULT);
        }
        self.filters[s] = filter;
        let key = (filter.layer, filter.mask, is_static);
        let g = match self.lookup.get(&key) {
            Some(&g) => g,
            None if self.lookup.len() < DEDICATED => {
                let g = self.make(filter, is_static, false);
                self.lookup.insert(key, g);
                g
            }
            None => match self.shared_ids[usize::from(is_static)] {
                Some(g) => g,
                None => {
                    let g = self.make(filter, is_static, true);
                    self.shared_ids[usize::from(is_static)] = Some(g);
                    g
                }
            },
        };
        self.members[g as usize] += 1;
        self.in_shared += usize::from(self.shared[g as usize]);
        g
    }

    /// A new group (a freed number when there is one).
    fn make(&mut self, filter: Filter, is_static: bool, shared: bool) -> u32 {
        if let Some(g) = self.free.pop() {
            self.list[g as usize] = (filter, is_static);
            self.shared[g as usize] = shared;
            return g;
        }
        self.list.push((filter, is_static));
        self.members.push(0);
        self.shared.push(shared);
        (self.list.len() - 1) as u32
    }

    /// Takes an object out of group `g`; a dedicated group left empty is freed.
    pub(crate) fn leave(&mut self, g: u32) {
        let i = g as usize;
        self.members[i] -= 1;
        if self.shared[i] {
            self.in_shared -= 1;
            return;
        }
        if self.members[i] == 0 {
            let (f, is_static) = self.list[i];
            self.lookup.remove(&(f.layer, f.mask, is_static));
            self.free.push(g);
        }
    }

    /// True when objects of groups `g` and `h` may collide (for a shared group: when some of
    /// its objects might; [`Groups::accepts`] decides pair by pair).
    #[inline]
    pub(crate) fn compatible(&self, g: u32, h: u32) -> bool {
        let (f, fs) = self.list[g as usize];
        let (k, ks) = self.list[h as usize];
        if fs && ks {
            return false;
        }
        self.shared[g as usize] || self.shared[h as usize] || f.collides_with(k)
    }

    /// True when group `g` holds static objects.
    #[inline]
    pub(crate) fn is_static(&self, g: u32) -> bool {
        self.list[g as usize].1
    }

    /// True when some object is in a shared group: only then may a pair of compatible groups
    /// hold a pair of objects whose filters refuse each other.
    #[inline]
    pub(crate) fn any_shared(&self) -> bool {
        self.in_shared > 0
    }

    /// True when the objects in slots `a` and `b`, of compatible groups, collide by their
    /// filters.
    #[inline]
    pub(crate) fn accepts(&self, a: u32, b: u32) -> bool {
        self.filters[a as usize].collides_with(self.filters[b as usize])
    }

    /// True when a query with `mask` may report objects of group `g` (for a shared group:
    /// when it may report some of them; [`Groups::shows`] decides object by object).
    #[inline]
    pub(crate) fn visible(&self, g: u32, mask: u64) -> bool {
        self.shared[g as usize] || self.list[g as usize].0.layer & mask != 0
    }

    /// True when a query with `mask` reports the object in `slot`.
    #[inline]
    pub(crate) fn shows(&self, slot: u32, mask: u64) -> bool {
        self.filters[slot as usize].layer & mask != 0
    }

    /// How many group numbers are in use or free (the per-group arrays' length).
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_left_empty_is_freed_and_its_number_reused() {
        let mut groups = Groups::default();
        let a = groups.join(0, Filter::new(1, 1), false);
        let b = groups.join(1, Filter::new(2, 2), false);
        groups.leave(a);
        let c = groups.join(2, Filter::new(4, 4), false);
        assert_eq!((a, b, c), (0, 1, 0));
        assert_eq!(groups.len(), 2);
        assert!(!groups.compatible(b, c));
    }

    #[test]
    fn filters_past_the_dedicated_ones_share_a_group_and_are_tested_per_pair() {
        let mut groups = Groups::default();
        for slot in 0..DEDICATED as u32 + 3 {
            let g = groups.join(slot, Filter::new(1, 1 | u64::from(slot) << 1), false);
            assert_eq!(g == DEDICATED as u32, slot >= DEDICATED as u32, "{slot}");
        }
        let shared = DEDICATED as u32;
        assert!(groups.any_shared() && groups.compatible(shared, shared));
        assert!(groups.accepts(DEDICATED as u32, DEDICATED as u32 + 1));
        // Static objects of filters past the limit share the static group, which never meets
        // itself.
        let s = groups.join(100, Filter::new(8, 8), true);
        let t = groups.join(101, Filter::new(16, 16), true);
        assert_eq!((s, t), (shared + 1, shared + 1));
        assert!(!groups.compatible(s, t) && groups.compatible(shared, s));
    }
}
