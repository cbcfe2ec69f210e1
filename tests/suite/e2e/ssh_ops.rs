//! The operator's side of `serve-ssh` (issue 33): the status socket of a running server
//! (in-process, driven by the real OpenSSH client), read in-process and by the binary as
//! root, refused to another user; and `serve-ssh --check` through the binary, each wrong
//! owner or mode named with its fix.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use club_admin::demo::{self, DemoOptions};
use club_admin::ssh::ServeOptions;
use club_admin::ssh::status;

use super::other_user::{BIN, SharedBinary, ensure_user, root_or_skip};
use super::ssh::{Setup, sign_in, ssh, wait_detached};

/// The user the refusal is tried as (made by the test when missing).
const OTHER: &str = "ca_status_other";

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// `serve-ssh status` by the binary: as root (`None`), or as `user` through the copy of the
/// binary that user can execute.
fn status_as(user: Option<(&str, &SharedBinary)>, sock: &Path, json: bool) -> std::process::Output {
    let mut cmd = match user {
        Some((u, bin)) => bin.as_user(u),
        None => Command::new(BIN),
    };
    cmd.args(["serve-ssh", "status", "--socket"]).arg(sock);
    if json {
        cmd.arg("--json");
    }
    cmd.env("HOME", "/tmp")
        .output()
        .expect("club-admin serve-ssh status")
}

#[test]
fn the_status_names_each_session_and_is_refused_to_another_user() {
    let t = Setup::new();
    let sock = t.state().join("serve-ssh.sock");
    let options = ServeOptions {
        status_socket: Some(sock.clone()),
        exec: true,
        ..t.options()
    };
    let server = t.serve(options, 0);
    let mode = std::fs::metadata(&sock)
        .expect("socket")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "readable only by its user (and root)");
    let m = t.demo.moderator().clone();
    let mut s = ssh(server.port(), &t.alice, &[], &[], 40, 120);
    sign_in(&mut s, &m.token);

    let st = t.rt.block_on(status::query(&sock)).expect("status");
    assert_eq!(st.sessions.len(), 1, "{st:?}");
    let one = &st.sessions[0];
    assert_eq!(one.key, t.alice.fingerprint);
    assert_eq!(one.comment.as_deref(), Some("alice"));
    assert_eq!(one.email.as_deref(), Some(m.email.as_str()));
    assert_eq!(one.state, "attached");
    assert_eq!(st.service.state, "ok");
    assert_eq!(st.host_key, server.fingerprint);
    assert_eq!(st.not_signed_in.waiting, 0);

    // The binary, as root: a table, and the same JSON; never a token or a key.
    let table = status_as(None, &sock, false);
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(table.status.success(), "{table:?}");
    for want in [
        "alice",
        "attached",
        m.email.as_str(),
        "calls in flight",
        "service ",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let json = status_as(None, &sock, true);
    let parsed: status::Status = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(parsed.sessions[0].email, one.email);
    for out in [&table.stdout, &json.stdout] {
        let out = String::from_utf8_lossy(out);
        assert!(
            !out.contains(&m.token) && !out.contains(&m.api_key),
            "{out}"
        );
    }

    // A dropped connection: its dashboard waits for its key.
    s.kill();
    s.wait_exit();
    wait_detached(&server);
    let st = t.rt.block_on(status::query(&sock)).expect("status");
    assert_eq!(st.sessions[0].state, "waiting");

    let what = "the status refused to another user";
    if root_or_skip(what)
        && let Some(bin) = SharedBinary::new(what)
    {
        ensure_user(OTHER);
        // The other user runs the binary (so a refusal below is the server's, not a
        // binary it cannot execute)...
        let runs = bin
            .as_user(OTHER)
            .arg("--version")
            .output()
            .expect("runuser");
        assert!(runs.status.success(), "{OTHER} runs the binary: {runs:?}");
        let other = Some((OTHER, &bin));
        // ...the socket's mode keeps them out...
        let refused = status_as(other, &sock, false);
        assert_eq!(refused.status.code(), Some(1), "{refused:?}");
        assert!(String::from_utf8_lossy(&refused.stderr).contains("no serve-ssh answers"));
        // ...and were it opened to all, the server itself closes on them (SO_PEERCRED).
        for dir in sock
            .ancestors()
            .skip(1)
            .take_while(|d| d.starts_with(t.dir.path()))
        {
            chmod(dir, 0o755);
        }
        chmod(&sock, 0o666);
        let refused = status_as(other, &sock, false);
        let err = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{err}");
        assert!(err.contains("closed without an answer"), "{err}");
        assert!(refused.stdout.is_empty());
        // Root still gets its answer.
        assert!(status_as(None, &sock, false).status.success());
    }
    t.rt.block_on(server.stop());
    assert!(!sock.exists(), "the socket goes with the server");
}

/// Runs `serve-ssh --check` with the files under `dir`, on the demo at `url` with `key`.
async fn check(dir: &Path, url: &str, key_file: &Path, keys: &Path) -> (i32, String) {
    let out = tokio::process::Command::new(BIN)
        // Any free port: the listen address has tests of its own (e2e::ssh_check).
        .args(["serve-ssh", "--check", "--listen", "127.0.0.1:0"])
        .args(["--base-url", url, "--api-key-file"])
        .arg(key_file)
        .arg("--authorized-keys")
        .arg(keys)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("CLUB_ADMIN_BUDGET_DIR", dir.join("budget"))
        .env_remove("CLUB_ADMIN_API_KEY")
        .env_remove("CLUB_ADMIN_TOKEN")
        .env_remove("JOURNAL_STREAM")
        .output()
        .await
        .expect("club-admin serve-ssh --check");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[tokio::test]
async fn the_check_names_each_wrong_owner_and_mode_with_its_fix() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let api_key = d.moderator().api_key.clone();
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path();
    let state = root.join("state").join("club-admin");
    std::fs::create_dir_all(&state).expect("mkdir");
    std::fs::create_dir_all(root.join("etc")).expect("mkdir");
    let keys = root.join("etc").join("authorized_keys");
    let good =
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPI4JV2jvom6znt0ImnB+DWehI/O1WZi3hdlhCWWjHHn alice\n";
    std::fs::write(
        &keys,
        format!("{good}ssh-ed25519 AAAAnot-base64 bob\n# a comment\n"),
    )
    .expect("keys");
    let key_file = root.join("etc").join("api_key");
    std::fs::write(&key_file, format!("{api_key}\n")).expect("key");
    let audit = state.join("audit.jsonl");
    std::fs::write(&audit, "").expect("audit");
    let host_key = state.join("ssh_host_ed25519_key");
    club_admin::ssh::key_files::host_key(&host_key).expect("a host key");
    // Everything wrong at once.
    chmod(&keys, 0o666);
    chmod(&key_file, 0o644);
    chmod(&state, 0o777);
    chmod(&audit, 0o644);
    chmod(&host_key, 0o644);
    let (code, text) = check(root, &d.base_url, &key_file, &keys).await;
    assert_eq!(code, 1, "{text}");
    let s = |p: &Path| p.display().to_string();
    for want in [
        format!("✗ the authorized keys file {} has mode 666", s(&keys)),
        format!("run chmod go-w {}", s(&keys)),
        "1 good, 1 bad".to_owned(),
        "line 2:".to_owned(),
        // 600 for a file of the serving user, 640 for root's (its group reads it).
        format!(
            "the API key file {} has mode 644, should be 6",
            s(&key_file)
        ),
        format!(
            "✗ the state folder {} has mode 777, should be 700 or 755",
            s(&state)
        ),
        format!("✗ the audit file {} has mode 644, should be 600", s(&audit)),
        format!("run chmod 600 {}", s(&audit)),
        format!(
            "✗ the host key {} has mode 644, should be 600",
            s(&host_key)
        ),
        "✓ the API key is accepted".to_owned(),
        "answers, version 0.8.4".to_owned(),
        "✓ the host budget".to_owned(),
    ] {
        assert!(text.contains(&want), "{want}\n{text}");
    }
    assert!(!text.contains(&api_key), "never the key");

    if root_or_skip("the check of owners") {
        // Another user's audit file: named with the chown that fixes it.
        use std::os::unix::fs::chown;
        chown(&audit, Some(4242), None).expect("chown");
        let (code, text) = check(root, &d.base_url, &key_file, &keys).await;
        assert_eq!(code, 1);
        assert!(
            text.contains(&format!(
                "{} is owned by uid 4242, should be uid 0",
                s(&audit)
            )) && text.contains(&format!("run chown 0 {}", s(&audit))),
            "{text}"
        );
        chown(&audit, Some(0), None).expect("chown back");
    }

    // Mended: every line right, exit 0.
    chmod(&keys, 0o644);
    std::fs::write(&keys, good).expect("keys");
    chmod(&key_file, 0o600);
    chmod(&state, 0o700);
    chmod(&audit, 0o600);
    chmod(&host_key, 0o600);
    let (code, text) = check(root, &d.base_url, &key_file, &keys).await;
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains('✗'), "{text}");
    assert!(
        text.contains("authorized keys file") && text.contains(": 1 key"),
        "{text}"
    );
    assert!(text.contains("✓ host key SHA256:"), "{text}");

    // A fresh host: no state folder yet (serve-ssh makes it, with the host key, at start).
    std::fs::remove_dir_all(&state).expect("rm");
    let (code, text) = check(root, &d.base_url, &key_file, &keys).await;
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!(
            "✓ the state folder {} does not exist yet: made with mode 700 at start",
            s(&state)
        )),
        "{text}"
    );

    // A service that cannot be reached, a key it refuses.
    std::fs::write(&key_file, "mysk_nope_nope\n").expect("key");
    chmod(&key_file, 0o600);
    let (code, text) = check(root, &d.base_url, &key_file, &keys).await;
    assert_eq!(code, 1);
    assert!(
        text.contains("✗ the service refuses the operator's API key"),
        "{text}"
    );
    // A service that cannot be reached is a warning: the server starts and serves through
    // the outage (the unit's check before the start passes).
    let (code, text) = check(root, "http://127.0.0.1:9", &key_file, &keys).await;
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("· warning: the service http://127.0.0.1:9 cannot be reached now"),
        "{text}"
    );
}
