//! Movement with response: [`CollisionWorld::move_shape`] moves a box or a capsule through the
//! world's static objects and answers where it ends and what it touched on the way, with a
//! [`Response`] chosen per object (slide, stop, cross, bounce, one-way platform), as platformer
//! code does with bump.lua.
//!
//! Each step casts the mover along the motion left ([`cast_shapes`](crate::cast_shapes)), takes
//! the first object that *blocks*, places the mover against it and applies its response to the
//! rest of the motion, at most [`MAX_MOVE_STEPS`] times. An object blocks only if the motion
//! takes the mover into its interior (see `probe.rs`): grazing an edge or a corner does not, so a
//! mover never snags on the seams between flush tiles, and a mover resting on a surface slides
//! along it (the contact reports `t = 0` and the surface normal).
//!
//! [`CollisionWorld::move_shape_with`] is the same move as a character controller, with
//! [`MoveSettings`]: dynamic obstacles, pushing out of overlaps, moving platforms, a walkable
//! slope limit, steps and snapping to the ground (`character.rs`; `sweep.rs` is the one
//! straight step both are made of).

mod character;
mod probe;
mod settings;
mod sweep;

use crate::math::Vec2;
use crate::shape::Shape;
use crate::world::{CollisionWorld, Handle};
use alloc::vec::Vec;
pub use settings::{MoveSettings, Obstacles};

/// The most blocking contacts one [`CollisionWorld::move_shape`] responds to; the motion left
/// after the last one is dropped (the mover stays where that contact put it).
pub const MAX_MOVE_STEPS: usize = 8;

/// What a moving shape does when it meets an object ([`CollisionWorld::move_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Response {
    /// Block, then keep the motion along the surface (its component into the surface removed).
    Slide,
    /// Block and end the move there (bump.lua's "touch").
    Stop,
    /// Report the contact but pass through (pick-ups, triggers).
    Cross,
    /// Block, then mirror the rest of the motion in the surface.
    Bounce,
    /// A one-way platform: slides like [`Response::Slide`] when met from the `up` side (the
    /// surface normal has a positive component along `up`) and the mover did not overlap it at
    /// the start of the move; otherwise passes through without a report.
    OneWay {
        /// The side the platform is solid from (need not be unit length), e.g. `Vec2::Y`.
        up: Vec2,
    },
}

/// One contact met during a move, in the order they happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveContact {
    /// The object met.
    pub handle: Handle,
    /// When, as a fraction in `[0, 1]` of the move's duration (the whole `motion` takes time 1;
    /// after a slide the mover keeps moving at the same time rate along the surface).
    pub t: f32,
    /// Where the mover touched the object, in world space.
    pub point: Vec2,
    /// Unit normal of the object's surface there, pointing out of the object towards the mover
    /// (`+Y` when landing on a floor, y up).
    pub normal: Vec2,
    /// The response applied.
    pub response: Response,
}

/// The result of [`CollisionWorld::move_shape`].
#[derive(Clone, Debug, PartialEq)]
pub struct Movement {
    /// How far the mover moved in total.
    pub delta: Vec2,
    /// The mover at its final place: the shape given, translated by `delta`. (Each translation
    /// rounds the shape's coordinates; a game that keeps its player's position and builds the
    /// shape from it each frame keeps the size exact, where chaining `shape` lets it drift by
    /// units in the last place.)
    pub shape: Shape,
    /// The contacts met, in the order they happened (by `t`; crossings at the same `t` by
    /// handle, before the block at that `t`): every crossed object once (its first touch), every
    /// blocking contact each time it was responded to.
    pub contacts: Vec<MoveContact>,
    /// What the mover stands on at its final place: walkable ground (by
    /// [`MoveSettings::max_slope`]) touching it from below, found by a short cast down (or the
    /// one it snapped onto). Touching means within the gap a settled mover keeps, `8e-6` times
    /// the mover's largest coordinate (at least 1), as a rounded mover rests a few units in the
    /// last place above its ground; `None` in the air, and always from
    /// [`move_shape`](CollisionWorld::move_shape), which does not look for it.
    pub ground: Option<Ground>,
}

/// The ground a mover stands on ([`Movement::ground`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The object stood on.
    pub handle: Handle,
    /// Unit normal of its surface, out of it (`+Y` on flat ground, y up).
    pub normal: Vec2,
    /// Where the mover touches it, in world space.
    pub point: Vec2,
}

impl<T> CollisionWorld<T> {
    /// Moves `shape` by `motion` through the world's static objects whose layer is in `mask`,
    /// with the response `respond` chooses for each object (called at most once per object per
    /// move, for the objects near the path), and returns where it ends and the contacts on the way.
    /// (For slopes, steps, moving platforms, dynamic obstacles and pushing out of overlaps, see
    /// [`move_shape_with`](Self::move_shape_with); this is it with [`MoveSettings::default`],
    /// except that it does not look for the ground under the mover at the end:
    /// [`Movement::ground`] is `None`.)
    ///
    /// - The mover is any convex shape, typically an [`Aabb`](crate::Aabb) or a [`Capsule`](crate::Capsule);
    ///   it is only translated. (A concave or compound mover works, but the blocking rule below
    ///   is then approximate; a mover without area, a point or a segment, passes through
    ///   obstacles without area.) It is not an object of the world: dynamic objects are never
    ///   obstacles (so a mover inserted as a dynamic object does not meet itself).
    /// - Obstacles are any shapes; concave polygons and compounds are taken part by part.
    /// - An object blocks only where the motion would take the mover into its interior:
    ///   touching is a contact but grazing an edge or corner is not a block. (Exact for a box
    ///   against boxes; by the contact normal for a circle or capsule; between other polygons,
    ///   by an overlap deeper than about `1e-6` of the mover's coordinates.) So a mover never snags on the seams between adjacent
    ///   tiles, never sinks into corners, and a mover that starts touching a surface and
    ///   pushes into it blocks at `t = 0` with that surface's normal, then slides. A mover that
    ///   starts overlapping an object may move out of it or along it, not deeper. A wall
    ///   crossed in one step is always met (no tunnelling). The mover never ends a step
    ///   overlapping a blocking object's interior (beyond rounding; an [`Aabb`](crate::Aabb) mover is snapped
    ///   exactly onto [`Aabb`](crate::Aabb) faces).
    /// - Several contacts at once (a corner, a seam): the one whose response leaves the fewest
    ///   of the others still blocking wins, then the earliest (the flat face rather than the
    ///   seam's corner), then the one meeting the motion least head-on, then the lower handle.
    /// - At most [`MAX_MOVE_STEPS`] blocking contacts are responded to. A non-finite `motion`,
    ///   or one that could carry the shape past `±f32::MAX`, moves nothing.
    /// - It needs no [`update`](Self::update) first. Like every query, the first one after
    ///   objects changed takes the changes into the broad phase, once (see the
    ///   [`world`](crate::world) module): a level inserted and never updated is taken in by the
    ///   first call, after which a call costs what it costs after an update. Only the static
    ///   objects' changes are taken in: dynamic objects moved since (enemies walking each
    ///   frame) cost it nothing.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// for i in 0..10 {
    ///     let tile = Aabb::from_rect(i as f32, 0.0, 1.0, 1.0)?.into();
    ///     world.insert(tile, Filter::DEFAULT, ObjectKind::Static, ())?;
    /// }
    /// let player = Aabb::from_rect(2.0, 3.0, 1.0, 2.0)?.into();
    /// // Falling and running right in one step: lands on the tiles, then slides along them.
    /// let m = world.move_shape(&player, Vec2::new(4.0, -6.0), u64::MAX, |_, _| Response::Slide);
    /// assert_eq!(m.delta, Vec2::new(4.0, -2.0)); // on the floor, no snag on the seams
    /// assert_eq!(m.contacts.len(), 1);
    /// assert_eq!(m.contacts[0].normal, Vec2::Y); // out of the floor: grounded
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn move_shape(
        &self,
        shape: &Shape,
        motion: Vec2,
        mask: u64,
        respond: impl FnMut(Handle, &T) -> Response,
    ) -> Movement {
        self.move_character(
            (shape, motion),
            mask,
            &MoveSettings::default(),
            false,
            respond,
        )
    }
}

#[cfg(test)]
mod tests;
