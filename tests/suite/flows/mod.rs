//! Real HTTP, in-process: the API client against wiremock and the embedded demo server;
//! `update` with the real worker and client (`Headless`) against the demo server, with its
//! faults; the real event loop on a `TestBackend`. `cargo test --test suite flows::`.

mod api_client;
mod capability;
mod decisions_flow;
mod demo_contract;
mod event_loop;
mod faults;
mod flow;
mod outage;
mod paging_flow;
mod script_faults;
mod service_versions;
mod slow_link;
mod ssh_files;
mod worker_and_files;
