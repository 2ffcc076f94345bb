//! The union contact (see [`union_contact`](crate::query::union_contact)) of shapes with a
//! rounded part: pieces with a radius, in `f64`, with a tolerance.
//!
//! Moving `b` by `v` makes the shapes overlap exactly when `−v` lies inside
//! `D = B − A = ∪ (B_j − A_i)`, the union of the Minkowski differences of their convex parts.
//! The depth is the distance from the origin to the boundary of that union, and the normal
//! points from the nearest boundary point `x` back through the origin (`v = −x`). Where two
//! parts' differences meet face to face (a seam) the union has no boundary: a point of `b`
//! on the diagonal of a concave polygon's decomposition is inside it, not on its edge.
//!
//! Outline:
//! ```text
//! per-part contacts of every pair of parts whose boxes meet; none: no contact
//! x0 = the deepest pair's nearest boundary point (its difference's, at distance L)
//! x0 not covered by the other differences (exactly L is the union's depth):
//!     depth > 0: the deepest pair's contact, unchanged
//!     touching: the same, with its normal replaced by the middle of the widest gap of
//!               the differences' cones at the origin when it does not point out of them
//! else: U = where the ray from the origin through x0 leaves the union (a boundary point)
//!       candidates in [L, U] over the differences within U, nearest first: the first one
//!       no difference covers is the union's nearest boundary point (U's own point if none)
//! ```
//! Decisions take a tolerance of `1e-9` of the coordinates' magnitude (see [`contact`]).

use crate::math::Vec2;
use crate::query::convex::{self, closest_on_segment};
use crate::query::union_boundary::{
    candidates, faces_within, widest_gap, Cone, NearFace, Piece, Side,
};
use crate::query::union_bounded::{OverLimit, LIMIT, LIMIT_ROUNDED, WORK_CROSSINGS, WORK_ROUNDED};
use crate::query::Contact;
use crate::shape::convex::Convex;
use crate::shape::Shape;
use alloc::vec::Vec;
use glam::DVec2;

/// Closed cones meeting within this angle (radians) cover the direction between them.
const ANGLE_TOL: f64 = 1e-9;

/// A convex part, the shape it is when it is one (a compound's part), and its hull's box.
struct Part<'s> {
    convex: Convex<'s>,
    shape: Option<&'s Shape>,
    lo: DVec2,
    hi: DVec2,
}

impl<'s> Part<'s> {
    fn new(convex: Convex<'s>, shape: Option<&'s Shape>) -> Part<'s> {
        let (lo, hi) = convex.points().iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(p.as_dvec2()), hi.max(p.as_dvec2())),
        );
        Part {
            convex,
            shape,
            lo,
            hi,
        }
    }

    /// The contact of two parts: by the pair's own algorithm when both are shapes.
    fn contact(&self, other: &Part) -> Option<Contact> {
        match (self.shape, other.shape) {
            (Some(a), Some(b)) => crate::query::contact(a, b),
            _ => convex::contact_checked(&self.convex, &other.convex),
        }
    }
}

/// The convex parts of `shape`, in order: a concave polygon's parts, a compound's parts' parts.
fn parts_of<'s>(shape: &'s Shape, out: &mut Vec<Part<'s>>) {
    match (shape, shape.as_convex()) {
        (_, Some(c)) => out.push(Part::new(c, Some(shape))),
        (Shape::Compound(c), None) => c.parts().iter().for_each(|p| parts_of(p, out)),
        (Shape::Polygon(p), None) => out.extend(
            p.parts()
                .iter()
                .map(|part| Part::new(Convex::slice(part.points(), 0.0), None)),
        ),
        _ => {}
    }
}

/// The differences `B_j − A_i` of every pair of parts (`k = i * |b| + j`), built when first
/// needed, with their bounding boxes.
struct Differences<'p, 's> {
    a: &'p [Part<'s>],
    b: &'p [Part<'s>],
    bounds: Vec<(DVec2, DVec2)>,
    built: Vec<Option<Piece>>,
    /// The difference that covered the last point asked about: the likeliest to cover the next.
    last: usize,
    /// Points classified against one difference so far: the search's work.
    work: usize,
}

impl<'p, 's> Differences<'p, 's> {
    fn new(a: &'p [Part<'s>], b: &'p [Part<'s>]) -> Self {
        let bounds = a
            .iter()
            .flat_map(|pa| b.iter().map(move |pb| Self::box_of(pa, pb)))
            .collect();
        let mut built = Vec::new();
        built.resize_with(a.len() * b.len(), || None);
        Differences {
            a,
            b,
            bounds,
            built,
            last: 0,
            work: 0,
        }
    }

    /// The bounding box of `B_j − A_i`, from the parts' boxes.
    fn box_of(pa: &Part, pb: &Part) -> (DVec2, DVec2) {
        let r = f64::from(pa.convex.radius) + f64::from(pb.convex.radius);
        // Widened past the rounding of these sums, so a box that touches is never apart.
        let size = [pa.lo, pa.hi, pb.lo, pb.hi]
            .iter()
            .fold(r, |m, v| m.max(v.abs().max_element()));
        let pad = DVec2::splat(r + size * 1e-12);
        (pb.lo - pa.hi - pad, pb.hi - pa.lo + pad)
    }

    fn bounds(&self, k: usize) -> (DVec2, DVec2) {
        self.bounds[k]
    }

    fn piece(&mut self, k: usize) -> &Piece {
        let (a, b) = (&self.a[k / self.b.len()], &self.b[k % self.b.len()]);
        self.built[k].get_or_insert_with(|| Piece::new(&a.convex, &b.convex))
    }

    /// Classifies `x` against every difference whose box holds it (within `eps`): covered
    /// (inside one, or on several whose cones cover every direction), the widest gap of those
    /// cones otherwise, and the differences whose boundary holds `x`.
    fn cover(&mut self, x: DVec2, eps: f64) -> Cover {
        let holds =
            |(lo, hi): (DVec2, DVec2)| !(x.cmplt(lo - eps).any() || x.cmpgt(hi + eps).any());
        let mut cones = Vec::new();
        let last = self.last;
        self.work += 1;
        if holds(self.bounds(last)) && self.piece(last).classify(x, eps, &mut cones) == Side::Inside
        {
            return Cover::Covered;
        }
        cones.clear();
        let mut on = Vec::new();
        for k in 0..self.built.len() {
            if !holds(self.bounds(k)) {
                continue;
            }
            self.work += 1;
            match self.piece(k).classify(x, eps, &mut cones) {
                Side::Inside => {
                    self.last = k;
                    return Cover::Covered;
                }
                Side::Boundary => on.push(k),
                Side::Outside => {}
            }
        }
        match widest_gap(&cones, ANGLE_TOL) {
            None => Cover::Covered,
            Some(gap) => Cover::Open { gap, on, cones },
        }
    }
}

enum Cover {
    Covered,
    /// Not covered: the middle of the widest direction gap at the point (into the outside),
    /// the differences the point lies on, and their cones there.
    Open {
        gap: DVec2,
        on: Vec<usize>,
        cones: Vec<Cone>,
    },
}

/// The contact of `a` and `b`, at least one of them concave or compound; `None` when they do not
/// intersect.
///
/// Whether they intersect is exact. The depth is the distance from the origin to the boundary of
/// the union of the parts' differences: where the deepest pair of parts' own contact reaches
/// that boundary (the common case), that contact is the answer, bit for bit; otherwise the
/// nearest boundary point is searched, with the union's boundary decided up to a tolerance of
/// `1e-9` of the largest coordinate (a gap between two parts narrower than that counts as a seam).
/// `Err` when the search's work passes its bounds ([`LIMIT`], [`WORK_ROUNDED`]).
pub(crate) fn contact(a: &Shape, b: &Shape) -> Result<Option<Contact>, OverLimit> {
    let (mut pa, mut pb) = (Vec::new(), Vec::new());
    parts_of(a, &mut pa);
    parts_of(b, &mut pb);
    let mut best: Option<(Contact, usize)> = None;
    let mut diffs = Differences::new(&pa, &pb);
    for k in 0..pa.len() * pb.len() {
        let (lo, hi) = diffs.bounds(k);
        if lo.cmpgt(DVec2::ZERO).any() || hi.cmplt(DVec2::ZERO).any() {
            continue; // the parts' boxes are apart
        }
        if let Some(c) = pa[k / pb.len()].contact(&pb[k % pb.len()]) {
            if best.is_none_or(|(b, _)| c.depth > b.depth) {
                best = Some((c, k));
            }
        }
    }
    let Some((first, k0)) = best else {
        return Ok(None);
    };
    let scale = pa
        .iter()
        .chain(&pb)
        .map(|p| {
            let r = f64::from(p.convex.radius);
            p.lo.abs().max(p.hi.abs()).max_element() + r
        })
        .fold(0.0, f64::max);
    let eps = 1e-9 * scale;
    // A unit direction in `f64`: the `f32` normal's length is off by up to `1e-7`, and along
    // it the exit below would be that much past the true distance, beyond `eps`; the search's
    // lower bound then dropped every boundary point at exactly the pair's depth (the ends of
    // an arc centred on the origin, its crossings with other differences).
    let n0 = first.normal.as_dvec2().normalize_or(DVec2::X);
    // The deepest pair's own point: where the ray along `-n0` leaves its difference (its
    // depth, in `f64`; on ties, the point that pair's normal names).
    let far = 4.0 * scale.max(f64::MIN_POSITIVE) + 4.0 * f64::from(first.depth);
    let low = diffs
        .piece(k0)
        .span(-n0 * far)
        .map_or(f64::from(first.depth), |(_, exit)| exit * far);
    let x0 = -n0 * low;
    match diffs.cover(x0, eps) {
        Cover::Open { .. } if low > eps => Ok(Some(first)),
        Cover::Open { gap, on, cones } => {
            // Touching: the deepest pair's normal stands when moving `b` along it leaves every
            // difference's cone at the origin (`-normal` lies in none of them).
            if cones.iter().all(|c| !c.holds(-n0, ANGLE_TOL)) {
                return Ok(Some(first));
            }
            Ok(Some(finish(&pa, &pb, x0, gap, &on, eps)))
        }
        Cover::Covered => search(&mut diffs, &pa, &pb, -n0, low, eps).map(Some),
    }
}

/// The nearest point of the union's boundary, where the deepest pair's is covered: `dir` is the
/// direction from the origin to that pair's nearest point, `low` its distance (a lower bound).
/// `Err` when more than [`LIMIT_ROUNDED`] differences lie within reach, or more than [`LIMIT`]
/// and the pairs of faces whose crossings it weighs pass [`WORK_CROSSINGS`], or the points
/// classified against one difference pass [`WORK_ROUNDED`].
fn search(
    diffs: &mut Differences,
    pa: &[Part],
    pb: &[Part],
    dir: DVec2,
    low: f64,
    eps: f64,
) -> Result<Contact, OverLimit> {
    let count = pa.len() * pb.len();
    // Where the ray along `dir` leaves the union: its spans through the differences, merged.
    let far = (0..count)
        .map(|k| {
            let (lo, hi) = diffs.bounds(k);
            lo.abs().max(hi.abs()).max_element()
        })
        .fold(1.0, f64::max)
        * 4.0;
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for k in 0..count {
        let (lo, hi) = diffs.bounds(k);
        let ray = |t: f64| dir * t;
        let (p, q) = (ray(0.0), ray(far));
        if p.min(q).cmpgt(hi).any() || p.max(q).cmplt(lo).any() {
            continue;
        }
        if let Some(s) = diffs.piece(k).span(dir * far) {
            spans.push((s.0 * far, s.1 * far));
        }
    }
    crate::sort::sort_by(&mut spans, |a, b| a.0.total_cmp(&b.0));
    let mut high = low;
    for &(enter, exit) in &spans {
        if enter <= high + eps {
            high = high.max(exit);
        }
    }
    let exit_point = dir * high;
    // The differences within reach, and the candidates between the bounds.
    let near: Vec<usize> = (0..count)
        .filter(|&k| {
            let (lo, hi) = diffs.bounds(k);
            let gap = (lo.max(DVec2::ZERO) - hi.min(DVec2::ZERO)).max(DVec2::ZERO);
            gap.length() <= high + eps
        })
        .collect();
    if near.len() > LIMIT_ROUNDED {
        return Err(OverLimit);
    }
    for &k in &near {
        diffs.piece(k);
    }
    let pieces: Vec<&Piece> = near
        .iter()
        .filter_map(|&k| diffs.built[k].as_ref())
        .collect();
    let mut faces = faces_within(&pieces, high + eps);
    // Only the faces not inside one piece can hold the answer.
    let boxes: Vec<(DVec2, DVec2)> = near.iter().map(|&k| diffs.bounds(k)).collect();
    bury(&mut faces, &pieces, &boxes, eps);
    let own = candidates(&faces, false, low - eps, high + eps);
    let crossing = |bound: f64| candidates(&faces, true, low - eps, bound);
    // The nearest uncovered end or foot of a face bounds the crossings worth computing.
    let mut best: Option<(f64, DVec2)> = None;
    for (d, x) in own {
        if diffs.work > WORK_ROUNDED {
            return Err(OverLimit);
        }
        if matches!(diffs.cover(x, eps), Cover::Open { .. }) {
            best = Some((d, x));
            break;
        }
    }
    let bound = best.map_or(high, |(d, _)| d) + eps;
    // Past `LIMIT` pieces, the crossings (which grow with the square of the faces) count too.
    let within = faces.iter().filter(|f| f.reach <= bound).count();
    if near.len() > LIMIT && within * within.saturating_sub(1) / 2 > WORK_CROSSINGS {
        return Err(OverLimit);
    }
    for (d, x) in crossing(bound) {
        if best.is_some_and(|(b, _)| d >= b) {
            break;
        }
        if diffs.work > WORK_ROUNDED {
            return Err(OverLimit);
        }
        if matches!(diffs.cover(x, eps), Cover::Open { .. }) {
            best = Some((d, x));
            break;
        }
    }
    let x = best.map_or(exit_point, |(_, x)| x);
    Ok(match diffs.cover(x, eps) {
        Cover::Open { gap, on, .. } => finish(pa, pb, x, gap, &on, eps),
        Cover::Covered => finish(pa, pb, x, -dir, &[], eps),
    })
}

/// Drops the faces that lie inside one piece by more than `4 eps` (their hull points do: the
/// piece is convex): none of their points, nor their crossings, is on the union's boundary.
/// (The margin past `eps` covers the rounding of those points and the `1e-9` radians an arc's
/// crossings may lie past its ends, so each would have classified as covered.)
/// Without this, two stars' search met thousands of crossings of inner faces before the
/// boundary's, and passed its work bound. Keeping a face is never wrong, so past its own
/// bound ([`WORK_ROUNDED`] points classified) the rest are kept.
fn bury(faces: &mut Vec<NearFace>, pieces: &[&Piece], boxes: &[(DVec2, DVec2)], eps: f64) {
    let (mut hull, mut cones) = (Vec::new(), Vec::new());
    // The piece that held the last buried face: the likeliest to hold the next.
    let (mut last, mut work) = (0, 0);
    faces.retain(|f| {
        if work > WORK_ROUNDED {
            return true;
        }
        hull.clear();
        cones.clear();
        f.hull_points(&mut hull);
        let order = core::iter::once(last).chain((0..pieces.len()).filter(|&k| k != last));
        for k in order {
            let (lo, hi) = boxes[k];
            if !hull.iter().all(|x| x.cmpge(lo).all() && x.cmple(hi).all()) {
                continue;
            }
            let inside = |&x: &DVec2| {
                work += 1;
                pieces[k].classify(x, 4.0 * eps, &mut cones) == Side::Inside
            };
            if hull.iter().all(inside) {
                last = k;
                return false;
            }
        }
        true
    });
}

/// The contact whose move `v = −x` leaves the shapes touching at the boundary point `x`:
/// normal `−x / |x|` (the middle of the widest gap of directions out of the union at `x`,
/// negated, when `x` is within `eps` of the origin), one contact point per difference `x` lies
/// on (at most two), midway between the surfaces.
fn finish(pa: &[Part], pb: &[Part], x: DVec2, gap: DVec2, on: &[usize], eps: f64) -> Contact {
    let depth = x.length();
    let normal = if depth > eps {
        -x / depth
    } else {
        -gap.normalize_or(DVec2::X)
    };
    let pairs = on
        .iter()
        .map(|&k| (&pa[k / pb.len()].convex, &pb[k % pb.len()].convex));
    contact_at(x, normal, depth, pairs)
}

/// The contact of the move `−x` along `normal`, with one contact point per pair of parts
/// `x` lies on the difference of (at most two, in the order given), midway between the
/// surfaces.
pub(crate) fn contact_at<'c, 's: 'c>(
    x: DVec2,
    normal: DVec2,
    depth: f64,
    on: impl Iterator<Item = (&'c Convex<'s>, &'c Convex<'s>)>,
) -> Contact {
    let mut points = [Vec2::ZERO; 2];
    let mut count = 0;
    for (a, b) in on {
        let p = touch_point(a, b, x, normal) + x * 0.5;
        let p = convex::clamp_to_f32(p);
        if count < 2 && !points[..count].contains(&p) {
            points[count] = p;
            count += 1;
        }
    }
    if count == 0 {
        points[0] = convex::clamp_to_f32(x * 0.5);
        count = 1;
    }
    Contact::new(normal.as_vec2(), depth as f32, &points[..count])
}

/// Where `a` and `b` moved by `−x` touch, on `a`'s surface: the point of `a`'s hull nearest to
/// the moved `b`'s hull, pushed out by `a`'s radius towards it (along `normal` when the hulls
/// meet).
fn touch_point(a: &Convex, b: &Convex, x: DVec2, normal: DVec2) -> DVec2 {
    // The points are converted where used (exactly), not collected: no allocation.
    let (pa, pb) = (a.points(), b.points());
    let va = |i: usize| pa[i].as_dvec2();
    let vb = |i: usize| pb[i].as_dvec2() - x;
    let mut best = (va(0), vb(0), f64::INFINITY);
    for i in 0..pa.len() {
        let v = va(i);
        for (p, q) in edges(pb.len(), vb) {
            let c = closest_on_segment(v, p, q);
            if v.distance_squared(c) < best.2 {
                best = (v, c, v.distance_squared(c));
            }
        }
    }
    for i in 0..pb.len() {
        let v = vb(i);
        for (p, q) in edges(pa.len(), va) {
            let c = closest_on_segment(v, p, q);
            if v.distance_squared(c) < best.2 {
                best = (c, v, v.distance_squared(c));
            }
        }
    }
    let (ha, hb, _) = best;
    // `a`'s radius is all that lies between its hull and the touching point.
    let towards = (hb - ha).try_normalize().unwrap_or(normal);
    ha + towards * f64::from(a.radius)
}

/// The edges of a hull of `n` points given by `at`: a point is one degenerate edge, a segment
/// one edge.
fn edges(n: usize, at: impl Fn(usize) -> DVec2) -> impl Iterator<Item = (DVec2, DVec2)> {
    let count = if n <= 2 { 1 } else { n };
    (0..count).map(move |i| (at(i), at(if i + 1 == n { 0 } else { i + 1 })))
}
