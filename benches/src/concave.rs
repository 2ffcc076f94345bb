//! Seeded pairs with a compound or concave shape, for `benches/concave.rs`: a four-rectangle
//! sprite hitbox against a circle and against a box, and a 12-vertex concave polygon (a
//! six-pointed star) against a box and against another star. parry2d gets the same convex parts
//! (the hitbox's rectangles, the polygon's `Polygon::parts()`) as a `Compound`.
// The shapes below are valid by construction (positive sizes, a simple star).
#![allow(clippy::expect_used)]

use crate::Rng;
use collide2d::{math::Vec2, Aabb, Circle, Compound, Polygon, Shape};
use parry2d::math::{Pose, Vector};
use parry2d::shape::SharedShape;
use std::hint::black_box;

/// The groups of the bench: name, kinds of `a` and `b`, seed.
pub const CASES: [(&str, Kind, Kind, u64); 4] = [
    ("hitbox_circle", Kind::Hitbox, Kind::Circle, 11),
    ("hitbox_box", Kind::Hitbox, Kind::Box, 12),
    ("star_box", Kind::Star, Kind::Box, 13),
    ("star_star", Kind::Star, Kind::Star, 14),
];

/// Pairs per group.
pub const COUNT: usize = 256;

/// `collide2d::contact` on every pair.
#[inline(never)]
pub fn collide2d_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        black_box(collide2d::contact(&a.collide, &b.collide));
    }
}

/// The per-part contact (the answer before issue 17) on every pair.
#[inline(never)]
pub fn per_part_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        black_box(per_part_contact(a, b));
    }
}

/// `parry2d::query::contact` on every pair.
#[inline(never)]
pub fn parry2d_contacts(pairs: &[(Both, Both)]) {
    for (a, b) in pairs {
        let ((pa, sa), (pb, sb)) = (&a.parry, &b.parry);
        black_box(parry2d::query::contact(
            pa,
            sa.as_ref(),
            pb,
            sb.as_ref(),
            0.0,
        ))
        .ok();
    }
}

/// How many of `pairs` intersect, and how many of those get the per-part contact's normal
/// and depth (within `1e-5`): the pairs where the deepest pair of parts was already the whole
/// shapes' answer, which the union contact's fast path can decide.
pub fn census(pairs: &[(Both, Both)]) -> (usize, usize) {
    let (mut hits, mut same) = (0, 0);
    for (a, b) in pairs {
        let Some(whole) = collide2d::contact(&a.collide, &b.collide) else {
            continue;
        };
        hits += 1;
        let agrees = per_part_contact(a, b).is_some_and(|p| {
            (p.depth - whole.depth).abs() <= 1e-5 * (1.0 + whole.depth)
                && p.normal.dot(whole.normal) >= 1.0 - 1e-5
        });
        same += usize::from(agrees);
    }
    (hits, same)
}

/// One shape in both libraries' forms.
pub struct Both {
    /// collide2d's shape, in world coordinates.
    pub collide: Shape,
    /// parry2d's shape and its pose.
    pub parry: (Pose, SharedShape),
    /// collide2d's shape as its convex parts, for the per-part contact (the deepest pair of
    /// parts: what `collide2d::contact` answered before issue 17).
    pub parts: Vec<Shape>,
}

impl Both {
    fn convex(collide: Shape, parry: (Pose, SharedShape)) -> Both {
        Both {
            parts: vec![collide.clone()],
            collide,
            parry,
        }
    }
}

/// The per-part contact: the deepest over pairs of parts whose boxes overlap, the first on
/// ties (the answer before issue 17, by the public API).
pub fn per_part_contact(a: &Both, b: &Both) -> Option<collide2d::Contact> {
    let mut best: Option<collide2d::Contact> = None;
    for pa in &a.parts {
        for pb in &b.parts {
            if !pa.aabb().overlaps(&pb.aabb()) {
                continue;
            }
            if let Some(c) = collide2d::contact(pa, pb) {
                if best.is_none_or(|b| c.depth > b.depth) {
                    best = Some(c);
                }
            }
        }
    }
    best
}

/// The kinds of shape in these pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A body, head, arm and leg: four overlapping rectangles about 32 units tall.
    Hitbox,
    /// A circle of radius 4 to 12.
    Circle,
    /// A box 8 to 40 units on a side.
    Box,
    /// A six-pointed star: 12 vertices on radii about 20 and 9.
    Star,
}

fn rect(lo: Vec2, hi: Vec2) -> (Shape, (Pose, SharedShape)) {
    let (c, h) = ((lo + hi) * 0.5, (hi - lo) * 0.5);
    (
        Aabb::new(lo, hi).expect("a box").into(),
        (
            Pose::from_translation(Vector::new(c.x, c.y)),
            SharedShape::cuboid(h.x, h.y),
        ),
    )
}

/// A random shape of `kind` centred near `at`.
pub fn shape(kind: Kind, rng: &mut Rng, at: Vec2) -> Both {
    match kind {
        Kind::Hitbox => {
            let j = |rng: &mut Rng| rng.range(-1.5, 1.5);
            let parts = [
                rect(Vec2::new(-6.0, -8.0), Vec2::new(6.0 + j(rng), 10.0)),
                rect(Vec2::new(-4.0, 10.0), Vec2::new(4.0, 16.0 + j(rng))),
                rect(Vec2::new(6.0, 0.0), Vec2::new(14.0 + j(rng), 4.0)),
                rect(Vec2::new(-5.0, -16.0 + j(rng)), Vec2::new(5.0, -8.0)),
            ];
            let moved = |(s, (p, shared)): (Shape, (Pose, SharedShape))| {
                let t = collide2d::math::Pose::from_translation(at);
                let p = Pose::from_translation(Vector::new(at.x, at.y)) * p;
                (s.transformed(&t), (p, shared))
            };
            let (collide, parry): (Vec<_>, Vec<_>) = parts.into_iter().map(moved).unzip();
            Both {
                parts: collide.clone(),
                collide: Compound::new(collide).expect("parts").into(),
                parry: (Pose::IDENTITY, SharedShape::compound(parry)),
            }
        }
        Kind::Circle => {
            let r = rng.range(4.0, 12.0);
            Both::convex(
                Circle::new(at, r).expect("a circle").into(),
                (
                    Pose::from_translation(Vector::new(at.x, at.y)),
                    SharedShape::ball(r),
                ),
            )
        }
        Kind::Box => {
            let half = Vec2::new(rng.range(4.0, 20.0), rng.range(4.0, 20.0));
            let (collide, parry) = rect(at - half, at + half);
            Both::convex(collide, parry)
        }
        Kind::Star => {
            let turn = rng.range(0.0, 1.0);
            let points: Vec<Vec2> = (0..12)
                .map(|k| {
                    let r = if k % 2 == 0 { 20.0 } else { 9.0 } + rng.range(-1.0, 1.0);
                    let a = (k as f32 + turn) * std::f32::consts::TAU / 12.0;
                    at + Vec2::from_angle(a) * r
                })
                .collect();
            let polygon = Polygon::new(&points).expect("a star");
            let parts = polygon
                .parts()
                .iter()
                .map(|p| {
                    let pts = p.points().iter().map(|v| Vector::new(v.x, v.y)).collect();
                    let shared = SharedShape::convex_polyline(pts).expect("a convex part");
                    (Pose::IDENTITY, shared)
                })
                .collect();
            Both {
                parts: polygon.parts().iter().map(|p| p.clone().into()).collect(),
                collide: polygon.into(),
                parry: (Pose::IDENTITY, SharedShape::compound(parts)),
            }
        }
    }
}

/// `count` pairs of `a` and `b`, centred at most 30 units apart (most of them overlap).
pub fn pairs(a: Kind, b: Kind, seed: u64, count: usize) -> Vec<(Both, Both)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let offset = Vec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0));
            let x = shape(a, &mut rng, Vec2::ZERO);
            let y = shape(b, &mut rng, offset);
            (x, y)
        })
        .collect()
}
