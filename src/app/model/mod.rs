//! The Model: everything the view shows and `update` changes.
//!
//! Modules: [`row`] (one club request), [`queue`] (the rows, view, cursor and counts),
//! [`listing`] (the server's listing and paging), [`club`] (the club lookup pane),
//! [`popup`] (pop-ups and their key tables), [`log`] (activity log and notices),
//! [`inflight`] (calls in flight and the activities they belong to), [`grace`]
//! (the decisions held for their grace period, as a view of the one record of decisions,
//! [`crate::ops::book::Book`]).

pub mod capability;
pub mod club;
pub mod grace;
pub mod inflight;
pub mod link;
pub mod listing;
pub mod log;
pub mod popup;
pub mod queue;
pub mod row;
pub mod words;

mod access;
mod permits;
mod status_line;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use crate::app::call::Calls;
pub use capability::Capabilities;
pub use club::{ClubPane, Loadable};
pub use grace::{Held, HeldDecision};
pub use inflight::{Activities, BulkProgress, BulkTask, MarkAll};
pub use link::Link;
pub use listing::{
    KnownIds, LISTING_END, ListScope, Listing, ListingKey, ListingSupport, SavedScope, listing_key,
};
pub use log::{ActivityLog, LogEntry, NOTICE_ERROR_SECS, NOTICE_SECS, Notice, Severity};
pub use popup::{Popup, PopupKey, PopupOp};
pub use queue::{Queue, QueueSort, QueueStats};
pub use row::{Origin, QueueItem, RowAction, RowState, short_id};

use super::keymap::{Keymap, Offered, Scope};
use crate::api::{Levels, Timestamp, User};

/// How far each scrollable part of the screen can scroll (lines past its top that still
/// leave its last line at the bottom), as the view last drew it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScrollLimits {
    /// The help's or the history's pop-up text (0 when closed).
    pub help: u16,
    /// The club pane's text (a club shown).
    pub club: u16,
    /// The detail pane's text.
    pub detail: u16,
    /// The activity log, in entries from the newest.
    pub log: usize,
}

/// A pane that can have focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The review queue (and its detail pane).
    Queue,
    /// The club lookup.
    Club,
    /// The activity log.
    Log,
}

impl Pane {
    /// The keymap scope of this pane.
    pub fn scope(self) -> Scope {
        match self {
            Pane::Queue => Scope::Queue,
            Pane::Club => Scope::Club,
            Pane::Log => Scope::Log,
        }
    }
}

/// Connection state for the header: what the last call said about the link.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Connection {
    /// Nothing answered yet.
    #[default]
    Unknown,
    /// The last call reached the server (whatever it answered).
    Online,
    /// The last call could not reach the server: the error message.
    Offline(String),
}

/// What is saved between starts for one server (`<state dir>/queue-<server>.json`, 0600):
/// ids added by hand, the filter, the sort and the listing's scope.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedQueue {
    /// The server it belongs to (see [`ModelOptions::server_key`]).
    pub server: String,
    /// Ids added by hand (arguments, file, stdin, pasted), in order; deleted ones left out.
    pub manual_ids: Vec<Uuid>,
    /// The filter text.
    pub filter: String,
    /// The sort.
    #[serde(default)]
    pub sort: QueueSort,
    /// The listing's scope as the server's answers decided it last (so a warm start lists
    /// at once); absent in files written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<SavedScope>,
}

/// Settings the model starts with.
#[derive(Debug, Clone)]
pub struct ModelOptions {
    /// Base URL of the service, shown in the header.
    pub base_url: String,
    /// `--read-only`: refuse every action that changes data, before any call.
    pub read_only: bool,
    /// The keymap (defaults with the config file's overrides).
    pub keymap: Keymap,
    /// A bearer token is configured.
    pub has_token: bool,
    /// When the token expires (the JWT's `exp`, api-notes.md).
    pub token_expires: Option<Timestamp>,
    /// Where to sign in: `{base_url}/auth/oauth/init` (api-notes.md).
    pub sign_in_url: String,
    /// Listing page size, 1..=100 (clamped).
    pub page_size: u32,
    /// The wall clock at start.
    pub now: Timestamp,
    /// Mouse capture on at start.
    pub mouse: bool,
    /// How new requests are announced beyond the status line.
    pub notify: crate::config::NewRequestNotice,
    /// Save a pasted token by default.
    pub save_token: bool,
    /// There is a token file a pasted token can be saved to.
    pub can_save_token: bool,
    /// Ctrl-Z suspends to a shell: true on a local terminal, false in a `serve-ssh` session
    /// (there is no shell to go back to: the key does nothing, and the help leaves it out).
    pub can_suspend: bool,
    /// What the saved queue and the audit entries are keyed by: the base URL, or `demo` for
    /// the in-process demo server (whose port changes at every start). `None`: the base URL.
    pub server_key: Option<String>,
    /// The UI language (`--lang`, config `language`, the locale; English by default).
    pub lang: crate::i18n::Lang,
    /// How years are written (config `year_style`: BE in Thai by default).
    pub year_style: crate::i18n::dates::YearStyle,
    /// Single-key commands also take the Thai (Kedmanee) character of the same key, for a
    /// keyboard left on the Thai layout (config `thai_keys`, on by default).
    pub thai_keys: bool,
    /// Grace period before an approve or decline is sent (`z` takes it back meanwhile);
    /// zero sends at once. At most [`grace::MAX_DECISION_DELAY_SECS`] (config checks it).
    pub decision_delay: std::time::Duration,
    /// How the moderator runs club-admin's commands from where they are, for the hints that
    /// name one (`T`'s `stats --json`, `H`'s `history`): `club-admin` on a local terminal,
    /// `ssh -p PORT HOST` in a `serve-ssh` session.
    pub command: String,
    /// An account the service lets decide nothing (a teacher, an administrator: api-notes.md)
    /// sees the term view (`T`) first, once its scope is known; Esc or `T` goes to the
    /// queue. True in the program; tests of the queue start without it.
    pub review_opens_term: bool,
}

impl ModelOptions {
    /// Defaults for `base_url`: default keymap, a token present, pages of 50, now, no mouse.
    pub fn new(base_url: &str) -> ModelOptions {
        ModelOptions {
            base_url: base_url.to_owned(),
            read_only: false,
            keymap: Keymap::default(),
            has_token: true,
            token_expires: None,
            sign_in_url: format!("{}/auth/oauth/init", base_url.trim_end_matches('/')),
            page_size: 50,
            now: chrono::Utc::now(),
            mouse: false,
            notify: crate::config::NewRequestNotice::Off,
            save_token: false,
            can_save_token: false,
            can_suspend: true,
            server_key: None,
            lang: crate::i18n::Lang::English,
            year_style: crate::i18n::dates::YearStyle::Ce,
            thai_keys: true,
            decision_delay: std::time::Duration::from_secs(grace::DEFAULT_DECISION_DELAY_SECS),
            command: "club-admin".to_owned(),
            review_opens_term: true,
        }
    }
}

/// The window of decisions on their way before the limiter has reported its limit: the
/// default `--concurrency` (config).
pub const DEFAULT_WRITE_WINDOW: usize = 8;

/// Smallest terminal (columns, rows) on which the dashboard draws the queue: a phone held
/// upright (40 columns) gets the narrow layout ([`NARROW_WIDTH`]); 15 rows, as before the
/// narrow layout, so no window that showed the queue stops showing it. Below it the view
/// draws only a notice, and `update` lets no key act but quit, redraw and suspend: nothing is
/// decided from a row, pop-up or prompt the moderator cannot see.
pub const MIN_SIZE: (u16, u16) = (40, 15);

/// Terminals narrower than this many columns get the narrow layout: one pane at a time (the
/// queue first; the request's detail and the club lookup open over it and `Esc` closes them
/// back to it), a one-line header and a hint bar of the few keys that matter there.
pub const NARROW_WIDTH: u16 = 60;

/// Whether a terminal `width` columns wide gets the narrow layout ([`NARROW_WIDTH`]).
pub fn is_narrow(width: u16) -> bool {
    width < NARROW_WIDTH
}

/// Whether a terminal of `width` x `height` cells shows the queue (at least [`MIN_SIZE`]).
/// The view and `update` both ask this, so what is drawn and what keys may do never differ.
pub fn shows_queue(width: u16, height: u16) -> bool {
    width >= MIN_SIZE.0 && height >= MIN_SIZE.1
}

/// The whole state of the dashboard.
#[derive(Debug, Clone)]
pub struct Model {
    /// Base URL of the service.
    pub(crate) base_url: String,
    /// Key of this server in the saved queue and the audit file (see [`ModelOptions`]).
    pub(crate) server_key: String,
    /// Where to sign in.
    pub(crate) sign_in_url: String,
    /// `--read-only`.
    pub(crate) read_only: bool,
    /// The signed-in user.
    pub(crate) user: Loadable<User>,
    /// `api_version` of the last answer (sanitised).
    pub(crate) api_version: Option<String>,
    /// A token is set.
    pub(crate) has_token: bool,
    /// Token expiry from `exp`.
    pub(crate) token_expires: Option<Timestamp>,
    /// A 401 said the session is over; cleared by signing in.
    pub(crate) session_expired: bool,
    /// The answer being applied said the session is over, the first time: the status line
    /// says so once the answer is applied (`update::tell_expired`).
    pub(crate) expired_now: Option<crate::api::AuthErrorKind>,
    /// The request id of the first call sent with the token in use (0: the token the
    /// model started with). A 401 answering an earlier call (sent with no token or an older
    /// one, answered after a sign-in) says nothing about this token.
    pub(crate) token_from: u64,
    /// The request id of the check of a pasted token (while it is in flight, a 401 answering
    /// an earlier call waits for the check's answer).
    pub(crate) signing_from: u64,
    /// The request id of the answer being applied (0 outside an answer).
    pub(crate) answering: u64,
    /// Header connection state.
    pub(crate) connection: Connection,
    /// The queue.
    pub(crate) queue: Queue,
    /// Listing state.
    pub(crate) listing: Listing,
    /// Fetch levels for reading requests (default / compact: a student moderator may read
    /// students at `compact` only outside their classroom, api-notes.md).
    pub(crate) levels: Levels,
    /// Focused pane.
    pub(crate) focus: Pane,
    /// Open pop-up.
    pub(crate) popup: Option<Popup>,
    /// Club pane.
    pub(crate) club: ClubPane,
    /// Activity log.
    pub(crate) log: ActivityLog,
    /// The keymap.
    pub(crate) keymap: Keymap,
    /// Wall clock (set by ticks; keeps `view` deterministic).
    pub(crate) now: Timestamp,
    /// Terminal size (columns, rows).
    pub(crate) size: (u16, u16),
    /// Rows of the queue table last drawn (for paging).
    pub(crate) page_rows: usize,
    /// How far each scrollable part can scroll, as last drawn (`Msg::Scrolled`): scrolling
    /// stops at the last line; `None` before the first frame.
    pub(crate) scroll_limits: Option<ScrollLimits>,
    /// The detail pane's scroll (`J`/`K`), for the row `detail_row` (another row starts at
    /// its top).
    pub(crate) detail_scroll: u16,
    /// The row the detail pane's scroll belongs to.
    pub(crate) detail_row: Option<Uuid>,
    /// The narrow layout shows the selected request's detail over the queue (`Enter` opens
    /// it, `Esc` closes it; wider layouts show the detail beside the queue and ignore it).
    pub(crate) detail_open: bool,
    /// Listing page size, 1..=100.
    pub(crate) page_size: u32,
    /// Mouse capture on.
    pub(crate) mouse: bool,
    /// Save pasted tokens by default.
    pub(crate) save_token: bool,
    /// A pasted token can be saved.
    pub(crate) can_save_token: bool,
    /// Ctrl-Z suspends ([`ModelOptions::can_suspend`]).
    pub(crate) can_suspend: bool,
    /// How club-admin's commands are run from here ([`ModelOptions::command`]).
    pub(crate) command: String,
    /// The UI language.
    pub(crate) lang: crate::i18n::Lang,
    /// How years are written.
    pub(crate) year_style: crate::i18n::dates::YearStyle,
    /// Thai-layout characters work as their keys (see [`ModelOptions::thai_keys`]).
    pub(crate) thai_keys: bool,
    /// What the server lets this account do (approve and decline or not).
    pub(crate) capabilities: Capabilities,
    /// The user asked to quit.
    pub(crate) quitting: bool,
    /// `q` was pressed once while actions were in flight; a second `q` quits.
    pub(crate) quit_armed: bool,
    /// Grace period before an approve or decline is sent (zero: at once).
    pub(crate) decision_delay: std::time::Duration,
    /// "Send now" was chosen on quitting with decisions held: quit once no write is in
    /// flight.
    pub(crate) quit_when_sent: bool,
    /// When "send now" was chosen: decisions answered since then that were not applied
    /// keep the program open (the moderator is shown them first).
    pub(crate) quit_since: Option<Timestamp>,
    /// Every decision of this dashboard, one per request, in its stage (held, sending, lost,
    /// settled): the one record a row's marker, the held countdown, a bulk action's progress
    /// and the re-reads of lost answers are derived from.
    pub(crate) decisions: crate::ops::book::Book,
    pub(crate) recovering: Option<u64>, // an interrupted run's batch ([`crate::ops::recover`])
    /// Decisions held before another account signed in, not sent (shown once it is read).
    pub(crate) not_sent_on_switch: usize,
    /// The server is slow: the limiter cut its limit of calls in flight (`Msg::Pace`).
    pub(crate) server_slow: bool,
    /// The limit of calls in flight, as the client's limiter last reported (`Msg::Pace`):
    /// the window of decisions handed to the connection at once ([`Model::write_window`]).
    pub(crate) window: Option<usize>,
    /// The host budget as the client last reported (`Msg::Budget`): refused, or one at a time.
    pub(crate) budget: crate::api::budget::BudgetStatus,
    /// Calls the client really has on the wire (sent and not yet answered), as its limiter
    /// last reported (`Msg::Pace`); `None` until it reports (a driver without a worker).
    pub(crate) sent: Option<usize>,
    pub(crate) calls: Calls,
    pub(crate) activities: Activities,
    pub(crate) notice: Option<Notice>,
    /// Sequence number of status-line events (notices and activities): the newest shows.
    pub(crate) seq: u64,
    /// The sequence number and the log's length when the message being applied arrived:
    /// what is said and logged during one message is kept apart from what came before.
    pub(crate) began: (u64, usize),
    /// [`Queue::persist_version`] when the saved part was last compared.
    pub(crate) saved_version: u64,
    /// The saved part as last handed out for saving (or restored).
    pub(crate) last_saved: Option<SavedQueue>,
    /// Ids added by hand in this session (`i`, `:add`, a paste, arguments) not read yet:
    /// once read, whether the filter hides them is shown. The restored
    /// queue is not among them: its restore says the filter already.
    pub(crate) added_unread: std::collections::HashSet<Uuid>,
    /// Reads lost while the server could not be reached, and the retry schedule.
    pub(crate) link: Link,
    /// Since when calls have been in flight without a break (set at the first tick).
    pub(crate) busy_since: Option<Timestamp>,
    /// The pending count the terminal title last said ([`crate::app::Effect::Title`]).
    pub(crate) title: Option<u64>,
    /// How new requests are announced beyond the status line ([`ModelOptions::notify`]).
    pub(crate) notify: crate::config::NewRequestNotice,
    /// New requests to announce ([`crate::app::Effect::Notify`]), with their text.
    pub(crate) notify_due: Option<String>,
    /// Decisions of this dashboard a read showed overwritten since (the request and the
    /// status read), to be settled so and shown once the message is applied.
    pub(crate) overwritten_due: Vec<(uuid::Uuid, crate::api::MembershipStatus)>,
    /// The team's history as the audit file last read says ([`crate::ops::history`]: one
    /// row per write of this server, newest first): the history pop-up (`H`) and the
    /// detail's own lines read it. Shared, not copied: `serve-ssh`'s sessions hold the one
    /// read of the host's audit ([`crate::ops::history::RecentRows`]).
    pub(crate) history: Loadable<std::sync::Arc<[crate::ops::history::Row]>>,
    /// A read of the audit file for the history is on its way ([`crate::app::Effect::ReadHistory`]).
    pub(crate) history_reading: bool,
    /// Something was written (or heard) since that read began: read again once it is back.
    pub(crate) history_again: bool,
    /// The term's figures as last computed ([`crate::ops::stats::figures`]: the scope's
    /// requests, every status, and the history's rows), for the term view (`T`).
    pub(crate) term: Loadable<std::sync::Arc<crate::ops::stats::Figures>>,
    /// A whole read of the scope's requests for the term is on its way
    /// ([`crate::app::Effect::ReadTerm`], [`crate::app::TermAsk::Whole`]).
    pub(crate) term_reading: bool,
    /// The scope's requests of the last whole read for the term, and the UTC offset of its
    /// days, kept up to date while the view is open by the queue's own answers: the figures
    /// are computed again from them when they change and when the history is read again.
    pub(crate) term_read: Option<(
        std::sync::Arc<Vec<crate::api::ClubRequest>>,
        chrono::FixedOffset,
    )>,
    /// How the open view follows the queue's reads (`app/update/term.rs`).
    pub(crate) term_follow: TermFollow,
    /// The term view is still to open first for an account that may only review
    /// ([`ModelOptions::review_opens_term`]).
    pub(crate) review_opens_term: bool,
    /// The scope's filter of the read on its way or last made for the term.
    pub(crate) term_filter: Option<crate::api::RequestFilter>,
}

/// How the open term view follows the queue's own reads between its whole reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermFollow {
    /// Pending requests of [`Model::term_read`] that a page of the queue's listing no longer
    /// holds (decided or deleted since): read by id once the queue's reads are in.
    pub(crate) left: std::collections::BTreeSet<uuid::Uuid>,
    /// The service's count of the scope's pending requests on the last page 1 followed, to
    /// be checked against the view's once the queue's reads are in.
    pub(crate) count: Option<u64>,
    /// [`Model::term_read`] changed since the figures were computed.
    pub(crate) changed: bool,
    /// A read by id or of the pending pages is on its way.
    pub(crate) reading: bool,
}

impl Model {
    /// The term's figures as last computed, for the term view ([`Model::term`]).
    pub fn term(&self) -> &Loadable<std::sync::Arc<crate::ops::stats::Figures>> {
        &self.term
    }

    /// True while a read of the scope's requests for the term is on its way: a whole read,
    /// or one that brings the open view up to date.
    pub fn term_reading(&self) -> bool {
        self.term_reading || self.term_follow.reading
    }

    /// The team's history as last read ([`Model::history`]'s rows, newest first).
    pub fn history(&self) -> &Loadable<std::sync::Arc<[crate::ops::history::Row]>> {
        &self.history
    }

    /// The action of `k` in the focused pane; with `thai_keys`, a Thai character no binding
    /// names is tried as the key it sits on in the Kedmanee layout (ฟ is `a`, ป is `x`), so a
    /// keyboard left on the Thai layout does not get in the way. Only ever outside text fields.
    pub fn action_for(&self, k: &crate::app::key::Key) -> Option<crate::app::keymap::Action> {
        let scope = self.focus.scope();
        self.keymap.lookup(scope, k).or_else(|| {
            let crate::app::key::KeyCode::Char(c) = k.code else {
                return None;
            };
            let q =
                crate::i18n::kedmanee::qwerty_for(c).filter(|_| self.thai_keys && k.is_text())?;
            self.keymap.lookup(scope, &crate::app::key::Key::char(q))
        })
    }

    /// Keeps every scroll within what was last drawn (`scroll_limits`, from the view):
    /// nothing scrolls past its last line, so the way back is as long as the way there.
    /// Called by `update` only.
    pub fn clamp_scrolls(&mut self) {
        let Some(l) = self.scroll_limits else {
            return;
        };
        if let Some(
            Popup::Help { scroll, .. } | Popup::History { scroll, .. } | Popup::Term { scroll, .. },
        ) = self.popup.as_mut()
        {
            *scroll = (*scroll).min(l.help);
        }
        self.club.scroll = self.club.scroll.min(l.club);
        self.detail_scroll = self.detail_scroll.min(l.detail);
        self.log.scroll = self.log.scroll.min(l.log);
    }

    /// A fresh model.
    pub fn new(o: ModelOptions) -> Self {
        Model {
            server_key: o.server_key.unwrap_or_else(|| o.base_url.clone()),
            base_url: o.base_url,
            sign_in_url: o.sign_in_url,
            read_only: o.read_only,
            user: Loadable::NotAsked,
            api_version: None,
            has_token: o.has_token,
            token_expires: o.token_expires,
            session_expired: false,
            expired_now: None,
            token_from: 0,
            signing_from: 0,
            answering: 0,
            connection: Connection::Unknown,
            queue: Queue::default(),
            listing: Listing::default(),
            levels: Levels::REQUEST_ROW,
            focus: Pane::Queue,
            popup: None,
            club: ClubPane::default(),
            log: ActivityLog::default(),
            keymap: o.keymap,
            now: o.now,
            size: (120, 40),
            page_rows: 20,
            scroll_limits: None,
            detail_scroll: 0,
            detail_row: None,
            detail_open: false,
            page_size: o.page_size.clamp(1, 100),
            mouse: o.mouse,
            notify: o.notify,
            notify_due: None,
            term: Loadable::NotAsked,
            term_reading: false,
            term_read: None,
            term_follow: TermFollow::default(),
            overwritten_due: Vec::new(),
            term_filter: None,
            history: Loadable::NotAsked,
            history_reading: false,
            history_again: false,
            save_token: o.save_token && o.can_save_token,
            can_save_token: o.can_save_token,
            can_suspend: o.can_suspend,
            command: o.command,
            review_opens_term: o.review_opens_term,
            lang: o.lang,
            year_style: o.year_style,
            thai_keys: o.thai_keys,
            capabilities: Capabilities::default(),
            quitting: false,
            quit_armed: false,
            recovering: None,
            decision_delay: o.decision_delay,
            quit_when_sent: false,
            quit_since: None,
            decisions: crate::ops::book::Book::default(),
            not_sent_on_switch: 0,
            server_slow: false,
            window: None,
            budget: Default::default(),
            sent: None,
            calls: Calls::default(),
            activities: Activities::default(),
            notice: None,
            seq: 0,
            began: (0, 0),
            saved_version: 0,
            last_saved: None,
            added_unread: std::collections::HashSet::new(),
            link: Link::default(),
            busy_since: None,
            title: None,
        }
    }

    /// When the event loop should send `Msg::Retry` (wall clock): set while the server
    /// cannot be reached (1 s after the first failure, backing off to 30 s), and while a
    /// write whose answer was lost waits for its next re-read (the same backoff).
    pub fn retry_at(&self) -> Option<Timestamp> {
        [
            self.link.retry_at,
            self.decisions.next_read(),
            self.club.writes.next_read(),
            self.listing.retry_at,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// True while API calls are in flight (the runtime ticks only then, for the spinner).
    pub fn busy(&self) -> bool {
        !self.calls.is_empty()
    }

    /// True while the screen changes by itself: calls in flight (the spinner), decisions
    /// held (their countdown) or writes waiting for a re-read (its countdown in the detail
    /// pane). The runtime ticks only then.
    pub fn animating(&self) -> bool {
        self.busy() || self.decisions.iter().any(|d| d.alive())
    }

    /// The decisions held for the grace period, by batch, oldest first (a view of
    /// [`Model::decisions`]).
    pub fn held(&self) -> Held {
        Held::of(&self.decisions)
    }

    /// Every decision of this dashboard, one per request ([`crate::ops::book::Book`]).
    pub fn decisions(&self) -> &crate::ops::book::Book {
        &self.decisions
    }

    /// The decision shown on the row `id` while it is held or on its way ("approving…").
    pub fn deciding(&self, id: Uuid) -> Option<RowAction> {
        self.decisions.deciding(id)
    }

    /// True when a decision can still be asked on the row: no decision of this dashboard is
    /// held or on its way for it, and its state and status allow one
    /// ([`QueueItem::is_actionable`]).
    pub fn actionable(&self, item: &QueueItem) -> bool {
        self.deciding(item.id).is_none() && item.is_actionable()
    }

    /// Writes still waiting for the server: calls in flight that change data, and re-reads
    /// that will settle a write whose answer was lost.
    pub fn writes_pending(&self) -> usize {
        self.calls
            .iter()
            .filter(|c| c.is_mutation() || c.rows_read().iter().any(|id| self.outcome_unknown(*id)))
            .count()
    }

    /// How many decisions may be on their way at once (written `sending` and handed to the
    /// connection): the limiter's limit as last reported, else [`DEFAULT_WRITE_WINDOW`]. A
    /// bulk's other rows wait queued in the table of decisions, not in the audit.
    pub fn write_window(&self) -> usize {
        self.window.unwrap_or(DEFAULT_WRITE_WINDOW).max(1)
    }

    /// How long calls have been in flight without a break, by the model's clock (ticks come
    /// every 120 ms while they are); `None` when nothing is in flight or no tick came yet.
    pub fn busy_for(&self) -> Option<chrono::Duration> {
        self.busy_since.map(|t| self.now - t)
    }

    /// API calls really on the wire: as the client's limiter last reported (`Msg::Pace`), never
    /// more than the calls awaited; calls queued behind the limit are not counted. Before the
    /// limiter reports (a driver without a worker): the calls awaited.
    pub fn in_flight(&self) -> usize {
        match self.sent {
            Some(n) => n.min(self.calls.len()),
            None => self.calls.len(),
        }
    }

    /// API calls awaited: on the wire, or queued behind the limit of calls in flight.
    pub fn awaited(&self) -> usize {
        self.calls.len()
    }

    /// The calls in flight (in no particular order).
    pub fn awaiting(&self) -> impl Iterator<Item = &crate::app::call::ApiCall> {
        self.calls.iter()
    }

    /// The call in flight with this request id; `None` once it is answered (or never was).
    pub fn awaited_call(&self, request_id: u64) -> Option<&crate::app::call::ApiCall> {
        self.calls.get(request_id)
    }

    /// The bulk action under way, if any.
    pub fn bulk(&self) -> Option<BulkProgress> {
        self.activities
            .bulk
            .as_ref()
            .map(|b| b.progress(&self.decisions))
    }

    /// True while the outcome of a decision on `id` is unknown (its answer was lost; the
    /// row re-reads itself until the server's status tells).
    pub fn outcome_unknown(&self, id: Uuid) -> bool {
        self.decisions.lost_action(id).is_some()
    }

    /// The detail pane's scroll for the selected row (0 for a row not scrolled).
    pub fn detail_scroll_now(&self) -> u16 {
        let selected = self.queue.selected().map(|i| i.id);
        if selected.is_some() && selected == self.detail_row {
            self.detail_scroll
        } else {
            0
        }
    }

    /// The snapshot saved for the next start.
    pub fn saved_queue(&self) -> SavedQueue {
        SavedQueue {
            server: self.server_key.clone(),
            manual_ids: self
                .queue
                .items()
                .iter()
                .filter(|i| i.origin == Origin::Manual && !matches!(i.state, RowState::Deleted))
                .map(|i| i.id)
                .collect(),
            filter: self.queue.filter().to_owned(),
            sort: self.queue.sort(),
            scope: self.listing.remembered.clone(),
        }
    }

    /// The club's name, in the reader's language, when every request of `ids` is of one
    /// named club (for "approve 51 requests of Computer Club?"); `None` when they are of
    /// several, or a club is unknown.
    pub fn one_club(&self, ids: &[Uuid]) -> Option<String> {
        let first = self
            .queue
            .get(*ids.first()?)?
            .request
            .as_ref()?
            .club
            .as_ref()?;
        let thai = self.lang == crate::i18n::Lang::Thai;
        let mut name = None;
        for id in ids {
            let item = self.queue.get(*id)?;
            let club = item.request.as_ref()?.club.as_ref()?;
            if club.id != first.id {
                return None;
            }
            name = name.or_else(|| item.club_name_for(thai).map(str::to_owned));
        }
        name.or_else(|| self.listing.club_names.get(&first.id).cloned())
            .map(|n| crate::text::clean(&n, 40))
    }

    /// The next sequence number for the status line.
    pub(crate) fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }
}
