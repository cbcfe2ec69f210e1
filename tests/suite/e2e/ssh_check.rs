//! `serve-ssh --check` cannot lie: the listen address is bound and let go (a port another
//! program holds, a port below 1024, an address not of this host: each fails with what
//! mends it), and run by root on files that belong to the service's user it checks as that
//! user, saying so with the `runuser` command that does the same; another user is told to
//! run that command, never to `chown` the service's files. Every advice printed is followed
//! here, and the check then passes. The real binary against the demo.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use club_admin::demo::{self, DemoHandle, DemoOptions};

use super::other_user::{BIN, SharedBinary, ensure_user, open_tempdir, root_or_skip, uid_of};

/// The user the service's files belong to in these tests (the package's `club-admin`).
const SERVING: &str = "ca_check_serving";
/// Another user of the host (no right on the service's files).
const STRANGER: &str = "ca_status_other";

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The files of a setup the check passes, under one folder.
#[derive(Clone)]
struct Files {
    root: PathBuf,
    key_file: PathBuf,
    keys: PathBuf,
    state: PathBuf,
}

/// Makes, under `root`, what `serve-ssh --check` wants: the state folder (0700) with its
/// audit and host key (0600), the authorized keys (one key, root's, 0644), the API key file
/// (0600) and the host budget's folder (root's, 1777); the state and the API key belong to
/// `owner` (the user serving).
fn good_files(root: &Path, api_key: &str, owner: u32) -> Files {
    let state = root.join("state").join("club-admin");
    std::fs::create_dir_all(&state).expect("mkdir");
    std::fs::create_dir_all(root.join("etc")).expect("mkdir");
    let keys = root.join("etc").join("authorized_keys");
    let key =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPI4JV2jvom6znt0ImnB+DWehI/O1WZi3hdlhCWWjHHn alice\n";
    std::fs::write(&keys, key).expect("keys");
    chmod(&keys, 0o644);
    let key_file = root.join("etc").join("api_key");
    std::fs::write(&key_file, format!("{api_key}\n")).expect("key");
    chmod(&key_file, 0o600);
    let audit = state.join("audit.jsonl");
    std::fs::write(&audit, "").expect("audit");
    chmod(&audit, 0o600);
    let host_key = state.join("ssh_host_ed25519_key");
    club_admin::ssh::key_files::host_key(&host_key).expect("a host key");
    chmod(&host_key, 0o600);
    chmod(&state, 0o700);
    let budget = root.join("budget");
    std::fs::create_dir(&budget).expect("budget");
    chmod(&budget, 0o1777);
    for p in [&state, &audit, &host_key, &key_file] {
        std::os::unix::fs::chown(p, Some(owner), None).expect("chown (as root)");
    }
    Files {
        root: root.to_path_buf(),
        key_file,
        keys,
        state,
    }
}

/// `serve-ssh --check` on `f` against the demo at `url`, listening on `listen`, by `cmd`
/// (the binary, or `runuser` with it).
fn check_with(cmd: Command, f: &Files, url: &str, listen: &str) -> (i32, String) {
    check_more(cmd, f, url, listen, &[])
}

/// [`check_with`], with more flags of `serve-ssh`.
fn check_more(
    mut cmd: Command,
    f: &Files,
    url: &str,
    listen: &str,
    more: &[&std::ffi::OsStr],
) -> (i32, String) {
    cmd.args([
        "serve-ssh",
        "--check",
        "--listen",
        listen,
        "--base-url",
        url,
    ])
    .args(more)
    .arg("--api-key-file")
    .arg(&f.key_file)
    .arg("--authorized-keys")
    .arg(&f.keys)
    .env("XDG_STATE_HOME", f.root.join("state"))
    .env("CLUB_ADMIN_BUDGET_DIR", f.root.join("budget"))
    .env_remove("CLUB_ADMIN_API_KEY")
    .env_remove("CLUB_ADMIN_TOKEN")
    .env_remove("JOURNAL_STREAM");
    // Unless the caller set (or removed) it: where a default config file is looked for.
    if !cmd.get_envs().any(|(k, _)| k == "XDG_CONFIG_HOME") {
        cmd.env("XDG_CONFIG_HOME", f.root.join("config"));
    }
    said(&cmd.output().expect("club-admin serve-ssh --check"))
}

/// The exit code and everything printed.
fn said(out: &Output) -> (i32, String) {
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// Runs an advice's command line as root, through the shell, with the environment the check
/// had (`f`'s folders).
fn follow(advice: &str, f: &Files) -> (i32, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(advice)
        .env("XDG_STATE_HOME", f.root.join("state"))
        .env("XDG_CONFIG_HOME", f.root.join("config"))
        .env("CLUB_ADMIN_BUDGET_DIR", f.root.join("budget"))
        .env_remove("CLUB_ADMIN_API_KEY")
        .env_remove("CLUB_ADMIN_TOKEN")
        .env_remove("JOURNAL_STREAM")
        .output()
        .expect("sh -c");
    said(&out)
}

/// The text after `marker` on the line that has it.
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.split_once(marker).map(|(_, rest)| rest))
        .unwrap_or_else(|| panic!("no {marker:?} in\n{text}"))
}

/// A port free now on 127.0.0.1, below the kernel's ephemeral range (32768 and up): between
/// this and the check's own bind, another test's bind to port 0 cannot take it.
fn free_port() -> u16 {
    (0..1000)
        .map(|_| 20_000 + fastrand::u16(..12_000))
        .find(|p| std::net::TcpListener::bind(("127.0.0.1", *p)).is_ok())
        .expect("a free port below the ephemeral range")
}

async fn demo_and_key() -> (DemoHandle, String) {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let key = d.moderator().api_key.clone();
    (d, key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_address_that_cannot_be_bound_fails_the_check_and_its_advice_mends_it() {
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &api_key, me);
    let url = d.base_url.clone();
    let run = move |listen: String| {
        let f = f.clone();
        let url = url.clone();
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
    };

    // Another program holds the port: the start would fail, so the check does.
    let other = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let taken = other.local_addr().expect("addr");
    let (code, text) = run(taken.to_string()).await.expect("check");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!(
            "✗ the listen address {taken} cannot be bound: Address already in use"
        )) && text.contains(&format!(
            "another program listens there (ss -ltnp 'sport = :{}' names it); stop it, or give serve-ssh another address (--listen",
            taken.port()
        )),
        "{text}"
    );
    // "give serve-ssh another address": passes.
    let (code, text) = run(format!("127.0.0.1:{}", free_port()))
        .await
        .expect("check");
    assert_eq!(code, 0, "{text}");
    // "stop it": passes, and the port is let go (bound again right after).
    drop(other);
    let (code, text) = run(taken.to_string()).await.expect("check");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(
            "✓ the listen address {taken} can be bound (bound and let go)"
        )),
        "{text}"
    );
    std::net::TcpListener::bind(taken).expect("the check let the port go");

    // An address that is not this host's (TEST-NET-1), then "0.0.0.0 for all of them".
    let (code, text) = run("192.0.2.1:2222".into()).await.expect("check");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("✗ the listen address 192.0.2.1:2222 cannot be bound")
            && text.contains("that address is not one of this host's; give one of its addresses (0.0.0.0 or [::] for all of them)"),
        "{text}"
    );
    let (code, text) = run(format!("0.0.0.0:{}", free_port()))
        .await
        .expect("check");
    assert_eq!(code, 0, "{text}");
}

/// The service's files belong to another user (the package's `club-admin`): root's check
/// becomes that user, says so with the `runuser` command, and passes where the files are
/// right for it (it advised `chown 0` of every one of them before); that command, run by
/// hand, passes too. A port below 1024, which root could bind and the service cannot, fails
/// as it would under the unit; the advice (a port of 1024 or above) passes. Another user is
/// told to run the same command as root, and nothing else (no chown); followed, it passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_as_root_or_another_user_the_check_is_the_services_users_and_says_how() {
    let what = "the check as the service's user";
    if !root_or_skip(what) {
        return;
    }
    let Some(bin) = SharedBinary::new(what) else {
        return;
    };
    ensure_user(SERVING);
    ensure_user(STRANGER);
    let (d, api_key) = demo_and_key().await;
    let dir = open_tempdir();
    let f = good_files(dir.path(), &api_key, uid_of(SERVING));
    let url = d.base_url.clone();
    let port = free_port();
    let bin_path = bin.path().to_path_buf();
    let (code, text) = {
        let (f2, url, listen) = (f.clone(), url.clone(), format!("127.0.0.1:{port}"));
        let cmd = Command::new(&bin_path);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 0, "{text}");
    let state = f.state.display().to_string();
    let whose = format!(
        "· the state folder {state} belongs to {SERVING} (uid {}), the user serve-ssh runs as: checked as {SERVING}, not as root, as this does: runuser -u {SERVING} -- {}",
        uid_of(SERVING),
        bin_path.display()
    );
    assert!(text.contains(&whose), "{whose}\n{text}");
    assert!(!text.contains("chown") && !text.contains('✗'), "{text}");
    // The command it names, by hand: the same check, passed, and no word of another user.
    let advice = after(&text, "as this does: ").to_owned();
    let (code, by_hand) = tokio::task::spawn_blocking({
        let (advice, f2) = (advice.clone(), f.clone());
        move || follow(&advice, &f2)
    })
    .await
    .expect("by hand");
    assert_eq!(code, 0, "{advice}\n{by_hand}");
    assert!(!by_hand.contains("runs as:"), "{by_hand}");

    // Root's HOME closed to others (as /root is) and no XDG_CONFIG_HOME: the default config
    // file is looked for in the service user's home, as runuser would, not refused in root's.
    let root_home = tempfile::tempdir().expect("home");
    chmod(root_home.path(), 0o700);
    let (code, text) = {
        let (f2, url, listen) = (f.clone(), url.clone(), format!("127.0.0.1:{port}"));
        let mut cmd = Command::new(&bin_path);
        cmd.env("HOME", root_home.path())
            .env_remove("XDG_CONFIG_HOME");
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 0, "{text}");

    // Port 1000: root could bind it, the service's user cannot; so the check fails.
    let (code, text) = {
        let (f2, url) = (f.clone(), url.clone());
        let cmd = Command::new(&bin_path);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, "127.0.0.1:1000"))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("✗ the listen address 127.0.0.1:1000 cannot be bound: Permission denied")
            && text.contains("listen on a port of 1024 or above"),
        "{text}"
    );
    let (code, text) = {
        let (f2, url, listen) = (f.clone(), url.clone(), format!("127.0.0.1:{port}"));
        let cmd = Command::new(&bin_path);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 0, "a port above 1023: {text}");

    // Another user: one ✗ line with the command to run as root, no chown.
    let (code, text) = {
        let (f2, url, listen) = (f.clone(), url.clone(), format!("127.0.0.1:{port}"));
        let cmd = bin.as_user(STRANGER);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with(&format!(
            "✗ the state folder {state} belongs to {SERVING} (uid {}), the user serve-ssh runs as, not to you (uid {})",
            uid_of(SERVING),
            uid_of(STRANGER)
        )) && !text.contains("chown"),
        "{text}"
    );
    let advice = after(&text, "as root: ").to_owned();
    assert!(
        advice.starts_with(&format!("runuser -u {SERVING} -- ")),
        "{advice}"
    );
    let (code, by_hand) = tokio::task::spawn_blocking({
        let f2 = f.clone();
        move || follow(&advice, &f2)
    })
    .await
    .expect("by hand");
    assert_eq!(code, 0, "{by_hand}");

    // The folder above the state folder closed to others, as the package's
    // /var/lib/club-admin (club-admin's, 0750): the stranger is told by that folder's owner.
    let above = f.root.join("state");
    std::os::unix::fs::chown(&above, Some(uid_of(SERVING)), None).expect("chown");
    chmod(&above, 0o750);
    let (code, text) = {
        let (f2, url, listen) = (f.clone(), url.clone(), format!("127.0.0.1:{port}"));
        let cmd = bin.as_user(STRANGER);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{text}");
    assert!(
        text.starts_with(&format!(
            "✗ the folder {} above the state folder {state} belongs to {SERVING}",
            above.display()
        )),
        "{text}"
    );
    let advice = after(&text, "as root: ").to_owned();
    let (code, by_hand) = tokio::task::spawn_blocking({
        let f2 = f.clone();
        move || follow(&advice, &f2)
    })
    .await
    .expect("by hand");
    assert_eq!(code, 0, "{by_hand}");
}

/// `serve-ssh` itself already runs on the address (its status socket answers): checked
/// before its restart, as the config file advises, the check says so and passes (the
/// restart frees the address); stopped, the address is bound and let go.
#[test]
fn a_serve_ssh_already_running_on_the_address_is_said_and_the_check_passes_before_its_restart() {
    let t = super::ssh::Setup::new();
    let sock = t.state().join("serve-ssh.sock");
    let server = t.serve(
        club_admin::ssh::ServeOptions {
            status_socket: Some(sock.clone()),
            exec: true,
            ..t.options()
        },
        0,
    );
    let listen = format!("127.0.0.1:{}", server.port());
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &t.demo.moderator().api_key, me);
    let run = || {
        let more = [std::ffi::OsStr::new("--status-socket"), sock.as_os_str()];
        check_more(Command::new(BIN), &f, &t.demo.base_url, &listen, &more)
    };
    // Checked before its restart, as the config file advises: the running service holds
    // the address, which its restart frees; not a fault (a · line, exit 0).
    let (code, text) = run();
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(
            "· the listen address {listen} is held by the serve-ssh running now (its status socket answers: club-admin serve-ssh status): its restart lets the new one bind it"
        )),
        "{text}"
    );
    t.rt.block_on(server.stop());
    let (code, text) = run();
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!("✓ the listen address {listen} can be bound")),
        "{text}"
    );
}

/// A FIFO planted under slot 0's name in the host budget's folder costs that slot only: the
/// check passes (under the package's unit it runs before the server: one planted file
/// kept the service from starting), says the slots still usable and names the refused one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_budget_slot_is_said_and_does_not_fail_the_check() {
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &api_key, me);
    let key = club_admin::api::budget::server_key(&d.base_url);
    let slot0 = f.root.join("budget").join(format!("{key}.0.lock"));
    nix::unistd::mkfifo(&slot0, nix::sys::stat::Mode::from_bits_truncate(0o666)).expect("mkfifo");
    let (url, listen) = (d.base_url.clone(), format!("127.0.0.1:{}", free_port()));
    let (code, text) =
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
            .await
            .expect("check");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("slots usable") && text.contains(": 11 of 12 slots usable"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "· the host budget: the host budget's {} is not a plain file (a FIFO): 11 of 12 slots used",
            slot0.display()
        )),
        "{text}"
    );
}

/// The commands of the advice in the `✗` lines of a check: each "run COMMAND" (up to its
/// alternative, "(or chown root)", ", or move the file").
fn run_advice(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with('✗'))
        .filter_map(|l| l.split_once("; run ").map(|(_, cmd)| cmd))
        .map(|cmd| {
            let cmd = cmd.split(" (or ").next().unwrap_or(cmd);
            cmd.split(", or ").next().unwrap_or(cmd).to_owned()
        })
        .collect()
}

/// Every file wrong at once (modes and an owner): each `✗` line's "run ..." command, run as
/// printed, mends it, and the check then passes. Root's own files (the check is root's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_the_check_advises_mends_what_it_names() {
    if !root_or_skip("the check's chown advice") {
        return;
    }
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let f = good_files(dir.path(), &api_key, 0);
    let audit = f.state.join("audit.jsonl");
    let log = f.state.join("club-admin.log");
    std::fs::write(&log, "").expect("log");
    chmod(&f.keys, 0o666);
    chmod(&f.root.join("etc"), 0o777);
    chmod(&f.key_file, 0o644);
    chmod(&f.state, 0o777);
    chmod(&audit, 0o644);
    chmod(&log, 0o640);
    chmod(&f.state.join("ssh_host_ed25519_key"), 0o644);
    std::os::unix::fs::chown(&audit, Some(4242), None).expect("chown");
    let listen = format!("127.0.0.1:{}", free_port());
    let check = || {
        let (f, url, listen) = (f.clone(), d.base_url.clone(), listen.clone());
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
    };
    let (code, text) = check().await.expect("check");
    assert_eq!(code, 1, "{text}");
    let advice = run_advice(&text);
    let wrong = text.lines().filter(|l| l.starts_with('✗')).count();
    assert_eq!(advice.len(), wrong, "every ✗ line has its command:\n{text}");
    for want in ["chmod go-w", "chmod 600", "chmod 640", "chown 0"] {
        assert!(
            advice.iter().any(|a| a.starts_with(want)),
            "{want}: {advice:?}"
        );
    }
    for a in &advice {
        let (code, out) = follow(a, &f);
        assert_eq!(code, 0, "{a}: {out}");
    }
    let (code, text) = check().await.expect("check");
    assert_eq!(code, 0, "after {advice:#?}:\n{text}");
}

/// The API key file replaced by root (root's, mode 644, then 600: the service's user cannot
/// read it): the check, run by root as the service's user, says the service could not read
/// its key, and advises the group and mode that let it (never a bare `chmod 640`, which
/// left root's own group reading it and the service refused); followed, it passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_root_owned_api_key_the_service_cannot_read_is_mended_by_the_advice() {
    let what = "the API key file's group";
    if !root_or_skip(what) {
        return;
    }
    let Some(bin) = SharedBinary::new(what) else {
        return;
    };
    ensure_user(SERVING);
    let (d, api_key) = demo_and_key().await;
    let dir = open_tempdir();
    let f = good_files(dir.path(), &api_key, uid_of(SERVING));
    let listen = format!("127.0.0.1:{}", free_port());
    let bin_path = bin.path().to_path_buf();
    let check = || {
        let (f2, url, listen) = (f.clone(), d.base_url.clone(), listen.clone());
        let cmd = Command::new(&bin_path);
        tokio::task::spawn_blocking(move || check_with(cmd, &f2, &url, &listen))
    };
    for mode in [0o644, 0o600] {
        std::os::unix::fs::chown(&f.key_file, Some(0), Some(0)).expect("chown");
        chmod(&f.key_file, mode);
        let (code, text) = check().await.expect("check");
        assert_eq!(code, 1, "{mode:o}: {text}");
        let advice = run_advice(&text);
        assert_eq!(advice.len(), 1, "{mode:o}: {text}");
        assert!(
            advice[0].starts_with("chgrp ") && advice[0].contains("&& chmod 640"),
            "{mode:o}: {advice:?}"
        );
        let (code, out) = follow(&advice[0], &f);
        assert_eq!(code, 0, "{}: {out}", advice[0]);
        let (code, text) = check().await.expect("check");
        assert_eq!(code, 0, "{mode:o}, after {}:\n{text}", advice[0]);
    }
}

/// A malformed API key and an unknown one are each a ✗ with its mend, found by a read that
/// needs the key alone (the service asks `/auth/user` for a token before it looks at the
/// key, so that read could not tell); the moderator's real key is a ✓.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_or_unknown_api_key_fails_the_check_with_its_mend() {
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &api_key, me);
    let url = d.base_url.clone();
    let listen = format!("127.0.0.1:{}", free_port());
    for (key, good) in [
        ("not a key at all", false),
        ("mysk_abcdef_0123456789abcdef0123456789abcdef", false),
        (api_key.as_str(), true),
    ] {
        std::fs::write(&f.key_file, format!("{key}\n")).expect("key");
        let (f2, url, listen) = (f.clone(), url.clone(), listen.clone());
        let (code, text) =
            tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f2, &url, &listen))
                .await
                .expect("check");
        if good {
            assert_eq!(code, 0, "{text}");
            assert!(
                text.contains("✓ the API key is accepted by the service"),
                "{text}"
            );
        } else {
            assert_eq!(code, 1, "{key}: {text}");
            assert!(
                text.contains("✗ the service refuses the operator's API key")
                    && text.contains(&format!(
                        "mend: put the key MySK issued for this host in the API key file {}",
                        f.key_file.display()
                    )),
                "{key}: {text}"
            );
            assert!(!text.contains("✓ the API key is accepted"), "{text}");
        }
        assert!(!text.contains("cannot be reached"), "{text}");
    }
}

/// A keys file others could write: the server lets no key in and the check, beside the
/// chmod, lists every key it holds (comment and fingerprint) to review, the one another user
/// appended among them; the planted line removed and the mode mended, it passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keys_file_open_to_others_is_not_trusted_back_without_a_review_of_its_keys() {
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &api_key, me);
    let planted = super::ssh::keygen(dir.path(), "mallory-planted");
    chmod(&f.keys, 0o666);
    let mut text = std::fs::read_to_string(&f.keys).expect("keys");
    text.push_str(&planted.public);
    std::fs::write(&f.keys, text).expect("append");
    let url = d.base_url.clone();
    let listen = format!("127.0.0.1:{}", free_port());
    let (code, said) = {
        let (f2, url, listen) = (f.clone(), url.clone(), listen.clone());
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f2, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("run chmod go-w"), "{said}");
    let review = said
        .lines()
        .find(|l| l.starts_with('·') && l.contains("may have been changed by another user"))
        .unwrap_or_else(|| panic!("no review line in\n{said}"));
    assert!(
        review.contains(&planted.fingerprint) && review.contains("mallory-planted"),
        "the planted key is named: {review}"
    );
    assert!(review.contains(" alice"), "every key is listed: {review}");
    // The mend followed; the operator removes the planted line; the check passes.
    chmod(&f.keys, 0o644);
    let kept: String = std::fs::read_to_string(&f.keys)
        .expect("keys")
        .lines()
        .filter(|l| !l.contains("mallory-planted"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&f.keys, kept).expect("keys");
    let (code, said) =
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
            .await
            .expect("check");
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("1 key"), "{said}");
}

/// The API key file as the package leaves it (empty), or missing: a ✗ with its mend, never
/// a bare error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_or_missing_api_key_file_is_a_cross_with_its_mend() {
    let (d, api_key) = demo_and_key().await;
    let dir = tempfile::tempdir().expect("dir");
    let me = rustix::process::geteuid().as_raw();
    let f = good_files(dir.path(), &api_key, me);
    let listen = format!("127.0.0.1:{}", free_port());
    std::fs::write(&f.key_file, "\n").expect("empty");
    let (code, text) = {
        let (f, url, listen) = (f.clone(), d.base_url.clone(), listen.clone());
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!(
            "✗ the API key file {} is empty",
            f.key_file.display()
        )) && text.contains("put the key MySK issued for this host in it"),
        "{text}"
    );
    std::fs::remove_file(&f.key_file).expect("rm");
    let (code, text) = {
        let (f, url) = (f.clone(), d.base_url.clone());
        tokio::task::spawn_blocking(move || check_with(Command::new(BIN), &f, &url, &listen))
            .await
            .expect("check")
    };
    assert_eq!(code, 1, "{text}");
    let shown = f.key_file.display().to_string();
    assert!(
        text.contains(&format!("✗ the API key file {shown} does not exist"))
            && text.contains(&format!("run install -m 600 -o {me} /dev/null {shown}")),
        "{text}"
    );
}
