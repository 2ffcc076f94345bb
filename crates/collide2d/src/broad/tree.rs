//! Dynamic bounding-volume trees, one per filter group: leaves hold enlarged ("fat") boxes so
//! an object that moves a little keeps its leaf, inserts descend by the perimeter cost and
//! rebalance by rotations (Box2D v2.4 `b2DynamicTree`, after Catto's GDC 2019 talk).
//!
//! Pairs come from simultaneous descents: each tree against itself when its group collides with
//! itself, and each pair of compatible trees against each other, so incompatible groups (a bullet
//! layer that ignores itself, static against static) never meet.

use super::{inverse_dir, ray_box, BroadBox, BroadBoxKind, View};
use crate::math::Vec2;
use crate::query::Ray;
use crate::shape::Aabb;
use crate::world::Handle;
use glam::{Vec4, Vec4Swizzles};
use std::sync::OnceLock;

const NULL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Fat box for a leaf; union of the children for an inner node.
    aabb: Aabb,
    parent: u32,
    /// `NULL` for a leaf.
    child1: u32,
    child2: u32,
    /// 0 for a leaf.
    height: i32,
    /// The object slot of a leaf.
    slot: u32,
}

#[inline]
fn perimeter(b: &Aabb) -> f32 {
    let s = b.size();
    2.0 * (s.x + s.y)
}

#[inline]
fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    outer.min().cmple(inner.min()).all() && inner.max().cmple(outer.max()).all()
}

/// One tree.
#[derive(Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
    root: u32,
    /// Head of the free list, chained through `parent`.
    free: u32,
    /// Leaves now in the tree.
    leaves: usize,
    /// Leaves inserted since the last top-down build.
    inserted: usize,
}

/// An inner node laid out for ray casts: both children's boxes, so a visit reads one cache line
/// and tests both children as one four-lane slab test; nodes in depth-first order (a node, its
/// first child's subtree, its second's), so a first child is the next node.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Wide {
    /// `(child 1's min x, min y, child 2's min x, min y)`.
    lo: Vec4,
    /// The same for the max corners.
    hi: Vec4,
    /// Each child's index in the wide array, or its slot when a leaf.
    child: [u32; 2],
    /// Bit `i` set when child `i` is a leaf.
    leaf: u32,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaves: 0,
            inserted: 0,
        }
    }

    /// The inner nodes as [`Wide`] nodes, root first; empty when the root is a leaf.
    fn flatten(&self) -> Vec<Wide> {
        let mut out: Vec<Wide> = Vec::with_capacity(self.leaves.saturating_sub(1));
        if self.root == NULL || self.is_leaf(self.root) {
            return out;
        }
        // (node, parent's wide index, side under it)
        let mut stack = vec![(self.root, NULL, 0usize)];
        while let Some((id, parent, side)) = stack.pop() {
            let w = out.len() as u32;
            if parent != NULL {
                out[parent as usize].child[side] = w;
            }
            let n = &self.nodes[id as usize];
            let (a, b) = (
                &self.nodes[n.child1 as usize],
                &self.nodes[n.child2 as usize],
            );
            let mut node = Wide {
                lo: Vec4::new(
                    a.aabb.min().x,
                    a.aabb.min().y,
                    b.aabb.min().x,
                    b.aabb.min().y,
                ),
                hi: Vec4::new(
                    a.aabb.max().x,
                    a.aabb.max().y,
                    b.aabb.max().x,
                    b.aabb.max().y,
                ),
                child: [NULL; 2],
                leaf: 0,
            };
            // The second child's subtree goes on the stack first, so the first child's is laid
            // out right after this node.
            for (side, c) in [(1usize, n.child2), (0, n.child1)] {
                let cn = &self.nodes[c as usize];
                if cn.child1 == NULL {
                    node.child[side] = cn.slot;
                    node.leaf |= 1 << side;
                } else {
                    stack.push((c, w, side));
                }
            }
            out.push(node);
        }
        out
    }

    fn alloc(&mut self, node: Node) -> u32 {
        if self.free == NULL {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let id = self.free;
            self.free = self.nodes[id as usize].parent;
            self.nodes[id as usize] = node;
            id
        }
    }

    fn release(&mut self, id: u32) {
        self.nodes[id as usize].parent = self.free;
        self.nodes[id as usize].height = -1;
        self.nodes[id as usize].slot = NULL;
        self.free = id;
    }

    #[inline]
    fn is_leaf(&self, id: u32) -> bool {
        self.nodes[id as usize].child1 == NULL
    }

    fn insert(&mut self, fat: Aabb, slot: u32) -> u32 {
        self.leaves += 1;
        self.inserted += 1;
        let leaf = self.alloc(Node {
            aabb: fat,
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            slot,
        });
        if self.root == NULL {
            self.root = leaf;
            return leaf;
        }
        // Find the best sibling by the perimeter cost of the enlarged ancestors.
        let mut index = self.root;
        while !self.is_leaf(index) {
            let node = self.nodes[index as usize];
            let area = perimeter(&node.aabb);
            let combined = perimeter(&node.aabb.union(&fat));
            let cost = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let child_cost = |c: u32| {
                let b = &self.nodes[c as usize].aabb;
                let grown = perimeter(&b.union(&fat));
                if self.is_leaf(c) {
                    grown + inheritance
                } else {
                    grown - perimeter(b) + inheritance
                }
            };
            let (cost1, cost2) = (child_cost(node.child1), child_cost(node.child2));
            if cost < cost1 && cost < cost2 {
                break;
            }
            index = if cost1 < cost2 {
                node.child1
            } else {
                node.child2
            };
        }
        let sibling = index;
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.alloc(Node {
            aabb: fat.union(&self.nodes[sibling as usize].aabb),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: self.nodes[sibling as usize].height + 1,
            slot: NULL,
        });
        if old_parent == NULL {
            self.root = new_parent;
        } else if self.nodes[old_parent as usize].child1 == sibling {
            self.nodes[old_parent as usize].child1 = new_parent;
        } else {
            self.nodes[old_parent as usize].child2 = new_parent;
        }
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.refit_up(new_parent);
        leaf
    }

    fn remove(&mut self, leaf: u32) {
        self.leaves -= 1;
        if leaf == self.root {
            self.root = NULL;
            self.release(leaf);
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        if grand == NULL {
            self.root = sibling;
            self.nodes[sibling as usize].parent = NULL;
        } else {
            if self.nodes[grand as usize].child1 == parent {
                self.nodes[grand as usize].child1 = sibling;
            } else {
                self.nodes[grand as usize].child2 = sibling;
            }
            self.nodes[sibling as usize].parent = grand;
            self.refit_up(grand);
        }
        self.release(parent);
        self.release(leaf);
    }

    /// Rebalances and refits every node from `index` to the root.
    fn refit_up(&mut self, mut index: u32) {
        while index != NULL {
            index = self.balance(index);
            let n = self.nodes[index as usize];
            let (c1, c2) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
            let node = &mut self.nodes[index as usize];
            node.height = 1 + c1.height.max(c2.height);
            node.aabb = c1.aabb.union(&c2.aabb);
            index = node.parent;
        }
    }

    /// Rebuilds the tree top down, splitting at the median centre along the longer axis of the
    /// centres' box: balanced, and laid out depth first. Calls `moved(slot, leaf)` for every
    /// leaf's new node.
    fn rebuild(&mut self, scratch: &mut Vec<(Aabb, u32)>, moved: &mut impl FnMut(u32, u32)) {
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

    fn build(
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

    fn h(&self, id: u32) -> i32 {
        self.nodes[id as usize].height
    }

    fn bb(&self, id: u32) -> Aabb {
        self.nodes[id as usize].aabb
    }

    /// Box2D's rotation: lifts the taller grandchild when `a`'s children differ in height by
    /// more than one. Returns the node now in `a`'s place.
    fn balance(&mut self, a: u32) -> u32 {
        if self.is_leaf(a) || self.h(a) < 2 {
            return a;
        }
        let (b, c) = (self.nodes[a as usize].child1, self.nodes[a as usize].child2);
        let diff = self.h(c) - self.h(b);
        if diff > 1 {
            self.rotate_up(a, c, b, true)
        } else if diff < -1 {
            self.rotate_up(a, b, c, false)
        } else {
            a
        }
    }

    /// Lifts child `up` of `a` into `a`'s place; `other` is `a`'s other child. `up_is_child2`
    /// says which side of `a` `up` was on: its taller child stays with it, its shorter one takes
    /// `up`'s old place under `a`.
    fn rotate_up(&mut self, a: u32, up: u32, other: u32, up_is_child2: bool) -> u32 {
        let (f, g) = (
            self.nodes[up as usize].child1,
            self.nodes[up as usize].child2,
        );
        let a_parent = self.nodes[a as usize].parent;
        self.nodes[up as usize].child1 = a;
        self.nodes[up as usize].parent = a_parent;
        self.nodes[a as usize].parent = up;
        if a_parent == NULL {
            self.root = up;
        } else if self.nodes[a_parent as usize].child1 == a {
            self.nodes[a_parent as usize].child1 = up;
        } else {
            self.nodes[a_parent as usize].child2 = up;
        }
        let (keep, give) = if self.h(f) > self.h(g) {
            (f, g)
        } else {
            (g, f)
        };
        self.nodes[up as usize].child2 = keep;
        if up_is_child2 {
            self.nodes[a as usize].child2 = give;
        } else {
            self.nodes[a as usize].child1 = give;
        }
        self.nodes[give as usize].parent = a;
        let a_box = self.bb(other).union(&self.bb(give));
        let a_height = 1 + self.h(other).max(self.h(give));
        self.nodes[a as usize].aabb = a_box;
        self.nodes[a as usize].height = a_height;
        self.nodes[up as usize].aabb = a_box.union(&self.bb(keep));
        self.nodes[up as usize].height = 1 + a_height.max(self.h(keep));
        up
    }
}

/// Bins for [`sah_split`].
const BINS: usize = 16;

/// Splits `items` by the surface-area heuristic (perimeter in 2D) over `BINS` equal bins of
/// the centres' span `lo..hi` along `axis`: moves the items of the cheaper side's bins first
/// and returns how many. `None` when the span is empty or every item falls in one bin.
fn sah_split(items: &mut [(Aabb, u32)], lo: f32, hi: f32, axis: usize) -> Option<usize> {
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

/// One tree per group, and each slot's leaf.
#[derive(Debug)]
pub(crate) struct Trees {
    margin: f32,
    trees: Vec<Tree>,
    /// By tree, its inner nodes for ray casts, built on the first cast after the tree changes
    /// (`sync` drops them when it inserts, removes or rebuilds): see [`Wide`]. Apart from the
    /// trees so the pair search's code over them stays as it was.
    wides: Vec<OnceLock<Vec<Wide>>>,
    /// `(group, leaf)` by slot, `(NULL, NULL)` when the slot has no leaf.
    proxies: Vec<(u32, u32)>,
    stack: Vec<(u32, u32)>,
    scratch: Vec<(Aabb, u32)>,
}

impl Trees {
    pub(crate) fn new(margin: f32) -> Trees {
        Trees {
            margin,
            trees: Vec::new(),
            wides: Vec::new(),
            proxies: Vec::new(),
            stack: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn fat(&self, b: &Aabb) -> Aabb {
        Aabb::new_unchecked(b.min() - self.margin, b.max() + self.margin).outward()
    }

    pub(crate) fn sync(&mut self, view: &View<'_>, changed: &[u32]) {
        self.proxies.resize(view.groups.len(), (NULL, NULL));
        while self.trees.len() < view.table.len() {
            self.trees.push(Tree::new());
            self.wides.push(OnceLock::new());
        }
        for &slot in changed {
            let s = slot as usize;
            let group = view.groups[s];
            let (old_group, leaf) = self.proxies[s];
            if group != NULL && group == old_group {
                let tight = &view.aabbs[s];
                let held = self.trees[group as usize].nodes[leaf as usize].aabb;
                // Keep the leaf while the box stays inside it and has not shrunk a lot.
                if contains(&held, tight)
                    && perimeter(&held) <= 2.0 * perimeter(&self.fat(tight)) + self.margin
                {
                    continue;
                }
            }
            if old_group != NULL {
                self.trees[old_group as usize].remove(leaf);
                drop_wide(&mut self.wides[old_group as usize]);
                self.proxies[s] = (NULL, NULL);
            }
            if group != NULL {
                let fat = self.fat(&view.aabbs[s]);
                let leaf = self.trees[group as usize].insert(fat, slot);
                drop_wide(&mut self.wides[group as usize]);
                self.proxies[s] = (group, leaf);
            }
        }
        // A tree that has taken in more leaves than it holds since its last build (a level just
        // loaded, or a churning crowd) is rebuilt top down: incremental inserts alone leave it
        // deeper than it needs to be.
        for (g, tree) in self.trees.iter_mut().enumerate() {
            if tree.leaves >= 16 && tree.inserted >= tree.leaves {
                let proxies = &mut self.proxies;
                tree.rebuild(&mut self.scratch, &mut |slot, leaf| {
                    proxies[slot as usize] = (g as u32, leaf);
                });
                drop_wide(&mut self.wides[g]);
            }
        }
    }

    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>) {
        let g_count = self.trees.len();
        for g in 0..g_count {
            if self.trees[g].root == NULL {
                continue;
            }
            for h in g..g_count {
                if self.trees[h].root == NULL || !view.table.compatible(g as u32, h as u32) {
                    continue;
                }
                descend(
                    &self.trees[g],
                    &self.trees[h],
                    g == h,
                    view.aabbs,
                    &mut self.stack,
                    out,
                );
            }
        }
    }

    /// Every node of every tree, tree by tree, each in depth-first order (a node, then its
    /// first child's subtree, then its second's).
    pub(crate) fn boxes(&self, handle: &dyn Fn(u32) -> Handle, out: &mut Vec<BroadBox>) {
        let mut stack: Vec<(u32, u32)> = Vec::with_capacity(64);
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL {
                continue;
            }
            let tree_id = g as u32;
            stack.push((tree.root, 0));
            while let Some((id, depth)) = stack.pop() {
                let node = &tree.nodes[id as usize];
                let kind = if node.child1 == NULL {
                    BroadBoxKind::Leaf {
                        tree: tree_id,
                        depth,
                        object: handle(node.slot),
                    }
                } else {
                    stack.push((node.child2, depth + 1));
                    stack.push((node.child1, depth + 1));
                    BroadBoxKind::Node {
                        tree: tree_id,
                        depth,
                    }
                };
                out.push(BroadBox {
                    aabb: node.aabb,
                    kind,
                });
            }
        }
    }

    pub(crate) fn query(&self, view: &View<'_>, region: &Aabb, mask: u64, f: &mut dyn FnMut(u32)) {
        let mut stack = Vec::with_capacity(64);
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL || !view.table.visible(g as u32, mask) {
                continue;
            }
            stack.push(tree.root);
            while let Some(id) = stack.pop() {
                let node = &tree.nodes[id as usize];
                if !node.aabb.overlaps(region) {
                    continue;
                }
                if node.child1 == NULL {
                    f(node.slot);
                } else {
                    stack.push(node.child2);
                    stack.push(node.child1);
                }
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
        let slabs = RaySlabs::new(ray);
        let mut max_t = max_t;
        let mut stack = RayStack::new();
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL || !view.table.visible(g as u32, mask) {
                continue;
            }
            let root = &tree.nodes[tree.root as usize];
            let Some(t) = slabs.enter(&root.aabb, max_t) else {
                continue;
            };
            if root.child1 == NULL {
                max_t = max_t.min(f(root.slot));
                continue;
            }
            let wide = &self.wides[g].get_or_init(|| tree.flatten())[..];
            // The hot loop without the parallel-ray case, so it keeps the ray in registers.
            if slabs.parallel.is_some() {
                walk::<true>(wide, &slabs, t, &mut max_t, &mut stack, f);
            } else {
                walk::<false>(wide, &slabs, t, &mut max_t, &mut stack, f);
            }
        }
    }
}

/// The ray traversal of one tree's [`Wide`] nodes from the root, entered at `t`: calls `f` with
/// the slot of every leaf whose box the ray meets before `max_t`, nearer children first, and
/// lowers `max_t` to what `f` returns. `PARALLEL` says whether `slabs.parallel` is set.
#[inline(always)]
fn walk<const PARALLEL: bool>(
    wide: &[Wide],
    slabs: &RaySlabs,
    t: f32,
    max_t: &mut f32,
    stack: &mut RayStack,
    f: &mut dyn FnMut(u32) -> f32,
) {
    // (wide index or slot, entry t, leaf)
    let mut current = (0u32, t, false);
    loop {
        let (id, t_enter, leaf) = current;
        // A node is skipped when a nearer hit was found since it was reached.
        let next = if t_enter > *max_t {
            None
        } else if leaf {
            *max_t = max_t.min(f(id));
            None
        } else {
            let node = &wide[id as usize];
            let (c1, c2) = (node.child[0], node.child[1]);
            let (l1, l2) = (node.leaf & 1 != 0, node.leaf & 2 != 0);
            let hits = if PARALLEL {
                slabs.enter_wide(node.lo, node.hi, *max_t)
            } else {
                slabs.enter_wide_lanes(node.lo, node.hi, *max_t)
            };
            // The nearer child next, the farther one on the stack.
            match hits {
                (Some(a), Some(b)) if a <= b => {
                    stack.push((c2, b, l2));
                    Some((c1, a, l1))
                }
                (Some(a), Some(b)) => {
                    stack.push((c1, a, l1));
                    Some((c2, b, l2))
                }
                (Some(a), None) => Some((c1, a, l1)),
                (None, Some(b)) => Some((c2, b, l2)),
                (None, None) => None,
            }
        };
        match next.or_else(|| stack.pop()) {
            Some(n) => current = n,
            None => break,
        }
    }
}

/// Drops a tree's ray layout (checked first: most trees that change are never cast against).
#[inline]
fn drop_wide(wide: &mut OnceLock<Vec<Wide>>) {
    if wide.get_mut().is_some() {
        *wide = OnceLock::new();
    }
}

/// A ray set up for box tests: [`ray_box`](super::ray_box) with a box's four slab distances
/// computed as one four-lane operation.
struct RaySlabs {
    /// `(origin.x, origin.y, origin.x, origin.y)`.
    origin: Vec4,
    /// [`inverse_dir`] twice, the same way.
    inv_dir: Vec4,
    /// The ray, when a direction component is zero: its slabs are containment tests, which
    /// `ray_box` decides (products would give an origin on an edge the empty slab `[0, 0]`).
    parallel: Option<Ray>,
}

#[inline(always)]
fn max_f(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

#[inline(always)]
fn min_f(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

impl RaySlabs {
    fn new(ray: &Ray) -> RaySlabs {
        let inv = inverse_dir(ray.dir);
        let o = ray.origin;
        RaySlabs {
            origin: Vec4::new(o.x, o.y, o.x, o.y),
            inv_dir: Vec4::new(inv.x, inv.y, inv.x, inv.y),
            parallel: (ray.dir.x == 0.0 || ray.dir.y == 0.0).then_some(*ray),
        }
    }

    /// As [`ray_box`](super::ray_box)`(ray, inverse_dir(ray.dir), aabb, max_t)`, bit for bit:
    /// each lane rounds the same subtraction and product, and as the ray is finite and
    /// `inv_dir` finite and non-zero, no lane is NaN, so the lane-wise min and max agree with
    /// `f32::min` and `f32::max`.
    #[inline(always)]
    fn enter(&self, aabb: &Aabb, max_t: f32) -> Option<f32> {
        if let Some(ray) = &self.parallel {
            return ray_box(ray, inverse_dir(ray.dir), aabb, max_t);
        }
        let (lo, hi) = (aabb.min(), aabb.max());
        let t = (Vec4::new(lo.x, lo.y, hi.x, hi.y) - self.origin) * self.inv_dir;
        let swapped = t.zwxy();
        let (near, far) = (t.min(swapped), t.max(swapped));
        let enter = max_f(max_f(near.x, near.y), 0.0);
        let exit = min_f(min_f(far.x, far.y), max_t);
        let slack = max_f(enter, exit.abs()) * 2e-6 + f32::MIN_POSITIVE;
        (enter <= exit + slack).then_some(max_f(enter - enter * 2e-6, 0.0))
    }

    /// [`RaySlabs::enter`] for two boxes at once, lane for lane the same operations.
    #[cfg(test)]
    fn enter2(&self, a: &Aabb, b: &Aabb, max_t: f32) -> (Option<f32>, Option<f32>) {
        if self.parallel.is_some() {
            return (self.enter(a, max_t), self.enter(b, max_t));
        }
        self.enter_wide(
            Vec4::new(a.min().x, a.min().y, b.min().x, b.min().y),
            Vec4::new(a.max().x, a.max().y, b.max().x, b.max().y),
            max_t,
        )
    }

    /// [`RaySlabs::enter2`] for boxes `a` and `b` given as `lo = (a.min, b.min)` and
    /// `hi = (a.max, b.max)`, as a [`Wide`] node holds them.
    #[inline(always)]
    fn enter_wide(&self, lo: Vec4, hi: Vec4, max_t: f32) -> (Option<f32>, Option<f32>) {
        if let Some(ray) = &self.parallel {
            let inv = inverse_dir(ray.dir);
            let a = Aabb::new_unchecked(lo.xy(), hi.xy());
            let b = Aabb::new_unchecked(lo.zw(), hi.zw());
            return (ray_box(ray, inv, &a, max_t), ray_box(ray, inv, &b, max_t));
        }
        self.enter_wide_lanes(lo, hi, max_t)
    }

    /// [`RaySlabs::enter_wide`] when `parallel` is not set.
    #[inline(always)]
    fn enter_wide_lanes(&self, lo: Vec4, hi: Vec4, max_t: f32) -> (Option<f32>, Option<f32>) {
        debug_assert!(self.parallel.is_none());
        // (a's min side x, y, b's min side x, y) against the max sides.
        let lows = (lo - self.origin) * self.inv_dir;
        let highs = (hi - self.origin) * self.inv_dir;
        let (near, far) = (lows.min(highs), lows.max(highs));
        // Lanes 0 (a) and 2 (b) hold each box's entry and exit.
        let enter = near.max(near.yxwz()).max(Vec4::ZERO);
        let exit = far.min(far.yxwz()).min(Vec4::splat(max_t));
        let slack = enter.max(exit.abs()) * 2e-6 + f32::MIN_POSITIVE;
        let hit = enter.cmple(exit + slack).bitmask();
        // Returned that much early, as `ray_box` does.
        let early = (enter - enter * 2e-6).max(Vec4::ZERO);
        (
            (hit & 1 != 0).then_some(early.x),
            (hit & 4 != 0).then_some(early.z),
        )
    }
}

/// The ray traversal's stack of `(wide node or slot, entry t, leaf)`: on the call stack up to 64
/// entries (a tree that tall holds billions of leaves when balanced), then on the heap. An entry
/// is two words, the leaf flag in the sign bit of `t` (an entry `t` is never negative, nor -0),
/// so the inline array is cheap to set up.
struct RayStack {
    inline: [(u32, u32); 64],
    len: usize,
    spill: Vec<(u32, u32)>,
}

const SIGN: u32 = 1 << 31;

impl RayStack {
    #[inline(always)]
    fn new() -> RayStack {
        RayStack {
            inline: [(NULL, 0); 64],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline(always)]
    fn push(&mut self, (id, t, leaf): (u32, f32, bool)) {
        debug_assert!(t.to_bits() & SIGN == 0);
        let item = (id, t.to_bits() | if leaf { SIGN } else { 0 });
        if self.len < self.inline.len() {
            self.inline[self.len] = item;
            self.len += 1;
        } else {
            self.spill.push(item);
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, f32, bool)> {
        let (id, bits) = if let Some(item) = self.spill.pop() {
            item
        } else {
            if self.len == 0 {
                return None;
            }
            self.len -= 1;
            self.inline[self.len]
        };
        Some((id, f32::from_bits(bits & !SIGN), bits & SIGN != 0))
    }
}

/// Every pair of leaves, one from `a` and one from `b` (two distinct leaves of `a` when `same`),
/// whose tight boxes overlap.
fn descend(
    a: &Tree,
    b: &Tree,
    same: bool,
    tight: &[Aabb],
    stack: &mut Vec<(u32, u32)>,
    out: &mut Vec<(u32, u32)>,
) {
    stack.clear();
    stack.push((a.root, b.root));
    while let Some((i, j)) = stack.pop() {
        let (ni, nj) = (&a.nodes[i as usize], &b.nodes[j as usize]);
        if same && i == j {
            if ni.child1 != NULL {
                stack.push((ni.child1, ni.child2));
                stack.push((ni.child2, ni.child2));
                stack.push((ni.child1, ni.child1));
            }
            continue;
        }
        if !ni.aabb.overlaps(&nj.aabb) {
            continue;
        }
        match (ni.child1 == NULL, nj.child1 == NULL) {
            (true, true) => {
                let (x, y) = (ni.slot, nj.slot);
                if tight[x as usize].overlaps(&tight[y as usize]) {
                    out.push((x.min(y), x.max(y)));
                }
            }
            (false, true) => {
                stack.push((ni.child1, j));
                stack.push((ni.child2, j));
            }
            (true, false) => {
                stack.push((i, nj.child1));
                stack.push((i, nj.child2));
            }
            (false, false) => {
                if ni.height >= nj.height {
                    stack.push((ni.child1, j));
                    stack.push((ni.child2, j));
                } else {
                    stack.push((i, nj.child1));
                    stack.push((i, nj.child2));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slab tests accept the same boxes as `ray_box`, at the same entry.
    #[test]
    fn ray_slabs_agree_with_ray_box() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1 << 24) as f32 * 20.0 - 10.0
        };
        let dirs = [
            Vec2::new(1.0, 0.0),
            Vec2::new(-0.0, -2.0),
            Vec2::new(0.6, -0.8),
            Vec2::new(-3.0, 0.5),
            Vec2::new(1e-40, 1.0),
        ];
        for k in 0..4000 {
            let origin = Vec2::new(next(), next());
            let dir = if k % 3 == 0 {
                Vec2::new(next(), next())
            } else {
                dirs[k % dirs.len()]
            };
            let ray = Ray::new(origin, dir);
            let slabs = RaySlabs::new(&ray);
            let inv = inverse_dir(dir);
            let mut boxes = [Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO); 2];
            for b in &mut boxes {
                let (p, q) = (Vec2::new(next(), next()), Vec2::new(next(), next()) * 0.2);
                *b = Aabb::new_unchecked(p.min(p + q), p.max(p + q));
            }
            // A box the ray starts on the edge of.
            if k % 5 == 0 {
                boxes[1] = Aabb::new_unchecked(origin, origin + Vec2::splat(1.0));
            }
            for max_t in [0.0, 0.5, 3.0, f32::INFINITY] {
                let want = boxes.map(|b| ray_box(&ray, inv, &b, max_t));
                assert_eq!(slabs.enter(&boxes[0], max_t), want[0]);
                assert_eq!(slabs.enter(&boxes[1], max_t), want[1]);
                assert_eq!(
                    slabs.enter2(&boxes[0], &boxes[1], max_t),
                    (want[0], want[1])
                );
            }
        }
    }
}
