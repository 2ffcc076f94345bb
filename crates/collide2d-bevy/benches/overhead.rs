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

use collide2d::math::{Pose, Vec2};
use collide2d::{BroadPhase, CollisionWorld, ObjectKind};

mod common;
use common::{app, bullets, median_ms, step, tiles_and_movers, Args, Body};

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
    let args = Args::read(60);
    let (frames, wanted) = (args.frames, |name: &str| args.wants(name));
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
