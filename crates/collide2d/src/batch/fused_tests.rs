//! The fused move and query against its two calls (`translate_each_xy`, then `intersecting`)
//! and against the exact pairwise `intersects`, on every kernel: random scenes and deltas
//! (touching integers, huge values that overflow, tiny ones), deltas shorter than the store,
//! and exactly touching integer cases.

use super::tests::{brute, random_aabbs, random_circles, random_probe, v, Rng, SCENES};
use super::{Aabbs, Circles, Kernel};
use crate::math::Vec2;
use crate::shape::{Aabb, Circle, Shape};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Rows of a scene: lengths around the steps (32), and past the other kernels' blocks (256)
/// now and then (fewer under Miri).
fn length(rng: &mut Rng) -> usize {
    match rng.below(8) {
        0 if !cfg!(miri) => 250 + rng.below(300) as usize,
        _ => rng.below(if cfg!(miri) { 40 } else { 100 }) as usize,
    }
}

/// Deltas for `n` rows (sometimes fewer: the rest stay), as x and y columns of the kinds the
/// coordinates take, so some moves overflow and many end exactly touching.
fn deltas(rng: &mut Rng, n: usize) -> (Vec<f32>, Vec<f32>) {
    let (nx, ny) = match rng.below(4) {
        0 => (n, n.saturating_sub(rng.below(5) as usize)),
        1 => (n.saturating_sub(rng.below(40) as usize), n),
        _ => (n, n),
    };
    let huge = rng.below(3) == 0;
    let one = |rng: &mut Rng| match rng.below(40) {
        0 if huge => [f32::MAX, -f32::MAX, f32::INFINITY, f32::NAN][rng.below(4) as usize],
        _ => rng.coord(),
    };
    let dxs = (0..nx).map(|_| one(rng)).collect();
    let dys = (0..ny).map(|_| one(rng)).collect();
    (dxs, dys)
}

/// What a store's moves and query give: its columns' bits, the indices, the error.
type Outcome = (Vec<Vec<u32>>, Vec<usize>, Option<String>);

fn bits(columns: &[&[f32]]) -> Vec<Vec<u32>> {
    columns
        .iter()
        .map(|c| c.iter().map(|x| x.to_bits()).collect())
        .collect()
}

fn circles_outcome(c: &Circles, hits: Vec<usize>, err: Option<String>) -> Outcome {
    (bits(&[c.xs(), c.ys(), c.radii()]), hits, err)
}

fn aabbs_outcome(b: &Aabbs, hits: Vec<usize>, err: Option<String>) -> Outcome {
    (
        bits(&[b.min_xs(), b.min_ys(), b.max_xs(), b.max_ys()]),
        hits,
        err,
    )
}

/// Checks the fused call on every kernel against the two calls, and the two calls' indices
/// against the exact pairwise test.
fn check_circles(discs: &Circles, (dxs, dys): (&[f32], &[f32]), probe: &Shape) {
    let mut two = discs.clone();
    let err = two.translate_each_xy(dxs, dys).err().map(|e| e.to_string());
    let mut hits = Vec::new();
    two.intersecting_with(Kernel::portable(), probe, &mut hits);
    let shapes = two.iter().map(Shape::Circle);
    assert_eq!(hits, brute(probe, shapes), "{probe:?}");
    let want = circles_outcome(&two, hits, err);
    for kernel in Kernel::available() {
        let mut fused = discs.clone();
        let mut hits = Vec::from([7, 7]); // replaced
        let res = fused.translate_each_xy_and_intersecting_with(kernel, dxs, dys, probe, &mut hits);
        let got = circles_outcome(&fused, hits, res.err().map(|e| e.to_string()));
        assert_eq!(got, want, "{} {probe:?}", kernel.name());
    }
}

fn check_aabbs(boxes: &Aabbs, (dxs, dys): (&[f32], &[f32]), probe: &Shape) {
    let mut two = boxes.clone();
    let err = two.translate_each_xy(dxs, dys).err().map(|e| e.to_string());
    let mut hits = Vec::new();
    two.intersecting_with(Kernel::portable(), probe, &mut hits);
    let shapes = two.iter().map(Shape::Aabb);
    assert_eq!(hits, brute(probe, shapes), "{probe:?}");
    let want = aabbs_outcome(&two, hits, err);
    for kernel in Kernel::available() {
        let mut fused = boxes.clone();
        let mut hits = Vec::from([7, 7]);
        let res = fused.translate_each_xy_and_intersecting_with(kernel, dxs, dys, probe, &mut hits);
        let got = aabbs_outcome(&fused, hits, res.err().map(|e| e.to_string()));
        assert_eq!(got, want, "{} {probe:?}", kernel.name());
    }
}

#[test]
fn fused_random_scenes_match_the_two_calls_and_pairwise_intersects() {
    let mut rng = Rng(0x0f05_ed14);
    let mut stayed = 0;
    for _ in 0..SCENES {
        let n = length(&mut rng);
        let (discs, boxes) = (random_circles(&mut rng, n), random_aabbs(&mut rng, n));
        let (dxs, dys) = deltas(&mut rng, n);
        let probe = random_probe(&mut rng);
        check_circles(&discs, (&dxs, &dys), &probe);
        check_aabbs(&boxes, (&dxs, &dys), &probe);
        stayed += usize::from(discs.clone().translate_each_xy(&dxs, &dys).is_err());
    }
    // Some scenes had rows that stayed, so that path was compared too.
    assert!(cfg!(miri) || stayed > SCENES / 20, "{stayed}");
}

#[test]
fn fused_moves_onto_exactly_touching_integer_positions() {
    // Moved centers on the circle of radius 5 around the probe's center (touching a disc of
    // radius 4 with radius 1), and one unit further out (missing), from random integer
    // starts; 100 rows, so every kernel's whole steps and tail are used.
    let on: [(f32, f32); 12] = [
        (3.0, 4.0),
        (-3.0, 4.0),
        (3.0, -4.0),
        (-3.0, -4.0),
        (4.0, 3.0),
        (-4.0, 3.0),
        (4.0, -3.0),
        (-4.0, -3.0),
        (5.0, 0.0),
        (-5.0, 0.0),
        (0.0, 5.0),
        (0.0, -5.0),
    ];
    let center = v(7.0, -2.0);
    let mut rng = Rng(14);
    let (mut discs, mut boxes) = (Circles::new(), Aabbs::new());
    let (mut dxs, mut dys, mut want) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..100 {
        let (x, y) = on[i % on.len()];
        let out = if i % 3 == 2 { 1.2 } else { 1.0 };
        let end = center + v(x, y) * out;
        let d = v(rng.int(9), rng.int(9));
        discs.push(end - d, 1.0).unwrap();
        // A unit box whose nearest corner or edge ends at `end`.
        let (lo, hi) = (
            end.min(end + v(x.signum(), y.signum())),
            end.max(end + v(x.signum(), y.signum())),
        );
        boxes.push(lo - d, hi - d).unwrap();
        dxs.push(d.x);
        dys.push(d.y);
        if out == 1.0 {
            want.push(i);
        }
    }
    let probe: Shape = Circle::new(center, 4.0).unwrap().into();
    for kernel in Kernel::available() {
        let (mut d, mut hits) = (discs.clone(), Vec::new());
        d.translate_each_xy_and_intersecting_with(kernel, &dxs, &dys, &probe, &mut hits)
            .unwrap();
        assert_eq!(hits, want, "{}", kernel.name());
    }
    check_circles(&discs, (&dxs, &dys), &probe);
    check_aabbs(&boxes, (&dxs, &dys), &probe);
    // Boxes moved onto a box probe's edges and corners.
    let square: Shape = Aabb::new(center - 5.0, center + 5.0).unwrap().into();
    check_aabbs(&boxes, (&dxs, &dys), &square);
    check_circles(&discs, (&dxs, &dys), &square);
}

#[test]
fn fused_refuses_rows_as_the_move_does_and_still_queries_them() {
    let mut discs = Circles::new();
    for i in 0..70 {
        discs.push(Vec2::new(i as f32, 0.0), 0.5).unwrap();
    }
    let mut dxs = Vec::from([0.0f32; 70]);
    dxs[3] = f32::INFINITY;
    dxs[40] = f32::NAN;
    let dys = [0.0f32; 70];
    let probe: Shape = Circle::new(Vec2::new(3.0, 0.0), 0.0).unwrap().into();
    for kernel in Kernel::available() {
        let (mut d, mut hits) = (discs.clone(), Vec::new());
        let err = d.translate_each_xy_and_intersecting_with(kernel, &dxs, &dys, &probe, &mut hits);
        assert_eq!(
            err.unwrap_err().to_string(),
            "xs[3] moved must be finite, got inf"
        );
        // Row 3 stayed where the probe is.
        assert_eq!((hits, &d), (Vec::from([3]), &discs), "{}", kernel.name());
    }
}
