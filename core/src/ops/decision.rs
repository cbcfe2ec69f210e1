//! One decision, one life: the state machine every front end runs a decision through, and the
//! rules it follows (what a write's answer means, how a lost answer is settled, the re-read
//! backoff, the audit lines it writes).
//!
//! ```text
//!   Held ──Send──► Sending ──Answered(done, already, refused)──► Settled
//!    │  ▲            │  │ ▲
//!    │  │            │  │ └─Send── Queued ◄──Queue── Held
//!    │  │            │  │            ▲
//!    │  │            │  └─Answered(not sent: no connection)
//!    │  └────Hold────┘  └──Answered(lost)──► Lost ──Reread(tells)──► Settled
//!    └──TakeBack──► Settled                  │  ▲
//!                                            └──┘ Reread(cannot tell): read again after
//!                                                 the backoff (1 s, 2 s, ... 30 s)
//! ```
//!
//! A decision is born `Held` (the dashboard's grace period) or `Sending` (the command line, a
//! delete, a delay of 0). `Queued` is a decision due but not on the wire: a bulk's rows wait
//! there for their turn (the `sending` line is written as each is handed to the connection,
//! at most the window ahead), and a write that could not leave (no connection could be
//! made: the server never received it) waits there, audited `queued`, until the service
//! answers again. A queued decision is taken back (`undone`) when it will never go. [`Decision::apply`] is the one place a transition happens; any
//! other pair of stage and event is an [`Illegal`] transition: a bug, which the front ends make
//! loud (an error in the log; a panic in debug builds). A settled decision never changes
//! again, and a request with a decision still alive never gets a second one ([`super::book::Book::start`]):
//! a write whose answer was lost is never sent again.
//!
//! A write (approve, decline, delete, new contact) gets one of three answers:
//! - **done**: the server confirmed it (2xx);
//! - **refused**: the server answered with a refusal (4xx): nothing changed, safe to retry;
//! - **lost**: no answer can be trusted (the connection dropped or timed out, a 5xx, an
//!   unreadable 2xx): the write may or may not have been applied. The outcome is `unknown`
//!   until a re-read of the request tells ([`settle`]).

use std::time::Duration;

use uuid::Uuid;

use super::action::RowAction;
use super::audit::Outcome;
pub use super::refused::{
    already_line, error_detail, not_sent, overwritten_detail, queued_detail, stops_reads, stops_run,
};
pub use super::reread::{
    Found, Reread, StillUnknown, abandoned_detail, lost_detail, settle, settled_detail,
};
use crate::api::{ApiError, MembershipStatus, Timestamp};

/// The meaning of a write's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer<T> {
    /// The server confirmed the write; its answer (the updated request, the new contact).
    Done(T),
    /// The server refused a decision because the request was already decided, with the
    /// status it has (403 "already been approved|declined"; api-notes.md "Many moderators
    /// at once"): settled at that status, not a failure, never retried.
    Already(MembershipStatus),
    /// The server refused it (nothing changed).
    Refused(ApiError),
    /// No answer can be trusted: the outcome is unknown until a re-read settles it.
    Lost(ApiError),
}

impl<T> Answer<T> {
    /// The meaning without its data, and the data (only a `Done` has it): the state machine
    /// takes the meaning ([`Event::Answered`]), the caller keeps the data.
    pub fn split(self) -> (Answer<()>, Option<T>) {
        match self {
            Answer::Done(t) => (Answer::Done(()), Some(t)),
            Answer::Already(s) => (Answer::Already(s), None),
            Answer::Refused(e) => (Answer::Refused(e), None),
            Answer::Lost(e) => (Answer::Lost(e), None),
        }
    }
}

/// The meaning of a write's result ([`crate::api::ErrorClass::write_lost`] decides between
/// refused and lost).
pub fn classify<T>(result: Result<T, ApiError>) -> Answer<T> {
    match result {
        Ok(t) => Answer::Done(t),
        Err(e) => match e.already_decided() {
            Some(status) => Answer::Already(status),
            None if e.class().write_lost() => Answer::Lost(e),
            None => Answer::Refused(e),
        },
    }
}

/// The first wait before re-reading a request whose write lost its answer.
pub const SETTLE_FIRST: Duration = Duration::from_secs(1);
/// The longest wait between two re-reads.
pub const SETTLE_MAX: Duration = Duration::from_secs(30);

/// Whether a decision may be sent to a request whose membership status, as last read, is
/// `known` (every front end): an approve or a decline only to a request read as pending. A
/// request whose status was never read may have been decided before; were its answer lost,
/// a re-read showing it decided could not be told apart from this decision. A delete goes to any
/// request (nothing else deletes). The command line reads every status first
/// (`run::undecided`); the dashboard reads the row first.
pub fn may_send(action: RowAction, known: Option<&MembershipStatus>) -> bool {
    match action.status() {
        None => true,
        Some(_) => known == Some(&MembershipStatus::Pending),
    }
}

/// The one backoff of the program: the wait before try number `attempt + 1` of a read that
/// failed (attempt counts the tries that failed): 1 s, 2 s, 4 s, ... at most 30 s. A lost
/// answer's re-reads, the dashboard's probe of a server it cannot reach, and the command
/// line's reads before a run all wait by it, in every front end.
pub fn backoff(attempt: u32) -> Duration {
    SETTLE_FIRST
        .saturating_mul(1u32 << attempt.min(5))
        .min(SETTLE_MAX)
}

/// Where a decision is in its life.
#[derive(Debug, Clone, PartialEq)]
pub enum Stage {
    /// In its grace period: sent at `send_at` unless taken back (the dashboard; due at once
    /// while it waits for a sign-in).
    Held {
        /// When it is due.
        send_at: Timestamp,
    },
    /// Due, not on the wire: waiting for its turn (a bulk sends at most its window at
    /// once) or for the service to answer again (its last try could not connect). Nothing
    /// of it reached the server.
    Queued,
    /// On its way to the server: no answer yet.
    Sending,
    /// The answer was lost: the request is re-read until its status tells.
    Lost {
        /// How the answer was lost.
        cause: ApiError,
        /// Re-reads that could not tell (the [`backoff`]'s exponent).
        attempts: u32,
        /// When the next re-read is due; `None` while one is on its way (or none is planned).
        next_read: Option<Timestamp>,
        /// Why the last re-read could not tell (`None` before the first).
        why: Option<StillUnknown>,
    },
    /// Ended; it never changes again.
    Settled(Ending),
}

/// How a decision ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// The server confirmed it (audit `ok`).
    Done,
    /// The server said the request was decided already (`already` or `conflict`).
    Already(MembershipStatus),
    /// The server refused it (audit `failed`).
    Refused(ApiError),
    /// The answer was lost and a re-read showed the outcome ([`Found::applied`]: `ok`, else `failed`).
    Found {
        /// What the re-read showed.
        found: Found,
        /// How the answer had been lost.
        cause: ApiError,
    },
    /// Never sent, or sent and refused before anything changed, and not to be sent again
    /// (taken back, discarded, another account signed in): audit `undone`.
    Undone,
    /// Given up before the server's truth was known (a quit, a run's patience): `unknown`.
    Unknown,
    /// Applied, then overwritten: a later read showed the request in this other decided
    /// status (the deployed 0.8.4 service accepts two opposite decisions that race; the
    /// last one stays): audit `overwritten`.
    Overwritten(MembershipStatus),
    /// Never sent, not by anyone's choice (the program stopped before its turn): audit
    /// `not_sent`.
    NotSent,
}

/// What happens to a decision; [`Decision::apply`] says which stage each one may come in.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The grace period ended (or "send now"), or a queued write's turn came: the write
    /// goes.
    Send,
    /// The grace period ended, but the write waits for its turn on the connection.
    Queue,
    /// Held (again) until `.0`: a new grace period ("keep holding"), or, when it was sent, the
    /// session was over (401 before anything changed): it waits for the sign-in.
    Hold(Timestamp),
    /// Not sent, never to be: taken back with `z`, discarded, or a write the server refused
    /// for a token since replaced. The audit's English detail says why.
    TakeBack(String),
    /// The server's answer, as [`classify`] reads it (its data kept by the caller).
    Answered(Answer<()>),
    /// A re-read after a lost answer, at `now`. `told_applied`: another session of this
    /// server reported that it made the same decision meanwhile, so an applied status is not
    /// claimed (`already`).
    Reread {
        /// What the re-read showed.
        read: Reread,
        /// When it came (plans the next re-read).
        now: Timestamp,
        /// Someone else applied the same decision, as another session reported.
        told_applied: bool,
    },
    /// A re-read goes now (due, or the link came back: `fresh` restarts the backoff).
    ReadNow {
        /// Start the backoff again.
        fresh: bool,
    },
    /// The caller stops following it (a quit, a run's patience): an unanswered write is
    /// audited `unknown`; a lost one already was.
    Abandon,
    /// A read after it was applied shows the request in this other decided status: the
    /// server overwrote it ([`Decision::overwritten_by`]). Allowed once, on an applied
    /// approval or decline.
    Overwritten(MembershipStatus),
    /// Not sent, never to be, nobody's choice: the program stopped (a server's stop, a
    /// dashboard's end) before the write's turn came. The audit's English detail says why.
    Stopped(String),
}

/// An audit line a transition writes: its outcome and English detail.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// `ok`, `failed`, `unknown`, `undone`, `already` or `conflict`.
    pub outcome: Outcome,
    /// The English detail (none for a plain `ok`).
    pub detail: Option<String>,
}

impl Line {
    fn new(outcome: Outcome, detail: Option<String>) -> Option<Line> {
        Some(Line { outcome, detail })
    }
}

/// A transition a decision's stage does not allow: a bug in the caller that asked it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("illegal transition of the decision on {id}: {event} while {stage}")]
pub struct Illegal {
    /// The request.
    pub id: Uuid,
    /// The stage it was in.
    pub stage: &'static str,
    /// The event asked.
    pub event: &'static str,
}

impl Stage {
    /// The stage's name, for [`Illegal`] and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Held { .. } => "held",
            Stage::Queued => "queued",
            Stage::Sending => "sending",
            Stage::Lost { .. } => "lost",
            Stage::Settled(_) => "settled",
        }
    }
}

impl Event {
    /// The event's name, for [`Illegal`] and logs.
    pub fn name(&self) -> &'static str {
        match self {
            Event::Send => "send",
            Event::Queue => "queue",
            Event::Hold(_) => "hold",
            Event::TakeBack(_) => "take back",
            Event::Answered(_) => "answered",
            Event::Reread { .. } => "reread",
            Event::ReadNow { .. } => "read now",
            Event::Abandon => "abandon",
            Event::Overwritten(_) => "overwritten",
            Event::Stopped(_) => "stopped",
        }
    }
}

/// One decision on one request: what, in which batch (one key, or one confirmed bulk
/// action: `z` takes a batch back whole), and its [`Stage`].
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The club request.
    pub id: Uuid,
    /// Approve, decline or delete.
    pub action: RowAction,
    /// The batch it was made in (increasing: the newest is the largest).
    pub batch: u64,
    /// When it was started, counted in its book (requests of a batch go in this order).
    pub(super) order: u64,
    pub(super) stage: Stage,
    /// The last line of the write, when another process's run sent it
    /// ([`Decision::recovered`]): the lines that settle it carry that run's id, so the write
    /// is closed for every later start, and its sender (user, front end, key), not this one's.
    from: Option<Box<super::audit::AuditEntry>>,
}

impl Decision {
    /// A new decision, born `Held` (a grace period) or `Sending`.
    ///
    /// Errors: [`Illegal`] for any other stage (a decision starts alive).
    pub fn new(id: Uuid, action: RowAction, batch: u64, stage: Stage) -> Result<Self, Illegal> {
        match stage {
            Stage::Held { .. } | Stage::Sending => Ok(Decision {
                id,
                action,
                batch,
                order: 0,
                stage,
                from: None,
            }),
            other => Err(Illegal {
                id,
                stage: other.name(),
                event: "start",
            }),
        }
    }

    /// A decision whose answer was lost (`cause`) before this process followed it: born
    /// `Lost`, re-read until the server's status tells, never sent again.
    pub fn lost(id: Uuid, action: RowAction, batch: u64, cause: ApiError) -> Decision {
        Decision {
            id,
            action,
            batch,
            order: 0,
            stage: Stage::Lost {
                cause,
                attempts: 0,
                next_read: None,
                why: None,
            },
            from: None,
        }
    }

    /// A decision an interrupted run (another process that ended) left open: its audit
    /// line `open`, `sending` or `unknown`, has nothing after it ([`super::recover`]). Born
    /// lost, its answer never seen ([`ApiError::NoAnswer`]).
    pub fn recovered(
        id: Uuid,
        action: RowAction,
        batch: u64,
        open: super::audit::AuditEntry,
    ) -> Decision {
        let cause = ApiError::NoAnswer(super::audit::ENDED_BEFORE_ANSWER.to_owned());
        Decision {
            from: Some(Box::new(open)),
            ..Decision::lost(id, action, batch, cause)
        }
    }

    /// The audit record of `line` at `at` when this decision is another run's
    /// ([`Decision::recovered`]): a copy of that write's open line (the same run, session,
    /// sender, key and contact value) with the new outcome and detail, marked settled by
    /// this process, so the write is closed for every later start. `None` for this
    /// process's own decisions (the caller writes its own record).
    pub fn closing(&self, at: Timestamp, line: &Line) -> Option<super::audit::AuditEntry> {
        let open = self.from.as_deref()?;
        Some(super::audit::AuditEntry {
            at,
            outcome: line.outcome,
            detail: line.detail.clone(),
            settled_by: Some(super::audit::run_id().to_owned()),
            carried: None,
            ..open.clone()
        })
    }

    /// Where it is.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// True until it is settled.
    pub fn alive(&self) -> bool {
        !matches!(self.stage, Stage::Settled(_))
    }

    /// True when it is settled applied: the server confirmed it, or a re-read showed it.
    pub fn applied(&self) -> bool {
        match &self.stage {
            Stage::Settled(Ending::Done) => true,
            Stage::Settled(Ending::Found { found, .. }) => found.applied(),
            Stage::Held { .. }
            | Stage::Queued
            | Stage::Sending
            | Stage::Lost { .. }
            | Stage::Settled(
                Ending::Already(_)
                | Ending::Refused(_)
                | Ending::Undone
                | Ending::Unknown
                | Ending::Overwritten(_)
                | Ending::NotSent,
            ) => false,
        }
    }

    /// The status `read` (a read of the request after this decision) shows when it
    /// overwrote this decision: an approval or decline settled applied, and the request read
    /// in the other decided status. `None` otherwise (the same status, pending, a delete, a
    /// decision not applied or already said overwritten).
    pub fn overwritten_by(&self, read: Option<&MembershipStatus>) -> Option<MembershipStatus> {
        let ours = self.action.status()?;
        let read = read?;
        let decided = matches!(
            read,
            MembershipStatus::Approved | MembershipStatus::Declined
        );
        (self.applied() && decided && *read != ours).then(|| read.clone())
    }

    /// The one place a decision changes: `event` in its stage gives the next stage and the
    /// audit line to write, if any.
    ///
    /// Errors: [`Illegal`] when the stage does not allow the event; the decision is unchanged.
    pub fn apply(&mut self, event: Event) -> Result<Option<Line>, Illegal> {
        let illegal = Illegal {
            id: self.id,
            stage: self.stage.name(),
            event: event.name(),
        };
        let applied = self.applied();
        let (next, line) = match (&mut self.stage, event) {
            // The write-ahead line: in the audit file before the write leaves.
            (Stage::Held { .. } | Stage::Queued, Event::Send) => {
                (Stage::Sending, Line::new(Outcome::Sending, None))
            }
            (Stage::Held { .. }, Event::Queue) => (Stage::Queued, None),
            (Stage::Held { .. } | Stage::Queued | Stage::Sending, Event::Hold(send_at)) => {
                (Stage::Held { send_at }, None)
            }
            (Stage::Held { .. } | Stage::Queued, Event::Stopped(why)) => (
                Stage::Settled(Ending::NotSent),
                Line::new(Outcome::NotSent, Some(why)),
            ),
            (Stage::Held { .. } | Stage::Queued | Stage::Sending, Event::TakeBack(why)) => (
                Stage::Settled(Ending::Undone),
                Line::new(Outcome::Undone, Some(why)),
            ),
            (Stage::Sending, Event::Answered(answer)) => self.answered(answer),
            (Stage::Sending, Event::Abandon) => (
                Stage::Settled(Ending::Unknown),
                Line::new(Outcome::Unknown, Some(abandoned_detail())),
            ),
            (Stage::Lost { .. }, Event::Abandon) => (Stage::Settled(Ending::Unknown), None),
            (
                Stage::Lost {
                    attempts,
                    next_read,
                    ..
                },
                Event::ReadNow { fresh },
            ) => {
                *next_read = None;
                if fresh {
                    *attempts = 0;
                }
                return Ok(None);
            }
            (
                Stage::Lost { .. },
                Event::Reread {
                    read,
                    now,
                    told_applied,
                },
            ) => return Ok(self.reread(&read, now, told_applied)),
            (Stage::Settled(_), Event::Overwritten(status)) if applied => {
                let detail = overwritten_detail(&status);
                (
                    Stage::Settled(Ending::Overwritten(status)),
                    Line::new(Outcome::Overwritten, Some(detail)),
                )
            }
            // Every other pair of stage and event is a transition the machine does not have.
            _ => return Err(illegal),
        };
        self.stage = next;
        Ok(line)
    }

    fn answered(&self, answer: Answer<()>) -> (Stage, Option<Line>) {
        match answer {
            Answer::Done(()) => (Stage::Settled(Ending::Done), Line::new(Outcome::Ok, None)),
            Answer::Already(status) => {
                let (outcome, detail) = already_line(self.action, &status);
                (
                    Stage::Settled(Ending::Already(status)),
                    Line::new(outcome, Some(detail)),
                )
            }
            // Never left: no connection could be made. Not a failure: it waits.
            Answer::Refused(e) if not_sent(&e) => (
                Stage::Queued,
                Line::new(Outcome::Queued, Some(queued_detail(&e))),
            ),
            // Dropped before it left, never to be sent (a bulk stopped, its audit line
            // not written): not sent, not failed.
            Answer::Refused(e @ ApiError::NotSent(_)) => {
                let detail = error_detail(&e);
                (
                    Stage::Settled(Ending::NotSent),
                    Line::new(Outcome::NotSent, Some(detail)),
                )
            }
            Answer::Refused(e) => {
                let detail = error_detail(&e);
                (
                    Stage::Settled(Ending::Refused(e)),
                    Line::new(Outcome::Failed, Some(detail)),
                )
            }
            Answer::Lost(e) => {
                let detail = lost_detail(&e);
                (
                    Stage::Lost {
                        cause: e,
                        attempts: 0,
                        next_read: None,
                        why: None,
                    },
                    Line::new(Outcome::Unknown, Some(detail)),
                )
            }
        }
    }

    /// A re-read in stage `Lost`: settled by [`settle`], or the next re-read planned after
    /// the [`backoff`].
    fn reread(&mut self, read: &Reread, now: Timestamp, told_applied: bool) -> Option<Line> {
        let Stage::Lost {
            cause,
            attempts,
            next_read,
            why,
        } = &mut self.stage
        else {
            return None;
        };
        let found = match settle(self.action, read) {
            Ok(found) => found,
            Err(still) => {
                *why = Some(still);
                let wait = chrono::Duration::from_std(backoff(*attempts))
                    .unwrap_or_else(|_| chrono::Duration::seconds(30));
                *attempts = attempts.saturating_add(1);
                *next_read = Some(now + wait);
                return None;
            }
        };
        let mut detail = settled_detail(cause, &found);
        // Another session reported that it applied this decision while this write's answer was lost:
        // the re-read cannot tell whose write it shows, so it is not claimed.
        let theirs = found.applied() && self.action != RowAction::Delete && told_applied;
        let outcome = match (theirs, found.applied()) {
            (true, _) => {
                detail = format!(
                    "{detail}; another session had {} it first",
                    self.action.past()
                );
                Outcome::Already
            }
            (false, true) => Outcome::Ok,
            (false, false) => Outcome::Failed,
        };
        let cause = cause.clone();
        self.stage = Stage::Settled(Ending::Found { found, cause });
        Line::new(outcome, Some(detail))
    }
}
