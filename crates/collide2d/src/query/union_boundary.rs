//! The boundary of a union of convex pieces, in `f64`: whether a point is inside the union's
//! interior, and the points where the boundary's nearest point to the origin can lie.
//!
//! Each [`Piece`] is a convex hull dilated by a radius: the Minkowski difference `B_j − A_i` of
//! one part of each shape. A point is inside the union's interior when it lies inside some piece
//! by more than a tolerance, or on the boundaries of several pieces whose tangent cones there
//! cover every direction between them (two flat faces back to back: a seam). A flat face's cone
//! is a closed half-plane (a polygon corner's, a closed wedge); a rounded face's only the open
//! half-plane, since a curve leaves a sliver uncovered along its tangent. Where a rounded corner
//! meets a flat face, the half-plane is closed on the flat face's side only. Two cones cover the
//! direction where they meet only when both ends there are closed: beside an open end (an arc
//! curving away from its tangent) a sliver stays outside both, so the point is on the boundary.
//!
//! The nearest boundary point lies on some piece's boundary, where the distance to the origin is
//! smallest along a face (its foot or its ends) or where two pieces' boundaries cross; those are
//! the candidates [`candidates`] lists.

use crate::query::convex::closest_on_segment;
use crate::query::minkowski::{difference, Difference};
use crate::shape::convex::Convex;
use alloc::vec::Vec;
use core::f64::consts::{PI, TAU};
use glam::DVec2;

/// One convex piece: a hull (counter-clockwise; 1 point, 2, or a polygon) dilated by a radius.
pub(crate) struct Piece {
    diff: Difference,
    /// The outward unit normal of each edge (from point `i` to the next).
    normals: Vec<DVec2>,
}

/// Where a point lies with respect to a piece.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Side {
    Outside,
    Inside,
    /// On the boundary, within the tolerance.
    Boundary,
}

/// A set of directions: the angles from `start` counter-clockwise through `len`, each end
/// included when closed (`closed.0` the start, `closed.1` the end): a flat face's direction,
/// where the piece's boundary runs straight; an open end is an arc's tangent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cone {
    start: f64,
    len: f64,
    closed: (bool, bool),
}

/// The hull feature of a piece nearest to a point: its distance (negative inside the hull),
/// the nearest hull point, and whether that point is a vertex (or the hull is a single point).
struct Nearest {
    signed: f64,
    hull_point: DVec2,
    at_vertex: Option<usize>,
}

/// Angles wrapped into `[0, 2π)`.
trait Wrap {
    fn wrap(self) -> f64;
}

impl Wrap for f64 {
    fn wrap(self) -> f64 {
        self - TAU * libm::floor(self / TAU)
    }
}

/// The angle of `v` (libm's, the same bits on every platform).
fn angle(v: DVec2) -> f64 {
    libm::atan2(v.y, v.x)
}

/// The unit vector at angle `a` (libm's, the same bits on every platform).
fn direction(a: f64) -> DVec2 {
    let (sin, cos) = libm::sincos(a);
    DVec2::new(cos, sin)
}

/// The counter-clockwise angle from direction `u` to direction `v`, in `[0, 2π)`.
fn turn(u: DVec2, v: DVec2) -> f64 {
    let t = angle(v) - angle(u);
    if t < 0.0 {
        t + TAU
    } else {
        t
    }
}

impl Piece {
    /// `B − A` for the convex parts `a` and `b`.
    pub fn new(a: &Convex, b: &Convex) -> Piece {
        let diff = difference(a, b);
        let pts = diff.points();
        let n = pts.len();
        // An edge that rounded to length zero (a part's short side added to coordinates far
        // larger) takes the normal of the nearest edge before it with a length: its line runs
        // through the same point, so the half-planes stay those of the hull. (A fixed normal
        // there cut the hull and called points deep inside it outside.)
        let normals = (0..n)
            .map(|i| {
                (0..n)
                    .map(|back| {
                        let k = (i + n - back) % n;
                        let e = pts[(k + 1) % n] - pts[k];
                        DVec2::new(e.y, -e.x)
                    })
                    .find(|m| *m != DVec2::ZERO)
                    .map_or(DVec2::X, DVec2::normalize)
            })
            .collect();
        Piece { diff, normals }
    }

    fn points(&self) -> &[DVec2] {
        self.diff.points()
    }

    fn radius(&self) -> f64 {
        self.diff.radius
    }

    /// Where the segment from the origin to `d` runs through the piece: the fractions of `d`
    /// where it enters and leaves (`None` when it misses).
    pub fn span(&self, d: DVec2) -> Option<(f64, f64)> {
        self.diff
            .line_span(d)
            .filter(|s| s.exit >= 0.0 && s.enter <= 1.0)
            .map(|s| (s.enter, s.exit))
    }

    /// The piece has no interior (a point or a segment without radius).
    fn is_thin(&self) -> bool {
        self.points().len() <= 2 && self.radius() == 0.0
    }

    /// The outward unit normal of edge `i` (from point `i` to the next).
    fn normal(&self, i: usize) -> DVec2 {
        self.normals[i]
    }

    /// The unit direction of edge `i`, from its normal (so a zero-length edge has one).
    fn along(&self, i: usize) -> DVec2 {
        let m = self.normal(i);
        DVec2::new(-m.y, m.x)
    }

    fn nearest(&self, x: DVec2) -> Nearest {
        let pts = self.points();
        let n = pts.len();
        if n >= 3 {
            // Inside the hull: the edge whose line is nearest.
            let (mut top, mut edge) = (f64::NEG_INFINITY, 0);
            for (i, (&p, m)) in pts.iter().zip(&self.normals).enumerate() {
                let s = m.dot(x - p);
                if s > top {
                    (top, edge) = (s, i);
                }
            }
            if top <= 0.0 {
                let hull_point = x - self.normal(edge) * top;
                return Nearest {
                    signed: top,
                    hull_point,
                    at_vertex: None,
                };
            }
        }
        let count = if n >= 3 { n } else { 1 };
        let mut best = Nearest {
            signed: f64::INFINITY,
            hull_point: pts[0],
            at_vertex: Some(0),
        };
        for i in 0..count {
            let (p, q) = (pts[i], pts[(i + 1) % n]);
            let h = closest_on_segment(x, p, q);
            let d = h.distance(x);
            if d < best.signed {
                let at_vertex = if h == p {
                    Some(i)
                } else if h == q {
                    Some((i + 1) % n)
                } else {
                    None
                };
                best = Nearest {
                    signed: d,
                    hull_point: h,
                    at_vertex,
                };
            }
        }
        best
    }

    /// Where `x` lies, within `eps`; on the boundary, the piece's tangent cone there (the
    /// directions from `x` into the piece) is pushed onto `cones` (none for a thin piece).
    pub fn classify(&self, x: DVec2, eps: f64, cones: &mut Vec<Cone>) -> Side {
        let near = self.nearest(x);
        let signed = near.signed - self.radius();
        if signed < -eps {
            return Side::Inside;
        }
        if signed > eps {
            return Side::Outside;
        }
        if self.is_thin() {
            return Side::Boundary;
        }
        let pts = self.points();
        let n = pts.len();
        if self.radius() > eps && near.signed > 0.0 {
            // On the rounded boundary: the half-plane towards the hull, closed along a flat side.
            let inward = near.hull_point - x;
            let start = angle(inward) - PI / 2.0;
            let closed = match near.at_vertex {
                None => (n >= 2, n >= 2),
                Some(i) => {
                    self.flat_side(i, x - near.hull_point, eps)
                        .map_or((false, false), |along| {
                            let at_start = along.dot(direction(start)) > 0.0;
                            (at_start, !at_start)
                        })
                }
            };
            cones.push(Cone {
                start,
                len: PI,
                closed,
            });
            return Side::Boundary;
        }
        // A polygon's corner: the wedge between its edges; else the half-plane of the nearest edge.
        let corner = (0..n).find(|&i| pts[i].distance(x) <= eps);
        let cone = match corner {
            Some(i) => {
                // Along the edges with a length on either side (see `new`).
                let ahead = (i..i + n)
                    .find(|&k| pts[(k + 1) % n] != pts[k % n])
                    .unwrap_or(i);
                let (out, back) = (self.along(ahead % n), -self.along((i + n - 1) % n));
                Cone {
                    start: angle(out),
                    len: turn(out, back),
                    closed: (true, true),
                }
            }
            None => {
                let edge = (0..n)
                    .map(|i| (i, self.normal(i).dot(x - pts[i]).abs()))
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .map_or(0, |(i, _)| i);
                Cone {
                    start: angle(self.along(edge)),
                    len: PI,
                    closed: (true, true),
                }
            }
        };
        cones.push(cone);
        Side::Boundary
    }

    /// Where the rounded corner at hull vertex `i` meets the flat side of one of its edges at
    /// the point `hull[i] + out` (within `eps` of that side's line): the direction of the flat
    /// side from there. Moving that way stays on the boundary; moving along the corner's arc
    /// leaves the piece.
    fn flat_side(&self, i: usize, out: DVec2, eps: f64) -> Option<DVec2> {
        let pts = self.points();
        let n = pts.len();
        if n < 2 {
            return None;
        }
        let (next, prev) = ((i + 1) % n, (i + n - 1) % n);
        [(i, pts[next] - pts[i]), (prev, pts[prev] - pts[i])]
            .into_iter()
            .find(|&(e, _)| {
                let m = self.normal(e);
                m.dot(out) > 0.0 && m.perp_dot(out).abs() <= eps
            })
            .map(|(_, along)| along)
    }

    /// The faces of the boundary, as segments and arcs.
    fn faces(&self, out: &mut Vec<Face>) {
        let (pts, r) = (self.points(), self.radius());
        let n = pts.len();
        match n {
            1 if r > 0.0 => {
                for (start, from) in [(0.0, DVec2::X), (PI, DVec2::NEG_X)] {
                    out.push(Face::Arc {
                        center: pts[0],
                        radius: r,
                        start,
                        len: PI,
                        ends: (from, -from),
                    });
                }
            }
            1 => out.push(Face::Segment(pts[0], pts[0])),
            2 if r == 0.0 => out.push(Face::Segment(pts[0], pts[1])),
            _ => {
                let sides = if n == 2 { 2 } else { n };
                for i in 0..sides {
                    // A segment's two sides are its two edges there and back.
                    let (p, q) = if n == 2 && i == 1 {
                        (pts[1], pts[0])
                    } else {
                        (pts[i], pts[(i + 1) % n])
                    };
                    let m = self.normal(i);
                    out.push(Face::Segment(p + m * r, q + m * r));
                    if r > 0.0 {
                        let after = if n == 2 { -m } else { self.normal((i + 1) % n) };
                        out.push(Face::Arc {
                            center: q,
                            radius: r,
                            start: angle(m),
                            len: turn(m, after),
                            ends: (m, after),
                        });
                    }
                }
            }
        }
    }
}

impl Cone {
    /// The direction `d` lies in the cone: within `tol` radians of a closed end, more than
    /// `tol` inside an open one.
    pub fn holds(&self, d: DVec2, tol: f64) -> bool {
        let t = (angle(d) - self.start).wrap();
        let (from, to) = self.ends(tol, false);
        let r = (t - from).wrap();
        // An open end excludes its own direction.
        r <= to - from && (self.closed.0 || r > 0.0) && (self.closed.1 || r < to - from)
    }

    /// The cone's angles relative to `start`, widened by `tol` at a closed end and narrowed at
    /// an open one. With `cover`, an open end is narrowed by `2 tol`: a closed end meeting it
    /// within `tol` leaves a gap (the sliver beside an arc), where two closed ends meeting within
    /// `2 tol` leave none (a seam).
    fn ends(&self, tol: f64, cover: bool) -> (f64, f64) {
        let open = if cover { -2.0 * tol } else { -tol };
        let widen = |closed: bool| if closed { tol } else { open };
        (-widen(self.closed.0), self.len + widen(self.closed.1))
    }
}

/// Whether some direction lies in none of `cones`; `tol` widens closed cones and narrows open
/// ones (radians). `None` when covered; else the middle direction of the widest gap, among the
/// directions that leave every cone when there are some, else among those that only slide
/// along a flat face (beside an arc that curves away from it).
pub(crate) fn widest_gap(cones: &[Cone], tol: f64) -> Option<DVec2> {
    let sliding = gap_of(cones, tol, true)?;
    Some(gap_of(cones, tol, false).unwrap_or(sliding))
}

/// The widest gap's middle direction of `cones` with their ends as [`Cone::ends`] gives them.
fn gap_of(cones: &[Cone], tol: f64, cover: bool) -> Option<DVec2> {
    let mut spans: Vec<(f64, f64)> = cones
        .iter()
        .filter_map(|c| {
            let (from, to) = c.ends(tol, cover);
            let (s, e) = (c.start + from, c.start + to);
            (e > s).then(|| {
                let s0 = s.wrap();
                (s0, s0 + (e - s).min(TAU))
            })
        })
        .collect();
    if spans.is_empty() {
        return Some(DVec2::X);
    }
    crate::sort::sort_by(&mut spans, |a, b| {
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    let first = spans[0].0;
    // Spans from before `first + 2π` that wrap past it cover the start of the sweep.
    let mut reach = spans.iter().fold(spans[0].1, |m, s| m.max(s.1 - TAU));
    let mut widest: Option<(f64, f64)> = None;
    let mut gap = |from: f64, to: f64| {
        if to > from && widest.is_none_or(|(a, b)| to - from > b - a) {
            widest = Some((from, to));
        }
    };
    for &(s, e) in &spans[1..] {
        if s > reach {
            gap(reach, s);
        }
        reach = reach.max(e);
    }
    gap(reach, first + TAU);
    widest.map(|(a, b)| direction((a + b) * 0.5))
}

/// A face of a piece's boundary.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Face {
    Segment(DVec2, DVec2),
    /// The points `center + radius * (cos θ, sin θ)`, θ from `start` through `len`; `ends`
    /// the unit directions at `start` and `start + len`.
    Arc {
        center: DVec2,
        radius: f64,
        start: f64,
        len: f64,
        ends: (DVec2, DVec2),
    },
}

impl Face {
    /// A lower bound on the distance from the origin to the face.
    fn reach(&self) -> f64 {
        match *self {
            Face::Segment(p, q) => closest_on_segment(DVec2::ZERO, p, q).length(),
            Face::Arc { center, radius, .. } => (center.length() - radius).abs(),
        }
    }

    /// The angle `a` lies within the arc (up to `1e-9` radians).
    fn holds(start: f64, len: f64, a: f64) -> bool {
        let t = (a - start).wrap();
        t <= len + 1e-9 || t >= TAU - 1e-9
    }

    /// The direction `v` (from the arc's centre) lies within the arc: [`Face::holds`] of its
    /// angle, decided first by cross products with the arc's end directions where `v` is
    /// clearly inside or outside (the sine of its angle to an end past `1e-6`, far past the
    /// angles' rounding and the `1e-9`: the same answer, without an `atan2`).
    fn holds_direction(start: f64, len: f64, (from, to): (DVec2, DVec2), v: DVec2) -> bool {
        // The wedge test below describes arcs up to a half turn.
        if len <= PI + 1e-7 {
            let margin = 1e-6 * (v.x.abs() + v.y.abs());
            let (after_start, before_end) = (from.perp_dot(v), v.perp_dot(to));
            if after_start > margin && before_end > margin {
                return true;
            }
            if after_start < -margin || before_end < -margin {
                return false;
            }
        }
        Face::holds(start, len, angle(v))
    }

    /// The points of the face where the distance to the origin can be least on a part of it:
    /// its ends and its nearest point.
    fn own_points(&self, out: &mut Vec<DVec2>) {
        match *self {
            Face::Segment(p, q) => out.extend([p, q, closest_on_segment(DVec2::ZERO, p, q)]),
            Face::Arc {
                center,
                radius,
                start,
                len,
                ends,
            } => {
                let at = |a: f64| center + direction(a) * radius;
                out.extend([at(start), at(start + len)]);
                if let Some(u) = (-center).try_normalize() {
                    if Face::holds_direction(start, len, ends, u) {
                        out.push(center + u * radius);
                    }
                }
            }
        }
    }

    /// The points where two faces cross.
    fn crossings(&self, other: &Face, out: &mut Vec<DVec2>) {
        match (*self, *other) {
            (Face::Segment(p, q), Face::Segment(r, s)) => {
                let (e, f) = (q - p, s - r);
                let den = e.perp_dot(f);
                if den != 0.0 {
                    let t = (r - p).perp_dot(f) / den;
                    let u = (r - p).perp_dot(e) / den;
                    if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
                        out.push(p + e * t);
                    }
                }
            }
            (Face::Segment(p, q), arc @ Face::Arc { .. })
            | (arc @ Face::Arc { .. }, Face::Segment(p, q)) => arc.line_crossings(p, q, out),
            (
                Face::Arc {
                    center: c1,
                    radius: r1,
                    start: s1,
                    len: l1,
                    ends: e1,
                },
                Face::Arc {
                    center: c2,
                    radius: r2,
                    start: s2,
                    len: l2,
                    ends: e2,
                },
            ) => {
                let d = c2 - c1;
                let dist = d.length();
                if dist == 0.0 || dist > r1 + r2 || dist < (r1 - r2).abs() {
                    return;
                }
                let along = (dist * dist + r1 * r1 - r2 * r2) / (2.0 * dist);
                let across = crate::math::sqrt((r1 * r1 - along * along).max(0.0));
                let (u, v) = (d / dist, d.perp() / dist);
                for sign in [1.0, -1.0] {
                    let x = c1 + u * along + v * (across * sign);
                    if Face::holds_direction(s1, l1, e1, x - c1)
                        && Face::holds_direction(s2, l2, e2, x - c2)
                    {
                        out.push(x);
                    }
                }
            }
        }
    }

    /// Where the segment `pq` crosses this arc.
    fn line_crossings(&self, p: DVec2, q: DVec2, out: &mut Vec<DVec2>) {
        let Face::Arc {
            center,
            radius,
            start,
            len,
            ends,
        } = *self
        else {
            return;
        };
        let (e, w) = (q - p, p - center);
        let a = e.length_squared();
        if a == 0.0 {
            return;
        }
        let (b, c) = (w.dot(e), w.length_squared() - radius * radius);
        let disc = b * b - a * c;
        if disc < 0.0 {
            return;
        }
        let root = crate::math::sqrt(disc);
        for t in [(-b - root) / a, (-b + root) / a] {
            let x = p + e * t;
            if (0.0..=1.0).contains(&t) && Face::holds_direction(start, len, ends, x - center) {
                out.push(x);
            }
        }
    }
}

/// A face that comes within reach of the origin: its piece's index, its distance bound
/// ([`Face::reach`]) and its box, widened far past rounding (faces whose boxes are apart have
/// no crossing, so their pair is skipped without the arithmetic of one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NearFace {
    piece: usize,
    face: Face,
    pub(crate) reach: f64,
    lo: DVec2,
    hi: DVec2,
}

impl NearFace {
    fn new(piece: usize, face: Face, reach: f64) -> NearFace {
        let (lo, hi) = match face {
            Face::Segment(p, q) => (p.min(q), p.max(q)),
            Face::Arc { center, radius, .. } => (center - radius, center + radius),
        };
        let pad = 1e-9 * lo.abs().max(hi.abs()).max_element() + f64::MIN_POSITIVE;
        NearFace {
            piece,
            face,
            reach,
            lo: lo - pad,
            hi: hi + pad,
        }
    }

    /// The faces' boxes meet: they may cross.
    fn may_cross(&self, other: &NearFace) -> bool {
        self.lo.cmple(other.hi).all() && other.lo.cmple(self.hi).all()
    }

    /// Points whose convex hull holds the face: a convex piece holding them all holds the
    /// whole face, and no point of it (an end, its foot, a crossing) is on the union's
    /// boundary. A segment's ends; an arc's ends and, for each quarter turn of it at most,
    /// the point where the tangents at that stretch's ends meet.
    pub(crate) fn hull_points(&self, out: &mut Vec<DVec2>) {
        match self.face {
            Face::Segment(p, q) => out.extend([p, q]),
            Face::Arc {
                center,
                radius,
                start,
                len,
                ..
            } => {
                let steps = libm::ceil(len / (PI / 2.0)).max(1.0);
                let step = len / steps;
                let apex = radius / libm::cos(step / 2.0);
                out.push(center + direction(start) * radius);
                for k in 0..steps as usize {
                    let from = start + step * k as f64;
                    out.push(center + direction(from + step / 2.0) * apex);
                    out.push(center + direction(from + step) * radius);
                }
            }
        }
    }
}

/// The faces of `pieces` that come within `high` of the origin, with their piece's index.
pub(crate) fn faces_within(pieces: &[&Piece], high: f64) -> Vec<NearFace> {
    // A rounded box has 8 faces: room for them without growing.
    let mut faces = Vec::with_capacity(8 * pieces.len());
    let mut own = Vec::with_capacity(8);
    for (k, piece) in pieces.iter().enumerate() {
        own.clear();
        piece.faces(&mut own);
        for &f in &own {
            let reach = f.reach();
            if reach <= high {
                faces.push(NearFace::new(k, f, reach));
            }
        }
    }
    faces
}

/// The candidates for the boundary point nearest to the origin on `faces`, at distance in
/// `[low, high]`, sorted by distance (ties in the order found): each face's ends and nearest
/// point when `crossings` is false, else the crossings of faces of different pieces.
pub(crate) fn candidates(
    faces: &[NearFace],
    crossings: bool,
    low: f64,
    high: f64,
) -> Vec<(f64, DVec2)> {
    // Three points a face, or room for two crossings a face before growing.
    let mut points = Vec::with_capacity(if crossings { 2 } else { 3 } * faces.len());
    for (i, f) in faces.iter().enumerate() {
        if !crossings {
            f.face.own_points(&mut points);
            continue;
        }
        if f.reach > high {
            continue;
        }
        for g in &faces[i + 1..] {
            if f.piece != g.piece && g.reach <= high && f.may_cross(g) {
                f.face.crossings(&g.face, &mut points);
            }
        }
    }
    let mut found: Vec<(f64, DVec2)> = points
        .into_iter()
        .map(|x| (x.length(), x))
        .filter(|&(d, _)| d >= low && d <= high)
        .collect();
    crate::sort::sort_by(&mut found, |a, b| a.0.total_cmp(&b.0));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cone(start_deg: f64, len_deg: f64, closed: bool) -> Cone {
        let closed = (closed, closed);
        Cone {
            start: start_deg.to_radians(),
            len: len_deg.to_radians(),
            closed,
        }
    }

    #[test]
    fn two_rounded_corners_meeting_flat_faces_back_to_back_stay_on_the_boundary() {
        // One piece above the x axis (its flat face along +x, its arc curving up over -x),
        // one below (flat along -x, arc down over +x): the slivers beside the arcs are outside
        // both, so the point is not covered, though a move along either axis only slides along
        // a flat face. The gap then is one of those slides.
        let slide = |start_deg: f64| Cone {
            start: start_deg.to_radians(),
            len: PI,
            closed: (true, false),
        };
        let gap = widest_gap(&[slide(0.0), slide(180.0)], 1e-9).unwrap();
        assert!(gap.y.abs() < 1e-6, "{gap}");
    }

    #[test]
    fn a_flat_face_meeting_an_arcs_tangent_leaves_the_sliver_between_them_open() {
        // A notch's tip: the piece above curves up from its tangent along -x, the flat face
        // below runs along the axis; the sliver between them along -x is outside both. Along
        // +x the two flat ends meet: a seam.
        let arc_over_minus_x = Cone {
            start: 0.0,
            len: PI,
            closed: (true, false),
        };
        let flat_below = cone(180.0, 180.0, true);
        let gap = widest_gap(&[arc_over_minus_x, flat_below], 1e-9).unwrap();
        assert!(gap.distance(-DVec2::X) < 1e-6, "{gap}");
        // Still open when they overlap by less than the tolerance, and covered past it.
        for (overlap, open) in [(0.5e-9, true), (3e-9, false)] {
            let flat = Cone {
                start: PI - overlap,
                len: PI + overlap,
                ..flat_below
            };
            let got = widest_gap(&[arc_over_minus_x, flat], 1e-9);
            assert_eq!(got.is_some(), open, "{overlap}: {got:?}");
        }
    }

    #[test]
    fn closed_half_planes_back_to_back_cover_every_direction() {
        let seam = [cone(0.0, 180.0, true), cone(180.0, 180.0, true)];
        assert!(widest_gap(&seam, 1e-9).is_none());
    }

    #[test]
    fn open_half_planes_back_to_back_leave_their_tangent_uncovered() {
        let tangent = [cone(0.0, 180.0, false), cone(180.0, 180.0, false)];
        let gap = widest_gap(&tangent, 1e-9).unwrap();
        assert!(gap.y.abs() < 1e-6, "{gap}");
    }

    #[test]
    fn a_reflex_corner_leaves_the_notch_open_and_points_into_it() {
        // An L's reflex corner: interior directions from 0 through 270 degrees.
        let l = [cone(0.0, 180.0, true), cone(90.0, 180.0, true)];
        let gap = widest_gap(&l, 1e-9).unwrap();
        let want = direction(315f64.to_radians());
        assert!(gap.distance(want) < 1e-9, "{gap}");
    }

    #[test]
    fn cones_wrapping_past_a_full_turn_count_from_the_start() {
        let wrap = [cone(300.0, 120.0, true), cone(60.0, 240.0, true)];
        assert!(widest_gap(&wrap, 1e-9).is_none());
    }
}
