//! The union contact of a hitbox of axis-aligned boxes and a circle (either order), without
//! the general search: each difference `D_k` of a box and the circle is a rounded
//! rectangle, a box `[lo, hi]` grown by the radius `r`, whose signed distance is cheap.
//!
//! The union's nearest boundary point is the deepest pair's own (when no other difference
//! covers it: that pair's contact, bit for bit as the certificate gives it), or one of these
//! candidates: a rounded rectangle's nearest point on a side or arc, a side's end, or a
//! crossing of two rounded rectangles' boundaries (side-side, side-arc, arc-arc). Nearest
//! first, the first candidate no difference covers and whose differences' outward normals
//! leave a way out (two face to face are a seam) is the answer.
//!
//! Every decision is taken only when it is clear by a margin far above rounding and the
//! general search's tolerance: where a point is within that margin of another difference,
//! two normals are nearly opposite, two pairs are equally deep, or two candidates nearly
//! equally near, this path steps aside and the general search
//! ([`union_rounded`](crate::query::union_rounded)) decides, so the two never disagree on a
//! decision.

use crate::math::sqrt;
use crate::query::{circle_aabb, Contact};
use crate::shape::{Aabb, Shape};
use glam::DVec2;

mod few;
mod touch;

use few::Few;

/// The most boxes this path takes.
const MOST_PARTS: usize = 8;

/// A decision is clear when its distance passes this margin, relative to the largest
/// coordinate: the certificate's, four times the convex contacts' documented error.
const CLEAR: f64 = 4e-6;

/// A point lies on a difference's boundary when within this of it, relative to the largest
/// coordinate: below the general search's tolerance (`1e-9`), above rounding.
const ON: f64 = 1e-11;

/// Normals at a point whose cross product is below this are face to face: undecided.
const OPPOSITE: f64 = 1e-6;

/// Candidate points of the boundary: their distances to the origin, and the points.
type Candidates = Few<(f64, DVec2), 16>;

/// A rounded rectangle: the box `[lo, hi]` grown by `r`.
#[derive(Clone, Copy)]
struct Rounded {
    lo: DVec2,
    hi: DVec2,
    r: f64,
}

impl Rounded {
    /// The signed distance from `x` to the boundary (negative inside), and the outward
    /// normal there.
    #[inline]
    fn distance(&self, x: DVec2) -> (f64, DVec2) {
        let q = x.clamp(self.lo, self.hi);
        let d = x - q;
        if d != DVec2::ZERO {
            let len = d.length();
            return (len - self.r, d / len);
        }
        // Inside the box: the nearest side.
        let sides = [
            (x.x - self.lo.x, DVec2::NEG_X),
            (self.hi.x - x.x, DVec2::X),
            (x.y - self.lo.y, DVec2::NEG_Y),
            (self.hi.y - x.y, DVec2::Y),
        ];
        let (t, n) = sides
            .iter()
            .fold(sides[0], |m, &s| if s.0 < m.0 { s } else { m });
        (-t - self.r, n)
    }

    /// The points of the boundary where the distance to the origin is locally least along
    /// it (the feet of the sides facing the origin, each arc's nearest point), with their
    /// distances, when at least `near`.
    fn own(&self, near: f64, out: &mut Candidates) {
        let (lo, hi, r) = (self.lo, self.hi, self.r);
        let mut keep = |x: DVec2| {
            let t = x.length();
            if t >= near {
                out.push((t, x));
            }
        };
        if lo.y <= 0.0 && 0.0 <= hi.y {
            keep(DVec2::new(hi.x + r, 0.0));
            keep(DVec2::new(lo.x - r, 0.0));
        }
        if lo.x <= 0.0 && 0.0 <= hi.x {
            keep(DVec2::new(0.0, hi.y + r));
            keep(DVec2::new(0.0, lo.y - r));
        }
        for (c, s) in self.corners() {
            let len = c.length();
            if len > 0.0 {
                let p = c - c / len * r;
                if in_quadrant(p - c, s) {
                    keep(p);
                }
            }
        }
    }

    /// The corners of the box, each with the signs of its arc's quadrant.
    fn corners(&self) -> [(DVec2, DVec2); 4] {
        let (lo, hi) = (self.lo, self.hi);
        [
            (hi, DVec2::new(1.0, 1.0)),
            (DVec2::new(lo.x, hi.y), DVec2::new(-1.0, 1.0)),
            (lo, DVec2::new(-1.0, -1.0)),
            (DVec2::new(hi.x, lo.y), DVec2::new(1.0, -1.0)),
        ]
    }

    /// The sides, as segments `(from, to)`.
    fn sides(&self) -> [(DVec2, DVec2); 4] {
        let (lo, hi, r) = (self.lo, self.hi, self.r);
        [
            (DVec2::new(hi.x + r, lo.y), DVec2::new(hi.x + r, hi.y)),
            (DVec2::new(lo.x - r, lo.y), DVec2::new(lo.x - r, hi.y)),
            (DVec2::new(lo.x, hi.y + r), DVec2::new(hi.x, hi.y + r)),
            (DVec2::new(lo.x, lo.y - r), DVec2::new(hi.x, lo.y - r)),
        ]
    }

    /// Appends to `out` the sides and arcs whose bounding boxes (widened by `pad`) reach
    /// into the ring `near..=far` around the origin: the others hold no candidate worth
    /// trying.
    fn features(&self, near: f64, far: f64, pad: f64, out: &mut Few<Edge, 24>) {
        let (far, near) = (far + pad, (near - pad).max(0.0));
        let (far2, near2) = (far * far, near * near);
        // The whole rectangle, widened past its features' boxes, outside the ring: so are they.
        let (lo, hi) = self.reach(2.0 * pad);
        if DVec2::ZERO.clamp(lo, hi).length_squared() > far2
            || lo.abs().max(hi.abs()).length_squared() < near2
        {
            return;
        }
        let mut keep = |kind: Kind, p: DVec2, q: DVec2| {
            let (lo, hi) = (p.min(q) - pad, p.max(q) + pad);
            let least = DVec2::ZERO.clamp(lo, hi).length_squared();
            let most = lo.abs().max(hi.abs()).length_squared();
            if least <= far2 && most >= near2 {
                out.push(Edge { kind, lo, hi });
            }
        };
        for (p, q) in self.sides() {
            keep(Kind::Side(p, q), p, q);
        }
        for (c, s) in self.corners() {
            keep(Kind::Arc(c, s), c, c + s * self.r);
        }
    }

    /// The box grown by `r + pad`: where its boundary lies.
    fn reach(&self, pad: f64) -> (DVec2, DVec2) {
        let grow = DVec2::splat(self.r + pad);
        (self.lo - grow, self.hi + grow)
    }
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

/// Where the edges of different rounded rectangles cross (all arcs of radius `r`), with
/// their distances, when in the ring `near..=far`: rectangle `k`'s edges end at `ends[k]`
/// in `edges`, and each is paired with the later rectangles' edges whose boxes it meets.
fn crossings(
    edges: &[Edge],
    ends: &[usize],
    r: f64,
    (near, far): (f64, f64),
    out: &mut Candidates,
) {
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
fn in_quadrant(v: DVec2, s: DVec2) -> bool {
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

/// The least distance at which one of the four half-axes from the origin leaves the union
/// of `d` (which holds the origin): each rounded rectangle covers an interval of each axis.
fn axis_exit(d: &[Rounded]) -> f64 {
    let mut least = f64::INFINITY;
    for axis in 0..2 {
        // The spans along `axis`, at 0 on the other axis.
        let mut spans = [(0.0, 0.0); MOST_PARTS];
        let mut count = 0;
        for piece in d {
            let (lo, hi) = (piece.lo.to_array(), piece.hi.to_array());
            let off = DVec2::ZERO.clamp(piece.lo, piece.hi).to_array()[1 - axis];
            let h2 = piece.r * piece.r - off * off;
            if h2 > 0.0 {
                let h = sqrt(h2);
                spans[count] = (lo[axis] - h, hi[axis] + h);
                count += 1;
            }
        }
        // Walk out each way while some span goes on.
        let (mut up, mut down) = (0.0f64, 0.0f64);
        let mut moved = true;
        while moved {
            moved = false;
            for &(lo, hi) in &spans[..count] {
                if lo <= up && up < hi {
                    (up, moved) = (hi, true);
                }
                if lo < down && down <= hi {
                    (down, moved) = (lo, true);
                }
            }
        }
        least = least.min(up).min(-down);
    }
    least
}

/// The parts of a hitbox, when they are few, and its bounding box (the caller checks that
/// each part is an axis-aligned box).
fn boxes(s: &Shape) -> Option<(&[Shape], Aabb)> {
    let Shape::Compound(c) = s else {
        return None;
    };
    let parts = c.parts();
    (parts.len() <= MOST_PARTS).then_some((parts, c.aabb()))
}

/// How a point stands against the differences.
enum Stand {
    /// Inside one of them by more than the margin.
    Covered,
    /// On the union's boundary, with a way out: the differences it lies on (a bit each).
    Open(u8),
    /// Too near a decision to take it here.
    Unclear,
}

/// Classifies `x` against the differences `d`; `scale` is the largest coordinate.
fn stand(d: &[Rounded], x: DVec2, scale: f64) -> Stand {
    let (mut on, mut normals) = (0u8, [DVec2::ZERO; 2]);
    let mut count = 0;
    let mut unclear = false;
    for (k, piece) in d.iter().enumerate() {
        let (sd, n) = piece.distance(x);
        if sd < -CLEAR * scale {
            return Stand::Covered;
        }
        if sd.abs() <= ON * scale {
            on |= 1 << k;
            // Normals alike count once.
            if normals[..count]
                .iter()
                .any(|m| m.dot(n) > 0.0 && m.perp_dot(n).abs() <= OPPOSITE)
            {
                continue;
            }
            if count == 2 {
                unclear = true;
                continue;
            }
            normals[count] = n;
            count += 1;
        } else if sd <= CLEAR * scale {
            unclear = true;
        }
    }
    if unclear || on == 0 {
        return Stand::Unclear;
    }
    // Two normals leave a way out unless face to face (a seam).
    let (m, n) = (normals[0], normals[1]);
    if count == 2 && m.dot(n) < 0.0 && m.perp_dot(n).abs() <= OPPOSITE {
        return Stand::Unclear;
    }
    Stand::Open(on)
}

/// The nearest candidate of `near` (distance, point) on the union's boundary with a way
/// out, and the differences it lies on; `Err` when a decision is unclear, or another open
/// candidate lies about as near (the search may choose either).
fn nearest_open(
    mut near: &mut [(f64, DVec2)],
    d: &[Rounded],
    scale: f64,
    mut found: Option<(f64, DVec2, u8)>,
) -> Result<Option<(f64, DVec2, u8)>, ()> {
    let margin = CLEAR * scale;
    while let Some(last) = near.len().checked_sub(1) {
        // The nearest left, ties to the smaller coordinates (for determinism); taken out one
        // by one, as the answer is mostly among the first few.
        // (Distances are lengths: never NaN or -0, so `<` orders them as `total_cmp`.)
        let less = |(t, x): (f64, DVec2), (u, y): (f64, DVec2)| {
            t < u || t == u && x.x.total_cmp(&y.x).then(x.y.total_cmp(&y.y)).is_lt()
        };
        let i = (1..near.len()).fold(0, |m, i| if less(near[i], near[m]) { i } else { m });
        let (t, x) = near[i];
        near[i] = near[last];
        near = &mut core::mem::take(&mut near)[..last];
        if let Some((best, y, _)) = found {
            if t > best + margin {
                break;
            }
            if x.distance(y) > margin && !matches!(stand(d, x, scale), Stand::Covered) {
                return Err(());
            }
            continue;
        }
        match stand(d, x, scale) {
            Stand::Covered => {}
            Stand::Unclear => return Err(()),
            Stand::Open(on) => found = Some((t, x, on)),
        }
    }
    Ok(found)
}

/// The contact of `a` and `b` when one is a hitbox of boxes and the other a circle:
/// `Some(None)` when they do not intersect; `None` when this path does not apply or steps
/// aside (see the module's docs).
pub(crate) fn contact(a: &Shape, b: &Shape) -> Option<Option<Contact>> {
    let ((parts, hull), circle, flipped) = match (a, b) {
        (_, Shape::Circle(c)) => (boxes(a)?, c, false),
        (Shape::Circle(c), _) => (boxes(b)?, c, true),
        _ => return None,
    };
    let r = f64::from(circle.radius());
    let centre = circle.center().as_dvec2();
    if r <= 0.0 {
        return None;
    }
    // Every part lies in the hull: a circle clear of it (exactly) meets none of them.
    if !circle_aabb::intersects(circle, &hull) {
        return parts
            .iter()
            .all(|p| matches!(p, Shape::Aabb(_)))
            .then_some(None);
    }
    // The deepest pair, as the certificate finds it; equally deep pairs step aside.
    let mut deepest: Option<(f32, usize)> = None;
    let mut tied = false;
    let mut d = [Rounded {
        lo: DVec2::ZERO,
        hi: DVec2::ZERO,
        r,
    }; MOST_PARTS];
    for (k, part) in parts.iter().enumerate() {
        let Shape::Aabb(bx) = part else {
            return None;
        };
        let (min, max) = (bx.min().as_dvec2(), bx.max().as_dvec2());
        (d[k].lo, d[k].hi) = if flipped {
            (min - centre, max - centre)
        } else {
            (centre - max, centre - min)
        };
        // The depth `dispatch::contact` gives the pair; its contact only for the deepest.
        if circle_aabb::intersects(circle, bx) {
            let depth = circle_aabb::depth(circle, bx);
            match deepest {
                Some((best, _)) if depth < best => {}
                Some((best, _)) if depth == best => tied = true,
                _ => {
                    tied = false;
                    deepest = Some((depth, k));
                }
            }
        }
    }
    let Some((_, k0)) = deepest else {
        return Some(None);
    };
    let Shape::Aabb(bx) = &parts[k0] else {
        return None;
    };
    let first = circle_aabb::contact(circle, bx);
    let first = if flipped { first } else { first.flipped() };
    let d = &d[..parts.len()];
    // The largest coordinate of the two boxes (in the order of a fold from 0).
    let scale = {
        let (big, around) = (|v: crate::math::Vec2| v.abs().max_element(), circle.aabb());
        let corners = [hull.min(), hull.max(), around.min(), around.max()];
        f64::from(corners.into_iter().fold(0.0f32, |m, v| m.max(big(v))))
    };
    let margin = CLEAR * scale;
    let low = f64::from(first.depth);
    if tied || low <= margin {
        return None;
    }
    let x0 = -first.normal.as_dvec2() * low;
    // The deepest pair's point, clear of every other difference: its contact is the answer.
    let mut covered = false;
    for (k, piece) in d.iter().enumerate() {
        if k == k0 {
            continue;
        }
        let (sd, _) = piece.distance(x0);
        if sd < -margin {
            covered = true;
        } else if sd <= margin {
            return None;
        }
    }
    if !covered {
        return Some(Some(first));
    }
    // Covered: the candidates no nearer than the deepest pair's depth, nearest first. The
    // sides' feet and arcs' nearest points first: the nearest open one bounds the crossings
    // worth computing.
    let mut near = Candidates::new((0.0, DVec2::ZERO));
    for piece in d {
        piece.own(low - margin, &mut near);
    }
    let own = nearest_open(near.as_mut_slice(), d, scale, None).ok()?;
    // The answer is no farther than where the axes leave the union (a point of its
    // boundary with a way out).
    let far = own.map_or(f64::INFINITY, |(t, _, _)| t + margin);
    let far = far.min(axis_exit(d) + 2.0 * margin);
    // Feature boxes are widened far beyond the crossings' rounding: they only prune.
    let pad = 1e-9 * (1.0 + r + scale);
    let mut edges = Few::new(Edge {
        kind: Kind::Side(DVec2::ZERO, DVec2::ZERO),
        lo: DVec2::ZERO,
        hi: DVec2::ZERO,
    });
    let mut ends = [0; MOST_PARTS];
    for (piece, end) in d.iter().zip(&mut ends) {
        piece.features(low - margin, far, pad, &mut edges);
        *end = edges.as_slice().len();
    }
    near.clear();
    crossings(
        edges.as_slice(),
        &ends[..d.len()],
        r,
        (low - margin, far),
        &mut near,
    );
    // The own point stands unless a crossing is nearer (or about as near: both are tried).
    if let Some((t, x, _)) = own {
        near.push((t, x));
    }
    let found = nearest_open(near.as_mut_slice(), d, scale, None).ok()?;
    let (depth, x, on) = found?;
    let normal = -x / depth;
    // The boxes `x` lies on (the first two distinct points are kept).
    let on = parts.iter().enumerate().filter_map(|(k, part)| match part {
        Shape::Aabb(bx) if on & (1 << k) != 0 => Some(bx),
        _ => None,
    });
    Some(Some(touch::contact_at(
        x, normal, depth, circle, on, flipped,
    )))
}

#[cfg(test)]
mod tests;
