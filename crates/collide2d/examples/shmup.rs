//! A shoot-'em-up on a `CollisionWorld`: a player ship, spinning enemies placed by a pose each
//! frame (`set_pose`), and hundreds of bullets as `Fast` objects (never passing through a
//! target between frames), stepped together with one `move_many`. Layers keep bullets from
//! pairing with each other, and the hits come out as `(target, bullet)` with their data
//! (`pairs_between`), in a list of our own, so the bullets that hit are removed on the spot.
//!
//! ```sh
//! cargo run --release --example shmup
//! ```
//! y points up; units are pixels; one frame is 1/60 s.

use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, Compound, Filter, Handle, ObjectKind};
use std::time::Instant;

const PLAYER: u64 = 1 << 0;
const ENEMY: u64 = 1 << 1;
const PLAYER_BULLET: u64 = 1 << 2;
const ENEMY_BULLET: u64 = 1 << 3;

/// What an object is, as the world keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Thing {
    Ship,
    Enemy { hp: u32 },
    Bullet,
}

/// A small seeded generator, so every run is the same.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = CollisionWorld::new(BroadPhase::grid(16.0)?);
    let mut rng = Rng(0x9e37_79b9);
    // The ship: a body and wings, as one compound hitbox.
    let body = Aabb::from_rect(-3.0, -8.0, 6.0, 16.0)?;
    let wings = Aabb::from_rect(-10.0, -4.0, 20.0, 5.0)?;
    let ship_shape = Compound::new(vec![body.into(), wings.into()])?.into();
    let mut ship_at = Vec2::new(320.0, 40.0);
    let ship = world.insert(
        ship_shape,
        Filter::new(PLAYER, ENEMY_BULLET),
        ObjectKind::Dynamic,
        Thing::Ship,
    )?;
    world.set_pose(ship, Pose::from_translation(ship_at))?;
    // Enemies: long boxes about their own center, spinning.
    let mut enemies = Vec::new();
    for k in 0..6 {
        let blade = Aabb::from_rect(-14.0, -4.0, 28.0, 8.0)?.into();
        let filter = Filter::new(ENEMY, PLAYER_BULLET);
        let h = world.insert(blade, filter, ObjectKind::Dynamic, Thing::Enemy { hp: 30 })?;
        enemies.push((h, Vec2::new(80.0 + k as f32 * 96.0, 400.0)));
    }
    let mut bullets: Vec<(Handle, Vec2)> = Vec::new();
    let (mut enemy_hits, mut kills, mut ship_hits, mut most) = (0, 0, 0, 0);
    let started = Instant::now();
    for frame in 0..300u32 {
        // The ship sways and fires two bullets a frame; each enemy fires a ring every 20 frames.
        ship_at.x = 320.0 + 200.0 * (frame as f32 * 0.02).sin();
        world.set_pose(ship, Pose::from_translation(ship_at))?;
        for dx in [-6.0, 6.0] {
            let disc = Circle::new(ship_at + Vec2::new(dx, 10.0), 2.0)?.into();
            let filter = Filter::new(PLAYER_BULLET, ENEMY);
            let h = world.insert(disc, filter, ObjectKind::Fast, Thing::Bullet)?;
            bullets.push((h, Vec2::new(0.0, 12.0)));
        }
        for (k, &(enemy, at)) in enemies.iter().enumerate() {
            if !world.contains(enemy) {
                continue;
            }
            let spin = frame as f32 * 0.05 + k as f32;
            world.set_pose(enemy, Pose::new(at, spin))?;
            if (frame + k as u32 * 3).is_multiple_of(20) {
                for j in 0..24 {
                    let dir = Vec2::from_angle(j as f32 * 0.2618 + rng.next() * 0.1);
                    let disc = Circle::new(at + dir * 16.0, 3.0)?.into();
                    let filter = Filter::new(ENEMY_BULLET, PLAYER);
                    let h = world.insert(disc, filter, ObjectKind::Fast, Thing::Bullet)?;
                    bullets.push((h, dir * (2.0 + rng.next() * 2.0)));
                }
            }
        }
        // Every bullet moves in one call; each is swept over its step.
        world.move_many(bullets.iter().copied())?;
        world.update();
        // Hits, as (target, bullet) whichever was inserted first: remove the bullet at once.
        for (enemy, bullet) in world.pairs_between(ENEMY, PLAYER_BULLET) {
            world.remove(bullet.handle)?;
            enemy_hits += 1;
            if let Ok(Thing::Enemy { hp }) = world.data_mut(enemy.handle) {
                *hp = hp.saturating_sub(1);
                if *hp == 0 {
                    world.remove(enemy.handle)?;
                    kills += 1;
                    println!("frame {frame}: enemy {} destroyed", enemy.handle);
                }
            }
        }
        for (_, bullet) in world.began_between(PLAYER, ENEMY_BULLET) {
            world.remove(bullet.handle)?;
            ship_hits += 1;
        }
        // Bullets off the field go too.
        for &(h, _) in &bullets {
            let off = world.shape(h).map(|s| {
                let c = s.aabb().center();
                !(-50.0..=700.0).contains(&c.x) || !(-50.0..=550.0).contains(&c.y)
            });
            if off == Ok(true) {
                world.remove(h)?;
            }
        }
        bullets.retain(|&(h, _)| world.contains(h));
        most = most.max(bullets.len());
        if frame % 50 == 0 {
            println!(
                "frame {frame:3}: {:4} objects, {:4} bullets, {} pairs; enemies hit {enemy_hits} times, ship hit {ship_hits} times",
                world.len(),
                bullets.len(),
                world.pairs().len(),
            );
        }
    }
    println!(
        "300 frames in {:.1} ms: {enemy_hits} hits on enemies, {kills} destroyed, the ship hit {ship_hits} times, at most {most} bullets at once",
        started.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
