//! The plugin and its system sets.

use bevy_app::{App, Plugin, PostUpdate};
use bevy_ecs::prelude::*;
use bevy_transform::TransformSystems;
use collide2d::BroadPhase;

use crate::collisions::Collisions;
use crate::messages::{publish, update_world, CollisionEnded, CollisionStarted};
use crate::sync::{remove_despawned, sync_changed};

/// Adds the [`Collisions`] resource, the messages and the systems, in [`PostUpdate`] (see
/// [`CollideSystems`]).
#[derive(Clone, Copy, Debug)]
pub struct CollidePlugin {
    /// The world's broad phase: [`BroadPhase::grid`] for many similar small colliders, the
    /// default tree for any mix.
    pub broad_phase: BroadPhase,
    /// Compute each pair's contact (normal, depth, points): for
    /// [`Collisions::pairs_of`] and the debug drawing's normals. On by default.
    pub contacts: bool,
}

impl Default for CollidePlugin {
    fn default() -> CollidePlugin {
        CollidePlugin {
            broad_phase: BroadPhase::default(),
            contacts: true,
        }
    }
}

/// The plugin's systems, in [`PostUpdate`], in this order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollideSystems {
    /// [`Character`](crate::Character)s move and write their `Transform`; before Bevy's
    /// transform propagation ([`TransformSystems::Propagate`]).
    Move,
    /// After propagation: colliders added, changed, moved or removed (and despawned entities)
    /// are brought into the world.
    Sync,
    /// The world's update: the colliding pairs.
    Update,
    /// [`CollisionStarted`] and [`CollisionEnded`] are written.
    Publish,
}

impl Plugin for CollidePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Collisions::new(self.broad_phase, self.contacts))
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .configure_sets(
                PostUpdate,
                CollideSystems::Move.before(TransformSystems::Propagate),
            )
            .configure_sets(
                PostUpdate,
                (
                    CollideSystems::Sync,
                    CollideSystems::Update,
                    CollideSystems::Publish,
                )
                    .chain()
                    .after(TransformSystems::Propagate),
            )
            .add_systems(
                PostUpdate,
                (
                    (remove_despawned, sync_changed)
                        .chain()
                        .in_set(CollideSystems::Sync),
                    update_world.in_set(CollideSystems::Update),
                    publish.in_set(CollideSystems::Publish),
                    crate::character::move_characters.in_set(CollideSystems::Move),
                ),
            );
        #[cfg(feature = "gizmos")]
        crate::gizmos::build(app);
    }
}
