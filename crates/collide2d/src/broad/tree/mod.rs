//! Dynamic bounding-volume trees, one per filter group: leaves hold enlarged ("fat") boxes so
//! an object that moves a little keeps its leaf, inserts descend by the perimeter cost and
//! rebalance by rotations (Box2D v2.4 `b2DynamicTree`, after Catto's GDC 2019 talk).
//!
//! Pairs come from simultaneous descents: each tree against itself when its group collides with
//! itself, and each pair of compatible trees against each other, so incompatible groups (a bullet
//! layer that ignores itself, static against static) never meet.

use alloc::boxed::Box;
use alloc::vec::Vec;
mod build;
mod dynamic;
#[cfg(target_arch = "x86_64")]
mod oct;
mod ray;

use super::{inverse_dir, ray_box, BroadBox, BroadBoxKind, Groups, RayLeaf, Sight, View};
use crate::query::Ray;
use crate::shape::Aabb;
use crate::world::Handle;
use dynamic::{contains, perimeter, Tree};
use once_cell::race::OnceBox;
use ray::{drop_quads, RayTree};

const NULL: u32 = u32::MAX;

/// One tree per group, and each slot's leaf.
#[derive(Debug)]
pub(crate) struct Trees {
    margin: f32,
    trees: Vec<Tree>,
    /// By tree, its inner nodes for ray casts, built on the first cast after the tree changes
    /// (`sync` drops them when it inserts, removes or rebuilds): see [`RayTree`]. Apart from the
    /// trees so the pair search's code over them stays as it was.
    quads: Vec<OnceBox<RayTree>>,
    /// `(group, leaf)` by slot, `(NULL, NULL)` when the slot has no leaf.
    proxies: Vec<(u32, u32)>,
    stack: Vec<(u32, u32)>,
    scratch: Vec<(Aabb, u32)>,
    /// By tree, how many of its leaves left their fat box in this `sync`; then whether it is
    /// rebuilt whole (1) rather than updated leaf by leaf (0).
    leaving: Vec<usize>,
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
            leaving: Vec::new(),
        }
    }

    /// Whether the leaf of `slot`, in `group`'s tree (its group as of the last `sync`), still
    /// holds the slot's tight box: inside it, and not shrunk a lot.
    fn keeps(&self, view: &View<'_>, slot: usize, group: u32, leaf: u32) -> bool {
        let tight = &view.aabbs[slot];
        let held = self.trees[group as usize].nodes[leaf as usize].aabb;
        contains(&held, tight)
            && perimeter(&held) <= 2.0 * perimeter(&self.fat(view, group, tight)) + self.margin
    }

    /// The leaf box of `b` in `group`'s tree: enlarged by the margin so a small move keeps the
    /// leaf, except in a static group, whose objects seldom move: there the box stays tight (one
    /// ulp wider, so a ray along an edge stays in), as Box2D keeps static proxies, so rays and
    /// queries test no leaf they miss by the margin.
    fn fat(&self, view: &View<'_>, group: u32, b: &Aabb) -> Aabb {
        let margin = if view.table.is_static(group) {
            0.0
        } else {
            self.margin
        };
        Aabb::raw(b.min() - margin, b.max() + margin).outward()
    }

    pub(crate) fn sync(&mut self, view: &View<'_>, changed: &[u32]) {
        self.proxies.resize(view.groups.len(), (NULL, NULL));
        while self.trees.len() < view.table.len() {
            self.trees.push(Tree::new());
            self.quads.push(OnceBox::new());
        }
        // When most of a tree's leaves left their fat boxes (objects moving further than the
        // margin each update), removing and inserting each costs more than rebuilding the tree:
        // their boxes are then written in place and the tree rebuilt below.
        self.leaving.clear();
        self.leaving.resize(self.trees.len(), 0);
        for &slot in changed {
            let s = slot as usize;
            let (old_group, leaf) = self.proxies[s];
            if old_group != NULL
                && view.groups[s] == old_group
                && !self.keeps(view, s, old_group, leaf)
            {
                self.leaving[old_group as usize] += 1;
            }
        }
        // Decided once, before any leaf moves: a tree whose boxes are written in place must be
        // rebuilt.
        for (tree, leaving) in self.trees.iter().zip(&mut self.leaving) {
            *leaving = usize::from(tree.leaves >= 16 && 2 * *leaving >= tree.leaves);
        }
        for &slot in changed {
            let s = slot as usize;
            let group = view.groups[s];
            let (old_group, leaf) = self.proxies[s];
            if group != NULL && group == old_group && self.keeps(view, s, group, leaf) {
                continue;
            }
            if group != NULL && group == old_group {
                let g = group as usize;
                if self.leaving[g] == 1 {
                    let fat = self.fat(view, group, &view.aabbs[s]);
                    self.trees[g].nodes[leaf as usize].aabb = fat;
                    continue;
                }
            }
            if old_group != NULL {
                self.trees[old_group as usize].remove(leaf);
                drop_quads(&mut self.quads[old_group as usize]);
                self.proxies[s] = (NULL, NULL);
            }
            if group != NULL {
                let fat = self.fat(view, group, &view.aabbs[s]);
                let leaf = self.trees[group as usize].insert(fat, slot);
                drop_quads(&mut self.quads[group as usize]);
                self.proxies[s] = (group, leaf);
            }
        }
        // A tree that has taken in more leaves than it holds since its last build (a level just
        // loaded, or a churning crowd) is rebuilt top down: incremental inserts alone leave it
        // deeper than it needs to be.
        for (g, tree) in self.trees.iter_mut().enumerate() {
            if self.leaving[g] == 1 || tree.leaves >= 16 && tree.inserted >= tree.leaves {
                let proxies = &mut self.proxies;
                tree.rebuild(&mut self.scratch, &mut |slot, leaf| {
                    proxies[slot as usize] = (g as u32, leaf);
                });
                drop_quads(&mut self.quads[g]);
            }
        }
    }

    /// See [`Broad::pairs`](super::Broad::pairs); stops soon after `out` holds `limit` pairs.
    pub(crate) fn pairs(&mut self, view: &View<'_>, out: &mut Vec<(u32, u32)>, limit: usize) {
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
                    limit,
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

    pub(crate) fn query(
        &self,
        view: &View<'_>,
        region: &Aabb,
        sight: Sight,
        f: &mut dyn FnMut(u32),
    ) {
        let mut stack = Vec::with_capacity(64);
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL || !sight.sees(view.table, g as u32) {
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

    #[inline(always)]
    pub(crate) fn ray<F: RayLeaf>(
        &self,
        table: &Groups,
        ray: &Ray,
        max_t: f32,
        sight: Sight,
        f: &mut F,
    ) {
        // Only the inverse direction up front: each layout sets up what its walk reads.
        let inv = inverse_dir(ray.dir);
        let mut max_t = max_t;
        for (g, tree) in self.trees.iter().enumerate() {
            if tree.root == NULL || !sight.sees(table, g as u32) {
                continue;
            }
            // A tree with a layout has an inner root (`sync` drops the layout when the tree
            // changes): the root need not be read. The root's box is not tested: the root
            // quad's four tests decide as much.
            let quads = &self.quads[g];
            let layout = match quads.get() {
                Some(layout) => layout,
                None => {
                    let root = &tree.nodes[tree.root as usize];
                    if root.child1 == NULL {
                        if ray_box(ray, inv, &root.aabb, max_t).is_some() {
                            max_t = max_t.min(f.leaf(root.slot));
                        }
                        continue;
                    }
                    quads.get_or_init(|| Box::new(RayTree::of(tree)))
                }
            };
            layout.walk(ray, inv, &mut max_t, f);
        }
    }
}

/// Every pair of leaves, one from `a` and one from `b` (two distinct leaves of `a` when `same`),
/// whose tight boxes overlap; stops once `out` holds `limit` pairs.
fn descend(
    a: &Tree,
    b: &Tree,
    same: bool,
    tight: &[Aabb],
    stack: &mut Vec<(u32, u32)>,
    out: &mut Vec<(u32, u32)>,
    limit: usize,
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
                    // Checked only when `out` must grow (push's own test), so the cap costs
                    // the loop nothing: `out` holds at most `limit` plus its spare room.
                    if out.len() == out.capacity() && out.len() >= limit {
                        return;
                    }
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
