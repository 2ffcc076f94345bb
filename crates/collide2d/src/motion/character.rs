//! [`CollisionWorld::move_shape_with`]: the character mover. A move runs in phases, each made
//! of the straight steps of `sweep.rs`:
//! 1. moving platforms carry the mover standing on them, or push the one they run into;
//! 2. depenetration pushes the mover out of whatever still overlaps it, deepest first;
//! 3. the motion, sliding as [`CollisionWorld::move_shape`] does, stepping up small ledges
//!    and never climbing steep slopes;
//! 4. a short cast down finds the ground, and snaps the mover onto it when it was on the
//!    ground and walked off a slope or a step.

use super::probe::{probe, settle, tolerance, translated};
use super::settings::solid;
use super::sweep::{blocks, Block, Mover};
use super::{Ground, MoveContact, MoveSettings, Movement, Response, MAX_MOVE_STEPS};
use crate::math::Vec2;
use crate::shape::Shape;
use crate::world::{CollisionWorld, Handle};
use alloc::vec::Vec;

/// How far below the mover (in units of its tolerance) ground still counts as stood on: the
/// gap a settled round mover keeps, with room for rounding.
const GROUND_GAP: f32 = 8.0;

impl<T> CollisionWorld<T> {
    /// [`move_shape`](Self::move_shape) as a character controller: with
    /// [`MoveSettings`] choosing which objects block (dynamic ones too), pushing the mover out
    /// of overlaps, carrying it on moving platforms, a maximum walkable slope, steps and
    /// snapping to the ground. With [`MoveSettings::default`] it is exactly `move_shape`, plus
    /// [`Movement::ground`].
    ///
    /// A move runs in this order, every part keeping `move_shape`'s guarantees (no snag on
    /// seams, no sinking into corners, walls crossed in one step met, one-way platforms):
    /// 1. Each listed [platform](MoveSettings::platforms) (already moved, by the given
    ///    translation): a mover standing on it where it was is carried by its motion; one in
    ///    its way is pushed by the part of its motion left after they touch (a contact at
    ///    `t = 0`). The mover is moved through the other obstacles (it may be stopped by a
    ///    wall: then the platform overlaps it).
    /// 2. With [`depenetrate`](MoveSettings::depenetrate), while the mover overlaps a solid
    ///    object (not [`Cross`](Response::Cross), not one-way), it is pushed out of the
    ///    deepest along [`contact`](crate::contact)'s normal, through the others (at most
    ///    [`MAX_MOVE_STEPS`] pushes, each a contact at `t = 0`).
    /// 3. The motion, as in `move_shape`. A surface steeper than
    ///    [`max_slope`](MoveSettings::max_slope) is a wall the mover does not climb by
    ///    sliding. A mover on the ground that meets a wall tries a
    ///    [step](MoveSettings::step_height): up (if its head has room), on, and down onto
    ///    walkable ground no higher than the step; the landing is its contact.
    /// 4. [`Movement::ground`]: walkable ground just below the mover. When the mover was on
    ///    the ground (at the start or during the move), the motion does not go up and it ends
    ///    in the air, it is [snapped](MoveSettings::snap_to_ground) down onto walkable ground
    ///    within that distance (a contact at `t = 1`).
    ///
    /// ```
    /// use collide2d::{math::Vec2, Aabb, BroadPhase, CollisionWorld, Filter, ObjectKind};
    /// use collide2d::{motion::MoveSettings, Response};
    /// let mut world = CollisionWorld::new(BroadPhase::default());
    /// let floor = world.insert(Aabb::from_rect(0.0, 0.0, 20.0, 1.0)?.into(), Filter::DEFAULT, ObjectKind::Static, ())?;
    /// world.insert(Aabb::from_rect(6.0, 1.0, 8.0, 0.5)?.into(), Filter::DEFAULT, ObjectKind::Static, ())?;
    /// let player = Aabb::from_rect(2.0, 1.0, 1.0, 2.0)?.into();
    /// let settings = MoveSettings { step_height: 0.6, snap_to_ground: 1.0, ..MoveSettings::default() };
    /// // Runs right: steps onto the half-unit ledge from x = 6 to 14, then on.
    /// let m = world.move_shape_with(&player, Vec2::new(6.0, -0.1), u64::MAX, &settings, |_, _| Response::Slide);
    /// assert_eq!(m.delta, Vec2::new(6.0, 0.5));
    /// assert_eq!(m.ground.map(|g| g.normal), Some(Vec2::Y));
    /// // Runs off the ledge's far end: snapped down onto the floor.
    /// let m = world.move_shape_with(&m.shape, Vec2::new(8.0, -0.1), u64::MAX, &settings, |_, _| Response::Slide);
    /// assert_eq!(m.shape.aabb().min().y, 1.0);
    /// assert_eq!(m.ground.map(|g| g.handle), Some(floor));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn move_shape_with(
        &self,
        shape: &Shape,
        motion: Vec2,
        mask: u64,
        settings: &MoveSettings,
        mut respond: impl FnMut(Handle, &T) -> Response,
    ) -> Movement {
        self.move_character((shape, motion), mask, settings, true, &mut respond)
    }

    /// [`move_shape_with`](Self::move_shape_with) of `shape` by `motion`, looking for
    /// [`Movement::ground`] at the end only when `find_ground` (or snapping needs it):
    /// [`move_shape`](Self::move_shape) does not, and saves that cast down.
    pub(super) fn move_character(
        &self,
        (shape, motion): (&Shape, Vec2),
        mask: u64,
        settings: &MoveSettings,
        find_ground: bool,
        mut respond: impl FnMut(Handle, &T) -> Response,
    ) -> Movement {
        let mut m = Mover::new(self, shape, mask, settings, &mut respond);
        let bounds = shape.aabb();
        // Every place reached lies within the motions' lengths of the start (slides and
        // bounces never lengthen a path): refuse motions that could leave the finite numbers.
        let finite = settings.platforms.iter().filter(|(_, d)| d.is_finite());
        let carried: Vec2 = finite.map(|(_, d)| d.abs()).sum();
        let reach = bounds.min().abs().max(bounds.max().abs()) + (motion.abs() + carried) * 2.0;
        if !motion.is_finite() || !reach.is_finite() {
            return Movement {
                delta: Vec2::ZERO,
                shape: shape.clone(),
                contacts: Vec::new(),
                ground: None,
            };
        }
        let mut delta = m.ride_platforms(Vec2::ZERO);
        if settings.depenetrate {
            delta = m.depenetrate(delta);
        }
        let grounded = (settings.step_height > 0.0 || settings.snap_to_ground > 0.0)
            && m.ground_below(delta, 0.0).is_some();
        let (delta, grounded) = m.walk(delta, motion, grounded);
        let rising = motion.dot(m.rules.up) > 0.0;
        let snap = if grounded && !rising {
            settings.snap_to_ground.max(0.0)
        } else {
            0.0
        };
        let mut delta = delta;
        let below = if find_ground || snap > 0.0 {
            m.ground_below(delta, snap)
        } else {
            None
        };
        let ground = below.map(|b| {
            // Snapped down onto ground further than the gap of a mover standing on it.
            if b.at != delta {
                m.contacts.push(b.contact(1.0));
                delta = b.at;
            }
            Ground {
                handle: b.handle,
                normal: b.normal,
                point: b.point,
            }
        });
        Movement {
            delta,
            shape: translated(shape, delta),
            contacts: m.contacts,
            ground,
        }
    }
}

/// The distance below the mover at `delta` within which ground counts as stood on.
fn gap<T>(m: &Mover<'_, '_, T>, delta: Vec2) -> f32 {
    GROUND_GAP * tolerance(&translated(m.shape, delta))
}

impl<T> Mover<'_, '_, T> {
    /// Phase 3: the motion from `delta`, responding to each blocking contact, stepping up
    /// ledges when `grounded`. Returns where it ends and whether it was on the ground.
    fn walk(&mut self, mut delta: Vec2, motion: Vec2, mut grounded: bool) -> (Vec2, bool) {
        let (mut r, mut time) = (motion, 0.0f32);
        for _ in 0..MAX_MOVE_STEPS {
            if r == Vec2::ZERO {
                break;
            }
            let Some(b) = self.step(delta, r, Some(time)) else {
                delta += r;
                break;
            };
            time += b.t * (1.0 - time);
            if grounded && b.response == Response::Slide && !self.rules.walkable(b.normal) {
                if let Some(landing) = self.step_up(&b) {
                    self.contacts.push(landing.contact(time));
                    delta = landing.at;
                    // The motion along the ground is spent; a rise (a jump) goes on.
                    r = self.rules.up * b.rest.dot(self.rules.up).max(0.0);
                    continue;
                }
            }
            self.contacts.push(b.contact(time));
            grounded |= self.rules.walkable(b.normal);
            delta = b.at;
            r = self.rules.respond_to(b.response, b.rest, b.normal);
            if !r.is_finite() {
                r = Vec2::ZERO;
            }
        }
        (delta, grounded)
    }

    /// A step onto a ledge from the wall contact `wall`: up by at most the step height, on
    /// by the motion's part along the ground, and down onto walkable ground no lower than
    /// where it started. `None` when there is no room, no progress or no such ground.
    fn step_up(&mut self, wall: &Block) -> Option<Block> {
        let (up, height) = (self.rules.up, self.settings.step_height);
        let along = wall.rest - up * wall.rest.dot(up);
        if height <= 0.0 || along.dot(wall.normal) >= 0.0 || up == Vec2::ZERO {
            return None;
        }
        let raised = self
            .step(wall.at, up * height, None)
            .map_or(wall.at + up * height, |b| b.at);
        let rise = (raised - wall.at).dot(up);
        let on = self
            .step(raised, along, None)
            .map_or(raised + along, |b| b.at);
        let tol = tolerance(&translated(self.shape, on));
        if rise <= tol || (on - raised).dot(along) <= tol {
            return None;
        }
        let landing = self.step(on, -up * rise, None)?;
        (self.rules.walkable(landing.normal) && (landing.at - wall.at).dot(up) > tol)
            .then_some(landing)
    }

    /// Walkable ground the mover at `delta` stands on (within the ground gap; `at` is then
    /// `delta`) or, within `snap` below it, the ground it lands on (placed on it at `at`).
    fn ground_below(&mut self, delta: Vec2, snap: f32) -> Option<Block> {
        let up = self.rules.up;
        if up == Vec2::ZERO {
            return None;
        }
        let near = gap(self, delta);
        let reach = snap.max(near);
        let mut b = self.touch(delta, -up * reach)?;
        if b.t * reach <= near {
            b.at = delta;
        } else {
            b = self.step(delta, -up * reach, None)?;
        }
        self.rules.walkable(b.normal).then_some(b)
    }

    /// Moves the mover from `delta` by `push` through the obstacles (responding as in a move),
    /// each block a contact at `t = 0`. Where it ends.
    fn carry(&mut self, mut delta: Vec2, push: Vec2) -> Vec2 {
        let mut r = push;
        for _ in 0..MAX_MOVE_STEPS {
            if r == Vec2::ZERO || !r.is_finite() {
                break;
            }
            let Some(b) = self.step(delta, r, None) else {
                return delta + r;
            };
            self.contacts.push(b.contact(0.0));
            delta = b.at;
            r = self.rules.respond_to(b.response, b.rest, b.normal);
        }
        delta
    }

    /// Phase 1: each listed platform carries or pushes the mover.
    fn ride_platforms(&mut self, mut delta: Vec2) -> Vec2 {
        for &(handle, d) in self.settings.platforms {
            if d == Vec2::ZERO || !d.is_finite() || !self.eligible(handle) {
                continue;
            }
            let Ok(filter) = self.world.filter(handle) else {
                continue;
            };
            if filter.layer & self.mask == 0 {
                continue;
            }
            let Some((now_parts, response, false)) = self.pieces_of(handle) else {
                continue;
            };
            let parts: Vec<Shape> = now_parts.iter().map(|p| translated(p, -d)).collect();
            let mover = translated(self.shape, delta);
            let tol = tolerance(&mover);
            let stands = |p: &Shape| {
                let down = -self.rules.up * gap(self, delta);
                probe(&mover, down, p, tol)
                    .filter(|q| blocks(response, q) && self.rules.walkable(q.normal))
            };
            let (push, normal, point) = if let Some(q) = parts.iter().find_map(stands) {
                (d, q.normal, None)
            } else {
                // Where the platform moving by `d` first meets the mover: the mover moving
                // by `-d` against where the platform was.
                let first = parts
                    .iter()
                    .filter_map(|p| probe(&mover, -d, p, tol))
                    .filter(|q| blocks(response, q))
                    .min_by(|a, b| a.t.total_cmp(&b.t));
                let Some(q) = first else { continue };
                (d * (1.0 - q.t), q.normal, Some(q.point + d))
            };
            self.exclude = Some(handle);
            let start = self.contacts.len();
            let moved = self.carry(delta, push);
            self.exclude = None;
            // Placed exactly against the platform where it is now (boxes onto faces).
            let limit = 4.0 * tol + 1e-6 * push.abs().max_element();
            delta = now_parts
                .iter()
                .fold(moved, |at, p| settle(self.shape, at, p, normal, limit));
            if let Some(point) = point {
                let c = MoveContact {
                    handle,
                    t: 0.0,
                    point,
                    normal,
                    response,
                };
                self.contacts.insert(start, c);
            }
        }
        delta
    }

    /// Phase 2: pushes out of overlapping solid objects, deepest first.
    fn depenetrate(&mut self, mut delta: Vec2) -> Vec2 {
        for _ in 0..MAX_MOVE_STEPS {
            let mover = translated(self.shape, delta);
            let tol = tolerance(&mover);
            let Some((handle, response, c)) = self.deepest(&mover, tol) else {
                break;
            };
            let push = c.normal * (c.depth + tol * 0.25);
            self.exclude = Some(handle);
            let start = self.contacts.len();
            let moved = self.carry(delta, push);
            self.exclude = None;
            // Placed exactly against the object (boxes onto faces).
            let moved = self.settle_on(handle, moved, c.normal, 4.0 * tol + c.depth * 1e-6);
            let point = c.points.first().copied().unwrap_or(Vec2::ZERO);
            let contact = MoveContact {
                handle,
                t: 0.0,
                point,
                normal: c.normal,
                response,
            };
            self.contacts.insert(start, contact);
            if moved == delta {
                break; // wedged: no room to get out
            }
            delta = moved;
        }
        delta
    }

    /// `delta` settled against the pieces of `handle` whose normal there is `n`.
    fn settle_on(&mut self, handle: Handle, delta: Vec2, n: Vec2, limit: f32) -> Vec2 {
        let Some((parts, _, _)) = self.pieces_of(handle) else {
            return delta;
        };
        parts
            .iter()
            .fold(delta, |at, p| settle(self.shape, at, p, n, limit))
    }

    /// The solid object `mover` overlaps deepest (beyond `tol`), with its response and the
    /// contact whose normal pushes the mover out. Ties go to the lower handle.
    fn deepest(&mut self, mover: &Shape, tol: f32) -> Option<(Handle, Response, crate::Contact)> {
        let mut best: Option<(Handle, Response, crate::Contact)> = None;
        for handle in self.obstacles(mover, Vec2::ZERO, 0.0) {
            let (Some((_, response, _)), Ok(obstacle)) =
                (self.pieces_of(handle), self.world.shape(handle))
            else {
                continue;
            };
            if !solid(response) {
                continue;
            }
            let Some(c) = crate::contact(&obstacle, mover).filter(|c| c.depth > tol) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| c.depth > b.2.depth) {
                best = Some((handle, response, c));
            }
        }
        best
    }
}
