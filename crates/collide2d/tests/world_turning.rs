//! Fast objects that turn between updates (`CollisionWorld::set_pose`) are swept with their
//! turn, not teleported: a spinning blade meets a thin wall it passes through between two
//! updates, at the time of the rotating cast; turns add up over several poses; the first pose
//! places without a sweep; fast objects placed without a turn keep the translation casts, bit
//! for bit; and on random spins, no pair the sampled motion shows is missed, nor reported early.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::{Pose, Vec2};
use collide2d::{
    cast_shapes, cast_shapes_rotating, contact, intersects, Aabb, BroadPhase, Circle,
    CollisionWorld, ConvexPolygon, Filter, Handle, ObjectKind, Shape, Sweep,
};

mod support;
use support::scenes::{broad_phases, Rng};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A bar `length` long and 0.2 thick along x, from `from` to `from + length`.
fn bar(from: f32, length: f32) -> Shape {
    let (x0, x1) = (from, from + length);
    let points = [v(x0, -0.1), v(x1, -0.1), v(x1, 0.1), v(x0, 0.1)];
    ConvexPolygon::new(&points).unwrap().into()
}

fn boxed(min: Vec2, max: Vec2) -> Shape {
    Aabb::new(min, max).unwrap().into()
}

/// A world with `wall` static and `blade` fast, posed at `first` and updated once (no pair).
fn spinner(
    broad: BroadPhase,
    wall: &Shape,
    blade: &Shape,
    first: Pose,
) -> (CollisionWorld, Handle) {
    let mut world = CollisionWorld::new(broad);
    world
        .insert(wall.clone(), Filter::DEFAULT, ObjectKind::Static, ())
        .unwrap();
    let h = world
        .insert(blade.clone(), Filter::DEFAULT, ObjectKind::Fast, ())
        .unwrap();
    world.set_pose(h, first).unwrap();
    world.update();
    assert!(world.pairs().is_empty());
    (world, h)
}

/// The time of impact of the only pair, if any.
fn only_toi(world: &CollisionWorld) -> Option<f32> {
    match world.pairs() {
        [] => None,
        [pair] => Some(pair.toi.expect("a fast pair has a time of impact")),
        more => panic!("{} pairs", more.len()),
    }
}

#[test]
fn a_blade_spinning_through_a_thin_wall_between_updates_hits_it() {
    let wall = boxed(v(2.0, 2.0), v(2.05, 3.0));
    let blade = bar(-4.0, 8.0);
    for (name, broad) in broad_phases() {
        let (mut world, h) = spinner(broad, &wall, &blade, Pose::new(v(0.0, 0.0), 0.0));
        world.set_pose(h, Pose::new(v(0.0, 0.0), 1.2)).unwrap();
        // Apart at both ends: a teleport would miss it.
        assert!(!intersects(&world.shape(h).unwrap(), &wall), "{name}");
        world.update();
        let toi = only_toi(&world).unwrap_or_else(|| panic!("{name}: passed through"));
        // The same time as the rotating cast of the same motion.
        let sweep = Sweep::new(Vec2::ZERO, 1.2, Vec2::ZERO);
        let still = Sweep::translation(Vec2::ZERO);
        let cast = cast_shapes_rotating(&blade, sweep, &wall, still).unwrap();
        assert!((toi - cast.t).abs() < 1e-5, "{name}: {toi} {}", cast.t);
        // The wall's corner (2, 2) is at 45 degrees: the blade's leading edge gets there a
        // little before.
        assert!(toi > 0.55 && toi < 0.6545, "{name}: {toi}");
        // The motion is used up: still there, the next update finds no pair.
        world.update();
        assert!(world.pairs().is_empty(), "{name}");
    }
}

#[test]
fn a_tip_sweeping_past_both_end_boxes_is_found_by_the_broad_phase() {
    // Turning from -0.5 to 0.5 rad, the tip reaches x = 4 on the way, beyond both end boxes
    // (x up to 3.56): the swept box must cover the arc.
    let wall = boxed(v(3.8, -0.05), v(3.85, 0.05));
    let blade = bar(-4.0, 8.0);
    for (name, broad) in broad_phases() {
        let (mut world, h) = spinner(broad, &wall, &blade, Pose::new(v(0.0, 0.0), -0.5));
        world.set_pose(h, Pose::new(v(0.0, 0.0), 0.5)).unwrap();
        let ends = world.shape(h).unwrap().aabb();
        assert!(ends.max().x < 3.6, "{name}");
        world.update();
        let toi = only_toi(&world).unwrap_or_else(|| panic!("{name}: passed through"));
        assert!(toi > 0.3 && toi < 0.5, "{name}: {toi}");
    }
}

#[test]
fn turns_add_up_over_several_poses_between_updates() {
    // A one-sided blade turning 4 rad in four poses of 1 rad: a coin at 3.5 rad is met on the
    // way, though no pose touches it, and a turn of 4 - 2 pi the other way would not meet it.
    let blade = bar(0.0, 4.0);
    let at = Vec2::from_angle(3.5) * 3.0;
    let coin: Shape = Circle::new(at, 0.1).unwrap().into();
    for (name, broad) in broad_phases() {
        let (mut world, h) = spinner(broad, &coin, &blade, Pose::new(v(0.0, 0.0), 0.0));
        for k in 1..=4 {
            world.set_pose(h, Pose::new(v(0.0, 0.0), k as f32)).unwrap();
            assert!(!intersects(&world.shape(h).unwrap(), &coin), "{name} {k}");
        }
        world.update();
        let toi = only_toi(&world).unwrap_or_else(|| panic!("{name}: passed through"));
        assert!(toi > 0.83 && toi < 0.875, "{name}: {toi}");
    }
}

#[test]
fn moves_between_poses_carry_the_pivot_across_updates() {
    // Posed at the origin, then moved by 5 (with an update in between), then posed at x = 10
    // turning a quarter turn: the turn is about the origin as it was after the move, x = 5.
    let blade = bar(-4.0, 8.0);
    // Halfway, turned 0.75 rad about (7.5, 0), the blade crosses (9.7, 2.05).
    let post = boxed(v(9.6, 1.95), v(9.8, 2.15));
    for (name, broad) in broad_phases() {
        let (mut world, h) = spinner(broad, &post, &blade, Pose::new(v(0.0, 0.0), 0.0));
        world.move_by(h, v(5.0, 0.0)).unwrap();
        world.update();
        assert!(world.pairs().is_empty(), "{name}");
        let start = world.shape(h).unwrap().into_owned();
        world.set_pose(h, Pose::new(v(10.0, 0.0), 1.5)).unwrap();
        world.update();
        let turn = Pose::new(Vec2::ZERO, 1.5).angle();
        let sweep = Sweep::new(v(5.0, 0.0), turn, v(5.0, 0.0));
        let still = Sweep::translation(Vec2::ZERO);
        let want = cast_shapes_rotating(&start, sweep, &post, still).map(|hit| hit.t);
        assert!(want.is_some(), "{name}: the reference misses");
        let got = only_toi(&world);
        assert!(
            got.zip(want).is_some_and(|(g, w)| (g - w).abs() < 1e-5),
            "{name}: {got:?} {want:?}"
        );
    }
}

#[test]
fn the_first_pose_teleports_and_poses_without_a_turn_cast_as_move_by_does() {
    let wall = boxed(v(10.0, -5.0), v(10.5, 5.0));
    let disc: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
    let square = boxed(v(-1.0, -1.0), v(1.0, 1.0));
    for (name, broad) in broad_phases() {
        for local in [&disc, &square, &bar(-1.0, 2.0)] {
            // Inserted about the origin, first posed past the wall: placed, not swept.
            let (world, _) = spinner(broad, &wall, local, Pose::new(v(20.0, 0.0), 0.3));
            assert!(world.pairs().is_empty(), "{name}");
            // Posed across the wall without turning: the same time, bit for bit, as the
            // translation cast, and as `move_by`.
            let start = Pose::new(v(0.0, 0.0), 0.3);
            let mut tois = Vec::new();
            for by_pose in [true, false] {
                let (mut world, h) = spinner(broad, &wall, local, start);
                let placed = world.shape(h).unwrap().into_owned();
                if by_pose {
                    world.set_pose(h, Pose::new(v(20.0, 3.0), 0.3)).unwrap();
                } else {
                    world.move_by(h, v(20.0, 3.0)).unwrap();
                }
                world.update();
                let cast = cast_shapes(&placed, v(20.0, 3.0), &wall, Vec2::ZERO).unwrap();
                tois.push(only_toi(&world));
                assert_eq!(only_toi(&world), Some(cast.t), "{name} {by_pose}");
            }
            assert_eq!(
                tois[0].map(f32::to_bits),
                tois[1].map(f32::to_bits),
                "{name}"
            );
        }
    }
}

/// Where a shape placed at `from` is at time `t` of the world's motion to `to` turning by
/// `turn` (in all, over the poses between): its local origin on the straight line, its angle
/// turned at a steady rate.
fn posed_at(from: Pose, to: Pose, turn: f32, t: f32) -> Pose {
    let position = from.position + (to.position - from.position) * t;
    Pose::new(position, from.angle() + turn * t)
}

#[test]
fn random_spins_miss_no_sampled_contact_and_hit_no_earlier_than_one() {
    let count = std::env::var("COLLIDE2D_SOAK").map_or(60, |_| 2_000);
    let mut rng = Rng(0x5eed_0021);
    let samples = 256;
    for case in 0..count {
        let locals = [
            bar(-3.0, 6.0),
            bar(0.0, 4.0),
            boxed(v(-1.0, -0.5), v(1.5, 0.5)),
        ];
        let local = locals[rng.below(3) as usize].clone();
        let others: Vec<Shape> = (0..4)
            .map(|_| {
                let c = v(rng.f(-6.0, 6.0), rng.f(-6.0, 6.0));
                if rng.below(2) == 0 {
                    Circle::new(c, rng.f(0.05, 0.5)).unwrap().into()
                } else {
                    boxed(c, c + v(rng.f(0.05, 0.3), rng.f(0.05, 2.0)))
                }
            })
            .collect();
        // Posed at `first`, then (half the time) moved by `shift` over an update: the motion
        // starts `from` there. Then posed at `mid`, moved by `nudge` and posed at `to`, turning
        // by `turns[0]` then `turns[1]` (each less than half a turn).
        let first = Pose::new(v(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)), rng.f(-3.0, 3.0));
        let shift = if rng.below(2) == 0 {
            v(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0))
        } else {
            Vec2::ZERO
        };
        let from = Pose {
            position: first.position + shift,
            ..first
        };
        let turns = [rng.f(-3.0, 3.0), rng.f(-3.0, 3.0) * rng.below(2) as f32];
        let mid = Pose::new(
            from.position + v(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)),
            from.angle() + turns[0],
        );
        let nudge = v(rng.f(-1.0, 1.0), rng.f(-1.0, 1.0));
        let turn = turns[0] + turns[1];
        let to = Pose::new(
            mid.position + nudge + v(rng.f(-2.0, 2.0), rng.f(-2.0, 2.0)),
            mid.angle() + turns[1],
        );
        for (name, broad) in broad_phases() {
            let mut world = CollisionWorld::new(broad);
            let handles: Vec<Handle> = others
                .iter()
                .map(|s| {
                    world
                        .insert(s.clone(), Filter::DEFAULT, ObjectKind::Static, ())
                        .unwrap()
                })
                .collect();
            let h = world
                .insert(local.clone(), Filter::DEFAULT, ObjectKind::Fast, ())
                .unwrap();
            world.set_pose(h, first).unwrap();
            world.update();
            if shift != Vec2::ZERO {
                world.move_by(h, shift).unwrap();
                world.update();
            }
            world.set_pose(h, mid).unwrap();
            world.move_by(h, nudge).unwrap();
            world.set_pose(h, to).unwrap();
            world.update();
            for (other, &oh) in others.iter().zip(&handles) {
                let pair = world.pairs().iter().find(|p| p.a == oh || p.b == oh);
                let depth = |t: f32| {
                    let placed = local.transformed(&posed_at(from, to, turn, t));
                    contact(&placed, other).map(|c| c.depth)
                };
                let first_deep = (0..=samples)
                    .map(|k| k as f32 / samples as f32)
                    .find(|&t| depth(t).is_some_and(|d| d > 1e-3));
                match (pair, first_deep) {
                    (None, Some(t)) => panic!("{name} case {case}: missed a contact at {t}"),
                    (Some(p), _) => {
                        let toi = p.toi.unwrap();
                        // Not deep into an overlap before the reported time.
                        let before = (0..=samples)
                            .map(|k| k as f32 / samples as f32)
                            .take_while(|&t| t < toi - 1e-3)
                            .find(|&t| depth(t).is_some_and(|d| d > 1e-3));
                        assert!(before.is_none(), "{name} case {case}: {toi} {before:?}");
                        // And touching (within the cast's tolerance) at it.
                        let near = depth(toi).is_some()
                            || collide2d::closest_points(
                                &local.transformed(&posed_at(from, to, turn, toi)),
                                other,
                            )
                            .is_none_or(|n| n.distance < 1e-3);
                        assert!(near, "{name} case {case}: apart at {toi}");
                    }
                    (None, None) => {}
                }
            }
        }
    }
}
