//! Flows over real HTTP, in-process: the API client against wiremock and the embedded demo
//! server, and `update` with the real worker and client (`Headless`) against the demo
//! server, with its faults. `cargo test --test flows`.
//!
//! A new file here is a module: add it below.

#[path = "../common/mod.rs"]
mod common;

mod api_client;
mod capability;
mod decisions_flow;
mod demo_contract;
mod event_loop;
mod faults;
mod flow;
mod paging_flow;
mod service_versions;
mod slow_link;
