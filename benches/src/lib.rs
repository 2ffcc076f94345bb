//! Benchmarks live under benches/benches.
