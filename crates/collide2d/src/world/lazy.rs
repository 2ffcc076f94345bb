//! [`LazyBroad`]: the world's broad phase and the changes it has not taken in yet. The first
//! query after a change (through `&self`) or the next [`update`](super::CollisionWorld::update)
//! takes them in, once, and the structure is kept: so a query costs the same whether or not
//! `update` ran, where scanning every change at each query cost time linear in the objects
//! inserted or moved since the last update.
//!
//! Changes are marked with an epoch: a slot is listed once per epoch however often it
//! changes, and each refresh moves the epoch on instead of clearing every mark.

use crate::broad::{Broad, BroadPhase, View};
use crate::sync::{ReadGuard, RwLock};
use alloc::vec::Vec;

/// The broad phase, refreshed through `&self` at most once between two changes. Behind a
/// lock so a world shared between threads stays `Sync`: queries take it for reading (one
/// uncontended atomic operation), and only the query that finds changes takes it for writing.
#[derive(Debug)]
pub(super) struct LazyBroad {
    state: RwLock<State>,
}

#[derive(Debug)]
pub(super) struct State {
    broad: Broad,
    /// `epoch` for slots changed since the last refresh (also listed in `changed`).
    marked: Vec<u32>,
    epoch: u32,
    changed: Vec<u32>,
    /// Refreshes done, for the tests that check a query refreshes once.
    #[cfg(test)]
    refreshes: usize,
    /// Slots handed to the broad phase by the refreshes, for the tests that check a query
    /// takes in only what changed.
    #[cfg(test)]
    touched: usize,
}

/// The broad phase up to date, borrowed from a [`LazyBroad`] (a read lock).
pub(super) struct Refreshed<'a>(ReadGuard<'a, State>);

impl core::ops::Deref for Refreshed<'_> {
    type Target = Broad;
    fn deref(&self) -> &Broad {
        &self.0.broad
    }
}

impl State {
    /// Brings the broad phase up to date with the changed slots and starts a new epoch.
    fn refresh(&mut self, view: &View<'_>) {
        if self.changed.is_empty() {
            return;
        }
        self.broad.sync(view, &self.changed);
        #[cfg(test)]
        {
            self.touched += self.changed.len();
        }
        // Every mark is now old; at the wrap, the one clearing a new first epoch needs.
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.marked.fill(0);
            self.epoch = 1;
        }
        self.changed.clear();
        #[cfg(test)]
        {
            self.refreshes += 1;
        }
    }
}

impl LazyBroad {
    pub(super) fn new(kind: BroadPhase) -> LazyBroad {
        LazyBroad {
            state: RwLock::new(State {
                broad: Broad::new(kind),
                marked: Vec::new(),
                epoch: 1,
                changed: Vec::new(),
                #[cfg(test)]
                refreshes: 0,
                #[cfg(test)]
                touched: 0,
            }),
        }
    }

    /// The state, through `&mut self`: no locking. (A panic during a refresh leaves the broad
    /// phase as it got: the changes are still listed, so the next refresh redoes them; so the
    /// lock's poisoning is ignored.)
    #[inline]
    fn state_mut(&mut self) -> &mut State {
        self.state.get_mut()
    }

    /// Adds a slot, not yet marked.
    pub(super) fn push_slot(&mut self) {
        let state = self.state_mut();
        state.marked.push(state.epoch.wrapping_sub(1));
    }

    /// Records that `slot` changed (inserted, moved, refiltered or removed).
    #[inline]
    pub(super) fn mark(&mut self, slot: u32) {
        let state = self.state_mut();
        let marked = &mut state.marked[slot as usize];
        if *marked != state.epoch {
            *marked = state.epoch;
            state.changed.push(slot);
        }
    }

    /// The broad phase brought up to date, for [`update`](super::CollisionWorld::update).
    pub(super) fn refreshed_mut(&mut self, view: &View<'_>) -> &mut Broad {
        let state = self.state_mut();
        state.refresh(view);
        &mut state.broad
    }

    /// The broad phase brought up to date, for queries: the first call after a change takes
    /// the changes in, the next ones only read.
    pub(super) fn refreshed(&self, view: &View<'_>) -> Refreshed<'_> {
        let read = self.state.read();
        if read.changed.is_empty() {
            return Refreshed(read);
        }
        drop(read);
        // Another thread may refresh first: `refresh` then finds nothing to do.
        self.state.write().refresh(view);
        Refreshed(self.state.read())
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

    /// Sets the epoch and a slot's mark, to test the epoch's wrap.
    #[cfg(test)]
    pub(super) fn set_epoch(&mut self, epoch: u32, slot: u32, mark: u32) {
        let state = self.state_mut();
        state.epoch = epoch;
        state.marked[slot as usize] = mark;
    }

    /// The epoch (tests).
    #[cfg(test)]
    pub(super) fn epoch(&mut self) -> u32 {
        self.state_mut().epoch
    }
}
