//! What every front end of club-admin shares (the dashboard, the command line, serve-ssh):
//! the client of the club administration service, decisions and their audit records, the
//! service's rules of who may do what, text made safe for a terminal, and translations.
//!
//! This crate depends on no terminal, SSH or dashboard crate; the root package builds on it.
//! Modules, lowest first (each uses only those before it): [`text`], [`i18n`], [`api`],
//! [`ops`], [`config`].

#![warn(missing_docs)]

pub mod api;
pub mod config;
pub mod i18n;
pub mod ops;
pub mod text;
