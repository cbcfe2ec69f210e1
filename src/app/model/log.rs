//! The activity log (what ran, when, against what, with what outcome) and the status line's
//! notices.

use uuid::Uuid;

use crate::api::Timestamp;
use crate::i18n::Lang;
use crate::ops::audit::{AuditEntry, Outcome};

/// Entries kept in memory. A heavy day of moderation writes about 2,000; past the cap the
/// oldest [`LOG_TRIM`] go at once, so trimming is rare. The audit file keeps everything.
pub const LOG_CAP: usize = 5000;
/// Entries dropped at once when the log passes [`LOG_CAP`].
pub const LOG_TRIM: usize = 1000;

/// One entry of the activity log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// When the outcome became known (for earlier sessions: when it was audited).
    pub at: Timestamp,
    /// What ran, as a code (not translated: the audit file's action names are the same):
    /// `approve`, `decline`, `delete`, `add-contact`, `sign-in`, `signed in`, `start`,
    /// `capability`, `add ids`. The log pane shows it in the reader's language
    /// (`log-what-*`), or as it is when it has no words.
    pub what: String,
    /// The club request or club, when any.
    pub target: Option<Uuid>,
    /// "student → club", an e-mail or a contact, sanitised, in the reader's language.
    pub label: String,
    /// How it ended.
    pub outcome: Outcome,
    /// Why, when not `ok` (the server's `detail` or the error message), sanitised, in the
    /// reader's language (the server's own words as given).
    pub detail: Option<String>,
}

/// The words of a [`LogEntry::what`] code in `lang` (key `log-what-<code>`, spaces as `-`):
/// `approve` → "อนุมัติ"; a code without words (an action an audit file of a later version
/// holds) as it is.
pub fn what_text(lang: Lang, what: &str) -> String {
    let key = format!("log-what-{}", what.replace(' ', "-"));
    let text = crate::i18n::tr(lang, &key);
    if text == key { what.to_owned() } else { text }
}

/// The activity log, oldest first, with its pane's state.
#[derive(Debug, Clone, Default)]
pub struct ActivityLog {
    entries: Vec<LogEntry>,
    /// The pane is shown (`L`).
    pub visible: bool,
    /// Scroll, in drawn lines from the newest (the pane wraps long entries).
    pub scroll: usize,
}

impl ActivityLog {
    /// Every entry, oldest first.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Adds an entry (dropping the oldest past [`LOG_CAP`]).
    pub fn push(&mut self, entry: LogEntry) {
        self.entries.push(entry);
        if self.entries.len() > LOG_CAP {
            self.entries.drain(..LOG_TRIM);
        }
    }

    /// Puts the decisions of earlier sessions before this session's entries; the words this
    /// dashboard adds are in `lang` (an audited detail stays as written: the audit file is
    /// English).
    pub fn prepend_history(&mut self, earlier: Vec<AuditEntry>, lang: Lang) {
        let earlier = earlier
            .into_iter()
            .filter(|e| !e.outcome.is_ahead())
            .map(|e| LogEntry {
                at: e.at,
                what: e.action,
                target: Some(e.target),
                label: crate::i18n::tr(lang, "log-earlier-session"),
                outcome: e.outcome,
                detail: match (e.outcome, e.detail) {
                    (Outcome::Ok, _) => None,
                    (_, Some(d)) => Some(crate::text::clean(&d, 300)),
                    (Outcome::Unknown, None) => Some(crate::i18n::tr(lang, "log-no-answer-seen")),
                    (_, None) => None,
                },
            });
        self.entries.splice(0..0, earlier);
    }
}

/// Severity of a status-line notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// Neutral.
    Info,
    /// Good news (a confirmed decision).
    Success,
    /// A problem the moderator should read.
    Error,
}

/// A message for the status line, and when it was said (a sequence number of the model's:
/// the status line shows the newest of the notice and the activities in flight).
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The text, as shown (sanitised by the view).
    pub text: String,
    /// How it is drawn.
    pub severity: Severity,
    /// The model's sequence number when it was said.
    pub seq: u64,
    /// It tells how much of the listing is loaded: later pages update it in place.
    pub about_listing: bool,
    /// It tells how many rows the filter it names shows ("filter robot: 15 of 50 shown"):
    /// while that filter stands, rows loaded or gone later update its numbers in place.
    pub about_filter: Option<String>,
    /// It is in the activity log already.
    pub logged: bool,
    /// A start-up warning (a secret file others can read): the first load's "loaded" does
    /// not replace it on the status line, as it replaces a load error.
    pub start_warning: bool,
    /// It says a key was ignored on a screen too small to show the queue: it follows the
    /// window's size, and goes when the queue is drawn again.
    pub too_small: bool,
    /// It says a row is being read (`Enter`): it goes when that read answers.
    pub reading: Option<uuid::Uuid>,
    /// The request's label inside `text` ("Somchai → Robotics"), where it names one: the
    /// view shortens it first when the line is too narrow ([`Model::status_line_labelled`]).
    pub label: Option<String>,
    /// A shorter form of `text` with the same numbers, shown where `text` does not fit (a
    /// phone): a bulk's summary keeps its counts in sight and gives up its words.
    pub short: Option<String>,
    /// When it was said (the model's clock).
    pub at: chrono::DateTime<chrono::Utc>,
}

impl Notice {
    /// How long a notice stands on the status line before it gives way to an empty line
    /// (it stays in the activity log): a moment for what went well, longer for an error;
    /// a start-up warning and a window too small stay (a notice that never gave way, such
    /// as "nothing to do: those requests are no longer pending", stood for minutes over work
    /// done since).
    pub fn shown_for(&self) -> Option<chrono::Duration> {
        match self.severity {
            _ if self.start_warning || self.too_small => None,
            Severity::Error => Some(chrono::Duration::seconds(NOTICE_ERROR_SECS)),
            Severity::Info | Severity::Success => Some(chrono::Duration::seconds(NOTICE_SECS)),
        }
    }
}

/// Seconds an information or success notice stands on the status line ([`Notice::shown_for`]).
pub const NOTICE_SECS: i64 = 20;
/// Seconds an error stands on the status line ([`Notice::shown_for`]).
pub const NOTICE_ERROR_SECS: i64 = 60;
