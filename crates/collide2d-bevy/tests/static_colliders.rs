//! Static colliders that have settled (frames passed since they were synced) are passed over
//! by the sync a table block at a time, yet one moved, changed in place or despawned among
//! hundreds of unmoved ones is still brought into the world at the next frame.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, Circle, Filter, ObjectKind};
use collide2d_bevy::{Collider, ColliderKind, CollisionLayers, Collisions};
use common::{app, messages};

/// More tiles than two of the sync's blocks of rows (256), all in one table.
const TILES: usize = 700;

fn tile() -> Collider {
    Collider::new(Aabb::from_rect(-0.5, -0.5, 1.0, 1.0).unwrap())
}

fn tile_at(i: usize) -> Vec2 {
    Vec2::new(2.0 * i as f32, 0.0)
}

/// An app with `TILES` static tiles in a row, a few frames run so all are settled.
fn settled_tiles() -> (bevy_app::App, Vec<Entity>) {
    let mut app = app(BroadPhase::grid(4.0).unwrap());
    let tiles = (0..TILES)
        .map(|i| {
            let at = tile_at(i);
            let t = Transform::from_xyz(at.x, at.y, 0.0);
            app.world_mut()
                .spawn((tile(), t, CollisionLayers::new(1, 1), ColliderKind::Static))
                .id()
        })
        .collect();
    for _ in 0..3 {
        app.update();
    }
    messages(&mut app);
    (app, tiles)
}

/// The box of `e`'s shape in the world.
fn placed(app: &bevy_app::App, e: Entity) -> Aabb {
    let collisions = app.world().resource::<Collisions>();
    let handle = collisions.handle(e).unwrap();
    collisions.world().shape(handle).unwrap().aabb()
}

/// Every tile but `except` is where it was spawned, its filter and kind untouched.
fn others_unchanged(app: &bevy_app::App, tiles: &[Entity], except: &[Entity]) {
    let collisions = app.world().resource::<Collisions>();
    for (i, &e) in tiles.iter().enumerate() {
        if except.contains(&e) {
            continue;
        }
        let handle = collisions.handle(e).unwrap();
        let b = collisions.world().shape(handle).unwrap().aabb();
        assert_eq!(b.min(), tile_at(i) - 0.5, "tile {i}");
        assert_eq!(
            collisions.world().filter(handle).unwrap(),
            Filter::new(1, 1)
        );
        assert_eq!(collisions.world().kind(handle).unwrap(), ObjectKind::Static);
    }
}

#[test]
fn a_settled_static_moved_by_its_transform_follows_and_despawned_leaves() {
    let (mut app, tiles) = settled_tiles();
    // In the third block of rows, not its first row.
    let moved = tiles[600];
    app.world_mut()
        .get_mut::<Transform>(moved)
        .unwrap()
        .translation
        .y = 50.0;
    app.update();
    assert_eq!(placed(&app, moved).min(), Vec2::new(1199.5, 49.5));
    let collisions = app.world().resource::<Collisions>();
    assert_eq!(
        collisions.entities_at_point(Vec2::new(1200.0, 50.0), 1),
        [moved]
    );
    assert!(collisions.entities_at_point(tile_at(600), 1).is_empty());
    others_unchanged(&app, &tiles, &[moved]);
    // A mover meets it at its new place only.
    let mover = app
        .world_mut()
        .spawn((
            Collider::new(Circle::new(Vec2::ZERO, 1.0).unwrap()),
            Transform::from_xyz(1200.0, 51.0, 0.0),
            CollisionLayers::new(1, 1),
        ))
        .id();
    app.update();
    let (started, _) = messages(&mut app);
    assert_eq!(started.len(), 1);
    assert_eq!(started[0].other(mover), Some(moved));
    // Despawned: it leaves the world and its pair ends. Despawning another tile moves the
    // table's last row into its place, unchanged: nothing else is touched.
    app.world_mut().despawn(moved);
    app.world_mut().despawn(tiles[10]);
    app.update();
    let (_, ended) = messages(&mut app);
    assert_eq!(ended.len(), 1);
    assert_eq!(ended[0].other(mover), Some(moved));
    let collisions = app.world().resource::<Collisions>();
    assert_eq!(collisions.world().len(), TILES - 2 + 1);
    assert!(collisions.handle(moved).is_none());
    assert_eq!(
        collisions.entities_at_point(Vec2::new(1200.0, 50.0), 1),
        [mover]
    );
    others_unchanged(&app, &tiles, &[moved, tiles[10]]);
}

#[test]
fn a_settled_static_changed_in_place_is_synced() {
    let (mut app, tiles) = settled_tiles();
    // Its shape, through `Mut<Collider>`.
    let grown = tiles[300];
    app.world_mut().get_mut::<Collider>(grown).unwrap().shape =
        Aabb::from_rect(-1.0, -1.0, 2.0, 2.0).unwrap().into();
    app.update();
    assert_eq!(placed(&app, grown).min(), tile_at(300) - 1.0);
    others_unchanged(&app, &tiles, &[grown]);
    // Its layers, through `Mut<CollisionLayers>`.
    let refiltered = tiles[70];
    app.world_mut()
        .get_mut::<CollisionLayers>(refiltered)
        .unwrap()
        .0 = Filter::new(2, 2);
    app.update();
    let collisions = app.world().resource::<Collisions>();
    let handle = collisions.handle(refiltered).unwrap();
    assert_eq!(
        collisions.world().filter(handle).unwrap(),
        Filter::new(2, 2)
    );
    others_unchanged(&app, &tiles, &[grown, refiltered]);
    // Its kind, through `Mut<ColliderKind>`: the last row of the table.
    let woken = tiles[TILES - 1];
    *app.world_mut().get_mut::<ColliderKind>(woken).unwrap() = ColliderKind::Dynamic;
    app.update();
    let collisions = app.world().resource::<Collisions>();
    let handle = collisions.handle(woken).unwrap();
    assert_eq!(
        collisions.world().kind(handle).unwrap(),
        ObjectKind::Dynamic
    );
    others_unchanged(&app, &tiles, &[grown, refiltered, woken]);
}

#[test]
fn a_settled_static_child_follows_its_moved_parent() {
    let (mut app, tiles) = settled_tiles();
    let parent = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 10.0, 0.0))
        .id();
    let child = app
        .world_mut()
        .spawn((tile(), ColliderKind::Static, ChildOf(parent)))
        .id();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(placed(&app, child).min(), Vec2::new(-0.5, 9.5));
    app.world_mut()
        .get_mut::<Transform>(parent)
        .unwrap()
        .translation
        .x = 7.0;
    app.update();
    assert_eq!(placed(&app, child).min(), Vec2::new(6.5, 9.5));
    others_unchanged(&app, &tiles, &[]);
}
