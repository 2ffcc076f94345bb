//! Level maps (`collide2d_benches::level`): a 1,000 x 1,000 tile Tiled layer loaded and merged,
//! and the world built from it against one built by hand from the same rectangles. Ids:
//! - `level/load_merge/{tmx_zlib,tmj_csv}`: read the file, decode, merge (target: < 100 ms);
//! - `level/world_update/{loaded,by_hand}`: 5,000 circles moved through the level's static
//!   boxes, then one update; both worlds hold the same boxes, so the times should match.
//!
//! ```sh
//! cd benches && cargo bench --bench level -- --warm-up-time 1 --measurement-time 4
//! ```
// A bench aborts on inputs that disagree; that is what `panic` is for here.
#![allow(clippy::panic, clippy::unwrap_used)]

use collide2d::math::Vec2;
use collide2d::{BroadPhase, Circle, CollisionWorld, Filter, Handle, ObjectKind, Shape};
use collide2d_benches::level::{
    platformer_cells, rectangles_by_hand, write_tmj, write_tmx, SIDE, TILE,
};
use collide2d_benches::Rng;
use collide2d_level::{load, LayerFilters, LoadOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const MOVERS: usize = 5000;

fn load_merge(c: &mut Criterion) {
    let cells = platformer_cells(7);
    let dir = std::env::temp_dir().join(format!("collide2d-level-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let by_hand = rectangles_by_hand(&cells);
    let solid = cells.iter().filter(|&&c| c != 0).count();
    let mut group = c.benchmark_group("level/load_merge");
    for (name, path) in [
        ("tmx_zlib", write_tmx(&dir, &cells)),
        ("tmj_csv", write_tmj(&dir, &cells)),
    ] {
        let objects = load(&path, &LoadOptions::default()).unwrap().objects;
        let shapes: Vec<Shape> = objects.iter().map(|o| o.shape.clone()).collect();
        assert!(
            shapes == by_hand,
            "{name}: the loaded boxes differ from the hand-made ones"
        );
        println!(
            "{name}: {solid} solid tiles of {} became {} boxes",
            SIDE * SIDE,
            shapes.len()
        );
        group.bench_function(name, |b| {
            b.iter(|| black_box(load(&path, &LoadOptions::default()).unwrap().objects.len()));
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A world of the level's boxes (static) plus `MOVERS` small circles, and the circles' handles.
fn world(boxes: impl Fn(&mut CollisionWorld<u32>)) -> (CollisionWorld<u32>, Vec<Handle>) {
    let mut world = CollisionWorld::new(BroadPhase::default());
    boxes(&mut world);
    let mut rng = Rng::new(3);
    let side = SIDE as f32 * TILE;
    let movers = (0..MOVERS)
        .map(|_| {
            let p = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
            let shape = Circle::new(p, rng.range(2.0, 10.0)).unwrap().into();
            world
                .insert(shape, Filter::DEFAULT, ObjectKind::Dynamic, 1)
                .unwrap()
        })
        .collect();
    world.update();
    (world, movers)
}

fn world_update(c: &mut Criterion) {
    let cells = platformer_cells(7);
    let dir = std::env::temp_dir().join(format!("collide2d-level-bench-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let objects = load(&write_tmx(&dir, &cells), &LoadOptions::default())
        .unwrap()
        .objects;
    let _ = std::fs::remove_dir_all(&dir);
    let filters = LayerFilters::new().layer("Ground", Filter::DEFAULT, ObjectKind::Static);
    let loaded = world(|w| {
        filters.insert_into(w, &objects, |_, _| 0).unwrap();
    });
    let hand = world(|w| {
        for shape in rectangles_by_hand(&cells) {
            w.insert(shape, Filter::DEFAULT, ObjectKind::Static, 0)
                .unwrap();
        }
    });
    let mut group = c.benchmark_group("level/world_update");
    for (name, (mut w, movers)) in [("loaded", loaded), ("by_hand", hand)] {
        let mut frame = 0u32;
        group.bench_function(name, |b| {
            b.iter(|| {
                frame += 1;
                // Every circle steps around a small square, so the worlds stay comparable.
                let d = match frame % 4 {
                    0 => Vec2::new(3.0, 0.0),
                    1 => Vec2::new(0.0, 3.0),
                    2 => Vec2::new(-3.0, 0.0),
                    _ => Vec2::new(0.0, -3.0),
                };
                for &h in &movers {
                    w.move_by(h, d).unwrap();
                }
                black_box(w.update().pairs)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, load_merge, world_update);
criterion_main!(benches);
