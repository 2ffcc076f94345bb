//! Moving many objects in one call ([`CollisionWorld::move_many`]) and placing objects by a
//! pose ([`CollisionWorld::set_pose`]): a rotating object keeps its local shape, and placing it
//! again each frame writes its world shape in place, with no allocation.

use super::quick::Quick;
use super::{CollisionWorld, Handle, WorldError};
use crate::math::{angle_of, Pose, Vec2};
use crate::shape::Shape;
#[cfg(doc)]
use crate::{query::cast_shapes_rotating, world::ObjectKind};

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
    /// (after its first pose, which keeps the local shape).
    ///
    /// A [`ObjectKind::Fast`] object is not teleported but swept, turning as it moves: from
    /// where it was at the previous update, its local origin moves in a straight line to
    /// `pose.position` while it turns at a steady rate about that origin, by the turn from
    /// each pose to the next taken the short way (less than half a turn; `move_by` in between
    /// moves it without turning). Its pairs at the next update are then tested with
    /// [`cast_shapes_rotating`], and their [`Pair::toi`](super::Pair::toi) is the time along
    /// that motion. Its first pose (after it is inserted or given a shape by `set_shape`)
    /// places it without a sweep, a teleport; to teleport it later, give it its local shape
    /// again with `set_shape`, then pose it.
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
    /// (a non-finite pose, or one placing it past `±f32::MAX`);
    /// [`WorldError::NonFiniteMotion`] when a fast object's motion would not be finite. The
    /// object is unchanged on error.
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
        let fast = self.fast[i] != super::NOT_FAST;
        let since = match (fast, self.shapes.last_pose(i)) {
            (true, Some(last)) => self.pose_motion(i, last, &pose)?,
            (true, None) => {
                // Its first pose places it: a teleport.
                self.sweeps[i] = super::FastMotion::NONE;
                self.fast_posed = true;
                Vec2::ZERO
            }
            (false, _) => Vec2::ZERO,
        };
        self.shapes
            .place(i, &pose, since)
            .ok_or(WorldError::StaleHandle { handle })?;
        let placed = self
            .shapes
            .get(i)
            .ok_or(WorldError::StaleHandle { handle })?;
        self.aabbs[i] = Self::checked_aabb(&placed)?;
        if fast {
            // Placed as another kind, maybe (a box turned, a turned box upright again).
            self.fast[i] = super::fast_state(&self.sweeps[i], &self.shapes.record(i));
        }
        self.mark(handle.index);
        Ok(())
    }

    /// Adds to the motion of fast object `i`, last placed by the pose `last` when its motion
    /// was `since`, the move and turn from where it is now to `pose`, and returns its motion
    /// then (the `since` its local shape keeps). Changes nothing on error.
    fn pose_motion(
        &mut self,
        i: usize,
        (last, since): (Pose, Vec2),
        pose: &Pose,
    ) -> Result<Vec2, WorldError> {
        let sweep = &self.sweeps[i];
        let (motion, angle) = if sweep.is_moving() {
            (sweep.motion, sweep.angle)
        } else {
            (Vec2::ZERO, 0.0)
        };
        // Its local origin now: where the last pose put it, moved since.
        let origin = last.position + (motion - since);
        let delta = pose.position - origin;
        let (r, q) = (last.rotation, pose.rotation);
        let turn = angle_of(Vec2::new(r.dot(q), r.perp_dot(q)));
        let angle = angle + turn;
        if !(delta.is_finite() && (motion + delta).is_finite() && angle.is_finite()) {
            return Err(WorldError::NonFiniteMotion);
        }
        // Where it starts, at its first motion since the previous update: here, now.
        let start = (!sweep.is_moving()).then(|| {
            let record = self.shapes.record(i);
            if record.is_circle_or_box() {
                (record, None)
            } else {
                (Quick::OTHER, self.shapes.get(i).map(|s| Shape::clone(&s)))
            }
        });
        self.add_motion(i, delta, || start.unwrap_or((Quick::OTHER, None)))?;
        let sweep = &mut self.sweeps[i];
        sweep.angle = angle;
        Ok(sweep.motion)
    }
}
