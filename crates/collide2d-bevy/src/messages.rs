//! The messages (buffered events) for pairs that began and ended.

use bevy_ecs::prelude::*;

use crate::collisions::Collisions;

/// Two colliders began colliding at this frame's update. `a < b` (by [`Entity`]'s `Ord`), and
/// a frame's messages are sorted by `(a, b)`: the same on every run.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionStarted {
    /// The lesser entity.
    pub a: Entity,
    /// The greater entity.
    pub b: Entity,
}

/// Two colliders stopped colliding at this frame's update, or one of them was removed or
/// despawned (then its entity may no longer exist). Ordered as [`CollisionStarted`].
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CollisionEnded {
    /// The lesser entity.
    pub a: Entity,
    /// The greater entity.
    pub b: Entity,
}

macro_rules! pair_helpers {
    ($t:ty) => {
        impl $t {
            /// The other entity of the pair, if `entity` is one of the two.
            #[must_use]
            pub fn other(&self, entity: Entity) -> Option<Entity> {
                if entity == self.a {
                    Some(self.b)
                } else if entity == self.b {
                    Some(self.a)
                } else {
                    None
                }
            }
        }
    };
}
pair_helpers!(CollisionStarted);
pair_helpers!(CollisionEnded);

/// Runs the world's update.
pub(crate) fn update_world(mut collisions: ResMut<Collisions>) {
    collisions.world.update();
    collisions.by_entity.take();
}

/// Writes the messages of the last update, sorted.
pub(crate) fn publish(
    collisions: Res<Collisions>,
    mut started: MessageWriter<CollisionStarted>,
    mut ended: MessageWriter<CollisionEnded>,
) {
    let sorted = |list: &[(collide2d::Handle, collide2d::Handle)]| {
        let mut pairs: Vec<(Entity, Entity)> = list
            .iter()
            .filter_map(|&(a, b)| collisions.ordered(a, b))
            .collect();
        pairs.sort_unstable();
        pairs
    };
    started.write_batch(
        sorted(collisions.world.began())
            .into_iter()
            .map(|(a, b)| CollisionStarted { a, b }),
    );
    ended.write_batch(
        sorted(collisions.world.ended())
            .into_iter()
            .map(|(a, b)| CollisionEnded { a, b }),
    );
}
