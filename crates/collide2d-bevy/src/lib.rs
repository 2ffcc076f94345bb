//! Collision detection without physics for Bevy: collide2d's [`CollisionWorld`], layers,
//! events and queries as a plugin.
//!
//! Add [`CollidePlugin`], give entities a [`Collider`] (a collide2d [`Shape`] in the entity's
//! local frame; [`CollisionLayers`] and [`ColliderKind`] optional), and read
//! [`CollisionStarted`] / [`CollisionEnded`] messages, or ask [`CollisionQuery`] which entities
//! are at a point, in a region, on a ray or in the way of a moving shape. A [`Character`] moves
//! through the static colliders with `move_shape`'s responses (slide, stop, cross, bounce,
//! one-way) and reports whether it is grounded, against a wall or under a ceiling.
//!
//! ```
//! use bevy_app::prelude::*;
//! use bevy_ecs::prelude::*;
//! use bevy_transform::prelude::*;
//! use collide2d::{math::Vec2, Circle};
//! use collide2d_bevy::{Collider, CollidePlugin, CollisionStarted};
//!
//! let mut app = App::new();
//! app.add_plugins((TransformPlugin, CollidePlugin::default()));
//! let a = app.world_mut().spawn(Collider::new(Circle::new(Vec2::ZERO, 1.0)?)).id();
//! let b = app.world_mut().spawn((Collider::new(Circle::new(Vec2::ZERO, 1.0)?), Transform::from_xyz(2.0, 0.0, 0.0))).id();
//! app.update(); // touching counts
//! let started: Vec<_> = app.world_mut().resource_mut::<Messages<CollisionStarted>>().drain().collect();
//! // The lesser entity first (by `Entity`'s `Ord`, which is not the order of spawning).
//! assert_eq!(started, [CollisionStarted { a: a.min(b), b: a.max(b) }]);
//! # Ok::<(), collide2d::ShapeError>(())
//! ```
//!
//! # Schedule
//! Everything runs in [`PostUpdate`](bevy_app::PostUpdate), in the sets of [`CollideSystems`]:
//! [`Move`](CollideSystems::Move) (characters) before Bevy's transform propagation
//! ([`TransformSystems::Propagate`]), then, after it, [`Sync`](CollideSystems::Sync) (changed
//! transforms and colliders into the world), [`Update`](CollideSystems::Update) (the pairs)
//! and [`Publish`](CollideSystems::Publish) (the messages). Game logic in `Update` sees the
//! pairs and messages of the previous frame's positions, and its moves are in the world by the
//! end of the frame.
//!
//! # Poses
//! The entity's [`GlobalTransform`] places the shape: its translation's x and y, and its
//! rotation about z (the direction its x axis points to in the plane). Scale is not applied (a
//! shape is not scaled: change the [`Collider`] to resize), and a rotation about other axes
//! counts only through where it turns the x axis. Only entities whose transform, collider,
//! layers or kind changed are synced. Which ones changed is read from Bevy's change ticks a
//! table at a time, a block of unmoved colliders passed over in about one instruction each,
//! so a scene of many static tiles costs little more than its movers; a static collider
//! moved by its `Transform` (or its parent's), changed in place or despawned is still brought
//! into the world at the next sync. The world keeps each collider's local shape and places it by the pose
//! ([`CollisionWorld::set_pose`](collide2d::CollisionWorld::set_pose)): moving or turning a
//! collider writes its shape in place, with no allocation.
//!
//! # Headless apps
//! The placing pose is the [`GlobalTransform`], which Bevy's `TransformPlugin` computes from
//! `Transform` (and the parents'). `DefaultPlugins` has it; `MinimalPlugins` does not, so a
//! headless app (a server, a test) adds it: `(MinimalPlugins, TransformPlugin,
//! CollidePlugin::default())`. Without it every collider stays at the origin.
//!
//! [`TransformSystems::Propagate`]: bevy_transform::TransformSystems::Propagate
//! [`GlobalTransform`]: bevy_transform::components::GlobalTransform

mod character;
mod collisions;
mod components;
#[cfg(feature = "gizmos")]
mod gizmos;
mod messages;
mod plugin;
mod query;
mod sync;

pub use character::{Character, CharacterContact, CharacterState};
pub use collisions::{Collisions, EntityPair};
pub use components::{Collider, ColliderKind, CollisionLayers, MoveResponse, Sensor};
#[cfg(feature = "gizmos")]
pub use gizmos::{CollisionGizmos, DebugDrawConfig};
pub use messages::{CollisionEnded, CollisionStarted};
pub use plugin::{CollidePlugin, CollideSystems};
pub use query::CollisionQuery;
pub use sync::pose_of;

pub use collide2d;
pub use collide2d::{Filter, Response, Shape};
