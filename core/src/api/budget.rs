//! The host budget: calls in flight to one server from every club-admin process on this
//! host, whoever runs it (moderators who SSH into a school server and run club-admin there,
//! cron scripts, `serve-ssh`), stay within one budget.
//!
//! Why: the deployed service deadlocks its database pool at 16 authenticated requests in
//! flight from all clients together, and a stalled pool holds every request for about 30 s
//! (deployed behaviour, api-notes.md "Other"). Each process's own [`super::limit::Limiter`]
//! keeps that process below the stall, but six processes at once are six limits.
//!
//! How: the budget is `slots` lock files in one folder shared by the host's processes
//! ([`default_dir`]: the operator's [`HOST_DIR`] when it exists, else
//! `<temp dir>/club-admin-budget`), named by the server's host and port. A call holds one
//! slot (an exclusive `flock` on its file) from just before it is sent until its answer is
//! read. The kernel frees the lock of a process that dies, so a crashed holder frees its
//! share at once.
//!
//! Safety on a host shared with other users (`place`): nothing planted under a budget name
//! can hang this process or lead it elsewhere. The folder is used only if it is a real
//! directory (not a link) owned by root or by this user, sticky if others may write to it;
//! a slot file is opened with `O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC` (a FIFO opens at once, a
//! link is refused, never followed) and used only if `fstat` says it is a plain file with
//! one name that others may not write to, owned by root or this user where every user may
//! add files ([`place::slot_rule`]). The files hold nothing and are never written.
//!
//! What cannot be used is reported once, in the log and by every front end
//! ([`BudgetStatus::refusal`]):
//! a slot file refused leaves the others (every process that checks refuses the same name,
//! so the host stays within the budget); a folder refused, or every slot, leaves this
//! process without the shared budget, at most [`ALONE`] calls in flight of its own.
//!
//! A user who holds every slot on purpose can delay a call by at most [`WAIT`]: then this
//! process goes on with one call in flight without a slot ([`Mode::Fallback`]) for
//! [`FALLBACK_FOR`], never waits without end, and says so ([`BudgetStatus::busy`]).

mod place;

pub use place::{Facts, Kind, Why, effective_uid, folder_rule, slot_rule};

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;

use crate::i18n::Lang;

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
/// Calls in flight of a process that cannot use the host's budget at all (its folder, or
/// every slot file, refused): it cannot see the others, so it takes the share the limiter
/// gives a process on a host of its own at its start ([`super::limit::START`]). Six such
/// processes are 12 calls, below the deployed stall at 16 (api-notes.md "Other": six
/// clients at 4 calls each stalled it, three did not); one call would slow a moderator's
/// bulk to a crawl for a fault that is the host's, not theirs.
pub const ALONE: usize = 2;
/// The folder an operator makes for the whole host, owned by root (a `systemd-tmpfiles`
/// line: `docs/src/operators/check-and-status.md`); every club-admin process of the host
/// uses it by default when it exists ([`default_dir`]), `serve-ssh` under systemd too.
pub const HOST_DIR: &str = "/run/club-admin-budget";

/// Where the budget lives and how large it is ([`super::ClientOptions::host_budget`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetOptions {
    /// Calls in flight to one server from all processes of this host, 1 to [`MAX_SLOTS`].
    pub slots: usize,
    /// The shared folder ([`default_dir`] unless the operator names one: `--host-budget-dir`,
    /// `CLUB_ADMIN_BUDGET_DIR`, `host_budget_dir` in the config).
    pub dir: PathBuf,
    /// True for `serve-ssh`, the service every moderator's dashboard goes through: it may
    /// take every slot; any other process (a moderator's own club-admin on the host, a
    /// script) takes only the first [`shared_slots`] of them, so that no member of the
    /// budget's group can take the slots the service needs.
    pub service: bool,
}

impl BudgetOptions {
    /// `slots` in the default folder ([`default_dir`]), for a process that is not the
    /// service.
    pub fn new(slots: usize) -> BudgetOptions {
        BudgetOptions {
            slots,
            dir: default_dir(),
            service: false,
        }
    }
}

/// The slots of a budget of `slots` that a process other than the service may take: all but
/// a third (12: 8, the service keeping 4 of its own), at least one.
pub fn shared_slots(slots: usize) -> usize {
    slots.saturating_sub(slots / 3).max(1)
}

/// The folder every process of the host shares unless one is named: [`HOST_DIR`] when it
/// is a directory (found with `lstat`; whether it may be used is checked when it is
/// opened, and reported if not), else `club-admin-budget` in the system's temporary directory.
pub fn default_dir() -> PathBuf {
    let host = Path::new(HOST_DIR);
    match std::fs::symlink_metadata(host) {
        Ok(meta) if meta.file_type().is_dir() => host.to_path_buf(),
        _ => std::env::temp_dir().join("club-admin-budget"),
    }
}

/// How a call was let through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// It holds one of the host's slots.
    Slot,
    /// No slot could be had in time: it is this process's one call in flight without a
    /// slot.
    Fallback,
    /// The budget cannot be used here ([`BudgetStatus::refusal`] with no slot usable): one of
    /// this process's [`ALONE`] calls.
    Alone,
}

/// The budget when it cannot be used whole: what was refused and why, from the checks made
/// when it was opened. Its `Display` is English (logs, standard error); the dashboard says
/// it in the reader's language ([`Refusal::text`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The folder, or the first slot file refused.
    pub path: PathBuf,
    /// Why.
    pub why: Why,
    /// Slots refused: all of them when the folder was.
    pub refused: usize,
    /// Slots of the budget.
    pub slots: usize,
}

impl Refusal {
    /// Slots still used.
    pub fn usable(&self) -> usize {
        self.slots.saturating_sub(self.refused)
    }

    /// The warning in `lang` (keys `budget-*` of assets/locales/*/budget.ftl): "the host
    /// budget's /tmp/club-admin-budget/x.0.lock is not a plain file (a FIFO): 11 of 12 slots
    /// used", or "...: going on without the shared budget, at most 2 calls in flight".
    pub fn text(&self, lang: Lang) -> String {
        let path = self.path.display().to_string();
        let why = why_text(lang, &self.why);
        if self.usable() == 0 {
            crate::tr!(lang, "budget-off", path = path, why = why, n = ALONE)
        } else {
            crate::tr!(
                lang,
                "budget-part",
                path = path,
                why = why,
                usable = self.usable(),
                slots = self.slots
            )
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::English))
    }
}

/// [`Why`] in `lang` (keys `budget-why-*`); in English its `Display`.
fn why_text(lang: Lang, why: &Why) -> String {
    let kind = |k: Kind| crate::i18n::tr(lang, k.key());
    match why {
        Why::NotFolder(k) => crate::tr!(lang, "budget-why-not-folder", kind = kind(*k)),
        Why::NotFile(k) => crate::tr!(lang, "budget-why-not-file", kind = kind(*k)),
        Why::Owner(uid) => crate::tr!(lang, "budget-why-owner", uid = uid.to_string()),
        Why::Unsticky(m) => crate::tr!(lang, "budget-why-unsticky", mode = format!("{m:o}")),
        Why::Writable(m) => crate::tr!(lang, "budget-why-writable", mode = format!("{m:o}")),
        Why::Links(n) => crate::tr!(lang, "budget-why-links", n = n.to_string()),
        Why::Io(e) => crate::tr!(lang, "budget-why-io", error = e.clone()),
    }
}

/// The budget as a front end shows it ([`HostBudget::watch`]; through the client,
/// [`super::ApiClient::watch_budget`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BudgetStatus {
    /// What could not be used, found when the budget was opened; `None` when all of it is.
    pub refusal: Option<Refusal>,
    /// True from a call that got no slot within [`WAIT`] (another process holds them all)
    /// until a call gets one after [`FALLBACK_FOR`]: calls go one at a time.
    pub busy: bool,
    /// Calls let through without a slot since the start ([`Mode::Fallback`]). Its changes
    /// alone are not sent to watchers.
    pub unslotted: u64,
    /// True while a call has waited [`SAY_WAIT`] or more for a slot (other processes hold
    /// them all) and got none yet: a front end shows the wait as it begins, not 3 s later.
    pub waiting: bool,
}

/// How long a call waits for a slot before the wait is reported ([`BudgetStatus::waiting`]).
pub const SAY_WAIT: Duration = Duration::from_millis(500);

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
    /// [`ALONE`] calls, when no slot can be used at all.
    alone: Option<Arc<Semaphore>>,
    status: watch::Sender<BudgetStatus>,
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
    mode: Mode,
    slot: Option<usize>,
    _unslotted: Option<OwnedSemaphorePermit>,
}

impl BudgetPermit {
    /// How the call was let through.
    pub fn mode(&self) -> Mode {
        self.mode
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
    /// The budget of `options.slots` for the server at `base_url`, its folder checked and its
    /// files opened now (see the module: nothing planted there can block this call). Never
    /// fails: what cannot be used is logged once (the path and why; no secret) and kept in
    /// [`BudgetStatus::refusal`] for the front ends to show; a slot refused is never tried, and
    /// with none left calls go [`Mode::Alone`].
    pub fn open(base_url: &str, options: &BudgetOptions) -> HostBudget {
        let slots = options.slots.clamp(1, MAX_SLOTS);
        let key = server_key(base_url);
        let me = place::effective_uid();
        let mut refusal: Option<Refusal> = None;
        let usable = match options.service {
            true => slots,
            false => shared_slots(slots),
        };
        let mut refuse = |path: PathBuf, why: Why, n: usize| match refusal.as_mut() {
            Some(r) => r.refused += n,
            None => {
                refusal = Some(Refusal {
                    path,
                    why,
                    refused: n,
                    slots: usable,
                })
            }
        };
        let files: Vec<Option<File>> = match place::open_folder(&options.dir, me) {
            Ok(folder) => {
                let swept = place::sweep_stale(&folder, me, &key);
                if swept > 0 {
                    tracing::info!(
                        swept,
                        "host budget: slot files of local servers no longer running removed"
                    );
                }
                (0..slots)
                    .map(|i| {
                        if i >= usable {
                            // The service's own: never taken by this process.
                            return None;
                        }
                        let name = format!("{key}.{i}.lock");
                        place::open_slot(&folder, &name, me)
                            .map_err(|why| refuse(options.dir.join(&name), why, 1))
                            .ok()
                    })
                    .collect()
            }
            Err(why) => {
                refuse(options.dir.clone(), why, usable);
                (0..slots).map(|_| None).collect()
            }
        };
        if let Some(r) = &refusal {
            tracing::warn!(path = %r.path.display(), "{r}");
        }
        let alone = files
            .iter()
            .all(Option::is_none)
            .then(|| Arc::new(Semaphore::new(ALONE)));
        HostBudget {
            inner: Arc::new(Inner {
                state: Mutex::new(State {
                    held: vec![false; slots],
                    ..State::default()
                }),
                files,
                fallback: Arc::new(Semaphore::new(1)),
                alone,
                status: watch::Sender::new(BudgetStatus {
                    refusal,
                    ..BudgetStatus::default()
                }),
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
    /// hold, each for at most its request time-out. Without a usable slot at all: one of
    /// [`ALONE`] calls, at once.
    pub async fn acquire(&self) -> BudgetPermit {
        if let Some(alone) = &self.inner.alone {
            let permit = alone.clone().acquire_owned().await.ok();
            return self.permit(Mode::Alone, None, permit);
        }
        let started = Instant::now();
        let mut pause = Duration::from_millis(5);
        loop {
            if let Some(i) = self.try_slot() {
                return self.permit(Mode::Slot, Some(i), None);
            }
            if started.elapsed() >= SAY_WAIT {
                self.inner
                    .status
                    .send_if_modified(|st| !std::mem::replace(&mut st.waiting, true));
            }
            let falling_back = self
                .lock()
                .fallback_until
                .is_some_and(|t| Instant::now() < t);
            if falling_back || started.elapsed() >= WAIT {
                if !falling_back {
                    if !self.inner.status.borrow().busy {
                        tracing::warn!(
                            "no slot of the host budget within {WAIT:?}: one call in flight without one for {FALLBACK_FOR:?}"
                        );
                    }
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
            i = self.wait_slot() => return self.permit(Mode::Slot, Some(i), None),
        };
        self.permit(Mode::Fallback, None, permit)
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

    /// The permit of a call let through as `mode`; tells watchers when calls start or stop
    /// going one at a time ([`BudgetStatus::busy`]).
    fn permit(
        &self,
        mode: Mode,
        slot: Option<usize>,
        unslotted: Option<OwnedSemaphorePermit>,
    ) -> BudgetPermit {
        if mode != Mode::Alone {
            let busy = self
                .lock()
                .fallback_until
                .is_some_and(|t| Instant::now() < t);
            self.inner.status.send_if_modified(|st| {
                if mode == Mode::Fallback {
                    st.unslotted += 1;
                }
                let changed = st.busy != busy || st.waiting;
                st.busy = busy;
                st.waiting = false;
                changed
            });
        }
        BudgetPermit {
            budget: self.clone(),
            mode,
            slot,
            _unslotted: unslotted,
        }
    }

    /// Slots this process holds now.
    pub fn held(&self) -> usize {
        self.lock().held.iter().filter(|h| **h).count()
    }

    /// The budget as it is now (what was refused, whether calls go one at a time).
    pub fn status(&self) -> BudgetStatus {
        self.inner.status.borrow().clone()
    }

    /// The budget's status, sent at every change of what was refused or of
    /// [`BudgetStatus::busy`] (not of the count of calls alone).
    pub fn watch(&self) -> watch::Receiver<BudgetStatus> {
        self.inner.status.subscribe()
    }
}

#[cfg(test)]
mod tests;
