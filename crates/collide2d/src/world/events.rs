//! Pairs and events between two layers, each side with its object's data, in the caller's
//! order: `pairs_between(PLAYER, BULLET)` gives `(player, bullet)` whichever handle is lower.
//! The lists are the caller's own (copies), so objects can be removed while going through them.

use super::{CollisionWorld, Handle};
use alloc::vec::Vec;

/// One object of a pair or event from [`CollisionWorld::pairs_between`] and its siblings: its
/// handle and a copy of its data, `None` when the object was removed (its pair ended with the
/// removal, or it was removed since the update).
#[derive(Clone, Debug, PartialEq)]
pub struct Side<T> {
    /// The object.
    pub handle: Handle,
    /// Its data, `None` once it is removed.
    pub data: Option<T>,
}

impl<T: Clone> CollisionWorld<T> {
    /// The colliding pairs of the last [`update`](Self::update) between an object whose layer
    /// is in `first` and one whose layer is in `second`, as `(first's, second's)` with their
    /// data, in the order of [`pairs`](Self::pairs). A pair whose objects fit both ways round
    /// keeps its handle order. The list is a copy: remove objects while going through it.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// const PLAYER: u64 = 1;
    /// const BULLET: u64 = 2;
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// let disc = |x: f32| Circle::new(Vec2::new(x, 0.0), 1.0).map(Into::into);
    /// for x in [1.5, 30.0] {
    ///     world.insert(disc(x)?, Filter::new(BULLET, PLAYER), ObjectKind::Dynamic, "bullet")?;
    /// }
    /// world.insert(disc(0.0)?, Filter::new(PLAYER, BULLET), ObjectKind::Dynamic, "player")?;
    /// world.update();
    /// for (player, bullet) in world.pairs_between(PLAYER, BULLET) {
    ///     assert_eq!((player.data, bullet.data), (Some("player"), Some("bullet")));
    ///     world.remove(bullet.handle)?; // the list is ours: no borrow of the world
    /// }
    /// assert_eq!(world.len(), 2);
    /// world.update();
    /// let ended = world.ended_between(PLAYER, BULLET);
    /// assert_eq!((ended[0].0.data, ended[0].1.data), (Some("player"), None)); // removed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn pairs_between(&self, first: u64, second: u64) -> Vec<(Side<T>, Side<T>)> {
        let pairs = self.pairs.iter().map(|p| (p.a, p.b));
        self.between(pairs, first, second)
    }

    /// The pairs that began colliding at the last update, as
    /// [`pairs_between`](Self::pairs_between) gives them, in the order of
    /// [`began`](Self::began).
    #[must_use]
    pub fn began_between(&self, first: u64, second: u64) -> Vec<(Side<T>, Side<T>)> {
        self.between(self.began.iter().copied(), first, second)
    }

    /// The pairs that stopped colliding at the last update, as
    /// [`pairs_between`](Self::pairs_between) gives them, in the order of
    /// [`ended`](Self::ended). An object removed before that update (or since) is still
    /// sorted by the layer it had, and its side's data is `None`: never a panic or an error.
    #[must_use]
    pub fn ended_between(&self, first: u64, second: u64) -> Vec<(Side<T>, Side<T>)> {
        self.between(self.ended.iter().copied(), first, second)
    }

    fn between(
        &self,
        pairs: impl Iterator<Item = (Handle, Handle)>,
        first: u64,
        second: u64,
    ) -> Vec<(Side<T>, Side<T>)> {
        let side = |handle: Handle| Side {
            handle,
            data: self.data(handle).ok().cloned(),
        };
        pairs
            .filter_map(|(a, b)| {
                let (la, lb) = (self.layer_of(a)?, self.layer_of(b)?);
                if la & first != 0 && lb & second != 0 {
                    Some((side(a), side(b)))
                } else if lb & first != 0 && la & second != 0 {
                    Some((side(b), side(a)))
                } else {
                    None
                }
            })
            .collect()
    }
}

impl<T> CollisionWorld<T> {
    /// The layer of a live object, or of one removed before the last update or since.
    fn layer_of(&self, handle: Handle) -> Option<u64> {
        if let Ok(filter) = self.filter(handle) {
            return Some(filter.layer);
        }
        if let Ok(at) = self.gone.binary_search_by_key(&handle, |&(h, _)| h) {
            return Some(self.gone[at].1);
        }
        // Removed since the update (a short list, in no order).
        self.removed
            .iter()
            .find(|&&(h, _)| h == handle)
            .map(|&(_, layer)| layer)
    }
}

#[cfg(test)]
mod tests {
    use crate::math::Vec2;
    use crate::{BroadPhase, Circle, CollisionWorld, Filter, ObjectKind, Shape};
    use alloc::vec::Vec;

    const PLAYER: u64 = 1;
    const BULLET: u64 = 2;
    const WALL: u64 = 4;

    fn disc(x: f32) -> Shape {
        Circle::new_unchecked(Vec2::new(x, 0.0), 1.0).into()
    }

    #[test]
    fn pairs_come_in_the_callers_layer_order_with_data_even_after_removals() {
        let mut world = CollisionWorld::new(BroadPhase::grid(4.0).unwrap());
        let mut add = |x: f32, layer: u64, data: &'static str| {
            let filter = Filter::new(layer, u64::MAX);
            world
                .insert(disc(x), filter, ObjectKind::Dynamic, data)
                .unwrap()
        };
        // Bullets get lower handles than the player they hit, and one touches the wall only.
        let b1 = add(-1.5, BULLET, "b1");
        let b2 = add(1.5, BULLET, "b2");
        let player = add(0.0, PLAYER, "p");
        let wall = add(3.0, WALL, "w");
        let both = add(-3.0, PLAYER | BULLET, "both");
        world.update();
        let sides = |list: Vec<(super::Side<&'static str>, super::Side<&'static str>)>| {
            let key = |s: &super::Side<&'static str>| (s.handle, s.data);
            list.iter()
                .map(|(x, y)| (key(x), key(y)))
                .collect::<Vec<_>>()
        };
        // (both, b1) are in handle order as (b1, both); `both` fits both ways round.
        assert_eq!(
            sides(world.pairs_between(PLAYER, BULLET)),
            [
                ((player, Some("p")), (b1, Some("b1"))),
                ((both, Some("both")), (b1, Some("b1"))),
                ((player, Some("p")), (b2, Some("b2"))),
            ]
        );
        assert_eq!(world.pairs_between(BULLET, PLAYER)[0].0.handle, b1);
        assert_eq!(world.began_between(WALL, BULLET)[0].0.handle, wall);
        assert!(world.pairs_between(WALL, PLAYER).is_empty());
        // Removing while going through the list.
        for (_, bullet) in world.pairs_between(PLAYER, BULLET) {
            let _ = world.remove(bullet.handle);
        }
        // Before the next update, the removed side has no data (the handle is stale).
        let began = world.began_between(WALL, BULLET);
        assert_eq!(began[0].1.handle, b2);
        assert_eq!(began[0].1.data, None);
        world.update();
        // Their pairs end, sorted by the layers they had; no panic, no error.
        assert_eq!(
            sides(world.ended_between(PLAYER, BULLET)),
            [
                ((player, Some("p")), (b1, None)),
                ((both, Some("both")), (b1, None)),
                ((player, Some("p")), (b2, None)),
            ]
        );
        assert_eq!(
            sides(world.ended_between(BULLET, WALL)),
            [((b2, None), (wall, Some("w")))]
        );
        // Old removals are forgotten by the update after: only the last update's remain.
        world.update();
        assert!(world.ended_between(u64::MAX, u64::MAX).is_empty());
    }
}
