//! The dashboard's traffic with its runtime, in one place: [`Msg`] in (keys, answers of the
//! worker, timers and start-up input), [`Effect`] out (the work `update` hands out: API
//! calls to the worker, the rest (files, clipboard, terminal) to the effect runner). The
//! API calls and their answers are declared in [`super::call`].

use secrecy::SecretString;

use super::call::{Answer, ApiCall};
use super::key::Key;
use super::model::{Pane, SavedQueue};
use crate::api::Timestamp;

pub use crate::ops::audit::{AuditEntry, Outcome};

/// Audit lines of earlier sessions shown in the activity log at start: the newest 500 for
/// this server (a day of heavy moderation; older lines stay in the file).
pub const HISTORY_LINES: usize = 500;

/// What another dashboard of the same server (another `serve-ssh` session) did to a
/// request, as the sessions tell each other: every session then shows it at once, without
/// waiting for its next refresh.
#[derive(Debug, Clone, PartialEq)]
pub struct Told {
    /// The club request.
    pub id: uuid::Uuid,
    /// What happened to it.
    pub heard: Heard,
    /// Who did it (the signed-in account's e-mail), when known.
    pub by: Option<String>,
    /// When (the telling session's clock).
    pub at: Timestamp,
}

/// What a [`Told`] (a report from another session) says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heard {
    /// A decision is held in its grace period (not sent yet; it may still be taken back).
    Held(super::model::RowAction),
    /// A held or sent decision ended without changing the request (taken back, refused,
    /// its outcome unknown).
    Released,
    /// The server applied the decision (or had it already: `already`).
    Decided(super::model::RowAction),
}

impl Told {
    /// What an audit line tells the other sessions: `ok` is the decision applied by this
    /// session's write; `already` (someone else's write applied it: this session only learnt
    /// it), `undone`, `failed`, `conflict` or `unknown` end a decision that was held or sent
    /// without this session changing the request (a contact's line tells nothing). So one
    /// write is reported applied once, by the session whose write it was. A `sending` line
    /// tells nothing (the decision was reported held when it was made).
    pub fn from_audit(e: &AuditEntry) -> Option<Told> {
        let action = crate::ops::RowAction::from_verb(&e.action)?;
        let heard = match e.outcome {
            // The write-ahead line: the decision was reported held already.
            Outcome::Sending => return None,
            Outcome::Ok => Heard::Decided(action),
            // What the server kept since: the others read it for themselves.
            Outcome::Overwritten => return None,
            Outcome::Already
            | Outcome::NotSent
            | Outcome::Undone
            | Outcome::Failed
            | Outcome::Conflict
            | Outcome::Unknown => Heard::Released,
            // Not sent yet: it waits for the service, the row still decided here.
            Outcome::Queued => return None,
        };
        Some(Told {
            id: e.target,
            heard,
            by: e.user.clone(),
            at: e.at,
        })
    }
}

/// Who tries a read again when it fails on the way (no connection, a time-out, a gateway's
/// 502-504): one policy per read, never two nested (tries would multiply). Writes are never
/// tried again by anyone (a lost answer is settled by re-reading).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tries {
    /// The client's own retries ([`crate::api::ApiClient`]'s GET: 2 more tries, jittered
    /// backoff from 200 ms): a page of the listing, the user, a row, a club, the probe,
    /// read for the first time.
    Client,
    /// One try: `update` tries it again by its own rule. A lost write's re-reads (with the
    /// shared backoff, [`crate::ops::decision::backoff`]), and every read the link probes
    /// with or sends again while the server cannot be reached (the same backoff,
    /// `app/update/link.rs`).
    Once,
}

/// Why a dashboard ends without its moderator's `q`: what its writes kept from leaving
/// are audited with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndedBy {
    /// Its terminal hung up, or the program got SIGTERM (the dashboard ended).
    HangUp,
    /// Its `serve-ssh` server stopped (stopped, restarted or upgraded by its operator).
    ServerStopped,
}

/// What a read for the term's figures reads ([`Effect::ReadTerm`]).
#[derive(Debug, Clone)]
pub enum TermAsk {
    /// Every page of the scope's requests, every status ([`crate::ops::stats::read_pages`]).
    Whole,
    /// This earlier read brought up to date by the scope's pending pages
    /// ([`crate::ops::stats::refresh_pages`]): when the service's count of pending requests
    /// differs from the view's once it followed the queue's reads.
    Pending(std::sync::Arc<Vec<crate::api::ClubRequest>>),
    /// These requests, by id ([`crate::ops::stats::read_by_id`]): pending ones that left
    /// the queue's pages while the view followed them.
    ById(Vec<uuid::Uuid>),
}

/// Everything that can happen to the model. `update` is its only reader.
///
/// (Variants differ in size; each message is moved once through a channel, so boxing the
/// large ones would only add allocations.)
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Msg {
    /// A key press (the runtime drops releases and converts the terminal's event).
    Key(Key),
    /// Another session of the same server did something to a request ([`Told`]).
    Heard(Told),
    /// Bracketed paste: the text as pasted (control characters are flattened by `update`).
    Paste(String),
    /// The mouse wheel turned one notch (only when mouse capture is on): `down` or up.
    Wheel {
        /// True for towards the user (scroll down).
        down: bool,
    },
    /// A left click, already placed by the view's own geometry (`ui::tap`): the pane
    /// under it and, in the queue, the row counted from the first row drawn.
    Click {
        /// The pane clicked.
        pane: Pane,
        /// Queue row from the top of the drawn rows, when a row was clicked.
        row: Option<usize>,
    },
    /// The terminal changed size (columns, rows).
    Resize(u16, u16),
    /// The view drew the queue with this many rows (for paging and scrolling).
    Layout {
        /// Rows of the queue table.
        queue_rows: usize,
    },
    /// The view drew the scrollable parts: how far each can scroll (sent by the event loop
    /// after a frame when it changed). Scrolling stops there.
    Scrolled(super::model::ScrollLimits),
    /// Wall-clock time: sent before every batch of messages and every frame, and every
    /// 120 ms while calls are in flight or decisions are held (the spinner, the countdown).
    /// Ages, the token's time left and the end of a grace period are computed from it.
    Tick(Timestamp),
    /// The dashboard is running again after a suspend (Ctrl-Z, then `fg`), at this
    /// wall-clock time: sent by the event loop as soon as the suspend returns, before any
    /// tick. Decisions whose grace period ran out meanwhile are not sent by themselves: the
    /// moderator is asked (send now, keep holding, discard).
    Resumed(Timestamp),
    /// The auto-refresh timer fired (`--auto-refresh`, at least 5 s apart).
    AutoRefresh,
    /// The retry timer fired, at this wall-clock time: sent by the event loop at
    /// [`super::Model::retry_at`] while the server cannot be reached (1 s after the first
    /// failure, backing off to 30 s). Reads lost meanwhile are sent again once the server
    /// answers; writes never are.
    Retry(Timestamp),
    /// Ids from the command line, `--queue-file`, standard input or `:add`.
    AddIds {
        /// Raw text: any mix of whitespace, commas, newlines.
        text: String,
        /// Where it came from, for the status line and the activity log.
        origin: IdsFrom,
    },
    /// The saved queue state for this server (restored at start).
    Restore(SavedQueue),
    /// Decisions of earlier sessions on this server, from the audit file, oldest first
    /// (at most [`HISTORY_LINES`]).
    History(Vec<AuditEntry>),
    /// The writes interrupted runs left open in the audit file ([`crate::ops::recover`]:
    /// their last line, `sending` or `unknown`, oldest first), claimed for this dashboard:
    /// each decision is re-read until the server's status tells, audited with that run's
    /// id, and the summary is shown once all are settled.
    Interrupted(Vec<AuditEntry>),
    /// The audit file read back for the team's history ([`Effect::ReadHistory`]): one row
    /// per write ([`crate::ops::history::read`]; shared: the rows of one read are handed to
    /// every session that asked), or why it could not be read.
    HistoryRead(Result<std::sync::Arc<[crate::ops::history::Row]>, String>),
    /// The scope's requests, every status, read for the term's figures
    /// ([`Effect::ReadTerm`]), or why they could not be read.
    TermRead {
        /// The requests (of a read by id, those of its ids the service still lists), or the
        /// error message.
        read: Result<Vec<crate::api::ClubRequest>, String>,
        /// What was asked ([`Effect::ReadTerm`]'s).
        ask: TermAsk,
        /// The local UTC offset in seconds, for the days of the figures (the school's
        /// local time: `+25200` in Bangkok).
        offset_secs: i32,
    },
    /// A start-up warning (a secret file others can read), for the status line and the
    /// activity log.
    Warning(crate::config::ReadableSecret),
    /// The client's limit of calls in flight, or the calls on the wire, changed:
    /// `slowed` while it is cut
    /// back below a level it reached (time-outs, 5xx answers, a jump in latency): the server
    /// is slow, and a bulk action's progress says so.
    Pace {
        /// Calls allowed in flight now.
        limit: usize,
        /// True while the limit is cut back.
        slowed: bool,
        /// Calls on the wire now (sent, not yet answered; calls waiting for room under the
        /// limit are not counted): the status line's "N in flight".
        in_flight: usize,
    },
    /// The host budget changed ([`crate::api::budget::BudgetStatus`], from the client's
    /// budget through the worker): what of it was refused at start (a start-up warning,
    /// shown once), whether calls go one at a time while other processes hold every slot.
    Budget(crate::api::budget::BudgetStatus),
    /// An API call finished.
    Api {
        /// The id `update` gave the call; answers to calls no longer awaited are dropped.
        request_id: u64,
        /// The answer, with what it is for.
        answer: Answer,
    },
    /// The program is ending on a hang-up, SIGTERM or its server's stop ([`EndedBy`]): send
    /// every held decision now (the moderator meant them); writes queued for their turn are
    /// not sent, audited with why. The runtime then applies answers until no write is
    /// pending (or the client's timeout passes) and ends with [`Msg::Stop`].
    Flush(EndedBy),
    /// The program ends now (after [`Msg::Flush`] on a signal): writes still unanswered are
    /// audited with outcome `unknown`, decisions still held are discarded (`undone`).
    Stop,
    /// A local side effect failed (saving the token, writing the audit file or the saved
    /// queue): shown on the status line.
    EffectFailed {
        /// What it was.
        what: LocalEffect,
        /// The error message (never holds a secret).
        error: String,
    },
}

/// Where ids added to the queue came from ([`Msg::AddIds`]), named in the reader's language
/// on the status line (`status-origin-*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdsFrom {
    /// Pasted into the queue (bracketed paste).
    Paste,
    /// Typed or pasted into the `i` pop-up.
    Dialog,
    /// The `:add` command.
    Command,
    /// Ids given as arguments to `club-admin`.
    Arguments,
    /// Piped into standard input.
    Stdin,
    /// A `--queue-file`: its path as given.
    File(String),
}

impl IdsFrom {
    /// English words for logs: "a paste", "the i dialog", ":add", "the command line",
    /// "standard input", or the file's path.
    pub fn english(&self) -> &str {
        match self {
            IdsFrom::Paste => "a paste",
            IdsFrom::Dialog => "the i dialog",
            IdsFrom::Command => ":add",
            IdsFrom::Arguments => "the command line",
            IdsFrom::Stdin => "standard input",
            IdsFrom::File(path) => path,
        }
    }
}

/// A local side effect of the runtime that can fail ([`Msg::EffectFailed`]), named in the
/// reader's language on the status line (`status-effect-*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalEffect {
    /// Writing the token file (0600).
    SavingToken,
    /// Appending to the audit file.
    AuditFile,
    /// Writing the saved queue.
    SavingQueue,
}

/// Work handed out of `update`.
#[derive(Debug)]
pub enum Effect {
    /// Run an API call; its answer comes back as [`Msg::Api`] with the same
    /// `request_id`.
    Api {
        /// Correlation id, unique for the life of the model.
        request_id: u64,
        /// The call, with what its answer is for.
        call: ApiCall,
        /// Who tries a read again: the client, or `update` by a rule of its own.
        tries: Tries,
    },
    /// Use this bearer token from now on (every call after this one).
    SetToken(SecretString),
    /// Save the token to the token file (mode 0600).
    SaveToken(SecretString),
    /// Append one line to the audit file.
    Audit(AuditEntry),
    /// Read the audit file back for the team's history, off the event loop: its last
    /// `max_bytes` ([`crate::ops::history::read_recent`]); the rows come back as
    /// [`Msg::HistoryRead`].
    ReadHistory {
        /// How much of the file's end to read, in bytes.
        max_bytes: u64,
    },
    /// Read the scope's requests for the term's figures off the event loop, as `ask` says
    /// (every page, the pending pages, or some by id; on the dashboard's client: over
    /// `serve-ssh`, the sessions' reads of one scope are shared); the answer comes back as
    /// [`Msg::TermRead`].
    ReadTerm {
        /// The scope's filter, every status.
        filter: crate::api::RequestFilter,
        /// Requests a page.
        page_size: u32,
        /// What to read.
        ask: TermAsk,
    },
    /// The saved part of the queue changed (emitted by `update` itself when it differs
    /// from the last one emitted): the runner writes it after a short quiet spell, and on
    /// exit.
    SaveQueue(SavedQueue),
    /// Put text on the user's clipboard with OSC 52 (works over SSH).
    Copy(String),
    /// Turn mouse capture on or off.
    SetMouse(bool),
    /// Announce new requests beyond the status line: the terminal's bell, or a desktop
    /// notice with this text (OSC 9) when `osc9` (`--notify`).
    Notify {
        /// A desktop notice (OSC 9) rather than the bell.
        osc9: bool,
        /// What it says ("club-admin: 2 new requests").
        text: String,
    },
    /// Tell the other sessions of the same server (`serve-ssh`) what this one did to
    /// requests; nothing to do for a dashboard alone. (Applied decisions are reported from
    /// the audit lines themselves: [`Told::from_audit`].)
    Tell(Vec<Told>),
    /// Set the terminal's title (OSC 2): the pending count, so a moderator sees the queue
    /// from another window or tab (the title the terminal had is given back on exit).
    Title(String),
    /// Clear and redraw the whole screen.
    Redraw,
    /// Give the terminal back and stop the program (SIGTSTP, as Ctrl-Z does in a shell);
    /// on `fg` take the terminal again and redraw it whole.
    Suspend,
    /// Leave the program.
    Quit,
}
