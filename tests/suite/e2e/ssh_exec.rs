//! End to end: the scripting subcommands over SSH (`ssh -p PORT HOST requests list --json`),
//! `serve-ssh` in-process on the demo, driven by the real OpenSSH client without a terminal
//! (standard input, output, error and the exit status as a script sees them), and with one
//! (`ssh -t`) for the delete question.
#![cfg(unix)]

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use club_admin::api::MembershipStatus;
use club_admin::demo::{DemoOptions, ServiceVersion};
use club_admin::ssh::ServeOptions;

use super::ssh::{ClientKey, Setup, keygen, ssh};
use crate::common::pty::GUARD;

/// `ssh` without a terminal to the server at `port` with `key`, the options `extra` before
/// the destination, the command's words after it, `input` on its standard input.
pub(super) fn exec(
    port: u16,
    key: &ClientKey,
    extra: &[&str],
    command: &[&str],
    input: &[u8],
) -> Output {
    let mut child = exec_child(port, key, extra, command);
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    child.wait_with_output().expect("ssh ends")
}

/// The `ssh` process of [`exec`], its standard streams piped, its input not yet written.
pub(super) fn exec_child(
    port: u16,
    key: &ClientKey,
    extra: &[&str],
    command: &[&str],
) -> std::process::Child {
    Command::new("ssh")
        .args(["-F", "/dev/null", "-T", "-p", &port.to_string(), "-i"])
        .arg(&key.path)
        .args([
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
        ])
        .args(extra)
        .arg("moderator@127.0.0.1")
        .args(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ssh runs")
}

pub(super) fn token_env(token: &str) -> String {
    format!("SetEnv=CLUB_ADMIN_TOKEN={token}")
}

pub(super) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The audit's lines as JSON values.
fn audit_lines(t: &Setup) -> Vec<serde_json::Value> {
    std::fs::read_to_string(t.state().join("audit.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `whoami`, `requests list --json`, `approve -` with the ids on standard input, `history`:
/// the command line's output, errors and exit codes over SSH, as the key's moderator, the
/// host's audit naming the key; a teacher's write refused with nothing sent; no token: how
/// to get one, nothing sent.
#[test]
fn scripts_over_ssh_run_as_the_key_s_moderator_with_the_command_line_s_output_and_codes() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let m = t.demo.moderator().clone();
    let env = token_env(&m.token);
    let with_token = ["-o", env.as_str()];

    let out = exec(port, &t.alice, &[], &["whoami"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("not signed in") && err.contains("SetEnv=CLUB_ADMIN_TOKEN"),
        "{err}"
    );

    let out = exec(port, &t.alice, &with_token, &["whoami", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let who: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(who["email"], m.email.as_str());

    let out = exec(
        port,
        &t.alice,
        &with_token,
        &["requests", "list", "--mine", "--json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "nothing but JSON: {}",
        text(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("a JSON array");
    assert!(rows.len() > 3, "{}", rows.len());

    // Three of the key's moderator's pending requests, their ids piped in as a script does.
    let ids: Vec<uuid::Uuid> = t
        .demo
        .pending_for("moderator")
        .into_iter()
        .take(3)
        .collect();
    let input: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let out = exec(
        port,
        &t.alice,
        &with_token,
        &["requests", "approve", "-", "--json"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let approved: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(approved.len(), 3);
    for id in &ids {
        assert_eq!(t.demo.request_status(*id), Some(MembershipStatus::Approved));
    }
    let lines = audit_lines(&t);
    let ok: Vec<&serde_json::Value> = lines.iter().filter(|l| l["outcome"] == "ok").collect();
    assert_eq!(ok.len(), 3, "{lines:?}");
    assert!(
        lines
            .iter()
            .all(|l| l["outcome"] == "ok" || l["outcome"] == "sending")
    );
    for l in &ok {
        assert_eq!(l["via"], "ssh-exec");
        assert_eq!(l["key"], t.alice.fingerprint.as_str());
        assert_eq!(l["key_comment"], "alice");
        assert_eq!(l["user"], m.email.as_str());
    }
    // Each write-ahead line came before its answer's.
    assert_eq!(
        crate::common::audit_outcomes(&t.state().join("audit.jsonl")).len(),
        3
    );

    // Exit 1: a request that is not there: never sent ("no such request"), nothing audited.
    let gone = uuid::Uuid::new_v4().to_string();
    let out = exec(
        port,
        &t.alice,
        &with_token,
        &["requests", "approve", &gone],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not sent: no such request"),
        "{}",
        text(&out.stderr)
    );

    // A teacher's write: refused before anything is sent.
    let sent = t.demo.mutations().len();
    let teacher = t.demo.user("teacher").expect("teacher").token.clone();
    let env = token_env(&teacher);
    let next = t.demo.pending_for("moderator")[0].to_string();
    let out = exec(
        port,
        &t.alice,
        &["-o", &env],
        &["requests", "decline", &next],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        text(&out.stderr).contains("this account cannot decline"),
        "{out:?}"
    );
    assert_eq!(t.demo.mutations().len(), sent, "nothing sent");

    // The host's history over SSH names the key.
    let out = exec(port, &t.alice, &with_token, &["history", "--json"], b"");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        rows.len(),
        3,
        "three approved; the one the server does not know was never sent: {rows:?}"
    );
    assert_eq!(rows.iter().filter(|r| r["outcome"] == "ok").count(), 3);
    assert!(rows.iter().all(|r| r["via"] == "ssh-exec"), "{rows:?}");

    // Delete without a terminal needs --yes.
    let out = exec(
        port,
        &t.alice,
        &with_token,
        &["requests", "delete", &next],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("needs --yes"), "{out:?}");
    assert_eq!(t.demo.mutations().len(), sent, "nothing sent");
    t.rt.block_on(server.stop());
}

/// Only the scripting subcommands run: any other command, a flag naming a file of the host
/// and a key not authorized are refused, with one sentence and a non-zero exit; nothing
/// reaches the service.
#[test]
fn every_other_command_and_host_file_is_refused_and_an_unknown_key_cannot_run_any() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let env = token_env(&t.demo.moderator().token);
    for command in [
        &["id"][..],
        &["sh", "-c", "id"],
        &["serve-ssh"],
        &["demo"],
        &["/bin/sh"],
        &["cat", "/etc/passwd"],
        &["history", "--audit", "/etc/shadow"],
        &["requests", "list", "--config", "/tmp/x.toml"],
        &["whoami", "--token-file=/root/token"],
        &["requests", "list", "--base-url", "http://127.0.0.1:1"],
    ] {
        let out = exec(port, &t.alice, &["-o", &env], command, b"");
        assert_eq!(out.status.code(), Some(2), "{command:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{command:?}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{command:?}: {err}");
        assert!(
            err.contains("is not a command here") || err.contains("is refused over SSH"),
            "{command:?}: {err}"
        );
    }
    let out = exec(port, &t.mallory, &["-o", &env], &["whoami"], b"");
    assert_eq!(out.status.code(), Some(255), "{out:?}");
    assert!(text(&out.stderr).contains("Permission denied"), "{out:?}");
    t.rt.block_on(server.stop());
    assert!(t.demo.mutations().is_empty());
    assert!(audit_lines(&t).is_empty());
}

/// A server without the update route (the service 0.9.0): exit 3 as the command line's,
/// nothing sent. Commands turned off (`exec = false`): one sentence in the client's
/// language.
#[test]
fn a_missing_route_exits_3_and_commands_turned_off_are_refused_in_the_client_s_language() {
    let t = Setup::with(DemoOptions {
        api_version: ServiceVersion::V0_9,
        ..DemoOptions::default()
    });
    let server = t.serve(t.options(), 0);
    let env = token_env(&t.demo.moderator().token);
    let id = t.demo.pending_for("moderator")[0].to_string();
    let out = exec(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", &id],
        b"",
    );
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    assert!(t.demo.mutations().is_empty());
    t.rt.block_on(server.stop());

    let off = t.serve(
        ServeOptions {
            exec: false,
            ..t.options()
        },
        0,
    );
    let out = exec(off.port(), &t.alice, &["-o", &env], &["whoami"], b"");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        text(&out.stderr).contains("commands are turned off"),
        "{out:?}"
    );
    assert!(
        out.stderr.ends_with(b"\n") && !out.stderr.ends_with(b"\r\n"),
        "a line as the command line's errors end, without a terminal: {out:?}"
    );
    let out = exec(
        off.port(),
        &t.alice,
        &["-o", "SetEnv=LANG=th_TH.UTF-8"],
        &["whoami"],
        b"",
    );
    let thai = club_admin::text::for_terminal("ปิดการรับคำสั่ง").into_owned();
    assert!(text(&out.stderr).contains(&thai), "{out:?}");
    t.rt.block_on(off.stop());
}

/// The token the key signed in with last in its dashboard (`--remember-tokens`) runs its
/// commands; a decision made by a command shows at once on another key's live dashboard,
/// as another session's, with no key pressed there.
#[test]
fn a_remembered_sign_in_runs_commands_and_another_dashboard_sees_their_decision_at_once() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    let keys = format!("{}{}", t.alice.public, bob.public);
    std::fs::write(t.dir.path().join("authorized_keys"), keys).expect("write");
    let options = ServeOptions {
        remember_tokens: Some(t.state().join("ssh-tokens")),
        ..t.options()
    };
    let server = t.serve(options, 0);
    let port = server.port();
    let a = t.demo.moderator().clone();
    let b = t.demo.user("moderator2").expect("moderator2").clone();
    // Alice signs in once in her dashboard, and leaves it.
    let mut dash = ssh(port, &t.alice, &[], &[], 40, 120);
    super::ssh::sign_in(&mut dash, &a.token);
    dash.send(b"q");
    assert!(dash.wait_exit().success());
    // Bob's dashboard watches the Robotics Club's queue.
    let mut watch = ssh(port, &bob, &[], &[], 40, 120);
    super::ssh::sign_in_to_robotics(&mut watch, &b.token, "por.purichaya@");
    // Every request of the club both staff (Robotics), so the one Bob's detail shows too.
    let theirs = t.demo.pending_for("moderator2");
    let ids: Vec<String> = t
        .demo
        .pending_for("moderator")
        .into_iter()
        .filter(|id| theirs.contains(id))
        .map(|id| id.to_string())
        .collect();
    assert!(ids.len() > 2, "{ids:?}");
    let input = ids.join("\n");
    let out = exec(
        port,
        &t.alice,
        &[],
        &["requests", "approve", "-"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for id in &ids {
        let id: uuid::Uuid = id.parse().expect("id");
        assert_eq!(t.demo.request_status(id), Some(MembershipStatus::Approved));
    }
    let screen = watch
        .wait_within(Duration::from_secs(4), |x| x.contains("(another session)"))
        .unwrap_or_else(|| panic!("Bob's dashboard did not follow:\n{}", watch.screen()));
    assert!(screen.contains("ton.jaidee@"), "by whom:\n{screen}");
    watch.send(b"q");
    assert!(watch.wait_exit().success());
    t.rt.block_on(server.stop());
}

/// A client that hangs up in the middle of a bulk: nothing more is sent, every write sent is
/// recorded with its outcome, none is called failed; while it ran, the operator's status
/// listed the command.
#[test]
fn a_client_that_hangs_up_mid_bulk_stops_the_run_with_every_write_recorded() {
    let t = Setup::new();
    t.demo.set_faults(club_admin::demo::Faults {
        latency: Duration::from_millis(60),
        ..Default::default()
    });
    let sock = t.state().join("serve-ssh.sock");
    let options = ServeOptions {
        status_socket: Some(sock.clone()),
        ..t.options()
    };
    let server = t.serve(options, 0);
    let env = token_env(&t.demo.moderator().token);
    let ids = t.demo.pending_for("moderator");
    assert!(ids.len() >= 20, "{}", ids.len());
    let input: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let mut child = exec_child(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", "-", "--concurrency", "1"],
    );
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("ids");
    drop(stdin);
    let deadline = std::time::Instant::now() + GUARD;
    while t.demo.mutations().len() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let status =
        t.rt.block_on(club_admin::ssh::status::query(&sock))
            .expect("status");
    assert_eq!(status.commands.len(), 1, "{status:?}");
    assert!(status.commands[0].command.contains("requests approve"));
    assert_eq!(status.commands[0].comment.as_deref(), Some("alice"));
    child.kill().expect("kill");
    let _ = child.wait();
    let at_hang_up = t.demo.mutations().len();
    while server.commands() > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.commands(), 0, "the run ended");
    let sent = t.demo.mutations().len();
    assert!(
        sent <= at_hang_up + 1,
        "at most the one in flight: {at_hang_up} then {sent}"
    );
    assert!(sent < ids.len(), "it stopped: {sent} of {}", ids.len());
    let outcomes = crate::common::audit_outcomes(&t.state().join("audit.jsonl"));
    assert_eq!(outcomes.len(), sent, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|e| e.outcome == club_admin::ops::Outcome::Ok),
        "{outcomes:?}"
    );
    t.rt.block_on(server.stop());
}

/// `ssh -t`: delete asks on the client's terminal, as the command line does on its own;
/// `y` deletes.
#[test]
fn with_a_terminal_delete_asks_first() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let m = t.demo.user("requester").expect("requester").clone();
    let env = token_env(&m.token);
    // The requester's own request: the only account the service lets delete it.
    let id = t.demo.requests_of("requester")[0];
    let mut s = ssh(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "delete", &id.to_string()],
        24,
        100,
    );
    s.wait_for("the question", |x| {
        x.contains("This cannot be undone. [y/N]")
    });
    s.send(b"y\r");
    assert!(s.wait_exit().success(), "{}", s.screen());
    assert_eq!(t.demo.request_status(id), None, "deleted");
    t.rt.block_on(server.stop());
}

/// A run left with writes whose answers it no longer awaits (Ctrl-C twice on `ssh -t`:
/// audited `unknown`) is a run of its own: once it has ended, the next command's run settles
/// its writes from the server's truth, as the command line's next run does, without the
/// server being restarted.
#[test]
fn a_command_s_unknown_writes_are_settled_by_the_next_command() {
    let t = Setup::new();
    t.demo.set_faults(club_admin::demo::Faults {
        latency: Duration::from_millis(1500),
        ..Default::default()
    });
    let server = t.serve(t.options(), 0);
    let env = token_env(&t.demo.moderator().token);
    let ids: Vec<String> = t
        .demo
        .pending_for("moderator")
        .iter()
        .take(3)
        .map(|id| id.to_string())
        .collect();
    let mut s = ssh(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", &ids[0], &ids[1]],
        24,
        100,
    );
    let audit = t.state().join("audit.jsonl");
    let deadline = std::time::Instant::now() + GUARD;
    let sending = || {
        std::fs::read_to_string(&audit)
            .unwrap_or_default()
            .matches("\"outcome\":\"sending\"")
            .count()
    };
    while sending() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(sending(), 2, "both writes sent");
    s.send(b"\x03");
    s.wait_for("the first Ctrl-C said", |x| x.contains("Ctrl-C again"));
    s.send(b"\x03");
    let st = s.wait_exit();
    assert!(!st.success(), "{}", s.screen());
    let unknown = || {
        audit_lines(&t)
            .iter()
            .filter(|l| l["outcome"] == "unknown")
            .count()
    };
    assert_eq!(unknown(), 2, "{:?}", audit_lines(&t));
    // The next command settles them (the service applied them meanwhile, or not: it says).
    t.demo.set_faults(club_admin::demo::Faults::default());
    std::thread::sleep(Duration::from_millis(1600));
    let out = exec(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", &ids[2]],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("2 writes of an interrupted run"),
        "{}",
        text(&out.stderr)
    );
    let lines = audit_lines(&t);
    let settled: Vec<_> = lines
        .iter()
        .filter(|l| l["settled_by"].is_string())
        .collect();
    assert_eq!(settled.len(), 2, "{lines:?}");
    for l in settled {
        let id: uuid::Uuid = l["target"]
            .as_str()
            .and_then(|x| x.parse().ok())
            .expect("id");
        let applied = t.demo.request_status(id) == Some(MembershipStatus::Approved);
        assert_eq!(l["outcome"], if applied { "ok" } else { "failed" }, "{l}");
    }
    t.rt.block_on(server.stop());
}

/// The operator's time limit: past it a bulk sends nothing more, the client is told why (no
/// interruption's words), the writes sent are awaited and audited, and the run ends with the
/// time limit's own code (124), the manual's.
#[test]
fn a_command_past_the_time_limit_sends_nothing_more_and_says_why() {
    let t = Setup::new();
    t.demo.set_faults(club_admin::demo::Faults {
        latency: Duration::from_millis(150),
        ..Default::default()
    });
    let options = ServeOptions {
        limits: club_admin::ssh::Limits {
            exec_time_limit: Duration::from_secs(1),
            ..club_admin::ssh::Limits::default()
        },
        ..t.options()
    };
    let server = t.serve(options, 0);
    let env = token_env(&t.demo.moderator().token);
    let ids = t.demo.pending_for("moderator");
    let input: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let out = exec(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", "-", "--concurrency", "1"],
        input.as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(i32::from(club_admin::script::exit::TIME_LIMIT)),
        "{}",
        text(&out.stderr)
    );
    let err = text(&out.stderr);
    assert!(err.contains("passed this server's time limit"), "{err}");
    assert!(err.contains("stopped at this server's time limit"), "{err}");
    assert!(
        !err.contains("interrupted"),
        "not an interruption's words: {err}"
    );
    assert!(err.contains("not sent (the run stopped early)"), "{err}");
    assert!(
        !err.contains("Ctrl-C"),
        "no Ctrl-C to press without a terminal: {err}"
    );
    let sent = t.demo.mutations().len();
    assert!(sent > 0 && sent < ids.len(), "{sent} of {}", ids.len());
    let outcomes = crate::common::audit_outcomes(&t.state().join("audit.jsonl"));
    assert_eq!(outcomes.len(), sent, "every write sent has its outcome");
    t.rt.block_on(server.stop());
}

/// A command whose standard input never ends (the client keeps it open) meets the time
/// limit while it still reads its ids: nothing was sent and no answer is in flight, so it
/// leaves at once with the time limit's code, saying nothing was sent, instead of awaiting
/// answers for the grace period (it took 35 s).
#[test]
fn an_input_that_never_ends_meets_the_time_limit_and_leaves_at_once() {
    let t = Setup::new();
    let options = ServeOptions {
        limits: club_admin::ssh::Limits {
            exec_time_limit: Duration::from_secs(1),
            ..club_admin::ssh::Limits::default()
        },
        ..t.options()
    };
    let server = t.serve(options, 0);
    let env = token_env(&t.demo.moderator().token);
    let id = t.demo.pending_for("moderator")[0];
    let started = std::time::Instant::now();
    let mut child = exec_child(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "approve", "-"],
    );
    // One id, and the input left open.
    let mut input = child.stdin.take().expect("its input");
    let _ = input.write_all(format!("{id}\n").as_bytes());
    let out = child.wait_with_output().expect("ssh ends");
    drop(input);
    println!("ended {:?} after its start", started.elapsed());
    let err = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(i32::from(club_admin::script::exit::TIME_LIMIT)),
        "{err}"
    );
    assert!(err.contains("time limit: nothing was sent"), "{err}");
    assert!(!err.contains("leaving without the answers"), "{err}");
    assert!(t.demo.mutations().is_empty(), "nothing was sent");
    t.rt.block_on(server.stop());
}

/// `--table` into a pipe over SSH fits the client's `COLUMNS` (sent with the token in one
/// `SetEnv`, as OpenSSH keeps only the first of two), as the command line's fits `$COLUMNS`;
/// it was as wide as its longest row.
#[test]
fn a_table_over_ssh_fits_the_client_s_columns() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let env = format!(
        "SetEnv=CLUB_ADMIN_TOKEN={} COLUMNS=60",
        t.demo.moderator().token
    );
    let out = exec(
        server.port(),
        &t.alice,
        &["-o", &env],
        &["requests", "list", "--table"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.lines().count() > 1, "{table}");
    for line in table.lines() {
        let width = unicode_width::UnicodeWidthStr::width(line);
        assert!(width <= 60, "{width} columns: {line}\n{table}");
    }
    t.rt.block_on(server.stop());
}

/// The command a hint on `screen` names, from `ssh -p` to `tail` (the words of its line up
/// to and with `tail`).
fn hinted(screen: &str, tail: &str) -> Vec<String> {
    let line = screen
        .lines()
        .find(|l| l.contains("ssh -p ") && l.contains(tail))
        .unwrap_or_else(|| panic!("no hint naming `{tail}`:\n{screen}"));
    let from = line.find("ssh -p ").unwrap_or(0);
    let to = line.find(tail).unwrap_or(line.len()) + tail.len();
    line[from..to]
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// In a dashboard over SSH, the term view (`T`) and the team's history (`H`) name the
/// commands that print more as a moderator runs them from there (`ssh -p PORT HOST stats
/// --json`, not the local `club-admin stats`), and those commands, run so, print it.
#[test]
fn the_dashboard_s_hints_over_ssh_name_commands_that_run_there() {
    let t = Setup::new();
    let options = ServeOptions {
        remember_tokens: Some(t.state().join("ssh-tokens")),
        ..t.options()
    };
    let server = t.serve(options, 0);
    let port = server.port();
    let token = t.demo.moderator().token.clone();
    let mut dash = ssh(port, &t.alice, &[], &[], 40, 120);
    super::ssh::sign_in(&mut dash, &token);
    let mut run_hint = |key: &[u8], loaded: &str, tail: &str| {
        dash.send(key);
        // Scrolled to its end once read (a view still reading has nothing to scroll).
        dash.wait_for(loaded, |x| x.contains(loaded));
        dash.send(b"\x1b[F");
        let screen = dash.wait_for(tail, |x| x.contains(tail) && x.contains("ssh -p "));
        let words = hinted(&screen, tail);
        assert_eq!(words[..3], ["ssh", "-p", &port.to_string()], "{words:?}");
        assert_eq!(words[3], "HOST", "{words:?}");
        let command: Vec<&str> = words[4..].iter().map(String::as_str).collect();
        let out = exec(port, &t.alice, &[], &command, b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command:?}: {}",
            text(&out.stderr)
        );
        dash.send(b"\x1b");
        std::thread::sleep(Duration::from_millis(600));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let stats = run_hint(b"T", "Pending requests by club", "stats --json");
    let figures: serde_json::Value = serde_json::from_str(&stats).expect("stats --json is JSON");
    assert!(
        figures["requests"].as_u64().is_some_and(|n| n > 0),
        "{stats}"
    );
    // One decision, so that the history lists a row and says where the older ones are.
    let id = t.demo.pending_for("moderator")[0].to_string();
    let out = exec(port, &t.alice, &[], &["requests", "approve", &id], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let history = run_hint(b"H", "the newest first", "history");
    assert!(
        history.contains(&id[..8]),
        "the approval in the history:\n{history}"
    );
    dash.send(b"q");
    assert!(dash.wait_exit().success());
    t.rt.block_on(server.stop());
}
