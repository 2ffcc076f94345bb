//! Contacts of concave and compound shapes: the minimum translation of the whole shape,
//! checked against the exact reference in `support/reference.rs` (rational arithmetic; a
//! concave polygon there is one region, whatever the library's decomposition).
//!
//! For a contact with normal `n` and depth `d`, moving `b` by `v`:
//! - `v = n d` leaves the shapes only touching: apart, or every pair of convex parts that
//!   still meets only touches (the literal depth, the fuzz target's rule: `b` may end wedged
//!   between two parts, or at the tip of a notch, where a further move along `n` overlaps
//!   again);
//! - `v = n (d - eps)` keeps them overlapping, robustly (every move of `eps / 2` more too);
//! - every `v` of length `d - eps`, in sampled directions, keeps them overlapping: no
//!   direction separates sooner;
//! - for a touching contact, `v = n eps` separates them, or only slides (every pair of parts
//!   only touches) where no sampled direction separates either.
//!
//! Shapes sit on a small integer grid, so touching and one-unit-apart pairs are common.

#![allow(clippy::unwrap_used, clippy::panic)]

mod support;

use collide2d::math::{Pose, Vec2};
use collide2d::{
    contact, intersects, Aabb, Capsule, Circle, Compound, Contact, ConvexPolygon, Obb, Point,
    Polygon, Segment, Shape,
};
use proptest::prelude::*;
use support::reference;

/// The slack of every check: far above the `f32` rounding of coordinates below 64, far below
/// the smallest feature of the grid (a lattice point is at least `1/64` from a lattice line).
const EPS: f32 = 1e-3;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn moved(s: &Shape, by: Vec2) -> Shape {
    s.transformed(&Pose::from_translation(by))
}

/// `b` moved by `by` meets `a`, and so does every move within `EPS / 2` of it.
fn overlaps_robustly(a: &Shape, b: &Shape, by: Vec2) -> bool {
    (0..8)
        .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 8.0) * (EPS * 0.5))
        .chain([Vec2::ZERO])
        .all(|d| reference::intersects(a, &moved(b, by + d)))
}

/// How far a pair of convex parts may overlap and still count as touching: far above the
/// `f32` rounding of a move on this grid, far below `1%` of any depth the checks measure.
const TOUCH: f32 = 1e-4;

/// The convex parts of `s`: a concave polygon's parts, compounds opened.
fn convex_parts(s: &Shape, out: &mut Vec<Shape>) {
    match s {
        Shape::Compound(c) => c.parts().iter().for_each(|p| convex_parts(p, out)),
        Shape::Polygon(p) if !p.is_convex() => {
            out.extend(p.parts().iter().map(|q| Shape::from(q.clone())))
        }
        _ => out.push(s.clone()),
    }
}

/// `a` and `b` only touch: apart, or every pair of their convex parts that meets is parted by
/// a move of `2 TOUCH` in one of 16 directions (exact reference): a pair overlapping by less
/// than `1.96 TOUCH` passes, one overlapping by more than `2 TOUCH` fails.
fn only_touching(a: &Shape, b: &Shape) -> bool {
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    convex_parts(a, &mut pa);
    convex_parts(b, &mut pb);
    let moves: Vec<Vec2> = (0..16)
        .map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 16.0) * (2.0 * TOUCH))
        .collect();
    pa.iter().all(|x| {
        pb.iter().all(|y| {
            !reference::intersects(x, y)
                || moves
                    .iter()
                    .any(|&m| !reference::intersects(x, &moved(y, m)))
        })
    })
}

/// The three claims of the module docs for `c = contact(a, b)`.
fn check_contact(a: &Shape, b: &Shape, c: &Contact) -> Result<(), String> {
    let (n, d) = (c.normal, c.depth);
    if !(d.is_finite() && d >= 0.0 && (n.length() - 1.0).abs() < 1e-5) {
        return Err(format!("malformed {c:?}"));
    }
    if !only_touching(a, &moved(b, n * d)) {
        return Err(format!(
            "moving by depth leaves the shapes overlapping: {c:?}"
        ));
    }
    if d == 0.0 && reference::intersects(a, &moved(b, n * EPS)) {
        // A touching contact's normal separates, or where no direction does (a cusp), slides.
        if !only_touching(a, &moved(b, n * EPS)) {
            return Err(format!("touching normal overlaps: {c:?}"));
        }
        let ring = (0..64).map(|k| Vec2::from_angle(k as f32 * core::f32::consts::TAU / 64.0));
        if let Some(u) = ring
            .into_iter()
            .find(|&u| !reference::intersects(a, &moved(b, u * EPS)))
        {
            return Err(format!("touching normal slides, but {u} separates: {c:?}"));
        }
    }
    if d > 2.0 * EPS {
        if !overlaps_robustly(a, b, n * (d - EPS)) {
            return Err(format!("moving by depth - eps separates: {c:?}"));
        }
        for k in 0..16 {
            let u = Vec2::from_angle(0.1 + k as f32 * core::f32::consts::TAU / 16.0);
            if !reference::intersects(a, &moved(b, u * (d - EPS))) {
                return Err(format!("direction {u} separates sooner than {c:?}"));
            }
        }
    }
    for p in c.points.iter() {
        // Midway between the surfaces: within half the depth of each shape.
        let near = |s: &Shape| reference::point_distance(s, *p) <= f64::from(d) * 0.5 + 1e-3;
        if !near(a) || !near(b) {
            return Err(format!("point {p} is not between the surfaces of {c:?}"));
        }
    }
    Ok(())
}

/// Checks `contact` in both argument orders against the reference.
fn check_pair(a: &Shape, b: &Shape) -> Result<(), String> {
    let hit = reference::intersects(a, b);
    for (x, y) in [(a, b), (b, a)] {
        match contact(x, y) {
            Some(c) if hit => check_contact(x, y, &c)?,
            None if !hit => {}
            other => return Err(format!("intersects {hit}, contact {other:?}")),
        }
    }
    Ok(())
}

// ---- shapes on the integer grid ----

fn int(lo: i32, hi: i32) -> impl Strategy<Value = f32> {
    (lo..=hi).prop_map(|i| i as f32)
}

fn point2() -> impl Strategy<Value = Vec2> {
    (int(-8, 8), int(-8, 8)).prop_map(|(x, y)| v(x, y))
}

/// A box `[x, x + w] x [y, y + h]`.
fn rect() -> impl Strategy<Value = Shape> {
    (point2(), int(1, 6), int(1, 6)).prop_map(|(o, w, h)| Aabb::new(o, o + v(w, h)).unwrap().into())
}

/// A concave polygon: lattice points at sorted angles around a centre, on two radii (a star,
/// 6 to 12 vertices), or an L.
fn concave() -> BoxedStrategy<Shape> {
    let star = (point2(), 3usize..=6, int(3, 7), int(1, 3), 0.0f32..1.0).prop_filter_map(
        "not simple or convex",
        |(c, k, outer, inner, turn)| {
            let pts: Vec<Vec2> = (0..2 * k)
                .map(|i| {
                    let r = if i % 2 == 0 { outer } else { inner };
                    let a = (i as f32 + turn) * core::f32::consts::PI / k as f32;
                    c + (Vec2::from_angle(a) * r).round()
                })
                .collect();
            let p = Polygon::new(&pts).ok()?;
            (!p.is_convex()).then(|| p.into())
        },
    );
    let l = (point2(), int(1, 4), int(1, 4), int(1, 4), int(1, 4)).prop_map(|(o, a, b, c, d)| {
        let pts = [
            (0.0, 0.0),
            (a + b, 0.0),
            (a + b, c),
            (a, c),
            (a, c + d),
            (0.0, c + d),
        ];
        Polygon::new(&pts.map(|(x, y)| o + v(x, y))).unwrap().into()
    });
    prop_oneof![star, l].boxed()
}

/// A sprite hitbox: 2 to 4 rectangles, often flush or overlapping.
fn hitbox() -> BoxedStrategy<Shape> {
    (
        point2(),
        prop::collection::vec((int(-3, 3), int(-3, 3), int(1, 4), int(1, 4)), 2..=4),
    )
        .prop_map(|(o, rects)| {
            let parts = rects
                .into_iter()
                .map(|(x, y, w, h)| Aabb::new(o + v(x, y), o + v(x + w, y + h)).unwrap().into())
                .collect();
            Compound::new(parts).unwrap().into()
        })
        .boxed()
}

/// A shape of kind `k`: point, segment, circle, box, rotated box, capsule, convex polygon,
/// concave polygon, hitbox, compound of a concave polygon and a disc.
fn shape(k: usize) -> BoxedStrategy<Shape> {
    match k {
        0 => point2().prop_map(|p| Point::new(p).unwrap().into()).boxed(),
        1 => (point2(), point2())
            .prop_map(|(p, q)| Segment::new(p, q).unwrap().into())
            .boxed(),
        2 => (point2(), int(0, 4))
            .prop_map(|(c, r)| Circle::new(c, r).unwrap().into())
            .boxed(),
        3 => rect().boxed(),
        4 => (
            point2(),
            int(1, 3),
            int(1, 3),
            prop_oneof![
                Just(0.0f32),
                Just(core::f32::consts::FRAC_PI_4),
                -3.0f32..3.0
            ],
        )
            .prop_map(|(c, w, h, a)| Obb::new(c, v(w, h), a).unwrap().into())
            .boxed(),
        5 => (point2(), point2(), int(0, 3))
            .prop_map(|(p, q, r)| Capsule::new(p, q, r).unwrap().into())
            .boxed(),
        6 => prop::collection::vec(point2(), 3..=6)
            .prop_filter_map("collinear", |pts| {
                ConvexPolygon::new(&reference::convex_hull(&pts))
                    .ok()
                    .map(Shape::from)
            })
            .boxed(),
        7 => concave(),
        8 => hitbox(),
        _ => (concave(), point2(), int(1, 3))
            .prop_map(|(p, c, r)| {
                Compound::new(vec![p, Circle::new(c, r).unwrap().into()])
                    .unwrap()
                    .into()
            })
            .boxed(),
    }
}

const KINDS: usize = 10;

/// Cases per property: `COLLIDE2D_SOAK` times 64 (as in `properties.rs`).
fn config() -> ProptestConfig {
    let soak = std::env::var("COLLIDE2D_SOAK")
        .ok()
        .and_then(|v| v.parse::<u32>().ok());
    ProptestConfig {
        cases: 64 * soak.unwrap_or(1).max(1),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn concave_polygons_against_every_kind((a, b) in (0..KINDS).prop_flat_map(|k| (concave(), shape(k)))) {
        check_pair(&a, &b).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn hitboxes_against_every_kind((a, b) in (0..KINDS).prop_flat_map(|k| (hitbox(), shape(k)))) {
        check_pair(&a, &b).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn shapes_one_unit_apart_or_touching_along_an_axis(
        (a, b) in (7usize..KINDS, 0..KINDS).prop_flat_map(|(i, k)| (shape(i), shape(k))),
        axis in 0usize..2,
        gap in 0i32..=1,
    ) {
        // Slide b along an axis until its box touches a's, then back off by `gap` units: the
        // bounding boxes touch or lie one unit apart.
        let (ba, bb) = (a.aabb(), b.aabb());
        let shift = if axis == 0 { v(ba.max().x - bb.min().x + gap as f32, 0.0) } else { v(0.0, ba.max().y - bb.min().y + gap as f32) };
        let b = moved(&b, shift);
        check_pair(&a, &b).map_err(TestCaseError::fail)?;
    }
}

// ---- named regressions ----

fn polygon(pts: &[(f32, f32)]) -> Shape {
    Polygon::new(&pts.iter().map(|&(x, y)| v(x, y)).collect::<Vec<_>>())
        .unwrap()
        .into()
}

#[test]
fn point_inside_a_concave_polygon_is_pushed_out_through_its_edge_not_a_diagonal() {
    // Issue 17, first example: the per-part answer measured to the internal diagonal
    // (3,-9)-(-2,-2), 9/sqrt(74) = 1.046, and left the point inside. The nearest edge is
    // (3,-9)-(-3,-3), on x + y = -6, 3/sqrt(2) away.
    let a: Shape = Point::new(v(0.0, -3.0)).unwrap().into();
    let b = polygon(&[(3.0, -9.0), (-3.0, -3.0), (-2.0, -2.0), (2.0, 4.0)]);
    let c = contact(&a, &b).unwrap();
    assert!((c.depth - 3.0 / 2f32.sqrt()).abs() < 1e-5, "{c:?}");
    assert!(c.normal.distance(v(1.0, 1.0).normalize()) < 1e-6, "{c:?}");
    check_pair(&a, &b).unwrap();
}

#[test]
fn box_against_a_concave_polygon_moves_the_whole_polygon_out() {
    // Issue 17, second example: the per-part answer was (0, 1) by 17, after which the
    // polygon's vertex (4, -11) sat at (4, 6), inside the box (along (0, 1) it takes 20). The
    // shortest move is up and to the left, about 17.24, until the polygon's edge from (12, -8)
    // to (19, 16) passes through the box's corner (-1, 9).
    let a: Shape = Aabb::from_rect(-1.0, -10.0, 21.0, 19.0).unwrap().into();
    let b = polygon(&[
        (19.0, 16.0),
        (-3.0, 5.0),
        (-6.0, 5.0),
        (4.0, -11.0),
        (12.0, -8.0),
    ]);
    let c = contact(&a, &b).unwrap();
    assert!((c.depth - 17.24).abs() < 0.01 && c.normal.x < -0.9, "{c:?}");
    assert!(
        !reference::intersects(&a, &moved(&b, c.normal * (c.depth + EPS))),
        "{c:?}"
    );
    check_pair(&a, &b).unwrap();
}

#[test]
fn point_touching_a_reflex_vertex_gets_a_normal_out_of_the_notch() {
    // An L whose reflex corner (2, 2) the point touches: moving b along the normal by any
    // small amount must leave the point in the notch, outside b.
    let l = polygon(&[
        (0.0, 0.0),
        (4.0, 0.0),
        (4.0, 2.0),
        (2.0, 2.0),
        (2.0, 4.0),
        (0.0, 4.0),
    ]);
    let p: Shape = Point::new(v(2.0, 2.0)).unwrap().into();
    let c = contact(&p, &l).unwrap();
    assert_eq!(c.depth, 0.0);
    assert!(c.normal.x < 0.0 && c.normal.y < 0.0, "{c:?}");
    for step in [1e-4, 1e-2, 0.5] {
        assert!(
            !intersects(&p, &moved(&l, c.normal * step)),
            "{step}: {c:?}"
        );
    }
    check_pair(&p, &l).unwrap();
}

#[test]
fn circle_snug_in_a_gap_of_its_own_width_is_inside_the_union() {
    // Two boxes 2 apart and a circle of radius 1 between them: they only touch, but every
    // move of the circle except along the gap overlaps a box, so the seam rule puts it inside
    // the union: the depth is the move along the gap until the circle's centre reaches a
    // box's end (where it touches both corners), 2 units.
    let walls: Shape = Compound::new(vec![
        Aabb::new(v(0.0, 0.0), v(4.0, 1.0)).unwrap().into(),
        Aabb::new(v(0.0, 3.0), v(4.0, 4.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    let ball: Shape = Circle::new(v(2.0, 2.0), 1.0).unwrap().into();
    let c = contact(&walls, &ball).unwrap();
    assert!((c.depth - 2.0).abs() < 1e-5, "{c:?}");
    assert!(c.normal.y.abs() < 1e-6, "{c:?}");
}

/// Two boxes side by side with a gap of `gap` between `x = 0` and `x = gap` (a seam when 0),
/// and a third box far away, so the shape's coordinates reach `1e7`: a tolerance relative to
/// them (`1e-9` of the largest coordinate is `0.01`) would take a `0.001` slit for a seam.
fn slit(gap: f32) -> Shape {
    let r = |x0, y0, x1, y1| Shape::from(Aabb::new(v(x0, y0), v(x1, y1)).unwrap());
    Compound::new(vec![
        r(-10.0, 0.0, 0.0, 10.0),
        r(gap, 0.0, 10.0, 10.0),
        r(1e7, 1e7, 1e7 + 1.0, 1e7 + 1.0),
    ])
    .unwrap()
    .into()
}

#[test]
fn a_point_in_a_narrow_slit_touches_and_one_on_a_seam_is_inside_exactly() {
    let p: Shape = Point::new(v(0.0, 5.0)).unwrap().into();
    // A slit 0.001 wide: the point on its left wall only touches, and leaves along +x.
    let c = contact(&slit(0.001), &p).unwrap();
    assert_eq!((c.depth, c.normal), (0.0, Vec2::X), "{c:?}");
    assert!(!intersects(&slit(0.001), &moved(&p, c.normal * 0.0005)));
    // Flush boxes: a seam, inside the union; out through the top or bottom, 5 away.
    let c = contact(&slit(0.0), &p).unwrap();
    assert!(
        (c.depth - 5.0).abs() < 1e-5 && c.normal.x.abs() < 1e-6,
        "{c:?}"
    );
    // One f32 step apart at 1: still a slit, not a seam.
    let c = contact(&slit(f32::EPSILON), &p).unwrap();
    assert_eq!(c.depth, 0.0, "{c:?}");
}

#[test]
fn a_box_across_a_seam_of_a_hitbox_is_pushed_out_of_the_whole_hitbox() {
    // A box straddling the seam x = 0 of two flush boxes, its bottom 2 below their top: out
    // through the top, 2 up (the per-part answer moved it 1 sideways, out of one part and
    // into the other).
    let b: Shape = Aabb::new(v(-1.0, 8.0), v(1.0, 9.0)).unwrap().into();
    let c = contact(&slit(0.0), &b).unwrap();
    assert!((c.depth - 2.0).abs() < 1e-5 && c.normal == Vec2::Y, "{c:?}");
    check_pair(&slit(0.0), &b).unwrap();
}

#[test]
fn an_exposed_point_that_rounds_to_the_origin_gets_a_finite_normal() {
    // Found by fuzzing: the point (1, 1) on the box's right edge, by triangles that meet it
    // 1e-20 off the diagonal. The union's nearest exposed point is within rounding of the
    // origin but not at it exactly: its distance rounded to 0 and the normal (the point
    // divided by that distance) was NaN.
    let tri = |p: [(f32, f32); 3]| -> Shape {
        ConvexPolygon::new(&p.map(|(x, y)| v(x, y))).unwrap().into()
    };
    let b: Shape = Compound::new(vec![
        tri([(-1.0, 2.0), (-1e-20, -1e-20), (3e-8, 1.0)]),
        tri([(-1e-20, 1e-20), (2.0, -0.5), (2.0, 2.0)]),
        Aabb::new(v(0.0, 3e-8), v(1.0, 2.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    let a: Shape = Point::new(v(1.0, 1.0)).unwrap().into();
    for c in [contact(&a, &b).unwrap(), contact(&b, &a).unwrap()] {
        assert!(c.normal.is_finite() && c.depth.is_finite(), "{c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    }
    check_pair(&a, &b).unwrap();
}

#[test]
fn a_face_crossing_a_nearly_parallel_edge_gets_a_finite_parameter() {
    // Found with the test above: where a face crosses the nearly parallel edge of another
    // piece, the crossing's parameter is a fraction of two cross products that round to 0 in
    // `f64`; `0 / 0` made the exposed point, depth and normal NaN.
    let tri = |p: [(f32, f32); 3]| -> Shape {
        ConvexPolygon::new(&p.map(|(x, y)| v(x, y))).unwrap().into()
    };
    let b: Shape = Compound::new(vec![
        tri([(-1.0, -0.1), (0.5, -1e-20), (0.1, 0.5)]),
        tri([(-1.0, -0.1), (2.0, 0.1), (-1.0, 1e-20)]),
    ])
    .unwrap()
    .into();
    let a: Shape = Point::new(v(1e-20, 3e-8)).unwrap().into();
    for c in [contact(&a, &b).unwrap(), contact(&b, &a).unwrap()] {
        assert!(c.normal.is_finite() && c.depth.is_finite(), "{c:?}");
        assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    }
    check_pair(&a, &b).unwrap();
}

#[test]
fn coordinates_near_the_f32_limit_take_bounded_exact_work() {
    // Like the `query_pair` fuzz input that timed out: vertices near ±1.8e38 next to ones
    // near 1 or 1e-20, so differences of vertices are not exact in `f64`. The exact
    // fallbacks' expansions grew to thousands of components (each product keeping every
    // partial product) and one contact took seconds; compressed, each stays small.
    // Moves of a few units are below the coordinates' `f32` spacing here, so the reference
    // checks of `check_pair` cannot apply: the answer must be well formed and symmetric.
    let a: Shape = Polygon::new(&[
        v(1.8e38, -1.7e38),
        v(1.0, 0.5),
        v(1.0, -2e-40),
        v(-1.0, 1.8e38),
        v(0.5, -1e-20),
        v(-1.7e38, 1e20),
        v(-1.0, -1.0),
    ])
    .unwrap()
    .into();
    let b: Shape = Compound::new(vec![
        Aabb::new(v(0.5, -1.0), v(1.7e38, 0.0)).unwrap().into(),
        Aabb::new(v(-1e-20, -1e-20), v(1.8e38, 3e-38))
            .unwrap()
            .into(),
        polygon(&[
            (-2e-40, -1.0),
            (2.0, -1e-20),
            (1.8e38, -1.0),
            (1e20, 0.0),
            (1.0, 0.0),
        ]),
    ])
    .unwrap()
    .into();
    let c = contact(&a, &b).unwrap();
    assert!(
        c.normal.is_finite() && c.depth.is_finite() && c.depth >= 0.0,
        "{c:?}"
    );
    assert!((c.normal.length() - 1.0).abs() < 1e-5, "{c:?}");
    assert_eq!(contact(&b, &a), Some(c.flipped()));
}

/// The `query_pair` fuzz crash's shapes: circles of radius 1 at (-2, -1), (-1, -1), (-1, 3)
/// and (-6.3e-30, -1), and `b` a circle of radius 1 at (-1, -1), moved by `(0, dy)`. In
/// Minkowski terms, discs of radius 2 at (±1, -dy), (0, -dy) and (0, -4 - dy): the middle one
/// touches the bottom one at a single point straight below it, a cusp.
fn stacked_circles(dy: f32) -> (Shape, Shape) {
    let circle = |x, y| Shape::from(Circle::new(v(x, y), 1.0).unwrap());
    let a = Compound::new(vec![
        circle(-2.0, -1.0),
        circle(-1.0, -1.0),
        circle(-1.0, 3.0),
        circle(-6.310_887_2e-30, -1.0),
    ])
    .unwrap()
    .into();
    (a, circle(-1.0, -1.0 + dy))
}

/// `b` moved by `normal * depth` only touches `a`: they meet (exact reference), and every
/// pair of convex parts that meets has contact depth 0; by `normal * (depth - EPS)` they
/// still overlap, robustly. The literal depth: the move ends on the union's boundary, even
/// where `b` is wedged there between two parts of `a`.
fn only_touches_at_depth(a: &Shape, b: &Shape, c: &Contact) -> Result<(), String> {
    let (n, d) = (c.normal, c.depth);
    let at = moved(b, n * d);
    if !reference::intersects(a, &at) {
        return Err(format!("moving by depth separates: {c:?}"));
    }
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    leaves(a, &mut pa);
    leaves(&at, &mut pb);
    for (p, q) in pa.iter().flat_map(|p| pb.iter().map(move |q| (p, q))) {
        if let Some(pc) = contact(p, q).filter(|pc| pc.depth != 0.0) {
            return Err(format!(
                "moving by depth leaves {p:?} in {q:?} ({pc:?}): {c:?}"
            ));
        }
    }
    if !overlaps_robustly(a, b, n * (d - EPS)) {
        return Err(format!("moving by depth - eps separates: {c:?}"));
    }
    Ok(())
}

#[test]
fn a_wedge_between_two_circles_of_a_compound_is_a_valid_end() {
    // `b` pushed up by 2 touches the circles at (-1, -1) and (-1, 3) at once, wedged between
    // them (any further move overlaps the top one): the union's boundary is at distance 2
    // there, so normal (0, 1), depth 2 is the literal minimum translation.
    let (a, b) = stacked_circles(0.0);
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        assert_eq!(c.depth, 2.0, "{c:?}");
        only_touches_at_depth(x, y, &c).unwrap();
    }
    assert_eq!(contact(&b, &a), contact(&a, &b).map(|c| c.flipped()));
}

#[test]
fn a_cusp_nearest_of_all_is_the_answer() {
    // `b` half a unit higher: the cusp, at distance 1.5, is strictly the nearest boundary
    // point, so the depth is 1.5 and `b` ends wedged between the two circles.
    let (a, b) = stacked_circles(0.5);
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        assert_eq!(c.depth, 1.5, "{c:?}");
        only_touches_at_depth(x, y, &c).unwrap();
        for k in 0..720 {
            let u = Vec2::from_angle(k as f32 * core::f32::consts::TAU / 720.0);
            assert!(
                reference::intersects(x, &moved(y, u * (c.depth - EPS))),
                "{u} separates sooner than {c:?}"
            );
        }
    }
    assert_eq!(contact(&b, &a), contact(&a, &b).map(|c| c.flipped()));
}

#[test]
fn a_circle_wedged_between_a_circle_and_a_box_gets_the_exact_boundary_distance() {
    // `b` pushed left by 0.3181839 touches the circle and the box's corner at once: the exact
    // distance to the union's boundary. A rule that skipped such wedges answered normal
    // (-0.99989605, -0.014417078), depth 0.31819594: neither the boundary distance nor a
    // move that clearly separates.
    let a: Shape = Compound::new(vec![
        Circle::new(v(9.181_816, 34.0), 1.0).unwrap().into(),
        Aabb::new(v(11.181_816, 34.0), v(12.181_816, 35.0))
            .unwrap()
            .into(),
    ])
    .unwrap()
    .into();
    let b: Shape = Circle::new(v(11.0, 34.0), 0.5).unwrap().into();
    let c = contact(&a, &b).unwrap();
    assert_eq!(
        (c.normal, c.depth.to_bits()),
        (v(-1.0, 0.0), 0.318_183_9_f32.to_bits())
    );
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    only_touches_at_depth(&a, &b, &c).unwrap();
}

#[test]
fn a_capsule_touching_two_boxes_gets_a_normal_that_separates_from_both() {
    // The capsule's round end touches one box's side at its corner and the other box's top
    // at its corner, where that top's flat face meets a rounded corner of the difference:
    // sliding along the top only keeps touching, so the normal must lift off it too.
    let a: Shape = Compound::new(vec![
        Aabb::new(v(4.0, 1.0), v(5.0, 2.0)).unwrap().into(),
        Aabb::new(v(1.0, -2.0), v(3.0, 0.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    let b: Shape = Capsule::new(v(3.0, 1.0), v(0.0, 2.0), 1.0).unwrap().into();
    check_pair(&a, &b).unwrap();
}

/// No move of length `depth - EPS`, in `steps` directions, parts `b` from `a` (exact
/// reference): nothing separates sooner than the contact says.
fn no_direction_separates_sooner(
    a: &Shape,
    b: &Shape,
    c: &Contact,
    steps: usize,
) -> Result<(), String> {
    for k in 0..steps {
        let u = Vec2::from_angle(k as f32 * core::f32::consts::TAU / steps as f32);
        if !reference::intersects(a, &moved(b, u * (c.depth - EPS))) {
            return Err(format!("{u} separates sooner than {c:?}"));
        }
    }
    Ok(())
}

/// An L-shaped `a` with a notch at its top right, `[3, 4] x [5, 7]`; `b` a box with a step
/// and a circle of radius 1 at `(7, 5)` in `place` of the circle (the neighbours' variants).
fn notch(place: Shape) -> (Shape, Shape) {
    let a = polygon(&[
        (1.0, 1.0),
        (4.0, 1.0),
        (4.0, 5.0),
        (3.0, 5.0),
        (3.0, 7.0),
        (1.0, 7.0),
    ]);
    let body = polygon(&[
        (-3.0, 1.0),
        (4.0, 1.0),
        (4.0, 5.0),
        (0.0, 5.0),
        (0.0, 6.0),
        (-3.0, 6.0),
    ]);
    (a, Compound::new(vec![body, place]).unwrap().into())
}

#[test]
fn a_circle_leaving_past_a_notchs_tip_beside_a_flat_wall_takes_the_shorter_way() {
    // `b`'s body must move at least 3 left to clear `a`; its circle then sits in `a`'s notch
    // against the wall x = 3, and is free once it rises past the wall's top corner (3, 7):
    // the move (-3, 2), sqrt(13) = 3.606 long, shorter than 4 down. In Minkowski terms the
    // boundary point is where the circle-wall piece's flat face ends in the arc round that
    // corner, on the body's flat face x = 3: the sliver between that face and the arc is
    // outside the union, which the cone test took for covered (answering 4 along (0, -1)).
    let circle: Shape = Circle::new(v(7.0, 5.0), 1.0).unwrap().into();
    let (a, b) = notch(circle);
    let want = v(-3.0, 2.0) / 13f32.sqrt();
    for (x, y, sign) in [(&a, &b, 1.0), (&b, &a, -1.0)] {
        let c = contact(x, y).unwrap();
        assert!((c.depth - 13f32.sqrt()).abs() < 1e-5, "{c:?}");
        assert!((c.normal - want * sign).length() < 1e-5, "{c:?}");
        only_touches_at_depth(x, y, &c).unwrap();
        no_direction_separates_sooner(x, y, &c, 720).unwrap();
        // Just past the corner (3, 7) the shapes are apart (exact reference).
        let past = v(-3.0 - 1e-3, 2.05) * sign;
        assert!(!reference::intersects(x, &moved(y, past)), "{c:?}");
    }
    check_pair(&a, &b).unwrap();
}

#[test]
fn the_notch_with_other_round_parts_or_a_polygon_in_place_of_the_circle() {
    // The same exit past the corner (3, 7) for other round parts (each took the 4 down before
    // the fix but the first, which took sqrt(13) for sqrt(10)), and for a diamond, whose
    // sliver beside the wall is a wedge (exact polygon search); a box cannot slip past the
    // corner and goes down.
    let circle = |x, y, r| Shape::from(Circle::new(v(x, y), r).unwrap());
    let capsule = |p: (f32, f32), q: (f32, f32)| {
        Shape::from(Capsule::new(v(p.0, p.1), v(q.0, q.1), 1.0).unwrap())
    };
    let cases = [
        (circle(7.0, 6.0, 1.0), v(-3.0, 1.0)),
        (circle(8.0, 5.0, 2.0), v(-3.0, 2.0)),
        (capsule((7.0, 5.0), (7.0, 6.0)), v(-3.0, 2.0)),
        (capsule((7.0, 5.0), (8.0, 5.0)), v(-3.0, 2.0)),
        (
            polygon(&[(6.0, 5.0), (7.0, 4.0), (8.0, 5.0), (7.0, 6.0)]),
            v(-3.0, 2.0),
        ),
        (
            Aabb::new(v(6.0, 4.0), v(8.0, 6.0)).unwrap().into(),
            v(0.0, -4.0),
        ),
    ];
    for (place, exit) in cases {
        let (a, b) = notch(place);
        for (x, y, sign) in [(&a, &b, 1.0), (&b, &a, -1.0)] {
            let c = contact(x, y).unwrap();
            assert!((c.depth - exit.length()).abs() < 1e-5, "{exit} {c:?}");
            assert!(
                (c.normal - exit.normalize() * sign).length() < 1e-5,
                "{c:?}"
            );
            only_touches_at_depth(x, y, &c).unwrap();
            no_direction_separates_sooner(x, y, &c, 90).unwrap();
        }
        check_pair(&a, &b).unwrap();
    }
}

#[test]
fn the_notch_part_way_out_and_at_the_corner() {
    // `b` already moved 3 left and 1 or 1.5 up: the circle is snug between `a`'s wall and
    // the body's flush side (a seam: inside), so the rest of the way up is the depth (before
    // the fix: sqrt(5) and sqrt(3.25), back round the other way).
    let circle: Shape = Circle::new(v(7.0, 5.0), 1.0).unwrap().into();
    let (a, b) = notch(circle);
    for up in [1.0, 1.5] {
        let b = moved(&b, v(-3.0, up));
        for (x, y, sign) in [(&a, &b, 1.0), (&b, &a, -1.0)] {
            let c = contact(x, y).unwrap();
            assert!((c.depth - (2.0 - up)).abs() < 1e-6, "{c:?}");
            assert!((c.normal - v(0.0, sign)).length() < 1e-6, "{c:?}");
            only_touches_at_depth(x, y, &c).unwrap();
            no_direction_separates_sooner(x, y, &c, 90).unwrap();
        }
    }
    // At the corner: touching, and no direction separates at once (up, the body slides along
    // `a`'s side; any turn left drops the circle onto the corner, right the body into `a`).
    // The normal only slides: moved along it, every pair of parts only touches.
    let b = moved(&b, v(-3.0, 2.0));
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        assert_eq!(c.depth, 0.0, "{c:?}");
        for k in 0..180 {
            let u = Vec2::from_angle(k as f32 * core::f32::consts::TAU / 180.0);
            assert!(reference::intersects(x, &moved(y, u * EPS)), "{u}");
        }
        let (mut px, mut py) = (Vec::new(), Vec::new());
        leaves(x, &mut px);
        leaves(&moved(y, c.normal * EPS), &mut py);
        for (p, q) in px.iter().flat_map(|p| py.iter().map(move |q| (p, q))) {
            assert!(
                contact(p, q).is_none_or(|t| t.depth == 0.0),
                "{p:?} {q:?} {c:?}"
            );
        }
    }
}

#[test]
fn an_arc_centred_on_the_origin_is_nearest_everywhere_and_exposed_past_another_part() {
    // Issue 17, found by the soak of `moving_b_by_less_than_the_depth_keeps_the_shapes_touching`:
    // `b`'s circle is centred on `a`'s end, so the end cap of their difference (a capsule) is
    // an arc centred on the origin, every point of it at distance 3. The segments' difference
    // covers part of that arc but not all (moving `b` by 3 along (-1, 2) / sqrt(5) separates
    // everything), so the depth is 3, at the arc's uncovered end. The search measured its
    // lower bound along the `f32` normal (length 1 - 1.2e-8: 3.000000036, past the tolerance)
    // and so dropped every candidate at exactly 3 (the arc's ends, its crossings with the
    // segments' difference), answering that difference's vertex at sqrt(10): normal
    // -(3, 1) / sqrt(10), a move after which the shapes were apart well before its end.
    let a: Shape = Segment::new(v(-1.0, 2.0), v(5.0, 5.0)).unwrap().into();
    let b: Shape = Compound::new(vec![
        Circle::new(v(-1.0, 2.0), 3.0).unwrap().into(),
        Segment::new(v(-2.0, 6.0), v(8.0, 6.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    // (The literal rule is `check_pair`'s, up to `TOUCH`: the move along a diagonal normal
    // rounds in `f32`, so `only_touches_at_depth`'s exact zero depths do not apply.)
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        assert!((c.depth - 3.0).abs() < 1e-5, "{c:?}");
        no_direction_separates_sooner(x, y, &c, 720).unwrap();
    }
    check_pair(&a, &b).unwrap();
}

/// The convex parts of `s`, compounds opened.
fn leaves(s: &Shape, out: &mut Vec<Shape>) {
    match s {
        Shape::Compound(c) => c.parts().iter().for_each(|p| leaves(p, out)),
        _ => out.push(s.clone()),
    }
}

/// The `query_pair` fuzz input `crash-f381`: nested compounds of segments, points and boxes,
/// most of them thin, some at `P` = 4.6e27. Near the origin, `b`'s segment from (0, -3) to
/// (0, 5) crosses `a`'s diagonal; at `P`, vertical segments of both lie on one line.
fn far_segments() -> (Shape, Shape) {
    const P: f32 = 4.592_514_7e27;
    const T: f32 = -5.375_081_3e-32;
    let seg = |a: (f32, f32), b: (f32, f32)| -> Shape {
        Segment::new(v(a.0, a.1), v(b.0, b.1)).unwrap().into()
    };
    let rect = |lo: (f32, f32), hi: (f32, f32)| -> Shape {
        Aabb::new(v(lo.0, lo.1), v(hi.0, hi.1)).unwrap().into()
    };
    let pt = |x: f32, y: f32| -> Shape { Point::new(v(x, y)).unwrap().into() };
    let all = |parts: Vec<Shape>| -> Shape { Compound::new(parts).unwrap().into() };
    let a = all(vec![
        all(vec![
            all(vec![seg((P, P), (T, T)), rect((T, T), (0.0, P))]),
            all(vec![
                rect((T, T), (0.0, 0.0)),
                rect((T, T), (0.0, 0.0)),
                rect((T, T), (T, 8.0)),
                pt(-8.0, -5.0),
            ]),
        ]),
        all(vec![
            all(vec![
                rect((T, 4.594_790_3e27), (P, 1.304_479_2e28)),
                seg((P, P), (P, 3.857_487_8e27)),
                seg((P, P), (P, P)),
                seg((P, -8.0), (-8.0, -8.0)),
            ]),
            pt(P, P),
            all(vec![seg((P, P), (P, P)), seg((P, P), (P, 8.0))]),
            pt(5.0, -4.572_686_2e-32),
        ]),
    ]);
    let b = all(vec![
        all(vec![
            all(vec![
                rect((T, T), (0.0, 0.0)),
                rect((8.637_423e28, T), (8.637_423e28, 0.0)),
                rect((4.594_790_3e27, P), (1.304_479_2e28, 9.185_029_4e27)),
                seg((P, P), (3.857_487_8e27, P)),
            ]),
            all(vec![seg((P, P), (P, 1.004_932_4e-38)), pt(-8.0, -8.0)]),
            pt(P, P),
            all(vec![seg((P, P), (P, P)), seg((P, P), (P, 8.0))]),
        ]),
        pt(5.0, P),
        all(vec![
            all(vec![
                seg((1.239_794_5e-38, 5.0), (0.0, -3.0)),
                rect((-8.0, -8.0), (-8.0, -8.0)),
            ]),
            pt(-8.0, -8.0),
        ]),
        pt(-8.0, -8.0),
    ]);
    (a, b)
}

#[test]
fn collinear_segments_far_out_stay_touching_along_the_move_and_count_as_no_obstacle() {
    // Found by fuzzing: the contact is the crossing near the origin, 3 up. Past it, only the
    // collinear segments at 4.6e27 (pieces without interior) still meet, as the docs allow;
    // a move of 1e-3 of the coordinates past it (the fuzz check's margin) carries `b`'s
    // segment at y = P into `a`'s box 2.3e24 above, so the check's smaller moves decide.
    let (a, b) = far_segments();
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        assert_eq!(c.depth, 3.0, "{c:?}");
        assert!((c.normal - v(0.0, 1.0) * c.normal.y.signum()).length() < 1e-6);
        let (mut px, mut py) = (Vec::new(), Vec::new());
        leaves(x, &mut px);
        leaves(&moved(y, c.normal * (c.depth + 1e20)), &mut py);
        // Every pair of parts that still meets only touches: no overlap of area is left.
        for (p, q) in px.iter().flat_map(|p| py.iter().map(move |q| (p, q))) {
            if let Some(pc) = contact(p, q) {
                assert_eq!(pc.depth, 0.0, "{p:?} {q:?} {pc:?}");
            }
        }
        assert!(intersects(x, &moved(y, c.normal * (c.depth + 1e25))));
    }
}

#[test]
fn a_thin_part_far_smaller_than_the_coordinates_still_covers_its_difference() {
    // Found by fuzzing: a box 1.8e16 by 131072 and a short capsule near the origin, two
    // squares turned 45 degrees at 1e28. The differences `B − A` of the small parts have
    // edges that round to length 0 in `f64`; such an edge got the normal (1, 0), which cut
    // the piece, so points deep inside it were called outside: the contact was 1.28e28 along
    // the diagonal, leaving `b` over the small parts, then (with the normals mended) 1.62e28,
    // past the nearer exit at a corner of that piece, whose cone used the zero edge.
    let a: Shape = Compound::new(vec![
        Obb::new(v(-8.0, 32768.0), v(1.801_439_9e16, 65536.0), 0.0)
            .unwrap()
            .into(),
        Capsule::new(v(-1.1e-44, -65536.0), v(-131_072.0, 28672.0), 8.0)
            .unwrap()
            .into(),
        Obb::new(
            v(-9.903_520_3e27, -9.903_520_3e27),
            v(9.903_520_3e27, 9.903_520_3e27),
            3.926_991,
        )
        .unwrap()
        .into(),
        Obb::new(
            v(-1.759_218_6e13, -9.903_520_3e27),
            v(2.350_988_7e-38, 9.903_520_3e27),
            3.926_991,
        )
        .unwrap()
        .into(),
    ])
    .unwrap()
    .into();
    let b: Shape = Obb::new(
        v(1.466_015_5e13, -9.903_520_3e27),
        v(9.903_520_3e27, 9.903_520_3e27),
        3.926_991,
    )
    .unwrap()
    .into();
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        // Moves 1e-3 of the depth either side: far above the rounding at 1e28.
        let (out, short) = (c.depth * 1.001, c.depth * 0.999);
        assert!(!intersects(x, &moved(y, c.normal * out)), "{c:?}");
        for k in 0..720 {
            let u = Vec2::from_angle(k as f32 * core::f32::consts::TAU / 720.0);
            assert!(
                intersects(x, &moved(y, u * short)),
                "{u} separates sooner than {c:?}"
            );
        }
    }
}

#[test]
fn a_segment_through_a_slit_far_narrower_than_the_coordinates_leaves_through_it() {
    // Found by fuzzing (`crash-f727`): `a` a segment 55 long through the origin, `b` two
    // segments along the y axis with a gap of about 1e-31 between their ends, which `a`
    // crosses. The way out is back through the gap: a few times the depth further, the
    // upper segment comes in. The fuzz check's margin (1e-3 of the coordinates) cannot see
    // that window, so it also moves by parts of the depth itself.
    const T: f32 = -5.375_081_3e-32;
    let a: Shape = Obb::new(v(T, -7.840_229_3e-32), v(6.162_976e-33, 27.675_632), 1.0)
        .unwrap()
        .into();
    let b: Shape = Compound::new(vec![
        Segment::new(v(1e-45, -5.0), v(T, T)).unwrap().into(),
        Aabb::new(v(T, 3.280_689_3e-36), v(T, 8.0)).unwrap().into(),
        Point::new(v(-8.0, -8.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    // Moved by 1e-32, `a`'s ends at ±23 would round back in place: `b` moves, and the other
    // order is the same contact flipped.
    let c = contact(&a, &b).unwrap();
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    assert!(c.depth > 0.0 && c.depth < 1e-31, "{c:?}");
    for s in [1.01, 1.25, 2.0] {
        assert!(
            !intersects(&a, &moved(&b, c.normal * (c.depth * s))),
            "{s} {c:?}"
        );
    }
    assert!(intersects(&a, &moved(&b, c.normal * 1e-3)), "{c:?}");
}

#[test]
fn a_capsule_far_wider_than_a_parts_length_does_not_leave_it_out() {
    // Found by fuzzing (`crash-f7db`): `b` a capsule of radius 2e28 whose end is on a point
    // of `a`; `a` also has a thin box 2,048 long. That box's difference with the capsule is a
    // parallelogram whose short sides round away against the radius: the capsule around one
    // of them had a rectangle of zero length, whose clip spanned the whole line, so the search
    // took the box's own contact as the answer, leaving the point 4.5e27 deep in `b`.
    let point: Shape = Point::new(v(-3.0, -9.903_520_3e27)).unwrap().into();
    let a: Shape = Compound::new(vec![
        Obb::new(v(-4.0, -4.0), v(1024.0, 2.033_721_8e-31), -4.0)
            .unwrap()
            .into(),
        point.clone(),
    ])
    .unwrap()
    .into();
    let b: Shape = Capsule::new(v(-8.0, -8.0), v(-3.0, -9.903_520_3e27), 1.980_704_1e28)
        .unwrap()
        .into();
    for (x, y) in [(&a, &b), (&b, &a)] {
        let c = contact(x, y).unwrap();
        let after = moved(y, c.normal * c.depth);
        let (mut px, mut py) = (Vec::new(), Vec::new());
        leaves(x, &mut px);
        leaves(&after, &mut py);
        // Every pair of parts only touches, within the rounding of coordinates near 4e28.
        for (p, q) in px.iter().flat_map(|p| py.iter().map(move |q| (p, q))) {
            if let Some(pc) = contact(p, q) {
                assert!(pc.depth <= 1e-6 * 4e28, "{p:?} {q:?} {pc:?} after {c:?}");
            }
        }
    }
    assert_eq!(contact(&b, &a), contact(&a, &b).map(|c| c.flipped()));
}

#[test]
fn a_capsule_whose_segment_rounds_to_a_point_in_its_difference_is_a_disc() {
    // Found by fuzzing (`crash-45b1`): a capsule of radius 131072 around a segment 6.6e-24
    // long at the origin, and a square turned 45 degrees beside it; `b` a point at (-7, -8).
    // The capsule's difference with the point has both ends at (7, 8) in `f64`: as a segment
    // its direction was NaN and the span of the ray along the normal the whole line, so the
    // search took the capsule's own contact, leaving the point 29,671 deep in the square.
    let square: Shape = Obb::new(v(-131_072.0, 0.0), v(131_072.0, 131_072.0), 5.497_787_5)
        .unwrap()
        .into();
    let a: Shape = Compound::new(vec![
        Capsule::new(v(4.6278e-41, 0.0), v(6.617_457e-24, 0.0), 131_072.0)
            .unwrap()
            .into(),
        square.clone(),
    ])
    .unwrap()
    .into();
    let b: Shape = Point::new(v(-7.0, -8.0)).unwrap().into();
    let c = contact(&a, &b).unwrap();
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    // The point ends where the circle's edge leaves the square: touching both, within the
    // rounding of coordinates near 3e5.
    let after = moved(&b, c.normal * c.depth);
    for part in [&square, &a] {
        assert!(contact(part, &after).is_none_or(|t| t.depth < 0.1), "{c:?}");
    }
    assert!(
        intersects(&a, &moved(&b, c.normal * (c.depth - 1.0))),
        "{c:?}"
    );
}

#[test]
fn a_box_in_a_notch_while_another_rests_on_a_vertex_leaves_along_the_gap_between_them() {
    // Found by the soak of `concave_polygons_against_every_kind`: `b`'s lower box fills the
    // corner of `a`'s notch at (-2, -6) (leaving needs +x), its other box rests its right side
    // on `a`'s vertex (-6, -5) (leaving needs -x). No move separates both; moving down only
    // slides along both: `a` fills the gap between `b`'s boxes exactly, a zero-width notch, so
    // the seam rule puts the origin inside the union and the contact is the move down out of
    // the gap, 1 (the upper box's corner reaches the vertex). The answer was once a face's
    // normal, (1, -1) / sqrt(2), at depth 0, which pushed the second box into `a`; then the
    // origin at depth 0 with a normal that slides, left exposed only by the order in which
    // one face's covering stretches were merged.
    let a = polygon(&[
        (0.0, -6.0),
        (-2.0, -5.0),
        (-3.0, -3.0),
        (-3.0, -5.0),
        (-6.0, -5.0),
        (-4.0, -6.0),
        (-5.0, -8.0),
        (-3.0, -7.0),
        (-2.0, -9.0),
        (-2.0, -6.0),
    ]);
    let b: Shape = Compound::new(vec![
        Aabb::new(v(-2.0, -9.0), v(-1.0, -6.0)).unwrap().into(),
        Aabb::new(v(-7.0, -6.0), v(-6.0, -4.0)).unwrap().into(),
    ])
    .unwrap()
    .into();
    let c = contact(&a, &b).unwrap();
    assert_eq!((c.depth, c.normal), (1.0, v(0.0, -1.0)), "{c:?}");
    assert_eq!(contact(&b, &a), Some(c.flipped()));
    check_pair(&a, &b).unwrap();
}

/// A 12-vertex star and a compound of a 10-vertex star and a unit disc at its centre.
fn star_and_starred_disc() -> (Shape, Shape) {
    let a = polygon(&[
        (7.0, 0.0),
        (2.0, 1.0),
        (3.0, 6.0),
        (0.0, 2.0),
        (-4.0, 6.0),
        (-2.0, 1.0),
        (-7.0, 0.0),
        (-2.0, -1.0),
        (-3.0, -6.0),
        (0.0, -2.0),
        (4.0, -6.0),
        (2.0, -1.0),
    ]);
    let star = polygon(&[
        (5.0, 0.0),
        (1.0, 1.0),
        (2.0, 5.0),
        (0.0, 1.0),
        (-4.0, 3.0),
        (-1.0, 0.0),
        (-4.0, -3.0),
        (0.0, -1.0),
        (2.0, -5.0),
        (1.0, -1.0),
    ]);
    let disc: Shape = Circle::new(v(0.0, 0.0), 1.0).unwrap().into();
    (a, Compound::new(vec![star, disc]).unwrap().into())
}

#[test]
fn a_star_against_a_star_with_a_disc_takes_the_shortest_move_of_all() {
    // Found by the soak of `union_contact`: answered 8.246 along (-1, 4) / sqrt(17), the
    // shortest move along the deepest pair's normal, while (6, 4), sqrt(52) = 7.211 long,
    // already separates.
    let (a, b) = star_and_starred_disc();
    let c = contact(&a, &b).unwrap();
    assert!(c.depth <= 52f32.sqrt() + 1e-4, "{c:?}");
    check_pair(&a, &b).unwrap();
    no_direction_separates_sooner(&a, &b, &c, 360).unwrap();
    no_direction_separates_sooner(&b, &a, &contact(&b, &a).unwrap(), 360).unwrap();
}

#[test]
fn two_stars_each_with_a_disc_take_the_shortest_move_of_all() {
    // Found by a soak of stars with discs against each other: 9 x 8 pairs of parts, all 72
    // within the search's reach, more than `LIMIT` (64): the answer was the shortest move
    // along the deepest pair's normal, 10 along (0, -1), while (0.633, 0.774) separates
    // sooner. The rounded search now takes up to twice `LIMIT`, its crossings counted.
    let disc = || -> Shape { Circle::new(v(0.0, 0.0), 1.0).unwrap().into() };
    let a = polygon(&[
        (9.0, 1.0),
        (4.0, 1.0),
        (4.0, 6.0),
        (1.0, 2.0),
        (-3.0, 4.0),
        (-1.0, 0.0),
        (-5.0, -3.0),
        (0.0, -3.0),
        (0.0, -8.0),
        (3.0, -4.0),
        (7.0, -6.0),
        (5.0, -2.0),
    ]);
    let b = polygon(&[
        (5.0, 0.0),
        (2.0, 1.0),
        (2.0, 4.0),
        (0.0, 2.0),
        (-3.0, 4.0),
        (-2.0, 1.0),
        (-5.0, 0.0),
        (-2.0, -1.0),
        (-2.0, -4.0),
        (0.0, -2.0),
        (3.0, -4.0),
        (2.0, -1.0),
    ]);
    let a: Shape = Compound::new(vec![a, disc()]).unwrap().into();
    let b: Shape = Compound::new(vec![b, disc()]).unwrap().into();
    let c = contact(&a, &b).unwrap();
    check_pair(&a, &b).unwrap();
    no_direction_separates_sooner(&a, &b, &c, 360).unwrap();
    no_direction_separates_sooner(&b, &a, &contact(&b, &a).unwrap(), 360).unwrap();
}
