//! The plugin's cost per frame over a bare `CollisionWorld` doing the same work (a benchmark,
//! not a test): `cargo bench --bench overhead` (on this crate's own toolchain).
//!
//! Each scene is timed three ways in the same run, medians over the frames:
//! - `world`: a bare `CollisionWorld`, each moved object given its new place
//!   (`set_shape(local.transformed(&pose))`), then `update`;
//! - `bevy`: an app moving the same entities' `Transform`s, with Bevy's transform propagation
//!   and no collision plugin (what the game pays anyway);
//! - `plugin`: the same app with `CollidePlugin`.
//!
//! The plugin's cost is `plugin - bevy`; its overhead is that over `world`.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::hint::black_box;
use std::time::Instant;

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use bevy_transform::TransformPlugin;
use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind, Shape};
use collide2d_bevy::{CollidePlugin, Collider, ColliderKind, CollisionLayers, Collisions};

const BULLET: u64 = 1;
const TARGET: u64 = 2;
const TILE: u64 = 4;
const MOVER: u64 = 8;

/// One object of a scene: its shape about its origin, where it starts and how it moves.
#[derive(Clone)]
struct Body {
    local: Shape,
    at: Vec2,
    velocity: Vec2,
    filter: Filter,
    kind: ObjectKind,
}

#[derive(Component)]
struct Velocity(Vec2);

/// A seeded generator (xorshift).
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 1_000_000) as f32 / 1_000_000.0
    }
}

const SIDE: f32 = 1000.0;

/// Where a body is after moving one frame, wrapped into the square.
fn step(at: Vec2, velocity: Vec2) -> Vec2 {
    (at + velocity).rem_euclid(Vec2::splat(SIDE))
}

fn bullets(count: usize, targets: usize) -> Vec<Body> {
    let mut rng = Rng(7);
    let mut bodies = Vec::new();
    for i in 0..count + targets {
        let at = Vec2::new(rng.unit() * SIDE, rng.unit() * SIDE);
        let velocity = Vec2::new(rng.unit() - 0.5, rng.unit() - 0.5) * 6.0;
        bodies.push(if i < count {
            Body {
                local: Circle::new(Vec2::ZERO, 1.0).unwrap().into(),
                at,
                velocity,
                filter: Filter::new(BULLET, TARGET),
                kind: ObjectKind::Dynamic,
            }
        } else {
            Body {
                local: Aabb::from_rect(-8.0, -8.0, 16.0, 16.0).unwrap().into(),
                at,
                velocity: velocity * 0.2,
                filter: Filter::new(TARGET, BULLET),
                kind: ObjectKind::Dynamic,
            }
        });
    }
    bodies
}

/// `tiles` static 2x2 tiles on a lattice, and `movers` circles moving among them.
fn tiles_and_movers(tiles: usize, movers: usize) -> Vec<Body> {
    let mut rng = Rng(11);
    let per_row = (tiles as f32).sqrt().ceil() as usize;
    let pitch = SIDE / per_row as f32;
    let mut bodies: Vec<Body> = (0..tiles)
        .map(|i| Body {
            local: Aabb::from_rect(-1.0, -1.0, 2.0, 2.0).unwrap().into(),
            at: Vec2::new((i % per_row) as f32, (i / per_row) as f32) * pitch,
            velocity: Vec2::ZERO,
            filter: Filter::new(TILE, MOVER),
            kind: ObjectKind::Static,
        })
        .collect();
    for _ in 0..movers {
        bodies.push(Body {
            local: Circle::new(Vec2::ZERO, 1.5).unwrap().into(),
            at: Vec2::new(rng.unit() * SIDE, rng.unit() * SIDE),
            velocity: Vec2::new(rng.unit() - 0.5, rng.unit() - 0.5) * 4.0,
            filter: Filter::new(MOVER, TILE | MOVER),
            kind: ObjectKind::Dynamic,
        });
    }
    bodies
}

/// Median milliseconds of `frames` calls of `frame`, after `warm` unmeasured ones.
fn median_ms(frames: usize, mut frame: impl FnMut()) -> f64 {
    for _ in 0..frames / 4 {
        frame();
    }
    let mut times: Vec<f64> = (0..frames)
        .map(|_| {
            let start = Instant::now();
            frame();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[frames / 2]
}

fn bare_world(bodies: &[Body], broad: BroadPhase, frames: usize) -> (f64, usize) {
    let mut world = CollisionWorld::new(broad);
    let mut moving = Vec::new();
    for b in bodies {
        let h = world
            .insert(
                b.local.transformed(&Pose::from_translation(b.at)),
                b.filter,
                b.kind,
                (),
            )
            .unwrap();
        if b.velocity != Vec2::ZERO {
            moving.push((h, b.local.clone(), b.at, b.velocity));
        }
    }
    world.update();
    let mut pairs = 0;
    let ms = median_ms(frames, || {
        for (h, local, at, v) in &mut moving {
            *at = step(*at, *v);
            world
                .set_shape(*h, local.transformed(&Pose::from_translation(*at)))
                .unwrap();
        }
        pairs = world.update().pairs;
    });
    (ms, pairs)
}

fn move_bodies(mut bodies: Query<(&mut Transform, &Velocity)>) {
    for (mut t, v) in &mut bodies {
        let at = step(t.translation.truncate(), v.0);
        t.translation = at.extend(0.0);
    }
}

fn app(bodies: &[Body], broad: BroadPhase, plugin: bool, frames: usize) -> (f64, usize) {
    let mut app = App::new();
    app.add_plugins(TransformPlugin)
        .add_systems(Update, move_bodies);
    if plugin {
        app.add_plugins(CollidePlugin {
            broad_phase: broad,
            contacts: false,
        });
    }
    for b in bodies {
        let kind = match b.kind {
            ObjectKind::Static => ColliderKind::Static,
            ObjectKind::Fast => ColliderKind::Fast,
            _ => ColliderKind::Dynamic,
        };
        let mut e = app.world_mut().spawn((
            Collider::new(b.local.clone()),
            Transform::from_translation(b.at.extend(0.0)),
            CollisionLayers(b.filter),
            kind,
        ));
        if b.velocity != Vec2::ZERO {
            e.insert(Velocity(b.velocity));
        }
    }
    app.update();
    let ms = median_ms(frames, || app.update());
    let pairs = app
        .world()
        .get_resource::<Collisions>()
        .map_or(0, |c| c.world().pairs().len());
    (black_box(ms), pairs)
}

fn scene(name: &str, bodies: &[Body], broad: BroadPhase, frames: usize) -> f64 {
    let (world, world_pairs) = bare_world(bodies, broad, frames);
    let (bevy, _) = app(bodies, broad, false, frames);
    let (plugin, plugin_pairs) = app(bodies, broad, true, frames);
    let cost = plugin - bevy;
    println!(
        "{name}: world {world:.3} ms ({world_pairs} pairs), bevy alone {bevy:.3} ms, with plugin {plugin:.3} ms ({plugin_pairs} pairs): plugin cost {cost:.3} ms = {:.2}x the bare world",
        cost / world
    );
    cost
}

fn main() {
    let frames = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(60);
    let grid = BroadPhase::grid(4.0).unwrap();
    scene(
        "20,000 bullets + 200 targets",
        &bullets(20_000, 200),
        grid,
        frames,
    );
    let alone = scene(
        "1,000 movers alone",
        &tiles_and_movers(0, 1_000),
        grid,
        frames,
    );
    let mixed = scene(
        "100,000 static + 1,000 movers",
        &tiles_and_movers(100_000, 1_000),
        grid,
        frames,
    );
    println!(
        "plugin cost, 100,000 static + 1,000 movers over 1,000 movers alone: {:.2}x",
        mixed / alone
    );
}
