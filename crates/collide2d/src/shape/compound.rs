//! [`Compound`]: the union of a list of shapes, with a tree over its parts' boxes.

use crate::error::ShapeError;
use crate::limits::{MAX_COMPOUND_DEPTH, MAX_COMPOUND_PARTS};
use crate::shape::part_tree::PartTree;
use crate::shape::{Aabb, Shape};
use alloc::vec::Vec;

/// The union of a non-empty list of shapes: a multi-rectangle sprite hitbox, for example. Parts
/// may overlap and may be any shape (compounds included). A tree over the parts' boxes, built
/// with the compound, lets a query visit only the parts near the other shape.
///
/// Two compounds are equal when their parts are: the tree is an index, and one placed by a pose
/// keeps the shape of the tree it was built with (see [`Shape::set_transformed`]).
#[derive(Clone, Debug)]
pub struct Compound {
    parts: Vec<Shape>,
    aabb: Aabb,
    /// 1 + the largest depth of a compound part (1 when no part is a compound).
    depth: usize,
    /// `offsets[i]`: the convex pieces of the parts before part `i` (in `each_part` order);
    /// `offsets[parts.len()]` is the total.
    offsets: Vec<u32>,
    tree: PartTree,
}

impl PartialEq for Compound {
    fn eq(&self, other: &Compound) -> bool {
        // `aabb`, `depth` and `offsets` follow from the parts; compared anyway, as cheap checks.
        self.parts == other.parts
            && self.aabb == other.aabb
            && self.depth == other.depth
            && self.offsets == other.offsets
    }
}

impl Compound {
    /// The union of `parts` (already validated shapes).
    ///
    /// # Errors
    /// [`ShapeError::EmptyCompound`] when `parts` is empty; [`ShapeError::TooDeep`] when the
    /// compound would nest compounds deeper than [`MAX_COMPOUND_DEPTH`] levels;
    /// [`ShapeError::TooManyParts`] when it would hold more than [`MAX_COMPOUND_PARTS`] convex
    /// pieces, nesting included.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, Compound};
    /// let body = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 4.0))?;
    /// let arm = Aabb::new(Vec2::new(2.0, 2.0), Vec2::new(4.0, 3.0))?;
    /// let hitbox = Compound::new(vec![body.into(), arm.into()])?;
    /// assert_eq!(hitbox.aabb().max(), Vec2::new(4.0, 4.0));
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(parts: Vec<Shape>) -> Result<Compound, ShapeError> {
        if parts.is_empty() {
            return Err(ShapeError::EmptyCompound);
        }
        let depth = 1 + parts.iter().map(part_depth).max().unwrap_or(0);
        if depth > MAX_COMPOUND_DEPTH {
            return Err(ShapeError::TooDeep {
                limit: MAX_COMPOUND_DEPTH,
            });
        }
        let mut offsets = Vec::with_capacity(parts.len() + 1);
        let mut total = 0usize;
        for part in &parts {
            offsets.push(total as u32);
            total += pieces(part);
            if total > MAX_COMPOUND_PARTS {
                return Err(ShapeError::TooManyParts {
                    limit: MAX_COMPOUND_PARTS,
                });
            }
        }
        offsets.push(total as u32);
        Ok(Compound::indexed(parts, depth, offsets))
    }

    /// The compound of checked `parts`, its box and tree computed.
    fn indexed(parts: Vec<Shape>, depth: usize, offsets: Vec<u32>) -> Compound {
        let boxes: Vec<Aabb> = parts.iter().map(Shape::aabb).collect();
        let aabb = boxes.iter().skip(1).fold(boxes[0], |a, b| a.union(b));
        let tree = PartTree::new(&boxes);
        Compound {
            parts,
            aabb,
            depth,
            offsets,
            tree,
        }
    }

    /// How deep compounds nest in it: 1 when no part is a compound, else 1 + the deepest
    /// compound part's depth. At most [`MAX_COMPOUND_DEPTH`].
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// How many convex pieces it holds, nesting included (a polygon counts its convex parts).
    /// At most [`MAX_COMPOUND_PARTS`].
    #[must_use]
    pub fn pieces(&self) -> usize {
        self.offsets[self.parts.len()] as usize
    }

    /// The parts, in the order given.
    #[must_use]
    pub fn parts(&self) -> &[Shape] {
        &self.parts
    }

    /// The convex pieces of the parts before part `i`: the number, in `each_part` order, of
    /// part `i`'s first piece.
    #[inline]
    pub(crate) fn first_piece(&self, i: usize) -> u32 {
        self.offsets[i]
    }

    /// The tree over the parts' boxes.
    #[inline]
    pub(crate) fn tree(&self) -> &PartTree {
        &self.tree
    }

    /// The compound with every part mapped by `f` (which keeps each part's pieces).
    pub(crate) fn map_parts(&self, f: impl Fn(&Shape) -> Shape) -> Compound {
        let parts: Vec<Shape> = self.parts.iter().map(f).collect();
        Compound::indexed(parts, self.depth, self.offsets.clone())
    }

    /// Places `local`'s parts by `pose` into this compound's, which has as many, reusing their
    /// memory: the same as [`map_parts`](Self::map_parts) with `transformed`.
    pub(crate) fn set_transformed(&mut self, local: &Compound, pose: &crate::math::Pose) {
        debug_assert_eq!(self.parts.len(), local.parts.len());
        for (part, from) in self.parts.iter_mut().zip(&local.parts) {
            part.set_transformed(from, pose);
        }
        let first = self.parts.first().map(Shape::aabb);
        if let Some(first) = first {
            self.aabb = self
                .parts
                .iter()
                .map(Shape::aabb)
                .fold(first, |a, b| a.union(&b));
        }
        // The part tree must bound the placed parts: refitted, not rebuilt (no allocation).
        let parts = &self.parts;
        self.tree.refit(|p| parts[p].aabb());
        self.depth = local.depth;
    }

    /// Its bounding box (the union of the parts' boxes).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }
}

/// The compound depth of a part: 0 for a shape that is not a compound.
fn part_depth(shape: &Shape) -> usize {
    match shape {
        Shape::Compound(c) => c.depth,
        _ => 0,
    }
}

/// The convex pieces of a shape: 1 for a convex shape, a polygon's convex parts, a compound's
/// total.
pub(crate) fn pieces(shape: &Shape) -> usize {
    match shape {
        Shape::Polygon(p) => p.parts().len(),
        Shape::Compound(c) => c.pieces(),
        _ => 1,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;
    use crate::shape::Point;
    use alloc::string::ToString;
    use alloc::vec;

    fn nested(depth: usize) -> Result<Compound, ShapeError> {
        let mut c = Compound::new(vec![Point::new(Vec2::ZERO)?.into()])?;
        for _ in 1..depth {
            c = Compound::new(vec![c.into(), Point::new(Vec2::ONE)?.into()])?;
        }
        Ok(c)
    }

    #[test]
    fn compounds_nest_up_to_the_depth_limit() {
        let deepest = nested(MAX_COMPOUND_DEPTH).unwrap();
        assert_eq!(deepest.depth(), MAX_COMPOUND_DEPTH);
        let err = Compound::new(vec![deepest.into()]).unwrap_err();
        assert_eq!(
            err,
            ShapeError::TooDeep {
                limit: MAX_COMPOUND_DEPTH
            }
        );
        assert_eq!(
            err.to_string(),
            "parts nest compounds deeper than 32 levels (limit MAX_COMPOUND_DEPTH)"
        );
    }

    #[test]
    fn depth_counts_the_deepest_part() {
        let two = nested(2).unwrap();
        let c = Compound::new(vec![Point::new(Vec2::ZERO).unwrap().into(), two.into()]).unwrap();
        assert_eq!(c.depth(), 3);
    }

    fn points(n: usize) -> Vec<Shape> {
        (0..n)
            .map(|i| Point::new(Vec2::new(i as f32, 0.0)).unwrap().into())
            .collect()
    }

    #[test]
    fn compounds_take_up_to_the_parts_limit() {
        let c = Compound::new(points(MAX_COMPOUND_PARTS)).unwrap();
        assert_eq!(c.pieces(), MAX_COMPOUND_PARTS);
        let err = Compound::new(points(MAX_COMPOUND_PARTS + 1)).unwrap_err();
        assert_eq!(
            err,
            ShapeError::TooManyParts {
                limit: MAX_COMPOUND_PARTS
            }
        );
        assert_eq!(
            err.to_string(),
            "parts must hold at most 1024 convex pieces, nesting included (limit MAX_COMPOUND_PARTS)"
        );
    }

    #[test]
    fn the_parts_limit_counts_nested_pieces_and_polygon_parts() {
        let half = Compound::new(points(MAX_COMPOUND_PARTS / 2)).unwrap();
        let two = Compound::new(vec![half.clone().into(), half.clone().into()]).unwrap();
        assert_eq!(two.pieces(), MAX_COMPOUND_PARTS);
        let one_more = vec![half.clone().into(), half.into(), points(1).remove(0)];
        assert!(matches!(
            Compound::new(one_more),
            Err(ShapeError::TooManyParts { .. })
        ));
        // An L-shaped polygon is two convex pieces.
        let l = crate::test_support::l_shape();
        let c = Compound::new(vec![l.clone(), l]).unwrap();
        assert_eq!(c.pieces(), 4);
        assert_eq!((c.first_piece(0), c.first_piece(1)), (0, 2));
    }
    #[test]
    fn a_compound_placed_by_a_pose_is_found_where_its_parts_are() {
        use crate::math::Pose;
        use crate::shape::{Aabb, Circle};
        let local = Compound::new(vec![
            Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0))
                .unwrap()
                .into(),
            Aabb::new(Vec2::new(8.0, 0.0), Vec2::new(9.0, 1.0))
                .unwrap()
                .into(),
            Circle::new(Vec2::new(4.0, 6.0), 1.0).unwrap().into(),
        ])
        .unwrap();
        let local_shape = Shape::from(local);
        let mut placed = local_shape.transformed(&Pose::new(Vec2::new(3.0, 0.0), 0.4));
        let pose = Pose::new(Vec2::new(-20.0, 5.0), 2.0);
        placed.set_transformed(&local_shape, &pose);
        let want = local_shape.transformed(&pose);
        let Shape::Compound(want_compound) = &want else {
            unreachable!()
        };
        // A probe on each placed part: found through the refitted tree as through a new one.
        for part in want_compound.parts() {
            let probe: Shape = Circle::new(part.aabb().center(), 0.25).unwrap().into();
            assert!(crate::intersects(&placed, &probe));
            assert!(crate::intersects(&probe, &placed));
        }
        assert_eq!(placed, want);
    }
}
