//! One dynamic tree: nodes with fat boxes, inserts by the perimeter cost, removals, and
//! rebalancing by rotations.

use super::NULL;
use crate::shape::Aabb;
use alloc::vec::Vec;

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Fat box for a leaf; union of the children for an inner node.
    pub(super) aabb: Aabb,
    pub(super) parent: u32,
    /// `NULL` for a leaf.
    pub(super) child1: u32,
    pub(super) child2: u32,
    /// 0 for a leaf.
    pub(super) height: i32,
    /// The object slot of a leaf.
    pub(super) slot: u32,
}

#[inline]
pub(super) fn perimeter(b: &Aabb) -> f32 {
    let s = b.size();
    2.0 * (s.x + s.y)
}

#[inline]
pub(super) fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    outer.min().cmple(inner.min()).all() && inner.max().cmple(outer.max()).all()
}

/// One tree.
#[derive(Debug, Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) root: u32,
    /// Head of the free list, chained through `parent`.
    pub(super) free: u32,
    /// Leaves now in the tree.
    pub(super) leaves: usize,
    /// Leaves inserted since the last top-down build.
    pub(super) inserted: usize,
}

impl Tree {
    pub(super) fn new() -> Tree {
        Tree {
            nodes: Vec::new(),
            root: NULL,
            free: NULL,
            leaves: 0,
            inserted: 0,
        }
    }
    pub(super) fn alloc(&mut self, node: Node) -> u32 {
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

    pub(super) fn release(&mut self, id: u32) {
        self.nodes[id as usize].parent = self.free;
        self.nodes[id as usize].height = -1;
        self.nodes[id as usize].slot = NULL;
        self.free = id;
    }

    #[inline]
    pub(super) fn is_leaf(&self, id: u32) -> bool {
        self.nodes[id as usize].child1 == NULL
    }

    pub(super) fn insert(&mut self, fat: Aabb, slot: u32) -> u32 {
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

    pub(super) fn remove(&mut self, leaf: u32) {
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
    pub(super) fn refit_up(&mut self, mut index: u32) {
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

    pub(super) fn h(&self, id: u32) -> i32 {
        self.nodes[id as usize].height
    }

    pub(super) fn bb(&self, id: u32) -> Aabb {
        self.nodes[id as usize].aabb
    }

    /// Box2D's rotation: lifts the taller grandchild when `a`'s children differ in height by
    /// more than one. Returns the node now in `a`'s place.
    pub(super) fn balance(&mut self, a: u32) -> u32 {
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
    pub(super) fn rotate_up(&mut self, a: u32, up: u32, other: u32, up_is_child2: bool) -> u32 {
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
