//! Shared by the integration tests that `mod common;` it (not a test target of its own).

pub mod alloc_counter;
pub mod corpus;
