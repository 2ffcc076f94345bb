//! [`Compound`]: the union of a list of shapes.

use crate::error::ShapeError;
use crate::shape::{Aabb, Shape};

/// The union of a non-empty list of shapes: a multi-rectangle sprite hitbox, for example. Parts
/// may overlap, may be any shape (compounds included), and are queried one by one.
#[derive(Clone, Debug, PartialEq)]
pub struct Compound {
    parts: Vec<Shape>,
    aabb: Aabb,
}

impl Compound {
    /// The union of `parts` (already validated shapes).
    ///
    /// # Errors
    /// [`ShapeError::EmptyCompound`] when `parts` is empty.
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
        Ok(Compound { parts, aabb })
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
        Compound { parts, aabb }
    }

    /// Its bounding box (the union of the parts' boxes).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }
}
