//! What the benchmarks share: the scenes (seeded), how their bodies move, and the clock.
//! `overhead.rs` uses it, and so does the avian2d comparison (`avian/`), by path.
#![allow(dead_code)]

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_transform::components::Transform;
use bevy_transform::TransformPlugin;
use collide2d::math::Vec2;
use collide2d::BroadPhase;
use collide2d::{Aabb, Circle, Filter, ObjectKind, Shape};
use collide2d_bevy::{CollidePlugin, Collider, ColliderKind, CollisionLayers, Collisions};
use std::hint::black_box;
use std::time::Instant;

pub const BULLET: u64 = 1;
pub const TARGET: u64 = 2;
pub const TILE: u64 = 4;
pub const MOVER: u64 = 8;

/// One object of a scene: its shape about its origin, where it starts and how it moves.
#[derive(Clone)]
pub struct Body {
    pub local: Shape,
    pub at: Vec2,
    pub velocity: Vec2,
    pub filter: Filter,
    pub kind: ObjectKind,
}

#[derive(Component)]
pub struct Velocity(pub Vec2);

/// A seeded generator (xorshift).
pub struct Rng(pub u64);
impl Rng {
    pub fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 1_000_000) as f32 / 1_000_000.0
    }
}

pub const SIDE: f32 = 1000.0;

/// Where a body is after moving one frame, wrapped into the square.
pub fn step(at: Vec2, velocity: Vec2) -> Vec2 {
    (at + velocity).rem_euclid(Vec2::splat(SIDE))
}

pub fn bullets(count: usize, targets: usize) -> Vec<Body> {
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
pub fn tiles_and_movers(tiles: usize, movers: usize) -> Vec<Body> {
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
pub fn cpu_ns() -> Option<u64> {
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
pub fn cpu_ns() -> Option<u64> {
    None
}

/// Median milliseconds (of CPU time where it can be read, else wall time) of `frames` calls
/// of `frame`, after `frames / 4` unmeasured ones.
pub fn median_ms(frames: usize, mut frame: impl FnMut()) -> f64 {
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

pub fn move_bodies(mut bodies: Query<(&mut Transform, &Velocity)>) {
    for (mut t, v) in &mut bodies {
        let at = step(t.translation.truncate(), v.0);
        t.translation = at.extend(0.0);
    }
}

/// Median milliseconds of a frame of an app of `TransformPlugin` moving the bodies, with
/// `CollidePlugin` on `broad` when `plugin` is set, and the colliding pairs at the end.
pub fn app(bodies: &[Body], broad: BroadPhase, plugin: bool, frames: usize) -> (f64, usize) {
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

/// The command line: `[FRAMES] [WORD]`, frames per measurement and a word that picks the
/// scenes whose name has it ("bullets", "static").
pub struct Args {
    pub frames: usize,
    only: Option<String>,
}

impl Args {
    /// The process's arguments, `frames` when none is a number.
    pub fn read(frames: usize) -> Args {
        let args: Vec<String> = std::env::args().skip(1).collect();
        Args {
            frames: args.iter().find_map(|a| a.parse().ok()).unwrap_or(frames),
            only: args
                .into_iter()
                .find(|a| a.parse::<usize>().is_err() && !a.starts_with('-')),
        }
    }

    /// Whether the scene `name` is to run.
    pub fn wants(&self, name: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|word| name.contains(word.as_str()))
    }
}
