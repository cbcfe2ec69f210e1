//! The audit writer's syncer: a thread of its own that syncs the appended files to the disk
//! (`sync_data`), so that the writer's thread never waits for the disk between lines. A sync
//! costs 0.35 ms on a quiet disk and 20 ms or more on a busy one (docs/src/performance/measurements.md,
//! "Every write on disk before it leaves"); during one the writer goes on writing lines.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Files to sync (each a second handle on the writer's open file), and who waits for them.
type Batch = (Vec<(PathBuf, std::fs::File)>, Option<mpsc::Sender<()>>);

/// The syncer: hands batches to its thread. Dropped, the thread ends after its last batch.
pub(super) struct Syncer {
    tx: Option<mpsc::Sender<Batch>>,
    busy: Arc<AtomicBool>,
}

impl Syncer {
    /// Starts the syncer's thread. Without a thread (the system refused one), every sync is
    /// made on the caller's thread.
    pub(super) fn start() -> Syncer {
        let (tx, rx) = mpsc::channel::<Batch>();
        let busy = Arc::new(AtomicBool::new(false));
        let flag = busy.clone();
        let spawned = std::thread::Builder::new()
            .name("club-admin audit sync".into())
            .spawn(move || {
                for (files, done) in rx {
                    sync_all(&files);
                    flag.store(false, Ordering::Release);
                    if let Some(done) = done {
                        let _ = done.send(());
                    }
                }
            });
        Syncer {
            tx: spawned.is_ok().then_some(tx),
            busy,
        }
    }

    /// True while a batch handed over is not synced yet.
    pub(super) fn busy(&self) -> bool {
        self.busy.load(Ordering::Acquire)
    }

    /// Syncs `paths` (the files appended to since the last sync, found in `open`): handed to
    /// the thread and not waited for unless `wait`. A file that cannot be given a second
    /// handle, and every file when there is no thread, is synced here.
    pub(super) fn sync(&self, open: &[(PathBuf, std::fs::File)], paths: Vec<PathBuf>, wait: bool) {
        let mut files = Vec::with_capacity(paths.len());
        for path in paths {
            if let Some((_, f)) = open.iter().find(|(p, _)| *p == path) {
                match (&self.tx, f.try_clone()) {
                    (Some(_), Ok(f)) => files.push((path, f)),
                    _ => sync_one(&path, f),
                }
            }
        }
        let Some(tx) = self.tx.as_ref().filter(|_| !files.is_empty()) else {
            return;
        };
        let (done_tx, done_rx) = mpsc::channel();
        self.busy.store(true, Ordering::Release);
        match tx.send((files, wait.then_some(done_tx))) {
            Ok(()) if wait => {
                let _ = done_rx.recv();
            }
            Ok(()) => {}
            Err(mpsc::SendError((files, _))) => {
                files.iter().for_each(|(p, f)| sync_one(p, f));
                self.busy.store(false, Ordering::Release);
            }
        }
    }
}

/// Syncs each file's data ([`sync_one`]).
fn sync_all(files: &[(PathBuf, std::fs::File)]) {
    files.iter().for_each(|(p, f)| sync_one(p, f));
}

/// Syncs one file's data; a failure is logged (the line is in the file all the same).
fn sync_one(path: &std::path::Path, f: &std::fs::File) {
    if let Err(e) = f.sync_data() {
        tracing::warn!(path = %path.display(), "could not sync the audit file: {e}");
    }
}
