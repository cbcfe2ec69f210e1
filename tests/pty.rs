//! End-to-end: the real binary in a pseudo-terminal against the demo server. It approves a
//! request, quits, and the terminal is restored (alternate screen left, cooked mode back).
#![cfg(unix)]

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use club_admin::api::MembershipStatus;
use club_admin::demo::{self, DemoOptions};
use nix::sys::termios::LocalFlags;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Session {
    out: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Box<dyn portable_pty::MasterPty + Send>,
    _dir: tempfile::TempDir,
}

impl Session {
    fn start(args: &[&str], envs: &[(&str, &str)]) -> Session {
        let dir = tempfile::tempdir().expect("tempdir");
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows: 40,
                cols: 120,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("pty");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_club-admin"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("XDG_STATE_HOME", dir.path().join("state"));
        cmd.env("XDG_CONFIG_HOME", dir.path().join("config"));
        cmd.env_remove("NO_COLOR");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("reader");
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("lock").extend_from_slice(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().expect("writer");
        Session {
            out,
            writer,
            child,
            master: pair.master,
            _dir: dir,
        }
    }

    fn screen(&self) -> String {
        let bytes = self.out.lock().expect("lock").clone();
        let mut p = vt100::Parser::new(
            std::num::NonZero::new(40).expect("rows"),
            std::num::NonZero::new(120).expect("cols"),
            0,
        );
        p.process(&bytes);
        p.screen().contents()
    }

    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write");
        self.writer.flush().expect("flush");
    }

    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(st) = self.child.try_wait().expect("try_wait") {
                return st;
            }
            assert!(
                Instant::now() < deadline,
                "did not exit; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn raw_bytes(&self) -> Vec<u8> {
        self.out.lock().expect("lock").clone()
    }

    fn assert_restored(&self) {
        let raw = self.raw_bytes();
        let text = String::from_utf8_lossy(&raw);
        assert!(text.contains("\x1b[?1049h"), "entered the alternate screen");
        assert!(
            text.rfind("\x1b[?1049l") > text.rfind("\x1b[?1049h"),
            "left the alternate screen last"
        );
        assert!(
            text.rfind("\x1b[?25h") > text.rfind("\x1b[?25l"),
            "cursor shown again"
        );
        assert!(text.contains("\x1b[?2004l"), "bracketed paste turned off");
        let t = self.master.get_termios().expect("termios");
        assert!(
            t.local_flags.contains(LocalFlags::ICANON) && t.local_flags.contains(LocalFlags::ECHO),
            "cooked mode restored: {:?}",
            t.local_flags
        );
    }
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn approve_in_a_real_terminal_then_quit_restores_it() {
    let rt = rt();
    let d = rt
        .block_on(demo::start(DemoOptions::default()))
        .expect("demo");
    let m = d.moderator().clone();
    let mut s = Session::start(
        &["--base-url", &d.base_url],
        &[
            ("CLUB_ADMIN_API_KEY", &m.api_key),
            ("CLUB_ADMIN_TOKEN", &m.token),
        ],
    );
    let screen = s.wait_for("the queue", |t| t.contains("pending request(s) loaded"));
    assert!(screen.contains("ton.jaidee@"), "{screen}");
    let before = d.pending_for("moderator").len();
    s.send(b"a");
    let deadline = Instant::now() + Duration::from_secs(10);
    while d.mutations().is_empty() {
        assert!(
            Instant::now() < deadline,
            "no approval reached the server; screen:\n{}",
            s.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let muts = d.mutations();
    assert_eq!(muts.len(), 1);
    assert!(
        muts[0].starts_with("update ") && muts[0].ends_with(" approved"),
        "{muts:?}"
    );
    assert_eq!(d.pending_for("moderator").len(), before - 1);
    let id: uuid::Uuid = muts[0]
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .expect("id");
    assert_eq!(d.request_status(id), Some(MembershipStatus::Approved));
    s.wait_for("the approval on screen", |t| t.contains(": approved"));
    s.send(b"q");
    let st = s.wait_exit();
    assert!(st.success(), "exit status {st:?}");
    s.assert_restored();
    let raw = String::from_utf8_lossy(&s.raw_bytes()).to_string();
    assert!(
        !raw.contains(&m.token) && !raw.contains(&m.api_key),
        "no secret on the screen"
    );
}

#[test]
fn sigterm_and_panic_restore_the_terminal() {
    let rt = rt();
    let d = rt
        .block_on(demo::start(DemoOptions::default()))
        .expect("demo");
    let m = d.moderator().clone();
    let envs = [
        ("CLUB_ADMIN_API_KEY", m.api_key.as_str()),
        ("CLUB_ADMIN_TOKEN", m.token.as_str()),
    ];
    for signal in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGHUP,
    ] {
        let mut s = Session::start(&["--base-url", &d.base_url], &envs);
        s.wait_for("the queue", |t| t.contains("pending request(s) loaded"));
        let pid = s.child.process_id().expect("pid");
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).expect("kill");
        let st = s.wait_exit();
        assert!(st.success(), "{signal}: {st:?}");
        s.assert_restored();
    }
    let mut s = Session::start(
        &["--base-url", &d.base_url],
        &[envs[0], envs[1], ("CLUB_ADMIN_TEST_PANIC", "1")],
    );
    let st = s.wait_exit();
    assert!(!st.success());
    s.assert_restored();
    let raw = String::from_utf8_lossy(&s.raw_bytes()).to_string();
    assert!(
        raw.contains("test panic requested"),
        "the panic message is readable after restore"
    );
    assert!(
        !raw.contains(&m.token) && !raw.contains(&m.api_key),
        "no secret in the panic output"
    );
}
