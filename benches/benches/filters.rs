//! Many distinct filters (issue 16, items 2 and 3): 65,536 small discs on one layer, either all
//! with one filter or each with its own mask (every mask holding the layer, so both give the same
//! pairs). One iteration = move every disc a little, then one update. Ids:
//! `world/filters/{grid,tree}/{one_filter,distinct_filters}`; the two of one broad phase should
//! be within 2x of each other (before issue 16 the distinct filters took minutes).
//!
//! ```sh
//! cd benches && cargo bench --bench filters -- --warm-up-time 1 --measurement-time 4
//! ```
// A bench aborts on inputs whose two variants disagree; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::hint::black_box;

const N: usize = 1 << 16;

/// `N` discs of radius 0.6 on a square lattice one unit apart (each overlaps its four
/// neighbours), all with one filter or each with its own.
fn world(broad: BroadPhase, distinct: bool) -> (CollisionWorld, Vec<Handle>) {
    let side = (N as f64).sqrt() as usize;
    let mut world = CollisionWorld::new(broad);
    let handles = (0..N)
        .map(|i| {
            let at = Vec2::new((i % side) as f32, (i / side) as f32);
            let disc = Circle::new(at, 0.6).unwrap_or_else(|e| panic!("{e}"));
            let mask = if distinct { 1 | (i as u64) << 1 } else { 1 };
            world
                .insert(disc.into(), Filter::new(1, mask), ObjectKind::Dynamic, ())
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    (world, handles)
}

fn filters(c: &mut Criterion) {
    let mut g = c.benchmark_group("world/filters");
    g.sample_size(10);
    let broads = [
        (
            "grid",
            BroadPhase::grid(2.0).unwrap_or_else(|e| panic!("{e}")),
        ),
        ("tree", BroadPhase::tree(0.1)),
    ];
    for (name, broad) in broads {
        let mut pairs = Vec::new();
        for (variant, distinct) in [("one_filter", false), ("distinct_filters", true)] {
            let (mut world, handles) = world(broad, distinct);
            pairs.push(world.update().pairs);
            let mut frame = 0u32;
            g.bench_function(BenchmarkId::new(name, variant), |b| {
                b.iter(|| {
                    frame += 1;
                    let step = if frame & 1 == 0 { 0.01 } else { -0.01 };
                    for &h in &handles {
                        let _ = world.move_by(h, Vec2::new(step, 0.0));
                    }
                    black_box(world.update())
                });
            });
        }
        assert!(
            pairs[0] == pairs[1],
            "{name}: {} and {} pairs",
            pairs[0],
            pairs[1]
        );
    }
    g.finish();
}

criterion_group!(benches, filters);
criterion_main!(benches);
