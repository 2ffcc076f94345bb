//! Inputs for the rotating shape-cast bench: seeded pairs that move and turn, as collide2d
//! shapes with [`Sweep`]s, as parry2d shapes with `NonlinearRigidMotion`s and as Box2D's
//! `b2TimeOfImpact` inputs (`b2Sweep`s), plus a count, against dense exact sampling, of the
//! contacts each library misses.
//!
//! Every shape turns about its own center (the origin of its parry2d and Box2D frames). The
//! motions agree, except that Box2D interpolates its rotation by normalising the blend of the
//! start and end rotations (`b2GetSweepTransform`), not at a constant rate: its misses are
//! counted against samples of its own motion. Turns stay below 3 radians a step, since a
//! `b2Sweep` cannot turn half a turn or more.

use crate::box2d::{self, B2Placed};
use crate::sweeps::place_moving;
use crate::{balanced, Rng, Spec};
use boxdd_sys::ffi::{
    b2Rot, b2Sweep, b2TOIInput, b2TOIState_b2_toiStateFailed, b2TOIState_b2_toiStateSeparated,
    b2TimeOfImpact, b2Vec2,
};
use collide2d::math::{Pose, Vec2};
use collide2d::{Shape, Sweep};
use parry2d::query::NonlinearRigidMotion;

/// One moving pair as collide2d sees it.
pub type CollideRotating = (Shape, Sweep, Shape, Sweep);

/// One moving pair as parry2d sees it: each shape in its own frame with its motion.
pub type ParryRotating<A, B> = (
    NonlinearRigidMotion,
    <A as Spec>::Parry,
    NonlinearRigidMotion,
    <B as Spec>::Parry,
);

/// The same rotating pairs in the three forms, index for index.
pub struct RotatingSweeps<A: Spec, B: Spec> {
    /// collide2d shapes in world coordinates at `t = 0` with their sweeps.
    pub collide: Vec<CollideRotating>,
    /// parry2d shapes and motions (one step is time 0 to 1).
    pub parry: Vec<ParryRotating<A, B>>,
    /// Box2D time-of-impact inputs.
    pub box2d: Vec<b2TOIInput>,
}

impl<A: Spec, B: Spec> RotatingSweeps<A, B> {
    /// `count` random rotating pairs from `seed`, half of them hitting during the step (by
    /// collide2d), in random order: placed and moving as [`crate::sweeps::Sweeps`] places
    /// them, `a` turning up to 3 radians either way over the step, `b` up to 1.
    #[must_use]
    pub fn generate(seed: u64, count: usize) -> RotatingSweeps<A, B> {
        let mut rng = Rng::new(seed);
        let all = balanced(&mut rng, count, Self::random, |built| {
            let (a, sa, b, sb) = &built.0;
            collide2d::cast_shapes_rotating(a, *sa, b, *sb).is_some()
        });
        let mut out = RotatingSweeps {
            collide: Vec::with_capacity(count),
            parry: Vec::with_capacity(count),
            box2d: Vec::with_capacity(count),
        };
        for (c, p, b) in all {
            out.collide.push(c);
            out.parry.push(p);
            out.box2d.push(b);
        }
        out
    }

    fn random(rng: &mut Rng) -> Option<(CollideRotating, ParryRotating<A, B>, b2TOIInput)> {
        let (a, va, b, vb) = place_moving::<A, B>(rng);
        let (wa, wb) = (rng.range(-3.0, 3.0), rng.range(-1.0, 1.0));
        let (xa, xb) = (a.box2d()?, b.box2d()?);
        let (pa, pb) = (a.parry()?, b.parry()?);
        let (ca, cb) = (center_of(&xa), center_of(&xb));
        let motion = |pose, v: Vec2, w| {
            NonlinearRigidMotion::new(pose, parry2d::math::Vector::ZERO, crate::pv(v), w)
        };
        Some((
            (
                a.collide()?,
                Sweep::new(va, wa, ca),
                b.collide()?,
                Sweep::new(vb, wb, cb),
            ),
            (motion(pa.0, va, wa), pa.1, motion(pb.0, vb, wb), pb.1),
            b2TOIInput {
                proxyA: box2d::proxy(&xa.1, b2Rot { c: 1.0, s: 0.0 }),
                proxyB: box2d::proxy(&xb.1, b2Rot { c: 1.0, s: 0.0 }),
                sweepA: b2_sweep(&xa, va, wa),
                sweepB: b2_sweep(&xb, vb, wb),
                maxFraction: 1.0,
            },
        ))
    }
}

/// The center of a Box2D shape's body: its transform's position.
fn center_of<S>(placed: &B2Placed<S>) -> Vec2 {
    Vec2::new(placed.0.p.x, placed.0.p.y)
}

/// The `b2Sweep` of a body at its transform moving by `v` and turning by `w` over the step,
/// about its origin.
fn b2_sweep<S>(placed: &B2Placed<S>, v: Vec2, w: f32) -> b2Sweep {
    let (p, q) = (placed.0.p, placed.0.q);
    let (s, c) = w.sin_cos();
    b2Sweep {
        localCenter: b2Vec2 { x: 0.0, y: 0.0 },
        c1: p,
        c2: b2Vec2 {
            x: p.x + v.x,
            y: p.y + v.y,
        },
        q1: q,
        q2: b2Rot {
            c: q.c * c - q.s * s,
            s: q.s * c + q.c * s,
        },
    }
}

/// The pose taking a shape from where a `b2Sweep` has it at `t = 0` to where it has it at `t`:
/// the center moved linearly, the rotation the normalised blend of `q1` and `q2`.
fn b2_pose_at(sweep: &b2Sweep, t: f32) -> Pose {
    let (q1, q2) = (sweep.q1, sweep.q2);
    let blend = Vec2::new((1.0 - t) * q1.c + t * q2.c, (1.0 - t) * q1.s + t * q2.s).normalize();
    // The turn since t = 0: blend times the conjugate of q1.
    let turn = Vec2::new(
        blend.x * q1.c + blend.y * q1.s,
        blend.y * q1.c - blend.x * q1.s,
    );
    let c1 = Vec2::new(sweep.c1.x, sweep.c1.y);
    let c2 = Vec2::new(sweep.c2.x, sweep.c2.y);
    let center = c1 + (c2 - c1) * t;
    Pose {
        position: center - turn.rotate(c1),
        rotation: turn,
    }
}

/// What one library answered against what dense sampling of its own motion shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Misses {
    /// Pairs whose samples touch.
    pub touching: usize,
    /// Of those, pairs the library answers as never touching.
    pub missed: usize,
    /// The deepest sampled overlap of a missed pair.
    pub deepest: f32,
    /// Pairs the library gave up on (Box2D's `b2_toiStateFailed`), not counted as misses.
    pub failed: usize,
}

impl Misses {
    fn count(&mut self, touch: Option<f32>, hit: Option<bool>) {
        let Some(depth) = touch else { return };
        self.touching += 1;
        match hit {
            Some(false) => {
                self.missed += 1;
                self.deepest = self.deepest.max(depth);
            }
            None => self.failed += 1,
            Some(true) => {}
        }
    }
}

/// Samples per step for the miss counts.
const SAMPLES: u32 = 1024;

/// The deepest overlap over the samples of a motion, if any sample touches.
fn sampled_touch(a: &Shape, b: &Shape, poses: impl Fn(f32) -> (Pose, Pose)) -> Option<f32> {
    let mut deepest = None;
    for k in 0..=SAMPLES {
        let (pa, pb) = poses(k as f32 / SAMPLES as f32);
        if let Some(c) = collide2d::contact(&a.transformed(&pa), &b.transformed(&pb)) {
            deepest = Some(deepest.map_or(c.depth, |d: f32| d.max(c.depth)));
        }
    }
    deepest
}

impl<A: Spec, B: Spec> RotatingSweeps<A, B> {
    /// The misses of collide2d, parry2d's `cast_shapes_nonlinear` and Box2D's
    /// `b2TimeOfImpact`, in that order, each against samples of its own motion.
    ///
    /// # Errors
    /// A description of the first pair parry2d does not support.
    pub fn misses(&self) -> Result<[Misses; 3], String> {
        let mut out = [Misses::default(); 3];
        for (i, ((a, sa, b, sb), ((ma, ga, mb, gb), input))) in self
            .collide
            .iter()
            .zip(self.parry.iter().zip(&self.box2d))
            .enumerate()
        {
            let ours = sampled_touch(a, b, |t| (sa.pose_at(t), sb.pose_at(t)));
            let hit = collide2d::cast_shapes_rotating(a, *sa, b, *sb).is_some();
            out[0].count(ours, Some(hit));
            let parry = parry2d::query::cast_shapes_nonlinear(ma, ga, mb, gb, 0.0, 1.0, true)
                .map_err(|e| format!("pair {i}: parry2d: {e:?}"))?;
            out[1].count(ours, Some(parry.is_some()));
            let theirs = sampled_touch(a, b, |t| {
                (b2_pose_at(&input.sweepA, t), b2_pose_at(&input.sweepB, t))
            });
            // SAFETY: `input` is a live, fully built input; Box2D only reads it.
            let toi = unsafe { b2TimeOfImpact(input) };
            #[allow(non_upper_case_globals)]
            let answer = match toi.state {
                b2TOIState_b2_toiStateSeparated => Some(false),
                b2TOIState_b2_toiStateFailed => None,
                _ => Some(true),
            };
            out[2].count(theirs, answer);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CircleSpec, ObbSpec};

    #[test]
    fn box2d_poses_follow_its_sweep_and_collide2d_never_misses() {
        let sweeps = RotatingSweeps::<ObbSpec, CircleSpec>::generate(7, 64);
        assert_eq!(sweeps.collide.len(), 64);
        let input = &sweeps.box2d[0];
        let end = b2_pose_at(&input.sweepA, 1.0);
        let (_, sa, _, _) = &sweeps.collide[0];
        let ours = sa.pose_at(1.0);
        assert!(
            end.position.distance(ours.position) < 1e-2,
            "{end:?} {ours:?}"
        );
        assert!(
            end.rotation.distance(ours.rotation) < 1e-5,
            "{end:?} {ours:?}"
        );
        let [ours, _, _] = sweeps.misses().unwrap();
        assert_eq!(ours.missed, 0, "{ours:?}");
        assert!(ours.touching >= 28, "{ours:?}");
    }
}
