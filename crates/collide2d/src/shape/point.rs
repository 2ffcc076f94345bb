//! [`Point`]: a single point.

use crate::error::{finite_vec, ShapeError};
use crate::math::Vec2;
use crate::shape::Aabb;

/// A single point. It intersects whatever contains it, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    p: Vec2,
}

impl Point {
    /// A point the caller knows to be finite.
    pub(crate) fn new_unchecked(p: Vec2) -> Point {
        Point { p }
    }

    /// A point at `p`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] if a coordinate is NaN or infinite (field `p.x` or `p.y`).
    ///
    /// ```
    /// use collide2d::{math::Vec2, Point};
    /// let p = Point::new(Vec2::new(1.0, 2.0))?;
    /// assert_eq!(p.p(), Vec2::new(1.0, 2.0));
    /// assert!(Point::new(Vec2::new(f32::NAN, 0.0)).is_err());
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(p: Vec2) -> Result<Point, ShapeError> {
        Ok(Point {
            p: finite_vec("p", p)?,
        })
    }

    /// The point.
    #[must_use]
    pub fn p(&self) -> Vec2 {
        self.p
    }

    /// Its bounding box (a zero-size box).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::new_unchecked(self.p, self.p)
    }
}
