//! Rotating shape casts (time of impact with turns): collide2d's `cast_shapes_rotating`,
//! parry2d's `cast_shapes_nonlinear` and Box2D v3's `b2TimeOfImpact`, on the same seeded
//! pairs that move and turn (see `collide2d_benches::rotating`). Before timing, each pair
//! type prints how many contacts each library misses against dense exact sampling. Ids:
//! `cast_rotating/<pair>/{collide2d, parry2d, box2d}`; each iteration runs all pairs.
// A bench aborts on inputs parry2d does not support; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d_benches::rotating::RotatingSweeps;
use collide2d_benches::select::{selected, three_libraries};
use collide2d_benches::{
    runs, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, PolygonSpec, Spec, SWEEPS,
};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// Builds the rotating pairs for `name`, prints the misses, then times the casts on them.
fn pair<A: Spec, B: Spec>(c: &mut Criterion, name: &str) {
    let id = format!("cast_rotating/{name}");
    if !selected(&id) {
        return;
    }
    let sweeps = RotatingSweeps::<A, B>::generate(seed(name) + 77, SWEEPS);
    let [ours, parry, box2d] = sweeps.misses().unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!(
        "{name}: {} pairs; misses against 1025 exact samples of each one's motion: collide2d \
         {} of {}, parry2d {} of {} (deepest overlap missed {}), Box2D {} of {} (deepest {}, \
         {} failed)",
        sweeps.collide.len(),
        ours.missed,
        ours.touching,
        parry.missed,
        parry.touching,
        parry.deepest,
        box2d.missed,
        box2d.touching,
        box2d.deepest,
        box2d.failed,
    );
    let n = sweeps.collide.len();
    three_libraries(
        c,
        id,
        n,
        [
            &mut || runs::collide2d_cast_rotating(black_box(&sweeps.collide)),
            &mut || runs::parry2d_cast_nonlinear(black_box(&sweeps.parry)),
            &mut || runs::box2d_time_of_impact(black_box(&sweeps.box2d)),
        ],
    );
}

fn rotating(c: &mut Criterion) {
    pair::<CircleSpec, CircleSpec>(c, "circle_circle");
    pair::<CircleSpec, AabbSpec>(c, "circle_aabb");
    pair::<AabbSpec, AabbSpec>(c, "aabb_aabb");
    pair::<ObbSpec, ObbSpec>(c, "obb_obb");
    pair::<PolygonSpec, PolygonSpec>(c, "polygon_polygon");
    pair::<CapsuleSpec, CircleSpec>(c, "capsule_circle");
}

criterion_group!(benches, rotating);
criterion_main!(benches);
