//! Runs one of the game frames of `benches/game.rs` a fixed number of times, the measured part
//! inside `timed` (everything else, such as the `update` between two frames, outside it), for
//! callgrind instruction counts on a noisy machine:
//!
//! ```sh
//! cargo build --profile bench -p collide2d-benches --example game_frames
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='game_frames::timed*' \
//!     --callgrind-out-file=/dev/null target/release/examples/game_frames bullets/move_by/fast 10
//! ```
//!
//! Ids:
//! - `bullets/{move_by,move_many}/{dynamic,fast}`: a frame's moves of 20,000 discs, an
//!   `update` between two frames (untimed); `.../no_update` moves frame after frame without one.
//! - `batch/{translate_each,translate_each_xy,translate_all,intersecting}[/n]`: the discs in a
//!   `batch::Circles` (20,000, or `n` as dense), the velocities of `translate_each_xy` in two
//!   `batch::Column`s.
//! - `platformer/{with_update,without_update}/{first_frame,later_frame,later_frame_still}`:
//!   `move_shape` over 10,000 static tiles: in the first frame (the timed part is the
//!   `update`, if any, and the query: the broad phase is built once either way), or in a later
//!   frame, after 50 walking enemies moved (then `update`, if any, untimed), or with nothing
//!   moved (`later_frame_still`).
//!
//! Prints the frames run and the milliseconds per frame (wall clock, timed part only).
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d::ObjectKind;
use collide2d_benches::game;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_default();
    let frames: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let parts: Vec<&str> = id.split('/').collect();
    let spent = match parts[..] {
        ["bullets", how, kind] => bullets(how, kind, true, frames),
        ["bullets", how, kind, "no_update"] => bullets(how, kind, false, frames),
        ["batch", what] => batch(what, game::BULLETS, frames),
        ["batch", what, n] => batch(what, n.parse().unwrap_or_else(|e| panic!("{e}")), frames),
        ["platformer", with, frame] => platformer(with == "with_update", frame, frames),
        _ => panic!("unknown id {id:?}: see the ids in examples/game_frames.rs"),
    };
    let ms = spent.as_secs_f64() * 1e3 / f64::from(frames);
    println!("{id}: {frames} frames, {ms:.4} ms per frame");
}

/// The measured part of a frame.
#[inline(never)]
fn timed<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` under `timed`, adding its wall time to `spent`.
fn measure<R>(spent: &mut Duration, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let r = timed(f);
    *spent += start.elapsed();
    r
}

fn bullets(how: &str, kind: &str, update: bool, frames: u32) -> Duration {
    let kind = match kind {
        "dynamic" => ObjectKind::Dynamic,
        "fast" => ObjectKind::Fast,
        _ => panic!("unknown kind {kind}"),
    };
    let (mut world, mut moves) = game::bullet_world(kind);
    let mut spent = Duration::ZERO;
    for _ in 0..frames {
        // Forth and back on alternate frames, so the bullets stay on the field.
        for (_, v) in &mut moves {
            *v = -*v;
        }
        let result = match how {
            "move_by" => measure(&mut spent, || {
                moves.iter().try_for_each(|&(h, v)| world.move_by(h, v))
            }),
            "move_many" => measure(&mut spent, || world.move_many(moves.iter().copied())),
            _ => panic!("unknown move {how}"),
        };
        result.unwrap_or_else(|e| panic!("{e}"));
        if update {
            black_box(world.update());
        }
    }
    spent
}

fn batch(what: &str, n: usize, frames: u32) -> Duration {
    let (mut discs, mut velocities) = game::bullet_batch_of(n);
    let target = game::bullet_target_of(n);
    let mut hits = Vec::new();
    let mut spent = Duration::ZERO;
    let [mut dxs, mut dys] = game::velocity_columns(&velocities);
    for frame in 0..frames {
        for v in &mut velocities {
            *v = -*v;
        }
        for d in dxs.iter_mut().chain(dys.iter_mut()) {
            *d = -*d;
        }
        let sign = if frame.is_multiple_of(2) { 1.0 } else { -1.0 };
        match what {
            "translate_each" => measure(&mut spent, || discs.translate_each(&velocities)),
            "translate_each_xy" => measure(&mut spent, || discs.translate_each_xy(&dxs, &dys)),
            "translate_all" => measure(&mut spent, || discs.translate_all(velocities[0] * sign)),
            "intersecting" => measure(&mut spent, || {
                discs.intersecting(&target, &mut hits);
                Ok(())
            }),
            _ => panic!("unknown batch frame {what}"),
        }
        .unwrap_or_else(|e| panic!("{e}"));
    }
    black_box(hits);
    spent
}

fn platformer(with_update: bool, frame_name: &str, frames: u32) -> Duration {
    let player = game::player();
    let mut spent = Duration::ZERO;
    match frame_name {
        "first_frame" => {
            for _ in 0..frames {
                let mut world = game::level();
                let delta = measure(&mut spent, || {
                    if with_update {
                        world.update();
                    }
                    game::step(&world, &player)
                });
                assert_eq!(delta, game::LANDED);
            }
        }
        "later_frame" | "later_frame_still" => {
            let mut world = game::level();
            let walkers = game::add_walkers(&mut world);
            world.update();
            for frame in 0..frames {
                if frame_name == "later_frame" {
                    game::walk(&mut world, &walkers, frame);
                }
                if with_update {
                    world.update();
                }
                let delta = measure(&mut spent, || game::step(&world, &player));
                assert_eq!(delta, game::LANDED);
            }
        }
        _ => panic!("unknown frame {frame_name}"),
    }
    spent
}
