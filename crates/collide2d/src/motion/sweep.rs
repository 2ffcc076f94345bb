//! The mover's state during one move, and its one straight step: cast along the motion left
//! against every convex piece of the obstacles near the path, find the first that blocks, and
//! place the mover against it (the loop of [`CollisionWorld::move_shape`] is these steps).

use super::probe::{pieces, probe, settle, tolerance, translated, Probe};
use super::settings::{MoveSettings, Obstacles, Rules};
use super::{MoveContact, Response};
use crate::math::Vec2;
use crate::shape::{Aabb, Shape};
use crate::world::{CollisionWorld, Handle, ObjectKind};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// The distance from `p` to the segment `a b`.
fn segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let d = b - a;
    let t = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
    (a + d * t).distance(p)
}

/// Two blocking contacts closer in time than this (fraction of a step) count as simultaneous.
const SIMULTANEOUS: f32 = 1e-6;

/// What one step's cast found against one convex piece of an object.
pub(super) struct Hit {
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

/// The first blocking contact of a step, the mover placed against it.
pub(super) struct Block {
    /// The mover's translation from its start, placed there.
    pub(super) at: Vec2,
    /// When, as a fraction of the step's motion.
    pub(super) t: f32,
    /// The step's motion left from `at`.
    pub(super) rest: Vec2,
    pub(super) handle: Handle,
    pub(super) response: Response,
    pub(super) point: Vec2,
    /// Out of the object, towards the mover.
    pub(super) normal: Vec2,
}

impl Block {
    pub(super) fn contact(&self, t: f32) -> MoveContact {
        MoveContact {
            handle: self.handle,
            t,
            point: self.point,
            normal: self.normal,
            response: self.response,
        }
    }
}

pub(super) fn blocks(response: Response, p: &Probe) -> bool {
    match response {
        Response::Cross => false,
        Response::OneWay { up } => p.enters && p.normal.dot(up) > 0.0,
        Response::Slide | Response::Stop | Response::Bounce => p.enters,
    }
}

/// One move in progress: the world, the mover at its start, the settings, and what it met.
pub(super) struct Mover<'m, 'w, T> {
    pub(super) world: &'w CollisionWorld<T>,
    /// The mover before the move; every place is this translated.
    pub(super) shape: &'m Shape,
    pub(super) mask: u64,
    pub(super) settings: &'m MoveSettings<'m>,
    pub(super) rules: Rules,
    seen: BTreeMap<Handle, Seen>,
    respond: &'m mut dyn FnMut(Handle, &T) -> Response,
    pub(super) contacts: Vec<MoveContact>,
    /// An object left out of the casts for now (the platform or object being pushed out of).
    pub(super) exclude: Option<Handle>,
}

impl<'m, 'w, T> Mover<'m, 'w, T> {
    pub(super) fn new(
        world: &'w CollisionWorld<T>,
        shape: &'m Shape,
        mask: u64,
        settings: &'m MoveSettings<'m>,
        respond: &'m mut dyn FnMut(Handle, &T) -> Response,
    ) -> Self {
        Self {
            world,
            shape,
            mask,
            rules: Rules::new(settings),
            settings,
            seen: BTreeMap::new(),
            respond,
            contacts: Vec::new(),
            exclude: None,
        }
    }

    /// The translation `handle` made this frame, when it is a listed platform.
    pub(super) fn platform_motion(&self, handle: Handle) -> Option<Vec2> {
        let listed = self.settings.platforms.iter().find(|(h, _)| *h == handle);
        listed.map(|&(_, d)| d).filter(|d| d.is_finite())
    }

    /// Whether `handle` may block this move at all: by its kind, and not ignored or excluded.
    pub(super) fn eligible(&self, handle: Handle) -> bool {
        let kind_ok = self.settings.obstacles == Obstacles::All
            || self.world.kind(handle) == Ok(ObjectKind::Static)
            || self.platform_motion(handle).is_some();
        kind_ok && Some(handle) != self.settings.ignore && Some(handle) != self.exclude
    }

    /// The objects that may block and which may meet `mover` moved by `r`: those touching the
    /// swept bounding box, widened by `pad`. In handle order.
    pub(super) fn obstacles(&self, mover: &Shape, r: Vec2, pad: f32) -> Vec<Handle> {
        let b = mover.aabb();
        let pad = Vec2::splat(pad);
        let lo = b.min().min(b.min() + r) - pad;
        let hi = b.max().max(b.max() + r) + pad;
        let Ok(region) = Aabb::new(lo, hi) else {
            return Vec::new();
        };
        let region = Shape::from(region);
        let mut found = match self.settings.obstacles {
            Obstacles::All => self.world.objects_overlapping(&region, self.mask),
            // Static objects and the listed platforms: a query of the static objects alone
            // does not take in the dynamic objects moved since the last update.
            Obstacles::StaticOnly => {
                let mut found = self.world.statics_overlapping(&region, self.mask);
                let platforms = self.settings.platforms.iter().map(|&(h, _)| h);
                found.extend(platforms.filter(|&h| self.world.overlaps(h, &region, self.mask)));
                found.sort_unstable();
                found.dedup();
                found
            }
        };
        found.retain(|&h| self.eligible(h));
        found
    }

    /// `handle`'s response (asked of `respond` the first time) and whether it is done with
    /// (crossed, or a one-way platform overlapped at the start of the move: where it was then,
    /// for a listed platform).
    pub(super) fn response(&mut self, handle: Handle, parts: &[Shape]) -> Option<(Response, bool)> {
        if let Some(s) = self.seen.get(&handle) {
            return Some((s.response, s.done));
        }
        let data = self.world.data(handle).ok()?;
        let response = (self.respond)(handle, data);
        let back = -self.platform_motion(handle).unwrap_or(Vec2::ZERO);
        let tol = tolerance(self.shape);
        let done = matches!(response, Response::OneWay { .. })
            && parts.iter().any(|p| {
                crate::contact(self.shape, &translated(p, back)).is_some_and(|c| c.depth > tol)
            });
        self.seen.insert(handle, Seen { response, done });
        Some((response, done))
    }

    /// `handle`'s convex pieces where it is now, its response and whether it is done with.
    pub(super) fn pieces_of(&mut self, handle: Handle) -> Option<(Vec<Shape>, Response, bool)> {
        let obstacle = self.world.shape(handle).ok()?;
        let mut parts = Vec::new();
        pieces(&obstacle, &mut parts);
        let (response, done) = self.response(handle, &parts)?;
        Some((parts, response, done))
    }

    /// The casts of `mover` along `r` against every convex piece of the obstacles near its path.
    fn hits(&mut self, mover: &Shape, r: Vec2, tol: f32) -> Vec<Hit> {
        let mut hits = Vec::new();
        for handle in self.obstacles(mover, r, tol) {
            let Some((parts, response, false)) = self.pieces_of(handle) else {
                continue;
            };
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

    /// One straight step of the mover, at translation `delta`, along `r`. Reports the objects
    /// crossed before the first block (each once, at move time `time + t (1 - time)`) when
    /// `time` is given. `None` when nothing blocks (the whole `r` is free); otherwise the
    /// first blocking contact, the mover settled against every block at that time, and the
    /// one of them to respond to.
    pub(super) fn step(&mut self, delta: Vec2, r: Vec2, time: Option<f32>) -> Option<Block> {
        let mover = translated(self.shape, delta);
        let tol = tolerance(&mover);
        let hits = self.hits(&mover, r, tol);
        let first = hits
            .iter()
            .filter(|h| h.blocks)
            .map(|h| h.probe.t)
            .min_by(f32::total_cmp);
        if let Some(time) = time {
            self.report_crossings(&hits, first.unwrap_or(1.0), time);
        }
        let t = first?;
        let mut ties: Vec<&Hit> = hits
            .iter()
            .filter(|h| h.blocks && h.probe.t <= t + SIMULTANEOUS)
            .collect();
        crate::sort::sort_by(&mut ties, |a, b| a.handle.cmp(&b.handle));
        let goal = delta + r;
        let mut at = delta + r * t;
        // The time of impact is rounded: up to about 6e-8 of the motion.
        let limit = 4.0 * tol + 1e-6 * r.abs().max_element();
        for h in &ties {
            at = settle(self.shape, at, &h.piece, h.probe.normal, limit);
        }
        let rest = goal - at;
        let placed = translated(self.shape, at);
        let c = choose(&ties, rest, &placed, &self.rules)?;
        let mut normal = c.probe.normal;
        if self.rules.character && !self.rules.walkable(normal) {
            normal = self.walkable_face(c, rest, &placed).unwrap_or(normal);
        }
        Some(Block {
            at,
            t,
            rest,
            handle: c.handle,
            response: c.response,
            point: c.probe.point,
            normal,
        })
    }

    /// The first blocking touch of the mover at `delta` moved along `r` (the most
    /// upward-facing of simultaneous ones, then the lower handle), not placed: `at` is where
    /// the cast touches. Cheaper than [`step`](Self::step): no settling, no choosing by
    /// response, for finding the ground.
    pub(super) fn touch(&mut self, delta: Vec2, r: Vec2) -> Option<Block> {
        let mover = translated(self.shape, delta);
        let hits = self.hits(&mover, r, tolerance(&mover));
        let up = self.rules.up;
        let first = hits.iter().filter(|h| h.blocks).min_by(|a, b| {
            (a.probe.t.total_cmp(&b.probe.t))
                .then(b.probe.normal.dot(up).total_cmp(&a.probe.normal.dot(up)))
                .then(a.handle.cmp(&b.handle))
        })?;
        let t = first.probe.t;
        Some(Block {
            at: delta + r * t,
            t,
            rest: r * (1.0 - t),
            handle: first.handle,
            response: first.response,
            point: first.probe.point,
            normal: first.probe.normal,
        })
    }

    /// Where the mover `placed` touches a walkable face of the hit's piece at a corner (a box
    /// at the toe of a ramp: the cast's normal is the corner's, horizontal), the face's normal,
    /// when responding to it frees the motion `rest` from the piece.
    fn walkable_face(&self, hit: &Hit, rest: Vec2, placed: &Shape) -> Option<Vec2> {
        let hull = hit.piece.as_convex().filter(|h| h.radius == 0.0)?;
        let tol = tolerance(placed);
        let face = hull
            .edges()
            .filter(|&(a, b)| a != b && segment_distance(hit.probe.point, a, b) <= 4.0 * tol)
            .map(|(a, b)| {
                let d = b - a;
                Vec2::new(d.y, -d.x).normalize_or_zero()
            })
            .filter(|&n| self.rules.walkable(n) && n.dot(hit.probe.normal) > 0.0)
            .find(|&n| {
                let next = self.rules.respond_to(hit.response, rest, n);
                next != Vec2::ZERO
                    && probe(placed, next, &hit.piece, tol)
                        .is_none_or(|p| p.t > SIMULTANEOUS || !blocks(hit.response, &p))
            });
        face
    }

    /// Pushes each object crossed at or before step time `end` and not reported yet, by time,
    /// then handle.
    fn report_crossings(&mut self, hits: &[Hit], end: f32, time: f32) {
        let mut crossed: Vec<&Hit> = hits
            .iter()
            .filter(|h| h.response == Response::Cross && h.probe.t <= end)
            .collect();
        crate::sort::sort_by(&mut crossed, |a, b| {
            a.probe
                .t
                .total_cmp(&b.probe.t)
                .then(a.handle.cmp(&b.handle))
        });
        for h in crossed {
            if let Some(s) = self.seen.get_mut(&h.handle).filter(|s| !s.done) {
                s.done = true;
                self.contacts.push(MoveContact {
                    handle: h.handle,
                    t: time + h.probe.t * (1.0 - time),
                    point: h.probe.point,
                    normal: h.probe.normal,
                    response: h.response,
                });
            }
        }
    }
}

/// The blocking contact to respond to among `ties`, those met at the same time (sorted by
/// handle), with the mover `placed` there and `rest` the motion left: the one whose response
/// leaves the fewest of the others blocking at once, then the fewest blocking further along;
/// then the earliest; then the least head-on; then the lower handle.
///
/// Where flush pieces meet, a round mover touches the face and the seam's corner, whose normal
/// is tilted, within the rounding of the casts' times (a face is exactly touched first). Sliding
/// along the face frees the mover of the corner, while sliding off the corner leads back into
/// the face: the second count picks the face, whatever the rounding.
fn choose<'h>(ties: &[&'h Hit], rest: Vec2, placed: &Shape, rules: &Rules) -> Option<&'h Hit> {
    let still_blocking = |chosen: &Hit| {
        let next = rules.respond_to(chosen.response, rest, chosen.probe.normal);
        if next == Vec2::ZERO {
            return (0, 0);
        }
        let tol = tolerance(placed);
        let (mut now, mut later) = (0, 0);
        for o in ties.iter().filter(|o| !core::ptr::eq(**o, chosen)) {
            let blocking = probe(placed, next, &o.piece, tol).filter(|p| blocks(o.response, p));
            match blocking {
                Some(p) if p.t <= SIMULTANEOUS => now += 1,
                Some(_) => later += 1,
                None => {}
            }
        }
        (now, later)
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
