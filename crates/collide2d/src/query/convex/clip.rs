//! Box2D's clipping (`b2ClipPolygons`): the incident face of one hull clipped to the
//! reference face of the other, for the contact's points.

use super::{d, next};
use crate::math::Vec2;
use crate::query::Contact;
use glam::DVec2;

/// Clips the incident hull against face `i` of the reference hull and returns the contact,
/// the normal pointing from reference to incident (flipped when `flip`, so it runs a to b).
/// (Inlined: a caller with arrays of known size gets its loops unrolled; measured fewer
/// instructions for polygons too; not on wasm32, where code size counts: the npm package's
/// `.wasm` has a budget.)
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn clip_contact(
    reference: &[Vec2],
    i: usize,
    r_ref: f64,
    incident: &[Vec2],
    r_inc: f64,
    flip: bool,
    depth: f64,
) -> Contact {
    let m = reference.len();
    let (p1, p2) = (d(reference[i]), d(reference[next(i, m)]));
    let e = p2 - p1;
    let en = DVec2::new(e.y, -e.x);
    let n = en.normalize_or(DVec2::X);
    // The incident edge: the face of the incident hull most opposed to n, that is with the least
    // `m . en / |m|` over its normals `m`, compared without square roots as the least
    // `key / l2` with `key = c * |c|`, `c = m . en`, `l2 = |m|^2` (see `FaceBest` for why these
    // products of `f32` differences neither overflow nor underflow to 0).
    let k = incident.len();
    let mut incident_face = None;
    let (mut best_key, mut best_l2) = (f64::INFINITY, 1.0);
    if k >= 2 {
        for j in 0..k {
            let (p, q) = (d(incident[j]), d(incident[next(j, k)]));
            let f = q - p;
            let m = DVec2::new(f.y, -f.x);
            let l2 = m.length_squared();
            if l2 == 0.0 {
                continue;
            }
            let c = m.dot(en);
            let key = c * c.abs();
            if key * best_l2 < best_key * l2 {
                (best_key, best_l2, incident_face) = (key, l2, Some((p, q)));
            }
        }
    }
    let (v1, v2) = incident_face.unwrap_or((d(incident[0]), d(incident[0])));
    // e / |e|, exactly as `e.normalize()` would round it.
    let t = DVec2::new(-n.y, n.x);
    let (lo, hi) = (t.dot(p1), t.dot(p2));
    let clip = |x: DVec2, y: DVec2| -> Option<(DVec2, DVec2)> {
        let (sx, sy) = (t.dot(x), t.dot(y));
        let lerp = |s: f64| {
            if sy == sx {
                x
            } else {
                x + (y - x) * ((s - sx) / (sy - sx))
            }
        };
        let (smin, smax) = (sx.min(sy), sx.max(sy));
        if smax < lo || smin > hi {
            return None;
        }
        let a = if sx < lo {
            lerp(lo)
        } else if sx > hi {
            lerp(hi)
        } else {
            x
        };
        let b = if sy < lo {
            lerp(lo)
        } else if sy > hi {
            lerp(hi)
        } else {
            y
        };
        Some((a, b))
    };
    let limit = r_ref + r_inc;
    let (mut points, mut count) = ([Vec2::ZERO; 2], 0);
    if let Some((c1, c2)) = clip(v1, v2) {
        let ends = [c1, c2];
        for &c in &ends[..if c1 == c2 { 1 } else { 2 }] {
            let s = n.dot(c - p1);
            if s <= limit + 1e-9 * (limit.abs() + c.abs().max_element()) {
                points[count] = (c - n * ((r_inc + s - r_ref) * 0.5)).as_vec2();
                count += 1;
            }
        }
    }
    if count == 0 {
        // The incident edge lies beyond the face's ends: use the incident hull's deepest vertex.
        let deepest = incident
            .iter()
            .map(|&v| d(v))
            .min_by(|x, y| n.dot(*x).total_cmp(&n.dot(*y)));
        let c = deepest.unwrap_or(p1);
        let s = n.dot(c - p1);
        points[0] = (c - n * ((r_inc + s - r_ref) * 0.5)).as_vec2();
        count = 1;
    }
    let normal = if flip { -n } else { n };
    Contact::new(normal.as_vec2(), depth as f32, &points[..count])
}
