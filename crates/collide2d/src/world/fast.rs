//! The moves of [`ObjectKind::Fast`] objects: where each one started at the previous update
//! ([`FastMotion`]), its motion since (the `motions` column), and the per-slot `fast` byte that
//! tells a move which path to take.
//!
//! A fast circle or box moved at the previous update keeps where it was then (its record,
//! "armed" by the update, its motion set to `-0`), so each of its moves is a dynamic object's
//! move plus one 8-byte read and write: `motion + delta` into the `motions` column. The update
//! tells an armed object that moved from one that did not by that motion: any move changes
//! `-0`, but one by `(-0, -0)`, which changes nothing, so such an object is taken as not moved.

use super::quick::Quick;
#[cfg(doc)]
use super::ObjectKind;
use super::{non_finite_move, CollisionWorld, Handle, WorldError};
use crate::math::Vec2;
use crate::shape::{Aabb, Shape};
use alloc::borrow::Cow;

/// Where a fast object was at the previous update and how far it turned since, in 24 bytes (the
/// start kept as a circle's or box's 16-byte record where it can be; the pivot of a turn, the
/// object's local origin then, is kept with its local shape: see `Shapes::start_origin`). Its
/// motion is in the world's `motions` column, the one part a move writes. The box swept over
/// the motion is made once per update, for the pairs (queries test where objects are now, so
/// they need no swept box).
#[derive(Clone, Copy, Debug)]
pub(super) struct FastMotion {
    /// The start's record when it is a circle or a box.
    pub(super) start: Quick,
    /// How far it turned since the previous update, in radians (poses only turn it).
    pub(super) angle: f32,
    /// [`FastMotion::RECORD`] when the start is `start`, else its index in the world's
    /// `start_shapes`; [`FastMotion::NONE`] when the object has not moved since the previous
    /// update (the other fields then unused), or [`FastMotion::ARMED`].
    pub(super) shape: u32,
}

/// The motion of an armed object not moved since the update that armed it: `-0 + delta` is
/// `delta`, bit for bit, so its first move adds as any other.
pub(super) const UNMOVED: Vec2 = Vec2::splat(-0.0);

impl FastMotion {
    pub(super) const NONE: FastMotion = FastMotion {
        start: Quick::OTHER,
        angle: 0.0,
        shape: u32::MAX,
    };
    /// `shape` of a circle or box whose start is `start` (where it was at the previous update,
    /// which armed it: see [`FastMotion::armed`]), moved since when its motion is not
    /// [`UNMOVED`]. Its moves write only their motion.
    pub(super) const ARMED: u32 = u32::MAX - 1;
    pub(super) const RECORD: u32 = u32::MAX - 2;

    /// The sweep, not moving, of a circle or box whose record is `start`, kept ready for its
    /// next move (fast objects that moved are likely to move again); its motion is
    /// [`UNMOVED`].
    pub(super) fn armed(start: Quick) -> FastMotion {
        FastMotion {
            start,
            angle: 0.0,
            shape: FastMotion::ARMED,
        }
    }

    /// True once the object, whose motion is `motion`, moved since the previous update.
    #[inline]
    pub(super) fn is_moving(&self, motion: Vec2) -> bool {
        let unmoved = |v: f32| v.to_bits() == (-0.0f32).to_bits();
        self.shape < FastMotion::ARMED
            || self.shape == FastMotion::ARMED && !(unmoved(motion.x) && unmoved(motion.y))
    }

    /// The start shape, given the world's `start_shapes` (`None` when not moving).
    pub(super) fn start_shape<'a>(&self, start_shapes: &'a [Shape]) -> Option<Cow<'a, Shape>> {
        if self.shape == FastMotion::RECORD {
            self.start.shape().map(Cow::Owned)
        } else {
            start_shapes.get(self.shape as usize).map(Cow::Borrowed)
        }
    }

    /// The start shape's bounding box (`None` when not moving).
    pub(super) fn start_box(&self, start_shapes: &[Shape]) -> Option<Aabb> {
        if self.shape == FastMotion::RECORD {
            Some(self.start.aabb())
        } else {
            start_shapes.get(self.shape as usize).map(Shape::aabb)
        }
    }
}

/// The `fast` byte of a slot that holds no fast object.
pub(super) const NOT_FAST: u8 = 0;
/// The `fast` byte of a fast object whose next move is not the quick one: its start is not kept
/// (it did not move at the previous update, or was teleported since), or it is not a circle or a
/// box, or its start is kept as a whole shape.
pub(super) const FAST: u8 = 1;
/// The `fast` byte of a fast circle whose start is kept as a record ([`FastMotion::ARMED`] or
/// [`FastMotion::RECORD`]): its move adds to its motion and translates its record as a circle.
pub(super) const FAST_CIRCLE: u8 = 2;
/// [`FAST_CIRCLE`] for a box.
pub(super) const FAST_BOX: u8 = 3;

/// The `fast` byte of a new object of `kind`.
pub(super) fn fast_byte(kind: super::ObjectKind) -> u8 {
    if kind == super::ObjectKind::Fast {
        FAST
    } else {
        NOT_FAST
    }
}

/// The `fast` byte of a fast object whose sweep is `sweep` and record `record`.
#[inline]
pub(super) fn fast_state(sweep: &FastMotion, record: &Quick) -> u8 {
    let kept = sweep.shape == FastMotion::ARMED || sweep.shape == FastMotion::RECORD;
    match record.circle_or_box() {
        Some(true) if kept => FAST_CIRCLE,
        Some(false) if kept => FAST_BOX,
        _ => FAST,
    }
}

impl<T> CollisionWorld<T> {
    /// [`move_by`](Self::move_by) of a fast object, whose byte in `fast` is `fast`. The usual
    /// case, a circle or box whose start is kept (it moved since the previous update, or moved
    /// before it and was armed by it: [`FastMotion::ARMED`]), says so in that byte
    /// ([`FAST_CIRCLE`], [`FAST_BOX`]): its record translated in place as that kind (its box
    /// tight, as a dynamic one's: the update sweeps it) and `delta` added to its motion, which
    /// is all it writes beside what a dynamic move writes. Others go to
    /// [`move_fast_first`](Self::move_fast_first).
    #[inline]
    pub(super) fn move_fast(
        &mut self,
        i: usize,
        handle: Handle,
        delta: Vec2,
        fast: u8,
    ) -> Result<(), WorldError> {
        if fast == FAST {
            return self.move_fast_first(i, handle, delta);
        }
        // An armed object's motion is `-0`: the sum is `delta`, bit for bit.
        let motion = self.motions[i] + delta;
        // `v - v` is +0 (all bits clear) for a finite `v`, else NaN: one OR of the bits tests
        // both (fewer instructions than `is_finite`, or than adding the two).
        #[allow(clippy::eq_op)]
        let zero = motion - motion;
        let finite = zero.x.to_bits() | zero.y.to_bits() == 0;
        if !finite {
            return Err(self.motion_error(i, delta));
        }
        let aabb = &mut self.aabbs[i];
        self.shapes
            .translate_as(i, delta, fast == FAST_CIRCLE, aabb)
            .ok_or_else(|| non_finite_move(delta))?;
        self.motions[i] = motion;
        self.mark(handle.index);
        Ok(())
    }

    /// The error of a move of fast object `i` by `delta` whose motion would not be finite:
    /// the move's own error first, as for other objects.
    #[cold]
    fn motion_error(&self, i: usize, delta: Vec2) -> WorldError {
        let record = self.shapes.record(i);
        if record.is_circle_or_box() && record.translated(delta).is_none() {
            non_finite_move(delta)
        } else {
            WorldError::NonFiniteMotion
        }
    }

    /// [`move_fast`](Self::move_fast) of an object whose start is not kept as a record: a
    /// circle or box keeps it now (its record translated in place), another shape goes to
    /// [`move_by_other`](Self::move_by_other). Out of line: a fast circle or box that keeps
    /// moving comes here once.
    #[inline(never)]
    fn move_fast_first(&mut self, i: usize, handle: Handle, delta: Vec2) -> Result<(), WorldError> {
        let record = self.shapes.record(i);
        if !record.is_circle_or_box() {
            if !delta.is_finite() {
                return Err(WorldError::NonFiniteMotion);
            }
            return self.move_by_other(i, handle, delta);
        }
        let (moved, end) = record
            .translated(delta)
            .ok_or_else(|| non_finite_move(delta))?;
        self.add_motion(i, delta, || (record, None))?;
        self.shapes.set_record(i, moved);
        self.fast[i] = fast_state(&self.sweeps[i], &moved);
        self.aabbs[i] = end;
        self.mark(handle.index);
        Ok(())
    }

    /// Adds `delta` (finite) to the motion of fast object `i`; at its first move since the
    /// previous update, records its start from `start`: its record, or another shape.
    #[inline(always)]
    pub(super) fn add_motion(
        &mut self,
        i: usize,
        delta: Vec2,
        start: impl FnOnce() -> (Quick, Option<Shape>),
    ) -> Result<(), WorldError> {
        let sweep = &mut self.sweeps[i];
        if sweep.is_moving(self.motions[i]) {
            let motion = self.motions[i] + delta;
            if !motion.is_finite() {
                return Err(WorldError::NonFiniteMotion);
            }
            self.motions[i] = motion;
            return Ok(());
        }
        let (record, other) = start();
        *sweep = FastMotion {
            start: record,
            angle: 0.0,
            shape: match other {
                None => FastMotion::RECORD,
                Some(_) => self.start_shapes.len() as u32,
            },
        };
        self.motions[i] = delta;
        self.start_shapes.extend(other);
        self.moving.push(i as u32);
        Ok(())
    }

    /// The motion of fast object `i` since the previous update, `None` when it has not moved.
    #[inline]
    pub(super) fn moved(&self, i: usize) -> Option<Vec2> {
        let motion = self.motions[i];
        self.sweeps[i].is_moving(motion).then_some(motion)
    }

    /// The motion of a [`ObjectKind::Fast`] object since the previous update (the sum of its
    /// [`move_by`](Self::move_by) deltas, and of the moves of its local origin by
    /// [`set_pose`](Self::set_pose)); zero for other objects.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn motion(&self, handle: Handle) -> Result<Vec2, WorldError> {
        self.object(handle)?;
        Ok(self.moved(handle.index as usize).unwrap_or(Vec2::ZERO))
    }
}
