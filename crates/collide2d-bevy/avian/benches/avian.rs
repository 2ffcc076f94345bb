//! The collide2d plugin beside avian2d 0.8 doing the same detection-only job, in the same run
//! (a benchmark, not a test): `cargo bench -p collide2d-bevy-avian [FRAMES] [WORD]` from the
//! plugin's directory (WORD picks the scenes whose name has it, e.g. `static`).
//!
//! Both apps are `MinimalPlugins` and `TransformPlugin` moving the same entities' `Transform`s
//! (the scenes of the plugin's `overhead` bench), each frame a fixed 1/60 s:
//! - `plugin`: `CollidePlugin` (contacts off: the colliding pairs and their messages);
//! - `avian2d`: `PhysicsPlugins` run in `PostUpdate` (once per frame, as the plugin), every
//!   collider a `Sensor` (found and reported, no contact constraints, nothing for the solver to
//!   do), moving bodies `Kinematic` (placed by their `Transform`, no forces), tiles `Static`,
//!   no gravity; the same layers as `CollisionLayers`.
//!
//! Times are medians of the thread's CPU time per frame (both run on one thread: no
//! `multi_threaded` Bevy, no `parallel` avian2d). The Bevy app alone (moving the transforms,
//! no collision) is timed too, so each library's own cost is its time less that one.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

#[path = "../../benches/common/mod.rs"]
mod common;

use std::time::Duration;

use avian2d::prelude::{
    Collider, CollisionLayers, ContactGraph, Gravity, PhysicsPlugins, RigidBody, Sensor,
};
use bevy::time::TimeUpdateStrategy;
use bevy::MinimalPlugins;
use bevy_app::{App, PostUpdate, Update};
use bevy_transform::components::Transform;
use bevy_transform::TransformPlugin;
use collide2d::{BroadPhase, ObjectKind, Shape};
use common::{app, bullets, median_ms, move_bodies, tiles_and_movers, Args, Body, Velocity};

/// avian2d's collider for a scene's shape (the scenes use centred circles and boxes only).
fn avian_collider(shape: &Shape) -> Collider {
    match shape {
        Shape::Circle(c) => Collider::circle(c.radius()),
        Shape::Aabb(b) => {
            let size = b.size();
            Collider::rectangle(size.x, size.y)
        }
        other => panic!("the scenes have no {other:?}"),
    }
}

/// Median milliseconds of a frame of the avian2d app, and its touching pairs at the end.
fn avian_app(bodies: &[Body], frames: usize) -> (f64, usize) {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        PhysicsPlugins::new(PostUpdate),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    .insert_resource(Gravity::ZERO)
    .add_systems(Update, move_bodies);
    app.finish();
    app.cleanup();
    for b in bodies {
        let layers = CollisionLayers::new(b.filter.layer as u32, b.filter.mask as u32);
        let body = if b.kind == ObjectKind::Static {
            RigidBody::Static
        } else {
            RigidBody::Kinematic
        };
        let mut e = app.world_mut().spawn((
            avian_collider(&b.local),
            Sensor,
            body,
            layers,
            Transform::from_translation(b.at.extend(0.0)),
        ));
        if b.velocity != collide2d::math::Vec2::ZERO {
            e.insert(Velocity(b.velocity));
        }
    }
    // One frame before the measured ones, as the plugin's app, so the movers end at the same
    // places and the pair counts compare. avian2d's first frames have no time step (it skips
    // them): `median_ms`'s unmeasured frames step past them.
    app.update();
    let ms = median_ms(frames, || app.update());
    let graph = app.world().resource::<ContactGraph>();
    let pairs = graph.iter_active_touching().count() + graph.iter_sleeping_touching().count();
    (ms, pairs)
}

/// A scene's bodies, built when it runs.
type Scene = fn() -> Vec<Body>;

fn scene(name: &str, bodies: &[Body], broad: BroadPhase, frames: usize) {
    let (bevy, _) = app(bodies, broad, false, frames);
    let (plugin, plugin_pairs) = app(bodies, broad, true, frames);
    let (avian, avian_pairs) = avian_app(bodies, frames);
    let (ours, theirs) = (plugin - bevy, avian - bevy);
    println!(
        "{name}: bevy alone {bevy:.3} ms; with the plugin {plugin:.3} ms ({plugin_pairs} pairs), cost {ours:.3} ms; with avian2d {avian:.3} ms ({avian_pairs} pairs), cost {theirs:.3} ms; avian2d / plugin: frame {:.2}x, cost {:.2}x",
        avian / plugin,
        theirs / ours
    );
}

fn main() {
    let args = Args::read(40);
    let frames = args.frames;
    let grid = BroadPhase::grid(4.0).unwrap();
    let scenes: [(&str, Scene); 3] = [
        ("20,000 bullets + 200 targets", || bullets(20_000, 200)),
        ("1,000 movers alone", || tiles_and_movers(0, 1_000)),
        ("100,000 static + 1,000 movers", || {
            tiles_and_movers(100_000, 1_000)
        }),
    ];
    for (name, bodies) in scenes {
        if args.wants(name) {
            scene(name, &bodies(), grid, frames);
        }
    }
}
