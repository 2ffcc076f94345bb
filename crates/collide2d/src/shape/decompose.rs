//! Splits a simple polygon into convex parts: ear clipping (exact orientation tests), then
//! Hertel-Mehlhorn merging of triangles across diagonals while the union stays convex
//! (at most four times the optimal number of parts).

use crate::exact::{dot, orient};
use crate::math::Vec2;
use crate::shape::ConvexPolygon;
use alloc::vec;
use alloc::vec::Vec;

/// Convex parts whose union is the polygon `ring` (counter-clockwise, simple, no repeated or
/// straight vertices). Parts meet only along shared diagonals.
pub(crate) fn convex_parts(ring: &[Vec2]) -> Vec<ConvexPolygon> {
    let triangles = ear_clip(ring);
    merge_convex(triangles)
        .into_iter()
        .map(ConvexPolygon::new_unchecked)
        .collect()
}

/// Triangulates a simple counter-clockwise ring by clipping ears.
fn ear_clip(ring: &[Vec2]) -> Vec<Vec<Vec2>> {
    let mut left: Vec<Vec2> = ring.to_vec();
    let mut triangles = Vec::with_capacity(ring.len().saturating_sub(2));
    while left.len() > 3 {
        let n = left.len();
        let mut clipped = false;
        for i in 0..n {
            let (a, b, c) = (left[(i + n - 1) % n], left[i], left[(i + 1) % n]);
            let turn = orient(a, b, c);
            if turn.is_eq() && dot(a, b, b, c).is_gt() {
                // A straight vertex left behind by earlier clips: drop it, no triangle.
                left.remove(i);
                clipped = true;
                break;
            }
            if turn.is_gt()
                && !left
                    .iter()
                    .any(|&p| p != a && p != b && p != c && in_triangle(a, b, c, p))
            {
                triangles.push(vec![a, b, c]);
                left.remove(i);
                clipped = true;
                break;
            }
        }
        if !clipped {
            debug_assert!(false, "no ear in a simple polygon: {left:?}");
            break;
        }
    }
    if left.len() == 3 && orient(left[0], left[1], left[2]).is_gt() {
        triangles.push(left);
    }
    triangles
}

/// `p` lies in the closed counter-clockwise triangle `abc`.
fn in_triangle(a: Vec2, b: Vec2, c: Vec2, p: Vec2) -> bool {
    orient(a, b, p).is_ge() && orient(b, c, p).is_ge() && orient(c, a, p).is_ge()
}

/// Greedily merges pieces across shared edges while the result stays convex.
fn merge_convex(mut pieces: Vec<Vec<Vec2>>) -> Vec<Vec<Vec2>> {
    let mut merged_any = true;
    while merged_any {
        merged_any = false;
        'outer: for i in 0..pieces.len() {
            for j in (i + 1)..pieces.len() {
                if let Some(union) = try_merge(&pieces[i], &pieces[j]) {
                    pieces[i] = union;
                    pieces.swap_remove(j);
                    merged_any = true;
                    break 'outer;
                }
            }
        }
    }
    pieces
}

/// The union of two counter-clockwise convex pieces sharing an edge, if it is convex.
fn try_merge(p: &[Vec2], q: &[Vec2]) -> Option<Vec<Vec2>> {
    let (n, m) = (p.len(), q.len());
    for i in 0..n {
        let (u, v) = (p[i], p[(i + 1) % n]);
        // In q the shared edge runs the other way: v -> u.
        let Some(j) = (0..m).find(|&j| q[j] == v && q[(j + 1) % m] == u) else {
            continue;
        };
        // Walk p from v round to u, then q from u round to v (exclusive of the shared ends).
        let mut union: Vec<Vec2> = (0..n).map(|k| p[(i + 1 + k) % n]).collect();
        union.extend((2..m).map(|k| q[(j + k) % m]));
        let len = union.len();
        let convex = (0..len)
            .all(|k| orient(union[(k + len - 1) % len], union[k], union[(k + 1) % len]).is_ge());
        if !convex {
            return None;
        }
        // Drop vertices the merge made straight.
        let keep: Vec<Vec2> = (0..len)
            .filter(|&k| orient(union[(k + len - 1) % len], union[k], union[(k + 1) % len]).is_gt())
            .map(|k| union[k])
            .collect();
        return Some(keep);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::area_sign;

    fn area(points: &[Vec2]) -> f64 {
        let n = points.len();
        (0..n)
            .map(|i| {
                let (a, b) = (points[i].as_dvec2(), points[(i + 1) % n].as_dvec2());
                a.x * b.y - a.y * b.x
            })
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn l_shape_splits_into_two_convex_parts_covering_its_area() {
        let ring = crate::test_support::l_ring();
        let parts = convex_parts(&ring);
        assert_eq!(parts.len(), 2);
        let total: f64 = parts.iter().map(|p| area(p.points())).sum();
        assert_eq!(total, 3.0);
        for part in &parts {
            let pts = part.points();
            assert!(area_sign(pts).is_gt());
            let n = pts.len();
            assert!((0..n).all(|k| orient(pts[(k + n - 1) % n], pts[k], pts[(k + 1) % n]).is_gt()));
        }
    }

    #[test]
    fn convex_input_stays_one_part() {
        let ring = vec![
            Vec2::ZERO,
            Vec2::new(4.0, 0.0),
            Vec2::new(5.0, 3.0),
            Vec2::new(2.0, 5.0),
            Vec2::new(-1.0, 3.0),
        ];
        let parts = convex_parts(&ring);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].points().len(), 5);
    }

    #[test]
    fn star_parts_cover_its_area_and_are_convex() {
        let ring: Vec<Vec2> = (0..10)
            .map(|k| {
                let r = if k % 2 == 0 { 10.0 } else { 4.0 };
                Vec2::from_angle(k as f32 * core::f32::consts::PI / 5.0) * r
            })
            .collect();
        let parts = convex_parts(&ring);
        assert!(parts.len() >= 3);
        let total: f64 = parts.iter().map(|p| area(p.points())).sum();
        assert!(
            (total - area(&ring)).abs() < 1e-9,
            "{total} vs {}",
            area(&ring)
        );
    }
}
