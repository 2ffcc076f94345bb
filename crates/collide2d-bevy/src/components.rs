//! The components an entity carries to be in the collision world.

use bevy_ecs::prelude::Component;
use bevy_transform::components::Transform;
use collide2d::{Filter, ObjectKind, Response, Shape};

/// A collider: a collide2d [`Shape`] in the entity's local frame, placed each frame by the
/// entity's [`GlobalTransform`](bevy_transform::components::GlobalTransform) (translation and
/// rotation about z; see the crate docs for scale).
///
/// Changing it (through `Mut<Collider>`) replaces the object's shape at the next sync;
/// removing it, or despawning the entity, removes the object. It requires a `Transform` (the
/// identity unless given).
#[derive(Component, Clone, Debug, PartialEq)]
#[require(Transform)]
// The plugin reads this column's ticks only in tables where one changed (see `sync`).
#[component(summary_tick)]
pub struct Collider {
    /// The shape, with the entity's origin at `(0, 0)`.
    pub shape: Shape,
}

impl Collider {
    /// A collider of `shape`, given in the entity's local frame.
    #[must_use]
    pub fn new(shape: impl Into<Shape>) -> Collider {
        Collider {
            shape: shape.into(),
        }
    }
}

/// The collider's layers (the bits it belongs to) and mask (the layers it collides with), as
/// a collide2d [`Filter`]. Without it a collider has [`Filter::DEFAULT`] (layer 1, every
/// mask).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[component(summary_tick)]
pub struct CollisionLayers(pub Filter);

impl CollisionLayers {
    /// Layers from a layer and a mask.
    #[must_use]
    pub const fn new(layer: u64, mask: u64) -> CollisionLayers {
        CollisionLayers(Filter::new(layer, mask))
    }
}

/// How the collider moves, read when it enters the world and whenever it changes. Without it
/// a collider is [`ColliderKind::Dynamic`].
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[component(summary_tick)]
pub enum ColliderKind {
    /// Moves (or may): tested where it is at each update against every collider its layers
    /// accept.
    #[default]
    Dynamic,
    /// Level geometry: never tested against another static collider, and what
    /// [`Character`](crate::Character)s move against.
    Static,
    /// A bullet: swept from where it was at the previous update to where it is now (a straight
    /// line), so it cannot pass through anything between two frames. Its pairs carry the time
    /// of impact. A change of rotation is swept too, turning at a steady rate about the
    /// collider's origin; a change of its shape is a teleport, not swept.
    Fast,
}

impl From<ColliderKind> for ObjectKind {
    fn from(kind: ColliderKind) -> ObjectKind {
        match kind {
            ColliderKind::Dynamic => ObjectKind::Dynamic,
            ColliderKind::Static => ObjectKind::Static,
            ColliderKind::Fast => ObjectKind::Fast,
        }
    }
}

/// A sensor (a pick-up, a trigger zone): it collides and is reported like any collider, but
/// a [`Character`](crate::Character) passes through it ([`Response::Cross`]) unless it also
/// has a [`MoveResponse`]. collide2d solves nothing, so this is the only difference.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sensor;

/// How a [`Character`](crate::Character) meeting this static collider responds
/// ([`Response::Slide`] without it, or [`Response::Cross`] for a [`Sensor`]).
/// `MoveResponse(Response::OneWay { up: Vec2::Y })` makes a platform solid from above only.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct MoveResponse(pub Response);
