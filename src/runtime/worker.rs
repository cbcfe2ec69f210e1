//! The worker: runs API calls on a bounded `JoinSet` and posts each result back as a `Msg`.
//! A call whose task panics is answered too, with [`ApiError::Internal`], like any other
//! failure: its row settles by the usual rules and nothing waits for it for ever.

use std::cell::Cell;
use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::api::{ApiClient, ApiError};
use crate::app::{ApiAnswer, ApiCall, Msg};

/// What a worker does besides sending calls: nothing in the program. In test builds (the
/// cargo feature `test-hooks`, which only the tests turn on) a call can be made to panic in
/// its task, to prove that a panicked call is answered.
#[derive(Clone, Default)]
pub struct Hooks {
    /// Calls for which this holds panic in their task instead of being sent.
    #[cfg(feature = "test-hooks")]
    pub panic_when: Option<PanicWhen>,
}

/// Which calls panic ([`Hooks::panic_when`]).
#[cfg(feature = "test-hooks")]
pub type PanicWhen = std::sync::Arc<dyn Fn(&ApiCall) -> bool + Send + Sync>;

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hooks")
    }
}

thread_local! {
    /// True while this thread runs a call whose panic the worker catches.
    static CAUGHT: Cell<bool> = const { Cell::new(false) };
}

/// True when a panic now would be caught by the worker (this thread is running one of its
/// calls): the terminal's panic hook then leaves the terminal as it is, since the dashboard
/// goes on.
pub fn panic_is_caught() -> bool {
    CAUGHT.with(Cell::get)
}

/// Sets [`CAUGHT`] for as long as it lives (unset again while a panic unwinds past it).
struct CaughtGuard(bool);

impl CaughtGuard {
    fn new() -> CaughtGuard {
        CaughtGuard(CAUGHT.with(|c| c.replace(true)))
    }
}

impl Drop for CaughtGuard {
    fn drop(&mut self) {
        let before = self.0;
        CAUGHT.with(|c| c.set(before));
    }
}

/// Runs `fut` to its end; a panic in it becomes `Err(())` (logged by the panic hook).
async fn caught<T>(fut: impl Future<Output = T>) -> Result<T, ()> {
    let mut fut = Box::pin(fut);
    let guarded = futures::future::poll_fn(move |cx| {
        let _flag = CaughtGuard::new();
        fut.as_mut().poll(cx)
    });
    AssertUnwindSafe(guarded)
        .catch_unwind()
        .await
        .map_err(|_| ())
}

/// The answer of `call` when it failed with `e` before any answer was made (its task
/// panicked): the answer of the call's own kind, so that it reaches what waits for it.
pub fn failed(call: &ApiCall, e: ApiError) -> ApiAnswer {
    match call {
        ApiCall::CurrentUser | ApiCall::CheckToken(_) => ApiAnswer::User(Err(e)),
        ApiCall::GetRequest { .. } => ApiAnswer::Request(Err(e)),
        ApiCall::UpdateRequest { .. } => ApiAnswer::Updated(Err(e)),
        ApiCall::DeleteRequest { .. } => ApiAnswer::Deleted(Err(e)),
        ApiCall::GetClub { .. } => ApiAnswer::Club(Err(e)),
        ApiCall::CreateContact { .. } => ApiAnswer::ContactCreated(Err(e)),
        ApiCall::ListRequests { .. } => ApiAnswer::Listing(Err(e)),
        ApiCall::SearchClubs { .. } => ApiAnswer::Clubs(Err(e)),
        ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(Err(e)),
    }
}

/// Handle to send calls to the worker.
#[derive(Debug, Clone)]
pub struct Worker {
    tx: mpsc::UnboundedSender<(u64, ApiCall)>,
}

impl Worker {
    /// Queues a call; its answer arrives as `Msg::Api { request_id, .. }`.
    pub fn send(&self, request_id: u64, call: ApiCall) {
        let _ = self.tx.send((request_id, call));
    }
}

/// [`perform`], or the panic the test hooks ask for.
async fn run_call(client: &ApiClient, call: ApiCall, hooks: &Hooks) -> ApiAnswer {
    #[cfg(feature = "test-hooks")]
    if hooks.panic_when.as_ref().is_some_and(|p| p(&call)) {
        panic!("test panic of an API call (worker::Hooks::panic_when)");
    }
    #[cfg(not(feature = "test-hooks"))]
    let _ = hooks;
    perform(client, call).await
}

/// Runs one call and returns its answer (errors are in the answer, per operation).
pub async fn perform(client: &ApiClient, call: ApiCall) -> ApiAnswer {
    match call {
        ApiCall::CurrentUser => ApiAnswer::User(client.current_user().await),
        ApiCall::CheckToken(t) => ApiAnswer::User(client.current_user_with(&t.0).await),
        ApiCall::GetRequest { id, levels } => {
            ApiAnswer::Request(client.club_request(id, levels).await)
        }
        ApiCall::UpdateRequest { id, status, levels } => {
            ApiAnswer::Updated(client.update_club_request(id, &status, levels).await)
        }
        ApiCall::DeleteRequest { id } => ApiAnswer::Deleted(client.delete_club_request(id).await),
        // Its contacts whole on the deployed service too (a second read where needed).
        ApiCall::GetClub { id, levels } => {
            ApiAnswer::Club(crate::ops::club::read_club(client, id, levels).await)
        }
        ApiCall::CreateContact {
            club_id,
            contact,
            levels,
        } => ApiAnswer::ContactCreated(client.create_club_contact(club_id, &contact, levels).await),
        ApiCall::ListRequests {
            filter,
            sort,
            page,
            levels,
        } => ApiAnswer::Listing(
            client
                .list_club_requests(&filter, &sort, page, levels)
                .await,
        ),
        ApiCall::SearchClubs {
            query,
            page,
            levels,
        } => ApiAnswer::Clubs(client.search_clubs(&query, page, levels).await),
        ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(client.probe_update_route().await),
    }
}

/// Starts the worker task: at most `concurrency` calls in flight, results to `msgs`.
///
/// Calls wait in a queue, not as spawned tasks, so ten thousand queued reads cost a few
/// hundred kilobytes. Writes (approve, decline, delete, new contact) go to the front of the
/// queue: a decision never waits behind prefetching.
pub fn spawn(client: ApiClient, concurrency: usize, msgs: mpsc::UnboundedSender<Msg>) -> Worker {
    spawn_with(client, concurrency, msgs, Hooks::default())
}

/// As [`spawn`], with `hooks` (nothing in the program; see [`Hooks`]).
pub fn spawn_with(
    client: ApiClient,
    concurrency: usize,
    msgs: mpsc::UnboundedSender<Msg>,
    hooks: Hooks,
) -> Worker {
    let (tx, mut rx) = mpsc::unbounded_channel::<(u64, ApiCall)>();
    let limit = concurrency.max(1);
    tokio::spawn(async move {
        let mut set: JoinSet<()> = JoinSet::new();
        let mut waiting: VecDeque<(u64, ApiCall)> = VecDeque::new();
        let mut open = true;
        let mut sent = client.limiter().watch_in_flight();
        loop {
            while set.len() < limit
                && let Some((request_id, call)) = waiting.pop_front()
            {
                let client = client.clone();
                let msgs = msgs.clone();
                let hooks = hooks.clone();
                set.spawn(async move {
                    let mutation = call.is_mutation();
                    let what = format!("{call:?}");
                    let on_panic = failed(&call, ApiError::Internal);
                    let answer = match caught(run_call(&client, call, &hooks)).await {
                        Ok(answer) => answer,
                        Err(()) => {
                            tracing::error!(request_id, call = %what, "an API call panicked: answered as failed");
                            on_panic
                        }
                    };
                    if mutation {
                        tracing::info!(request_id, call = %what, ok = answer.is_ok(), "mutation answered");
                    } else {
                        tracing::debug!(request_id, call = %what, ok = answer.is_ok(), "read answered");
                    }
                    let _ = msgs.send(Msg::Api { request_id, answer });
                    if let Some(pace) = client.limiter().pace_changed() {
                        let _ = msgs.send(Msg::Pace {
                            limit: pace.limit,
                            slowed: pace.slowed,
                            in_flight: pace.in_flight,
                        });
                    }
                });
            }
            if !open && set.is_empty() && waiting.is_empty() {
                break;
            }
            tokio::select! {
                next = rx.recv(), if open => match next {
                    Some((request_id, call)) => {
                        if call.is_mutation() {
                            // Behind earlier writes, ahead of every read.
                            let pos = waiting.iter().position(|(_, c)| !c.is_mutation()).unwrap_or(waiting.len());
                            waiting.insert(pos, (request_id, call));
                        } else {
                            waiting.push_back((request_id, call));
                        }
                    }
                    None => open = false,
                },
                // The calls on the wire changed (the limiter let one out, or one was
                // answered): the status line counts those, not the calls queued.
                Ok(()) = sent.changed() => {
                    let pace = client.limiter().pace();
                    let in_flight = *sent.borrow_and_update();
                    let _ = msgs.send(Msg::Pace {
                        limit: pace.limit,
                        slowed: pace.slowed,
                        in_flight,
                    });
                }
                Some(res) = set.join_next(), if !set.is_empty() => {
                    // A task's panic is caught inside it (and its call answered); what
                    // is left is a task cancelled as the runtime shuts down.
                    if let Err(e) = res {
                        tracing::error!("an API task ended without its answer: {e}");
                    }
                }
            }
        }
    });
    Worker { tx }
}
