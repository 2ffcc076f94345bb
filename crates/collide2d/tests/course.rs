//! A scripted platformer course walked by `move_shape_with` at several speeds and frame rates:
//! a ramp up and down, stairs up and down, a crate, a lift (a moving platform) up to a ledge of
//! flush tiles, a door that slams shut on the player, one-way platforms landed on from above and jumped
//! through from below, and an end wall. After every frame the player overlaps no solid object
//! (exactly: the player shrunk by 1e-3 intersects none, by the world's exact query), and it
//! lands on each part of the course at the expected height (exactly, for box faces).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use collide2d::math::Vec2;
use collide2d::{
    Aabb, BroadPhase, CollisionWorld, ConvexPolygon, Filter, Handle, MoveSettings, ObjectKind,
    Response, Shape,
};

#[path = "support/character.rs"]
mod character;
use character::platformer;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Shape {
    Aabb::new(v(x0, y0), v(x1, y1)).unwrap().into()
}

/// What a course object is: its response, and where the player is expected to stand.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    Solid,
    Plateau,
    StairTop,
    Crate,
    Lift,
    Ledge,
    Door,
    OneWayA,
    OneWayB,
}

impl Part {
    fn response(self) -> Response {
        match self {
            Part::OneWayA | Part::OneWayB => Response::OneWay { up: Vec2::Y },
            _ => Response::Slide,
        }
    }
}

const LIFT_X: (f32, f32) = (58.0, 62.0);
const DOOR_X: (f32, f32) = (70.0, 70.5);
const END: f32 = 100.0;

/// The lift's top at time `t`: from 0 (flush with the floor) up to 3 (the ledge) and back,
/// every 6 seconds.
fn lift_top(t: f64) -> f32 {
    (1.5 * (1.0 - (t * std::f64::consts::TAU / 6.0).cos())) as f32
}

fn lift(t: f64) -> Shape {
    let top = lift_top(t);
    rect(LIFT_X.0, top - 3.0, LIFT_X.1, top)
}

/// The door: open (above the ledge) or shut (down on it), slamming at once.
fn door(shut: bool) -> Shape {
    let y = if shut { 3.0 } else { 5.0 };
    rect(DOOR_X.0, y, DOOR_X.1, y + 3.0)
}

fn course() -> (CollisionWorld<Part>, Handle, Handle) {
    let mut w = CollisionWorld::new(BroadPhase::default());
    let mut add = |s: Shape, kind, part| w.insert(s, Filter::DEFAULT, kind, part).unwrap();
    let stat = ObjectKind::Static;
    for i in 0..(END as i32 + 2) {
        let x = i as f32;
        if !(LIFT_X.0..LIFT_X.1).contains(&x) {
            add(rect(x, -1.0, x + 1.0, 0.0), stat, Part::Solid);
        }
    }
    let tri = |p: [(f32, f32); 3]| -> Shape {
        ConvexPolygon::new(&p.map(|(x, y)| v(x, y))).unwrap().into()
    };
    add(
        tri([(10.0, 0.0), (14.0, 0.0), (14.0, 2.0)]),
        stat,
        Part::Solid,
    );
    add(rect(14.0, 0.0, 20.0, 2.0), stat, Part::Plateau);
    add(
        tri([(20.0, 0.0), (24.0, 0.0), (20.0, 2.0)]),
        stat,
        Part::Solid,
    );
    for k in 0..4 {
        let (x0, x1, top) = (28.0 + k as f32, 40.0 - k as f32, 0.25 * (k + 1) as f32);
        let part = if k == 3 { Part::StairTop } else { Part::Solid };
        add(rect(x0, 0.0, x1, top), stat, part);
    }
    add(rect(44.0, 0.0, 45.0, 0.5), ObjectKind::Dynamic, Part::Crate);
    let lift_handle = add(lift(0.0), ObjectKind::Dynamic, Part::Lift);
    add(rect(62.0, 0.0, 75.0, 2.0), stat, Part::Solid);
    for i in 62..75 {
        add(rect(i as f32, 2.0, i as f32 + 1.0, 3.0), stat, Part::Ledge);
    }
    let door_handle = add(door(false), ObjectKind::Dynamic, Part::Door);
    add(rect(75.0, 1.25, 84.0, 1.5), stat, Part::OneWayA);
    add(rect(87.5, 2.25, 96.0, 2.5), stat, Part::OneWayB);
    add(rect(END, 0.0, END + 1.0, 10.0), stat, Part::Solid);
    (w, lift_handle, door_handle)
}

const GRAVITY: f32 = -30.0;
const JUMP: f32 = 13.0;
const PLAYER: Vec2 = Vec2::new(0.75, 1.5);

/// What a walk saw: the parts stood on with the player's height there, how often the door
/// pushed the player out, and where it ended.
struct Walk {
    stood: Vec<(Part, f32)>,
    door_pushes: usize,
    end: Aabb,
}

/// Walks the course at `speed` units a second and `fps` frames a second. The door slams shut
/// on the player the first time it passes under it, and opens again a second later.
fn walk(speed: f32, fps: u32) -> Walk {
    let (mut w, lift_handle, door_handle) = course();
    let settings = platformer();
    let dt = 1.0 / fps as f32;
    let mut at = v(2.0, 0.0); // bottom-left corner
    let (mut vy, mut grounded, mut jumped) = (0.0f32, true, false);
    let (mut stood, mut door_pushes, mut shut_at) = (Vec::new(), 0, None);
    for frame in 1..=(60 * fps) {
        let t = f64::from(frame) / f64::from(fps);
        let before = lift_top(t - 1.0 / f64::from(fps));
        w.set_shape(lift_handle, lift(t)).unwrap();
        let under_door = at.x + PLAYER.x > DOOR_X.0 && at.x < DOOR_X.1;
        if shut_at.is_none() && under_door {
            shut_at = Some(t);
        }
        let shut = shut_at.is_some_and(|s| t < s + 1.0);
        w.set_shape(door_handle, door(shut)).unwrap();
        let platforms = [(lift_handle, v(0.0, lift_top(t) - before))];
        let settings = MoveSettings {
            platforms: &platforms,
            ..settings
        };
        if grounded {
            vy = 0.0;
            if !jumped && at.x >= 87.0 && at.y == 0.0 {
                (vy, jumped) = (JUMP, true);
            }
        }
        vy = (vy + GRAVITY * dt).max(-25.0);
        let player = rect(at.x, at.y, at.x + PLAYER.x, at.y + PLAYER.y);
        let m = w.move_shape_with(&player, v(speed, vy) * dt, u64::MAX, &settings, |_, p| {
            p.response()
        });
        let b = m.shape.aabb();
        at = b.min();
        if m.contacts.iter().any(|c| c.normal.y < -0.7) {
            vy = vy.min(0.0);
        }
        grounded = m.ground.is_some();
        if let Some(g) = m.ground {
            stood.push((*w.data(g.handle).unwrap(), at.y));
        }
        // No overlap: the player shrunk by 1e-3 meets no solid object (exact query).
        let inner = Aabb::new(b.min() + 1e-3, b.max() - 1e-3).unwrap().into();
        for h in w.objects_overlapping(&inner, u64::MAX) {
            let part = *w.data(h).unwrap();
            assert!(
                matches!(part, Part::OneWayA | Part::OneWayB),
                "speed {speed}, {fps} fps, frame {frame}: overlaps {part:?} {:?}: {m:?}",
                w.shape(h).unwrap()
            );
        }
        let pushed_out = |c: &&collide2d::MoveContact| c.t == 0.0 && c.normal.y == 0.0;
        let door_contacts = m.contacts.iter().filter(|c| c.handle == door_handle);
        door_pushes += door_contacts.filter(pushed_out).count();
        if b.max().x == END && grounded {
            return Walk {
                stood,
                door_pushes,
                end: b,
            };
        }
    }
    panic!("speed {speed}, {fps} fps: never reached the end; at {at}");
}

#[test]
fn the_course_is_walked_at_every_speed_and_frame_rate() {
    for (speed, fps) in [
        (3.0, 30),
        (3.0, 144),
        (6.0, 60),
        (12.0, 30),
        (12.0, 60),
        (12.0, 144),
    ] {
        let Walk {
            stood,
            door_pushes,
            end,
        } = walk(speed, fps);
        let what = format!("speed {speed}, {fps} fps");
        let on = |part: Part, y: f32| stood.iter().any(|&(p, h)| p == part && h == y);
        assert!(on(Part::Plateau, 2.0), "{what}: plateau");
        assert!(on(Part::StairTop, 1.0), "{what}: stairs");
        assert!(on(Part::Crate, 0.5), "{what}: crate");
        assert!(
            stood.iter().any(|&(p, h)| p == Part::Lift && h > 1.0),
            "{what}: rode the lift"
        );
        assert!(on(Part::Ledge, 3.0), "{what}: ledge");
        assert!(door_pushes > 0, "{what}: the door slammed on the player");
        assert!(
            on(Part::OneWayA, 1.5),
            "{what}: landed on the first one-way platform"
        );
        assert!(
            on(Part::OneWayB, 2.5),
            "{what}: jumped through and onto the second"
        );
        assert_eq!((end.max().x, end.min().y), (END, 0.0), "{what}");
    }
}
