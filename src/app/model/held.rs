//! Decisions held for the grace period, between the moderator's key and their sending: they
//! can still be taken back with `z` (the rule of the grace period: `update::held`).

use uuid::Uuid;

use super::row::RowAction;
use crate::api::Timestamp;

pub use crate::config::{DEFAULT_DECISION_DELAY_SECS, MAX_DECISION_DELAY_SECS};

/// One decision (one key, or one confirmed bulk action) waiting for its grace period to end.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldDecision {
    /// Approve or decline (a delete is confirmed instead, never held).
    pub action: RowAction,
    /// The club requests, in the order they are sent.
    pub ids: Vec<Uuid>,
    /// When it is sent: the first tick at or after this time sends it.
    pub send_at: Timestamp,
    /// Came from a confirmation of marked rows: sent as one bulk task with its progress.
    pub bulk: bool,
    /// The model's sequence number when it was held (for the status line).
    pub seq: u64,
}

impl HeldDecision {
    /// Whole seconds left at `now`, rounded up (0 once due).
    pub fn seconds_left(&self, now: Timestamp) -> i64 {
        let ms = (self.send_at - now).num_milliseconds().max(0);
        (ms + 999) / 1000
    }

    /// True when `id` is one of its requests.
    pub fn holds(&self, id: Uuid) -> bool {
        self.ids.contains(&id)
    }
}

/// The decisions held, oldest first; `z` takes back the newest.
#[derive(Debug, Clone, Default)]
pub struct Held {
    decisions: Vec<HeldDecision>,
}

impl Held {
    /// True when nothing is held.
    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// Decisions held (a bulk action counts once).
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    /// Requests held, over all decisions.
    pub fn requests(&self) -> usize {
        self.decisions.iter().map(|d| d.ids.len()).sum()
    }

    /// Every decision held, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &HeldDecision> {
        self.decisions.iter()
    }

    /// The newest decision (what `z` takes back).
    pub fn latest(&self) -> Option<&HeldDecision> {
        self.decisions.last()
    }

    /// The decision holding the request `id`, if any.
    pub fn for_request(&self, id: Uuid) -> Option<&HeldDecision> {
        self.decisions.iter().rev().find(|d| d.holds(id))
    }

    /// Holds a decision.
    pub fn push(&mut self, d: HeldDecision) {
        self.decisions.push(d);
    }

    /// Takes back the newest decision.
    pub fn take_latest(&mut self) -> Option<HeldDecision> {
        self.decisions.pop()
    }

    /// Takes out every decision due at `now`, oldest first.
    pub fn take_due(&mut self, now: Timestamp) -> Vec<HeldDecision> {
        let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.decisions)
            .into_iter()
            .partition(|d| d.send_at <= now);
        self.decisions = keep;
        due
    }

    /// True when a decision is due at `now` (its grace period has run out).
    pub fn any_due(&self, now: Timestamp) -> bool {
        self.decisions.iter().any(|d| d.send_at <= now)
    }

    /// Every decision due at `now` starts a new grace period: due at `again` (back from a
    /// suspend, "keep holding").
    pub fn hold_due_again(&mut self, now: Timestamp, again: Timestamp) {
        for d in self.decisions.iter_mut().filter(|d| d.send_at <= now) {
            d.send_at = again;
        }
    }

    /// Takes out every decision, oldest first.
    pub fn take_all(&mut self) -> Vec<HeldDecision> {
        std::mem::take(&mut self.decisions)
    }
}
