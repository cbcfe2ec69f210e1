//! The link to the server: reads lost while it was down, and when to try
//! again. The event loop sends `Msg::Retry` at [`Link::retry_at`]; `update` sends one read
//! as the probe and, once an answer arrives, every lost read again, waiting the program's one
//! backoff between probes ([`crate::ops::decision::backoff`]: 1 s, 2 s, ... 30 s). Writes
//! are never retried.

use crate::api::Timestamp;
use crate::app::call::ApiCall;
use crate::ops::decision::backoff;

/// The longest wait between two probes of the service while writes wait for it: one read,
/// never the write, from each dashboard with writes waiting (one at a time: none while a
/// call of it is in flight).
pub const WRITES_WAIT_PROBE: std::time::Duration = std::time::Duration::from_secs(2);

/// Reads to send again and the retry schedule.
#[derive(Debug, Clone, Default)]
pub struct Link {
    /// Reads whose call failed because the server could not be reached (connection failed,
    /// timed out), oldest first, without duplicates. Never a write.
    pub lost: Vec<ApiCall>,
    /// Retries sent since the link went down (the backoff's exponent).
    pub attempts: u32,
    /// When the next retry is due (wall clock); `None` while online.
    pub retry_at: Option<Timestamp>,
    /// The server answered again after being unreachable: the kept reads are to be sent
    /// again once the answer is applied.
    pub back: bool,
    /// A write could not leave (no connection could be made): queued writes wait until the
    /// service answers again, then go without a key.
    pub writes_wait: bool,
}

impl Link {
    /// Remembers a lost read (once).
    pub fn lose(&mut self, read: ApiCall) {
        if !read.is_mutation() && !self.lost.contains(&read) {
            self.lost.push(read);
        }
    }

    /// Plans the next retry after `attempts` tries, from `now`: the one backoff, at most
    /// [`WRITES_WAIT_PROBE`] apart while writes wait for the service (a bulk paused), so
    /// that they go on within that of its answering again.
    pub fn schedule(&mut self, now: Timestamp) {
        let mut wait = backoff(self.attempts);
        if self.writes_wait {
            wait = wait.min(WRITES_WAIT_PROBE);
        }
        let wait =
            chrono::Duration::from_std(wait).unwrap_or_else(|_| chrono::Duration::seconds(30));
        self.retry_at = Some(now + wait);
    }

    /// The link is back: no schedule, backoff from the start.
    pub fn reset(&mut self) {
        self.attempts = 0;
        self.retry_at = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_from_one_second_to_thirty() {
        let t0 = chrono::DateTime::from_timestamp(1_800_000_000, 0).expect("time");
        let waits: Vec<i64> = (0..8)
            .map(|a| {
                let mut l = Link {
                    attempts: a,
                    ..Link::default()
                };
                l.schedule(t0);
                l.retry_at.map(|t| (t - t0).num_seconds()).unwrap_or(-1)
            })
            .collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30, 30]);
    }

    #[test]
    fn writes_are_never_kept_for_a_retry() {
        let mut l = Link::default();
        let id = uuid::Uuid::nil();
        let read = ApiCall::GetRequest {
            id,
            levels: crate::api::Levels::REQUEST_ROW,
        };
        l.lose(ApiCall::DeleteRequest { id });
        l.lose(read.clone());
        l.lose(read.clone());
        assert_eq!(l.lost, vec![read]);
    }
}
