//! The audit file: one JSON line per write and per settled outcome, written the same way by
//! every face (`via`: `dashboard`, `cli`, `ssh`). `<state dir>/audit.jsonl`, mode 0600, appended and
//! flushed line by line, never holding a secret.
//!
//! A write whose answer was lost gets two lines: `unknown` when the answer is lost, then
//! `ok` or `failed` when a re-read settled it ([`super::verdict::settle`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use uuid::Uuid;

use super::action::RowAction;
use super::verdict::Found;
use crate::api::{ApiError, Timestamp};
use crate::i18n::Lang;

/// The audit file's name in the state directory.
pub const FILE_NAME: &str = "audit.jsonl";

/// How a write ended, in the audit file and the activity log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The server confirmed it (or a re-read showed it applied).
    Ok,
    /// The server refused it, it could not be sent, or a re-read showed it not applied.
    Failed,
    /// Sent, but no answer was seen (the program quit first, or the answer was lost). A
    /// lost answer is followed by a second line with the outcome a re-read settled.
    Unknown,
    /// Taken back during the grace period (`z`, or discarded on quitting): never sent.
    Undone,
    /// Not applied because someone else had already made the same decision (the server
    /// answered 403 "already been approved" to an approve): the request is as this write
    /// wanted, by another's hand. Not a failure.
    Already,
    /// Not applied because someone else had already made the opposite decision (403
    /// "already been declined" to an approve): the two moderators disagree.
    Conflict,
}

impl Outcome {
    /// The word in the audit file: `ok`, `failed`, `unknown` or `undone`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
            Outcome::Undone => "undone",
            Outcome::Already => "already",
            Outcome::Conflict => "conflict",
        }
    }
}

/// One line of the audit file (`<state dir>/audit.jsonl`, JSON Lines, mode 0600): what was
/// done, to what, when, with what outcome. Never holds a secret.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AuditEntry {
    /// When the outcome became known: the answer's arrival, or the quit for `unknown`
    /// (RFC 3339, UTC).
    pub at: Timestamp,
    /// The server: its base URL, or `demo` for the embedded demo server.
    pub server: String,
    /// E-mail of the signed-in user, when known.
    pub user: Option<String>,
    /// `approve`, `decline`, `delete` or `add-contact`.
    pub action: String,
    /// The club request (or, for `add-contact`, the club) acted on.
    pub target: Uuid,
    /// How it ended.
    pub outcome: Outcome,
    /// The server's `detail` or the error in words, when not `ok`; for a settled outcome,
    /// how it was settled.
    pub detail: Option<String>,
    /// For `add-contact`: the contact's type and value (`line @robot_club`), sanitised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Which face acted: `dashboard`, `cli` or `ssh` (the dashboard served by `serve-ssh`);
    /// absent in lines written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// For `via: ssh`: the fingerprint of the SSH key the session signed in with
    /// (`SHA256:` and 43 base64 characters, as `ssh-keygen -l` prints it); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Who writes audit lines, and where: the file (none: nothing is written, as without a state
/// directory), the server's name, the signed-in user's e-mail and the face. Holds no secret.
#[derive(Debug, Clone, Default)]
pub struct AuditLog {
    /// The audit file; `None` writes nothing.
    pub path: Option<PathBuf>,
    /// The server's name in the lines (its base URL, or `demo`).
    pub server: String,
    /// The signed-in user's e-mail.
    pub user: Option<String>,
    /// The face: `dashboard` or `cli`.
    pub via: &'static str,
}

impl AuditLog {
    /// The audit file in `state_dir` ([`FILE_NAME`]).
    pub fn in_state_dir(state_dir: Option<&Path>) -> Option<PathBuf> {
        state_dir.map(|d| d.join(FILE_NAME))
    }

    /// A line about `target` at `at`.
    pub fn entry(
        &self,
        at: Timestamp,
        action: &str,
        target: Uuid,
        outcome: Outcome,
        detail: Option<String>,
    ) -> AuditEntry {
        AuditEntry {
            at,
            server: self.server.clone(),
            user: self.user.clone(),
            action: action.to_owned(),
            target,
            outcome,
            detail,
            value: None,
            via: Some(self.via.to_owned()),
            key: None,
        }
    }

    /// Appends `entry` to the file (nothing without a file).
    ///
    /// Errors: the file cannot be written (the message names it).
    pub fn write(&self, entry: &AuditEntry) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        append_json_line(path, entry)
            .map_err(|e| format!("could not write the audit file {}: {e}", path.display()))
    }
}

/// The English detail of a failed write: the error in words (at most 300 characters), then
/// the server's error id an administrator can look up.
pub fn error_detail(e: &ApiError) -> String {
    let mut words = crate::text::truncate_chars(&e.describe(Lang::English), 300);
    if super::verdict::not_sent(e) {
        words.push_str(" (not sent)");
    }
    match e.error_id() {
        Some(id) => crate::tr!(Lang::English, "log-error-id", error = words, id = id),
        None => words,
    }
}

/// The detail of the `unknown` line of a write whose answer was lost.
pub fn lost_detail(e: &ApiError) -> String {
    crate::tr!(Lang::English, "log-answer-lost", error = error_detail(e))
}

/// The detail of the line that settles a lost answer (`ok` or `failed`): how the answer was
/// lost and what the re-read found.
pub fn settled_detail(cause: &ApiError, found: &Found) -> String {
    let words = crate::text::truncate_chars(&cause.describe(Lang::English), 300);
    let lost = crate::tr!(Lang::English, "log-answer-had-been-lost", error = words);
    crate::tr!(
        Lang::English,
        "log-settled",
        lost = lost,
        outcome = found.english()
    )
}

/// The outcome and detail of a settled write ([`settled_detail`]).
pub fn settled_line(cause: &ApiError, found: &Found) -> (Outcome, String) {
    let outcome = if found.applied() {
        Outcome::Ok
    } else {
        Outcome::Failed
    };
    (outcome, settled_detail(cause, found))
}

/// The outcome and English detail of a decision the server refused because the request was
/// already decided (`status`, [`crate::api::ApiError::already_decided`]): `already` when
/// that is what `action` wanted, `conflict` when it is the opposite.
pub fn already_line(action: RowAction, status: &crate::api::MembershipStatus) -> (Outcome, String) {
    if action.status().as_ref() == Some(status) {
        (
            Outcome::Already,
            format!("already {status} by someone else (this write changed nothing)"),
        )
    } else {
        (
            Outcome::Conflict,
            format!("not applied: someone else had already {status} it"),
        )
    }
}

/// The detail of an `unknown` line for a write abandoned before its answer (a second
/// Ctrl-C, a quit).
pub fn abandoned_detail() -> String {
    "left before the server answered; check the request's state".to_owned()
}

/// The `value` field of an `add-contact` line: type and value, sanitised, at most 200
/// characters (`line @robot_club`).
pub fn contact_value(kind: &str, value: &str) -> String {
    crate::text::clean(&format!("{kind} {value}"), 200)
}

/// The audit verb of a decision (`approve`, `decline`, `delete`).
pub fn verb(action: RowAction) -> &'static str {
    action.verb()
}

/// Appends one JSON line and flushes it (a crash loses at most the line being written).
/// A new file is created with mode 0600: audit lines name people.
///
/// Errors: the file or its directory cannot be written.
pub fn append_json_line<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    #[cfg(unix)]
    {
        // A file made by an older version (0644) is made private too.
        use std::os::unix::fs::PermissionsExt;
        if f.metadata()?.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    f.write_all(&line)?;
    f.flush()
}
