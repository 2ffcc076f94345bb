//! Collision worlds, collide2d against parry2d's `Bvh` on the same frames (see
//! `collide2d_benches::world`). One iteration = move every object a little, then one full update
//! (broad phase and exact narrow phase, all pairs). Ids:
//! - `world/many_small/{grid,tree,parry2d}/N`, N = 1k, 10k, 100k;
//! - `world/bullets/{grid,tree,parry2d}/{with_targets,without_targets}`: 20,000 bullets in a
//!   layer that ignores itself, with 200 targets or none;
//! - `world/rays/{collide2d,parry2d}/10000`: 10,000 first-hit rays against 10,000 static shapes.
//!
//! parry2d runs its best valid incremental path, the one rapier's BVH broad phase uses:
//! `insert_or_update_partially` with a margin, `refit`, `optimize_incremental`, then the tree
//! against itself. Without `optimize_incremental` the tree decays as objects move (ten times
//! slower after a few hundred frames); `insert_with_change_detection` without refit misses pairs.
//!
//! ```sh
//! cargo bench -p collide2d-benches --bench world -- --warm-up-time 1 --measurement-time 4
//! python3 benches/scripts/ratios.py
//! ```
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::BroadPhase;
use collide2d_benches::world::{
    grid, tree, Collide2dSim, ParryMode, ParrySim, RayScene, Scene, MARGIN,
};
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

/// Both libraries find the same number of pairs on the first frames (a one-time check).
fn check(scene: &Scene) {
    let mut scene = scene.clone();
    let mut ours = Collide2dSim::new(&scene, grid());
    let mut trees = Collide2dSim::new(&scene, tree());
    let mut theirs = ParrySim::new(&scene, MARGIN);
    for _ in 0..3 {
        scene.step();
        let (a, b, c) = (
            ours.frame(&scene),
            trees.frame(&scene),
            theirs.frame(&scene),
        );
        assert!(a == b, "grid {a} and tree {b} pairs differ");
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
        let scene = Scene::many_small(n, 1);
        check(&scene);
        collide2d_frames(&mut g, BenchmarkId::new("grid", n), &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("tree", n), &scene, tree());
        parry_frames(
            &mut g,
            BenchmarkId::new("parry2d", n),
            &scene,
            ParryMode::RefitOptimize,
        );
    }
    g.finish();
}

fn bullets(c: &mut Criterion) {
    let mut g = c.benchmark_group("world/bullets");
    g.sample_size(10);
    for (name, targets) in [("with_targets", 200), ("without_targets", 0)] {
        let scene = Scene::bullet_hell(20_000, targets, 2);
        check(&scene);
        collide2d_frames(&mut g, BenchmarkId::new("grid", name), &scene, grid());
        collide2d_frames(&mut g, BenchmarkId::new("tree", name), &scene, tree());
        parry_frames(
            &mut g,
            BenchmarkId::new("parry2d", name),
            &scene,
            ParryMode::RefitOptimize,
        );
    }
    g.finish();
}

fn rays(c: &mut Criterion) {
    let n = 10_000;
    let scene = RayScene::new(n, 3);
    let (a, b) = (scene.collide2d(), scene.parry2d());
    assert!(
        (a - b).abs() <= a.abs() * 1e-3 + 1e-3,
        "hit sums differ: {a} vs {b}"
    );
    let mut g = c.benchmark_group("world/rays");
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("collide2d", n), |bch| {
        bch.iter(|| black_box(scene.collide2d()))
    });
    g.bench_function(BenchmarkId::new("parry2d", n), |bch| {
        bch.iter(|| black_box(scene.parry2d()))
    });
    g.finish();
}

criterion_group!(benches, many_small, bullets, rays);
criterion_main!(benches);
