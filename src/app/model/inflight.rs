//! Everything in flight, typed: the API calls awaited, the sign-in check, a refresh and a
//! bulk action. The status line is derived from these, never read back.

use std::collections::{HashMap, HashSet};

use uuid::Uuid;

use super::row::RowAction;
use crate::app::call::ApiCall;

/// The API calls in flight, by request id: to count them, to drop answers of calls no
/// longer awaited, to know when a refresh's reads are done, and to tell answers of calls
/// sent before the token in use from the others (`Model::token_from`). What an answer is
/// for travels with the answer itself ([`crate::app::Answer`]).
#[derive(Debug, Clone, Default)]
pub struct Calls {
    inflight: HashMap<u64, ApiCall>,
    next_id: u64,
}

impl Calls {
    /// Records a call and returns its request id (unique for the life of the model).
    pub fn start(&mut self, call: ApiCall) -> u64 {
        self.next_id += 1;
        self.inflight.insert(self.next_id, call);
        self.next_id
    }

    /// The request id the next call will get.
    pub fn next_id(&self) -> u64 {
        self.next_id + 1
    }

    /// The call the answer with this id answers, no longer in flight; `None` for an answer
    /// no longer awaited.
    pub fn finish(&mut self, request_id: u64) -> Option<ApiCall> {
        self.inflight.remove(&request_id)
    }

    /// The call with this id, while it is in flight.
    pub fn get(&self, request_id: u64) -> Option<&ApiCall> {
        self.inflight.get(&request_id)
    }

    /// Calls in flight.
    pub fn len(&self) -> usize {
        self.inflight.len()
    }

    /// True when nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.inflight.is_empty()
    }

    /// Every call in flight (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = &ApiCall> {
        self.inflight.values()
    }
}

/// A bulk action in progress (several rows after one confirmation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkTask {
    /// The decision.
    pub action: RowAction,
    /// The rows in the task.
    pub ids: HashSet<Uuid>,
    /// Rows in the task (`ids.len()` at the start).
    pub total: usize,
    /// Answered so far (confirmed or refused).
    pub done: usize,
    /// Refused or failed so far.
    pub failed: usize,
    /// Answers lost so far (outcome unknown until the row's re-read settles it).
    pub unknown: usize,
    /// Already decided the same way by someone else (the server said so): not failures.
    pub already: usize,
    /// Already decided the other way by someone else: conflicts, not retried.
    pub conflicts: usize,
    /// The model's sequence number of the last progress (for the status line).
    pub seq: u64,
    /// When it started (the model's clock), for its pace in requests per second.
    pub started: crate::api::Timestamp,
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
    /// The rows of the last bulk action whose answers were lost when it ended: their
    /// re-reads settle them in the log, leaving the bulk's summary on the status line.
    pub bulk_unsettled: std::collections::HashSet<uuid::Uuid>,
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
