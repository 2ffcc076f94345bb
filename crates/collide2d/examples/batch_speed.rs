//! The batch kernels' speed on any target, without criterion: one disc against 100,000 discs
//! and against 100,000 boxes (as `benches/benches/batch.rs`), each kernel this build runs
//! beside a plain auto-vectorised `f32` loop (inexact at touching), in G tests per second
//! (the fastest of 101 short rounds). Every kernel's indices are checked against the portable kernel's.
//! An argument sets the crowd's size (100,000).
//!
//! Natively: `cargo run --release -p collide2d --example batch_speed`. In node, with the
//! wasm32 `simd128` kernel, `.ci/batch-targets --speed` (it builds this example for
//! wasm32-wasip1 with `+simd128` and runs it under node's WASI, `.ci/wasi-run.mjs`).
use collide2d::batch::{Aabbs, Circles, Kernel};
use collide2d::{math::Vec2, Aabb, Circle, Shape};
use std::hint::black_box;
use std::time::Instant;

const WORLD: f32 = 4096.0;

/// A small seeded generator (xorshift), so every target sees the same crowd.
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// Nanoseconds per call of `f`: the fastest of 101 rounds of about half a millisecond each.
/// The fastest, not the median: on a shared machine the wall clock also counts the time the
/// process waits, and a round that short is often not interrupted at all.
fn time(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    f();
    let once = start.elapsed().as_secs_f64().max(1e-7);
    let calls = ((0.0005 / once) as usize).max(1);
    (0..101)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..calls {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / calls as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn report(what: &str, name: &str, crowd: usize, ns: f64) {
    println!("{what:8} {name:10} {:6.2} G tests/s", crowd as f64 / ns);
}

/// Times every kernel on `query`, checking each finds what the portable kernel finds.
fn kernels(
    what: &str,
    crowd: usize,
    query: impl Fn(Kernel, &mut Vec<usize>),
) -> Result<(), String> {
    let mut expected = Vec::new();
    query(Kernel::portable(), &mut expected);
    let mut out = Vec::with_capacity(crowd);
    for k in Kernel::available() {
        query(k, &mut out);
        if out != expected {
            return Err(format!(
                "{what}: kernel {} disagrees with portable",
                k.name()
            ));
        }
        report(
            what,
            k.name(),
            crowd,
            time(|| query(k, black_box(&mut out))),
        );
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let crowd = match std::env::args().nth(1) {
        Some(n) => n
            .parse()
            .map_err(|_| format!("crowd must be a count, got {n:?}"))?,
        None => 100_000,
    };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let probe = Circle::new(Vec2::splat(WORLD / 2.0), 24.0).map_err(|e| e.to_string())?;
    let (q, qr) = (probe.center(), probe.radius());
    let shape = Shape::from(probe);
    let mut discs = Circles::with_capacity(crowd);
    let mut boxes = Aabbs::with_capacity(crowd);
    for _ in 0..crowd {
        let c = Vec2::new(rng.range(0.0, WORLD), rng.range(0.0, WORLD));
        let disc = Circle::new(c, rng.range(1.0, 4.0)).map_err(|e| e.to_string())?;
        discs.push_circle(&disc);
        let size = Vec2::new(rng.range(2.0, 8.0), rng.range(2.0, 8.0));
        boxes.push_aabb(&Aabb::new(c, c + size).map_err(|e| e.to_string())?);
    }
    println!(
        "one disc against {crowd} discs and {crowd} boxes; kernels: best {}",
        Kernel::best().name()
    );

    kernels("circles", crowd, |k, out| {
        discs.intersecting_with(k, &shape, out)
    })?;
    let mut out = Vec::with_capacity(crowd);
    let plain = time(|| {
        out.clear();
        let columns = discs.xs().iter().zip(discs.ys()).zip(discs.radii());
        for (i, ((&x, &y), &r)) in columns.enumerate() {
            let (dx, dy, s) = (x - q.x, y - q.y, r + qr);
            if dx * dx + dy * dy <= s * s {
                out.push(i);
            }
        }
        black_box(out.len());
    });
    report("circles", "plain_f32", crowd, plain);

    kernels("aabbs", crowd, |k, out| {
        boxes.intersecting_with(k, &shape, out)
    })?;
    let plain = time(|| {
        out.clear();
        let columns = boxes.min_xs().iter().zip(boxes.min_ys());
        let columns = columns.zip(boxes.max_xs()).zip(boxes.max_ys());
        for (i, (((&x0, &y0), &x1), &y1)) in columns.enumerate() {
            let (dx, dy) = (q.x - q.x.clamp(x0, x1), q.y - q.y.clamp(y0, y1));
            if dx * dx + dy * dy <= qr * qr {
                out.push(i);
            }
        }
        black_box(out.len());
    });
    report("aabbs", "plain_f32", crowd, plain);
    Ok(())
}
