//! Narrow-phase pair queries, collide2d against parry2d and a plain `f32` test, on the same
//! seeded pairs (see `collide2d_benches::Pairs`). Ids: `intersects/<pair>/{collide2d, parry2d,
//! plain_f32}` and `contact/<pair>/{collide2d, parry2d}`; each iteration runs all pairs.
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d_benches::{
    plain, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, Pairs, PolygonSpec, Spec, PAIRS,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Builds and checks the pairs for `name`, then times `intersects` and `contact` on them.
fn pair<A: Spec, B: Spec>(
    c: &mut Criterion,
    name: &str,
    seed: u64,
    plain_test: fn(&A::Plain, &B::Plain) -> bool,
) {
    let pairs = Pairs::<A, B>::generate(seed, PAIRS);
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
        b.iter(|| {
            for (x, y) in black_box(&pairs.collide) {
                black_box(collide2d::intersects(x, y));
            }
        });
    });
    g.bench_function("parry2d", |b| {
        b.iter(|| {
            for ((px, x), (py, y)) in black_box(&pairs.parry) {
                black_box(matches!(parry2d::query::intersection_test(px, x, py, y), Ok(r) if r.intersecting));
            }
        });
    });
    g.bench_function("plain_f32", |b| {
        b.iter(|| {
            for (x, y) in black_box(&pairs.plain) {
                black_box(plain_test(x, y));
            }
        });
    });
    g.finish();

    let mut g = c.benchmark_group(format!("contact/{name}"));
    g.throughput(elements);
    g.bench_function("collide2d", |b| {
        b.iter(|| {
            for (x, y) in black_box(&pairs.collide) {
                black_box(collide2d::contact(x, y));
            }
        });
    });
    g.bench_function("parry2d", |b| {
        b.iter(|| {
            for ((px, x), (py, y)) in black_box(&pairs.parry) {
                black_box(parry2d::query::contact(px, x, py, y, 0.0)).ok();
            }
        });
    });
    g.finish();
}

fn narrowphase(c: &mut Criterion) {
    pair::<CircleSpec, CircleSpec>(c, "circle_circle", 1, plain::circle_circle);
    pair::<CircleSpec, AabbSpec>(c, "circle_aabb", 2, plain::circle_aabb);
    pair::<AabbSpec, AabbSpec>(c, "aabb_aabb", 3, plain::aabb_aabb);
    pair::<ObbSpec, ObbSpec>(c, "obb_obb", 4, plain::obb_obb);
    pair::<PolygonSpec, PolygonSpec>(c, "polygon_polygon", 5, plain::polygon_polygon);
    pair::<CapsuleSpec, CircleSpec>(c, "capsule_circle", 6, plain::capsule_circle);
}

criterion_group!(benches, narrowphase);
criterion_main!(benches);
