//! Runs one bench's loop (`narrowphase`, `cast/...` of `sweep` or `cast_rotating/...` of
//! `rotating`) a fixed number of times, so that callgrind can count its instructions
//! on a noisy machine (see `scripts/instructions.py`):
//!
//! ```sh
//! valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='collide2d_benches::runs::*' \
//!     target/release/examples/instructions intersects/obb_obb/collide2d
//! ```
//!
//! Instructions per pair = collected instructions / (`ROUNDS` * `PAIRS`).
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d::PairQuery;
use collide2d_benches::box2d::Manifold;
use collide2d_benches::rotating::RotatingSweeps;
use collide2d_benches::sweeps::Sweeps;
use collide2d_benches::{
    plain, runs, seed, AabbSpec, CapsuleSpec, CircleSpec, ObbSpec, Pairs, PolygonSpec, Spec, PAIRS,
    SWEEPS,
};

/// Passes over the pairs.
const ROUNDS: usize = 10;

/// Runs `function` of `query` on the same pairs the bench uses (same seed).
fn run<A: Spec, B: Spec>(
    pair: &str,
    query: &str,
    function: &str,
    plain_test: impl Fn(&A::Plain, &B::Plain) -> bool + Copy,
) where
    A::Box2d: Manifold<B::Box2d>,
    A::Typed: PairQuery<B::Typed>,
{
    if query == "cast_rotating" {
        // The rotating bench's seed for the pair.
        let sweeps = RotatingSweeps::<A, B>::generate(seed(pair) + 77, SWEEPS);
        for _ in 0..ROUNDS {
            match function {
                "collide2d" => runs::collide2d_cast_rotating(&sweeps.collide),
                "box2d" => runs::box2d_time_of_impact(&sweeps.box2d),
                "parry2d" => runs::parry2d_cast_nonlinear(&sweeps.parry),
                _ => panic!("unknown bench cast_rotating/…/{function}"),
            }
        }
        println!("rounds {ROUNDS} pairs {}", sweeps.collide.len());
        return;
    }
    if query == "cast" {
        let sweeps = Sweeps::<A, B>::generate(seed(pair), SWEEPS);
        for _ in 0..ROUNDS {
            match function {
                "collide2d" => runs::collide2d_typed_cast(&sweeps.typed),
                "collide2d_shape" => runs::collide2d_cast(&sweeps.collide),
                "parry2d" => runs::parry2d_cast(&sweeps.parry),
                "box2d" => runs::box2d_cast(&sweeps.box2d),
                _ => panic!("unknown bench cast/…/{function}"),
            }
        }
        println!("rounds {ROUNDS} pairs {}", sweeps.collide.len());
        return;
    }
    let pairs = Pairs::<A, B>::generate(seed(pair), PAIRS);
    for _ in 0..ROUNDS {
        match (query, function) {
            ("intersects", "collide2d") => runs::collide2d_typed_intersects(&pairs.typed),
            ("intersects", "collide2d_shape") => runs::collide2d_intersects(&pairs.collide),
            ("intersects", "parry2d") => runs::parry2d_intersects(&pairs.parry),
            ("intersects", "box2d") => runs::box2d_intersects(&pairs.box2d),
            ("intersects", "plain_f32") => runs::plain_intersects(&pairs.plain, plain_test),
            ("intersects", "plain_f32_dispatch") => runs::plain_dispatch_intersects(&pairs.collide),
            ("contact", "collide2d") => runs::collide2d_typed_contact(&pairs.typed),
            ("contact", "collide2d_shape") => runs::collide2d_contact(&pairs.collide),
            ("contact", "parry2d") => runs::parry2d_contact(&pairs.parry),
            ("contact", "box2d") => runs::box2d_contact(&pairs.box2d),
            _ => panic!("unknown bench {query}/…/{function}"),
        }
    }
    println!("rounds {ROUNDS} pairs {}", pairs.collide.len());
}

fn main() {
    let id = std::env::args().nth(1).unwrap_or_default();
    let parts: Vec<&str> = id.split('/').collect();
    let [query, pair, function] = parts[..] else {
        panic!("usage: instructions <query>/<pair>/<function>, e.g. intersects/obb_obb/collide2d");
    };
    match pair {
        "circle_circle" => {
            run::<CircleSpec, CircleSpec>(pair, query, function, plain::circle_circle)
        }
        "circle_aabb" => run::<CircleSpec, AabbSpec>(pair, query, function, plain::circle_aabb),
        "aabb_aabb" => run::<AabbSpec, AabbSpec>(pair, query, function, plain::aabb_aabb),
        "obb_obb" => run::<ObbSpec, ObbSpec>(pair, query, function, plain::obb_obb),
        "polygon_polygon" => {
            run::<PolygonSpec, PolygonSpec>(pair, query, function, plain::polygon_polygon);
        }
        "capsule_circle" => {
            run::<CapsuleSpec, CircleSpec>(pair, query, function, plain::capsule_circle)
        }
        _ => panic!("unknown pair {pair}"),
    }
}
