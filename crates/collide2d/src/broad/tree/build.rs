//! A tree rebuilt top down: binned surface-area splits, laid out depth first.

use super::dynamic::{perimeter, Node, Tree};
use super::NULL;
use crate::math::Vec2;
use crate::shape::Aabb;
use alloc::vec::Vec;

impl Tree {
    /// Rebuilds the tree top down, splitting at the median centre along the longer axis of the
    /// centres' box: balanced, and laid out depth first. Calls `moved(slot, leaf)` for every
    /// leaf's new node.
    pub(super) fn rebuild(
        &mut self,
        scratch: &mut Vec<(Aabb, u32)>,
        moved: &mut impl FnMut(u32, u32),
    ) {
        scratch.clear();
        scratch.extend(
            self.nodes
                .iter()
                .filter(|n| n.height == 0 && n.child1 == NULL && n.slot != NULL)
                .map(|n| (n.aabb, n.slot)),
        );
        self.nodes.clear();
        self.free = NULL;
        self.inserted = 0;
        self.leaves = scratch.len();
        self.root = if scratch.is_empty() {
            NULL
        } else {
            self.build(scratch, NULL, moved)
        };
    }

    pub(super) fn build(
        &mut self,
        items: &mut [(Aabb, u32)],
        parent: u32,
        moved: &mut impl FnMut(u32, u32),
    ) -> u32 {
        if let [(aabb, slot)] = *items {
            let id = self.alloc(Node {
                aabb,
                parent,
                child1: NULL,
                child2: NULL,
                height: 0,
                slot,
            });
            moved(slot, id);
            return id;
        }
        let (lo, hi) = items.iter().fold(
            (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
            |(lo, hi), (b, _)| (lo.min(b.center()), hi.max(b.center())),
        );
        let axis = usize::from(hi.y - lo.y > hi.x - lo.x);
        let mid = match sah_split(items, lo[axis], hi[axis], axis) {
            Some(mid) => mid,
            None => {
                let mid = items.len() / 2;
                items.select_nth_unstable_by(mid, |a, b| {
                    a.0.center()[axis]
                        .total_cmp(&b.0.center()[axis])
                        .then(a.1.cmp(&b.1))
                });
                mid
            }
        };
        let id = self.alloc(Node {
            aabb: items[0].0,
            parent,
            child1: NULL,
            child2: NULL,
            height: 0,
            slot: NULL,
        });
        let (left, right) = items.split_at_mut(mid);
        let c1 = self.build(left, id, moved);
        let c2 = self.build(right, id, moved);
        let (n1, n2) = (self.nodes[c1 as usize], self.nodes[c2 as usize]);
        let node = &mut self.nodes[id as usize];
        node.child1 = c1;
        node.child2 = c2;
        node.aabb = n1.aabb.union(&n2.aabb);
        node.height = 1 + n1.height.max(n2.height);
        id
    }
}

/// Bins for [`sah_split`].
pub(super) const BINS: usize = 16;

/// Splits `items` by the surface-area heuristic (perimeter in 2D) over `BINS` equal bins of
/// the centres' span `lo..hi` along `axis`: moves the items of the cheaper side's bins first
/// and returns how many. `None` when the span is empty or every item falls in one bin.
pub(super) fn sah_split(items: &mut [(Aabb, u32)], lo: f32, hi: f32, axis: usize) -> Option<usize> {
    let extent = hi - lo;
    if extent.is_nan() || extent <= 0.0 || !extent.is_finite() || items.len() < 4 {
        return None;
    }
    let scale = BINS as f32 / extent;
    let bin = |b: &Aabb| (((b.center()[axis] - lo) * scale) as usize).min(BINS - 1);
    let mut counts = [0usize; BINS];
    let mut boxes: [Option<Aabb>; BINS] = [None; BINS];
    for (b, _) in items.iter() {
        let i = bin(b);
        counts[i] += 1;
        boxes[i] = Some(boxes[i].map_or(*b, |u| u.union(b)));
    }
    // Perimeter and count of everything right of each split, then a sweep from the left.
    let mut right = [(0.0f32, 0usize); BINS];
    let (mut acc, mut n): (Option<Aabb>, usize) = (None, 0);
    for i in (1..BINS).rev() {
        if let Some(b) = boxes[i] {
            acc = Some(acc.map_or(b, |u| u.union(&b)));
        }
        n += counts[i];
        right[i] = (acc.map_or(0.0, |b| perimeter(&b)), n);
    }
    let (mut acc, mut n): (Option<Aabb>, usize) = (None, 0);
    let mut best: Option<(f32, usize, usize)> = None;
    for i in 0..BINS - 1 {
        if let Some(b) = boxes[i] {
            acc = Some(acc.map_or(b, |u| u.union(&b)));
        }
        n += counts[i];
        let (rp, rn) = right[i + 1];
        if n == 0 || rn == 0 {
            continue;
        }
        let cost = acc.map_or(0.0, |b| perimeter(&b)) * n as f32 + rp * rn as f32;
        if best.is_none_or(|(c, _, _)| cost < c) {
            best = Some((cost, i, n));
        }
    }
    let (_, split, left) = best?;
    // Stable enough to be deterministic: a two-pointer partition of the input order.
    let (mut i, mut j) = (0, items.len());
    while i < j {
        if bin(&items[i].0) <= split {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    debug_assert_eq!(i, left);
    Some(left)
}
