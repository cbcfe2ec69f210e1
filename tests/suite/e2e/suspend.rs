//! Ctrl-Z in a real shell: the binary runs under an interactive bash with
//! job control in a pseudo-terminal. Ctrl-Z gives the terminal back (bash reports the job
//! stopped and the process is stopped), `fg` brings the dashboard back drawn in full.
#![cfg(unix)]

use club_admin::demo::{self, DemoOptions};

use crate::common::pty::{self, Pty};

/// An interactive bash with job control in a 40x120 pseudo-terminal, prompt `shell$ `.
fn shell(dir: &std::path::Path, envs: &[(&str, &str)]) -> Pty {
    let mut cmd = pty::command("bash", dir);
    cmd.args(["--noprofile", "--norc", "-i"]);
    cmd.env("PS1", "shell$ ");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    Pty::spawn(cmd, 40, 120)
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
    let mut sh = shell(
        dir.path(),
        &[
            ("CLUB_ADMIN_API_KEY", &m.api_key),
            ("CLUB_ADMIN_TOKEN", &m.token),
        ],
    );
    sh.wait_for("the prompt", |s| s.contains("shell$"));
    let line = format!("{} --base-url {}\r", crate::common::CLUB_ADMIN, d.base_url);
    sh.send(line.as_bytes());
    sh.wait_for("the queue", |s| s.contains("pending requests loaded"));
    let shell_pid = sh.pid();
    let pid = dashboard_pid(shell_pid).expect("the dashboard runs under bash");

    sh.send(b"\x1a");
    let screen = sh.wait_for("bash to report the job stopped", |s| s.contains("Stopped"));
    assert!(!screen.contains("pending requests loaded"), "{screen}");
    // bash reports the job stopped once the kernel has told it so: no wait is needed.
    assert_eq!(state_of(pid), Some('T'), "stopped");

    let before = sh.len();
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
    sh.wait_exit();
}

/// An approve held when Ctrl-Z stops the dashboard, whose grace period
/// runs out while it is stopped, is not sent when `fg` brings it back: a pop-up asks, and
/// `d` discards it (the server's request stays pending).
#[test]
fn a_grace_period_that_ran_out_while_stopped_asks_before_sending() {
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
    let pending = d.pending_for("moderator").len();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut sh = shell(
        dir.path(),
        &[
            ("CLUB_ADMIN_API_KEY", &m.api_key),
            ("CLUB_ADMIN_TOKEN", &m.token),
        ],
    );
    sh.wait_for("the prompt", |s| s.contains("shell$"));
    let line = format!(
        "{} --base-url {} --decision-delay 5\r",
        crate::common::CLUB_ADMIN,
        d.base_url
    );
    sh.send(line.as_bytes());
    sh.wait_for("the queue", |s| s.contains("pending requests loaded"));
    sh.send(b"a");
    sh.wait_for("the approve held", |s| s.contains("z undo"));
    sh.send(b"\x1a");
    sh.wait_for("bash to report the job stopped", |s| s.contains("Stopped"));
    // The grace period runs out while the dashboard is stopped: that is the case.
    std::thread::sleep(std::time::Duration::from_secs(6));
    sh.send(b"fg\r");
    let screen = sh.wait_for("the question", |s| {
        s.contains("ran out of time while the dashboard") && s.contains("nothing was sent")
    });
    assert!(screen.contains("keep holding"), "{screen}");
    assert_eq!(d.pending_for("moderator").len(), pending, "nothing sent");
    sh.send(b"d");
    sh.wait_for("the question gone", |s| {
        !s.contains("ran out of time") && s.contains("q quit")
    });
    assert_eq!(d.pending_for("moderator").len(), pending, "discarded");
    sh.send(b"q");
    sh.wait_for("the prompt after quitting", |s| {
        s.matches("shell$").count() >= 2 && !s.contains("q quit")
    });
    sh.send(b"exit\r");
    sh.wait_exit();
}
