//! The pure state machine of the dashboard (the Elm architecture): [`Model`], [`Msg`],
//! [`update`] and the [`Effect`]s it hands to the runtime. Nothing here knows the terminal
//! or HTTP: keys arrive as [`Key`]s, answers as [`Answer`]s of the [`ApiCall`]s
//! declared in [`call`].
//!
//! See `docs/src/architecture.md` for the modules and where each kind of change goes.

pub mod call;
pub mod filter;
pub mod key;
pub mod keymap;
pub mod model;
pub mod msg;
pub mod update;

pub use call::{Answer, ApiCall, CandidateToken, ListPurpose, SearchPurpose, WhenBack};
pub use key::{Key, KeyCode};
pub use keymap::{Action, Keymap, Offered, Scope};
pub use model::{Model, ModelOptions, Pane, Popup, RowAction, RowState};
pub use msg::{
    AuditEntry, Effect, EndedBy, Heard, IdsFrom, LocalEffect, Msg, Outcome, TermAsk, Told, Tries,
};
pub use update::{start, update};
