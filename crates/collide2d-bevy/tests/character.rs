//! A character moved through tiles, a wall, a ceiling, a one-way platform and a sensor, frame
//! by frame, against `move_shape` on a plain world holding the same static objects.
#![allow(clippy::unwrap_used, clippy::panic)]

mod common;

use bevy_math::Vec3;
use bevy_transform::components::Transform;
use collide2d::math::{Pose, Vec2};
use collide2d::{Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response, Shape};
use collide2d_bevy::{Character, CharacterState, Collider, ColliderKind, MoveResponse, Sensor};
use common::app;

fn rect(x: f32, y: f32, w: f32, h: f32) -> Shape {
    Aabb::from_rect(x, y, w, h).unwrap().into()
}

#[test]
fn walks_lands_hits_walls_and_ceilings_like_move_shape() {
    let mut app = app(BroadPhase::default());
    let mut plain: CollisionWorld<Response> = CollisionWorld::new(BroadPhase::default());
    // Floor tiles, a wall at x = 96, a ceiling at y = 64..72 over x 0..48, a one-way platform
    // at y = 24 over x 56..80, and a sensor coin.
    let mut statics: Vec<(Shape, Response, bool)> = (0..8)
        .map(|i| {
            (
                rect(i as f32 * 16.0, -16.0, 16.0, 16.0),
                Response::Slide,
                false,
            )
        })
        .collect();
    statics.push((rect(96.0, 0.0, 16.0, 64.0), Response::Slide, false));
    statics.push((rect(0.0, 64.0, 48.0, 8.0), Response::Slide, false));
    statics.push((
        rect(56.0, 24.0, 24.0, 4.0),
        Response::OneWay { up: Vec2::Y },
        false,
    ));
    statics.push((rect(40.0, 0.0, 4.0, 4.0), Response::Cross, true));
    for (shape, response, sensor) in &statics {
        let mut e = app
            .world_mut()
            .spawn((Collider::new(shape.clone()), ColliderKind::Static));
        if *sensor {
            e.insert(Sensor);
        } else if *response != Response::Slide {
            e.insert(MoveResponse(*response));
        }
        plain
            .insert(
                shape.clone(),
                Filter::DEFAULT,
                ObjectKind::Static,
                *response,
            )
            .unwrap();
    }
    plain.update();
    let body = rect(-4.0, -8.0, 8.0, 16.0);
    let start = Vec2::new(8.0, 40.0);
    let player = app
        .world_mut()
        .spawn((
            Collider::new(body.clone()),
            Transform::from_translation(start.extend(0.0)),
            Character::default(),
        ))
        .id();
    app.update();
    let mut at = start;
    let (mut landed, mut walled, mut ceilinged, mut crossed) = (false, false, false, false);
    let mut on_platform = false;
    // Fall, run right, jump onto the one-way platform, run on into the wall, run left under the
    // ceiling and jump into it.
    for frame in 0..120 {
        let run = if frame < 60 { 3.0 } else { -3.0 };
        let jump = match frame {
            20 => 40.0, // up through the one-way platform, then down onto it
            90 => 60.0, // into the ceiling
            _ => 0.0,
        };
        let motion = Vec2::new(run, jump - 4.0);
        app.world_mut().get_mut::<Character>(player).unwrap().motion = motion;
        app.update();
        let expected = plain.move_shape(
            &body.transformed(&Pose::from_translation(at)),
            motion,
            u64::MAX,
            |_, r| *r,
        );
        at += expected.delta;
        let state = app.world().get::<CharacterState>(player).unwrap();
        assert_eq!(state.delta, expected.delta, "frame {frame}");
        assert_eq!(
            state.contacts.len(),
            expected.contacts.len(),
            "frame {frame}"
        );
        let translation = app.world().get::<Transform>(player).unwrap().translation;
        assert_eq!(translation, Vec3::new(at.x, at.y, 0.0), "frame {frame}");
        assert_eq!(
            app.world().get::<Character>(player).unwrap().motion,
            Vec2::ZERO
        );
        landed |= state.grounded;
        walled |= state.wall;
        ceilinged |= state.ceiling;
        on_platform |= state.grounded && at.y == 36.0; // the platform's top is y = 28
        crossed |= state.contacts.iter().any(|c| c.response == Response::Cross);
        let blocked_below = expected
            .contacts
            .iter()
            .any(|c| c.response != Response::Cross && c.normal.y > 0.7);
        assert_eq!(state.grounded, blocked_below, "frame {frame}");
    }
    assert!(
        landed && walled && ceilinged && crossed && on_platform,
        "{landed} {walled} {ceilinged} {crossed} {on_platform}"
    );
}
