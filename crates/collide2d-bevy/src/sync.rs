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
            let shape = collider.shape.transformed(&pose);
            collisions
                .world
                .insert(shape, filter, kind.into(), entity)
                .map(|handle| {
                    let tracked = Tracked {
                        handle,
                        pose,
                        filter,
                        kind,
                    };
                    collisions.tracked.insert(entity, tracked);
                })
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
    if collider.is_changed() || pose.rotation != tracked.pose.rotation {
        world.set_shape(tracked.handle, collider.shape.transformed(&pose))?;
    } else if pose.position != tracked.pose.position {
        if tracked.kind == ColliderKind::Fast {
            // Swept from where it was: the world tests the whole path at the next update.
            world.move_by(tracked.handle, pose.position - tracked.pose.position)?;
        } else {
            world.set_shape(tracked.handle, collider.shape.transformed(&pose))?;
        }
    }
    tracked.pose = pose;
    if filter != tracked.filter {
        world.set_filter(tracked.handle, filter)?;
        tracked.filter = filter;
    }
    Ok(())
}
