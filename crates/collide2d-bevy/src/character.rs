//! Characters moved through the static colliders with `move_shape`.

use bevy_ecs::prelude::*;
use bevy_transform::components::{GlobalTransform, Transform};
use collide2d::math::Vec2;
use collide2d::Response;

use crate::collisions::Collisions;
use crate::components::{Collider, MoveResponse, Sensor};
use crate::sync::pose_of;

/// An entity moved each frame by [`motion`](Character::motion) through the static colliders
/// in `mask`, as [`collide2d::CollisionWorld::move_shape`]: each static collider met responds
/// with its [`MoveResponse`] ([`Response::Slide`] without one, [`Response::Cross`] for a
/// [`Sensor`]). Its own [`Collider`] (a box or a capsule, placed by its `GlobalTransform`) is
/// the shape moved; the move is added to its `Transform`'s translation (so the entity should
/// have no parent, or an unrotated, unscaled one), and what happened is in its
/// [`CharacterState`]. Runs in [`CollideSystems::Move`](crate::CollideSystems::Move).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(CharacterState)]
pub struct Character {
    /// The motion wanted this frame, in world units; the move consumes it (sets it to zero).
    pub motion: Vec2,
    /// The layers of the static colliders it moves against.
    pub mask: u64,
    /// Which way is up, unit length: a contact whose normal is within `max_slope_cos` of it
    /// is ground, within it of down is ceiling, any other is wall.
    pub up: Vec2,
    /// The cosine of the steepest slope that still counts as ground (0.7: about 45 degrees).
    pub max_slope_cos: f32,
}

impl Default for Character {
    fn default() -> Character {
        Character {
            motion: Vec2::ZERO,
            mask: u64::MAX,
            up: Vec2::Y,
            max_slope_cos: 0.7,
        }
    }
}

/// What a [`Character`]'s last move did.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct CharacterState {
    /// How far it moved.
    pub delta: Vec2,
    /// A blocking contact with ground under it (normal close to `up`).
    pub grounded: bool,
    /// A blocking contact with a wall (a normal neither ground nor ceiling).
    pub wall: bool,
    /// A blocking contact with a ceiling (normal close to `-up`).
    pub ceiling: bool,
    /// Every contact of the move, in the order they happened (crossed sensors too).
    pub contacts: Vec<CharacterContact>,
}

/// One contact of a character's move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterContact {
    /// The entity met.
    pub entity: Entity,
    /// When, as a fraction of the move in `[0, 1]`.
    pub t: f32,
    /// Where, in world coordinates.
    pub point: Vec2,
    /// The surface normal there, out of the entity met towards the character.
    pub normal: Vec2,
    /// The response applied.
    pub response: Response,
}

type Movers = (
    &'static mut Character,
    &'static mut CharacterState,
    &'static Collider,
    &'static GlobalTransform,
    &'static mut Transform,
);

/// Moves every character by its wanted motion.
pub(crate) fn move_characters(
    mut characters: Query<Movers>,
    obstacles: Query<(Option<&MoveResponse>, Has<Sensor>)>,
    collisions: Res<Collisions>,
) {
    for (mut character, mut state, collider, global, mut transform) in &mut characters {
        let shape = collider.shape.transformed(&pose_of(global));
        let respond = |entity| match obstacles.get(entity) {
            Ok((Some(response), _)) => response.0,
            Ok((None, true)) => Response::Cross,
            _ => Response::Slide,
        };
        let moved = collisions.move_shape(&shape, character.motion, character.mask, respond);
        let state = &mut *state;
        state.delta = moved.delta;
        (state.grounded, state.wall, state.ceiling) = (false, false, false);
        state.contacts.clear();
        for contact in &moved.contacts {
            let Some(entity) = collisions.entity(contact.handle) else {
                continue;
            };
            if contact.response != Response::Cross {
                let up = contact.normal.dot(character.up);
                if up >= character.max_slope_cos {
                    state.grounded = true;
                } else if up <= -character.max_slope_cos {
                    state.ceiling = true;
                } else {
                    state.wall = true;
                }
            }
            state.contacts.push(CharacterContact {
                entity,
                t: contact.t,
                point: contact.point,
                normal: contact.normal,
                response: contact.response,
            });
        }
        character.motion = Vec2::ZERO;
        if moved.delta != Vec2::ZERO {
            transform.translation.x += moved.delta.x;
            transform.translation.y += moved.delta.y;
        }
    }
}
