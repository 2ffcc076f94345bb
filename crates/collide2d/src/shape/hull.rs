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
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
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
