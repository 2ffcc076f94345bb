//! Moving many objects in one call ([`CollisionWorld::move_many`]) and placing objects by a
//! pose ([`CollisionWorld::set_pose`]): a rotating object keeps its local shape, and placing it
//! again each frame writes its world shape in place, with no allocation.

use super::{CollisionWorld, Handle, WorldError};
use crate::math::{Pose, Vec2};
#[cfg(doc)]
use crate::{shape::Shape, world::ObjectKind};

impl<T> CollisionWorld<T> {
    /// Moves each `(handle, delta)` as [`move_by`](Self::move_by) does, in order: a frame's
    /// moves of many objects (bullets stepped by their velocities) in one call.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::grid(4.0)?);
    /// let mut bullets = Vec::new();
    /// for i in 0..100 {
    ///     let disc = Circle::new(Vec2::new(i as f32, 0.0), 0.25)?.into();
    ///     let velocity = Vec2::new(0.0, 1.0 + i as f32 * 0.01);
    ///     bullets.push((world.insert(disc, Filter::DEFAULT, ObjectKind::Fast, ())?, velocity));
    /// }
    /// world.move_many(bullets.iter().copied())?;
    /// assert_eq!(world.motion(bullets[99].0)?, Vec2::new(0.0, 1.99));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The first error of a move, as [`move_by`](Self::move_by) gives it; every other move is
    /// still made (and each failed one leaves its object unchanged).
    pub fn move_many(
        &mut self,
        moves: impl IntoIterator<Item = (Handle, Vec2)>,
    ) -> Result<(), WorldError> {
        let mut first_error = None;
        for (handle, delta) in moves {
            if let Err(e) = self.move_by(handle, delta) {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Places an object by `pose`: its shape becomes its *local* shape (defined about its own
    /// origin) rotated by `pose`, then moved to `pose.position`, the same numbers as
    /// [`set_shape`](Self::set_shape)`(handle, local.transformed(&pose))`.
    ///
    /// The local shape is the object's shape when `set_pose` is first called on it (insert
    /// the shape about the origin), kept until [`set_shape`](Self::set_shape) gives it a new
    /// world-space shape. Each pose is absolute: a [`move_by`](Self::move_by) in between
    /// translates the shape until the next pose places it afresh. Placing it again writes the
    /// world shape in place: a spinning polygon or compound allocates nothing per frame
    /// (after its first pose, which keeps the local shape). For a [`ObjectKind::Fast`] object
    /// this is a teleport, as `set_shape` is.
    ///
    /// ```
    /// use collide2d::{math::{Pose, Vec2}, BroadPhase, CollisionWorld, ConvexPolygon, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// let blade = ConvexPolygon::new(&[Vec2::new(-4.0, -0.5), Vec2::new(4.0, -0.5), Vec2::new(4.0, 0.5), Vec2::new(-4.0, 0.5)])?;
    /// let spinner = world.insert(blade.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// for frame in 0..=90 {
    ///     let angle = frame as f32 * core::f32::consts::PI / 180.0; // a quarter turn
    ///     world.set_pose(spinner, Pose::new(Vec2::new(10.0, 0.0), angle))?;
    /// }
    /// // Upright now: from y = -4 to 4 and x = 9.5 to 10.5 (give or take rounding).
    /// let b = world.shape(spinner)?.aabb();
    /// assert!((b.max().y - 4.0).abs() < 1e-3 && (b.min().x - 9.5).abs() < 1e-3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object;
    /// [`WorldError::NonFiniteShape`] when the placed shape is not [finite](Shape::is_finite)
    /// (a non-finite pose, or one placing it past `±f32::MAX`). The object is unchanged on
    /// error.
    pub fn set_pose(&mut self, handle: Handle, pose: Pose) -> Result<(), WorldError> {
        let i = self.live_index(handle)?;
        let local = self
            .shapes
            .local(i)
            .ok_or(WorldError::StaleHandle { handle })?;
        // A bound on the placed coordinates (with room for rounding): when it is finite, the
        // shape can be placed in place with no check to undo.
        let reach = local.aabb();
        let reach = reach.min().abs().max(reach.max().abs()).max_element();
        let spin = pose.rotation.abs().element_sum();
        let bound = pose.position.abs().max_element() + 2.0 * spin * reach;
        let finite = pose.position.is_finite() && pose.rotation.is_finite() && bound.is_finite();
        if !finite {
            // Refused unless placing it whole shows it finite (then placed as usual).
            Self::checked_aabb(&local.transformed(&pose))?;
        }
        drop(local);
        self.shapes
            .place(i, &pose)
            .ok_or(WorldError::StaleHandle { handle })?;
        let placed = self
            .shapes
            .get(i)
            .ok_or(WorldError::StaleHandle { handle })?;
        self.aabbs[i] = Self::checked_aabb(&placed)?;
        if self.fast[i] {
            self.sweeps[i] = super::FastMotion::NONE;
        }
        self.mark(handle.index);
        Ok(())
    }
}
