//! Property tests: the library against the exact reference in `support/reference.rs`, and the
//! documented laws of `contact`, `distance` and `closest_points`.
//!
//! Shapes are drawn on a small integer grid (so touching and one-unit-apart cases are common),
//! on that grid scaled by large powers of two, near a large offset (where `f32` squares round),
//! and from random `f32`s.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::{Pose, Vec2};
use collide2d::{
    cast_shapes, closest_points, contact, contains, distance, intersects, Aabb, Capsule, Circle,
    Compound, ConvexPolygon, Obb, PairQuery, Point, Polygon, Segment, Shape,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use support::kinds::soak;
use support::reference;

/// How the coordinates of one pair of shapes are drawn.
#[derive(Clone, Copy, Debug)]
enum Grid {
    /// Integers in -8..=8, radii 0..=5.
    Small,
    /// The small grid times `2^exp`.
    Scaled(i32),
    /// `2^exp` plus the small grid (exact in `f32` for `exp <= 23`), radii 0..=5.
    Offset(i32),
    /// Random `f32`s in -64..64, radii 0..16.
    Random,
    /// `2^exp` plus eighths in -8..=8 (exact in `f32` for `exp <= 20`), radii in eighths 0..=5.
    Fine(i32),
    /// Each number its own scale: -8..=8 times `2^e`, `e` in -20..=20 (near-degenerate shapes).
    Mixed,
}

impl Grid {
    /// A tolerance for computed (rounded) lengths: relative to the size of the coordinates,
    /// plus a few of the smallest `f32` steps for subnormal grids.
    fn tol(self, relative: f32) -> f32 {
        relative * self.scale() + 1e-44
    }

    /// A rough size of the coordinates, for tolerances.
    fn scale(self) -> f32 {
        match self {
            Grid::Small | Grid::Random => 64.0,
            Grid::Scaled(e) => 8.0 * pow2(e),
            Grid::Offset(e) | Grid::Fine(e) => pow2(e) + 8.0,
            Grid::Mixed => 8.0 * pow2(20),
        }
    }
}

/// `2^e` as an `f32`, subnormal ones included (`2f32.powi(-140)` is 0).
fn pow2(e: i32) -> f32 {
    2f64.powi(e) as f32
}

fn grid() -> impl Strategy<Value = Grid> {
    prop_oneof![
        5 => Just(Grid::Small),
        2 => prop::sample::select(vec![-140, -3, 10, 20, 24, 40, 100, 120]).prop_map(Grid::Scaled),
        1 => (16..=23).prop_map(Grid::Offset),
        2 => Just(Grid::Random),
        1 => (10..=20).prop_map(Grid::Fine),
        1 => Just(Grid::Mixed),
    ]
}

fn coord(g: Grid) -> BoxedStrategy<f32> {
    match g {
        Grid::Small => (-8i32..=8).prop_map(|i| i as f32).boxed(),
        Grid::Scaled(e) => (-8i32..=8).prop_map(move |i| i as f32 * pow2(e)).boxed(),
        Grid::Offset(e) => (-8i32..=8).prop_map(move |i| pow2(e) + i as f32).boxed(),
        Grid::Random => (-64.0f32..64.0).boxed(),
        Grid::Fine(e) => (-64i32..=64)
            .prop_map(move |i| pow2(e) + i as f32 / 8.0)
            .boxed(),
        Grid::Mixed => (-8i32..=8, -20i32..=20)
            .prop_map(|(i, e)| i as f32 * pow2(e))
            .boxed(),
    }
}

fn radius(g: Grid) -> BoxedStrategy<f32> {
    match g {
        Grid::Small | Grid::Offset(_) => (0i32..=5).prop_map(|i| i as f32).boxed(),
        Grid::Scaled(e) => (0i32..=5).prop_map(move |i| i as f32 * pow2(e)).boxed(),
        Grid::Random => (0.0f32..16.0).boxed(),
        Grid::Fine(_) => (0i32..=40).prop_map(|i| i as f32 / 8.0).boxed(),
        Grid::Mixed => (0i32..=5, -20i32..=20)
            .prop_map(|(i, e)| i as f32 * pow2(e))
            .boxed(),
    }
}

fn vec2(g: Grid) -> impl Strategy<Value = Vec2> {
    (coord(g), coord(g)).prop_map(|(x, y)| Vec2::new(x, y))
}

fn angle() -> impl Strategy<Value = f32> {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};
    prop_oneof![
        Just(0.0),
        Just(FRAC_PI_2),
        Just(FRAC_PI_4),
        Just(PI),
        -PI..PI
    ]
}

const KINDS: [&str; 9] = [
    "point", "segment", "circle", "aabb", "obb", "capsule", "convex", "polygon", "compound",
];

/// A valid shape of kind `KINDS[kind]`.
fn shape(kind: usize, g: Grid) -> BoxedStrategy<Shape> {
    match kind {
        0 => vec2(g).prop_map(|p| Point::new(p).unwrap().into()).boxed(),
        1 => (vec2(g), vec2(g))
            .prop_map(|(a, b)| Segment::new(a, b).unwrap().into())
            .boxed(),
        2 => (vec2(g), radius(g))
            .prop_map(|(c, r)| Circle::new(c, r).unwrap().into())
            .boxed(),
        3 => prop_oneof![
            (vec2(g), vec2(g)).prop_map(|(a, b)| Aabb::new(a.min(b), a.max(b)).unwrap().into()),
            (vec2(g), radius(g), radius(g)).prop_filter_map("far corner overflows", |(c, w, h)| {
                Aabb::from_rect(c.x, c.y, w, h).ok().map(Shape::from)
            }),
        ]
        .boxed(),
        4 => (vec2(g), radius(g), radius(g), angle())
            .prop_map(|(c, w, h, a)| Obb::new(c, Vec2::new(w, h), a).unwrap().into())
            .boxed(),
        5 => (vec2(g), vec2(g), radius(g))
            .prop_map(|(a, b, r)| Capsule::new(a, b, r).unwrap().into())
            .boxed(),
        6 => prop::collection::vec(vec2(g), 3..=6)
            .prop_filter_map("collinear", |pts| {
                let hull = reference::convex_hull(&pts);
                ConvexPolygon::new(&hull).ok().map(Shape::from)
            })
            .boxed(),
        7 => prop_oneof![
            prop::collection::vec(vec2(g), 3..=10).prop_filter_map("not simple", |pts| star(&pts)),
            (vec2(g), 1i32..=4, 1i32..=4, 1i32..=4, 1i32..=4)
                .prop_map(move |(o, a, b, c, d)| l_shape(g, o, a, b, c, d)),
            prop::collection::vec((coord(g), coord(g), coord(g)), 2..=8)
                .prop_filter_map("not simple", monotone),
        ]
        .boxed(),
        // Parts of every kind, a compound of convex or concave parts among them.
        _ => prop::collection::vec(
            (0usize..9).prop_flat_map(move |k| {
                if k == 8 {
                    flat_compound(g)
                } else {
                    shape(k, g)
                }
            }),
            1..=3,
        )
        .prop_map(|parts| Compound::new(parts).unwrap().into())
        .boxed(),
    }
}

/// A compound of 1 to 3 shapes that are not compounds.
fn flat_compound(g: Grid) -> BoxedStrategy<Shape> {
    prop::collection::vec((0usize..8).prop_flat_map(move |k| shape(k, g)), 1..=3)
        .prop_map(|parts| Compound::new(parts).unwrap().into())
        .boxed()
}

/// The points sorted by angle around their centroid: a star-shaped polygon, when simple.
fn star(pts: &[Vec2]) -> Option<Shape> {
    Polygon::new(&sorted_by_angle(pts)).ok().map(Shape::from)
}

/// An x-monotone polygon: at each `x` a bottom and a top `y` (combs, zigzags, collinear runs).
fn monotone(columns: Vec<(f32, f32, f32)>) -> Option<Shape> {
    let mut columns = columns;
    columns.sort_by(|a, b| a.0.total_cmp(&b.0));
    columns.dedup_by(|a, b| a.0 == b.0);
    let bottom = columns.iter().map(|&(x, y0, y1)| Vec2::new(x, y0.min(y1)));
    let top: Vec<Vec2> = columns
        .iter()
        .rev()
        .map(|&(x, y0, y1)| Vec2::new(x, y0.max(y1)))
        .collect();
    Polygon::new(&bottom.chain(top).collect::<Vec<_>>())
        .ok()
        .map(Shape::from)
}

/// An L: a `(a + b) x (c + d)` box at `o` with its `b x d` upper right corner cut away.
fn l_shape(g: Grid, o: Vec2, a: i32, b: i32, c: i32, d: i32) -> Shape {
    let unit = match g {
        Grid::Scaled(e) => pow2(e),
        _ => 1.0,
    };
    let (a, b, c, d) = (
        a as f32 * unit,
        b as f32 * unit,
        c as f32 * unit,
        d as f32 * unit,
    );
    let pts = [
        (0.0, 0.0),
        (a + b, 0.0),
        (a + b, c),
        (a, c),
        (a, c + d),
        (0.0, c + d),
    ];
    let pts: Vec<Vec2> = pts.iter().map(|&(x, y)| o + Vec2::new(x, y)).collect();
    Polygon::new(&pts).unwrap().into()
}

fn any_shape(g: Grid) -> BoxedStrategy<Shape> {
    (0..KINDS.len()).prop_flat_map(move |k| shape(k, g)).boxed()
}

/// A pair of shapes of any kinds, drawn on one grid.
fn any_pair() -> impl Strategy<Value = (Shape, Shape, Grid)> {
    grid().prop_flat_map(|g| (any_shape(g), any_shape(g), Just(g)))
}

/// Runs `check` on `cases` random pairs of every ordered pair of kinds, so that no pair of
/// shape types is left to chance; a failure reports the kinds and the shrunk input.
fn for_every_kind_pair(cases: u32, check: impl Fn(&Shape, &Shape) -> Result<(), TestCaseError>) {
    for (ka, name_a) in KINDS.iter().enumerate() {
        for (kb, name_b) in KINDS.iter().enumerate() {
            let config = Config {
                cases: soak(cases),
                max_global_rejects: 100_000,
                // Failures are saved beside this file and replayed first (proptest's default).
                source_file: Some(file!()),
                ..Config::default()
            };
            let mut runner = TestRunner::new(config);
            let strategy = grid().prop_flat_map(move |g| (shape(ka, g), shape(kb, g)));
            match runner.run(&strategy, |(a, b)| check(&a, &b)) {
                Ok(()) => {}
                Err(TestError::Fail(why, (a, b))) => {
                    panic!("{name_a} vs {name_b}: {why}\na = {a:?}\nb = {b:?}")
                }
                Err(e) => panic!("{name_a} vs {name_b}: {e}"),
            }
        }
    }
}

#[test]
fn intersects_matches_the_exact_reference_for_every_pair_of_kinds() {
    for_every_kind_pair(40, |a, b| {
        let expected = reference::intersects(a, b);
        prop_assert_eq!(intersects(a, b), expected, "intersects(a, b)");
        prop_assert_eq!(intersects(b, a), expected, "intersects(b, a)");
        Ok(())
    });
}

/// The typed queries of `PairQuery` on `x` against `b` (of every type `x` has them for), with
/// their answers as text (`Debug` keeps a zero's sign); `None` for a `b` without them.
fn typed_against<A>(x: &A, b: &Shape, va: Vec2, vb: Vec2) -> Option<String>
where
    A: PairQuery<Point>
        + PairQuery<Segment>
        + PairQuery<Circle>
        + PairQuery<Aabb>
        + PairQuery<Obb>
        + PairQuery<Capsule>,
{
    macro_rules! answers {
        ($b:ty, $y:expr) => {
            format!(
                "{:?} {:?} {:?}",
                PairQuery::<$b>::intersects(x, $y),
                PairQuery::<$b>::contact(x, $y),
                PairQuery::<$b>::cast(x, va, $y, vb)
            )
        };
    }
    Some(match b {
        Shape::Point(y) => answers!(Point, y),
        Shape::Segment(y) => answers!(Segment, y),
        Shape::Circle(y) => answers!(Circle, y),
        Shape::Aabb(y) => answers!(Aabb, y),
        Shape::Obb(y) => answers!(Obb, y),
        Shape::Capsule(y) => answers!(Capsule, y),
        _ => return None,
    })
}

/// [`typed_against`] for any `a`: `None` for pairs without typed queries.
fn typed_answers(a: &Shape, b: &Shape, va: Vec2, vb: Vec2) -> Option<String> {
    match (a, b) {
        (Shape::Point(x), _) => typed_against(x, b, va, vb),
        (Shape::Segment(x), _) => typed_against(x, b, va, vb),
        (Shape::Circle(x), _) => typed_against(x, b, va, vb),
        (Shape::Aabb(x), _) => typed_against(x, b, va, vb),
        (Shape::Obb(x), _) => typed_against(x, b, va, vb),
        (Shape::Capsule(x), _) => typed_against(x, b, va, vb),
        (Shape::ConvexPolygon(x), Shape::ConvexPolygon(y)) => Some(format!(
            "{:?} {:?} {:?}",
            x.intersects(y),
            x.contact(y),
            x.cast(va, y, vb)
        )),
        _ => None,
    }
}

#[test]
fn typed_pair_queries_give_the_shape_queries_bits() {
    for_every_kind_pair(40, |a, b| {
        // `a` moving towards `b` (past it or short of it) and `b` drifting, or both still.
        let gap = b.aabb().center() - a.aabb().center();
        for (va, vb) in [
            (gap * 1.5, gap.perp() * 0.25),
            (gap * 0.5, Vec2::ZERO),
            (Vec2::ZERO, Vec2::ZERO),
        ] {
            let Some(typed) = typed_answers(a, b, va, vb) else {
                return Ok(());
            };
            let shapes = format!(
                "{:?} {:?} {:?}",
                intersects(a, b),
                contact(a, b),
                cast_shapes(a, va, b, vb)
            );
            prop_assert_eq!(typed, shapes, "va {} vb {}", va, vb);
        }
        Ok(())
    });
}

#[test]
fn contains_matches_the_exact_reference_for_every_pair_of_kinds() {
    for_every_kind_pair(40, |a, b| {
        prop_assert_eq!(contains(a, b), reference::contains(a, b), "contains(a, b)");
        prop_assert_eq!(contains(b, a), reference::contains(b, a), "contains(b, a)");
        Ok(())
    });
}

/// Whether both shapes are convex (no compound, no polygon of several parts).
fn is_convex(s: &Shape) -> bool {
    match s {
        Shape::Compound(_) => false,
        Shape::Polygon(p) => p.is_convex(),
        _ => true,
    }
}

/// The shape moved by `t`, rebuilt through its constructor (coordinates rounded to `f32`);
/// `None` when rounding leaves no valid shape (a tiny polygon moved far collapses).
fn translated(s: &Shape, t: Vec2) -> Option<Shape> {
    let moved = |pts: &[Vec2]| pts.iter().map(|&p| p + t).collect::<Vec<_>>();
    Some(match s {
        Shape::Point(s) => Point::new(s.p() + t).ok()?.into(),
        Shape::Segment(s) => Segment::new(s.a() + t, s.b() + t).ok()?.into(),
        Shape::Circle(s) => Circle::new(s.center() + t, s.radius()).ok()?.into(),
        Shape::Aabb(s) => Aabb::new(s.min() + t, s.max() + t).ok()?.into(),
        Shape::Obb(s) => Obb::new(s.center() + t, s.half_extents(), s.angle())
            .ok()?
            .into(),
        Shape::Capsule(s) => Capsule::new(s.a() + t, s.b() + t, s.radius()).ok()?.into(),
        Shape::ConvexPolygon(s) => ConvexPolygon::new(&moved(s.points())).ok()?.into(),
        Shape::Polygon(s) => Polygon::new(&moved(s.points())).ok()?.into(),
        Shape::Compound(s) => Compound::new(
            s.parts()
                .iter()
                .map(|p| translated(p, t))
                .collect::<Option<_>>()?,
        )
        .ok()?
        .into(),
    })
}

/// Every point that defines the shape moves exactly by `t` (no `f32` rounding), and a rotated
/// box's corners, computed from its center, move exactly too.
fn translates_exactly(s: &Shape, t: Vec2) -> bool {
    let exact = |p: Vec2| {
        let m = p + t;
        f64::from(m.x) == f64::from(p.x) + f64::from(t.x)
            && f64::from(m.y) == f64::from(p.y) + f64::from(t.y)
    };
    match s {
        Shape::Point(s) => exact(s.p()),
        Shape::Segment(s) => exact(s.a()) && exact(s.b()),
        Shape::Circle(s) => exact(s.center()),
        Shape::Aabb(s) => exact(s.min()) && exact(s.max()),
        Shape::Obb(s) => {
            let moved = Obb::new(s.center() + t, s.half_extents(), s.angle()).unwrap();
            exact(s.center())
                && s.corners()
                    .iter()
                    .zip(moved.corners())
                    .all(|(&c, m)| c + t == m && exact(c))
        }
        Shape::Capsule(s) => exact(s.a()) && exact(s.b()),
        Shape::ConvexPolygon(s) => s.points().iter().all(|&p| exact(p)),
        Shape::Polygon(s) => s.points().iter().all(|&p| exact(p)),
        Shape::Compound(s) => s.parts().iter().all(|p| translates_exactly(p, t)),
    }
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: soak(cases),
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn translation_by_an_exact_vector_changes_no_predicate(
        (a, b, g) in any_pair(),
        (tx, ty) in (-16i32..=16, -16i32..=16),
    ) {
        let unit = match g { Grid::Scaled(e) => pow2(e), _ => 1.0 };
        let t = Vec2::new(tx as f32 * unit, ty as f32 * unit);
        prop_assume!(translates_exactly(&a, t) && translates_exactly(&b, t));
        let (ma, mb) = (translated(&a, t).unwrap(), translated(&b, t).unwrap());
        prop_assert_eq!(intersects(&ma, &mb), intersects(&a, &b));
        prop_assert_eq!(contains(&ma, &mb), contains(&a, &b));
        prop_assert_eq!(contains(&mb, &ma), contains(&b, &a));
        let (d, md) = (distance(&a, &b), distance(&ma, &mb));
        prop_assert!((d - md).abs() <= g.tol(1e-5), "distance {} moved: {}", d, md);
    }

    #[test]
    fn intersects_iff_contact_iff_zero_distance((a, b, _g) in any_pair()) {
        let hit = intersects(&a, &b);
        prop_assert_eq!(contact(&a, &b).is_some(), hit, "contact");
        prop_assert_eq!(distance(&a, &b) == 0.0, hit, "distance {}", distance(&a, &b));
        prop_assert_eq!(closest_points(&a, &b).is_none(), hit, "closest_points");
    }

    #[test]
    fn distance_and_contact_are_finite_and_well_formed((a, b, _g) in any_pair()) {
        let d = distance(&a, &b);
        prop_assert!(d.is_finite() && d >= 0.0, "distance {}", d);
        if let Some(c) = contact(&a, &b) {
            prop_assert!(c.depth.is_finite() && c.depth >= 0.0, "depth {}", c.depth);
            prop_assert!(c.normal.is_finite() && (c.normal.length() - 1.0).abs() <= 1e-5, "normal {}", c.normal);
            prop_assert!(matches!(c.points.len(), 1 | 2), "{} points", c.points.len());
            prop_assert!(c.points.iter().all(|p| p.is_finite()), "points {:?}", &c.points[..]);
        }
    }

    #[test]
    fn swapping_the_arguments_flips_the_contact((a, b, _g) in any_pair()) {
        prop_assume!(a != b);
        prop_assert_eq!(contact(&a, &b), contact(&b, &a).map(|c| c.flipped()));
    }

    #[test]
    fn moving_b_by_the_contact_separates_convex_shapes((a, b, g) in any_pair()) {
        // For a compound or concave shape the contact is that of one pair of parts, and moving
        // out of it can push another pair together; the claim is made for convex pairs only.
        prop_assume!(is_convex(&a) && is_convex(&b));
        if let Some(c) = contact(&a, &b) {
            let eps = g.tol(1e-3);
            let moved = translated(&b, c.normal * (c.depth + eps));
            prop_assume!(moved.is_some());
            let moved = moved.unwrap();
            prop_assert!(!reference::intersects(&a, &moved), "contact {:?} does not separate", c);
        }
    }

    #[test]
    fn moving_b_by_less_than_the_depth_keeps_the_shapes_touching((a, b, g) in any_pair()) {
        // The depth is how far b must move along the normal until the shapes only touch, so a
        // shorter move leaves them intersecting (for a compound, the deepest pair of parts
        // still intersects).
        if let Some(c) = contact(&a, &b) {
            let eps = g.tol(1e-3);
            prop_assume!(c.depth > 2.0 * eps);
            let moved = translated(&b, c.normal * (c.depth - eps));
            prop_assume!(moved.is_some());
            prop_assert!(reference::intersects(&a, &moved.unwrap()), "contact {:?} is deeper than the overlap", c);
        }
    }

    #[test]
    fn contact_points_lie_between_the_surfaces((a, b, g) in any_pair()) {
        if let Some(c) = contact(&a, &b) {
            let tol = f64::from(g.tol(1e-4)) + f64::from(c.depth);
            for &p in c.points.iter() {
                prop_assert!(reference::point_distance(&a, p) <= tol, "{} is {} from a, {:?}", p, reference::point_distance(&a, p), c);
                prop_assert!(reference::point_distance(&b, p) <= tol, "{} is {} from b, {:?}", p, reference::point_distance(&b, p), c);
            }
        }
    }

    #[test]
    fn closest_points_lie_on_the_shapes_and_match_the_distance((a, b, g) in any_pair()) {
        let tol = f64::from(g.tol(1e-4));
        if let Some(c) = closest_points(&a, &b) {
            prop_assert!(c.point_a.is_finite() && c.point_b.is_finite());
            prop_assert!(reference::point_distance(&a, c.point_a) <= tol, "point_a {} off a", c.point_a);
            prop_assert!(reference::point_distance(&b, c.point_b) <= tol, "point_b {} off b", c.point_b);
            // Documented: a positive distance is at least f32::MIN_POSITIVE, even where the
            // exact one is subnormal.
            let floor = f64::from(f32::MIN_POSITIVE);
            let between = c.point_a.as_dvec2().distance(c.point_b.as_dvec2()).max(floor);
            prop_assert!((between - f64::from(c.distance)).abs() <= tol, "{} apart, distance {}", between, c.distance);
            prop_assert_eq!(distance(&a, &b), c.distance);
            let exact = reference::distance(&a, &b).max(floor);
            prop_assert!((f64::from(c.distance) - exact).abs() <= tol, "distance {} vs exact {}", c.distance, exact);
        }
    }

    #[test]
    fn placed_shapes_keep_exact_predicates(
        (a, b, g) in any_pair(),
        (tx, ty, angle) in (-8i32..=8, -8i32..=8, angle()),
    ) {
        // `transformed` rounds coordinates once; predicates stay exact for the rounded shape,
        // whose rotated boxes are the hull of `corners()`.
        let unit = match g { Grid::Scaled(e) => pow2(e), _ => 1.0 };
        let pose = Pose::new(Vec2::new(tx as f32 * unit, ty as f32 * unit), angle);
        let placed = a.transformed(&pose);
        prop_assert_eq!(intersects(&placed, &b), reference::intersects(&placed, &b), "placed = {:?}", placed);
        prop_assert_eq!(contains(&placed, &b), reference::contains(&placed, &b), "placed = {:?}", placed);
        prop_assert_eq!(contains(&b, &placed), reference::contains(&b, &placed), "placed = {:?}", placed);
    }

    #[test]
    fn polygon_points_describe_the_input_region(pts in prop::collection::vec(vec2(Grid::Small), 3..=7)) {
        // Polygon::new cleans its input; the reference reads the cleaned ring, so check here that
        // cleaning keeps the region: each contains the other.
        if let Some(poly) = star(&pts) {
            let Shape::Polygon(p) = &poly else { unreachable!() };
            let sorted_input = sorted_by_angle(&pts);
            let raw = reference::Prim { ring: sorted_input.iter().map(|&v| reference::p(v)).collect(), r: reference::q(0.0) };
            let cleaned = reference::Prim { ring: p.points().iter().map(|&v| reference::p(v)).collect(), r: reference::q(0.0) };
            prop_assert!(reference::prim_contains(&raw, &cleaned) && reference::prim_contains(&cleaned, &raw));
        }
    }
}

fn sorted_by_angle(pts: &[Vec2]) -> Vec<Vec2> {
    let n = pts.len() as f64;
    let c = pts.iter().fold(glam::DVec2::ZERO, |s, p| s + p.as_dvec2()) / n;
    let mut sorted = pts.to_vec();
    sorted.sort_by(|a, b| {
        let (da, db) = (a.as_dvec2() - c, b.as_dvec2() - c);
        da.y.atan2(da.x).total_cmp(&db.y.atan2(db.x))
    });
    sorted
}

// ---- named regressions for the classic traps, each checked against the reference too ----

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn check(a: &Shape, b: &Shape, expected: bool) {
    assert_eq!(
        reference::intersects(a, b),
        expected,
        "reference: {a:?} vs {b:?}"
    );
    assert_eq!(intersects(a, b), expected, "{a:?} vs {b:?}");
    assert_eq!(intersects(b, a), expected, "{b:?} vs {a:?}");
    assert_eq!(contact(a, b).is_some(), expected);
    assert_eq!(distance(a, b) == 0.0, expected);
}

#[test]
fn circle_near_a_box_corner_misses_although_the_bounding_boxes_overlap() {
    let circle: Shape = Circle::new(v(2.8, 2.8), 1.0).unwrap().into();
    let boxes: [Shape; 3] = [
        Aabb::new(v(0.0, 0.0), v(2.0, 2.0)).unwrap().into(),
        Obb::new(v(1.0, 1.0), v(1.0, 1.0), 0.0).unwrap().into(),
        ConvexPolygon::new(&[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)])
            .unwrap()
            .into(),
    ];
    for b in &boxes {
        assert!(
            circle.aabb().overlaps(&b.aabb()),
            "the trap: box against box says hit"
        );
        check(&circle, b, false);
    }
    // Touching the corner exactly (distance 5 from (2, 2)) is a hit.
    check(
        &Circle::new(v(5.0, 6.0), 5.0).unwrap().into(),
        &boxes[0],
        true,
    );
    check(
        &Circle::new(v(5.0, 6.0), 5.0).unwrap().into(),
        &boxes[2],
        true,
    );
}

#[test]
fn touching_circles_and_touching_rects_intersect_with_zero_depth() {
    let pairs: [(Shape, Shape); 4] = [
        (
            Circle::new(v(0.0, 0.0), 1.0).unwrap().into(),
            Circle::new(v(2.0, 0.0), 1.0).unwrap().into(),
        ),
        (
            Circle::new(v(0.0, 0.0), 2.0).unwrap().into(),
            Circle::new(v(3.0, 4.0), 3.0).unwrap().into(),
        ),
        (
            Aabb::from_rect(0.0, 0.0, 16.0, 16.0).unwrap().into(),
            Aabb::from_rect(16.0, 4.0, 8.0, 8.0).unwrap().into(),
        ),
        (
            Aabb::from_rect(0.0, 0.0, 16.0, 16.0).unwrap().into(),
            Aabb::from_rect(16.0, 16.0, 8.0, 8.0).unwrap().into(),
        ),
    ];
    for (a, b) in &pairs {
        check(a, b, true);
        assert_eq!(contact(a, b).unwrap().depth, 0.0);
    }
    // One unit apart: a miss.
    let far: Shape = Aabb::from_rect(17.0, 4.0, 8.0, 8.0).unwrap().into();
    check(&pairs[2].0, &far, false);
    assert_eq!(distance(&pairs[2].0, &far), 1.0);
}

#[test]
fn polygons_separated_only_by_the_second_polygons_edge_normal_do_not_intersect() {
    // The square's normals are the axes; on both, the projections overlap. Only the
    // triangle's hypotenuse normal (1, 1) separates: x + y <= 4 on the square, >= 5 on it.
    let square = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
    let triangle = [v(4.0, 1.0), v(5.0, 5.0), v(1.0, 4.0)];
    let overlaps_on = |axis: Vec2| {
        let range = |pts: &[Vec2]| {
            pts.iter()
                .map(|p| p.dot(axis))
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let ((a0, a1), (b0, b1)) = (range(&square), range(&triangle));
        a0 <= b1 && b0 <= a1
    };
    assert!(
        overlaps_on(Vec2::X) && overlaps_on(Vec2::Y),
        "the square's own axes must not separate"
    );
    assert!(!overlaps_on(v(1.0, 1.0)));
    let tri: Shape = ConvexPolygon::new(&triangle).unwrap().into();
    for a in [
        Shape::from(ConvexPolygon::new(&square).unwrap()),
        Obb::new(v(1.0, 1.0), v(1.0, 1.0), 0.0).unwrap().into(),
        Aabb::new(v(0.0, 0.0), v(2.0, 2.0)).unwrap().into(),
        Polygon::new(&square).unwrap().into(),
    ] {
        check(&a, &tri, false);
        // Moved so that the hypotenuse x + y = 4 passes through the corner (2, 2): a hit.
        let touching: Shape = ConvexPolygon::new(&[v(4.0, 0.0), v(5.0, 5.0), v(0.0, 4.0)])
            .unwrap()
            .into();
        check(&a, &touching, true);
    }
}

#[test]
fn circles_touching_on_a_3_4_5_triangle_at_large_scale_are_exact() {
    // At 2^20 and beyond, r * r and dx * dx round in f32: exact arithmetic must still see
    // the touch, and a radius one unit (or one ulp) short must miss.
    for e in [20, 40, 60, 100] {
        let s = pow2(e);
        let a: Shape = Circle::new(v(0.0, 0.0), 2.0 * s).unwrap().into();
        let touching: Shape = Circle::new(v(3.0 * s, 4.0 * s), 3.0 * s).unwrap().into();
        check(&a, &touching, true);
        assert_eq!(contact(&a, &touching).unwrap().depth, 0.0);
        let short = if e == 20 {
            3.0 * s - 1.0
        } else {
            (3.0 * s).next_down()
        };
        let apart: Shape = Circle::new(v(3.0 * s, 4.0 * s), short).unwrap().into();
        check(&a, &apart, false);
        // The same through the generic path: a capsule of zero length.
        let capsule: Shape = Capsule::new(v(3.0 * s, 4.0 * s), v(3.0 * s, 4.0 * s), 3.0 * s)
            .unwrap()
            .into();
        check(&a, &capsule, true);
        let capsule: Shape = Capsule::new(v(3.0 * s, 4.0 * s), v(3.0 * s, 4.0 * s), short)
            .unwrap()
            .into();
        check(&a, &capsule, false);
    }
}

#[test]
fn circles_near_a_large_offset_touch_exactly() {
    // Centers near 2^22, where f32 squares of the coordinates lose the low bits.
    let o = pow2(22);
    let a: Shape = Circle::new(v(o, o), 2.0).unwrap().into();
    check(
        &a,
        &Circle::new(v(o + 3.0, o + 4.0), 3.0).unwrap().into(),
        true,
    );
    check(
        &a,
        &Circle::new(v(o + 3.0, o + 4.0), 2.5).unwrap().into(),
        false,
    );
}
