//! Issue 16: inputs that grew quadratically. Each test times a small instance and one four times
//! larger (the fastest of several runs each) and asserts the cost grew about fourfold (less than
//! 8x), not sixteenfold, so the machine's speed and load do not matter (only their ratio does).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{cast_shapes, contact, distance, intersects, Circle, Compound, Shape};
use std::time::{Duration, Instant};

/// The fastest of `runs` timings of `f`.
fn fastest(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The least of up to five measured growth ratios, stopping at the first under `limit`: a
/// busy machine can slow one timing of one size, while a quadratic cost is slow in every
/// attempt.
fn least_growth(limit: f64, mut measure: impl FnMut() -> f64) -> f64 {
    let mut least = f64::INFINITY;
    for _ in 0..5 {
        least = least.min(measure());
        if least < limit {
            break;
        }
    }
    least
}

/// Held while timing, and by the test that runs 2,000 frames, so the tests of this file do not
/// time each other (a busy second core slowed one size of a timing enough to fail it).
static TIMING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `n` discs of radius 0.25 on a circle of radius `r` about `centre`, one unit apart when `r`
/// is `n / 2π`.
fn ring(n: usize, r: f32, centre: Vec2) -> Shape {
    let parts = (0..n)
        .map(|k| {
            let at = Vec2::from_angle(k as f32 * core::f32::consts::TAU / n as f32) * r;
            Circle::new(centre + at, 0.25).unwrap().into()
        })
        .collect();
    Compound::new(parts).unwrap().into()
}

/// Item 1: two concentric rings of disc parts one unit apart (distance, contact, intersects),
/// and a ring cast through another: a scan of every pair of parts grew 16 times. Each query is
/// timed alone (the fastest of 7 runs: the machine's hiccups last longer than a query), on
/// rings built beforehand.
#[test]
fn compound_against_compound_grows_linearly_in_parts() {
    let rings = |n: usize| {
        let r = n as f32 / core::f32::consts::TAU;
        (ring(n, r, Vec2::ZERO), ring(n, r + 1.0, Vec2::ZERO))
    };
    let (small, large) = (rings(250), rings(1000));
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let cost = |(a, b): &(Shape, Shape)| {
        let queries: [&dyn Fn(); 4] = [
            &|| assert!(!intersects(a, b)),
            &|| assert!(contact(a, b).is_none()),
            &|| assert!((0.4..=0.5).contains(&distance(a, b))),
            // Moved sideways by less than a unit: the rings meet near the ends of the motion's
            // axis.
            &|| assert!(cast_shapes(a, Vec2::new(0.0, 1.5), b, Vec2::ZERO).is_some()),
        ];
        queries
            .iter()
            .map(|q| fastest(7, q).as_secs_f64())
            .sum::<f64>()
    };
    let g = least_growth(8.0, || cost(&large) / cost(&small));
    assert!(g < 8.0, "4x the parts took {g:.1}x the time");
}

/// `n` small discs on one layer, one unit apart (none touching), each with its own mask when
/// `distinct`.
fn lattice(broad: collide2d::BroadPhase, n: usize, distinct: bool) -> collide2d::CollisionWorld {
    use collide2d::{CollisionWorld, Filter, ObjectKind};
    let side = (n as f64).sqrt().ceil() as usize;
    let mut world = CollisionWorld::new(broad);
    for i in 0..n {
        let at = Vec2::new((i % side) as f32, (i / side) as f32);
        let mask = if distinct { 1 | (i as u64) << 1 } else { 1 };
        let disc = Circle::new(at, 0.25).unwrap().into();
        world
            .insert(disc, Filter::new(1, mask), ObjectKind::Dynamic, ())
            .unwrap();
    }
    world
}

fn broad_phases() -> [(&'static str, collide2d::BroadPhase); 2] {
    [
        ("grid", collide2d::BroadPhase::grid(1.0).unwrap()),
        ("tree", collide2d::BroadPhase::tree(0.1)),
    ]
}

/// Item 2: objects each with its own filter cost about what objects of one filter cost, and
/// grow linearly (pairs of filter groups grew 16 times). The updates after the first (every
/// pair searched again) are timed, the fastest of 7.
#[test]
fn many_distinct_filters_grow_linearly_in_objects() {
    for (name, broad) in broad_phases() {
        let mut worlds = [1000, 4000].map(|n| lattice(broad, n, true));
        let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
        let g = least_growth(8.0, || {
            let [small, large] = worlds.each_mut().map(|w| {
                w.update();
                fastest(7, || assert_eq!(w.update().pairs, 0))
            });
            large.as_secs_f64() / small.as_secs_f64().max(1e-9)
        });
        assert!(g < 8.0, "{name}: 4x the objects took {g:.1}x the time");
    }
}

/// Item 3: 100 objects given a fresh filter every frame: groups no object uses are freed and
/// reused, so the broad phase's trees stay as many as the filters in use (they grew by 100 a
/// frame, and every update visited them all: 81 µs became 1.6 ms) and its nodes as many as the
/// objects need. Counted, not timed: the counts do not depend on the machine's load.
#[test]
fn fresh_filters_every_frame_reuse_the_groups() {
    use collide2d::{BroadBoxKind, Filter};
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    for (name, broad) in broad_phases() {
        let mut world = lattice(broad, 100, false);
        let handles: Vec<_> = world.iter().map(|(h, ..)| h).collect();
        let mut most_boxes = 0;
        for k in 0..2000u64 {
            for (i, &h) in handles.iter().enumerate() {
                world
                    .set_filter(h, Filter::new(1, 1 | (k * 100 + i as u64) << 1))
                    .unwrap();
            }
            world.update();
            most_boxes = most_boxes.max(world.broad_phase_boxes().len());
        }
        let trees = world
            .broad_phase_boxes()
            .iter()
            .filter_map(|b| match b.kind {
                BroadBoxKind::Node { tree, .. } | BroadBoxKind::Leaf { tree, .. } => Some(tree),
                _ => None,
            })
            .max();
        assert!(
            trees.is_none_or(|t| t < 200),
            "{name}: tree number {trees:?}"
        );
        assert!(most_boxes < 400, "{name}: {most_boxes} boxes");
    }
}

/// Item 1, point queries: the nearest boundary point of a compound to a point inside it looked
/// at every part for every part's edges. A square of flush unit tiles, 256 then 1024 of them.
#[test]
fn projecting_a_point_into_a_compound_grows_linearly_in_parts() {
    use collide2d::{project_point, Aabb};
    let tiles = |side: usize| -> Shape {
        let parts = (0..side * side)
            .map(|i| {
                let (x, y) = ((i % side) as f32, (i / side) as f32);
                Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0))
                    .unwrap()
                    .into()
            })
            .collect();
        Compound::new(parts).unwrap().into()
    };
    let (small, large) = (tiles(16), tiles(32));
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let cost = |s: &Shape| {
        // Nearer the bottom edge than any other: the answer is on it.
        let p = Vec2::new(5.5, 0.25);
        fastest(7, || {
            let q = project_point(s, p);
            assert!(q.is_inside && q.point == Vec2::new(5.5, 0.0), "{q:?}");
        })
        .as_secs_f64()
    };
    let g = least_growth(8.0, || cost(&large) / cost(&small));
    assert!(g < 8.0, "4x the parts took {g:.1}x the time");
}
