//! Writes whose answer was lost, until a re-read settles them: the row re-reads itself; the
//! audit file gets `unknown`, then the settled outcome (the rule: `ops::verdict`).

use std::collections::HashMap;

use uuid::Uuid;

use super::row::RowAction;
use crate::api::Timestamp;

/// One write whose answer was lost: the decision, how its answer was lost, and when its
/// row is read again.
#[derive(Debug, Clone)]
struct Pending {
    action: RowAction,
    cause: crate::api::ApiError,
    /// Re-reads that did not settle it (the backoff's exponent).
    attempts: u32,
    /// When the next re-read is due; `None` while one is in flight or none is planned.
    next_at: Option<Timestamp>,
}

/// Writes whose answer was lost (connection dropped, timeout, an unreadable or 5xx answer
/// after the request was sent): the decision may or may not have been applied. The row is
/// re-read at once, then with the core's backoff ([`crate::ops::verdict::settle_backoff`]:
/// 1 s, 2 s, ... 30 s) until a read settles it ([`crate::ops::verdict::settle`]); never
/// written again meanwhile.
#[derive(Debug, Clone, Default)]
pub struct Unsettled {
    rows: HashMap<Uuid, Pending>,
}

impl Unsettled {
    /// True when no outcome is waiting to be settled.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Requests waiting to be settled.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The decision on `id` whose outcome is unknown, if any.
    pub fn get(&self, id: Uuid) -> Option<RowAction> {
        self.rows.get(&id).map(|r| r.action)
    }

    /// How the answer to the decision on `id` was lost.
    pub fn cause(&self, id: Uuid) -> Option<&crate::api::ApiError> {
        self.rows.get(&id).map(|r| &r.cause)
    }

    /// Records a write on `id` whose answer was lost, and how (`cause`); its first re-read
    /// is sent at once by the caller.
    pub fn insert(&mut self, id: Uuid, action: RowAction, cause: crate::api::ApiError) {
        self.rows.insert(
            id,
            Pending {
                action,
                cause,
                attempts: 0,
                next_at: None,
            },
        );
    }

    /// Forgets `id` (settled); returns the decision and the cause.
    pub fn remove(&mut self, id: Uuid) -> Option<(RowAction, crate::api::ApiError)> {
        self.rows.remove(&id).map(|p| (p.action, p.cause))
    }

    /// A re-read of `id` did not settle it: the next one is planned after the backoff from
    /// `now` ([`crate::ops::verdict::settle_backoff`]).
    /// Returns the wait.
    pub fn retry_later(&mut self, id: Uuid, now: Timestamp) -> std::time::Duration {
        let Some(p) = self.rows.get_mut(&id) else {
            return std::time::Duration::ZERO;
        };
        let wait = crate::ops::verdict::settle_backoff(p.attempts);
        p.attempts = p.attempts.saturating_add(1);
        p.next_at = Some(
            now + chrono::Duration::from_std(wait)
                .unwrap_or_else(|_| chrono::Duration::seconds(30)),
        );
        wait
    }

    /// When the re-read of `id` is due; `None` when `id` is settled or its re-read is on its
    /// way.
    pub fn due_at(&self, id: Uuid) -> Option<Timestamp> {
        self.rows.get(&id).and_then(|p| p.next_at)
    }

    /// When the next re-read is due, over every unsettled write.
    pub fn next_due(&self) -> Option<Timestamp> {
        self.rows.values().filter_map(|p| p.next_at).min()
    }

    /// Takes out the ids whose re-read is due at `now` (their plan is cleared: the re-read
    /// goes out now).
    pub fn take_due(&mut self, now: Timestamp) -> Vec<Uuid> {
        let mut due: Vec<Uuid> = self
            .rows
            .iter_mut()
            .filter(|(_, p)| p.next_at.is_some_and(|t| t <= now))
            .map(|(id, p)| {
                p.next_at = None;
                *id
            })
            .collect();
        due.sort();
        due
    }

    /// Every unsettled id, to be re-read at once (the link came back, a new sign-in): the
    /// backoff starts again.
    pub fn take_all(&mut self) -> Vec<Uuid> {
        let mut all: Vec<Uuid> = self
            .rows
            .iter_mut()
            .map(|(id, p)| {
                p.next_at = None;
                p.attempts = 0;
                *id
            })
            .collect();
        all.sort();
        all
    }
}
