//! A write whose answer was lost (it may or may not have been applied), followed until the
//! service shows what became of it: the one loop for every place that waits on it.
//!
//! The rule itself has no I/O and lives in the decision's state machine
//! ([`super::decision::Decision`] in stage `Lost`): each read of the request (or of the club,
//! for a new contact) is an [`Event::Reread`] that either settles the write with its audit
//! record or plans the next read after the one backoff. [`follow`] drives that machine with
//! awaits: the command line's decisions ([`super::run::decide`]) and new contacts
//! ([`super::run::settle_contact`]), and the writes an interrupted run left open, read at the
//! next start ([`super::recover::settle_all_in`]). The dashboard, which never blocks, drives the
//! same machine through messages: its row reads become `Event::Reread`, and `Msg::Retry`
//! sends the reads the machine planned (`Book::reads_due`).

use std::future::Future;
use std::time::Duration;

use super::control::Control;
use super::decision::{
    Decision, Ending, Event, Found, Line, Reread, Stage, StillUnknown, stops_reads,
};
use crate::api::ApiError;

/// How long a start reads the writes an interrupted run left open before it leaves them open
/// for the next start: reads at 0, 1, 3, 7 and 15 s on the run's clock.
pub const AT_START: Duration = Duration::from_secs(15);

/// Follows `d`, a decision in stage `Lost`, until a read settles it: `read` makes one read,
/// `proves` says what a successful one shows ([`Reread`]; a 404 is [`Reread::Missing`]).
/// Each audit line the machine gives goes to `record`, whose future is awaited before the
/// loop goes on. Between reads it waits the time the machine planned, on `control`'s clock.
///
/// Gives up (the machine's `Abandon`: a lost write stays `unknown`, open for a later start)
/// when the next read would come after `patience`, when `control` gives up (a second
/// Ctrl-C), or when a read is refused so that no later one can succeed ([`stops_reads`]: a
/// refused token or key; `control` is then stopped, so nothing more is sent with them).
///
/// Returns what the read that settled it found, else why it is still unknown; and what the
/// last read returned, when it succeeded.
pub async fn follow<T, R, W>(
    d: &mut Decision,
    mut read: impl FnMut() -> R,
    proves: impl Fn(&T) -> Reread,
    patience: Duration,
    control: &Control,
    mut record: impl FnMut(&Decision, Line) -> W,
) -> (Result<Found, StillUnknown>, Option<T>)
where
    R: Future<Output = Result<T, ApiError>>,
    W: Future<Output = ()>,
{
    let mut watch = control.clock.start();
    // The machine plans its reads in timestamps; here they are read on `control`'s clock
    // (a test's clock moves at once), counted from when the loop began.
    let began = chrono::Utc::now();
    let now = |elapsed: Duration| began + chrono::Duration::from_std(elapsed).unwrap_or_default();
    let mut last = None;
    loop {
        if let Stage::Settled(Ending::Found { found, .. }) = d.stage() {
            return (Ok(found.clone()), last);
        }
        let Stage::Lost { why, next_read, .. } = d.stage() else {
            panic!("a lost write cannot be {}", d.stage().name());
        };
        if let (Some(why), Some(at)) = (why.clone(), *next_read) {
            let wait = (at - now(watch.elapsed())).to_std().unwrap_or_default();
            if control.given_up() || watch.elapsed() + wait > patience {
                apply(d, Event::Abandon, &mut record).await;
                return (Err(why), last);
            }
            tokio::select! {
                () = watch.sleep(wait) => {}
                () = control.gave_up() => continue,
            }
        }
        let result = read().await;
        let refused = result.as_ref().err().filter(|e| stops_reads(e)).cloned();
        let event = Event::Reread {
            read: Reread::of(result.as_ref(), &proves),
            now: now(watch.elapsed()),
            told_applied: false,
        };
        last = result.ok();
        apply(d, event, &mut record).await;
        if let Some(e) = refused.filter(|_| d.alive()) {
            control.stop();
            apply(d, Event::Abandon, &mut record).await;
            return (Err(StillUnknown::Refused(e)), last);
        }
    }
}

/// Applies `event` to `d` and awaits `record` of the audit line it gives. Only events the
/// stage `Lost` takes are applied here; any other is a bug.
async fn apply<W: Future<Output = ()>>(
    d: &mut Decision,
    event: Event,
    record: &mut impl FnMut(&Decision, Line) -> W,
) {
    match d.apply(event) {
        Ok(Some(line)) => record(d, line).await,
        Ok(None) => {}
        Err(e) => panic!("{e}"),
    }
}
