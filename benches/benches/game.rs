//! What a game's frames cost when written the way the docs show, without knowing the library's
//! internals (issue 14's footguns; collide2d alone, no parry2d). Ids:
//! - `game/platformer/{with_update,without_update}/{first_frame,later_frame}`: `move_shape` of a
//!   player over 10,000 static tiles. `first_frame` builds the level and moves once (with or
//!   without an `update` in between: the broad phase is built once either way); `later_frame`
//!   is one `move_shape` in a world built before the timer. Without `update`, both must stay
//!   within 1.5 times their cost with it.
//! - `game/bullets/{move_by,move_many}/{dynamic,fast}`: one frame's moves of 20,000 bullets
//!   (discs), one `move_by` each or one `move_many`; `fast` must cost what `dynamic` costs.
//! - `game/bullets/batch/{translate_each,intersecting}`: the same 20,000 bullets kept in a
//!   `batch::Circles`, stepped by their velocities, against one query of the player over them.
//! - `game/spin/{set_pose,set_shape}`: 1,000 spinning hexagons placed by `set_pose` (in place)
//!   or by `set_shape(local.transformed(&pose))` (a new polygon each).
//!
//! ```sh
//! cargo bench -p collide2d-benches --bench game -- --warm-up-time 1 --measurement-time 3
//! ```
// A bench aborts on a wrong answer; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::batch::Circles;
use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, Circle, CollisionWorld, ConvexPolygon, Filter, Handle};
use collide2d::{ObjectKind, Response, Shape};
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

/// 20,000 bullets on a 400 x 400 field, each with a velocity, seeded.
fn bullets() -> Vec<(Vec2, Vec2)> {
    let mut x = 0x2545_f491u32;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        (x >> 8) as f32 / (1u32 << 24) as f32
    };
    (0..20_000)
        .map(|_| {
            let at = Vec2::new(next() * 400.0, next() * 400.0);
            (at, Vec2::from_angle(next() * std::f32::consts::TAU) * 3.0)
        })
        .collect()
}

/// A world of the bullets as `kind` (in a layer that ignores itself), and their handles with
/// their velocities.
fn bullet_world(kind: ObjectKind) -> (CollisionWorld<()>, Vec<(Handle, Vec2)>) {
    let mut world = CollisionWorld::new(BroadPhase::grid(4.0).unwrap_or_else(|e| panic!("{e}")));
    let moves = bullets()
        .into_iter()
        .map(|(at, v)| {
            let disc = Circle::new_unchecked(at, 1.0).into();
            let h = world.insert(disc, Filter::new(2, 1), kind, ());
            (h.unwrap_or_else(|e| panic!("{e}")), v)
        })
        .collect();
    world.update();
    (world, moves)
}

fn bullet_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("game/bullets");
    g.sample_size(20);
    for (name, kind) in [("dynamic", ObjectKind::Dynamic), ("fast", ObjectKind::Fast)] {
        // Forth and back on alternate frames, so the bullets stay on the field.
        let (mut world, mut moves) = bullet_world(kind);
        g.bench_function(format!("move_by/{name}"), |b| {
            b.iter(|| {
                for (h, v) in &mut moves {
                    *v = -*v;
                    world.move_by(*h, *v).unwrap_or_else(|e| panic!("{e}"));
                }
            });
        });
        let (mut world, mut moves) = bullet_world(kind);
        g.bench_function(format!("move_many/{name}"), |b| {
            b.iter(|| {
                for (_, v) in &mut moves {
                    *v = -*v;
                }
                let all = moves.iter().copied();
                world.move_many(all).unwrap_or_else(|e| panic!("{e}"));
            });
        });
    }
    let (mut discs, mut velocities) = (Circles::with_capacity(20_000), Vec::new());
    for (at, v) in bullets() {
        discs.push_circle(&Circle::new_unchecked(at, 1.0));
        velocities.push(v);
    }
    g.bench_function("batch/translate_each", |b| {
        b.iter(|| {
            for v in &mut velocities {
                *v = -*v;
            }
            discs
                .translate_each(&velocities)
                .unwrap_or_else(|e| panic!("{e}"));
        });
    });
    let player: Shape = Circle::new_unchecked(Vec2::new(200.0, 200.0), 8.0).into();
    let mut hits = Vec::new();
    g.bench_function("batch/intersecting", |b| {
        b.iter(|| {
            discs.intersecting(&player, &mut hits);
            black_box(hits.len())
        });
    });
    g.finish();
}

fn spin(c: &mut Criterion) {
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::FRAC_PI_3) * 2.0)
        .collect();
    let local: Shape = ConvexPolygon::new(&hexagon)
        .unwrap_or_else(|e| panic!("{e}"))
        .into();
    let mut world = CollisionWorld::new(BroadPhase::default());
    let handles: Vec<Handle> = (0..1000)
        .map(|_| world.insert(local.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    let pose = |frame: u32, k: usize| {
        let at = Vec2::new((k % 40) as f32 * 5.0, (k / 40) as f32 * 5.0);
        Pose::new(at, frame as f32 * 0.01 + k as f32)
    };
    let mut g = c.benchmark_group("game/spin");
    g.sample_size(20);
    let mut frame = 0;
    g.bench_function("set_pose", |b| {
        b.iter(|| {
            frame += 1;
            for (k, &h) in handles.iter().enumerate() {
                world
                    .set_pose(h, pose(frame, k))
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        });
    });
    g.bench_function("set_shape", |b| {
        b.iter(|| {
            frame += 1;
            for (k, &h) in handles.iter().enumerate() {
                let placed = local.transformed(&pose(frame, k));
                world.set_shape(h, placed).unwrap_or_else(|e| panic!("{e}"));
            }
        });
    });
    g.finish();
}

criterion_group!(benches, platformer, bullet_moves, spin);
criterion_main!(benches);
