//! The plugin against a plain `CollisionWorld` driven the same way, over many frames of
//! spawns, moves, rotations, layer changes, collider removals and despawns: the same messages
//! (pairs that began and ended), the same current pairs and contacts per entity, and the same
//! query answers.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_transform::components::Transform;
use collide2d::math::{Pose, Vec2};
use collide2d::{BroadPhase, CollisionWorld, Contact, Filter, Handle, ObjectKind, Ray, Shape};
use collide2d_bevy::{Collider, ColliderKind, CollisionLayers, Collisions, EntityPair};
use common::{app, entity_pairs, filter, messages, pose, shape, Rng};

/// One entity as the test drives it, with its object in the plain world.
struct Model {
    entity: Entity,
    local: Shape,
    transform: Transform,
    filter: Filter,
    kind: ColliderKind,
    handle: Handle,
}

fn object_kind(kind: ColliderKind) -> ObjectKind {
    kind.into()
}

fn plain_pairs_of(world: &CollisionWorld<Entity>, handle: Handle) -> Vec<EntityPair> {
    let mut out: Vec<EntityPair> = world
        .pairs()
        .iter()
        .zip(world.contacts())
        .filter(|(p, _)| p.a == handle || p.b == handle)
        .map(|(p, c): (_, &Contact)| {
            let (other, contact) = if p.a == handle {
                (p.b, *c)
            } else {
                (p.a, c.flipped())
            };
            EntityPair {
                other: *world.data(other).unwrap(),
                contact: Some(contact),
                toi: p.toi,
            }
        })
        .collect();
    out.sort_by_key(|p| p.other);
    out
}

fn run(seed: u64, broad_phase: BroadPhase, frames: usize) {
    let mut rng = Rng(seed);
    let mut app = app(broad_phase);
    let mut plain: CollisionWorld<Entity> = CollisionWorld::new(broad_phase);
    plain.set_contacts(true);
    let mut live: Vec<Model> = Vec::new();
    let (mut started_total, mut ended_total) = (0, 0);
    for frame in 0..frames {
        let mut gone: Vec<(Handle, Entity)> = Vec::new();
        // Removals first, in order: despawns and collider removals.
        let removals = rng.below(4);
        for _ in 0..removals.min(live.len()) {
            let m = live.swap_remove(rng.below(live.len()));
            if rng.below(3) == 0 {
                app.world_mut().entity_mut(m.entity).remove::<Collider>();
            } else {
                app.world_mut().despawn(m.entity);
            }
            plain.remove(m.handle).unwrap();
            gone.push((m.handle, m.entity));
        }
        // Changes of the live ones.
        for m in &mut live {
            if m.kind == ColliderKind::Static && !rng.chance(0.02) {
                continue;
            }
            let old = pose(&m.transform);
            let mut entity = app.world_mut().entity_mut(m.entity);
            if rng.chance(0.6) {
                let speed = if m.kind == ColliderKind::Fast {
                    30.0
                } else {
                    3.0
                };
                m.transform.translation.x += rng.range(-speed, speed);
                m.transform.translation.y += rng.range(-speed, speed);
                m.transform.translation.x = m.transform.translation.x.clamp(-20.0, 120.0);
                m.transform.translation.y = m.transform.translation.y.clamp(-20.0, 120.0);
            }
            if rng.chance(0.15) {
                m.transform.rotate_z(rng.range(-1.0, 1.0));
            }
            *entity.get_mut::<Transform>().unwrap() = m.transform;
            if rng.chance(0.05) {
                m.filter = filter(&mut rng);
                entity.insert(CollisionLayers(m.filter));
                plain.set_filter(m.handle, m.filter).unwrap();
            }
            let new = pose(&m.transform);
            if new == old {
                continue;
            }
            if m.kind == ColliderKind::Fast && new.rotation == old.rotation {
                plain
                    .move_by(m.handle, new.position - old.position)
                    .unwrap();
            } else if m.kind == ColliderKind::Fast {
                // A fast collider that turns is swept turning, as the world's `set_pose` does.
                plain.set_pose(m.handle, new).unwrap();
            } else {
                plain
                    .set_shape(m.handle, m.local.transformed(&new))
                    .unwrap();
            }
        }
        // Spawns, in order (the plugin inserts them in the order it meets them: spawn order).
        for _ in 0..rng.below(if frame < 10 { 30 } else { 6 }) {
            let local = shape(&mut rng, 10.0);
            let transform = Transform::from_xyz(rng.range(0.0, 100.0), rng.range(0.0, 100.0), 0.0)
                .with_rotation(Quat::from_rotation_z(rng.range(-3.0, 3.0)));
            let f = filter(&mut rng);
            let kind = [
                ColliderKind::Dynamic,
                ColliderKind::Static,
                ColliderKind::Fast,
            ][rng.below(3)];
            let entity = app
                .world_mut()
                .spawn((
                    Collider::new(local.clone()),
                    transform,
                    CollisionLayers(f),
                    kind,
                ))
                .id();
            // A fast one goes in as its local shape, placed by its first pose (no sweep), so
            // that its later poses sweep it from there.
            let handle = if kind == ColliderKind::Fast {
                let h = plain
                    .insert(local.clone(), f, object_kind(kind), entity)
                    .unwrap();
                plain.set_pose(h, pose(&transform)).unwrap();
                h
            } else {
                plain
                    .insert(
                        local.transformed(&pose(&transform)),
                        f,
                        object_kind(kind),
                        entity,
                    )
                    .unwrap()
            };
            live.push(Model {
                entity,
                local,
                transform,
                filter: f,
                kind,
                handle,
            });
        }
        app.update();
        plain.update();

        // The same messages.
        let (started, ended) = messages(&mut app);
        let started: Vec<(Entity, Entity)> = started.iter().map(|m| (m.a, m.b)).collect();
        let ended: Vec<(Entity, Entity)> = ended.iter().map(|m| (m.a, m.b)).collect();
        assert_eq!(
            started,
            entity_pairs(&plain, plain.began(), &gone),
            "frame {frame} started"
        );
        assert_eq!(
            ended,
            entity_pairs(&plain, plain.ended(), &gone),
            "frame {frame} ended"
        );
        started_total += started.len();
        ended_total += ended.len();

        let collisions = app.world().resource::<Collisions>();
        assert_eq!(collisions.world().len(), live.len());
        // The same handles (same order of operations), pairs and contacts per entity.
        for m in &live {
            assert_eq!(collisions.handle(m.entity), Some(m.handle));
            assert_eq!(
                collisions.pairs_of(m.entity),
                plain_pairs_of(&plain, m.handle),
                "frame {frame}"
            );
        }
        // The same query answers, by entity.
        for _ in 0..8 {
            let mask = filter(&mut rng).mask;
            let p = Vec2::new(rng.range(0.0, 100.0), rng.range(0.0, 100.0));
            let mut at: Vec<Entity> = plain
                .objects_at_point(p, mask)
                .iter()
                .map(|&h| *plain.data(h).unwrap())
                .collect();
            at.sort_unstable();
            assert_eq!(collisions.entities_at_point(p, mask), at);
            let region = shape(&mut rng, 30.0).transformed(&Pose::new(p, rng.range(-3.0, 3.0)));
            let mut over: Vec<Entity> = plain
                .objects_overlapping(&region, mask)
                .iter()
                .map(|&h| *plain.data(h).unwrap())
                .collect();
            over.sort_unstable();
            assert_eq!(collisions.entities_overlapping(&region, mask), over);
            let ray = Ray::new(p, Vec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0)));
            let first = plain
                .cast_ray(&ray, 1.0, mask)
                .map(|(h, hit)| (*plain.data(h).unwrap(), hit));
            assert_eq!(collisions.cast_ray(&ray, 1.0, mask), first);
            let motion = Vec2::new(rng.range(-40.0, 40.0), rng.range(-40.0, 40.0));
            let cast = plain
                .cast_shape(&region, motion, mask)
                .map(|(h, hit)| (*plain.data(h).unwrap(), hit));
            assert_eq!(collisions.cast_shape(&region, motion, mask), cast);
        }
    }
    assert!(
        started_total > 50 && ended_total > 50,
        "a run with few events tests little: {started_total} {ended_total}"
    );
}

#[test]
fn same_as_the_world_on_a_grid() {
    for seed in 1..4 {
        run(seed * 7919, BroadPhase::grid(12.0).unwrap(), 150);
    }
}

#[test]
fn same_as_the_world_on_a_tree() {
    for seed in 1..4 {
        run(seed * 104_729, BroadPhase::default(), 150);
    }
}
