//! Who decided what: the audit file ([`super::audit`]) read back as one row per write, for
//! every front end that shows the team's history (`club-admin history` today; a dashboard
//! view later). Only reading, folding and filtering live here; a front end presents them.
//!
//! How lines fold into rows: every write has a `sending` line before it leaves and one or
//! more lines after it (`unknown` when its answer was lost, then `ok` or `failed` once a
//! re-read settled it), each naming its run (the process, [`AuditEntry::run`]) and its
//! session in it ([`AuditEntry::session`]: a dashboard session, or the command's run; absent
//! in older lines, which join by run alone). A `sending` line opens a row keyed by (run,
//! session, action, target, contact value); each later line of the
//! same key updates that row while it is open (its outcome `sending` or `unknown`), so the
//! row shows the write's final outcome. A line with no open row of its key is a row of its
//! own (a decision taken back before it was sent, `undone`; a refusal before any call; a
//! line of a version that wrote no `sending` lines). A write whose last line is `sending`
//! or `unknown` is shown so: open. An `overwritten` line (a later read showed the request
//! in the other decided status) follows the `ok` row of its key: the row says
//! `overwritten`, its detail the status read. A later process that settled an interrupted
//! run's write wrote its line with that run's id ([`super::recover`]): the row takes that outcome and
//! is marked [`Row::settled_after_crash`].

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::Path;

use chrono::{DateTime, Duration, Local, NaiveDate, TimeZone, Utc};
use uuid::Uuid;

use super::audit::ENDED_BEFORE_ANSWER;
use super::audit::{AuditEntry, Outcome};
use crate::api::Timestamp;

/// One write as the audit file tells it, its lines folded.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Row {
    /// When it was decided: the time of its first line (the `sending` line, RFC 3339 UTC).
    pub at: Timestamp,
    /// When its outcome became known: the time of its last line.
    pub settled_at: Timestamp,
    /// The server (its base URL, or `demo`).
    pub server: String,
    /// The moderator's e-mail, when the line knew it (the first line that names one).
    pub user: Option<String>,
    /// `approve`, `decline`, `delete` or `add-contact`.
    pub action: String,
    /// The club request (for `add-contact`, the club).
    pub target: Uuid,
    /// Its final outcome; `sending` or `unknown` while the write is open.
    pub outcome: Outcome,
    /// The last line's detail (the server's words, how it was settled).
    pub detail: Option<String>,
    /// For `add-contact`: the contact's type and value.
    pub value: Option<String>,
    /// The front end that wrote it: `dashboard`, `cli` or `ssh`.
    pub via: Option<String>,
    /// For `ssh`: the SSH key's fingerprint.
    pub key: Option<String>,
    /// For `ssh`: the key's comment in the authorized keys file, when the line has one.
    pub key_comment: Option<String>,
    /// The run (process) that sent it.
    pub run: Option<String>,
    /// The session inside that run that sent it ([`AuditEntry::session`]: one dashboard
    /// session, or the command's run); `None` in lines written before it existed.
    pub session: Option<String>,
    /// True when a later process settled it after its own run ended before the answer (a
    /// crash, `kill -9`): [`AuditEntry::settled_by`], or for older lines the settling
    /// detail's words ([`ENDED_BEFORE_ANSWER`]).
    pub settled_after_crash: bool,
    /// How many lines of the file it folds.
    pub lines: usize,
    /// What the request was, as the front end that wrote it had read it
    /// ([`super::audit::request_label`]: `#12345 → Robotics Club`); `None` when no line
    /// of it says.
    pub label: Option<String>,
}

impl Row {
    /// The SSH key it was sent with, as a person reads it: its comment in the authorized
    /// keys file (`alice@phone`), else its fingerprint; `None` for a write not sent over SSH.
    pub fn key_name(&self) -> Option<&str> {
        self.key_comment.as_deref().or(self.key.as_deref())
    }

    /// True while no line has settled it (`sending` or `unknown`).
    pub fn is_open(&self) -> bool {
        matches!(self.outcome, Outcome::Sending | Outcome::Unknown)
    }

    fn start(e: AuditEntry) -> Row {
        Row {
            at: e.at,
            settled_at: e.at,
            server: e.server,
            user: e.user,
            action: e.action,
            target: e.target,
            outcome: e.outcome,
            detail: e.detail,
            value: e.value,
            via: e.via,
            key: e.key,
            key_comment: e.key_comment,
            run: e.run,
            session: e.session,
            settled_after_crash: false,
            lines: 1,
            label: e.label,
        }
    }

    fn follow(&mut self, e: AuditEntry) {
        // A write its run gave up on knowingly (a stop, a quit: its `unknown` line says it
        // left before the answer) was not cut by a crash, whoever settles it later.
        let left = self.outcome == Outcome::Unknown
            && self
                .detail
                .as_deref()
                .is_some_and(|d| d.contains(crate::api::error::why::LEFT_BEFORE_ANSWER));
        let crash = !left
            && e.settled_by
                .as_ref()
                .is_some_and(|by| Some(by) != self.run.as_ref())
            || e.detail
                .as_deref()
                .is_some_and(|d| d.contains(ENDED_BEFORE_ANSWER));
        self.settled_after_crash = crash && !matches!(e.outcome, Outcome::Sending);
        self.settled_at = e.at;
        self.outcome = e.outcome;
        self.detail = e.detail;
        self.user = self.user.take().or(e.user);
        self.label = self.label.take().or(e.label);
        self.lines += 1;
    }
}

/// The key of a write's lines: run, session, action, target, contact value.
type Key = (Option<String>, Option<String>, String, Uuid, Option<String>);

/// Folds audit lines, in the file's order, into one row per write, oldest first (see the
/// module).
pub fn fold(entries: impl IntoIterator<Item = AuditEntry>) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let mut open: HashMap<Key, usize> = HashMap::new();
    // The last settled row of each key: an `overwritten` line follows its `ok`.
    let mut closed: HashMap<Key, usize> = HashMap::new();
    for e in entries {
        let key: Key = (
            e.run.clone(),
            e.session.clone(),
            e.action.clone(),
            e.target,
            e.value.clone(),
        );
        // A write that did not leave (`queued`) and is sent again stays one row.
        let waiting = open
            .get(&key)
            .copied()
            .filter(|i| rows[*i].outcome == Outcome::Queued);
        if e.outcome == Outcome::Sending && waiting.is_none() {
            open.insert(key, rows.len());
            rows.push(Row::start(e));
            continue;
        }
        match open.get(&key).copied() {
            Some(i) if rows[i].is_open() || rows[i].outcome == Outcome::Queued => {
                rows[i].follow(e);
                if !rows[i].is_open() && rows[i].outcome != Outcome::Queued {
                    open.remove(&key);
                    closed.insert(key, i);
                }
            }
            _ => match closed.get(&key).copied() {
                Some(i) if e.outcome == Outcome::Overwritten && rows[i].outcome == Outcome::Ok => {
                    rows[i].follow(e);
                }
                _ => rows.push(Row::start(e)),
            },
        }
    }
    rows.sort_by_key(|r| r.at);
    rows
}

/// The audit file read back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// One row per write, oldest first.
    pub rows: Vec<Row>,
    /// Lines that are not audit lines (a line cut by a crash, another program's text):
    /// passed over, counted.
    pub skipped: usize,
}

/// Reads the audit file at `path` ([`fold`]), after the files rotated beside it
/// ([`super::audit::rotated_files`], oldest first; each file once, however many names it
/// has); a file that does not exist is an empty history.
///
/// Errors: the file exists but cannot be read (permission, a folder).
pub fn read(path: &Path) -> io::Result<History> {
    let mut bytes = Vec::new();
    let mut seen = HashSet::new();
    let files = super::audit::rotated_files(path);
    for (i, p) in files.iter().chain([&path.to_path_buf()]).enumerate() {
        let current = i == files.len();
        match std::fs::read(p) {
            Ok(b) => {
                if seen.insert(file_id(p)) {
                    bytes.extend_from_slice(&b);
                    bytes.push(b'\n');
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            // A rotated file this user may not read is passed over; the current one is not.
            Err(e) if current => return Err(e),
            Err(_) => {}
        }
    }
    Ok(parse(&bytes))
}

/// The file's device and inode (one file under two names, as a rotation leaves it for a
/// moment, is read once); its path where there are none.
fn file_id(path: &Path) -> (u64, u64, Option<std::path::PathBuf>) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = std::fs::metadata(path) {
            return (m.dev(), m.ino(), None);
        }
    }
    (0, 0, Some(path.to_path_buf()))
}

/// Reads the last `max_bytes` of the audit file at `path` (from the first whole line in
/// them), as [`read`] does the whole: what a dashboard shows of the team's recent history
/// without reading a file that grows without end (a write whose first line is before them
/// is a row of its later lines).
///
/// Errors: as [`read`].
pub fn read_recent(path: &Path, max_bytes: u64) -> io::Result<History> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(History::default()),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    let from = len.saturating_sub(max_bytes);
    f.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    let whole = match (from, bytes.iter().position(|b| *b == b'\n')) {
        (0, _) => &bytes[..],
        (_, Some(nl)) => &bytes[nl + 1..],
        (_, None) => &[][..],
    };
    // A file rotated a moment ago: the rest of the bytes asked from the last rotated one.
    let mut before = Vec::new();
    if len < max_bytes
        && let Some(last) = super::audit::rotated_files(path).pop()
        && file_id(&last) != file_id(path)
    {
        before = tail(&last, max_bytes - len).unwrap_or_default();
        before.push(b'\n');
    }
    before.extend_from_slice(whole);
    Ok(parse(&before))
}

/// The whole lines in the last `max_bytes` of the file at `path`.
fn tail(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path)?;
    let len = f.metadata()?.len();
    let from = len.saturating_sub(max_bytes);
    f.seek(SeekFrom::Start(from))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    if from > 0 {
        let cut = bytes
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..cut);
    }
    Ok(bytes)
}

/// The last [`read_recent`] of an audit file, shared by the dashboards of one process (the
/// sessions of one `serve-ssh`, which read the host's audit at every start and after their
/// writes): a file whose length and modification time have not changed since is not read
/// again, its rows are handed out once more. One read at a time: 500 sessions starting
/// together read the file once (the others wait for it on their own reading thread). Cheap
/// to clone: its clones are one.
#[derive(Clone, Default)]
pub struct RecentRows {
    /// The last read of each size asked (the detail's 1 MiB, the pop-up's 8 MiB).
    last: std::sync::Arc<std::sync::Mutex<Vec<Recent>>>,
}

impl std::fmt::Debug for RecentRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecentRows")
    }
}

/// One read kept: of which file and how much, the file as it was, its rows.
struct Recent {
    path: std::path::PathBuf,
    max_bytes: u64,
    seen: (u64, Option<std::time::SystemTime>),
    rows: std::sync::Arc<[Row]>,
}

impl RecentRows {
    /// The rows of the last `max_bytes` of `path` ([`read_recent`]), newest first (by the
    /// time each was settled), from the last read when the file has not changed since: the
    /// same rows, shared (one copy for 500 sessions). Blocks (a reading thread's call).
    ///
    /// Errors: as [`read_recent`].
    pub fn read(&self, path: &Path, max_bytes: u64) -> io::Result<std::sync::Arc<[Row]>> {
        let newest_first = |mut rows: Vec<Row>| -> std::sync::Arc<[Row]> {
            rows.sort_by_key(|r| std::cmp::Reverse(r.settled_at));
            rows.into()
        };
        let Ok(mut last) = self.last.lock() else {
            return read_recent(path, max_bytes).map(|h| newest_first(h.rows));
        };
        let seen = match std::fs::metadata(path) {
            Ok(m) => (m.len(), m.modified().ok()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (0, None),
            Err(e) => return Err(e),
        };
        let kept = last
            .iter()
            .position(|r| r.path == path && r.max_bytes == max_bytes);
        if let Some(r) = kept.and_then(|i| last.get(i))
            && r.seen == seen
        {
            return Ok(r.rows.clone());
        }
        let rows = newest_first(read_recent(path, max_bytes)?.rows);
        let recent = Recent {
            path: path.to_path_buf(),
            max_bytes,
            seen,
            rows: rows.clone(),
        };
        match kept {
            Some(i) => last[i] = recent,
            None => last.push(recent),
        }
        Ok(rows)
    }
}

/// Audit lines as read ([`fold`]ed), the ones that are not audit lines counted.
fn parse(bytes: &[u8]) -> History {
    let mut skipped = 0;
    let mut entries = Vec::new();
    for line in bytes.split(|b| *b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<AuditEntry>(line) {
            // A rotation's copy of an open write's line: the original is in the rotated file.
            Ok(e) if e.carried == Some(true) => {}
            Ok(e) => entries.push(e),
            Err(_) => skipped += 1,
        }
    }
    History {
        rows: fold(entries),
        skipped,
    }
}

/// Which rows to keep; every part left empty keeps all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// A part of the moderator's e-mail or of the SSH key's comment (without case), or an SSH
    /// key's fingerprint.
    pub moderator: Option<String>,
    /// Only writes to these targets (the requests of a club, as a front end found them, and the
    /// club itself for its new contacts); `None` keeps all.
    pub targets: Option<HashSet<Uuid>>,
    /// Only these requests (or clubs).
    pub requests: Vec<Uuid>,
    /// Only these outcomes.
    pub outcomes: Vec<Outcome>,
    /// Decided at or after this time.
    pub since: Option<Timestamp>,
    /// Decided before this time.
    pub until: Option<Timestamp>,
}

impl Filter {
    /// True when `row` passes every part given.
    pub fn keeps(&self, row: &Row) -> bool {
        let moderator = self.moderator.as_deref().is_none_or(|m| {
            let m = m.trim().to_lowercase();
            row.user
                .as_deref()
                .is_some_and(|u| u.to_lowercase().contains(&m))
                || row
                    .key_comment
                    .as_deref()
                    .is_some_and(|c| c.to_lowercase().contains(&m))
                || row
                    .key
                    .as_deref()
                    .is_some_and(|k| k.eq_ignore_ascii_case(&m))
        });
        moderator
            && self
                .targets
                .as_ref()
                .is_none_or(|t| t.contains(&row.target))
            && (self.requests.is_empty() || self.requests.contains(&row.target))
            && (self.outcomes.is_empty() || self.outcomes.contains(&row.outcome))
            && self.since.is_none_or(|s| row.at >= s)
            && self.until.is_none_or(|u| row.at < u)
    }
}

/// Reads an outcome as the audit file spells it (`ok`, `failed`, `unknown`, `undone`,
/// `already`, `conflict`, `sending`, `queued`, `overwritten`, `not_sent`).
///
/// Errors: another word, with the list.
pub fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let all = Outcome::ALL;
    let t = text.trim().to_lowercase();
    all.into_iter().find(|o| o.as_str() == t).ok_or_else(|| {
        let words: Vec<&str> = all.iter().map(|o| o.as_str()).collect();
        format!("{text:?} is not an outcome: one of {}", words.join(", "))
    })
}

/// Which end of a day a date names: `--since 2026-11-20` is that day's start, `--until
/// 2026-11-20` its end (the next day's start), both at local midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The start of the day named.
    Start,
    /// The end of the day named.
    End,
}

/// A time as `--since` and `--until` take it, relative to `now` in the local time zone:
/// `today`, `yesterday` (local midnight; with [`End::End`] the day's end), a date
/// `YYYY-MM-DD` (local), an RFC 3339 time (`2026-11-20T08:00:00Z`, `...+07:00`), or a span
/// back from now: a whole number and `s`, `m`, `h`, `d` or `w` (`2h`, `30m`).
///
/// Errors: none of these, with a message giving the forms taken.
pub fn parse_time(text: &str, now: DateTime<Local>, end: End) -> Result<Timestamp, String> {
    let t = text.trim();
    let day_bound = |day: NaiveDate| -> Result<Timestamp, String> {
        let day = match end {
            End::Start => day,
            End::End => day.succ_opt().unwrap_or(day),
        };
        let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
        Local
            .from_local_datetime(&midnight)
            .earliest()
            .map(|d| d.with_timezone(&Utc))
            .ok_or_else(|| format!("{t}: no such local time"))
    };
    match t.to_lowercase().as_str() {
        "today" => return day_bound(now.date_naive()),
        "yesterday" => return day_bound(now.date_naive() - Duration::days(1)),
        _ => {}
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(t) {
        return Ok(at.with_timezone(&Utc));
    }
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return day_bound(day);
    }
    if let Some(span) = span(t) {
        return Ok((now - span).with_timezone(&Utc));
    }
    Err(format!(
        "{t:?} is not a time: give today, yesterday, a date (2026-11-20), an RFC 3339 time (2026-11-20T08:00:00+07:00) or a span back from now (2h, 30m, 7d)"
    ))
}

/// `2h`, `30m`, `45s`, `7d`, `2w` as a span.
fn span(t: &str) -> Option<Duration> {
    let unit = t.chars().last()?;
    let n: i64 = t[..t.len() - unit.len_utf8()].trim().parse().ok()?;
    if n < 0 {
        return None;
    }
    match unit.to_ascii_lowercase() {
        's' => Duration::try_seconds(n),
        'm' => Duration::try_minutes(n),
        'h' => Duration::try_hours(n),
        'd' => Duration::try_days(n),
        'w' => Duration::try_weeks(n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of run `run`, session `session` (none: a line written before sessions), about
    /// request `n`, at second `s`.
    fn line(run: &str, session: Option<&str>, n: u128, s: i64, outcome: Outcome) -> AuditEntry {
        AuditEntry {
            at: DateTime::from_timestamp(1_780_000_000 + s, 0).unwrap_or_default(),
            server: "demo".into(),
            user: Some("ton@school".into()),
            action: "approve".into(),
            target: Uuid::from_u128(n),
            outcome,
            detail: None,
            value: None,
            via: Some("ssh".into()),
            key: session.map(|s| format!("key-{s}")),
            key_comment: None,
            run: Some(run.into()),
            session: session.map(str::to_owned),
            carried: None,
            settled_by: None,
            label: None,
        }
    }

    #[test]
    fn two_sessions_of_one_run_deciding_one_request_are_two_rows() {
        let rows = fold([
            line("r", Some("s1"), 1, 0, Outcome::Sending),
            line("r", Some("s3"), 1, 1, Outcome::Sending),
            line("r", Some("s1"), 1, 2, Outcome::Ok),
            line("r", Some("s3"), 1, 3, Outcome::Already),
        ]);
        let seen: Vec<_> = rows
            .iter()
            .map(|r| (r.session.as_deref(), r.key.as_deref(), r.outcome, r.lines))
            .collect();
        assert_eq!(
            seen,
            vec![
                (Some("s1"), Some("key-s1"), Outcome::Ok, 2),
                (Some("s3"), Some("key-s3"), Outcome::Already, 2),
            ]
        );
    }

    #[test]
    fn a_rotation_cut_by_a_crash_leaves_each_line_read_once() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join(super::super::audit::FILE_NAME);
        let text: String = [
            line("r", Some("s1"), 1, 0, Outcome::Sending),
            line("r", Some("s1"), 1, 1, Outcome::Ok),
        ]
        .iter()
        .map(|e| serde_json::to_string(e).unwrap_or_default() + "\n")
        .collect();
        std::fs::write(&path, text).expect("audit");
        // The crash came after the rotated name was linked, before the new file replaced
        // the old name: one file, two names.
        let kept = dir
            .path()
            .join(super::super::audit::rotated_name(chrono::Utc::now()));
        std::fs::hard_link(&path, &kept).expect("link");
        let read = read(&path).expect("read");
        assert_eq!(read.rows.len(), 1, "{:#?}", read.rows);
        assert_eq!(read.rows[0].lines, 2);
    }

    #[test]
    fn lines_written_before_sessions_still_join_by_run() {
        let rows = fold([
            line("r", None, 1, 0, Outcome::Sending),
            line("r", None, 2, 1, Outcome::Sending),
            line("r", None, 1, 2, Outcome::Ok),
            line("r", None, 2, 3, Outcome::Failed),
        ]);
        let seen: Vec<_> = rows.iter().map(|r| (r.outcome, r.lines)).collect();
        assert_eq!(seen, vec![(Outcome::Ok, 2), (Outcome::Failed, 2)]);
    }

    #[test]
    fn an_overwritten_line_follows_the_writes_ok_row() {
        let mut over = line("r", Some("s1"), 1, 9, Outcome::Overwritten);
        over.detail = Some("overwritten: declined since".into());
        let rows = fold([
            line("r", Some("s1"), 1, 0, Outcome::Sending),
            line("r", Some("s1"), 1, 1, Outcome::Ok),
            over,
        ]);
        assert_eq!(rows.len(), 1, "{rows:#?}");
        assert_eq!(rows[0].outcome, Outcome::Overwritten);
        assert_eq!(
            rows[0].detail.as_deref(),
            Some("overwritten: declined since")
        );
        assert_eq!(rows[0].lines, 3);
    }

    #[test]
    fn only_a_write_cut_by_a_crash_is_settled_after_a_crash() {
        let settled = |n| {
            let mut e = line("r", Some("s1"), n, 9, Outcome::Ok);
            e.settled_by = Some("later".into());
            e
        };
        let mut left = line("r", Some("s1"), 2, 1, Outcome::Unknown);
        left.detail = Some(crate::api::error::why::LEFT_BEFORE_ANSWER.into());
        let rows = fold([
            // Killed with its write on the wire: nothing after its `sending` line.
            line("r", Some("s1"), 1, 0, Outcome::Sending),
            // Stopped cleanly while waiting for the answer: its `unknown` line says so.
            line("r", Some("s1"), 2, 0, Outcome::Sending),
            left,
            settled(1),
            settled(2),
        ]);
        let seen: Vec<_> = rows
            .iter()
            .map(|r| (r.target, r.settled_after_crash))
            .collect();
        assert_eq!(
            seen,
            vec![(Uuid::from_u128(1), true), (Uuid::from_u128(2), false)]
        );
    }
}
