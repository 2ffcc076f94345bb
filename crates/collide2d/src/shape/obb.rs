//! [`Obb`]: a box rotated about its center.

use crate::error::{finite, finite_vec, ShapeError};
use crate::math::Vec2;
use crate::shape::hull::{convex_hull, in_hull_order};
use crate::shape::Aabb;

/// A closed box of `half_extents` rotated by `angle` (radians, counter-clockwise) about `center`.
///
/// Its corners are computed once, in `f32`, at construction; every predicate is exact with
/// respect to those corners (the box *is* their convex hull).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    center: Vec2,
    half_extents: Vec2,
    angle: f32,
    /// `(cos angle, sin angle)`, as used for the corners.
    rotation: Vec2,
    /// Strictly convex hull of the computed corners, counter-clockwise: 1, 2 or 4 points used.
    hull: [Vec2; 4],
    hull_len: u8,
    /// How far the hull may stray from the ideal box (an upper bound, rounded up to `f32`), or
    /// infinity when the float box test cannot be used; see `query::obb_obb`.
    filter_err: f32,
}

impl Obb {
    /// The box of `half_extents` rotated by `angle` about `center`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a NaN or infinite field; [`ShapeError::Negative`] for a
    /// negative half extent (field `half_extents.x` or `half_extents.y`);
    /// [`ShapeError::Overflow`] (field `center + half_extents`) when a corner is beyond
    /// `±f32::MAX`.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Obb};
    /// let b = Obb::new(Vec2::ZERO, Vec2::new(2.0, 1.0), std::f32::consts::FRAC_PI_2)?;
    /// assert!((b.corners()[0] - Vec2::new(1.0, -2.0)).length() < 1e-6);
    /// # Ok::<(), collide2d::ShapeError>(())
    /// ```
    pub fn new(center: Vec2, half_extents: Vec2, angle: f32) -> Result<Obb, ShapeError> {
        finite_vec("center", center)?;
        finite_vec("half_extents", half_extents)?;
        finite("angle", angle)?;
        for (field, got) in [
            ("half_extents.x", half_extents.x),
            ("half_extents.y", half_extents.y),
        ] {
            if got < 0.0 {
                return Err(ShapeError::Negative { field, got });
            }
        }
        let obb = Obb::from_parts(center, half_extents, angle, crate::math::rotation(angle));
        if let Some(corner) = obb.corners().into_iter().find(|c| !c.is_finite()) {
            let x_overflows = !corner.x.is_finite();
            let (origin, size) = if x_overflows {
                (center.x, half_extents.x.max(half_extents.y))
            } else {
                (center.y, half_extents.x.max(half_extents.y))
            };
            return Err(ShapeError::Overflow {
                field: "center + half_extents",
                origin,
                size,
            });
        }
        Ok(obb)
    }

    /// Builds the box from an already validated center, half extents and rotation `(cos, sin)`.
    pub(crate) fn from_parts(center: Vec2, half_extents: Vec2, angle: f32, rotation: Vec2) -> Obb {
        let mut corners = Obb::corners_of(center, half_extents, rotation);
        // The usual box, whose rounded corners are still strictly convex: its hull with no
        // allocation (a box rotated each frame allocates nothing).
        let (hull, hull_len) = if in_hull_order(&mut corners) {
            (corners, 4)
        } else {
            let hull_points = convex_hull(&corners);
            let mut hull = [center; 4];
            hull[..hull_points.len()].copy_from_slice(&hull_points);
            (hull, hull_points.len())
        };
        Obb {
            center,
            half_extents,
            angle,
            rotation,
            hull,
            hull_len: hull_len as u8,
            filter_err: crate::query::obb_filter_err(center, half_extents, rotation),
        }
    }

    fn corners_of(center: Vec2, h: Vec2, rotation: Vec2) -> [Vec2; 4] {
        let (ax, ay) = (rotation * h.x, rotation.perp() * h.y);
        [
            center - ax - ay,
            center + ax - ay,
            center + ax + ay,
            center - ax + ay,
        ]
    }

    /// The center.
    #[must_use]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// Half the width and height, before rotation.
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        self.half_extents
    }

    /// The rotation in radians, counter-clockwise.
    #[must_use]
    pub fn angle(&self) -> f32 {
        self.angle
    }

    /// The four computed corners, counter-clockwise, starting at the rotated `(-hx, -hy)`.
    #[must_use]
    pub fn corners(&self) -> [Vec2; 4] {
        Obb::corners_of(self.center, self.half_extents, self.rotation)
    }

    /// `(cos angle, sin angle)`: the rotation the corners were computed with.
    #[must_use]
    pub fn rotation(&self) -> Vec2 {
        self.rotation
    }

    /// See the field: the float box test's error bound, infinite when it does not apply.
    #[inline]
    pub(crate) fn filter_err(&self) -> f32 {
        self.filter_err
    }

    /// The strictly convex hull of the corners (fewer than 4 points when a half extent is 0).
    pub(crate) fn hull(&self) -> &[Vec2] {
        &self.hull[..usize::from(self.hull_len)]
    }

    /// Its bounding box.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let hull = self.hull();
        let (lo, hi) = hull
            .iter()
            .fold((hull[0], hull[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        Aabb::raw(lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn box_whose_corners_overflow_is_an_error() {
        let err = Obb::new(Vec2::new(3e38, 0.0), Vec2::new(1e38, 1.0), 0.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "center + half_extents overflows: 300000000000000000000000000000000000000 + 100000000000000000000000000000000000000 is not finite"
        );
        // Rotated, the corners reach further than the half extents.
        let big = Vec2::splat(1.3e38);
        assert!(Obb::new(Vec2::new(2e38, 0.0), big, 0.0).is_ok());
        assert!(Obb::new(Vec2::new(2e38, 0.0), big, core::f32::consts::FRAC_PI_4).is_err());
    }
    use crate::math::Pose;
    use crate::shape::Shape;

    #[test]
    fn placed_box_reports_the_corners_its_hull_was_built_from() {
        // Found by the property tests: the rotation of Pose::new(.., PI) is not
        // from_angle(pose.angle()) to the last bit, so corners() disagreed with the hull every
        // predicate uses (a point on the hull's edge per corners() was reported a miss).
        let aabb: Shape = Aabb::new(Vec2::new(-1.0, 0.0), Vec2::new(3.0, 8.0))
            .unwrap()
            .into();
        let pose = Pose::new(Vec2::new(-7.0, 2.0), core::f32::consts::PI);
        let Shape::Obb(placed) = aabb.transformed(&pose) else {
            unreachable!("rotated boxes are obbs")
        };
        let mut from_corners = convex_hull(&placed.corners());
        let mut hull = placed.hull().to_vec();
        let key = |a: &Vec2, b: &Vec2| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y));
        from_corners.sort_by(key);
        hull.sort_by(key);
        assert_eq!(from_corners, hull);
    }
}
