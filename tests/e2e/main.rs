//! End to end: the real binary (`CARGO_BIN_EXE_club-admin`) in a pseudo-terminal, under
//! bash, and as a scripting command; configuration through the binary; completion scripts
//! in real shells. `cargo test --test e2e`.
//!
//! A new file here is a module: add it below.

#[path = "../common/mod.rs"]
mod common;

mod completions;
mod config;
mod pty;
mod script;
mod suspend;
