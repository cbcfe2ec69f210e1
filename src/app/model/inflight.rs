//! The activities under way: the sign-in check, a refresh, a bulk action (its progress
//! counted from its requests' decisions), mark-all and sort-all. The status line is derived
//! from these, never read back. (The API calls in flight: [`crate::app::call::Calls`].)

use uuid::Uuid;

use super::row::RowAction;

/// A bulk action in progress (several rows after one confirmation): which requests; how
/// far it got is derived from their decisions ([`BulkTask::progress`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkTask {
    /// The decision.
    pub action: RowAction,
    /// The rows in the task, in the order they were sent.
    pub ids: Vec<Uuid>,
    /// The model's sequence number of the last progress (for the status line).
    pub seq: u64,
    /// When it started (the model's clock), for its pace in requests per second.
    pub started: crate::api::Timestamp,
}

/// How far a bulk action got, counted from its requests' decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkProgress {
    /// The decision.
    pub action: RowAction,
    /// Rows in the task.
    pub total: usize,
    /// Answered so far (confirmed, refused, or their answer lost).
    pub done: usize,
    /// Refused or failed so far.
    pub failed: usize,
    /// Answers lost so far (outcome unknown until the row's re-read settles it).
    pub unknown: usize,
    /// Already decided the same way by someone else (the server said so): not failures.
    pub already: usize,
    /// Already decided the other way by someone else: conflicts, not retried.
    pub conflicts: usize,
    /// Not on their way yet: waiting for their turn, or for the service to answer again.
    pub waiting: usize,
    /// The model's sequence number of the last progress (for the status line).
    pub seq: u64,
    /// When it started (the model's clock).
    pub started: crate::api::Timestamp,
}

impl BulkTask {
    /// How far it got, by the stage of each of its requests' decisions in `book` (the
    /// table of decisions): held or on its way is not done yet; a lost answer counts as
    /// unknown (even once a re-read settled it: that is how it was answered).
    pub fn progress(&self, book: &crate::ops::book::Book) -> BulkProgress {
        self.count(book, false)
    }

    /// How it ended once every lost answer of it is settled: as [`BulkTask::progress`], but
    /// a decision a re-read settled counts as what the server showed (applied, or failed),
    /// not as unknown.
    pub fn outcome(&self, book: &crate::ops::book::Book) -> BulkProgress {
        self.count(book, true)
    }

    fn count(&self, book: &crate::ops::book::Book, settled: bool) -> BulkProgress {
        use crate::ops::decision::{Ending, Stage};
        let mut p = BulkProgress {
            action: self.action,
            total: self.ids.len(),
            done: 0,
            failed: 0,
            unknown: 0,
            already: 0,
            conflicts: 0,
            waiting: 0,
            seq: self.seq,
            started: self.started,
        };
        for d in self.ids.iter().filter_map(|id| book.get(*id)) {
            let counter = match d.stage() {
                Stage::Queued => {
                    p.waiting += 1;
                    continue;
                }
                Stage::Held { .. } | Stage::Sending => continue,
                Stage::Settled(Ending::Done | Ending::Overwritten(_)) => None,
                Stage::Settled(Ending::Refused(_) | Ending::Undone | Ending::NotSent) => {
                    Some(&mut p.failed)
                }
                Stage::Settled(Ending::Found { found, .. }) if settled => {
                    (!found.applied()).then_some(&mut p.failed)
                }
                Stage::Lost { .. } | Stage::Settled(Ending::Found { .. } | Ending::Unknown) => {
                    Some(&mut p.unknown)
                }
                Stage::Settled(Ending::Already(s)) if d.action.status().as_ref() == Some(s) => {
                    Some(&mut p.already)
                }
                Stage::Settled(Ending::Already(_)) => Some(&mut p.conflicts),
            };
            if let Some(c) = counter {
                *c += 1;
            }
            p.done += 1;
        }
        p
    }
}

/// Activities that own the status line while they run.
#[derive(Debug, Clone, Default)]
pub struct Activities {
    /// A pasted token is being checked (`/auth/user`); the sequence number when it started.
    pub signing_in: Option<u64>,
    /// A refresh is under way; the sequence number when it started.
    pub refreshing: Option<u64>,
    /// The refresh under way is the automatic one (not `r`): it speaks on the status line
    /// only where nothing more important stands there ([`super::Model::refresh_speaks`]).
    pub refresh_auto: bool,
    /// A bulk action.
    pub bulk: Option<BulkTask>,
    /// The last bulk action, ended with answers lost: its rows' re-reads settle them in the
    /// log, and once the last of them is settled its summary is shown again with the
    /// server's truth ([`BulkTask::outcome`]).
    pub bulk_settling: Option<BulkTask>,
    /// `*` is loading the rest of the listing before it marks every matching request.
    pub marking_all: Option<MarkAll>,
    /// A sort other than the server's order is loading the rest of the listing first, so
    /// it sorts the whole scope (the sequence number as in [`MarkAll`]).
    pub sorting_all: Option<MarkAll>,
}

/// `*` on a queue whose listing has more pages: the pages load first, then every request
/// matching the filter is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkAll {
    /// The model's sequence number when it started (for the status line).
    pub seq: u64,
}
