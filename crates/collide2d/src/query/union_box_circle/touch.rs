//! The contact at a point of the union found for a hitbox of boxes and a circle: what
//! [`union_rounded::contact_at`](crate::query::union_rounded::contact_at) gives for the circle's
//! and the boxes' hulls, by the same operations in the same order (so the same bits), without
//! building their convex views or converting a box's corners once per edge.

use crate::math::Vec2;
use crate::query::convex::{clamp_to_f32, closest_on_segment};
use crate::query::Contact;
use crate::shape::convex::box_hull;
use crate::shape::{Aabb, Circle};
use glam::DVec2;

/// The contact of the move `−x` along `normal`, with one contact point per box of `on` (at
/// most two distinct, in the order given), midway between the surfaces. `circle_first`: the
/// circle is the first shape of the pair.
pub(super) fn contact_at<'a>(
    x: DVec2,
    normal: DVec2,
    depth: f64,
    circle: &Circle,
    on: impl Iterator<Item = &'a Aabb>,
    circle_first: bool,
) -> Contact {
    let mut points = [Vec2::ZERO; 2];
    let mut count = 0;
    for bx in on {
        if count == 2 {
            break;
        }
        let p = touch_point(circle, bx, x, normal, circle_first) + x * 0.5;
        let p = clamp_to_f32(p);
        if !points[..count].contains(&p) {
            points[count] = p;
            count += 1;
        }
    }
    if count == 0 {
        points[0] = clamp_to_f32(x * 0.5);
        count = 1;
    }
    Contact::new(normal.as_vec2(), depth as f32, &points[..count])
}

/// `union_rounded`'s `touch_point` of the pair's hulls: the circle's centre (radius `r`) and
/// the box's corners (radius 0), the second moved by `−x`.
///
/// Its loops keep the first of the nearest features (edges, then corners, or corners, then
/// edges); where the centre lies clearly off the box in a side's slab or a corner's quadrant,
/// that feature is known, and only its point is computed, by the same operations.
fn touch_point(circle: &Circle, bx: &Aabb, x: DVec2, normal: DVec2, circle_first: bool) -> DVec2 {
    let (min, max) = (bx.min().as_dvec2(), bx.max().as_dvec2());
    // The centre against the box, both as the loops see them (the box's corners moved by `−x`
    // when the circle comes first, else the centre).
    let (v, lo, hi) = if circle_first {
        (circle.center().as_dvec2(), min - x, max - x)
    } else {
        (circle.center().as_dvec2() - x, min, max)
    };
    let Some(feature) = clear_feature(v, lo, hi) else {
        return touch_point_by_loops(circle, bx, x, normal, circle_first);
    };
    let at = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    let next = |i: usize| (i + 1) % 4;
    let (ha, hb) = match feature {
        // Edges come first: the first edge through the corner (the corner at its start only
        // for corner 0).
        Feature::Corner(0) if circle_first => (v, closest_on_segment(v, at[0], at[1])),
        Feature::Corner(i) if circle_first => (v, closest_on_segment(v, at[i - 1], at[i])),
        Feature::Corner(i) => (at[i], v),
        Feature::Side(i) if circle_first => (v, closest_on_segment(v, at[i], at[next(i)])),
        Feature::Side(i) => (closest_on_segment(v, at[i], at[next(i)]), v),
    };
    let radius = if circle_first { circle.radius() } else { 0.0 };
    let towards = (hb - ha).try_normalize().unwrap_or(normal);
    ha + towards * f64::from(radius)
}

/// The nearest feature of a box to a point outside it: a corner `i` or the side from corner
/// `i` (corners counterclockwise from `lo`, as `box_hull` lists them).
enum Feature {
    Corner(usize),
    Side(usize),
}

/// The feature of the box `[lo, hi]` (with width and height) nearest `v`, when `v` lies outside
/// it and clear, relative to the coordinates, of the lines that part the features: there the
/// loops' rounding cannot make another feature as near.
fn clear_feature(v: DVec2, lo: DVec2, hi: DVec2) -> Option<Feature> {
    if lo.x == hi.x || lo.y == hi.y {
        return None;
    }
    let margin = 1e-6 * v.abs().max(lo.abs()).max(hi.abs()).max_element();
    // Below (−1), across (0) or above (1) the box along one axis; `None` near a boundary.
    let side = |v: f64, lo: f64, hi: f64| {
        if v < lo - margin {
            Some(-1)
        } else if v > hi + margin {
            Some(1)
        } else if lo + margin < v && v < hi - margin {
            Some(0)
        } else {
            None
        }
    };
    Some(match (side(v.x, lo.x, hi.x)?, side(v.y, lo.y, hi.y)?) {
        (0, 0) => return None,
        (0, -1) => Feature::Side(0),
        (1, 0) => Feature::Side(1),
        (0, _) => Feature::Side(2),
        (-1, 0) => Feature::Side(3),
        (-1, -1) => Feature::Corner(0),
        (_, -1) => Feature::Corner(1),
        (1, _) => Feature::Corner(2),
        _ => Feature::Corner(3),
    })
}

/// [`touch_point`] by the loops of `union_rounded`'s `touch_point`, for any box and point.
fn touch_point_by_loops(
    circle: &Circle,
    bx: &Aabb,
    x: DVec2,
    normal: DVec2,
    circle_first: bool,
) -> DVec2 {
    let hull = box_hull(bx.min(), bx.max());
    let corners = hull.points();
    let mut at = [DVec2::ZERO; 4];
    let n = corners.len();
    // A point is one degenerate edge, a segment one edge.
    let edges = if n <= 2 { 1 } else { n };
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let (ha, hb) = if circle_first {
        // `a` is the centre, `b` the corners moved by `−x`.
        for (p, c) in at.iter_mut().zip(corners) {
            *p = c.as_dvec2() - x;
        }
        let v = circle.center().as_dvec2();
        let mut best = (v, at[0], f64::INFINITY);
        for i in 0..edges {
            let c = closest_on_segment(v, at[i], at[next(i)]);
            if v.distance_squared(c) < best.2 {
                best = (v, c, v.distance_squared(c));
            }
        }
        for &w in &at[..n] {
            if w.distance_squared(v) < best.2 {
                best = (v, w, w.distance_squared(v));
            }
        }
        (best.0, best.1)
    } else {
        // `a` is the corners, `b` the centre moved by `−x`.
        for (p, c) in at.iter_mut().zip(corners) {
            *p = c.as_dvec2();
        }
        let w = circle.center().as_dvec2() - x;
        let mut best = (at[0], w, f64::INFINITY);
        for &v in &at[..n] {
            if v.distance_squared(w) < best.2 {
                best = (v, w, v.distance_squared(w));
            }
        }
        for i in 0..edges {
            let c = closest_on_segment(w, at[i], at[next(i)]);
            if w.distance_squared(c) < best.2 {
                best = (c, w, w.distance_squared(c));
            }
        }
        (best.0, best.1)
    };
    // The first hull's radius is all that lies between it and the touching point.
    let radius = if circle_first { circle.radius() } else { 0.0 };
    let towards = (hb - ha).try_normalize().unwrap_or(normal);
    ha + towards * f64::from(radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::union_rounded;
    use crate::shape::convex::ConvexView;
    use crate::test_support::xorshift;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Random boxes (some with no width or height), circles and points `x`: the same bits as
    /// the general search's contact at `x`, in both orders.
    #[test]
    fn the_same_bits_as_the_general_contact_at() {
        let mut bits = xorshift(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u32| (bits() % u64::from(n)) as f32;
        for round in 0..20_000 {
            let grid = round % 2 == 0;
            let mut coordinate = |spread: f32| {
                if grid {
                    next(9) - 4.0
                } else {
                    (next(1 << 20) / (1 << 20) as f32 - 0.5) * spread
                }
            };
            let boxes: Vec<Aabb> = (0..1 + round % 3)
                .map(|k| {
                    let (x, y) = (coordinate(8.0), coordinate(8.0));
                    let w = if k == 1 && round % 5 == 0 {
                        0.0
                    } else {
                        1.0 + coordinate(4.0).abs()
                    };
                    let h = if round % 7 == 0 {
                        0.0
                    } else {
                        1.0 + coordinate(4.0).abs()
                    };
                    Aabb::raw(Vec2::new(x, y), Vec2::new(x + w, y + h))
                })
                .collect();
            let circle = Circle::new(
                Vec2::new(coordinate(8.0), coordinate(8.0)),
                0.25 + coordinate(4.0).abs(),
            )
            .unwrap_or_else(|e| unreachable!("{e}"));
            let x = DVec2::new(f64::from(coordinate(8.0)), f64::from(coordinate(8.0)))
                + DVec2::new(1e-3, -2e-3);
            let depth = x.length();
            let normal = -x / depth;
            for circle_first in [true, false] {
                let got = contact_at(x, normal, depth, &circle, boxes.iter(), circle_first);
                let round_hull = circle.convex();
                let hulls: Vec<_> = boxes.iter().map(ConvexView::convex).collect();
                let pairs = hulls.iter().map(|h| {
                    if circle_first {
                        (&round_hull, h)
                    } else {
                        (h, &round_hull)
                    }
                });
                let want = union_rounded::contact_at(x, normal, depth, pairs);
                let bits = |c: &Contact| {
                    let mut v = vec![
                        c.normal.x.to_bits(),
                        c.normal.y.to_bits(),
                        c.depth.to_bits(),
                    ];
                    v.extend(c.points.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits()]));
                    v
                };
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{boxes:?} {circle:?} {x:?} {circle_first}"
                );
            }
        }
    }
}
