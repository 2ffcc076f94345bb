//! The contact of two shapes made of polygons, points and segments (no radius), at least one
//! concave or compound: the nearest point of the boundary of the union `D = ∪ (B_j − A_i)`,
//! found with exact decisions ([`union_faces`](crate::query::union_faces)).
//!
//! ```text
//! the pieces whose boxes hold the origin; the deepest one holding it: k0 (none: thin or apart)
//! the nearest face of k0 whose own nearest point is exposed: that point is the answer
//!     (the union's depth is at least every piece's, so nothing nearer is exposed)
//! else every face of the pieces within U (the exit of D's box; then the best found), nearest
//!     first, until a face is farther than the best exposed point found
//! the point is the origin (exactly): touching; the normal leaves through a gap between the
//!     cones of the pieces at the origin
//! ```

use crate::math::Vec2;
use crate::query::part_pairs::{search, PairSearch, Piece as Part};
use crate::query::union_bounded::{OverLimit, LIMIT, WORK};
use crate::query::union_exact::{sum_sign, Prod, Ratio, Sum};
use crate::query::union_exposed::nearest_exposed;
use crate::query::union_faces::{Face, Outline, Piece};
use crate::query::{convex, parts, Contact};
use crate::shape::convex::Convex;
use crate::shape::{Aabb, Shape};
use alloc::vec::Vec;
use core::cell::Cell;
use core::cmp::Ordering;
use core::f64::consts::TAU;
use core::ops::ControlFlow;
use glam::DVec2;

/// The pieces built so far, by the pair of part numbers (`None`: no interior), and the
/// shapes' outlines when they are concave polygons.
struct Pieces<'s> {
    keys: Vec<(u32, u32)>,
    pieces: Vec<Option<Piece>>,
    outlines: [Option<Outline<'s>>; 2],
    /// Neither shape is a compound: the walk visits every pair of parts, in the order of
    /// their numbers, and `Gather` tests their boxes itself.
    plain: bool,
}

/// Collects the pieces whose boxes meet a box of `D`.
struct Gather<'p, 's> {
    set: &'p mut Pieces<'s>,
    lo: DVec2,
    hi: DVec2,
    found: Vec<usize>,
    /// The piece after the one visited last.
    next: usize,
}

impl PairSearch for Gather<'_, '_> {
    type Break = ();

    fn keep(&mut self, a: &Aabb, b: &Aabb) -> Option<f64> {
        let lo = b.min().as_dvec2() - a.max().as_dvec2();
        let hi = b.max().as_dvec2() - a.min().as_dvec2();
        let pad = 1e-12 * lo.abs().max(hi.abs()).max_element() + 1e-300;
        let apart = (lo - pad).cmpgt(self.hi).any() || (hi + pad).cmplt(self.lo).any();
        (!apart).then_some(0.0)
    }

    fn visit_piece(&mut self, a: &Part, ia: u32, b: &Part, ib: u32) -> ControlFlow<()> {
        // Parts of shapes that are not compounds come without a box test of their own (the
        // walk visits every pair); a piece is built when its box first meets one searched.
        if self.set.plain && self.keep(&a.aabb(), &b.aabb()).is_none() {
            return ControlFlow::Continue(());
        }
        self.visit(&a.convex, ia, &b.convex, ib)
    }

    fn visit(&mut self, a: &Convex, ia: u32, b: &Convex, ib: u32) -> ControlFlow<()> {
        // Each walk visits pairs in the same order: the one after the last found comes first.
        let keys = &self.set.keys;
        let known = if keys.get(self.next) == Some(&(ia, ib)) {
            Some(self.next)
        } else {
            keys.iter().position(|&k| k == (ia, ib))
        };
        let k = match known {
            Some(k) => k,
            None => {
                self.set.keys.push((ia, ib));
                let [oa, ob] = &self.set.outlines;
                let oa = oa.as_ref().and_then(|o| o.part(ia as usize));
                let ob = ob.as_ref().and_then(|o| o.part(ib as usize));
                let piece = Piece::new(a.points(), b.points(), oa, ob);
                self.set.pieces.push(piece);
                self.set.pieces.len() - 1
            }
        };
        self.next = k + 1;
        if self.set.pieces[k].is_some() {
            self.found.push(k);
        }
        ControlFlow::Continue(())
    }
}

impl<'s> Pieces<'s> {
    fn new(a: &'s Shape, b: &'s Shape) -> Pieces<'s> {
        // Room for every pair of two polygons' parts, up to the search's limit.
        let count = |s: &Shape| match s {
            Shape::Polygon(p) => p.parts().len(),
            _ => 1,
        };
        let room = count(a).saturating_mul(count(b)).min(LIMIT);
        Pieces {
            keys: Vec::with_capacity(room),
            pieces: Vec::with_capacity(room),
            outlines: [Outline::of(a), Outline::of(b)],
            plain: !matches!(a, Shape::Compound(_)) && !matches!(b, Shape::Compound(_)),
        }
    }

    /// Where piece `k` comes in the walk over every pair: ties between pieces go to the
    /// earlier. Without compounds, pieces are built as their boxes first meet a search's, so
    /// the order is that of the part numbers; with them, each walk visits every kept pair
    /// and the first builds them in order.
    fn rank(&self, k: usize) -> (u32, u32) {
        if self.plain {
            self.keys[k]
        } else {
            (k as u32, 0)
        }
    }

    /// The pieces with interior whose boxes meet the box from `lo` to `hi`.
    fn gather(&mut self, a: &Shape, b: &Shape, lo: DVec2, hi: DVec2) -> Vec<usize> {
        let found = Vec::with_capacity(self.keys.capacity());
        let mut g = Gather {
            set: self,
            lo,
            hi,
            found,
            next: 0,
        };
        let _ = search(a, b, &mut g);
        g.found
    }

    fn get(&self, k: usize) -> &Piece {
        // `gather` lists only pieces with interior.
        self.pieces[k].as_ref().unwrap_or_else(|| unreachable!())
    }
}

/// An exposed point found: piece, face, parameter, the point and its distance (rounded).
#[derive(Clone, Copy)]
struct Found {
    k: usize,
    face: usize,
    t: Ratio,
    x: DVec2,
    dist: f64,
}

/// A face's point this small against its start and direction is computed exactly: `f.at`
/// rounds it by `2^-52` of those, which can be most of it.
const CANCELS: f64 = 1.0 / (1u64 << 40) as f64;

/// The face's box, padded past rounding.
fn face_box(f: &Face) -> (DVec2, DVec2) {
    let end = Sum::diff(f.b1, f.a1).filtered();
    let (p, q) = (f.p, DVec2::new(end.0.value(), end.1.value()));
    let pad = 1e-12 * p.abs().max(q.abs()).max_element() + 1e-300;
    (p.min(q) - pad, p.max(q) + pad)
}

/// A lower bound on the distance (as [`exposed`] rounds it) of every exposed point of `f`,
/// the pieces `others` its possible covers: the face's nearest point `c` lies at `d`; a piece
/// holding the disc of radius `r` around `c` in its interior covers that stretch of the face,
/// so an exposed point `x` has `|x − c| >= r` and, `c` nearest, `|x|² >= d² + r²`. In `f64`,
/// with margins far past the rounding of `c`, `d`, the clearances and `exposed`'s own.
fn exposed_at_least<'p>(f: &Face, d: f64, others: impl Iterator<Item = &'p Piece>) -> f64 {
    let c = crate::query::convex::closest_on_segment(DVec2::ZERO, f.p, f.p + f.e);
    let margin = 1e-9 * (f.p.abs().max_element() + f.e.abs().max_element()) + 1e-300;
    let mut r = 0.0f64;
    for m in others {
        r = r.max(m.clearance(c));
    }
    let (d, r) = ((d - margin).max(0.0), (r - 2.0 * margin).max(0.0));
    crate::math::sqrt(d * d + r * r) * (1.0 - 1e-9) - margin
}

/// The exposed point of face `fi` of piece `k` nearest the origin, with the pieces listed in
/// `near` as the possible covers; `None` also when a cheap bound shows every exposed point of
/// the face lies farther than `beat` (strictly). `work` adds up the pieces the face is
/// weighed against and the decisions that needed exact products ([`nearest_exposed`]).
fn exposed(
    set: &Pieces,
    k: usize,
    fi: usize,
    near: &[usize],
    beat: Option<f64>,
    work: &mut usize,
) -> Option<Found> {
    let f = &set.get(k).faces[fi];
    let (lo, hi) = face_box(f);
    let others = near
        .iter()
        .filter(|&&m| m != k)
        .map(|&m| set.get(m))
        .filter(|p| p.meets(lo, hi));
    // Deep in the union most faces lie inside one other piece, decided in `f64`: covered,
    // without the exact stretches.
    let (p, q) = (f.p, f.p + f.e);
    if others.clone().any(|m| m.holds_inside(p, q)) {
        return None;
    }
    if beat.is_some_and(|b| exposed_at_least(f, f.distance(), others.clone()) > b) {
        return None;
    }
    let exact = Cell::new(0);
    let t = nearest_exposed(f, others, &exact);
    *work += exact.get();
    let t = t?;
    let mut x = f.at(t.approx());
    if x.abs().max_element() <= CANCELS * f.p.abs().max(f.e.abs()).max_element() {
        // The sum cancelled (the point is near the origin, the face's start far): its
        // rounding may be all of it, even to exactly zero. Exactly, then rounded.
        x = t.point_on(f.start(), f.dir());
    }
    Some(Found {
        k,
        face: fi,
        t,
        x,
        dist: x.length(),
    })
}

/// The contact of `a` and `b` (every part without radius, one of them concave or compound);
/// `Err` when more than [`LIMIT`] pieces lie within the search's reach, or its work (faces
/// weighed against one piece, exact decisions more: [`nearest_exposed`]) passes [`WORK`].
pub(crate) fn contact(a: &Shape, b: &Shape) -> Result<Option<Contact>, OverLimit> {
    let mut set = Pieces::new(a, b);
    let at_origin = set.gather(a, b, DVec2::ZERO, DVec2::ZERO);
    let holding: Vec<(usize, f64)> = at_origin
        .iter()
        .filter_map(|&k| set.get(k).origin_depth().map(|d| (k, d)))
        .collect();
    let Some(&(k0, depth0)) = holding.iter().reduce(|x, y| if y.1 > x.1 { y } else { x }) else {
        // No piece with interior holds the origin: apart, or touching where a thin part
        // (a segment or point of each shape) meets the other.
        return Ok(parts::contact(a, b));
    };
    let mut order: Vec<(f64, usize)> = set
        .get(k0)
        .faces
        .iter()
        .enumerate()
        .map(|(i, f)| (f.distance(), i))
        .collect();
    // Keys are distinct (the face numbers): an unstable sort gives the same order.
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    // The deepest piece's nearest face: exposed at its own nearest point, that is the answer.
    let mut best: Option<Found> = None;
    let slack = 1e-9 * (depth0 + scale(&set, k0));
    // One search for the covers of all of `k0`'s faces: `exposed` keeps those meeting a face.
    let near_k0 = {
        let k = set.get(k0);
        let (lo, hi) = (k.lo, k.hi);
        set.gather(a, b, lo, hi)
    };
    if near_k0.len() > LIMIT {
        return Err(OverLimit);
    }
    let mut work = 0;
    for &(d, fi) in &order {
        if d > depth0 + slack {
            break;
        }
        if work > WORK {
            return Err(OverLimit);
        }
        if !set.get(k0).faces[fi].outline {
            continue;
        }
        // A face that can neither answer here nor beat `best` is skipped.
        let beat = best.map(|b| b.dist.max(d + slack));
        if let Some(found) = exposed(&set, k0, fi, &near_k0, beat, &mut work) {
            if found.dist <= d + slack {
                return Ok(Some(finish(&set, &found, &holding)));
            }
            if best.is_none_or(|b| found.dist < b.dist) {
                best = Some(found);
            }
        }
    }
    // Every face within the best bound, nearest first.
    let (dlo, dhi) = (
        b.aabb().min().as_dvec2() - a.aabb().max().as_dvec2(),
        b.aabb().max().as_dvec2() - a.aabb().min().as_dvec2(),
    );
    let exit = (-dlo).min(dhi).min_element().max(0.0);
    let far = dlo.abs().max(dhi.abs()).length();
    let out = {
        let f = &set.get(k0).faces[order[0].1];
        DVec2::new(f.e.y, -f.e.x).normalize_or(DVec2::X)
    };
    let exit = exit.min(ray_exit(&mut set, a, b, out, far));
    let bound = best.map_or(exit, |b| b.dist.min(exit));
    let reach = bound * (1.0 + 1e-9) + slack;
    let near = set.gather(a, b, DVec2::splat(-reach), DVec2::splat(reach));
    if near.len() > LIMIT {
        return Err(OverLimit);
    }
    let set_ref = &set;
    let mut faces: Vec<(f64, (u32, u32), usize, usize)> = near
        .iter()
        .flat_map(|&k| {
            set_ref
                .get(k)
                .faces
                .iter()
                .enumerate()
                .filter(|(_, f)| f.outline)
                .map(move |(i, f)| (f.distance(), set_ref.rank(k), k, i))
        })
        .filter(|&(d, ..)| d <= reach)
        .collect();
    faces.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.3).cmp(&(y.1, y.3))));
    for &(d, _, k, fi) in &faces {
        if best.is_some_and(|b| d > b.dist + slack) {
            break;
        }
        if work > WORK {
            return Err(OverLimit);
        }
        if let Some(found) = exposed(&set, k, fi, &near, best.map(|b| b.dist), &mut work) {
            if best.is_none_or(|b| found.dist < b.dist) {
                best = Some(found);
            }
        }
    }
    Ok(match best {
        Some(found) => Some(finish(&set, &found, &holding)),
        // Unreachable but for rounding: the box's exit is exposed.
        None => parts::contact(a, b),
    })
}

/// A distance at least that of the union's boundary from the origin (the origin in the
/// union): where the ray from the origin along `u` leaves the union of the pieces' covers
/// ([`Piece::ray_cover`], supersets, so it leaves no sooner than the union does, and that
/// exit is a boundary point), `far` at most. Cheap, in `f64`: it bounds the exact search.
fn ray_exit(set: &mut Pieces, a: &Shape, b: &Shape, u: DVec2, far: f64) -> f64 {
    let end = u * far;
    let on_ray = set.gather(a, b, end.min(DVec2::ZERO), end.max(DVec2::ZERO));
    let mut covers: Vec<(f64, f64)> = on_ray
        .iter()
        .filter_map(|&k| set.get(k).ray_cover(u))
        .collect();
    crate::sort::sort_by(&mut covers, |x, y| x.0.total_cmp(&y.0));
    let mut reach = 0.0f64;
    for (lo, hi) in covers {
        if lo > reach {
            break;
        }
        reach = reach.max(hi);
    }
    // `|u|` is 1 within rounding.
    (reach * (1.0 + 1e-12)).min(far)
}

/// The largest coordinate of a piece's box: the scale of its rounding.
fn scale(set: &Pieces, k: usize) -> f64 {
    let p = set.get(k);
    p.lo.abs().max(p.hi.abs()).max_element()
}

/// The contact for the exposed point `found`: `b` moves by `−x`; at the origin (exactly), the
/// normal leaves through the widest gap between the cones of the pieces `holding` it.
fn finish(set: &Pieces, found: &Found, holding: &[(usize, f64)]) -> Contact {
    let f = &set.get(found.k).faces[found.face];
    let at_origin = f.origin_side().is_eq() && found.t.cmp(&f.foot()).is_eq();
    let (normal, depth) = if at_origin {
        let out = DVec2::new(f.e.y, -f.e.x);
        let w = widest_gap(set, holding).unwrap_or(out);
        (-w.normalize_or(DVec2::X), 0.0)
    } else {
        // Scaled first: the square of a tiny distance can underflow.
        let x = found.x / found.x.abs().max_element();
        (-x.normalize(), found.dist)
    };
    // Where the shapes touch after the move, taken back half of it: midway.
    let t = found.t.approx();
    let on_a = f.a0.as_dvec2() + (f.a1.as_dvec2() - f.a0.as_dvec2()) * t;
    let point = convex::clamp_to_f32(on_a + found.x * 0.5);
    Contact::new(normal.as_vec2(), depth as f32, &[point])
}

/// The middle of the widest range of directions from the origin that no piece holding it
/// covers (exactly decided; the middle rounded); when they cover every direction, one along
/// which they only slide (a cone's edge inside no cone), else `None`.
fn widest_gap(set: &Pieces, holding: &[(usize, f64)]) -> Option<DVec2> {
    // Each piece's edges through the origin: its cone there is the intersection of their
    // sides; the cones' edges are the rays along them.
    let cones: Vec<Vec<Sum>> = holding
        .iter()
        .map(|&(k, _)| {
            set.get(k)
                .faces
                .iter()
                .filter(|f| f.origin_side().is_eq())
                .map(Face::dir)
                .collect()
        })
        .collect();
    let mut rays: Vec<Sum> = cones
        .iter()
        .flatten()
        .flat_map(|&d| [d, d.perp().perp()])
        .collect();
    crate::sort::sort_by(&mut rays, angle_order);
    rays.dedup_by(|x, y| angle_order(x, y).is_eq());
    let covers =
        |w: &dyn Fn(&Sum) -> Ordering| cones.iter().any(|cone| cone.iter().all(|d| w(d).is_ge()));
    let mut widest: Option<(f64, DVec2)> = None;
    let n = rays.len();
    for i in 0..n.max(1) {
        let (from, to) = match n {
            0 => (Sum::diff(Vec2::X, Vec2::ZERO), None),
            _ => (rays[i], (n > 1).then(|| rays[(i + 1) % n])),
        };
        let convex_gap = to.filter(|to| Prod::cross(from, *to).sign().is_gt());
        // A direction strictly inside the gap: the sum of its edges, or a quarter turn past
        // `from` when the gap is half a turn or more.
        let covered = match convex_gap {
            Some(to) => covers(&|d| sum_sign(&Prod::cross(*d, from), &Prod::cross(*d, to))),
            None => covers(&|d| Prod::cross(*d, from.perp()).sign()),
        };
        if covered {
            continue;
        }
        let a0 = angle(from.approx());
        let width = to.map_or(TAU, |to| {
            let w = angle(to.approx()) - a0;
            if w < 0.0 {
                w + TAU
            } else {
                w
            }
        });
        let width = if width == 0.0 { TAU } else { width };
        if widest.is_none_or(|(w, _)| width > w) {
            let (s, c) = libm::sincos(a0 + width * 0.5);
            widest = Some((width, DVec2::new(c, s)));
        }
    }
    // No gap: every direction overlaps some piece or slides along it. Not expected once the
    // origin is exposed (the side of the face exposing it lies in no piece), but should it
    // come: a ray on the edges of cones but inside none only slides. (The box in a notch in
    // `union_contact` came here while a face's covers were merged in the pieces' order.)
    widest.map(|(_, d)| d).or_else(|| {
        rays.iter()
            .find(|r| {
                !cones
                    .iter()
                    .any(|cone| cone.iter().all(|d| Prod::cross(*d, **r).sign().is_gt()))
            })
            .map(|r| r.approx())
    })
}

/// The angle of `v` (libm's, the same bits on every platform).
fn angle(v: DVec2) -> f64 {
    libm::atan2(v.y, v.x)
}

/// Counter-clockwise angle order from the positive x axis, exactly.
fn angle_order(x: &Sum, y: &Sum) -> Ordering {
    x.half()
        .cmp(&y.half())
        .then_with(|| Prod::cross(*y, *x).sign())
}
