//! Shared by the integration tests: the exact reference.
#![allow(dead_code, clippy::expect_used)]

pub mod reference;
