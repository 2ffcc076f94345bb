//! Queries against a [`CollisionWorld`]: objects at a point or overlapping a shape, ray casts
//! and shape casts, with layer masks, and the broad phase's boxes for debug drawing.

use super::{CollisionWorld, Handle, ObjectKind};
use crate::broad::{Broad, RayLeaf, Sight, View};
use crate::math::Vec2;
use crate::query::{cast_ray, cast_shapes, contains_point, intersects, CastHit, Ray, RayHit};
use crate::shape::{Aabb, Shape};
#[cfg(doc)]
use crate::BroadPhase;
use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::Vec4;

impl<T> CollisionWorld<T> {
    /// The broad phase's structure, read only, for debug drawing (brought up to date with the
    /// objects as they are now, as for any query): with [`BroadPhase::grid`], each cell holding objects (by row, then column)
    /// and then the objects too large for a cell; with [`BroadPhase::tree`], each node of each
    /// tree with its depth, leaves naming their object (tree by tree, depth first). The same
    /// operations give the same list.
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
        let view = self.view();
        let mut out = Vec::new();
        let broad = self.broad.refreshed(|| view);
        broad.boxes(&view, &|slot| self.handle(slot), &mut out);
        out
    }

    /// The broad-phase structure in use, brought up to date with the objects as they are now
    /// (as for any query): with [`BroadPhase::auto`] (the default), the one it chose for them.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, BroadPhaseKind, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// for i in 0..1000 {
    ///     let at = Vec2::new((i % 40) as f32 * 3.0, (i / 40) as f32 * 3.0);
    ///     world.insert(Circle::new(at, 0.75)?.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// }
    /// world.update();
    /// // Many moving objects 1.5 wide: a grid of cells 2 wide.
    /// assert_eq!(world.broad_phase_kind(), BroadPhaseKind::Grid { cell_size: 2.0 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn broad_phase_kind(&self) -> crate::broad::BroadPhaseKind {
        let view = self.view();
        self.broad.refreshed(|| view).kind()
    }

    /// What the broad phase reads of the objects.
    fn view(&self) -> View<'_> {
        View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        }
    }

    /// The candidate slots for a query from the broad phase, brought up to date first (once
    /// after each change: see `lazy.rs`; in its static groups only, for a query that `sight`
    /// limits to them); sorted, each once.
    fn gather(
        &self,
        sight: Sight,
        mut from_broad: impl FnMut(&Broad, &View<'_>, &mut dyn FnMut(u32)),
    ) -> Vec<u32> {
        let view = self.view();
        let statics;
        let broad = if sight.statics_only {
            statics = self.broad.refreshed_statics(|| view);
            &*statics
        } else {
            self.broad.refreshed(|| view)
        };
        let mut out = Vec::new();
        from_broad(broad, &view, &mut |slot| out.push(slot));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The shape of the object in `slot`, if any and if `sight` shows it (its layer is in the
    /// mask; and it is static, for a query of static objects only).
    fn live(&self, slot: u32, sight: Sight) -> Option<Cow<'_, Shape>> {
        let object = self.slots[slot as usize].1.as_ref()?;
        if object.filter.layer & sight.mask == 0
            || sight.statics_only && object.kind != ObjectKind::Static
        {
            return None;
        }
        self.shapes.get(slot as usize)
    }

    /// The objects containing point `p` (boundary included) whose layer is in `mask`
    /// (`u64::MAX` for all), in handle order. Queries see the objects as they are now.
    #[must_use]
    pub fn objects_at_point(&self, p: Vec2, mask: u64) -> Vec<Handle> {
        self.objects_in(&Aabb::raw(p, p), Sight::all(mask), |o| contains_point(o, p))
    }

    /// The objects intersecting `shape` (touching counts) whose layer is in `mask`, in handle
    /// order. For a rectangular region, pass an [`Aabb`] shape.
    #[must_use]
    pub fn objects_overlapping(&self, shape: &Shape, mask: u64) -> Vec<Handle> {
        self.overlapping(shape, Sight::all(mask))
    }

    /// [`objects_overlapping`](Self::objects_overlapping) of the static objects alone. It
    /// takes in only the changes to static objects since the broad phase was last brought up
    /// to date (see `lazy.rs`): dynamic objects moved since cost it nothing.
    pub(crate) fn statics_overlapping(&self, shape: &Shape, mask: u64) -> Vec<Handle> {
        let sight = Sight {
            mask,
            statics_only: true,
        };
        self.overlapping(shape, sight)
    }

    /// True when `handle` names a live object whose layer is in `mask` and which intersects
    /// `shape`: the test [`objects_overlapping`](Self::objects_overlapping) makes of each
    /// object, for one object.
    pub(crate) fn overlaps(&self, handle: Handle, shape: &Shape, mask: u64) -> bool {
        let (Ok(region), Ok(s)) = (Self::checked_aabb(shape), self.live_index(handle)) else {
            return false;
        };
        let s = s as u32;
        self.live(s, Sight::all(mask))
            .is_some_and(|o| self.aabbs[s as usize].overlaps(&region) && intersects(&o, shape))
    }

    /// The objects `sight` shows that intersect `shape`, in handle order.
    fn overlapping(&self, shape: &Shape, sight: Sight) -> Vec<Handle> {
        let Ok(region) = Self::checked_aabb(shape) else {
            return Vec::new();
        };
        self.objects_in(&region, sight, |o| intersects(o, shape))
    }

    /// The live objects `sight` shows whose box meets `region` and whose shape passes
    /// `test`, in handle order.
    fn objects_in(
        &self,
        region: &Aabb,
        sight: Sight,
        test: impl Fn(&Shape) -> bool,
    ) -> Vec<Handle> {
        self.gather(sight, |broad, view, f| broad.query(view, region, sight, f))
            .into_iter()
            .filter(|&s| {
                self.live(s, sight)
                    .is_some_and(|o| self.aabbs[s as usize].overlaps(region) && test(&o))
            })
            .map(|s| self.handle(s))
            .collect()
    }

    /// The first object `ray` meets for `t` in `[0, max_t]` among those whose layer is in
    /// `mask`, with its hit (as [`cast_ray`]); ties go to the lower handle. Where `t` overflows
    /// `f32` (a tiny `dir`, such as a subnormal one, makes every far hit `t = inf`), the hit
    /// whose point lies first along the ray comes first.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32, mask: u64) -> Option<(Handle, RayHit)> {
        if !valid_ray(ray, max_t) {
            return None;
        }
        let mut first = FirstHit {
            world: self,
            ray,
            max_t,
            mask,
            best: None,
        };
        self.broad.refreshed(|| self.view()).ray(
            &self.table,
            || self.view(),
            ray,
            max_t,
            mask,
            &mut first,
        );
        first.best.map(|(s, hit)| (self.handle(s), hit))
    }

    /// Every object `ray` meets for `t` in `[0, max_t]` among those whose layer is in `mask`,
    /// each with its first hit, sorted by `t` (hits whose `t` overflowed `f32`, as
    /// [`cast_ray`](Self::cast_ray) orders them), then handle.
    #[must_use]
    pub fn cast_ray_all(&self, ray: &Ray, max_t: f32, mask: u64) -> Vec<(Handle, RayHit)> {
        if !valid_ray(ray, max_t) {
            return Vec::new();
        }
        let slots = self.gather(Sight::all(mask), |broad, view, f| {
            broad.ray(view.table, || *view, ray, max_t, mask, &mut |s| {
                f(s);
                max_t
            });
        });
        let mut hits: Vec<(Handle, RayHit)> = slots
            .into_iter()
            .filter_map(|s| {
                let o = self.live(s, Sight::all(mask))?;
                cast_ray(&o, ray, max_t).map(|hit| (self.handle(s), hit))
            })
            .collect();
        crate::sort::sort_by(&mut hits, |x, y| {
            ray_order(ray, &x.1, &y.1).then(x.0.cmp(&y.0))
        });
        hits
    }

    /// The objects whose layer is in `mask` that `shape` touches when moved by `motion`, each
    /// with its [`cast_shapes`]`(shape, motion, object, 0)` hit, in handle order; the objects
    /// stay where they are now. Nothing for a non-finite `shape` box or `motion`.
    fn cast_hits(&self, shape: &Shape, motion: Vec2, mask: u64) -> Vec<(u32, CastHit)> {
        let Ok(start) = Self::checked_aabb(shape) else {
            return Vec::new();
        };
        let (lo, hi) = (start.min() + motion, start.max() + motion);
        if !lo.is_finite() || !hi.is_finite() {
            return Vec::new();
        }
        let region = start.union(&Aabb::raw(lo, hi)).outward();
        let sight = Sight::all(mask);
        self.gather(sight, |broad, view, f| broad.query(view, &region, sight, f))
            .into_iter()
            .filter_map(|s| {
                let o = self.live(s, sight)?;
                if !self.aabbs[s as usize].overlaps(&region) {
                    return None;
                }
                cast_shapes(shape, motion, &o, Vec2::ZERO).map(|hit| (s, hit))
            })
            .collect()
    }

    /// The first object whose layer is in `mask` that `shape` touches when moved by `motion`
    /// (touching counts, so an object touching `shape` at the start hits at `t = 0`), with the
    /// hit as [`cast_shapes`]`(shape, motion, object, Vec2::ZERO)`: the normal points from
    /// `shape` towards the object. Objects are taken where they are now; ties in `t` go to the
    /// lower handle. `None` for a non-finite `motion`.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::grid(4.0)?);
    /// let wall = Aabb::new(Vec2::new(10.0, -5.0), Vec2::new(11.0, 5.0))?.into();
    /// let wall = world.insert(wall, Filter::DEFAULT, ObjectKind::Static, ())?;
    /// let probe = Circle::new(Vec2::ZERO, 1.0)?.into();
    /// let (hit, at) = world.cast_shape(&probe, Vec2::new(100.0, 0.0), u64::MAX).unwrap();
    /// assert_eq!(hit, wall);
    /// assert!((at.t - 0.09).abs() < 1e-6);
    /// assert_eq!(at.normal, Vec2::X); // from the probe towards the wall
    /// assert!(world.cast_shape(&probe, Vec2::new(0.0, 100.0), u64::MAX).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn cast_shape(&self, shape: &Shape, motion: Vec2, mask: u64) -> Option<(Handle, CastHit)> {
        self.cast_hits(shape, motion, mask)
            .into_iter()
            .reduce(|best, x| if x.1.t < best.1.t { x } else { best })
            .map(|(s, hit)| (self.handle(s), hit))
    }

    /// Every object whose layer is in `mask` that `shape` touches when moved by `motion`, each
    /// with its first hit (as [`cast_shape`](Self::cast_shape)), sorted by `t`, then handle.
    #[must_use]
    pub fn cast_shape_all(&self, shape: &Shape, motion: Vec2, mask: u64) -> Vec<(Handle, CastHit)> {
        let mut hits: Vec<(Handle, CastHit)> = self
            .cast_hits(shape, motion, mask)
            .into_iter()
            .map(|(s, hit)| (self.handle(s), hit))
            .collect();
        crate::sort::sort_by(&mut hits, |x, y| {
            x.1.t.total_cmp(&y.1.t).then(x.0.cmp(&y.0))
        });
        hits
    }
}

/// [`CollisionWorld::cast_ray`]'s search: each leaf the broad phase reaches is cast against, and
/// the first hit so far kept. A [`RayLeaf`] whose test is inlined into the trees' walk (a
/// closure's was a call).
struct FirstHit<'a, T> {
    world: &'a CollisionWorld<T>,
    ray: &'a Ray,
    max_t: f32,
    mask: u64,
    /// The first hit so far, with its slot.
    best: Option<(u32, RayHit)>,
}

impl<T> RayLeaf for FirstHit<'_, T> {
    /// Casts against slot `s`'s shape; returns the bound left: the best hit's `t`. On x86_64,
    /// inlined into the walk (a call saved and restored the walk's vector registers, 50
    /// instructions a leaf); elsewhere a call, as the wasm build's size counts.
    #[cfg_attr(target_arch = "x86_64", inline(always))]
    #[cfg_attr(not(target_arch = "x86_64"), inline)]
    fn leaf(&mut self, s: u32) -> f32 {
        // The broad phase, up to date, holds live slots only and reports only groups whose
        // layer is in `mask`: the shape is all that is left to read (not the object, a cache
        // miss per leaf).
        debug_assert!(self.world.live(s, Sight::all(self.mask)).is_some());
        let ray = self.ray;
        // A hit past the best so far loses, so the shape's cast may stop there: at the float
        // after the best `t`. A hit that rounds to the best `t` (a tie, which the lower handle
        // wins) lies below that, and keeps its bits: the limit changes none below it.
        let limit = self
            .best
            .as_ref()
            .map_or(self.max_t, |(_, h)| h.t.next_up().min(self.max_t));
        // A circle or box is cast on its record; another shape is read whole, out of line.
        // Each offers its hit itself: merged first, the hits were staged on the stack.
        match self.world.shapes.record(s as usize).cast_ray(ray, limit) {
            Some(Some(hit)) => self.offer(s, hit),
            Some(None) => {}
            None => self.offer_other(s, limit),
        }
        self.best.as_ref().map_or(limit, |(_, h)| h.t)
    }
}

impl<T> FirstHit<'_, T> {
    /// Keeps `hit` of slot `s` if it comes before the best so far.
    #[inline(always)]
    fn offer(&mut self, s: u32, hit: RayHit) {
        let better = match &self.best {
            None => true,
            // A `t` below the best's wins, one above loses (`ray_order` says as much);
            // equal ones (a tie, or both overflowed) take the whole order, out of line.
            Some((_, bh)) if hit.t < bh.t => true,
            Some((_, bh)) if hit.t > bh.t => false,
            Some((bs, bh)) => tie_wins(self.ray, &hit, s, bh, *bs),
        };
        if better {
            self.best = Some((s, hit));
        }
    }

    /// [`offer`](Self::offer) of the [`cast_ray`] of a shape other than a circle or a box, out
    /// of line.
    #[inline(never)]
    fn offer_other(&mut self, s: u32, limit: f32) {
        let hit = self
            .world
            .shapes
            .get(s as usize)
            .and_then(|o| cast_ray(&o, self.ray, limit));
        if let Some(hit) = hit {
            self.offer(s, hit);
        }
    }
}

/// True when `hit` of slot `s`, its `t` equal to the best's (`best` of slot `bs`), comes first
/// by [`ray_order`], then slot.
#[cold]
#[inline(never)]
fn tie_wins(ray: &Ray, hit: &RayHit, s: u32, best: &RayHit, bs: u32) -> bool {
    ray_order(ray, hit, best).then(s.cmp(&bs)).is_lt()
}

/// Two hits of `ray` in the order the ray meets them: by `t`, and for hits whose `t` overflowed
/// `f32` (a tiny `dir`: every far hit has `t = inf`), by how far along the ray their points lie
/// (in `f64`, where the products cannot overflow or vanish).
fn ray_order(ray: &Ray, a: &RayHit, b: &RayHit) -> Ordering {
    let along = |h: &RayHit| (h.point.as_dvec2() - ray.origin.as_dvec2()).dot(ray.dir.as_dvec2());
    a.t.total_cmp(&b.t).then_with(|| {
        if a.t == f32::INFINITY {
            along(a).total_cmp(&along(b))
        } else {
            Ordering::Equal
        }
    })
}

/// True for a finite ray and a `max_t` that is `>= 0` (not NaN; infinity allowed).
#[inline(always)]
fn valid_ray(ray: &Ray, max_t: f32) -> bool {
    // The four coordinates as one vector test.
    max_t >= 0.0 && Vec4::new(ray.origin.x, ray.origin.y, ray.dir.x, ray.dir.y).is_finite()
}
