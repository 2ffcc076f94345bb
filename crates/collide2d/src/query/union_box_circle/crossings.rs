//! The crossings of the hitbox–circle path's rounded rectangles: where the sides and arcs
//! of two of them cross, by bounding boxes first (in the search's ring), then by formula.

use super::few::Few;
use super::search::Candidates;
use super::{Rounded, CLEAR, MOST_PARTS};
use crate::math::sqrt;
use core::mem::MaybeUninit;
use glam::DVec2;

impl Rounded {
    /// The corners of the box, each with the signs of its arc's quadrant.
    pub(super) fn corners(&self) -> [(DVec2, DVec2); 4] {
        let (lo, hi) = (self.lo, self.hi);
        [
            (hi, DVec2::new(1.0, 1.0)),
            (DVec2::new(lo.x, hi.y), DVec2::new(-1.0, 1.0)),
            (lo, DVec2::new(-1.0, -1.0)),
            (DVec2::new(hi.x, lo.y), DVec2::new(1.0, -1.0)),
        ]
    }

    /// Appends to `out` the sides and arcs whose bounding boxes (widened by `pad`) reach
    /// into the ring whose squared radii are `near2..=far2` around the origin (the ring
    /// of the crossings, widened by `pad`) and lie in none of the boxes `grown`: the others
    /// hold no candidate worth trying. (A rectangle's own features lie out of its grown box.)
    /// (Out of line, as the search's other steps: inlined into it, they cost more.)
    #[inline(never)]
    fn features(
        &self,
        (near2, far2): (f64, f64),
        pad: f64,
        grown: &[(DVec2, DVec2)],
        out: &mut Few<'_, Edge, 24>,
    ) {
        // The whole rectangle, widened past its features' boxes, outside the ring: so are they.
        let (lo, hi) = self.reach(2.0 * pad);
        if !in_ring(lo, hi, (near2, far2)) {
            return;
        }
        // Each feature with its bounding box (least corner first), widened by `pad`: a
        // side's is its segment's, an arc's spans its centre `c` to `c + s * r` (`s` of ±1).
        let mut keep = |kind: Kind, (lo, hi): (DVec2, DVec2)| {
            if in_ring(lo, hi, (near2, far2))
                && !grown
                    .iter()
                    .any(|&(g, h)| g.cmple(lo).all() && hi.cmple(h).all())
            {
                out.push(Edge { kind, lo, hi });
            }
        };
        // The boxes' spans along each axis (x and y at once): the sides at `lo − r` and at
        // `hi + r`, the sides across `lo..hi`, the arcs towards `lo` and towards `hi`.
        let (lo, hi, r) = (self.lo, self.hi, self.r);
        let (below, above) = (lo - r, hi + r);
        let low_side = (below - pad, below + pad);
        let high_side = (above - pad, above + pad);
        let across = (lo - pad, hi + pad);
        let low_arc = (below - pad, lo + pad);
        let high_arc = (hi - pad, above + pad);
        // The box of the spans `x` along x and `y` along y.
        let at = |x: (DVec2, DVec2), y: (DVec2, DVec2)| {
            (DVec2::new(x.0.x, y.0.y), DVec2::new(x.1.x, y.1.y))
        };
        // The sides (right, left, top, bottom), then the arcs (as `corners` lists them).
        let side = |x: f64, y: f64, u: f64, v: f64| Kind::Side(DVec2::new(x, y), DVec2::new(u, v));
        keep(side(above.x, lo.y, above.x, hi.y), at(high_side, across));
        keep(side(below.x, lo.y, below.x, hi.y), at(low_side, across));
        keep(side(lo.x, above.y, hi.x, above.y), at(across, high_side));
        keep(side(lo.x, below.y, hi.x, below.y), at(across, low_side));
        let [c0, c1, c2, c3] = self.corners();
        keep(Kind::Arc(c0.0, c0.1), at(high_arc, high_arc));
        keep(Kind::Arc(c1.0, c1.1), at(low_arc, high_arc));
        keep(Kind::Arc(c2.0, c2.1), at(low_arc, low_arc));
        keep(Kind::Arc(c3.0, c3.1), at(high_arc, low_arc));
    }

    /// The box grown by `r + pad`: where its boundary lies.
    fn reach(&self, pad: f64) -> (DVec2, DVec2) {
        let grow = DVec2::splat(self.r + pad);
        (self.lo - grow, self.hi + grow)
    }
}

/// The box `[lo, hi]` reaches into the ring whose squared radii are `near2..=far2`.
fn in_ring(lo: DVec2, hi: DVec2, (near2, far2): (f64, f64)) -> bool {
    DVec2::ZERO.clamp(lo, hi).length_squared() <= far2
        && lo.abs().max(hi.abs()).length_squared() >= near2
}

/// A side (a segment) or an arc (its circle's centre and its quadrant's signs).
#[derive(Clone, Copy)]
enum Kind {
    Side(DVec2, DVec2),
    Arc(DVec2, DVec2),
}

/// A side or arc of a rounded rectangle and its (widened) bounding box.
#[derive(Clone, Copy)]
struct Edge {
    kind: Kind,
    lo: DVec2,
    hi: DVec2,
}

impl Edge {
    fn meets(&self, lo: DVec2, hi: DVec2) -> bool {
        self.lo.cmple(hi).all() && lo.cmple(self.hi).all()
    }
}

/// Where the boundaries of the rounded rectangles `d` (all grown by `r`) cross, with their
/// distances, when in the ring `near..=far`; `scale` is the largest coordinate.
pub(super) fn crossings(
    d: &[Rounded],
    r: f64,
    (near, far): (f64, f64),
    scale: f64,
    out: &mut Candidates<'_>,
) {
    // Feature boxes are widened far beyond the crossings' rounding: they only prune.
    let pad = 1e-9 * (1.0 + r + scale);
    let mut buffer = MaybeUninit::uninit();
    let mut edges = Few::<Edge, 24>::new(&mut buffer);
    // A feature deep inside another difference (by twice the margin `stand` takes as
    // covered, and the pad: its crossings lie in its widened box) holds no crossing worth
    // trying: they all stand covered. Every point of a box grown by `hold / √2` lies within
    // `hold` of it (a little less: rounding), deeper than `deep` in its difference.
    let deep = 2.0 * CLEAR * scale + pad;
    let hold = r - deep;
    let mut grown = [(DVec2::ZERO, DVec2::ZERO); MOST_PARTS];
    for (g, piece) in grown.iter_mut().zip(d) {
        let by = hold * core::f64::consts::FRAC_1_SQRT_2 * 0.999;
        *g = (piece.lo - by, piece.hi + by);
    }
    let grown = &grown[..d.len()];
    let grown = if hold > 0.0 { grown } else { &[] };
    let (wide_far, wide_near) = (far + pad, (near - pad).max(0.0));
    let ring = (wide_near * wide_near, wide_far * wide_far);
    let mut ends = [0; MOST_PARTS];
    for (piece, end) in d.iter().zip(&mut ends) {
        piece.features(ring, pad, grown, &mut edges);
        *end = edges.as_slice().len();
    }
    pairs(edges.as_slice(), &ends[..d.len()], r, (near, far), out);
}

/// Where the edges of different rounded rectangles cross (all arcs of radius `r`), with
/// their distances, when in the ring `near..=far`: rectangle `k`'s edges end at `ends[k]`
/// in `edges`, and each is paired with the later rectangles' edges whose boxes it meets.
/// (Out of line, as the search's other steps: inlined into it, they cost more.)
#[inline(never)]
fn pairs(edges: &[Edge], ends: &[usize], r: f64, (near, far): (f64, f64), out: &mut Candidates) {
    let tol = 1e-12 * (1.0 + r);
    let mut start = 0;
    for &end in ends {
        let Some((ours, theirs)) = edges.get(start..).map(|rest| rest.split_at(end - start)) else {
            return;
        };
        start = end;
        for f in ours {
            for g in theirs {
                if !f.meets(g.lo, g.hi) {
                    continue;
                }
                let (xs, n) = match (f.kind, g.kind) {
                    (Kind::Side(p, q), Kind::Side(u, w)) => segments_cross(p, q, u, w, tol),
                    (Kind::Side(p, q), Kind::Arc(c, s)) | (Kind::Arc(c, s), Kind::Side(p, q)) => {
                        segment_arc(p, q, c, s, r, tol)
                    }
                    (Kind::Arc(c, s), Kind::Arc(e, t)) => arcs_cross(c, s, e, t, r, tol),
                };
                for &x in &xs[..n] {
                    let t = x.length();
                    if t >= near && t <= far {
                        out.push((t, x));
                    }
                }
            }
        }
    }
}

/// `v` points into the closed quadrant of signs `s` (up to `tol`-sized rounding).
pub(super) fn in_quadrant(v: DVec2, s: DVec2) -> bool {
    let (x, y) = (v.x * s.x, v.y * s.y);
    if x >= 0.0 && y >= 0.0 {
        return true;
    }
    let tol = 1e-12 * v.abs().max_element().max(1.0);
    x >= -tol && y >= -tol
}

/// Up to two points, and how many.
type Points = ([DVec2; 2], usize);

/// The crossing of two axis-parallel segments, one vertical and one horizontal.
fn segments_cross(p: DVec2, q: DVec2, u: DVec2, w: DVec2, tol: f64) -> Points {
    let within = |v: f64, a: f64, b: f64| a.min(b) - tol <= v && v <= a.max(b) + tol;
    if p.x == q.x && u.y == w.y && within(p.x, u.x, w.x) && within(u.y, p.y, q.y) {
        ([DVec2::new(p.x, u.y), DVec2::ZERO], 1)
    } else if p.y == q.y && u.x == w.x && within(u.x, p.x, q.x) && within(p.y, u.y, w.y) {
        ([DVec2::new(u.x, p.y), DVec2::ZERO], 1)
    } else {
        ([DVec2::ZERO; 2], 0)
    }
}

/// The crossings of an axis-parallel segment and the arc of radius `r` around `c` in the
/// quadrant of signs `s`.
fn segment_arc(p: DVec2, q: DVec2, c: DVec2, s: DVec2, r: f64, tol: f64) -> Points {
    let mut out = ([DVec2::ZERO; 2], 0);
    let vertical = p.x == q.x;
    // Along the segment's line: the offset from the circle's center across it.
    let (across, lo, hi, centre) = if vertical {
        (p.x - c.x, p.y.min(q.y), p.y.max(q.y), c.y)
    } else {
        (p.y - c.y, p.x.min(q.x), p.x.max(q.x), c.x)
    };
    // A side's end meets the next arc tangentially: within rounding, one point.
    let h2 = r * r - across * across;
    if h2 < -tol * r {
        return out;
    }
    let h = sqrt(h2.max(0.0));
    let ts = [centre - h, centre + h];
    for &t in &ts[..if h == 0.0 { 1 } else { 2 }] {
        if t < lo - tol || t > hi + tol {
            continue;
        }
        let x = if vertical {
            DVec2::new(p.x, t)
        } else {
            DVec2::new(t, p.y)
        };
        if in_quadrant(x - c, s) {
            out.0[out.1] = x;
            out.1 += 1;
        }
    }
    out
}

/// The crossings of two arcs of radius `r`.
fn arcs_cross(c: DVec2, s: DVec2, e: DVec2, t: DVec2, r: f64, tol: f64) -> Points {
    let mut out = ([DVec2::ZERO; 2], 0);
    let d = e - c;
    let len2 = d.length_squared();
    let h2 = r * r - len2 * 0.25;
    if len2 == 0.0 || h2 < -tol {
        return out;
    }
    let m = c + d * 0.5;
    let off = d.perp() * (sqrt(h2.max(0.0)) / sqrt(len2));
    for x in [m + off, m - off] {
        if in_quadrant(x - c, s) && in_quadrant(x - e, t) {
            out.0[out.1] = x;
            out.1 += 1;
        }
    }
    out
}
