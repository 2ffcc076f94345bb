//! The face bound against the exact separation: at every sampled time of the rest of the step
//! it lies below the hulls' separation along GJK's axis turning with the edge's shape, less
//! the radii and margins.

use super::super::{Advance, Reach, MARGIN};
use super::*;
use crate::math::Vec2;
use crate::query::sweep::Sweep;
use crate::shape::{Capsule, ConvexPolygon, Obb};
use alloc::vec::Vec;

/// A small xorshift generator: the test needs many varied cases, not a strategy.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        (crate::test_support::xorshift_next(&mut self.0) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit() as f32
    }

    fn vec(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.range(-r, r), self.range(-r, r))
    }
}

/// A box, a turned box, a convex polygon of 3 to 8 vertices or a capsule, near `center`.
fn random_hull(rng: &mut Rng, center: Vec2) -> Shape {
    let size = rng.range(0.5, 20.0);
    match (rng.unit() * 4.0) as u32 {
        0 => Obb::new(center, Vec2::new(size, rng.range(0.1, 1.0) * size), 0.0)
            .unwrap()
            .into(),
        1 => Obb::new(center, Vec2::new(size, size * 0.5), rng.range(-3.0, 3.0))
            .unwrap()
            .into(),
        2 => {
            let n = 3 + (rng.unit() * 6.0) as usize;
            let mut angles: Vec<f32> = (0..n)
                .map(|_| rng.range(0.0, core::f32::consts::TAU))
                .collect();
            angles.sort_by(f32::total_cmp);
            let points: Vec<Vec2> = angles
                .iter()
                .map(|&a| center + Vec2::new(a.cos() * size, a.sin() * size * 0.6))
                .collect();
            match ConvexPolygon::new(&points) {
                Ok(p) => p.into(),
                Err(_) => Obb::new(center, Vec2::new(size, size), 0.0).unwrap().into(),
            }
        }
        _ => {
            let arm = rng.vec(size);
            Capsule::new(center - arm, center + arm, rng.range(0.0, 2.0))
                .unwrap()
                .into()
        }
    }
}

/// The separation of the placed hulls `pa` and `pb` along `m`, less `less`.
fn separation(pa: &[DVec2], pb: &[DVec2], m: DVec2, less: f64) -> f64 {
    let low = pb.iter().map(|p| m.dot(*p)).fold(f64::INFINITY, f64::min);
    let top = pa
        .iter()
        .map(|p| m.dot(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    low - top - less
}

#[test]
fn the_face_bound_stays_below_the_separation_along_the_turning_axis() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut tight) = (0, 0);
    for _ in 0..4000 {
        let center = rng.vec(200.0);
        let a = random_hull(&mut rng, center);
        let near = center + rng.vec(60.0);
        let b = random_hull(&mut rng, near);
        let pivot = |rng: &mut Rng, s: &Shape| {
            if rng.unit() < 0.5 {
                s.aabb().center()
            } else {
                s.aabb().center() + rng.vec(30.0)
            }
        };
        let sa = Sweep::new(rng.vec(80.0), rng.range(-7.0, 7.0), pivot(&mut rng, &a));
        let sb = Sweep::new(rng.vec(80.0), rng.range(-7.0, 7.0), pivot(&mut rng, &b));
        let Some([ha, hb]) = Turning::pair(&a, sa.pivot.as_dvec2(), &b, sb.pivot.as_dvec2()) else {
            continue;
        };
        let (ka, kb) = (
            Reach::with(sa, ha.core, ha.radius),
            Reach::with(sb, hb.core, hb.radius),
        );
        let margin = MARGIN * 30.0 * ka.scale().max(kb.scale());
        let adv = Advance::new(ka, kb, margin);
        let t = rng.unit() * 0.9;
        let (mut va, mut vb) = ([DVec2::ZERO; MAX_HULL], [DVec2::ZERO; MAX_HULL]);
        let pa = ha.place(&ka, t, &mut va);
        let pb = hb.place(&kb, t, &mut vb);
        let gap = hull_gap(pa, pb, Start::pair(0, 0), 0.125 * margin);
        if gap.upper == 0.0 {
            continue;
        }
        let mut face = Curve::new(&adv, ha.radius + hb.radius);
        if face.fill_face(&adv, (pa, pb), &gap, t).is_none() {
            continue;
        }
        // The axis turns with the shape whose edge the simplex ended on.
        let turn = if gap.start.edge_of_a().unwrap() {
            ka.turn_signed
        } else {
            kb.turn_signed
        };
        let rest = 1.0 - t;
        for k in 0..=256 {
            let s = rest * f64::from(k) / 256.0;
            let (sin, cos) = libm::sincos(turn * s);
            let m = DVec2::new(
                cos * gap.axis.x - sin * gap.axis.y,
                sin * gap.axis.x + cos * gap.axis.y,
            );
            let (mut wa, mut wb) = ([DVec2::ZERO; MAX_HULL], [DVec2::ZERO; MAX_HULL]);
            let qa = ha.place(&ka, t + s, &mut wa);
            let qb = hb.place(&kb, t + s, &mut wb);
            let exact = separation(qa, qb, m, face.less);
            let (bound, ..) = face.at(s);
            // Rounding of the f64 placements only.
            let slack = 1e-9 * ka.scale().max(kb.scale());
            assert!(
                bound <= exact + slack,
                "bound {bound} above the separation {exact} at s = {s}: {a:?} {sa:?} {b:?} {sb:?} t = {t}"
            );
            if bound > exact - 0.05 * (exact.abs() + 1.0) {
                tight += 1;
            }
            checked += 1;
        }
    }
    // Not vacuous: many samples, and the bound close to the separation at many of them.
    assert!(
        checked > 200_000 && tight > checked / 10,
        "{checked} samples, {tight} tight"
    );
}
