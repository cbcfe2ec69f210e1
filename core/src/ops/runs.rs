//! The run locks: a process's run is *alive* while it holds an exclusive lock on
//! `runs/<run>.lock` beside the audit file ([`hold_own_run`]: taken when the process first
//! appends to the file, by the one writer, and freed by the kernel when the process ends,
//! however it ends). [`super::recover`] takes the locks of runs no longer alive to settle
//! their open writes.
//!
//! Safety on a shared host: a lock file is opened without following a link and without
//! blocking (a FIFO planted in its place is refused at once), and only a regular file is
//! locked.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::audit::run_id;

/// The folder of run locks, beside the audit file.
pub const RUNS_DIR: &str = "runs";

/// The lock file of `run` for the audit file at `audit`: `<its folder>/runs/<run>.lock`.
pub fn lock_path(audit: &Path, run: &str) -> PathBuf {
    let dir = audit.parent().unwrap_or_else(|| Path::new("."));
    dir.join(RUNS_DIR)
        .join(format!("{}.lock", crate::text::file_name_part(run)))
}

/// Locks of this process's own run, one per audit folder, held until the process ends.
static OWN: Mutex<Vec<(PathBuf, File)>> = Mutex::new(Vec::new());

/// Takes this process's run lock beside `audit` (once per folder; the writer calls it when
/// it first opens an audit file), so no other process takes this run's writes for an
/// interrupted run's.
///
/// Errors: the lock file cannot be made or is not a regular file, or another process holds
/// it (never: the run id is this process's own).
pub fn hold_own_run(audit: &Path) -> io::Result<()> {
    let path = lock_path(audit, run_id());
    let mut own = OWN.lock().unwrap_or_else(|p| p.into_inner());
    if own.iter().any(|(p, _)| *p == path) {
        return Ok(());
    }
    let f = open_lock(&path)?;
    f.try_lock().map_err(|e| io::Error::other(e.to_string()))?;
    own.push((path, f));
    Ok(())
}

/// Takes the lock of `run`, a run of its own inside this process (a command `serve-ssh` runs
/// for an SSH client), beside `audit`: the run is alive while the file returned is open;
/// drop it when the run ends, and its open writes are an ended run's.
///
/// Errors: the lock file cannot be made or is not a regular file, or it is held already.
pub fn hold_run(audit: &Path, run: &str) -> io::Result<File> {
    let f = open_lock(&lock_path(audit, run))?;
    f.try_lock().map_err(|e| io::Error::other(e.to_string()))?;
    Ok(f)
}

/// Opens (creating it `0600`, its folder `0700`) a run's lock file: never through a link,
/// never blocking (`O_NONBLOCK`: a FIFO planted there cannot hang the open), and only a
/// regular file.
pub(super) fn open_lock(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent() {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(dir)?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true).write(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let f = opts.open(path)?;
    if !f.metadata()?.file_type().is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(f)
}
