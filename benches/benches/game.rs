//! What a game's frames cost when written the way the docs show, without knowing the library's
//! internals (issue 14's footguns; collide2d alone, no parry2d). Ids:
//! - `game/platformer/{with_update,without_update}/{first_frame,later_frame}`: `move_shape` of a
//!   player over 10,000 static tiles. `first_frame` builds the level and moves once (with or
//!   without an `update` in between: the broad phase is built once either way); `later_frame`
//!   is a frame of a level built before the timer: 50 enemies walk (`move_by`), then an
//!   `update` or none, untimed, then the timed `move_shape`; `later_frame_still` the same with
//!   nothing moved since the last frame. Without `update`, each should stay within 1.5 times
//!   its cost with it.
//! - `game/platformer/character/later_frame`: the same move by `move_shape_with` with every
//!   feature on (dynamic obstacles, depenetration, a listed moving platform, a slope limit,
//!   steps, snapping); must stay within 2 times `with_update/later_frame_still` (issue 21).
//! - `game/bullets/{move_by,move_many}/{dynamic,fast}`: one frame's moves of 20,000 bullets
//!   (discs), one `move_by` each or one `move_many`, an `update` between two frames
//!   (untimed); `fast` must cost what `dynamic` costs.
//! - `game/bullets/batch/{translate_each,translate_each_xy,translate_all,intersecting}/{n}`:
//!   2,000, 20,000 or 100,000 bullets (as dense) kept in a `batch::Circles`, stepped by their
//!   velocities (as `Vec2`s, or as x and y `batch::Column`s), or all by one, against one query
//!   of the player over them.
//! - `game/spin/{set_pose,set_shape}`: 1,000 spinning hexagons placed by `set_pose` (in place)
//!   or by `set_shape(local.transformed(&pose))` (a new polygon each).
//!
//! ```sh
//! cd benches && cargo bench --bench game -- --warm-up-time 1 --measurement-time 3
//! ```
// A bench aborts on a wrong answer; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, CollisionWorld, ConvexPolygon, Filter, Handle};
use collide2d::{MoveSettings, ObjectKind, Obstacles, Response, Shape};
use collide2d_benches::game;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// [`game::level`] with a crate (dynamic) beside the landing spot and a lift (dynamic) further on,
/// which rose by 2 this frame.
fn character_level() -> (CollisionWorld<()>, Handle) {
    let mut world = game::level();
    let mut add = |x: f32, y: f32, w: f32, h: f32| {
        let shape = Aabb::from_rect(x, y, w, h).unwrap_or_else(|e| panic!("{e}"));
        let added = world.insert(shape.into(), Filter::DEFAULT, ObjectKind::Dynamic, ());
        added.unwrap_or_else(|e| panic!("{e}"))
    };
    add(4040.0, 320.0, 12.0, 12.0);
    let lift = add(4100.0, 322.0, 48.0, 8.0);
    (world, lift)
}

/// [`game::step`] by `move_shape_with` with every feature on.
fn character_step(world: &CollisionWorld<()>, lift: Handle, player: &Shape) -> Vec2 {
    let platforms = [(lift, Vec2::new(0.0, 2.0))];
    let settings = MoveSettings {
        obstacles: Obstacles::All,
        max_slope: 50f32.to_radians(),
        step_height: 4.0,
        snap_to_ground: 4.0,
        depenetrate: true,
        platforms: &platforms,
        ..MoveSettings::default()
    };
    let motion = Vec2::new(6.0, -30.0);
    let moved = world.move_shape_with(player, motion, u64::MAX, &settings, |_, ()| Response::Slide);
    moved.delta
}

fn platformer(c: &mut Criterion) {
    let player = game::player();
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
                let mut world = game::level();
                if with_update {
                    world.update();
                }
                let delta = game::step(&world, &player);
                assert_eq!(delta, game::LANDED);
                black_box(world)
            });
        });
        // A frame after 50 enemies walked, and a frame with nothing moved since the last one.
        for (frame_name, walk) in [("later_frame", true), ("later_frame_still", false)] {
            let mut world = game::level();
            let walkers = game::add_walkers(&mut world);
            world.update();
            let mut frame = 0;
            g.bench_function(format!("{name}/{frame_name}"), |b| {
                b.iter_custom(|iters| {
                    let mut spent = Duration::ZERO;
                    for _ in 0..iters {
                        frame += 1;
                        if walk {
                            game::walk(&mut world, &walkers, frame);
                        }
                        if with_update {
                            world.update();
                        }
                        let start = Instant::now();
                        let delta = black_box(game::step(&world, &player));
                        spent += start.elapsed();
                        assert_eq!(delta, game::LANDED);
                    }
                    spent
                });
            });
        }
    }
    let (world, lift) = character_level();
    assert_eq!(character_step(&world, lift, &player), game::LANDED);
    g.bench_function("character/later_frame", |b| {
        b.iter(|| black_box(character_step(&world, lift, &player)));
    });
    g.finish();
}

fn bullet_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("game/bullets");
    g.sample_size(20);
    for (name, kind) in [("dynamic", ObjectKind::Dynamic), ("fast", ObjectKind::Fast)] {
        // Forth and back on alternate frames, so the bullets stay on the field; an `update`
        // between two frames, untimed, as in a game.
        for how in ["move_by", "move_many"] {
            let (mut world, mut moves) = game::bullet_world(kind);
            g.bench_function(format!("{how}/{name}"), |b| {
                b.iter_custom(|iters| {
                    let mut spent = Duration::ZERO;
                    for _ in 0..iters {
                        for (_, v) in &mut moves {
                            *v = -*v;
                        }
                        let start = Instant::now();
                        let moved = if how == "move_by" {
                            moves.iter().try_for_each(|&(h, v)| world.move_by(h, v))
                        } else {
                            world.move_many(moves.iter().copied())
                        };
                        spent += start.elapsed();
                        moved.unwrap_or_else(|e| panic!("{e}"));
                        black_box(world.update());
                    }
                    spent
                });
            });
        }
    }
    // The same bullets in a `batch::Circles`, at three sizes (L1, L2 and past L2 on a
    // typical CPU): each move against one query over them.
    for n in [2_000, game::BULLETS, 100_000] {
        let (mut discs, velocities) = game::bullet_batch_of(n);
        // Forth and back: the velocities and their opposites, made before the timer.
        let back: Vec<Vec2> = velocities.iter().map(|&v| -v).collect();
        let mut forth = false;
        g.bench_function(format!("batch/translate_each/{n}"), |b| {
            b.iter(|| {
                forth = !forth;
                let deltas = if forth { &velocities } else { &back };
                discs
                    .translate_each(deltas)
                    .unwrap_or_else(|e| panic!("{e}"));
            });
        });
        // The velocities kept as x and y columns, as the discs are (the documented way).
        let (forth_xy, back_xy) = (
            game::velocity_columns(&velocities),
            game::velocity_columns(&back),
        );
        g.bench_function(format!("batch/translate_each_xy/{n}"), |b| {
            b.iter(|| {
                forth = !forth;
                let [dxs, dys] = if forth { &forth_xy } else { &back_xy };
                discs
                    .translate_each_xy(dxs, dys)
                    .unwrap_or_else(|e| panic!("{e}"));
            });
        });
        g.bench_function(format!("batch/translate_all/{n}"), |b| {
            b.iter(|| {
                forth = !forth;
                let delta = if forth { velocities[0] } else { back[0] };
                discs.translate_all(delta).unwrap_or_else(|e| panic!("{e}"));
            });
        });
        let player = game::bullet_target_of(n);
        let mut hits = Vec::new();
        g.bench_function(format!("batch/intersecting/{n}"), |b| {
            b.iter(|| {
                discs.intersecting(&player, &mut hits);
                black_box(hits.len())
            });
        });
    }
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
