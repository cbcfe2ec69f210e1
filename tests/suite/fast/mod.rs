//! In-process, no server and no child process: `update` (Msg in, Model and Effects out),
//! the view on a `TestBackend`, the locale files, Thai text and keys, the lean backend.
//! `cargo test --test suite fast::` while changing `src/app` or `src/ui`.

mod code_shape;
mod decided_elsewhere;
mod decision_machine;
mod decisions;
mod detail_scroll;
mod edges;
mod hostile_text;
mod i18n;
mod i18n_panes;
mod i18n_popups;
mod i18n_status;
mod kedmanee;
mod layout;
mod lean_backend;
mod live_queue;
mod manual;
mod model_based;
mod narrow;
mod new_requests;
mod safety;
mod search_and_offers;
mod signin;
mod slow_link_update;
mod ssh_door;
mod term_view;
mod thai_keys;
mod thai_render;
mod thai_screens;
mod unseen;
mod update;
mod view;
