//! End to end: the real binary (`CARGO_BIN_EXE_club-admin`) in a pseudo-terminal, under
//! bash, and as a scripting command; configuration through the binary; completion scripts
//! in real shells; the Debian package built and read back. `cargo test --test suite e2e::`.

mod budget;
mod completions;
mod config;
mod crash;
mod deb;
mod doc_examples;
mod history;
mod other_user;
mod phone;
mod pty;
mod release;
mod script;
mod ssh;
mod ssh_check;
mod ssh_door;
mod ssh_exec;
mod ssh_key_rules;
mod ssh_ops;
mod ssh_shared_poll;
mod ssh_stop;
mod suspend;
mod term;
mod two_moderators;
