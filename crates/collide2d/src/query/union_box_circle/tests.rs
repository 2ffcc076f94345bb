//! The box–circle path against the general search, on grid and random hitboxes.

use super::*;
use crate::math::Vec2;
use crate::query::union_certified::{self, Fast};
use crate::query::union_rounded;
use crate::shape::{Aabb, Circle, Compound};
use crate::test_support::xorshift;
use alloc::vec::Vec;

/// A hitbox of 1 to 4 boxes, on a small integer grid (often flush, overlapping or
/// touching the circle) or at random.
fn hitbox(next: &mut dyn FnMut(u32) -> f32, parts: usize, grid: bool) -> Shape {
    let parts: Vec<Shape> = (0..parts)
        .map(|_| {
            let (x, y, w, h) = if grid {
                (next(7) - 3.0, next(7) - 3.0, next(4) + 1.0, next(4) + 1.0)
            } else {
                let f = |n: &mut dyn FnMut(u32) -> f32| n(1 << 20) / (1 << 17) as f32;
                (
                    f(next) - 4.0,
                    f(next) - 4.0,
                    f(next) * 0.5 + 0.1,
                    f(next) * 0.5 + 0.1,
                )
            };
            Aabb::raw(Vec2::new(x, y), Vec2::new(x + w, y + h)).into()
        })
        .collect();
    match Compound::new(parts) {
        Ok(c) => c.into(),
        Err(e) => unreachable!("{e}"),
    }
}

fn circle(next: &mut dyn FnMut(u32) -> f32, grid: bool) -> Shape {
    let (c, r) = if grid {
        (Vec2::new(next(7) - 3.0, next(7) - 3.0), next(3) + 1.0)
    } else {
        let f = |n: &mut dyn FnMut(u32) -> f32| n(1 << 20) / (1 << 18) as f32;
        (Vec2::new(f(next) - 2.0, f(next) - 2.0), f(next) + 0.05)
    };
    match Circle::new(c, r) {
        Ok(c) => c.into(),
        Err(e) => unreachable!("{e}"),
    }
}

/// The circle moved by `by` meets some box's interior, beyond `slack`.
fn overlaps(boxes: &Shape, circle: &Shape, by: Vec2, slack: f32) -> bool {
    let (Shape::Compound(h), Shape::Circle(c)) = (boxes, circle) else {
        unreachable!("a hitbox and a circle")
    };
    h.parts().iter().any(|p| {
        let Shape::Aabb(b) = p else {
            unreachable!("boxes")
        };
        let centre = c.center() + by;
        centre.clamp(b.min(), b.max()).distance(centre) < c.radius() - slack
    })
}

#[test]
fn box_circle_agrees_with_the_general_search() {
    let mut bits = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut next = |n: u32| (bits() % u64::from(n)) as f32;
    let (mut decided, mut searched, mut same_as_before) = (0, 0, 0);
    for round in 0..6000 {
        let grid = round % 2 == 0;
        let boxes = hitbox(&mut next, 1 + round % 4, grid);
        let round_shape = circle(&mut next, grid);
        let flipped = round % 3 == 0;
        let (a, b) = if flipped {
            (&round_shape, &boxes)
        } else {
            (&boxes, &round_shape)
        };
        let Some(got) = contact(a, b) else {
            continue;
        };
        decided += 1;
        let Ok(want) = union_rounded::contact(a, b) else {
            continue;
        };
        match (got, want) {
            (None, None) => {}
            (Some(g), Some(w)) => {
                assert!((g.depth - w.depth).abs() <= 1e-5, "{a:?} {b:?} {g:?} {w:?}");
                assert!(
                    g.normal.distance(w.normal) <= 1e-4,
                    "{a:?} {b:?} {g:?} {w:?}"
                );
                searched += usize::from(g.depth > 0.0);
                // The answer before this path (certificate, else search): the same up
                // to the search's rounding of its candidate point.
                let old = match union_certified::contact(a, b) {
                    Fast::Decided(d) => d,
                    Fast::Search { .. } => Some(w),
                };
                let Some(old) = old else {
                    panic!("{a:?} {b:?} {g:?}")
                };
                same_as_before += usize::from(old == g);
                let near = |p: &[Vec2], q: &[Vec2]| {
                    p.len() == q.len() && p.iter().zip(q).all(|(u, v)| u.distance(*v) <= 1e-5)
                };
                assert!(
                    (old.depth - g.depth).abs() <= 1e-5
                        && old.normal.distance(g.normal) <= 1e-5
                        && near(&old.points, &g.points),
                    "{a:?} {b:?} {g:?} {old:?}"
                );
                // Moving `b` by the contact leaves them touching; a little less does
                // not. (Past the depth the shapes may meet again: at a crossing the ray
                // can leave one difference into another.)
                let sign = if flipped { -1.0 } else { 1.0 };
                let out = g.normal * sign * g.depth;
                assert!(
                    !overlaps(&boxes, &round_shape, out, 1e-4),
                    "{a:?} {b:?} {g:?}"
                );
                if g.depth > 1e-2 {
                    let short = g.normal * sign * (g.depth - 1e-3);
                    assert!(
                        overlaps(&boxes, &round_shape, short, 0.0),
                        "{a:?} {b:?} {g:?}"
                    );
                }
            }
            other => panic!("{a:?} {b:?} {other:?}"),
        }
    }
    assert!(decided > 4000, "{decided}");
    assert!(searched > 1000, "{searched}");
    // Most answers keep their bits (the certificate's, or a search point found alike).
    assert!(
        same_as_before * 100 >= searched * 99,
        "{same_as_before} {searched}"
    );
}

/// `circle_aabb::depth`, by which this path weighs a hitbox's parts, is
/// `circle_aabb::contact`'s depth, bit for bit, on grid and random pairs (centres inside and
/// outside the box, touching).
#[test]
fn depth_is_the_pair_contacts_depth() {
    let mut bits = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut next = |n: u32| (bits() % u64::from(n)) as f32;
    for round in 0..20_000 {
        let grid = round % 2 == 0;
        let Shape::Compound(hitbox) = hitbox(&mut next, 1, grid) else {
            unreachable!("a compound")
        };
        let (Shape::Aabb(bx), Shape::Circle(c)) = (&hitbox.parts()[0], circle(&mut next, grid))
        else {
            unreachable!("a box and a circle")
        };
        if circle_aabb::intersects(&c, bx) {
            let want = circle_aabb::contact(&c, bx).depth;
            assert_eq!(
                circle_aabb::depth(&c, bx).to_bits(),
                want.to_bits(),
                "{c:?} {bx:?}"
            );
        }
    }
}

/// Two sides' feet equally far (7, on the two axes) but past where the axes leave the union,
/// and a crossing nearer (depth 2.16): the path answers, with the general search's depth and
/// normal, where the tie of the two far feet used to make it step aside.
#[test]
fn a_tie_of_own_points_past_the_axis_exit_does_not_step_aside() {
    let boxes: Shape = match Compound::new(alloc::vec![
        Aabb::raw(Vec2::new(3.0, -1.0), Vec2::new(5.0, 0.0)).into(),
        Aabb::raw(Vec2::new(-1.0, 1.0), Vec2::new(2.0, 4.0)).into(),
    ]) {
        Ok(c) => c.into(),
        Err(e) => unreachable!("{e}"),
    };
    let round: Shape = match Circle::new(Vec2::new(1.0, 0.0), 3.0) {
        Ok(c) => c.into(),
        Err(e) => unreachable!("{e}"),
    };
    for (a, b) in [(&boxes, &round), (&round, &boxes)] {
        let (Some(Some(got)), Ok(Some(want))) = (contact(a, b), union_rounded::contact(a, b))
        else {
            panic!("{a:?} {b:?}")
        };
        assert_eq!((got.depth, got.normal), (want.depth, want.normal));
        assert!((got.depth - 2.164_784_4).abs() < 1e-6, "{got:?}");
        assert!(got
            .points
            .iter()
            .zip(want.points.iter())
            .all(|(p, q)| p.distance(*q) < 1e-6));
    }
}
