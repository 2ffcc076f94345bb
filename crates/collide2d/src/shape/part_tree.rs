//! [`PartTree`]: a bounding-volume tree over a compound's parts, built once with the compound, so
//! a query between two compounds visits only the pairs of parts whose boxes meet.
//!
//! Built top down, splitting the parts at the median of their box centres along the wider axis
//! of those centres (a static tree: a compound never changes after it is built), one part per
//! leaf. Nodes sit in depth-first order: an inner node's first child follows it, and it holds the
//! index of its second child.

use crate::shape::Aabb;
use alloc::vec::Vec;

/// A leaf's link: the part's index with this bit set.
const LEAF: u32 = 1 << 31;

/// One node: its box (the union of its parts' boxes) and a link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    pub(crate) aabb: Aabb,
    /// The second child's index for an inner node; `LEAF | part` for a leaf.
    link: u32,
}

/// The tree over a compound's part boxes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PartTree {
    nodes: Vec<Node>,
}

/// Where a node leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// A part, by its index in the compound.
    Part(usize),
    /// An inner node's two children, by node index.
    Children(usize, usize),
}

impl PartTree {
    /// The tree over `boxes` (one per part, at least one; fewer than `2^31` parts).
    pub(crate) fn new(boxes: &[Aabb]) -> PartTree {
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes = Vec::with_capacity(2 * boxes.len());
        build(boxes, &mut order, &mut nodes);
        PartTree { nodes }
    }

    /// The root's index (0).
    pub(crate) const ROOT: usize = 0;

    /// Node `i`.
    #[inline]
    pub(crate) fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// Where node `i` leads.
    #[inline]
    pub(crate) fn link(&self, i: usize) -> Link {
        let link = self.nodes[i].link;
        if link & LEAF != 0 {
            Link::Part((link & !LEAF) as usize)
        } else {
            Link::Children(i + 1, link as usize)
        }
    }

    /// Recomputes every node's box from `part_box` (a part's new box) keeping the tree's
    /// shape, without allocating: for a compound placed anew by a pose, whose parts moved
    /// together. Children follow their parent, so a backward pass sees them first.
    pub(crate) fn refit(&mut self, part_box: impl Fn(usize) -> Aabb) {
        for i in (0..self.nodes.len()).rev() {
            self.nodes[i].aabb = match self.link(i) {
                Link::Part(p) => part_box(p),
                Link::Children(first, second) => {
                    self.nodes[first].aabb.union(&self.nodes[second].aabb)
                }
            };
        }
    }

    /// Calls `f` with every part whose box overlaps `region` (touching counts), until `f`
    /// breaks.
    pub(crate) fn query<B>(
        &self,
        region: &Aabb,
        f: &mut dyn FnMut(usize) -> core::ops::ControlFlow<B>,
    ) -> core::ops::ControlFlow<B> {
        let mut stack = Vec::with_capacity(32);
        stack.push(Self::ROOT);
        while let Some(i) = stack.pop() {
            if !self.nodes[i].aabb.overlaps(region) {
                continue;
            }
            match self.link(i) {
                Link::Part(p) => f(p)?,
                Link::Children(first, second) => {
                    stack.push(second);
                    stack.push(first);
                }
            }
        }
        core::ops::ControlFlow::Continue(())
    }
}

/// Appends the subtree over the parts `order` (non-empty) to `nodes`, depth first.
fn build(boxes: &[Aabb], order: &mut [u32], nodes: &mut Vec<Node>) {
    let aabb = order
        .iter()
        .map(|&p| boxes[p as usize])
        .reduce(|a, b| a.union(&b))
        .unwrap_or(boxes[0]);
    let at = nodes.len();
    nodes.push(Node { aabb, link: 0 });
    if let [part] = order {
        nodes[at].link = LEAF | *part;
        return;
    }
    // Centres as `min + max` (twice the centre: no rounding to worry about in comparisons
    // beyond the sum's), split along the axis where they spread most.
    let centre = |p: u32| {
        let b = &boxes[p as usize];
        b.min().as_dvec2() + b.max().as_dvec2()
    };
    let (lo, hi) = order.iter().fold(
        (
            glam::DVec2::splat(f64::INFINITY),
            glam::DVec2::splat(f64::NEG_INFINITY),
        ),
        |(lo, hi), &p| (lo.min(centre(p)), hi.max(centre(p))),
    );
    let axis = usize::from(hi.y - lo.y > hi.x - lo.x);
    let mid = order.len() / 2;
    // Ties broken by part index: the same parts always give the same tree.
    order.select_nth_unstable_by(mid, |&p, &q| {
        centre(p)[axis].total_cmp(&centre(q)[axis]).then(p.cmp(&q))
    });
    let (left, right) = order.split_at_mut(mid);
    build(boxes, left, nodes);
    nodes[at].link = nodes.len() as u32;
    build(boxes, right, nodes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use alloc::vec;

    fn unit_box(x: f32, y: f32) -> Aabb {
        Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0)).unwrap()
    }

    /// Every part is in exactly one leaf, and each node's box holds its children's.
    #[test]
    fn every_part_is_one_leaf_under_boxes_that_hold_it() {
        let boxes: Vec<Aabb> = (0..37)
            .map(|i| unit_box((i * 7 % 11) as f32, (i * 5 % 13) as f32))
            .collect();
        let tree = PartTree::new(&boxes);
        assert_eq!(tree.nodes.len(), 2 * boxes.len() - 1);
        let mut seen = vec![0; boxes.len()];
        let mut stack = vec![PartTree::ROOT];
        while let Some(i) = stack.pop() {
            let outer = tree.node(i).aabb;
            match tree.link(i) {
                Link::Part(p) => {
                    seen[p] += 1;
                    assert_eq!(outer, boxes[p]);
                }
                Link::Children(a, b) => {
                    for c in [a, b] {
                        let inner = tree.node(c).aabb;
                        assert_eq!(outer.union(&inner), outer);
                        stack.push(c);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    #[test]
    fn query_finds_exactly_the_overlapping_parts() {
        let boxes: Vec<Aabb> = (0..50)
            .map(|i| unit_box((i % 10) as f32 * 2.0, (i / 10) as f32 * 2.0))
            .collect();
        let tree = PartTree::new(&boxes);
        let region = Aabb::new(Vec2::new(3.0, 1.0), Vec2::new(6.0, 4.0)).unwrap();
        let mut found = Vec::new();
        let _ = tree.query(&region, &mut |p| {
            found.push(p);
            core::ops::ControlFlow::<()>::Continue(())
        });
        found.sort_unstable();
        let expected: Vec<usize> = (0..50).filter(|&p| boxes[p].overlaps(&region)).collect();
        assert_eq!(found, expected);
        assert_eq!(found.len(), 9, "touching counts: 3 columns by 3 rows");
    }
}
