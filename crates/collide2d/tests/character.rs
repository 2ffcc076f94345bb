//! `CollisionWorld::move_shape_with`, feature by feature: dynamic obstacles, depenetration,
//! moving platforms, slopes, steps, snapping and the ground reported. The whole course is
//! `course.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, CollisionWorld, ConvexPolygon, Filter, Handle, MoveSettings, Movement,
    ObjectKind, Obstacles, Response, Shape,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into()
}

fn add(w: &mut CollisionWorld<Response>, s: Shape, kind: ObjectKind) -> Handle {
    w.insert(s, Filter::DEFAULT, kind, Response::Slide).unwrap()
}

/// A floor of unit tiles from `x = 0` to `n`, tops at `y = 0`.
fn floor(n: i32) -> CollisionWorld<Response> {
    let mut w = CollisionWorld::new(BroadPhase::default());
    for i in 0..n {
        add(
            &mut w,
            rect(i as f32, -1.0, i as f32 + 1.0, 0.0),
            ObjectKind::Static,
        );
    }
    w
}

fn go(w: &CollisionWorld<Response>, s: &Shape, m: Vec2, settings: &MoveSettings) -> Movement {
    w.move_shape_with(s, m, u64::MAX, settings, |_, r| *r)
}

/// Issue 21's report: a platform rising from top 10 to top 18 into a player standing on it
/// left the player embedded (a `t = 0` contact and no push-out). Given the platform's motion,
/// the player is carried up.
#[test]
fn rising_platform_carries_the_player_up() {
    let mut w = CollisionWorld::new(BroadPhase::default());
    let platform = add(&mut w, rect(0.0, 0.0, 40.0, 10.0), ObjectKind::Dynamic);
    let player = rect(8.0, 10.0, 9.0, 12.0);
    w.set_shape(platform, rect(0.0, 8.0, 40.0, 18.0)).unwrap();
    let gravity = v(0.5, -0.25);
    // Today's call: still embedded.
    let old = w.move_shape(&player, gravity, u64::MAX, |_, r| *r);
    assert!(old.shape.aabb().min().y < 18.0, "{old:?}");
    let platforms = [(platform, v(0.0, 8.0))];
    let carried = MoveSettings {
        platforms: &platforms,
        ..MoveSettings::default()
    };
    let m = go(&w, &player, gravity, &carried);
    assert_eq!(m.shape, rect(8.5, 18.0, 9.5, 20.0), "{m:?}");
    assert_eq!(m.ground.map(|g| g.handle), Some(platform), "{m:?}");
}

/// The same platform rising by a frame's step (1) and not declared: depenetration pushes the
/// player out the shortest way (up), reported as a contact at `t = 0` out of the platform.
#[test]
fn rising_platform_undeclared_pushes_the_player_out() {
    let mut w = CollisionWorld::new(BroadPhase::default());
    let platform = add(&mut w, rect(0.0, 0.0, 40.0, 10.0), ObjectKind::Dynamic);
    let player = rect(8.0, 10.0, 9.0, 12.0);
    w.set_shape(platform, rect(0.0, 1.0, 40.0, 11.0)).unwrap();
    let pushed = MoveSettings {
        obstacles: Obstacles::All,
        depenetrate: true,
        ..MoveSettings::default()
    };
    let m = go(&w, &player, v(0.5, -0.25), &pushed);
    assert_eq!(m.shape, rect(8.5, 11.0, 9.5, 13.0), "{m:?}");
    assert_eq!(m.ground.map(|g| g.handle), Some(platform), "{m:?}");
    assert_eq!((m.contacts[0].handle, m.contacts[0].t), (platform, 0.0));
    assert_eq!(m.contacts[0].normal, Vec2::Y);
}

#[test]
fn dynamic_obstacles_block_when_asked_and_the_mover_never_meets_itself() {
    let mut w = floor(20);
    let crate_ = add(&mut w, rect(6.0, 0.0, 7.0, 1.0), ObjectKind::Dynamic);
    let player = rect(2.0, 0.0, 3.0, 2.0);
    let me = add(&mut w, player.clone(), ObjectKind::Dynamic);
    let run = v(8.0, -0.5);
    assert_eq!(
        go(&w, &player, run, &MoveSettings::default()).delta,
        v(8.0, 0.0)
    );
    let all = MoveSettings {
        obstacles: Obstacles::All,
        ignore: Some(me),
        ..MoveSettings::default()
    };
    let m = go(&w, &player, run, &all);
    assert_eq!(m.delta, v(3.0, 0.0));
    assert_eq!(m.contacts.last().map(|c| c.handle), Some(crate_));
    // The respond callback still lets objects through.
    let m = w.move_shape_with(&player, run, u64::MAX, &all, |h, r| {
        if h == crate_ {
            Response::Cross
        } else {
            *r
        }
    });
    assert_eq!(m.delta, v(8.0, 0.0));
}

#[test]
fn a_door_closed_on_the_player_pushes_it_out_sideways() {
    let mut w = floor(20);
    let door = add(&mut w, rect(5.0, 0.0, 5.5, 3.0), ObjectKind::Dynamic);
    let settings = MoveSettings {
        obstacles: Obstacles::All,
        depenetrate: true,
        ..MoveSettings::default()
    };
    // Mostly left of the door: out to the left, then runs into it.
    let m = go(&w, &rect(4.25, 0.0, 5.25, 2.0), v(1.0, -0.5), &settings);
    assert_eq!(m.shape, rect(4.0, 0.0, 5.0, 2.0), "{m:?}");
    assert_eq!(
        (m.contacts[0].handle, m.contacts[0].normal),
        (door, -Vec2::X)
    );
    // Mostly right of it: out to the right, and on.
    let m = go(&w, &rect(5.25, 0.0, 6.25, 2.0), v(1.0, -0.5), &settings);
    assert_eq!(m.shape, rect(6.5, 0.0, 7.5, 2.0), "{m:?}");
}

#[test]
fn a_platform_moving_sideways_carries_its_rider_and_pushes_who_is_in_its_way() {
    let mut w = floor(40);
    let lift = add(&mut w, rect(10.0, 3.0, 14.0, 3.5), ObjectKind::Dynamic);
    let wall_rider = rect(11.0, 3.5, 12.0, 5.5);
    let walker = rect(17.5, 0.0, 18.5, 2.0);
    let low = add(&mut w, rect(15.0, 0.0, 17.0, 1.0), ObjectKind::Dynamic);
    w.move_by(lift, v(2.0, 0.0)).unwrap();
    w.move_by(low, v(1.0, 0.0)).unwrap();
    let platforms = [(lift, v(2.0, 0.0)), (low, v(1.0, 0.0))];
    let s = MoveSettings {
        platforms: &platforms,
        ..MoveSettings::default()
    };
    let m = go(&w, &wall_rider, v(0.25, -0.5), &s);
    assert_eq!(m.shape, rect(13.25, 3.5, 14.25, 5.5), "{m:?}");
    assert_eq!(m.ground.map(|g| g.handle), Some(lift));
    // The low block moved 1 to the right; the walker was 0.5 from it: pushed by 0.5.
    let m = go(&w, &walker, v(0.0, -0.5), &s);
    assert_eq!(m.shape, rect(18.0, 0.0, 19.0, 2.0), "{m:?}");
    assert_eq!((m.contacts[0].handle, m.contacts[0].normal), (low, Vec2::X));
    // A descending platform keeps its rider on it.
    w.move_by(lift, v(0.0, -1.0)).unwrap();
    let down = [(lift, v(0.0, -1.0))];
    let s = MoveSettings {
        platforms: &down,
        ..MoveSettings::default()
    };
    let rider = rect(13.0, 3.5, 14.0, 5.5);
    let m = go(&w, &rider, v(0.0, -0.25), &s);
    assert_eq!(m.shape, rect(13.0, 2.5, 14.0, 4.5), "{m:?}");
}

/// A ramp rising `rise` over `run` from `x0` on the floor, then a plateau to `x0 + run + 4`.
fn ramp(w: &mut CollisionWorld<Response>, x0: f32, run: f32, rise: f32) {
    let tri = [v(x0, 0.0), v(x0 + run, 0.0), v(x0 + run, rise)];
    add(
        w,
        ConvexPolygon::new(&tri).unwrap().into(),
        ObjectKind::Static,
    );
    add(
        w,
        rect(x0 + run, 0.0, x0 + run + 4.0, rise),
        ObjectKind::Static,
    );
}

#[test]
fn gentle_slopes_are_climbed_and_steep_ones_are_walls() {
    let limit = MoveSettings {
        max_slope: 45f32.to_radians(),
        ..MoveSettings::default()
    };
    let player = rect(2.0, 0.0, 3.0, 2.0);
    let run = v(6.0, -0.25);
    let mut gentle = floor(30);
    ramp(&mut gentle, 4.0, 4.0, 2.0); // about 27 degrees
                                      // Up the ramp and over its crest, in the air along the slope's line; with snapping,
                                      // down onto the plateau.
    let m = go(&gentle, &player, v(9.0, -0.25), &limit);
    let b = m.shape.aabb();
    assert!(b.min().y > 2.0 && b.max().x > 10.0, "{m:?}");
    assert_eq!(
        m.contacts[1].normal,
        v(-1.0, 2.0).normalize(),
        "the ramp's, not its toe's"
    );
    let snap = MoveSettings {
        snap_to_ground: 2.0,
        ..limit
    };
    let m = go(&gentle, &player, v(9.0, -0.25), &snap);
    assert_eq!(m.shape.aabb().min().y, 2.0, "{m:?}");
    assert!(m.ground.is_some_and(|g| g.normal == Vec2::Y), "{m:?}");
    let mut steep = floor(30);
    ramp(&mut steep, 4.0, 1.0, 2.0); // about 63 degrees
    let m = go(&steep, &player, run, &limit);
    assert!(m.shape.aabb().min().y.abs() < 1e-4, "not climbed: {m:?}");
    assert!(m.shape.aabb().max().x <= 4.0 + 1e-4, "{m:?}");
    // Walkable under a higher limit: climbed.
    let climber = MoveSettings {
        max_slope: 70f32.to_radians(),
        ..MoveSettings::default()
    };
    let m = go(&steep, &player, run, &climber);
    assert!(m.shape.aabb().min().y > 0.5, "{m:?}");
}

#[test]
fn steps_up_to_the_height_given_and_only_with_head_room() {
    let mut w = floor(30);
    for k in 0..4 {
        let x = 5.0 + k as f32;
        add(
            &mut w,
            rect(x, 0.0, x + 1.0, 0.25 * (k + 1) as f32),
            ObjectKind::Static,
        );
    }
    add(&mut w, rect(9.0, 0.0, 20.0, 1.0), ObjectKind::Static);
    let stairs = MoveSettings {
        step_height: 0.3,
        ..MoveSettings::default()
    };
    let player = rect(2.0, 0.0, 2.75, 1.5);
    let mut s = player.clone();
    for _ in 0..30 {
        s = go(&w, &s, v(0.5, -0.25), &stairs).shape;
    }
    assert_eq!(s.aabb().min().y, 1.0, "{s:?}");
    // Too high a step: blocked by the first stair.
    let low = MoveSettings {
        step_height: 0.2,
        ..MoveSettings::default()
    };
    let m = go(&w, &player, v(5.0, -0.25), &low);
    assert_eq!(m.shape, rect(4.25, 0.0, 5.0, 1.5), "{m:?}");
    // A ceiling right above the player: no room to step.
    add(&mut w, rect(0.0, 1.5, 5.5, 2.0), ObjectKind::Static);
    let m = go(&w, &player, v(5.0, -0.25), &stairs);
    assert_eq!(m.shape, rect(4.25, 0.0, 5.0, 1.5), "{m:?}");
}

#[test]
fn snapping_keeps_a_runner_on_slopes_and_small_steps_down() {
    let mut w = floor(40);
    let down = [v(10.0, 2.0), v(10.0, 0.0), v(16.0, 0.0)];
    add(
        &mut w,
        ConvexPolygon::new(&down).unwrap().into(),
        ObjectKind::Static,
    );
    add(&mut w, rect(4.0, 0.0, 10.0, 2.0), ObjectKind::Static);
    let snap = MoveSettings {
        snap_to_ground: 0.5,
        ..MoveSettings::default()
    };
    for (settings, stays) in [(snap, true), (MoveSettings::default(), false)] {
        let mut s = rect(8.0, 2.0, 9.0, 4.0);
        let mut grounded = 0;
        for _ in 0..16 {
            let m = go(&w, &s, v(0.5, -0.05), &settings);
            grounded += usize::from(m.ground.is_some());
            s = m.shape;
        }
        assert_eq!(grounded == 16, stays, "{grounded} of 16 frames grounded");
    }
    // Jumping is never snapped.
    let m = go(&w, &rect(5.0, 2.0, 6.0, 4.0), v(0.5, 0.1), &snap);
    assert_eq!(m.delta, v(0.5, 0.1));
    assert_eq!(m.ground, None);
}

#[test]
fn bad_settings_never_panic_and_turn_their_feature_off() {
    let mut w = floor(20);
    let lift = add(&mut w, rect(5.0, 0.0, 8.0, 1.0), ObjectKind::Dynamic);
    let player = rect(1.0, 0.0, 2.0, 2.0);
    let platforms = [(lift, v(f32::NAN, 1.0)), (lift, v(f32::INFINITY, 0.0))];
    for bad in [f32::NAN, f32::INFINITY, -1.0] {
        let s = MoveSettings {
            up: v(bad, 1.0),
            max_slope: bad,
            step_height: bad,
            snap_to_ground: bad,
            platforms: &platforms,
            ..MoveSettings::default()
        };
        let m = go(&w, &player, v(2.0, -0.5), &s);
        assert_eq!(m.delta, v(2.0, 0.0), "{bad}: {m:?}");
    }
}

#[test]
fn default_settings_are_move_shape() {
    let mut w = floor(20);
    add(&mut w, rect(8.0, 0.0, 9.0, 3.0), ObjectKind::Static);
    add(&mut w, rect(4.0, 0.0, 5.0, 0.5), ObjectKind::Dynamic);
    let player = rect(1.0, 2.0, 2.0, 4.0);
    for motion in [v(10.0, -5.0), v(-3.0, 0.0), v(2.0, 7.0)] {
        let a = w.move_shape(&player, motion, u64::MAX, |_, r| *r);
        let b = go(&w, &player, motion, &MoveSettings::default());
        // move_shape does not look for the ground: all else is the same.
        assert_eq!(a.ground, None);
        assert_eq!(a, Movement { ground: None, ..b });
    }
}
