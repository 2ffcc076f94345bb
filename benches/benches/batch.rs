//! One disc against 100,000 discs or boxes, collecting the indices hit (see
//! `collide2d_benches::batch`). Ids: `batch/<crowd>/<function>` with `<crowd>` `circles` or
//! `aabbs` and `<function>` a collide2d kernel (`portable`, `avx2`, `avx512`: those this CPU
//! runs), `parry2d` (a loop of `intersection_test`) or `plain_f32` (the inexact `f32` loop).
//! Throughput is in elements: criterion's `elem/s` is tests per second.
// A bench aborts on inputs the kernels disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::batch::Kernel;
use collide2d::Shape;
use collide2d_benches::batch::{self, CROWD};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// Runs `f` into a fresh vector and returns the indices.
fn indices(f: impl FnOnce(&mut Vec<usize>)) -> Vec<usize> {
    let mut out = Vec::new();
    f(&mut out);
    out
}

fn circles(c: &mut Criterion) {
    let crowd = batch::bullets();
    let probe = batch::probe();
    let shape = Shape::from(probe);
    let parry_probe = batch::parry_probe();
    let expected =
        indices(|o| batch::collide2d_circles(Kernel::portable(), &crowd.store, &shape, o));
    for k in Kernel::available() {
        let got = indices(|o| batch::collide2d_circles(k, &crowd.store, &shape, o));
        if got != expected {
            panic!("circles: kernel {} disagrees with portable", k.name());
        }
    }
    let parry = indices(|o| batch::parry2d_loop(&parry_probe, &crowd.parry, o));
    let plain = indices(|o| batch::plain_circles(&crowd.store, &probe, o));
    eprintln!(
        "circles: {} discs, {} hit (parry2d {}, plain_f32 {})",
        crowd.store.len(),
        expected.len(),
        parry.len(),
        plain.len()
    );

    let mut g = c.benchmark_group("batch/circles");
    g.throughput(Throughput::Elements(CROWD as u64));
    let mut out = Vec::with_capacity(CROWD);
    for k in Kernel::available() {
        g.bench_function(k.name(), |b| {
            b.iter(|| batch::collide2d_circles(k, black_box(&crowd.store), &shape, &mut out))
        });
    }
    g.bench_function("parry2d", |b| {
        b.iter(|| batch::parry2d_loop(&parry_probe, black_box(&crowd.parry), &mut out))
    });
    g.bench_function("plain_f32", |b| {
        b.iter(|| batch::plain_circles(black_box(&crowd.store), &probe, &mut out))
    });
    g.finish();
}

fn aabbs(c: &mut Criterion) {
    let crowd = batch::tiles();
    let probe = batch::probe();
    let shape = Shape::from(probe);
    let parry_probe = batch::parry_probe();
    let expected = indices(|o| batch::collide2d_aabbs(Kernel::portable(), &crowd.store, &shape, o));
    for k in Kernel::available() {
        let got = indices(|o| batch::collide2d_aabbs(k, &crowd.store, &shape, o));
        if got != expected {
            panic!("aabbs: kernel {} disagrees with portable", k.name());
        }
    }
    let parry = indices(|o| batch::parry2d_loop(&parry_probe, &crowd.parry, o));
    let plain = indices(|o| batch::plain_aabbs(&crowd.store, &probe, o));
    eprintln!(
        "aabbs: {} boxes, {} hit (parry2d {}, plain_f32 {})",
        crowd.store.len(),
        expected.len(),
        parry.len(),
        plain.len()
    );

    let mut g = c.benchmark_group("batch/aabbs");
    g.throughput(Throughput::Elements(CROWD as u64));
    let mut out = Vec::with_capacity(CROWD);
    for k in Kernel::available() {
        g.bench_function(k.name(), |b| {
            b.iter(|| batch::collide2d_aabbs(k, black_box(&crowd.store), &shape, &mut out))
        });
    }
    g.bench_function("parry2d", |b| {
        b.iter(|| batch::parry2d_loop(&parry_probe, black_box(&crowd.parry), &mut out))
    });
    g.bench_function("plain_f32", |b| {
        b.iter(|| batch::plain_aabbs(black_box(&crowd.store), &probe, &mut out))
    });
    g.finish();
}

criterion_group!(benches, circles, aabbs);
criterion_main!(benches);
