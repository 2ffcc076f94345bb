//! Keeping the world in step with the entities: only what changed is visited.

use bevy_ecs::prelude::*;
use bevy_ecs::query::Or;
use bevy_transform::components::GlobalTransform;
use collide2d::math::{Pose, Vec2};
use collide2d::{Filter, WorldError};

use crate::collisions::{Collisions, Tracked};
use crate::components::{Collider, ColliderKind, CollisionLayers};

/// The entities to visit: a collider whose transform, shape, layers or kind changed (or was
/// just added).
type ChangedCollider = Or<(
    Changed<GlobalTransform>,
    Changed<Collider>,
    Changed<CollisionLayers>,
    Changed<ColliderKind>,
)>;

type ColliderParts = (
    Entity,
    &'static GlobalTransform,
    Ref<'static, Collider>,
    Option<&'static CollisionLayers>,
    Option<&'static ColliderKind>,
);

/// The pose a global transform gives a collider's shape: its translation's x and y, and the
/// direction its x axis points to in the plane (rotation about z; scale left out). The shape
/// in the world is `collider.shape.transformed(&pose_of(global_transform))`.
#[must_use]
pub fn pose_of(transform: &GlobalTransform) -> Pose {
    let affine = transform.affine();
    let x_axis = affine.matrix3.x_axis;
    Pose {
        position: Vec2::new(affine.translation.x, affine.translation.y),
        rotation: Vec2::new(x_axis.x, x_axis.y).normalize_or(Vec2::X),
    }
}

/// Removes the objects of despawned entities and of removed colliders.
pub(crate) fn remove_despawned(
    mut removed: RemovedComponents<Collider>,
    mut collisions: ResMut<Collisions>,
) {
    let collisions = &mut *collisions;
    collisions.removed.clear();
    collisions.refused.clear();
    for entity in removed.read() {
        if let Some(tracked) = collisions.tracked.remove(&entity) {
            if collisions.world.remove(tracked.handle).is_ok() {
                collisions.removed.push((tracked.handle, entity));
            }
        }
    }
}

/// Inserts new colliders and moves, reshapes and refilters changed ones. Entities that lost
/// their layers or kind get the defaults back.
pub(crate) fn sync_changed(
    changed: Query<ColliderParts, ChangedCollider>,
    all: Query<ColliderParts>,
    mut lost_layers: RemovedComponents<CollisionLayers>,
    mut lost_kind: RemovedComponents<ColliderKind>,
    mut collisions: ResMut<Collisions>,
) {
    let collisions = &mut *collisions;
    for parts in &changed {
        sync_one(collisions, parts);
    }
    for entity in lost_layers.read().chain(lost_kind.read()) {
        if let Ok(parts) = all.get(entity) {
            sync_one(collisions, parts);
        }
    }
    collisions.removed.sort_unstable();
    collisions.by_entity.take();
}

fn sync_one(
    collisions: &mut Collisions,
    parts: <ColliderParts as bevy_ecs::query::QueryData>::Item<'_, '_>,
) {
    let (entity, transform, collider, layers, kind) = parts;
    let pose = pose_of(transform);
    let filter = layers.map_or(Filter::DEFAULT, |l| l.0);
    let kind = kind.copied().unwrap_or_default();
    let result = match collisions.tracked.get_mut(&entity) {
        Some(tracked) if tracked.kind == kind => {
            update(&mut collisions.world, tracked, &collider, pose, filter)
        }
        other => {
            // New, or its kind changed: the world has no change of kind, so it is inserted
            // again (its pairs end and begin again).
            if let Some(old) = other.copied() {
                collisions.tracked.remove(&entity);
                if collisions.world.remove(old.handle).is_ok() {
                    collisions.removed.push((old.handle, entity));
                }
            }
            insert_posed(&mut collisions.world, &collider, pose, filter, kind, entity).map(
                |handle| {
                    let tracked = Tracked {
                        handle,
                        pose,
                        filter,
                        kind,
                    };
                    collisions.tracked.insert(entity, tracked);
                },
            )
        }
    };
    if let Err(error) = result {
        collisions.refused.push((entity, error));
    }
}

/// Brings one tracked object to its entity's collider, pose and filter.
fn update(
    world: &mut collide2d::CollisionWorld<Entity>,
    tracked: &mut Tracked,
    collider: &Ref<Collider>,
    pose: Pose,
    filter: Filter,
) -> Result<(), WorldError> {
    let handle = tracked.handle;
    if tracked.kind == ColliderKind::Static {
        // Level geometry seldom moves: placed whole, so the world keeps no local copy of it.
        if collider.is_changed() || pose != tracked.pose {
            world.set_shape(handle, collider.shape.transformed(&pose))?;
        }
    } else if collider.is_changed() {
        // A new local shape: the world keeps it, and the pose places it.
        world.set_shape(handle, collider.shape.clone())?;
        if let Err(error) = world.set_pose(handle, pose) {
            // Refused: the new shape stays where the old one was.
            let _ = world.set_pose(handle, tracked.pose);
            return Err(error);
        }
    } else if pose.rotation != tracked.pose.rotation {
        world.set_pose(handle, pose)?;
    } else if pose.position != tracked.pose.position {
        if tracked.kind == ColliderKind::Fast {
            // Swept from where it was: the world tests the whole path at the next update.
            world.move_by(handle, pose.position - tracked.pose.position)?;
        } else {
            world.set_pose(handle, pose)?;
        }
    }
    tracked.pose = pose;
    if filter != tracked.filter {
        world.set_filter(handle, filter)?;
        tracked.filter = filter;
    }
    Ok(())
}

/// Inserts a collider placed by `pose`. A moving one goes in as its local shape, then placed
/// by the pose: the world keeps the local shape, and each later pose writes the placed shape
/// in place, with no allocation. A static one goes in placed (nothing kept for moves it will
/// seldom make). Nothing is left in the world when the pose is refused.
fn insert_posed(
    world: &mut collide2d::CollisionWorld<Entity>,
    collider: &Collider,
    pose: Pose,
    filter: Filter,
    kind: ColliderKind,
    entity: Entity,
) -> Result<collide2d::Handle, WorldError> {
    if kind == ColliderKind::Static {
        return world.insert(
            collider.shape.transformed(&pose),
            filter,
            kind.into(),
            entity,
        );
    }
    let handle = world.insert(collider.shape.clone(), filter, kind.into(), entity)?;
    match world.set_pose(handle, pose) {
        Ok(()) => Ok(handle),
        Err(error) => {
            // Not in the world after all, as when an insert is refused.
            let _ = world.remove(handle);
            Err(error)
        }
    }
}
