//! The inputs of the game frames (`benches/game.rs` and `examples/game_frames.rs`): a level of
//! 10,000 static tiles with a player and some walking enemies, and 20,000 seeded bullets.
// A bench aborts on a bad input; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::batch::{Circles, Column};
use collide2d::math::Vec2;
use collide2d::Shape;
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind, Response};

/// Tiles in the level.
pub const TILES: usize = 10_000;
/// Bullets in the bullet frames.
pub const BULLETS: usize = 20_000;
/// Enemies walking on the level (moved each later frame).
pub const WALKERS: usize = 50;

/// A level of [`TILES`] static 16-unit tiles: 500 columns, 20 rows deep, its top at y = 320.
#[must_use]
pub fn level() -> CollisionWorld<()> {
    let mut world = CollisionWorld::new(BroadPhase::default());
    for i in 0..TILES {
        let (x, y) = ((i % 500) as f32 * 16.0, (i / 500) as f32 * 16.0);
        let tile = Aabb::from_rect(x, y, 16.0, 16.0).unwrap_or_else(|e| panic!("{e}"));
        let added = world.insert(tile.into(), Filter::DEFAULT, ObjectKind::Static, ());
        added.unwrap_or_else(|e| panic!("{e}"));
    }
    world
}

/// [`WALKERS`] dynamic enemies standing on the level, spread along it.
pub fn add_walkers(world: &mut CollisionWorld<()>) -> Vec<Handle> {
    (0..WALKERS)
        .map(|k| {
            let body = Aabb::from_rect(k as f32 * 150.0 + 20.0, 320.0, 12.0, 20.0);
            let body = body.unwrap_or_else(|e| panic!("{e}")).into();
            let added = world.insert(body, Filter::DEFAULT, ObjectKind::Dynamic, ());
            added.unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

/// One frame's walk: each enemy one unit left or right, by the frame's parity (so they stay).
pub fn walk(world: &mut CollisionWorld<()>, walkers: &[Handle], frame: u32) {
    let step = if frame.is_multiple_of(2) { 1.0 } else { -1.0 };
    for &h in walkers {
        world
            .move_by(h, Vec2::new(step, 0.0))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// The player of the platformer frames, above the middle of the level.
#[must_use]
pub fn player() -> Shape {
    Aabb::from_rect(4000.0, 330.0, 12.0, 24.0)
        .unwrap_or_else(|e| panic!("{e}"))
        .into()
}

/// What [`step`] moves the player by: it lands on the tiles and slides.
pub const LANDED: Vec2 = Vec2::new(6.0, -10.0);

/// One frame of the player running right and falling.
#[must_use]
pub fn step(world: &CollisionWorld<()>, player: &Shape) -> Vec2 {
    let moved = world.move_shape(player, Vec2::new(6.0, -30.0), u64::MAX, |_, ()| {
        Response::Slide
    });
    moved.delta
}

/// [`BULLETS`] bullets on a 400 x 400 field, each with a velocity, seeded.
#[must_use]
pub fn bullets() -> Vec<(Vec2, Vec2)> {
    bullets_of(BULLETS)
}

/// The side of the square field of `n` bullets: 400 for [`BULLETS`], as dense for any `n`.
#[must_use]
pub fn field_side(n: usize) -> f32 {
    400.0 * (n as f32 / BULLETS as f32).sqrt()
}

/// `n` bullets on a field of side [`field_side`]`(n)`, each with a velocity, seeded.
#[must_use]
pub fn bullets_of(n: usize) -> Vec<(Vec2, Vec2)> {
    let side = field_side(n);
    let mut x = 0x2545_f491u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x >> 8) as f32 / (1u32 << 24) as f32
    };
    (0..n)
        .map(|_| {
            let at = Vec2::new(next() * side, next() * side);
            (at, Vec2::from_angle(next() * std::f32::consts::TAU) * 3.0)
        })
        .collect()
}

/// A world of the bullets as `kind` (in a layer that ignores itself), updated once, and their
/// handles with their velocities.
#[must_use]
pub fn bullet_world(kind: ObjectKind) -> (CollisionWorld<()>, Vec<(Handle, Vec2)>) {
    let mut world = CollisionWorld::new(BroadPhase::grid(4.0).unwrap_or_else(|e| panic!("{e}")));
    let moves = bullets()
        .into_iter()
        .map(|(at, v)| {
            let disc = Circle::new_unchecked(at, 1.0).into();
            let h = world.insert(disc, Filter::new(2, 1), kind, ());
            (h.unwrap_or_else(|e| panic!("{e}")), v)
        })
        .collect();
    world.update();
    (world, moves)
}

/// The bullets in a [`Circles`], and their velocities.
#[must_use]
pub fn bullet_batch() -> (Circles, Vec<Vec2>) {
    bullet_batch_of(BULLETS)
}

/// [`bullets_of`]`(n)` in a [`Circles`], and their velocities.
#[must_use]
pub fn bullet_batch_of(n: usize) -> (Circles, Vec<Vec2>) {
    let (mut discs, mut velocities) = (Circles::with_capacity(n), Vec::new());
    for (at, v) in bullets_of(n) {
        discs.push_circle(&Circle::new_unchecked(at, 1.0));
        velocities.push(v);
    }
    (discs, velocities)
}

/// The velocities as x and y columns, as the discs keep their centers (the documented way to
/// step bullets: [`Circles::translate_each_xy`]).
#[must_use]
pub fn velocity_columns(velocities: &[Vec2]) -> [Column; 2] {
    [
        velocities.iter().map(|v| v.x).collect(),
        velocities.iter().map(|v| v.y).collect(),
    ]
}

/// The player of the bullet frames, in the middle of the field.
#[must_use]
pub fn bullet_target() -> Shape {
    bullet_target_of(BULLETS)
}

/// The player of the frames of `n` bullets, in the middle of their field.
#[must_use]
pub fn bullet_target_of(n: usize) -> Shape {
    let mid = field_side(n) / 2.0;
    Circle::new_unchecked(Vec2::new(mid, mid), 8.0).into()
}
