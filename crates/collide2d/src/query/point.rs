//! Point queries against one shape: [`contains_point`], [`distance_to_point`], [`project_point`].
//!
//! Containment is the exact pair test against a [`Point`] shape; distances and projections are
//! computed in `f64` (closest point on each hull edge, then pushed out by the radius) and rounded
//! to `f32`.

use crate::math::Vec2;
use crate::query::convex::closest_on_segment;
use crate::query::dispatch;
use crate::query::parts::each_part;
use crate::query::ray::line_span;
use crate::shape::convex::Convex;
use crate::shape::part_tree::PartTree;
use crate::shape::{Aabb, Point, Shape};
use alloc::vec;
use alloc::vec::Vec;
use core::ops::ControlFlow;
use glam::DVec2;

/// The nearest point on a shape's boundary to a query point. See [`project_point`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointProjection {
    /// The nearest boundary point (the query point itself for shapes with no interior, such as
    /// points and segments, when it lies on them).
    pub point: Vec2,
    /// True when the query point lies in the shape (on the boundary counts). Exact.
    pub is_inside: bool,
}

/// True when `p` lies in `shape` (on the boundary counts). Exact for every shape, concave
/// polygons and compounds included. A non-finite `p` lies in no shape.
///
/// ```
/// use collide2d::{contains_point, math::Vec2, Aabb, Circle};
/// let wall = Aabb::new(Vec2::ZERO, Vec2::new(10.0, 2.0))?.into();
/// assert!(contains_point(&wall, Vec2::new(10.0, 1.0))); // on the edge
/// assert!(!contains_point(&wall, Vec2::new(10.000001, 1.0)));
/// let coin = Circle::new(Vec2::new(3.0, 4.0), 5.0)?.into();
/// assert!(contains_point(&coin, Vec2::ZERO)); // exactly on the circle
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn contains_point(shape: &Shape, p: Vec2) -> bool {
    p.is_finite() && dispatch::intersects(shape, &Shape::Point(Point::raw(p)))
}

/// The distance from `p` to the nearest point of `shape`: exactly 0 when
/// [`contains_point`]`(shape, p)`, otherwise positive (at least `f32::MIN_POSITIVE`), as
/// [`distance`](crate::distance). Infinite when a coordinate of `p` is infinite, NaN when one
/// is NaN.
///
/// ```
/// use collide2d::{distance_to_point, math::Vec2, Circle};
/// let c = Circle::new(Vec2::ZERO, 1.0)?.into();
/// assert_eq!(distance_to_point(&c, Vec2::new(0.0, 5.0)), 4.0);
/// assert_eq!(distance_to_point(&c, Vec2::new(0.5, 0.0)), 0.0); // inside
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn distance_to_point(shape: &Shape, p: Vec2) -> f32 {
    if !p.is_finite() {
        return if p.is_nan() { f32::NAN } else { f32::INFINITY };
    }
    dispatch::closest_points(shape, &Shape::Point(Point::raw(p))).map_or(0.0, |c| c.distance)
}

/// The point of `shape`'s boundary nearest to `p`, and whether `p` lies in `shape`.
///
/// Outside the shape, this is the nearest point of the shape. Inside, it is the nearest point
/// of the boundary, where:
/// - a point, a segment or a zero-radius shape has no interior: `p` itself;
/// - a circle with `p` at its centre, or a capsule with `p` on its axis, has no single nearest
///   point: the answer is the one in direction `+X` from the centre, or to the left of `a -> b`;
/// - a concave polygon's boundary is its outline ([`Polygon::points`](crate::Polygon::points)),
///   never the diagonals between its convex parts;
/// - a compound's boundary is the parts' boundaries less what lies in other parts: each straight
///   edge of a part (boxes, polygons, segments) is clipped against the other parts (in `f64`,
///   so a shared edge that is not axis-aligned may survive rounding); a circle's or capsule's
///   own nearest boundary point, or a point part, counts only when it lies in no other part, so
///   where a rounded part overlaps another, a nearer point of the compound's boundary may exist.
///   When nothing is left (every part inside another), the nearest point of any part's boundary.
///
/// A non-finite `p` gives `is_inside == false` and a non-finite `point`.
///
/// ```
/// use collide2d::{math::Vec2, project_point, Aabb};
/// let room = Aabb::new(Vec2::ZERO, Vec2::new(10.0, 4.0))?.into();
/// let out = project_point(&room, Vec2::new(12.0, 1.0));
/// assert_eq!((out.point, out.is_inside), (Vec2::new(10.0, 1.0), false));
/// let inside = project_point(&room, Vec2::new(5.0, 3.0));
/// assert_eq!((inside.point, inside.is_inside), (Vec2::new(5.0, 4.0), true)); // nearest wall
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn project_point(shape: &Shape, p: Vec2) -> PointProjection {
    if !p.is_finite() {
        return PointProjection {
            point: Vec2::splat(f32::NAN),
            is_inside: false,
        };
    }
    let point_shape = Shape::Point(Point::raw(p));
    if let Some(c) = dispatch::closest_points(shape, &point_shape) {
        return PointProjection {
            point: c.point_a,
            is_inside: false,
        };
    }
    // Clamped: the boundary of a circle or capsule may reach past f32::MAX.
    PointProjection {
        point: boundary_nearest_inside(shape, p)
            .clamp(Vec2::splat(f32::MIN), Vec2::splat(f32::MAX)),
        is_inside: true,
    }
}

/// The nearest boundary point to `p`, which lies in `shape`.
fn boundary_nearest_inside(shape: &Shape, p: Vec2) -> Vec2 {
    let Shape::Compound(compound) = shape else {
        return leaf_boundary_nearest(shape, p).map_or(p, |q| q.as_vec2());
    };
    let mut leaves = Vec::new();
    collect_leaves(compound.parts(), &mut leaves);
    let dp = p.as_dvec2();
    // Only a leaf whose box meets a stretch of boundary can cover it: a tree over the leaves'
    // boxes finds those (each edge visited every leaf before: quadratic in a compound's parts).
    let boxes: Vec<Aabb> = leaves.iter().map(|l| l.aabb()).collect();
    let tree = PartTree::new(&boxes);
    let mut near: Vec<usize> = Vec::new();
    // The nearest candidate on the compound's boundary, and the nearest on any part's boundary.
    let (mut free, mut any) = (Nearest::new(dp), Nearest::new(dp));
    for (i, leaf) in leaves.iter().enumerate() {
        // The other leaves whose box meets `region`, in order.
        let mut others = |region: Aabb| {
            near.clear();
            let _ = tree.query(&region, &mut |j| {
                if j != i {
                    near.push(j);
                }
                ControlFlow::<()>::Continue(())
            });
            near.sort_unstable();
            near.iter().map(|&j| leaves[j]).collect::<Vec<&Shape>>()
        };
        if let Some(edges) = straight_edges(leaf) {
            for (a, b) in edges {
                any.offer(closest_on_segment(dp, a, b));
                let edge = Aabb::raw(a.min(b).as_vec2(), a.max(b).as_vec2()).outward();
                for (s0, s1) in uncovered_pieces(a, b, others(edge).into_iter()) {
                    free.offer(closest_on_segment(dp, a + (b - a) * s0, a + (b - a) * s1));
                }
            }
        } else {
            let q = leaf_boundary_nearest(leaf, p).unwrap_or(dp);
            any.offer(q);
            let at = q.as_vec2();
            if others(Aabb::raw(at, at).outward())
                .iter()
                .all(|o| !contains_point(o, at))
            {
                free.offer(q);
            }
        }
    }
    free.best.or(any.best).map_or(p, |(_, q)| q.as_vec2())
}

/// The nearest of the points offered to `to`.
struct Nearest {
    to: DVec2,
    best: Option<(f64, DVec2)>,
}

impl Nearest {
    fn new(to: DVec2) -> Nearest {
        Nearest { to, best: None }
    }

    fn offer(&mut self, q: DVec2) {
        let d2 = (q - self.to).length_squared();
        if self.best.is_none_or(|(b, _)| d2 < b) {
            self.best = Some((d2, q));
        }
    }
}

/// The boundary of a zero-radius leaf with at least one edge, as edges; `None` for circles,
/// capsules and points.
fn straight_edges(leaf: &Shape) -> Option<Vec<(DVec2, DVec2)>> {
    let ring = |pts: &[Vec2]| {
        let n = pts.len();
        (0..n)
            .map(|i| (pts[i].as_dvec2(), pts[(i + 1) % n].as_dvec2()))
            .collect()
    };
    if let Shape::Polygon(poly) = leaf {
        return Some(ring(poly.points()));
    }
    let c = leaf.as_convex()?;
    match c.points() {
        _ if c.radius > 0.0 => None,
        [_] => None,
        [a, b] => Some(vec![(a.as_dvec2(), b.as_dvec2())]),
        hull => Some(ring(hull)),
    }
}

/// The parameter intervals of segment `ab` (`a != b`) outside every shape of `others`.
fn uncovered_pieces<'a>(
    a: DVec2,
    b: DVec2,
    others: impl Iterator<Item = &'a Shape>,
) -> Vec<(f64, f64)> {
    let mut pieces = vec![(0.0, 1.0)];
    for other in others {
        let _ = each_part(other, &mut |part| {
            if let Some(span) = line_span(part, a, b - a) {
                pieces = pieces
                    .iter()
                    .flat_map(|&(s0, s1)| {
                        if span.exit < s0 || span.enter > s1 {
                            return [Some((s0, s1)), None];
                        }
                        [
                            (span.enter > s0).then_some((s0, span.enter)),
                            (span.exit < s1).then_some((span.exit, s1)),
                        ]
                    })
                    .flatten()
                    .collect();
            }
            ControlFlow::<()>::Continue(())
        });
    }
    pieces
}

/// The non-compound shapes of a compound, depth first.
fn collect_leaves<'a>(parts: &'a [Shape], out: &mut Vec<&'a Shape>) {
    for part in parts {
        match part {
            Shape::Compound(c) => collect_leaves(c.parts(), out),
            leaf => out.push(leaf),
        }
    }
}

/// The nearest boundary point of a non-compound shape to `p`, inside or out; `None` when the
/// shape has no interior and `p` may be its own answer (a zero-radius point or segment).
fn leaf_boundary_nearest(shape: &Shape, p: Vec2) -> Option<DVec2> {
    let dp = p.as_dvec2();
    if let Some(c) = shape.as_convex() {
        return convex_boundary_nearest(&c, dp);
    }
    match shape {
        Shape::Polygon(poly) => Some(ring_nearest(poly.points(), dp)),
        _ => None,
    }
}

fn convex_boundary_nearest(c: &Convex, p: DVec2) -> Option<DVec2> {
    let hull = c.points();
    if hull.len() >= 3 {
        return Some(ring_nearest(hull, p));
    }
    let (a, b) = (hull[0].as_dvec2(), hull[hull.len() - 1].as_dvec2());
    let q = closest_on_segment(p, a, b);
    if c.radius == 0.0 {
        return if q == p { None } else { Some(q) };
    }
    let r = f64::from(c.radius);
    let away = p - q;
    let len = away.length();
    let dir = if len > 0.0 {
        away / len
    } else if a != b {
        (b - a).perp().normalize()
    } else {
        DVec2::X
    };
    Some(q + dir * r)
}

/// The nearest point to `p` on the closed ring's edges.
fn ring_nearest(ring: &[Vec2], p: DVec2) -> DVec2 {
    let n = ring.len();
    let mut best = (f64::INFINITY, p);
    for i in 0..n {
        let q = closest_on_segment(p, ring[i].as_dvec2(), ring[(i + 1) % n].as_dvec2());
        let d2 = (q - p).length_squared();
        if d2 < best.0 {
            best = (d2, q);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Circle, Compound, Segment};
    use crate::test_support::{boxed, l_ring, l_shape, v};

    fn close(a: Vec2, b: Vec2) -> bool {
        a.distance(b) < 1e-5
    }

    #[test]
    fn points_on_the_boundary_are_contained_and_one_ulp_out_are_not() {
        let b = boxed(0.0, 0.0, 1.0, 1.0);
        assert!(contains_point(&b, v(1.0, 0.5)));
        assert!(contains_point(&b, v(1.0, 1.0)));
        assert!(!contains_point(&b, v(1.0_f32.next_up(), 0.5)));
        let far = Circle::new(v(3_000_000.0, 4_000_000.0), 5.0)
            .unwrap()
            .into();
        assert!(contains_point(&far, v(3_000_003.0, 4_000_004.0)));
        assert!(!contains_point(&far, v(3_000_003.0, 4_000_004.5)));
        let seg = Segment::new(v(0.0, 0.0), v(3.0, 1.0)).unwrap().into();
        assert!(contains_point(&seg, v(1.5, 0.5)));
        assert!(!contains_point(&seg, v(1.5, 0.5_f32.next_up())));
    }

    #[test]
    fn concave_polygon_contains_its_arms_but_not_its_notch() {
        let l = l_shape();
        assert!(contains_point(&l, v(0.5, 1.5)));
        assert!(contains_point(&l, v(1.5, 0.5)));
        assert!(contains_point(&l, v(1.0, 1.0))); // the reflex corner
        assert!(!contains_point(&l, v(1.5, 1.5)));
    }

    #[test]
    fn compound_contains_a_point_of_any_part() {
        let c: Shape = Compound::new(vec![
            boxed(0.0, 0.0, 1.0, 1.0),
            Circle::new(v(5.0, 0.0), 1.0).unwrap().into(),
        ])
        .unwrap()
        .into();
        assert!(contains_point(&c, v(0.5, 0.5)));
        assert!(contains_point(&c, v(6.0, 0.0)));
        assert!(!contains_point(&c, v(3.0, 0.0)));
    }

    #[test]
    fn non_finite_points_are_outside_with_non_finite_distance() {
        let b = boxed(-1e30, -1e30, 1e30, 1e30);
        assert!(!contains_point(&b, v(f32::NAN, 0.0)));
        assert!(!contains_point(&b, v(f32::INFINITY, 0.0)));
        assert!(distance_to_point(&b, v(f32::NAN, 0.0)).is_nan());
        assert_eq!(
            distance_to_point(&b, v(0.0, f32::NEG_INFINITY)),
            f32::INFINITY
        );
        assert!(!project_point(&b, v(f32::NAN, 0.0)).is_inside);
    }

    #[test]
    fn distance_is_zero_exactly_inside_and_positive_outside() {
        let c = Capsule::new(v(0.0, 0.0), v(4.0, 0.0), 1.0).unwrap().into();
        assert_eq!(distance_to_point(&c, v(2.0, 1.0)), 0.0);
        assert_eq!(distance_to_point(&c, v(2.0, 3.0)), 2.0);
        assert_eq!(distance_to_point(&c, v(7.0, 4.0)), 4.0); // 3-4-5 from the end b
        let touching = Circle::new(v(0.0, 0.0), 1.0).unwrap().into();
        assert!(distance_to_point(&touching, v(1.0_f32.next_up(), 0.0)) > 0.0);
        assert!((distance_to_point(&l_shape(), v(1.5, 1.5)) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn outside_point_projects_onto_the_nearest_face_or_corner() {
        let b = boxed(0.0, 0.0, 2.0, 1.0);
        let face = project_point(&b, v(1.0, 3.0));
        assert_eq!((face.point, face.is_inside), (v(1.0, 1.0), false));
        assert_eq!(project_point(&b, v(5.0, 5.0)).point, v(2.0, 1.0));
        let c = Circle::new(v(0.0, 0.0), 5.0).unwrap().into();
        assert!(close(project_point(&c, v(6.0, 8.0)).point, v(3.0, 4.0)));
    }

    #[test]
    fn inside_point_projects_onto_the_nearest_face() {
        let b = boxed(0.0, 0.0, 10.0, 4.0);
        let pr = project_point(&b, v(9.0, 2.0));
        assert_eq!((pr.point, pr.is_inside), (v(10.0, 2.0), true));
        let c = Circle::new(v(1.0, 1.0), 5.0).unwrap().into();
        assert!(close(project_point(&c, v(1.0, 3.0)).point, v(1.0, 6.0)));
        let cap = Capsule::new(v(0.0, 0.0), v(4.0, 0.0), 1.0).unwrap().into();
        assert!(close(project_point(&cap, v(4.5, 0.0)).point, v(5.0, 0.0)));
        assert!(close(
            project_point(&cap, v(2.0, -0.25)).point,
            v(2.0, -1.0)
        ));
    }

    #[test]
    fn centre_of_circle_and_axis_of_capsule_project_in_the_documented_direction() {
        let c = Circle::new(v(1.0, 1.0), 2.0).unwrap().into();
        assert_eq!(project_point(&c, v(1.0, 1.0)).point, v(3.0, 1.0));
        let cap = Capsule::new(v(0.0, 0.0), v(4.0, 0.0), 1.0).unwrap().into();
        assert_eq!(project_point(&cap, v(1.0, 0.0)).point, v(1.0, 1.0)); // left of a -> b
    }

    #[test]
    fn point_on_a_segment_projects_to_itself() {
        let s = Segment::new(v(0.0, 0.0), v(3.0, 1.0)).unwrap().into();
        let p = v(1.5, 0.5);
        assert_eq!(
            project_point(&s, p),
            PointProjection {
                point: p,
                is_inside: true
            }
        );
        let dot = Point::new(v(2.0, 2.0)).unwrap().into();
        assert_eq!(project_point(&dot, v(2.0, 2.0)).point, v(2.0, 2.0));
        assert_eq!(
            project_point(&dot, v(9.0, 2.0)),
            PointProjection {
                point: v(2.0, 2.0),
                is_inside: false
            }
        );
    }

    #[test]
    fn concave_polygon_projects_onto_its_outline_not_the_part_diagonal() {
        // Near the reflex corner (1, 1): the nearest outline point is on the notch's edges.
        let l = l_shape();
        let pr = project_point(&l, v(0.9, 0.95));
        assert!(pr.is_inside);
        assert!(close(pr.point, v(1.0, 1.0)), "{pr:?}");
        // Next to every diagonal a decomposition could draw from the reflex corner.
        for p in [v(0.5, 0.45), v(0.45, 0.5), v(1.45, 0.5), v(0.5, 1.45)] {
            let pr = project_point(&l, p);
            let along = |q: Vec2| {
                (0..6).any(|i| {
                    distance_to_point(
                        &Segment::new(l_ring()[i], l_ring()[(i + 1) % 6])
                            .unwrap()
                            .into(),
                        q,
                    ) < 1e-6
                })
            };
            assert!(pr.is_inside && along(pr.point), "{p} -> {pr:?}");
            assert!(pr.point.distance(p) >= 0.45 - 1e-6, "{p} -> {pr:?}");
        }
    }

    #[test]
    fn compound_of_touching_boxes_projects_past_the_shared_edge() {
        // The shared stretch of x = 2 (y in [2, 3]) is inside the union, not on its boundary.
        let body = boxed(0.0, 0.0, 2.0, 4.0);
        let arm = boxed(2.0, 2.0, 4.0, 3.0);
        let c: Shape = Compound::new(vec![body, arm]).unwrap().into();
        let pr = project_point(&c, v(1.9, 2.5));
        assert!(pr.is_inside);
        assert!(
            close(pr.point, v(2.0, 2.0)) || close(pr.point, v(2.0, 3.0)),
            "{pr:?}"
        );
        // Above the arm, the body's right edge is on the boundary.
        assert!(close(project_point(&c, v(1.9, 3.5)).point, v(2.0, 3.5)));
        // Inside the arm, next to the body: its top edge, not its covered left edge.
        assert!(close(project_point(&c, v(2.1, 2.8)).point, v(2.1, 3.0)));
        // Outside: the nearest point of the union.
        assert!(close(project_point(&c, v(3.0, 5.0)).point, v(2.0, 4.0)));
    }

    #[test]
    fn compound_skips_a_circle_boundary_point_inside_another_part() {
        // The circle's nearest boundary point (1.5, 0) lies in the box; the box's right edge at
        // x = 3 is the nearest boundary of the union.
        let c: Shape = Compound::new(vec![
            Circle::new(v(0.0, 0.0), 1.5).unwrap().into(),
            boxed(1.0, -1.0, 3.0, 1.0),
        ])
        .unwrap()
        .into();
        let pr = project_point(&c, v(1.2, 0.1));
        assert!(pr.is_inside);
        assert!(close(pr.point, v(1.2, 1.0)), "{pr:?}");
    }

    #[test]
    fn compound_of_identical_parts_falls_back_to_the_nearest_part_boundary() {
        let c: Shape = Compound::new(vec![boxed(0.0, 0.0, 2.0, 2.0), boxed(0.0, 0.0, 2.0, 2.0)])
            .unwrap()
            .into();
        assert_eq!(project_point(&c, v(1.5, 1.0)).point, v(2.0, 1.0));
    }
}
