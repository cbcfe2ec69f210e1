//! Many `serve-ssh` sessions in one process: the server on the demo server, any key let in,
//! and russh's client opening sessions with a key each. Used by the end-to-end test of the
//! shared poll (through `tests/common`) and by `examples/ssh_sessions.rs` (through
//! `#[path]`; an example cannot see `tests/common`).
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use club_admin::config::{Flags, resolve};
use club_admin::demo::DemoHandle;
use club_admin::ssh::{Limits, ServeOptions, ServerHandle, Startups};
use russh::client;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKeyOrCertificate};

/// Trusts the server's host key (the server is this process's own).
pub struct Trust;

impl client::Handler for Trust {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// `serve-ssh` in this process on `demo` for `n` sessions at once from one address (none of
/// them a flood), any key let in, its state in `dir`; the refresh clock every
/// `auto_refresh` seconds (0: by hand, [`ServerHandle::refresh_now`]), decisions held
/// `decision_delay` seconds.
pub async fn serve(
    demo: &DemoHandle,
    dir: &std::path::Path,
    n: usize,
    auto_refresh: u64,
    decision_delay: u64,
) -> ServerHandle {
    serve_with(demo, dir, n, auto_refresh, decision_delay, None).await
}

/// As [`serve`], the sessions' tokens remembered in `remember_tokens` (`--remember-tokens`).
pub async fn serve_with(
    demo: &DemoHandle,
    dir: &std::path::Path,
    n: usize,
    auto_refresh: u64,
    decision_delay: u64,
    remember_tokens: Option<std::path::PathBuf>,
) -> ServerHandle {
    std::fs::write(dir.join("config.toml"), "").expect("config");
    let flags = Flags {
        base_url: Some(demo.base_url.clone()),
        config: Some(dir.join("config.toml")),
        auto_refresh: Some(auto_refresh),
        decision_delay: Some(decision_delay),
        ..Flags::default()
    };
    let key = demo.moderator().api_key.clone();
    let env = move |k: &str| (k == "CLUB_ADMIN_API_KEY").then(|| key.clone());
    let mut settings = resolve(&flags, &env, None).expect("settings");
    settings.state_dir = Some(dir.join("state"));
    let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
    let room = n + 8;
    club_admin::ssh::start(
        ServeOptions {
            listen: "127.0.0.1:0".parse().expect("addr"),
            host_key: dir.join("host_key"),
            authorized_keys: None,
            allow_any_key: true,
            limits: Limits {
                max_sessions: room,
                max_startups: Startups {
                    start: room,
                    rate: 100,
                    full: room,
                },
                max_startups_per_address: room,
                ..Limits::default()
            },
            reattach: Duration::from_secs(600),
            remember_tokens,
            mouse: false,
            status_socket: None,
            exec: true,
        },
        settings,
        keymap,
    )
    .await
    .expect("serve-ssh")
}

/// Connects and signs in with a key made from `seed` (each seed its own key).
///
/// Errors: the connection or the sign-in failed, in words.
pub async fn connect(
    addr: std::net::SocketAddr,
    seed: u32,
) -> Result<client::Handle<Trust>, String> {
    // As OpenSSH's client on an interactive session: no Nagle (a key, a request, goes at
    // once instead of waiting for the last packet's acknowledgement).
    let config = Arc::new(client::Config {
        nodelay: true,
        ..client::Config::default()
    });
    let mut h = client::connect(config, addr, Trust)
        .await
        .map_err(|e| e.to_string())?;
    let mut bytes = [7u8; 32];
    bytes[..4].copy_from_slice(&seed.to_le_bytes());
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&bytes));
    let auth = h
        .authenticate_publickey("moderator", PrivateKeyWithHashAlg::new(Arc::new(key), None))
        .await
        .map_err(|e| e.to_string())?;
    if !auth.success() {
        return Err("refused".into());
    }
    Ok(h)
}

/// Opens a session with a key made from `seed` (each seed its own key), in an 80x24
/// terminal: the connection and
/// the channel, whose shell the caller asks for (`request_shell`: the dashboard starts).
///
/// Errors: the connection, the sign-in or the channel failed, in words.
pub async fn open(
    addr: std::net::SocketAddr,
    seed: u32,
) -> Result<(client::Handle<Trust>, russh::Channel<client::Msg>), String> {
    let h = connect(addr, seed).await?;
    let ch = h.channel_open_session().await.map_err(|e| e.to_string())?;
    ch.request_pty(false, "xterm-256color", 80, 24, 0, 0, &[])
        .await
        .map_err(|e| e.to_string())?;
    Ok((h, ch))
}

/// Opens a dashboard with a key made from `seed` and waits for its first whole frame (the
/// hint bar's last hint drawn: the bottom line comes last; the sign-in pop-up opens on `S`
/// only). Returns the time from the shell request to that frame, and the open connection.
///
/// Errors: the connection, the sign-in or the channel failed, or the channel closed before
/// a frame, in words.
pub async fn first_frame(
    addr: std::net::SocketAddr,
    seed: u32,
) -> Result<(Duration, client::Handle<Trust>, russh::Channel<client::Msg>), String> {
    let (h, mut ch) = open(addr, seed).await?;
    let t0 = std::time::Instant::now();
    ch.request_shell(false).await.map_err(|e| e.to_string())?;
    let mut seen = Vec::new();
    loop {
        match ch.wait().await {
            Some(russh::ChannelMsg::Data { data }) => {
                seen.extend_from_slice(&data);
                if String::from_utf8_lossy(&seen).contains("quit") {
                    return Ok((t0.elapsed(), h, ch));
                }
            }
            Some(_) => {}
            None => return Err("the channel closed before a frame".into()),
        }
    }
}

/// The `p`-th fraction (0.5: the median, 1.0: the worst) of durations sorted ascending;
/// zero for none.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted
        .get(((sorted.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or_default()
}

/// What a command run over SSH gave: its exit status, standard output and standard error.
pub struct ExecOutput {
    /// The channel's exit status (`None`: none came).
    pub code: Option<u32>,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
}

/// Runs `command` over SSH as `ssh -o SetEnv=CLUB_ADMIN_TOKEN=TOKEN HOST COMMAND` does, with
/// a key made from `seed`, no terminal, nothing on its standard input.
///
/// Errors: the connection, the sign-in or the channel failed, in words.
pub async fn exec(
    addr: std::net::SocketAddr,
    seed: u32,
    token: &str,
    command: &str,
) -> Result<ExecOutput, String> {
    use russh::ChannelMsg;
    let h = connect(addr, seed).await?;
    let mut ch = h.channel_open_session().await.map_err(|e| e.to_string())?;
    ch.set_env(true, "CLUB_ADMIN_TOKEN", token)
        .await
        .map_err(|e| e.to_string())?;
    ch.exec(true, command).await.map_err(|e| e.to_string())?;
    ch.eof().await.map_err(|e| e.to_string())?;
    let mut out = ExecOutput {
        code: None,
        stdout: Vec::new(),
        stderr: Vec::new(),
    };
    while let Some(msg) = ch.wait().await {
        match msg {
            ChannelMsg::Data { data } => out.stdout.extend_from_slice(&data),
            ChannelMsg::ExtendedData { data, .. } => out.stderr.extend_from_slice(&data),
            ChannelMsg::ExitStatus { exit_status } => out.code = Some(exit_status),
            _ => {}
        }
    }
    Ok(out)
}

/// True when a screen shows a queue: signed in (the demo moderator's e-mail in the header)
/// and at least three rows of pending requests in the queue's box.
pub fn queue_drawn(screen: &str) -> bool {
    let rows = screen
        .lines()
        .filter(|l| l.starts_with('│') && l.contains("pending") && l.contains('#'))
        .count();
    screen.contains("ton.jaidee@") && rows >= 3
}

/// An empty 80x24 terminal emulator for a session's screen.
pub fn screen() -> vt100::Parser {
    let size = |n: u16| std::num::NonZeroU16::new(n).unwrap_or(std::num::NonZeroU16::MIN);
    vt100::Parser::new(size(24), size(80), 0)
}

/// One session: what its terminal shows (an 80x24 vt100 screen, as text), and where its
/// keys go.
pub struct Session {
    screen: Arc<std::sync::Mutex<String>>,
    keys: russh::ChannelWriteHalf<client::Msg>,
    _handle: client::Handle<Trust>,
}

impl Session {
    /// Session `seed` opened, its screen followed by a task.
    pub async fn open(addr: std::net::SocketAddr, seed: u32) -> Session {
        let (handle, ch) = open(addr, seed).await.expect("a session");
        ch.request_shell(false).await.expect("the shell");
        let (mut read, keys) = ch.split();
        let shown = Arc::new(std::sync::Mutex::new(String::new()));
        let to = shown.clone();
        tokio::spawn(async move {
            let mut vt = screen();
            while let Some(msg) = read.wait().await {
                if let russh::ChannelMsg::Data { data } = msg {
                    vt.process(&data);
                    if let Ok(mut s) = to.lock() {
                        *s = vt.screen().contents();
                    }
                }
            }
        });
        Session {
            screen: shown,
            keys,
            _handle: handle,
        }
    }

    pub fn shows(&self, f: impl Fn(&str) -> bool) -> bool {
        self.screen.lock().map(|s| f(&s)).unwrap_or(false)
    }

    pub async fn send(&self, bytes: &[u8]) {
        self.keys
            .data_bytes(bytes.to_vec())
            .await
            .expect("keys reach the session");
    }
}

/// Waits (at most 20 s, the tests' guard against a hang) until `done` holds.
pub async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Writes `lines` audit lines for `server` into `state`'s audit file, as a host's audit holds
/// them after a busy term: every write settled (a `sending` line, then `ok`), from 40 runs
/// of earlier processes, over SSH with five keys. Returns the file's size in bytes.
pub fn fill_audit(state: &std::path::Path, server: &str, lines: usize) -> u64 {
    use club_admin::ops::{AuditEntry, Outcome};
    use std::io::Write;
    std::fs::create_dir_all(state).expect("state folder");
    let path = state.join(club_admin::ops::audit::FILE_NAME);
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("audit"));
    let start = chrono::Utc::now() - chrono::Duration::days(60);
    for i in 0..lines {
        let write = i / 2;
        let e = AuditEntry {
            at: start + chrono::Duration::seconds(i as i64 * 60),
            server: server.to_owned(),
            user: Some(format!("moderator{}@school.ac.th", write % 5)),
            action: ["approve", "decline", "delete"][write % 3].to_owned(),
            target: uuid::Uuid::from_u128(write as u128 + 1),
            outcome: if i % 2 == 0 {
                Outcome::Sending
            } else {
                Outcome::Ok
            },
            detail: None,
            value: None,
            via: Some("ssh".to_owned()),
            key: Some(format!("SHA256:{:043}", write % 5)),
            key_comment: Some(format!("moderator{}@phone", write % 5)),
            run: Some(format!("run-{}", write % 40)),
            session: None,
            carried: None,
            settled_by: None,
            label: None,
        };
        let line = serde_json::to_string(&e).expect("json");
        writeln!(out, "{line}").expect("write");
    }
    out.flush().expect("flush");
    std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)
}
