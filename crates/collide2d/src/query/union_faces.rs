//! The faces of a union of convex polygons `D_k = B_j − A_i` (Minkowski differences of one
//! part of each shape, no radius) and which parts of a face lie on the union's boundary, with
//! every decision exact ([`union_exact`](crate::query::union_exact)).
//!
//! A face of `D_k` is an edge of `B_j` moved by `−a*` (the vertex of `A_i` extreme against
//! the edge's normal) or an edge of `−A_i` moved by `b*`. A point `x` of a face, with outward
//! normal `n`, lies on the boundary of the union's exterior when `x + εn` (every small `ε`)
//! lies in no other piece: the union's exterior is then on that side. A piece covers such
//! points along a face in one interval of the face's parameter (it is convex), bounded by
//! where the face crosses its edges' lines; where a face runs along another piece's edge back
//! to back (a seam between two parts), the other piece covers it. The rest of the face, and
//! the ends of its covered stretches, is exposed: the nearest exposed point of any face is
//! the union's nearest boundary point.
//!
//! Faces off the outline ([`Face::outline`]). When a shape is one concave polygon whose parts
//! tile it edge to edge, a face along a diagonal of its decomposition is covered but for its
//! ends by the piece of the part across the diagonal, and a face whose vertex of that polygon
//! is reflex or does not face the other part's edge, by a piece of the part the polygon
//! reaches past the edge's line with. The search weighs only the other faces, and loses no
//! answer: at an exposed point `x` of any face, `x + εn` lies in no piece, so the union's
//! exterior comes up to `x`; its boundary near `x` runs along exposed stretches of faces,
//! which are not those covered but for their ends, so `x` lies on, or at the end of, an
//! exposed stretch of a face weighed, whose nearest exposed point is no farther.

use crate::exact::{dot, orient, Field, Filtered};
use crate::math::Vec2;
use crate::query::union_exact::{cross_f, dot_f, Prod, Ratio, Sum};
use crate::shape::Shape;
use alloc::vec::Vec;
use core::cmp::Ordering;
use glam::DVec2;

/// One face: from `b0 − a0` to `b1 − a1`, where `a0 == a1` (an edge of `B` moved) or
/// `b0 == b1` (an edge of `−A` moved).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    pub b0: Vec2,
    pub a0: Vec2,
    pub b1: Vec2,
    pub a1: Vec2,
    /// Start and direction, rounded.
    pub p: DVec2,
    pub e: DVec2,
    /// Start and direction in [`Filtered`], for the filters of the exact decisions.
    pub fs: (Filtered, Filtered),
    pub fd: (Filtered, Filtered),
    /// The face may hold exposed points other than isolated ones (module docs): `false` only
    /// when it surely holds none.
    pub outline: bool,
}

impl Face {
    fn new(b0: Vec2, a0: Vec2, b1: Vec2, a1: Vec2) -> Face {
        let start = Sum::diff(b0, a0);
        let dir = Sum::of(b1, b0, a0, a1);
        let (fs, fd) = (start.filtered(), dir.filtered());
        Face {
            b0,
            a0,
            b1,
            a1,
            p: DVec2::new(fs.0.value(), fs.1.value()),
            e: DVec2::new(fd.0.value(), fd.1.value()),
            fs,
            fd,
            outline: true,
        }
    }

    /// The start `b0 − a0`, exactly.
    #[inline]
    pub fn start(&self) -> Sum {
        Sum::diff(self.b0, self.a0)
    }

    /// The direction `(b1 − a1) − (b0 − a0)`, exactly.
    #[inline]
    pub fn dir(&self) -> Sum {
        Sum::of(self.b1, self.b0, self.a0, self.a1)
    }

    /// `start − other.start`, exactly.
    #[inline]
    pub fn start_from(&self, other: &Face) -> Sum {
        Sum::of(self.b0, other.b0, other.a0, self.a0)
    }

    /// The origin's side of the face's line: `Greater` inside (left of the direction).
    #[inline]
    pub fn origin_side(&self) -> Ordering {
        // The filter from the face's values: the same as the product's own.
        Prod::cross(self.start(), self.dir()).sign_given(cross_f(self.fs, self.fd))
    }

    /// The parameter of the point of the face's line nearest the origin.
    #[inline]
    pub fn foot(&self) -> Ratio {
        let (s, d) = (self.start(), self.dir());
        // The filters from the face's values: the same as the products' own.
        let num = Filtered::exact(0.0).sub(dot_f(self.fs, self.fd));
        Ratio::with(
            Prod::dot(s, d).neg(),
            Prod::dot(d, d),
            num,
            dot_f(self.fd, self.fd),
        )
    }

    /// The point at parameter `t`, rounded.
    #[inline]
    pub fn at(&self, t: f64) -> DVec2 {
        self.p + self.e * t
    }

    /// The distance from the origin to the segment, rounded.
    pub fn distance(&self) -> f64 {
        crate::query::convex::closest_on_segment(DVec2::ZERO, self.p, self.p + self.e).length()
    }
}

/// A piece `B_j − A_i` with interior: its faces (counter-clockwise, collinear ones possible)
/// and a box holding it (padded past rounding).
pub(crate) struct Piece {
    pub faces: Vec<Face>,
    pub lo: DVec2,
    pub hi: DVec2,
}

/// The edges of a hull as index pairs: a segment's two sides, none for a point.
fn edges(n: usize) -> impl Iterator<Item = (usize, usize)> {
    let count = match n {
        1 => 0,
        2 => 2,
        _ => n,
    };
    (0..count).map(move |i| (i, (i + 1) % n))
}

/// The point of `pts` least along `u` turned clockwise (least `p × u`), the one farthest
/// along `tie` among equals; exact. Only points whose `p × u` in `f64` comes within its
/// error bound of the least are compared exactly, in order: the others are surely greater.
fn extreme(pts: &[Vec2], u: Sum, tie: Sum) -> usize {
    let (uf, bound) = u.approx_bounded();
    // `p × u` rounded, and a bound on its error: `u`'s own, and the products' and the
    // difference's roundings (each within `2^-52` of the magnitudes), far exceeded.
    let key = |p: Vec2| {
        let p = p.as_dvec2();
        let value = p.x * uf.y - p.y * uf.x;
        let size = (p.x.abs() + p.y.abs()) * (uf.x.abs() + uf.y.abs() + bound);
        (value, size * 1e-12)
    };
    let least = pts.iter().fold(f64::INFINITY, |m, &p| {
        let (v, e) = key(p);
        m.min(v + e)
    });
    let mut near = pts.iter().copied().enumerate().filter(|&(_, p)| {
        let (v, e) = key(p);
        v - e <= least
    });
    let Some((mut at, mut best)) = near.next() else {
        return 0;
    };
    for (i, p) in near {
        let by_normal = Prod::cross(Sum::diff(p, best), u).sign();
        let better = by_normal.is_lt()
            || (by_normal.is_eq() && Prod::dot(Sum::diff(p, best), tie).sign().is_gt());
        if better {
            (at, best) = (i, p);
        }
    }
    at
}

/// A concave polygon's outline: its ring (counter-clockwise), where each point of each of its
/// parts lies on it, which of the parts' edges are diagonals, and which of its vertices are
/// reflex, to tell the faces that cannot bound the union ([`Face::outline`]).
pub(crate) struct Outline<'s> {
    ring: &'s [Vec2],
    /// Part `i`'s points' places on the ring: `places[first[i]..first[i + 1]]`.
    places: Vec<u32>,
    /// Likewise: the part's edge from that point to the next is no edge of the ring.
    diagonal: Vec<bool>,
    first: Vec<usize>,
    /// By place on the ring: the vertex is reflex.
    reflex: Vec<bool>,
}

impl<'s> Outline<'s> {
    /// The outline of `shape` when it is a concave polygon whose parts tile it edge to edge
    /// (every edge of the ring is an edge of one part), else `None`: every face counts. (A
    /// vertex the decomposition left straight, or a part's hull that dropped one after a
    /// transform, leaves an edge of the ring inside a part's edge.)
    pub fn of(shape: &'s Shape) -> Option<Outline<'s>> {
        let Shape::Polygon(poly) = shape else {
            return None;
        };
        let ring = poly.points();
        let n = ring.len();
        if poly.parts().len() < 2 || n > u32::MAX as usize {
            return None;
        }
        let points: usize = poly.parts().iter().map(|p| p.points().len()).sum();
        let mut places = Vec::with_capacity(points);
        let mut diagonal = Vec::with_capacity(points);
        let mut first = Vec::with_capacity(poly.parts().len() + 1);
        let mut seen = alloc::vec![false; n];
        for part in poly.parts() {
            first.push(places.len());
            let start = places.len();
            for p in part.points() {
                // The ring's points are distinct (it is simple).
                let at = ring.iter().position(|q| q == p)?;
                places.push(at as u32);
            }
            let m = places.len() - start;
            for k in 0..m {
                let (s, t) = (
                    places[start + k] as usize,
                    places[start + (k + 1) % m] as usize,
                );
                let along_ring = (s + 1) % n == t;
                if along_ring {
                    if seen[s] {
                        return None;
                    }
                    seen[s] = true;
                }
                diagonal.push(!along_ring);
            }
        }
        if seen.contains(&false) {
            return None;
        }
        first.push(places.len());
        // `(here − prev) × (next − here)` is `orient(prev, here, next)`, exactly.
        let reflex = (0..n)
            .map(|i| {
                let (prev, next) = (ring[(i + n - 1) % n], ring[(i + 1) % n]);
                orient(prev, ring[i], next).is_lt()
            })
            .collect();
        Some(Outline {
            ring,
            places,
            diagonal,
            first,
            reflex,
        })
    }

    /// Part `i`'s view of the outline.
    pub fn part(&self, i: usize) -> Option<OnOutline<'_>> {
        let range = *self.first.get(i)?..*self.first.get(i + 1)?;
        Some(OnOutline {
            ring: self.ring,
            reflex: &self.reflex,
            places: self.places.get(range.clone())?,
            diagonal: self.diagonal.get(range)?,
        })
    }
}

/// One part's points' places on its polygon's outline, and its diagonals.
#[derive(Clone, Copy)]
pub(crate) struct OnOutline<'s> {
    ring: &'s [Vec2],
    reflex: &'s [bool],
    places: &'s [u32],
    diagonal: &'s [bool],
}

impl OnOutline<'_> {
    /// The part's edge from point `s` to the next is an edge of the outline (else a
    /// diagonal: inside the polygon but for isolated points).
    fn edge(&self, s: usize) -> bool {
        !self.diagonal[s]
    }

    /// The polygon near the part's point `v` lies on the side of the line through it along
    /// `e = to − from` where `e × (y − v) <= 0` (the other shape's edge, along `e`, touches it
    /// there from outside): `false` when the vertex is reflex, or one of its outline neighbours
    /// lies strictly on the other side, exactly.
    fn faces(&self, v: usize, from: Vec2, to: Vec2) -> bool {
        let n = self.ring.len();
        let at = self.places[v] as usize;
        if self.reflex[at] {
            return false;
        }
        let (prev, here, next) = (
            self.ring[(at + n - 1) % n],
            self.ring[at],
            self.ring[(at + 1) % n],
        );
        // `e × w = e · (w turned a quarter clockwise)`, each point turned exactly: the signs
        // of `e × (here − prev)` and `(next − here) × e` by `exact::dot`'s filter.
        let cw = |p: Vec2| Vec2::new(p.y, -p.x);
        !dot(from, to, cw(prev), cw(here)).is_lt() && !dot(from, to, cw(next), cw(here)).is_lt()
    }
}

impl Piece {
    /// `B − A` for the hulls `a` and `b` (radius 0), or `None` when it has no interior;
    /// `oa`, `ob`: the hulls' places on their concave polygons' outlines, if any, to mark the
    /// faces that cannot bound the union ([`Face::outline`]).
    pub fn new(
        a: &[Vec2],
        b: &[Vec2],
        oa: Option<OnOutline>,
        ob: Option<OnOutline>,
    ) -> Option<Piece> {
        if a.len() <= 2 && b.len() <= 2 {
            let crossing = a.len() == 2
                && b.len() == 2
                && Prod::cross(Sum::diff(b[1], b[0]), Sum::diff(a[1], a[0]))
                    .sign()
                    .is_ne();
            if !crossing {
                return None;
            }
        }
        let mut faces = Vec::with_capacity(a.len() + b.len() + 2);
        for (s, t) in edges(b.len()) {
            let u = Sum::diff(b[t], b[s]);
            // The vertex of `A` least along the edge's outward normal; among equals the one
            // where `−A`'s parallel edge starts, so the two faces on one line meet end to end.
            let i = extreme(a, u, u);
            let a_star = a[i];
            let mut face = Face::new(b[s], a_star, b[t], a_star);
            // Inside the union but for isolated points: a diagonal of `B`'s polygon, or a
            // vertex of `A`'s that does not face the edge (the edge, of a part with interior,
            // bounds a half-plane near it).
            face.outline = ob.is_none_or(|o| o.edge(s))
                && (b.len() < 3 || oa.is_none_or(|o| o.faces(i, b[s], b[t])));
            faces.push(face);
        }
        for (s, t) in edges(a.len()) {
            // `−A`'s edge runs from `−a[s]` to `−a[t]`, along `w = a[s] − a[t]`.
            // The vertex of `B` farthest along that edge's outward normal; among equals the
            // one farthest along `w`, where `B`'s parallel edge ends.
            let w = Sum::diff(a[s], a[t]);
            let u = Sum::diff(a[t], a[s]);
            let i = extreme(b, u, w);
            let b_star = b[i];
            let mut face = Face::new(b_star, a[s], b_star, a[t]);
            face.outline = oa.is_none_or(|o| o.edge(s))
                && (a.len() < 3 || ob.is_none_or(|o| o.faces(i, a[s], a[t])));
            faces.push(face);
        }
        let (alo, ahi) = bounds(a);
        let (blo, bhi) = bounds(b);
        let (lo, hi) = (blo - ahi, bhi - alo);
        let pad = DVec2::splat(1e-12 * lo.abs().max(hi.abs()).max_element() + 1e-300);
        Some(Piece {
            faces,
            lo: lo - pad,
            hi: hi + pad,
        })
    }

    /// The origin lies in the piece (closed), exactly; with its distance to the boundary,
    /// rounded.
    pub fn origin_depth(&self) -> Option<f64> {
        let mut depth = f64::INFINITY;
        for f in &self.faces {
            if f.origin_side().is_lt() {
                return None;
            }
            depth = depth.min(f.p.perp_dot(f.e) / f.e.length());
        }
        Some(depth.max(0.0))
    }

    /// An interval of `t >= 0` holding every `t` where the ray `t u` is inside the piece
    /// (`u` of length about 1), or `None` when the ray surely misses it: a superset, widened
    /// past the rounding of the faces' values (each within `2^-52` of itself, see
    /// [`Filtered`]), so that a union of these covers at least what the pieces cover.
    pub fn ray_cover(&self, u: DVec2) -> Option<(f64, f64)> {
        const EPS: f64 = 1e-13;
        let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
        for f in &self.faces {
            let len = f.e.length();
            if len == 0.0 || !len.is_finite() {
                continue;
            }
            // Inside the face's side: t a >= b, a = (e × u) / |e|, b = (e × p) / |e| (the
            // signed distance of the line beyond the origin), each within its delta.
            let (a, b) = (f.e.perp_dot(u) / len, f.e.perp_dot(f.p) / len);
            let (da, db) = (EPS, EPS * (f.p.x.abs() + f.p.y.abs()) + 1e-300);
            if a - da > 0.0 {
                // t >= b / a: its least over the deltas.
                let num = b - db;
                lo = lo.max(num / if num >= 0.0 { a + da } else { a - da });
            } else if a + da < 0.0 {
                // t <= b / a: its greatest over the deltas (a < 0: the least b, then the
                // a of least size when that b is at most 0, of most size when above).
                let num = b - db;
                hi = hi.min(num / if num <= 0.0 { a + da } else { a - da });
            } else if b - db > 0.0 {
                // Along the ray, the origin outside: from where the steepest tilt allows.
                lo = lo.max((b - db) / (a.abs() + da));
            }
        }
        (lo <= hi).then_some((lo, hi))
    }

    /// The segment from `p` to `q` (rounded values of exact points, each coordinate within
    /// `2^-52` of itself) lies in the piece's interior, decided in `f64` with a margin far
    /// above the rounding: `false` when unsure.
    pub fn holds_inside(&self, p: DVec2, q: DVec2) -> bool {
        const EPS: f64 = 1e-12;
        self.faces.iter().all(|g| {
            let inside = |x: DVec2| {
                let (w, e) = (x - g.p, g.e);
                let side = e.x * w.y - e.y * w.x;
                let size =
                    (e.x.abs() + e.y.abs()) * (x.x.abs() + x.y.abs() + g.p.x.abs() + g.p.y.abs());
                side > EPS * size
            };
            inside(p) && inside(q)
        })
    }

    /// A radius `r` such that the disc of radius `r` around `c` lies in the piece's interior
    /// (0 when unsure): the least distance of `c` inside the faces' lines, in `f64`, less a
    /// margin far past the rounding of the faces' values and of this sum.
    pub fn clearance(&self, c: DVec2) -> f64 {
        const EPS: f64 = 1e-12;
        let mut r = f64::INFINITY;
        for g in &self.faces {
            let (w, e) = (c - g.p, g.e);
            let len = e.length();
            if len == 0.0 {
                continue;
            }
            let side = e.x * w.y - e.y * w.x;
            let size =
                (e.x.abs() + e.y.abs()) * (c.x.abs() + c.y.abs() + g.p.x.abs() + g.p.y.abs());
            r = r.min((side - EPS * size) / len * (1.0 - EPS));
            if r <= 0.0 {
                return 0.0;
            }
        }
        if r.is_finite() {
            r
        } else {
            0.0
        }
    }

    /// The piece's box meets the box from `lo` to `hi`.
    pub fn meets(&self, lo: DVec2, hi: DVec2) -> bool {
        !(self.lo.cmpgt(hi).any() || self.hi.cmplt(lo).any())
    }
}

/// The box of a hull, in `f64`.
fn bounds(pts: &[Vec2]) -> (DVec2, DVec2) {
    pts.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(p.as_dvec2()), hi.max(p.as_dvec2())),
    )
}
