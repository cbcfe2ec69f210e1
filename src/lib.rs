//! club-admin: a terminal dashboard for the moderators of a school's club administration
//! service. See `README.md` for use; `docs/architecture.md` for the shape of the code.
//!
//! Layers (arrows point one way): [`cli`] parses and hands plain values to [`runtime`] and
//! [`script`]; [`ui`] reads [`app`]; [`runtime`] drives [`app`] and [`api`]; [`app`] knows
//! neither the terminal nor HTTP; [`config`] knows neither [`cli`] nor [`app`]; [`api`]
//! knows nothing above it.

#![warn(missing_docs)]

pub mod api;
pub mod app;
pub mod cli;
pub mod config;
pub mod demo;
pub mod i18n;
pub mod ops;
pub mod runtime;
pub mod script;
pub mod text;
pub mod ui;
