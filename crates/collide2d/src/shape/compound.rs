//! [`Compound`]: the union of a list of shapes.

use crate::error::ShapeError;
use crate::limits::MAX_COMPOUND_DEPTH;
use crate::shape::{Aabb, Shape};
use alloc::vec::Vec;

/// The union of a non-empty list of shapes: a multi-rectangle sprite hitbox, for example. Parts
/// may overlap, may be any shape (compounds included), and are queried one by one.
#[derive(Clone, Debug, PartialEq)]
pub struct Compound {
    parts: Vec<Shape>,
    aabb: Aabb,
    /// 1 + the largest depth of a compound part (1 when no part is a compound).
    depth: usize,
}

impl Compound {
    /// The union of `parts` (already validated shapes).
    ///
    /// # Errors
    /// [`ShapeError::EmptyCompound`] when `parts` is empty; [`ShapeError::TooDeep`] when the
    /// compound would nest compounds deeper than
    /// [`MAX_COMPOUND_DEPTH`] levels.
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
        let aabb = parts
            .iter()
            .map(Shape::aabb)
            .reduce(|a, b| a.union(&b))
            .ok_or(ShapeError::EmptyCompound)?;
        let depth = 1 + parts.iter().map(part_depth).max().unwrap_or(0);
        if depth > MAX_COMPOUND_DEPTH {
            return Err(ShapeError::TooDeep {
                limit: MAX_COMPOUND_DEPTH,
            });
        }
        Ok(Compound { parts, aabb, depth })
    }

    /// How deep compounds nest in it: 1 when no part is a compound, else 1 + the deepest
    /// compound part's depth. At most [`MAX_COMPOUND_DEPTH`].
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The parts, in the order given.
    #[must_use]
    pub fn parts(&self) -> &[Shape] {
        &self.parts
    }

    /// The compound with every part mapped by `f`.
    pub(crate) fn map_parts(&self, f: impl Fn(&Shape) -> Shape) -> Compound {
        let parts: Vec<Shape> = self.parts.iter().map(f).collect();
        let aabb = parts
            .iter()
            .map(Shape::aabb)
            .fold(parts[0].aabb(), |a, b| a.union(&b));
        Compound {
            parts,
            aabb,
            depth: self.depth,
        }
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
}
