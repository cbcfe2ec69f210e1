//! The audit file: one JSON line per write and per settled outcome, written the same way by
//! every face (`via`: `dashboard`, `cli`, `ssh`). `<state dir>/audit.jsonl`, mode 0600, appended and
//! flushed line by line, never holding a secret.
//!
//! A write whose answer was lost gets two lines: `unknown` when the answer is lost, then
//! `ok` or `failed` when a re-read settled it ([`super::decision`]).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use uuid::Uuid;

use super::action::RowAction;
use crate::api::Timestamp;

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
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    let mut f = super::writer::open_append(path)?;
    f.write_all(&line)?;
    f.flush()
}
