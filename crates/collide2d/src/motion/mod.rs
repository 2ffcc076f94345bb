//! Movement with response: [`CollisionWorld::move_shape`] moves a box or a capsule through the
//! world's static objects and answers where it ends and what it touched on the way, with a
//! [`Response`] chosen per object (slide, stop, cross, bounce, one-way platform), as platformer
//! code does with bump.lua.
//!
//! Each step casts the mover along the motion left ([`cast_shapes`](crate::cast_shapes)), takes
//! the first object that *blocks*, places the mover against it and applies its response to the
//! rest of the motion, at most [`MAX_MOVE_STEPS`] times. An object blocks only if the motion
//! takes the mover into its interior (see `probe.rs`): grazing an edge or a corner does not, so a
//! mover never snags on the seams between flush tiles, and a mover resting on a surface slides
//! along it (the contact reports `t = 0` and the surface normal).

use alloc::vec::Vec;
mod probe;

use crate::math::Vec2;
use crate::shape::{Aabb, Shape};
use crate::world::{CollisionWorld, Handle, ObjectKind};
use alloc::collections::BTreeMap;
use probe::{bounce, pieces, probe, settle, slide, tolerance, translated, Probe};

/// The most blocking contacts one [`CollisionWorld::move_shape`] responds to; the motion left
/// after the last one is dropped (the mover stays where that contact put it).
pub const MAX_MOVE_STEPS: usize = 8;

/// What a moving shape does when it meets an object ([`CollisionWorld::move_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Response {
    /// Block, then keep the motion along the surface (its component into the surface removed).
    Slide,
    /// Block and end the move there (bump.lua's "touch").
    Stop,
    /// Report the contact but pass through (pick-ups, triggers).
    Cross,
    /// Block, then mirror the rest of the motion in the surface.
    Bounce,
    /// A one-way platform: slides like [`Response::Slide`] when met from the `up` side (the
    /// surface normal has a positive component along `up`) and the mover did not overlap it at
    /// the start of the move; otherwise passes through without a report.
    OneWay {
        /// The side the platform is solid from (need not be unit length), e.g. `Vec2::Y`.
        up: Vec2,
    },
}

/// One contact met during a move, in the order they happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveContact {
    /// The object met.
    pub handle: Handle,
    /// When, as a fraction in `[0, 1]` of the move's duration (the whole `motion` takes time 1;
    /// after a slide the mover keeps moving at the same time rate along the surface).
    pub t: f32,
    /// Where the mover touched the object, in world space.
    pub point: Vec2,
    /// Unit normal of the object's surface there, pointing out of the object towards the mover
    /// (`+Y` when landing on a floor, y up).
    pub normal: Vec2,
    /// The response applied.
    pub response: Response,
}

/// The result of [`CollisionWorld::move_shape`].
#[derive(Clone, Debug, PartialEq)]
pub struct Movement {
    /// How far the mover moved in total.
    pub delta: Vec2,
    /// The mover at its final place: the shape given, translated by `delta`. (Each translation
    /// rounds the shape's coordinates; a game that keeps its player's position and builds the
    /// shape from it each frame keeps the size exact, where chaining `shape` lets it drift by
    /// units in the last place.)
    pub shape: Shape,
    /// The contacts met, in the order they happened (by `t`; crossings at the same `t` by
    /// handle, before the block at that `t`): every crossed object once (its first touch), every
    /// blocking contact each time it was responded to.
    pub contacts: Vec<MoveContact>,
}

/// What one step's cast found against one convex piece of an object.
struct Hit {
    handle: Handle,
    response: Response,
    piece: Shape,
    probe: Probe,
    blocks: bool,
}

/// Per object, once per move: its response, and whether it was seen crossed (or ignored).
struct Seen {
    response: Response,
    /// Reported already (crossed), or a one-way platform overlapped at the start.
    done: bool,
}

/// Two blocking contacts closer in time than this (fraction of a step) count as simultaneous.
const SIMULTANEOUS: f32 = 1e-6;

fn blocks(response: Response, p: &Probe) -> bool {
    match response {
        Response::Cross => false,
        Response::OneWay { up } => p.enters && p.normal.dot(up) > 0.0,
        Response::Slide | Response::Stop | Response::Bounce => p.enters,
    }
}

/// The motion left after responding with `response` at a surface of normal `n`.
fn respond_to(response: Response, rest: Vec2, n: Vec2) -> Vec2 {
    match response {
        Response::Slide | Response::OneWay { .. } => slide(rest, n),
        Response::Bounce => bounce(rest, n),
        Response::Stop => Vec2::ZERO,
        Response::Cross => rest,
    }
}

impl Hit {
    fn contact(&self, t: f32) -> MoveContact {
        MoveContact {
            handle: self.handle,
            t,
            point: self.probe.point,
            normal: self.probe.normal,
            response: self.response,
        }
    }
}

/// Calls `report` with each object crossed at or before step time `end` and not reported yet,
/// by time, then handle.
fn report_crossings(
    hits: &[Hit],
    end: f32,
    seen: &mut BTreeMap<Handle, Seen>,
    mut report: impl FnMut(&Hit),
) {
    let mut crossed: Vec<&Hit> = hits
        .iter()
        .filter(|h| h.response == Response::Cross && h.probe.t <= end)
        .collect();
    crossed.sort_by(|a, b| {
        a.probe
            .t
            .total_cmp(&b.probe.t)
            .then(a.handle.cmp(&b.handle))
    });
    for h in crossed {
        if let Some(s) = seen.get_mut(&h.handle).filter(|s| !s.done) {
            s.done = true;
            report(h);
        }
    }
}

/// The blocking contact to respond to among `ties`, those met at the same time (sorted by
/// handle), with the mover `placed` there and `rest` the motion left: the one whose response
/// leaves the fewest of the others blocking; then the earliest (where flush pieces meet, the
/// face is touched no later than the seam's corner, whose normal is tilted); then the least
/// head-on; then the lower handle.
fn choose<'h>(ties: &[&'h Hit], rest: Vec2, placed: &Shape) -> Option<&'h Hit> {
    let still_blocking = |chosen: &Hit| {
        let next = respond_to(chosen.response, rest, chosen.probe.normal);
        if next == Vec2::ZERO {
            return 0;
        }
        let tol = tolerance(placed);
        ties.iter()
            .filter(|o| {
                !core::ptr::eq(**o, chosen)
                    && probe(placed, next, &o.piece, tol)
                        .is_some_and(|p| p.t <= SIMULTANEOUS && blocks(o.response, &p))
            })
            .count()
    };
    let key = |h: &Hit| (still_blocking(h), h.probe.t, rest.dot(h.probe.normal).abs());
    ties.iter()
        .map(|&h| (key(h), h))
        .min_by(|(a, _), (b, _)| {
            (a.0.cmp(&b.0))
                .then(a.1.total_cmp(&b.1))
                .then(a.2.total_cmp(&b.2))
        })
        .map(|(_, h)| h)
}

impl<T> CollisionWorld<T> {
    /// Moves `shape` by `motion` through the world's static objects whose layer is in `mask`,
    /// with the response `respond` chooses for each object (called at most once per object per
    /// move, for the objects near the path), and returns where it ends and the contacts on the way.
    ///
    /// - The mover is any convex shape, typically an [`Aabb`] or a [`Capsule`](crate::Capsule);
    ///   it is only translated. (A concave or compound mover works, but the blocking rule below
    ///   is then approximate; a mover without area, a point or a segment, passes through
    ///   obstacles without area.) It is not an object of the world: dynamic objects are never
    ///   obstacles (so a mover inserted as a dynamic object does not meet itself).
    /// - Obstacles are any shapes; concave polygons and compounds are taken part by part.
    /// - An object blocks only where the motion would take the mover into its interior:
    ///   touching is a contact but grazing an edge or corner is not a block. (Exact for a box
    ///   against boxes; by the contact normal for a circle or capsule; between other polygons,
    ///   by an overlap deeper than about `1e-6` of the mover's coordinates.) So a mover never snags on the seams between adjacent
    ///   tiles, never sinks into corners, and a mover that starts touching a surface and
    ///   pushes into it blocks at `t = 0` with that surface's normal, then slides. A mover that
    ///   starts overlapping an object may move out of it or along it, not deeper. A wall
    ///   crossed in one step is always met (no tunnelling). The mover never ends a step
    ///   overlapping a blocking object's interior (beyond rounding; an [`Aabb`] mover is snapped
    ///   exactly onto [`Aabb`] faces).
    /// - Several contacts at once (a corner, a seam): the one whose response leaves the fewest
    ///   of the others still blocking wins, then the earliest (the flat face rather than the
    ///   seam's corner), then the one meeting the motion least head-on, then the lower handle.
    /// - At most [`MAX_MOVE_STEPS`] blocking contacts are responded to. A non-finite `motion`,
    ///   or one that could carry the shape past `±f32::MAX`, moves nothing.
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind, Response};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// for i in 0..10 {
    ///     let tile = Aabb::from_rect(i as f32, 0.0, 1.0, 1.0)?.into();
    ///     world.insert(tile, Filter::DEFAULT, ObjectKind::Static, ())?;
    /// }
    /// let player = Aabb::from_rect(2.0, 3.0, 1.0, 2.0)?.into();
    /// // Falling and running right in one step: lands on the tiles, then slides along them.
    /// let m = world.move_shape(&player, Vec2::new(4.0, -6.0), u64::MAX, |_, _| Response::Slide);
    /// assert_eq!(m.delta, Vec2::new(4.0, -2.0)); // on the floor, no snag on the seams
    /// assert_eq!(m.contacts.len(), 1);
    /// assert_eq!(m.contacts[0].normal, Vec2::Y); // out of the floor: grounded
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn move_shape(
        &self,
        shape: &Shape,
        motion: Vec2,
        mask: u64,
        mut respond: impl FnMut(Handle, &T) -> Response,
    ) -> Movement {
        // r = motion; at most MAX_MOVE_STEPS times, while r != 0:
        //   cast the mover along r against each convex piece of the static objects near the path
        //   report the objects crossed up to the first block (each once)
        //   no block: move by r, done
        //   place the mover at the first block, settled against the blocks at that time
        //   respond to the one `choose` picks: r = the motion its response leaves
        let mut contacts = Vec::new();
        let mut seen: BTreeMap<Handle, Seen> = BTreeMap::new();
        let (mut delta, mut r, mut time) = (Vec2::ZERO, motion, 0.0f32);
        let bounds = shape.aabb();
        // Every place reached lies within `|motion|` of the start (slides and bounces never
        // lengthen the path): refuse a motion that could leave the finite numbers.
        let reach = bounds.min().abs().max(bounds.max().abs()) + motion.abs() * 2.0;
        if !motion.is_finite() || !reach.is_finite() {
            r = Vec2::ZERO;
        }
        for _ in 0..MAX_MOVE_STEPS {
            if r == Vec2::ZERO {
                break;
            }
            let mover = translated(shape, delta);
            let tol = tolerance(&mover);
            let hits = self.hits(shape, &mover, r, mask, tol, &mut seen, &mut respond);
            let first = hits
                .iter()
                .filter(|h| h.blocks)
                .map(|h| h.probe.t)
                .min_by(f32::total_cmp);
            let at_time = |t: f32| time + t * (1.0 - time);
            report_crossings(&hits, first.unwrap_or(1.0), &mut seen, |h| {
                contacts.push(h.contact(at_time(h.probe.t)));
            });
            let Some(t) = first else {
                delta += r;
                break;
            };
            let mut ties: Vec<&Hit> = hits
                .iter()
                .filter(|h| h.blocks && h.probe.t <= t + SIMULTANEOUS)
                .collect();
            ties.sort_by_key(|h| h.handle);
            let goal = delta + r;
            let mut at = delta + r * t;
            // The time of impact is rounded: up to about 6e-8 of the motion.
            let limit = 4.0 * tol + 1e-6 * r.abs().max_element();
            for h in &ties {
                at = settle(shape, at, &h.piece, h.probe.normal, limit);
            }
            let rest = goal - at;
            let Some(c) = choose(&ties, rest, &translated(shape, at)) else {
                break;
            };
            time = at_time(t);
            contacts.push(c.contact(time));
            delta = at;
            r = respond_to(c.response, rest, c.probe.normal);
            if !r.is_finite() {
                r = Vec2::ZERO;
            }
        }
        Movement {
            delta,
            shape: translated(shape, delta),
            contacts,
        }
    }

    /// The casts of `mover` along `r` against every convex piece of the static objects near
    /// its path, each object's response from `seen` (asked of `respond` the first time; a
    /// one-way platform `start` overlaps is marked done and skipped).
    #[allow(clippy::too_many_arguments)]
    fn hits(
        &self,
        start: &Shape,
        mover: &Shape,
        r: Vec2,
        mask: u64,
        tol: f32,
        seen: &mut BTreeMap<Handle, Seen>,
        respond: &mut dyn FnMut(Handle, &T) -> Response,
    ) -> Vec<Hit> {
        let mut hits = Vec::new();
        for handle in self.obstacles(mover, r, mask, tol) {
            let (Ok(obstacle), Ok(data)) = (self.shape(handle), self.data(handle)) else {
                continue;
            };
            let mut parts = Vec::new();
            pieces(&obstacle, &mut parts);
            let entry = seen.entry(handle).or_insert_with(|| {
                let response = respond(handle, data);
                let done = matches!(response, Response::OneWay { .. })
                    && parts.iter().any(|p| {
                        crate::contact(start, p).is_some_and(|c| c.depth > tolerance(start))
                    });
                Seen { response, done }
            });
            if entry.done {
                continue;
            }
            let response = entry.response;
            for piece in parts {
                if let Some(p) = probe(mover, r, &piece, tol) {
                    hits.push(Hit {
                        handle,
                        response,
                        blocks: blocks(response, &p),
                        piece,
                        probe: p,
                    });
                }
            }
        }
        hits
    }

    /// The static objects whose layer is in `mask` and which may meet `mover` moved by `r`:
    /// those touching the swept bounding box, widened by `pad`. In handle order.
    fn obstacles(&self, mover: &Shape, r: Vec2, mask: u64, pad: f32) -> Vec<Handle> {
        let b = mover.aabb();
        let pad = Vec2::splat(pad);
        let lo = b.min().min(b.min() + r) - pad;
        let hi = b.max().max(b.max() + r) + pad;
        let Ok(region) = Aabb::new(lo, hi) else {
            return Vec::new();
        };
        self.objects_overlapping(&region.into(), mask)
            .into_iter()
            .filter(|&h| self.kind(h) == Ok(ObjectKind::Static))
            .collect()
    }
}

#[cfg(test)]
mod tests;
