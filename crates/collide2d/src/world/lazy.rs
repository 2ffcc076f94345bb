//! [`LazyBroad`]: the world's broad phase and the changes it has not taken in yet. The first
//! query after a change (through `&self`) or the next [`update`](super::CollisionWorld::update)
//! takes them in, once, and the structure is kept: so a query costs the same whether or not
//! `update` ran, where scanning every change at each query cost time linear in the objects
//! inserted or moved since the last update.
//!
//! A query takes in only what it can meet: the changes to static objects are listed apart, so
//! a query of static objects alone ([`move_shape`](super::CollisionWorld::move_shape)'s
//! obstacles) takes in those and leaves the dynamic objects moved since (enemies walking each
//! frame) to the next query that meets them, or to the next update. The broad phase keeps
//! static and dynamic objects in groups of their own, so its static groups are then up to date
//! and the others are not read.
//!
//! Changes are marked with an epoch: a slot is listed once per epoch however often it
//! changes, and each refresh moves the epoch on instead of clearing every mark.

use crate::broad::{Broad, BroadPhase, View};
use crate::sync::{ReadGuard, RwLock};
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, Ordering};

/// The bit of a slot's mark set while the slot holds a static object.
const STATIC: u32 = 1 << 31;
/// The epochs run from 1 to this, in the bits below [`STATIC`].
pub(super) const LAST_EPOCH: u32 = STATIC - 1;

/// The broad phase, refreshed through `&self` at most once between two changes, so a world
/// shared between threads stays `Sync`: a query that finds it `fresh` (no change left to take
/// in) reads it without a lock (one load, where a read lock was two atomic operations a ray);
/// one that finds changes takes `lock` for writing to take them in.
pub(super) struct LazyBroad {
    /// Set while `changed` and `statics` are empty: then nothing writes `state` until a change
    /// through `&mut self`, which no reader outlives. Stored with `Release` after a refresh
    /// through `&self`, loaded with `Acquire`.
    fresh: AtomicBool,
    /// Taken for writing by a refresh through `&self`, and for reading by a query of static
    /// objects that reads a broad phase not `fresh` (its static groups up to date, a full
    /// refresh may be under way in another thread).
    lock: RwLock<()>,
    state: UnsafeCell<State>,
}

// SAFETY: `state` is written only through `&mut self`, or by a refresh holding `lock` for
// writing while `fresh` is clear; it is read without the lock only while `fresh` is set (and
// stays set: clearing it takes `&mut self`), else under `lock` for reading. So `&LazyBroad` is
// shared between threads as `RwLock<State>` was, which needs `State: Send + Sync`.
#[allow(unsafe_code)]
unsafe impl Sync for LazyBroad {}

/// `State` is `Send + Sync`, as the `Sync` impl above needs.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<State>();
};

impl core::fmt::Debug for LazyBroad {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let _read = self.lock.read();
        // SAFETY: under the read lock, nothing writes the state (see the `Sync` impl).
        #[allow(unsafe_code)]
        let state = unsafe { &*self.state.get() };
        f.debug_struct("LazyBroad").field("state", state).finish()
    }
}

#[derive(Debug)]
pub(super) struct State {
    broad: Broad,
    /// By slot: [`STATIC`] while it holds a static object, and in the other bits the epoch in
    /// which it was last listed in `changed` (so a static slot's mark never equals `epoch`).
    marks: Vec<u32>,
    epoch: u32,
    /// Slots changed since the last full refresh, but for the changes made while they held a
    /// static object.
    changed: Vec<u32>,
    /// By slot: the `static_epoch` in which it was last listed in `statics`.
    static_marks: Vec<u32>,
    static_epoch: u32,
    /// Slots changed while holding a static object (inserted, moved, refiltered or removed)
    /// since the last refresh of either kind.
    statics: Vec<u32>,
    /// True when a slot was filled or emptied since the last full refresh: only then can the
    /// number of objects have changed, so only then does [`BroadPhase::auto`] count the changed
    /// slots (a frame of moves lists every object, and counting them was a pass over two arrays
    /// by slot for nothing).
    ///
    /// [`BroadPhase::auto`]: crate::broad::BroadPhase::auto
    filled_or_emptied: bool,
    /// Refreshes done, for the tests that check a query refreshes once.
    #[cfg(test)]
    refreshes: usize,
    /// Slots handed to the broad phase by the refreshes, for the tests that check a query
    /// takes in only what changed.
    #[cfg(test)]
    touched: usize,
}

/// The broad phase with its static groups up to date, borrowed from a [`LazyBroad`] (with a
/// read lock, unless it was fresh).
pub(super) struct Refreshed<'a> {
    broad: &'a Broad,
    _read: Option<ReadGuard<'a, ()>>,
}

impl core::ops::Deref for Refreshed<'_> {
    type Target = Broad;
    fn deref(&self) -> &Broad {
        self.broad
    }
}

impl State {
    /// Brings the broad phase up to date with every changed slot and starts new epochs.
    fn refresh(&mut self, view: &View<'_>) {
        if self.changed.is_empty() && self.statics.is_empty() {
            return;
        }
        // A slot in both lists is taken in twice: the second time finds it in place.
        self.changed.extend_from_slice(&self.statics);
        let count = core::mem::take(&mut self.filled_or_emptied);
        self.broad.sync(view, &self.changed, count);
        #[cfg(test)]
        self.count(self.changed.len());
        // Every mark is now old; at the wrap, the one clearing a new first epoch needs.
        self.epoch += 1;
        if self.epoch > LAST_EPOCH {
            self.marks.iter_mut().for_each(|m| *m &= STATIC);
            self.epoch = 1;
        }
        self.changed.clear();
        self.next_static_epoch();
    }

    /// Brings the broad phase's static groups up to date with the changed static slots.
    fn refresh_statics(&mut self, view: &View<'_>) {
        if self.statics.is_empty() {
            return;
        }
        // The flag stays set: the full refresh counts its own changed slots.
        self.broad
            .sync_part(view, &self.statics, self.filled_or_emptied);
        #[cfg(test)]
        self.count(self.statics.len());
        self.next_static_epoch();
    }

    /// Empties `statics` and starts a new epoch of it.
    fn next_static_epoch(&mut self) {
        self.statics.clear();
        self.static_epoch = self.static_epoch.wrapping_add(1);
        if self.static_epoch == 0 {
            self.static_marks.fill(0);
            self.static_epoch = 1;
        }
    }

    /// [`LazyBroad::mark`] of a slot holding a static object. Out of line: static objects
    /// seldom change after the level is built.
    #[inline(never)]
    fn mark_static(&mut self, slot: u32) {
        let mark = &mut self.static_marks[slot as usize];
        if *mark != self.static_epoch {
            *mark = self.static_epoch;
            self.statics.push(slot);
        }
    }

    /// Counts a refresh handing `slots` slots to the broad phase (tests).
    #[cfg(test)]
    fn count(&mut self, slots: usize) {
        self.touched += slots;
        self.refreshes += 1;
    }
}

impl LazyBroad {
    pub(super) fn new(kind: BroadPhase) -> LazyBroad {
        LazyBroad {
            fresh: AtomicBool::new(true),
            lock: RwLock::new(()),
            state: UnsafeCell::new(State {
                broad: Broad::new(kind),
                marks: Vec::new(),
                epoch: 1,
                changed: Vec::new(),
                static_marks: Vec::new(),
                static_epoch: 1,
                statics: Vec::new(),
                filled_or_emptied: false,
                #[cfg(test)]
                refreshes: 0,
                #[cfg(test)]
                touched: 0,
            }),
        }
    }

    /// The state, through `&mut self`: no locking.
    #[inline]
    fn state_mut(&mut self) -> &mut State {
        self.state.get_mut()
    }

    /// Adds a slot, empty and not yet marked.
    pub(super) fn push_slot(&mut self) {
        let state = self.state_mut();
        state.marks.push(state.epoch - 1);
        state.static_marks.push(state.static_epoch.wrapping_sub(1));
    }

    /// Records whether `slot` now holds a static object: call it on insertion, before
    /// [`mark`](Self::mark).
    pub(super) fn set_static(&mut self, slot: u32, is_static: bool) {
        let mark = &mut self.state_mut().marks[slot as usize];
        *mark = *mark & !STATIC | if is_static { STATIC } else { 0 };
    }

    /// Records that a slot was filled (an insertion) or emptied (a removal): call it with
    /// [`mark`](Self::mark) of that slot.
    pub(super) fn filled_or_emptied(&mut self) {
        self.state_mut().filled_or_emptied = true;
    }

    /// Records that `slot` changed (inserted, moved, refiltered or removed).
    #[inline]
    pub(super) fn mark(&mut self, slot: u32) {
        // Listed now, or already: not fresh either way.
        *self.fresh.get_mut() = false;
        let state = self.state_mut();
        let mark = &mut state.marks[slot as usize];
        if *mark != state.epoch {
            if *mark & STATIC == 0 {
                *mark = state.epoch;
                state.changed.push(slot);
            } else {
                state.mark_static(slot);
            }
        }
    }

    /// The broad phase brought up to date, for [`update`](super::CollisionWorld::update).
    pub(super) fn refreshed_mut(&mut self, view: &View<'_>) -> &mut Broad {
        *self.fresh.get_mut() = true;
        let state = self.state.get_mut();
        state.refresh(view);
        &mut state.broad
    }

    /// The broad phase brought up to date, for queries: the first call after a change takes
    /// the changes in, the next ones only read. `view` is called only then (building it was
    /// a few stores on every ray). Inlined: the common case, nothing to do, is one load and
    /// a branch (a ray through a static level takes it once).
    #[inline(always)]
    pub(super) fn refreshed<'v>(&self, view: impl FnOnce() -> View<'v>) -> &Broad {
        if !self.fresh.load(Ordering::Acquire) {
            self.refresh(view);
        }
        self.fresh_broad()
    }

    /// The broad phase, `fresh` having been loaded set.
    #[inline(always)]
    fn fresh_broad(&self) -> &Broad {
        // SAFETY: fresh: nothing writes the state until `&mut self` (see the `Sync` impl).
        #[allow(unsafe_code)]
        let state = unsafe { &*self.state.get() };
        debug_assert!(state.changed.is_empty() && state.statics.is_empty());
        &state.broad
    }

    /// [`refreshed`](Self::refreshed)'s other case, out of line: takes the changes in (unless
    /// another thread did first) and sets `fresh`. (A panic during a refresh leaves the broad
    /// phase as it got and `fresh` clear: the changes are still listed, so the next refresh
    /// redoes them; so the lock's poisoning is ignored.)
    #[cold]
    #[inline(never)]
    fn refresh<'v>(&self, view: impl FnOnce() -> View<'v>) {
        let _write = self.lock.write();
        if self.fresh.load(Ordering::Acquire) {
            return;
        }
        // SAFETY: not fresh, and the write lock held: no other reference to the state (see
        // the `Sync` impl).
        #[allow(unsafe_code)]
        let state = unsafe { &mut *self.state.get() };
        state.refresh(&view());
        self.fresh.store(true, Ordering::Release);
    }

    /// The broad phase with its static groups brought up to date, for queries of static
    /// objects only (its other groups may be stale: not to be read). Holds a read lock while
    /// not fresh, so no full refresh changes the broad phase under it.
    #[inline]
    pub(super) fn refreshed_statics<'v>(&self, view: impl FnOnce() -> View<'v>) -> Refreshed<'_> {
        if self.fresh.load(Ordering::Acquire) {
            return Refreshed {
                broad: self.fresh_broad(),
                _read: None,
            };
        }
        self.refresh_statics(view)
    }

    /// [`refreshed_statics`](Self::refreshed_statics)' other case, out of line.
    #[cold]
    #[inline(never)]
    fn refresh_statics<'v>(&self, view: impl FnOnce() -> View<'v>) -> Refreshed<'_> {
        {
            let _write = self.lock.write();
            if !self.fresh.load(Ordering::Acquire) {
                // SAFETY: as in `refresh`.
                #[allow(unsafe_code)]
                let state = unsafe { &mut *self.state.get() };
                state.refresh_statics(&view());
                if state.changed.is_empty() {
                    self.fresh.store(true, Ordering::Release);
                }
            }
        }
        // Another thread may refresh in between: the static groups stay up to date.
        let read = self.lock.read();
        // SAFETY: under the read lock, nothing writes the state (see the `Sync` impl).
        #[allow(unsafe_code)]
        let state = unsafe { &*self.state.get() };
        Refreshed {
            broad: &state.broad,
            _read: Some(read),
        }
    }

    /// How many refreshes ran (tests).
    #[cfg(test)]
    pub(super) fn refreshes(&mut self) -> usize {
        self.state_mut().refreshes
    }

    /// How many slots the refreshes handed to the broad phase (tests).
    #[cfg(test)]
    pub(super) fn touched(&mut self) -> usize {
        self.state_mut().touched
    }

    /// Sets the epoch and a dynamic slot's mark, to test the epoch's wrap.
    #[cfg(test)]
    pub(super) fn set_epoch(&mut self, epoch: u32, slot: u32, mark: u32) {
        let state = self.state_mut();
        state.epoch = epoch;
        state.marks[slot as usize] = mark;
    }

    /// The epoch (tests).
    #[cfg(test)]
    pub(super) fn epoch(&mut self) -> u32 {
        self.state_mut().epoch
    }
}
