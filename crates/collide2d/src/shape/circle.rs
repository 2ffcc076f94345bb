//! [`Circle`]: a closed disc.

use crate::error::{finite_vec, non_negative, ShapeError};
use crate::math::Vec2;
use crate::shape::Aabb;

/// A closed disc: every point within `radius` of `center`. Radius 0 is a single point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    center: Vec2,
    radius: f32,
}

impl Circle {
    /// The disc of `radius` around `center`, with no check in release builds: for values
    /// known valid (finite, `radius >= 0`), in hot loops or constants. Debug builds assert
    /// validity (in a constant, at compile time); [`new`](Self::new) checks and returns errors.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Circle};
    /// const COIN: Circle = Circle::new_unchecked(Vec2::new(0.0, 4.0), 0.5);
    /// assert_eq!(COIN, Circle::new(Vec2::new(0.0, 4.0), 0.5)?);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    #[must_use]
    pub const fn new_unchecked(center: Vec2, radius: f32) -> Circle {
        debug_assert!(
            center.x.is_finite() && center.y.is_finite() && radius.is_finite() && radius >= 0.0,
            "Circle::new_unchecked: a field is not finite or the radius is negative"
        );
        Circle { center, radius }
    }

    /// A disc with no check at all, for the library's own placements (which may go past
    /// `±f32::MAX`: see [`Shape::transformed`](crate::Shape::transformed)).
    pub(crate) const fn raw(center: Vec2, radius: f32) -> Circle {
        Circle { center, radius }
    }

    /// The disc of `radius` around `center`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite field (`center.x`, `center.y`, `radius`);
    /// [`ShapeError::Negative`] for a negative radius.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Circle};
    /// let c = Circle::new(Vec2::new(1.0, 2.0), 0.5)?;
    /// assert_eq!(c.radius(), 0.5);
    /// let err = Circle::new(Vec2::ZERO, -1.0).unwrap_err();
    /// assert_eq!(err.to_string(), "radius must be >= 0, got -1");
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(center: Vec2, radius: f32) -> Result<Circle, ShapeError> {
        Ok(Circle {
            center: finite_vec("center", center)?,
            radius: non_negative("radius", radius)?,
        })
    }

    /// The center.
    #[must_use]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The radius, `>= 0`.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Its bounding box (rounded outwards so it always contains the disc).
    #[must_use]
    #[inline]
    pub fn aabb(&self) -> Aabb {
        // `-c - r` is `-(c + r)` exactly: one four-lane subtraction gives the box as
        // `outward_of` takes it.
        let c = self.center;
        let lanes = glam::Vec4::new(c.x, c.y, -c.x, -c.y) - self.radius;
        Aabb::outward_of(lanes.to_array())
    }
}
