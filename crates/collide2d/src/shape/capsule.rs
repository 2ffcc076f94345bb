//! [`Capsule`]: every point within a radius of a segment.

use crate::error::{finite_vec, non_negative, ShapeError};
use crate::math::Vec2;
use crate::shape::Aabb;

/// Every point within `radius` of the segment `a`-`b`: a stadium, or a disc when `a == b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    a: Vec2,
    b: Vec2,
    radius: f32,
}

impl Capsule {
    /// The capsule around segment `a`-`b`, with no check in release builds: for values known
    /// valid (finite, `radius >= 0`), in hot loops or constants. Debug builds assert validity
    /// (in a constant, at compile time); [`new`](Self::new) checks and returns errors.
    #[must_use]
    pub const fn new_unchecked(a: Vec2, b: Vec2, radius: f32) -> Capsule {
        debug_assert!(
            a.x.is_finite()
                && a.y.is_finite()
                && b.x.is_finite()
                && b.y.is_finite()
                && radius.is_finite()
                && radius >= 0.0,
            "Capsule::new_unchecked: a field is not finite or the radius is negative"
        );
        Capsule { a, b, radius }
    }

    /// A capsule with no check at all, for the library's own placements.
    pub(crate) const fn raw(a: Vec2, b: Vec2, radius: f32) -> Capsule {
        Capsule { a, b, radius }
    }

    /// The capsule around segment `a`-`b`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite field; [`ShapeError::Negative`] for a
    /// negative radius.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Capsule};
    /// let c = Capsule::new(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.5)?;
    /// assert_eq!(c.radius(), 0.5);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(a: Vec2, b: Vec2, radius: f32) -> Result<Capsule, ShapeError> {
        Ok(Capsule {
            a: finite_vec("a", a)?,
            b: finite_vec("b", b)?,
            radius: non_negative("radius", radius)?,
        })
    }

    /// One end of the core segment.
    #[must_use]
    pub fn a(&self) -> Vec2 {
        self.a
    }

    /// The other end of the core segment.
    #[must_use]
    pub fn b(&self) -> Vec2 {
        self.b
    }

    /// The radius, `>= 0`.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Its bounding box (rounded outwards so it always contains the capsule).
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let r = Vec2::splat(self.radius);
        Aabb::raw(self.a.min(self.b) - r, self.a.max(self.b) + r).outward()
    }
}
