//! club-admin: a terminal dashboard for the moderators of a school's club administration
//! service. See `README.md` for use; `docs/src/architecture.md` for the shape of the code.
//!
//! [`cli`] parses the command line and hands plain values to [`runtime`] (the dashboard in
//! a terminal), [`ssh`] (serve-ssh: dashboards and commands over SSH) and [`script`] (the
//! commands); [`app`] is the dashboard's state machine and [`ui`] draws it. What they share
//! (the API client, decisions and their audit, config, text, translations) is the crate
//! `club-admin-core` (core/), re-exported here. The layers and what each may use: the table
//! in `docs/src/architecture.md`, which a test reads.

#![warn(missing_docs)]

pub mod app;
pub mod cli;
pub mod demo;
pub mod runtime;
pub mod script;
pub mod ssh;
pub mod ui;

// The shared library (core/), under the paths the rest of the crate uses.
pub use club_admin_core::{api, config, i18n, ops, text, tr};
