//! Properties of `move_shape_with` with every feature on, over random tile maps with crates
//! (dynamic objects): never ending inside a solid object it started outside of, the ground
//! reported is touched and walkable, no snag on flush seams, walls crossed in one step met, and
//! depenetration moves the shortest way out.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{
    contact, distance, Aabb, BroadPhase, Capsule, CollisionWorld, Filter, ObjectKind, Response,
    Shape,
};
use proptest::prelude::*;

#[path = "support/character.rs"]
mod character;
use character::platformer;
mod support;
use support::kinds::soak;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into()
}

fn quarter(q: i32) -> f32 {
    q as f32 * 0.25
}

/// A motion component: a multiple of 1/4 or any float in `[-3, 3)`.
fn coordinate() -> impl Strategy<Value = f32> {
    prop_oneof![(-12i32..12).prop_map(quarter), -3.0f32..3.0]
}

fn depth(a: &Shape, b: &Shape) -> f32 {
    contact(a, b).map_or(0.0, |c| c.depth)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: soak(256), ..ProptestConfig::default() })]

    /// Random maps of unit tiles (static) and half-unit crates (dynamic), a box or capsule
    /// mover and a run of random moves: a move that starts outside every object ends outside
    /// (within 1e-4), and the ground it reports is walkable and touches the mover.
    #[test]
    fn never_ends_inside_and_the_ground_is_touched(
        cells in prop::collection::vec((0i32..16, 0i32..16, any::<bool>()), 10..80),
        capsule in any::<bool>(),
        size in (2i32..5, 2i32..7),
        moves in prop::collection::vec((coordinate(), coordinate()), 1..8),
    ) {
        let mut w = CollisionWorld::new(BroadPhase::default());
        let mut shapes = Vec::new();
        for &(cx, cy, is_crate) in &cells {
            let (x, y) = (cx as f32, cy as f32);
            let (s, kind) = if is_crate {
                (rect(x, y, x + 0.5, y + 0.5), ObjectKind::Dynamic)
            } else {
                (rect(x, y, x + 1.0, y + 1.0), ObjectKind::Static)
            };
            w.insert(s.clone(), Filter::DEFAULT, kind, ()).unwrap();
            shapes.push(s);
        }
        let (bw, bh) = (quarter(size.0), quarter(size.1));
        let mut s: Shape = if capsule {
            let r = bw * 0.5;
            Capsule::new(v(16.5 + r, 16.5 + r), v(16.5 + r, 16.5 + bh.max(bw) - r), r).unwrap().into()
        } else {
            rect(16.5, 16.5, 16.5 + bw, 16.5 + bh)
        };
        let settings = platformer();
        for &(dx, dy) in &moves {
            let inside_before = shapes.iter().any(|o| depth(&s, o) > 1e-4);
            let m = w.move_shape_with(&s, v(dx, dy), u64::MAX, &settings, |_, ()| Response::Slide);
            prop_assert!(m.delta.is_finite(), "{m:?}");
            if !inside_before {
                for o in &shapes {
                    prop_assert!(depth(&m.shape, o) <= 1e-4, "{o:?} {m:?}");
                }
            }
            if let Some(g) = m.ground {
                prop_assert!(g.normal.y >= 50f32.to_radians().cos() - 1e-6, "{g:?}");
                // Within the ground gap (`8e-6` times the largest coordinate), and its rounding.
                let under = w.shape(g.handle).unwrap();
                let b = m.shape.aabb();
                let scale = b.min().abs().max(b.max().abs()).max_element().max(1.0);
                prop_assert!(distance(&m.shape, &under) <= 1e-5 * scale, "{g:?} {m:?}");
            }
            s = m.shape;
        }
    }

    /// With every feature on, sliding along a floor of flush boxes of random widths (tops at
    /// `y = 0`) at any speed never snags: the box ends exactly at `start + dx`, on the floor,
    /// every contact the floor's normal; and a wall two units thick crossed by a 50-unit move
    /// is always met.
    #[test]
    fn seams_never_snag_and_walls_are_always_met(
        widths in prop::collection::vec(1u8..12, 60..80),
        start in 0i32..40,
        dx in -200i32..200,
        press in prop_oneof![Just(0.0f32), (1i32..40).prop_map(quarter), 1e-6f32..1e-3],
        wall in (-20.0f32..20.0, 0.0f32..25.0, -0.2f32..0.2),
    ) {
        let mut w = CollisionWorld::new(BroadPhase::default());
        let mut x = 0.0;
        for &width in &widths {
            let next = x + f32::from(width) * 0.25;
            w.insert(rect(x, -1.0, next, 0.0), Filter::DEFAULT, ObjectKind::Static, ()).unwrap();
            x = next;
        }
        let at = quarter(start);
        let dx = quarter(dx).clamp(-at, x - at - 1.0);
        let m = w.move_shape_with(&rect(at, 0.0, at + 1.0, 2.0), v(dx, -press), u64::MAX, &platformer(), |_, ()| Response::Slide);
        prop_assert_eq!(m.delta, v(dx, 0.0), "{:?}", m);
        prop_assert!(m.contacts.iter().all(|c| c.normal == Vec2::Y), "snagged: {m:?}");
        prop_assert!(m.ground.is_some_and(|g| g.normal == Vec2::Y), "{m:?}");

        let (wx, gap, slope) = wall;
        let thin = rect(wx + 2.0 + gap, -100.0, wx + 4.0 + gap, 100.0);
        let mut w = CollisionWorld::new(BroadPhase::default());
        w.insert(thin.clone(), Filter::DEFAULT, ObjectKind::Dynamic, ()).unwrap();
        let m = w.move_shape_with(&rect(wx, 0.0, wx + 1.0, 1.5), v(50.0, 50.0 * slope), u64::MAX, &platformer(), |_, ()| Response::Slide);
        prop_assert!(!m.contacts.is_empty(), "{m:?}");
        prop_assert!(m.shape.aabb().max().x <= thin.aabb().min().x + 1e-4, "{m:?}");
    }

    /// A box mover overlapping one box obstacle in open space, not moving: pushed out by the
    /// shortest separating move (the contact's depth, along its normal), ending touching.
    #[test]
    fn depenetration_takes_the_shortest_way_out(
        obstacle in (-8i32..8, -8i32..8, 1i32..16, 1i32..16),
        mover in (-8i32..8, -8i32..8, 1i32..12, 1i32..12),
        kind in prop_oneof![Just(ObjectKind::Static), Just(ObjectKind::Dynamic)],
    ) {
        let (ox, oy) = (quarter(obstacle.0), quarter(obstacle.1));
        let o = rect(ox, oy, ox + quarter(obstacle.2), oy + quarter(obstacle.3));
        let (mx, my) = (quarter(mover.0), quarter(mover.1));
        let s = rect(mx, my, mx + quarter(mover.2), my + quarter(mover.3));
        let Some(c) = contact(&o, &s).filter(|c| c.depth > 0.0) else {
            return Ok(());
        };
        let mut w = CollisionWorld::new(BroadPhase::default());
        let h = w.insert(o.clone(), Filter::DEFAULT, kind, ()).unwrap();
        let m = w.move_shape_with(&s, Vec2::ZERO, u64::MAX, &platformer(), |_, ()| Response::Slide);
        prop_assert_eq!(m.delta, c.normal * c.depth, "{:?}", m);
        prop_assert_eq!(depth(&m.shape, &o), 0.0);
        prop_assert_eq!((m.contacts[0].handle, m.contacts[0].t), (h, 0.0));
    }
}
