//! `club-admin serve-ssh`: the dashboard served over SSH (russh). Every connection that
//! signs in with an authorized public key and asks for a shell gets a whole dashboard of its
//! own (its own Model, API client with the operator's API key and its own token, worker and
//! runner), drawn by the local dashboard's backend into the SSH channel; its keys are
//! parsed from the channel's bytes ([`input`]). A dropped connection leaves its dashboard
//! waiting for the same key for `reattach` ([`ServeOptions::reattach`]); after that, or
//! when the server stops, held decisions follow the local dashboard's hang-up rule.
//!
//! This module presents; what `ops` (in `core/`) or `update` decides is not decided here.

mod accept;
pub mod check;
pub mod check_paths;
mod conn;
pub mod conns;
pub mod door;
mod exec;
mod exec_line;
pub mod input;
pub mod key_files;
pub mod key_options;
mod pace;
mod session;
mod settle;
pub mod status;
mod streams;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

pub use door::{DoorCounts, Startups};

use crate::api::ApiClient;
use crate::app::Keymap;
use crate::config::{Flags, Settings};
use crate::runtime::Failure;

pub use key_files::{AuthorizedKeys, fingerprint};

/// Limits of the server, each with a flag (defaults in brackets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Dashboards alive at once, attached or waiting to be re-attached [64].
    pub max_sessions: usize,
    /// Dashboards of one key alive at once [3].
    pub max_sessions_per_key: usize,
    /// A session with no key from its client for this long is disconnected (with the reason); its
    /// dashboard waits to be re-attached [30 min].
    pub idle_timeout: Duration,
    /// A connection not signed in this long after it was accepted is closed (OpenSSH's
    /// `LoginGraceTime`: identification line, key exchange and sign-in together) [30 s].
    pub auth_timeout: Duration,
    /// A connection that has not sent its SSH identification line this long after it was
    /// accepted is closed (at most `auth_timeout`) [10 s].
    pub banner_timeout: Duration,
    /// Connections not signed in, in all: `start:rate:full`, OpenSSH's `MaxStartups`
    /// ([`door`]) [10:30:100].
    pub max_startups: Startups,
    /// Connections not signed in from one address (an IPv4 address, or one IPv6 address)
    /// [10].
    pub max_startups_per_address: usize,
    /// Public keys a connection may try before it is closed [6].
    pub auth_attempts: usize,
    /// The largest window drawn, in columns and rows; a larger window gets this much
    /// [(400, 200)].
    pub max_window: (u16, u16),
    /// How long a command an SSH client runs (`ssh HOST requests approve -`) may take
    /// before it is interrupted (nothing more is sent; the answers in flight are awaited
    /// for 30 s more) [10 min].
    pub exec_time_limit: Duration,
    /// Signed-in connections at once, in all ([`conns`]) [2 × `max_sessions` + 8].
    pub max_connections: usize,
    /// Signed-in connections at once of one key, from the moment its key is accepted [10].
    pub max_connections_per_key: usize,
    /// A signed-in connection that asks for no dashboard or command this long after it
    /// signed in is closed (`ssh -N`) [20 s].
    pub session_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_sessions: 64,
            max_sessions_per_key: 3,
            idle_timeout: Duration::from_secs(30 * 60),
            auth_timeout: Duration::from_secs(30),
            banner_timeout: Duration::from_secs(10),
            max_startups: Startups::default(),
            max_startups_per_address: 10,
            auth_attempts: 6,
            max_window: (400, 200),
            exec_time_limit: Duration::from_secs(10 * 60),
            max_connections: 136,
            max_connections_per_key: 10,
            session_timeout: Duration::from_secs(20),
        }
    }
}

/// How `serve-ssh` runs, besides the dashboard's settings.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Where to listen (port 0 picks a free one; [`ServerHandle::addr`] tells which).
    pub listen: SocketAddr,
    /// The host key file (made on first start).
    pub host_key: PathBuf,
    /// Who may sign in: an `authorized_keys` file, or `None` with `allow_any_key`.
    pub authorized_keys: Option<PathBuf>,
    /// Any public key may sign in (`--allow-any-key`: a demo or a closed network).
    pub allow_any_key: bool,
    /// The limits.
    pub limits: Limits,
    /// How long a dashboard whose connection dropped waits for its key [10 min].
    pub reattach: Duration,
    /// Where each key's token is kept between sessions (`--remember-tokens`: one file per
    /// key fingerprint, mode 0600, in this folder); `None` (the default): a token lives in
    /// its session's memory only and every new dashboard signs in.
    pub remember_tokens: Option<PathBuf>,
    /// Each session starts with mouse capture on (the default; `--no-mouse` turns it off):
    /// on a phone a tap on a row selects it, a tap on a hint presses its key and a swipe
    /// scrolls, so no Esc or Tab key is needed. `:mouse off` in a session turns it off there
    /// (the terminal's own selection comes back).
    pub mouse: bool,
    /// Where the operator's status is answered ([`status`]: a Unix socket, mode 0600, for
    /// root and the server's user); `None`: nowhere.
    pub status_socket: Option<PathBuf>,
    /// SSH clients may run the scripting subcommands (`ssh -p 2222 HOST requests list`) as
    /// their key's moderator (on by default; `--no-exec` or `exec = false` in the config's
    /// `[serve_ssh]` turns it off: every command is then refused).
    pub exec: bool,
}

/// What a server does besides serving: nothing in the program. In test builds (the cargo
/// feature `test-hooks`, which only the tests turn on) a session can be made to panic.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    /// A session signed in with the key of this fingerprint panics as it starts (proves
    /// that one session's panic leaves the others drawing).
    #[cfg(feature = "test-hooks")]
    pub panic_key: Option<String>,
}

/// Resolves when the server stops (or its handle is gone).
pub(crate) async fn stopping(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// The host key's file name in the state folder.
pub const HOST_KEY_NAME: &str = "ssh_host_ed25519_key";

/// The file of the token remembered for the key `fingerprint` (`SHA256:...`) in `dir`: the
/// fingerprint with every character but letters and digits made `_`.
pub fn token_file(dir: &std::path::Path, fingerprint: &str) -> PathBuf {
    let name: String = fingerprint
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    dir.join(format!("{name}.token"))
}

/// The token remembered for the key `fingerprint` in `dir` ([`token_file`]), if there is
/// one that is not empty.
pub(crate) fn read_token(
    dir: &std::path::Path,
    fingerprint: &str,
) -> Option<secrecy::SecretString> {
    std::fs::read_to_string(token_file(dir, fingerprint))
        .ok()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty())
        .map(secrecy::SecretString::from)
}

/// What every connection of the server shares.
pub(crate) struct Shared {
    /// The dashboard's settings (base URL, API key, delays, language...).
    pub(crate) settings: Settings,
    /// The keymap of every dashboard.
    pub(crate) keymap: Keymap,
    /// The address it listens on.
    pub(crate) listen: SocketAddr,
    /// [`ServeOptions::exec`].
    pub(crate) exec: bool,
    /// The client every session's client is made from ([`ApiClient::for_session`]).
    pub(crate) client: ApiClient,
    /// The audit file.
    pub(crate) audit_path: Option<PathBuf>,
    /// Who may sign in.
    pub(crate) keys: AuthorizedKeys,
    /// The limits.
    pub(crate) limits: Limits,
    /// The re-attach window.
    pub(crate) reattach: Duration,
    /// The dashboards alive.
    pub(crate) registry: Mutex<session::Registry>,
    /// Becomes true when the server stops.
    pub(crate) stop: watch::Receiver<bool>,
    /// Held (through this `Shared`) by every task that must end before the server has
    /// stopped: [`ServerHandle::stop`] waits until no sender is left.
    pub(crate) _running: mpsc::Sender<()>,
    /// The test hooks ([`Hooks`]).
    #[cfg_attr(not(feature = "test-hooks"), allow(dead_code))]
    pub(crate) hooks: Hooks,
    /// [`ServeOptions::remember_tokens`].
    pub(crate) token_dir: Option<PathBuf>,
    /// [`ServeOptions::mouse`].
    pub(crate) mouse: bool,
    /// What each session did to requests, broadcast to the others ([`crate::app::Told`]):
    /// the number of the session that did it, and what.
    pub(crate) told: tokio::sync::broadcast::Sender<(u64, crate::app::Told)>,
    /// The number of the next session's dashboard.
    pub(crate) next_dash: std::sync::atomic::AtomicU64,
    /// The connections not signed in ([`door`]).
    pub(crate) door: Arc<door::Door>,
    /// The signed-in connections, each counted against its key ([`conns`]).
    pub(crate) conns: Arc<conns::Conns>,
    /// Connections the door refused that wait to knock again, oldest first: each one's number
    /// and what ends its wait when a newer one needs its place ([`accept`]).
    pub(crate) held: Mutex<std::collections::VecDeque<(u64, tokio::sync::oneshot::Sender<()>)>>,
    /// Log lines of repeated refusals, rate-limited per key ([`conns::Refusals`]).
    pub(crate) refusals: conns::Refusals,
    /// The dashboards as the operator's status shows them ([`status::Board`]).
    pub(crate) board: status::Board,
    /// The one refresh clock of every dashboard ([`crate::runtime::event_loop::LoopOptions::refresh_clock`]):
    /// it ticks every `--auto-refresh` period (and on [`ServerHandle::refresh_now`]), so the
    /// sessions of one scope refresh together and share one listing read.
    pub(crate) refresh: watch::Sender<u64>,
    /// The dashboards whose spinner turns now ([`crate::runtime::event_loop::LoopOptions::spinners`]).
    pub(crate) spinners: Arc<std::sync::atomic::AtomicUsize>,
    /// The audit's last read for the history, shared by the sessions (one read of the
    /// host's audit for 500 sessions starting at once, not 500).
    pub(crate) recent: crate::ops::history::RecentRows,
    /// The audit's open writes as last read, shared by the sessions: each session's start
    /// looks for an interrupted run's writes, and parses only the lines added since the last
    /// look (the host's audit once for 500 sessions, not 500 times whole).
    pub(crate) open_writes: Arc<crate::ops::recover::OpenWrites>,
    /// New connections' turns to start their key exchange, at the runtime's pace
    /// ([`pace`]).
    pub(crate) pace: Arc<pace::Pace>,
}

/// A running server.
pub struct ServerHandle {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The host key's fingerprint (`SHA256:...`).
    pub fingerprint: String,
    /// True when the host key was made at this start.
    pub made_host_key: bool,
    /// How many keys the authorized keys file held at start (`None`: any key).
    pub authorized: Option<usize>,
    /// Where the operator's status is answered ([`status`]), or why it is not (the socket
    /// could not be made: the server runs without it); `None` when none was asked for.
    pub status_socket: Option<Result<PathBuf, String>>,
    stop: watch::Sender<bool>,
    done: mpsc::Receiver<()>,
    shared: Arc<Shared>,
}

impl ServerHandle {
    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// SIGHUP (`systemctl reload`): what the server can take while it runs is read again,
    /// and nothing stops. The authorized keys need nothing more: every sign-in reads the
    /// file again when it changed (logged here, with the count as last read).
    pub fn reload(&self) {
        if self.authorized.is_some() {
            tracing::info!(
                keys = self.shared.keys.count(),
                "authorized keys: read again at each sign-in when the file changed"
            );
        }
        if let Some(path) = self.shared.settings.api_key_file.as_deref() {
            read_api_key(&self.shared, path);
        }
    }

    /// Every dashboard refreshes its queue now, as the server's refresh clock makes them
    /// every `--auto-refresh` period (a dashboard still loading, or signed out, lets it pass):
    /// the sessions of one scope share the listing read.
    pub fn refresh_now(&self) {
        self.shared.refresh.send_modify(|n| *n += 1);
    }

    /// The calls of every session together now: in flight, the limit, the listing's reads
    /// (what the operator's status says, [`status::CallsInfo`]).
    pub fn calls(&self) -> status::CallsInfo {
        status::calls(&self.shared)
    }

    /// Dashboards alive (attached or waiting to be re-attached).
    pub fn sessions(&self) -> usize {
        self.shared.registry.lock().map(|r| r.total()).unwrap_or(0)
    }

    /// What the door did to connections that had not signed in, and what waits now.
    pub fn door(&self) -> DoorCounts {
        self.shared.door.counts()
    }

    /// Signed-in connections now, whatever they do ([`conns`]; those over their key's share
    /// too).
    pub fn connections(&self) -> usize {
        self.shared.conns.list().len()
    }

    /// Commands SSH clients run now (`ssh HOST requests list`).
    pub fn commands(&self) -> usize {
        self.shared.registry.lock().map(|r| r.runs()).unwrap_or(0)
    }

    /// Dashboards whose connection is gone, waiting for their key to come back.
    pub fn waiting(&self) -> usize {
        self.shared
            .registry
            .lock()
            .map(|r| r.waiting())
            .unwrap_or(0)
    }

    /// Stops the server: no new connection; every dashboard ends for good (held decisions
    /// are sent and their answers awaited, as on a hang-up of the local dashboard; each
    /// attached client gets a message and its terminal back). Returns when all have ended.
    pub async fn stop(self) {
        let ServerHandle {
            stop,
            mut done,
            shared,
            ..
        } = self;
        let _ = stop.send(true);
        drop(shared);
        // Every task holds a sender; `recv` answers `None` when the last one is gone.
        while done.recv().await.is_some() {}
    }
}

/// Starts the server with the dashboard's `settings` and `keymap`.
///
/// Errors (a message, nothing started): [`Failure::Config`] for no authorized keys file and
/// no `allow_any_key`, a file or host key that cannot be used (an authorized keys file
/// another user could change among them), no API key, a base URL the
/// client refuses; [`Failure::Other`] for an address that cannot be bound.
pub async fn start(
    options: ServeOptions,
    settings: Settings,
    keymap: Keymap,
) -> Result<ServerHandle, Failure> {
    crate::ops::rotate::install(settings.audit_rotate_bytes);
    start_with(options, settings, keymap, Hooks::default()).await
}

/// Who may sign in: the public keys of `--authorized-keys`, or any key with
/// `--allow-any-key`; an API key must be configured (sessions sign in with their own token).
///
/// Errors: no authorized keys file and no `--allow-any-key`, an unreadable or broken file,
/// a file another user could change ([`key_files::refuse_loose`]: the message names the file or
/// folder and the `chmod`/`chown` that fixes it), no API key: [`Failure::Config`].
fn who_may_sign_in(options: &ServeOptions, settings: &Settings) -> Result<AuthorizedKeys, Failure> {
    let keys = match (&options.authorized_keys, options.allow_any_key) {
        (Some(path), _) => AuthorizedKeys::from_file(path).map_err(Failure::Config)?,
        (None, true) => AuthorizedKeys::any(),
        (None, false) => {
            return Err(Failure::Config(
                "no --authorized-keys FILE: serve-ssh lets in only the public keys of that file (OpenSSH format). Give one, or --allow-any-key for a demo on a closed network"
                    .into(),
            ));
        }
    };
    if settings.credentials.api_key.is_none() {
        return Err(Failure::Config(
            "no API key: set CLUB_ADMIN_API_KEY, --api-key-file or api_key_file in the config file"
                .into(),
        ));
    }
    Ok(keys)
}

/// The SSH server's configuration: public-key sign-in only, the host key, the limits of
/// sign-in attempts, keep-alives and the last-resort inactivity timeout.
fn ssh_config(limits: &Limits, host_key: russh::keys::PrivateKey) -> russh::server::Config {
    russh::server::Config {
        server_id: russh::SshId::Standard(
            format!("SSH-2.0-club-admin_{}", env!("CARGO_PKG_VERSION")).into(),
        ),
        methods: russh::MethodSet::from(&[russh::MethodKind::PublicKey][..]),
        auth_rejection_time: Duration::from_millis(500),
        auth_rejection_time_initial: Some(Duration::ZERO),
        keys: vec![host_key],
        max_auth_attempts: limits.auth_attempts,
        // The idle timeout is the dashboard's (no key for that long); keep-alives find a
        // dead connection in about 2 minutes; this only closes a connection that neither
        // answers keep-alives nor sends anything, as a last resort.
        inactivity_timeout: Some(limits.idle_timeout + Duration::from_secs(120)),
        keepalive_interval: Some(Duration::from_secs(30)),
        keepalive_max: 4,
        nodelay: true,
        ..Default::default()
    }
}

/// The listener on `listen`, and the address it got (port 0 picks one).
///
/// Errors: the address cannot be bound: [`Failure::Other`].
async fn bind(listen: SocketAddr) -> Result<(TcpListener, SocketAddr), Failure> {
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| Failure::Other(format!("could not listen on {listen}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Other(e.to_string()))?;
    Ok((listener, addr))
}

/// The door of connections not signed in, by `limits`.
fn door_of(limits: &Limits) -> Arc<door::Door> {
    door::Door::with_graces(
        limits.max_startups,
        limits.max_startups_per_address,
        None,
        door::Graces::SERVER,
    )
}

/// Before anyone is let in: the host's audit parsed once (every session's start then reads
/// only what was added since, for its interrupted writes: `OpenWrites`), its interrupted
/// writes being settled ([`settle::at_start`]), and the refresh clock started.
async fn ready(shared: &Arc<Shared>) {
    if let Some(audit) = shared.audit_path.clone() {
        let primer = shared.clone();
        let _ = tokio::task::spawn_blocking(move || primer.open_writes.scan(&audit)).await;
        // The writes an interrupted run left open are settled now, not when the first
        // moderator signs in (`settle::at_start`; the run locks keep a session starting
        // meanwhile from settling them twice).
        let settler = shared.clone();
        tokio::spawn(async move { settle::at_start(&settler).await });
    }
    if let Some(period) = shared.settings.auto_refresh {
        refresh_clock(shared, period);
    }
    watch_api_key(shared);
}

/// How often the API key file is looked at for a change.
const KEY_FILE_EVERY: Duration = Duration::from_secs(5);

/// Reads the API key file again whenever it changes (its modification time or length),
/// until the server stops: the operator's new key replaces the old one for every session
/// at once ([`ApiClient::replace_api_key`]), logged (never the key). A file that
/// cannot be read, or is empty, keeps the key in use (logged once).
fn watch_api_key(shared: &Arc<Shared>) {
    let Some(path) = shared.settings.api_key_file.clone() else {
        return;
    };
    let stamp = |p: &std::path::Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.modified().ok(), m.len()))
    };
    let weak = Arc::downgrade(shared);
    let mut stop = shared.stop.clone();
    let mut last = stamp(&path);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(KEY_FILE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = stop.changed() => break,
            }
            let now = stamp(&path);
            if now == last {
                continue;
            }
            last = now;
            let Some(shared) = weak.upgrade() else { break };
            read_api_key(&shared, &path);
        }
    });
}

/// Reads the operator's API key file at `path` again: every session uses the key from now
/// on (logged, never the key); a file that cannot be read, or is empty, keeps the
/// key in use (logged).
fn read_api_key(shared: &Shared, path: &std::path::Path) {
    let read = crate::config::read_api_key_file(path)
        .map(|(key, _)| secrecy::SecretString::from(key))
        .and_then(|key| {
            shared
                .client
                .replace_api_key(key)
                .map_err(|e| e.to_string())
        });
    match read {
        Ok(()) => tracing::info!(
            file = %path.display(),
            "the operator's API key file read again: every session uses its key"
        ),
        Err(e) => tracing::warn!(
            "the operator's API key file was not used ({e}): the key read before is kept"
        ),
    }
}

/// Ticks the server's refresh clock every `period` until the server stops: one refresh for
/// every dashboard at once, so that sessions of one scope share the listing's reads.
fn refresh_clock(shared: &Arc<Shared>, period: Duration) {
    let weak = Arc::downgrade(shared);
    let mut stop = shared.stop.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = stop.changed() => break,
            }
            let Some(shared) = weak.upgrade() else { break };
            shared.refresh.send_modify(|n| *n += 1);
        }
    });
}

/// The client every session's is made from: the operator's API key, no token (sessions
/// sign in themselves). Its calls, and every session's, run on a thread of their own
/// ([`ApiClient::calls_on_own_thread`]): the limiter of calls in flight then times the
/// service, not the sessions' drawing; the thread ends with the server's last client.
///
/// Errors: a base URL or a key the client refuses, no thread: [`Failure::Config`].
fn operators_client(settings: &Settings) -> Result<ApiClient, Failure> {
    let credentials = crate::api::Credentials {
        token: None,
        ..settings.credentials.clone()
    };
    // The service every dashboard goes through: it may take every slot of the host budget
    // (a member of the budget's group takes two thirds at most).
    let mut options = settings.client.clone();
    if let Some(b) = options.host_budget.as_mut() {
        b.service = true;
    }
    ApiClient::new(&settings.base_url, credentials, options)
        .and_then(ApiClient::calls_on_own_thread)
        .map_err(|e| Failure::Config(e.to_string()))
}

/// Opens the status socket at `path` for the server at `addr` (host key `fingerprint`), its
/// folder made (0700) if missing; a socket that cannot be made is logged and reported, and the
/// server runs without it.
fn open_status(
    path: Option<&std::path::Path>,
    shared: &Arc<Shared>,
    addr: SocketAddr,
    fingerprint: &str,
) -> Option<Result<PathBuf, String>> {
    let path = path?;
    let facts = status::Facts {
        listening: addr.to_string(),
        host_key: fingerprint.to_owned(),
        started_at: chrono::Utc::now(),
    };
    let made = match path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        Some(dir) => key_files::make_private_dir(dir),
        None => Ok(()),
    };
    let opened = made.and_then(|()| status::listen(path, shared.clone(), facts));
    if let Err(e) = &opened {
        tracing::warn!("no status socket: {e}");
    }
    Some(opened.map(|()| path.to_path_buf()))
}

/// As [`start`], with `hooks` (nothing in the program; see [`Hooks`]).
///
/// Errors: as [`start`].
pub async fn start_with(
    options: ServeOptions,
    settings: Settings,
    keymap: Keymap,
    hooks: Hooks,
) -> Result<ServerHandle, Failure> {
    let keys = who_may_sign_in(&options, &settings)?;
    let authorized = options.authorized_keys.as_ref().map(|_| keys.count());
    let (host_key, made_host_key) =
        key_files::host_key(&options.host_key).map_err(Failure::Config)?;
    let fingerprint = host_key
        .fingerprint(russh::keys::HashAlg::Sha256)
        .to_string();
    // One store of the listing's answers for every session: the sessions of one scope
    // share one listing read instead of each polling the service.
    let client =
        operators_client(&settings)?.sharing_listing(crate::api::client::SharedListing::new());
    let (listener, addr) = bind(options.listen).await?;
    let limits = options.limits.clone();
    let config = ssh_config(&limits, host_key);
    let (stop_tx, stop_rx) = watch::channel(false);
    let (running, done) = mpsc::channel(1);
    let audit_path = crate::ops::audit::AuditLog::in_state_dir(settings.state_dir.as_deref());
    let shared = Arc::new(Shared {
        settings,
        keymap,
        listen: addr,
        exec: options.exec,
        client,
        audit_path,
        keys,
        limits,
        reattach: options.reattach,
        registry: Mutex::new(session::Registry::default()),
        stop: stop_rx,
        _running: running,
        hooks,
        token_dir: options.remember_tokens.clone(),
        mouse: options.mouse,
        told: tokio::sync::broadcast::channel(1024).0,
        next_dash: std::sync::atomic::AtomicU64::new(1),
        door: door_of(&options.limits),
        conns: conns::Conns::new(
            options.limits.max_connections_per_key,
            options.limits.max_connections,
        ),
        held: Mutex::default(),
        refusals: conns::Refusals::default(),
        board: status::Board::default(),
        refresh: watch::channel(0).0,
        spinners: Arc::default(),
        recent: crate::ops::history::RecentRows::default(),
        open_writes: Arc::default(),
        pace: pace::Pace::start(pace::PER_TURN),
    });
    ready(&shared).await;
    let status_socket = open_status(
        options.status_socket.as_deref(),
        &shared,
        addr,
        &fingerprint,
    );
    tokio::spawn(accept::accept_loop(
        listener,
        Arc::new(config),
        shared.clone(),
    ));
    Ok(ServerHandle {
        addr,
        fingerprint,
        made_host_key,
        authorized,
        status_socket,
        stop: stop_tx,
        done,
        shared,
    })
}

/// What the operator asked of the running server by a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// Ctrl-C or SIGTERM (`systemctl stop`): stop.
    Stop,
    /// SIGHUP (`systemctl reload`): read again what can be, and serve on.
    Reload,
}

/// The signals `serve-ssh` answers, their handlers in place from [`Signals::install`] on (a
/// signal right after it is kept for [`Signals::next`], not taken by its default action).
struct Signals {
    #[cfg(unix)]
    stop: Vec<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hup: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn install() -> Signals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Signals {
                stop: [SignalKind::interrupt(), SignalKind::terminate()]
                    .into_iter()
                    .filter_map(|k| signal(k).ok())
                    .collect(),
                hup: signal(SignalKind::hangup()).ok(),
            }
        }
        #[cfg(not(unix))]
        Signals {}
    }

    /// The next signal.
    async fn next(&mut self) -> Asked {
        #[cfg(unix)]
        {
            let Signals { stop, hup } = self;
            let hup = async {
                match hup.as_mut() {
                    Some(h) => h.recv().await,
                    None => std::future::pending().await,
                }
            };
            if stop.is_empty() {
                hup.await;
                return Asked::Reload;
            }
            let stops = futures::future::select_all(stop.iter_mut().map(|s| Box::pin(s.recv())));
            tokio::select! {
                _ = stops => Asked::Stop,
                _ = hup => Asked::Reload,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            Asked::Stop
        }
    }
}

/// `club-admin serve-ssh`: the dashboard's settings from `flags`, the environment and the
/// config file (as the dashboard reads them; no token: each session signs in), then the
/// server, until Ctrl-C or SIGTERM. SIGHUP (`systemctl reload`) never stops it:
/// [`ServerHandle::reload`] and `on_reload` (the caller's: the log level from the config
/// file) read again what can be, and it serves on. Prints where it listens, the host key's
/// fingerprint and who may sign in to standard output; start-up warnings to standard
/// error.
///
/// Errors: as [`start`]; a configuration that does not resolve, bad key bindings:
/// [`Failure::Config`].
pub async fn serve(
    options: ServeOptions,
    flags: &Flags,
    on_reload: &(dyn Fn() + Sync),
) -> Result<(), Failure> {
    use std::io::Write;
    let env = |k: &str| std::env::var(k).ok();
    let settings = crate::config::resolve(flags, &env, None).map_err(Failure::Config)?;
    let keymap = crate::runtime::keymap(&settings).map_err(Failure::Config)?;
    for w in &settings.warnings {
        let _ = writeln!(std::io::stderr(), "club-admin: warning: {w}");
    }
    let host_key_path = options.host_key.clone();
    let keys_path = options.authorized_keys.clone();
    // The signal handlers are in place before "listening" is printed: a SIGTERM or SIGHUP
    // right after start is answered as any other, not by its default action.
    let mut signals = Signals::install();
    let server = start(options, settings, keymap).await?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "club-admin serve-ssh listening on {}", server.addr);
    let _ = writeln!(
        out,
        "host key {} {}({})",
        server.fingerprint,
        if server.made_host_key {
            "made now "
        } else {
            ""
        },
        host_key_path.display()
    );
    let _ = match (&keys_path, server.authorized) {
        (Some(p), Some(n)) => writeln!(
            out,
            "authorized keys: {} ({n} {}; read again when it changes)",
            p.display(),
            if n == 1 { "key" } else { "keys" }
        ),
        _ => writeln!(out, "authorized keys: ANY KEY (--allow-any-key)"),
    };
    let _ = match &server.status_socket {
        Some(Ok(p)) => writeln!(
            out,
            "status: club-admin serve-ssh status --socket {}",
            p.display()
        ),
        Some(Err(e)) => writeln!(
            std::io::stderr(),
            "club-admin: warning: no status socket: {e}"
        ),
        None => Ok(()),
    };
    let _ = out.flush();
    drop(out);
    tracing::info!(addr = %server.addr, host_key = %server.fingerprint, "serve-ssh started");
    while signals.next().await == Asked::Reload {
        tracing::info!("SIGHUP: reading again what can be, serving on");
        on_reload();
        server.reload();
    }
    let _ = writeln!(
        std::io::stdout(),
        "stopping: held decisions are sent, open sessions end"
    );
    server.stop().await;
    tracing::info!("serve-ssh stopped");
    Ok(())
}
