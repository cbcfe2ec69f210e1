//! The in-process tests, one test program: `update` (Msg in, Model and Effects out), the
//! view on a `TestBackend`, the locale files, Thai text and keys, the lean backend, the
//! event loop itself. No server, no child process; `cargo test --test fast` while changing
//! `src/app` or `src/ui`.
//!
//! A new file here is a module: add it below (a `tests/*.rs` file of its own would be one
//! more test program to link).

#[path = "../common/mod.rs"]
mod common;

mod decisions;
mod edges;
mod hostile_text;
mod i18n;
mod i18n_panes;
mod i18n_popups;
mod i18n_status;
mod kedmanee;
mod layout;
mod lean_backend;
mod model_based;
mod safety;
mod search_and_offers;
mod slow_link_update;
mod thai_keys;
mod thai_render;
mod thai_screens;
mod update;
mod view;
