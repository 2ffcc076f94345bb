//! Nothing: this package holds one benchmark, `benches/avian.rs` (see the plugin's README).
