//! Property tests of `cast_shapes_rotating` against dense exact sampling: the shapes placed by
//! `Sweep::pose_at` at 513 evenly spaced times (the same poses the cast places them by) and
//! tested with the exact `intersects`. The cast must hit no later than the first sample that
//! touches, be within its documented tolerance there, give the same time in both argument
//! orders, and never report a hit when every pose of the step is far apart.
//!
//! Every pair of shape kinds, on a small integer grid (touching cases) and from random `f32`s,
//! with turns from none to several turns per step about the shape's center or another pivot;
//! `COLLIDE2D_SOAK=N` multiplies the case counts.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::Vec2;
use collide2d::{
    cast_shapes_rotating, distance, intersects, CastHit, Circle, Segment, Shape, Sweep,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use std::cell::Cell;
use support::kinds::{motion, shape, soak, vec2, KINDS};

const SAMPLES: u32 = 512;

/// A turn over the step: none, a small one, up to three turns, or exactly one.
fn turn() -> BoxedStrategy<f32> {
    use std::f32::consts::TAU;
    prop_oneof![
        1 => Just(0.0f32),
        2 => -1.0f32..1.0,
        2 => -3.0 * TAU..3.0 * TAU,
        1 => prop_oneof![Just(TAU), Just(-TAU)],
    ]
    .boxed()
}

/// A sweep of `s`: about its box's center half the time, else about a point of the grid.
fn sweep(s: &Shape, small: bool) -> BoxedStrategy<Sweep> {
    let center = s.aabb().center();
    (motion(small), turn(), vec2(small), any::<bool>())
        .prop_map(move |(v, w, p, centered)| Sweep::new(v, w, if centered { center } else { p }))
        .boxed()
}

fn placed(s: &Shape, sweep: Sweep, t: f32) -> Shape {
    s.transformed(&sweep.pose_at(t))
}

/// The documented tolerance, with `L` from the shapes' boxes (a bound at least as large as
/// the cast's own).
fn tolerance(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep) -> f32 {
    let reach = |s: &Shape, sw: Sweep| {
        let r = s.aabb();
        let far = [
            r.min(),
            r.max(),
            Vec2::new(r.min().x, r.max().y),
            Vec2::new(r.max().x, r.min().y),
        ]
        .iter()
        .map(|c| c.distance(sw.pivot))
        .fold(0.0, f32::max);
        // The cast's own bound is at most this: its parts' cores and radii each within `far`.
        sw.pivot.length() + sw.translation.length() + 2.0 * far
    };
    let l = reach(a, sa).max(reach(b, sb));
    (24.0 + sa.angle.abs() + sb.angle.abs()) * l / 1_048_576.0 * 1.01
}

/// How the runs went: hits after the start, misses, and hits reported beyond the tolerance
/// (a long graze that used up `MAX_ADVANCES`: early, never late, and rare).
#[derive(Default)]
struct Tally {
    later_hits: Cell<u32>,
    misses: Cell<u32>,
    beyond: Cell<u32>,
}

impl Tally {
    fn add(cell: &Cell<u32>) {
        cell.set(cell.get() + 1);
    }

    /// At most one hit in a hundred beyond the tolerance, give or take two: a run draws about
    /// 200 hits from a new seed, and a rate just under 1% then often lands just over it (2 of
    /// 187 once), where a real regression (5% or more) still fails every run.
    fn check_beyond(&self) {
        let (beyond, later) = (self.beyond.get(), self.later_hits.get());
        eprintln!(
            "TALLY beyond {beyond} later {later} misses {}",
            self.misses.get()
        );
        assert!(
            beyond * 100 <= later + 200,
            "{beyond} of {later} hits beyond the tolerance"
        );
    }
}

fn check(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep, tally: &Tally) -> Result<(), TestCaseError> {
    let hit = cast_shapes_rotating(a, sa, b, sb);
    let swapped = cast_shapes_rotating(b, sb, a, sa);
    match (hit, swapped) {
        (Some(x), Some(y)) => {
            prop_assert_eq!(x.t, y.t);
            // At the start the normal is `contact`'s, which has none of its own for identical
            // points or concentric circles (the same in both orders, as for `cast_shapes`).
            if x.t > 0.0 {
                prop_assert_eq!(x.normal, -y.normal, "{:?} vs {:?}", x, y);
            }
        }
        (x, y) => prop_assert_eq!(x.is_some(), y.is_some(), "{:?} vs {:?}", x, y),
    }
    let first = (0..=SAMPLES)
        .map(|k| k as f32 / SAMPLES as f32)
        .find(|&t| intersects(&placed(a, sa, t), &placed(b, sb, t)));
    if let Some(t) = first {
        let h =
            hit.ok_or_else(|| TestCaseError::fail(format!("missed; the samples touch at {t}")))?;
        prop_assert!(h.t <= t, "{h:?} later than the sample at {t}");
    }
    match hit {
        Some(h) => {
            check_hit(&h)?;
            if h.t > 0.0 {
                Tally::add(&tally.later_hits);
                let gap = distance(&placed(a, sa, h.t), &placed(b, sb, h.t));
                if gap > tolerance(a, sa, b, sb) {
                    Tally::add(&tally.beyond);
                }
            }
        }
        None => Tally::add(&tally.misses),
    }
    Ok(())
}

/// A hit's time, normal and depth.
fn check_hit(h: &CastHit) -> Result<(), TestCaseError> {
    prop_assert!((0.0..=1.0).contains(&h.t), "{h:?}");
    prop_assert!((h.normal.length() - 1.0).abs() < 1e-5, "{h:?}");
    prop_assert!(h.depth >= 0.0 && (h.t == 0.0 || h.depth == 0.0), "{h:?}");
    Ok(())
}

type Case = (Shape, Sweep, Shape, Sweep);

fn case(ka: usize, kb: usize) -> impl Strategy<Value = Case> {
    prop_oneof![3 => Just(true), 1 => Just(false)]
        .prop_flat_map(move |g| (shape(ka, g), shape(kb, g), Just(g)))
        .prop_flat_map(|(a, b, g)| {
            let (sa, sb) = (sweep(&a, g), sweep(&b, g));
            (Just(a), sa, Just(b), sb)
        })
}

#[test]
fn rotating_casts_hit_no_later_than_dense_exact_sampling_for_every_pair_of_kinds() {
    let tally = Tally::default();
    for (ka, name_a) in KINDS.iter().enumerate() {
        for (kb, name_b) in KINDS.iter().enumerate() {
            let config = Config {
                cases: soak(10),
                max_global_rejects: 100_000,
                // Failures are saved beside this file and replayed first (proptest's default).
                source_file: Some(file!()),
                ..Config::default()
            };
            let mut runner = TestRunner::new(config);
            match runner.run(&case(ka, kb), |(a, sa, b, sb)| {
                check(&a, sa, &b, sb, &tally)
            }) {
                Ok(()) => {}
                Err(TestError::Fail(why, case)) => {
                    panic!("{name_a} vs {name_b}: {why}\ncase = {case:?}")
                }
                Err(e) => panic!("{name_a} vs {name_b}: {e}"),
            }
        }
    }
    // Not a vacuous run: hits inside the step and misses both occur.
    let (later, misses) = (tally.later_hits.get(), tally.misses.get());
    assert!(
        later > 80 && misses > 80,
        "{later} later hits, {misses} misses"
    );
    tally.check_beyond();
}

/// The classic miss, at random: a thin bar spinning fast about a point along it, translating
/// a little, and a small coin somewhere in the disc its far end sweeps, at a turn neither end
/// pose shows.
#[test]
fn a_spinning_bar_never_misses_a_coin_in_its_disc() {
    use std::f32::consts::TAU;
    let tally = Tally::default();
    let config = Config {
        cases: soak(256),
        // Failures are saved beside this file and replayed first (proptest's default).
        source_file: Some(file!()),
        ..Config::default()
    };
    let strategy = (
        (1.0f32..50.0, -0.9f32..0.9, 0.2f32..6.0),
        (0.05f32..1.0, 0.0f32..TAU, 0.0f32..0.05, -2.0f32..2.0),
    );
    let mut runner = TestRunner::new(config);
    let result = runner.run(
        &strategy,
        |((half, pivot_at, turns), (at, angle, radius, dx))| {
            let bar: Shape = Segment::new(Vec2::new(-half, 0.0), Vec2::new(half, 0.0))
                .unwrap()
                .into();
            let pivot = Vec2::new(pivot_at * half, 0.0);
            let spin = Sweep::new(Vec2::new(dx, 0.0), turns * TAU, pivot);
            let reach = half * (1.0 - pivot_at.abs());
            let center = pivot + Vec2::from_angle(angle) * reach * at;
            let coin: Shape = Circle::new(center, radius).unwrap().into();
            check(&bar, spin, &coin, Sweep::translation(Vec2::ZERO), &tally)
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    tally.check_beyond();
}
