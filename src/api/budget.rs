//! The host budget: calls in flight to one server from every club-admin process on this
//! host, whoever runs it (moderators who SSH into a school server and run club-admin there,
//! cron scripts, `serve-ssh`), stay within one budget.
//!
//! Why: the deployed service deadlocks its database pool at 16 authenticated requests in
//! flight from all clients together, and a stalled pool holds every request for about 30 s
//! (deployed behaviour, api-notes.md "Other"). Each process's own [`super::limit::Limiter`]
//! keeps that process below the stall, but six processes at once are six limits.
//!
//! How: the budget is `slots` lock files in one directory shared by every user of the host
//! (`<temp dir>/club-admin-budget`, sticky and world-writable like `/tmp` itself), named by
//! the server's host and port. A call holds one slot (an exclusive `flock` on its file) from
//! just before it is sent until its answer is read. The kernel frees the lock of a process
//! that dies, so a crashed holder frees its share at once.
//!
//! Safety on a host shared with other users: the files hold nothing and are never written;
//! they are created `0644` in a sticky directory (no other user can replace or remove them)
//! and opened read-only with `O_NOFOLLOW` (a planted symlink is refused, never followed);
//! the directory must be a real directory, not a link. A user who holds every slot on
//! purpose can delay a call by at most [`WAIT`]: then this process goes on with one call in
//! flight without a slot ([`Mode::Fallback`]) for [`FALLBACK_FOR`], never waits without end.
//! A directory or file that cannot be used counts the same way.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// How long a call may wait for a slot before this process falls back to one call in
/// flight without one.
pub const WAIT: Duration = Duration::from_secs(3);
/// How long a fall-back lasts before slots are waited for again.
pub const FALLBACK_FOR: Duration = Duration::from_secs(30);
/// The default budget: below the deployed service's stall at 16, with room for a few
/// clients on other hosts.
pub const DEFAULT_SLOTS: usize = 12;
/// The most slots a budget may have.
pub const MAX_SLOTS: usize = 64;

/// Where the budget lives and how large it is ([`super::ClientOptions::host_budget`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetOptions {
    /// Calls in flight to one server from all processes of this host, 1 to [`MAX_SLOTS`].
    pub slots: usize,
    /// The shared directory ([`default_dir`] unless a test or the operator says otherwise).
    pub dir: PathBuf,
}

impl BudgetOptions {
    /// `slots` in the default directory.
    pub fn new(slots: usize) -> BudgetOptions {
        BudgetOptions {
            slots,
            dir: default_dir(),
        }
    }
}

/// The directory every user of the host shares: `CLUB_ADMIN_BUDGET_DIR` if set, else
/// `club-admin-budget` in the system's temporary directory.
pub fn default_dir() -> PathBuf {
    match std::env::var_os("CLUB_ADMIN_BUDGET_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => std::env::temp_dir().join("club-admin-budget"),
    }
}

/// How a call was let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// It holds one of the host's slots.
    Slot,
    /// No slot could be had in time (or the budget cannot be used here): it is this
    /// process's one call in flight without a slot.
    Fallback,
}

/// One server's budget on this host, shared by the clones of one client.
#[derive(Debug, Clone)]
pub struct HostBudget {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The slot files, opened once; `None` for a slot that cannot be used (see the module).
    files: Vec<Option<File>>,
    state: Mutex<State>,
    /// The one call in flight without a slot.
    fallback: Arc<Semaphore>,
}

#[derive(Debug, Default)]
struct State {
    /// Slots this process holds (a second `flock` through the same open file would succeed,
    /// so this process never tries a slot it holds).
    held: Vec<bool>,
    /// Until when calls go without a slot.
    fallback_until: Option<Instant>,
    /// Where the next search for a free slot starts (spreads the processes over the files).
    next: usize,
}

/// A call's place in the budget: hold it until the answer is read; dropping it frees it.
#[derive(Debug)]
pub struct BudgetPermit {
    budget: HostBudget,
    slot: Option<usize>,
    _fallback: Option<OwnedSemaphorePermit>,
}

impl BudgetPermit {
    /// How the call was let through.
    pub fn mode(&self) -> Mode {
        if self.slot.is_some() {
            Mode::Slot
        } else {
            Mode::Fallback
        }
    }
}

impl Drop for BudgetPermit {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            if let Some(Some(f)) = self.budget.inner.files.get(i) {
                let _ = f.unlock();
            }
            let mut s = self.budget.lock();
            if let Some(h) = s.held.get_mut(i) {
                *h = false;
            }
        }
    }
}

/// The file name part for a server: its host and port, with every other character than
/// letters, digits, `.` and `-` made `_` (so nothing in a URL can name another path).
pub fn server_key(base_url: &str) -> String {
    let (host, port) = match url::Url::parse(base_url) {
        Ok(u) => (
            u.host_str().unwrap_or("server").to_owned(),
            u.port_or_known_default().unwrap_or(0),
        ),
        Err(_) => (base_url.to_owned(), 0),
    };
    let host: String = host.chars().take(100).collect();
    format!("{}_{port}", crate::text::file_name_part(&host))
}

impl HostBudget {
    /// The budget of `options.slots` for the server at `base_url`, its files opened now.
    /// Never fails: a directory or file that cannot be used is logged (without secrets: the
    /// path and the error) and counts as a slot never free, so calls fall back to one in
    /// flight after [`WAIT`].
    pub fn open(base_url: &str, options: &BudgetOptions) -> HostBudget {
        let slots = options.slots.clamp(1, MAX_SLOTS);
        let key = server_key(base_url);
        let files = match shared_dir(&options.dir) {
            Ok(()) => (0..slots)
                .map(|i| {
                    let path = options.dir.join(format!("{key}.{i}.lock"));
                    open_slot(&path)
                        .map_err(|e| {
                            tracing::warn!(path = %path.display(), "host budget slot unusable: {e}");
                        })
                        .ok()
                })
                .collect(),
            Err(e) => {
                tracing::warn!(dir = %options.dir.display(), "host budget unusable: {e}");
                (0..slots).map(|_| None).collect()
            }
        };
        HostBudget {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    held: vec![false; slots],
                    ..State::default()
                }),
                files,
                fallback: Arc::new(Semaphore::new(1)),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One free slot taken now, if any (no waiting).
    fn try_slot(&self) -> Option<usize> {
        let mut s = self.lock();
        let n = self.inner.files.len();
        for k in 0..n {
            let i = (s.next + k) % n;
            if s.held[i] {
                continue;
            }
            let Some(Some(f)) = self.inner.files.get(i) else {
                continue;
            };
            if f.try_lock().is_ok() {
                s.held[i] = true;
                s.next = (i + 1) % n;
                return Some(i);
            }
        }
        None
    }

    /// Waits for room for one call: a slot of the host's budget, tried at once, then every
    /// 5 ms to 50 ms for up to [`WAIT`]; after that (and for [`FALLBACK_FOR`]) the process's
    /// one call without a slot ([`Mode::Fallback`]), which only this process's own calls can
    /// hold, each for at most its request time-out.
    pub async fn acquire(&self) -> BudgetPermit {
        let started = Instant::now();
        let mut pause = Duration::from_millis(5);
        loop {
            if let Some(i) = self.try_slot() {
                return self.permit(Some(i), None);
            }
            let falling_back = self
                .lock()
                .fallback_until
                .is_some_and(|t| Instant::now() < t);
            if falling_back || started.elapsed() >= WAIT {
                if !falling_back {
                    tracing::warn!(
                        "no slot of the host budget within {WAIT:?}: one call in flight without one for {FALLBACK_FOR:?}"
                    );
                    self.lock().fallback_until = Some(Instant::now() + FALLBACK_FOR);
                }
                return self.fallback().await;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    async fn fallback(&self) -> BudgetPermit {
        // A slot freed while waiting for the one unslotted call is taken instead.
        let sem = self.inner.fallback.clone();
        let permit = tokio::select! {
            p = sem.acquire_owned() => p.ok(),
            i = self.wait_slot() => return self.permit(Some(i), None),
        };
        self.permit(None, permit)
    }

    /// A slot, however long it takes (raced against the fall-back's one call).
    async fn wait_slot(&self) -> usize {
        loop {
            if let Some(i) = self.try_slot() {
                return i;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    fn permit(&self, slot: Option<usize>, fallback: Option<OwnedSemaphorePermit>) -> BudgetPermit {
        BudgetPermit {
            budget: self.clone(),
            slot,
            _fallback: fallback,
        }
    }

    /// Slots this process holds now.
    pub fn held(&self) -> usize {
        self.lock().held.iter().filter(|h| **h).count()
    }
}

/// Makes sure `dir` is a real directory every user may add files to but nobody may remove
/// another's: created `1777` (sticky) if missing; an existing one must not be a link.
fn shared_dir(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_dir() => Ok(()),
        Ok(_) => Err(std::io::Error::other("not a directory (a link or a file)")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(false);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o1777);
            match b.create(dir) {
                Ok(()) => {}
                // Another process made it meanwhile: check it as found.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return shared_dir_existing(dir);
                }
                Err(e) => return Err(e),
            }
            #[cfg(unix)]
            {
                // The umask cut the mode: set it whole (the directory is ours, just made).
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o1777))?;
            }
            Ok(())
        }
        Err(e) => Err(e),
    }
}

fn shared_dir_existing(dir: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.file_type().is_dir() {
        Ok(())
    } else {
        Err(std::io::Error::other("not a directory (a link or a file)"))
    }
}

/// Opens (creating it `0644` if missing) one slot file, never through a link, for reading
/// only: a lock needs no write access, and nothing is ever written to it.
fn open_slot(path: &Path) -> std::io::Result<File> {
    let mut create = std::fs::OpenOptions::new();
    create.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        create.mode(0o644).custom_flags(libc::O_NOFOLLOW);
    }
    match create.open(path) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let mut read = std::fs::OpenOptions::new();
    read.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        read.custom_flags(libc::O_NOFOLLOW);
    }
    let f = read.open(path)?;
    if !f.metadata()?.file_type().is_file() {
        return Err(std::io::Error::other("not a plain file"));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(dir: &Path, slots: usize) -> BudgetOptions {
        BudgetOptions {
            slots,
            dir: dir.join("budget"),
        }
    }

    #[tokio::test]
    async fn two_processes_share_the_slots_and_a_dropped_holder_frees_them() {
        // Two budgets opened apart are two open files per slot: their locks exclude each
        // other exactly as two processes' do.
        let tmp = tempfile::tempdir().expect("tempdir");
        let a = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 2));
        let b = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 2));
        let a1 = a.acquire().await;
        let a2 = a.acquire().await;
        assert_eq!((a1.mode(), a2.mode()), (Mode::Slot, Mode::Slot));
        assert_eq!(b.try_slot(), None, "both slots are A's");
        drop(a1);
        let b1 = b.acquire().await;
        assert_eq!(b1.mode(), Mode::Slot, "A's freed slot is B's");
        // A process that dies closes its files: the kernel frees its locks.
        drop(a2);
        drop(a);
        let b2 = b.acquire().await;
        assert_eq!(b2.mode(), Mode::Slot);
        assert_eq!(b.held(), 2);
        // Another server has a budget of its own.
        let c = HostBudget::open("http://127.0.0.1:9090", &opts(tmp.path(), 2));
        assert_eq!(c.acquire().await.mode(), Mode::Slot);
    }

    #[tokio::test(start_paused = true)]
    async fn a_budget_held_without_end_falls_back_to_one_call_never_a_wait_without_end() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let hog = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 2));
        let _h1 = hog.acquire().await;
        let _h2 = hog.acquire().await;
        let me = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 2));
        let started = Instant::now();
        let first = me.acquire().await;
        assert_eq!(first.mode(), Mode::Fallback);
        assert!(started.elapsed() >= WAIT && started.elapsed() < WAIT * 2);
        // One call only: a second waits for the first (or for a slot).
        let me2 = me.clone();
        let second = tokio::spawn(async move { me2.acquire().await.mode() });
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(!second.is_finished(), "a second unslotted call waits");
        drop(first);
        assert_eq!(second.await.ok(), Some(Mode::Fallback));
    }

    #[tokio::test]
    async fn a_link_planted_for_the_directory_or_a_slot_is_never_followed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let target = tmp.path().join("elsewhere");
        std::fs::create_dir(&target).expect("dir");
        let dir = tmp.path().join("budget");
        std::os::unix::fs::symlink(&target, &dir).expect("symlink");
        let b = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 1));
        assert!(
            b.inner.files.iter().all(Option::is_none),
            "the linked dir is refused"
        );
        assert_eq!(std::fs::read_dir(&target).map(|d| d.count()).ok(), Some(0));

        std::fs::remove_file(&dir).expect("unlink");
        std::fs::create_dir(&dir).expect("dir");
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "keep").expect("write");
        std::os::unix::fs::symlink(&victim, dir.join("127.0.0.1_8080.0.lock")).expect("link");
        let b = HostBudget::open("http://127.0.0.1:8080", &opts(tmp.path(), 2));
        assert!(b.inner.files[0].is_none(), "the linked slot is refused");
        assert!(b.inner.files[1].is_some(), "the other slot is usable");
        assert_eq!(
            std::fs::read_to_string(&victim).ok().as_deref(),
            Some("keep")
        );
    }

    #[test]
    fn server_keys_name_no_other_path() {
        assert_eq!(
            server_key("https://clubs.school.ac.th/v1"),
            "clubs.school.ac.th_443"
        );
        assert_eq!(server_key("http://127.0.0.1:8080"), "127.0.0.1_8080");
        assert!(!server_key("../../etc/passwd").contains('/'));
    }
}
