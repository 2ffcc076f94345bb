//! [`BroadPhase::auto`](super::BroadPhase::auto), the default: the structure chosen from the
//! objects themselves, and chosen again when their number has doubled or halved since.
//!
//! The grid is the fastest structure for moving objects of similar sizes (its cost does not
//! grow with how far they move, where a tree re-inserts every leaf that leaves its fat box),
//! with a cell a little wider than almost all of them. A tree suits everything else: sizes
//! spread over orders of magnitude (a grid would keep the large ones aside, or make cells too
//! wide for the small ones), nothing moving (a static level and its queries), or too few moving
//! objects for the choice to matter. The choice reads only the objects' boxes and groups, so
//! the same operations choose the same structure at the same update; and every structure finds
//! the same pairs, so results never depend on it.

use super::{BroadKind, View};
use alloc::vec::Vec;

/// Moving objects below which the tree is kept: too few for the grid to pay off.
const MIN_MOVING: usize = 256;

/// The grid is chosen only when an object's sweep is expected to test at most this many others
/// (see [`choose`]).
const MAX_TESTS: f32 = 16.0;

/// Of the objects, at most one in this many may be too large for the chosen cell (each large
/// object is tested against the grid's lists row by row, every update, static or not).
const LARGE_SHARE: usize = 32;

/// The tree's margin when the tree is chosen.
pub(crate) const TREE_MARGIN: f32 = 0.1;

/// The choice, and the number of objects it was made for.
#[derive(Debug)]
pub(crate) struct Chooser {
    /// Live objects as of the last `count`.
    live: usize,
    /// Live objects when the structure was last chosen (`None` before the first choice).
    chosen_at: Option<usize>,
    /// Whether each slot held an object as of the last `count`.
    held: Vec<bool>,
}

impl Chooser {
    pub(crate) fn new() -> Chooser {
        Chooser {
            live: 0,
            chosen_at: None,
            held: Vec::new(),
        }
    }

    /// Counts the objects after the changes in `changed` (when `filled_or_emptied`: else none
    /// of them was inserted or removed, and the count stands); returns the structure to switch
    /// to when it is time to choose again and the choice differs from `current`.
    pub(crate) fn track(
        &mut self,
        view: &View<'_>,
        changed: &[u32],
        filled_or_emptied: bool,
        current: BroadKind,
    ) -> Option<BroadKind> {
        if filled_or_emptied {
            self.count(view, changed);
        }
        let due = match self.chosen_at {
            None => self.live > 0,
            Some(at) => self.live > 2 * at.max(MIN_MOVING / 2) || self.live < at / 2,
        };
        if !due {
            return None;
        }
        self.chosen_at = Some(self.live);
        let kind = choose(view, &self.held);
        (kind != current).then_some(kind)
    }

    /// Counts the objects after the changes in `changed`, choosing nothing.
    pub(crate) fn count(&mut self, view: &View<'_>, changed: &[u32]) {
        self.held.resize(view.groups.len(), false);
        for &slot in changed {
            let s = slot as usize;
            let now = view.groups[s] != u32::MAX;
            let was = core::mem::replace(&mut self.held[s], now);
            self.live = self.live + usize::from(now) - usize::from(was);
        }
    }

    /// Every live slot, in order (to fill a new structure).
    pub(crate) fn live_slots(&self) -> Vec<u32> {
        (0..self.held.len() as u32)
            .filter(|&s| self.held[s as usize])
            .collect()
    }
}

/// The structure for the objects in the slots marked in `held` (see the module doc).
///
/// The cell is the power of two at or above the 99th percentile of the moving objects' widths
/// (so cell edges are exact multiples). A row of cells is swept on `x` against itself and the
/// row above: an object meets the others of two rows of that height whose `x` ranges overlap
/// its own, about `2 * density * cell * mean width` of them. Mixed sizes make that large when
/// crowded (a wide cell for a few large objects over many small ones), not when sparse.
fn choose(view: &View<'_>, held: &[bool]) -> BroadKind {
    let tree = BroadKind::Tree {
        margin: TREE_MARGIN,
    };
    let width = |s: usize| view.aabbs[s].size().max_element();
    let mut moving: Vec<f32> = Vec::new();
    let mut objects = 0usize;
    let (mut lo, mut hi) = (crate::math::Vec2::INFINITY, crate::math::Vec2::NEG_INFINITY);
    for (s, _) in held.iter().enumerate().filter(|(_, &h)| h) {
        objects += 1;
        let b = &view.aabbs[s];
        (lo, hi) = (lo.min(b.min()), hi.max(b.max()));
        if !view.table.is_static(view.groups[s]) {
            moving.push(width(s));
        }
    }
    if moving.len() < MIN_MOVING {
        return tree;
    }
    crate::sort::sort_distinct_by(&mut moving, f32::total_cmp);
    let high = moving[moving.len() * 99 / 100];
    // Points and other empty boxes say nothing of a cell's size; huge ones (near `f32::MAX`)
    // would make a cell no key can address.
    if !(high > 0.0 && high < 1e30) {
        return tree;
    }
    let cell = next_power_of_two(high);
    // In `f64`: the extent of a world near `f32::MAX` overflows `f32`.
    let extent = (hi.as_dvec2() - lo.as_dvec2()).max(glam::DVec2::splat(f64::from(cell)));
    let density = objects as f64 / (extent.x * extent.y);
    let mean = moving.iter().map(|&w| f64::from(w)).sum::<f64>() / moving.len() as f64;
    if 2.0 * density * f64::from(cell) * mean > f64::from(MAX_TESTS) {
        return tree;
    }
    let large = held
        .iter()
        .enumerate()
        .filter(|(s, &h)| h && width(*s) > cell)
        .count();
    if large * LARGE_SHARE > objects {
        return tree;
    }
    BroadKind::Grid { cell_size: cell }
}

/// The smallest power of two at or above `x` (positive, finite, below `2^126`).
fn next_power_of_two(x: f32) -> f32 {
    let mut p = f32::from_bits(x.to_bits() & 0xff80_0000);
    if p < x {
        p *= 2.0;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_power_of_two_rounds_up_to_an_exact_power() {
        for (x, want) in [(1.0, 1.0), (1.2, 2.0), (3.9, 4.0), (0.3, 0.5), (64.0, 64.0)] {
            assert_eq!(next_power_of_two(x), want, "{x}");
        }
    }
}
