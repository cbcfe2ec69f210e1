//! End to end: `serve-ssh` holds its door. 300 TCP connections that never speak, or speak
//! and stall, while a moderator with a key signs in with the real OpenSSH client; the deadlines of a silent
//! connection and of one that never signs in, on a clock the test moves; an authorized keys
//! file other users can write, refused by the built binary at start and on each re-read;
//! its log made 0600. Loopback only (127.0.0.0/8: every 127.x address is this host's).
#![cfg(unix)]

use std::io::BufRead;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use club_admin::config::{Flags, resolve};
use club_admin::ssh::{Limits, ServeOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use super::ssh::{Setup, signed_out, ssh};
use crate::common::pty::GUARD;

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A TCP connection to `to` from the loopback address `from` that never sends a byte, or,
/// when `talks`, sends an SSH identification line and nothing more (it stalls in the key
/// exchange).
async fn silent_from(from: Ipv4Addr, to: SocketAddr, talks: bool) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket
        .bind(SocketAddr::new(IpAddr::V4(from), 0))
        .expect("bind a loopback address");
    let mut s = socket.connect(to).await.expect("connect");
    if talks {
        // The server may have cut it already: a failed write is a cut connection.
        let _ = s.write_all(b"SSH-2.0-OpenSSH_9.6 stall\r\n").await;
    }
    s
}

/// True while the server keeps `s` open: what it sent is read, no end of stream yet.
fn still_open(s: &TcpStream) -> bool {
    let mut buf = [0u8; 512];
    loop {
        match s.try_read(&mut buf) {
            Ok(0) => return false,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
            Err(_) => return false,
        }
    }
}

/// 300 mute connections: 150 from the moderator's own address (127.0.0.1) and 150 from
/// fifteen others (127.0.0.2 to .16, ten each); every other one sends its identification
/// line and stalls in the key exchange, the rest never send a byte. The door keeps at most
/// 10 of one address and 100 in all, cutting the oldest silent ones first, then the oldest
/// stalled ones, each once its grace in that stage is over (those it has no room for wait
/// to knock again); the moderator's `ssh`, which gets through the key exchange at once, is
/// let in and reaches the dashboard while the rest are still held open.
#[test]
fn three_hundred_mute_connections_do_not_keep_a_moderator_with_a_key_out() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let to = server.addr;
    let silent: Vec<TcpStream> = t.rt.block_on(async {
        let mut v = Vec::with_capacity(300);
        for i in 0u16..300 {
            let from = match i {
                0..150 => Ipv4Addr::LOCALHOST,
                _ => Ipv4Addr::new(127, 0, 0, 2 + u8::try_from((i - 150) / 10).expect("small")),
            };
            v.push(silent_from(from, to, i % 2 == 1).await);
        }
        v
    });
    // Every one has knocked: let in, or waiting to knock again (at most FULL of them; they
    // get in where a connection leaves, and cut no one), or closed past that.
    let deadline = Instant::now() + GUARD;
    let knocked =
        |c: club_admin::ssh::DoorCounts| c.admitted + c.refused_per_address + c.refused_startups;
    while knocked(server.door()) < 300 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let flood = server.door();
    assert!(knocked(flood) >= 300, "{flood:?}");
    assert!(flood.waiting <= 100, "at most FULL wait: {flood:?}");

    let started = Instant::now();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 24, 80);
    s.wait_for("the dashboard, not signed in", signed_out);
    let took = started.elapsed();
    let after = server.door();
    assert_eq!(after.signed_in, 1, "{after:?}");
    let held = silent.iter().filter(|c| still_open(c)).count();
    assert!(held >= 10, "the mute ones wait for their deadline: {held}");
    eprintln!(
        "300 mute connections: {} held open, {} cut before the moderator; the moderator's ssh reached the dashboard in {} ms ({held} mute still held then; door {after:?})",
        flood.waiting,
        flood.cut_silent + flood.cut_in_kex,
        took.as_millis()
    );
    s.kill();
    drop(silent);
    t.rt.block_on(server.stop());
}

/// A server in-process on a paused clock, any key allowed, an API base URL never called.
async fn paused_server(dir: &Path) -> club_admin::ssh::ServerHandle {
    std::fs::write(dir.join("config.toml"), "").expect("write");
    let flags = Flags {
        base_url: Some("http://127.0.0.1:9".into()),
        config: Some(dir.join("config.toml")),
        ..Flags::default()
    };
    let env = |k: &str| (k == "CLUB_ADMIN_API_KEY").then(|| "k".to_owned());
    let mut settings = resolve(&flags, &env, None).expect("settings");
    settings.state_dir = Some(dir.join("state"));
    let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
    let options = ServeOptions {
        listen: "127.0.0.1:0".parse().expect("addr"),
        host_key: dir.join("state").join("host_key"),
        authorized_keys: None,
        allow_any_key: true,
        limits: Limits::default(),
        reattach: Duration::from_secs(600),
        remember_tokens: None,
        mouse: true,
        status_socket: None,
        exec: true,
    };
    club_admin::ssh::start(options, settings, keymap)
        .await
        .expect("serve-ssh starts")
}

/// Reads `s` to its end; what it read.
async fn to_end(s: &mut TcpStream) -> Vec<u8> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n) = s.read(&mut buf).await {
        if n == 0 {
            break;
        }
        all.extend_from_slice(&buf[..n]);
    }
    all
}

/// `--banner-timeout` (10 s) cuts a connection that never sends its identification line;
/// `--auth-timeout` (30 s), counted from the moment it was accepted, one that speaks but
/// never signs in. The clock is tokio's, paused: it moves to each deadline, nothing waits.
#[test]
fn a_silent_connection_is_cut_at_the_banner_deadline_and_a_mute_one_at_the_sign_in_deadline() {
    let dir = tempfile::tempdir().expect("dir");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .expect("runtime");
    rt.block_on(async {
        let server = paused_server(dir.path()).await;
        let t0 = tokio::time::Instant::now();
        let mut silent = TcpStream::connect(server.addr).await.expect("connect");
        let mut talker = TcpStream::connect(server.addr).await.expect("connect");
        talker
            .write_all(b"SSH-2.0-OpenSSH_9.6 test\r\n")
            .await
            .expect("write");
        let said = to_end(&mut silent).await;
        let silent_at = t0.elapsed();
        assert!(said.starts_with(b"SSH-2.0-club-admin_"), "{said:?}");
        assert!(
            (Duration::from_secs(10)..Duration::from_secs(11)).contains(&silent_at),
            "cut at the banner deadline: {silent_at:?}"
        );
        to_end(&mut talker).await;
        let talker_at = t0.elapsed();
        assert!(
            (Duration::from_secs(30)..=Duration::from_secs(31)).contains(&talker_at),
            "cut at the sign-in deadline, from its start (and 1 s to take the message): {talker_at:?}"
        );
        let door = server.door();
        assert_eq!(
            (door.banner_late, door.sign_in_late, door.waiting),
            (1, 1, 0),
            "{door:?}"
        );
        server.stop().await;
    });
}

/// The built binary, `serve-ssh` on the demo server with `--log-file`.
fn serve_ssh_binary(t: &Setup, keys: &Path, log: Option<&Path>) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_club-admin"));
    cmd.args(["serve-ssh", "--listen", "127.0.0.1:0", "--authorized-keys"])
        .arg(keys)
        .arg("--host-key")
        .arg(t.state().join("ssh_host_ed25519_key"))
        .args(["--base-url", &t.demo.base_url])
        .env("CLUB_ADMIN_API_KEY", &t.demo.moderator().api_key)
        .env("XDG_STATE_HOME", t.dir.path().join("xdg-state"))
        .env("XDG_CONFIG_HOME", t.dir.path().join("xdg-config"))
        .env_remove("JOURNAL_STREAM");
    if let Some(log) = log {
        cmd.arg("--log-file").arg(log);
    }
    cmd
}

/// Spawns `cmd` with its standard output piped and reads where it listens: the child and
/// its port.
fn listening(mut cmd: Command) -> (std::process::Child, u16) {
    let mut child = cmd.stdout(Stdio::piped()).spawn().expect("spawns");
    let mut first = String::new();
    let stdout = child.stdout.take().expect("stdout");
    std::io::BufReader::new(stdout)
        .read_line(&mut first)
        .expect("a line");
    let port: u16 = first
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("where it listens: {first:?}"));
    (child, port)
}

/// Ends `child` with SIGTERM (as systemd stops it) and waits, within the guard.
fn stop(child: &mut std::process::Child) {
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
    let deadline = Instant::now() + GUARD;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("serve-ssh did not stop on SIGTERM");
}

#[test]
fn a_loose_authorized_keys_file_is_refused_at_start_and_on_reread_and_the_log_is_0600() {
    let t = Setup::new();
    let keys = t.dir.path().join("authorized_keys");
    let log = t.dir.path().join("logs").join("club-admin.log");
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;

    // At start: refused, exit 2, one message naming the file, its mode and the fix.
    chmod(&keys, 0o666);
    let out = serve_ssh_binary(&t, &keys, Some(&log))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&keys.display().to_string())
            && err.contains("has mode 666")
            && err.contains("chmod go-w"),
        "{err}"
    );

    // Mended; an old log others could read is narrowed to 0600 at start.
    chmod(&keys, 0o600);
    std::fs::write(&log, "an old line\n").expect("write");
    chmod(&log, 0o644);
    let mut cmd = serve_ssh_binary(&t, &keys, Some(&log));
    cmd.stderr(Stdio::null());
    let (mut child, port) = listening(cmd);
    assert_eq!(mode(&log), 0o600, "the log is 0600");

    let mut s = ssh(port, &t.alice, &[], &[], 24, 80);
    s.wait_for("the dashboard, not signed in", signed_out);
    s.kill();

    // Made loose while running: no key is let in, and the log says why and how to fix it.
    chmod(&keys, 0o666);
    let s = ssh(port, &t.alice, &[], &[], 24, 80);
    assert!(!s.wait_exit().success());
    let text = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(text.contains("Permission denied (publickey)"), "{text}");
    let logged = std::fs::read_to_string(&log).expect("log");
    assert!(
        logged.contains("has mode 666") && logged.contains("chmod go-w"),
        "{logged}"
    );

    // Mended again: let in; a key not in the file is refused, and the log names it by
    // its fingerprint (OpenSSH offers a key before signing with it: the refused offer).
    chmod(&keys, 0o600);
    let mut s = ssh(port, &t.alice, &[], &[], 24, 80);
    s.wait_for("the dashboard again", signed_out);
    s.kill();
    let s = ssh(port, &t.mallory, &[], &[], 24, 80);
    assert!(!s.wait_exit().success());
    stop(&mut child);
    let logged = std::fs::read_to_string(&log).expect("log");
    assert!(
        logged
            .lines()
            .any(|l| l.contains("not authorized") && l.contains(&t.mallory.fingerprint)),
        "the refused key is logged: {logged}"
    );
    // Each time the file is read, the keys it lets in are named (a key added is seen).
    let reread = logged
        .find("authorized keys read again")
        .map(|at| &logged[at..])
        .unwrap_or_else(|| panic!("no re-read logged: {logged}"));
    assert!(
        reread.lines().any(|l| l.contains("authorized key")
            && l.contains(&t.alice.fingerprint)
            && l.contains("alice")),
        "the keys accepted are logged: {logged}"
    );
    assert!(logged.starts_with("an old line\n"), "appended to: {logged}");
    assert!(
        !logged.contains(&t.demo.moderator().api_key),
        "no API key in the log"
    );
    assert!(
        !logged.contains(t.alice.public.trim()),
        "no key's body in the log"
    );
    assert_eq!(mode(&log), 0o600);
}

/// Under systemd with its output in the journal (`JOURNAL_STREAM` names standard error's
/// device and inode) and no `--log-file`, the log goes to standard error and no file is
/// made; a `JOURNAL_STREAM` naming another file (inherited by a child whose standard error
/// went elsewhere) is not taken for the journal.
#[test]
fn under_systemd_the_log_goes_to_the_journal_and_no_file_is_made() {
    use std::os::unix::fs::MetadataExt;
    let t = Setup::new();
    let keys = t.dir.path().join("authorized_keys");
    let journal = t.dir.path().join("journal");
    let file = std::fs::File::create(&journal).expect("create");
    let meta = file.metadata().expect("meta");
    let mut cmd = serve_ssh_binary(&t, &keys, None);
    cmd.env("JOURNAL_STREAM", format!("{}:{}", meta.dev(), meta.ino()))
        .stderr(Stdio::from(file));
    let (mut child, _) = listening(cmd);
    stop(&mut child);
    let said = std::fs::read_to_string(&journal).expect("journal");
    assert!(
        said.contains("starting (serve-ssh)") && said.contains("serve-ssh stopped"),
        "{said}"
    );
    let default_log = t.dir.path().join("xdg-state/club-admin/club-admin.log");
    assert!(!default_log.exists(), "no log file beside the journal");

    // Another file's numbers: not the journal; the log file, 0600.
    let mut cmd = serve_ssh_binary(&t, &keys, None);
    cmd.env("JOURNAL_STREAM", format!("{}:{}", meta.dev(), meta.ino()))
        .stderr(Stdio::null());
    let (mut child, _) = listening(cmd);
    stop(&mut child);
    let logged = std::fs::read_to_string(&default_log).expect("the log file");
    assert!(logged.contains("starting (serve-ssh)"), "{logged}");
    let mode = std::fs::metadata(&default_log)
        .expect("meta")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// Kills the process when dropped (a no-op once it has ended).
struct KillOnDrop(nix::unistd::Pid);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = nix::sys::signal::kill(self.0, nix::sys::signal::Signal::SIGKILL);
    }
}

/// The lines of `path` so far (empty while it does not exist).
fn read_log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Waits, within the guard, until `what` holds.
fn until(what: &str, mut holds: impl FnMut() -> bool) {
    let deadline = Instant::now() + GUARD;
    while !holds() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// True when the server at `port` greets a new connection with its SSH identification line.
fn greets(port: u16) -> bool {
    use std::io::Read;
    let Ok(mut c) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = c.set_read_timeout(Some(GUARD));
    let mut buf = [0u8; 8];
    c.read_exact(&mut buf).is_ok() && buf.starts_with(b"SSH-2.0")
}

#[test]
fn sighup_serves_on_and_reads_the_log_level_again() {
    let t = Setup::new();
    let keys = t.dir.path().join("authorized_keys");
    let log = t.dir.path().join("logs").join("club-admin.log");
    let config = t.dir.path().join("serve-ssh.toml");
    std::fs::write(&config, "[serve_ssh]\nlog_level = \"info\"\n").expect("config");
    let mut cmd = serve_ssh_binary(&t, &keys, Some(&log));
    cmd.arg("--config")
        .arg(&config)
        .env_remove("CLUB_ADMIN_LOG");
    let (mut child, port) = listening(cmd);
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
    // A failed assertion leaves no server behind (it would hold the test's output open).
    let _guard = KillOnDrop(pid);
    until("the start logged", || {
        read_log(&log).contains("serve-ssh started")
    });

    // `systemctl reload`: the level from the file, read again; the door stays open.
    std::fs::write(&config, "[serve_ssh]\nlog_level = \"debug\"\n").expect("config");
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGHUP).expect("SIGHUP");
    until("the new level logged", || {
        read_log(&log).contains("SIGHUP: the log level is now debug")
    });
    assert!(
        child.try_wait().expect("wait").is_none(),
        "SIGHUP stopped it"
    );
    assert!(greets(port), "the door closed after SIGHUP");

    // A level that does not parse leaves the level as it was, said; a second SIGHUP is
    // answered as the first.
    std::fs::write(&config, "[serve_ssh]\nlog_level = \"club_admin=loud\"\n").expect("config");
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGHUP).expect("SIGHUP");
    until("the bad level said", || {
        read_log(&log).contains("SIGHUP: the log level \"club_admin=loud\" is not a level")
    });
    assert!(
        child.try_wait().expect("wait").is_none(),
        "SIGHUP stopped it"
    );
    assert!(greets(port), "the door closed after the second SIGHUP");
    stop(&mut child);
}

#[test]
fn a_log_file_that_cannot_be_opened_leaves_the_log_on_standard_error_said_once() {
    let t = Setup::new();
    let keys = t.dir.path().join("authorized_keys");
    // Its folder would be below a file: it cannot be made.
    let file = t.dir.path().join("a-file");
    std::fs::write(&file, "").expect("file");
    let log = file.join("club-admin.log");
    let mut cmd = serve_ssh_binary(&t, &keys, Some(&log));
    cmd.env_remove("CLUB_ADMIN_LOG").stderr(Stdio::piped());
    let (mut child, port) = listening(cmd);
    assert!(greets(port));
    stop(&mut child);
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("stderr");
    assert_eq!(
        err.matches("warning: no log file: could not make the log folder")
            .count(),
        1,
        "{err}"
    );
    assert!(
        err.contains("the log goes to standard error (the journal under systemd)"),
        "{err}"
    );
    // The log itself, there: the start and the stop.
    assert!(err.contains("serve-ssh started"), "{err}");
    assert!(err.contains("serve-ssh stopped"), "{err}");
}
