//! Compound and concave shapes, part by part: each is a union of convex parts.

use crate::exact::{orient, point_segment_cmp, segment_segment_cmp, segments_intersect};
use crate::math::Vec2;
use crate::query::part_pairs::{box_distance, each_piece, search, PairSearch};
#[cfg(feature = "concave-search")]
use crate::query::Contact;
use crate::query::{convex, ClosestPoints};
use crate::shape::convex::Convex;
use crate::shape::{Aabb, Shape};
use core::ops::ControlFlow;

/// Calls `f` on every convex part of `shape` (the shape itself when convex), in order, until
/// `f` breaks.
pub(crate) fn each_part<B>(
    shape: &Shape,
    f: &mut dyn FnMut(&Convex) -> ControlFlow<B>,
) -> ControlFlow<B> {
    each_piece(shape, &mut |piece| f(&piece.convex))
}

/// Some part of `a` intersects some part of `b`.
pub(crate) fn intersects(a: &Shape, b: &Shape) -> bool {
    search(a, b, &mut AnyIntersecting).is_break()
}

/// Stops at the first pair of pieces that intersect, among those whose boxes overlap.
struct AnyIntersecting;

impl PairSearch for AnyIntersecting {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        a.overlaps(b).then_some(0.0)
    }

    fn visit(&mut self, a: &Convex, _: u32, b: &Convex, _: u32) -> ControlFlow<()> {
        if convex::intersects(a, b) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// The closest pair of parts' closest points (the first pair in part order on ties), or
/// `None` when some parts intersect.
pub(crate) fn closest_points(a: &Shape, b: &Shape) -> Option<ClosestPoints> {
    if intersects(a, b) {
        return None;
    }
    // Distances are within 1e-6 of the largest coordinate of the true ones (README, "Numbers
    // at the edges"): boxes farther than the best by less than that may still hold a nearer
    // pair as computed, so they are kept.
    let scale = [a.aabb(), b.aabb()]
        .iter()
        .flat_map(|r| [r.min().abs().max_element(), r.max().abs().max_element()])
        .fold(0.0f32, f32::max);
    let mut nearest = Nearest {
        best: None,
        slack: 4e-6 * f64::from(scale) + 1e-30,
    };
    let _ = search(a, b, &mut nearest);
    nearest.best.map(|(c, _)| c)
}

/// The closest pair of pieces so far, and their numbers; nearer boxes first, farther ones
/// pruned.
struct Nearest {
    best: Option<(ClosestPoints, (u32, u32))>,
    /// How much farther than the best distance a pair of boxes may be and still be visited.
    slack: f64,
}

impl PairSearch for Nearest {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        let gap = box_distance(a, b);
        // A pair as near as the best (a tie, which the lower numbers win) is kept, and those
        // within the computed distances' error of it.
        let bound = self.best.as_ref().map_or(f64::INFINITY, |(c, _)| {
            f64::from(c.distance) * (1.0 + 1e-6) + self.slack
        });
        (gap <= bound).then_some(gap)
    }

    fn visit(&mut self, pa: &Convex, ia: u32, pb: &Convex, ib: u32) -> ControlFlow<()> {
        let (distance, point_a, point_b) = convex::closest_points(pa, pb);
        let better = self.best.as_ref().is_none_or(|(c, key)| {
            distance < c.distance || (distance == c.distance && (ia, ib) < *key)
        });
        if better {
            let c = ClosestPoints {
                distance,
                point_a,
                point_b,
            };
            self.best = Some((c, (ia, ib)));
        }
        ControlFlow::Continue(())
    }
}

/// The deepest contact over all intersecting pairs of parts (the first one in part order on
/// ties).
#[cfg(feature = "concave-search")]
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Contact> {
    let mut deepest = Deepest { best: None };
    let _ = search(a, b, &mut deepest);
    deepest.best.map(|(c, _)| c)
}

/// The deepest contact so far between pieces whose boxes overlap, and their numbers.
#[cfg(feature = "concave-search")]
struct Deepest {
    best: Option<(Contact, (u32, u32))>,
}

#[cfg(feature = "concave-search")]
impl PairSearch for Deepest {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        a.overlaps(b).then_some(0.0)
    }

    fn visit(&mut self, pa: &Convex, ia: u32, pb: &Convex, ib: u32) -> ControlFlow<()> {
        if let Some(c) = convex::contact_checked(pa, pb) {
            let deeper = self.best.as_ref().is_none_or(|(b, key)| {
                c.depth > b.depth || (c.depth == b.depth && (ia, ib) < *key)
            });
            if deeper {
                self.best = Some((c, (ia, ib)));
            }
        }
        ControlFlow::Continue(())
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
        // Only a part whose box meets the piece's may hold it.
        Shape::Compound(c) => c
            .tree()
            .query(&piece_box(b), &mut |i| {
                if contains_convex(&c.parts()[i], b) {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .is_break(),
        _ => false,
    }
}

/// A box holding the convex piece (rounded outward).
fn piece_box(c: &Convex) -> Aabb {
    let pts = c.points();
    let (lo, hi) = pts
        .iter()
        .fold((pts[0], pts[0]), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    Aabb::raw(lo - c.radius, hi + c.radius).outward()
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
    use alloc::vec;

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

    /// The searches through the part trees find, bit for bit, what a scan of every pair of
    /// pieces in part order finds (the first on ties), on compounds that touch and overlap.
    #[test]
    fn part_tree_searches_equal_the_scan_of_every_pair() {
        use crate::query::part_pairs::{scattered_compound, KeepAll};
        let mut checked = [0; 2];
        for seed in 0..60 {
            let a = scattered_compound(seed, 1 + seed as usize % 40, 30.0);
            let b = scattered_compound(seed + 1000, 1 + seed as usize % 23, 30.0);
            let moved = a.transformed(&crate::math::Pose::from_translation(Vec2::new(35.0, 3.0)));
            for (x, y) in [(&a, &b), (&b, &a), (&moved, &b), (&b, &moved)] {
                let all = search(x, y, &mut KeepAll(&mut AnyIntersecting)).is_break();
                assert_eq!(intersects(x, y), all, "seed {seed}");
                let mut deepest = Deepest { best: None };
                let _ = search(x, y, &mut KeepAll(&mut deepest));
                assert_eq!(contact(x, y), deepest.best.map(|(c, _)| c), "seed {seed}");
                let mut nearest = Nearest {
                    best: None,
                    slack: 0.0,
                };
                let _ = search(x, y, &mut KeepAll(&mut nearest));
                let scanned = if all {
                    None
                } else {
                    nearest.best.map(|(c, _)| c)
                };
                assert_eq!(closest_points(x, y), scanned, "seed {seed}");
                checked[usize::from(all)] += 1;
            }
        }
        assert!(
            checked.iter().all(|&n| n > 40),
            "apart, intersecting: {checked:?}"
        );
    }

    /// The searches visit pairs by the pieces' numbers in part order: the first of two equal
    /// answers is the one a scan in that order would keep.
    #[test]
    fn ties_go_to_the_first_pair_in_part_order() {
        use crate::test_support::boxed;
        // Two equal boxes touching `b` at the same depth and distance: the first part wins.
        let a: Shape =
            crate::Compound::new(vec![boxed(0.0, 0.0, 1.0, 1.0), boxed(0.0, 2.0, 1.0, 3.0)])
                .unwrap()
                .into();
        let b = boxed(2.0, -1.0, 3.0, 4.0);
        let c = closest_points(&a, &b).unwrap();
        assert_eq!((c.distance, c.point_a.y), (1.0, 0.0));
        let overlapping = boxed(0.5, -1.0, 3.0, 4.0);
        let hit = contact(&a, &overlapping).unwrap();
        assert!(hit.points.iter().all(|p| p.y <= 1.0), "{hit:?}");
    }

    #[test]
    fn concave_polygon_hits_only_what_its_parts_touch() {
        let in_notch: Shape = Circle::new(Vec2::new(3.5, 3.5), 1.0).unwrap().into();
        assert!(!intersects(&l_shape(), &in_notch));
        let touching: Shape = Circle::new(Vec2::new(3.0, 3.0), 1.0).unwrap().into();
        assert!(intersects(&l_shape(), &touching));
    }
}
