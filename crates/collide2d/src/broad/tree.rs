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
use glam::Vec4;
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

/// An inner node laid out for ray casts: up to four children's boxes as four-lane columns, so a
/// visit tests them all as one four-lane slab test and a ray passes half as many levels as in the
/// binary tree. Built by opening the inner child with the largest perimeter until four children
/// (or only leaves) are left; nodes in depth-first order, so a first inner child is the next node.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
struct Quad {
    /// Each child's min x, lane by lane.
    min_x: Vec4,
    /// Each child's min y.
    min_y: Vec4,
    /// Each child's max x.
    max_x: Vec4,
    /// Each child's max y.
    max_y: Vec4,
    /// Each child's index in the quad array, or its slot when a leaf.
    child: [u32; 4],
    /// Bit `i` set when lane `i` holds a child; bit `4 + i` when that child is a leaf.
    mask: u32,
    /// Lane `i`'s traversal tag: `i`, plus 4 when its child is a leaf (see [`walk`]).
    tag: [u8; 4],
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

    /// The inner nodes as [`Quad`]s, root first; empty when the root is a leaf.
    fn flatten(&self) -> Vec<Quad> {
        let mut out: Vec<Quad> = Vec::with_capacity(self.leaves / 2);
        if self.root == NULL || self.is_leaf(self.root) {
            return out;
        }
        // (node, parent's quad index, lane under it)
        let mut stack = vec![(self.root, NULL, 0usize)];
        while let Some((id, parent, lane)) = stack.pop() {
            let q = out.len() as u32;
            if parent != NULL {
                out[parent as usize].child[lane] = q;
            }
            let n = &self.nodes[id as usize];
            let mut kids = [n.child1, n.child2, NULL, NULL];
            let mut count = 2;
            while count < 4 {
                // The largest inner child gives way to its two children, in its place.
                let mut open: Option<(usize, f32)> = None;
                for (i, &c) in kids[..count].iter().enumerate() {
                    if !self.is_leaf(c) {
                        let p = perimeter(&self.nodes[c as usize].aabb);
                        if open.is_none_or(|(_, best)| p > best) {
                            open = Some((i, p));
                        }
                    }
                }
                let Some((i, _)) = open else {
                    break;
                };
                let c = &self.nodes[kids[i] as usize];
                kids.copy_within(i + 1..count, i + 2);
                kids[i] = c.child1;
                kids[i + 1] = c.child2;
                count += 1;
            }
            let mut node = Quad {
                min_x: Vec4::ZERO,
                min_y: Vec4::ZERO,
                max_x: Vec4::ZERO,
                max_y: Vec4::ZERO,
                child: [NULL; 4],
                mask: 0,
                tag: [0, 1, 2, 3],
            };
            for (lane, &c) in kids[..count].iter().enumerate() {
                let cn = &self.nodes[c as usize];
                let (lo, hi) = (cn.aabb.min(), cn.aabb.max());
                node.min_x[lane] = lo.x;
                node.min_y[lane] = lo.y;
                node.max_x[lane] = hi.x;
                node.max_y[lane] = hi.y;
                node.mask |= 1 << lane;
                if cn.child1 == NULL {
                    node.child[lane] = cn.slot;
                    node.mask |= 16 << lane;
                    node.tag[lane] |= 4;
                }
            }
            // Later lanes' subtrees go on the stack first, so the first inner child's is laid
            // out right after this node.
            for lane in (0..count).rev() {
                if node.mask & (16 << lane) == 0 {
                    stack.push((kids[lane], q, lane));
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
    /// (`sync` drops them when it inserts, removes or rebuilds): see [`Quad`]. Apart from the
    /// trees so the pair search's code over them stays as it was.
    quads: Vec<OnceLock<Vec<Quad>>>,
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
            quads: Vec::new(),
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
            self.quads.push(OnceLock::new());
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
                drop_quads(&mut self.quads[old_group as usize]);
                self.proxies[s] = (NULL, NULL);
            }
            if group != NULL {
                let fat = self.fat(&view.aabbs[s]);
                let leaf = self.trees[group as usize].insert(fat, slot);
                drop_quads(&mut self.quads[group as usize]);
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
                drop_quads(&mut self.quads[g]);
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

    pub(crate) fn ray<F: FnMut(u32) -> f32>(
        &self,
        view: &View<'_>,
        ray: &Ray,
        max_t: f32,
        mask: u64,
        f: &mut F,
    ) {
        let slabs = RaySlabs::new(ray);
        let mut max_t = max_t;
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL || !view.table.visible(g as u32, mask) {
                continue;
            }
            let root = &tree.nodes[tree.root as usize];
            if root.child1 == NULL {
                if ray_box(ray, slabs.inv, &root.aabb, max_t).is_some() {
                    max_t = max_t.min(f(root.slot));
                }
                continue;
            }
            // The root's box is not tested: the root quad's four tests decide as much.
            let quads = &self.quads[g].get_or_init(|| tree.flatten())[..];
            // The hot loop without the parallel-ray case, so it keeps the ray in registers.
            if slabs.parallel.is_some() {
                walk::<true, _>(quads, &slabs, &mut max_t, f);
            } else {
                walk::<false, _>(quads, &slabs, &mut max_t, f);
            }
        }
    }
}

/// The ray traversal of one tree's [`Quad`]s from the root: calls `f` with the slot of every
/// leaf whose box the ray meets before `max_t`, nearer children first, and lowers `max_t` to
/// what `f` returns. `PARALLEL` says whether `slabs.parallel` is set.
///
/// A child reached is a quad index or a slot with a key: its entry `t`'s bits with the low three
/// replaced by the lane's tag (leaf flag and lane). An entry is never negative, so keys order as
/// entries do up to those three bits (which only reorders near-ties), and a key's `t` (its bits
/// with the low three cleared) is at most the entry: the pruning by it stays safe.
#[inline(always)]
fn walk<const PARALLEL: bool, F: FnMut(u32) -> f32>(
    quads: &[Quad],
    slabs: &RaySlabs,
    max_t: &mut f32,
    f: &mut F,
) {
    // The stack of children reached, `(quad or slot, key)`: in a local array (its length in a
    // register) up to `RAY_STACK` entries, then on the heap.
    let mut inline = [(0u32, 0u32); RAY_STACK];
    let mut len = 0usize;
    let mut spill: Vec<(u32, u32)> = Vec::new();
    let mut current = (0u32, 0u32);
    loop {
        let (id, key) = current;
        // A node is skipped when a nearer hit was found since it was reached.
        let next = if f32::from_bits(key & !7) > *max_t {
            None
        } else if key & 4 != 0 {
            *max_t = max_t.min(f(id));
            None
        } else {
            let node = &quads[id as usize];
            let (early, hit) = if PARALLEL {
                slabs.enter_quad_parallel(node, *max_t)
            } else {
                slabs.enter_quad(node, *max_t)
            };
            let hit = hit & node.mask;
            if hit == 0 {
                None
            } else {
                // The hit lanes sorted by key without branches, a miss last: the nearest is
                // next, the others go on the stack farthest first.
                let (t, tag) = (early.to_array(), node.tag);
                // A miss's bits all set by a mask rather than a branch, which would mispredict.
                let key = |i: usize| {
                    let miss = ((hit >> i) & 1).wrapping_sub(1);
                    (t[i].to_bits() & !7) | u32::from(tag[i]) | miss
                };
                let [mut k0, mut k1, mut k2, mut k3] = [key(0), key(1), key(2), key(3)];
                let sort = |a: &mut u32, b: &mut u32| {
                    let (lo, hi) = ((*a).min(*b), (*a).max(*b));
                    (*a, *b) = (lo, hi);
                };
                sort(&mut k0, &mut k1);
                sort(&mut k2, &mut k3);
                sort(&mut k0, &mut k2);
                sort(&mut k1, &mut k3);
                sort(&mut k1, &mut k2);
                let entry = |k: u32| (node.child[(k & 3) as usize], k);
                let items = [entry(k3), entry(k2), entry(k1)];
                if len + items.len() <= inline.len() {
                    // Each written, kept unless a miss: no branch.
                    for item in items {
                        inline[len] = item;
                        len += usize::from(item.1 != u32::MAX);
                    }
                } else {
                    spill_hits(&mut inline, &mut len, &mut spill, items);
                }
                Some(entry(k0))
            }
        };
        current = match next {
            Some(n) => n,
            None => match spill.pop() {
                Some(n) => n,
                None if len > 0 => {
                    len -= 1;
                    inline[len]
                }
                None => break,
            },
        };
    }
}

/// Drops a tree's ray layout (checked first: most trees that change are never cast against).
#[inline]
fn drop_quads(quads: &mut OnceLock<Vec<Quad>>) {
    if quads.get_mut().is_some() {
        *quads = OnceLock::new();
    }
}

/// A ray set up for box tests: [`ray_box`](super::ray_box) for the four boxes of a [`Quad`] as
/// four-lane operations.
struct RaySlabs {
    /// The ray's origin x in every lane.
    origin_x: Vec4,
    /// Its origin y.
    origin_y: Vec4,
    /// [`inverse_dir`]`(dir)`.
    inv: Vec2,
    /// `inv.x` in every lane.
    inv_x: Vec4,
    /// `inv.y` in every lane.
    inv_y: Vec4,
    /// The ray, when a direction component is zero: its slabs are containment tests, which
    /// `ray_box` decides (products would give an origin on an edge the empty slab `[0, 0]`).
    parallel: Option<Ray>,
}

impl RaySlabs {
    fn new(ray: &Ray) -> RaySlabs {
        let inv = inverse_dir(ray.dir);
        RaySlabs {
            origin_x: Vec4::splat(ray.origin.x),
            origin_y: Vec4::splat(ray.origin.y),
            inv,
            inv_x: Vec4::splat(inv.x),
            inv_y: Vec4::splat(inv.y),
            parallel: (ray.dir.x == 0.0 || ray.dir.y == 0.0).then_some(*ray),
        }
    }

    /// As [`ray_box`](super::ray_box)`(ray, inverse_dir(ray.dir), child, max_t)` for each lane's
    /// child, bit for bit: the entries, and bit `i` set when lane `i` is hit (empty lanes
    /// included: mask them). Each lane rounds the same subtractions and products; as the ray is
    /// finite and `inv` finite and non-zero, no lane is NaN, so the lane-wise min and max pick
    /// what `f32::min` and `f32::max` pick (up to the sign of a zero, which no result keeps:
    /// `enter - enter * 2e-6` is `+0` for either zero). Only when `parallel` is not set.
    #[inline(always)]
    fn enter_quad(&self, q: &Quad, max_t: f32) -> (Vec4, u32) {
        debug_assert!(self.parallel.is_none());
        let (x0, x1) = (
            (q.min_x - self.origin_x) * self.inv_x,
            (q.max_x - self.origin_x) * self.inv_x,
        );
        let (y0, y1) = (
            (q.min_y - self.origin_y) * self.inv_y,
            (q.max_y - self.origin_y) * self.inv_y,
        );
        let enter = x0.min(x1).max(y0.min(y1)).max(Vec4::ZERO);
        let exit = x0.max(x1).min(y0.max(y1)).min(Vec4::splat(max_t));
        let slack = enter.max(exit.abs()) * 2e-6 + f32::MIN_POSITIVE;
        let hit = enter.cmple(exit + slack).bitmask();
        // Returned that much early, as `ray_box` does.
        ((enter - enter * 2e-6).max(Vec4::ZERO), hit)
    }

    /// [`RaySlabs::enter_quad`] when `parallel` is set: `ray_box` lane by lane.
    #[inline(never)]
    fn enter_quad_parallel(&self, q: &Quad, max_t: f32) -> (Vec4, u32) {
        let Some(ray) = &self.parallel else {
            return self.enter_quad(q, max_t);
        };
        let (mut early, mut hit) = (Vec4::ZERO, 0);
        for lane in 0..4 {
            let b = Aabb::new_unchecked(
                Vec2::new(q.min_x[lane], q.min_y[lane]),
                Vec2::new(q.max_x[lane], q.max_y[lane]),
            );
            if let Some(t) = ray_box(ray, self.inv, &b, max_t) {
                early[lane] = t;
                hit |= 1 << lane;
            }
        }
        (early, hit)
    }
}

/// Entries of [`walk`]'s stack kept inline: 32, which a balanced tree of a million leaves stays
/// within (at most three per level); the array is zeroed per cast, so no bigger than that. 4 in
/// unit tests, so they reach the heap.
const RAY_STACK: usize = if cfg!(test) { 4 } else { 32 };

/// [`walk`]'s push when its inline stack is nearly full: each item not a miss, in order, on the
/// inline stack while there is room, then on `spill` (popped first).
#[cold]
fn spill_hits(
    inline: &mut [(u32, u32); RAY_STACK],
    len: &mut usize,
    spill: &mut Vec<(u32, u32)>,
    items: [(u32, u32); 3],
) {
    for item in items.into_iter().filter(|item| item.1 != u32::MAX) {
        if *len < inline.len() {
            inline[*len] = item;
            *len += 1;
        } else {
            spill.push(item);
        }
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

    /// The four-lane slab tests accept the same boxes as `ray_box`, at the same entry.
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
            let mut boxes = [Aabb::new_unchecked(Vec2::ZERO, Vec2::ZERO); 4];
            for b in &mut boxes {
                let (p, q) = (Vec2::new(next(), next()), Vec2::new(next(), next()) * 0.2);
                *b = Aabb::new_unchecked(p.min(p + q), p.max(p + q));
            }
            // A box the ray starts on the edge of.
            if k % 5 == 0 {
                boxes[1] = Aabb::new_unchecked(origin, origin + Vec2::splat(1.0));
            }
            let quad = Quad {
                min_x: Vec4::from_array(boxes.map(|b| b.min().x)),
                min_y: Vec4::from_array(boxes.map(|b| b.min().y)),
                max_x: Vec4::from_array(boxes.map(|b| b.max().x)),
                max_y: Vec4::from_array(boxes.map(|b| b.max().y)),
                child: [0; 4],
                mask: 15,
                tag: [0, 1, 2, 3],
            };
            for max_t in [0.0, 0.5, 3.0, f32::INFINITY] {
                let want = boxes.map(|b| ray_box(&ray, inv, &b, max_t));
                let (early, hit) = if slabs.parallel.is_some() {
                    slabs.enter_quad_parallel(&quad, max_t)
                } else {
                    slabs.enter_quad(&quad, max_t)
                };
                let got: [Option<f32>; 4] =
                    std::array::from_fn(|i| (hit & (1 << i) != 0).then_some(early[i]));
                assert_eq!(got, want);
                for t in got.into_iter().flatten() {
                    assert_eq!(t.to_bits() >> 31, 0, "never negative, nor -0");
                }
            }
        }
    }

    /// The quads hold every leaf once and every quad but the root under one parent, a parent's
    /// first inner child right after it (depth first).
    #[test]
    fn quads_hold_every_leaf_once() {
        for n in [2u32, 3, 5, 17, 300] {
            let mut tree = Tree::new();
            for slot in 0..n {
                let at = Vec2::new((slot * 37 % 23) as f32, (slot * 11 % 19) as f32 * 1.5);
                tree.insert(
                    Aabb::new_unchecked(at, at + Vec2::splat(1.0 + (slot % 3) as f32)),
                    slot,
                );
            }
            let quads = tree.flatten();
            let mut seen = vec![0; n as usize];
            let mut reached = vec![0; quads.len()];
            reached[0] = 1;
            for (q, quad) in quads.iter().enumerate() {
                assert!(quad.mask & 3 == 3, "at least two children");
                let mut first_inner = true;
                for lane in (0..4).filter(|l| quad.mask & (1 << l) != 0) {
                    let c = quad.child[lane] as usize;
                    if quad.mask & (16 << lane) != 0 {
                        seen[c] += 1;
                    } else {
                        assert!(c > q);
                        if first_inner {
                            assert_eq!(c, q + 1, "depth first");
                            first_inner = false;
                        }
                        reached[c] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&k| k == 1), "{n}: {seen:?}");
            assert!(reached.iter().all(|&k| k == 1), "{n}");
        }
    }

    /// Without pruning, the walk reports exactly the leaves whose boxes `ray_box` accepts, each
    /// once (through the heap part of its stack too), for rays in every direction, axis-parallel
    /// ones included.
    #[test]
    fn walk_reports_the_leaves_ray_box_accepts() {
        let mut tree = Tree::new();
        let mut boxes = Vec::new();
        for slot in 0..500u32 {
            let at = Vec2::new((slot * 37 % 53) as f32, (slot * 11 % 47) as f32 * 0.7);
            let b = Aabb::new_unchecked(at, at + Vec2::splat(0.5 + (slot % 4) as f32));
            tree.insert(b, slot);
            boxes.push(b);
        }
        let mut leaves = Vec::new();
        tree.rebuild(&mut Vec::new(), &mut |slot, _| leaves.push(slot));
        assert_eq!(leaves.len(), 500);
        let quads = tree.flatten();
        for k in 0..200u32 {
            let angle = k as f32 * 0.137;
            let dir = match k % 5 {
                0 => Vec2::new(1.0, 0.0),
                1 => Vec2::new(0.0, -1.0),
                _ => Vec2::from_angle(angle),
            };
            let origin = Vec2::new((k * 7 % 53) as f32, (k * 3 % 33) as f32);
            let ray = Ray::new(origin, dir);
            let slabs = RaySlabs::new(&ray);
            for max_t in [3.0, f32::INFINITY] {
                let mut got = Vec::new();
                let mut f = |slot: u32| {
                    got.push(slot);
                    max_t
                };
                let mut limit = max_t;
                if slabs.parallel.is_some() {
                    walk::<true, _>(&quads, &slabs, &mut limit, &mut f);
                } else {
                    walk::<false, _>(&quads, &slabs, &mut limit, &mut f);
                }
                got.sort_unstable();
                let want: Vec<u32> = (0..500)
                    .filter(|&s| ray_box(&ray, slabs.inv, &boxes[s as usize], max_t).is_some())
                    .collect();
                assert_eq!(got, want, "{ray:?} {max_t}");
            }
        }
    }
}
