//! The operator's status of a running `serve-ssh`: who is on it, what waits at the door, the
//! calls in flight and the host budget's fall-backs, the service's state. The server
//! answers on a local Unix socket (`$STATE/serve-ssh.sock`, or `--status-socket`), mode 0600,
//! with one JSON document ([`Status`]) and closes; a peer whose uid (`SO_PEERCRED`) is
//! neither root's nor the server's is closed without an answer. `club-admin serve-ssh status`
//! reads it ([`query`]) and prints a table ([`table`]) or the JSON. Never a token or a key:
//! sessions are named by their key's comment and fingerprint and the signed-in e-mail.
//!
//! The sessions are kept on a [`Board`] the connection code updates (a dashboard made,
//! attached, left waiting, over); everything else is read when asked, from the door, the
//! shared client's limiter and budget, and the client's last answer.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};

use super::Shared;
use crate::api::{ApiClient, Timestamp};

/// The socket's name in the state folder.
pub const SOCKET_NAME: &str = "serve-ssh.sock";

/// The status socket of a server whose state folder is `state_dir`.
pub fn default_socket(state_dir: Option<&Path>) -> Option<PathBuf> {
    state_dir.map(|d| d.join(SOCKET_NAME))
}

/// What the server answers on its status socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// club-admin's version.
    pub version: String,
    /// The address it listens on.
    pub listening: String,
    /// The host key's fingerprint (`SHA256:...`).
    pub host_key: String,
    /// When it started (RFC 3339 UTC).
    pub started_at: Timestamp,
    /// Its dashboards, oldest first.
    pub sessions: Vec<SessionInfo>,
    /// The commands SSH clients run now (`ssh HOST requests list`), oldest first. Absent
    /// from a server before them.
    #[serde(default)]
    pub commands: Vec<CommandInfo>,
    /// Every signed-in connection, oldest first, whatever it does (a dashboard, a command,
    /// nothing yet: `ssh -N`). Absent from a server before them.
    #[serde(default)]
    pub connections: Vec<super::conns::ConnInfo>,
    /// Connections not signed in yet.
    pub not_signed_in: DoorInfo,
    /// Calls to the service in flight now, and the adaptive limit.
    pub calls: CallsInfo,
    /// The host budget; `None` when it is off.
    pub budget: Option<BudgetInfo>,
    /// The service as the last call found it.
    pub service: ServiceInfo,
}

/// One dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// The SSH key's fingerprint (`SHA256:...`).
    pub key: String,
    /// The key's comment in the authorized keys file (`alice@laptop`), when it has one.
    pub comment: Option<String>,
    /// The e-mail of the account signed in to the service, when known.
    pub email: Option<String>,
    /// `attached` (a connection draws it) or `waiting` (its connection dropped: it waits
    /// for its key).
    pub state: String,
    /// When the dashboard was made (RFC 3339 UTC).
    pub since: Timestamp,
}

/// One command an SSH client runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandInfo {
    /// The SSH key's fingerprint (`SHA256:...`).
    pub key: String,
    /// The key's comment in the authorized keys file, when it has one.
    pub comment: Option<String>,
    /// The e-mail of the account signed in to the service, once the run read it.
    pub email: Option<String>,
    /// The command as the client gave it (control characters removed, at most 80 columns).
    pub command: String,
    /// When it started (RFC 3339 UTC).
    pub since: Timestamp,
    /// True when it runs with a token (sent by the client, or remembered for its key),
    /// before the run has read whose it is (`email`). Absent from a server before it.
    #[serde(default)]
    pub has_token: bool,
}

/// Connections that have not signed in ([`super::DoorCounts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoorInfo {
    /// In all.
    pub waiting: usize,
    /// Of those, silent (no SSH identification line yet).
    pub silent: usize,
    /// Of those, in the key exchange.
    pub in_kex: usize,
    /// Of the silent ones, those waiting their turn to start the key exchange, at the
    /// runtime's pace (`ssh/pace.rs`). Absent from a server before it.
    #[serde(default)]
    pub paced: usize,
}

/// The calls of every session together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallsInfo {
    /// In flight now.
    pub in_flight: usize,
    /// The adaptive limit now.
    pub limit: usize,
    /// True when the limit was cut back (time-outs, 5xx, latency).
    pub slowed: bool,
    /// How the sessions' listing reads were answered since the start: sent, joined to one
    /// in flight, reused ([`crate::api::shared_listing`]). Absent from a
    /// server before it.
    #[serde(default)]
    pub listing_reads: crate::api::shared_listing::SharedCounts,
}

/// The host budget as this process uses it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetInfo {
    /// What of it cannot be used, as a message; `None` when all of it can.
    pub refused: Option<String>,
    /// True while calls go one at a time without a slot.
    pub busy: bool,
    /// Calls let through without a slot since the start (fall-backs).
    pub fallbacks: u64,
}

/// The service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceInfo {
    /// Its base URL.
    pub base_url: String,
    /// `ok` (the last call was answered), `unreachable` (it was not) or `unknown` (no call
    /// yet).
    pub state: String,
    /// When the last call ended.
    pub last_call_at: Option<Timestamp>,
}

/// The dashboards of the server, as the connection code tells them.
#[derive(Default)]
pub(crate) struct Board {
    sessions: Mutex<BTreeMap<u64, Entry>>,
}

struct Entry {
    key: String,
    comment: Option<String>,
    client: ApiClient,
    attached: bool,
    since: Timestamp,
    /// The command, for a command an SSH client runs; `None` for a dashboard.
    command: Option<String>,
}

impl Board {
    /// The dashboard `number` is made for the key `key` (`comment`), calling through
    /// `client`, attached.
    pub(crate) fn enter(&self, number: u64, key: &str, comment: Option<String>, client: ApiClient) {
        if let Ok(mut s) = self.sessions.lock() {
            s.insert(
                number,
                Entry {
                    key: key.to_owned(),
                    comment,
                    client,
                    attached: true,
                    since: chrono::Utc::now(),
                    command: None,
                },
            );
        }
    }

    /// The command `command` runs, number `number`, for the key `key` (`comment`), calling
    /// through `client`; [`Board::leave`] when it is over.
    pub(crate) fn run_started(
        &self,
        number: u64,
        key: &str,
        comment: Option<String>,
        command: String,
        client: ApiClient,
    ) {
        if let Ok(mut s) = self.sessions.lock() {
            s.insert(
                number,
                Entry {
                    key: key.to_owned(),
                    comment,
                    client,
                    attached: true,
                    since: chrono::Utc::now(),
                    command: Some(command),
                },
            );
        }
    }

    /// The dashboard `number` is attached to a connection, or waits for its key.
    pub(crate) fn attached(&self, number: u64, attached: bool) {
        if let Ok(mut s) = self.sessions.lock()
            && let Some(e) = s.get_mut(&number)
        {
            e.attached = attached;
        }
    }

    /// True when the dashboard or command `number` is signed in to the service (its client
    /// knows whose token it uses).
    pub(crate) fn signed_in(&self, number: u64) -> bool {
        self.sessions
            .lock()
            .ok()
            .and_then(|s| s.get(&number).map(|e| e.client.signed_in().is_some()))
            .unwrap_or(false)
    }

    /// The dashboard or command `number` is over.
    pub(crate) fn leave(&self, number: u64) {
        if let Ok(mut s) = self.sessions.lock() {
            s.remove(&number);
        }
    }

    fn infos(&self) -> Vec<SessionInfo> {
        let Ok(s) = self.sessions.lock() else {
            return Vec::new();
        };
        s.values()
            .filter(|e| e.command.is_none())
            .map(|e| SessionInfo {
                key: e.key.clone(),
                comment: e.comment.clone(),
                email: e.client.signed_in(),
                state: if e.attached { "attached" } else { "waiting" }.to_owned(),
                since: e.since,
            })
            .collect()
    }

    fn commands(&self) -> Vec<CommandInfo> {
        let Ok(s) = self.sessions.lock() else {
            return Vec::new();
        };
        s.values()
            .filter_map(|e| {
                Some(CommandInfo {
                    key: e.key.clone(),
                    comment: e.comment.clone(),
                    email: e.client.signed_in(),
                    command: e.command.clone()?,
                    since: e.since,
                    has_token: e.client.has_token(),
                })
            })
            .collect()
    }
}

/// What the server knows of itself when it starts answering.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    pub(crate) listening: String,
    pub(crate) host_key: String,
    pub(crate) started_at: Timestamp,
}

/// The calls of every session together, now.
pub(crate) fn calls(shared: &Shared) -> CallsInfo {
    let pace = shared.client.limiter().pace();
    CallsInfo {
        in_flight: pace.in_flight,
        limit: pace.limit,
        slowed: pace.slowed,
        listing_reads: shared
            .client
            .shared_listing()
            .map(|s| s.counts())
            .unwrap_or_default(),
    }
}

/// The status now.
fn status(shared: &Shared, facts: &Facts) -> Status {
    let door = shared.door.counts();
    let budget = shared.client.watch_budget().map(|w| {
        let b = w.borrow().clone();
        BudgetInfo {
            refused: b.refusal.map(|r| r.to_string()),
            busy: b.busy,
            fallbacks: b.unslotted,
        }
    });
    let link = shared.client.link();
    Status {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        listening: facts.listening.clone(),
        host_key: facts.host_key.clone(),
        started_at: facts.started_at,
        sessions: shared.board.infos(),
        commands: shared.board.commands(),
        connections: shared
            .conns
            .list()
            .into_iter()
            .map(|mut c| {
                if let Some(n) = c.dashboard {
                    c.signed_in = shared.board.signed_in(n);
                }
                c
            })
            .collect(),
        not_signed_in: DoorInfo {
            waiting: door.waiting,
            silent: door.silent,
            in_kex: door.in_kex,
            paced: shared.pace.waiting(),
        },
        calls: calls(shared),
        budget,
        service: ServiceInfo {
            base_url: shared.client.base_url().to_owned(),
            state: match link {
                None => "unknown",
                Some(l) if l.answered => "ok",
                Some(_) => "unreachable",
            }
            .to_owned(),
            last_call_at: link.map(|l| l.at),
        },
    }
}

/// Binds the status socket at `path` (mode 0600; a stale socket left by a server that
/// ended is replaced) and answers on it until the server stops, then removes it.
///
/// Errors: another server answers there, the path is not a socket, or it cannot be made.
pub(crate) fn listen(path: &Path, shared: Arc<Shared>, facts: Facts) -> Result<(), String> {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let shown = path.display();
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_socket() {
            return Err(format!(
                "the status socket {shown} is taken by something that is not a socket"
            ));
        }
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(format!(
                "another serve-ssh answers on the status socket {shown}"
            ));
        }
        let _ = std::fs::remove_file(path);
    }
    let listener = UnixListener::bind(path)
        .map_err(|e| format!("could not make the status socket {shown}: {e}"))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| format!("could not make the status socket {shown} 0600: {e}"))?;
    let path = path.to_path_buf();
    tokio::spawn(async move {
        let mut stop = shared.stop.clone();
        loop {
            let conn = tokio::select! {
                c = listener.accept() => c,
                () = super::stopping(&mut stop) => break,
            };
            if let Ok((stream, _)) = conn {
                answer(stream, &shared, &facts).await;
            }
        }
        let _ = std::fs::remove_file(&path);
    });
    Ok(())
}

/// What a peer asks on the status socket: one JSON line, then the end of its writing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// The [`Status`].
    Status,
    /// End the connections it picks; answered with [`Kicked`].
    Kick(super::conns::Kick),
}

/// The answer to [`Request::Kick`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kicked {
    /// How many connections were asked to end.
    pub kicked: usize,
}

/// Answers one peer, if its uid is root's or the server's (else nothing): its request read
/// (at most 4 KiB, within 2 s; none, or one that does not parse, asks the status).
async fn answer(mut stream: UnixStream, shared: &Shared, facts: &Facts) {
    let me = crate::api::budget::effective_uid();
    let uid = stream.peer_cred().map(|c| c.uid()).ok();
    if !matches!(uid, Some(u) if u == 0 || u == me) {
        tracing::warn!(uid = ?uid, "status asked by another user: refused");
        return;
    }
    let mut asked = Vec::new();
    {
        let mut limited = (&mut stream).take(4096);
        let read = limited.read_to_end(&mut asked);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), read).await;
    }
    let request = serde_json::from_slice(&asked).unwrap_or(Request::Status);
    let json = match request {
        Request::Status => serde_json::to_vec(&status(shared, facts)),
        Request::Kick(which) => {
            let kicked = shared.conns.kick(&which);
            tracing::info!(
                ?which,
                kicked,
                "connections ended by the operator (serve-ssh kick)"
            );
            serde_json::to_vec(&Kicked { kicked })
        }
    };
    let Ok(mut json) = json else {
        return;
    };
    json.push(b'\n');
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), stream.write_all(&json)).await;
}

/// Asks the server at `path` for its status.
///
/// Errors (a message naming the socket): no server there, the peer refused (closed without
/// an answer: another user's server), an answer that is not a status.
pub async fn query(path: &Path) -> Result<Status, String> {
    ask(path, &Request::Status).await
}

/// Asks the server at `path` to end the connections `which` picks; how many it ended.
///
/// Errors: as [`query`].
pub async fn kick(path: &Path, which: super::conns::Kick) -> Result<usize, String> {
    ask::<Kicked>(path, &Request::Kick(which))
        .await
        .map(|k| k.kicked)
}

/// Sends `request` to the server at `path` and reads its answer.
///
/// Errors: as [`query`].
async fn ask<T: serde::de::DeserializeOwned>(path: &Path, request: &Request) -> Result<T, String> {
    let shown = path.display();
    let mut stream = UnixStream::connect(path)
        .await
        .map_err(|e| format!("no serve-ssh answers on {shown}: {e}"))?;
    let mut line = serde_json::to_vec(request).map_err(|e| e.to_string())?;
    line.push(b'\n');
    // A server that refuses the peer closes at once: the write may fail, the read says so.
    let _ = stream.write_all(&line).await;
    let _ = stream.shutdown().await;
    let mut bytes = Vec::new();
    let read = stream.read_to_end(&mut bytes);
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), read)
        .await
        .map_err(|_| format!("serve-ssh on {shown} did not answer within 5 s"))?;
    // A refusal closes with the request unread: the peer's close may come as a reset.
    let reset = matches!(&read, Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset);
    if !reset {
        read.map_err(|e| format!("could not read the status from {shown}: {e}"))?;
    }
    if bytes.is_empty() {
        return Err(format!(
            "serve-ssh on {shown} closed without an answer: only root and the user it runs as may ask"
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("the answer on {shown} is not what was asked: {e}"))
}

/// The status for a human: a few lines about the server, then one row per session.
pub fn table(s: &Status, now: Timestamp) -> String {
    let ago = |t: Timestamp| {
        let secs = (now - t).num_seconds().max(0);
        match secs {
            s if s < 60 => format!("{s} s ago"),
            s if s < 3600 => format!("{} min ago", s / 60),
            s => format!("{} h {} min ago", s / 3600, (s % 3600) / 60),
        }
    };
    let mut out = format!(
        "serve-ssh {} on {}, host key {}, up since {} ({})\n",
        s.version,
        s.listening,
        s.host_key,
        s.started_at.format("%Y-%m-%d %H:%M:%S UTC"),
        ago(s.started_at)
    );
    let service = match &s.service.last_call_at {
        Some(t) => format!("{} (last call {})", s.service.state, ago(*t)),
        None => s.service.state.clone(),
    };
    out.push_str(&format!("service {}: {service}\n", s.service.base_url));
    out.push_str(&format!(
        "calls in flight: {} (limit {}{})\n",
        s.calls.in_flight,
        s.calls.limit,
        if s.calls.slowed { ", slowed" } else { "" }
    ));
    let r = &s.calls.listing_reads;
    out.push_str(&format!(
        "listing reads: {} sent, {} answered by one in flight, {} by a fresh answer\n",
        r.sent, r.joined, r.reused
    ));
    out.push_str(&match &s.budget {
        None => "host budget: off\n".to_owned(),
        Some(b) => format!(
            "host budget: {}{}, {} fall-backs\n",
            b.refused.as_deref().unwrap_or("in use"),
            if b.busy {
                ", busy: one call at a time"
            } else {
                ""
            },
            b.fallbacks
        ),
    });
    let d = &s.not_signed_in;
    out.push_str(&format!(
        "not signed in: {} ({} silent, {} of them waiting their turn; {} in the key exchange; {} at the sign-in)\n",
        d.waiting,
        d.silent,
        d.paced,
        d.in_kex,
        d.waiting.saturating_sub(d.silent + d.in_kex)
    ));
    out.push_str(&connection_rows(&s.connections, &ago));
    out.push_str(&format!("sessions: {}\n", s.sessions.len()));
    out.push_str(&session_rows(&s.sessions, &ago));
    if !s.commands.is_empty() {
        out.push_str(&format!("commands: {}\n", s.commands.len()));
        out.push_str(&command_rows(&s.commands, &ago));
    }
    out
}

/// The signed-in connections: how many, how many per key, then one aligned row each (its
/// number for `serve-ssh kick`, the key's comment else its fingerprint, what it does, its
/// address, since when).
fn connection_rows(conns: &[super::conns::ConnInfo], ago: &dyn Fn(Timestamp) -> String) -> String {
    use super::conns::Doing;
    let mut per_key: BTreeMap<String, usize> = BTreeMap::new();
    for c in conns {
        *per_key
            .entry(crate::text::clean(
                c.comment.as_deref().unwrap_or(&c.key),
                50,
            ))
            .or_default() += 1;
    }
    let by_key: Vec<String> = per_key.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let mut out = format!("signed-in connections: {}", conns.len());
    if !by_key.is_empty() {
        out.push_str(&format!(" (by key: {})", by_key.join(", ")));
    }
    out.push('\n');
    let rows: Vec<[String; 4]> = conns
        .iter()
        .map(|c| {
            let doing = match &c.doing {
                _ if c.over_share => "over its share: refused (busy)".to_owned(),
                Doing::Nothing => "nothing (no session yet)".to_owned(),
                Doing::Dashboard => "dashboard".to_owned(),
                Doing::Command(cmd) => format!("command: {}", crate::text::clean(cmd, 60)),
            };
            [
                format!(
                    "#{} {}",
                    c.id,
                    crate::text::clean(c.comment.as_deref().unwrap_or(&c.key), 50)
                ),
                doing,
                crate::text::clean(&c.peer, 50),
                ago(c.since),
            ]
        })
        .collect();
    out.push_str(&aligned(["CONNECTION", "DOING", "FROM", "SINCE"], &rows));
    out
}

/// One aligned row per command an SSH client runs: the key's comment (else its
/// fingerprint), the signed-in e-mail, the command, since when.
fn command_rows(commands: &[CommandInfo], ago: &dyn Fn(Timestamp) -> String) -> String {
    let rows: Vec<[String; 4]> = commands
        .iter()
        .map(|x| {
            [
                crate::text::clean(x.comment.as_deref().unwrap_or(&x.key), 50),
                crate::text::clean(
                    x.email.as_deref().unwrap_or(match x.has_token {
                        true => "with a token (account not read yet)",
                        false => "not signed in",
                    }),
                    50,
                ),
                crate::text::clean(&x.command, 80),
                ago(x.since),
            ]
        })
        .collect();
    aligned(["KEY", "SIGNED IN AS", "COMMAND", "SINCE"], &rows)
}

/// One aligned row per session under a header (cells cut by display width): the key's
/// comment (else its fingerprint), the signed-in e-mail, attached or waiting, since when.
fn session_rows(sessions: &[SessionInfo], ago: &dyn Fn(Timestamp) -> String) -> String {
    let rows: Vec<[String; 4]> = sessions
        .iter()
        .map(|x| {
            [
                crate::text::clean(x.comment.as_deref().unwrap_or(&x.key), 50),
                crate::text::clean(x.email.as_deref().unwrap_or("not signed in"), 50),
                x.state.clone(),
                ago(x.since),
            ]
        })
        .collect();
    aligned(["KEY", "SIGNED IN AS", "STATE", "SINCE"], &rows)
}

/// `rows` under `header`, each column as wide as its widest cell (display width), two
/// spaces before each; nothing when there are no rows.
fn aligned(header: [&str; 4], rows: &[[String; 4]]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let header = header.map(str::to_owned);
    let mut widths = [0usize; 4];
    for r in rows.iter().chain([&header]) {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(crate::text::width(c));
        }
    }
    let mut out = String::new();
    for r in [&header].into_iter().chain(rows.iter()) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            let pad = widths[i].saturating_sub(crate::text::width(c));
            line.push_str(&format!("  {c}{}", " ".repeat(pad)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
