//! Ctrl-Z in a real shell (issue 13 item 4): the binary runs under an interactive bash with
//! job control in a pseudo-terminal. Ctrl-Z gives the terminal back (bash reports the job
//! stopped and the process is stopped), `fg` brings the dashboard back drawn in full.
#![cfg(unix)]

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use club_admin::demo::{self, DemoOptions};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};

struct Shell {
    out: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Shell {
    fn start(dir: &std::path::Path, envs: &[(&str, &str)]) -> Shell {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols: 120,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("pty");
        let mut cmd = CommandBuilder::new("bash");
        cmd.args(["--noprofile", "--norc", "-i"]);
        cmd.env("TERM", "xterm-256color");
        cmd.env("PS1", "shell$ ");
        cmd.env("XDG_STATE_HOME", dir.join("state"));
        cmd.env("XDG_CONFIG_HOME", dir.join("config"));
        cmd.env_remove("NO_COLOR");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn bash");
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
        Shell {
            out,
            writer,
            child,
            _master: pair.master,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        self.out.lock().expect("lock").clone()
    }

    fn screen(&self) -> String {
        let mut p = vt100::Parser::new(
            std::num::NonZero::new(40).expect("rows"),
            std::num::NonZero::new(120).expect("cols"),
            0,
        );
        p.process(&self.bytes());
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
}

/// The state letter of a process (`T` when stopped), from `/proc`.
fn state_of(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(')')
        .next()?
        .split_whitespace()
        .next()?
        .chars()
        .next()
}

/// The dashboard's process: bash's child running the binary.
fn dashboard_pid(shell: u32) -> Option<u32> {
    let kids = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).ok()?;
    kids.split_whitespace()
        .filter_map(|k| k.parse::<u32>().ok())
        .find(|k| {
            std::fs::read_to_string(format!("/proc/{k}/comm"))
                .is_ok_and(|c| c.trim().starts_with("club-admin"))
        })
}

#[test]
fn ctrl_z_stops_and_fg_redraws_in_full() {
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("no bash: skipped");
        return;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let d = rt
        .block_on(demo::start(DemoOptions::default()))
        .expect("demo");
    let m = d.moderator().clone();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut sh = Shell::start(
        dir.path(),
        &[
            ("CLUB_ADMIN_API_KEY", &m.api_key),
            ("CLUB_ADMIN_TOKEN", &m.token),
        ],
    );
    sh.wait_for("the prompt", |s| s.contains("shell$"));
    let line = format!(
        "{} --base-url {}\r",
        env!("CARGO_BIN_EXE_club-admin"),
        d.base_url
    );
    sh.send(line.as_bytes());
    sh.wait_for("the queue", |s| s.contains("pending requests loaded"));
    let shell_pid = sh.child.process_id().expect("bash pid");
    let pid = dashboard_pid(shell_pid).expect("the dashboard runs under bash");

    sh.send(b"\x1a");
    let screen = sh.wait_for("bash to report the job stopped", |s| s.contains("Stopped"));
    assert!(!screen.contains("pending requests loaded"), "{screen}");
    let deadline = Instant::now() + Duration::from_secs(5);
    while state_of(pid) != Some('T') {
        assert!(
            Instant::now() < deadline,
            "not stopped: {:?}",
            state_of(pid)
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    let before = sh.bytes().len();
    sh.send(b"fg\r");
    let screen = sh.wait_for("the dashboard back", |s| {
        s.contains("club-admin") && s.contains("Queue") && s.contains("q quit")
    });
    assert!(screen.contains("sort:"), "drawn in full: {screen}");
    let after = String::from_utf8_lossy(&sh.bytes()[before..]).to_string();
    assert!(after.contains("\x1b[?1049h"), "the alternate screen again");
    assert_ne!(state_of(pid), Some('T'), "running again");

    sh.send(b"q");
    sh.wait_for("the prompt after quitting", |s| {
        s.matches("shell$").count() >= 2 && !s.contains("q quit")
    });
    sh.send(b"exit\r");
    let deadline = Instant::now() + Duration::from_secs(10);
    while sh.child.try_wait().ok().flatten().is_none() {
        assert!(Instant::now() < deadline, "bash did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}
