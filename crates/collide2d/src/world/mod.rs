//! [`CollisionWorld`]: many objects, their colliding pairs each update, begin and end events,
//! and queries (point, shape, ray, shape cast), with Box2D-style layers and masks.
//!
//! Each object has a world-space [`Shape`], a [`Filter`] (a layer and a mask), an
//! [`ObjectKind`] and user data, and is named by a generational [`Handle`]: once an object is
//! removed, its handle is an error everywhere ([`WorldError::StaleHandle`]), even after the
//! slot is reused. Moving an object is [`CollisionWorld::set_shape`] with the shape at its new
//! place, [`CollisionWorld::move_by`] with a translation ([`CollisionWorld::move_many`] for
//! many objects in one call), or [`CollisionWorld::set_pose`], which places the object's local
//! shape by a rotation and a translation, in place.
//!
//! Queries see the objects as they are now: the first query after a change brings the broad
//! phase up to date (once, and kept; `update` would have done the same), so they cost the same
//! whether or not [`CollisionWorld::update`] ran, but for that first query, which also pays for
//! taking in the objects inserted, moved or removed since the broad phase was last brought up
//! to date (what the next `update` would otherwise pay): a level of tiles inserted once is
//! taken in once, whether by `update` or by the first query. A query takes in only the objects
//! it can meet: [`move_shape`](CollisionWorld::move_shape), which meets only static objects,
//! takes in the static objects changed since, not the enemies moved each frame before it
//! (those wait for the next query that can meet them, or the next `update`).
//!
//! A [`ObjectKind::Fast`] object (a bullet) is swept: its motion since the previous update (the
//! sum of its `move_by` translations) is a straight line from where it was to where it is; the
//! update sweeps its broad-phase box over that whole path, and its pairs are tested with [`cast_shapes`], so
//! nothing is skipped between frames; each such [`Pair`] reports its time of impact. A fast
//! object placed by [`CollisionWorld::set_pose`] also turns on the way, about its local origin:
//! its pairs are tested with [`cast_shapes_rotating`], so a spinning blade does not pass
//! through a thin wall between updates.
//!
//! [`CollisionWorld::update`] runs the broad phase (filtering by group before any pair is made,
//! see [`BroadPhase`]) and the exact narrow phase ([`intersects`], or
//! [`contact`] when contacts are on), then compares with the previous update's
//! pairs. Every result is sorted by handle and is the same bit for bit with or without the
//! `rayon` feature, at any thread count.

use alloc::vec::Vec;
mod events;
mod fast;
mod lazy;
mod moves;
mod pair_sort;
mod queries;
mod quick;
mod shapes;
mod update;

use crate::broad::{BroadPhase, Groups};
use crate::limits::MAX_UPDATE_PAIRS;
use crate::math::{Pose, Vec2};
use crate::query::Contact;
#[cfg(doc)]
use crate::query::{cast_shapes, cast_shapes_rotating, contact, intersects, CastHit};
use crate::shape::{Aabb, Shape};
use alloc::borrow::Cow;
use fast::{fast_byte, FastMotion, FAST, NOT_FAST};
use lazy::LazyBroad;
use pair_sort::PairSort;
use quick::Quick;
use shapes::Shapes;
use thiserror::Error;

pub use events::Side;

/// Names one object of a [`CollisionWorld`]: a slot index and that slot's generation, so a
/// handle kept after its object was removed never names another object.
///
/// Handles order by index, then generation; that is the order of every list the world returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Handle {
    index: u32,
    generation: u32,
}

impl Handle {
    /// The slot index: objects inserted into a new world, with no removal, get 0, 1, 2, ...
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many objects held this slot before this one.
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }
}

impl core::fmt::Display for Handle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

/// Collision filter: an object's `layer` bits (usually one bit) and the `mask` of layers it
/// collides with. Two objects are tested only when each one's layer is in the other's mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The layers this object belongs to (category bits).
    pub layer: u64,
    /// The layers this object collides with.
    pub mask: u64,
}

impl Filter {
    /// Layer 1 (bit 0), colliding with every layer: the default.
    pub const DEFAULT: Filter = Filter {
        layer: 1,
        mask: u64::MAX,
    };

    /// A filter from a layer and a mask.
    #[must_use]
    pub const fn new(layer: u64, mask: u64) -> Filter {
        Filter { layer, mask }
    }

    /// True when objects with these filters are tested: each layer is in the other's mask.
    #[must_use]
    #[inline]
    pub fn collides_with(self, other: Filter) -> bool {
        self.layer & other.mask != 0 && other.layer & self.mask != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::DEFAULT
    }
}

/// Whether and how an object moves. Two static objects are never tested against each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// Moves (or may): tested against every object its filter accepts, where it is at each
    /// update.
    #[default]
    Dynamic,
    /// Level geometry: tested only against dynamic and fast objects.
    Static,
    /// A dynamic object that moves far in one step (a bullet): tested over its whole motion
    /// since the previous update, as given by [`CollisionWorld::move_by`], so it cannot pass
    /// through anything between two updates. Its pairs report a time of impact
    /// ([`Pair::toi`]).
    Fast,
}

/// Why a world operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum WorldError {
    /// The handle's object was removed (or the handle is from another world).
    #[error("handle {handle} does not name a live object")]
    StaleHandle {
        /// The handle given.
        handle: Handle,
    },
    /// A grid cell size that is not finite and positive.
    #[error("cell_size must be finite and > 0, got {got}")]
    BadCellSize {
        /// The value given.
        got: f32,
    },
    /// A shape with a coordinate that is not finite (a shape moved by a non-finite pose, or
    /// past `±f32::MAX`: see [`Shape::is_finite`]).
    #[error("shape must have finite coordinates")]
    NonFiniteShape,
    /// A motion given to [`CollisionWorld::move_by`] that is not finite, or whose sum since the
    /// previous update is not.
    #[error("motion must be finite")]
    NonFiniteMotion,
}

/// Two colliding objects, `a` before `b` in handle order. Its contact, when the world computes
/// contacts, is in [`CollisionWorld::contacts`] at the same place as the pair in
/// [`CollisionWorld::pairs`] (kept apart: a frame that wants no contacts then writes and reads
/// 24 bytes a pair, not 56).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// The first object.
    pub a: Handle,
    /// The second object.
    pub b: Handle,
    /// The time of impact in `[0, 1]` when `a` or `b` is [`ObjectKind::Fast`]: the pair first
    /// touched after each fast object had gone `toi` times its motion since the previous update
    /// (as [`cast_shapes`]); the other object, unless fast too, is taken where it is now.
    /// `None` for other pairs, tested where both are now.
    pub toi: Option<f32>,
}

/// What one [`CollisionWorld::update`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UpdateStats {
    /// Live objects.
    pub objects: usize,
    /// Pairs whose filters accept each other and whose boxes overlap (narrow-phase tests run).
    pub candidates: usize,
    /// Colliding pairs.
    pub pairs: usize,
    /// Pairs that started colliding since the previous update.
    pub began: usize,
    /// Pairs that stopped colliding (or lost an object) since the previous update.
    pub ended: usize,
    /// True when the broad phase found [`CollisionWorld::set_max_pairs`]'s number of candidate
    /// pairs and stopped there: colliding pairs may be missing from this update.
    pub truncated: bool,
}

#[derive(Clone, Debug)]
struct Object<T> {
    filter: Filter,
    kind: ObjectKind,
    data: T,
}

/// A set of objects whose colliding pairs are found each [`update`](CollisionWorld::update).
///
/// ```
/// use collide2d::{math::Vec2, world::{CollisionWorld, Filter, ObjectKind}, BroadPhase, Circle};
/// let mut world = CollisionWorld::new(BroadPhase::default());
/// let player = world.insert(Circle::new(Vec2::ZERO, 1.0)?.into(), Filter::DEFAULT, ObjectKind::Dynamic, "player")?;
/// let coin = world.insert(Circle::new(Vec2::new(3.0, 0.0), 1.0)?.into(), Filter::DEFAULT, ObjectKind::Static, "coin")?;
/// assert_eq!(world.update().pairs, 0);
/// world.set_shape(player, Circle::new(Vec2::new(1.0, 0.0), 1.0)?.into())?; // touching counts
/// world.update();
/// assert_eq!((world.pairs()[0].a, world.pairs()[0].b), (player, coin));
/// assert_eq!(world.began(), &[(player, coin)]);
/// assert_eq!(world.remove(coin)?, "coin");
/// assert!(world.data(coin).is_err()); // stale handle
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CollisionWorld<T = ()> {
    /// `(generation, object)` by slot.
    slots: Vec<(u32, Option<Object<T>>)>,
    /// The generations alone, for the per-pair handle lookups of `update`.
    generations: Vec<u32>,
    /// Shapes by slot, apart from the user data so the parallel narrow phase needs no `T: Sync`.
    shapes: Shapes,
    /// Broad-phase boxes by slot (stale for empty slots): tight, but for a fast object moved
    /// before the last update, whose box the update swept over its motion (kept until the
    /// update after, or its next move).
    aabbs: Vec<Aabb>,
    /// By slot: [`NOT_FAST`], or how the next move of a fast object goes ([`FAST`],
    /// [`fast::FAST_CIRCLE`], [`fast::FAST_BOX`]). A move reads it anyway, so a fast move's state costs
    /// no other read.
    fast: Vec<u8>,
    /// How many live objects are fast: with none, the narrow phase reads no `fast` flag.
    fast_count: usize,
    /// True once a fast object was placed by a pose: the update then keeps the local poses of
    /// the fast objects it moved in step with their motions (`Shapes::use_up_motion`).
    fast_posed: bool,
    /// Where each fast object moved since the previous update started (or its armed start).
    sweeps: Vec<FastMotion>,
    /// By slot, the motion of a fast object since the previous update ([`fast::UNMOVED`] when
    /// armed and not moved since; unused when its sweep is [`FastMotion::NONE`]): apart from
    /// `sweeps`, so a move writes 8 bytes of its own.
    motions: Vec<Vec2>,
    /// The start shapes of the fast objects moved since the previous update that are not
    /// circles or boxes ([`Start::Shape`]); emptied, keeping its memory, at each update.
    start_shapes: Vec<Shape>,
    /// Slots given a sweep since the previous update (may repeat).
    moving: Vec<u32>,
    /// Slots whose box was swept at the previous update.
    swept: Vec<u32>,
    /// Group by slot, `u32::MAX` for an empty slot.
    groups: Vec<u32>,
    free: Vec<u32>,
    len: usize,
    table: Groups,
    /// The broad phase and the slots changed since it last took changes in.
    broad: LazyBroad,
    contacts: bool,
    /// The most candidate pairs an update tests.
    max_pairs: usize,
    /// The contact of each pair in `pairs` when `contacts` is on, else empty.
    pair_contacts: Vec<Contact>,
    candidates: Vec<(u32, u32)>,
    /// Scratch for sorting the candidates.
    pair_sort: PairSort,
    /// The narrow phase's results by candidate, for the parallel path.
    #[cfg(feature = "rayon")]
    hits: Vec<Option<(Option<Contact>, Option<f32>)>>,
    pairs: Vec<Pair>,
    /// The pairs of the update before the last (compared with `pairs` for the events).
    previous: Vec<Pair>,
    began: Vec<(Handle, Handle)>,
    ended: Vec<(Handle, Handle)>,
    /// The objects removed since the last update, with their layers (for the events of the
    /// next update: `ended_between`).
    removed: Vec<(Handle, u64)>,
    /// `removed` as it was at the last update, sorted: the objects whose pairs ended with it.
    gone: Vec<(Handle, u64)>,
}

impl<T> CollisionWorld<T> {
    /// An empty world using the given broad phase; contacts off.
    #[must_use]
    pub fn new(broad_phase: BroadPhase) -> CollisionWorld<T> {
        CollisionWorld {
            slots: Vec::new(),
            generations: Vec::new(),
            shapes: Shapes::default(),
            aabbs: Vec::new(),
            fast: Vec::new(),
            fast_count: 0,
            fast_posed: false,
            sweeps: Vec::new(),
            motions: Vec::new(),
            start_shapes: Vec::new(),
            moving: Vec::new(),
            swept: Vec::new(),
            groups: Vec::new(),
            free: Vec::new(),
            len: 0,
            table: Groups::default(),
            broad: LazyBroad::new(broad_phase),
            contacts: false,
            max_pairs: MAX_UPDATE_PAIRS,
            pair_contacts: Vec::new(),
            candidates: Vec::new(),
            pair_sort: PairSort::default(),
            #[cfg(feature = "rayon")]
            hits: Vec::new(),
            pairs: Vec::new(),
            previous: Vec::new(),
            began: Vec::new(),
            ended: Vec::new(),
            removed: Vec::new(),
            gone: Vec::new(),
        }
    }

    /// Whether [`update`](Self::update) computes a [`Contact`] for each pair (off by default:
    /// an exact `intersects` is cheaper).
    pub fn set_contacts(&mut self, on: bool) {
        self.contacts = on;
    }

    /// Caps the candidate pairs (pairs of objects whose filters accept each other and whose
    /// boxes overlap) one [`update`](Self::update) tests, and so the memory it takes (about 64
    /// bytes a candidate, more with contacts on): past the cap the update stops searching and sets
    /// [`UpdateStats::truncated`], rather than run out of memory on a crowd of objects piled on
    /// one point (20,000 of them make 200 million pairs). The default is
    /// [`MAX_UPDATE_PAIRS`].
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// for _ in 0..100 {
    ///     let disc = Circle::new(Vec2::ZERO, 1.0)?.into();
    ///     world.insert(disc, Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// }
    /// world.set_max_pairs(1000); // 4,950 pairs overlap
    /// let stats = world.update();
    /// assert!(stats.truncated && stats.pairs == 1000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_max_pairs(&mut self, max: usize) {
        self.max_pairs = max;
    }

    /// The number of objects.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the world holds no object.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn mark(&mut self, slot: u32) {
        self.broad.mark(slot);
    }

    fn checked_aabb(shape: &Shape) -> Result<Aabb, WorldError> {
        // The box alone is not enough: it is clamped to `±f32::MAX`, which hides a shape moved
        // past it (whose next move would make it NaN).
        if !shape.is_finite() {
            return Err(WorldError::NonFiniteShape);
        }
        finite_box(shape.aabb())
    }

    /// Adds an object; it takes part in pairs from the next [`update`](Self::update) and in
    /// queries at once.
    ///
    /// # Errors
    /// [`WorldError::NonFiniteShape`] for a shape that is not [finite](Shape::is_finite).
    pub fn insert(
        &mut self,
        shape: Shape,
        filter: Filter,
        kind: ObjectKind,
        data: T,
    ) -> Result<Handle, WorldError> {
        let aabb = Self::checked_aabb(&shape)?;
        let object = Object { filter, kind, data };
        let slot = self.free.last().copied().unwrap_or(self.slots.len() as u32);
        let group = self.table.join(slot, filter, kind == ObjectKind::Static);
        let index = if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.1 = Some(object);
            self.shapes.set(index as usize, shape);
            self.shapes.forget_local(index as usize);
            self.aabbs[index as usize] = aabb;
            self.fast[index as usize] = fast_byte(kind);
            self.sweeps[index as usize] = FastMotion::NONE;
            self.groups[index as usize] = group;
            index
        } else {
            self.slots.push((0, Some(object)));
            self.generations.push(0);
            self.shapes.push(shape);
            self.aabbs.push(aabb);
            self.fast.push(fast_byte(kind));
            self.sweeps.push(FastMotion::NONE);
            self.motions.push(Vec2::ZERO);
            self.groups.push(group);
            self.broad.push_slot();
            (self.slots.len() - 1) as u32
        };
        self.len += 1;
        self.fast_count += usize::from(kind == ObjectKind::Fast);
        self.broad.set_static(index, kind == ObjectKind::Static);
        self.broad.filled_or_emptied();
        self.mark(index);
        Ok(Handle {
            index,
            generation: self.slots[index as usize].0,
        })
    }

    fn object(&self, handle: Handle) -> Result<&Object<T>, WorldError> {
        match self.slots.get(handle.index as usize) {
            Some((generation, Some(object))) if *generation == handle.generation => Ok(object),
            _ => Err(WorldError::StaleHandle { handle }),
        }
    }

    /// The slot of a live object, as [`object`](Self::object) checks it, from the small
    /// per-slot arrays (an empty slot's group is `u32::MAX`).
    #[inline]
    fn live_index(&self, handle: Handle) -> Result<usize, WorldError> {
        let i = handle.index as usize;
        match (self.generations.get(i), self.groups.get(i)) {
            (Some(&generation), Some(&group))
                if generation == handle.generation && group != u32::MAX =>
            {
                Ok(i)
            }
            _ => Err(WorldError::StaleHandle { handle }),
        }
    }

    fn object_mut(&mut self, handle: Handle) -> Result<&mut Object<T>, WorldError> {
        match self.slots.get_mut(handle.index as usize) {
            Some((generation, Some(object))) if *generation == handle.generation => Ok(object),
            _ => Err(WorldError::StaleHandle { handle }),
        }
    }

    /// Removes an object and returns its data. Its pairs end at the next update.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn remove(&mut self, handle: Handle) -> Result<T, WorldError> {
        self.object(handle)?;
        let i = handle.index as usize;
        let object = self.slots[i]
            .1
            .take()
            .ok_or(WorldError::StaleHandle { handle })?;
        self.removed.push((handle, object.filter.layer));
        self.slots[i].0 = self.slots[i].0.wrapping_add(1);
        self.generations[i] = self.slots[i].0;
        self.table.leave(self.groups[i]);
        self.groups[i] = u32::MAX;
        self.shapes.clear(i);
        self.fast_count -= usize::from(self.fast[i] != NOT_FAST);
        self.fast[i] = NOT_FAST;
        self.sweeps[i] = FastMotion::NONE;
        self.len -= 1;
        // A slot whose generation wrapped around is retired, so no old handle can come back.
        if self.slots[i].0 != 0 {
            self.free.push(handle.index);
        }
        self.broad.filled_or_emptied();
        self.mark(handle.index);
        Ok(object.data)
    }

    /// True when `handle` names a live object.
    #[must_use]
    pub fn contains(&self, handle: Handle) -> bool {
        self.object(handle).is_ok()
    }

    /// The object's world-space shape. A circle or a box is built from the world's compact
    /// copy of its coordinates (moving it then writes 16 bytes), so it comes owned; other
    /// shapes are borrowed.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind, Shape};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// let ball = world.insert(Circle::new(Vec2::ZERO, 1.0)?.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// world.move_by(ball, Vec2::new(2.0, 0.0))?;
    /// let Shape::Circle(c) = &*world.shape(ball)? else { unreachable!() };
    /// assert_eq!(c.center(), Vec2::new(2.0, 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn shape(&self, handle: Handle) -> Result<Cow<'_, Shape>, WorldError> {
        self.object(handle)?;
        self.shapes
            .get(handle.index as usize)
            .ok_or(WorldError::StaleHandle { handle })
    }

    /// The object's filter.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn filter(&self, handle: Handle) -> Result<Filter, WorldError> {
        Ok(self.object(handle)?.filter)
    }

    /// Whether the object is static.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn kind(&self, handle: Handle) -> Result<ObjectKind, WorldError> {
        Ok(self.object(handle)?.kind)
    }

    /// The object's user data.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn data(&self, handle: Handle) -> Result<&T, WorldError> {
        Ok(&self.object(handle)?.data)
    }

    /// The object's user data, mutable.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn data_mut(&mut self, handle: Handle) -> Result<&mut T, WorldError> {
        Ok(&mut self.object_mut(handle)?.data)
    }

    /// Moves or reshapes an object: `shape` is its new world-space shape (for a shape kept in
    /// its own frame, pass `local.transformed(&pose)`).
    ///
    /// This is a teleport: a fast object is placed at `shape` with no motion, its earlier
    /// [`move_by`](Self::move_by) calls since the previous update forgotten, and is not swept
    /// from where it was. A local shape kept by [`set_pose`](Self::set_pose) is dropped: the
    /// next pose places `shape`.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object;
    /// [`WorldError::NonFiniteShape`] for a shape that is not [finite](Shape::is_finite).
    pub fn set_shape(&mut self, handle: Handle, shape: Shape) -> Result<(), WorldError> {
        let aabb = Self::checked_aabb(&shape)?;
        let i = self.live_index(handle)?;
        self.shapes.set(i, shape);
        self.shapes.forget_local(i);
        self.aabbs[i] = aabb;
        // Only fast objects have sweeps: no need to read the (large) sweep of the others.
        if self.fast[i] != NOT_FAST {
            (self.sweeps[i], self.fast[i]) = (FastMotion::NONE, FAST);
        }
        self.mark(handle.index);
        Ok(())
    }

    /// Translates an object by `delta`. A [`ObjectKind::Fast`] object is swept along its
    /// motion since the previous update (the sum of its `move_by` deltas, as one straight
    /// line from where it was then): the next [`update`](Self::update) finds everything it
    /// touched on the way, with the time of impact. Other objects just move: the same, bit for
    /// bit, as [`set_shape`](Self::set_shape) with `shape.transformed(&Pose::from_translation(delta))`,
    /// but cheaper (a circle or box moves in place), so it is the call for stepping objects by
    /// their velocities each frame.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(collide2d::BroadPhase::default());
    /// let wall = Aabb::new(Vec2::new(10.0, -5.0), Vec2::new(12.0, 5.0))?.into();
    /// let wall = world.insert(wall, Filter::DEFAULT, ObjectKind::Static, ())?;
    /// let bullet = Circle::new(Vec2::ZERO, 1.0)?.into();
    /// let bullet = world.insert(bullet, Filter::DEFAULT, ObjectKind::Fast, ())?;
    /// world.update();
    /// world.move_by(bullet, Vec2::new(50.0, 0.0))?; // ends far past the wall
    /// world.update();
    /// let pair = world.pairs()[0];
    /// assert_eq!((pair.a, pair.b), (wall, bullet));
    /// assert!((pair.toi.unwrap() - 0.18).abs() < 1e-6); // touched at x = 9
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object;
    /// [`WorldError::NonFiniteMotion`] for a non-finite `delta` (or sum of deltas);
    /// [`WorldError::NonFiniteShape`] when the moved shape is not [finite](Shape::is_finite).
    /// The object is unchanged on error.
    #[inline]
    pub fn move_by(&mut self, handle: Handle, delta: Vec2) -> Result<(), WorldError> {
        let i = self.live_index(handle)?;
        let fast = self.fast[i];
        if fast != NOT_FAST {
            return self.move_fast(i, handle, delta, fast);
        }
        // The usual case, a circle or box that just moves: its record translated in place, the
        // same numbers as `transformed`.
        if let Some(aabb) = self
            .shapes
            .translate(i, delta)
            .map_err(|()| non_finite_move(delta))?
        {
            self.aabbs[i] = aabb;
            self.mark(handle.index);
            return Ok(());
        }
        if !delta.is_finite() {
            return Err(WorldError::NonFiniteMotion);
        }
        self.move_by_other(i, handle, delta)
    }

    /// [`move_by`](Self::move_by) of a fast object or of a shape not moved in place, `delta`
    /// finite. Out of line, so the usual case inlines small.
    #[inline(never)]
    fn move_by_other(&mut self, i: usize, handle: Handle, delta: Vec2) -> Result<(), WorldError> {
        let shape = self
            .shapes
            .get(i)
            .ok_or(WorldError::StaleHandle { handle })?;
        let moved = shape.transformed(&Pose::from_translation(delta));
        let end = Self::checked_aabb(&moved)?;
        if self.fast[i] != NOT_FAST {
            // Cloned at the first move since the previous update only.
            let start = self.moved(i).is_none().then(|| shape.into_owned());
            self.add_motion(i, delta, || (Quick::OTHER, start))?;
        }
        self.aabbs[i] = end;
        self.shapes.set(i, moved);
        self.mark(handle.index);
        Ok(())
    }

    /// Changes an object's layer and mask.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn set_filter(&mut self, handle: Handle, filter: Filter) -> Result<(), WorldError> {
        let object = self.object_mut(handle)?;
        object.filter = filter;
        let is_static = object.kind == ObjectKind::Static;
        let i = handle.index as usize;
        self.table.leave(self.groups[i]);
        self.groups[i] = self.table.join(handle.index, filter, is_static);
        self.mark(handle.index);
        Ok(())
    }

    /// Every object as `(handle, shape, data)`, in handle order (shapes as
    /// [`shape`](Self::shape) gives them).
    pub fn iter(&self) -> impl Iterator<Item = (Handle, Cow<'_, Shape>, &T)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(index, (generation, object))| {
                let handle = Handle {
                    index: index as u32,
                    generation: *generation,
                };
                Some((handle, self.shapes.get(index)?, &object.as_ref()?.data))
            })
    }

    fn handle(&self, slot: u32) -> Handle {
        handle_of(&self.generations, slot)
    }
}

impl Handle {
    /// The handle's place in handle order (index, then generation) as one integer.
    #[inline]
    fn order(self) -> u64 {
        (u64::from(self.index) << 32) | u64::from(self.generation)
    }

    /// The handle as one integer, for equality (not in handle order: see [`order`](Self::order)).
    #[inline]
    fn bits(self) -> u64 {
        u64::from(self.index) | (u64::from(self.generation) << 32)
    }
}

/// The handle of the object in `slot`, given every slot's generation (for loops that hold
/// other parts of the world mutably).
#[inline]
fn handle_of(generations: &[u32], slot: u32) -> Handle {
    Handle {
        index: slot,
        generation: generations[slot as usize],
    }
}

/// The error of a move whose result is not finite: the motion's when it is not finite itself.
#[cold]
fn non_finite_move(delta: Vec2) -> WorldError {
    if delta.is_finite() {
        WorldError::NonFiniteShape
    } else {
        WorldError::NonFiniteMotion
    }
}

/// `b` when it is finite, else [`WorldError::NonFiniteShape`].
#[inline]
fn finite_box(b: Aabb) -> Result<Aabb, WorldError> {
    if b.min().is_finite() && b.max().is_finite() {
        Ok(b)
    } else {
        Err(WorldError::NonFiniteShape)
    }
}

#[cfg(test)]
mod lazy_tests;
#[cfg(test)]
mod tests;
