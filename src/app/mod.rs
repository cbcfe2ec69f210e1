//! The pure state machine of the dashboard (the Elm architecture): [`model::Model`],
//! [`msg::Msg`], [`update::update`] and the [`msg::Effect`]s it hands to the runtime.
//! Nothing here knows the terminal or HTTP.

pub mod filter;
pub mod keymap;
pub mod model;
pub mod msg;
pub mod update;

pub use keymap::{Action, Keymap, Scope};
pub use model::{Model, ModelOptions, Pane, Popup, RowAction, RowState};
pub use msg::{ApiCall, ApiOutcome, AuditEntry, Effect, Msg};
pub use update::{start, update};
