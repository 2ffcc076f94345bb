//! Runs one group of the `concave` bench's loops a fixed number of times, so that callgrind
//! can count its instructions on a noisy machine:
//!
//! ```sh
//! (cd benches && cargo build --release --example concave_instructions)
//! valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='collide2d_benches::concave::*_contacts' \
//!     target/release/examples/concave_instructions star_star collide2d
//! ```
//!
//! Instructions per pair = collected instructions / (`ROUNDS` * `COUNT`).
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d_benches::concave::{
    collide2d_contacts, pairs, parry2d_contacts, per_part_contacts, CASES, COUNT,
};

/// Passes over the pairs.
const ROUNDS: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [group, function] = &args[..] else {
        panic!("usage: concave_instructions <group> <collide2d|per_part|parry2d>");
    };
    let Some(&(_, a, b, seed)) = CASES.iter().find(|c| c.0 == group) else {
        panic!("unknown group {group}");
    };
    let pairs = pairs(a, b, seed, COUNT);
    let run = match function.as_str() {
        "collide2d" => collide2d_contacts,
        "per_part" => per_part_contacts,
        "parry2d" => parry2d_contacts,
        _ => panic!("unknown function {function}"),
    };
    for _ in 0..ROUNDS {
        run(&pairs);
    }
    println!("rounds {ROUNDS} pairs {COUNT}");
}
