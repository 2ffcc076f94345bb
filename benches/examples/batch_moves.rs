//! The bullets of `game/bullets/batch` (`benches/game.rs`) moved by x and y velocity columns,
//! queried, and both in one pass, without criterion: the fastest of 31 rounds of about 2 ms
//! each (nanoseconds per call), so a loaded machine's waits count less. Each is timed twice:
//! alternating the velocities and their opposites, as the criterion bench does (two sets of
//! velocity columns, twice the bytes of one), and with one set (the discs drift; what a game
//! does).
//!
//! ```sh
//! cargo build --profile bench -p collide2d-benches --example batch_moves
//! target/release/examples/batch_moves 20000
//! ```
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d_benches::game;
use std::hint::black_box;
use std::time::Instant;

/// Nanoseconds per call of `f`: the fastest of 31 rounds of about 2 ms.
fn time(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    f();
    let once = start.elapsed().as_secs_f64().max(1e-7);
    let calls = ((0.002 / once) as usize).max(1);
    (0..31)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / calls as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let arg = std::env::args().nth(1);
    let n: usize = arg.map_or(game::BULLETS, |s| {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    });
    let (mut discs, velocities) = game::bullet_batch_of(n);
    let back: Vec<_> = velocities.iter().map(|&v| -v).collect();
    let ([vx, vy], [bx, by]) = (
        game::velocity_columns(&velocities),
        game::velocity_columns(&back),
    );
    let start = discs.clone();
    let player = game::bullet_target_of(n);
    let mut hits = Vec::new();
    let mut forth = false;
    let mut pick = || {
        forth = !forth;
        if forth {
            (&vx, &vy)
        } else {
            (&bx, &by)
        }
    };
    let query = time(|| {
        discs.intersecting(&player, &mut hits);
        black_box(hits.len());
    });
    let moves = time(|| {
        let (dxs, dys) = pick();
        discs
            .translate_each_xy(dxs, dys)
            .unwrap_or_else(|e| panic!("{e}"));
    });
    let fused = time(|| {
        let (dxs, dys) = pick();
        let done = discs.translate_each_xy_and_intersecting(dxs, dys, &player, &mut hits);
        done.unwrap_or_else(|e| panic!("{e}"));
        black_box(hits.len());
    });
    discs = start.clone();
    let moves_one = time(|| {
        discs
            .translate_each_xy(&vx, &vy)
            .unwrap_or_else(|e| panic!("{e}"));
    });
    discs = start;
    let fused_one = time(|| {
        let done = discs.translate_each_xy_and_intersecting(&vx, &vy, &player, &mut hits);
        done.unwrap_or_else(|e| panic!("{e}"));
        black_box(hits.len());
    });
    println!(
        "{n} discs, ns: query {query:.0}; two velocity sets: move {moves:.0}, fused {fused:.0}, \
         (fused - query) / query {:.2}; one set: move {moves_one:.0}, fused {fused_one:.0}, \
         (fused - query) / query {:.2}",
        (fused - query) / query,
        (fused_one - query) / query
    );
}
