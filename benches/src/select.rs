//! Which data sizes the pair and cast benches run at, and which groups a run wants: building a
//! million pairs takes seconds, so a bench builds a group's inputs only when criterion's filter
//! can match the group.

/// Stored pairs per narrow-phase and cast group: in L1/L2, in L3, and well past any cache.
/// Every size is its own seeded random set (not a small set replayed).
pub const SIZES: [usize; 3] = [1024, 65_536, 1_048_576];

/// Criterion options that take a value (so the value is not the filter).
const VALUED: [&str; 14] = [
    "--warm-up-time",
    "--measurement-time",
    "--sample-size",
    "--save-baseline",
    "--baseline",
    "--baseline-lenient",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--nresamples",
    "--output-format",
    "--color",
    "--profile-time",
    "--plotting-backend",
];

/// The filter passed to the bench (`cargo bench ... -- [options] <filter>`), if any.
#[must_use]
pub fn filter() -> Option<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if VALUED.contains(&arg.as_str()) {
            i += 2;
            continue;
        }
        if !arg.starts_with('-') {
            return Some(arg.clone());
        }
        i += 1;
    }
    None
}

/// Whether a group (`intersects/obb_obb/65536`) can hold a bench the filter selects: no filter,
/// a filter that is a part of the group's id or holds it, or a filter with regex syntax (which
/// this does not try to read, so every group is built).
#[must_use]
pub fn selected(group: &str) -> bool {
    match filter() {
        None => true,
        Some(f) if f.contains(|c: char| "^$.*+?()[]{}|\\".contains(c)) => true,
        Some(f) => group.contains(&f) || f.starts_with(&format!("{group}/")),
    }
}

/// Criterion samples for a group of `pairs` pairs per iteration: fewer for the big sets, whose
/// single iteration already runs for milliseconds.
#[must_use]
pub fn samples(pairs: usize) -> usize {
    if pairs >= 65_536 {
        10
    } else {
        50
    }
}

/// Times one run of each library over the same `n` inputs as the group `id`, as the benches
/// `collide2d`, `parry2d` and `box2d` (each call of a run does all `n`).
pub fn three_libraries(
    c: &mut criterion::Criterion,
    id: String,
    n: usize,
    runs: [&mut dyn FnMut(); 3],
) {
    let [a, b, c2] = runs;
    libraries(c, id, n, [("collide2d", a), ("parry2d", b), ("box2d", c2)]);
}

/// Times each named run over the same `n` inputs in the group `id` (each call does all `n`).
pub fn libraries<const K: usize>(
    c: &mut criterion::Criterion,
    id: String,
    n: usize,
    runs: [(&str, &mut dyn FnMut()); K],
) {
    let mut g = c.benchmark_group(id);
    g.throughput(criterion::Throughput::Elements(n as u64))
        .sample_size(samples(n));
    for (name, run) in runs {
        g.bench_function(name, |b| b.iter(&mut *run));
    }
    g.finish();
}
