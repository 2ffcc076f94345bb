//! Narrow-phase pair queries, collide2d against parry2d, Box2D v3 and a plain `f32` test, on
//! the same seeded pairs (see `collide2d_benches::Pairs`), at every size of
//! `collide2d_benches::select::SIZES`. Ids: `intersects/<pair>/<size>/{collide2d,
//! collide2d_shape, parry2d, box2d, plain_f32, plain_f32_dispatch}` and
//! `contact/<pair>/<size>/{collide2d, collide2d_shape, parry2d, box2d}`; each iteration runs
//! all pairs. `collide2d` runs `PairQuery` on pairs stored by type (as parry2d's are),
//! `collide2d_shape` the free functions on pairs of `Shape`s.
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::PairQuery;
use collide2d_benches::box2d::Manifold;
use collide2d_benches::runs;
use collide2d_benches::select::{samples, selected, SIZES};
use collide2d_benches::{
    plain, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, Pairs, PolygonSpec, Spec,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Builds and checks the pairs for `name` at every size, then times `intersects` and `contact`
/// on them.
fn pair<A: Spec, B: Spec>(
    c: &mut Criterion,
    name: &str,
    plain_test: impl Fn(&A::Plain, &B::Plain) -> bool + Copy,
) where
    A::Box2d: Manifold<B::Box2d>,
    A::Typed: PairQuery<B::Typed>,
{
    for (k, &n) in SIZES.iter().enumerate() {
        let (hit_id, contact_id) = (
            format!("intersects/{name}/{n}"),
            format!("contact/{name}/{n}"),
        );
        if !selected(&hit_id) && !selected(&contact_id) {
            continue;
        }
        // A new seed per size: every size is its own random set.
        let pairs = Pairs::<A, B>::generate(seed(name) + 1000 * k as u64, n);
        let (hits, touching) = pairs
            .check(plain_test)
            .unwrap_or_else(|e| panic!("{name}: libraries disagree: {e}"));
        let typed_agree = pairs
            .typed
            .iter()
            .zip(&pairs.collide)
            .all(|((x, y), (a, b))| x.intersects(y) == collide2d::intersects(a, b));
        assert!(typed_agree, "{name}: typed and Shape queries disagree");
        let (b2_count, b2_worst) = pairs.check_box2d();
        eprintln!(
            "{name}/{n}: {hits} intersecting, {touching} touching disagreements (parry2d, plain); \
             Box2D disagrees on {b2_count} (largest distance or depth {b2_worst})"
        );
        let elements = Throughput::Elements(n as u64);

        let mut g = c.benchmark_group(hit_id);
        g.throughput(elements.clone()).sample_size(samples(n));
        g.bench_function("collide2d", |b| {
            b.iter(|| runs::collide2d_typed_intersects(black_box(&pairs.typed)))
        });
        g.bench_function("collide2d_shape", |b| {
            b.iter(|| runs::collide2d_intersects(black_box(&pairs.collide)))
        });
        g.bench_function("parry2d", |b| {
            b.iter(|| runs::parry2d_intersects(black_box(&pairs.parry)))
        });
        g.bench_function("box2d", |b| {
            b.iter(|| runs::box2d_intersects(black_box(&pairs.box2d)))
        });
        g.bench_function("plain_f32", |b| {
            b.iter(|| runs::plain_intersects(black_box(&pairs.plain), plain_test))
        });
        g.bench_function("plain_f32_dispatch", |b| {
            b.iter(|| runs::plain_dispatch_intersects(black_box(&pairs.collide)))
        });
        g.finish();

        let mut g = c.benchmark_group(contact_id);
        g.throughput(elements).sample_size(samples(n));
        g.bench_function("collide2d", |b| {
            b.iter(|| runs::collide2d_typed_contact(black_box(&pairs.typed)))
        });
        g.bench_function("collide2d_shape", |b| {
            b.iter(|| runs::collide2d_contact(black_box(&pairs.collide)))
        });
        g.bench_function("parry2d", |b| {
            b.iter(|| runs::parry2d_contact(black_box(&pairs.parry)))
        });
        g.bench_function("box2d", |b| {
            b.iter(|| runs::box2d_contact(black_box(&pairs.box2d)))
        });
        g.finish();
    }
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
