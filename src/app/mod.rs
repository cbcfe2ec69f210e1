//! The pure state machine of the dashboard (the Elm architecture): [`Model`], [`Msg`],
//! [`update`] and the [`Effect`]s it hands to the runtime. Nothing here knows the terminal
//! or HTTP: keys arrive as [`Key`]s, answers as [`ApiAnswer`]s.
//!
//! See `docs/architecture.md` for the rooms and where each kind of change goes.

pub mod effect;
pub mod filter;
pub mod key;
pub mod keymap;
pub mod model;
pub mod msg;
pub mod update;

pub use effect::{ApiCall, AuditEntry, Effect, Outcome};
pub use key::{Key, KeyCode};
pub use keymap::{Action, Keymap, Offered, Scope};
pub use model::{Model, ModelOptions, Pane, Popup, RowAction, RowState};
pub use msg::{ApiAnswer, Heard, IdsFrom, LocalEffect, Msg, Told};
pub use update::{start, update};
