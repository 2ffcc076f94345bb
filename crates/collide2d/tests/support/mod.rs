//! Shared by the integration tests: the exact reference and seeded random worlds.
#![allow(dead_code, clippy::expect_used)]

pub mod kinds;
pub mod reference;
pub mod scenes;
