//! Shape casts (time of impact), collide2d's `cast_shapes` against parry2d's `cast_shapes`, on
//! the same seeded moving pairs (see `collide2d_benches::sweeps`). Ids: `cast/<pair>/{collide2d,
//! parry2d}`; each iteration runs all pairs.
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d_benches::sweeps::Sweeps;
use collide2d_benches::{
    runs, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, PolygonSpec, Spec, SWEEPS,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Builds and checks the moving pairs for `name`, then times both casts on them.
fn pair<A: Spec, B: Spec>(c: &mut Criterion, name: &str) {
    let sweeps = Sweeps::<A, B>::generate(seed(name), SWEEPS);
    let (hits, grazes, worst) = sweeps
        .check()
        .unwrap_or_else(|e| panic!("{name}: libraries disagree: {e}"));
    eprintln!(
        "{name}: {} moving pairs, {hits} hit, {grazes} grazing disagreements, times of impact within {worst} (as a distance)",
        sweeps.collide.len()
    );
    let mut g = c.benchmark_group(format!("cast/{name}"));
    g.throughput(Throughput::Elements(sweeps.collide.len() as u64));
    g.bench_function("collide2d", |b| {
        b.iter(|| runs::collide2d_cast(black_box(&sweeps.collide)))
    });
    g.bench_function("parry2d", |b| {
        b.iter(|| runs::parry2d_cast(black_box(&sweeps.parry)))
    });
    g.finish();
}

fn sweep(c: &mut Criterion) {
    pair::<CircleSpec, CircleSpec>(c, "circle_circle");
    pair::<CircleSpec, AabbSpec>(c, "circle_aabb");
    pair::<AabbSpec, AabbSpec>(c, "aabb_aabb");
    pair::<ObbSpec, ObbSpec>(c, "obb_obb");
    pair::<PolygonSpec, PolygonSpec>(c, "polygon_polygon");
    pair::<CapsuleSpec, CircleSpec>(c, "capsule_circle");
}

criterion_group!(benches, sweep);
criterion_main!(benches);
