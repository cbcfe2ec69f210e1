//! The worker: API calls queued (writes ahead of reads, a write held until its write-ahead
//! audit line is written), sent on a bounded `JoinSet`, each answer posted back as a
//! [`Msg`] (a call whose task panics is answered too, with [`ApiError::Internal`]).

use std::cell::Cell;
use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::api::{ApiClient, ApiError};
use crate::app::msg::Tries;
use crate::app::{Answer, ApiCall, Msg};

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

/// A call queued in the worker, with the write-ahead line it waits for, if any.
type Queued = (u64, ApiCall, Tries, Option<crate::ops::writer::Written>);

/// What the worker is handed: a call, or the order to drop the writes still queued.
enum Job {
    /// A call to send.
    Call(Queued),
    /// Every write queued and not yet started is answered [`ApiError::NotSent`] with these
    /// words, never sent (a hang-up ends a bulk as Ctrl-C does on the command line).
    DropWrites(String),
}

/// Handle to send calls to the worker.
#[derive(Debug, Clone)]
pub struct Worker {
    tx: mpsc::UnboundedSender<Job>,
}

impl Worker {
    /// Queues a call, a read tried by the client's own retries; its answer arrives as
    /// `Msg::Api { request_id, .. }`.
    pub fn send(&self, request_id: u64, call: ApiCall) {
        self.send_after(request_id, call, Tries::Client, None)
    }

    /// Queues a call that leaves only once `ahead` (its write-ahead audit line) is written,
    /// a read tried as `tries` says (the client's retries, or once);
    /// a line that could not be written answers the call as not sent
    /// ([`ApiError::NotSent`]) and nothing leaves.
    pub fn send_after(
        &self,
        request_id: u64,
        call: ApiCall,
        tries: Tries,
        ahead: Option<crate::ops::writer::Written>,
    ) {
        let _ = self.tx.send(Job::Call((request_id, call, tries, ahead)));
    }

    /// Drops every write queued and not yet started: each is answered
    /// [`ApiError::NotSent`] with `why`, never sent; the writes started go on (their
    /// answers are awaited). Calls queued after this one are sent as usual.
    pub fn drop_queued_writes(&self, why: &str) {
        let _ = self.tx.send(Job::DropWrites(why.to_owned()));
    }
}

/// The next call to start: the first queued (the dashboard hands its writes over only
/// while the service answers, at most its window at once: `app/update/decisions.rs`).
fn next_call(waiting: &mut VecDeque<Queued>) -> Option<Queued> {
    waiting.pop_front()
}

/// [`ApiCall::perform`] (on a client that tries once for [`Tries::Once`]), or the panic the
/// test hooks ask for.
async fn run_call(client: &ApiClient, call: ApiCall, tries: Tries, hooks: &Hooks) -> Answer {
    #[cfg(feature = "test-hooks")]
    if hooks.panic_when.as_ref().is_some_and(|p| p(&call)) {
        panic!("test panic of an API call (effects::Hooks::panic_when)");
    }
    #[cfg(not(feature = "test-hooks"))]
    let _ = hooks;
    match tries {
        Tries::Client => call.perform(client).await,
        Tries::Once => call.perform(&client.single_try()).await,
    }
}

/// Queues a call: a write behind earlier writes and ahead of every read, a read last.
fn enqueue(waiting: &mut VecDeque<Queued>, queued: Queued) {
    if queued.1.is_mutation() {
        let pos = waiting
            .iter()
            .position(|(_, c, _, _)| !c.is_mutation())
            .unwrap_or(waiting.len());
        waiting.insert(pos, queued);
    } else {
        waiting.push_back(queued);
    }
}

/// Answers every write queued and not yet started [`ApiError::NotSent`] (`why`).
fn drop_writes(waiting: &mut VecDeque<Queued>, why: &str, msgs: &mpsc::UnboundedSender<Msg>) {
    let (writes, reads): (VecDeque<Queued>, VecDeque<Queued>) =
        waiting.drain(..).partition(|(_, c, _, _)| c.is_mutation());
    *waiting = reads;
    if !writes.is_empty() {
        tracing::info!(writes = writes.len(), "queued writes not sent: {why}");
    }
    for (request_id, call, _, _) in writes {
        let answer = call.failed(ApiError::NotSent(why.to_owned()));
        let _ = msgs.send(Msg::Api { request_id, answer });
    }
}

/// One call's task: runs it (a panic in it answers the call as failed, with
/// [`ApiError::Internal`]), posts its answer as [`Msg::Api`], and the limiter's pace when it
/// changed.
async fn answer_call(
    client: ApiClient,
    msgs: mpsc::UnboundedSender<Msg>,
    hooks: Hooks,
    (request_id, call, tries, ahead): Queued,
) {
    let mutation = call.is_mutation();
    let what = format!("{call:?}");
    let on_panic = call.clone().failed(ApiError::Internal);
    let not_written = match ahead {
        Some(written) => written.await.err(),
        None => None,
    };
    let answer = if let Some(e) = not_written {
        tracing::error!(request_id, call = %what, "not sent: its audit line could not be written: {e}");
        call.failed(ApiError::NotSent(format!(
            "{} ({e})",
            crate::api::error::why::AUDIT_NOT_WRITTEN
        )))
    } else {
        match caught(run_call(&client, call, tries, &hooks)).await {
            Ok(answer) => answer,
            Err(()) => {
                tracing::error!(request_id, call = %what, "an API call panicked: answered as failed");
                on_panic
            }
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
}

/// Tells the dashboard the limiter's pace with `on_wire` calls of its own on the wire, when
/// that differs from what it was `told` last.
fn tell_pace(
    client: &ApiClient,
    on_wire: usize,
    told: &mut Option<(usize, bool, usize)>,
    msgs: &mpsc::UnboundedSender<Msg>,
) {
    let pace = client.limiter().pace();
    let now = (pace.limit, pace.slowed, on_wire);
    if *told != Some(now) {
        *told = Some(now);
        let _ = msgs.send(Msg::Pace {
            limit: pace.limit,
            slowed: pace.slowed,
            in_flight: on_wire,
        });
    }
}

/// Starts the worker: a task with at most `concurrency` calls in flight, results to `msgs`.
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
    let (tx, mut rx) = mpsc::unbounded_channel::<Job>();
    let limit = concurrency.max(1);
    tokio::spawn(async move {
        let mut set: JoinSet<()> = JoinSet::new();
        let mut waiting: VecDeque<Queued> = VecDeque::new();
        let mut open = true;
        let mut sent = client.limiter().watch_in_flight();
        // What the model was last sent (`Msg::Pace`): the limit, slowed, calls on the wire.
        let mut told: Option<(usize, bool, usize)> = None;
        // The host budget's status: what was refused at start is sent at once (a start-up
        // warning), then every change (calls one at a time while others hold every slot).
        let mut budget = client.watch_budget();
        if let Some(rx) = budget.as_mut()
            && rx.borrow().refusal.is_some()
        {
            rx.mark_changed();
        }
        loop {
            while set.len() < limit
                && let Some(queued) = next_call(&mut waiting)
            {
                let task = answer_call(client.clone(), msgs.clone(), hooks.clone(), queued);
                set.spawn(task);
            }
            if !open && set.is_empty() && waiting.is_empty() {
                break;
            }
            tokio::select! {
                next = rx.recv(), if open => match next {
                    Some(Job::Call(queued)) => enqueue(&mut waiting, queued),
                    Some(Job::DropWrites(why)) => drop_writes(&mut waiting, &why, &msgs),
                    None => open = false,
                },
                // The calls on the wire changed (the limiter let one out, or one was
                // answered): the status line counts those, not the calls queued. The
                // limiter is the process's (a `serve-ssh` session shares it with every
                // other): this dashboard's are at most its own calls started, and it is
                // sent only what changed for it, not every call of 200 sessions.
                Ok(()) = sent.changed() => {
                    let on_wire = (*sent.borrow_and_update()).min(set.len());
                    tell_pace(&client, on_wire, &mut told, &msgs);
                }
                Some(status) = budget_changed(&mut budget) => {
                    let _ = msgs.send(Msg::Budget(status));
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

/// The host budget's next status (`None` when the budget is off, or its sender is gone: the
/// branch then waits for ever, and the others go on).
async fn budget_changed(
    rx: &mut Option<tokio::sync::watch::Receiver<crate::api::budget::BudgetStatus>>,
) -> Option<crate::api::budget::BudgetStatus> {
    if let Some(r) = rx.as_mut()
        && r.changed().await.is_ok()
    {
        return Some(r.borrow_and_update().clone());
    }
    *rx = None;
    std::future::pending().await
}
