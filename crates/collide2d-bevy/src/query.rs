//! Queries on the world answering entities: a `SystemParam` over [`Collisions`].

use std::ops::Deref;

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use collide2d::math::Vec2;
use collide2d::{CastHit, Handle, Movement, Ray, RayHit, Response, Shape};

use crate::collisions::Collisions;

/// Point, overlap, ray and shape-cast queries in a system, each with a layer mask (the
/// colliders whose layer is in it; `u64::MAX` for all), answering entities. They see the
/// colliders as of this frame's sync (the previous frame's positions when run in `Update`).
/// It dereferences to [`Collisions`], for the current pairs of an entity
/// ([`Collisions::pairs_of`]).
///
/// ```
/// use bevy_ecs::prelude::*;
/// use collide2d::math::Vec2;
/// use collide2d_bevy::CollisionQuery;
///
/// #[derive(Component)]
/// struct Cursor(Vec2);
///
/// fn pick(query: CollisionQuery, cursors: Query<&Cursor>) {
///     for cursor in &cursors {
///         for entity in query.entities_at_point(cursor.0, u64::MAX) {
///             println!("{entity} is under the cursor");
///         }
///     }
/// }
/// # bevy_ecs::system::assert_is_system(pick);
/// ```
#[derive(SystemParam)]
pub struct CollisionQuery<'w> {
    collisions: Res<'w, Collisions>,
}

impl Deref for CollisionQuery<'_> {
    type Target = Collisions;
    fn deref(&self) -> &Collisions {
        &self.collisions
    }
}

impl Collisions {
    /// The entities whose collider contains `p` (boundary included), sorted.
    #[must_use]
    pub fn entities_at_point(&self, p: Vec2, mask: u64) -> Vec<Entity> {
        self.entities_of(self.world.objects_at_point(p, mask))
    }

    /// The entities whose collider intersects `shape` (given in world coordinates; touching
    /// counts), sorted.
    #[must_use]
    pub fn entities_overlapping(&self, shape: &Shape, mask: u64) -> Vec<Entity> {
        self.entities_of(self.world.objects_overlapping(shape, mask))
    }

    /// The first collider `ray` meets for `t` in `[0, max_t]`, with the hit (ties go to the
    /// earlier object in the world).
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32, mask: u64) -> Option<(Entity, RayHit)> {
        let (handle, hit) = self.world.cast_ray(ray, max_t, mask)?;
        Some((*self.world.data(handle).ok()?, hit))
    }

    /// Every collider `ray` meets for `t` in `[0, max_t]`, each with its first hit, by `t`.
    #[must_use]
    pub fn cast_ray_all(&self, ray: &Ray, max_t: f32, mask: u64) -> Vec<(Entity, RayHit)> {
        self.with_entities(self.world.cast_ray_all(ray, max_t, mask))
    }

    /// The first collider `shape` (in world coordinates) touches when moved by `motion`, with
    /// the time of impact in `[0, 1]` and the normal (ties go to the earlier object).
    #[must_use]
    pub fn cast_shape(&self, shape: &Shape, motion: Vec2, mask: u64) -> Option<(Entity, CastHit)> {
        let (handle, hit) = self.world.cast_shape(shape, motion, mask)?;
        Some((*self.world.data(handle).ok()?, hit))
    }

    /// Every collider `shape` touches when moved by `motion`, each with its first hit, by time.
    #[must_use]
    pub fn cast_shape_all(&self, shape: &Shape, motion: Vec2, mask: u64) -> Vec<(Entity, CastHit)> {
        self.with_entities(self.world.cast_shape_all(shape, motion, mask))
    }

    /// Moves a box or a capsule (in world coordinates) by `motion` through the static
    /// colliders in `mask`, as [`collide2d::CollisionWorld::move_shape`], `respond` choosing
    /// the response to each entity met. The contacts' handles name objects:
    /// [`Collisions::entity`] gives their entities. [`Character`](crate::Character) does this
    /// each frame for an entity.
    #[must_use]
    pub fn move_shape(
        &self,
        shape: &Shape,
        motion: Vec2,
        mask: u64,
        mut respond: impl FnMut(Entity) -> Response,
    ) -> Movement {
        self.world
            .move_shape(shape, motion, mask, |_, entity| respond(*entity))
    }

    fn entities_of(&self, handles: Vec<Handle>) -> Vec<Entity> {
        let mut out: Vec<Entity> = handles
            .into_iter()
            .filter_map(|h| self.world.data(h).ok().copied())
            .collect();
        out.sort_unstable();
        out
    }

    fn with_entities<H>(&self, hits: Vec<(Handle, H)>) -> Vec<(Entity, H)> {
        hits.into_iter()
            .filter_map(|(h, hit)| Some((*self.world.data(h).ok()?, hit)))
            .collect()
    }
}
