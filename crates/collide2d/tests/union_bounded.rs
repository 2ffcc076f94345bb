//! The union contact's work bound: above `LIMIT` pairs of parts (64; pairs whose boxes
//! overlap; twice that with a circle among the parts, while the search's crossings stay within
//! a bound of their own), `contact` answers the shortest move along the deepest pair's normal that separates
//! the whole shapes, not always the shortest of all. Checked against the exact reference
//! (`support/reference.rs`) on shapes of many small parts on an integer grid, in both argument
//! orders.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::{Pose, Vec2};
use collide2d::{contact, Aabb, Capsule, Circle, Compound, ConvexPolygon, Obb, Point, Shape};
use support::reference;

/// The limit documented on `contact`.
const LIMIT: usize = 64;

/// Past the move, by this much more, the shapes are apart.
const EPS: f32 = 1e-3;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn compound(parts: Vec<Shape>) -> Shape {
    Compound::new(parts).unwrap().into()
}

fn moved(s: &Shape, by: Vec2) -> Shape {
    s.transformed(&Pose::from_translation(by))
}

/// A small seeded generator (xorshift), so each case is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn int(&mut self, lo: i32, hi: i32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (lo + (self.0 % (hi - lo + 1) as u64) as i32) as f32
    }
}

/// A compound of `n` triangles (and a circle, when `round`) with corners on the grid
/// `[-3, 3]²`: many parts whose boxes overlap, faces on each other's edges.
fn cluster(rng: &mut Rng, n: usize, round: bool) -> Shape {
    let mut parts: Vec<Shape> = Vec::new();
    if round {
        let c = Vec2::new(rng.int(-2, 2), rng.int(-2, 2));
        parts.push(Circle::new(c, rng.int(1, 2)).unwrap().into());
    }
    while parts.len() < n {
        let p: Vec<Vec2> = (0..3)
            .map(|_| Vec2::new(rng.int(-3, 3), rng.int(-3, 3)))
            .collect();
        if let Ok(t) = ConvexPolygon::new(&p).or_else(|_| ConvexPolygon::new(&[p[0], p[2], p[1]])) {
            parts.push(t.into());
        }
    }
    Compound::new(parts).unwrap().into()
}

/// Pairs of parts whose boxes overlap (touching counts), as the limit counts them.
fn overlapping_pairs(a: &Shape, b: &Shape) -> usize {
    let parts = |s: &Shape| match s {
        Shape::Compound(c) => c.parts().to_vec(),
        _ => vec![s.clone()],
    };
    let (pa, pb) = (parts(a), parts(b));
    pa.iter()
        .flat_map(|x| pb.iter().map(move |y| (x.aabb(), y.aabb())))
        .filter(|(x, y)| x.overlaps(y))
        .count()
}

#[test]
fn above_the_limit_the_move_along_the_normal_separates_the_whole_shapes() {
    let mut checked = 0;
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let a = cluster(&mut rng, 10, false);
        let b = cluster(&mut rng, 9, seed % 2 == 0);
        if overlapping_pairs(&a, &b) <= LIMIT {
            continue;
        }
        assert!(reference::intersects(&a, &b), "seed {seed}");
        let c = contact(&a, &b).unwrap();
        assert_eq!(contact(&b, &a), Some(c.flipped()), "seed {seed}");
        assert!((c.normal.length() - 1.0).abs() < 1e-5, "seed {seed} {c:?}");
        assert!(c.depth.is_finite() && c.depth >= 0.0, "seed {seed} {c:?}");
        for (x, y, n) in [(&a, &b, c.normal), (&b, &a, -c.normal)] {
            let past = moved(y, n * (c.depth + EPS));
            assert!(
                !reference::intersects(x, &past),
                "seed {seed}: {c:?} leaves them overlapping"
            );
            // The shortest such move along the normal: a shorter one still overlaps.
            let short = moved(y, n * (c.depth - EPS));
            assert!(
                reference::intersects(x, &short),
                "seed {seed}: {c:?} is deeper than the overlap along its normal"
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked} cases above the limit");
}

/// The `query_pair` fuzz input that took 18 s (`fuzz/corpus/query_pair/050021f5…`, decoded by
/// the fuzz target's `Arbitrary` shapes): nested compounds of tiny boxes at 135 degrees, nearly
/// all alike, whose faces lie exactly on each other's edges, with parts reaching `±3.4e38`.
fn fuzz_timeout_pair() -> (Shape, Shape) {
    let a = compound(vec![
        Capsule::new(v(-1649267400000.0, -8.0), v(-8.0, -8.0), 0.0)
            .unwrap()
            .into(),
        compound(vec![
            compound(vec![
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.0028874415),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.0029484767),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 6.495893e-16),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
            ]),
            compound(vec![
                Obb::new(
                    v(0.0028874415, 0.002856924),
                    v(0.002856924, 0.0028572816),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(v(-3.0, 0.002856924), v(5.439542e-39, 8.0), -8.0)
                    .unwrap()
                    .into(),
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(v(0.0028609175, 0.002856924), v(6.54553e-39, 8.0), 0.0)
                    .unwrap()
                    .into(),
            ]),
            compound(vec![
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(v(-8.0, -8.0), v(0.002856924, 4.372589e-22), -8.0)
                    .unwrap()
                    .into(),
                Point::new(v(131064.0, 8.0)).unwrap().into(),
                Aabb::new(v(-8.0, -8.0), v(-8.0, -2.0)).unwrap().into(),
            ]),
            Capsule::new(
                v(134217730.0, 0.002856924),
                v(7.068584, 0.0028570432),
                0.002856924,
            )
            .unwrap()
            .into(),
        ]),
    ]);
    let b = compound(vec![
        compound(vec![
            compound(vec![
                Obb::new(
                    v(0.002856924, 0.0028874415),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.0028874415),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.002856924),
                    2.3561945,
                )
                .unwrap()
                .into(),
            ]),
            compound(vec![
                Obb::new(v(0.0028570432, 0.002856924), v(0.002856924, 0.0), 2.3561945)
                    .unwrap()
                    .into(),
                Obb::new(
                    v(3758096400.0, -2684354600.0),
                    v(2.1248e-41, 7.0),
                    std::f32::consts::FRAC_PI_4,
                )
                .unwrap()
                .into(),
                ConvexPolygon::new(&[
                    v(-8.0, -3.0),
                    v(-6.0, -8.0),
                    v(0.002856924, 1.9662545e-36),
                    v(0.002856924, 134217730.0),
                ])
                .unwrap()
                .into(),
                Circle::new(v(-8.0, -8.0), 8.0).unwrap().into(),
            ]),
            Point::new(v(131064.0, 8.0)).unwrap().into(),
            Capsule::new(v(-8.0, -8.0), v(-8.0, -2.0), 262144.0)
                .unwrap()
                .into(),
        ]),
        compound(vec![
            compound(vec![
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(8.201457e+20, 1.4411519e+17),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Obb::new(
                    v(0.002856924, 0.002856924),
                    v(0.002856924, 0.045710783),
                    2.3561945,
                )
                .unwrap()
                .into(),
                Point::new(v(0.002856924, 0.002856924)).unwrap().into(),
                Obb::new(
                    v(4.2571485e-11, -3.4028235e+38),
                    v(1.4085723e-34, 0.0),
                    2.3561945,
                )
                .unwrap()
                .into(),
            ]),
            Obb::new(v(-8.0, -8.0), v(8.0, 8.0), -8.0).unwrap().into(),
            Point::new(v(-8.0, -8.0)).unwrap().into(),
            Point::new(v(-8.0, -8.0)).unwrap().into(),
        ]),
        Point::new(v(-8.0, -8.0)).unwrap().into(),
        Point::new(v(-8.0, -8.0)).unwrap().into(),
    ]);
    (a, b)
}

#[test]
fn hundreds_of_coincident_faces_take_bounded_work() {
    let (a, b) = fuzz_timeout_pair();
    let start = std::time::Instant::now();
    let c = contact(&a, &b).unwrap();
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    // The search took 0.74 s for one contact in a debug build; bounded, far below a millisecond.
    let took = start.elapsed();
    assert!(took.as_secs_f64() < 0.2, "{took:?}");
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    assert!(c.depth.is_finite() && c.depth >= 0.0, "{c:?}");
    let past = moved(&b, c.normal * (c.depth * (1.0 + 1e-3)));
    assert!(!reference::intersects(&a, &past), "{c:?}");
}

#[test]
fn above_the_limit_a_gap_between_two_pairs_intervals_ends_the_move() {
    // Issue 17, the bounded move: `b`'s box leaves `a`'s box after 1.5 along +x; its triangle
    // meets `a`'s triangle only for moves from 1 to 4, though their extents along x overlap
    // from 1 to 8. Taking the extents' interval bridged to 8, a move after which the shapes
    // were apart well before its end (moving 7.99 already separated them); the shortest move
    // along the normal is 4. 70 copies of the box put the pair past the limit.
    let bx = |x0, y0, x1, y1| -> Shape { Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into() };
    let tri = |p: [(f32, f32); 3]| -> Shape {
        ConvexPolygon::new(&p.map(|(x, y)| v(x, y))).unwrap().into()
    };
    let mut parts: Vec<Shape> = (0..70).map(|_| bx(0.0, 0.0, 3.0, 2.0)).collect();
    parts.push(tri([(5.0, 3.0), (9.0, 9.0), (5.0, 9.0)]));
    let a = compound(parts);
    let b = compound(vec![
        bx(1.5, 0.2, 2.5, 1.8),
        tri([(1.0, 3.0), (4.0, 3.0), (4.0, 6.0)]),
    ]);
    assert!(overlapping_pairs(&a, &b) > LIMIT);
    let c = contact(&a, &b).unwrap();
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    assert_eq!(c.normal, v(1.0, 0.0), "{c:?}");
    assert!((c.depth - 4.0).abs() < 1e-5, "{c:?}");
    for (x, y, n) in [(&a, &b, c.normal), (&b, &a, -c.normal)] {
        assert!(
            !reference::intersects(x, &moved(y, n * (c.depth + EPS))),
            "{c:?}"
        );
        assert!(
            reference::intersects(x, &moved(y, n * (c.depth - EPS))),
            "{c:?}"
        );
    }
}

#[test]
fn rounded_clusters_between_the_limits_take_bounded_work_and_separate() {
    // With a circle among the parts the search takes up to twice `LIMIT` pairs, its crossings
    // counted: many triangles whose faces lie on each other's edges, each with a circle, stay
    // fast, and their move separates the whole shapes.
    let (mut checked, mut slowest) = (0, 0.0f64);
    for seed in 1..=24u64 {
        let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let a = cluster(&mut rng, 10, true);
        let b = cluster(&mut rng, 10, true);
        let pairs = overlapping_pairs(&a, &b);
        if pairs <= LIMIT || pairs > 2 * LIMIT {
            continue;
        }
        let start = std::time::Instant::now();
        let c = contact(&a, &b).unwrap();
        slowest = slowest.max(start.elapsed().as_secs_f64());
        assert_eq!(contact(&b, &a), Some(c.flipped()), "seed {seed}");
        assert!((c.normal.length() - 1.0).abs() < 1e-5, "seed {seed} {c:?}");
        let past = moved(&b, c.normal * (c.depth + EPS));
        assert!(!reference::intersects(&a, &past), "seed {seed}: {c:?}");
        checked += 1;
    }
    std::eprintln!("{checked} cases, slowest {slowest:.4} s");
    assert!(checked >= 8, "{checked} cases between the limits");
    assert!(slowest < 0.2, "{slowest} s");
}
