//! Bulk runs: one call per id, a few at a time, with a progress bar and Ctrl-C handling.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use indicatif::ProgressBar;
use tokio::task::JoinHandle;
use uuid::Uuid;

use super::{Ctx, Exit, report, say};
use crate::api::ApiError;

/// What became of one item of a bulk run.
#[derive(Debug)]
pub enum Outcome<T> {
    /// The server answered with success.
    Done(T),
    /// The call failed (already reported on standard error).
    Failed(ApiError),
    /// Not sent: an earlier answer showed that no further call could succeed, or the user
    /// pressed Ctrl-C.
    NotSent,
}

/// The ids of the calls in flight, shared with the Ctrl-C watcher.
type InFlight = Arc<Mutex<Vec<Uuid>>>;

/// Runs `call` for every id with at most `ctx.settings.concurrency` in flight, results in
/// input order. Each failure is reported on standard error as its answer arrives. After an
/// answer that no further call can beat (see [`Exit::stops_run`]) or a Ctrl-C, the ids
/// not yet started are not sent; a second Ctrl-C leaves at once, after `on_abandon` for the
/// calls still in flight (the audit's `unknown` lines).
pub async fn bulk<T, F, Fut>(
    ctx: &Ctx,
    ids: &[Uuid],
    what: &str,
    call: F,
    on_abandon: impl Fn(Uuid) + Send + Sync + 'static,
) -> Vec<(Uuid, Outcome<T>)>
where
    F: Fn(Uuid) -> Fut,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let stop = Arc::new(AtomicBool::new(false));
    let inflight: InFlight = Arc::new(Mutex::new(Vec::new()));
    let bar = ctx.progress(ids.len(), what);
    let watcher = watch_ctrl_c(stop.clone(), inflight.clone(), bar.clone(), on_abandon);
    let results: Vec<(Uuid, Outcome<T>)> = futures::stream::iter(ids.iter().copied())
        .map(|id| {
            // `buffered` calls this closure only when a slot is free, so the flag read here
            // is current when the call would start.
            let fut = (!stop.load(Ordering::SeqCst)).then(|| call(id));
            one(id, fut, stop.clone(), inflight.clone(), bar.clone())
        })
        .buffered(ctx.settings.concurrency.max(1))
        .collect()
        .await;
    watcher.abort();
    bar.finish_and_clear();
    say_not_sent(&results);
    results
}

/// Watches for Ctrl-C during a bulk run: the first sets `stop` (no further calls start);
/// the second runs `on_abandon` for the calls in flight and exits with code 130.
fn watch_ctrl_c(
    stop: Arc<AtomicBool>,
    inflight: InFlight,
    bar: ProgressBar,
    on_abandon: impl Fn(Uuid) + Send + Sync + 'static,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        stop.store(true, Ordering::SeqCst);
        bar.suspend(|| {
            say("interrupted: waiting for the answers in flight (Ctrl-C again to leave now)")
        });
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        bar.finish_and_clear();
        let left: Vec<Uuid> = inflight.lock().map(|v| v.clone()).unwrap_or_default();
        for id in left {
            on_abandon(id);
        }
        say("interrupted again: leaving without the answers in flight");
        std::process::exit(130);
    })
}

/// One item of a bulk run: `fut` (none when the run has stopped) awaited while its id is
/// listed in flight; a failure is reported and, if no further call can beat it, sets `stop`.
async fn one<T, Fut>(
    id: Uuid,
    fut: Option<Fut>,
    stop: Arc<AtomicBool>,
    inflight: InFlight,
    bar: ProgressBar,
) -> (Uuid, Outcome<T>)
where
    Fut: Future<Output = Result<T, ApiError>>,
{
    let Some(fut) = fut else {
        bar.inc(1);
        return (id, Outcome::NotSent);
    };
    if let Ok(mut v) = inflight.lock() {
        v.push(id);
    }
    let r = fut.await;
    if let Ok(mut v) = inflight.lock() {
        v.retain(|x| *x != id);
    }
    bar.inc(1);
    match r {
        Ok(t) => (id, Outcome::Done(t)),
        Err(e) => {
            bar.suspend(|| report(Some(&id), &e));
            if Exit::stops_run(&e) {
                stop.store(true, Ordering::SeqCst);
            }
            (id, Outcome::Failed(e))
        }
    }
}

/// Says on standard error which ids were not sent (the run stopped early), one line each.
fn say_not_sent<T>(results: &[(Uuid, Outcome<T>)]) {
    for (id, o) in results {
        if matches!(o, Outcome::NotSent) {
            say(&format!("{id}: not sent (the run stopped early)"));
        }
    }
}

/// The exit code of a bulk run: the worst of its failures.
pub fn exit_of<T>(results: &[(Uuid, Outcome<T>)]) -> Exit {
    results.iter().fold(Exit::Ok, |acc, (_, o)| match o {
        Outcome::Done(_) => acc,
        Outcome::Failed(e) => acc.and(Exit::of(e)),
        Outcome::NotSent => acc.and(Exit::Failed),
    })
}
