//! [`Shapes`]: the world's shapes by slot. A circle or a box is kept only as its 16-byte
//! [`Quick`] record, so moving one (what most objects do every frame) reads and writes 16 bytes
//! rather than a 72-byte [`Shape`]: at 100,000 objects a frame's moves are bound by memory
//! traffic. Other shapes are kept whole.

use super::quick::Quick;
use crate::math::{Pose, Vec2};
use crate::shape::{Aabb, Shape};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::vec::Vec;

#[derive(Debug, Default)]
pub(super) struct Shapes {
    /// By slot: a circle's or a box's record, [`Quick::OTHER`] for another shape or none.
    records: Vec<Quick>,
    /// By slot: the shapes that are not circles or boxes (`None` for those, and for none).
    others: Vec<Option<Shape>>,
    /// By slot: the local shape of an object placed by a pose (`place`), boxed so objects
    /// without one cost a pointer.
    locals: Vec<Option<Box<Local>>>,
}

/// An object's local shape, the pose it was last placed by and the fast motion it had then.
#[derive(Debug)]
struct Local {
    shape: Shape,
    pose: Pose,
    /// The object's fast motion since the previous update when `pose` placed it, less the
    /// motions of the updates since: its local origin is now at `pose.position` moved by its
    /// fast motion now less `since`, and was at `pose.position − since` at the previous update.
    since: Vec2,
}

impl Shapes {
    /// Adds a slot holding `shape`.
    pub(super) fn push(&mut self, shape: Shape) {
        self.records.push(Quick::OTHER);
        self.others.push(None);
        self.locals.push(None);
        self.set(self.records.len() - 1, shape);
    }

    /// Puts `shape` in `slot` in place of what it held.
    pub(super) fn set(&mut self, slot: usize, shape: Shape) {
        let record = Quick::of(&shape);
        if !record.is_circle_or_box() {
            self.others[slot] = Some(shape);
        } else if !self.records[slot].is_circle_or_box() {
            // The slot may hold another shape (to drop); a circle's or box's slot holds `None`,
            // left unread.
            self.others[slot] = None;
        }
        self.records[slot] = record;
    }

    /// Empties `slot`.
    pub(super) fn clear(&mut self, slot: usize) {
        self.records[slot] = Quick::OTHER;
        self.others[slot] = None;
        self.locals[slot] = None;
    }

    /// Drops the local shape of `slot`, if any (its shape was set in world space).
    pub(super) fn forget_local(&mut self, slot: usize) {
        self.locals[slot] = None;
    }

    /// The local shape of `slot`: the one kept by `place`, else its shape now.
    pub(super) fn local(&self, slot: usize) -> Option<Cow<'_, Shape>> {
        match &self.locals[slot] {
            Some(local) => Some(Cow::Borrowed(&local.shape)),
            None => self.get(slot),
        }
    }

    /// The pose `slot` was last placed by and its fast motion then ([`Local::since`]); `None`
    /// before its first `place` (its local shape is then its shape now, at the identity).
    pub(super) fn last_pose(&self, slot: usize) -> Option<(Pose, Vec2)> {
        self.locals[slot].as_ref().map(|l| (l.pose, l.since))
    }

    /// Where the local origin of `slot` was at the previous update, when it has a local shape.
    pub(super) fn start_origin(&self, slot: usize) -> Option<Vec2> {
        self.locals[slot]
            .as_ref()
            .map(|l| l.pose.position - l.since)
    }

    /// At an update, for a slot whose fast motion `motion` is used up: keeps
    /// [`Local::since`] relative to the motion that starts now.
    pub(super) fn use_up_motion(&mut self, slot: usize, motion: Vec2) {
        if let Some(local) = &mut self.locals[slot] {
            local.since -= motion;
        }
    }

    /// Puts in `slot` its local shape placed by `pose` (the same numbers as `transformed`),
    /// keeping its shape now as the local one on the first call, and `since` as its
    /// [`Local::since`]. Writes in place: after the first call, a polygon or compound placed
    /// again allocates nothing. `None` for an empty slot.
    pub(super) fn place(&mut self, slot: usize, pose: &Pose, since: Vec2) -> Option<()> {
        if self.locals[slot].is_none() {
            let shape = self.get(slot)?.into_owned();
            let local = Local {
                shape,
                pose: Pose::IDENTITY,
                since,
            };
            self.locals[slot] = Some(Box::new(local));
        }
        let Shapes {
            records,
            others,
            locals,
        } = self;
        let local = locals[slot].as_deref_mut()?;
        (local.pose, local.since) = (*pose, since);
        let local = &local.shape;
        match &mut others[slot] {
            Some(shape) => shape.set_transformed(local, pose),
            None => {
                let placed = local.transformed(pose);
                self.set(slot, placed);
                return Some(());
            }
        }
        // A rotated box placed without rotation is a box again: back to its record.
        if Quick::of(others[slot].as_ref()?).is_circle_or_box() {
            let shape = others[slot].take()?;
            records[slot] = Quick::OTHER;
            self.set(slot, shape);
        }
        Some(())
    }

    /// The shape in `slot`, `None` for an empty slot: a circle or box is built from its record.
    #[inline]
    pub(super) fn get(&self, slot: usize) -> Option<Cow<'_, Shape>> {
        match self.records[slot].shape() {
            Some(shape) => Some(Cow::Owned(shape)),
            None => self.others[slot].as_ref().map(Cow::Borrowed),
        }
    }

    /// The records by slot.
    #[inline]
    pub(super) fn records(&self) -> &[Quick] {
        &self.records
    }

    /// The record of `slot` (a circle's or box's, else [`Quick::OTHER`]).
    #[inline]
    pub(super) fn record(&self, slot: usize) -> Quick {
        self.records[slot]
    }

    /// Puts the record of a circle or box in `slot`, which holds one.
    #[inline]
    pub(super) fn set_record(&mut self, slot: usize, record: Quick) {
        debug_assert!(record.is_circle_or_box() && self.records[slot].is_circle_or_box());
        self.records[slot] = record;
    }

    /// Moves the circle or box in `slot` by `delta` and returns its new bounding box; `Ok(None)`
    /// (unchanged) for another shape or none. `Err(())` (unchanged) when a moved coordinate is
    /// not finite.
    #[inline]
    pub(super) fn translate(&mut self, slot: usize, delta: Vec2) -> Result<Option<Aabb>, ()> {
        let record = &mut self.records[slot];
        if !record.is_circle_or_box() {
            return Ok(None);
        }
        let (moved, aabb) = record.translated(delta).ok_or(())?;
        *record = moved;
        Ok(Some(aabb))
    }

    /// [`translate`](Self::translate) of a slot known to hold a circle (`circle`) or a box,
    /// the moved shape's bounding box written to `aabb`: `None` (nothing written) when a moved
    /// coordinate is not finite. Each kind writes on its own path, in vectors.
    #[inline(always)]
    pub(super) fn translate_as(
        &mut self,
        slot: usize,
        delta: Vec2,
        circle: bool,
        aabb: &mut Aabb,
    ) -> Option<()> {
        let record = &mut self.records[slot];
        if circle {
            (*record, *aabb) = record.translated_as(delta, true)?;
        } else {
            (*record, *aabb) = record.translated_as(delta, false)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle};

    #[test]
    fn every_kind_reads_back_as_set_and_moves_as_transformed() {
        let circle: Shape = Circle::new(Vec2::new(1.0, -2.0), 0.5).unwrap().into();
        let aabb: Shape = Aabb::new(Vec2::new(-1.0, 0.0), Vec2::new(3.0, 0.25))
            .unwrap()
            .into();
        let capsule: Shape = Capsule::new(Vec2::ZERO, Vec2::new(2.0, 1.0), 1.0)
            .unwrap()
            .into();
        let mut shapes = Shapes::default();
        shapes.push(capsule.clone());
        shapes.push(circle.clone());
        // Each kind replaced by each other, in place.
        for (x, y) in [(&capsule, &circle), (&circle, &aabb), (&aabb, &capsule)] {
            shapes.set(0, x.clone());
            assert_eq!(*shapes.get(0).unwrap(), *x);
            shapes.set(0, y.clone());
            assert_eq!(*shapes.get(0).unwrap(), *y);
            assert_eq!(*shapes.get(1).unwrap(), circle);
        }
        // Moves: the numbers of `transformed` and of the moved shape's box; a capsule is not
        // moved here; a move past `f32::MAX` (or by NaN) is refused and changes nothing.
        let delta = Vec2::new(0.1, -0.3);
        for shape in [&circle, &aabb] {
            shapes.set(0, shape.clone());
            let moved = shape.transformed(&crate::math::Pose::from_translation(delta));
            assert_eq!(shapes.translate(0, delta), Ok(Some(moved.aabb())));
            assert_eq!(*shapes.get(0).unwrap(), moved);
            let far = Vec2::new(f32::MAX, 0.0);
            let there = moved.transformed(&crate::math::Pose::from_translation(far));
            assert_eq!(shapes.translate(0, far), Ok(Some(there.aabb())));
            assert_eq!(shapes.translate(0, far), Err(()));
            assert_eq!(shapes.translate(0, Vec2::new(f32::NAN, 0.0)), Err(()));
            assert_eq!(*shapes.get(0).unwrap(), there);
        }
        shapes.set(0, capsule.clone());
        assert_eq!(shapes.translate(0, delta), Ok(None));
        shapes.clear(0);
        assert!(shapes.get(0).is_none());
    }
}
