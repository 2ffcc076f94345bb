//! The search of the hitbox–circle path, for pairs whose deepest pair's point another
//! difference covers: the candidates of the union's boundary (the rounded rectangles' own
//! nearest points, then the crossings of their boundaries in the ring they leave), nearest
//! first, each classified against all the differences.

use super::crossings::{self, in_quadrant};
use super::few::Few;
use super::{Rounded, CLEAR, MOST_PARTS, ON, OPPOSITE};
use crate::math::sqrt;
use core::mem::MaybeUninit;
use glam::DVec2;

/// Candidate points of the boundary: their distances to the origin, and the points.
pub(super) type Candidates<'a> = Few<'a, (f64, DVec2), 16>;

impl Rounded {
    /// The points of the boundary where the distance to the origin is locally least along
    /// it (the feet of the sides facing the origin, each arc's nearest point), with their
    /// distances, when in the ring `near..=far`.
    /// (Out of line, as the search's other steps: inlined into it, they cost more.)
    #[inline(never)]
    fn own(&self, (near, far): (f64, f64), out: &mut Candidates<'_>) {
        let (lo, hi, r) = (self.lo, self.hi, self.r);
        let mut keep = |x: DVec2| {
            let t = x.length();
            if t >= near && t <= far {
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
}

/// The least distance at which one of the four half-axes from the origin leaves the union
/// of `d` (which holds the origin): each rounded rectangle covers an interval of each axis.
/// (Out of line, as the search's other steps: inlined into it, they cost more.)
#[inline(never)]
fn axis_exit(d: &[Rounded]) -> f64 {
    // The spans along each axis, at 0 on the other axis.
    let mut spans = [[(0.0, 0.0); MOST_PARTS]; 2];
    let mut count = [0; 2];
    for piece in d {
        let off = DVec2::ZERO.clamp(piece.lo, piece.hi);
        let (lo, hi) = (piece.lo.to_array(), piece.hi.to_array());
        for (axis, across) in [(0, off.y), (1, off.x)] {
            let h2 = piece.r * piece.r - across * across;
            if h2 > 0.0 {
                let h = sqrt(h2);
                spans[axis][count[axis]] = (lo[axis] - h, hi[axis] + h);
                count[axis] += 1;
            }
        }
    }
    let least = |axis: usize| {
        let spans = &spans[axis][..count[axis]];
        // Each way, the first point not covered: `[0, up)` and `(down, 0]` are, and no span
        // goes on past `up` or `down` (whatever order the spans are taken in).
        let mut up = 0.0f64;
        while let Some(&(_, hi)) = spans.iter().find(|&&(lo, hi)| lo <= up && up < hi) {
            up = hi;
        }
        let mut down = 0.0f64;
        while let Some(&(lo, _)) = spans.iter().find(|&&(lo, hi)| lo < down && down <= hi) {
            down = lo;
        }
        (up, -down)
    };
    let ((up_x, down_x), (up_y, down_y)) = (least(0), least(1));
    f64::INFINITY.min(up_x).min(down_x).min(up_y).min(down_y)
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
    // Beyond this squared distance from a box, `x` is clearly outside its difference (by
    // twice the margin: rounding cannot bring it within): no length, no normal.
    let apart = d.first().map_or(0.0, |piece| piece.r) + 2.0 * CLEAR * scale;
    let apart2 = apart * apart;
    for (k, piece) in d.iter().enumerate() {
        if (x - x.clamp(piece.lo, piece.hi)).length_squared() > apart2 {
            continue;
        }
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

/// The nearest point of the union of `d` (holding the origin) on its boundary with a way
/// out, when the deepest pair's point, at distance `low`, is covered: its distance, the
/// point, and the differences it lies on (a bit each); `Err` where a decision is unclear.
///
/// Out of line: most pairs miss or are decided by the deepest pair, and should not pay for
/// this function's lists in their stack frame.
#[inline(never)]
pub(super) fn nearest(d: &[Rounded], low: f64, scale: f64) -> Result<Option<(f64, DVec2, u8)>, ()> {
    let margin = CLEAR * scale;
    let r = d.first().map_or(0.0, |piece| piece.r);
    // Covered: the candidates no nearer than the deepest pair's depth, nearest first. The
    // sides' feet and arcs' nearest points first: the nearest open one bounds the crossings
    // worth computing.
    let mut buffer = MaybeUninit::uninit();
    let mut near = Candidates::new(&mut buffer);
    // The answer is no farther than where the axes leave the union (a point of its
    // boundary with a way out): own points past that are not tried (two of them equally
    // near made the path step aside needlessly, where a crossing was the answer).
    let exit = axis_exit(d) + 2.0 * margin;
    for piece in d {
        piece.own((low - margin, exit), &mut near);
    }
    let own = nearest_open(near.as_mut_slice(), d, scale, None)?;
    let far = own.map_or(exit, |(t, _, _)| exit.min(t + margin));
    near.clear();
    crossings::crossings(d, r, (low - margin, far), scale, &mut near);
    // The own point stands unless a crossing is nearer (or about as near: both are tried).
    if let Some((t, x, _)) = own {
        near.push((t, x));
    }
    nearest_open(near.as_mut_slice(), d, scale, None)
}
