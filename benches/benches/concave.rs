//! Contacts of compound and concave shapes, collide2d against parry2d's compound contact, on the
//! same seeded pairs (`collide2d_benches::concave`): ids
//! `contact/<pair>/{collide2d, per_part, parry2d}`, where `per_part` is the deepest pair of
//! parts (what collide2d answered before issue 17); each iteration runs all pairs. Before
//! timing, each group prints how many pairs intersect and how many of those the per-part
//! contact already answered right (the union contact's fast path).

use collide2d_benches::concave::{
    census, collide2d_contacts, pairs, parry2d_contacts, per_part_contacts, CASES, COUNT,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn concave(c: &mut Criterion) {
    for (name, a, b, seed) in CASES {
        let pairs = pairs(a, b, seed, COUNT);
        let (hits, same) = census(&pairs);
        eprintln!(
            "{name}: {} pairs, {hits} intersecting, {same} with the per-part normal and depth",
            pairs.len()
        );
        let mut g = c.benchmark_group(format!("contact/{name}"));
        g.throughput(Throughput::Elements(pairs.len() as u64));
        g.bench_function("collide2d", |b| {
            b.iter(|| collide2d_contacts(black_box(&pairs)))
        });
        g.bench_function("per_part", |b| {
            b.iter(|| per_part_contacts(black_box(&pairs)))
        });
        g.bench_function("parry2d", |b| {
            b.iter(|| parry2d_contacts(black_box(&pairs)))
        });
        g.finish();
    }
}

criterion_group!(benches, concave);
criterion_main!(benches);
