//! [`MoveSettings`]: what a character mover does beyond sliding (which objects block, pushing
//! out of overlaps, moving platforms, slopes, steps, snapping to the ground), and the surface
//! rules they share.

use super::probe::{bounce, slide};
use super::Response;
use crate::math::Vec2;
use crate::world::Handle;

/// Which kinds of objects may block a move ([`MoveSettings::obstacles`]); the layer `mask` and
/// the `respond` callback (return [`Response::Cross`] to let an object through) choose among
/// them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Obstacles {
    /// Only [`ObjectKind::Static`](crate::ObjectKind::Static) objects (and the listed
    /// [`MoveSettings::platforms`]): level geometry. The default.
    #[default]
    StaticOnly,
    /// Every object, static or not (crates, enemies, doors), except [`MoveSettings::ignore`].
    All,
}

/// How [`CollisionWorld::move_shape_with`](crate::CollisionWorld::move_shape_with) moves a
/// character. [`MoveSettings::default`] is exactly [`move_shape`](crate::CollisionWorld::move_shape):
/// static obstacles, no push-out, no platforms, no slope limit, no steps, no snapping (only
/// `move_shape` does not look for [`Movement::ground`](crate::motion::Movement::ground)).
///
/// ```
/// use collide2d::{math::Vec2, motion::MoveSettings};
/// let settings = MoveSettings {
///     max_slope: 50f32.to_radians(), // steeper surfaces are walls
///     step_height: 8.0,              // climbs ledges up to 8 units high
///     snap_to_ground: 6.0,           // stays on the ground running down slopes and steps
///     depenetrate: true,             // pushed out of what moved into it
///     ..MoveSettings::default()
/// };
/// assert_eq!(settings.up, Vec2::Y);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveSettings<'a> {
    /// Which kinds of objects block (default: static only).
    pub obstacles: Obstacles,
    /// An object that never blocks: typically the mover's own object in the world.
    pub ignore: Option<Handle>,
    /// The up direction (need not be unit length; default `+Y`). A zero or non-finite `up`
    /// turns off slopes, steps, snapping and ground detection.
    pub up: Vec2,
    /// The steepest walkable surface, in radians from flat (default `π/2`: every surface
    /// facing up is ground). A steeper one is a wall: the mover does not climb it by sliding,
    /// it slides down it.
    pub max_slope: f32,
    /// The highest ledge the mover steps up onto while walking on the ground (default 0: none).
    /// The mover steps only onto walkable ground and only where its head has room.
    pub step_height: f32,
    /// When the mover was on the ground and does not move up, the furthest it is pulled down
    /// onto walkable ground at the end of a move (default 0: never), so running down a slope
    /// or off a small step keeps it on the ground.
    pub snap_to_ground: f32,
    /// Before moving, push the mover out of any blocking object it overlaps (a platform rose
    /// into it, a door closed on it) along the shortest separating move; each push is reported
    /// as a contact at `t = 0` (default `false`: a mover inside an object may only leave it).
    pub depenetrate: bool,
    /// Objects that moved this frame, each with its translation, already at their new place in
    /// the world: a mover standing on one is carried along, one that it runs into is pushed,
    /// before the mover's own motion. A listed object blocks whatever its kind.
    pub platforms: &'a [(Handle, Vec2)],
}

impl Default for MoveSettings<'_> {
    fn default() -> Self {
        Self {
            obstacles: Obstacles::StaticOnly,
            ignore: None,
            up: Vec2::Y,
            max_slope: core::f32::consts::FRAC_PI_2,
            step_height: 0.0,
            snap_to_ground: 0.0,
            depenetrate: false,
            platforms: &[],
        }
    }
}

/// The surface rules of one move, from its settings.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    /// Unit up, or zero when the settings' `up` is unusable.
    pub(super) up: Vec2,
    /// The least `normal · up` of walkable ground (`cos(max_slope)`, at least 0).
    min_up: f32,
    /// Any of the slope, step or snap settings is on: a box meeting a walkable face at a
    /// corner takes the face's normal.
    pub(super) character: bool,
}

impl Rules {
    pub(super) fn new(s: &MoveSettings) -> Self {
        let up = if s.up.is_finite() {
            s.up.normalize_or_zero()
        } else {
            Vec2::ZERO
        };
        let slope = s.max_slope.clamp(0.0, core::f32::consts::FRAC_PI_2);
        let min_up = if slope.is_nan() {
            0.0
        } else {
            libm::cosf(slope).max(0.0)
        };
        let character =
            slope < core::f32::consts::FRAC_PI_2 || s.step_height > 0.0 || s.snap_to_ground > 0.0;
        Self {
            up,
            min_up,
            character,
        }
    }

    /// A surface of unit normal `n` (out of the object) the mover stands on.
    pub(super) fn walkable(&self, n: Vec2) -> bool {
        let along = n.dot(self.up);
        along > 0.0 && along >= self.min_up
    }

    /// A surface facing up but too steep to walk on.
    fn steep(&self, n: Vec2) -> bool {
        n.dot(self.up) > 0.0 && !self.walkable(n)
    }

    /// The motion left after responding with `response` at a surface of normal `n`. Sliding
    /// on a steep surface never climbs it: the motion into the wall it makes (`n` without its
    /// up part) is removed first, then the rest slides along the surface.
    pub(super) fn respond_to(&self, response: Response, rest: Vec2, n: Vec2) -> Vec2 {
        match response {
            Response::Slide | Response::OneWay { .. } if self.steep(n) => {
                let wall = (n - self.up * n.dot(self.up)).normalize_or_zero();
                slide(slide(rest, wall), n)
            }
            Response::Slide | Response::OneWay { .. } => slide(rest, n),
            Response::Bounce => bounce(rest, n),
            Response::Stop => Vec2::ZERO,
            Response::Cross => rest,
        }
    }
}

/// Whether a response makes an object solid at all (it may still let the mover through where
/// the blocking rule says so).
pub(super) fn solid(response: Response) -> bool {
    !matches!(response, Response::Cross | Response::OneWay { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::v;

    #[test]
    fn default_rules_walk_every_upward_surface_and_slide_as_before() {
        let r = Rules::new(&MoveSettings::default());
        assert!(r.walkable(v(0.0, 1.0)) && r.walkable(v(-0.999, 0.04).normalize()));
        assert!(!r.walkable(v(-1.0, 0.0)) && !r.walkable(v(0.0, -1.0)));
        let n = v(-0.8, 0.6);
        assert_eq!(
            r.respond_to(Response::Slide, v(5.0, -1.0), n),
            slide(v(5.0, -1.0), n)
        );
    }

    #[test]
    fn a_steep_slope_is_slid_down_not_climbed() {
        let s = MoveSettings {
            max_slope: 0.7,
            ..MoveSettings::default()
        };
        let r = Rules::new(&s);
        let n = v(-0.8, 0.6); // rising to the right at about 53 degrees
        assert!(!r.walkable(n));
        let next = r.respond_to(Response::Slide, v(5.0, -1.0), n);
        assert!(next.y < 0.0 && next.x < 0.0, "{next}");
        assert!(next.dot(n).abs() < 1e-6);
        // A gentle one is climbed.
        let gentle = v(-0.3, 1.0).normalize();
        assert!(r.walkable(gentle));
        assert!(r.respond_to(Response::Slide, v(5.0, -1.0), gentle).y > 0.0);
    }

    #[test]
    fn unusable_up_turns_ground_off() {
        for up in [Vec2::ZERO, v(f32::NAN, 1.0)] {
            let r = Rules::new(&MoveSettings {
                up,
                ..MoveSettings::default()
            });
            assert!(!r.walkable(Vec2::Y));
        }
    }
}
