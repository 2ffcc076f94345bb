//! Each mover's static boxes, kept between updates (temporal coherence, as Box2D's enlarged
//! boxes, here for the static side): the index is searched with the mover's box grown by a
//! margin, and the boxes found are kept together with their slots; while the mover's box stays
//! inside the grown one, its candidates come from that short list, read in order, instead of
//! from the index's starts and cells, scattered over a large level (about six cache misses a
//! mover and a frame).
//!
//! The list is in the index's order (row by row, then as the row's cells hold them), and a box
//! inside the grown one reaches a subset of its rows and columns, so testing the list gives
//! the pairs the index would, in the same order. The cache belongs to its index: any change to
//! the static list (an object added, removed, moved or regrouped) drops both.
//!
//! The margin comes from the mover's measured motion: how far its box moved since its list was
//! made, per update, times [`AHEAD`], at most the larger of its size and the index's cells (a
//! longer list costs more tests than the searches it saves). A mover that would leave even that
//! within two updates (a bullet, or a teleport) is not cached for [`SKIP`] updates: it searches
//! the index as without a cache, and pays nothing for the lists.

use crate::math::Vec2;
use crate::shape::Aabb;
use alloc::vec::Vec;

/// How many updates of motion a margin covers.
const AHEAD: f32 = 4.0;

/// How many updates a fast mover searches the index directly before it is measured again.
const SKIP: u32 = 16;

/// A list longer than this is not kept (a huge mover): the index is searched instead.
const LONG: usize = 256;

const NONE: u32 = u32::MAX;

/// A static box of a mover's list and its slot.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cached {
    pub(super) aabb: Aabb,
    pub(super) slot: u32,
}

/// A mover's list: its grown box, where its boxes are in [`Cache::lists`], and what its motion
/// is measured from.
#[derive(Clone, Copy, Debug)]
struct Head {
    /// The list holds every static box of the index overlapping this one.
    reach: Aabb,
    start: u32,
    len: u32,
    /// The room at `start` (a list that grows past it moves to the end).
    cap: u32,
    /// The box's `min` corner at update `made`, when the list was made or the mover was found
    /// too fast.
    at: Vec2,
    made: u32,
    /// Too fast: not cached until [`SKIP`] updates after `made`.
    fast: bool,
}

/// What a mover's candidates come from.
pub(super) enum Lookup<'a> {
    /// Its list, still holding everything its box can overlap.
    Hit(&'a [Cached]),
    /// A new list is to be made: of the static boxes overlapping this box ([`Cache::fill`]).
    Rebuild(Aabb),
    /// The index itself (a fast mover).
    Direct,
}

/// The lists of the movers that met an index, by slot.
#[derive(Debug, Default)]
pub(super) struct Cache {
    /// By slot, the index of its head in `heads`, or `NONE`.
    which: Vec<u32>,
    heads: Vec<Head>,
    lists: Vec<Cached>,
    /// Room in `lists` no head uses (lists that moved).
    wasted: usize,
    /// How many lookups were served by a list, and how many lists were made.
    #[cfg(test)]
    pub(super) hits: usize,
    #[cfg(test)]
    pub(super) rebuilds: usize,
}

impl Cache {
    /// Where the candidates of the mover in `slot`, whose box is `b`, come from at update
    /// `frame`; `cell` is the index's cell width.
    #[inline]
    pub(super) fn lookup(&mut self, slot: u32, b: &Aabb, frame: u32, cell: f32) -> Lookup<'_> {
        let (min, max) = (b.min(), b.max());
        let size = (max - min).max_element();
        let Some(&h) = self.which.get(slot as usize).filter(|&&h| h != NONE) else {
            // Never seen: no motion to measure yet.
            return Lookup::Rebuild(grown(b, (size * 0.25).min(size.max(cell))));
        };
        let head = &mut self.heads[h as usize];
        if !head.fast && min.cmpge(head.reach.min()).all() && max.cmple(head.reach.max()).all() {
            let (start, len) = (head.start as usize, head.len as usize);
            #[cfg(test)]
            {
                self.hits += 1;
            }
            return Lookup::Hit(&self.lists[start..start + len]);
        }
        let age = frame.wrapping_sub(head.made);
        if head.fast && age < SKIP {
            return Lookup::Direct;
        }
        let speed = (min - head.at).abs().max_element() / age.max(1) as f32;
        let most = size.max(cell);
        if speed * 2.0 > most || !speed.is_finite() {
            (head.fast, head.made, head.at) = (true, frame, min);
            return Lookup::Direct;
        }
        Lookup::Rebuild(grown(b, (speed * AHEAD).min(most)))
    }

    /// Makes the list of the mover in `slot` (whose box's `min` is `at`) at update `frame`:
    /// `search` appends the static boxes overlapping `reach`, in the index's order. The list,
    /// or `None` when too long to keep (the mover then searches the index directly for a while).
    pub(super) fn fill(
        &mut self,
        slot: u32,
        reach: Aabb,
        at: Vec2,
        frame: u32,
        search: impl FnOnce(&mut Vec<Cached>),
    ) -> Option<&[Cached]> {
        #[cfg(test)]
        {
            self.rebuilds += 1;
        }
        let s = slot as usize;
        if self.which.len() <= s {
            self.which.resize(s + 1, NONE);
        }
        if self.which[s] == NONE {
            self.which[s] = self.heads.len() as u32;
            self.heads.push(Head {
                reach,
                start: 0,
                len: 0,
                cap: 0,
                at,
                made: frame,
                fast: false,
            });
        }
        let h = self.which[s] as usize;
        let end = self.lists.len();
        search(&mut self.lists);
        let len = self.lists.len() - end;
        let head = &mut self.heads[h];
        (head.at, head.made) = (at, frame);
        if len > LONG {
            self.lists.truncate(end);
            head.fast = true;
            return None;
        }
        if len <= head.cap as usize {
            // In its old place.
            self.lists.copy_within(end.., head.start as usize);
            self.lists.truncate(end);
        } else {
            self.wasted += head.cap as usize;
            (head.start, head.cap) = (end as u32, len as u32);
        }
        (head.reach, head.len, head.fast) = (reach, len as u32, false);
        if self.wasted > 1024 && self.wasted > self.lists.len() / 2 {
            self.compact();
        }
        let head = &self.heads[h];
        let start = head.start as usize;
        Some(&self.lists[start..start + head.len as usize])
    }

    /// Every list moved to the front, one after another, with no room between.
    #[cold]
    fn compact(&mut self) {
        let mut lists = Vec::with_capacity(self.lists.len() - self.wasted);
        for head in &mut self.heads {
            let start = head.start as usize;
            let from = &self.lists[start..start + head.len as usize];
            (head.start, head.cap) = (lists.len() as u32, head.len);
            lists.extend_from_slice(from);
        }
        self.lists = lists;
        self.wasted = 0;
    }
}

/// `b` grown by `margin` on every side.
#[inline]
fn grown(b: &Aabb, margin: f32) -> Aabb {
    Aabb::raw(b.min() - margin, b.max() + margin)
}
