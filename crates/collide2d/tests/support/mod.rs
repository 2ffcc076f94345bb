//! Shared by the integration tests: the exact reference.
#![allow(dead_code)]

pub mod reference;
