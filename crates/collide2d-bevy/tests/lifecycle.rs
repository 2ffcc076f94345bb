//! Colliders entering and leaving the world: no object left behind, kinds and layers
//! changed and removed, refused shapes.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use collide2d::math::Vec2;
use collide2d::{BroadPhase, Circle, Filter, ObjectKind};
use collide2d_bevy::{Collider, ColliderKind, CollisionLayers, Collisions};
use common::{app, messages, shape, Rng};

fn disc(r: f32) -> Collider {
    Collider::new(Circle::new(Vec2::ZERO, r).unwrap())
}

#[test]
fn a_thousand_spawned_and_despawned_leave_nothing_behind() {
    let mut rng = Rng(99);
    let mut app = app(BroadPhase::grid(8.0).unwrap());
    let mut live: Vec<Entity> = Vec::new();
    let mut spawned = 0;
    for frame in 0..400 {
        // Spawn while under a thousand, despawn at random (sometimes right after spawning,
        // before the plugin saw the entity), and remove colliders from live entities.
        for _ in 0..rng.below(9).min(1000 - spawned) {
            let t = Transform::from_xyz(rng.range(0.0, 200.0), rng.range(0.0, 200.0), 0.0);
            let e = app
                .world_mut()
                .spawn((Collider::new(shape(&mut rng, 8.0)), t))
                .id();
            spawned += 1;
            if rng.chance(0.1) {
                app.world_mut().despawn(e);
            } else {
                live.push(e);
            }
        }
        for _ in 0..rng.below(if frame > 300 { 40 } else { 8 }).min(live.len()) {
            let e = live.swap_remove(rng.below(live.len()));
            if rng.chance(0.3) {
                app.world_mut().entity_mut(e).remove::<Collider>();
            } else {
                app.world_mut().despawn(e);
            }
        }
        for &e in &live {
            if rng.chance(0.3) {
                app.world_mut()
                    .get_mut::<Transform>(e)
                    .unwrap()
                    .translation
                    .x += 1.0;
            }
        }
        app.update();
        messages(&mut app);
        let collisions = app.world().resource::<Collisions>();
        assert_eq!(collisions.world().len(), live.len(), "frame {frame}");
    }
    for e in live.drain(..) {
        app.world_mut().despawn(e);
    }
    app.update();
    let collisions = app.world().resource::<Collisions>();
    assert_eq!(spawned, 1000);
    assert!(collisions.world().is_empty());
    assert_eq!(collisions.pairs().count(), 0);
}

#[test]
fn despawning_ends_its_pairs_naming_the_despawned_entity() {
    let mut app = app(BroadPhase::default());
    let a = app.world_mut().spawn(disc(1.0)).id();
    let b = app
        .world_mut()
        .spawn((disc(1.0), Transform::from_xyz(1.5, 0.0, 0.0)))
        .id();
    app.update();
    let (started, _) = messages(&mut app);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].other(a), Some(b));
    app.world_mut().despawn(b);
    app.update();
    let (started, ended) = messages(&mut app);
    assert!(started.is_empty());
    assert_eq!((ended[0].a, ended[0].b), (a.min(b), a.max(b)));
    assert!(app.world().resource::<Collisions>().pairs_of(a).is_empty());
}

#[test]
fn layers_and_kind_changed_and_removed() {
    let mut app = app(BroadPhase::default());
    let a = app
        .world_mut()
        .spawn((disc(1.0), CollisionLayers::new(1, 2)))
        .id();
    let b = app
        .world_mut()
        .spawn((
            disc(1.0),
            Transform::from_xyz(1.0, 0.0, 0.0),
            CollisionLayers::new(1, 1),
        ))
        .id();
    app.update();
    // a's mask misses b's layer: no pair.
    assert!(messages(&mut app).0.is_empty());
    app.world_mut().entity_mut(a).remove::<CollisionLayers>();
    app.update();
    let collisions = app.world().resource::<Collisions>();
    let handle = collisions.handle(a).unwrap();
    assert_eq!(collisions.world().filter(handle).unwrap(), Filter::DEFAULT);
    assert!(collisions.colliding(a, b));
    // Both static: two static objects never pair, so the pair ends.
    app.world_mut().entity_mut(a).insert(ColliderKind::Static);
    app.world_mut().entity_mut(b).insert(ColliderKind::Static);
    app.update();
    let collisions = app.world().resource::<Collisions>();
    let handle = collisions.handle(b).unwrap();
    assert_eq!(collisions.world().kind(handle).unwrap(), ObjectKind::Static);
    assert!(!collisions.colliding(a, b));
    assert_eq!(messages(&mut app).1.len(), 1);
    app.world_mut().entity_mut(b).remove::<ColliderKind>();
    app.update();
    assert!(app.world().resource::<Collisions>().colliding(b, a));
}

#[test]
fn a_collider_at_a_non_finite_place_is_refused_then_taken_when_finite() {
    let mut app = app(BroadPhase::default());
    let e = app
        .world_mut()
        .spawn((disc(1.0), Transform::from_xyz(f32::NAN, 0.0, 0.0)))
        .id();
    app.update();
    let collisions = app.world().resource::<Collisions>();
    assert_eq!(collisions.refused().len(), 1);
    assert_eq!(collisions.refused()[0].0, e);
    assert!(collisions.handle(e).is_none());
    app.world_mut()
        .get_mut::<Transform>(e)
        .unwrap()
        .translation
        .x = 3.0;
    app.update();
    let collisions = app.world().resource::<Collisions>();
    assert!(collisions.refused().is_empty());
    assert!(collisions.handle(e).is_some());
}

#[test]
fn a_fast_bullet_is_swept_through_a_thin_wall() {
    let mut app = app(BroadPhase::grid(4.0).unwrap());
    let wall = collide2d::Aabb::from_rect(20.0, -10.0, 2.0, 20.0).unwrap();
    let wall = app
        .world_mut()
        .spawn((Collider::new(wall), ColliderKind::Static))
        .id();
    let bullet = app.world_mut().spawn((disc(0.5), ColliderKind::Fast)).id();
    let slow = app
        .world_mut()
        .spawn((disc(0.5), Transform::from_xyz(0.0, 5.0, 0.0)))
        .id();
    app.update();
    messages(&mut app);
    // 50 units in one frame: from x = 0 to x = 50, over the wall at x = 20..22.
    for e in [bullet, slow] {
        app.world_mut()
            .get_mut::<Transform>(e)
            .unwrap()
            .translation
            .x = 50.0;
    }
    app.update();
    let (started, _) = messages(&mut app);
    assert_eq!(started.len(), 1, "only the fast one is swept");
    assert_eq!(started[0].other(wall), Some(bullet));
    let pairs = app.world().resource::<Collisions>().pairs_of(bullet);
    let toi = pairs[0].toi.unwrap();
    assert!((toi - 19.5 / 50.0).abs() < 1e-4, "{toi}");
}

/// A child's collider is placed by its `GlobalTransform`, its parent's pose composed with its
/// own: `TransformPlugin` computes it (with `MinimalPlugins` alone it would stay the identity).
#[test]
fn a_child_collider_is_placed_by_its_parent_and_its_own_transform() {
    let mut app = app(BroadPhase::default());
    let turned = bevy_math::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(10.0, 0.0, 0.0).with_rotation(turned))
        .id();
    let bar = collide2d::Aabb::from_rect(-1.0, -0.25, 2.0, 0.5).unwrap();
    let child = app
        .world_mut()
        .spawn((
            Collider::new(bar),
            Transform::from_xyz(4.0, 0.0, 0.0),
            ChildOf(parent),
        ))
        .id();
    app.update();
    // The parent turned a quarter: the child's offset (4, 0) is (0, 4) from the parent, and
    // its bar (2 along x, 0.5 along y) stands upright.
    let collisions = app.world().resource::<Collisions>();
    let placed = collisions.world().shape(collisions.handle(child).unwrap());
    let b = placed.unwrap().aabb();
    let near = |p: Vec2, q: Vec2| (p - q).abs().max_element() < 1e-4;
    assert!(near(b.min(), Vec2::new(9.75, 3.0)), "{b:?}");
    assert!(near(b.max(), Vec2::new(10.25, 5.0)), "{b:?}");
    // Moving the parent alone moves the child's collider.
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = 20.0;
    app.update();
    let collisions = app.world().resource::<Collisions>();
    assert_eq!(
        collisions.entities_at_point(Vec2::new(20.0, 4.5), u64::MAX),
        [child]
    );
    assert!(collisions
        .entities_at_point(Vec2::new(10.0, 4.5), u64::MAX)
        .is_empty());
}
