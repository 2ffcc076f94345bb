//! Keeping the world in step with the entities: only what changed is visited.
//!
//! Which colliders changed is read from Bevy's change ticks table by table, as slices
//! (contiguous query access), not entity by entity through `Changed` filters: a block of
//! transforms whose ticks are all old is passed over in a few instructions an entity, so a
//! scene's unmoved colliders (level tiles) cost almost nothing per frame. The plugin's own
//! components keep a summary tick (the latest change in their table's column), so their
//! ticks are read only in tables where one of them changed. A moved transform is still
//! found by its tick: Bevy calls nothing when a component is changed in place, so no
//! cheaper signal exists for a static collider whose `Transform` a game moves.

use bevy_ecs::change_detection::{
    ContiguousComponentTicksRef, ContiguousRef, Tick, MAX_CHANGE_AGE,
};
use bevy_ecs::prelude::*;
use bevy_transform::components::GlobalTransform;
use collide2d::math::{Pose, Vec2};
use collide2d::{Filter, WorldError};

use crate::collisions::{Collisions, Tracked};
use crate::components::{Collider, ColliderKind, CollisionLayers};

/// Every collider, with the ticks that tell whether its transform, shape, layers or kind
/// changed (or were just added).
type ColliderParts = (
    Entity,
    Ref<'static, GlobalTransform>,
    Ref<'static, Collider>,
    Option<Ref<'static, CollisionLayers>>,
    Option<Ref<'static, ColliderKind>>,
);

/// Rows of a table whose ticks are tested together: a block where none is newer than the
/// system's last run is skipped whole (the test is a branch-free fold the compiler
/// vectorises).
const BLOCK: usize = 256;

/// One collider as the world needs it.
struct Part<'a> {
    entity: Entity,
    transform: &'a GlobalTransform,
    collider: &'a Collider,
    /// Whether the collider (its shape) changed since the last sync.
    reshaped: bool,
    layers: Option<&'a CollisionLayers>,
    kind: Option<&'a ColliderKind>,
}

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
            collisions.remove(tracked.handle, entity);
        }
    }
}

/// Inserts new colliders and moves, reshapes and refilters changed ones. Entities that lost
/// their layers or kind get the defaults back.
pub(crate) fn sync_changed(
    colliders: Query<ColliderParts>,
    mut lost_layers: RemovedComponents<CollisionLayers>,
    mut lost_kind: RemovedComponents<ColliderKind>,
    mut collisions: ResMut<Collisions>,
) {
    let collisions = &mut *collisions;
    match colliders.contiguous_iter() {
        Ok(tables) => {
            for (entities, transforms, colliders, layers, kinds) in tables {
                sync_table(collisions, entities, transforms, colliders, layers, kinds);
            }
        }
        // Only a query with a component stored in a sparse set is refused, and these are all
        // stored in tables; were one not, each entity's ticks would be read one by one.
        Err(_) => {
            for parts in &colliders {
                let (_, transform, collider, layers, kinds) = &parts;
                if transform.is_changed()
                    || collider.is_changed()
                    || layers.as_ref().is_some_and(Ref::is_changed)
                    || kinds.as_ref().is_some_and(Ref::is_changed)
                {
                    sync_one(collisions, part_of(&parts));
                }
            }
        }
    }
    for entity in lost_layers.read().chain(lost_kind.read()) {
        if let Ok(parts) = colliders.get(entity) {
            sync_one(collisions, part_of(&parts));
        }
    }
    collisions.removed.sort_unstable();
    collisions.by_entity.take();
}

/// A collider fetched alone (not by table).
fn part_of<'a>(parts: &'a <ColliderParts as bevy_ecs::query::QueryData>::Item<'_, '_>) -> Part<'a> {
    let (entity, transform, collider, layers, kind) = parts;
    Part {
        entity: *entity,
        transform,
        collider,
        reshaped: collider.is_changed(),
        layers: layers.as_deref(),
        kind: kind.as_deref(),
    }
}

/// Syncs the colliders of one table that changed: the blocks of rows where a transform tick,
/// or a tick of a column whose summary tick moved, is newer than the last sync.
fn sync_table(
    collisions: &mut Collisions,
    entities: &[Entity],
    transforms: ContiguousRef<GlobalTransform>,
    colliders: ContiguousRef<Collider>,
    layers: Option<ContiguousRef<CollisionLayers>>,
    kinds: Option<ContiguousRef<ColliderKind>>,
) {
    let (transforms, transform_ticks) = ContiguousRef::split(transforms);
    let (colliders, collider_ticks) = ContiguousRef::split(colliders);
    let layers = layers.map(ContiguousRef::split);
    let kinds = kinds.map(ContiguousRef::split);
    let (last, now) = (transform_ticks.last_run(), transform_ticks.this_run());
    // A column of ours is read only when its summary tick says a row of it changed.
    let moved_in =
        |ticks: &ContiguousComponentTicksRef| ticks.summary_tick_is_changed() != Some(false);
    let columns = [
        Some(transform_ticks.changed()),
        moved_in(&collider_ticks).then(|| collider_ticks.changed()),
        layers
            .as_ref()
            .filter(|(_, ticks)| moved_in(ticks))
            .map(|(_, ticks)| ticks.changed()),
        kinds
            .as_ref()
            .filter(|(_, ticks)| moved_in(ticks))
            .map(|(_, ticks)| ticks.changed()),
    ];
    let columns = columns.iter().flatten();
    // A table where nothing changed (level tiles) is passed over by one scan of its columns,
    // with no work per block (that work was a third of the scan of 100,000 tiles' ticks).
    if !columns.clone().any(|ticks| any_newer(ticks, last, now)) {
        return;
    }
    for start in (0..entities.len()).step_by(BLOCK) {
        let rows = start..entities.len().min(start + BLOCK);
        if !columns
            .clone()
            .any(|ticks| any_newer(&ticks[rows.clone()], last, now))
        {
            continue;
        }
        for row in rows {
            if !columns
                .clone()
                .any(|ticks| ticks[row].is_newer_than(last, now))
            {
                continue;
            }
            let part = Part {
                entity: entities[row],
                transform: &transforms[row],
                collider: &colliders[row],
                reshaped: collider_ticks.changed()[row].is_newer_than(last, now),
                layers: layers.as_ref().map(|(values, _)| &values[row]),
                kind: kinds.as_ref().map(|(values, _)| &values[row]),
            };
            sync_one(collisions, part);
        }
    }
}

/// Whether any of `ticks` is newer than `last` (Bevy's `Changed` test,
/// [`Tick::is_newer_than`]) with no branch per tick. On x86-64 CPUs with AVX2 (chosen at run
/// time) eight ticks at a time by [`any_newer_avx2`], elsewhere by [`any_newer_portable`]: the
/// same answers.
fn any_newer(ticks: &[Tick], last: Tick, now: Tick) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU running this has AVX2 (just checked), the one feature
        // `any_newer_avx2` enables.
        return unsafe { any_newer_avx2(ticks, last, now) };
    }
    any_newer_portable(ticks, last, now)
}

/// The age below which a tick is newer than the last run: Bevy compares the ages since `now`
/// of the tick and of the last run, each clamped to `MAX_CHANGE_AGE`. The last run's clamped
/// age is at most that, so clamping the tick's changes no answer: a tick is newer when its
/// age (`now - tick`, wrapping) is below this.
fn newer_below(last: Tick, now: Tick) -> u32 {
    now.get().wrapping_sub(last.get()).min(MAX_CHANGE_AGE)
}

/// [`any_newer`] on any CPU: one subtraction and one comparison a tick, a fold the compiler
/// vectorises with SSE2. SSE2 has no unsigned comparison (nor minimum) of 32-bit lanes: both
/// sides are offset by 2^31 (the age's offset folded into `now`) and compared signed, and each
/// answer is kept as a whole-lane mask.
fn any_newer_portable(ticks: &[Tick], last: Tick, now: Tick) -> bool {
    const HALF: u32 = 1 << 31;
    let (now_offset, below_offset) = (now.get() ^ HALF, (newer_below(last, now) ^ HALF) as i32);
    let newer = ticks.iter().fold(0_i32, |newer, tick| {
        newer | -i32::from((now_offset.wrapping_sub(tick.get()) as i32) < below_offset)
    });
    newer != 0
}

/// [`any_newer`] with AVX2: the least age of all the ticks is below the bound exactly when
/// one of them is, and AVX2 has an unsigned minimum of eight lanes (`vpminud`), so a tick
/// costs a subtraction and a minimum, eight at a time (the compiled loop: 11 instructions per
/// 32 ticks, against 15 per 8 with SSE2's masks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn any_newer_avx2(ticks: &[Tick], last: Tick, now: Tick) -> bool {
    let least_age = ticks.iter().fold(u32::MAX, |least, tick| {
        least.min(now.get().wrapping_sub(tick.get()))
    });
    least_age < newer_below(last, now)
}

fn sync_one(collisions: &mut Collisions, part: Part) {
    let entity = part.entity;
    let pose = pose_of(part.transform);
    let filter = part.layers.map_or(Filter::DEFAULT, |l| l.0);
    let kind = part.kind.copied().unwrap_or_default();
    let collider = part.collider;
    let result = match collisions.tracked.get_mut(&entity) {
        Some(tracked) if tracked.kind == kind => update(
            &mut collisions.world,
            tracked,
            collider,
            part.reshaped,
            pose,
            filter,
        ),
        other => {
            // New, or its kind changed: the world has no change of kind, so it is inserted
            // again (its pairs end and begin again).
            if let Some(old) = other.copied() {
                collisions.tracked.remove(&entity);
                collisions.remove(old.handle, entity);
            }
            insert_posed(&mut collisions.world, collider, pose, filter, kind, entity).map(
                |handle| {
                    let tracked = Tracked {
                        handle,
                        pose,
                        filter,
                        kind,
                    };
                    collisions.tracked.insert(entity, tracked);
                    collisions.inserted(handle, entity);
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
    collider: &Collider,
    reshaped: bool,
    pose: Pose,
    filter: Filter,
) -> Result<(), WorldError> {
    let handle = tracked.handle;
    if tracked.kind == ColliderKind::Static {
        // Level geometry seldom moves: placed whole, so the world keeps no local copy of it.
        if reshaped || pose != tracked.pose {
            world.set_shape(handle, collider.shape.transformed(&pose))?;
        }
    } else if reshaped {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `any_newer`, and each of its paths (the portable one and, on a CPU that has it, AVX2),
    /// agrees with Bevy's own test of each tick, around the wrap of the counter and the clamp
    /// of old ticks.
    #[test]
    fn any_newer_is_any_tick_newer_than_the_last_run() {
        let mut next = crate::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        for case in 0..20_000 {
            let now = match case % 3 {
                0 => next() as u32,
                1 => (next() % 8) as u32,
                _ => u32::MAX - (next() % 8) as u32,
            };
            let near = |r: u64| now.wrapping_sub((r % 16) as u32);
            let far = |r: u64| r as u32;
            let last = Tick::new(if case % 2 == 0 {
                near(next())
            } else {
                far(next())
            });
            // Ticks near `now` one in 3, 100 or 10,000: long runs with no new tick too.
            let near_every = [3, 100, 10_000][(case / 6) % 3];
            let ticks: Vec<Tick> = (0..(next() % 300) as usize)
                .map(|_| {
                    Tick::new(if next().is_multiple_of(near_every) {
                        near(next())
                    } else {
                        far(next())
                    })
                })
                .collect();
            let now = Tick::new(now);
            let expected = ticks.iter().any(|t| t.is_newer_than(last, now));
            assert_eq!(any_newer(&ticks, last, now), expected, "case {case}");
            assert_eq!(
                any_newer_portable(&ticks, last, now),
                expected,
                "case {case}, portable"
            );
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (just checked).
                let avx2 = unsafe { any_newer_avx2(&ticks, last, now) };
                assert_eq!(avx2, expected, "case {case}, AVX2");
            }
        }
    }
}
