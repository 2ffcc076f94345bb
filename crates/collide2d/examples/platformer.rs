//! A platformer's player, moved with `CollisionWorld::move_shape` through a level of 1,600
//! static tiles: running, falling, jumping, sliding along the ground and walls, landing on
//! one-way platforms (solid from above only) and collecting coins. No `update` is ever called:
//! the first query builds the broad phase once, the next ones just read it.
//!
//! ```sh
//! cargo run --release --example platformer
//! ```
//! y points up; units are pixels; one frame is 1/60 s.

use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response, Shape};
use std::time::{Duration, Instant};

/// What a level object is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tile {
    Ground,
    /// Solid from above only: jump up through it, land on it.
    Platform,
    Coin,
}

const TILE: f32 = 16.0;
const GRAVITY: f32 = -0.5;
const RUN: f32 = 2.5;
const JUMP: f32 = 9.0;

fn tile(x: f32, y: f32, w: f32, h: f32) -> Result<Shape, collide2d::ShapeError> {
    Ok(Aabb::from_rect(x, y, w, h)?.into())
}

/// A ground 400 tiles long and 4 deep, a wall, a pit, one-way platforms and coins above them.
fn level() -> Result<CollisionWorld<Tile>, Box<dyn std::error::Error>> {
    let mut world = CollisionWorld::new(BroadPhase::default());
    let mut add =
        |shape: Shape, tile: Tile| world.insert(shape, Filter::DEFAULT, ObjectKind::Static, tile);
    for i in 0..400 {
        // A pit three tiles wide at 60..63.
        if (60..63).contains(&i) {
            continue;
        }
        for j in 0..4 {
            add(
                tile(i as f32 * TILE, j as f32 * -TILE, TILE, TILE)?,
                Tile::Ground,
            )?;
        }
    }
    // A wall two tiles high at x = 40 tiles.
    for j in 1..3 {
        add(
            tile(40.0 * TILE, j as f32 * TILE, TILE, TILE)?,
            Tile::Ground,
        )?;
    }
    // One-way platforms 3 tiles up, with a coin over each.
    for k in 0..10 {
        let x = (10 + k * 8) as f32 * TILE;
        add(tile(x, 3.0 * TILE, 4.0 * TILE, 4.0)?, Tile::Platform)?;
        add(tile(x + 24.0, 3.0 * TILE + 12.0, 8.0, 8.0)?, Tile::Coin)?;
    }
    Ok(world)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = level()?;
    let size = Vec2::new(12.0, 24.0);
    let mut at = Vec2::new(2.0 * TILE, 5.0 * TILE); // the player's bottom-left corner
    let mut velocity = Vec2::ZERO;
    let (mut coins, mut landings, mut grounded) = (0, 0, false);
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    for frame in 0..600 {
        // Run right; jump when on the ground every 40 frames, or when blocked by a wall.
        velocity.x = RUN;
        velocity.y += GRAVITY;
        if grounded && (frame % 40 == 0) {
            velocity.y = JUMP;
        }
        let player: Shape = Aabb::from_rect(at.x, at.y, size.x, size.y)?.into();
        let respond = |_, tile: &Tile| match tile {
            Tile::Ground => Response::Slide,
            Tile::Platform => Response::OneWay { up: Vec2::Y },
            Tile::Coin => Response::Cross,
        };
        let timer = Instant::now();
        let moved = world.move_shape(&player, velocity, u64::MAX, respond);
        slowest = slowest.max(timer.elapsed());
        at += moved.delta;
        let was_grounded = grounded;
        grounded = moved.contacts.iter().any(|c| c.normal.y > 0.7);
        let blocked = moved.contacts.iter().any(|c| c.normal.x < -0.7);
        if grounded {
            velocity.y = 0.0;
            landings += usize::from(!was_grounded);
        }
        if blocked && grounded {
            velocity.y = JUMP;
        }
        for c in &moved.contacts {
            if world.data(c.handle) == Ok(&Tile::Coin) {
                world.remove(c.handle)?;
                coins += 1;
            }
        }
        if frame % 60 == 0 {
            println!(
                "frame {frame:3}: player at ({:6.1}, {:5.1}), {}, {coins} coins",
                at.x,
                at.y,
                if grounded {
                    "on the ground"
                } else {
                    "in the air"
                }
            );
        }
        if at.y < -200.0 {
            println!("frame {frame}: fell into the pit at x = {:.1}", at.x);
            break;
        }
    }
    println!(
        "{} objects; {coins} coins collected, {landings} landings; 600 frames in {:.1} ms, the slowest move_shape {:.1} µs (it includes the one-time build of the broad phase)",
        world.len(),
        started.elapsed().as_secs_f64() * 1e3,
        slowest.as_secs_f64() * 1e6,
    );
    Ok(())
}
