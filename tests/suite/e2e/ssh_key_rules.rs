//! End to end: the operator's rules at `serve-ssh`'s door, with the real OpenSSH client on
//! loopback. Each `authorized_keys` option OpenSSH defines, as the file holds it; one key's
//! many connections (idle `ssh -N`, stopped clients) counted against that key, never
//! keeping another key out, listed by the status and ended by `serve-ssh kick`; a pipe that
//! never ends refused at the bound of ids with the server's memory back where it was.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use club_admin::ssh::ServeOptions;
use club_admin::ssh::conns::BUSY;

use super::ssh::{ClientKey, Setup, keygen};
use super::ssh_exec::{exec, exec_child, text, token_env};
use crate::common::pty::GUARD;

/// Writes the authorized keys file of `t` (mode 0600).
fn keys_file(t: &Setup, lines: &[String]) {
    let path = t.dir.path().join("authorized_keys");
    std::fs::write(&path, lines.join("")).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
}

/// `key`'s public line with `options` before it.
fn with_options(options: &str, key: &ClientKey) -> String {
    format!("{options} {}", key.public)
}

/// True when ssh's sign-in was refused (exit 255, "Permission denied").
fn refused(out: &std::process::Output) -> bool {
    out.status.code() == Some(255) && text(&out.stderr).contains("Permission denied")
}

/// `whoami` with the moderator's token: its exit code and everything printed.
fn whoami(t: &Setup, port: u16, key: &ClientKey) -> std::process::Output {
    let env = token_env(&t.demo.moderator().token);
    exec(port, key, &["-o", env.as_str()], &["whoami"], b"")
}

#[test]
fn from_lets_in_only_the_addresses_it_names() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    keys_file(
        &t,
        &[
            with_options(r#"from="10.0.0.0/8""#, &t.alice),
            with_options(r#"from="127.0.0.*,!127.0.0.2""#, &bob),
        ],
    );
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let out = whoami(&t, port, &t.alice);
    assert!(refused(&out), "outside from=: {}", text(&out.stderr));
    let out = whoami(&t, port, &bob);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(&t.demo.moderator().email));
    // The same key from an address its negated pattern names.
    let out = exec(port, &bob, &["-b", "127.0.0.2"], &["whoami"], b"");
    assert!(refused(&out), "a negated pattern: {}", text(&out.stderr));
    t.rt.block_on(server.stop());
}

#[test]
fn expiry_time_keeps_an_expired_key_out() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    keys_file(
        &t,
        &[
            with_options(r#"expiry-time="20200101""#, &t.alice),
            with_options(r#"expiry-time="29991231Z""#, &bob),
        ],
    );
    let server = t.serve(t.options(), 0);
    assert!(refused(&whoami(&t, server.port(), &t.alice)));
    assert_eq!(whoami(&t, server.port(), &bob).status.code(), Some(0));
    t.rt.block_on(server.stop());
}

#[test]
fn no_pty_lets_a_key_run_commands_and_opens_no_dashboard() {
    let t = Setup::new();
    keys_file(&t, &[with_options("no-pty", &t.alice)]);
    let server = t.serve(t.options(), 0);
    let port = server.port();
    assert_eq!(whoami(&t, port, &t.alice).status.code(), Some(0));
    // A shell with no terminal: told the key runs commands only.
    let out = exec(port, &t.alice, &[], &[], b"");
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(said.contains("commands only"), "{said}");
    assert_eq!(out.status.code(), Some(1), "{said}");
    // A terminal asked for is refused as sshd refuses it (OpenSSH's client says so).
    let out = exec(port, &t.alice, &["-tt"], &[], b"");
    assert!(
        text(&out.stderr).contains("PTY allocation request failed"),
        "{out:?}"
    );
    assert_eq!(server.sessions(), 0, "no dashboard was made");
    t.rt.block_on(server.stop());
}

#[test]
fn restrict_takes_the_terminal_and_pty_gives_it_back() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    keys_file(
        &t,
        &[
            with_options("restrict", &t.alice),
            with_options("restrict,pty", &bob),
        ],
    );
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let out = exec(port, &t.alice, &[], &[], b"");
    assert!(
        (text(&out.stdout) + &text(&out.stderr)).contains("commands only"),
        "{out:?}"
    );
    assert_eq!(whoami(&t, port, &t.alice).status.code(), Some(0));
    let mut s = super::ssh::ssh(port, &bob, &[], &[], 24, 80);
    s.wait_for("bob's dashboard", super::ssh::signed_out);
    s.kill();
    t.rt.block_on(server.stop());
}

#[test]
fn command_forces_its_command_whatever_the_client_asks() {
    let t = Setup::new();
    keys_file(
        &t,
        &[with_options(r#"command="whoami --json",no-pty"#, &t.alice)],
    );
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let env = token_env(&t.demo.moderator().token);
    let asked = ["requests", "list", "--json"];
    let out = exec(port, &t.alice, &["-o", env.as_str()], &asked, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("whoami's JSON");
    assert_eq!(json["email"], t.demo.moderator().email.as_str(), "{json}");
    // A shell asked for runs it too.
    let out = exec(port, &t.alice, &["-o", env.as_str()], &[], b"");
    assert!(text(&out.stdout).contains("\"email\""), "{out:?}");
    // A forced command that is not club-admin's is refused, never run.
    keys_file(&t, &[with_options(r#"command="/bin/false""#, &t.alice)]);
    let out = exec(port, &t.alice, &[], &["whoami"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(text(&out.stderr).contains("not a command here"), "{out:?}");
    t.rt.block_on(server.stop());
}

#[test]
fn environment_is_not_applied_and_lines_that_cannot_be_honoured_are_refused() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    let carol = keygen(t.dir.path(), "carol");
    keys_file(
        &t,
        &[
            with_options(
                r#"environment="CLUB_ADMIN_TOKEN=x",no-port-forwarding"#,
                &t.alice,
            ),
            with_options("cert-authority", &bob),
            with_options("frobnicate", &carol),
        ],
    );
    let server = t.serve(t.options(), 0);
    let port = server.port();
    // No token from the file: the moderator's own is needed, as without the option.
    let out = exec(port, &t.alice, &[], &["whoami"], b"");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(whoami(&t, port, &t.alice).status.code(), Some(0));
    assert!(refused(&whoami(&t, port, &bob)), "a CA key signs no one in");
    assert!(refused(&whoami(&t, port, &carol)), "an unknown option");
    t.rt.block_on(server.stop());
}

/// The server's status: asked on its socket, as `serve-ssh status --json` does.
fn status(t: &Setup, socket: &std::path::Path) -> club_admin::ssh::status::Status {
    t.rt.block_on(club_admin::ssh::status::query(socket))
        .expect("status")
}

/// 200 connections of one key, all `ssh -N` (no session asked for), half of them then
/// stopped with SIGSTOP (a client that answers nothing): another key's `whoami` answers at once, the status lists the 200 (the key's
/// share counted, the rest over its share and refused with exit 75), and `serve-ssh kick`
/// ends them all.
#[test]
fn one_key_s_two_hundred_connections_keep_no_other_key_out() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    keys_file(&t, &[t.alice.public.clone(), bob.public.clone()]);
    let socket = t.state().join("serve-ssh.sock");
    let mut options: ServeOptions = t.options();
    options.status_socket = Some(socket.clone());
    options.limits.session_timeout = Duration::from_secs(600);
    options.limits.max_startups = "100:30:300".parse().expect("startups");
    options.limits.max_startups_per_address = 300;
    let server = t.serve(options, 0);
    let port = server.port();
    let mut clients: Vec<_> = (0..200)
        .map(|_| exec_child(port, &t.alice, &["-N"], &[]))
        .collect();
    let deadline = Instant::now() + GUARD * 2;
    let mut listed = 0;
    while Instant::now() < deadline {
        listed = status(&t, &socket)
            .connections
            .iter()
            .filter(|c| c.key == t.alice.fingerprint)
            .count();
        if listed == 200 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(listed, 200, "every connection of the key is listed");
    for c in clients.iter_mut().skip(1).step_by(2) {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(c.id() as i32),
            nix::sys::signal::Signal::SIGSTOP,
        );
    }
    let s = status(&t, &socket);
    let counted = s.connections.iter().filter(|c| !c.over_share).count();
    assert_eq!(counted, 10, "the key's share, no more: {counted}");
    let started = Instant::now();
    let out = whoami(&t, port, &bob);
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    eprintln!(
        "one key with 200 connections (100 ssh -N, 100 stopped): another key's whoami answered in {} ms",
        took.as_millis()
    );
    // The operator's command, on the server's socket.
    let out = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["serve-ssh", "kick", "--key", "alice", "--socket"])
        .arg(&socket)
        .output()
        .expect("serve-ssh kick");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(text(&out.stdout), "200 connection(s) ended\n");
    for mut c in clients {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(c.id() as i32),
            nix::sys::signal::Signal::SIGCONT,
        );
        let _ = c.wait();
    }
    let deadline = Instant::now() + GUARD;
    while !status(&t, &socket).connections.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(status(&t, &socket).connections.is_empty());
    t.rt.block_on(server.stop());
}

/// A key past its share is signed in and told why on its channel, with the exit code 75
/// (busy, try again), never "Permission denied"; a connection that asks for nothing is
/// closed after the session timeout.
#[test]
fn a_key_past_its_share_is_told_it_is_busy_with_75_and_an_idle_one_is_closed() {
    let t = Setup::new();
    let mut options: ServeOptions = t.options();
    options.limits.max_connections_per_key = 2;
    options.limits.session_timeout = Duration::from_secs(8);
    let server = t.serve(options, 0);
    let port = server.port();
    let mut idle: Vec<_> = (0..2)
        .map(|_| exec_child(port, &t.alice, &["-N"], &[]))
        .collect();
    let deadline = Instant::now() + GUARD;
    while server.connections() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(server.connections(), 2, "both signed in");
    let out = whoami(&t, port, &t.alice);
    assert_eq!(out.status.code(), Some(BUSY as i32), "{out:?}");
    let said = text(&out.stderr);
    assert!(said.contains("connections open, its most"), "{said}");
    assert!(!said.contains("Permission denied"), "{said}");
    // The idle ones are closed after the session timeout; the key gets in again.
    for c in &mut idle {
        let st = c.wait().expect("ssh -N ends");
        assert_eq!(st.code(), Some(255), "closed by the server");
    }
    assert_eq!(whoami(&t, port, &t.alice).status.code(), Some(0));
    t.rt.block_on(server.stop());
}

/// The resident memory of process `pid`, in bytes.
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

/// `yes | ssh HOST requests approve -` against the built binary: the run reads to its bound
/// of ids and no further, says so in one sentence and exits 2 with nothing sent; the
/// server's resident memory is back within 50 MB of where it was (the figures printed).
#[test]
fn a_pipe_that_never_ends_is_refused_at_the_bound_and_fills_no_memory() {
    let t = Setup::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut server = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["serve-ssh", "--listen", &format!("127.0.0.1:{port}")])
        .arg("--authorized-keys")
        .arg(t.dir.path().join("authorized_keys"))
        .arg("--host-key")
        .arg(t.state().join("host_key"))
        .args(["--base-url", &t.demo.base_url])
        .arg("--config")
        .arg(t.dir.path().join("config.toml"))
        .env("CLUB_ADMIN_API_KEY", &t.demo.moderator().api_key)
        .env("XDG_STATE_HOME", t.dir.path().join("xdg"))
        .env_remove("CLUB_ADMIN_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve-ssh starts");
    let mut lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let listening = lines.next().and_then(Result::ok).unwrap_or_default();
    assert!(listening.contains("listening on"), "{listening}");
    std::thread::spawn(move || lines.for_each(drop));
    let pid = server.id();
    // One command first, so the server's own lazy start-up is in the figure before.
    let _ = exec(port, &t.alice, &[], &["whoami"], b"");
    let before = rss(pid);
    let mut peak = before;
    // The real pipe, through a shell: `yes | ssh ...`.
    let cmd = format!(
        "yes | ssh -F /dev/null -T -p {port} -i {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o LogLevel=ERROR moderator@127.0.0.1 requests approve -",
        t.alice.path.display()
    );
    let mut runs = Vec::new();
    for _ in 0..3 {
        let child = Command::new("bash")
            .args(["-c", &cmd])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs");
        let sampler = {
            let started = Instant::now();
            let mut top = 0;
            while started.elapsed() < Duration::from_millis(300) {
                top = top.max(rss(pid));
                std::thread::sleep(Duration::from_millis(20));
            }
            top
        };
        peak = peak.max(sampler);
        let out = child.wait_with_output().expect("the pipe ends");
        peak = peak.max(rss(pid));
        runs.push(out);
    }
    for out in &runs {
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("more than 50000 ids or words"), "{err}");
        assert!(err.contains("nothing was sent"), "{err}");
        assert!(
            err.lines().count() <= 2,
            "one sentence, not a line per bad id: {err}"
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = rss(pid);
    eprintln!(
        "yes | ssh requests approve - (3 runs): serve-ssh resident memory {} MB before, {} MB at most during, {} MB after",
        before / 1_000_000,
        peak / 1_000_000,
        after / 1_000_000
    );
    assert!(
        after < before + 50_000_000,
        "memory back within 50 MB: {before} -> {after}"
    );
    let audit = std::fs::read_to_string(t.dir.path().join("xdg/club-admin/audit.jsonl"))
        .unwrap_or_default();
    assert!(!audit.contains("\"sending\""), "nothing was sent: {audit}");
    let _ = server.kill();
    let _ = server.wait();
}

/// 50 loops of one key reconnecting as fast as they can from one address (each `ssh ...
/// whoami`, again and again): another key from the same address still gets through its key
/// exchange and runs its command, every time (never "Connection reset by peer").
#[test]
fn fifty_reconnect_loops_of_one_key_keep_no_other_key_out() {
    let t = Setup::new();
    let bob = keygen(t.dir.path(), "bob");
    keys_file(&t, &[t.alice.public.clone(), bob.public.clone()]);
    let server = t.serve(t.options(), 0);
    let port = server.port();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let loops: Vec<_> = (0..50)
        .map(|_| {
            let (stop, key) = (stop.clone(), t.alice.clone());
            std::thread::spawn(move || {
                let mut runs = 0;
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    let _ = exec(port, &key, &[], &["whoami"], b"");
                    runs += 1;
                }
                runs
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let mut took = Vec::new();
    for _ in 0..4 {
        let started = Instant::now();
        let out = whoami(&t, port, &bob);
        took.push(started.elapsed().as_millis());
        assert_eq!(
            out.status.code(),
            Some(0),
            "another key under the flood: {}",
            text(&out.stderr)
        );
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let runs: usize = loops.into_iter().map(|l| l.join().unwrap_or(0)).sum();
    eprintln!(
        "50 reconnect loops of one key ({runs} connections): another key's whoami took {took:?} ms"
    );
    t.rt.block_on(server.stop());
}

/// The operator rewrites the API key file of a running server: every command after it uses
/// the new key, without a restart (the file is looked at every few seconds).
#[test]
fn a_rewritten_api_key_file_is_read_again_without_a_restart() {
    let t = Setup::new();
    let key_file = t.dir.path().join("api_key");
    std::fs::write(&key_file, "mysk_revoked_0000000000\n").expect("key");
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let flags = club_admin::config::Flags {
        base_url: Some(t.demo.base_url.clone()),
        config: Some(t.dir.path().join("config.toml")),
        api_key_file: Some(key_file.clone()),
        ..club_admin::config::Flags::default()
    };
    let env = |_: &str| None;
    let mut settings = club_admin::config::resolve(&flags, &env, None).expect("settings");
    settings.state_dir = Some(t.state());
    let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
    let server =
        t.rt.block_on(club_admin::ssh::start(t.options(), settings, keymap))
            .expect("serve-ssh starts");
    let port = server.port();
    let out = whoami(&t, port, &t.alice);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        text(&out.stderr).contains("the server's operator"),
        "the key is the operator's: {}",
        text(&out.stderr)
    );
    std::fs::write(&key_file, format!("{}\n", t.demo.moderator().api_key)).expect("key");
    let deadline = Instant::now() + GUARD;
    let mut out = whoami(&t, port, &t.alice);
    while out.status.code() != Some(0) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(250));
        out = whoami(&t, port, &t.alice);
    }
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    t.rt.block_on(server.stop());
}

/// A command line too long for one run (here 100 KiB of ids as arguments) is refused with
/// one sentence saying where the ids go instead, exit 2, nothing run.
#[test]
fn a_command_line_too_long_gets_a_sentence() {
    let t = Setup::new();
    let server = t.serve(t.options(), 0);
    let ids: Vec<String> = (0..2700)
        .map(|i| format!("00000000-0000-4000-8000-{i:012}"))
        .collect();
    let line = ids.join(" ");
    assert!(line.len() > 90_000);
    let out = exec(
        server.port(),
        &t.alice,
        &[],
        &["requests", "approve", &line],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("longer than 32 KiB") && err.contains("standard input"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    t.rt.block_on(server.stop());
}

/// `serve-ssh kick` of a key whose dashboard is open: the dashboard gives the client's
/// terminal back (out of the alternate screen, cursor shown) and says why on it, as a stop
/// does, before the connection closes.
#[test]
fn a_kicked_dashboard_gives_the_terminal_back_and_says_why() {
    let t = Setup::new();
    let socket = t.state().join("serve-ssh.sock");
    let mut options: ServeOptions = t.options();
    options.status_socket = Some(socket.clone());
    let server = t.serve(options, 0);
    let dash = super::ssh::ssh(server.port(), &t.alice, &[], &[], 30, 100);
    dash.wait_for("the dashboard", super::ssh::signed_out);
    assert!(
        dash.parser().screen().alternate_screen(),
        "the dashboard's screen"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["serve-ssh", "kick", "--key", "alice", "--socket"])
        .arg(&socket)
        .output()
        .expect("serve-ssh kick");
    assert_eq!(text(&out.stdout), "1 connection(s) ended\n", "{out:?}");
    dash.wait_exit();
    let screen = dash.parser();
    assert!(
        !screen.screen().alternate_screen(),
        "the terminal given back"
    );
    assert!(!screen.screen().hide_cursor(), "the cursor shown again");
    assert!(
        screen
            .screen()
            .contents()
            .contains("operator ended this connection"),
        "why:\n{}",
        screen.screen().contents()
    );
    t.rt.block_on(server.stop());
}
