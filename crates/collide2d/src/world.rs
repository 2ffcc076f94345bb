//! [`CollisionWorld`]: many objects, their colliding pairs each update, begin and end events,
//! and queries (point, shape, ray), with Box2D-style layers and masks.
//!
//! Each object has a world-space [`Shape`], a [`Filter`] (a layer and a mask), an
//! [`ObjectKind`] and user data, and is named by a generational [`Handle`]: once an object is
//! removed, its handle is an error everywhere ([`WorldError::StaleHandle`]), even after the
//! slot is reused. Moving an object is [`CollisionWorld::set_shape`] with the shape at its new
//! place (`local.transformed(&pose)`).
//!
//! [`CollisionWorld::update`] runs the broad phase (filtering by group before any pair is made,
//! see [`BroadPhase`]) and the exact narrow phase ([`intersects`], or
//! [`contact`] when contacts are on), then compares with the previous update's
//! pairs. Every result is sorted by handle and is the same bit for bit with or without the
//! `rayon` feature, at any thread count.

use crate::broad::{Broad, BroadPhase, Groups, View};
use crate::math::Vec2;
use crate::query::{cast_ray, contact, contains_point, intersects, Contact, Ray, RayHit};
use crate::shape::{Aabb, Shape};
use thiserror::Error;

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

/// Whether an object moves. Two static objects are never tested against each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// Moves (or may): tested against every object its filter accepts.
    #[default]
    Dynamic,
    /// Level geometry: tested only against dynamic objects.
    Static,
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
    /// A shape whose bounding box is not finite (a shape moved by a non-finite pose).
    #[error("shape must have a finite bounding box")]
    NonFiniteShape,
}

/// Two colliding objects, `a` before `b` in handle order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    /// The first object.
    pub a: Handle,
    /// The second object.
    pub b: Handle,
    /// The contact from `a` towards `b`, when the world computes contacts
    /// ([`CollisionWorld::set_contacts`]).
    pub contact: Option<Contact>,
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
    shapes: Vec<Option<Shape>>,
    /// Tight boxes by slot (stale for empty slots).
    aabbs: Vec<Aabb>,
    /// Group by slot, `u32::MAX` for an empty slot.
    groups: Vec<u32>,
    /// True for slots changed since the last update (also listed in `changed`).
    dirty: Vec<bool>,
    changed: Vec<u32>,
    free: Vec<u32>,
    len: usize,
    table: Groups,
    broad: Broad,
    contacts: bool,
    candidates: Vec<(u32, u32)>,
    /// Scratch for sorting the candidates.
    counts: Vec<u32>,
    scratch: Vec<(u32, u32)>,
    hits: Vec<Option<Option<Contact>>>,
    pairs: Vec<Pair>,
    previous: Vec<(Handle, Handle)>,
    current: Vec<(Handle, Handle)>,
    began: Vec<(Handle, Handle)>,
    ended: Vec<(Handle, Handle)>,
}

impl<T> CollisionWorld<T> {
    /// An empty world using the given broad phase; contacts off.
    #[must_use]
    pub fn new(broad_phase: BroadPhase) -> CollisionWorld<T> {
        CollisionWorld {
            slots: Vec::new(),
            generations: Vec::new(),
            shapes: Vec::new(),
            aabbs: Vec::new(),
            groups: Vec::new(),
            dirty: Vec::new(),
            changed: Vec::new(),
            free: Vec::new(),
            len: 0,
            table: Groups::default(),
            broad: Broad::new(broad_phase),
            contacts: false,
            candidates: Vec::new(),
            counts: Vec::new(),
            scratch: Vec::new(),
            hits: Vec::new(),
            pairs: Vec::new(),
            previous: Vec::new(),
            current: Vec::new(),
            began: Vec::new(),
            ended: Vec::new(),
        }
    }

    /// Whether [`update`](Self::update) computes a [`Contact`] for each pair (off by default:
    /// an exact `intersects` is cheaper).
    pub fn set_contacts(&mut self, on: bool) {
        self.contacts = on;
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

    fn mark(&mut self, slot: u32) {
        if !self.dirty[slot as usize] {
            self.dirty[slot as usize] = true;
            self.changed.push(slot);
        }
    }

    fn checked_aabb(shape: &Shape) -> Result<Aabb, WorldError> {
        let b = shape.aabb();
        if b.min().is_finite() && b.max().is_finite() {
            Ok(b)
        } else {
            Err(WorldError::NonFiniteShape)
        }
    }

    /// Adds an object; it takes part in pairs from the next [`update`](Self::update) and in
    /// queries at once.
    ///
    /// # Errors
    /// [`WorldError::NonFiniteShape`] for a shape with a non-finite bounding box.
    pub fn insert(
        &mut self,
        shape: Shape,
        filter: Filter,
        kind: ObjectKind,
        data: T,
    ) -> Result<Handle, WorldError> {
        let aabb = Self::checked_aabb(&shape)?;
        let group = self.table.id(filter, kind == ObjectKind::Static);
        let object = Object { filter, kind, data };
        let index = if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.1 = Some(object);
            self.shapes[index as usize] = Some(shape);
            self.aabbs[index as usize] = aabb;
            self.groups[index as usize] = group;
            index
        } else {
            self.slots.push((0, Some(object)));
            self.generations.push(0);
            self.shapes.push(Some(shape));
            self.aabbs.push(aabb);
            self.groups.push(group);
            self.dirty.push(false);
            (self.slots.len() - 1) as u32
        };
        self.len += 1;
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
        self.slots[i].0 = self.slots[i].0.wrapping_add(1);
        self.generations[i] = self.slots[i].0;
        self.groups[i] = u32::MAX;
        self.shapes[i] = None;
        self.len -= 1;
        // A slot whose generation wrapped around is retired, so no old handle can come back.
        if self.slots[i].0 != 0 {
            self.free.push(handle.index);
        }
        self.mark(handle.index);
        Ok(object.data)
    }

    /// True when `handle` names a live object.
    #[must_use]
    pub fn contains(&self, handle: Handle) -> bool {
        self.object(handle).is_ok()
    }

    /// The object's world-space shape.
    ///
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object.
    pub fn shape(&self, handle: Handle) -> Result<&Shape, WorldError> {
        self.object(handle)?;
        self.shapes[handle.index as usize]
            .as_ref()
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
    /// # Errors
    /// [`WorldError::StaleHandle`] when `handle` names no live object;
    /// [`WorldError::NonFiniteShape`] for a shape with a non-finite bounding box.
    pub fn set_shape(&mut self, handle: Handle, shape: Shape) -> Result<(), WorldError> {
        let aabb = Self::checked_aabb(&shape)?;
        self.object(handle)?;
        self.shapes[handle.index as usize] = Some(shape);
        self.aabbs[handle.index as usize] = aabb;
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
        self.groups[handle.index as usize] = self.table.id(filter, is_static);
        self.mark(handle.index);
        Ok(())
    }

    /// Every object as `(handle, shape, data)`, in handle order.
    pub fn iter(&self) -> impl Iterator<Item = (Handle, &Shape, &T)> + '_ {
        self.slots.iter().zip(&self.shapes).enumerate().filter_map(
            |(index, ((generation, object), shape))| {
                let handle = Handle {
                    index: index as u32,
                    generation: *generation,
                };
                Some((handle, shape.as_ref()?, &object.as_ref()?.data))
            },
        )
    }

    fn handle(&self, slot: u32) -> Handle {
        Handle {
            index: slot,
            generation: self.generations[slot as usize],
        }
    }

    /// Finds the colliding pairs of the objects as they are now, and the pairs that began and
    /// ended since the previous update. Results: [`pairs`](Self::pairs),
    /// [`began`](Self::began), [`ended`](Self::ended).
    ///
    /// Static objects are never tested against each other, nor objects whose filters do not
    /// accept each other; neither costs a candidate pair. With the `rayon` feature the exact
    /// tests run in parallel; the results are the same.
    pub fn update(&mut self) -> UpdateStats {
        let view = View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        };
        self.broad.sync(&view, &self.changed);
        for &slot in &self.changed {
            self.dirty[slot as usize] = false;
        }
        self.changed.clear();
        self.candidates.clear();
        self.broad.pairs(&view, &mut self.candidates);
        sort_pairs(
            &mut self.candidates,
            self.slots.len(),
            &mut self.counts,
            &mut self.scratch,
        );
        self.narrow();

        self.pairs.clear();
        self.current.clear();
        for (&(a, b), hit) in self.candidates.iter().zip(&self.hits) {
            if let Some(contact) = hit {
                let (a, b) = (self.handle(a), self.handle(b));
                self.pairs.push(Pair {
                    a,
                    b,
                    contact: *contact,
                });
                self.current.push((a, b));
            }
        }
        // Both lists are sorted: one merge gives the events in order.
        self.began.clear();
        self.ended.clear();
        let (mut i, mut j) = (0, 0);
        while i < self.previous.len() || j < self.current.len() {
            match (self.previous.get(i), self.current.get(j)) {
                (Some(p), Some(c)) if p == c => {
                    i += 1;
                    j += 1;
                }
                (Some(p), Some(c)) if p < c => {
                    self.ended.push(*p);
                    i += 1;
                }
                (Some(p), None) => {
                    self.ended.push(*p);
                    i += 1;
                }
                (_, Some(c)) => {
                    self.began.push(*c);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        core::mem::swap(&mut self.previous, &mut self.current);
        UpdateStats {
            objects: self.len,
            candidates: self.candidates.len(),
            pairs: self.pairs.len(),
            began: self.began.len(),
            ended: self.ended.len(),
        }
    }

    /// The exact test of every candidate, into `hits` (same order).
    fn narrow(&mut self) {
        let shapes = &self.shapes;
        let contacts = self.contacts;
        let test = |&(a, b): &(u32, u32)| -> Option<Option<Contact>> {
            let (Some(sa), Some(sb)) = (&shapes[a as usize], &shapes[b as usize]) else {
                return None;
            };
            if contacts {
                contact(sa, sb).map(Some)
            } else {
                intersects(sa, sb).then_some(None)
            }
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.candidates
                .par_iter()
                .with_min_len(256)
                .map(test)
                .collect_into_vec(&mut self.hits);
        }
        #[cfg(not(feature = "rayon"))]
        {
            self.hits.clear();
            self.hits.extend(self.candidates.iter().map(test));
        }
    }

    /// The colliding pairs found by the last [`update`](Self::update), sorted by `(a, b)`.
    #[must_use]
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The pairs that started colliding at the last update, sorted.
    #[must_use]
    pub fn began(&self) -> &[(Handle, Handle)] {
        &self.began
    }

    /// The pairs that stopped colliding at the last update, sorted; a pair whose object was
    /// removed ends too (its handle is then stale).
    #[must_use]
    pub fn ended(&self) -> &[(Handle, Handle)] {
        &self.ended
    }

    /// The broad phase's structure as of the last [`update`](Self::update), read only, for
    /// debug drawing: with [`BroadPhase::grid`], each cell holding objects (by row, then column)
    /// and then the objects too large for a cell; with [`BroadPhase::tree`], each node of each
    /// tree with its depth, leaves naming their object (tree by tree, depth first). The same
    /// operations give the same list. Objects changed since the update are shown as they were.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadBoxKind, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::tree(0.5));
    /// let ball = world.insert(Circle::new(Vec2::ZERO, 1.0)?.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// world.update();
    /// let boxes = world.broad_phase_boxes();
    /// assert_eq!(boxes[0].kind, BroadBoxKind::Leaf { tree: 0, depth: 0, object: ball });
    /// assert!((boxes[0].aabb.min().x + 1.5).abs() < 1e-6); // enlarged by the margin
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn broad_phase_boxes(&self) -> Vec<crate::broad::BroadBox> {
        let view = View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        };
        let mut out = Vec::new();
        self.broad.boxes(&view, &|slot| self.handle(slot), &mut out);
        out
    }

    /// The live, visible candidate slots for a query: the broad phase's (as of the last update)
    /// minus the slots changed since, plus those changed slots; sorted, each once.
    fn gather(
        &self,
        mut from_broad: impl FnMut(&Broad, &View<'_>, &mut dyn FnMut(u32)),
    ) -> Vec<u32> {
        let view = View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        };
        let mut out = Vec::new();
        from_broad(&self.broad, &view, &mut |slot| {
            if !self.dirty.get(slot as usize).copied().unwrap_or(true) {
                out.push(slot);
            }
        });
        out.extend(
            self.changed
                .iter()
                .copied()
                .filter(|&s| self.groups[s as usize] != u32::MAX),
        );
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The shape of the object in `slot`, if any and if its layer is in `mask`.
    fn live(&self, slot: u32, mask: u64) -> Option<&Shape> {
        let object = self.slots[slot as usize].1.as_ref()?;
        if object.filter.layer & mask == 0 {
            return None;
        }
        self.shapes[slot as usize].as_ref()
    }

    /// The objects containing point `p` (boundary included) whose layer is in `mask`
    /// (`u64::MAX` for all), in handle order. Queries see the objects as they are now.
    #[must_use]
    pub fn objects_at_point(&self, p: Vec2, mask: u64) -> Vec<Handle> {
        let region = Aabb::new_unchecked(p, p);
        self.gather(|broad, view, f| broad.query(view, &region, mask, f))
            .into_iter()
            .filter(|&s| {
                self.live(s, mask).is_some_and(|o| {
                    self.aabbs[s as usize].overlaps(&region) && contains_point(o, p)
                })
            })
            .map(|s| self.handle(s))
            .collect()
    }

    /// The objects intersecting `shape` (touching counts) whose layer is in `mask`, in handle
    /// order. For a rectangular region, pass an [`Aabb`] shape.
    #[must_use]
    pub fn objects_overlapping(&self, shape: &Shape, mask: u64) -> Vec<Handle> {
        let Ok(region) = Self::checked_aabb(shape) else {
            return Vec::new();
        };
        self.gather(|broad, view, f| broad.query(view, &region, mask, f))
            .into_iter()
            .filter(|&s| {
                self.live(s, mask).is_some_and(|o| {
                    self.aabbs[s as usize].overlaps(&region) && intersects(o, shape)
                })
            })
            .map(|s| self.handle(s))
            .collect()
    }

    /// The first object `ray` meets for `t` in `[0, max_t]` among those whose layer is in
    /// `mask`, with its hit (as [`cast_ray`]); ties go to the lower handle.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32, mask: u64) -> Option<(Handle, RayHit)> {
        if !valid_ray(ray, max_t) {
            return None;
        }
        let mut best: Option<(u32, RayHit)> = None;
        let mut consider = |s: u32, limit: f32| -> f32 {
            if let Some(o) = self.live(s, mask) {
                if let Some(hit) = cast_ray(o, ray, limit) {
                    let better = match &best {
                        None => true,
                        Some((bs, bh)) => hit.t < bh.t || (hit.t == bh.t && s < *bs),
                    };
                    if better {
                        best = Some((s, hit));
                    }
                }
            }
            best.as_ref().map_or(limit, |(_, h)| h.t)
        };
        let view = View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        };
        self.broad.ray(&view, ray, max_t, mask, &mut |s| {
            if self.dirty.get(s as usize).copied().unwrap_or(true) {
                return max_t;
            }
            consider(s, max_t)
        });
        for &s in &self.changed {
            consider(s, max_t);
        }
        best.map(|(s, hit)| (self.handle(s), hit))
    }

    /// Every object `ray` meets for `t` in `[0, max_t]` among those whose layer is in `mask`,
    /// each with its first hit, sorted by `t`, then handle.
    #[must_use]
    pub fn cast_ray_all(&self, ray: &Ray, max_t: f32, mask: u64) -> Vec<(Handle, RayHit)> {
        if !valid_ray(ray, max_t) {
            return Vec::new();
        }
        let slots = self.gather(|broad, view, f| {
            broad.ray(view, ray, max_t, mask, &mut |s| {
                f(s);
                max_t
            });
        });
        let mut hits: Vec<(Handle, RayHit)> = slots
            .into_iter()
            .filter_map(|s| {
                let o = self.live(s, mask)?;
                cast_ray(o, ray, max_t).map(|hit| (self.handle(s), hit))
            })
            .collect();
        hits.sort_by(|x, y| x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0)));
        hits
    }
}

/// True for a finite ray and a `max_t` that is `>= 0` (not NaN; infinity allowed).
fn valid_ray(ray: &Ray, max_t: f32) -> bool {
    max_t.partial_cmp(&0.0).is_some_and(|o| o.is_ge())
        && ray.origin.is_finite()
        && ray.dir.is_finite()
}

/// Sorts pairs `(a, b)` of slots below `slots`: a counting sort on `a` (linear), then each run of
/// equal `a`, usually one or two long, by `b`.
fn sort_pairs(
    pairs: &mut Vec<(u32, u32)>,
    slots: usize,
    counts: &mut Vec<u32>,
    scratch: &mut Vec<(u32, u32)>,
) {
    if pairs.len() < 256 {
        pairs.sort_unstable();
        return;
    }
    counts.clear();
    counts.resize(slots + 1, 0);
    for &(a, _) in pairs.iter() {
        counts[a as usize + 1] += 1;
    }
    for i in 1..counts.len() {
        counts[i] += counts[i - 1];
    }
    scratch.clear();
    scratch.resize(pairs.len(), (0, 0));
    for &p in pairs.iter() {
        let at = &mut counts[p.0 as usize];
        scratch[*at as usize] = p;
        *at += 1;
    }
    core::mem::swap(pairs, scratch);
    let mut i = 0;
    while i < pairs.len() {
        let a = pairs[i].0;
        let mut j = i + 1;
        while j < pairs.len() && pairs[j].0 == a {
            j += 1;
        }
        if j - i > 1 {
            pairs[i..j].sort_unstable();
        }
        i = j;
    }
}
