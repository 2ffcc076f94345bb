//! One phase of the `level` bench, run `N` times, for `perf stat` (CPU time, not the wall
//! clock of a shared machine): `level_phases write` first, then `level_phases tmx|tmj N`.
#![allow(clippy::unwrap_used)]
use collide2d_benches::level::{platformer_cells, write_tmj, write_tmx};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = Path::new("/tmp/lvl");
    let what = args.get(1).map_or("write", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    if what == "write" {
        std::fs::create_dir_all(dir).unwrap();
        let cells = platformer_cells(7);
        let _ = (write_tmx(dir, &cells), write_tmj(dir, &cells));
        return;
    }
    let path = dir.join(format!("level.{what}"));
    for _ in 0..n {
        let level = collide2d_level::load(&path, &collide2d_level::LoadOptions::default()).unwrap();
        std::hint::black_box(level.objects.len());
    }
}
