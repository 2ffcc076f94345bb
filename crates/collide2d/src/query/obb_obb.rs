//! Rotated box against rotated (or axis-aligned) box: the separating axis test on the two boxes'
//! four axes (Ericson, RTCD 4.4.1), in `f64`.
//!
//! The boxes *are* the hulls of their `f32` corners, which lie within a known rounding error
//! `e` of the ideal rectangles. So a separation on some axis larger than the errors proves the
//! hulls apart, and an overlap deeper than the errors on every axis proves them intersecting
//! (each hull contains its ideal rectangle shrunk by `2e`). Only pairs within that margin of
//! touching take the exact generic path.

use crate::math::Vec2;
use crate::query::{convex, Contact};
use crate::shape::convex::Convex;
use crate::shape::{Aabb, Obb};
use glam::{DVec2, Vec4, Vec4Swizzles};

/// A box as center, half extents, unit axis, and how far its hull may stray from that ideal.
#[derive(Clone, Copy)]
pub(crate) struct BoxView {
    center: Vec2,
    half: Vec2,
    axis: Vec2,
    err: f32,
}

/// What [`BoxView::of_obb`] needs beyond the box's own fields, computed once when the box is
/// built (boxes are immutable): the error bound `err` below, rounded up to `f32`, or infinity
/// when the float test does not apply (a rotation that is not a unit vector, a hand-made pose;
/// or a box too thin for the shrunk-rectangle argument). Infinity makes [`certain`] undecided,
/// so the exact generic path takes those boxes.
pub(crate) fn obb_filter_err(center: Vec2, half: Vec2, rotation: Vec2) -> f32 {
    let rot = rotation.as_dvec2();
    if (rot.length_squared() - 1.0).abs() > 1e-6 {
        return f32::INFINITY;
    }
    let (center, half) = (center.as_dvec2(), half.as_dvec2());
    // Each corner coordinate takes at most 3 f32 roundings of terms no larger than
    // |center| + hx + hy, so it lies within 2^-21 of that from the ideal: 2^-20 leaves room
    // (and covers |rot| differing from 1 by 1e-6).
    let err = (center.abs().max_element() + half.x + half.y) * (1.0 / (1u64 << 20) as f64)
        + (half.x + half.y) * 1e-6;
    round_up(err, half)
}

/// `err` rounded up to `f32` (never below it), or infinity when a half extent is at most
/// twice that: too thin for the shrunk-rectangle argument.
fn round_up(err: f64, half: DVec2) -> f32 {
    let mut e = err as f32;
    if f64::from(e) < err {
        e = e.next_up();
    }
    if half.min_element() <= 2.0 * f64::from(e) {
        return f32::INFINITY;
    }
    e
}

impl BoxView {
    /// The box's view, with the error bound computed when it was built (infinite, so never
    /// certain, for a rotation that is not a unit vector or a box too thin).
    #[inline(always)]
    pub(crate) fn of_obb(o: &Obb) -> BoxView {
        // The axis is `rot` itself, not normalised: its length is within 5e-7 of 1, the box
        // `center +- rot * hx +- rot.perp() * hy` it spans (a rectangle scaled by |rot|) is the
        // exact value of the corners' f32 expressions, so they lie within `err` of it, and the
        // separating-axis test below is exact for such rectangles on axes of any length (every
        // projection scales by the axis length, which `certain`'s margin allows for).
        BoxView {
            center: o.center(),
            half: o.half_extents(),
            axis: o.rotation(),
            err: o.filter_err(),
        }
    }

    #[inline(always)]
    pub(crate) fn of_aabb(b: &Aabb) -> BoxView {
        let (min, max) = (b.min(), b.max());
        // The corners are exact; the f32 center and half size are each rounded once (twice for
        // the center: the sum, then an exact halving unless subnormal), so the rectangle they
        // describe is within 2^-23 (|min| + |max|) + 2^-149 of the box. `certain` also needs
        // `err >= 2^-20 (|center| + half.x + half.y)`, at most 2^-20 1.5 (|min| + |max|) (plus
        // rounding): 2^-19 (|min| + |max|) + 2^-140 covers both.
        let center = (min + max) * 0.5;
        let half = (max - min) * 0.5;
        let err = (min.abs().max_element() + max.abs().max_element()) * (1.0 / (1u64 << 19) as f32)
            + TINY;
        BoxView {
            center,
            half,
            axis: Vec2::X,
            err: if half.min_element() <= 2.0 * err {
                f32::INFINITY
            } else {
                err
            },
        }
    }
}

/// An absolute term for `f32` roundings in the subnormal range (each at most 2^-149 off).
const TINY: f32 = 1.0 / (1u128 << 120) as f32 / (1u64 << 20) as f32;

/// `Some(answer)` when the float test is certain, `None` near touching (or when a box's `err`
/// is infinite: then the margin is infinite).
///
/// The four separations (on each box's two axes) are the classic loop's expressions, computed
/// in `f32` four lanes at a time. Against the same expressions evaluated exactly, a lane is off
/// by at most `6 * 2^-24 m` (times `1 + 1e-6`), `m = |d.x| + |d.y| + ha.x + ha.y + hb.x + hb.y`:
/// `3 (|d.x| + |d.y|)` from the rounded `d` and the projection, `3 ha.x` from `|u|^2` and its
/// product, `4 (hb.x + hb.y)` from the cosines and their products, `2 m` from the two
/// subtractions (`|u| <= 1 + 5e-7`); subnormal results add under `2^-146`. Each view's `err` is
/// at least `2^-20 (|center| + half.x + half.y)` (see `obb_filter_err` and `of_aabb`), so
/// `2^-21 m <= (1 + 2^-23) (err_a + err_b)`. With the margin the exact test needs
/// (`4 (err_a + err_b)`, twice the argument's), `9 (err_a + err_b) + 2^-140` leaves ample room
/// (including its own rounding), and a lane past it is certain. A margin up to `2^82` bounds
/// every coordinate by `2^102`, so nothing overflows; a larger (or infinite) one is never
/// certain.
#[inline(always)]
fn certain(a: &BoxView, b: &BoxView) -> Option<bool> {
    let margin = 9.0 * (a.err + b.err) + TINY;
    // Never NaN: each `err` is finite and >= 0, or infinite.
    if margin > (1u128 << 82) as f32 {
        return None;
    }
    let d = b.center - a.center;
    let (ua, ub) = (a.axis, b.axis);
    let (ha, hb) = (a.half, b.half);
    // Lanes: a's axis u, a's axis v, b's u, b's v. Each separation is the projection of the
    // center offset, less the box's own half extent (times the axis length squared), less the
    // other box's extent on that axis. `u = (x, y)`, `v = u.perp() = (-y, x)`.
    let axes = Vec4::new(ua.x, ua.y, ub.x, ub.y);
    let axes_x = axes * Vec4::new(1.0, -1.0, 1.0, -1.0); // (ua.x, va.x, ub.x, vb.x)
    let axes_y = axes.yxwz(); // (ua.y, va.y, ub.y, vb.y)
    let proj = (d.x * axes_x + d.y * axes_y).abs();
    let sq = axes * axes;
    // Times |u|^2.
    let own = Vec4::new(ha.x, ha.y, hb.x, hb.y) * (sq + sq.yxwz());
    // (ua.x ub.x, ua.y ub.y, ua.x ub.y, ua.y ub.x): u_a . u_b and v_a . u_b (`perp`, so
    // `-ua.y ub.x + ua.x ub.y`) from the sums and differences of the pairs.
    let p = axes.xyxy() * axes.zwwz();
    let (c, s) = ((p.x + p.y).abs(), (p.z - p.w).abs());
    let cs = Vec4::new(c, s, c, s);
    let other =
        Vec4::new(hb.x, hb.x, ha.x, ha.x) * cs + Vec4::new(hb.y, hb.y, ha.y, ha.y) * cs.yxwz();
    let sep = proj - own - other;
    if sep.cmpgt(Vec4::splat(margin)).any() {
        return Some(false);
    }
    sep.cmplt(Vec4::splat(-margin)).all().then_some(true)
}

/// The closed boxes share a point, exactly (for their computed corners). `hulls` gives the two
/// boxes' convex views (as `Shape::as_convex` does) for the exact path near touching.
#[inline(always)]
pub(crate) fn intersects<'a, 'b>(
    x: BoxView,
    y: BoxView,
    hulls: impl FnOnce() -> (Convex<'a>, Convex<'b>),
) -> bool {
    certain(&x, &y).unwrap_or_else(|| {
        let (ha, hb) = hulls();
        generic(&ha, &hb)
    })
}

/// The boxes are certainly apart by the float test (`false` when it is not certain).
#[inline(always)]
pub(crate) fn certainly_apart(x: BoxView, y: BoxView) -> bool {
    certain(&x, &y) == Some(false)
}

/// The contact of two boxes' hulls, in this order: [`convex::contact_checked`] on their
/// convex views, bit for bit, by [`convex::polygons_contact`] (its four-by-four filter for two
/// rotated boxes; a flat box's hull of 1 or 2 points takes `contact_checked` itself).
#[inline(always)]
pub(crate) fn hulls_contact(a: &[Vec2], b: &[Vec2]) -> Option<Contact> {
    // Not on wasm32, where code size counts (the npm package's `.wasm` has a budget): both
    // paths give the same bits.
    #[cfg(not(target_arch = "wasm32"))]
    if let (Ok(a), Ok(b)) = (<&[Vec2; 4]>::try_from(a), <&[Vec2; 4]>::try_from(b)) {
        // The largest coordinate magnitude, as `contact_checked` measures its scale.
        let lanes = |q: &[Vec2; 4]| {
            let lo = Vec4::new(q[0].x, q[0].y, q[1].x, q[1].y).abs();
            lo.max(Vec4::new(q[2].x, q[2].y, q[3].x, q[3].y).abs())
        };
        return convex::filter::quads_contact(a, b, lanes(a).max(lanes(b)).max_element());
    }
    let extent = a
        .iter()
        .chain(b)
        .fold(0.0_f32, |m, p| m.max(p.abs().max_element()));
    convex::polygons_contact(a, b, extent)
}

#[cold]
fn generic(a: &Convex, b: &Convex) -> bool {
    convex::intersects(a, b)
}

#[cfg(test)]
mod tests {
    use crate::math::Vec2;
    use crate::shape::convex::Convex;
    use crate::shape::{Obb, Shape};
    use crate::{intersects, Aabb};
    use core::f32::consts::FRAC_PI_4;

    fn obb(x: f32, y: f32, hx: f32, hy: f32, angle: f32) -> Shape {
        Obb::new(Vec2::new(x, y), Vec2::new(hx, hy), angle)
            .unwrap()
            .into()
    }

    #[test]
    fn diamond_near_a_box_corner_misses() {
        // The diamond's tip at (2 + sqrt 2 - 0.5 ...) stays clear of the corner region.
        let a = obb(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = obb(2.5, 2.5, 1.0, 1.0, FRAC_PI_4);
        assert!(!intersects(&a, &b));
        assert!(!intersects(&b, &a));
    }

    #[test]
    fn touching_rotated_boxes_intersect() {
        // Two unrotated obbs sharing an edge: the exact path decides the touching case.
        let a = obb(0.0, 0.0, 1.0, 1.0, 0.0);
        let b = obb(2.0, 0.5, 1.0, 1.0, 0.0);
        assert!(intersects(&a, &b));
        let apart = obb(2.0f32.next_up(), 0.5, 1.0, 1.0, 0.0);
        assert!(!intersects(&a, &apart));
    }

    #[test]
    fn deep_and_far_pairs_agree_with_the_generic_path() {
        let a = obb(0.0, 0.0, 3.0, 1.0, 0.3);
        for (x, y, angle) in [
            (1.0, 1.0, 0.7),
            (5.0, 0.0, 1.1),
            (0.0, 3.0, -0.4),
            (9.0, 9.0, 2.0),
        ] {
            let b = obb(x, y, 1.5, 0.5, angle);
            let generic =
                crate::query::convex::intersects(&a.as_convex().unwrap(), &b.as_convex().unwrap());
            assert_eq!(intersects(&a, &b), generic, "{x} {y} {angle}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 4000, failure_persistence: None, ..Default::default()
        })]

        /// Boxes on a grid at every scale, many touching or nearly so: whenever the float test
        /// answers, the exact generic path agrees.
        #[test]
        fn a_certain_answer_is_the_exact_one(
            (x, y, hx, hy, angle) in (-40i32..40, -40i32..40, 1i32..20, 1i32..20, -8i32..8),
            (ax, ay, aw, ah) in (-40i32..40, -40i32..40, 1i32..30, 1i32..30),
            (obb_first, nudge, e) in (proptest::bool::ANY, -2i32..=2, prop_oneof_scale()),
        ) {
            let s = 2f32.powi(e);
            let f = |k: i32| k as f32 * s;
            let b = obb(f(x) + nudge as f32 * f(1) * 1e-7, f(y), f(hx), f(hy), angle as f32 * FRAC_PI_4 / 2.0);
            let a: Shape = Aabb::new(Vec2::new(f(ax), f(ay)), Vec2::new(f(ax + aw), f(ay + ah)))
                .unwrap()
                .into();
            let c = obb(f(ax), f(ay), f(aw), f(ah), 0.0);
            for (p, q) in [(&a, &b), (&c, &b), (&b, &c)] {
                let (p, q) = if obb_first { (q, p) } else { (p, q) };
                let view = |s: &Shape| match s {
                    Shape::Obb(o) => super::BoxView::of_obb(o),
                    Shape::Aabb(r) => super::BoxView::of_aabb(r),
                    _ => unreachable!(),
                };
                if let Some(answer) = super::certain(&view(p), &view(q)) {
                    let (hp, hq) = (p.as_convex().unwrap(), q.as_convex().unwrap());
                    proptest::prop_assert_eq!(answer, super::generic(&hp, &hq));
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 3000, failure_persistence: None, ..Default::default()
        })]

        /// Rotated boxes on a grid (touching, sharing edges and corners often) and at random
        /// angles, at several scales and far from the origin: `hulls_contact` is
        /// `contact_checked` on the hulls, bit for bit, in both orders.
        #[test]
        fn hulls_contact_is_contact_checked_bit_for_bit(
            (x, y, hx, hy) in (-12i32..12, -12i32..12, 0i32..8, 0i32..8),
            (hx2, hy2) in (0i32..8, 0i32..8),
            (steps, steps2, free, angle) in (-8i32..8, -8i32..8, proptest::bool::ANY, -4.0f32..4.0),
            (e, far) in (prop_oneof_scale(), proptest::prop_oneof![
                proptest::strategy::Just(0.0f32), proptest::strategy::Just(1e4), proptest::strategy::Just(3e6)
            ]),
        ) {
            let s = 2f32.powi(e);
            let f = |k: i32| k as f32 * s;
            let turn = |k: i32| k as f32 * FRAC_PI_4 / 2.0;
            let a = Obb::new(Vec2::new(far * s, 0.0), Vec2::new(f(hx2), f(hy2)), turn(steps2)).unwrap();
            let b_angle = if free { angle } else { turn(steps) };
            let b = Obb::new(Vec2::new(far * s + f(x), f(y)), Vec2::new(f(hx), f(hy)), b_angle).unwrap();
            let bits = |c: Option<crate::query::Contact>| {
                c.map(|c| {
                    let mut out = alloc::vec![c.normal.x.to_bits(), c.normal.y.to_bits(), c.depth.to_bits()];
                    out.extend(c.points.iter().flat_map(|p| [p.x.to_bits(), p.y.to_bits()]));
                    out
                })
            };
            for (p, q) in [(&a, &b), (&b, &a)] {
                let generic = crate::query::convex::contact_checked(
                    &Convex::slice(p.hull(), 0.0),
                    &Convex::slice(q.hull(), 0.0),
                );
                proptest::prop_assert_eq!(bits(super::hulls_contact(p.hull(), q.hull())), bits(generic));
            }
        }
    }

    fn prop_oneof_scale() -> impl proptest::strategy::Strategy<Value = i32> {
        proptest::prop_oneof![
            proptest::strategy::Just(0),
            -130i32..-100,
            -20i32..20,
            80i32..100
        ]
    }

    #[test]
    fn aabb_against_obb_uses_the_same_test() {
        let b: Shape = Aabb::new(Vec2::ZERO, Vec2::new(2.0, 2.0)).unwrap().into();
        assert!(intersects(&b, &obb(3.0, 1.0, 1.0, 1.0, FRAC_PI_4)));
        assert!(!intersects(&b, &obb(3.5, 1.0, 1.0, 1.0, FRAC_PI_4)));
    }
}
