//! Properties of `CollisionWorld::move_shape`: no snag on flush tiles or boxes at any speed,
//! landing exactly on a surface, corners without sinking, thin walls always met, one-way
//! platforms, layer masks, and never ending inside a solid object (random tile maps and moves).
//!
//! Coordinates are multiples of 1/4 (exact sums), so touching and seams are the common case.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{
    contact, Aabb, BroadPhase, Capsule, Circle, CollisionWorld, Compound, ConvexPolygon, Filter,
    Movement, Obb, ObjectKind, Polygon, Response, Segment, Shape,
};
use proptest::prelude::*;

mod support;
use support::kinds::soak;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap()
}

/// A world of static boxes, all sliding.
fn world(boxes: &[Aabb]) -> CollisionWorld<Response> {
    let mut w = CollisionWorld::new(BroadPhase::default());
    for b in boxes {
        w.insert(
            (*b).into(),
            Filter::DEFAULT,
            ObjectKind::Static,
            Response::Slide,
        )
        .unwrap();
    }
    w
}

fn go(w: &CollisionWorld<Response>, s: &Shape, m: Vec2) -> Movement {
    w.move_shape(s, m, u64::MAX, |_, r| *r)
}

/// Boxes laid flush from `x = 0`, widths in quarters, tops at `y = 0`, bottoms varied.
fn flush_floor(widths: &[u8], depths: &[u8]) -> Vec<Aabb> {
    let mut x = 0.0;
    widths
        .iter()
        .zip(depths.iter().cycle())
        .map(|(&w, &d)| {
            let next = x + f32::from(w) * 0.25;
            let b = rect(x, -f32::from(d) * 0.25 - 0.25, next, 0.0);
            x = next;
            b
        })
        .collect()
}

/// The mover: a box `w` by `h` or a capsule of the same width, standing with its bottom at
/// `(x, y)`.
fn mover(capsule: bool, x: f32, y: f32, w: f32, h: f32) -> Shape {
    if capsule {
        let r = w * 0.5;
        Capsule::new(v(x + r, y + r), v(x + r, y + r + h.max(w) - w), r)
            .unwrap()
            .into()
    } else {
        rect(x, y, x + w, y + h).into()
    }
}

/// How deep `a` overlaps the box `b`: `<= 0` when their interiors are apart (touching or
/// separate), exactly for a box.
fn depth(a: &Shape, b: &Aabb) -> f32 {
    match a {
        Shape::Aabb(a) => (a.max() - b.min()).min(b.max() - a.min()).min_element(),
        _ => contact(a, &(*b).into()).map_or(0.0, |c| c.depth),
    }
}

/// True when the interiors of `a` and `b` overlap deeper than `tol` (any depth for boxes).
fn sinks(a: &Shape, b: &Aabb, tol: f32) -> bool {
    match a {
        Shape::Aabb(_) => depth(a, b) > 0.0,
        _ => depth(a, b) > tol,
    }
}

/// `p` turned by `k` quarter turns counter-clockwise (exact).
fn turn(p: Vec2, k: u8) -> Vec2 {
    match k % 4 {
        0 => p,
        1 => v(-p.y, p.x),
        2 => -p,
        _ => v(p.y, -p.x),
    }
}

/// A box or capsule turned by `k` quarter turns about the origin (exact).
fn turn_shape(s: &Shape, k: u8) -> Shape {
    match s {
        Shape::Aabb(b) => {
            let (p, q) = (turn(b.min(), k), turn(b.max(), k));
            Aabb::new(p.min(q), p.max(q)).unwrap().into()
        }
        Shape::Capsule(c) => Capsule::new(turn(c.a(), k), turn(c.b(), k), c.radius())
            .unwrap()
            .into(),
        _ => panic!("only boxes and capsules turn here"),
    }
}

fn quarter(q: i32) -> f32 {
    q as f32 * 0.25
}

/// A motion component: a multiple of 1/4 (seams and touching) or any float in `[-10, 10)`.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![(-40i32..40).prop_map(quarter), -10.0f32..10.0]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: soak(256), ..ProptestConfig::default() })]

    /// Sliding along a floor of adjacent unit tiles, or of flush boxes of random widths, at
    /// any speed and pressing into it or not (by a quarter or more, or by as little as `1e-6`,
    /// a frame of gravity), ends exactly at `start + motion.x`, `y` unchanged (a capsule within
    /// `1e-4`); the same for ceilings and walls (the scene turned by quarter turns).
    #[test]
    fn sliding_along_flush_tiles_never_snags(
        widths in prop::collection::vec(1u8..12, 60..80),
        depths in prop::collection::vec(0u8..8, 1..5),
        unit in any::<bool>(),
        capsule in any::<bool>(),
        start in 0i32..40,
        size in (1i32..8, 1i32..12),
        dx in -200i32..200,
        press in prop_oneof![Just(0.0f32), (1i32..400).prop_map(quarter), 1e-6f32..1e-3],
        turns in 0u8..4,
    ) {
        let widths = if unit { vec![4u8; 60] } else { widths };
        let tiles: Vec<Aabb> = flush_floor(&widths, &depths)
            .iter()
            .map(|b| match turn_shape(&(*b).into(), turns) {
                Shape::Aabb(b) => b,
                _ => unreachable!(),
            })
            .collect();
        let end = flush_floor(&widths, &depths).last().unwrap().max().x;
        let w = world(&tiles);
        let (x, bw) = (quarter(start), quarter(size.0));
        let dx = quarter(dx).clamp(-x, end - x - bw);
        let s = turn_shape(&mover(capsule, x, 0.0, bw, quarter(size.1)), turns);
        let m = go(&w, &s, turn(v(dx, -press), turns));
        let expected = turn(v(dx, 0.0), turns);
        if capsule {
            prop_assert!((m.delta - expected).length() <= 1e-4, "{m:?}");
        } else {
            prop_assert_eq!(m.delta, expected, "{:?}", m);
        }
        for c in &m.contacts {
            prop_assert!(c.normal.dot(turn(Vec2::Y, turns)) > 0.999, "snagged: {c:?}");
        }
        if press > 0.0 && !capsule {
            prop_assert_eq!(m.contacts.first().map(|c| c.t), Some(0.0));
        }
    }

    /// Falling onto a floor of flush boxes stops at its surface.
    #[test]
    fn falling_onto_a_floor_stops_at_its_surface(
        widths in prop::collection::vec(1u8..12, 80..100),
        capsule in any::<bool>(),
        start in (0i32..30, 1i32..100),
        dx in -20i32..20,
        fall in 0i32..400,
    ) {
        let tiles = flush_floor(&widths, &[0, 3]);
        let w = world(&tiles);
        let (x, y) = (quarter(start.0) + 5.0, quarter(start.1));
        let s = mover(capsule, x, y, 1.0, 2.0);
        let motion = v(quarter(dx), -y - quarter(fall) - 0.25);
        let m = go(&w, &s, motion);
        let bottom = m.shape.aabb().min().y;
        if capsule {
            prop_assert!(bottom.abs() <= 1e-4, "{m:?}");
        } else {
            prop_assert_eq!(bottom, 0.0, "{:?}", m);
        }
        prop_assert!((m.delta.x - motion.x).abs() <= 1e-4, "{m:?}");
        prop_assert_eq!(m.contacts.len(), 1);
        prop_assert!((m.contacts[0].normal - Vec2::Y).length() <= 1e-6, "{m:?}");
    }

    /// Into the corner of a wall standing on the floor: stops in the corner, touching both.
    #[test]
    fn corners_neither_sink_nor_catch(
        capsule in any::<bool>(),
        wall_x in 24i32..60,
        start in (0i32..20, 0i32..40),
        motion in (60i32..400, 40i32..400),
    ) {
        let mut tiles: Vec<Aabb> = (0..20).map(|i| rect(i as f32, -1.0, i as f32 + 1.0, 0.0)).collect();
        let wx = quarter(wall_x);
        tiles.push(rect(wx, 0.0, wx + 1.0, 1.0));
        tiles.push(rect(wx, 1.0, wx + 1.0, 30.0)); // a seam in the wall too
        let w = world(&tiles);
        let s = mover(capsule, quarter(start.0), quarter(start.1), 1.0, 2.0);
        let m = go(&w, &s, v(quarter(motion.0), -quarter(motion.1)));
        let b = m.shape.aabb();
        if capsule {
            prop_assert!((b.max().x - wx).abs() <= 1e-4 && b.min().y.abs() <= 1e-4, "{m:?}");
        } else {
            prop_assert_eq!((b.max().x, b.min().y), (wx, 0.0), "{:?}", m);
        }
    }

    /// A wall 2 units thick crossed by a 50-unit move is always met, whatever the positions.
    #[test]
    fn thin_wall_crossed_in_one_step_is_always_hit(
        capsule in any::<bool>(),
        x in -20.0f32..20.0,
        y in -5.0f32..5.0,
        wall in 0.0f32..25.0,
        slope in -0.2f32..0.2,
        left in any::<bool>(),
    ) {
        let wall_box = rect(x + 2.0 + wall, -100.0, x + 4.0 + wall, 100.0);
        let w = world(&[wall_box]);
        let (s, motion) = if left {
            // Mirrored: start on the far side, moving left.
            let far = wall_box.max().x + 1.0 + wall;
            (mover(capsule, far, y, 1.0, 1.5), v(-50.0, 50.0 * slope))
        } else {
            (mover(capsule, x, y, 1.0, 1.5), v(50.0, 50.0 * slope))
        };
        let m = go(&w, &s, motion);
        prop_assert_eq!(m.contacts.len(), 1, "{:?}", m);
        prop_assert!(!sinks(&m.shape, &wall_box, 1e-4), "{m:?}");
        let b = m.shape.aabb();
        if left {
            prop_assert!(b.min().x >= wall_box.max().x - 1e-4, "{m:?}");
        } else {
            prop_assert!(b.max().x <= wall_box.min().x + 1e-4, "{m:?}");
        }
    }

    /// Over random tile maps and a run of random moves (quarters, or any float), the mover
    /// never ends a move inside a solid tile; a mask hides exactly the tiles of other layers.
    #[test]
    fn never_ends_inside_a_tile_and_masks_hide_layers(
        cells in prop::collection::vec((0i32..16, 0i32..16, 0u64..2), 10..80),
        capsule in any::<bool>(),
        size in (1i32..6, 1i32..6),
        moves in prop::collection::vec((coordinate(), coordinate()), 1..8),
        mask in 1u64..4,
    ) {
        let mut all = CollisionWorld::new(BroadPhase::grid(1.0).unwrap());
        let mut visible = Vec::new();
        for &(cx, cy, layer) in &cells {
            let b = rect(cx as f32, cy as f32, cx as f32 + 1.0, cy as f32 + 1.0);
            all.insert(b.into(), Filter::new(1 << layer, u64::MAX), ObjectKind::Static, Response::Slide).unwrap();
            if (1 << layer) & mask != 0 {
                visible.push(b);
            }
        }
        let seen = world(&visible);
        let mut s = mover(capsule, 16.5, 16.5, quarter(size.0), quarter(size.1));
        for &(dx, dy) in &moves {
            let motion = v(dx, dy);
            let m = all.move_shape(&s, motion, mask, |_, r| *r);
            let plain = go(&seen, &s, motion);
            prop_assert_eq!(&m.delta, &plain.delta);
            prop_assert_eq!(m.contacts.len(), plain.contacts.len());
            // Exact for boxes moved by quarters; a box moved by other floats is rounded
            // at every move (its width drifts by units in the last place), so it may end that
            // far inside: within the tolerance that counts as touching.
            let quarters = moves.iter().all(|&(x, y)| (x * 4.0).fract() == 0.0 && (y * 4.0).fract() == 0.0);
            for b in &visible {
                if quarters {
                    prop_assert!(!sinks(&m.shape, b, 1e-4), "{b:?} {m:?}");
                } else {
                    prop_assert!(depth(&m.shape, b) <= 1e-4, "{b:?} {m:?}");
                }
            }
            s = m.shape;
        }
    }

    /// A one-way platform is landed on from above and passed from below and the side.
    #[test]
    fn one_way_platforms_hold_from_above_only(
        capsule in any::<bool>(),
        x in -2i32..39,
        below in 1i32..40,
        rise in 0i32..400,
    ) {
        let up = Response::OneWay { up: Vec2::Y };
        let mut w = CollisionWorld::new(BroadPhase::default());
        let platform = rect(0.0, 0.0, 10.0, 1.0);
        w.insert(platform.into(), Filter::DEFAULT, ObjectKind::Static, up).unwrap();
        let x = quarter(x);
        // From below, jumping up through it, then falling back onto it.
        let s = mover(capsule, x, -quarter(below) - 2.0, 1.0, 2.0);
        let jump = v(0.0, quarter(below) + 6.0 + quarter(rise));
        let m = go(&w, &s, jump);
        prop_assert_eq!(m.delta, jump);
        prop_assert!(m.contacts.is_empty());
        let landed = go(&w, &m.shape, v(0.0, -200.0));
        let bottom = landed.shape.aabb().min().y;
        prop_assert!((bottom - 1.0).abs() <= 1e-4, "{landed:?}");
        // From the side, at platform height.
        let side = mover(capsule, -3.0, 0.0, 1.0, 0.5);
        let m = go(&w, &side, v(20.0 + quarter(rise), 0.0));
        prop_assert!(m.contacts.is_empty(), "{m:?}");
    }

    /// Obstacles of every kind (rotated boxes, circles, capsules, segments, convex and concave
    /// polygons, compounds), slide or bounce: the move never panics, ends finite, and never ends
    /// inside an obstacle the mover started outside of.
    #[test]
    fn any_obstacle_shape_never_ends_inside(
        obstacles in prop::collection::vec((0u8..7, -12i32..12, -12i32..12, 1i32..12, 0.0f32..6.3), 1..12),
        capsule in any::<bool>(),
        bounce in any::<bool>(),
        motions in prop::collection::vec((-40i32..80, -40i32..80), 1..5),
    ) {
        let response = if bounce { Response::Bounce } else { Response::Slide };
        let mut w = CollisionWorld::new(BroadPhase::default());
        let mut shapes = Vec::new();
        for &(kind, x, y, size, angle) in &obstacles {
            let (c, s) = (v(quarter(x) * 4.0, quarter(y) * 4.0), quarter(size) * 2.0);
            let shape: Shape = match kind {
                0 => Obb::new(c, v(s, s * 0.5), angle).unwrap().into(),
                1 => Circle::new(c, s).unwrap().into(),
                2 => Capsule::new(c, c + v(s, s * 0.5), 0.5).unwrap().into(),
                3 => Segment::new(c - v(s, 0.0), c + v(s, s)).unwrap().into(),
                4 => ConvexPolygon::new(&[c, c + v(s, 0.0), c + v(0.0, s)]).unwrap().into(),
                5 => Polygon::new(&[c, c + v(2.0 * s, 0.0), c + v(2.0 * s, s), c + v(s, 0.25), c + v(0.0, s)]).unwrap().into(),
                _ => Compound::new(vec![rect(c.x, c.y, c.x + s, c.y + 1.0).into(), Circle::new(c + v(s, 0.0), 1.0).unwrap().into()]).unwrap().into(),
            };
            w.insert(shape.clone(), Filter::DEFAULT, ObjectKind::Static, response).unwrap();
            shapes.push(shape);
        }
        let mut s = mover(capsule, -14.0, -14.0, 1.5, 2.5);
        for &(dx, dy) in &motions {
            let before: Vec<bool> = shapes.iter().map(|o| contact(&s, o).is_some_and(|c| c.depth > 1e-3)).collect();
            let m = go(&w, &s, v(quarter(dx) * 4.0, quarter(dy) * 4.0));
            prop_assert!(m.delta.is_finite(), "{m:?}");
            for (o, was_inside) in shapes.iter().zip(before) {
                if !was_inside {
                    let depth = contact(&m.shape, o).map_or(0.0, |c| c.depth);
                    prop_assert!(depth <= 1e-3, "{depth} in {o:?}: {m:?}");
                }
            }
            s = m.shape;
        }
    }
}

/// Issue 16, item 7: a wall one unit thick, and movers of every kind moved through it by
/// motions from 1 to the largest the move accepts (its reach must stay finite): the wall is
/// always met, the mover stops in front of it, and `cast_shape` agrees on the time.
#[test]
fn extreme_motions_never_pass_through_a_wall() {
    let wall = rect(1.0, -100.0, 2.0, 100.0);
    let w = world(&[wall]);
    let triangle: Shape = ConvexPolygon::new(&[v(0.25, -0.25), v(0.75, 0.0), v(0.25, 0.25)])
        .unwrap()
        .into();
    let movers: [(&str, Shape); 5] = [
        (
            "obb",
            Obb::new(v(0.5, 0.0), v(0.25, 0.25), 0.3).unwrap().into(),
        ),
        ("aabb", rect(0.25, -0.25, 0.75, 0.25).into()),
        ("triangle", triangle),
        ("circle", Circle::new(v(0.5, 0.0), 0.25).unwrap().into()),
        (
            "capsule",
            Capsule::new(v(0.5, -0.1), v(0.5, 0.1), 0.25)
                .unwrap()
                .into(),
        ),
    ];
    let mut speeds: Vec<f32> = (0..=38).map(|k| 10f32.powi(k)).collect();
    speeds.extend((0..=37).map(|k| 3.7 * 10f32.powi(k)));
    speeds.extend([3.2e19, f32::MAX / 4.0, f32::MAX / 2.0 - 1e32]);
    for (name, mover) in &movers {
        for &speed in &speeds {
            for dir in [v(1.0, 0.0), v(1.0, 1e-3), v(1.0, -0.5)] {
                let motion = dir * speed;
                let moved = go(&w, mover, motion);
                let what = format!("{name} moved by {motion}");
                let reach = moved.shape.aabb().max().x;
                assert!(
                    reach <= 1.0 + 1e-4,
                    "{what}: ends at x = {reach}: {moved:?}"
                );
                assert!(!moved.contacts.is_empty(), "{what}: no contact");
                assert!(
                    w.cast_shape(mover, motion, u64::MAX).is_some(),
                    "{what}: cast_shape"
                );
            }
        }
    }
}
