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

/// A comb of `teeth` unit teeth (3 high) on a base 1 high: at least `teeth` convex parts.
fn comb(teeth: i32) -> Shape {
    let mut pts = alloc::vec![(0, 0), (2 * teeth - 1, 0)];
    for k in (0..teeth).rev() {
        if k != teeth - 1 {
            pts.push((2 * k + 1, 1));
        }
        pts.extend([(2 * k + 1, 3), (2 * k, 3)]);
        if k != 0 {
            pts.push((2 * k, 1));
        }
    }
    let ring: Vec<Vec2> = pts
        .iter()
        .map(|&(x, y)| Vec2::new(x as f32, y as f32))
        .collect();
    Shape::Polygon(Polygon::new(&ring).unwrap())
}

#[test]
fn shapes_past_the_parts_limit_are_left_to_the_other_searches_which_still_separate() {
    let many = comb(20);
    let Shape::Polygon(p) = &many else {
        unreachable!()
    };
    assert!(p.parts().len() > MAX_PARTS, "{}", p.parts().len());
    let (x0, y0, x1, y1) = (3.5, -1.0, 8.5, 2.0);
    let b = crate::test_support::boxed(x0, y0, x1, y1);
    for (a, b, flip) in [(&many, &b, 1.0), (&b, &many, -1.0)] {
        assert!(contact(a, b).is_none());
        let c = crate::query::contact(a, b).expect("they overlap");
        // Moving the box (b, or a the other way) by the answer and a little more separates.
        let d = c.normal * (c.depth + 1e-3) * flip;
        let moved = crate::test_support::boxed(x0 + d.x, y0 + d.y, x1 + d.x, y1 + d.y);
        assert!(!crate::query::intersects(&many, &moved), "{c:?}");
    }
}

#[test]
fn outlines_past_the_corners_limit_are_left_to_the_other_searches() {
    // Two 40-gons with one notch each: two convex parts, but 39 convex corners apiece.
    let notched = |r: f32| {
        let ring: Vec<Vec2> = (0..40)
            .map(|k| {
                let t = k as f32 * core::f32::consts::TAU / 40.0;
                let s = if k == 0 { 0.5 } else { 1.0 };
                Vec2::new(t.cos(), t.sin()) * r * s
            })
            .collect();
        Shape::Polygon(Polygon::new(&ring).unwrap())
    };
    let (a, b) = (notched(10.0), notched(9.0));
    assert!(contact(&a, &b).is_none());
    assert!(crate::query::contact(&a, &b).is_some());
}

/// The `f64` test of two convolution segments decides only where the exact one agrees: no
/// crossing and no collinear cut where it says `No`, the same fraction where it says `Inside`
/// (random integer polygons, some scaled far from 1 so the values round).
#[test]
fn float_crossing_test_agrees_with_the_exact_one() {
    use crate::query::union_outline::{crossing, known_crossing, overlap_cuts};
    let mut next = xorshift(0x5eed_17d0);
    let (mut no, mut inside) = (0, 0);
    for case in 0..300 {
        let scale = [1.0, 1e-3, 3.7e5, 1.0 / 3.0][case % 4];
        let grow = |s: Shape| match s {
            Shape::Polygon(p) => {
                let ring: Vec<Vec2> = p.points().iter().map(|&v| v * scale).collect();
                Shape::Polygon(Polygon::new(&ring).unwrap())
            }
            other => other,
        };
        let (a, b) = (
            grow(random_polygon(&mut next, 12, 12)),
            grow(random_polygon(&mut next, 12, 12)),
        );
        let (Some(oa), Some(ob)) = (Outlined::of(&a), Outlined::of(&b)) else {
            continue;
        };
        let pair = Pair::new(oa, ob);
        let (pa, pb) = (pair.a.outline(), pair.b.outline());
        let mut segs = Vec::new();
        each_convolution_segment(pa, pb, |s| segs.push((s, Near::of(s, pa, pb))));
        let bound = Near::miss_bound(pair.reach);
        for &(s, g) in &segs {
            for &(o, h) in &segs {
                if s == o {
                    continue;
                }
                match g.meets(&h, bound) {
                    Meets::No => {
                        no += 1;
                        assert!(crossing(s, o, pa, pb).is_none());
                        let mut cuts: Vec<Cut> = Vec::new();
                        overlap_cuts(s, o, pa, pb, &mut cuts);
                        assert!(cuts.is_empty());
                    }
                    Meets::Inside { flip } => {
                        inside += 1;
                        let exact = crossing(s, o, pa, pb).expect("they cross");
                        let known = known_crossing(s, o, pa, pb, flip);
                        assert_eq!(exact.cmp(&known), Ordering::Equal);
                        assert_eq!(exact.approx(), known.approx());
                    }
                    Meets::Unsure => {}
                }
            }
        }
    }
    assert!(no > 10_000 && inside > 1_000, "{no} {inside}");
}
