//! A playable bullet-hell on the plugin: arrow keys move the ship, it fires by itself; rotated
//! enemies spin and fire rings of bullets (thousands on screen, every one a fast collider:
//! swept, never tunnelling); hits flash. G toggles the collision overlay (outlines red when
//! colliding, contact normals), B adds the broad phase to it.
//!
//! `cargo run --release --features examples --example shmup`

mod common;

use bevy::prelude::*;
use collide2d::{Aabb, BroadPhase, Circle};
use collide2d_bevy::{
    CollidePlugin, Collider, ColliderKind, CollisionLayers, CollisionStarted, DebugDrawConfig,
};

const PLAYER: u64 = 1;
const ENEMY: u64 = 2;
const PLAYER_SHOT: u64 = 4;
const ENEMY_SHOT: u64 = 8;
const HALF: Vec2 = Vec2::new(400.0, 300.0);

#[derive(Component)]
struct Velocity(Vec2);
#[derive(Component)]
struct Ship;
#[derive(Component)]
struct Enemy {
    spin: f32,
    phase: f32,
}
#[derive(Component)]
struct Flash {
    left: f32,
    colour: Color,
}
/// Every shot's collider (a disc of radius 3), built once.
#[derive(Resource)]
struct ShotShape(Collider);
#[derive(Resource, Default)]
struct Score {
    hits: u32,
    taken: u32,
}

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "collide2d shmup".into(),
                resolution: (800, 600).into(),
                ..default()
            }),
            ..default()
        }))
        .add_plugins(CollidePlugin {
            broad_phase: BroadPhase::grid(8.0).unwrap_or_default(),
            contacts: true,
        })
        .init_resource::<Score>()
        .add_plugins(common::ExitAfterFrames)
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                steer,
                fire,
                enemies_fire,
                fly,
                hits,
                flash,
                overlay_keys,
                title,
            ),
        )
        .run();
}

fn rect(w: f32, h: f32) -> Result<Collider> {
    Ok(Collider::new(Aabb::from_rect(-w / 2.0, -h / 2.0, w, h)?))
}

fn setup(mut commands: Commands) -> Result {
    commands.spawn(Camera2d);
    commands.spawn((
        Ship,
        Sprite::from_color(Color::srgb(0.3, 0.8, 1.0), Vec2::new(16.0, 24.0)),
        Transform::from_xyz(0.0, -240.0, 1.0),
        rect(16.0, 24.0)?,
        CollisionLayers::new(PLAYER, ENEMY | ENEMY_SHOT),
    ));
    for i in 0..6 {
        let x = -250.0 + i as f32 * 100.0;
        commands.spawn((
            Enemy {
                spin: 0.6 + 0.2 * i as f32,
                phase: i as f32 * 0.37,
            },
            Sprite::from_color(Color::srgb(1.0, 0.5, 0.2), Vec2::new(40.0, 20.0)),
            Transform::from_xyz(x, 180.0, 1.0),
            rect(40.0, 20.0)?,
            CollisionLayers::new(ENEMY, PLAYER | PLAYER_SHOT),
        ));
    }
    commands.insert_resource(ShotShape(Collider::new(Circle::new(Vec2::ZERO, 3.0)?)));
    Ok(())
}

fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    mut ship: Query<&mut Transform, With<Ship>>,
) {
    let mut dir = Vec2::ZERO;
    for (key, d) in [
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
    ] {
        if keys.pressed(key) {
            dir += d;
        }
    }
    for mut t in &mut ship {
        let at = t.translation.truncate() + dir * 260.0 * time.delta_secs();
        t.translation = at.clamp(-HALF, HALF).extend(1.0);
    }
}

fn shot(
    commands: &mut Commands,
    shape: &ShotShape,
    at: Vec2,
    velocity: Vec2,
    layers: CollisionLayers,
    colour: Color,
) {
    commands.spawn((
        Velocity(velocity),
        Sprite::from_color(colour, Vec2::splat(6.0)),
        Transform::from_translation(at.extend(0.0)),
        shape.0.clone(),
        layers,
        ColliderKind::Fast,
    ));
}

fn fire(
    mut commands: Commands,
    shape: Res<ShotShape>,
    time: Res<Time>,
    mut wait: Local<f32>,
    ship: Query<&Transform, With<Ship>>,
) {
    *wait -= time.delta_secs();
    if *wait > 0.0 {
        return;
    }
    *wait = 0.08;
    for t in &ship {
        let layers = CollisionLayers::new(PLAYER_SHOT, ENEMY);
        shot(
            &mut commands,
            &shape,
            t.translation.truncate(),
            Vec2::new(0.0, 900.0),
            layers,
            Color::WHITE,
        );
    }
}

fn enemies_fire(
    mut commands: Commands,
    shape: Res<ShotShape>,
    time: Res<Time>,
    mut enemies: Query<(&mut Transform, &mut Enemy)>,
) {
    for (mut t, mut enemy) in &mut enemies {
        t.rotate_z(enemy.spin * time.delta_secs());
        enemy.phase += time.delta_secs();
        if enemy.phase < 0.5 {
            continue;
        }
        enemy.phase = 0.0;
        let layers = CollisionLayers::new(ENEMY_SHOT, PLAYER);
        let turn = t.rotation.to_euler(EulerRot::XYZ).2;
        for k in 0..24 {
            let angle = turn + k as f32 * std::f32::consts::TAU / 24.0;
            let velocity = Vec2::from_angle(angle) * 160.0;
            shot(
                &mut commands,
                &shape,
                t.translation.truncate(),
                velocity,
                layers,
                Color::srgb(1.0, 0.3, 0.6),
            );
        }
    }
}

fn fly(
    mut commands: Commands,
    time: Res<Time>,
    mut shots: Query<(Entity, &mut Transform, &Velocity)>,
) {
    for (e, mut t, v) in &mut shots {
        t.translation += (v.0 * time.delta_secs()).extend(0.0);
        if t.translation.truncate().abs().cmpgt(HALF + 20.0).any() {
            commands.entity(e).despawn();
        }
    }
}

/// Shots that hit vanish; what they hit flashes.
fn hits(
    mut commands: Commands,
    mut started: MessageReader<CollisionStarted>,
    shots: Query<(), With<Velocity>>,
    ships: Query<(), With<Ship>>,
    mut score: ResMut<Score>,
) {
    for pair in started.read() {
        for (shot, target) in [(pair.a, pair.b), (pair.b, pair.a)] {
            if shots.contains(shot) && !shots.contains(target) {
                commands.entity(shot).try_despawn();
                let colour = if ships.contains(target) {
                    score.taken += 1;
                    Color::srgb(1.0, 0.1, 0.1)
                } else {
                    score.hits += 1;
                    Color::WHITE
                };
                commands
                    .entity(target)
                    .try_insert(Flash { left: 0.08, colour });
            }
        }
    }
}

fn flash(
    time: Res<Time>,
    mut commands: Commands,
    mut flashing: Query<(Entity, &mut Flash, &mut Sprite, Has<Ship>)>,
) {
    for (e, mut f, mut sprite, ship) in &mut flashing {
        f.left -= time.delta_secs();
        sprite.color = if f.left > 0.0 {
            f.colour
        } else {
            commands.entity(e).remove::<Flash>();
            if ship {
                Color::srgb(0.3, 0.8, 1.0)
            } else {
                Color::srgb(1.0, 0.5, 0.2)
            }
        };
    }
}

fn overlay_keys(keys: Res<ButtonInput<KeyCode>>, mut config: ResMut<DebugDrawConfig>) {
    if keys.just_pressed(KeyCode::KeyG) {
        config.enabled = !config.enabled;
    }
    if keys.just_pressed(KeyCode::KeyB) {
        config.options.broad_phase = !config.options.broad_phase;
    }
}

fn title(score: Res<Score>, shots: Query<(), With<Velocity>>, mut windows: Query<&mut Window>) {
    for mut window in &mut windows {
        window.title = format!(
            "collide2d shmup: {} shots, {} hits, {} taken (G: overlay)",
            shots.iter().count(),
            score.hits,
            score.taken
        );
    }
}
