//! Collision worlds, collide2d against parry2d's `Bvh` and Box2D v3's `b2DynamicTree` on the
//! same frames (see `collide2d_benches::world`, `box2d_world`, `families`). One iteration = move
//! every object, then one full update (broad phase and exact narrow phase, all pairs). Ids:
//! - `world/many_small/{grid,tree,parry2d,box2d}/N`, N = 1k, 10k, 100k;
//! - `world/bullets/{grid,tree,parry2d,box2d}/{with_targets,without_targets}`: 20,000 bullets
//!   in a layer that ignores itself, with 200 targets or none;
//! - `world/<family>/{default,grid,tree,parry2d,box2d}/N`, N = 1k, 10k, 100k, for the families
//!   `moving_0_01`, `moving_0_25`, `moving_2` (sizes about 1, moving 0.01, 0.25, 2 a frame), `mixed_sizes` (1 to 100),
//!   `clustered`; and `world/mostly_static/.../{tiles_and_movers, movers_alone}` (100,000 static
//!   tiles and 1,000 movers, and the movers alone);
//! - `world/rays/{collide2d,parry2d,box2d}/<shapes>x<rays>`: first-hit rays against static
//!   shapes (`collide2d_benches::rays`): 10,000 rays against 1k, 10k and 100k shapes, and
//!   100,000 rays against 10k; each ray's answer is checked against parry2d's first.
//!
//! parry2d runs its best valid incremental path, the one rapier's BVH broad phase uses:
//! `insert_or_update_partially` with a margin, `refit`, `optimize_incremental`, then the tree
//! against itself. Without `optimize_incremental` the tree decays as objects move (ten times
//! slower after a few hundred frames); `insert_with_change_detection` without refit misses pairs.
//!
//! ```sh
//! cd benches && cargo bench --bench world -- --warm-up-time 1 --measurement-time 4
//! python3 benches/scripts/ratios.py
//! ```
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::BroadPhase;
use collide2d_benches::box2d_world::Box2dSim;
use collide2d_benches::rays::RayScene;
use collide2d_benches::select::selected;
use collide2d_benches::world::{grid, tree, Collide2dSim, ParryMode, ParrySim, Scene, MARGIN};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

fn collide2d_frames(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    scene: &Scene,
    broad: BroadPhase,
) {
    let mut scene = scene.clone();
    let mut sim = Collide2dSim::new(&scene, broad);
    c.bench_function(id, |b| {
        b.iter(|| {
            scene.step();
            black_box(sim.frame(&scene))
        });
    });
}

fn parry_frames(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    scene: &Scene,
    mode: ParryMode,
) {
    let mut scene = scene.clone();
    let mut sim = ParrySim::new(&scene, MARGIN);
    sim.mode = mode;
    c.bench_function(id, |b| {
        b.iter(|| {
            scene.step();
            black_box(sim.frame(&scene))
        });
    });
}

fn box2d_frames(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: BenchmarkId,
    scene: &Scene,
) {
    let mut scene = scene.clone();
    let mut sim = Box2dSim::new(&scene);
    c.bench_function(id, |b| {
        b.iter(|| {
            scene.step();
            black_box(sim.frame(&scene))
        });
    });
}

/// The libraries find the same number of pairs on the first frames (a one-time check; Box2D's
/// count, read from its manifolds at its own tolerances, is printed, not checked).
fn check(name: &str, scene: &Scene, broad: BroadPhase) {
    let mut scene = scene.clone();
    let mut ours = Collide2dSim::new(&scene, broad);
    let mut trees = Collide2dSim::new(&scene, tree());
    let mut theirs = ParrySim::new(&scene, MARGIN);
    let mut box2d = Box2dSim::new(&scene);
    for _ in 0..3 {
        scene.step();
        let (a, b, c, d) = (
            ours.frame(&scene),
            trees.frame(&scene),
            theirs.frame(&scene),
            box2d.frame(&scene),
        );
        if d != a {
            eprintln!("{name}: Box2D finds {d} pairs, collide2d {a}");
        }
        assert!(a == b, "{name}: {broad:?} {a} and tree {b} pairs differ");
        // Random, non-integer inputs: touching cases where the libraries may differ are rare.
        assert!(
            a.abs_diff(c) * 1000 <= a.max(1),
            "collide2d {a} vs parry2d {c} pairs"
        );
    }
}

fn many_small(c: &mut Criterion) {
    let mut g = c.benchmark_group("world/many_small");
    g.sample_size(10);
    for n in [1_000, 10_000, 100_000] {
        if !selected(&format!("world/many_small/{n}")) && !selected("world/many_small") {
            continue;
        }
        let scene = Scene::many_small(n, 1);
        check("many_small", &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("grid", n), &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("tree", n), &scene, tree());
        parry_frames(
            &mut g,
            BenchmarkId::new("parry2d", n),
            &scene,
            ParryMode::RefitOptimize,
        );
        box2d_frames(&mut g, BenchmarkId::new("box2d", n), &scene);
    }
    g.finish();
}

fn bullets(c: &mut Criterion) {
    let mut g = c.benchmark_group("world/bullets");
    g.sample_size(10);
    for (name, targets) in [("with_targets", 200), ("without_targets", 0)] {
        if !selected("world/bullets") {
            continue;
        }
        let scene = Scene::bullet_hell(20_000, targets, 2);
        check("bullets", &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("grid", name), &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("tree", name), &scene, tree());
        parry_frames(
            &mut g,
            BenchmarkId::new("parry2d", name),
            &scene,
            ParryMode::RefitOptimize,
        );
        box2d_frames(&mut g, BenchmarkId::new("box2d", name), &scene);
    }
    g.finish();
}

/// One workload family: `BroadPhase::default()`, the grid of `cell`, the tree of margin 0.1,
/// parry2d and Box2D.
fn family(c: &mut Criterion, name: &str, cell: f32, scenes: &[(String, Scene)]) {
    let group = format!("world/{name}");
    if !selected(&group) {
        return;
    }
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    let grid = BroadPhase::grid(cell).unwrap_or_default();
    for (size, scene) in scenes {
        check(name, scene, BroadPhase::default());
        collide2d_frames(
            &mut g,
            BenchmarkId::new("default", size),
            scene,
            BroadPhase::default(),
        );
        collide2d_frames(&mut g, BenchmarkId::new("grid", size), scene, grid);
        // The tree the default was before it chose (the same margin).
        collide2d_frames(
            &mut g,
            BenchmarkId::new("tree", size),
            scene,
            BroadPhase::tree(0.1),
        );
        parry_frames(
            &mut g,
            BenchmarkId::new("parry2d", size),
            scene,
            ParryMode::RefitOptimize,
        );
        box2d_frames(&mut g, BenchmarkId::new("box2d", size), scene);
    }
    g.finish();
}

fn families(c: &mut Criterion) {
    let sizes = [1_000, 10_000, 100_000];
    let at = |make: &dyn Fn(usize) -> Scene| -> Vec<(String, Scene)> {
        sizes.iter().map(|&n| (n.to_string(), make(n))).collect()
    };
    for (name, speed) in [
        ("moving_0_01", 0.01),
        ("moving_0_25", 0.25),
        ("moving_2", 2.0),
    ] {
        if selected(&format!("world/{name}")) {
            family(c, name, 2.0, &at(&|n| Scene::moving(n, speed, 7)));
        }
    }
    if selected("world/mixed_sizes") {
        family(c, "mixed_sizes", 8.0, &at(&|n| Scene::mixed_sizes(n, 8)));
    }
    if selected("world/clustered") {
        family(c, "clustered", 2.0, &at(&|n| Scene::clustered(n, 9)));
    }
    if selected("world/mostly_static") {
        let scenes = [
            (
                "tiles_and_movers".to_owned(),
                Scene::mostly_static(100_000, 1_000, 10),
            ),
            (
                "movers_alone".to_owned(),
                Scene::mostly_static(100_000, 1_000, 10).without_statics(),
            ),
        ];
        family(c, "mostly_static", 2.0, &scenes);
    }
}

/// Ray sizes: (static shapes, rays).
const RAY_SIZES: [(usize, usize); 4] = [
    (1_000, 10_000),
    (10_000, 10_000),
    (100_000, 10_000),
    (10_000, 100_000),
];

fn rays(c: &mut Criterion) {
    if !selected("world/rays") {
        return;
    }
    let mut g = c.benchmark_group("world/rays");
    g.sample_size(10);
    for (shapes, rays) in RAY_SIZES {
        let size = format!("{shapes}x{rays}");
        let scene = RayScene::new(shapes, rays, 3);
        // Ray by ray: hit or miss and where. Random, non-integer inputs: rays the libraries may
        // answer differently (grazing a shape within rounding) are rare.
        let check = scene.disagreements(1e-3);
        eprintln!(
            "world/rays {size}: {} of {rays} rays hit; parry2d differs on {}, Box2D on {}",
            check.hits, check.parry2d, check.box2d
        );
        assert!(check.parry2d * 1000 <= rays, "{size}: {check:?}");
        assert!(
            check.hits * 4 >= rays,
            "{size}: too few hits to compare, {check:?}"
        );
        g.bench_function(BenchmarkId::new("collide2d", &size), |bch| {
            bch.iter(|| black_box(scene.collide2d()))
        });
        g.bench_function(BenchmarkId::new("parry2d", &size), |bch| {
            bch.iter(|| black_box(scene.parry2d()))
        });
        g.bench_function(BenchmarkId::new("box2d", &size), |bch| {
            bch.iter(|| black_box(scene.box2d()))
        });
    }
    g.finish();
}

criterion_group!(benches, many_small, bullets, families, rays);
criterion_main!(benches);
