//! Compound and concave shapes, part by part: each is a union of convex parts.

use crate::exact::{orient, point_segment_cmp, segment_segment_cmp, segments_intersect};
use crate::math::Vec2;
use crate::query::{convex, ClosestPoints};
use crate::shape::convex::Convex;
use crate::shape::Shape;
use core::ops::ControlFlow;

/// Calls `f` on every convex part of `shape` (the shape itself when convex), in order, until
/// `f` breaks.
pub(crate) fn each_part<B>(
    shape: &Shape,
    f: &mut dyn FnMut(&Convex) -> ControlFlow<B>,
) -> ControlFlow<B> {
    if let Some(c) = shape.as_convex() {
        return f(&c);
    }
    match shape {
        Shape::Polygon(p) => {
            for part in p.parts() {
                f(&Convex::slice(part.points(), 0.0))?;
            }
        }
        Shape::Compound(c) => {
            for part in c.parts() {
                each_part(part, f)?;
            }
        }
        _ => debug_assert!(false, "as_convex covers every other shape"),
    }
    ControlFlow::Continue(())
}

/// Some part of `a` intersects some part of `b`.
pub(crate) fn intersects(a: &Shape, b: &Shape) -> bool {
    each_part(a, &mut |pa| {
        each_part(b, &mut |pb| {
            if convex::intersects(pa, pb) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
    })
    .is_break()
}

/// The closest pair of parts' closest points, or `None` when some parts intersect.
pub(crate) fn closest_points(a: &Shape, b: &Shape) -> Option<ClosestPoints> {
    let mut best: Option<ClosestPoints> = None;
    let flow = each_part(a, &mut |pa| {
        each_part(b, &mut |pb| {
            if convex::intersects(pa, pb) {
                return ControlFlow::Break(());
            }
            let (distance, point_a, point_b) = convex::closest_points(pa, pb);
            if best.is_none_or(|c| distance < c.distance) {
                best = Some(ClosestPoints {
                    distance,
                    point_a,
                    point_b,
                });
            }
            ControlFlow::Continue(())
        })
    });
    if flow.is_break() {
        None
    } else {
        best
    }
}

/// Every point of `b` lies in `a`, where `a` or `b` is not convex.
///
/// Exact, but for one approximation: a convex piece of `b` is inside a compound `a` only when
/// it lies inside one of `a`'s parts (a shape straddling two parts counts as outside).
pub(crate) fn contains(a: &Shape, b: &Shape) -> bool {
    each_part(b, &mut |pb| {
        if contains_convex(a, pb) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .is_continue()
}

fn contains_convex(a: &Shape, b: &Convex) -> bool {
    if let Some(ca) = a.as_convex() {
        return convex::contains(&ca, b);
    }
    match a {
        Shape::Polygon(p) => polygon_contains(p.points(), b),
        Shape::Compound(c) => c.parts().iter().any(|part| contains_convex(part, b)),
        _ => false,
    }
}

/// A convex shape lies in the closed simple polygon `ring` (counter-clockwise).
fn polygon_contains(ring: &[Vec2], b: &Convex) -> bool {
    let hull = b.points();
    if !hull.iter().all(|&v| ring_contains_point(ring, v)) {
        return false;
    }
    let n = ring.len();
    let edges = || (0..n).map(|i| (ring[i], ring[(i + 1) % n]));
    if b.radius > 0.0 {
        // The dilated hull stays inside when the hull stays `radius` away from the boundary,
        // and no boundary vertex pokes into the hull.
        let clear = edges().all(|(p, q)| {
            b.edges()
                .all(|(u, v)| segment_segment_cmp(p, q, u, v, b.radius, 0.0).is_ge())
        });
        let poked = hull.len() >= 3
            && ring
                .iter()
                .any(|&w| convex::polygon_contains_point(hull, w));
        return clear && !poked;
    }
    // Radius 0: the hull's boundary inside a simply connected polygon puts the hull inside.
    b.edges().all(|(u, v)| segment_inside(ring, u, v))
}

/// The closed segment `uv`, whose ends lie in the polygon, stays in it: it crosses no edge,
/// and wherever it meets the boundary it heads into the polygon.
fn segment_inside(ring: &[Vec2], u: Vec2, v: Vec2) -> bool {
    let n = ring.len();
    for i in 0..n {
        let (prev, w, next) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        // A proper crossing of edge w-next.
        let (o1, o2) = (orient(w, next, u), orient(w, next, v));
        let (o3, o4) = (orient(u, v, w), orient(u, v, next));
        if o1.is_ne() && o2.is_ne() && o1 != o2 && o3.is_ne() && o4.is_ne() && o3 != o4 {
            return false;
        }
        // The segment passes through or ends at vertex w: both directions must enter the corner.
        if segments_intersect(u, v, w, w) {
            let ok = |x: Vec2| x == w || in_corner(prev, w, next, x);
            if !ok(u) || !ok(v) {
                return false;
            }
        }
        // An end lies inside edge w-next: the other end must be on the inner side.
        for (end, other) in [(u, v), (v, u)] {
            if end != w
                && end != next
                && o_is_zero_on(w, next, end)
                && orient(w, next, other).is_lt()
            {
                return false;
            }
        }
    }
    true
}

/// `x` lies on the closed segment `pq`.
fn o_is_zero_on(p: Vec2, q: Vec2, x: Vec2) -> bool {
    segments_intersect(p, q, x, x)
}

/// The direction from corner `w` towards `x` enters the polygon's closed interior angle at `w`.
fn in_corner(prev: Vec2, w: Vec2, next: Vec2, x: Vec2) -> bool {
    let (left_of_in, left_of_out) = (orient(prev, w, x).is_ge(), orient(w, next, x).is_ge());
    if orient(prev, w, next).is_ge() {
        left_of_in && left_of_out
    } else {
        left_of_in || left_of_out
    }
}

/// `p` lies in the closed simple polygon `ring`: on an edge, or inside by the crossing rule.
pub(crate) fn ring_contains_point(ring: &[Vec2], p: Vec2) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if point_segment_cmp(p, a, b, 0.0, 0.0).is_eq() {
            return true;
        }
        // Half-open rule on y: count edges that straddle the horizontal line through p and
        // pass to the right of it (exact: the side test is an orientation).
        if (a.y > p.y) != (b.y > p.y) {
            let side = if b.y > a.y {
                orient(a, b, p)
            } else {
                orient(b, a, p)
            };
            if side.is_gt() {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Circle, Polygon, Segment};

    fn l_shape() -> Shape {
        // (0,0)-(4,0)-(4,2)-(2,2)-(2,4)-(0,4): reflex corner at (2, 2).
        let pts = [
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 2.0),
            (2.0, 2.0),
            (2.0, 4.0),
            (0.0, 4.0),
        ];
        Polygon::new(&pts.map(|(x, y)| Vec2::new(x, y)))
            .unwrap()
            .into()
    }

    fn seg(ax: f32, ay: f32, bx: f32, by: f32) -> Shape {
        Segment::new(Vec2::new(ax, ay), Vec2::new(bx, by))
            .unwrap()
            .into()
    }

    #[test]
    fn segment_across_the_notch_is_not_contained() {
        assert!(!contains(&l_shape(), &seg(3.0, 1.0, 1.0, 3.0 + 0.5)));
        // Through the reflex corner itself, out into the notch.
        assert!(!contains(&l_shape(), &seg(1.0, 1.0, 3.0, 3.0)));
    }

    #[test]
    fn segment_along_the_inner_edges_is_contained() {
        assert!(contains(&l_shape(), &seg(4.0, 2.0, 2.0, 2.0)));
        assert!(contains(&l_shape(), &seg(2.0, 2.0, 2.0, 4.0)));
        // Through the reflex corner, staying inside.
        assert!(contains(&l_shape(), &seg(1.0, 3.0, 3.0, 1.0)));
    }

    #[test]
    fn circle_in_a_concave_polygon_touching_walls_is_contained() {
        let c: Shape = Circle::new(Vec2::new(1.0, 1.0), 1.0).unwrap().into();
        assert!(contains(&l_shape(), &c));
        let near_corner: Shape = Circle::new(Vec2::new(2.5, 2.5), 0.5).unwrap().into();
        assert!(!contains(&l_shape(), &near_corner));
    }

    #[test]
    fn points_on_the_boundary_are_inside() {
        let l = l_shape();
        let Shape::Polygon(p) = &l else {
            unreachable!()
        };
        for v in p.points() {
            assert!(ring_contains_point(p.points(), *v));
        }
        assert!(ring_contains_point(p.points(), Vec2::new(3.0, 2.0)));
        assert!(!ring_contains_point(p.points(), Vec2::new(3.0, 3.0)));
        assert!(!ring_contains_point(p.points(), Vec2::new(-1.0, 2.0)));
    }

    #[test]
    fn concave_polygon_hits_only_what_its_parts_touch() {
        let in_notch: Shape = Circle::new(Vec2::new(3.5, 3.5), 1.0).unwrap().into();
        assert!(!intersects(&l_shape(), &in_notch));
        let touching: Shape = Circle::new(Vec2::new(3.0, 3.0), 1.0).unwrap().into();
        assert!(intersects(&l_shape(), &touching));
    }
}
