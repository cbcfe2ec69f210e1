//! Writes an interrupted run left open, found and settled at the next start.
//!
//! Every write has a `sending` line in the audit file before it leaves ([`super::audit`]),
//! and every line names the run (process) that wrote it ([`AuditEntry::run`]). A write is
//! *open* when the last line of its run about it is `sending` (the process ended before the
//! answer) or `unknown` (the answer was lost, or the process quit before it came, and no
//! re-read settled it). A run is *alive* while its process holds an exclusive lock on
//! `runs/<run>.lock` beside the audit file ([`super::runs::hold_own_run`]: taken when the process first
//! appends to the file, freed by the kernel when the process ends, however it ends).
//!
//! At start the dashboard, the command line and `serve-ssh` ask [`interrupted_in`] for the
//! open writes of runs that are not alive, each such run claimed (its lock taken) so two
//! processes starting at once never settle the same write twice. Each write is then followed
//! like any lost answer ([`super::decision::Decision::recovered`]; the command line and
//! `serve-ssh` with [`settle_all_in`], the dashboard through its messages), and the line that
//! settles it is a copy of its open line with the interrupted run's id, so the write is
//! closed for every later start. A write a read cannot settle yet (the service is down)
//! stays open for the next start.
//!
//! Safety on a shared host: the lock files are opened without following a link and without
//! blocking (a FIFO planted in their place is refused at once), and only a regular file is
//! locked.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use uuid::Uuid;

use super::action::RowAction;
use super::audit::{AuditEntry, Outcome, run_id};
use super::decision::{Decision, Line};
use super::reread::{Found, Reread};
use super::runs::{lock_path, open_lock};
use super::settle;
use crate::api::{ContactType, NewContact};

/// The runs this process claimed while it settles their writes: their locks, held until
/// dropped (or the process ends). Empty when nothing was interrupted.
#[derive(Debug, Default)]
pub struct Claim {
    locks: Vec<(PathBuf, File)>,
}

impl Claim {
    /// True when no run was claimed.
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty()
    }

    /// Drops the lock files of the claimed runs whose writes are all settled now (a line
    /// after each), reading `audit` again through `writes` (only what was appended since its
    /// last read); the others stay for the next start. Nothing is read when nothing was
    /// claimed.
    pub fn tidy(self, audit: &Path, writes: &OpenWrites) {
        if self.is_empty() {
            return;
        }
        let still: HashSet<String> = writes
            .scan(audit)
            .map(|o| o.into_iter().filter_map(|e| e.run).collect())
            .unwrap_or_default();
        for (path, file) in self.locks {
            let run = run_of(&path);
            if run.is_some_and(|r| !still.contains(&r)) {
                let _ = std::fs::remove_file(&path);
            }
            drop(file);
        }
    }
}

/// The run a lock file names (`<run>.lock`).
fn run_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    name.strip_suffix(".lock").map(str::to_owned)
}

/// The open writes recorded in `audit` (every server, every run, alive or not): for each
/// write (run, session, action, target and, for a contact, its value) whose last line is `sending`
/// or `unknown`, that line. Lines that cannot be read (a line cut by a crash, an older
/// version's line without a run) are skipped.
///
/// Errors: the file exists but cannot be read.
pub fn scan(audit: &Path) -> io::Result<Vec<AuditEntry>> {
    let bytes = match std::fs::read(audit) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut open = HashMap::new();
    fold_open(&bytes, &mut open);
    Ok(sorted(&open))
}

/// A write as [`scan`] tells one from another: run, session, action, target, contact value.
type WriteKey = (String, Option<String>, String, Uuid, Option<String>);

/// Folds audit lines into the open writes: a line whose write is `sending` or `unknown`
/// opens (or stays) open, any other outcome closes it. Lines that are not audit lines, or
/// have no run, are skipped.
fn fold_open(bytes: &[u8], open: &mut HashMap<WriteKey, AuditEntry>) {
    for line in bytes.split(|b| *b == b'\n') {
        let Ok(e) = serde_json::from_slice::<AuditEntry>(line) else {
            continue;
        };
        let Some(run) = e.run.clone() else { continue };
        let key = (
            run,
            e.session.clone(),
            e.action.clone(),
            e.target,
            e.value.clone(),
        );
        if matches!(e.outcome, Outcome::Sending | Outcome::Unknown) {
            open.insert(key, e);
        } else {
            open.remove(&key);
        }
    }
}

/// The open writes, oldest first.
fn sorted(open: &HashMap<WriteKey, AuditEntry>) -> Vec<AuditEntry> {
    let mut open: Vec<AuditEntry> = open.values().cloned().collect();
    open.sort_by_key(|e| e.at);
    open
}

/// The open writes of one audit file kept between reads, so that each read parses only the
/// lines appended since the last ([`scan`] parses the whole file every time). `serve-ssh`
/// asks at every session's start ([`interrupted_in`]): 500 sessions starting together on a
/// host whose audit holds a term's decisions (8 MiB, some 30,000 lines) parse it once, not
/// 500 times. A file that shrank, or was replaced (another inode: rotated, restored), is read
/// again from its start.
#[derive(Debug, Default)]
pub struct OpenWrites {
    kept: std::sync::Mutex<Option<Kept>>,
}

/// What one read left: which file (its path, device and inode), how far it was read (bytes,
/// up to the end of its last whole line), and its open writes then.
#[derive(Debug)]
struct Kept {
    path: PathBuf,
    file: (u64, u64),
    read_to: u64,
    open: HashMap<WriteKey, AuditEntry>,
}

impl OpenWrites {
    /// The open writes recorded in `audit`, as [`scan`] gives them, reading only what was
    /// appended since the last call (blocks for the read; one read at a time).
    ///
    /// Errors: the file exists but cannot be read.
    pub fn scan(&self, audit: &Path) -> io::Result<Vec<AuditEntry>> {
        use std::io::{Read, Seek};
        let Ok(mut kept) = self.kept.lock() else {
            return scan(audit);
        };
        let mut file = match File::open(audit) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                *kept = None;
                return Ok(Vec::new());
            }
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let id = file_id(&meta);
        if kept
            .as_ref()
            .is_some_and(|k| k.path != audit || k.file != id || k.read_to > meta.len())
        {
            *kept = None;
        }
        let k = kept.get_or_insert_with(|| Kept {
            path: audit.to_path_buf(),
            file: id,
            read_to: 0,
            open: HashMap::new(),
        });
        file.seek(io::SeekFrom::Start(k.read_to))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        // Only whole lines are taken: a line being written is read whole next time.
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        fold_open(&bytes[..whole], &mut k.open);
        k.read_to += whole as u64;
        // A last line without its newline yet is read as `scan` reads it, but not kept.
        let mut open = k.open.clone();
        fold_open(&bytes[whole..], &mut open);
        Ok(sorted(&open))
    }
}

/// The file's device and inode (a rotated file is another); (0, 0) off Unix.
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        (0, 0)
    }
}

/// The writes runs no longer alive left open in `audit` for `server` (oldest first), with
/// those runs claimed ([`Claim`]); this process's own run is never among them. Lock files of
/// ended runs with nothing open are removed on the way. The file is read through `writes`
/// (what it read before is not parsed again: `serve-ssh`'s sessions share one).
///
/// Errors: the audit file cannot be read.
pub fn interrupted_in(
    audit: &Path,
    server: &str,
    writes: &OpenWrites,
) -> io::Result<(Vec<AuditEntry>, Claim)> {
    let open = writes.scan(audit)?;
    let runs: HashSet<String> = open.iter().filter_map(|e| e.run.clone()).collect();
    let mut claim = Claim::default();
    for run in &runs {
        if run == run_id()
            || !open
                .iter()
                .any(|e| e.run.as_ref() == Some(run) && e.server == server)
        {
            continue;
        }
        let path = lock_path(audit, run);
        let Ok(f) = open_lock(&path) else { continue };
        if f.try_lock().is_ok() {
            claim.locks.push((path, f));
        }
    }
    remove_ended(audit, &runs);
    if claim.is_empty() {
        return Ok((Vec::new(), claim));
    }
    // Read again once the runs are claimed: another process may have settled them between
    // the first read and the claim.
    let claimed: HashSet<String> = claim.locks.iter().filter_map(|(p, _)| run_of(p)).collect();
    let open = writes
        .scan(audit)?
        .into_iter()
        .filter(|e| e.server == server && e.run.as_ref().is_some_and(|r| claimed.contains(r)))
        .collect();
    Ok((open, claim))
}

/// Removes the lock files of ended runs (none holds its lock) with no open write.
fn remove_ended(audit: &Path, open_runs: &HashSet<String>) {
    let dir = lock_path(audit, "x")
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(run) = run_of(&path) else { continue };
        if run == run_id() || open_runs.contains(&run) {
            continue;
        }
        if let Ok(f) = open_lock(&path)
            && f.try_lock().is_ok()
        {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// What an open write was, as its line says.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenWrite {
    /// A decision on a club request.
    Decision(RowAction),
    /// A new contact for a club (its type and value, from the line's `value`).
    Contact(NewContact),
    /// A line this version cannot settle (an unknown action, a contact without its value).
    Other,
}

impl OpenWrite {
    /// What `entry` (an open write's line) was.
    pub fn of(entry: &AuditEntry) -> OpenWrite {
        if let Some(a) = RowAction::from_verb(&entry.action) {
            return OpenWrite::Decision(a);
        }
        if entry.action == "add-contact"
            && let Some((kind, value)) = entry.value.as_deref().and_then(|v| v.split_once(' '))
        {
            return OpenWrite::Contact(NewContact {
                kind: ContactType::parse(kind),
                value: value.to_owned(),
            });
        }
        OpenWrite::Other
    }
}

/// How an interrupted write ended, for the summary: what the read that settled it found, or
/// `None` when no read could (the write stays open for the next start).
pub type Settled = Option<Found>;

/// The summary said once an interrupted run's writes are settled, in English: "3 writes of
/// an interrupted run: 2 approved, 1 not applied: still pending".
pub fn summary(settled: &[Settled]) -> String {
    let words = settled.iter().map(|s| {
        s.as_ref()
            .map_or("still unknown".to_owned(), Found::english)
    });
    let n = settled.len();
    let writes = if n == 1 { "write" } else { "writes" };
    format!("{n} {writes} of an interrupted run: {}", tally(words))
}

/// Words counted in the order each first comes: "2 approved, 1 not applied".
pub fn tally(words: impl IntoIterator<Item = String>) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for word in words {
        match counts.iter_mut().find(|(w, _)| *w == word) {
            Some((_, n)) => *n += 1,
            None => counts.push((word, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
    parts.join(", ")
}

/// Settles, for a front end that awaits its reads (the command line), the writes interrupted
/// runs left open in the audit file at `audit` for the server `client` talks to (named
/// `server` in the lines; the file read through `writes`, which `serve-ssh`'s commands
/// share): each is followed by the one loop ([`settle::follow`], for at most
/// [`settle::AT_START`]) reading its request (or club), and the line that settles it is a
/// copy of its open line ([`Decision::closing`]: the interrupted run's id and sender). A
/// write no read could settle stays open for the next start. Returns how each ended, oldest
/// first (empty when nothing was interrupted).
///
/// Errors: the audit file cannot be read, or a settling line cannot be written (in words).
pub async fn settle_all_in(
    client: &crate::api::ApiClient,
    audit: &Path,
    server: &str,
    control: &super::control::Control,
    writes: &OpenWrites,
) -> Result<Vec<Settled>, String> {
    let (open, claim) = interrupted_in(audit, server, writes)
        .map_err(|e| format!("could not read the audit file {}: {e}", audit.display()))?;
    let once = client.single_try();
    let mut out = Vec::with_capacity(open.len());
    for entry in open {
        let (target, failed) = (entry.target, std::sync::OnceLock::new());
        let record = |d: &Decision, line: Line| {
            let line = d.closing(chrono::Utc::now(), &line);
            async {
                let Some(line) = line else { return };
                let written = super::writer::Writer::process().append_line(audit, &line);
                if let Err(e) = written.await {
                    let _ = failed.set(format!(
                        "could not write the audit file {}: {e}",
                        audit.display()
                    ));
                }
            }
        };
        let patience = settle::AT_START;
        let found = match OpenWrite::of(&entry) {
            OpenWrite::Decision(action) => {
                let mut d = Decision::recovered(target, action, 0, entry);
                let read = || once.club_request(target, super::run::DECISION_LEVELS);
                let proves = Reread::of_request;
                settle::follow(&mut d, read, proves, patience, control, record)
                    .await
                    .0
                    .ok()
            }
            OpenWrite::Contact(new) => {
                let mut d = Decision::recovered(target, RowAction::AddContact, 0, entry);
                let read = || once.club(target, super::club_read::CONTACT_LEVELS);
                let proves = Reread::of_club(&new);
                settle::follow(&mut d, read, proves, patience, control, record)
                    .await
                    .0
                    .ok()
            }
            OpenWrite::Other => None,
        };
        if let Some(e) = failed.into_inner() {
            return Err(e);
        }
        out.push(found);
    }
    claim.tidy(audit, writes);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(run: &str, target: Uuid, outcome: Outcome) -> String {
        let e = AuditEntry {
            at: chrono::Utc::now(),
            server: "http://s".into(),
            user: None,
            action: "approve".into(),
            target,
            outcome,
            detail: None,
            value: None,
            via: Some("cli".into()),
            key: None,
            key_comment: None,
            run: Some(run.into()),
            session: None,
            carried: None,
            settled_by: None,
            label: None,
        };
        serde_json::to_string(&e).expect("json")
    }

    #[test]
    fn a_write_is_open_until_a_line_after_its_sending_line_closes_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = dir.path().join("audit.jsonl");
        let (a, b, c) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let text = [
            line("r1", a, Outcome::Sending),
            line("r1", a, Outcome::Ok),
            line("r1", b, Outcome::Sending),
            "{\"cut by a cra".to_owned(),
            line("r1", c, Outcome::Sending),
            line("r1", c, Outcome::Unknown),
        ]
        .join("\n");
        std::fs::write(&audit, text).expect("write");
        let open: Vec<(Uuid, Outcome)> = scan(&audit)
            .expect("scan")
            .into_iter()
            .map(|e| (e.target, e.outcome))
            .collect();
        assert_eq!(open.len(), 2, "{open:?}");
        assert!(open.contains(&(b, Outcome::Sending)));
        assert!(open.contains(&(c, Outcome::Unknown)));
    }

    fn interrupted(audit: &Path, server: &str) -> io::Result<(Vec<AuditEntry>, Claim)> {
        interrupted_in(audit, server, &OpenWrites::default())
    }

    /// The targets of the open writes, as one read gives them.
    fn targets(open: Vec<AuditEntry>) -> Vec<(Uuid, Outcome)> {
        open.into_iter().map(|e| (e.target, e.outcome)).collect()
    }

    fn append(audit: &Path, text: &str) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(audit)
            .expect("open");
        f.write_all(text.as_bytes()).expect("append");
    }

    #[test]
    fn the_kept_reads_find_what_a_whole_read_finds_as_the_file_grows_and_is_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = dir.path().join("audit.jsonl");
        let writes = OpenWrites::default();
        assert!(writes.scan(&audit).expect("no file yet").is_empty());
        let (a, b, c) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        append(&audit, &format!("{}\n", line("r1", a, Outcome::Sending)));
        assert_eq!(
            targets(writes.scan(&audit).expect("1")),
            vec![(a, Outcome::Sending)]
        );
        // A line closes `a`; `b` opens, its line not yet whole (no newline): read as `scan`
        // reads it, and again once whole.
        let b_line = line("r1", b, Outcome::Sending);
        let (head, tail) = b_line.split_at(b_line.len() / 2);
        append(&audit, &format!("{}\n{head}", line("r1", a, Outcome::Ok)));
        assert_eq!(
            targets(writes.scan(&audit).expect("2")),
            targets(scan(&audit).expect("whole"))
        );
        assert!(
            targets(writes.scan(&audit).expect("2")).is_empty(),
            "a half line is no write"
        );
        append(
            &audit,
            &format!("{tail}\n{}", line("r1", c, Outcome::Unknown)),
        );
        let kept = targets(writes.scan(&audit).expect("3"));
        assert_eq!(kept, vec![(b, Outcome::Sending), (c, Outcome::Unknown)]);
        assert_eq!(kept, targets(scan(&audit).expect("whole")));
        // Replaced by another file (rotated): read from its start, nothing kept of the old.
        let fresh = dir.path().join("fresh.jsonl");
        std::fs::write(&fresh, format!("{}\n", line("r2", a, Outcome::Unknown))).expect("write");
        std::fs::rename(&fresh, &audit).expect("rename");
        assert_eq!(
            targets(writes.scan(&audit).expect("4")),
            vec![(a, Outcome::Unknown)]
        );
        // Cut shorter in place: read again from the start too.
        std::fs::write(&audit, "").expect("truncate");
        assert!(writes.scan(&audit).expect("5").is_empty());
    }

    #[test]
    fn a_live_run_is_not_claimed_and_an_ended_one_is_claimed_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = dir.path().join("audit.jsonl");
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        let text = [
            line("alive", a, Outcome::Sending),
            line("ended", b, Outcome::Sending),
        ]
        .join("\n");
        std::fs::write(&audit, text).expect("write");
        // The live run holds its lock (as its process would).
        let live = open_lock(&lock_path(&audit, "alive")).expect("lock");
        live.try_lock().expect("locked");
        let (open, claim) = interrupted(&audit, "http://s").expect("interrupted");
        assert_eq!(open.iter().map(|e| e.target).collect::<Vec<_>>(), vec![b]);
        // A second process starting meanwhile gets nothing: the ended run is claimed.
        let (again, _) = interrupted(&audit, "http://s").expect("again");
        assert!(again.is_empty(), "{again:?}");
        // Another server's writes are not this one's.
        drop(claim);
        let (other, _) = interrupted(&audit, "http://other").expect("other");
        assert!(other.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_planted_as_a_run_lock_is_refused_at_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = dir.path().join("audit.jsonl");
        let b = Uuid::new_v4();
        std::fs::write(&audit, line("ended", b, Outcome::Sending)).expect("write");
        let lock = lock_path(&audit, "ended");
        std::fs::create_dir_all(lock.parent().expect("dir")).expect("mkdir");
        let c = std::ffi::CString::new(lock.to_string_lossy().as_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o666) }, 0);
        let (open, claim) = interrupted(&audit, "http://s").expect("no hang");
        assert!(open.is_empty() && claim.is_empty(), "a FIFO is no lock");
    }

    #[test]
    fn the_summary_counts_each_ending() {
        let approved = Some(Found::Decided(crate::api::MembershipStatus::Approved));
        let s = summary(&[approved.clone(), approved, Some(Found::StillPending)]);
        assert_eq!(
            s,
            "3 writes of an interrupted run: 2 approved, 1 not applied: still pending"
        );
    }
}
