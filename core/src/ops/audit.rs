//! The audit file: one JSON line per write and per settled outcome, written the same way by
//! every front end (`via`: `dashboard`, `cli`, `ssh`). `<state dir>/audit.jsonl`, mode
//! 0600, appended and flushed line by line, never holding a secret.
//!
//! Every write is recorded before it leaves (PostgreSQL's write-ahead log is the model): a
//! `sending` line is in the file (written, so a killed process loses none of them) before
//! the call goes, and a second line says how it ended. A write whose answer was lost gets
//! `unknown` when the answer is lost, then `ok` or `failed` when a re-read settled it
//! ([`super::decision`]). Each line names its process's run ([`run_id`]); a running process
//! holds a lock on `runs/<run>.lock` beside the file, so the next start can tell the writes a
//! crashed run left open (a `sending` or `unknown` line with nothing after it) from a live
//! run's ([`super::recover`]). Lines are written by the process's one writer of files
//! ([`super::writer`], for every front end): appended, then synced to the disk in batches
//! ([`super::writer::SYNC_EVERY`] apart at most, never on a line's way), so a bulk keeps its
//! speed.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use uuid::Uuid;

use super::action::RowAction;
use crate::api::Timestamp;

/// The audit file's name in the state directory.
pub const FILE_NAME: &str = "audit.jsonl";

/// The size (bytes) past which the audit file rotates unless the config says otherwise
/// (`audit_rotate_mb`): 64 MB, some 190,000 lines.
pub const DEFAULT_ROTATE_BYTES: u64 = 64 * 1_000_000;

/// The size past which this process's writer rotates the audit file: [`set_rotate_at`]; 0
/// never (the default until a front end sets it).
static ROTATE_AT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the size (bytes) past which this process rotates the audit files it appends to (0:
/// never): the front end's settings (`audit_rotate_mb` in the config file), set once at its
/// start. The rotated file keeps its lines under a name of its own ([`rotated_name`]) and
/// every reader of the history reads it ([`rotated_files`]).
pub fn set_rotate_at(bytes: u64) {
    ROTATE_AT.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// The size past which the audit rotates ([`set_rotate_at`]); 0 never.
pub fn rotate_at() -> u64 {
    ROTATE_AT.load(std::sync::atomic::Ordering::Relaxed)
}

/// The name an audit file rotated at `at` takes beside it: `audit-20261129T024500Z.jsonl`
/// (its lines' last time; names sort as the files' order).
pub fn rotated_name(at: Timestamp) -> String {
    format!("audit-{}.jsonl", at.format("%Y%m%dT%H%M%S%.3fZ"))
}

/// The rotated audit files beside the audit file `path` ([`rotated_name`]), oldest first.
/// None when the folder cannot be read.
pub fn rotated_files(path: &Path) -> Vec<PathBuf> {
    let Some(dir) = path.parent() else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("audit-") && n.ends_with(".jsonl"))
        })
        .collect();
    found.sort();
    found
}

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
    /// Written before the write is sent (the write-ahead line): a later line of the same
    /// run says how it ended; none after it means the process ended (a crash, `kill -9`)
    /// before it knew, and the next start settles it by a re-read ([`super::recover`]).
    Sending,
    /// The write did not leave: no connection could be made to the service (refused,
    /// unreachable, DNS, TLS before the request), so the server never received it. Not a
    /// failure: it waits to be sent again once the service answers, and a later line of the
    /// same run says how it ended (`sending` again, or `undone` when it never went). A
    /// write whose last line is `queued` was never applied; a later start does not settle
    /// it ([`super::recover`]).
    Queued,
    /// Applied (an `ok` line of the same write before it), then overwritten: a later read
    /// showed the request in the other decided status, the detail says which (`overwritten:
    /// declined since`). The deployed 0.8.4 service accepts two opposite decisions that
    /// race, and the last one stays.
    Overwritten,
    /// Never sent, not by anyone's choice: the program stopped before the write's turn came
    /// (the server or the dashboard stopping, a command's bulk stopped by Ctrl-C or by its
    /// stop rule); the detail says why (`not sent: the server stopped`). Not `undone`
    /// (nobody took it back) and not `failed` (the server never saw it).
    #[serde(rename = "not_sent")]
    NotSent,
}

impl Outcome {
    /// Every outcome, in the order the manual lists them.
    pub const ALL: [Outcome; 10] = [
        Outcome::Ok,
        Outcome::Failed,
        Outcome::Unknown,
        Outcome::Undone,
        Outcome::Already,
        Outcome::Conflict,
        Outcome::Sending,
        Outcome::Queued,
        Outcome::Overwritten,
        Outcome::NotSent,
    ];

    /// The word in the audit file: `ok`, `failed`, `unknown`, `undone`, `already`,
    /// `conflict`, `sending`, `queued`, `overwritten` or `not_sent`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
            Outcome::Undone => "undone",
            Outcome::Already => "already",
            Outcome::Conflict => "conflict",
            Outcome::Sending => "sending",
            Outcome::Queued => "queued",
            Outcome::Overwritten => "overwritten",
            Outcome::NotSent => "not_sent",
        }
    }

    /// True for the write-ahead line ([`Outcome::Sending`]): not an outcome yet. Readers of
    /// the history skip it.
    pub fn is_ahead(self) -> bool {
        self == Outcome::Sending
    }
}

/// This process's run: a random id (UUID v4, made once) that every audit line it writes
/// carries ([`AuditEntry::run`]), so the lines of one write can be paired and a crashed
/// run's open writes found ([`super::recover`]).
pub fn run_id() -> &'static str {
    static RUN: OnceLock<String> = OnceLock::new();
    RUN.get_or_init(|| Uuid::new_v4().to_string())
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
    /// The server's `detail` or the error message, when not `ok`; for a settled outcome,
    /// how it was settled.
    pub detail: Option<String>,
    /// For `add-contact`: the contact's type and value (`line @robot_club`), sanitised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Which front end acted: `dashboard`, `cli`, `ssh` (the dashboard served by `serve-ssh`) or
    /// `ssh-exec` (a scripting subcommand `serve-ssh` ran for an SSH client); absent in lines
    /// written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// For `via: ssh` and `ssh-exec`: the fingerprint of the SSH key the session signed in with
    /// (`SHA256:` and 43 base64 characters, as `ssh-keygen -l` prints it); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// For `via: ssh` and `ssh-exec`: that key's comment in the authorized keys file (`alice@laptop`), when
    /// it has one: who the operator gave the key to; absent otherwise, and in lines written
    /// before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_comment: Option<String>,
    /// The run (process) that made the write ([`run_id`]); a line that settles an
    /// interrupted run's write keeps that run's id. Absent in lines written before it
    /// existed (those are never settled at start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Who made the write inside its run: one dashboard session (each session of one
    /// `serve-ssh` its own, a random UUID made when it starts), or the command's run (a
    /// command line's run, a command over SSH: the same id as [`AuditEntry::run`]). The
    /// lines of one write are joined by run, session, action and target, so two sessions of
    /// one process deciding one request are two writes. A line settling an interrupted
    /// write keeps that write's session. Absent in lines written before it existed: those
    /// are joined by run alone, as they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// True on a copy of an open write's last line that a rotation carried into the new
    /// audit file (the original stays in the rotated one), so the next start still finds
    /// the write open; the history passes it over. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carried: Option<bool>,
    /// The run (process) that wrote this line when it is not the write's own `run`: a later
    /// process that settled an interrupted run's write ([`super::recover`]); absent
    /// otherwise, and in lines written before it existed (`ops::history` then reads the
    /// settling line's detail, [`super::audit::ENDED_BEFORE_ANSWER`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled_by: Option<String>,
    /// What the request was, as the front end that wrote the line had read it
    /// ([`request_label`]: `#12345 → Robotics Club`), so the history names it as the
    /// dashboard does; absent when the front end had not read it, and in older lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// What a club request is, for a person reading the history: `#` and the student's school
/// number (never the student's name: the audit outlives the term), `→` and the club's name
/// in English, else Thai (`#12345 → Robotics Club`), sanitised, at most 60 columns. Read
/// from a request at `default` with descendants at `compact` (api-notes.md, "Fetch
/// levels"). `None` when the read shows neither.
pub fn request_label(r: &crate::api::ClubRequest) -> Option<String> {
    let number = r
        .student
        .as_ref()
        .and_then(|s| s.student_id.as_deref())
        .map(|n| format!("#{n}"));
    let club = r
        .club
        .as_ref()
        .and_then(|c| c.name.as_ref())
        .and_then(|n| n.best())
        .map(str::to_owned);
    if number.is_none() && club.is_none() {
        return None;
    }
    let text = format!(
        "{} → {}",
        number.as_deref().unwrap_or("?"),
        club.as_deref().unwrap_or("?")
    );
    Some(crate::text::clean(&text, 60))
}

/// Who writes audit lines, and where: the file (none: nothing is written, as without a state
/// directory), the server's name, the signed-in user's e-mail and the front end. Holds no
/// secret.
#[derive(Debug, Clone, Default)]
pub struct AuditLog {
    /// The audit file; `None` writes nothing.
    pub path: Option<PathBuf>,
    /// The server's name in the lines (its base URL, or `demo`).
    pub server: String,
    /// The signed-in user's e-mail.
    pub user: Option<String>,
    /// The front end: `dashboard`, `cli` or `ssh-exec` (a scripting subcommand `serve-ssh` ran
    /// for an SSH client).
    pub via: &'static str,
    /// What each request is, as the front end read it ([`request_label`]), stamped on its
    /// lines.
    pub labels: std::sync::Arc<std::collections::HashMap<Uuid, String>>,
    /// For `via: ssh-exec`: the SSH key's fingerprint and its comment, stamped on each line.
    pub key: Option<(String, Option<String>)>,
    /// Called with each line once it is in the file (`serve-ssh`'s live dashboards learn of
    /// a run's writes from it); `None`: no one.
    pub after_write: Option<AfterWrite>,
    /// The run the lines name, when it is not this process's ([`run_id`]): a command
    /// `serve-ssh` runs for an SSH client is a run of its own, alive while it holds its
    /// lock ([`super::runs::hold_run`]), so its open writes are settled once it ends.
    pub run: Option<String>,
    /// The session the lines name ([`AuditEntry::session`]); `None`: the run's id (a
    /// command's run is its own session).
    pub session: Option<String>,
}

/// The callback run with each audit line once it is written ([`AuditLog::after_write`]).
#[derive(Clone)]
pub struct AfterWrite(pub std::sync::Arc<dyn Fn(&AuditEntry) + Send + Sync>);

impl std::fmt::Debug for AfterWrite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AfterWrite")
    }
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
            key: self.key.as_ref().map(|(k, _)| k.clone()),
            key_comment: self.key.as_ref().and_then(|(_, c)| c.clone()),
            run: Some(self.run.clone().unwrap_or_else(|| run_id().to_owned())),
            session: Some(
                self.session
                    .clone()
                    .or_else(|| self.run.clone())
                    .unwrap_or_else(|| run_id().to_owned()),
            ),
            carried: None,
            settled_by: None,
            label: self.labels.get(&target).cloned(),
        }
    }

    /// Appends `entry` to the file through the process's [`Writer`](super::writer::Writer) (nothing without a
    /// file): resolves once the line is in the file (a process killed after that loses
    /// none; it reaches the disk with the writer's next sync).
    ///
    /// Errors: the file cannot be written (the message names it).
    pub async fn write(&self, entry: &AuditEntry) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        super::writer::Writer::process()
            .append_line(path, entry)
            .await
            .map_err(|e| format!("could not write the audit file {}: {e}", path.display()))?;
        if let Some(AfterWrite(tell)) = &self.after_write {
            tell(entry);
        }
        Ok(())
    }
}

/// The words every line settling an interrupted run's write carries in its detail, from
/// either front end (the command line's [`settled_detail`], the dashboard's lost answer of
/// [`super::decision::Decision::recovered`]); how `ops::history` knows such a line written
/// before [`AuditEntry::settled_by`] existed.
pub const ENDED_BEFORE_ANSWER: &str = crate::api::error::why::RUN_ENDED;

/// The `value` field of an `add-contact` line: type and value, sanitised, at most 200
/// characters (`line @robot_club`).
pub fn contact_value(kind: &str, value: &str) -> String {
    crate::text::clean(&format!("{kind} {value}"), 200)
}

/// The audit verb of a decision (`approve`, `decline`, `delete`).
pub fn verb(action: RowAction) -> &'static str {
    action.verb()
}
