//! The plugin's cost per frame over a bare `CollisionWorld` doing the same work (a benchmark,
//! not a test): `cargo bench --bench overhead [FRAMES] [WORD]` (on this crate's own
//! toolchain; WORD picks the scenes whose name has it, e.g. `static`).
//!
//! Each scene is timed three ways in the same run, medians over the frames of the thread's CPU
//! time (Unix; wall time elsewhere):
//! - `world`: a bare `CollisionWorld`, each moved object placed by its new pose
//!   (`set_pose`, as the plugin does), then `update`;
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

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`). On a machine shared
/// with other builds a frame's wall time counts the time other processes ran; its CPU time
/// does not. (Bevy here has no `multi_threaded` feature: every system runs on this thread.)
#[cfg(unix)]
fn cpu_ns() -> Option<u64> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec for the call's duration.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (status == 0).then(|| now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64)
}

/// Elsewhere: no thread clock, wall time instead.
#[cfg(not(unix))]
fn cpu_ns() -> Option<u64> {
    None
}

/// Median milliseconds (of CPU time where it can be read, else wall time) of `frames` calls
/// of `frame`, after `frames / 4` unmeasured ones.
fn median_ms(frames: usize, mut frame: impl FnMut()) -> f64 {
    for _ in 0..frames / 4 {
        frame();
    }
    let mut times: Vec<f64> = (0..frames)
        .map(|_| {
            let (start, cpu) = (Instant::now(), cpu_ns());
            frame();
            match (cpu, cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 / 1e6,
                _ => start.elapsed().as_secs_f64() * 1e3,
            }
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[frames / 2]
}

fn bare_world(bodies: &[Body], broad: BroadPhase, frames: usize) -> (f64, usize) {
    let mut world = CollisionWorld::new(broad);
    let mut moving = Vec::new();
    for b in bodies {
        // As the plugin does: a static shape in placed, a moving one as its local shape
        // then placed by its pose (the world keeps it and places it in place each frame).
        let pose = Pose::from_translation(b.at);
        let h = if b.kind == ObjectKind::Static {
            world.insert(b.local.transformed(&pose), b.filter, b.kind, ())
        } else {
            let h = world.insert(b.local.clone(), b.filter, b.kind, ()).unwrap();
            world.set_pose(h, pose).map(|()| h)
        }
        .unwrap();
        if b.velocity != Vec2::ZERO {
            moving.push((h, b.at, b.velocity));
        }
    }
    world.update();
    let mut pairs = 0;
    let ms = median_ms(frames, || {
        for (h, at, v) in &mut moving {
            *at = step(*at, *v);
            world.set_pose(*h, Pose::from_translation(*at)).unwrap();
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

/// One scene's times: the bare world's and the plugin's cost (with plugin - Bevy alone).
struct Times {
    world: f64,
    plugin: f64,
}

fn scene(name: &str, bodies: &[Body], broad: BroadPhase, frames: usize) -> Times {
    let (world, world_pairs) = bare_world(bodies, broad, frames);
    let (bevy, _) = app(bodies, broad, false, frames);
    let (plugin, plugin_pairs) = app(bodies, broad, true, frames);
    let cost = plugin - bevy;
    println!(
        "{name}: world {world:.3} ms ({world_pairs} pairs), bevy alone {bevy:.3} ms, with plugin {plugin:.3} ms ({plugin_pairs} pairs): plugin cost {cost:.3} ms = {:.2}x the bare world",
        cost / world
    );
    Times {
        world,
        plugin: cost,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let frames = args.iter().find_map(|a| a.parse().ok()).unwrap_or(60);
    // A word among the arguments picks the scenes whose name has it ("bullets", "static").
    let only = args
        .iter()
        .find(|a| a.parse::<usize>().is_err() && !a.starts_with('-'));
    let wanted = |name: &str| only.is_none_or(|word| name.contains(word.as_str()));
    let grid = BroadPhase::grid(4.0).unwrap();
    let name = "20,000 bullets + 200 targets";
    if wanted(name) {
        scene(name, &bullets(20_000, 200), grid, frames);
    }
    let (alone, mixed) = ("1,000 movers alone", "100,000 static + 1,000 movers");
    let alone = wanted(alone).then(|| scene(alone, &tiles_and_movers(0, 1_000), grid, frames));
    let mixed =
        wanted(mixed).then(|| scene(mixed, &tiles_and_movers(100_000, 1_000), grid, frames));
    if let (Some(alone), Some(mixed)) = (alone, mixed) {
        println!(
            "100,000 static + 1,000 movers over 1,000 movers alone: bare world {:.2}x, plugin cost {:.2}x",
            mixed.world / alone.world,
            mixed.plugin / alone.plugin
        );
    }
}
