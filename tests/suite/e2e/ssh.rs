//! End to end: `serve-ssh` on loopback, driven by the real OpenSSH client (`ssh -tt`) in a
//! pseudo-terminal, with the demo server as the API. The server runs in-process
//! (`club_admin::ssh::start`, port 0) or as the built binary (its start-up refusals).
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use club_admin::api::MembershipStatus;
use club_admin::config::{Flags, resolve};
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::ssh::{Hooks, Limits, ServeOptions, ServerHandle};
use portable_pty::CommandBuilder;

use crate::common::pty::{GUARD, Pty};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A client key made by `ssh-keygen` (ed25519, no passphrase): its private key file, its
/// public line and its fingerprint as `ssh-keygen -l` prints it.
#[derive(Clone)]
pub(super) struct ClientKey {
    pub(super) path: PathBuf,
    pub(super) public: String,
    pub(super) fingerprint: String,
}

pub(super) fn keygen(dir: &Path, name: &str) -> ClientKey {
    keygen_of(dir, name, "ed25519")
}

/// [`keygen`] of another type (`rsa`, `ecdsa`).
fn keygen_of(dir: &Path, name: &str, kind: &str) -> ClientKey {
    let path = dir.join(name);
    let st = Command::new("ssh-keygen")
        .args(["-q", "-t", kind, "-N", "", "-C", name, "-f"])
        .arg(&path)
        .status()
        .expect("ssh-keygen runs");
    assert!(st.success(), "ssh-keygen: {st:?}");
    let public = std::fs::read_to_string(dir.join(format!("{name}.pub"))).expect("public key");
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(dir.join(format!("{name}.pub")))
        .output()
        .expect("ssh-keygen -l");
    let fingerprint = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .nth(1)
        .expect("a fingerprint")
        .to_owned();
    ClientKey {
        path,
        public,
        fingerprint,
    }
}

/// A demo server, a state directory and the keys of a test.
pub(super) struct Setup {
    pub(super) rt: tokio::runtime::Runtime,
    pub(super) demo: DemoHandle,
    pub(super) dir: tempfile::TempDir,
    /// In the authorized keys file.
    pub(super) alice: ClientKey,
    /// Not in it.
    pub(super) mallory: ClientKey,
}

impl Setup {
    pub(super) fn new() -> Setup {
        Setup::with(DemoOptions::default())
    }

    /// As [`Setup::new`], on a demo started with `options`.
    pub(super) fn with(options: DemoOptions) -> Setup {
        let rt = rt();
        let demo = rt.block_on(demo::start(options)).expect("demo");
        let dir = tempfile::tempdir().expect("dir");
        let alice = keygen(dir.path(), "alice");
        let mallory = keygen(dir.path(), "mallory");
        std::fs::write(dir.path().join("authorized_keys"), &alice.public).expect("write");
        // Only its owner may write it (serve-ssh refuses it otherwise, whatever the umask).
        std::fs::set_permissions(
            dir.path().join("authorized_keys"),
            std::os::unix::fs::PermissionsExt::from_mode(0o600),
        )
        .expect("chmod");
        std::fs::write(dir.path().join("config.toml"), "").expect("write");
        Setup {
            rt,
            demo,
            dir,
            alice,
            mallory,
        }
    }

    pub(super) fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    pub(super) fn options(&self) -> ServeOptions {
        ServeOptions {
            listen: "127.0.0.1:0".parse().expect("addr"),
            host_key: self.state().join("ssh_host_ed25519_key"),
            authorized_keys: Some(self.dir.path().join("authorized_keys")),
            allow_any_key: false,
            limits: Limits::default(),
            reattach: Duration::from_secs(600),
            remember_tokens: None,
            mouse: true,
            status_socket: None,
            exec: true,
        }
    }

    /// The server in-process, the moderator's API key as the operator's, decisions held
    /// for `delay` seconds.
    pub(super) fn serve(&self, options: ServeOptions, delay: u64) -> ServerHandle {
        self.serve_with(options, Hooks::default(), delay)
    }

    /// As `serve`, with the server's test hooks.
    fn serve_with(&self, options: ServeOptions, hooks: Hooks, delay: u64) -> ServerHandle {
        let flags = Flags {
            base_url: Some(self.demo.base_url.clone()),
            config: Some(self.dir.path().join("config.toml")),
            decision_delay: Some(delay),
            ..Flags::default()
        };
        let key = self.demo.moderator().api_key.clone();
        let env = move |k: &str| (k == "CLUB_ADMIN_API_KEY").then(|| key.clone());
        let mut settings = resolve(&flags, &env, None).expect("settings");
        settings.state_dir = Some(self.state());
        let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
        self.rt
            .block_on(club_admin::ssh::start_with(
                options, settings, keymap, hooks,
            ))
            .expect("serve-ssh starts")
    }

    /// The audit file's outcome lines as JSON Lines ([`crate::common::outcomes_of`]: the
    /// write-ahead rule checked, the `sending` lines left out).
    pub(super) fn audit(&self) -> String {
        crate::common::audit_outcomes(&self.state().join("audit.jsonl"))
            .iter()
            .map(|e| serde_json::to_string(e).unwrap_or_default() + "\n")
            .collect()
    }
}

/// `ssh -tt` to the server with `key`, in a `rows` x `cols` terminal; `extra` options
/// before the destination, `command` after it.
pub(super) fn ssh(
    port: u16,
    key: &ClientKey,
    extra: &[&str],
    command: &[&str],
    rows: u16,
    cols: u16,
) -> Pty {
    let mut cmd = CommandBuilder::new("ssh");
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("LANG");
    cmd.env_remove("LC_ALL");
    let port = port.to_string();
    cmd.args(["-F", "/dev/null", "-tt", "-p", &port, "-i"]);
    cmd.arg(&key.path);
    cmd.args([
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "BatchMode=yes",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "LogLevel=ERROR",
    ]);
    cmd.args(extra);
    cmd.arg("moderator@127.0.0.1");
    cmd.args(command);
    Pty::spawn(cmd, rows, cols)
}

/// Waits until the server has seen a killed client's connection end (its dashboard waits
/// for the key): a connection made before that gets a dashboard of its own.
pub(super) fn wait_detached(server: &ServerHandle) {
    let deadline = std::time::Instant::now() + GUARD;
    while server.waiting() == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.waiting(), 1, "the dashboard waits for its key");
}

/// The width of a line in terminal cells.
fn unicode_width(line: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(line)
}

/// Rows of the queue on a screen (each shows its request's number, `#5....`).
pub(super) fn rows(screen: &str) -> usize {
    screen.matches(" #5").count()
}

/// True for a dashboard drawn without a token: the header says which key signs in (the
/// sign-in pop-up opens only when asked).
pub(super) fn signed_out(screen: &str) -> bool {
    screen.contains("S to sign in") || screen.contains("กด S เพื่อเข้าสู่ระบบ")
}

/// Opens the sign-in pop-up (`S`), pastes the moderator's token into it (bracketed, as a
/// terminal pastes) and presses Enter; waits for the queue.
pub(super) fn sign_in(s: &mut Pty, token: &str) -> String {
    // The pop-up opens when asked: `S`, as the header says.
    s.wait_for("the dashboard, not signed in", signed_out);
    s.send(b"S");
    s.wait_for("the sign-in pop-up", |t| {
        t.contains("┌ Sign in") || t.contains("┌ เข้าสู่ระบบ")
    });
    s.send(format!("\x1b[200~{token}\x1b[201~").as_bytes());
    s.send(b"\r");
    // Signed in, and the listing's rows are in (a key pressed before acts on no row).
    s.wait_for("the queue after signing in", |t| {
        t.contains("ton.jaidee@") && !t.contains("paste the token") && rows(t) > 3
    })
}

#[test]
fn sign_in_by_pasting_a_token_approve_and_quit() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    // Nothing opens by itself: the header says which key signs in.
    let screen = s.wait_for("the dashboard, not signed in", signed_out);
    assert!(!screen.contains("┌ Sign in"), "{screen}");
    s.send(b"S");
    let screen = s.wait_for("the sign-in pop-up", |x| x.contains("┌ Sign in"));
    assert!(screen.contains("in memory only"), "{screen}");
    s.send(b"\x1b");
    let screen = sign_in(&mut s, &m.token);
    assert!(!screen.contains(&m.token), "the token is never on screen");
    // The client's window shrinks (window-change): the dashboard is laid out again for
    // 80x24, its hint bar on the last row.
    s.resize(24, 80);
    // (At 120 columns the request pane stands beside the queue; at 80 it is below it,
    // beside the club pane: only a new layout draws that.)
    let small = s.wait_for("the dashboard laid out for 80x24", |x| {
        x.lines()
            .nth(1)
            .is_some_and(|l| l.contains("Queue") && !l.contains("Request"))
            && x.lines()
                .any(|l| l.contains("┌ Request") && l.contains("Club lookup"))
            && x.lines().nth(23).is_some_and(|l| l.contains("q quit"))
    });
    assert!(
        small.lines().all(|l| unicode_width(l) <= 80),
        "nothing wider than the window:\n{small}"
    );
    let before = t.demo.pending_for("moderator").len();
    s.send(b"a");
    s.wait_for("the approval on screen", |x| x.contains(": approved"));
    let muts = t.demo.mutations();
    assert_eq!(muts.len(), 1, "{muts:?}");
    let id: uuid::Uuid = muts[0]
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .expect("id");
    assert_eq!(t.demo.request_status(id), Some(MembershipStatus::Approved));
    assert_eq!(t.demo.pending_for("moderator").len(), before - 1);
    // `y` copies the selected id: OSC 52 reaches the client's terminal through the channel.
    s.send(b"y");
    let deadline = std::time::Instant::now() + GUARD;
    while !String::from_utf8_lossy(&s.bytes()).contains("\x1b]52;c;")
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    let osc = raw
        .split("\x1b]52;c;")
        .nth(1)
        .unwrap_or_else(|| panic!("no OSC 52 in the output"));
    let b64: String = osc
        .chars()
        .take_while(|c| *c != '\x07' && *c != '\x1b')
        .collect();
    use base64::Engine as _;
    let copied = base64::engine::general_purpose::STANDARD
        .decode(b64.as_bytes())
        .expect("base64");
    let copied = String::from_utf8(copied).expect("utf-8");
    assert!(
        copied.parse::<uuid::Uuid>().is_ok(),
        "a request id: {copied}"
    );
    // `:mouse on` turns mouse capture on in the client's terminal too.
    s.send(b":mouse on\r");
    let deadline = std::time::Instant::now() + GUARD;
    while !String::from_utf8_lossy(&s.bytes()).contains("\x1b[?1000h")
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        String::from_utf8_lossy(&s.bytes()).contains("\x1b[?1000h"),
        "mouse capture asked of the client's terminal"
    );
    s.send(b"q");
    let st = s.wait_exit();
    assert!(st.success(), "ssh exits 0 after q: {st:?}");
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(
        raw.rfind("\x1b[?1049l") > raw.rfind("\x1b[?1049h"),
        "the client's terminal leaves the alternate screen last"
    );
    assert!(!raw.contains(&m.api_key), "no API key on the wire's screen");
    let audit = t.audit();
    let line = audit
        .lines()
        .find(|l| l.contains(&id.to_string()))
        .unwrap_or_else(|| panic!("an audit line for {id}: {audit}"));
    let v: serde_json::Value = serde_json::from_str(line).expect("json");
    assert_eq!(v["via"], "ssh", "{line}");
    assert_eq!(v["key"], t.alice.fingerprint.as_str(), "{line}");
    assert_eq!(v["user"], m.email.as_str(), "{line}");
    assert_eq!(v["outcome"], "ok", "{line}");
    assert!(!audit.contains(&m.token), "no token in the audit file");
    t.rt.block_on(server.stop());
}

#[test]
fn a_key_not_in_the_file_is_refused_and_other_commands_and_sftp_are_refused_with_a_message() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let s = ssh(server.port(), &t.mallory, &[], &[], 24, 80);
    let st = s.wait_exit();
    assert!(!st.success(), "{st:?}");
    let text = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(text.contains("Permission denied (publickey)"), "{text}");

    // A command that is not one of the scripting subcommands: refused (the commands
    // themselves: `e2e::ssh_exec`).
    let s = ssh(server.port(), &t.alice, &[], &["ls", "/"], 24, 80);
    let st = s.wait_exit();
    assert!(!st.success(), "{st:?}");
    let text = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(text.contains("\"ls\" is not a command here"), "{text}");

    let s = ssh(server.port(), &t.alice, &["-s"], &["sftp"], 24, 80);
    let st = s.wait_exit();
    assert!(!st.success(), "{st:?}");
    let text = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(text.contains("subsystem \"sftp\" is refused"), "{text}");

    // A key added to the file is let in at once: the file is read again when it changes.
    let both = format!("{}{}", t.alice.public, t.mallory.public);
    std::fs::write(t.dir.path().join("authorized_keys"), both).expect("write");
    let mut s = ssh(server.port(), &t.mallory, &[], &[], 24, 80);
    s.wait_for("the dashboard, not signed in", signed_out);
    s.kill();
    t.rt.block_on(server.stop());
    assert!(t.demo.mutations().is_empty());
}

#[test]
fn rsa_and_ecdsa_keys_sign_in_too() {
    let t = Setup::new();
    let rsa = keygen_of(t.dir.path(), "rsa", "rsa");
    let ecdsa = keygen_of(t.dir.path(), "ecdsa", "ecdsa");
    let file = format!("{}{}{}", t.alice.public, rsa.public, ecdsa.public);
    std::fs::write(t.dir.path().join("authorized_keys"), file).expect("write");
    let server = t.serve(t.options(), 0);
    for key in [&rsa, &ecdsa] {
        let mut s = ssh(server.port(), key, &[], &[], 24, 80);
        s.wait_for("the dashboard, not signed in", signed_out);
        s.kill();
    }
    t.rt.block_on(server.stop());
}

#[test]
fn a_killed_client_reattaches_to_its_dashboard_and_a_stop_sends_what_was_held() {
    let t = Setup::new();
    let server = t.serve(t.options(), 60);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    sign_in(&mut s, &m.token);
    s.send(b"a");
    s.wait_for("the countdown", |x| {
        x.contains("approving ") && x.contains("z undo")
    });
    s.kill();
    s.wait_exit();
    wait_detached(&server);
    assert!(t.demo.mutations().is_empty(), "held, not sent");

    // The same key again: the dashboard as it was, signed in, the decision still held.
    let s = ssh(server.port(), &t.alice, &[], &[], 24, 80);
    let screen = s.wait_for("the same dashboard", |x| {
        x.contains("approving ") && rows(x) > 3
    });
    assert!(!screen.contains("Sign in"), "{screen}");
    assert_eq!(server.sessions(), 1, "re-attached, not a second dashboard");
    assert!(t.demo.mutations().is_empty());

    // The server stops (as on SIGTERM): the held approval is sent, as on a local hang-up,
    // audited, and the client's terminal given back.
    t.rt.block_on(server.stop());
    let muts = t.demo.mutations();
    assert_eq!(muts.len(), 1, "{muts:?}");
    assert!(muts[0].ends_with(" approved"), "{muts:?}");
    let st = s.wait_exit();
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(
        raw.rfind("\x1b[?1049l") > raw.rfind("\x1b[?1049h"),
        "terminal given back: {st:?}"
    );
    // Told why, and when to come back, after the screen is given back.
    let told = raw
        .rfind(
            "club-admin: the server is stopping (its operator stopped, restarted or upgraded it)",
        )
        .unwrap_or_else(|| panic!("not told why: {raw:?}"));
    assert!(told > raw.rfind("\x1b[?1049l").unwrap_or(0), "{raw:?}");
    assert!(raw.contains("Connect again in a minute"), "{raw:?}");
    let audit = t.audit();
    assert!(
        audit.contains("\"outcome\":\"ok\"") && audit.contains("\"via\":\"ssh\""),
        "{audit}"
    );
}

#[test]
fn a_detached_dashboard_keeps_running_its_grace_period_ends_and_the_answer_is_there_on_return() {
    let t = Setup::new();
    let server = t.serve(t.options(), 1);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    sign_in(&mut s, &m.token);
    s.send(b"a");
    s.wait_for("the countdown", |x| x.contains("approving "));
    s.kill();
    s.wait_exit();
    wait_detached(&server);
    // No connection: the grace period ends in the detached dashboard, the approval is sent
    // and its answer applied and audited, without waiting for the key to come back.
    let deadline = std::time::Instant::now() + GUARD;
    while !t.audit().contains("\"outcome\":\"ok\"") && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(t.audit().contains("\"outcome\":\"ok\""), "{}", t.audit());
    assert_eq!(t.demo.mutations().len(), 1);
    assert_eq!(server.sessions(), 1, "still waiting for its key");
    let s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    s.wait_for("the approved row on return", |x| {
        x.contains(": approved") && rows(x) > 3
    });
    t.rt.block_on(server.stop());
    assert_eq!(t.demo.mutations().len(), 1, "nothing sent twice");
}

#[test]
fn a_detached_dashboard_ends_for_good_after_the_window_and_its_held_decision_is_sent() {
    let t = Setup::new();
    let options = ServeOptions {
        reattach: Duration::from_millis(300),
        ..t.options()
    };
    let server = t.serve(options, 60);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    sign_in(&mut s, &m.token);
    s.send(b"a");
    s.wait_for("the countdown", |x| x.contains("approving "));
    s.kill();
    s.wait_exit();
    // The window passes with no connection: the decision is sent (the hang-up rule).
    let deadline = std::time::Instant::now() + GUARD;
    while t.demo.mutations().is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let muts = t.demo.mutations();
    assert_eq!(muts.len(), 1, "{muts:?}");
    while server.sessions() > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(server.sessions(), 0, "the dashboard is over");
    // The key comes back later: a new dashboard, signed out.
    let s = ssh(server.port(), &t.alice, &[], &[], 24, 80);
    s.wait_for("a new sign-in", signed_out);
    t.rt.block_on(server.stop());
}

/// Waits for the clock on purpose: what it checks is the idle timeout itself (1 s here).
#[test]
fn an_idle_session_is_disconnected_with_a_message_and_its_dashboard_waits() {
    let t = Setup::new();
    let options = ServeOptions {
        limits: Limits {
            idle_timeout: Duration::from_secs(1),
            ..Limits::default()
        },
        ..t.options()
    };
    let server = t.serve(options, 0);
    let mut s = ssh(server.port(), &t.alice, &[], &[], 24, 80);
    s.wait_for("the dashboard, not signed in", signed_out);
    s.send(b"S");
    let st = s.wait_exit();
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(raw.contains("no key for 1 s: disconnected"), "{raw}");
    assert!(
        raw.rfind("\x1b[?1049l") > raw.rfind("\x1b[?1049h"),
        "terminal given back: {st:?}"
    );
    wait_detached(&server);
    assert_eq!(server.sessions(), 1);
    t.rt.block_on(server.stop());
}

#[test]
fn one_sessions_panic_leaves_the_others_drawing_and_thai_comes_from_the_clients_lang() {
    let t = Setup::new();
    let both = format!("{}{}", t.alice.public, t.mallory.public);
    std::fs::write(t.dir.path().join("authorized_keys"), both).expect("write");
    let hooks = Hooks {
        panic_key: Some(t.mallory.fingerprint.clone()),
    };
    let server = t.serve_with(t.options(), hooks, 0);
    let m = t.demo.moderator().clone();
    let mut a = ssh(
        server.port(),
        &t.alice,
        &["-o", "SetEnv=LANG=th_TH.UTF-8"],
        &[],
        24,
        80,
    );
    let screen = a.wait_for("the Thai dashboard", |x| x.contains("กด S เพื่อเข้าสู่ระบบ"));
    assert!(!screen.contains("Sign in"), "{screen}");
    let b = ssh(server.port(), &t.mallory, &[], &[], 24, 80);
    let st = b.wait_exit();
    assert!(!st.success(), "{st:?}");
    let text = String::from_utf8_lossy(&b.bytes()).to_string();
    assert!(text.contains("internal error"), "{text}");
    // The other session goes on: it signs in and draws its queue.
    let screen = sign_in(&mut a, &m.token);
    assert!(screen.contains("ton.jaidee@"), "{screen}");
    assert_eq!(server.sessions(), 1);
    a.send(b"q");
    assert!(a.wait_exit().success());
    t.rt.block_on(server.stop());
}

#[test]
fn the_host_key_is_made_once_with_mode_0600_and_the_same_after_a_restart() {
    use std::os::unix::fs::PermissionsExt;
    let t = Setup::new();
    // A port below the kernel's ephemeral range (32768 and up): while this server is stopped,
    // another test's `bind` to port 0 cannot take it before the restart below.
    let low = (0..1000)
        .map(|_| 20_000 + fastrand::u16(..12_000))
        .find(|p| std::net::TcpListener::bind(("127.0.0.1", *p)).is_ok())
        .expect("a free port below the ephemeral range");
    let first = t.serve(
        ServeOptions {
            listen: format!("127.0.0.1:{low}").parse().expect("addr"),
            ..t.options()
        },
        0,
    );
    assert!(first.made_host_key);
    let fp = first.fingerprint.clone();
    let key = t.state().join("ssh_host_ed25519_key");
    let mode = std::fs::metadata(&key)
        .expect("host key")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    // The client learns the host key on the first connection...
    let known = t.dir.path().join("known_hosts");
    let known_opt = format!("UserKnownHostsFile={}", known.display());
    let port = first.port();
    let mut s = ssh(
        port,
        &t.alice,
        &["-o", &known_opt, "-o", "StrictHostKeyChecking=accept-new"],
        &[],
        24,
        80,
    );
    s.wait_for("the dashboard, not signed in", signed_out);
    s.kill();
    t.rt.block_on(first.stop());
    // ...and after a restart on the same port, checks it strictly.
    let again = t.serve(
        ServeOptions {
            listen: format!("127.0.0.1:{port}").parse().expect("addr"),
            ..t.options()
        },
        0,
    );
    assert!(!again.made_host_key);
    assert_eq!(again.fingerprint, fp);
    let mut s = ssh(
        port,
        &t.alice,
        &["-o", &known_opt, "-o", "StrictHostKeyChecking=yes"],
        &[],
        24,
        80,
    );
    s.wait_for("the dashboard, the host key accepted", signed_out);
    s.kill();
    t.rt.block_on(again.stop());
}

#[test]
fn serve_ssh_without_authorized_keys_refuses_to_start() {
    let dir = tempfile::tempdir().expect("dir");
    let out = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args([
            "serve-ssh",
            "--listen",
            "127.0.0.1:0",
            "--base-url",
            "http://127.0.0.1:9",
        ])
        .env("CLUB_ADMIN_API_KEY", "k")
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no --authorized-keys FILE") && err.contains("--allow-any-key"),
        "{err}"
    );
    assert!(
        !dir.path()
            .join("state/club-admin/ssh_host_ed25519_key")
            .exists(),
        "nothing made before the refusal"
    );
}

/// `--remember-tokens`: a key's token, pasted once, is kept in a file of its own (mode 0600,
/// named by the key's fingerprint); a new session with that key (after the re-attach
/// window: a new dashboard) is signed in without the pop-up. Without the option, nothing
/// reaches the disk (the other tests).
#[test]
fn remembered_tokens_sign_a_new_session_of_the_same_key_in() {
    use std::os::unix::fs::PermissionsExt;
    let t = Setup::new();
    let dir = t.state().join("ssh-tokens");
    let options = ServeOptions {
        remember_tokens: Some(dir.clone()),
        reattach: Duration::ZERO,
        ..t.options()
    };
    let server = t.serve(options, 0);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    sign_in(&mut s, &m.token);
    s.send(b"q");
    assert!(s.wait_exit().success());
    let file = club_admin::ssh::token_file(&dir, &t.alice.fingerprint);
    let kept = std::fs::read_to_string(&file).expect("the token file");
    assert_eq!(kept.trim(), m.token, "the pasted token, kept");
    let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    // A new connection with the same key: signed in, no pop-up.
    let mut again = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    let screen = again.wait_for("the queue, signed in", |x| {
        x.contains("ton.jaidee@") && rows(x) > 3
    });
    assert!(!screen.contains("Sign in"), "{screen}");
    again.send(b"q");
    assert!(again.wait_exit().success());
    // Another key's session is not signed in by it.
    std::fs::write(
        t.dir.path().join("authorized_keys"),
        format!("{}{}", t.alice.public, t.mallory.public),
    )
    .expect("write");
    let other = ssh(server.port(), &t.mallory, &[], &[], 40, 120);
    other.wait_for("the dashboard, not signed in", signed_out);
    drop(other);
    t.rt.block_on(server.stop());
}

/// Waits until the demo server has seen `n` writes; returns them.
fn wait_mutations(t: &Setup, n: usize) -> Vec<String> {
    let deadline = std::time::Instant::now() + GUARD;
    while t.demo.mutations().len() < n && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    let muts = t.demo.mutations();
    assert_eq!(muts.len(), n, "{muts:?}");
    muts
}

/// The screen as the client's terminal shows it, and where `text` begins on it (column, row,
/// from 0), searched from the bottom (the hint bar) up.
fn find(s: &Pty, text: &str) -> Option<(u16, u16)> {
    let p = s.parser();
    let screen = p.screen();
    let (rows, cols) = screen.size();
    for r in (0..rows.get()).rev() {
        let cells: Vec<String> = (0..cols.get())
            .map(|c| {
                screen
                    .cell(r, c)
                    .map(|x| match x.contents() {
                        "" if x.is_wide_continuation() => String::new(),
                        "" => " ".to_owned(),
                        t => t.to_owned(),
                    })
                    .unwrap_or_default()
            })
            .collect();
        for c in 0..cells.len() {
            if cells[c..].concat().starts_with(text) {
                return Some((c as u16, r));
            }
        }
    }
    None
}

/// Taps (a mouse press and release, SGR reports as a phone's terminal sends them) on where
/// `text` is drawn, once it is.
fn tap(s: &mut Pty, text: &str) {
    s.wait_for(&format!("{text:?} to tap"), |x| x.contains(text));
    let (c, r) = find(s, text).unwrap_or_else(|| panic!("{text:?} not found:\n{}", s.screen()));
    s.send(format!("\x1b[<0;{};{}M\x1b[<0;{};{}m", c + 1, r + 1, c + 1, r + 1).as_bytes());
}

/// Every line of a screen is at most `cols` cells wide.
fn fits(screen: &str, cols: usize) {
    assert!(
        screen.lines().all(|l| unicode_width(l) <= cols),
        "nothing wider than the window:\n{screen}"
    );
}

/// The words a phone session waits for, in its language (as drawn: SARA AM as two code
/// points): sign-in title, approving, undo hint, online, help title.
fn words(thai: bool) -> [String; 5] {
    let w = if thai {
        ["เข้าสู่ระบบ", "กำลังอนุมัติ", "z ถอน", "● ออนไลน์", "ปุ่มลัด"]
    } else {
        [
            "Sign in",
            "approving",
            "z undo",
            "● online",
            "Keys (? or Esc to close)",
        ]
    };
    w.map(|x| club_admin::text::for_terminal(x).into_owned())
}

/// On a phone's window (`rows` x `cols`) in English or Thai: the sign-in pop-up fits with its
/// address whole, a paste signs in, `a` then `z` sends nothing, `a` approves, `j x`
/// declines, `?` shows the help that fits, Esc closes it, `q` quits; two writes audited ok
/// and one undone.
fn phone_session(thai: bool, rows_n: u16, cols: u16) {
    let t = Setup::new();
    let server = t.serve(t.options(), 2);
    let m = t.demo.moderator().clone();
    let lang: &[&str] = if thai {
        &["-o", "SetEnv=LANG=th_TH.UTF-8"]
    } else {
        &[]
    };
    let [title, approving, undo, online, help_title] = words(thai);
    let what = format!("{cols}x{rows_n} thai={thai}");
    let mut s = ssh(server.port(), &t.alice, lang, &[], rows_n, cols);
    // Not signed in: S (the hint bar offers it) opens the pop-up; it fits, the address whole.
    let screen = s.wait_for("the dashboard, not signed in", signed_out);
    fits(&screen, usize::from(cols));
    s.send(b"S");
    let url = format!("{}/auth/oauth/init", t.demo.base_url);
    let screen = s.wait_for("the sign-in pop-up", |x| {
        x.contains(&format!("┌ {title}")) && x.contains(&url)
    });
    fits(&screen, usize::from(cols));
    s.send(b"\x1b");
    let screen = sign_in(&mut s, &m.token);
    fits(&screen, usize::from(cols));
    assert!(!screen.contains(&m.token), "the token is never on screen");
    assert!(screen.contains(&online), "{what}: {screen}");
    // Approve, then take it back with z while it is held: nothing is sent.
    s.send(b"a");
    s.wait_for("the countdown", |x| {
        x.contains(&approving) && x.contains(&undo)
    });
    s.send(b"z");
    s.wait_for("the approval taken back", |x| !x.contains(&approving));
    assert!(t.demo.mutations().is_empty(), "{what}: undone, not sent");
    // Approve for good, then decline the next request.
    s.send(b"a");
    let muts = wait_mutations(&t, 1);
    assert!(muts[0].ends_with(" approved"), "{what}: {muts:?}");
    s.send(b"j");
    s.send(b"x");
    let muts = wait_mutations(&t, 2);
    assert!(muts[1].ends_with(" declined"), "{what}: {muts:?}");
    // The help fits and closes.
    s.send(b"?");
    let help = s.wait_for("the help", |x| x.contains(&help_title));
    fits(&help, usize::from(cols));
    s.send(b"\x1b");
    s.wait_for("the queue again", |x| {
        !x.contains(&help_title) && rows(x) > 3
    });
    s.send(b"q");
    assert!(s.wait_exit().success(), "{what}");
    let audit = t.audit();
    assert_eq!(
        audit.matches("\"outcome\":\"ok\"").count(),
        2,
        "{what}: {audit}"
    );
    assert!(audit.contains("\"outcome\":\"undone\""), "{what}: {audit}");
    t.rt.block_on(server.stop());
}

#[test]
fn on_a_phone_45x30_sign_in_by_paste_approve_undo_decline_help_and_quit() {
    phone_session(false, 30, 45);
    phone_session(true, 30, 45);
}

#[test]
fn on_a_phone_on_its_side_90x20_the_same_in_thai_and_english() {
    phone_session(true, 20, 90);
    phone_session(false, 20, 90);
}

#[test]
fn on_a_phone_taps_instead_of_keys_sign_in_open_the_detail_decline_undo_help_and_quit() {
    let t = Setup::new();
    let server = t.serve(t.options(), 30);
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 30, 45);
    s.wait_for("the dashboard, not signed in", signed_out);
    // Mouse capture is on by default for serve-ssh (SGR reports asked of the client).
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(raw.contains("\x1b[?1000h"), "mouse capture asked");
    // The hint "S sign in" tapped opens the pop-up: no key pressed.
    tap(&mut s, "S sign in");
    s.wait_for("the sign-in pop-up", |x| x.contains("┌ Sign in"));
    // Paste the token, then tap the hint "Enter sign in" instead of pressing Enter.
    s.send(format!("\x1b[200~{}\x1b[201~", m.token).as_bytes());
    tap(&mut s, "Enter sign in");
    s.wait_for("the queue after signing in", |x| {
        x.contains("ton.jaidee@") && !x.contains("paste the token") && rows(x) > 3
    });
    // Tap the third row: selected; tap it again: its detail opens over the queue.
    let screen = s.screen();
    let third = screen
        .lines()
        .filter(|l| l.contains(" #5"))
        .nth(2)
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with("#5")))
        .expect("a third row")
        .to_owned();
    tap(&mut s, &third);
    tap(&mut s, &third);
    s.wait_for("the detail", |x| {
        x.contains("Request") && x.contains("Esc back")
    });
    // "Esc back" tapped: the queue again, without an Esc key.
    tap(&mut s, "Esc back");
    s.wait_for("the queue", |x| {
        x.contains("Queue") && !x.contains("Esc back")
    });
    // Decline by tapping its hint; take it back by tapping "z undo".
    tap(&mut s, "x decline");
    s.wait_for("the decline held", |x| x.contains("declining"));
    tap(&mut s, "z undo");
    s.wait_for("taken back", |x| !x.contains("declining"));
    assert!(t.demo.mutations().is_empty(), "undone, not sent");
    // The help by a tap, scrolled by the wheel (a swipe), closed by a tap.
    tap(&mut s, "? help");
    let top = s.wait_for("the help", |x| x.contains("Keys (? or Esc to close)"));
    for _ in 0..5 {
        s.send(b"\x1b[<65;10;10M");
    }
    s.wait_for("the help scrolled", |x| x.contains("Keys (?") && *x != top);
    tap(&mut s, "Esc/? close");
    s.wait_for("the help closed", |x| !x.contains("Keys (?"));
    tap(&mut s, "q quit");
    assert!(s.wait_exit().success());
    assert!(t.demo.mutations().is_empty());
    t.rt.block_on(server.stop());
}

#[test]
fn serve_ssh_sessions_have_the_mouse_on_unless_no_mouse() {
    use clap::Parser;
    use club_admin::cli::{Cli, Command};
    let dir = tempfile::tempdir().expect("dir");
    let key = dir.path().join("host_key");
    let key = key.to_str().expect("path");
    for (extra, mouse) in [(None, true), (Some("--no-mouse"), false)] {
        let mut args = vec![
            "club-admin",
            "serve-ssh",
            "--allow-any-key",
            "--host-key",
            key,
        ];
        args.extend(extra);
        let cli = Cli::try_parse_from(args).expect("serve-ssh");
        let Some(Command::ServeSsh(a)) = cli.command else {
            panic!("serve-ssh parsed as another command");
        };
        assert_eq!(
            a.options(&Default::default()).expect("options").mouse,
            mouse,
            "{extra:?}"
        );
    }
}

/// Signs `s` in with `token` (as [`sign_in`]) and waits for the queue under `email`, then
/// keeps only the Robotics Club's requests (`/club:robot`), which both demo moderators staff.
pub(super) fn sign_in_to_robotics(s: &mut Pty, token: &str, email: &str) {
    s.wait_for("the dashboard, not signed in", signed_out);
    s.send(b"S");
    s.wait_for("the sign-in pop-up", |t| {
        t.contains("┌ Sign in") || t.contains("┌ เข้าสู่ระบบ")
    });
    s.send(format!("\x1b[200~{token}\x1b[201~").as_bytes());
    s.send(b"\r");
    s.wait_for("the queue after signing in", |t| {
        t.contains(email) && rows(t) > 3
    });
    s.send(b"/club:robot\r");
    s.wait_for("the Robotics rows", |t| {
        let robotics = |l: &&str| l.contains("Robotics") || l.contains("หุ่นยนต์");
        let rows: Vec<&str> = t.lines().filter(|l| l.contains(" #5")).collect();
        rows.len() > 2 && rows.iter().all(robotics)
    });
}

/// Two moderators of one club on one `serve-ssh`: what one does shows on the other's screen
/// at once, with no key. A's decision held in its grace period is marked `~` on B's row; once
/// sent, B's row says approved (the status line says by whom), B's mark on it is dropped,
/// and B's decline of it sends nothing. B reads Thai.
#[test]
fn two_sessions_share_one_truth_without_a_key() {
    let t = Setup::new();
    let third = keygen(t.dir.path(), "bob");
    let keys = format!("{}{}{}", t.alice.public, t.mallory.public, third.public);
    std::fs::write(t.dir.path().join("authorized_keys"), keys).expect("write");
    let server = t.serve(t.options(), 4);
    let a_user = t.demo.moderator().clone();
    let b_user = t.demo.user("moderator2").expect("moderator2").clone();
    let mut a = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    let mut b = ssh(
        server.port(),
        &t.mallory,
        &["-o", "SetEnv=LANG=th_TH.UTF-8"],
        &[],
        40,
        120,
    );
    sign_in_to_robotics(&mut a, &a_user.token, "ton.jaidee@");
    sign_in_to_robotics(&mut b, &b_user.token, "por.purichaya@");
    // B marks the first row and comes back to it.
    b.send(b" ");
    b.wait_for("B's mark", |x| x.lines().any(|l| l.starts_with("│●")));
    b.send(b"k");
    // A approves its first row, the same request: held for 4 s, B sees it held (B's
    // detail pane names who is about to approve it; the row keeps B's mark `●`).
    a.send(b"a");
    let screen = b.wait_for("the decision held in A's session, shown on B's row", |x| {
        x.contains("ton.jaidee@")
    });
    let flat: String = screen.split(['│', ' ', '\n']).collect();
    let about_to = club_admin::text::for_terminal("กำลังจะอนุมัติ").into_owned();
    assert!(flat.contains(&about_to), "{screen}");
    let muts = t.demo.mutations();
    assert!(muts.is_empty(), "held, not sent yet: {muts:?}");
    // Sent once its grace period ends; B's screen follows with no key pressed.
    let deadline = std::time::Instant::now() + GUARD;
    while t.demo.mutations().is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let landed = std::time::Instant::now();
    let screen = b
        .wait_within(Duration::from_secs(4), |x| x.contains("(อีกเซสชันหนึ่ง)"))
        .unwrap_or_else(|| panic!("B's screen did not follow within 4 s:\n{}", b.screen()));
    let took = landed.elapsed();
    eprintln!("B's screen showed A's approval {took:?} after it landed");
    assert!(screen.contains("ton.jaidee@"), "by whom:\n{screen}");
    assert!(screen.contains("เลิกเลือกแล้ว"), "the mark dropped:\n{screen}");
    assert!(
        !screen.lines().any(|l| l.starts_with("│●")),
        "no mark left:\n{screen}"
    );
    let id: uuid::Uuid = t.demo.mutations()[0]
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .expect("id");
    assert_eq!(t.demo.request_status(id), Some(MembershipStatus::Approved));
    // B declines it: nothing is sent (it is approved already, B's row knows).
    b.send(b"x");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(t.demo.mutations().len(), 1, "{:?}", t.demo.mutations());
    // A third moderator joining later sees the queue as the server has it: the request is
    // no longer pending there.
    let mut c = ssh(server.port(), &third, &[], &[], 40, 120);
    sign_in_to_robotics(&mut c, &b_user.token, "por.purichaya@");
    let short = id.to_string()[..8].to_owned();
    let screen = c.screen();
    assert!(
        !screen.contains(&short),
        "{short} is not pending:\n{screen}"
    );
    for s in [&mut a, &mut b, &mut c] {
        s.send(b"q");
    }
    let audit = t.audit();
    assert_eq!(
        audit
            .lines()
            .filter(|l| l.contains("\"outcome\":\"ok\""))
            .count(),
        1,
        "{audit}"
    );
    assert!(!audit.contains("\"outcome\":\"failed\""), "{audit}");
}

/// Two moderators bulk-approve the same club's requests at once over `serve-ssh`, with
/// answers lost after the write on the way (the demo's fault flag): every request ends
/// approved, each is written at most twice (once per moderator, the second refused), and
/// neither audit says `failed` for what the other did.
#[test]
fn two_sessions_bulk_approving_one_queue_at_once_never_call_the_others_work_failed() {
    let t = Setup::new();
    let keys = format!("{}{}", t.alice.public, t.mallory.public);
    std::fs::write(t.dir.path().join("authorized_keys"), keys).expect("write");
    t.demo.set_faults(club_admin::demo::Faults {
        drop_after_write_rate: 0.2,
        ..club_admin::demo::Faults::default()
    });
    let server = t.serve(t.options(), 0);
    let a_user = t.demo.moderator().clone();
    let b_user = t.demo.user("moderator2").expect("moderator2").clone();
    let mut a = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    let mut b = ssh(server.port(), &t.mallory, &[], &[], 40, 120);
    sign_in_to_robotics(&mut a, &a_user.token, "ton.jaidee@");
    sign_in_to_robotics(&mut b, &b_user.token, "por.purichaya@");
    let robotics: Vec<uuid::Uuid> = {
        let theirs = t.demo.pending_for("moderator2");
        t.demo
            .pending_for("moderator")
            .into_iter()
            .filter(|id| theirs.contains(id))
            .collect()
    };
    // Both mark every Robotics request and approve, at once.
    for s in [&mut a, &mut b] {
        s.send(b"*");
    }
    for s in [&mut a, &mut b] {
        s.wait_for("every Robotics request marked", |x| x.contains(" marked "));
        s.send(b"a");
    }
    for s in [&mut a, &mut b] {
        s.wait_for("the confirmation", |x| x.contains("┌ Approve"));
    }
    for s in [&mut a, &mut b] {
        s.send(b"y");
    }
    let deadline = std::time::Instant::now() + GUARD;
    while std::time::Instant::now() < deadline
        && robotics
            .iter()
            .any(|id| t.demo.request_status(*id) != Some(MembershipStatus::Approved))
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    for id in &robotics {
        assert_eq!(t.demo.request_status(*id), Some(MembershipStatus::Approved));
    }
    // Let the lost answers' re-reads settle: every session's decision on every request has
    // its final line (ok, already, failed or conflict), not only `unknown`; and the write
    // that applied each request has its line (the server applies a write before the
    // session that sent it has its answer and writes the line).
    let settled = |audit: &str| {
        let lines: Vec<serde_json::Value> = audit
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        robotics.iter().all(|id| {
            let id = id.to_string();
            let mine = |user: &str| {
                lines
                    .iter()
                    .filter(|l| l["target"] == id.as_str() && l["user"] == user)
                    .collect::<Vec<_>>()
            };
            let applied = lines
                .iter()
                .any(|l| l["target"] == id.as_str() && l["outcome"] == "ok");
            applied
                && [&a_user.email, &b_user.email].iter().all(|u| {
                    let l = mine(u);
                    l.is_empty() || l.iter().any(|x| x["outcome"] != "unknown")
                })
        })
    };
    let deadline = std::time::Instant::now() + GUARD;
    while std::time::Instant::now() < deadline && !settled(&t.audit()) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let audit = t.audit();
    assert!(!audit.contains("\"outcome\":\"failed\""), "{audit}");
    let writes = crate::common::writes_per_request(&t.demo, 0);
    assert!(writes.values().all(|n| *n <= 2), "{writes:?}");
    // One write applied each request, and one session's audit claims it: never both.
    for id in &robotics {
        let s = id.to_string();
        let oks = audit
            .lines()
            .filter(|l| l.contains(&s) && l.contains("\"outcome\":\"ok\""))
            .count();
        assert_eq!(oks, 1, "{s}: {audit}");
    }
    for s in [&mut a, &mut b] {
        s.send(b"q");
    }
}
