//! Exits of the union of rounded pieces (see [`union_rounded`](crate::query::union_rounded)).
//!
//! A boundary point `x` ends a contact only when the ray from the origin through `x` leaves the
//! union there: then moving `b` by `normal * (depth + ε)` separates the shapes for every small
//! `ε`, which is what pushing a character out needs. A cusp is not an exit: two pieces whose
//! boundaries touch at one point, the ray running out of one straight into the other (two
//! circles of a compound stacked along the normal). The interiors are disjoint there, but any
//! further move overlaps again.
//!
//! Where a cusp is the nearest boundary point, the exits beside it on the faces through it come
//! as near to the origin as one likes without reaching its distance. The search walks away from
//! the cusp along each such face, with doubling steps, while the distance stays within
//! [`DEPTH_TOL`] of the cusp's, and takes the walk's farthest exit: the widest opening between
//! the two pieces that the tolerance allows.

use crate::query::convex::closest_on_segment;
use crate::query::union_boundary::{Cone, Face};
use crate::query::union_bounded::OverLimit;
use core::f64::consts::TAU;
use glam::DVec2;

/// How much deeper than a cusp the exit beside it may be, relative to the largest coordinate
/// (the rounded search's `1e-9` is its decisions' tolerance; a cusp's exits open more slowly).
pub(crate) const DEPTH_TOL: f64 = 1e-6;

/// The first step of a walk, in units of the decisions' tolerance: a little more than
/// `sqrt(1e9)`, so that between two touching circles the size of the coordinates the gap
/// there (the step squared over the radius) is already about the tolerance.
const FIRST_STEP: f64 = 32768.0;

/// The ray from the origin through `x` leaves every piece whose boundary holds `x`: its
/// direction points into none of their tangent cones `cones` there (by more than `tol`
/// radians; a ray along a flat face leaves the shapes touching, which is apart enough).
/// `x` at the origin has no ray: true.
pub(crate) fn exits(x: DVec2, cones: &[Cone], tol: f64) -> bool {
    x.try_normalize()
        .is_none_or(|u| cones.iter().all(|c| !c.enters(u, tol)))
}

/// Where `x` lies along `face` (within `eps`): the arc length from the face's start, and the
/// face's length.
fn position(face: &Face, x: DVec2, eps: f64) -> Option<(f64, f64)> {
    match *face {
        Face::Segment(p, q) => {
            let len = p.distance(q);
            (closest_on_segment(x, p, q).distance(x) <= eps && len > 0.0)
                .then(|| ((x - p).dot(q - p) / len, len))
        }
        Face::Arc {
            center,
            radius,
            start,
            len,
        } => {
            if (x.distance(center) - radius).abs() > eps || radius <= 0.0 {
                return None;
            }
            let v = x - center;
            let t = libm::atan2(v.y, v.x) - start;
            let t = t - TAU * libm::floor(t / TAU);
            // Just before the start wraps to nearly a full turn.
            let t = if t > len && t > len + (TAU - len) * 0.5 {
                t - TAU
            } else {
                t
            };
            let slack = eps / radius;
            (t >= -slack && t <= len + slack).then_some((t * radius, len * radius))
        }
    }
}

/// The point at arc length `s` from the start of `face`.
fn at(face: &Face, s: f64) -> DVec2 {
    match *face {
        Face::Segment(p, q) => p + (q - p) * (s / p.distance(q)),
        Face::Arc {
            center,
            radius,
            start,
            ..
        } => {
            let (sin, cos) = libm::sincos(start + s / radius);
            center + DVec2::new(cos, sin) * radius
        }
    }
}

/// The exit nearest the origin beside the cusp `x` (at distance `d`): on each face of `faces`
/// through `x`, both ways, points at arc length `FIRST_STEP eps`, twice that, ... from `x`
/// while on the face and within `DEPTH_TOL * scale` of `d`; `exit` decides whether a point
/// is an exit (uncovered, the ray leaving there). Of each walk the farthest exit counts; of
/// the walks, the nearest to the origin (the first on ties). `None` when no walk finds one.
pub(crate) fn exit_beside<'f>(
    x: DVec2,
    d: f64,
    faces: impl Iterator<Item = &'f Face>,
    eps: f64,
    mut exit: impl FnMut(DVec2) -> Result<bool, OverLimit>,
) -> Result<Option<(f64, DVec2)>, OverLimit> {
    let scale = eps * 1e9;
    let limit = d + DEPTH_TOL * scale;
    let mut best: Option<(f64, DVec2)> = None;
    for face in faces {
        let Some((here, len)) = position(face, x, eps) else {
            continue;
        };
        for way in [1.0, -1.0] {
            let mut found = None;
            let mut step = FIRST_STEP * eps;
            loop {
                let s = here + way * step;
                if !(0.0..=len).contains(&s) {
                    break;
                }
                let p = at(face, s);
                let dist = p.length();
                if dist > limit {
                    break;
                }
                if exit(p)? {
                    found = Some((dist, p));
                }
                step *= 2.0;
            }
            if let Some(f) = found {
                if best.is_none_or(|(b, _)| f.0 < b) {
                    best = Some(f);
                }
            }
        }
    }
    Ok(best)
}
