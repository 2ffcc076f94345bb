//! One obstacle piece against one straight motion: when the mover first touches it, whether
//! the motion then enters its interior (the blocking rule), and placing the mover against it.
//!
//! The blocking rule is what keeps a mover from snagging on the seams between flush tiles: a
//! piece blocks only if the motion takes the mover into the piece's interior, not when it merely
//! grazes an edge or a corner. It is decided at the first touch, three ways:
//! - a box against a box: the exact cone of entering directions (on each axis where they touch,
//!   the motion must point into the piece), so the slightest push into a floor blocks and a
//!   slide along it never does;
//! - a round mover or piece (circle, capsule): the boundary of their sum is smooth, so the one
//!   contact normal decides;
//! - otherwise (polygon corners, which may meet corner to corner): for convex shapes the
//!   penetration depth along a straight motion is a concave function of time, zero where the
//!   shapes first and last touch, so its value halfway between is at least half its largest:
//!   one [`contact`] there tells grazing (depth 0) from entering (deeper than the tolerance).
//!
//! Obstacles are split into convex pieces first, so the rule holds for concave polygons and
//! compounds too.

use crate::math::{Pose, Vec2};
use crate::query::{cast_shapes, contact};
use crate::shape::{Aabb, Shape};
use alloc::vec::Vec;

/// The first touch of the mover and one convex piece along the motion `r`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Probe {
    /// Fraction of `r` at the first touch, in `[0, 1]`.
    pub(super) t: f32,
    /// Where they touch then.
    pub(super) point: Vec2,
    /// Unit normal out of the piece, towards the mover.
    pub(super) normal: Vec2,
    /// The motion takes the mover into the piece's interior (deeper than the tolerance) while
    /// pushing against `normal`: the piece blocks.
    pub(super) enters: bool,
}

/// `shape` translated by `d`.
pub(super) fn translated(shape: &Shape, d: Vec2) -> Shape {
    if d == Vec2::ZERO {
        return shape.clone();
    }
    shape.transformed(&Pose::from_translation(d))
}

/// The convex pieces of an obstacle: the parts of a concave polygon or of a compound (nested
/// compounds flattened), or the shape itself.
pub(super) fn pieces(shape: &Shape, out: &mut Vec<Shape>) {
    match shape {
        Shape::Polygon(p) if !p.is_convex() => {
            out.extend(p.parts().iter().map(|part| Shape::from(part.clone())));
        }
        Shape::Compound(c) => {
            for part in c.parts() {
                pieces(part, out);
            }
        }
        _ => out.push(shape.clone()),
    }
}

/// The depth below which an overlap counts as touching, for `mover`: `1e-6` times the largest
/// coordinate of its box (at least 1), about 8 to 16 units in the last place, so the rounding
/// of placed coordinates never makes a surface block or snag.
pub(super) fn tolerance(mover: &Shape) -> f32 {
    let b = mover.aabb();
    let scale = b.min().abs().max(b.max().abs()).max_element().max(1.0);
    scale * 1e-6
}

/// Casts `mover` along `r` against the still convex `piece` and applies the blocking rule.
pub(super) fn probe(mover: &Shape, r: Vec2, piece: &Shape, tol: f32) -> Option<Probe> {
    let hit = cast_shapes(mover, r, piece, Vec2::ZERO)?;
    let normal = -hit.normal;
    // In `f64`: the motion may be as long as `f32::MAX / 2`, whose square overflows `f32`.
    let into = r.as_dvec2().dot(normal.as_dvec2());
    let enters = match (mover, piece) {
        (Shape::Aabb(m), Shape::Aabb(p)) => box_enters(m, p, r, hit.t, tol),
        // A round mover or piece has one normal at every contact: its sign decides (beyond
        // the rounding of a normal computed in `f64`).
        _ if is_round(mover) || is_round(piece) => Some(into < -1e-9 * r.as_dvec2().length()),
        _ => None,
    }
    .unwrap_or_else(|| into < 0.0 && enters_interior(mover, r, piece, hit.t, tol));
    Some(Probe {
        t: hit.t,
        point: hit.point,
        normal,
        enters,
    })
}

/// A circle or capsule of positive radius: the boundary of its sum with any convex shape is
/// smooth.
fn is_round(shape: &Shape) -> bool {
    match shape {
        Shape::Circle(c) => c.radius() > 0.0,
        Shape::Capsule(c) => c.radius() > 0.0,
        _ => false,
    }
}

/// For a box meeting a box at time `first`: whether `r` points into the piece from there, by
/// the exact cone of directions at the contact. On each axis where the two touch (within
/// `tol`), `r` must point into the piece; an axis where they overlap sets no condition. So a
/// box sliding along a floor enters the next tile only if it also moves down, however slightly
/// and however fast. `None` when they overlap on both axes (the mover started inside).
fn box_enters(m: &Aabb, p: &Aabb, r: Vec2, first: f32, tol: f32) -> Option<bool> {
    let offset = r * first;
    let (lo, hi) = (m.min() + offset, m.max() + offset);
    let tol = f64::from(tol);
    let mut touching = false;
    for k in 0..2 {
        let (m_lo, m_hi) = (f64::from(lo[k]), f64::from(hi[k]));
        let (p_lo, p_hi) = (f64::from(p.min()[k]), f64::from(p.max()[k]));
        if m_hi.min(p_hi) - m_lo.max(p_lo) > tol {
            continue; // overlapping along this axis
        }
        touching = true;
        // Touching: the mover is on the low side of the piece, or on the high side.
        let inward = if (m_hi - p_lo).abs() <= (p_hi - m_lo).abs() {
            r[k] > 0.0
        } else {
            r[k] < 0.0
        };
        if !inward {
            return Some(false);
        }
    }
    touching.then_some(true)
}

/// True when `mover`, moved along `r` from time `first` (its first touch with the convex
/// `piece`), overlaps the piece deeper than `tol` before it leaves it or the motion ends.
///
/// Decided on the stretch of the motion from the first touch that can hold the overlap: no
/// longer than the two boxes' diagonals (past that their projections on the motion are apart),
/// so a motion far longer than the shapes (1e8 past a wall a unit thick, whose whole overlap is
/// a few units in the last place of a time in `[0, 1]`) is judged at the shapes' own scale.
fn enters_interior(mover: &Shape, r: Vec2, piece: &Shape, first: f32, tol: f32) -> bool {
    let start = translated(mover, r * first);
    let diagonal = |s: &Shape| f64::from(s.aabb().size().length());
    let (length, left) = (r.as_dvec2().length(), f64::from(1.0 - first));
    let span = diagonal(mover) + diagonal(piece);
    let local = if span < length * left {
        (r.as_dvec2() * (span / length)).as_vec2()
    } else {
        r * (1.0 - first)
    };
    if local == Vec2::ZERO || !local.is_finite() {
        return false;
    }
    // The last touch on that stretch: the first one of the reversed stretch from its end.
    let last = match cast_shapes(&translated(&start, local), -local, piece, Vec2::ZERO) {
        Some(h) => 1.0 - h.t,
        None => 0.0,
    };
    contact(&translated(&start, local * (last * 0.5)), piece).is_some_and(|c| c.depth > tol)
}

/// The translation `delta` adjusted so `start` moved by it rests against `piece`, whose surface
/// normal (out of it) there is `n`, when that takes at most `limit`: the rounding of a placed
/// time of impact. An axis-aligned box against an axis-aligned box is snapped exactly onto the
/// face (touching, no gap, no overlap); other shapes are pushed out of an overlap along the
/// contact normal, to a gap of a few units in the last place.
pub(super) fn settle(start: &Shape, delta: Vec2, piece: &Shape, n: Vec2, limit: f32) -> Vec2 {
    if let (Shape::Aabb(m), Shape::Aabb(p)) = (start, piece) {
        if n.x == 0.0 || n.y == 0.0 {
            let axis = usize::from(n.x == 0.0);
            let mut d = delta.to_array();
            // Resting on the piece's upper face along the axis, or against its lower one.
            let above = n.to_array()[axis] > 0.0;
            let (face, own) = if above {
                (p.max().to_array()[axis], m.min().to_array()[axis])
            } else {
                (p.min().to_array()[axis], m.max().to_array()[axis])
            };
            let mut snapped = face - own;
            for _ in 0..4 {
                let placed = own + snapped;
                if above && placed < face {
                    snapped = snapped.next_up();
                } else if !above && placed > face {
                    snapped = snapped.next_down();
                } else {
                    break;
                }
            }
            if (snapped - d[axis]).abs() <= limit {
                d[axis] = snapped;
            }
            return Vec2::from_array(d);
        }
    }
    // Pushed a few units in the last place further, so it ends clear of the surface rather
    // than a rounding inside (a round mover's contacts are decided by the normal alone).
    let margin = tolerance(start) * 0.25;
    let mut delta = delta;
    for _ in 0..4 {
        match contact(&translated(start, delta), piece) {
            Some(c) if c.depth > 0.0 && c.depth <= limit => {
                delta -= c.normal * (c.depth + margin);
            }
            _ => break,
        }
    }
    delta
}

/// The motion left after a blocking contact with unit normal `n` (out of the obstacle):
/// `r` without its component into the surface (slide) or mirrored in it (bounce).
pub(super) fn slide(r: Vec2, n: Vec2) -> Vec2 {
    let into = r.dot(n);
    if into < 0.0 {
        r - n * into
    } else {
        r
    }
}

/// `r` mirrored in the surface with unit normal `n` (out of the obstacle), when it moves into it.
pub(super) fn bounce(r: Vec2, n: Vec2) -> Vec2 {
    let into = r.dot(n);
    if into < 0.0 {
        r - n * (2.0 * into)
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Capsule;
    use crate::test_support::{boxed, l_shape, v};

    #[test]
    fn grazing_the_next_tiles_corner_does_not_enter() {
        let mover = boxed(0.0, 1.0, 1.0, 2.0);
        let next = boxed(1.0, 0.0, 2.0, 1.0);
        let p = probe(&mover, v(5.0, 0.0), &next, 1e-6).unwrap();
        assert_eq!(p.t, 0.0);
        assert!(!p.enters, "{p:?}");
        // Pressing down and right while touching its corner does enter.
        assert!(probe(&mover, v(5.0, -1.0), &next, 1e-6).unwrap().enters);
    }

    #[test]
    fn a_thin_wall_crossed_in_one_step_is_entered() {
        let mover = boxed(0.0, 0.0, 1.0, 1.0);
        let wall = boxed(20.0, -5.0, 22.0, 5.0);
        let p = probe(&mover, v(50.0, 0.0), &wall, 1e-6).unwrap();
        assert!(p.enters);
        assert!((p.t - 19.0 / 50.0).abs() < 1e-6);
        assert_eq!(p.normal, -Vec2::X);
    }

    #[test]
    fn capsule_rolling_over_a_seam_does_not_enter() {
        let mover: Shape = Capsule::new(v(0.5, 1.5), v(0.5, 2.5), 0.5).unwrap().into();
        let next = boxed(1.0, 0.0, 2.0, 1.0);
        let p = probe(&mover, v(3.0, 0.0), &next, 1e-6).unwrap();
        assert!(!p.enters, "{p:?}");
    }

    #[test]
    fn concave_obstacles_split_into_convex_pieces() {
        let mut out = Vec::new();
        pieces(&l_shape(), &mut out);
        assert!(out.len() >= 2);
        assert!(out.iter().all(|s| s.as_convex().is_some()));
    }

    #[test]
    fn a_box_placed_a_little_off_a_floor_is_snapped_onto_it() {
        let start = boxed(0.0, 1.0, 1.0, 2.0);
        let floor = boxed(-5.0, -1.0, 5.0, 0.0);
        for dy in [-1.000_000_1, -0.999_999_9] {
            let d = settle(&start, v(0.0, dy), &floor, Vec2::Y, 1e-3);
            assert_eq!(translated(&start, d).aabb().min().y, 0.0);
        }
        // A deep overlap is left alone.
        assert_eq!(
            settle(&start, v(0.0, -1.5), &floor, Vec2::Y, 1e-3),
            v(0.0, -1.5)
        );
    }

    #[test]
    fn slide_and_bounce_only_change_motion_into_the_surface() {
        assert_eq!(slide(v(3.0, -4.0), Vec2::Y), v(3.0, 0.0));
        assert_eq!(bounce(v(3.0, -4.0), Vec2::Y), v(3.0, 4.0));
        assert_eq!(slide(v(3.0, 4.0), Vec2::Y), v(3.0, 4.0));
    }
}
