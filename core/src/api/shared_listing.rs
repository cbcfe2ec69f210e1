//! One store of what the server said to a listing read, for the clients of one process that
//! share it (the sessions of one `serve-ssh`): a listing read the same as
//! one another session sent a moment ago, or has in flight, is answered by that read
//! instead of being sent again.
//!
//! Every account may list and read every request (api-notes.md, "Who may do what": list /
//! read requests is "yes" for every role), so a listing's answer at `compact` below does not
//! depend on whose token asked; the token only lets the call in. What is shared, and when:
//! - only `GET /v1/clubs/requests` (the listing's pages and the rows read by their `ids`),
//!   keyed by its whole query, and only with its students and clubs at `compact` or below
//!   (a student asking for `default` students outside its classroom is refused the whole
//!   answer: above `compact` it depends on the account); a detail or a club read stays the
//!   session's own;
//! - only a successful answer: a failure (a 401 of an expired token, a 5xx) is its asker's,
//!   and each session that waited on it sends its own read;
//! - only an answer to a read sent after the last write of any session of the process was
//!   answered (a write's answer starts a new *epoch*): a session that reads after its own
//!   approval is never answered by a read older than the approval;
//! - an answer is reused for [`FRESH_FOR`] after its read was sent, then read again.
//!
//! A read tried once ([`super::ApiClient::single_try`]: a lost write's re-reads, the link's
//! probes) is never shared: it asks the server now.
//!
//! The store also keeps that the server has approve and decline, once a session's probe
//! found the route present (a fact of the server, not of an account): the next sessions'
//! probes are answered from it, so 200 moderators signing in at once send one probe, not
//! 200. A refusal by role is the account's, and a route missing may be a proxy's passing
//! 405: neither is kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// How long an answer is reused after its read was sent: 2 s. Long enough for the sessions
/// that refresh together (`serve-ssh`'s one refresh clock) or sign in together to be
/// answered by one read; short beside the 30 s between refreshes.
pub const FRESH_FOR: Duration = Duration::from_secs(2);

/// What the waiters of a read in flight are handed: `None` until it ends, then the answer
/// when it succeeded (`Some(None)`: it failed, each waiter reads on its own).
type Outcome<T> = Option<Option<T>>;

/// The store of answers `T` (the client's: a listing page's `Reply<Vec<ClubRequest>>`;
/// generic, so that this file needs nothing else of `api/`). Cheap to clone: its clones are
/// one store.
pub struct SharedListing<T> {
    inner: Arc<Mutex<Store<T>>>,
}

impl<T> Clone for SharedListing<T> {
    fn clone(&self) -> Self {
        SharedListing {
            inner: self.inner.clone(),
        }
    }
}

impl<T> Default for SharedListing<T> {
    fn default() -> Self {
        SharedListing {
            inner: Arc::new(Mutex::new(Store {
                route_present: false,
                epoch: 0,
                next: 0,
                entries: HashMap::new(),
                counts: SharedCounts::default(),
            })),
        }
    }
}

impl<T> std::fmt::Debug for SharedListing<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedListing")
    }
}

/// How the store answered, since it was made: what the operator's status shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SharedCounts {
    /// Reads sent to the server (each asked by one session, maybe answering others too).
    pub sent: u64,
    /// Reads answered by another session's read in flight.
    pub joined: u64,
    /// Reads answered by another session's answer of less than [`FRESH_FOR`].
    pub reused: u64,
}

struct Store<T> {
    /// A probe found that the server has the update route (approve and decline).
    route_present: bool,
    /// Bumped when a write's answer arrives ([`SharedListing::write_answered`]).
    epoch: u64,
    /// The number of the next entry (to tell an entry from a later one of the same key).
    next: u64,
    entries: HashMap<String, Entry<T>>,
    counts: SharedCounts,
}

struct Entry<T> {
    number: u64,
    epoch: u64,
    sent_at: Instant,
    state: State<T>,
}

enum State<T> {
    InFlight(watch::Receiver<Outcome<T>>),
    Done(T),
}

/// What a read found in the store.
enum Found<T> {
    Answer(T),
    Wait(watch::Receiver<Outcome<T>>),
    Lead(Lead<T>),
}

/// The read that goes to the server for its key; dropped before it ends (its task
/// cancelled), it takes its entry away, so that no one waits for it.
struct Lead<T> {
    store: SharedListing<T>,
    key: String,
    number: u64,
    tx: watch::Sender<Outcome<T>>,
    ended: bool,
}

impl<T: Clone> Lead<T> {
    /// The read ended with `result`: its waiters are handed the answer, and a success is
    /// kept for the next [`FRESH_FOR`] (unless a write was answered meanwhile).
    fn end<E>(mut self, result: &Result<T, E>) {
        self.ended = true;
        let answer = result.as_ref().ok().cloned();
        if let Ok(mut s) = self.store.inner.lock() {
            let epoch = s.epoch;
            match (s.entries.get_mut(&self.key), &answer) {
                (Some(e), Some(a)) if e.number == self.number && e.epoch == epoch => {
                    e.state = State::Done(a.clone());
                }
                (Some(e), _) if e.number == self.number => {
                    s.entries.remove(&self.key);
                }
                _ => {}
            }
        }
        let _ = self.tx.send(Some(answer));
    }
}

impl<T> Drop for Lead<T> {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        if let Ok(mut s) = self.store.inner.lock()
            && s.entries
                .get(&self.key)
                .is_some_and(|e| e.number == self.number)
        {
            s.entries.remove(&self.key);
        }
        let _ = self.tx.send(Some(None));
    }
}

impl<T: Clone> SharedListing<T> {
    /// An empty store.
    pub fn new() -> SharedListing<T> {
        SharedListing::default()
    }

    /// True once a session's probe found that the server has approve and decline (the
    /// update route).
    pub fn route_present(&self) -> bool {
        self.inner.lock().is_ok_and(|s| s.route_present)
    }

    /// A probe found the update route present: the server's fact, kept. (A refusal by role
    /// is the account's, and a route missing may be a proxy's passing 405: neither comes
    /// here.)
    pub fn learned_route_present(&self) {
        if let Ok(mut s) = self.inner.lock() {
            s.route_present = true;
        }
    }

    /// What the store did so far.
    pub fn counts(&self) -> SharedCounts {
        self.inner.lock().map(|s| s.counts).unwrap_or_default()
    }

    /// A write of any session was answered (or failed: it may have landed): every answer
    /// kept, and every read in flight, is older than it and answers no read asked from now on.
    pub fn write_answered(&self) {
        if let Ok(mut s) = self.inner.lock() {
            s.epoch += 1;
            s.entries.clear();
        }
    }

    /// The answer to the listing read `key` (its path and query): another session's, when
    /// one is in flight or was sent less than [`FRESH_FOR`] ago in this epoch; else `read`'s,
    /// which is then kept for the others. A failure is never handed to another session.
    pub async fn read<E, F>(&self, key: String, read: F) -> Result<T, E>
    where
        F: AsyncFnOnce() -> Result<T, E>,
    {
        match self.find(&key) {
            Found::Answer(a) => Ok(a),
            Found::Lead(lead) => {
                let result = read().await;
                lead.end(&result);
                result
            }
            Found::Wait(mut rx) => {
                let outcome = rx
                    .wait_for(Option::is_some)
                    .await
                    .ok()
                    .and_then(|o| o.clone());
                match outcome.flatten() {
                    Some(a) => Ok(a),
                    // The read waited on failed or was cancelled: this session's own.
                    None => read().await,
                }
            }
        }
    }

    fn find(&self, key: &str) -> Found<T> {
        let Ok(mut s) = self.inner.lock() else {
            // A poisoned store shares nothing: each read is its own.
            let (tx, _) = watch::channel(None);
            return Found::Lead(Lead {
                store: self.clone(),
                key: key.to_owned(),
                number: u64::MAX,
                tx,
                ended: false,
            });
        };
        let epoch = s.epoch;
        let now = Instant::now();
        let mut found = None;
        if let Some(e) = s.entries.get(key)
            && e.epoch == epoch
        {
            match &e.state {
                State::InFlight(rx) => found = Some(Found::Wait(rx.clone())),
                State::Done(a) if now.duration_since(e.sent_at) < FRESH_FOR => {
                    found = Some(Found::Answer(a.clone()))
                }
                State::Done(_) => {}
            }
        }
        match found {
            Some(Found::Answer(a)) => {
                s.counts.reused += 1;
                return Found::Answer(a);
            }
            Some(f) => {
                s.counts.joined += 1;
                return f;
            }
            None => {}
        }
        // Answers past their time go; the store keeps only what may still be reused.
        s.entries.retain(|_, e| {
            matches!(e.state, State::InFlight(_)) || now.duration_since(e.sent_at) < FRESH_FOR
        });
        s.counts.sent += 1;
        s.next += 1;
        let number = s.next;
        let (tx, rx) = watch::channel(None);
        s.entries.insert(
            key.to_owned(),
            Entry {
                number,
                epoch,
                sent_at: now,
                state: State::InFlight(rx),
            },
        );
        Found::Lead(Lead {
            store: self.clone(),
            key: key.to_owned(),
            number,
            tx,
            ended: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer, identified by its number; the reads' error.
    type Listed = String;
    type Failed = &'static str;

    fn listed(n: usize) -> Result<Listed, Failed> {
        Ok(format!("v{n}"))
    }

    fn version(r: Result<Listed, Failed>) -> Option<String> {
        r.ok()
    }

    /// A read of `key` on its way in a task of its own, answered `answer` once the sender
    /// it returns is used: the read's task and that sender.
    fn held_read(
        store: &SharedListing<Listed>,
        key: String,
        answer: Result<Listed, Failed>,
    ) -> (
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<Result<Listed, Failed>>,
    ) {
        let (go_tx, go_rx) = tokio::sync::oneshot::channel::<()>();
        let store = store.clone();
        let task = tokio::spawn(async move {
            store
                .read(key, async || {
                    let _ = go_rx.await;
                    answer
                })
                .await
        });
        (go_tx, task)
    }

    #[tokio::test(start_paused = true)]
    async fn reads_in_flight_together_are_one_read() {
        let store = SharedListing::<Listed>::new();
        let sent = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let (store, sent) = (store.clone(), sent.clone());
            tasks.push(tokio::spawn(async move {
                store
                    .read("/v1/clubs/requests?a".into(), async || {
                        sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        listed(1)
                    })
                    .await
            }));
        }
        for t in tasks {
            let got = t.await.expect("task");
            assert_eq!(version(got), Some("v1".into()));
        }
        assert_eq!(sent.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!(
            store.counts(),
            SharedCounts {
                sent: 1,
                joined: 19,
                reused: 0
            }
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_is_reused_while_fresh_and_not_after_a_write() {
        let store = SharedListing::<Listed>::new();
        let key = || "/v1/clubs/requests?b".to_owned();
        let first = store.read(key(), async || listed(1)).await;
        assert!(first.is_ok());
        tokio::time::advance(Duration::from_millis(1500)).await;
        let again = store.read(key(), async || listed(2)).await;
        assert_eq!(version(again), Some("v1".into()));
        // Past its time: read again.
        tokio::time::advance(Duration::from_millis(600)).await;
        let later = store.read(key(), async || listed(3)).await;
        assert_eq!(version(later), Some("v3".into()));
        // A write answered: the fresh answer no longer answers.
        store.write_answered();
        let after = store.read(key(), async || listed(4)).await;
        assert_eq!(version(after), Some("v4".into()));
        // Another query is another read.
        let other = store
            .read("/v1/clubs/requests?c".into(), async || listed(5))
            .await;
        assert_eq!(version(other), Some("v5".into()));
        assert_eq!(store.counts().sent, 4);
        assert_eq!(store.counts().reused, 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_read_in_flight_across_a_write_answers_no_one_who_asks_after_it() {
        let store = SharedListing::<Listed>::new();
        let key = || "/v1/clubs/requests?d".to_owned();
        let (go_tx, leader) = held_read(&store, key(), listed(1));
        tokio::task::yield_now().await;
        store.write_answered();
        // Asked after the write's answer: not the read in flight, its own.
        let own = store.read(key(), async || listed(2)).await;
        assert_eq!(version(own), Some("v2".into()));
        let _ = go_tx.send(());
        let led = leader.await.expect("task");
        assert_eq!(version(led), Some("v1".into()));
        // The older answer is not kept: the next read is the one of the new epoch, kept.
        let next = store.read(key(), async || listed(3)).await;
        assert_eq!(version(next), Some("v2".into()));
    }

    #[tokio::test(start_paused = true)]
    async fn a_failure_is_not_shared_and_a_cancelled_read_leaves_no_one_waiting() {
        let store = SharedListing::<Listed>::new();
        let key = || "/v1/clubs/requests?e".to_owned();
        let (go_tx, leader) = held_read(&store, key(), Err("refused"));
        tokio::task::yield_now().await;
        let waiter = {
            let store = store.clone();
            tokio::spawn(async move { store.read(key(), async || listed(7)).await })
        };
        tokio::task::yield_now().await;
        let _ = go_tx.send(());
        assert!(leader.await.expect("task").is_err());
        let waited = waiter.await.expect("task");
        assert_eq!(version(waited), Some("v7".into()));

        // A read whose task is dropped mid-way: the next asker reads on its own at once.
        // (Its sender kept and never used: the read would wait for ever.)
        let (_never, stuck) = held_read(&store, "/v1/clubs/requests?f".into(), listed(0));
        tokio::task::yield_now().await;
        stuck.abort();
        let _ = stuck.await;
        let own = store
            .read("/v1/clubs/requests?f".into(), async || listed(8))
            .await;
        assert_eq!(version(own), Some("v8".into()));
    }
}
