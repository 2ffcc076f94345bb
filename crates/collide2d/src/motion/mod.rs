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

mod probe;

use crate::math::Vec2;
use crate::shape::{Aabb, Shape};
use crate::world::{CollisionWorld, Handle, ObjectKind};
use probe::{bounce, pieces, probe, settle, slide, tolerance, translated, Probe};
use std::collections::BTreeMap;

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
    /// The mover at its final place: the shape given, translated by `delta`.
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
    /// - An object blocks only where the motion would take the mover into its interior
    ///   (deeper than about `1e-6` of the coordinates): touching is a contact but grazing an
    ///   edge or corner is not a block. So a mover never snags on the seams between adjacent
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
            let tol = tolerance(&mover, r);
            let mut hits = Vec::new();
            for handle in self.obstacles(&mover, r, mask, tol) {
                let (Ok(obstacle), Ok(data)) = (self.shape(handle), self.data(handle)) else {
                    continue;
                };
                let mut parts = Vec::new();
                pieces(obstacle, &mut parts);
                let entry = seen.entry(handle).or_insert_with(|| {
                    let response = respond(handle, data);
                    // A one-way platform overlapped at the start is passed through.
                    let done = matches!(response, Response::OneWay { .. })
                        && parts.iter().any(|p| {
                            crate::contact(shape, p).is_some_and(|c| c.depth > tolerance(shape, r))
                        });
                    Seen { response, done }
                });
                if entry.done {
                    continue;
                }
                let response = entry.response;
                for piece in parts {
                    if let Some(p) = probe(&mover, r, &piece, tol) {
                        let blocks = blocks(response, &p);
                        hits.push(Hit {
                            handle,
                            response,
                            piece,
                            probe: p,
                            blocks,
                        });
                    }
                }
            }
            let first = hits
                .iter()
                .filter(|h| h.blocks)
                .map(|h| h.probe.t)
                .min_by(f32::total_cmp);
            let end = first.unwrap_or(1.0);
            let at_time = |t: f32| time + t * (1.0 - time);

            // Objects crossed before the block (or the end), each reported once.
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
                    contacts.push(MoveContact {
                        handle: h.handle,
                        t: at_time(h.probe.t),
                        point: h.probe.point,
                        normal: h.probe.normal,
                        response: h.response,
                    });
                }
            }
            let Some(t) = first else {
                delta += r;
                break;
            };

            // The blocking contacts at that time: choose the one to respond to.
            let mut ties: Vec<&Hit> = hits
                .iter()
                .filter(|h| h.blocks && h.probe.t <= t + SIMULTANEOUS)
                .collect();
            ties.sort_by_key(|h| h.handle);
            let goal = delta + r;
            let mut at = delta + r * t;
            let limit = 4.0 * tol;
            for h in &ties {
                at = settle(shape, at, &h.piece, h.probe.normal, limit);
            }
            let placed = translated(shape, at);
            let rest = goal - at;
            let still_blocking = |chosen: usize| {
                let c = ties[chosen];
                let next = respond_to(c.response, rest, c.probe.normal);
                if next == Vec2::ZERO {
                    return 0;
                }
                let tol = tolerance(&placed, next);
                ties.iter()
                    .enumerate()
                    .filter(|&(i, o)| {
                        i != chosen
                            && probe(&placed, next, &o.piece, tol)
                                .is_some_and(|p| p.t <= SIMULTANEOUS && blocks(o.response, &p))
                    })
                    .count()
            };
            // Fewest others left blocking; then the earliest (where flush pieces meet, the
            // face is touched no later than the seam's corner, whose normal is tilted); then the
            // least head-on; then the lower handle.
            let key = |i: usize| {
                let h = ties[i];
                (still_blocking(i), h.probe.t, rest.dot(h.probe.normal).abs())
            };
            let Some(chosen) = (0..ties.len())
                .map(|i| (key(i), i))
                .min_by(|(a, i), (b, j)| {
                    (a.0.cmp(&b.0))
                        .then(a.1.total_cmp(&b.1))
                        .then(a.2.total_cmp(&b.2))
                        .then(i.cmp(j))
                })
                .map(|(_, i)| i)
            else {
                break;
            };
            let c = ties[chosen];
            time = at_time(t);
            contacts.push(MoveContact {
                handle: c.handle,
                t: time,
                point: c.probe.point,
                normal: c.probe.normal,
                response: c.response,
            });
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
mod tests {
    use super::*;
    use crate::shape::Capsule;
    use crate::test_support::{boxed, v};
    use crate::world::Filter;
    use crate::BroadPhase;

    /// A world of static boxes `(x0, y0, x1, y1)`, each object's data its response.
    fn world(boxes: &[(f32, f32, f32, f32, Response)]) -> CollisionWorld<Response> {
        let mut w = CollisionWorld::new(BroadPhase::default());
        for &(x0, y0, x1, y1, r) in boxes {
            w.insert(
                boxed(x0, y0, x1, y1),
                Filter::DEFAULT,
                ObjectKind::Static,
                r,
            )
            .unwrap();
        }
        w
    }

    fn floor(n: usize) -> Vec<(f32, f32, f32, f32, Response)> {
        (0..n)
            .map(|i| (i as f32, 0.0, i as f32 + 1.0, 1.0, Response::Slide))
            .collect()
    }

    fn go(w: &CollisionWorld<Response>, s: &Shape, m: Vec2) -> Movement {
        w.move_shape(s, m, u64::MAX, |_, r| *r)
    }

    #[test]
    fn sliding_along_flush_tiles_never_snags() {
        let w = world(&floor(20));
        let mover = boxed(0.0, 1.0, 1.0, 2.0);
        let m = go(&w, &mover, v(15.0, 0.0));
        assert_eq!(m.delta, v(15.0, 0.0));
        assert!(m.contacts.is_empty(), "{:?}", m.contacts);
    }

    #[test]
    fn resting_mover_pressing_down_slides_with_t_zero_and_the_floor_normal() {
        let w = world(&floor(20));
        let mover = boxed(0.0, 1.0, 1.0, 2.0); // its right edge on the seam at x = 1
        let m = go(&w, &mover, v(4.0, -5.0));
        assert_eq!(m.delta, v(4.0, 0.0));
        assert_eq!(m.contacts.len(), 1, "{:?}", m.contacts);
        assert_eq!((m.contacts[0].t, m.contacts[0].normal), (0.0, Vec2::Y));
    }

    #[test]
    fn falling_into_a_corner_stops_without_sinking() {
        let mut boxes = floor(10);
        boxes.push((6.0, 1.0, 7.0, 5.0, Response::Slide)); // a wall on the floor
        let w = world(&boxes);
        let m = go(&w, &boxed(2.0, 3.0, 3.0, 4.0), v(20.0, -20.0));
        assert_eq!(m.shape, boxed(5.0, 1.0, 6.0, 2.0));
        let normals: Vec<Vec2> = m.contacts.iter().map(|c| c.normal).collect();
        assert_eq!(normals, [Vec2::Y, -Vec2::X]);
    }

    #[test]
    fn capsule_meeting_a_wall_at_its_seam_is_not_deflected() {
        // Its bottom cap reaches the seam corner at (7.75, 1) just as its flank meets the face.
        let mut boxes: Vec<_> = (0..20)
            .map(|i| (i as f32, -1.0, i as f32 + 1.0, 0.0, Response::Slide))
            .collect();
        boxes.push((7.75, 0.0, 8.75, 1.0, Response::Slide));
        boxes.push((7.75, 1.0, 8.75, 30.0, Response::Slide));
        let w = world(&boxes);
        let c: Shape = Capsule::new(v(3.75, 1.75), v(3.75, 2.75), 0.5)
            .unwrap()
            .into();
        let m = go(&w, &c, v(83.0, -17.75));
        let b = m.shape.aabb();
        assert!(
            (b.max().x - 7.75).abs() < 1e-4 && b.min().y.abs() < 1e-4,
            "{m:?}"
        );
        assert_eq!(m.contacts[0].normal, -Vec2::X);
    }

    #[test]
    fn capsule_landing_just_beside_a_seam_is_not_deflected() {
        // Its lowest point lands on the left tile 0.0016 from the seam; the right tile's corner
        // is touched a moment later with a tilted normal.
        let w = world(&[
            (9.75, -1.0, 10.5, 0.0, Response::Slide),
            (10.5, -0.25, 10.75, 0.0, Response::Slide),
            (0.0, -1.0, 9.75, 0.0, Response::Slide),
        ]);
        let c: Shape = Capsule::new(v(10.75, 4.5), v(10.75, 5.5), 0.5)
            .unwrap()
            .into();
        let m = go(&w, &c, v(-2.5, -39.75));
        assert!((m.delta - v(-2.5, -4.0)).length() < 1e-4, "{m:?}");
        assert_eq!(m.contacts.len(), 1, "{m:?}");
    }

    #[test]
    fn stop_ends_the_move_at_the_contact() {
        let w = world(&[(5.0, -5.0, 6.0, 5.0, Response::Stop)]);
        let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(10.0, 3.0));
        assert_eq!(m.shape.aabb().max().x, 5.0);
        assert_eq!(m.contacts[0].response, Response::Stop);
        assert!((m.contacts[0].t - 0.4).abs() < 1e-6);
    }

    #[test]
    fn cross_reports_without_blocking() {
        let w = world(&[
            (3.0, 0.0, 4.0, 1.0, Response::Cross),
            (8.0, -5.0, 9.0, 5.0, Response::Slide),
        ]);
        let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(10.0, 0.0));
        assert_eq!(m.delta, v(7.0, 0.0));
        let got: Vec<(u32, Response)> = m
            .contacts
            .iter()
            .map(|c| (c.handle.index(), c.response))
            .collect();
        assert_eq!(got, [(0, Response::Cross), (1, Response::Slide)]);
        assert!((m.contacts[0].t - 0.2).abs() < 1e-6);
    }

    #[test]
    fn bounce_mirrors_the_rest_of_the_motion() {
        let w = world(&[(-10.0, -1.0, 10.0, 0.0, Response::Bounce)]);
        let m = go(&w, &boxed(0.0, 2.0, 1.0, 3.0), v(4.0, -4.0));
        // Half the motion down to the floor, then the other half mirrored upwards.
        assert!((m.delta - v(4.0, 0.0)).length() < 1e-5, "{m:?}");
        assert_eq!(m.contacts[0].normal, Vec2::Y);
    }

    #[test]
    fn one_way_platform_holds_from_above_only() {
        let up = Response::OneWay { up: Vec2::Y };
        let w = world(&[(0.0, 0.0, 10.0, 1.0, up)]);
        let mover = boxed(2.0, 3.0, 3.0, 4.0);
        let m = go(&w, &mover, v(0.0, -5.0));
        assert_eq!(m.shape, boxed(2.0, 1.0, 3.0, 2.0)); // landed
        let from_below = go(&w, &boxed(2.0, -3.0, 3.0, -2.0), v(0.0, 8.0));
        assert_eq!(from_below.delta, v(0.0, 8.0));
        assert!(from_below.contacts.is_empty());
        let from_side = go(&w, &boxed(-3.0, 0.0, -2.0, 1.0), v(20.0, 0.0));
        assert_eq!(from_side.delta, v(20.0, 0.0));
        // Starting inside it (jumped half way through): falls back through.
        let inside = go(&w, &boxed(2.0, 0.5, 3.0, 1.5), v(0.0, -5.0));
        assert_eq!(inside.delta, v(0.0, -5.0));
    }

    #[test]
    fn capsule_slides_along_tiles_and_lands() {
        let w = world(&floor(20));
        let c: Shape = Capsule::new(v(0.5, 1.5), v(0.5, 2.5), 0.5).unwrap().into();
        let m = go(&w, &c, v(12.3, 0.0));
        assert_eq!(m.delta, v(12.3, 0.0));
        let high: Shape = Capsule::new(v(0.5, 5.5), v(0.5, 6.5), 0.5).unwrap().into();
        let m = go(&w, &high, v(7.0, -10.0));
        assert!((m.delta - v(7.0, -4.0)).length() < 1e-4, "{m:?}");
    }

    #[test]
    fn mask_and_dynamic_objects_are_respected() {
        let mut w = world(&[]);
        w.insert(
            boxed(5.0, -5.0, 6.0, 5.0),
            Filter::new(2, u64::MAX),
            ObjectKind::Static,
            Response::Slide,
        )
        .unwrap();
        w.insert(
            boxed(3.0, -5.0, 4.0, 5.0),
            Filter::DEFAULT,
            ObjectKind::Dynamic,
            Response::Slide,
        )
        .unwrap();
        let mover = boxed(0.0, 0.0, 1.0, 1.0);
        let m = w.move_shape(&mover, v(10.0, 0.0), 1, |_, r| *r);
        assert_eq!(m.delta, v(10.0, 0.0));
        let m = w.move_shape(&mover, v(10.0, 0.0), 2, |_, r| *r);
        assert_eq!(m.delta, v(4.0, 0.0));
    }

    #[test]
    fn zero_thickness_wall_is_met() {
        let mut w = world(&[]);
        let wall: Shape = crate::Segment::new(v(10.0, -5.0), v(10.0, 5.0))
            .unwrap()
            .into();
        w.insert(wall, Filter::DEFAULT, ObjectKind::Static, Response::Slide)
            .unwrap();
        let m = go(&w, &boxed(0.0, 0.0, 1.0, 1.0), v(100.0, 0.0));
        assert!((m.delta.x - 9.0).abs() < 1e-5, "{m:?}");
        assert_eq!(m.contacts[0].normal, -Vec2::X);
    }

    #[test]
    fn sliding_along_a_concave_polygons_floor_never_snags() {
        // A U whose floor is split between several convex parts.
        let ring = [
            (0.0, 0.0),
            (12.0, 0.0),
            (12.0, 6.0),
            (11.0, 6.0),
            (11.0, 1.0),
        ]
        .into_iter()
        .chain([(1.0, 1.0), (1.0, 6.0), (0.0, 6.0)])
        .map(|(x, y)| v(x, y))
        .collect::<Vec<_>>();
        let mut w = world(&[]);
        let u: Shape = crate::Polygon::new(&ring).unwrap().into();
        w.insert(u, Filter::DEFAULT, ObjectKind::Static, Response::Slide)
            .unwrap();
        let m = go(&w, &boxed(1.0, 1.0, 2.0, 2.0), v(20.0, -3.0));
        assert_eq!(m.shape, boxed(10.0, 1.0, 11.0, 2.0));
        assert_eq!(m.contacts.len(), 2, "{:?}", m.contacts);
    }

    #[test]
    fn a_mover_inside_an_obstacle_may_leave_it_but_not_go_deeper() {
        let w = world(&[(0.0, 0.0, 10.0, 10.0, Response::Slide)]);
        let inside = boxed(1.0, 9.0, 2.0, 12.0); // 1 deep, pushed out upwards
        assert_eq!(go(&w, &inside, v(0.0, 5.0)).delta, v(0.0, 5.0));
        let down = go(&w, &inside, v(0.0, -5.0));
        assert_eq!(down.delta, Vec2::ZERO);
        assert_eq!(down.contacts[0].t, 0.0);
    }

    #[test]
    fn non_finite_or_overflowing_motion_moves_nothing() {
        let w = world(&floor(3));
        for motion in [v(f32::NAN, 0.0), v(0.0, f32::INFINITY), v(f32::MAX, 0.0)] {
            let m = go(&w, &boxed(0.0, 1.0, 1.0, 2.0), motion);
            assert_eq!(m.delta, Vec2::ZERO);
            assert!(m.contacts.is_empty());
        }
    }
}
