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
    /// The point `p`, with no check in release builds: for values known finite, in hot loops
    /// or constants. Debug builds assert it (in a constant, at compile time);
    /// [`new`](Self::new) checks and returns errors.
    #[must_use]
    pub const fn new_unchecked(p: Vec2) -> Point {
        debug_assert!(
            p.x.is_finite() && p.y.is_finite(),
            "Point::new_unchecked: a coordinate is not finite"
        );
        Point { p }
    }

    /// A point with no check at all, for the library's own (a query point is checked after).
    pub(crate) const fn raw(p: Vec2) -> Point {
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
        Aabb::raw(self.p, self.p)
    }
}
