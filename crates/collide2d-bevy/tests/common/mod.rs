//! Shared by the headless tests: an app without window or renderer, a seeded generator and
//! random colliders.
#![allow(dead_code, clippy::unwrap_used)]

use bevy::MinimalPlugins;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_transform::components::{GlobalTransform, Transform};
use bevy_transform::TransformPlugin;
use collide2d::math::Pose;
use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, Capsule, Circle, CollisionWorld, ConvexPolygon, Filter, Handle, Obb, Shape,
};
use collide2d_bevy::{pose_of, CollidePlugin, CollisionEnded, CollisionStarted};

/// The plugin in a headless app, frames stepped by `app.update()`: `MinimalPlugins` (no
/// window or renderer), and `TransformPlugin`, which `MinimalPlugins` lacks and a headless
/// game adds: it computes each entity's `GlobalTransform` from its `Transform` and its
/// parents', and the plugin places colliders by `GlobalTransform` (without it every collider
/// stays at the origin). `DefaultPlugins` has both.
pub fn app(broad_phase: BroadPhase) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        CollidePlugin {
            broad_phase,
            contacts: true,
        },
    ));
    app
}

/// This frame's messages, drained.
pub fn messages(app: &mut App) -> (Vec<CollisionStarted>, Vec<CollisionEnded>) {
    let world = app.world_mut();
    let started = world
        .resource_mut::<Messages<CollisionStarted>>()
        .drain()
        .collect();
    let ended = world
        .resource_mut::<Messages<CollisionEnded>>()
        .drain()
        .collect();
    (started, ended)
}

/// A small seeded generator (xorshift), so every run is the same.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// In `[0, n)`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// In `[lo, hi)`; integers half the time, for touching cases.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let x = lo + (hi - lo) * (self.next() % 1_000_000) as f32 / 1_000_000.0;
        if self.below(2) == 0 {
            x.floor()
        } else {
            x
        }
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        ((self.next() % 1000) as f32) < p * 1000.0
    }
}

/// A random shape of every kind the tests use, about `size` across, around the origin.
pub fn shape(rng: &mut Rng, size: f32) -> Shape {
    let s = rng.range(size * 0.25, size).max(0.5);
    let built: Option<Shape> = match rng.below(5) {
        0 => Circle::new(Vec2::ZERO, s / 2.0).ok().map(Into::into),
        1 => Aabb::from_rect(-s / 2.0, -s / 4.0, s, s / 2.0)
            .ok()
            .map(Into::into),
        2 => Obb::new(Vec2::new(1.0, 0.0), Vec2::new(s / 2.0, s / 5.0), 0.3)
            .ok()
            .map(Into::into),
        3 => Capsule::new(Vec2::new(-s / 3.0, 0.0), Vec2::new(s / 3.0, 0.0), s / 6.0)
            .ok()
            .map(Into::into),
        _ => ConvexPolygon::new(&[
            Vec2::new(-s / 2.0, -s / 2.0),
            Vec2::new(s / 2.0, -s / 3.0),
            Vec2::new(0.0, s / 2.0),
        ])
        .ok()
        .map(Into::into),
    };
    built.unwrap_or_else(|| Circle::new(Vec2::ZERO, 1.0).unwrap().into())
}

/// One of three layers, each colliding with a random set of them.
pub fn filter(rng: &mut Rng) -> Filter {
    let layer = 1u64 << rng.below(3);
    let mask = (rng.next() & 0b111) | layer;
    Filter::new(layer, mask)
}

/// The pose a transform gives a collider of a root entity.
pub fn pose(transform: &Transform) -> Pose {
    pose_of(&GlobalTransform::from(*transform))
}

/// The entity pairs of a plain world's handle pairs, each lesser first, sorted; `gone` names
/// the entities of objects removed since.
pub fn entity_pairs(
    world: &CollisionWorld<Entity>,
    list: &[(Handle, Handle)],
    gone: &[(Handle, Entity)],
) -> Vec<(Entity, Entity)> {
    let entity = |h: Handle| {
        world
            .data(h)
            .ok()
            .copied()
            .or_else(|| gone.iter().find(|(g, _)| *g == h).map(|(_, e)| *e))
    };
    let mut out: Vec<(Entity, Entity)> = list
        .iter()
        .filter_map(|&(a, b)| {
            let (a, b) = (entity(a)?, entity(b)?);
            Some((a.min(b), a.max(b)))
        })
        .collect();
    out.sort_unstable();
    out
}
