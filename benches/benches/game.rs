//! What a game's frames cost when written the way the docs show, without knowing the library's
//! internals (issue 14's footguns; collide2d alone, no parry2d). Ids:
//! - `game/platformer/{with_update,without_update}/{first_frame,later_frame}`: `move_shape` of a
//!   player over 10,000 static tiles. `first_frame` builds the level and moves once (with or
//!   without an `update` in between: the broad phase is built once either way); `later_frame`
//!   is one `move_shape` in a world built before the timer. Without `update`, both must stay
//!   within 1.5 times their cost with it.
//!
//! ```sh
//! cargo bench -p collide2d-benches --bench game -- --warm-up-time 1 --measurement-time 3
//! ```
// A bench aborts on a wrong answer; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response, Shape};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// A level of 10,000 static 16-unit tiles: 500 columns, 20 rows deep, its top at y = 320.
fn level() -> CollisionWorld<()> {
    let mut world = CollisionWorld::new(BroadPhase::default());
    for i in 0..10_000 {
        let (x, y) = ((i % 500) as f32 * 16.0, (i / 500) as f32 * 16.0);
        let tile = Aabb::from_rect(x, y, 16.0, 16.0).unwrap_or_else(|e| panic!("{e}"));
        let added = world.insert(tile.into(), Filter::DEFAULT, ObjectKind::Static, ());
        added.unwrap_or_else(|e| panic!("{e}"));
    }
    world
}

/// One frame of the player running right and falling: lands on the tiles and slides.
fn step(world: &CollisionWorld<()>, player: &Shape) -> Vec2 {
    let moved = world.move_shape(player, Vec2::new(6.0, -30.0), u64::MAX, |_, ()| {
        Response::Slide
    });
    moved.delta
}

fn platformer(c: &mut Criterion) {
    let player: Shape = Aabb::from_rect(4000.0, 330.0, 12.0, 24.0)
        .unwrap_or_else(|e| panic!("{e}"))
        .into();
    let landed = Vec2::new(6.0, -10.0);
    let mut g = c.benchmark_group("game/platformer");
    g.sample_size(10);
    for with_update in [true, false] {
        let name = if with_update {
            "with_update"
        } else {
            "without_update"
        };
        g.bench_function(format!("{name}/first_frame"), |b| {
            b.iter(|| {
                let mut world = level();
                if with_update {
                    world.update();
                }
                let delta = step(&world, &player);
                assert_eq!(delta, landed);
                black_box(world)
            });
        });
        let mut world = level();
        if with_update {
            world.update();
        }
        assert_eq!(step(&world, &player), landed);
        g.bench_function(format!("{name}/later_frame"), |b| {
            b.iter(|| black_box(step(&world, &player)));
        });
    }
    g.finish();
}

criterion_group!(benches, platformer);
criterion_main!(benches);
