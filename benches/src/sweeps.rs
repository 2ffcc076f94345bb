//! Inputs for the shape-cast bench: seeded moving pairs, each as collide2d shapes with their
//! motions and as parry2d shapes with poses and velocities, plus a one-time check that both
//! libraries agree on which pairs hit.

use crate::{pv, Placed, Rng, Spec, TOUCHING};
use collide2d::{math::Vec2, Shape};
use parry2d::math::Vector;
use parry2d::query::ShapeCastOptions;

/// One moving pair as collide2d sees it: `a`, its motion, `b`, its motion.
pub type CollideSweep = (Shape, Vec2, Shape, Vec2);

/// One moving pair as parry2d sees it: placed shapes with their velocities.
pub type ParrySweep<A, B> = (
    Placed<<A as Spec>::Parry>,
    Vector,
    Placed<<B as Spec>::Parry>,
    Vector,
);

/// The same moving pairs in both forms, index for index.
pub struct Sweeps<A: Spec, B: Spec> {
    /// collide2d shapes in world coordinates with their motions over one step.
    pub collide: Vec<CollideSweep>,
    /// parry2d shapes, poses and velocities (one step is time 0 to 1).
    pub parry: Vec<ParrySweep<A, B>>,
}

/// parry2d's options for the same question: impacts in `[0, 1]`, touching counts, shapes
/// overlapping at the start hit at 0.
#[must_use]
pub fn parry_options() -> ShapeCastOptions {
    ShapeCastOptions::with_max_time_of_impact(1.0)
}

impl<A: Spec, B: Spec> Sweeps<A, B> {
    /// `count` random moving pairs from `seed`, half of them hitting during the step (by
    /// collide2d), in random order. `b` starts 0.8 to 3 times the sum of the bounding radii
    /// away from `a` (so about one pair in ten already overlaps) and `a` moves towards it,
    /// up to 0.6 rad off, by 0.5 to 1.5 times that distance; `b` drifts a little.
    #[must_use]
    pub fn generate(seed: u64, count: usize) -> Sweeps<A, B> {
        let mut rng = Rng::new(seed);
        let (mut hits, mut misses) = (Vec::new(), Vec::new());
        while hits.len() < count / 2 || misses.len() < count - count / 2 {
            let Some(built) = Self::random_sweep(&mut rng) else {
                continue;
            };
            let (a, va, b, vb) = &built.0;
            match collide2d::cast_shapes(a, *va, b, *vb).is_some() {
                true if hits.len() < count / 2 => hits.push(built),
                false if misses.len() < count - count / 2 => misses.push(built),
                _ => {}
            }
        }
        let mut all: Vec<_> = hits.into_iter().chain(misses).collect();
        for i in (1..all.len()).rev() {
            all.swap(i, rng.below(i + 1));
        }
        let (collide, parry) = all.into_iter().unzip();
        Sweeps { collide, parry }
    }

    fn random_sweep(rng: &mut Rng) -> Option<(CollideSweep, ParrySweep<A, B>)> {
        let mut a = A::random(rng);
        let center = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
        a.set_center(center);
        let mut b = B::random(rng);
        let dist = rng.range(0.8, 3.0) * (a.bound() + b.bound());
        let dir = Vec2::from_angle(rng.range(-std::f32::consts::PI, std::f32::consts::PI));
        b.set_center(center + dir * dist);
        let off = Vec2::from_angle(rng.range(-0.6, 0.6));
        let va = off.rotate(dir) * dist * rng.range(0.5, 1.5);
        let vb = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * 0.1 * dist;
        Some((
            (a.collide()?, va, b.collide()?, vb),
            (a.parry()?, pv(va), b.parry()?, pv(vb)),
        ))
    }

    /// Checks once, before timing, that collide2d and parry2d agree on which pairs hit, except
    /// grazing pairs: those whose deepest overlap over the step (sampled, by collide2d) is within
    /// [`TOUCHING`]. Returns the hits, the grazing disagreements and the largest difference
    /// between the two times of impact, as a distance (`|Δt| · |va − vb|`).
    ///
    /// # Errors
    /// A description of the first pair on which they disagree, or that parry2d does not support.
    pub fn check(&self) -> Result<(usize, usize, f32), String> {
        let (mut hits, mut grazes, mut worst) = (0, 0, 0.0f32);
        for (i, ((a, va, b, vb), ((pa, sa), pva, (pb, sb), pvb))) in
            self.collide.iter().zip(&self.parry).enumerate()
        {
            let c = collide2d::cast_shapes(a, *va, b, *vb);
            let p = parry2d::query::cast_shapes(pa, *pva, sa, pb, *pvb, sb, parry_options())
                .map_err(|e| format!("pair {i}: parry2d: {e:?}"))?;
            hits += usize::from(c.is_some());
            match (c, p) {
                (Some(c), Some(p)) => {
                    let dt = (c.t - p.time_of_impact).abs() * (*va - *vb).length();
                    worst = worst.max(dt);
                }
                (None, None) => {}
                _ => {
                    let depth = deepest_overlap(a, *va, b, *vb);
                    if depth > TOUCHING {
                        return Err(format!(
                            "pair {i}: collide2d {c:?}, parry2d {p:?}, overlap {depth}: {a:?} {va} {b:?} {vb}"
                        ));
                    }
                    grazes += 1;
                }
            }
        }
        Ok((hits, grazes, worst))
    }
}

/// The deepest contact over 1025 evenly spaced times of the step.
fn deepest_overlap(a: &Shape, va: Vec2, b: &Shape, vb: Vec2) -> f32 {
    use collide2d::math::Pose;
    (0..=1024)
        .map(|k| {
            let t = k as f32 / 1024.0;
            let at = |s: &Shape, v: Vec2| s.transformed(&Pose::from_translation(v * t));
            collide2d::contact(&at(a, va), &at(b, vb)).map_or(0.0, |c| c.depth)
        })
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, PolygonSpec};

    fn agrees<A: Spec, B: Spec>() {
        let sweeps = Sweeps::<A, B>::generate(42, 128);
        assert_eq!(sweeps.collide.len(), 128);
        let (hits, _, worst) = sweeps.check().unwrap();
        assert_eq!(hits, 64);
        assert!(worst < 0.05, "times of impact differ by {worst}");
    }

    #[test]
    fn every_pair_type_is_balanced_and_both_libraries_agree() {
        agrees::<CircleSpec, CircleSpec>();
        agrees::<CircleSpec, AabbSpec>();
        agrees::<AabbSpec, AabbSpec>();
        agrees::<ObbSpec, ObbSpec>();
        agrees::<PolygonSpec, PolygonSpec>();
        agrees::<CapsuleSpec, CircleSpec>();
    }
}
