//! The process's one writer of files, for every front end ([`Writer`]): audit lines
//! ([`super::audit`]: appended, each on disk before the write it announces leaves) and whole
//! files replaced (the saved queue, the token), written in the order they were
//! handed over by one thread of its own, so that no front end writes a file on its event loop
//! (every `serve-ssh` session shares one loop).
//!
//! A caller hands a job over and goes on: [`Writer::append_line`] and [`Writer::replace`]
//! return a [`Written`] to await when the caller must know the bytes are on disk before it
//! goes on (the command line reports a decision done only once its audit line is written);
//! [`Writer::append_line_then`] and [`Writer::replace_then`] call back instead (the
//! dashboard turns a failure into a message for its status line and log).
//! [`Writer::written`] waits until every job handed over before it is done (a front end that
//! ends waits for it, so nothing it handed over is lost when the process exits).
//!
//! Why a thread and not a task of the async runtime: the writes block (open, write, fsync,
//! rename), and on a task they would hold one of the runtime's threads as they held the loop;
//! and one thread per process outlives any one runtime (tests start one per test).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc;

mod sync;

/// Audit files kept open at once (a process writes one; tests write many, one after the
/// other): the file used least recently is closed first.
const KEPT_OPEN: usize = 4;

/// What the writer asks before it appends to an audit file ([`super::audit::FILE_NAME`]),
/// when one is set ([`on_audit_append`]): given the file and its size with the line, true
/// when it rotated the file (the writer opens the new one).
type RotateHook = fn(&Path, u64) -> io::Result<bool>;

/// The rotation the writer asks before each audit line ([`RotateHook`]); none: never.
static ROTATE: OnceLock<RotateHook> = OnceLock::new();

/// Sets what the writer asks before it appends to an audit file (once; later calls change
/// nothing): `ops::rotate` rotates it there, in the writer's thread, between two lines.
pub fn on_audit_append(hook: RotateHook) {
    let _ = ROTATE.set(hook);
}

/// True when `path` now names another file than `f` (another process rotated it).
fn moved(path: &Path, f: &std::fs::File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(path), f.metadata()) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) != (b.dev(), b.ino()),
            (Err(_), _) | (_, Err(_)) => true,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (path, f);
        false
    }
}

/// Before a line of `len` bytes goes to the audit file `path` open as `f`: true when the
/// file to write to is another now (rotated here, by the hook, or by another process).
fn rotated(path: &Path, f: &std::fs::File, len: usize) -> io::Result<bool> {
    let Some(hook) = ROTATE.get() else {
        return Ok(false);
    };
    if path.file_name().and_then(|n| n.to_str()) != Some(super::audit::FILE_NAME) {
        return Ok(false);
    }
    if moved(path, f) {
        return Ok(true);
    }
    hook(path, f.metadata()?.len() + len as u64)
}

/// What happens when a job is done: nothing, an awaiting caller notified, a callback called.
type Report = Box<dyn FnOnce(io::Result<()>) + Send>;

/// One job of the writer.
enum Job {
    /// Appends `line` (ending with a new line) to `path`, then flushes it.
    Append {
        path: PathBuf,
        line: Vec<u8>,
        report: Report,
    },
    /// Replaces `path` with `bytes` ([`write_private`]).
    Replace {
        path: PathBuf,
        bytes: Vec<u8>,
        report: Report,
    },
    /// Nothing to write: done when every job before it is.
    Barrier(Report),
}

/// A handle on the process's writer ([`Writer::process`]); clones hand jobs to the same
/// thread, in one order.
#[derive(Clone)]
pub struct Writer {
    tx: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Writer")
    }
}

/// Resolves when a job handed to the [`Writer`] is done: `Ok` once its bytes are on disk
/// (appended and flushed, or replaced and synced).
///
/// Errors: the file could not be written (the `io::Error` as the system gave it), the line
/// could not be made, or the writer's thread is gone (`io::ErrorKind::BrokenPipe`).
#[must_use = "a Written does nothing unless awaited; drop it to not wait"]
pub struct Written(tokio::sync::oneshot::Receiver<io::Result<()>>);

impl Written {
    /// Waits for the job on a thread that is not the async runtime's (a reader that must
    /// see every line handed over before it).
    ///
    /// Errors: as awaiting it.
    pub fn wait_blocking(self) -> io::Result<()> {
        self.0
            .blocking_recv()
            .unwrap_or_else(|_| Err(io::Error::new(io::ErrorKind::BrokenPipe, GONE)))
    }
}

impl std::future::Future for Written {
    type Output = io::Result<()>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<io::Result<()>> {
        std::pin::Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.unwrap_or_else(|_| Err(io::Error::new(io::ErrorKind::BrokenPipe, GONE))))
    }
}

/// Why a job could not be done: the writer's thread is gone (it never ends on its own).
const GONE: &str = "the file writer stopped";

impl Writer {
    /// The process's writer, its thread started on first use.
    pub fn process() -> Writer {
        static WRITER: OnceLock<Writer> = OnceLock::new();
        WRITER.get_or_init(Writer::start).clone()
    }

    /// A writer with a thread of its own ([`Writer::process`] makes the process's one; the
    /// unit tests below make their own).
    fn start() -> Writer {
        let (tx, rx) = mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("club-admin-writer".into())
            .spawn(move || run(rx));
        if let Err(e) = spawned {
            // Every job's report then says the writer is gone.
            tracing::error!("could not start the file writer: {e}");
        }
        Writer { tx }
    }

    /// Appends `value` as one JSON line to `path` (made with mode 0600, its directory made
    /// too) and flushes it; resolves when it is on disk.
    pub fn append_line<T: serde::Serialize>(&self, path: &Path, value: &T) -> Written {
        let (report, written) = awaited();
        self.append_line_then(path, value, report);
        written
    }

    /// As [`Writer::append_line`], calling `report` with the result (on the writer's
    /// thread: keep it short, never block in it).
    pub fn append_line_then<T: serde::Serialize>(
        &self,
        path: &Path,
        value: &T,
        report: impl FnOnce(io::Result<()>) + Send + 'static,
    ) {
        match serde_json::to_vec(value) {
            Ok(mut line) => {
                line.push(b'\n');
                self.hand(Job::Append {
                    path: path.to_owned(),
                    line,
                    report: Box::new(report),
                });
            }
            Err(e) => report(Err(io::Error::other(e))),
        }
    }

    /// Replaces `path` with `bytes` ([`write_private`]: mode 0600, atomically); resolves
    /// when the new file is in place.
    pub fn replace(&self, path: &Path, bytes: Vec<u8>) -> Written {
        let (report, written) = awaited();
        self.replace_then(path, bytes, report);
        written
    }

    /// As [`Writer::replace`], calling `report` with the result (on the writer's thread).
    pub fn replace_then(
        &self,
        path: &Path,
        bytes: Vec<u8>,
        report: impl FnOnce(io::Result<()>) + Send + 'static,
    ) {
        self.hand(Job::Replace {
            path: path.to_owned(),
            bytes,
            report: Box::new(report),
        });
    }

    /// Resolves when every job handed over before this call is done (their reports called).
    pub fn written(&self) -> Written {
        let (report, written) = awaited();
        self.hand(Job::Barrier(Box::new(report)));
        written
    }

    fn hand(&self, job: Job) {
        if let Err(mpsc::SendError(job)) = self.tx.send(job) {
            let gone = || Err(io::Error::new(io::ErrorKind::BrokenPipe, GONE));
            match job {
                Job::Append { report, .. } | Job::Replace { report, .. } | Job::Barrier(report) => {
                    report(gone())
                }
            }
        }
    }
}

/// A report that tells a [`Written`].
fn awaited() -> (impl FnOnce(io::Result<()>) + Send + 'static, Written) {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let report = move |r: io::Result<()>| {
        let _ = tx.send(r);
    };
    (report, Written(rx))
}

/// How long appended lines may wait for their sync while more keep coming: a bulk's lines
/// share one `sync_data` per this interval instead of one per pause of its writes (a sync
/// costs 0.35 ms on a quiet disk and 20 ms or more on a busy one, measured in
/// `docs/src/performance/measurements.md`, "Every write on disk before it leaves").
pub const SYNC_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// The writer's thread: jobs in the order they came, the audit files kept open. An appended
/// line is reported once it is written (in the file: a process killed after that loses
/// none); the files appended to are synced to the disk in batches by the syncer's thread
/// ([`sync::Syncer`]), [`SYNC_EVERY`] apart at most and one at a time (so no line waits for
/// the disk and a bulk's many lines share one sync), and, waited for, before a
/// [`Job::Barrier`] is reported and when the thread ends.
fn run(rx: mpsc::Receiver<Job>) {
    let mut open: Vec<(PathBuf, std::fs::File)> = Vec::new();
    let mut dirty: Vec<PathBuf> = Vec::new();
    let syncer = sync::Syncer::start();
    let mut synced = std::time::Instant::now();
    loop {
        let due = (synced + SYNC_EVERY).saturating_duration_since(std::time::Instant::now());
        if !dirty.is_empty() && due.is_zero() && !syncer.busy() {
            syncer.sync(&open, std::mem::take(&mut dirty), false);
            synced = std::time::Instant::now();
        }
        let job = if dirty.is_empty() {
            rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            // Due, or (the syncer busy with the last batch) looked at again shortly.
            rx.recv_timeout(due.max(std::time::Duration::from_millis(5)))
        };
        let job = match job {
            Ok(job) => job,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match job {
            Job::Append { path, line, report } => {
                let result = append(&mut open, &path, &line);
                if result.is_err() {
                    // Opened again for the next line: the fault may be gone by then.
                    open.retain(|(p, _)| *p != path);
                } else if !dirty.contains(&path) {
                    dirty.push(path);
                }
                report(result)
            }
            Job::Replace {
                path,
                bytes,
                report,
            } => report(write_private(&path, &bytes)),
            Job::Barrier(report) => {
                syncer.sync(&open, std::mem::take(&mut dirty), true);
                synced = std::time::Instant::now();
                report(Ok(()))
            }
        }
    }
    syncer.sync(&open, dirty, true);
}

/// Appends `line` to `path` through the file kept open for it (opened now if it is not,
/// with this run's lock taken beside it first: [`super::runs::hold_own_run`]).
fn append(open: &mut Vec<(PathBuf, std::fs::File)>, path: &Path, line: &[u8]) -> io::Result<()> {
    let at = match open.iter().position(|(p, _)| p == path) {
        Some(i) => i,
        None => {
            let f = open_append(path)?;
            if let Err(e) = super::runs::hold_own_run(path) {
                tracing::warn!(path = %path.display(), "could not hold this run's lock beside the audit file: {e}");
            }
            if open.len() >= KEPT_OPEN {
                open.remove(0);
            }
            open.push((path.to_owned(), f));
            open.len() - 1
        }
    };
    // The most recently used last.
    let mut kept = open.remove(at);
    if rotated(path, &kept.1, line.len())? {
        kept.1 = open_append(path)?;
    }
    open.push(kept);
    let (_, f) = open.last_mut().ok_or_else(|| io::Error::other("no file"))?;
    f.write_all(line)?;
    f.flush()
}

/// Opens `path` for appending, made with mode 0600 if new (audit lines name people) and its
/// directory made; a file made by an older version (0644) is made private too.
///
/// Errors: the file or its directory cannot be made or opened.
pub fn open_append(path: &Path) -> io::Result<std::fs::File> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        private_dirs(dir)?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let f = opts.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if f.metadata()?.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(f)
}

/// Makes `dir` and the folders above it that are missing, each with mode 0700 (what they
/// hold names people or is a secret: the token, the audit); folders already there keep
/// their mode.
///
/// Errors: a folder cannot be made.
fn private_dirs(dir: &Path) -> io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// Replaces a file atomically with mode 0600: a uniquely named temporary file beside it
/// (`tempfile`, so two running instances never share one), synced, then renamed over it.
///
/// Errors: the file or its directory cannot be written.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    private_dirs(dir)?;
    // tempfile creates its files with mode 0600 on unix.
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_folders_a_private_file_needs_are_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let token = dir.path().join("state").join("ssh-tokens").join("a.token");
        write_private(&token, b"secret").expect("write");
        for d in [
            dir.path().join("state"),
            dir.path().join("state/ssh-tokens"),
        ] {
            let mode = std::fs::metadata(&d).expect("meta").permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", d.display());
        }
        let audit = dir.path().join("other").join("audit.jsonl");
        drop(open_append(&audit).expect("open"));
        let mode = std::fs::metadata(dir.path().join("other"))
            .expect("meta")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[tokio::test]
    async fn lines_arrive_in_order_and_each_is_on_disk_when_awaited() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("sub").join("audit.jsonl");
        let w = Writer::start();
        let mut pending = Vec::new();
        for i in 0..200 {
            pending.push(w.append_line(&path, &serde_json::json!({ "n": i })));
        }
        for p in pending {
            p.await.expect("written");
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let seen: Vec<u64> = text
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).expect("json")["n"]
                    .as_u64()
                    .expect("n")
            })
            .collect();
        assert_eq!(seen, (0..200).collect::<Vec<_>>());
        w.append_line(&path, &serde_json::json!({ "n": 200 }))
            .await
            .expect("written");
        // Awaited: on disk now, without waiting for anything else.
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text.lines().count(), 201);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        }
    }

    #[tokio::test]
    async fn a_failure_comes_back_and_the_next_line_is_tried_afresh() {
        let dir = tempfile::tempdir().expect("tempdir");
        // The audit file's directory is a plain file: nothing can be made below it.
        let blocker = dir.path().join("state");
        std::fs::write(&blocker, b"x").expect("write");
        let path = blocker.join("audit.jsonl");
        let w = Writer::start();
        let e = w
            .append_line(&path, &1)
            .await
            .expect_err("a file under a plain file");
        assert!(!e.to_string().is_empty());
        let (tx, rx) = std::sync::mpsc::channel();
        w.append_line_then(&path, &2, move |r| {
            let _ = tx.send(r.is_err());
        });
        w.written().await.expect("barrier");
        assert_eq!(rx.try_recv(), Ok(true), "reported before the barrier");
        // The fault gone, the next line is written.
        std::fs::remove_file(&blocker).expect("rm");
        w.append_line(&path, &3).await.expect("written now");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "3\n");
    }

    #[tokio::test]
    async fn a_replaced_file_is_whole_and_ordered_after_the_lines_before_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let queue = dir.path().join("queue.json");
        let w = Writer::process();
        let first = w.replace(&queue, b"one".to_vec());
        let second = w.replace(&queue, b"two".to_vec());
        first.await.expect("first");
        second.await.expect("second");
        assert_eq!(std::fs::read(&queue).expect("read"), b"two");
    }
}
