//! One entity spawned, moved, rotated, given new layers, reshaped and despawned (or stripped of
//! its collider) in every order, with frames run between any of the steps or none, among
//! neighbours of each kind: after every frame the plugin's messages, pairs and query answers
//! are those of a plain `CollisionWorld` driven the same way. An `App` of `MinimalPlugins`
//! (and `TransformPlugin`: see `common::app`).
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bevy_ecs::prelude::*;
use bevy_math::Quat;
use bevy_transform::components::Transform;
use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind, Ray, Shape};
use collide2d_bevy::{Collider, ColliderKind, CollisionLayers, Collisions};
use common::{app, entity_pairs, messages, pose, Rng};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Spawn,
    Move,
    Rotate,
    Layers,
    Reshape,
    Remove,
}

const STEPS: [Step; 6] = [
    Step::Spawn,
    Step::Move,
    Step::Rotate,
    Step::Layers,
    Step::Reshape,
    Step::Remove,
];

/// Every order of `items` (Heap's algorithm).
fn permutations<T: Copy>(items: &[T]) -> Vec<Vec<T>> {
    fn go<T: Copy>(k: usize, items: &mut Vec<T>, out: &mut Vec<Vec<T>>) {
        if k <= 1 {
            out.push(items.clone());
            return;
        }
        for i in 0..k {
            go(k - 1, items, out);
            let j = if k.is_multiple_of(2) { i } else { 0 };
            items.swap(j, k - 1);
        }
    }
    let mut out = Vec::new();
    go(items.len(), &mut items.to_vec(), &mut out);
    out
}

/// The entity the steps act on, as the test drives it.
struct Subject {
    entity: Option<Entity>,
    removed: bool,
    local: Shape,
    transform: Transform,
    filter: Filter,
    kind: ColliderKind,
    reshaped: bool,
    /// What the plain world was last given (the plugin's sync sees only the frame's end).
    handle: Option<Handle>,
    synced: Pose,
    synced_filter: Filter,
}

/// Brings the plain world to the subject as the plugin's sync does at the end of a frame.
fn sync_plain(plain: &mut CollisionWorld<Entity>, s: &mut Subject) {
    let (Some(entity), false) = (s.entity, s.removed) else {
        return;
    };
    let now = pose(&s.transform);
    match s.handle {
        None if s.kind == ColliderKind::Fast => {
            // As its local shape, placed by its first pose (no sweep): later poses sweep it.
            let h = plain
                .insert(s.local.clone(), s.filter, s.kind.into(), entity)
                .unwrap();
            plain.set_pose(h, now).unwrap();
            s.handle = Some(h);
        }
        None => {
            let placed = s.local.transformed(&now);
            s.handle = Some(
                plain
                    .insert(placed, s.filter, s.kind.into(), entity)
                    .unwrap(),
            );
        }
        Some(h) => {
            let fast = s.kind == ColliderKind::Fast;
            let fast_move = fast && now.rotation == s.synced.rotation;
            if fast && s.reshaped {
                // A new local shape, placed afresh (no sweep).
                plain.set_shape(h, s.local.clone()).unwrap();
                plain.set_pose(h, now).unwrap();
            } else if fast && now.rotation != s.synced.rotation {
                // Turned: swept turning.
                plain.set_pose(h, now).unwrap();
            } else if s.reshaped || (now != s.synced && !fast_move) {
                plain.set_shape(h, s.local.transformed(&now)).unwrap();
            } else if now != s.synced {
                plain.move_by(h, now.position - s.synced.position).unwrap();
            }
            if s.filter != s.synced_filter {
                plain.set_filter(h, s.filter).unwrap();
            }
        }
    }
    s.reshaped = false;
    s.synced = now;
    s.synced_filter = s.filter;
}

fn run(order: &[Step], frames_after: &[bool], kind: ColliderKind) {
    let mut app = app(BroadPhase::grid(4.0).unwrap());
    let mut plain: CollisionWorld<Entity> = CollisionWorld::new(BroadPhase::grid(4.0).unwrap());
    plain.set_contacts(true);
    // Neighbours: a static wall, a dynamic box and a fast disc, the subject among them.
    let mut neighbours = Vec::new();
    for (shape, at, kind, layer) in [
        (
            Shape::from(Aabb::from_rect(-1.0, -4.0, 2.0, 8.0).unwrap()),
            Vec2::new(4.0, 0.0),
            ColliderKind::Static,
            1,
        ),
        (
            Aabb::from_rect(-1.0, -1.0, 2.0, 2.0).unwrap().into(),
            Vec2::new(0.0, 3.0),
            ColliderKind::Dynamic,
            2,
        ),
        (
            Circle::new(Vec2::ZERO, 1.0).unwrap().into(),
            Vec2::new(-3.0, 0.0),
            ColliderKind::Fast,
            4,
        ),
    ] {
        let filter = Filter::new(layer, u64::MAX);
        let transform = Transform::from_xyz(at.x, at.y, 0.0);
        let e = app
            .world_mut()
            .spawn((
                Collider::new(shape.clone()),
                transform,
                CollisionLayers(filter),
                kind,
            ))
            .id();
        let placed = shape.transformed(&pose(&transform));
        let h = plain
            .insert(placed, filter, ObjectKind::from(kind), e)
            .unwrap();
        neighbours.push((e, h));
    }
    let mut s = Subject {
        entity: None,
        removed: false,
        local: Aabb::from_rect(-2.0, -0.5, 4.0, 1.0).unwrap().into(),
        transform: Transform::from_xyz(0.0, 0.0, 0.0),
        filter: Filter::DEFAULT,
        kind,
        reshaped: false,
        handle: None,
        synced: Pose::IDENTITY,
        synced_filter: Filter::DEFAULT,
    };
    let frame = |app: &mut bevy_app::App, plain: &mut CollisionWorld<Entity>, s: &mut Subject| {
        let mut gone = Vec::new();
        if let (Some(e), true, Some(h)) = (s.entity, s.removed, s.handle) {
            plain.remove(h).unwrap();
            gone.push((h, e));
            s.handle = None;
        }
        sync_plain(plain, s);
        app.update();
        plain.update();
        let (started, ended) = messages(app);
        let started: Vec<_> = started.iter().map(|m| (m.a, m.b)).collect();
        let ended: Vec<_> = ended.iter().map(|m| (m.a, m.b)).collect();
        let at = format!("{order:?} {frames_after:?} {kind:?}");
        assert_eq!(started, entity_pairs(plain, plain.began(), &gone), "{at}");
        assert_eq!(ended, entity_pairs(plain, plain.ended(), &gone), "{at}");
        let collisions = app.world().resource::<Collisions>();
        let mut pairs: Vec<_> = collisions
            .pairs()
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        pairs.sort_unstable();
        let plain_pairs: Vec<_> = plain.pairs().iter().map(|p| (p.a, p.b)).collect();
        assert_eq!(pairs, entity_pairs(plain, &plain_pairs, &[]), "{at}");
        assert_eq!(collisions.world().len(), plain.len(), "{at}");
        if let Some(e) = s.entity {
            assert_eq!(collisions.handle(e), s.handle, "{at}");
        }
        // Queries through the subject's place and its neighbours.
        let centre = s.transform.translation.truncate();
        let named = |list: Vec<Handle>| {
            let mut v: Vec<Entity> = list.iter().map(|&h| *plain.data(h).unwrap()).collect();
            v.sort_unstable();
            v
        };
        let mask = u64::MAX;
        assert_eq!(
            collisions.entities_at_point(centre, mask),
            named(plain.objects_at_point(centre, mask)),
            "{at}"
        );
        let region: Shape = Circle::new(centre, 2.5).unwrap().into();
        assert_eq!(
            collisions.entities_overlapping(&region, mask),
            named(plain.objects_overlapping(&region, mask)),
            "{at}"
        );
        let ray = Ray::new(Vec2::new(-8.0, 0.25), Vec2::new(16.0, 0.0));
        let hit = plain
            .cast_ray(&ray, 1.0, mask)
            .map(|(h, hit)| (*plain.data(h).unwrap(), hit));
        assert_eq!(collisions.cast_ray(&ray, 1.0, mask), hit, "{at}");
    };
    for (&step, &then_frame) in order.iter().zip(frames_after) {
        let live = s.entity.filter(|_| !s.removed);
        match step {
            Step::Spawn => {
                let e = app
                    .world_mut()
                    .spawn((
                        Collider::new(s.local.clone()),
                        s.transform,
                        CollisionLayers(s.filter),
                        s.kind,
                    ))
                    .id();
                s.entity = Some(e);
            }
            Step::Move | Step::Rotate => {
                if step == Step::Move {
                    s.transform.translation += bevy_math::Vec3::new(1.5, -0.5, 0.0);
                } else {
                    s.transform.rotation *= Quat::from_rotation_z(0.7);
                }
                if let Some(e) = live {
                    *app.world_mut().get_mut::<Transform>(e).unwrap() = s.transform;
                }
            }
            Step::Layers => {
                // Out of the static wall's layer: its pair with the wall ends.
                s.filter = Filter::new(8, !1);
                if let Some(e) = live {
                    app.world_mut()
                        .entity_mut(e)
                        .insert(CollisionLayers(s.filter));
                }
            }
            Step::Reshape => {
                s.local = Circle::new(Vec2::new(0.5, 0.0), 1.5).unwrap().into();
                if let Some(e) = live {
                    app.world_mut()
                        .entity_mut(e)
                        .insert(Collider::new(s.local.clone()));
                    s.reshaped = s.handle.is_some();
                }
            }
            Step::Remove => {
                if let Some(e) = live {
                    // Despawned, or (for an odd number of frames asked for) its collider removed.
                    if frames_after.iter().filter(|&&f| f).count() % 2 == 0 {
                        app.world_mut().despawn(e);
                    } else {
                        app.world_mut().entity_mut(e).remove::<Collider>();
                    }
                    s.removed = true;
                }
            }
        }
        if then_frame {
            frame(&mut app, &mut plain, &mut s);
        }
    }
    // Two more frames: the last steps' effects, then a quiet frame.
    frame(&mut app, &mut plain, &mut s);
    frame(&mut app, &mut plain, &mut s);
    let collisions = app.world().resource::<Collisions>();
    // Despawned or stripped, the subject left nothing behind (a removal before its spawn
    // removed nothing: it is still there).
    let subject_left = usize::from(!s.removed);
    assert_eq!(collisions.world().len(), neighbours.len() + subject_left);
}

#[test]
fn every_order_of_steps_gives_the_plain_worlds_answers() {
    let mut rng = Rng(2024);
    let orders = permutations(&STEPS);
    assert_eq!(orders.len(), 720);
    for (i, order) in orders.iter().enumerate() {
        // Frames between steps: a random choice per order, and for every eighth order none at
        // all and one after every step.
        let frames: Vec<bool> = match i % 8 {
            0 => vec![false; STEPS.len()],
            1 => vec![true; STEPS.len()],
            _ => (0..STEPS.len()).map(|_| rng.chance(0.5)).collect(),
        };
        let kind = [
            ColliderKind::Dynamic,
            ColliderKind::Fast,
            ColliderKind::Static,
        ][i % 3];
        run(order, &frames, kind);
    }
}
