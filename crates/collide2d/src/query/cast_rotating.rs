//! [`cast_shapes_rotating`]: when two shapes that move and turn first touch, by conservative
//! advancement (Mirtich 1996; Box2D's `b2TimeOfImpact` and parry's nonlinear cast start from
//! it too, then guess ahead with a root finder, which can step past a contact).
//!
//! Here every step is a proof: at time `t` the shapes are placed by their sweeps and their
//! distance `D` measured; no point of `a` moves faster than `|va| + |wa| ra` (`ra` the largest
//! distance from `a`'s pivot to the points its rounded parts are built on) and likewise for `b`,
//! so they cannot touch before `t + D / (|va − vb| + |wa| ra + |wb| rb)`. For two convex
//! shapes the gap along the direction between their closest points can only close at
//! `max(0, n · (va − vb)) + |wa| ra + |wb| rb`, usually a much longer step. Each step first
//! takes away a margin that covers every rounding error (placing the shapes in `f32`, the
//! distance), so the advance never passes the exact first contact; it stops once the shapes
//! are within the tolerance, and that time is reported.

use crate::math::Vec2;
use crate::query::cast::at_start;
use crate::query::dispatch::canonical_order;
use crate::query::sweep::Sweep;
use crate::query::{cast_shapes, closest_points, contact, intersects, CastHit};
use crate::shape::Shape;
use core::cmp::Ordering;
use glam::DVec2;
use hulls::Turning;

/// How many advances a cast makes at most; a pair still closing in after that many is
/// reported at the time reached (early, never late).
pub const MAX_ADVANCES: u32 = 256;

/// The first time `t` in `[0, 1]` at which `a` moving by the sweep `sa` touches `b` moving by
/// `sb`, or `None` if they stay apart for the whole step. See [`Sweep`] for the motion.
///
/// - Never a missed hit, never a late one: if the shapes, moved exactly as their sweeps say,
///   touch at any time in `[0, 1]`, there is a hit, at a time `t` no later than the first such
///   time. Shapes placed by [`Sweep::pose_at`] at any time before `t` do not touch.
/// - Tolerance: at `t` the shapes placed by the sweeps are apart by at most
///   `tolerance = 2^-20 (24 + |sa.angle| + |sb.angle|) L` (about `6e-6 L` for small turns),
///   `L` bounding the coordinates the shapes reach during the step. A pair that comes that
///   close without touching may be reported as a hit; one still closing in after
///   [`MAX_ADVANCES`] steps is reported at the time reached.
/// - Shapes that intersect at `t = 0` (exactly, as [`intersects`]) hit at `t = 0` with their
///   [`contact`]'s normal and depth, as in [`cast_shapes`]. Later hits have depth 0, the unit
///   normal from `a` towards `b` along their closest points at `t` and the point midway
///   between those.
/// - When neither sweep turns, this is [`cast_shapes`] on the translations: the same answer,
///   bit for bit, at the same cost. Swapping the arguments gives the same `t` and flips the
///   normal.
/// - A sweep with a number that is not finite never hits.
///
/// ```
/// use collide2d::{cast_shapes_rotating, math::Vec2, query::Sweep, Circle, Segment, Shape};
/// use core::f32::consts::PI;
/// // A bar 10 long spinning half a turn in place, and a small coin beside its tip.
/// let bar: Shape = Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?.into();
/// let coin: Shape = Circle::new(Vec2::new(0.0, 4.0), 0.5)?.into();
/// let spin = Sweep::about_center(&bar, Vec2::ZERO, PI);
/// let still = Sweep::translation(Vec2::ZERO);
/// // The end positions do not touch; the bar sweeps through the coin at a quarter turn.
/// assert!(!collide2d::intersects(&bar.transformed(&spin.pose_at(1.0)), &coin));
/// let hit = cast_shapes_rotating(&bar, spin, &coin, still).unwrap();
/// assert!(hit.t > 0.4 && hit.t < 0.5);
/// # Ok::<(), collide2d::ShapeError>(())
/// ```
#[must_use]
pub fn cast_shapes_rotating(a: &Shape, sa: Sweep, b: &Shape, sb: Sweep) -> Option<CastHit> {
    if sa.is_translation() && sb.is_translation() {
        return cast_shapes(a, sa.translation, b, sb.translation);
    }
    if !sa.is_finite() || !sb.is_finite() {
        return None;
    }
    let (pivot_a, pivot_b) = (sa.pivot.as_dvec2(), sb.pivot.as_dvec2());
    // Two convex hulls take the hull path, and their arms give their reaches.
    let hulls = Turning::pair(a, pivot_a, b, pivot_b);
    let (ka, kb) = match &hulls {
        Some([ha, hb]) => (
            Reach::with(sa, ha.core, ha.radius),
            Reach::with(sb, hb.core, hb.radius),
        ),
        None => (Reach::of(a, sa), Reach::of(b, sb)),
    };
    // Every point of each shape stays within its full reach of its moving pivot.
    let start = kb.pivot - ka.pivot;
    let d = ka.velocity - kb.velocity;
    let closest = (start - d * (start.dot(d) / d.length_squared()).clamp(0.0, 1.0)).length();
    let closest = if d == DVec2::ZERO {
        start.length()
    } else {
        closest
    };
    let scale = ka.scale().max(kb.scale());
    let margin = MARGIN * (24.0 + ka.turn + kb.turn) * scale + 1e-37;
    if closest > ka.full + kb.full + 2.0 * margin {
        return None;
    }
    if intersects(a, b) {
        return at_start(a, b);
    }
    // One argument order for the advance, so that swapping the arguments gives the same time
    // and point bit for bit, and the normal flipped.
    if canonical_order(a, b)
        .then_with(|| sweep_order(&sa, &sb))
        .is_gt()
    {
        let swapped = hulls.as_ref().map(|[ha, hb]| [hb, ha]);
        let hit = Advance::new(kb, ka, margin).run(b, sb, a, sa, swapped)?;
        return Some(CastHit {
            normal: -hit.normal,
            ..hit
        });
    }
    let hulls = hulls.as_ref().map(|[ha, hb]| [ha, hb]);
    Advance::new(ka, kb, margin).run(a, sa, b, sb, hulls)
}

/// A total order on sweeps, number by number, to break ties between equal shapes.
fn sweep_order(x: &Sweep, y: &Sweep) -> Ordering {
    let key = |s: &Sweep| {
        [
            s.translation.x,
            s.translation.y,
            s.angle,
            s.pivot.x,
            s.pivot.y,
        ]
    };
    let (kx, ky) = (key(x), key(y));
    kx.iter()
        .zip(&ky)
        .map(|(p, q)| p.total_cmp(q))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// `2^-22`: the margin's factor, above the rounding of placing a point by a pose in `f32`
/// (a few units of `2^-24` of the coordinates, more for larger turns) and of the distance. The
/// advance stops within 4 margins: the tolerance is `2^-20 (24 + |wa| + |wb|) L`.
const MARGIN: f64 = 1.0 / 4_194_304.0;

/// How far a moving shape reaches from its pivot, and how fast its points can move.
#[derive(Clone, Copy)]
struct Reach {
    pivot: DVec2,
    velocity: DVec2,
    /// `|angle|`, radians over the step.
    turn: f64,
    /// `angle`, radians over the step.
    turn_signed: f64,
    /// The largest distance from the pivot to a point the shape's rounded parts are built on
    /// (a vertex, a circle's center, a capsule's segment end): only those move when it turns.
    core: f64,
    /// The largest distance from the pivot to any point of the shape.
    full: f64,
    /// The largest radius of its parts (0 for polygons).
    rounding: f64,
}

impl Reach {
    fn of(s: &Shape, sweep: Sweep) -> Reach {
        let (core, rounding) = reaches(s, sweep.pivot.as_dvec2());
        Reach::with(sweep, core, rounding)
    }

    /// The reach of a shape whose core and rounding are known ([`reaches`]).
    fn with(sweep: Sweep, core: f64, rounding: f64) -> Reach {
        Reach {
            pivot: sweep.pivot.as_dvec2(),
            velocity: sweep.translation.as_dvec2(),
            turn: f64::from(sweep.angle.abs()),
            turn_signed: f64::from(sweep.angle),
            core,
            full: core + rounding,
            rounding,
        }
    }

    /// A bound on every coordinate's magnitude during the step.
    fn scale(&self) -> f64 {
        self.pivot.length() + self.velocity.length() + self.full
    }
}

/// The largest distance from `from` to a point `s`'s rounded parts are built on, and the
/// largest radius of its parts: every point of `s` is within their sum of `from`.
fn reaches(s: &Shape, from: DVec2) -> (f64, f64) {
    // One square root: it is correctly rounded, so the root of the largest square is the
    // largest root.
    let far = |points: &[Vec2]| {
        let squares = points
            .iter()
            .map(|p| (p.as_dvec2() - from).length_squared());
        crate::math::sqrt(squares.fold(0.0, f64::max))
    };
    match s {
        Shape::Compound(c) => c.parts().iter().fold((0.0, 0.0), |(core, round), part| {
            let (c, r) = reaches(part, from);
            (core.max(c), round.max(r))
        }),
        // Every point of a polygon lies in the hull of its boundary's vertices.
        Shape::Polygon(p) => (far(p.points()), 0.0),
        _ => match s.as_convex() {
            Some(c) => (far(c.points()), f64::from(c.radius)),
            // Only compounds and polygons have no convex view.
            None => (0.0, 0.0),
        },
    }
}

/// The state of one conservative advancement.
struct Advance {
    ka: Reach,
    kb: Reach,
    /// `va − vb`.
    d: DVec2,
    /// `|va − vb|`.
    speed: f64,
    margin: f64,
    /// `|wa| ra + |wb| rb`: how fast turning can close any gap.
    spin: f64,
}

impl Advance {
    fn new(ka: Reach, kb: Reach, margin: f64) -> Advance {
        Advance {
            ka,
            kb,
            d: ka.velocity - kb.velocity,
            speed: (ka.velocity - kb.velocity).length(),
            margin,
            spin: ka.turn * ka.core + kb.turn * kb.core,
        }
    }

    /// Advances from `t = 0` (shapes apart there) to the first time the shapes come within the
    /// tolerance, or `None` past `t = 1`. `hulls` are `a`'s and `b`'s when both take the hull
    /// path ([`Turning::pair`]).
    fn run(
        &self,
        a: &Shape,
        sa: Sweep,
        b: &Shape,
        sb: Sweep,
        hulls: Option<[&Turning; 2]>,
    ) -> Option<CastHit> {
        if self.d == DVec2::ZERO && self.spin == 0.0 {
            return None;
        }
        let t = match hulls {
            Some([ha, hb]) => match self.run_hulls(ha, hb)? {
                (t, Some((point_a, point_b))) => return Some(self.apart_hit(point_a, point_b, t)),
                (t, None) => t,
            },
            None => self.run_shapes(a, sa, b, sb)?,
        };
        let (pa, pb) = (a.transformed(&sa.pose_at(t)), b.transformed(&sb.pose_at(t)));
        Some(match closest_points(&pa, &pb) {
            Some(near) => self.apart_hit(near.point_a.as_dvec2(), near.point_b.as_dvec2(), t),
            None => self.touching(&pa, &pb, t),
        })
    }

    /// [`Advance::run`] on any shapes, placing them at each step: the time of the hit.
    fn run_shapes(&self, a: &Shape, sa: Sweep, b: &Shape, sb: Sweep) -> Option<f32> {
        let convex = a.as_convex().is_some() && b.as_convex().is_some();
        let (mut pa, mut pb) = (a.clone(), b.clone());
        let mut t = 0.0f32;
        for _ in 0..MAX_ADVANCES {
            if t > 0.0 {
                pa.set_transformed(a, &sa.pose_at(t));
                pb.set_transformed(b, &sb.pose_at(t));
            }
            let Some(near) = closest_points(&pa, &pb) else {
                // Touching or overlapping (a rounding error's worth past the margin).
                return Some(t);
            };
            let gap = f64::from(near.distance);
            if gap <= 4.0 * self.margin {
                return Some(t);
            }
            let rate = self.rate(self.spans(&pa, &pb, t), t, gap);
            let mut step = (gap - 2.0 * self.margin) / rate;
            if convex {
                let n = (near.point_b - near.point_a).as_dvec2();
                if let Some(along) = self.directional(&pa, &pb, n) {
                    step = step.max(along);
                }
            }
            let next = f64::from(t) + step;
            // Apart until past the end of the step (or no closing at all: infinite, or NaN).
            if next.is_nan() || next > 1.0 {
                return None;
            }
            t = round_down(next);
        }
        // Still closing in: report where it got to, which is not late.
        Some(t)
    }

    /// How fast a point at `p` of `a` moves relative to the same point of `b`, at `t`: the
    /// normal where nothing else decides it (shapes meeting at a single point).
    fn closing_at(&self, p: DVec2, t: f32) -> DVec2 {
        let t = f64::from(t);
        let turning = |k: &Reach| {
            let arm = p - (k.pivot + k.velocity * t);
            k.velocity + arm.perp() * k.turn_signed
        };
        turning(&self.ka) - turning(&self.kb)
    }

    /// A hit at `t > 0` where the placed shapes are apart by at most the tolerance, from their
    /// closest points.
    fn apart_hit(&self, point_a: DVec2, point_b: DVec2, t: f32) -> CastHit {
        let point = (point_a + point_b) * 0.5;
        let between = (point_b - point_a).try_normalize();
        let normal = between.or_else(|| self.closing_at(point, t).try_normalize());
        CastHit {
            t,
            point: point.as_vec2(),
            normal: normal.unwrap_or(DVec2::X).as_vec2(),
            depth: 0.0,
        }
    }

    /// A hit at `t > 0` where the placed shapes touch (within rounding of the advance's
    /// margin): their contact's normal, the middle of its points, depth 0. Where the contact
    /// has no normal of its own (identical points, concentric circles: the same normal in both
    /// orders), the relative motion there gives it, so that it flips with the arguments.
    fn touching(&self, a: &Shape, b: &Shape, t: f32) -> CastHit {
        let (normal, point) = contact(a, b).map_or((Vec2::X, a.aabb().center()), |c| {
            let sum = c.points.iter().fold(Vec2::ZERO, |s, &p| s + p);
            (c.normal, sum / c.points.len() as f32)
        });
        let unflipped = contact(b, a).is_some_and(|c| c.normal == normal);
        let normal = if unflipped {
            let motion = self.closing_at(point.as_dvec2(), t).try_normalize();
            motion.map_or(normal, DVec2::as_vec2)
        } else {
            normal
        };
        CastHit {
            t,
            point,
            normal,
            depth: 0.0,
        }
    }

    /// How fast the distance `gap` between `a` and `b`, placed at `t`, can shrink until the
    /// end of the step: the fastest a point of one closes in on a point of the other. A turn
    /// moves the points of `a` that can be nearest to `b` at most `|wa|` times their distance
    /// from `a`'s pivot, and those lie within the gap and both roundings of `b`'s core points;
    /// those are found now and can move off only at `|va − vb| + |wb| rb` until the end.
    /// `spans` are the largest distances from `a`'s pivot at `t` to `b`'s core points and from
    /// `b`'s pivot to `a`'s ([`Advance::spans`]; unused for a shape that does not turn).
    fn rate(&self, spans: [f64; 2], t: f32, gap: f64) -> f64 {
        let rest = 1.0 - f64::from(t);
        let speed = self.speed;
        let lever = |k: &Reach, span: f64, ko: &Reach| {
            if k.turn == 0.0 {
                return 0.0;
            }
            let drift = (speed + ko.turn * ko.core) * rest;
            let near = gap + k.rounding + ko.rounding + span + drift + 4.0 * self.margin;
            k.turn * k.core.min(near)
        };
        speed + (lever(&self.ka, spans[0], &self.kb) + lever(&self.kb, spans[1], &self.ka))
    }

    /// The spans [`Advance::rate`] takes, for `a` and `b` placed at `t`.
    fn spans(&self, a: &Shape, b: &Shape, t: f32) -> [f64; 2] {
        let span = |k: &Reach, other: &Shape| {
            if k.turn == 0.0 {
                return 0.0;
            }
            reaches(other, k.pivot + k.velocity * f64::from(t)).0
        };
        [span(&self.ka, b), span(&self.kb, a)]
    }

    /// For two convex shapes, how long the gap along `n` (from `a` towards `b`) takes to close
    /// at most: `None` when `n` is zero, infinite when nothing closes it.
    fn directional(&self, a: &Shape, b: &Shape, n: DVec2) -> Option<f64> {
        let n = n.try_normalize()?;
        let (ca, cb) = (a.as_convex()?, b.as_convex()?);
        let support = |pts: &[Vec2], dir: DVec2| {
            pts.iter()
                .map(|p| dir.dot(p.as_dvec2()))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let gap = -support(cb.points(), -n)
            - f64::from(cb.radius)
            - (support(ca.points(), n) + f64::from(ca.radius));
        self.along(gap, n)
    }

    /// How long a gap `gap` between two convex shapes along the unit axis `n` (from `a`
    /// towards `b`) takes to close at most: the support of each moves along `n` no faster than
    /// its translation plus its turn times its core. `None` when there is no time to take,
    /// infinite when nothing closes it.
    fn along(&self, gap: f64, n: DVec2) -> Option<f64> {
        let rate = n.dot(self.d).max(0.0) + self.spin;
        let open = gap - 2.0 * self.margin;
        if open <= 0.0 {
            return None;
        }
        Some(if rate > 0.0 {
            open / rate
        } else {
            f64::INFINITY
        })
    }
}

/// `x` rounded to an `f32` no greater than it (`x` in `[0, 1]`).
fn round_down(x: f64) -> f32 {
    let r = x as f32;
    if f64::from(r) > x {
        r.next_down()
    } else {
        r
    }
}

#[path = "cast_rotating_hulls.rs"]
mod hulls;

#[cfg(test)]
#[path = "cast_rotating_tests.rs"]
mod tests;
