//! A platformer's player, moved with `CollisionWorld::move_shape_with` through a level of 1,600
//! static tiles: running, falling, jumping, sliding along the ground and walls, up and down a
//! ramp (snapped to it on the way down), up and down stairs (stepped up, snapped down), riding a
//! lift out of a pit, landing on one-way platforms (solid from above only) and collecting coins.
//! No `update` is ever called: the first query builds the broad phase once, the next ones just
//! read it.
//!
//! ```sh
//! cargo run --release --example platformer
//! ```
//! y points up; units are pixels; one frame is 1/60 s.

use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, CollisionWorld, ConvexPolygon, Filter, Handle, ObjectKind};
use collide2d::{MoveSettings, Obstacles, Response, Shape};
use std::time::{Duration, Instant};

/// What a level object is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tile {
    Ground,
    /// Moves up and down in the pit.
    Lift,
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

/// The lift's top at `frame`: from the pit's floor (1.5 tiles down) up to the ground and
/// back, every 4 seconds.
fn lift_top(frame: u32) -> f32 {
    let phase = f64::from(frame) * std::f64::consts::TAU / 240.0;
    (-0.75 * TILE as f64 * (1.0 + phase.cos())) as f32
}

fn lift(frame: u32) -> Result<Shape, collide2d::ShapeError> {
    tile(60.0 * TILE, lift_top(frame) - 8.0, 3.0 * TILE, 8.0)
}

/// A ground 400 tiles long and 4 deep, a ramp, stairs, a wall, a pit with a lift, one-way
/// platforms and coins above them.
fn level() -> Result<(CollisionWorld<Tile>, Handle), Box<dyn std::error::Error>> {
    let mut world = CollisionWorld::new(BroadPhase::default());
    let mut add =
        |shape: Shape, tile: Tile| world.insert(shape, Filter::DEFAULT, ObjectKind::Static, tile);
    for i in 0..400 {
        // A pit three tiles wide at 60..63, two tiles deep.
        let top = if (60..63).contains(&i) { 2 } else { 0 };
        for j in top..4 {
            add(
                tile(i as f32 * TILE, j as f32 * -TILE, TILE, TILE)?,
                Tile::Ground,
            )?;
        }
    }
    // A ramp two tiles up over four (about 27 degrees), a plateau, and back down.
    let ramp = |points: [(f32, f32); 3]| -> Result<Shape, collide2d::ShapeError> {
        Ok(ConvexPolygon::new(&points.map(|(x, y)| Vec2::new(x * TILE, y * TILE)))?.into())
    };
    add(ramp([(20.0, 1.0), (24.0, 1.0), (24.0, 3.0)])?, Tile::Ground)?;
    add(
        tile(24.0 * TILE, TILE, 4.0 * TILE, 2.0 * TILE)?,
        Tile::Ground,
    )?;
    add(ramp([(28.0, 1.0), (32.0, 1.0), (28.0, 3.0)])?, Tile::Ground)?;
    // Stairs of 4-pixel steps up to a tile's height, and down.
    for k in 0..4 {
        let (x, w, h) = (45.0 + k as f32 * 0.5, 6.0 - k as f32, 4.0 * (k + 1) as f32);
        add(tile(x * TILE, TILE, w * TILE, h)?, Tile::Ground)?;
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
    let lift = world.insert(lift(0)?, Filter::DEFAULT, ObjectKind::Dynamic, Tile::Lift)?;
    Ok((world, lift))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut world, lift_handle) = level()?;
    let size = Vec2::new(12.0, 24.0);
    let mut at = Vec2::new(2.0 * TILE, 5.0 * TILE); // the player's bottom-left corner
    let mut velocity = Vec2::ZERO;
    let (mut coins, mut landings, mut grounded) = (0, 0, false);
    let (mut on_slopes, mut on_lift) = (0, 0);
    let settings = MoveSettings {
        obstacles: Obstacles::All, // the lift is a dynamic object
        max_slope: 50f32.to_radians(),
        step_height: 6.0,
        snap_to_ground: 6.0,
        ..MoveSettings::default()
    };
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    for frame in 0..600 {
        // Run right; jump when on the ground every 40 frames (but not before the pit: it
        // rides the lift out), or when blocked by a wall (but not on the lift: it waits).
        velocity.x = RUN;
        velocity.y += GRAVITY;
        let before_pit = (50.0 * TILE..63.0 * TILE).contains(&at.x);
        if grounded && frame % 40 == 0 && !before_pit {
            velocity.y = JUMP;
        }
        let player: Shape = Aabb::from_rect(at.x, at.y, size.x, size.y)?.into();
        let respond = |_, tile: &Tile| match tile {
            Tile::Ground | Tile::Lift => Response::Slide,
            Tile::Platform => Response::OneWay { up: Vec2::Y },
            Tile::Coin => Response::Cross,
        };
        // The lift moves first; the player standing on it is carried.
        let lifted = lift_top(frame + 1) - lift_top(frame);
        world.set_shape(lift_handle, lift(frame + 1)?)?;
        let platforms = [(lift_handle, Vec2::new(0.0, lifted))];
        let settings = MoveSettings {
            platforms: &platforms,
            ..settings
        };
        let timer = Instant::now();
        let moved = world.move_shape_with(&player, velocity, u64::MAX, &settings, respond);
        slowest = slowest.max(timer.elapsed());
        at += moved.delta;
        let was_grounded = grounded;
        grounded = moved.ground.is_some();
        if let Some(ground) = moved.ground {
            on_slopes += usize::from(ground.normal.y < 0.999);
            on_lift += usize::from(world.data(ground.handle) == Ok(&Tile::Lift));
        }
        let blocked = moved.contacts.iter().any(|c| c.normal.x < -0.7);
        if grounded {
            velocity.y = 0.0;
            landings += usize::from(!was_grounded);
        }
        let lifted_by = moved
            .ground
            .map(|g| world.data(g.handle) == Ok(&Tile::Lift));
        if blocked && grounded && lifted_by != Some(true) {
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
        "{} objects; {coins} coins collected, {landings} landings, {on_slopes} frames on slopes, {on_lift} on the lift; 600 frames in {:.1} ms, the slowest move_shape_with {:.1} µs (it includes the one-time build of the broad phase)",
        world.len(),
        started.elapsed().as_secs_f64() * 1e3,
        slowest.as_secs_f64() * 1e6,
    );
    Ok(())
}
