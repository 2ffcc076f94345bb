//! Exact convex hulls (Andrew's monotone chain with exact orientation tests).

use crate::exact::orient;
use crate::math::Vec2;
use alloc::boxed::Box;
use alloc::vec::Vec;

/// The convex hull of `points`, counter-clockwise, with no repeated or collinear vertices.
///
/// One point when all coincide, the two extremes when all are collinear, otherwise the strictly
/// convex hull. Empty input gives an empty hull.
pub(crate) fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    let mut sorted: Vec<Vec2> = points.to_vec();
    crate::sort::sort_by(&mut sorted, |a, b| {
        a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
    });
    sorted.dedup();
    if sorted.len() <= 2 {
        return sorted;
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(sorted.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(sorted.iter())
        } else {
            Box::new(sorted.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && orient(hull[hull.len() - 2], hull[hull.len() - 1], p).is_le()
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop(); // the chain's last point starts the other chain
    }
    if hull.len() == 2 && hull[0] == hull[1] {
        hull.truncate(1);
    }
    hull
}

/// When `ring` is already a strictly convex counter-clockwise polygon, turns it in place into
/// what [`convex_hull`] gives for it (the same ring, from its lowest `(x, y)`) and returns true,
/// with no allocation; else leaves it and returns false. A ring is taken as such when it turns
/// strictly left at every vertex (exactly) and goes around once (its x coordinate changes
/// direction twice).
pub(crate) fn in_hull_order(ring: &mut [Vec2]) -> bool {
    let n = ring.len();
    if n < 3 {
        return false;
    }
    let at = |i: usize| ring[i % n];
    if !(0..n).all(|i| orient(at(i), at(i + 1), at(i + 2)).is_gt()) {
        return false;
    }
    let dx = |i: usize| at(i + 1).x - at(i).x;
    let signs = (0..n).map(dx).filter(|&d| d != 0.0).map(|d| d > 0.0);
    let (mut changes, mut last, mut first) = (0, None, None);
    for s in signs {
        first.get_or_insert(s);
        changes += usize::from(last.is_some_and(|l| l != s));
        last = Some(s);
    }
    // And from the last edge back to the first.
    changes += usize::from(first != last);
    if changes != 2 {
        return false;
    }
    let lowest = (0..n)
        .min_by(|&i, &j| {
            let (a, b) = (ring[i], ring[j]);
            a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y))
        })
        .unwrap_or(0);
    ring.rotate_left(lowest);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn square_with_inner_and_edge_points_keeps_corners_ccw() {
        let pts = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 2.0),
        ];
        let hull = convex_hull(&pts);
        assert_eq!(
            hull,
            vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 0.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(0.0, 2.0)
            ]
        );
    }

    #[test]
    fn collinear_points_give_the_two_extremes() {
        let pts = [
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(3.0, 3.0),
            Vec2::new(2.0, 2.0),
        ];
        assert_eq!(
            convex_hull(&pts),
            vec![Vec2::new(0.0, 0.0), Vec2::new(3.0, 3.0)]
        );
    }

    #[test]
    fn repeated_point_gives_one_point() {
        assert_eq!(convex_hull(&[Vec2::ONE, Vec2::ONE]), vec![Vec2::ONE]);
    }
}
