//! [`Sweep`]: how a shape moves over one step when it may turn, as Box2D's `b2Sweep`: its pivot
//! moves in a straight line and the shape turns about it at a constant rate.

use crate::math::{rotation, Pose, Vec2};
use crate::shape::Shape;
use glam::DVec2;

/// A shape's motion over one step, `t` from 0 to 1: the pivot moves by `t * translation` and
/// the shape turns by `t * angle` about it, so a point `p` of the shape at `t = 0` is at
/// `pivot + t * translation + rotate(t * angle, p - pivot)` at time `t`.
///
/// The shape is given in world space at `t = 0` (not in a local frame): [`Sweep::pose_at`]
/// maps it to its place at `t`. A sweep with `angle == 0` is a plain translation, as
/// [`cast_shapes`](crate::cast_shapes) takes it.
///
/// ```
/// use collide2d::{math::Vec2, query::Sweep, Segment, Shape};
/// let bar: Shape = Segment::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0))?.into();
/// // A quarter turn about the bar's center while it moves 10 units right.
/// let sweep = Sweep::about_center(&bar, Vec2::new(10.0, 0.0), core::f32::consts::FRAC_PI_2);
/// let end = bar.transformed(&sweep.pose_at(1.0));
/// assert!((end.aabb().min() - Vec2::new(10.0, -1.0)).length() < 1e-6);
/// assert!((end.aabb().max() - Vec2::new(10.0, 1.0)).length() < 1e-6);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// How far the pivot (and the whole shape with it) moves over the step.
    pub translation: Vec2,
    /// How far the shape turns over the step, in radians, counter-clockwise.
    pub angle: f32,
    /// The point the shape turns about, in world space at `t = 0`.
    pub pivot: Vec2,
}

impl Sweep {
    /// A motion that only translates by `translation` (no turn, so no pivot).
    #[must_use]
    pub const fn translation(translation: Vec2) -> Sweep {
        Sweep {
            translation,
            angle: 0.0,
            pivot: Vec2::ZERO,
        }
    }

    /// A motion by `translation`, turning by `angle` radians about `pivot` (world space at
    /// `t = 0`).
    #[must_use]
    pub const fn new(translation: Vec2, angle: f32, pivot: Vec2) -> Sweep {
        Sweep {
            translation,
            angle,
            pivot,
        }
    }

    /// A motion by `translation`, turning by `angle` radians about the center of `shape`'s
    /// bounding box at `t = 0` (the pivot `collide2d cast` uses when none is given).
    #[must_use]
    pub fn about_center(shape: &Shape, translation: Vec2, angle: f32) -> Sweep {
        Sweep::new(translation, angle, shape.aabb().center())
    }

    /// True when the sweep does not turn.
    #[must_use]
    #[inline]
    pub fn is_translation(&self) -> bool {
        self.angle == 0.0
    }

    /// True when every number of the sweep is finite.
    #[must_use]
    pub fn is_finite(&self) -> bool {
        self.translation.is_finite() && self.angle.is_finite() && self.pivot.is_finite()
    }

    /// The pose that takes the shape from where it is at `t = 0` to where it is at time `t`:
    /// `shape.transformed(&sweep.pose_at(t))`. The turn is `t * angle` rounded to `f32`; the
    /// pose's position is computed in `f64` and rounded once. `pose_at(0.0)` is the identity.
    #[must_use]
    pub fn pose_at(&self, t: f32) -> Pose {
        if self.angle == 0.0 {
            return Pose::from_translation(self.translation * t);
        }
        let r = rotation(self.angle * t);
        let (rot, pivot) = (r.as_dvec2(), self.pivot.as_dvec2());
        // pivot + t v - R pivot: a point p goes to R p + that = pivot + t v + R (p - pivot).
        let turned = DVec2::new(
            rot.x * pivot.x - rot.y * pivot.y,
            rot.y * pivot.x + rot.x * pivot.y,
        );
        let position = pivot + self.translation.as_dvec2() * f64::from(t) - turned;
        Pose {
            position: position.as_vec2(),
            rotation: r,
        }
    }
}

impl From<Vec2> for Sweep {
    /// A translation only, as [`Sweep::translation`].
    fn from(translation: Vec2) -> Sweep {
        Sweep::translation(translation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::v;
    use core::f32::consts::{FRAC_PI_2, PI};

    #[test]
    fn a_pose_at_zero_leaves_the_shape_where_it_is() {
        let s = Sweep::new(v(3.0, -2.0), 1.3, v(7.0, 11.0));
        let p = s.pose_at(0.0);
        assert_eq!(p, Pose::IDENTITY);
        assert_eq!(p.transform_point(v(5.0, 6.0)), v(5.0, 6.0));
    }

    #[test]
    fn the_pivot_moves_with_the_translation_and_the_rest_turns_about_it() {
        let s = Sweep::new(v(4.0, 0.0), PI, v(1.0, 1.0));
        for t in [0.25f32, 0.5, 1.0] {
            let pose = s.pose_at(t);
            let pivot = pose.transform_point(v(1.0, 1.0));
            assert!(pivot.distance(v(1.0 + 4.0 * t, 1.0)) < 1e-6, "{t}: {pivot}");
        }
        // Half a turn: (2, 1) is one unit right of the pivot, so it ends one unit left of it.
        let end = s.pose_at(1.0).transform_point(v(2.0, 1.0));
        assert!(end.distance(v(4.0, 1.0)) < 1e-6, "{end}");
        let quarter = Sweep::new(Vec2::ZERO, FRAC_PI_2, Vec2::ZERO).pose_at(1.0);
        assert!(quarter.transform_point(Vec2::X).distance(Vec2::Y) < 1e-7);
    }

    #[test]
    fn a_translation_is_added_as_cast_shapes_adds_it() {
        let s: Sweep = v(3.0, 5.0).into();
        assert!(s.is_translation());
        assert_eq!(s.pose_at(0.5), Pose::from_translation(v(1.5, 2.5)));
        assert!(!Sweep::new(Vec2::ZERO, f32::NAN, Vec2::ZERO).is_finite());
    }
}
