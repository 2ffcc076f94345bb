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

/// A mover's list: its grown box, where its boxes are, and what its motion is measured from.
#[derive(Clone, Copy, Debug)]
struct Head {
    /// The list holds every static box of the index overlapping this one.
    reach: Aabb,
    /// The box's `min` corner at update `made`, when the list was made or the mover was found
    /// too fast.
    at: Vec2,
    made: u32,
    slot: u32,
    start: u32,
    len: u32,
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

/// The heads and lists of one update, in the order its movers came.
#[derive(Debug, Default)]
struct Lists {
    heads: Vec<Head>,
    boxes: Vec<Cached>,
}

impl Lists {
    fn clear(&mut self) {
        self.heads.clear();
        self.boxes.clear();
    }
}

/// The lists of the movers that met an index. Each update writes them anew, in the order the
/// movers come (their list's, which changes little), copying those still good from the last
/// update's: both are then read and written in order, where lists kept in place were read
/// in a random order, each a cache miss (the lists of a thousand movers do not stay in a cache
/// that the tiles' records pass through every update).
#[derive(Debug, Default)]
pub(super) struct Cache {
    /// By slot, the index of its head in the last update's `old` (or this update's `new`, once
    /// met), or `NONE`; checked against the head's slot.
    which: Vec<u32>,
    old: Lists,
    new: Lists,
    /// The update `new` is for.
    frame: u32,
    /// How many lookups were served by a list, and how many lists were made.
    #[cfg(test)]
    pub(super) hits: usize,
    #[cfg(test)]
    pub(super) rebuilds: usize,
}

impl Cache {
    /// Starts update `frame`'s lists (the index may meet several lists of movers in one).
    pub(super) fn start(&mut self, frame: u32) {
        if frame != self.frame {
            core::mem::swap(&mut self.old, &mut self.new);
            self.new.clear();
            self.frame = frame;
        }
    }

    /// Where the candidates of the mover in `slot`, whose box is `b`, come from at update
    /// `frame` (after [`start`](Self::start)); `cell` is the index's cell width.
    #[inline]
    pub(super) fn lookup(&mut self, slot: u32, b: &Aabb, frame: u32, cell: f32) -> Lookup<'_> {
        let (min, max) = (b.min(), b.max());
        let size = (max - min).max_element();
        let old = self
            .which
            .get(slot as usize)
            .and_then(|&h| self.old.heads.get(h as usize));
        let Some(&(mut head)) = old.filter(|h| h.slot == slot) else {
            // Never seen: no motion to measure yet.
            return Lookup::Rebuild(grown(b, (size * 0.25).min(size.max(cell))));
        };
        if !head.fast && min.cmpge(head.reach.min()).all() && max.cmple(head.reach.max()).all() {
            #[cfg(test)]
            {
                self.hits += 1;
            }
            let (from, to) = (head.start as usize, self.new.boxes.len());
            let list = &self.old.boxes[from..from + head.len as usize];
            self.new.boxes.extend_from_slice(list);
            head.start = to as u32;
            self.push(head);
            return Lookup::Hit(&self.new.boxes[to..]);
        }
        let age = frame.wrapping_sub(head.made);
        if head.fast && age < SKIP {
            self.push(head);
            return Lookup::Direct;
        }
        let speed = (min - head.at).abs().max_element() / age.max(1) as f32;
        let most = size.max(cell);
        if speed * 2.0 > most || !speed.is_finite() {
            (head.fast, head.made, head.at, head.len) = (true, frame, min, 0);
            self.push(head);
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
        let start = self.new.boxes.len();
        search(&mut self.new.boxes);
        let len = self.new.boxes.len() - start;
        let fast = len > LONG;
        if fast {
            self.new.boxes.truncate(start);
        }
        self.push(Head {
            reach,
            at,
            made: frame,
            slot,
            start: start as u32,
            len: if fast { 0 } else { len as u32 },
            fast,
        });
        (!fast).then(|| &self.new.boxes[start..])
    }

    /// `head` into this update's heads.
    #[inline]
    fn push(&mut self, head: Head) {
        let s = head.slot as usize;
        if self.which.len() <= s {
            self.which.resize(s + 1, NONE);
        }
        self.which[s] = self.new.heads.len() as u32;
        self.new.heads.push(head);
    }
}

/// `b` grown by `margin` on every side.
#[inline]
fn grown(b: &Aabb, margin: f32) -> Aabb {
    Aabb::raw(b.min() - margin, b.max() + margin)
}
