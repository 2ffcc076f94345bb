//! A platformer on the plugin: a `Character` runs on flush tiles (no snag on their seams),
//! jumps up through one-way platforms and lands on them, stops at a wall, and is sent back to
//! the start by a moving hazard (a `CollisionStarted` message); the coins are sensors it runs
//! through. Arrows or A/D run, Space jumps, G toggles the collision overlay.
//!
//! `cargo run --release --features examples --example platformer`

mod common;

use bevy::prelude::*;
use collide2d::{Aabb, Response};
use collide2d_bevy::{
    Character, CharacterState, CollidePlugin, Collider, ColliderKind, CollisionStarted,
    DebugDrawConfig, MoveResponse, Sensor,
};

const TILE: f32 = 32.0;
const START: Vec2 = Vec2::new(-300.0, -100.0);
const GRAVITY: f32 = -1400.0;

#[derive(Component)]
struct Player {
    vertical: f32,
}
#[derive(Component)]
struct Hazard {
    from: Vec2,
    to: Vec2,
}
#[derive(Component)]
struct Coin;

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "collide2d platformer (G: overlay)".into(),
                resolution: (800, 600).into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins(CollidePlugin::default())
        .insert_resource(DebugDrawConfig {
            enabled: true,
            ..default()
        })
        .add_plugins(common::ExitAfterFrames)
        .add_systems(Startup, setup)
        .add_systems(Update, (control, patrol, touch, overlay_key))
        .run();
}

fn block(x: f32, y: f32, w: f32, h: f32) -> Result<(Collider, Sprite, Transform)> {
    let shape = Aabb::from_rect(-w / 2.0, -h / 2.0, w, h)?;
    Ok((
        Collider::new(shape),
        Sprite::from_color(Color::srgb(0.45, 0.45, 0.5), Vec2::new(w, h)),
        Transform::from_xyz(x + w / 2.0, y + h / 2.0, 0.0),
    ))
}

fn setup(mut commands: Commands) -> Result {
    commands.spawn(Camera2d);
    // The floor: flush tiles, and a wall on the right.
    for i in -12..12 {
        commands.spawn((
            block(i as f32 * TILE, -200.0, TILE, TILE)?,
            ColliderKind::Static,
        ));
    }
    commands.spawn((
        block(320.0, -168.0, TILE, 5.0 * TILE)?,
        ColliderKind::Static,
    ));
    // One-way platforms: solid from above only.
    for (x, y) in [(-200.0, -90.0), (-40.0, -20.0), (120.0, 50.0)] {
        let (collider, mut sprite, transform) = block(x, y, 3.0 * TILE, 8.0)?;
        sprite.color = Color::srgb(0.3, 0.7, 0.4);
        commands.spawn((
            collider,
            sprite,
            transform,
            ColliderKind::Static,
            MoveResponse(Response::OneWay { up: Vec2::Y }),
        ));
    }
    // Coins: sensors the player runs through.
    for x in [-150.0, 10.0, 170.0] {
        let (collider, mut sprite, transform) = block(x, -150.0, 12.0, 12.0)?;
        sprite.color = Color::srgb(1.0, 0.85, 0.2);
        commands.spawn((
            collider,
            sprite,
            transform,
            ColliderKind::Static,
            Sensor,
            Coin,
        ));
    }
    // A hazard gliding to and fro over the floor.
    let (collider, mut sprite, transform) = block(0.0, -168.0, 24.0, 24.0)?;
    sprite.color = Color::srgb(0.9, 0.2, 0.2);
    commands.spawn((
        collider,
        sprite,
        transform,
        Hazard {
            from: Vec2::new(-100.0, -156.0),
            to: Vec2::new(260.0, -156.0),
        },
    ));
    let (collider, mut sprite, _) = block(0.0, 0.0, 20.0, 30.0)?;
    sprite.color = Color::srgb(0.3, 0.8, 1.0);
    commands.spawn((
        collider,
        sprite,
        Transform::from_translation(START.extend(1.0)),
        Character::default(),
        Player { vertical: 0.0 },
    ));
    Ok(())
}

fn control(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut players: Query<(&mut Character, &CharacterState, &mut Player)>,
) {
    let dt = time.delta_secs();
    for (mut character, state, mut player) in &mut players {
        if state.grounded || state.ceiling {
            player.vertical = player.vertical.clamp(-60.0, 0.0);
        }
        if state.grounded && keys.just_pressed(KeyCode::Space) {
            player.vertical = 620.0;
        }
        player.vertical += GRAVITY * dt;
        let left = keys.any_pressed([KeyCode::ArrowLeft, KeyCode::KeyA]);
        let right = keys.any_pressed([KeyCode::ArrowRight, KeyCode::KeyD]);
        let run = f32::from(u8::from(right)) - f32::from(u8::from(left));
        character.motion = Vec2::new(run * 220.0, player.vertical) * dt;
    }
}

fn patrol(time: Res<Time>, mut hazards: Query<(&mut Transform, &Hazard)>) {
    let s = (time.elapsed_secs() * 0.8).sin() * 0.5 + 0.5;
    for (mut t, h) in &mut hazards {
        t.translation = h.from.lerp(h.to, s).extend(0.5);
    }
}

/// The hazard sends the player back to the start.
fn touch(
    mut started: MessageReader<CollisionStarted>,
    hazards: Query<(), With<Hazard>>,
    mut players: Query<(&mut Transform, &mut Player)>,
) {
    for pair in started.read() {
        for (a, b) in [(pair.a, pair.b), (pair.b, pair.a)] {
            if let (true, Ok((mut t, mut p))) = (hazards.contains(a), players.get_mut(b)) {
                t.translation = START.extend(1.0);
                p.vertical = 0.0;
            }
        }
    }
}

fn overlay_key(keys: Res<ButtonInput<KeyCode>>, mut config: ResMut<DebugDrawConfig>) {
    if keys.just_pressed(KeyCode::KeyG) {
        config.enabled = !config.enabled;
    }
}
