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
//!
//! A third argument, a pair's index, runs that pair alone (`ROUNDS` times), for the cost of
//! one contact; `worst` in its place prints the pairs whose `collide2d::contact` took the
//! longest (the fastest of 20 timings each), to find the index worth counting.
// Bad arguments end the program: it is a measuring tool.
#![allow(clippy::panic)]

use collide2d_benches::concave::{
    collide2d_contacts, pairs, parry2d_contacts, per_part_contacts, Both, CASES, COUNT,
};
use std::time::Instant;

/// Passes over the pairs.
const ROUNDS: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (group, function, which) = match &args[..] {
        [g, f] => (g, f, None),
        [g, f, w] => (g, f, Some(w.as_str())),
        _ => {
            panic!("usage: concave_instructions <group> <collide2d|per_part|parry2d> [index|worst]")
        }
    };
    let Some(&(_, a, b, seed)) = CASES.iter().find(|c| c.0 == group) else {
        panic!("unknown group {group}");
    };
    let mut pairs = pairs(a, b, seed, COUNT);
    match which {
        None => {}
        Some("worst") => return print_worst(&pairs),
        Some(i) => {
            let i: usize = i.parse().unwrap_or_else(|_| panic!("bad index {i}"));
            pairs = vec![pairs.swap_remove(i)];
        }
    }
    let run = match function.as_str() {
        "collide2d" => collide2d_contacts,
        "per_part" => per_part_contacts,
        "parry2d" => parry2d_contacts,
        _ => panic!("unknown function {function}"),
    };
    for _ in 0..ROUNDS {
        run(&pairs);
    }
    println!("rounds {ROUNDS} pairs {}", pairs.len());
}

/// Prints the ten pairs whose contact took longest, slowest first.
fn print_worst(pairs: &[(Both, Both)]) {
    let mut times: Vec<(u128, usize)> = pairs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let one = std::slice::from_ref(p);
            let fastest = (0..20)
                .map(|_| {
                    let start = Instant::now();
                    collide2d_contacts(one);
                    start.elapsed().as_nanos()
                })
                .min()
                .unwrap_or(0);
            (fastest, i)
        })
        .collect();
    times.sort_unstable_by(|x, y| y.cmp(x));
    for (ns, i) in times.iter().take(10) {
        println!("pair {i}: {ns} ns");
    }
}
