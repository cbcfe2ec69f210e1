//! The test suite, one program: one link after a change in `src/`, and every
//! test in one pool of threads, so the ones that wait for a child process or a server run
//! beside the ones that compute. Three rooms, each a filter:
//!
//! - `fast::` in-process, no server, no child process (`cargo test --test suite fast::`);
//! - `flows::` real HTTP in-process: wiremock, the demo server, the event loop;
//! - `e2e::` the real binary: pseudo-terminals, bash, the scripting commands, shells.
//!
//! A new test file is a module of one of them (`tests/suite/<room>/mod.rs`); a `tests/*.rs`
//! file of its own would be one more program to build and link. Shared helpers are in
//! `tests/common` (the pseudo-terminal harness in `tests/common/pty.rs`).

#[path = "../common/mod.rs"]
mod common;

mod e2e;
mod fast;
mod flows;
