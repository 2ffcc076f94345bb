//! Runs world frames a fixed number of times, for callgrind (`scripts/instructions.py` style) or
//! a quick wall-clock look:
//!
//! ```sh
//! cargo run --release -p collide2d-benches --example world -- many_small/grid/100000 20 [warm-up]
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='world::timed' \
//!     target/release/examples/world many_small/parry2d/100000 5 200
//! ```
//!
//! `warm-up` frames (default 1) run first, untimed and outside `timed`: parry2d's tree starts
//! as built by insertion and `optimize_incremental` improves it over the first hundred or so
//! frames, as criterion's warm-up and measurement do, so compare with a warm-up of ~200.
//!
//! Ids: `many_small/{grid,tree,default,parry2d,parry2d_refit,parry2d_propagate,box2d}/N`,
//! `bullets/{grid,tree,parry2d}/{with,without}_targets`, the families of `families.rs`
//! (`moving_0_01`, `moving_0_25`, `moving_2`, `mixed_sizes`, `clustered`: `/N`;
//! `mostly_static/.../{tiles_and_movers,movers_alone}`) with the same libraries,
//! `rays/{collide2d,parry2d,box2d}/N` (N shapes, 10,000 rays) or `.../NxR` (R rays). Prints pairs (or hit sums) and milliseconds per frame.
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d_benches::rays::RayScene;
use collide2d_benches::world::{Collide2dSim, ParryMode, ParrySim, Scene};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_default();
    let frames: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let warm_up: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let parts: Vec<&str> = id.split('/').collect();
    let [workload, lib, size] = parts[..] else {
        panic!("usage: world <workload>/<lib>/<size> [frames] [warm-up]");
    };
    if workload == "rays" {
        // `<shapes>` (10,000 rays) or `<shapes>x<rays>`.
        let (shapes, rays) = size.split_once('x').unwrap_or((size, "10000"));
        let count = |s: &str| -> usize { s.parse().unwrap_or_else(|_| panic!("bad size {size}")) };
        let (n, rays) = (count(shapes), count(rays));
        let scene = RayScene::new(n, rays, 3);
        let start = Instant::now();
        for _ in 0..frames {
            black_box(match lib {
                "collide2d" => scene.collide2d(),
                "parry2d" => scene.parry2d(),
                "box2d" => scene.box2d(),
                _ => panic!("unknown lib {lib}"),
            });
        }
        let ms = start.elapsed().as_secs_f64() * 1e3 / frames as f64;
        println!("{id}: {ms:.3} ms per pass of {rays} rays");
        return;
    }
    let mut scene = match (workload, size) {
        ("many_small", n) => {
            Scene::many_small(n.parse().unwrap_or_else(|_| panic!("bad n {n}")), 1)
        }
        ("bullets", "with_targets") => Scene::bullet_hell(20_000, 200, 2),
        ("bullets", "without_targets") => Scene::bullet_hell(20_000, 0, 2),
        ("mostly_static", "tiles_and_movers") => Scene::mostly_static(100_000, 1_000, 10),
        ("mostly_static", "movers_alone") => {
            Scene::mostly_static(100_000, 1_000, 10).without_statics()
        }
        (family, n) => {
            let n = n.parse().unwrap_or_else(|_| panic!("bad n {n}"));
            match family {
                "moving_0_01" => Scene::moving(n, 0.01, 7),
                "moving_0_25" => Scene::moving(n, 0.25, 7),
                "moving_2" => Scene::moving(n, 2.0, 7),
                "mixed_sizes" => Scene::mixed_sizes(n, 8),
                "clustered" => Scene::clustered(n, 9),
                _ => panic!("unknown workload {workload}/{size}"),
            }
        }
    };
    let mut frame: Box<dyn FnMut(&Scene) -> usize> = match lib {
        "grid" => {
            let mut sim = Collide2dSim::new(&scene, collide2d_benches::world::grid());
            Box::new(move |s| sim.frame(s))
        }
        "tree" => {
            let mut sim = Collide2dSim::new(&scene, collide2d_benches::world::tree());
            Box::new(move |s| sim.frame(s))
        }
        "default" => {
            let mut sim = Collide2dSim::new(&scene, collide2d::BroadPhase::default());
            println!("default chose {:?}", sim.world.broad_phase_kind());
            Box::new(move |s| sim.frame(s))
        }
        "box2d" => {
            let mut sim = collide2d_benches::box2d_world::Box2dSim::new(&scene);
            Box::new(move |s| sim.frame(s))
        }
        "parry2d" => {
            let mut sim = ParrySim::new(&scene, collide2d_benches::world::MARGIN);
            Box::new(move |s| sim.frame(s))
        }
        "parry2d_refit" | "parry2d_propagate" => {
            let mut sim = ParrySim::new(&scene, collide2d_benches::world::MARGIN);
            sim.mode = if lib == "parry2d_refit" {
                ParryMode::Refit
            } else {
                ParryMode::Propagate
            };
            Box::new(move |s| sim.frame(s))
        }
        _ => panic!("unknown lib {lib}"),
    };
    // Warm up (not counted, and outside `timed` for callgrind): parry2d's tree improves over
    // its first frames (`optimize_incremental`), as it does over criterion's warm-up.
    let mut pairs = 0;
    for _ in 0..warm_up {
        scene.step();
        pairs = warm(&mut frame, &scene);
    }
    let start = Instant::now();
    pairs = timed(&mut frame, &mut scene, frames).unwrap_or(pairs);
    let ms = start.elapsed().as_secs_f64() * 1e3 / frames.max(1) as f64;
    println!("{id}: {pairs} pairs, {ms:.3} ms per frame");
}

/// One warm-up frame (a separate symbol so callgrind's `--toggle-collect` on [`timed`] skips it).
#[inline(never)]
fn warm(frame: &mut dyn FnMut(&Scene) -> usize, scene: &Scene) -> usize {
    frame(scene)
}

/// The measured frames; returns the last frame's pairs.
#[inline(never)]
fn timed(
    frame: &mut dyn FnMut(&Scene) -> usize,
    scene: &mut Scene,
    frames: usize,
) -> Option<usize> {
    let mut pairs = None;
    for _ in 0..frames {
        scene.step();
        pairs = Some(black_box(frame(scene)));
    }
    pairs
}
