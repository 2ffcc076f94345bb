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
    mut keys: Local<Vec<u128>>,
    mut started: MessageWriter<CollisionStarted>,
    mut ended: MessageWriter<CollisionEnded>,
) {
    started.write_batch(
        sorted(&collisions, collisions.world.began(), &mut keys)
            .map(|(a, b)| CollisionStarted { a, b }),
    );
    ended.write_batch(
        sorted(&collisions, collisions.world.ended(), &mut keys)
            .map(|(a, b)| CollisionEnded { a, b }),
    );
}

/// The entities of the pairs of `list`, each the lesser first, sorted. Sorted as keys of both
/// entities' bits (`Entity`'s order is that of [`Entity::to_bits`]): a `u128` compares in two
/// instructions, a pair of entities in a dozen (the sort was most of this system's cost). The
/// keys live in `keys`, kept from frame to frame.
fn sorted<'k>(
    collisions: &Collisions,
    list: &[(collide2d::Handle, collide2d::Handle)],
    keys: &'k mut Vec<u128>,
) -> impl Iterator<Item = (Entity, Entity)> + 'k {
    keys.clear();
    keys.extend(
        list.iter()
            .filter_map(|&(a, b)| collisions.ordered(a, b))
            .map(|(a, b)| (u128::from(a.to_bits()) << 64) | u128::from(b.to_bits())),
    );
    keys.sort_unstable();
    keys.iter().map(|&k| {
        (
            Entity::from_bits((k >> 64) as u64),
            Entity::from_bits(k as u64),
        )
    })
}
