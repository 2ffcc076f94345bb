//! Narrow-phase pair queries, collide2d against parry2d and a plain `f32` test, on the same
//! seeded pairs (see `collide2d_benches::Pairs`). Ids: `intersects/<pair>/{collide2d, parry2d,
//! plain_f32, plain_f32_dispatch}` and `contact/<pair>/{collide2d, parry2d}`; each iteration runs all pairs.
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d_benches::runs;
use collide2d_benches::{
    plain, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, Pairs, PolygonSpec, Spec, PAIRS,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Builds and checks the pairs for `name`, then times `intersects` and `contact` on them.
fn pair<A: Spec, B: Spec>(
    c: &mut Criterion,
    name: &str,
    plain_test: impl Fn(&A::Plain, &B::Plain) -> bool + Copy,
) {
    let pairs = Pairs::<A, B>::generate(seed(name), PAIRS);
    let (hits, touching) = pairs
        .check(plain_test)
        .unwrap_or_else(|e| panic!("{name}: libraries disagree: {e}"));
    eprintln!(
        "{name}: {} pairs, {hits} intersecting, {touching} touching disagreements",
        pairs.collide.len()
    );
    let elements = Throughput::Elements(pairs.collide.len() as u64);

    let mut g = c.benchmark_group(format!("intersects/{name}"));
    g.throughput(elements.clone());
    g.bench_function("collide2d", |b| {
        b.iter(|| runs::collide2d_intersects(black_box(&pairs.collide)))
    });
    g.bench_function("parry2d", |b| {
        b.iter(|| runs::parry2d_intersects(black_box(&pairs.parry)))
    });
    g.bench_function("plain_f32", |b| {
        b.iter(|| runs::plain_intersects(black_box(&pairs.plain), plain_test))
    });
    g.bench_function("plain_f32_dispatch", |b| {
        b.iter(|| runs::plain_dispatch_intersects(black_box(&pairs.collide)))
    });
    g.finish();

    let mut g = c.benchmark_group(format!("contact/{name}"));
    g.throughput(elements);
    g.bench_function("collide2d", |b| {
        b.iter(|| runs::collide2d_contact(black_box(&pairs.collide)))
    });
    g.bench_function("parry2d", |b| {
        b.iter(|| runs::parry2d_contact(black_box(&pairs.parry)))
    });
    g.finish();
}

fn narrowphase(c: &mut Criterion) {
    pair::<CircleSpec, CircleSpec>(c, "circle_circle", plain::circle_circle);
    pair::<CircleSpec, AabbSpec>(c, "circle_aabb", plain::circle_aabb);
    pair::<AabbSpec, AabbSpec>(c, "aabb_aabb", plain::aabb_aabb);
    pair::<ObbSpec, ObbSpec>(c, "obb_obb", plain::obb_obb);
    pair::<PolygonSpec, PolygonSpec>(c, "polygon_polygon", plain::polygon_polygon);
    pair::<CapsuleSpec, CircleSpec>(c, "capsule_circle", plain::capsule_circle);
}

criterion_group!(benches, narrowphase);
criterion_main!(benches);
