//! The panes: header, queue, detail, club lookup, activity log; one file each.

mod club;
mod detail;
mod header;
pub(in crate::ui) mod log;
pub(in crate::ui) mod pane;
mod queue;

pub(super) use club::club;
pub(super) use detail::{detail, detail_room};
pub(super) use header::header;
pub(super) use log::log;
pub(super) use queue::queue;
