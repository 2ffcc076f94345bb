//! The collision world as a Bevy resource, with the entity of every object.

use std::sync::OnceLock;

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::{Entity, Resource};
use collide2d::math::Pose;
use collide2d::{BroadPhase, CollisionWorld, Contact, Filter, Handle, WorldError};

use crate::components::ColliderKind;

/// What the world was last given for one entity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tracked {
    pub(crate) handle: Handle,
    pub(crate) pose: Pose,
    pub(crate) filter: Filter,
    pub(crate) kind: ColliderKind,
}

/// The collision world and its entities: read it through [`CollisionQuery`](crate::CollisionQuery)
/// (or `Res<Collisions>`), which has the queries; [`Collisions::world`] is the collide2d world
/// itself, its object data the entity.
#[derive(Resource)]
pub struct Collisions {
    pub(crate) world: CollisionWorld<Entity>,
    pub(crate) tracked: EntityHashMap<Tracked>,
    /// Objects removed since the last publish, by handle: their ended pairs still name them.
    pub(crate) removed: Vec<(Handle, Entity)>,
    /// Entities whose collider the world refused at the last sync, with why.
    pub(crate) refused: Vec<(Entity, WorldError)>,
    /// Per entity, the places of its pairs in `world.pairs()`; built on first use after an update.
    pub(crate) by_entity: OnceLock<Vec<(Entity, u32)>>,
}

/// One current pair of an entity, seen from that entity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EntityPair {
    /// The other entity.
    pub other: Entity,
    /// Their contact, its normal from the entity asked about towards `other` (`None` when the
    /// plugin computes no contacts).
    pub contact: Option<Contact>,
    /// The time of impact when either is a fast collider ([`collide2d::Pair::toi`]).
    pub toi: Option<f32>,
}

impl Collisions {
    pub(crate) fn new(broad_phase: BroadPhase, contacts: bool) -> Collisions {
        let mut world = CollisionWorld::new(broad_phase);
        world.set_contacts(contacts);
        Collisions {
            world,
            tracked: EntityHashMap::default(),
            removed: Vec::new(),
            refused: Vec::new(),
            by_entity: OnceLock::new(),
        }
    }

    /// The collide2d world: every object's data is its entity.
    #[must_use]
    pub fn world(&self) -> &CollisionWorld<Entity> {
        &self.world
    }

    /// The world's handle of `entity`'s collider, if it is in the world.
    #[must_use]
    pub fn handle(&self, entity: Entity) -> Option<Handle> {
        self.tracked.get(&entity).map(|t| t.handle)
    }

    /// The entity of `handle`: a live object's, or one removed since the last update (whose
    /// ended pairs still name it).
    #[must_use]
    pub fn entity(&self, handle: Handle) -> Option<Entity> {
        self.world.data(handle).ok().copied().or_else(|| {
            let i = self.removed.partition_point(|(h, _)| *h < handle);
            self.removed
                .get(i)
                .filter(|(h, _)| *h == handle)
                .map(|(_, e)| *e)
        })
    }

    /// Entities whose collider the world refused at the last sync (a shape placed at a
    /// non-finite position), with the reason; they are tried again when they change.
    #[must_use]
    pub fn refused(&self) -> &[(Entity, WorldError)] {
        &self.refused
    }

    /// Every colliding pair of the last update, its entities in the order of [`Entity`]'s
    /// `Ord`, the pairs in the world's (handle) order.
    pub fn pairs(&self) -> impl Iterator<Item = (Entity, Entity)> + '_ {
        self.world
            .pairs()
            .iter()
            .filter_map(|p| self.ordered(p.a, p.b))
    }

    /// The current pairs of `entity` (as of the last update), in the order of the other
    /// entity.
    #[must_use]
    pub fn pairs_of(&self, entity: Entity) -> Vec<EntityPair> {
        let index = self.by_entity.get_or_init(|| self.index_pairs());
        let start = index.partition_point(|(e, _)| *e < entity);
        let contacts = self.world.contacts();
        let mut out: Vec<EntityPair> = index[start..]
            .iter()
            .take_while(|(e, _)| *e == entity)
            .filter_map(|&(_, i)| {
                let pair = self.world.pairs()[i as usize];
                let (a, b) = (self.entity(pair.a)?, self.entity(pair.b)?);
                let contact = contacts.get(i as usize).copied();
                Some(if a == entity {
                    EntityPair {
                        other: b,
                        contact,
                        toi: pair.toi,
                    }
                } else {
                    EntityPair {
                        other: a,
                        contact: contact.map(Contact::flipped),
                        toi: pair.toi,
                    }
                })
            })
            .collect();
        out.sort_by_key(|p| p.other);
        out
    }

    /// Whether `a` and `b` collided at the last update.
    #[must_use]
    pub fn colliding(&self, a: Entity, b: Entity) -> bool {
        self.pairs_of(a).iter().any(|p| p.other == b)
    }

    /// `(entity, place in pairs())` for both sides of every pair, by entity.
    fn index_pairs(&self) -> Vec<(Entity, u32)> {
        let mut index = Vec::with_capacity(self.world.pairs().len() * 2);
        for (i, pair) in self.world.pairs().iter().enumerate() {
            for h in [pair.a, pair.b] {
                if let Some(e) = self.entity(h) {
                    index.push((e, i as u32));
                }
            }
        }
        index.sort_unstable();
        index
    }

    /// The entities of two handles, the lesser first.
    pub(crate) fn ordered(&self, a: Handle, b: Handle) -> Option<(Entity, Entity)> {
        let (a, b) = (self.entity(a)?, self.entity(b)?);
        Some(if a < b { (a, b) } else { (b, a) })
    }
}
