//! [`CollisionWorld::update`]: the broad phase's candidates, the exact narrow phase (a cast for
//! fast objects), the sorted pairs and the began and ended events.

use super::fast::{self, FastMotion};
use super::quick::{self, Quick};
use super::shapes::Shapes;
#[cfg(doc)]
use super::ObjectKind;
use super::{handle_of, CollisionWorld, Handle, Pair, UpdateStats};
use crate::broad::View;
use crate::math::{sqrtf, Vec2};
#[cfg(not(feature = "rayon"))]
use crate::prefetch::prefetch;
use crate::query::{cast_shapes_rotating, contact, intersects, CastHit, Contact, Sweep};
use crate::shape::{Aabb, Shape};
use alloc::borrow::Cow;

impl<T> CollisionWorld<T> {
    /// Finds the colliding pairs of the objects as they are now, and the pairs that began and
    /// ended since the previous update. Results: [`pairs`](Self::pairs),
    /// [`began`](Self::began), [`ended`](Self::ended).
    ///
    /// Static objects are never tested against each other, nor objects whose filters do not
    /// accept each other; neither costs a candidate pair. A pair with a [`ObjectKind::Fast`]
    /// object collides when [`cast_shapes`](crate::query::cast_shapes) finds a hit over the
    /// motion, or [`cast_shapes_rotating`] when a pose turned it (see [`Pair::toi`]); the
    /// motion is then used up. With the `rayon` feature the exact tests run in parallel;
    /// the results are the same.
    ///
    /// At most [`max_pairs`](Self::set_max_pairs) candidate pairs are tested: past that the
    /// search stops and [`UpdateStats::truncated`] is set (the pairs are then a subset, the
    /// same one on every run, and pairs left out count as ended).
    pub fn update(&mut self) -> UpdateStats {
        // Fast objects swept last time and not moved since: back to their tight box.
        let swept = core::mem::take(&mut self.swept);
        for &slot in &swept {
            let s = slot as usize;
            if self.moved(s).is_none() {
                if let Some(shape) = self.shapes.get(s) {
                    self.aabbs[s] = shape.aabb();
                    self.mark(slot);
                }
            }
        }
        self.swept = swept;
        // Fast objects moved since: their boxes swept over their motions (the moves kept them
        // tight), one ulp wider, as the cast goes to `start + motion` unrounded.
        self.moving.sort_unstable();
        self.moving.dedup();
        for &slot in &self.moving {
            let (s, sweep) = (slot as usize, &mut self.sweeps[slot as usize]);
            // Not moving: teleported (or removed) since its first move, or armed and not moved.
            if !sweep.is_moving(self.motions[s]) {
                continue;
            }
            // Armed and moved since (its moves wrote only their motion): its start is its record.
            if sweep.shape == FastMotion::ARMED {
                sweep.shape = FastMotion::RECORD;
            }
            let sweep = &self.sweeps[s];
            if let Some(start) = sweep.start_box(&self.start_shapes) {
                let start = if sweep.angle == 0.0 {
                    start
                } else {
                    turning_box(start, &sweep_of(&self.shapes, slot, sweep, self.motions[s]))
                };
                self.aabbs[s] = start.union(&self.aabbs[s]).outward();
                self.broad.mark(slot);
            }
        }
        let view = View {
            aabbs: &self.aabbs,
            groups: &self.groups,
            table: &self.table,
        };
        // The broad phase replaces the last update's candidates.
        let complete =
            self.broad
                .refreshed_mut(&view)
                .pairs(&view, &mut self.candidates, self.max_pairs);
        self.pair_sort.sort(&mut self.candidates, self.slots.len());
        self.narrow();
        // The motions are used up; the swept boxes stay (conservative) until the next update.
        // A circle or box that moved keeps where it is now as its next start (armed, listed
        // as moving again): its next move, if any, then records nothing.
        core::mem::swap(&mut self.swept, &mut self.moving);
        self.moving.clear();
        if self.fast_posed {
            for &slot in &self.swept {
                if let Some(motion) = self.moved(slot as usize) {
                    self.shapes.use_up_motion(slot as usize, motion);
                }
            }
        }
        let records = self.shapes.records();
        for &slot in &self.swept {
            let sweep = &mut self.sweeps[slot as usize];
            *sweep = if sweep.shape == FastMotion::RECORD {
                self.moving.push(slot);
                self.motions[slot as usize] = fast::UNMOVED;
                FastMotion::armed(records[slot as usize])
            } else {
                FastMotion::NONE
            };
            // The slot may hold another object since (removed, inserted again).
            if self.fast[slot as usize] != fast::NOT_FAST {
                self.fast[slot as usize] = fast::fast_state(sweep, &records[slot as usize]);
            }
        }
        self.start_shapes.clear();

        // The objects removed since the previous update: their pairs end now.
        core::mem::swap(&mut self.gone, &mut self.removed);
        self.gone.sort_unstable_by_key(|&(h, _)| h);
        self.removed.clear();
        // Both lists are sorted: one merge gives the events in order. Mostly the same pairs
        // as last time: compared for equality first, then ordered as two integers each (a
        // handle's order as one `u64`); the tails are pushed once either list ends.
        self.began.clear();
        self.ended.clear();
        let key = |p: &Pair| (p.a.order(), p.b.order());
        let ends = |p: &Pair| (p.a, p.b);
        let bits = |p: &Pair| (p.a.bits(), p.b.bits());
        let (previous, pairs) = (&self.previous[..], &self.pairs[..]);
        let (mut i, mut j) = (0, 0);
        while i < previous.len() && j < pairs.len() {
            // The usual case first, by the handles' bits (two integers): the same pair as
            // last time.
            if bits(&previous[i]) == bits(&pairs[j]) {
                i += 1;
                j += 1;
            } else if key(&previous[i]) < key(&pairs[j]) {
                self.ended.push(ends(&previous[i]));
                i += 1;
            } else {
                self.began.push(ends(&pairs[j]));
                j += 1;
            }
        }
        self.ended.extend(previous[i..].iter().map(ends));
        self.began.extend(pairs[j..].iter().map(ends));
        UpdateStats {
            objects: self.len,
            candidates: self.candidates.len(),
            pairs: self.pairs.len(),
            began: self.began.len(),
            ended: self.ended.len(),
            truncated: !complete,
        }
    }

    /// The exact test of every candidate, in order, the colliding ones into `pairs` (the last
    /// update's into `previous`).
    fn narrow(&mut self) {
        let shapes = &self.shapes;
        let quick = shapes.records();
        let fast = &self.fast;
        let any_fast = self.fast_count > 0;
        let (sweeps, motions) = (&self.sweeps, &self.motions);
        let start_shapes = &self.start_shapes[..];
        let contacts = self.contacts;
        // Where the object in `slot`, now `end`, was at the previous update, and its motion.
        fn start<'a>(
            (sweeps, motions, start_shapes, shapes): (
                &'a [FastMotion],
                &[Vec2],
                &'a [Shape],
                &Shapes,
            ),
            slot: u32,
            end: &'a Shape,
        ) -> Option<(Cow<'a, Shape>, Sweep)> {
            let (sweep, motion) = (&sweeps[slot as usize], motions[slot as usize]);
            if sweep.is_moving(motion) {
                let motion = sweep_of(shapes, slot, sweep, motion);
                Some((sweep.start_shape(start_shapes)?, motion))
            } else {
                Some((Cow::Borrowed(end), Sweep::translation(Vec2::ZERO)))
            }
        }
        let starts = (&sweeps[..], &motions[..], start_shapes, shapes);
        let neither_fast =
            |a: u32, b: u32| !(any_fast && (fast[a as usize] | fast[b as usize]) != fast::NOT_FAST);
        // The usual pair, two circles or boxes and no contact wanted: decided from their 16-byte
        // records (`records`), or `None` for `test`.
        let plain = !contacts && !any_fast;
        let quick_hit = |(a, b): (u32, u32), records: &[Quick; 2]| -> Option<bool> {
            if !plain && (contacts || !neither_fast(a, b)) {
                return None;
            }
            quick::intersects(&records[0], &records[1])
        };
        // The full test of the shapes (a cast over the motion when one is fast).
        let test = |(a, b): (u32, u32)| -> Option<(Option<Contact>, Option<f32>)> {
            let (Some(sa), Some(sb)) = (shapes.get(a as usize), shapes.get(b as usize)) else {
                return None;
            };
            let (sa, sb) = (&*sa, &*sb);
            if !neither_fast(a, b) {
                let ((sa, va), (sb, vb)) = (start(starts, a, sa)?, start(starts, b, sb)?);
                // Without a turn, `cast_shapes` on the translations, bit for bit.
                let hit = cast_shapes_rotating(&sa, va, &sb, vb)?;
                let contact = contacts.then(|| toi_contact(&sa, &sb, &hit));
                Some((contact, Some(hit.t)))
            } else if contacts {
                contact(sa, sb).map(|c| (Some(c), None))
            } else {
                intersects(sa, sb).then_some((None, None))
            }
        };
        let generations = &self.generations[..];
        // The last update's pairs become the previous ones.
        core::mem::swap(&mut self.previous, &mut self.pairs);
        let pairs = &mut self.pairs;
        pairs.clear();
        let pair_contacts = &mut self.pair_contacts;
        pair_contacts.clear();
        // With contacts on, every hit has one. `b`'s generation is read afterwards, in a pass of
        // its own (see below).
        let mut keep = |(a, b): (u32, u32), hit: Option<(Option<Contact>, Option<f32>)>| {
            if let Some((contact, toi)) = hit {
                let b = Handle {
                    index: b,
                    generation: 0,
                };
                pairs.push(Pair {
                    a: handle_of(generations, a),
                    b,
                    toi,
                });
                pair_contacts.extend(contact);
            }
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            self.candidates
                .par_iter()
                .with_min_len(256)
                .map(
                    |&c| match quick_hit(c, &[quick[c.0 as usize], quick[c.1 as usize]]) {
                        Some(hit) => hit.then_some((None, None)),
                        None => test(c),
                    },
                )
                .collect_into_vec(&mut self.hits);
            for (&candidate, &hit) in self.candidates.iter().zip(&self.hits) {
                keep(candidate, hit);
            }
        }
        // One pass, with no list of results in between.
        #[cfg(not(feature = "rayon"))]
        {
            // The records of a chunk first, in a loop with no branch, so many of their cache
            // misses are under way at once; then the tests read them from the chunk (in L1).
            let candidates = &self.candidates[..];
            let mut records = [[Quick::OTHER; 2]; 256];
            // Few candidates among many objects (movers over a large static level): each first
            // object's record and generation are lines of their own, read by nothing else. They
            // are then asked for two chunks early, so they arrive while the chunks between are
            // tested (`generations[a]` is read by `keep`, in the loop with branches).
            let sparse = candidates.len() < self.slots.len() / 8;
            let size = if sparse { SPARSE_CHUNK } else { records.len() };
            for (k, chunk) in candidates.chunks(size).enumerate() {
                for (r, &(a, b)) in records.iter_mut().zip(chunk) {
                    *r = [quick[a as usize], quick[b as usize]];
                }
                if sparse {
                    let next = candidates.get((k + 2) * size..).unwrap_or(&[]);
                    for &(a, _) in next.iter().take(size) {
                        prefetch(&quick[a as usize]);
                        prefetch(&generations[a as usize]);
                    }
                }
                for (&c, records) in chunk.iter().zip(&records) {
                    match quick_hit(c, records) {
                        Some(true) => keep(c, Some((None, None))),
                        Some(false) => {}
                        None => keep(c, test(c)),
                    }
                }
            }
        }
        // The second object's slot is random in memory (the first's is in order): read in a
        // loop with nothing else, so many of these cache misses are under way at once, where in
        // the loop above each held up the tests behind it.
        for p in &mut self.pairs {
            p.b.generation = generations[p.b.index as usize];
        }
    }

    /// The colliding pairs found by the last [`update`](Self::update), sorted by `(a, b)`.
    #[must_use]
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The contact of each pair of [`pairs`](Self::pairs), in the same order, when contacts are
    /// on ([`set_contacts`](Self::set_contacts)); empty when they are off. The contact goes from
    /// the pair's `a` towards its `b`. For a pair with a time of impact, it is the contact at
    /// that time: [`contact`] of the shapes when `toi` is 0, else the [`CastHit`]'s normal and
    /// point with depth 0.
    ///
    /// ```
    /// use collide2d::{math::Vec2, BroadPhase, Circle, CollisionWorld, Filter, ObjectKind};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// world.set_contacts(true);
    /// for x in [0.0, 1.5] {
    ///     world.insert(Circle::new(Vec2::new(x, 0.0), 1.0)?.into(), Filter::DEFAULT, ObjectKind::Dynamic, ())?;
    /// }
    /// world.update();
    /// for (pair, contact) in world.pairs().iter().zip(world.contacts()) {
    ///     assert_eq!((pair.a.index(), pair.b.index()), (0, 1));
    ///     assert_eq!((contact.normal, contact.depth), (Vec2::X, 0.5));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn contacts(&self) -> &[Contact] {
        &self.pair_contacts
    }

    /// The pairs that started colliding at the last update, sorted by handle
    /// ([`began_between`](Self::began_between): by layer, with data, as a list of one's own).
    #[must_use]
    pub fn began(&self) -> &[(Handle, Handle)] {
        &self.began
    }

    /// The pairs that stopped colliding at the last update, sorted; a pair whose object was
    /// removed ends too (its handle is then stale: [`data`](Self::data) answers
    /// [`WorldError::StaleHandle`](super::WorldError::StaleHandle), never a panic).
    /// [`ended_between`](Self::ended_between) gives them by layer, with the data of the objects
    /// still alive.
    #[must_use]
    pub fn ended(&self) -> &[(Handle, Handle)] {
        &self.ended
    }
}

/// The candidates per chunk of [`CollisionWorld::update`]'s exact tests when they are few among
/// many objects (the records of the chunk after next are fetched meanwhile): small, as a burst
/// of prefetches past what the first-level cache keeps under way stalls (measured: 16, two
/// chunks ahead, stalled on these reads half as often as 64, one chunk ahead).
#[cfg(not(feature = "rayon"))]
const SPARSE_CHUNK: usize = 16;

/// The motion of fast object `slot` since the previous update, which moved it by `motion`: a
/// turn is about where its local origin was then.
#[inline]
fn sweep_of(shapes: &Shapes, slot: u32, sweep: &FastMotion, motion: Vec2) -> Sweep {
    if sweep.angle == 0.0 {
        return Sweep::translation(motion);
    }
    // A turn comes only from a pose, which keeps the local shape and its origin.
    let pivot = shapes.start_origin(slot as usize).unwrap_or(Vec2::ZERO);
    Sweep::new(motion, sweep.angle, pivot)
}

/// A box holding a shape whose box is `start` at `t = 0` as `sweep` moves and turns it over
/// `t` in `[0, 1]`: the pivot moves in a straight line, and every point of the shape stays as
/// far from it as it started, at most as far as `start`'s farthest corner (widened a little
/// for rounding).
fn turning_box(start: Aabb, sweep: &Sweep) -> Aabb {
    let (lo, hi) = (start.min() - sweep.pivot, start.max() - sweep.pivot);
    let far = lo.abs().max(hi.abs());
    let reach = sqrtf(far.length_squared()) * (1.0 + 1.0 / 65_536.0);
    let (from, to) = (sweep.pivot, sweep.pivot + sweep.translation);
    Aabb::raw(from.min(to) - reach, from.max(to) + reach)
}

/// The contact of a pair at its time of impact: the full [`contact`] when they touch at the
/// start, else the cast's normal and point.
fn toi_contact(a: &Shape, b: &Shape, hit: &CastHit) -> Contact {
    let from_hit = || Contact::new(hit.normal, hit.depth, &[hit.point]);
    if hit.t == 0.0 {
        contact(a, b).unwrap_or_else(from_hit)
    } else {
        from_hit()
    }
}
