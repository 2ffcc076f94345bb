//! Inputs for the shape-cast bench: seeded moving pairs, each as collide2d shapes with their
//! motions and as parry2d shapes with poses and velocities, plus a one-time check that both
//! libraries agree on which pairs hit.

use crate::{balanced, box2d, pv, Placed, Rng, Spec, TOUCHING};
use boxdd_sys::ffi::{b2ShapeCast, b2ShapeCastPairInput};
use collide2d::{math::Vec2, Shape};
use parry2d::math::Vector;
use parry2d::query::ShapeCastOptions;

/// One moving pair as collide2d sees it: `a`, its motion, `b`, its motion.
pub type CollideSweep = (Shape, Vec2, Shape, Vec2);

/// The same, stored as collide2d's shape types.
pub type TypedSweep<A, B> = (<A as Spec>::Typed, Vec2, <B as Spec>::Typed, Vec2);

/// One moving pair as parry2d sees it: placed shapes with their velocities.
pub type ParrySweep<A, B> = (
    Placed<<A as Spec>::Parry>,
    Vector,
    Placed<<B as Spec>::Parry>,
    Vector,
);

/// One moving pair as Box2D's `b2ShapeCast` takes it (see [`box2d::cast_input`]).
pub type Box2dSweep = b2ShapeCastPairInput;

/// The same moving pairs in the four forms, index for index.
pub struct Sweeps<A: Spec, B: Spec> {
    /// collide2d shapes stored by type, with their motions.
    pub typed: Vec<TypedSweep<A, B>>,
    /// collide2d shapes in world coordinates with their motions over one step.
    pub collide: Vec<CollideSweep>,
    /// parry2d shapes, poses and velocities (one step is time 0 to 1).
    pub parry: Vec<ParrySweep<A, B>>,
    /// Box2D cast inputs.
    pub box2d: Vec<Box2dSweep>,
}

/// Two random shapes and their motions over one step: `b` starts 0.8 to 3 times the sum of
/// the bounding radii away from `a`, and `a` moves towards it, up to 0.6 rad off, by 0.5 to 1.5
/// times that distance; `b` drifts a little.
pub fn place_moving<A: Spec, B: Spec>(rng: &mut Rng) -> (A, Vec2, B, Vec2) {
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
    (a, va, b, vb)
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
        let all = balanced(&mut rng, count, Self::random_sweep, |built| {
            let (a, va, b, vb) = &built.1;
            collide2d::cast_shapes(a, *va, b, *vb).is_some()
        });
        let mut sweeps = Sweeps {
            typed: Vec::with_capacity(count),
            collide: Vec::with_capacity(count),
            parry: Vec::with_capacity(count),
            box2d: Vec::with_capacity(count),
        };
        for (t, c, p, b) in all {
            sweeps.typed.push(t);
            sweeps.collide.push(c);
            sweeps.parry.push(p);
            sweeps.box2d.push(b);
        }
        sweeps
    }

    #[allow(clippy::type_complexity)]
    fn random_sweep(
        rng: &mut Rng,
    ) -> Option<(TypedSweep<A, B>, CollideSweep, ParrySweep<A, B>, Box2dSweep)> {
        let (a, va, b, vb) = place_moving::<A, B>(rng);
        Some((
            (a.typed()?, va, b.typed()?, vb),
            (a.collide()?, va, b.collide()?, vb),
            (a.parry()?, pv(va), b.parry()?, pv(vb)),
            box2d::cast_input(&a.box2d()?, va, &b.box2d()?, vb),
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

/// How Box2D's `b2ShapeCast` compares with collide2d's `cast_shapes` on the same pairs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Box2dAgreement {
    /// Pairs Box2D hits and collide2d misses (Box2D stops a linear slop, 0.005, short).
    pub box2d_only: usize,
    /// Pairs collide2d hits and Box2D misses.
    pub collide2d_only: usize,
    /// The deepest overlap (sampled, by collide2d) of a pair only collide2d hits.
    pub deepest_missed: f32,
    /// The largest difference between the two times of impact, as a distance.
    pub worst: f32,
}

impl<A: Spec, B: Spec> Sweeps<A, B> {
    /// Compares Box2D's hit or miss with collide2d's on every pair: counted, not fatal, since
    /// Box2D casts to its own tolerance (it reports a hit once the shapes come within a linear
    /// slop).
    #[must_use]
    pub fn check_box2d(&self) -> Box2dAgreement {
        let mut out = Box2dAgreement::default();
        for ((a, va, b, vb), input) in self.collide.iter().zip(&self.box2d) {
            let c = collide2d::cast_shapes(a, *va, b, *vb);
            // SAFETY: `input` is a live, fully built cast input; Box2D only reads it.
            let p = unsafe { b2ShapeCast(input) };
            match (c, p.hit) {
                (Some(c), true) => {
                    let dt = (c.t - p.fraction).abs() * (*va - *vb).length();
                    out.worst = out.worst.max(dt);
                }
                (None, false) => {}
                (None, true) => out.box2d_only += 1,
                (Some(_), false) => {
                    out.collide2d_only += 1;
                    out.deepest_missed = out.deepest_missed.max(deepest_overlap(a, *va, b, *vb));
                }
            }
        }
        out
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
