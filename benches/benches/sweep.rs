//! Shape casts (time of impact): collide2d's `cast_shapes`, parry2d's `cast_shapes` and Box2D
//! v3's `b2ShapeCast`, on the same seeded moving pairs (see `collide2d_benches::sweeps`), at
//! every size of `collide2d_benches::select::SIZES`. Ids: `cast/<pair>/<size>/{collide2d,
//! collide2d_shape, parry2d, box2d}`; each iteration runs all pairs. `collide2d` runs
//! `PairQuery::cast` on pairs stored by type, `collide2d_shape` `cast_shapes` on `Shape`s.
// A bench aborts on inputs the libraries disagree about; that is what `panic` is for here.
#![allow(clippy::panic)]

use collide2d::PairQuery;
use collide2d_benches::select::{libraries, selected, SIZES};
use collide2d_benches::sweeps::Sweeps;
use collide2d_benches::{
    runs, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, PolygonSpec, Spec,
};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

/// Builds and checks the moving pairs for `name` at every size, then times the casts on them.
fn pair<A: Spec, B: Spec>(c: &mut Criterion, name: &str)
where
    A::Typed: PairQuery<B::Typed>,
{
    for (k, &n) in SIZES.iter().enumerate() {
        let id = format!("cast/{name}/{n}");
        if !selected(&id) {
            continue;
        }
        // A new seed per size: every size is its own random set.
        let sweeps = Sweeps::<A, B>::generate(seed(name) + 1000 * k as u64, n);
        let (hits, grazes, worst) = sweeps
            .check()
            .unwrap_or_else(|e| panic!("{name}: libraries disagree: {e}"));
        let typed_agree =
            sweeps
                .typed
                .iter()
                .zip(&sweeps.collide)
                .all(|((x, xv, y, yv), (a, av, b, bv))| {
                    x.cast(*xv, y, *yv) == collide2d::cast_shapes(a, *av, b, *bv)
                });
        assert!(typed_agree, "{name}: typed and Shape casts disagree");
        let b2 = sweeps.check_box2d();
        eprintln!(
            "{name}/{n}: {hits} hit, {grazes} grazing disagreements with parry2d, times of impact \
             within {worst} (as a distance); Box2D: {} hit only by Box2D, {} only by collide2d \
             (deepest {}), times of impact within {}",
            b2.box2d_only, b2.collide2d_only, b2.deepest_missed, b2.worst
        );
        libraries(
            c,
            id,
            n,
            [
                ("collide2d", &mut || {
                    runs::collide2d_typed_cast(black_box(&sweeps.typed))
                }),
                ("collide2d_shape", &mut || {
                    runs::collide2d_cast(black_box(&sweeps.collide))
                }),
                ("parry2d", &mut || {
                    runs::parry2d_cast(black_box(&sweeps.parry))
                }),
                ("box2d", &mut || runs::box2d_cast(black_box(&sweeps.box2d))),
            ],
        );
    }
}

fn sweep(c: &mut Criterion) {
    pair::<CircleSpec, CircleSpec>(c, "circle_circle");
    pair::<CircleSpec, AabbSpec>(c, "circle_aabb");
    pair::<AabbSpec, AabbSpec>(c, "aabb_aabb");
    pair::<ObbSpec, ObbSpec>(c, "obb_obb");
    pair::<PolygonSpec, PolygonSpec>(c, "polygon_polygon");
    pair::<CapsuleSpec, CircleSpec>(c, "capsule_circle");
}

criterion_group!(benches, sweep);
criterion_main!(benches);
