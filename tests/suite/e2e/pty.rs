//! End-to-end: the real binary in a pseudo-terminal against the demo server. It approves a
//! request, quits, and the terminal is restored (alternate screen left, cooked mode back).
#![cfg(unix)]

use std::time::{Duration, Instant};

use club_admin::api::MembershipStatus;
use club_admin::demo::{self, DemoOptions};
use nix::sys::termios::LocalFlags;

use crate::common::pty::{GUARD, Pty};
use crate::common::{dashboard, dashboard_in};

/// The terminal is as the program found it: alternate screen left, cursor shown, bracketed
/// paste off, cooked mode back.
fn assert_restored(s: &Pty) {
    let raw = s.bytes();
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
    assert!(
        text.rfind("\x1b[23;0t") > text.rfind("\x1b[22;0t"),
        "the window title saved on entry is given back last"
    );
    let t = s.master().get_termios().expect("termios");
    assert!(
        t.local_flags.contains(LocalFlags::ICANON) && t.local_flags.contains(LocalFlags::ECHO),
        "cooked mode restored: {:?}",
        t.local_flags
    );
}

/// A demo server and its moderator account.
fn demo_server(rt: &tokio::runtime::Runtime) -> (demo::DemoHandle, demo::DemoUser) {
    let d = rt
        .block_on(demo::start(DemoOptions::default()))
        .expect("demo");
    let m = d.moderator().clone();
    (d, m)
}

/// The environment that hands the moderator's secrets to the binary.
fn secrets_env(m: &demo::DemoUser) -> [(&'static str, &str); 2] {
    [
        ("CLUB_ADMIN_API_KEY", m.api_key.as_str()),
        ("CLUB_ADMIN_TOKEN", m.token.as_str()),
    ]
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
    let (d, m) = demo_server(&rt);
    // Sent at once: the grace period has its own test below.
    let mut s = dashboard(
        &["--base-url", &d.base_url, "--decision-delay", "0"],
        &secrets_env(&m),
    );
    let screen = s.wait_for("the queue", |t| t.contains("server: "));
    assert!(screen.contains("ton.jaidee@"), "{screen}");
    assert!(!screen.contains(": approved"), "{screen}");
    let before = d.pending_for("moderator").len();
    s.send(b"a");
    // The row says approved only once the server has answered.
    s.wait_for("the approval on screen", |t| t.contains(": approved"));
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
    // The window title carries the pending count, one less after the approval.
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    let title = format!("\x1b]0;club-admin · {} pending\x07", before - 1);
    assert!(raw.contains(&title), "title {title:?} set");
    s.send(b"q");
    let st = s.wait_exit();
    assert!(st.success(), "exit status {st:?}");
    assert_restored(&s);
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(
        !raw.contains(&m.token) && !raw.contains(&m.api_key),
        "no secret on the screen"
    );
}

/// The one test here that waits for the clock, because the clock is what it checks: the
/// real event loop's timer sends a held approval when its grace period (1 s) ends, with no
/// key pressed. The grace period's countdown, undo and ticks are tested with a moved clock
/// (`tests/suite/fast/decisions.rs`, and the loop itself in `tests/suite/flows/event_loop.rs`).
#[test]
fn a_held_approval_is_sent_by_the_loop_when_its_grace_period_ends() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let mut s = dashboard(
        &["--base-url", &d.base_url, "--decision-delay", "1"],
        &secrets_env(&m),
    );
    let screen = s.wait_for("the queue", |t| t.contains("server: "));
    assert!(!screen.contains(": approved"), "{screen}");
    let pressed = Instant::now();
    s.send(b"a");
    s.wait_for("the approval on screen", |t| t.contains(": approved"));
    let waited = pressed.elapsed();
    assert!(
        waited >= Duration::from_secs(1),
        "answered {waited:?} after the key: sent before its grace period ended"
    );
    let muts = d.mutations();
    assert_eq!(muts.len(), 1, "{muts:?}");
    assert!(muts[0].ends_with(" approved"), "{muts:?}");
    s.send(b"q");
    assert!(s.wait_exit().success());
    assert_restored(&s);
}

#[test]
fn sigterm_and_panic_restore_the_terminal() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let envs = secrets_env(&m);
    for signal in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGHUP,
    ] {
        let s = dashboard(&["--base-url", &d.base_url], &envs);
        s.wait_for("the queue", |t| t.contains("server: "));
        let pid = s.pid();
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).expect("kill");
        let st = s.wait_exit();
        assert!(st.success(), "{signal}: {st:?}");
        assert_restored(&s);
    }
    let s = dashboard(
        &["--base-url", &d.base_url],
        &[envs[0], envs[1], ("CLUB_ADMIN_TEST_PANIC", "1")],
    );
    let st = s.wait_exit();
    assert!(!st.success());
    assert_restored(&s);
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(
        raw.contains("test panic requested"),
        "the panic message is readable after restore"
    );
    assert!(
        !raw.contains(&m.token) && !raw.contains(&m.api_key),
        "no secret in the panic output"
    );
}

#[test]
fn a_hang_up_sends_the_held_decision_and_audits_it_before_exiting() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let envs = secrets_env(&m);
    for signal in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGHUP,
    ] {
        let dir = tempfile::tempdir().expect("dir");
        let mut s = dashboard_in(
            dir.path(),
            &["--base-url", &d.base_url, "--decision-delay", "60"],
            &envs,
        );
        s.wait_for("the queue", |t| t.contains("server: "));
        let before = d.mutations().len();
        s.send(b"a");
        s.wait_for("the countdown", |t| {
            t.contains("approving ") && t.contains("z undo")
        });
        let pid = s.pid();
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), signal).expect("kill");
        let st = s.wait_exit();
        assert!(st.success(), "{signal}: {st:?}");
        assert_restored(&s);
        let muts = d.mutations();
        assert_eq!(
            muts.len(),
            before + 1,
            "{signal}: the held approval was sent"
        );
        assert!(muts[before].ends_with(" approved"), "{muts:?}");
        let audit = crate::common::audit_outcomes(&dir.path().join("state/club-admin/audit.jsonl"));
        let entry = audit.last().expect("an outcome line");
        assert_eq!(entry.action, "approve", "{signal}");
        assert_eq!(
            entry.outcome,
            club_admin::ops::Outcome::Ok,
            "{signal}: the answer was awaited"
        );
    }
}

/// Every file the program wrote under `dir`, as text.
fn files_under(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.push((p, String::from_utf8_lossy(&bytes).to_string()));
            }
        }
    }
    out
}

#[test]
fn restart_restores_the_queue_and_no_secret_reaches_any_file() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let envs = secrets_env(&m);
    let dir = tempfile::tempdir().expect("dir");
    // A request of a club the moderator does not staff: only in the queue because it was added by hand.
    let other = d
        .pending()
        .into_iter()
        .find(|id| !d.pending_for("moderator").contains(id))
        .expect("other");
    let mut s = dashboard_in(
        dir.path(),
        &[
            "--base-url",
            &d.base_url,
            "--decision-delay",
            "0",
            &other.to_string(),
        ],
        &envs,
    );
    s.wait_for("the queue", |t| t.contains("server: "));
    // Approve a request of a club the moderator staffs: hide the hand-added one (the
    // moderator may not decide it) with a negated filter term.
    s.send(b":filter -");
    s.send(&other.to_string().as_bytes()[..13]);
    s.send(b"\r");
    s.wait_for("the filter", |t| t.contains("/-"));
    s.send(b"a");
    s.wait_for("the approval", |t| t.contains(": approved"));
    s.send(b"q");
    assert!(s.wait_exit().success());
    let state = dir.path().join("state").join("club-admin");
    let text = std::fs::read_to_string(state.join("audit.jsonl")).expect("audit file");
    // The write-ahead line, then the outcome.
    assert_eq!(text.lines().count(), 2, "{text}");
    let audit = crate::common::audit_outcomes(&state.join("audit.jsonl"));
    assert_eq!(audit.len(), 1, "{text}");
    let entry = serde_json::to_value(&audit[0]).expect("json");
    assert_eq!(entry["action"], "approve");
    assert_eq!(entry["outcome"], "ok");
    assert_eq!(entry["server"], d.base_url.as_str());
    let queue_files: Vec<_> = files_under(&state)
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains("queue-"))
        .collect();
    assert_eq!(queue_files.len(), 1);
    assert!(
        queue_files[0].1.contains(&other.to_string()),
        "the hand-added id is saved"
    );

    let mut s = dashboard_in(dir.path(), &["--base-url", &d.base_url], &envs);
    // The restore is announced and stays readable while the listing loads behind it.
    let screen = s.wait_for("the restored queue", |t| {
        t.contains(" pending ") && t.contains("restored from the last session")
    });
    s.send(b"L");
    // The history of decisions: the pane's title is drawn before its lines, so the wait is
    // for the lines.
    s.wait_for("the activity log with the earlier approval", |t| {
        t.contains("Activity") && t.contains("approve") && t.contains("earlier")
    });
    assert!(
        screen.contains(&format!("/-{}", &other.to_string()[..13])),
        "the filter of the last session is restored:\n{screen}"
    );
    s.send(b":filter ");
    s.send(&other.to_string().as_bytes()[..8]);
    s.send(b"\r");
    s.wait_for("the restored row", |t| t.contains(" · 1 shown · "));
    s.send(b"q");
    assert!(s.wait_exit().success());

    for (path, text) in files_under(dir.path()) {
        assert!(!text.contains(&m.api_key), "API key in {}", path.display());
        assert!(!text.contains(&m.token), "token in {}", path.display());
    }
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(!raw.contains(&m.api_key) && !raw.contains(&m.token));
}

#[test]
fn help_and_errors_never_show_secrets_and_insecure_http_is_refused() {
    let key = "mysk_secret_key_for_help_test";
    let token = "secret.token.value";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .arg("--help")
        .env("CLUB_ADMIN_API_KEY", key)
        .env("CLUB_ADMIN_TOKEN", token)
        .output()
        .expect("run");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && text.contains("--base-url"),
        "{text}"
    );
    assert!(!text.contains(key) && !text.contains(token), "{text}");
    let dir = tempfile::tempdir().expect("dir");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["--base-url", "http://club.example.ac.th"])
        .env("CLUB_ADMIN_API_KEY", key)
        .env("CLUB_ADMIN_TOKEN", token)
        .env("XDG_STATE_HOME", dir.path().join("s"))
        .env("XDG_CONFIG_HOME", dir.path().join("c"))
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success());
    assert!(text.contains("refusing http://"), "{text}");
    assert!(!text.contains(key) && !text.contains(token), "{text}");
    for (path, content) in files_under(dir.path()) {
        assert!(
            !content.contains(key) && !content.contains(token),
            "secret in {}",
            path.display()
        );
    }
}

#[test]
fn resize_storm_small_terminal_notice_and_closed_pty() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let envs = secrets_env(&m);
    let mut s = dashboard(&["--base-url", &d.base_url], &envs);
    s.wait_for("the queue", |t| t.contains("server: "));
    for i in 0..60u16 {
        let (cols, rows) = (30 + (i * 37) % 150, 8 + (i * 13) % 50);
        s.resize(rows, cols);
    }
    s.resize(10, 40);
    // The whole output replayed on a 10x40 screen: what was drawn last is what shows.
    s.wait_for("the small-terminal notice", |t| {
        t.contains("Terminal too small")
    });
    assert!(s.exited().is_none(), "still running after the storm");
    s.resize(40, 120);
    s.send(b"q");
    assert!(s.wait_exit().success());
    assert_restored(&s);
}

/// Closing the terminal (an SSH connection dropping) ends the program instead of leaving it
/// spinning. Uses a pseudo-terminal whose every master descriptor this test owns, so that
/// closing it really closes it.
#[test]
fn a_closed_terminal_ends_the_program() {
    use std::io::Write;
    use std::os::fd::{AsFd, AsRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;

    let rt = rt();
    let (d, m) = demo_server(&rt);
    let dir = tempfile::tempdir().expect("dir");
    let ws = nix::pty::Winsize {
        ws_row: 40,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = nix::pty::openpty(Some(&ws), None).expect("openpty");
    // Close-on-exec, or the child (and children of other tests running in parallel)
    // inherit the master and the terminal never hangs up.
    for fd in [&pty.master, &pty.slave] {
        nix::fcntl::fcntl(
            fd.as_raw_fd(),
            nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
        )
        .expect("cloexec");
    }
    let slave: OwnedFd = pty.slave;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"));
    cmd.args(["--base-url", &d.base_url])
        .env("CLUB_ADMIN_API_KEY", &m.api_key)
        .env("CLUB_ADMIN_TOKEN", &m.token)
        .env("TERM", "xterm-256color")
        .env("XDG_STATE_HOME", dir.path().join("s"))
        .env("XDG_CONFIG_HOME", dir.path().join("c"))
        .stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave.try_clone().expect("dup")));
    // SAFETY: only async-signal-safe calls between fork and exec: a new session with the
    // pseudo-terminal (stdin) as its controlling terminal, as a login shell has.
    unsafe {
        cmd.pre_exec(|| {
            nix::libc::setsid();
            nix::libc::ioctl(0, nix::libc::TIOCSCTTY as _, 0);
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("spawn");
    drop(slave);
    let pid = child.id();
    // The reader owns the master: it reads until asked (through a pipe) to close it.
    let (wake_rx, mut wake_tx) = std::io::pipe().expect("pipe");
    let (chunks_tx, chunks) = std::sync::mpsc::channel::<Vec<u8>>();
    let master = pty.master;
    let reader = std::thread::spawn(move || {
        loop {
            let mut fds = [
                nix::poll::PollFd::new(master.as_fd(), nix::poll::PollFlags::POLLIN),
                nix::poll::PollFd::new(wake_rx.as_fd(), nix::poll::PollFlags::POLLIN),
            ];
            if nix::poll::poll(&mut fds, nix::poll::PollTimeout::NONE).is_err() {
                break;
            }
            let asked = fds[1].revents().is_some_and(|r| !r.is_empty());
            let readable = fds[0].revents().is_some_and(|r| !r.is_empty());
            if asked {
                break;
            }
            if readable {
                let mut buf = [0u8; 65536];
                match nix::unistd::read(master.as_raw_fd(), &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let _ = chunks_tx.send(buf[..n].to_vec());
                    }
                }
            }
        }
        // Every master descriptor closes here.
        drop(master);
    });
    let deadline = Instant::now() + GUARD;
    let mut out = Vec::new();
    while !String::from_utf8_lossy(&out).contains("loaded") {
        let left = deadline.saturating_duration_since(Instant::now());
        match chunks.recv_timeout(left) {
            Ok(chunk) => out.extend_from_slice(&chunk),
            Err(e) => panic!("the dashboard never drew the queue ({e})"),
        }
    }
    wake_tx.write_all(b"x").expect("wake the reader");
    reader.join().expect("reader");
    // The program's exit, awaited on a thread of its own; killed if it outlives the guard.
    let (exit_tx, exited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = exit_tx.send(child.wait());
    });
    if exited.recv_timeout(GUARD).is_err() {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
        panic!("still running {GUARD:?} after its terminal closed");
    }
}

#[test]
fn with_mouse_capture_a_click_selects_a_row() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let envs = secrets_env(&m);
    let mut s = dashboard(&["--base-url", &d.base_url, "--mouse"], &envs);
    let screen = s.wait_for("the queue", |t| t.contains("server: "));
    // Screen row 5 (0-based) is the third request: header line, border, column titles.
    let line: String = screen.lines().nth(5).unwrap_or("").to_owned();
    let number = line
        .split_whitespace()
        .find(|w| w.starts_with('#'))
        .map(|w| w.trim_end_matches('…').to_owned())
        .expect("a school number on the row");
    // SGR mouse report, 1-based: left button down then up at column 10, row 6.
    s.send(b"\x1b[<0;10;6M\x1b[<0;10;6m");
    let screen = s.wait_for("the clicked row in the detail pane", |t| {
        t.lines()
            .any(|l| l.contains("student") && l.contains(&number))
    });
    assert!(screen.contains(&number));
    s.send(b"q");
    assert!(s.wait_exit().success());
    let raw = String::from_utf8_lossy(&s.bytes()).to_string();
    assert!(
        raw.contains("\x1b[?1000h") || raw.contains("\x1b[?1006h"),
        "mouse capture was on"
    );
    assert!(
        raw.contains("\x1b[?1006l") || raw.contains("\x1b[?1000l"),
        "and is off again"
    );
}

/// The real binary in a terminal shrunk below the smallest size: `a`, `x`, `D` then `y`
/// reach no request (the demo records no write), the screen says the keys are ignored, and
/// once the window is large again the queue is back with every request still pending.
#[test]
fn keys_on_a_window_too_small_to_show_the_queue_send_nothing() {
    let rt = rt();
    let (d, m) = demo_server(&rt);
    let mut s = dashboard(
        &["--base-url", &d.base_url, "--decision-delay", "0"],
        &secrets_env(&m),
    );
    s.wait_for("the queue", |t| t.contains("server: "));
    let before = d.pending_for("moderator").len();
    s.resize(10, 30);
    s.wait_for("the small-window notice", |t| t.contains("too small"));
    s.send(b"axDy \r");
    s.wait_for("the key said to be ignored", |t| t.contains("ignored"));
    s.resize(40, 120);
    s.wait_for("the queue again", |t| t.contains("server: "));
    // Quit, and only then count: every key above was applied before `q`.
    s.send(b"q");
    assert!(s.wait_exit().success());
    assert_restored(&s);
    assert_eq!(d.mutations(), Vec::<String>::new(), "nothing was written");
    assert_eq!(d.pending_for("moderator").len(), before);
}
