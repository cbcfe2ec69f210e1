//! The decisions held for their grace period, as the screen and the status line read them:
//! a view of the one record of decisions ([`crate::ops::book::Book`]), grouped by the
//! batch they were made in (one key, or one confirmed bulk action). `z` takes back the
//! newest batch (the rule of the grace period: `update::held`).

use uuid::Uuid;

use super::row::RowAction;
use crate::api::Timestamp;
use crate::ops::book::Book;
use crate::ops::decision::Stage;

pub use crate::config::{DEFAULT_DECISION_DELAY_SECS, MAX_DECISION_DELAY_SECS};

/// Whole seconds from `now` until `send_at`, rounded up (0 once due): a held decision's
/// countdown, on its row and on the status line.
pub fn seconds_until(send_at: Timestamp, now: Timestamp) -> i64 {
    let ms = (send_at - now).num_milliseconds().max(0);
    (ms + 999) / 1000
}

/// One batch of held decisions (one key, or one confirmed bulk action).
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
    /// The model's sequence number when it was held (its batch number; for the status line).
    pub seq: u64,
}

impl HeldDecision {
    /// Whole seconds left at `now`, rounded up (0 once due).
    pub fn seconds_left(&self, now: Timestamp) -> i64 {
        seconds_until(self.send_at, now)
    }

    /// True when `id` is one of its requests.
    pub fn holds(&self, id: Uuid) -> bool {
        self.ids.contains(&id)
    }
}

/// The decisions held, oldest batch first.
#[derive(Debug, Clone, Default)]
pub struct Held {
    decisions: Vec<HeldDecision>,
}

impl Held {
    /// The held decisions of `book` (the table of decisions), by batch, oldest first.
    pub fn of(book: &Book) -> Held {
        let mut decisions: Vec<HeldDecision> = Vec::new();
        for d in book.held() {
            let Stage::Held { send_at } = *d.stage() else {
                continue;
            };
            match decisions.last_mut().filter(|h| h.seq == d.batch) {
                Some(h) => {
                    h.ids.push(d.id);
                    h.bulk = true;
                }
                None => decisions.push(HeldDecision {
                    action: d.action,
                    ids: vec![d.id],
                    send_at,
                    bulk: book.batch_size(d.batch) > 1,
                    seq: d.batch,
                }),
            }
        }
        Held { decisions }
    }

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
}
