//! [`Segment`]: the closed segment between two points.

use crate::error::{finite_vec, ShapeError};
use crate::math::Vec2;
use crate::shape::Aabb;

/// The closed segment from `a` to `b` (`a == b` is allowed: a single point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    a: Vec2,
    b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b`, with no check in release builds: for values known
    /// finite, in hot loops or constants. Debug builds assert it (in a constant, at compile
    /// time); [`new`](Self::new) checks and returns errors.
    #[must_use]
    pub const fn new_unchecked(a: Vec2, b: Vec2) -> Segment {
        debug_assert!(
            a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite(),
            "Segment::new_unchecked: a coordinate is not finite"
        );
        Segment { a, b }
    }

    /// A segment with no check at all, for the library's own placements.
    pub(crate) const fn raw(a: Vec2, b: Vec2) -> Segment {
        Segment { a, b }
    }

    /// The segment from `a` to `b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] if a coordinate is NaN or infinite (field `a.x`, ..., `b.y`).
    ///
    /// ```
    /// use collide2d::{math::Vec2, Segment};
    /// let s = Segment::new(Vec2::ZERO, Vec2::new(3.0, 4.0))?;
    /// assert_eq!(s.length(), 5.0);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(a: Vec2, b: Vec2) -> Result<Segment, ShapeError> {
        Ok(Segment {
            a: finite_vec("a", a)?,
            b: finite_vec("b", b)?,
        })
    }

    /// The start point.
    #[must_use]
    pub fn a(&self) -> Vec2 {
        self.a
    }

    /// The end point.
    #[must_use]
    pub fn b(&self) -> Vec2 {
        self.b
    }

    /// The distance from `a` to `b`.
    #[must_use]
    pub fn length(&self) -> f32 {
        self.a.distance(self.b)
    }

    /// Its bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::raw(self.a.min(self.b), self.a.max(self.b))
    }
}
