//! Unit tests of the outline search: the same depths as the face search (`union_polygons`)
//! on random integer polygons against polygons and boxes, both argument orders.

use super::*;
use crate::query::union_polygons;
use crate::shape::{Aabb, Polygon};
use crate::test_support::xorshift;

/// A random simple polygon with integer corners, star-shaped around a shifted centre
/// (corners sorted by angle, every gap under a half turn); often concave.
fn random_polygon(next: &mut impl FnMut() -> u64, max_points: u64, span: i64) -> Shape {
    loop {
        let k = 3 + next() % (max_points - 2);
        let mut pts: Vec<(i64, i64)> = (0..k)
            .map(|_| {
                let r = 2 * span + 1;
                (
                    (next() % r as u64) as i64 - span,
                    (next() % r as u64) as i64 - span,
                )
            })
            .filter(|p| *p != (0, 0))
            .collect();
        let half = |p: &(i64, i64)| p.1 < 0 || (p.1 == 0 && p.0 < 0);
        let cross = |p: (i64, i64), q: (i64, i64)| p.0 * q.1 - p.1 * q.0;
        pts.sort_by(|p, q| half(p).cmp(&half(q)).then(0.cmp(&cross(*p, *q))));
        pts.dedup_by(|p, q| half(p) == half(q) && cross(*p, *q) == 0);
        let n = pts.len();
        if n < 3 || !(0..n).all(|i| cross(pts[i], pts[(i + 1) % n]) > 0) {
            continue;
        }
        let shift = ((next() % 11) as i64 - 5, (next() % 11) as i64 - 5);
        let ring: Vec<Vec2> = pts
            .iter()
            .map(|p| Vec2::new((p.0 + shift.0) as f32, (p.1 + shift.1) as f32))
            .collect();
        if let Ok(p) = Polygon::new(&ring) {
            return Shape::Polygon(p);
        }
    }
}

fn random_box(next: &mut impl FnMut() -> u64) -> Shape {
    let c = |next: &mut dyn FnMut() -> u64| (next() % 21) as f32 - 10.0;
    let (x, y) = (c(next), c(next));
    let (w, h) = (1.0 + (next() % 12) as f32, 1.0 + (next() % 12) as f32);
    Shape::Aabb(Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).unwrap())
}

/// Compares the two searches' depths; returns whether the outline search answered.
fn same_depth(a: &Shape, b: &Shape) -> bool {
    let Some(mine) = contact(a, b) else {
        return false;
    };
    // Past its limit the face search gives up: nothing to compare.
    let Ok(theirs) = union_polygons::contact(a, b) else {
        return true;
    };
    let theirs = theirs.unwrap();
    let tol = 1e-5 * (1.0 + theirs.depth);
    assert!(
        (mine.depth - theirs.depth).abs() <= tol,
        "{a:?}\n{b:?}\nmine {mine:?}\ntheirs {theirs:?}"
    );
    assert!((mine.normal.length() - 1.0).abs() < 1e-6);
    true
}

#[test]
fn depths_equal_the_face_searchs_on_random_polygons_and_boxes() {
    let mut next = xorshift(0x5eed_17b0);
    let mut answered = 0;
    for case in 0..600 {
        let a = random_polygon(&mut next, 12, 12);
        let b = if case % 3 == 0 {
            random_box(&mut next)
        } else {
            random_polygon(&mut next, 12, 12)
        };
        answered += usize::from(same_depth(&a, &b));
        answered += usize::from(same_depth(&b, &a));
    }
    assert!(answered > 400, "{answered}");
}

#[test]
fn touching_or_apart_shapes_are_left_to_the_caller() {
    let l = crate::test_support::l_shape();
    let right = crate::test_support::boxed(2.0, 0.0, 3.0, 1.0);
    assert!(contact(&l, &right).is_none());
    let far = crate::test_support::boxed(5.0, 5.0, 6.0, 6.0);
    assert!(contact(&l, &far).is_none());
}
