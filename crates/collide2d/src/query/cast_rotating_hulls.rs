//! The advances of [`cast_shapes_rotating`](crate::cast_shapes_rotating) for two convex shapes
//! of at most [`MAX_HULL`] vertices: no shape is placed, only the vertices, as arms from each
//! pivot turned in `f64` (within about `1e-15 L` of the exact motion, far inside the margin),
//! and each step measures the hulls' distance by GJK warm-started from the last step's simplex.
//! The buffers a step fills are set up once per cast, not per step. The step is taken from
//! GJK's lower bound (the separation along its axis, a distance the shapes are at least apart
//! whatever GJK's accuracy), the stop from its upper bound. Where GJK ends on an edge, the
//! axis turns with that edge's shape, as Box2D's face separation does: along a fixed axis the
//! far end of a turning face closes in fast though it is nowhere near the other shape, and
//! the steps shrink by a constant factor; along the face's own axis only the other's vertices
//! move, and the last steps close in quadratically. The hit's normal and point come from
//! GJK's closest points; the shapes themselves are placed only for a hit whose hulls come
//! closer than their radii (then their contact decides, as on the general path).

use super::{round_down, Advance, Reach, MAX_ADVANCES};
use crate::query::gjk::{hull_gap, HullGap, Start};
use crate::shape::convex::Convex;
use crate::shape::Shape;
use glam::DVec2;

/// The closest points of the two shapes at a hit, when their hulls are apart by more than
/// their radii.
pub(super) type Near = Option<(DVec2, DVec2)>;

/// The most vertices a hull may have to take this path (Box2D's polygons have up to 8).
pub(super) const MAX_HULL: usize = 16;

/// A convex shape's vertices as arms from its pivot, its radius, and how far its vertices reach.
pub(super) struct Turning {
    arms: [DVec2; MAX_HULL],
    len: usize,
    pub(super) radius: f64,
    /// The largest `|arm|` (as [`reaches`](super::reaches) computes it).
    pub(super) core: f64,
}

impl Turning {
    /// The hulls of `a` and `b` with arms from `pivot_a` and `pivot_b`, when both are convex of
    /// at most [`MAX_HULL`] vertices.
    pub(super) fn pair(
        a: &Shape,
        pivot_a: DVec2,
        b: &Shape,
        pivot_b: DVec2,
    ) -> Option<[Turning; 2]> {
        let fits = |c: &Convex| c.points().len() <= MAX_HULL;
        match (a.as_convex(), b.as_convex()) {
            (Some(ca), Some(cb)) if fits(&ca) && fits(&cb) => {
                Some([Turning::of(&ca, pivot_a), Turning::of(&cb, pivot_b)])
            }
            _ => None,
        }
    }

    /// `c`'s arms from `pivot` (at most [`MAX_HULL`] vertices).
    fn of(c: &Convex, pivot: DVec2) -> Turning {
        let points = c.points();
        let mut arms = [DVec2::ZERO; MAX_HULL];
        let mut far = 0.0f64;
        for (arm, p) in arms.iter_mut().zip(points) {
            *arm = p.as_dvec2() - pivot;
            far = far.max(arm.length_squared());
        }
        Turning {
            arms,
            len: points.len(),
            radius: f64::from(c.radius),
            // One square root, correctly rounded: the root of the largest square is the largest.
            core: crate::math::sqrt(far),
        }
    }

    /// The vertices at time `t` of the motion `k`, into `out`.
    fn place<'o>(&self, k: &Reach, t: f64, out: &'o mut [DVec2; MAX_HULL]) -> &'o [DVec2] {
        let origin = k.pivot + k.velocity * t;
        let (sin, cos) = if k.turn_signed == 0.0 || t == 0.0 {
            (0.0, 1.0)
        } else {
            libm::sincos(k.turn_signed * t)
        };
        for (o, a) in out.iter_mut().zip(&self.arms[..self.len]) {
            *o = origin + DVec2::new(cos * a.x - sin * a.y, sin * a.x + cos * a.y);
        }
        &out[..self.len]
    }
}

impl Advance {
    /// Advances the hulls `ha` and `hb` from `t = 0` (apart there): the time at which they come
    /// within three margins, with the closest points of the shapes then when they are apart
    /// (else the caller places the shapes), or `None` once past `t = 1`.
    pub(super) fn run_hulls(&self, ha: &Turning, hb: &Turning) -> Option<(f32, Near)> {
        let (mut va, mut vb) = ([DVec2::ZERO; MAX_HULL], [DVec2::ZERO; MAX_HULL]);
        let radii = ha.radius + hb.radius;
        let mut curve = Curve::new(self, radii);
        let mut start = Start::pair(0, 0);
        let mut t = 0.0f32;
        for _ in 0..MAX_ADVANCES {
            let pa = ha.place(&self.ka, f64::from(t), &mut va);
            let pb = hb.place(&self.kb, f64::from(t), &mut vb);
            let gap = hull_gap(pa, pb, start, 0.125 * self.margin);
            start = gap.start;
            if gap.upper - radii <= 3.0 * self.margin {
                let (wa, wb) = gap.points;
                let n = (wb - wa) / gap.upper;
                let apart = gap.upper > radii && n.is_finite();
                let near = apart.then(|| (wa + n * ha.radius, wb - n * hb.radius));
                return Some((t, near));
            }
            let lower = gap.lower - radii;
            let Some(along) = self.along(lower, gap.axis) else {
                // Apart by more than the margins, but GJK's bounds are not yet close.
                return Some((t, None));
            };
            // Apart until past the end by this bound alone: no need for the dearer ones.
            if f64::from(t) + along > 1.0 {
                return None;
            }
            // Along an edge's turning axis the other shape's vertices move in that shape's
            // frame, which already counts how near they are to its pivot: the distance
            // bound's levers gave no longer step on the bench's pairs (the same passes), so it
            // is left out there.
            let face = curve
                .fill_face(self, (pa, pb), &gap, f64::from(t))
                .is_some();
            if !face {
                curve.fill(self, (pa, pb), &gap, f64::from(t));
            }
            let step = along.max(curve.first_time(1.0 - f64::from(t)));
            // The distance bound's step, unless even its least rate cannot make it longer.
            let open = lower - 2.0 * self.margin;
            let least = |k: &Reach| k.turn * k.core.min(lower);
            let step = if face || open / (self.speed + (least(&self.ka) + least(&self.kb))) <= step
            {
                step
            } else {
                let spans = [span_of(&self.ka, pb, t), span_of(&self.kb, pa, t)];
                step.max(open / self.rate(spans, t, lower))
            };
            let next = f64::from(t) + step;
            if next.is_nan() || next > 1.0 {
                return None;
            }
            t = round_down(next);
        }
        Some((t, None))
    }
}

/// A lower bound, concave in `s`, on the hulls' gap along an axis at time `t + s`, less two
/// margins: the least of `b`'s lines less the greatest of `a`'s, less `bend s²`.
///
/// Along a fixed axis `n` ([`Curve::fill`]), each vertex's projection on `n` moves with its
/// velocity now plus at most the centripetal acceleration of its turn, `w² |arm|`, so it stays
/// within its tangent line plus `s² w² core / 2`: `bend` is `(wa² ca + wb² cb) / 2`. Along an
/// axis turning with one of the shapes ([`Curve::fill_face`]) that shape's support is a
/// constant. (Where Box2D finds the root of the separation function itself, which a turning
/// vertex can overtake, this bound only ever lies below it.)
struct Curve {
    /// `(n · p, n · velocity)` of each vertex of `a`.
    lines_a: [(f64, f64); MAX_HULL],
    /// The same for `b`.
    lines_b: [(f64, f64); MAX_HULL],
    len_a: usize,
    len_b: usize,
    /// How fast the bound bends away from its lines.
    bend: f64,
    /// `(wa² ca + wb² cb) / 2`: the bend along a fixed axis.
    fixed_bend: f64,
    /// Both radii and two margins.
    less: f64,
    /// The bound at 0 and the vertices giving it, as [`Curve::at`] (found by [`Curve::fill`]).
    at_zero: (f64, usize, usize),
}

impl Curve {
    /// A curve with no lines yet, for shapes with radii `radii` under the advance `adv`.
    fn new(adv: &Advance, radii: f64) -> Curve {
        let bend = |k: &Reach| k.turn * k.turn * k.core;
        Curve {
            lines_a: [(0.0, 0.0); MAX_HULL],
            lines_b: [(0.0, 0.0); MAX_HULL],
            len_a: 0,
            len_b: 0,
            bend: 0.0,
            fixed_bend: 0.5 * (bend(&adv.ka) + bend(&adv.kb)),
            less: radii + 2.0 * adv.margin,
            at_zero: (0.0, 0, 0),
        }
    }

    /// Sets the lines to those of the vertices `pa` and `pb` placed at `t`, along GJK's axis
    /// for them: its supports give the bound at 0 (`gap.lower` is their separation along it,
    /// the same numbers as the lines' least difference).
    fn fill(&mut self, adv: &Advance, (pa, pb): (&[DVec2], &[DVec2]), gap: &HullGap, t: f64) {
        lines_along(&adv.ka, pa, gap.axis, t, &mut self.lines_a);
        lines_along(&adv.kb, pb, gap.axis, t, &mut self.lines_b);
        (self.len_a, self.len_b) = (pa.len(), pb.len());
        self.bend = self.fixed_bend;
        let (ia, ib) = gap.supports;
        self.at_zero = (gap.lower - self.less, ia, ib);
    }

    /// Sets the curve to a bound on the separation along GJK's axis turning with the shape
    /// whose edge GJK's simplex ended on (the owner; Box2D's face separation), `None` when it
    /// ended on a single vertex of each. The owner's hull does not move in its own frame, so
    /// its support along the axis stays where it is; a vertex `p` of the other is apart from
    /// it by `m(s) · (p(s) − o(s))` less that support (`m` the axis from the owner towards
    /// the other, `o` its pivot), whose slope at 0 is exact and whose second derivative is at
    /// most `wo² |d| + 2 |wo| |dv| + (wx − wo)² cx` in size (`wo`, `wx` the owner's and the
    /// other's turns, `d` the other's pivot from `o`, `dv` their velocities' difference,
    /// `cx` the other's core) over the rest of the step. At 0 the bound is GJK's separation.
    fn fill_face(
        &mut self,
        adv: &Advance,
        (pa, pb): (&[DVec2], &[DVec2]),
        gap: &HullGap,
        t: f64,
    ) -> Option<()> {
        let (ia, ib) = gap.supports;
        let (m, (ko, po, io), (kx, px, ix)) = if gap.start.edge_of_a()? {
            (gap.axis, (&adv.ka, pa, ia), (&adv.kb, pb, ib))
        } else {
            (-gap.axis, (&adv.kb, pb, ib), (&adv.ka, pa, ia))
        };
        let (oo, ox) = (ko.pivot + ko.velocity * t, kx.pivot + kx.velocity * t);
        let (wo, wx) = (ko.turn_signed, kx.turn_signed);
        let dv = kx.velocity - ko.velocity;
        let cross = |u: DVec2, v: DVec2| u.x * v.y - u.y * v.x;
        // The supports are the extremes of `±axis · p`, exactly (negation is exact).
        self.lines_a[0] = (m.dot(po[io]), 0.0);
        self.len_a = 1;
        // m · (p − o) moves at m · dv + wo cross(m, p − o) − wx cross(m, p − ox).
        let base = m.dot(dv) - wo * cross(m, oo) + wx * cross(m, ox);
        for (slot, p) in self.lines_b.iter_mut().zip(px) {
            *slot = (m.dot(*p), base + (wo - wx) * cross(m, *p));
        }
        self.len_b = px.len();
        let reach = (ox - oo).length() + (1.0 - t) * dv.length();
        let dw = wx - wo;
        self.bend = 0.5 * (wo * wo * reach + 2.0 * wo.abs() * dv.length() + dw * dw * kx.core);
        self.at_zero = (gap.lower - self.less, 0, ix);
        Some(())
    }

    /// The bound at `s`, and the vertex of `a` and of `b` (indices into their lines) that give
    /// it.
    fn at(&self, s: f64) -> (f64, usize, usize) {
        let at = |(x, v): (f64, f64)| x + v * s;
        // Plain comparisons: the lines are finite (finite sweeps and shapes).
        let (mut top, mut ia) = (at(self.lines_a[0]), 0);
        for (i, &line) in self.lines_a[..self.len_a].iter().enumerate().skip(1) {
            let y = at(line);
            if y > top {
                (top, ia) = (y, i);
            }
        }
        let (mut low, mut ib) = (at(self.lines_b[0]), 0);
        for (i, &line) in self.lines_b[..self.len_b].iter().enumerate().skip(1) {
            let y = at(line);
            if y < low {
                (low, ib) = (y, i);
            }
        }
        (self.value(low, top, s), ia, ib)
    }

    /// The bound at `s` alone (as [`Curve::at`]).
    fn at_value(&self, s: f64) -> f64 {
        let at = |&(x, v): &(f64, f64)| x + v * s;
        let a = self.lines_a[..self.len_a].iter().map(at);
        let top = a.fold(f64::NEG_INFINITY, |m, y| if y > m { y } else { m });
        let b = self.lines_b[..self.len_b].iter().map(at);
        let low = b.fold(f64::INFINITY, |m, y| if y < m { y } else { m });
        self.value(low, top, s)
    }

    fn value(&self, low: f64, top: f64, s: f64) -> f64 {
        low - top - self.less - self.bend * s * s
    }

    /// The first root after 0 of the bound with the lines of vertices `ia` and `ib` alone
    /// (infinite if none): the bound is at most that, so its own first root is no later.
    fn pair_root(&self, ia: usize, ib: usize) -> f64 {
        let ((xa, va), (xb, vb)) = (self.lines_a[ia], self.lines_b[ib]);
        // -bend s² + slope s + c.
        let (c, slope, bend) = (xb - xa - self.less, vb - va, self.bend);
        if bend == 0.0 {
            return if slope < 0.0 {
                c / -slope
            } else {
                f64::INFINITY
            };
        }
        let root = crate::math::sqrt(slope * slope + 4.0 * bend * c);
        // The positive root, written without cancellation.
        if slope > 0.0 {
            (slope + root) / (2.0 * bend)
        } else {
            2.0 * c / (root - slope)
        }
    }

    /// A time `s` in `[0, rest]` before which the bound stays positive, or infinite when it
    /// stays positive until `rest`. The bound is concave, so positive everywhere before a
    /// time where it is positive. The roots of the lines of the vertex pair giving it at the
    /// last time tried come down to its first root (each pair's curve lies above the bound):
    /// the first time just before such a root (by a relative `2^-30`) where the bound is
    /// positive is taken, else the largest time of a few steps of regula falsi (Illinois) where
    /// it is. The bound at `rest` is evaluated only when no root before `rest` was tried (a
    /// time before such a root is taken even if the bound stays positive beyond `rest`: the
    /// next step sees that).
    fn first_time(&self, rest: f64) -> f64 {
        let (g_lo, mut ia, mut ib) = self.at_zero;
        if g_lo <= 0.0 {
            return 0.0;
        }
        // A time in `(0, rest]` where the bound is not positive, once one is known.
        let mut hi = None;
        for _ in 0..6 {
            // Just before the root, where rounding cannot yet have taken the pair's curve to 0:
            // one evaluation when the pair still gives the bound there, the common case.
            let s = self.pair_root(ia, ib) * (1.0 - 1.0 / 1_073_741_824.0);
            if !(s > 0.0 && s < hi.map_or(rest, |(h, _)| h)) {
                break;
            }
            let (g, ja, jb) = self.at(s);
            if g > 0.0 {
                return s;
            }
            hi = Some((s, g));
            if (ja, jb) == (ia, ib) {
                break;
            }
            (ia, ib) = (ja, jb);
        }
        let hi = match hi {
            Some(hi) => hi,
            None => {
                let g_hi = self.at_value(rest);
                if g_hi > 0.0 {
                    return f64::INFINITY;
                }
                (rest, g_hi)
            }
        };
        self.falsi((0.0, g_lo), hi)
    }

    /// A time in `[lo, hi)` where the bound is positive, by a few steps of regula falsi
    /// (Illinois), `lo` where it is positive and `hi` where it is not.
    fn falsi(&self, (mut lo, mut g_lo): (f64, f64), (mut hi, mut g_hi): (f64, f64)) -> f64 {
        let mut side = 0;
        for _ in 0..6 {
            let s = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
            if !(s > lo && s < hi) {
                break;
            }
            let (g, ..) = self.at(s);
            if g > 0.0 {
                (lo, g_lo) = (s, g);
                if side == 1 {
                    g_hi *= 0.5;
                }
                side = 1;
            } else {
                (hi, g_hi) = (s, g);
                if side == -1 {
                    g_lo *= 0.5;
                }
                side = -1;
            }
            if hi - lo <= 1e-3 * hi {
                break;
            }
        }
        lo
    }
}

/// Sets `out` to the lines along `n` of the vertices `points` of the shape moving by `k`, placed
/// at `t`: `(n · p, n · velocity)`.
fn lines_along(k: &Reach, points: &[DVec2], n: DVec2, t: f64, out: &mut [(f64, f64); MAX_HULL]) {
    let origin = k.pivot + k.velocity * t;
    // The arm `p − origin` turns: its velocity is `w perp(arm)`, and `n · perp(arm)` is
    // `perp(n) · arm` turned the other way; both are taken from `n · p` and `perp(n) · p`.
    let (drift, m) = (n.dot(k.velocity), DVec2::new(n.y, -n.x));
    let base = drift - k.turn_signed * m.dot(origin);
    for (slot, p) in out.iter_mut().zip(points) {
        *slot = (n.dot(*p), base + k.turn_signed * m.dot(*p));
    }
}

/// The span [`Advance::rate`] takes for the moving shape `k` and the other's vertices at `t`.
fn span_of(k: &Reach, other: &[DVec2], t: f32) -> f64 {
    if k.turn == 0.0 {
        return 0.0;
    }
    let from = k.pivot + k.velocity * f64::from(t);
    let far = other
        .iter()
        .map(|p| (*p - from).length_squared())
        .fold(0.0, f64::max);
    crate::math::sqrt(far)
}

#[cfg(test)]
#[path = "cast_rotating_hulls_tests.rs"]
mod tests;
