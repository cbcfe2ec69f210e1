//! The manual's examples run: every ```` ```console ```` block of the README and of
//! `docs/src` is a session, as trycmd reads one: a `$ COMMAND` line (run by `sh -c`, with
//! this build's `club-admin` first on the `PATH`, signed in as the demo moderator against a
//! demo server of this test's own), then the output it prints (standard output and standard
//! error, as a terminal shows them: the two streams' lines in any interleaving, as the
//! processes of a pipe or an SSH server's two streams may reach a terminal) and, when not
//! 0, `? CODE` for its exit code. An
//! example whose output changes fails here, with both texts. In the expected text, as in
//! snapbox: `[..]` matches any text within a line (an id, a time, a port), a line `...`
//! any number of lines. The examples of one file run in order on one demo and one state
//! folder, so a later one sees what an earlier one did; they start in a folder holding the
//! files of `tests/suite/e2e/doc_files` (the spreadsheets the examples read).
//!
//! The manual's SSH host stands in too: for a file with an `ssh` example, `serve-ssh` runs
//! in-process on its demo, and an `ssh` first on the `PATH` sends
//! `ssh -p 2222 clubs.school.example ...` to it with the real OpenSSH client and a key of
//! the test's own, the moderator's token remembered for that key (as after a sign-in in its
//! dashboard, `remember_tokens = true`) and in `~/.club-admin-token`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use club_admin::config::{Flags, resolve};
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::ssh::{Hooks, Limits, ServeOptions, ServerHandle};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One `$ COMMAND` of a console block: where it is, and what it should print and exit
/// with.
#[derive(Debug)]
struct Example {
    file: String,
    line: usize,
    command: String,
    expected: Vec<String>,
    code: i32,
}

/// The examples of a Markdown text, in order.
fn examples(file: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            if fenced {
                fenced = false;
                in_console = false;
            } else {
                fenced = true;
                in_console = trimmed.trim_start_matches('`').trim() == "console";
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push(Example {
                file: file.to_owned(),
                line: n + 1,
                command: cmd.to_owned(),
                expected: Vec::new(),
                code: 0,
            });
        } else if let Some(code) = line.strip_prefix("? ") {
            if let Some(e) = out.last_mut() {
                e.code = code.trim().parse().unwrap_or(-1);
            }
        } else if let Some(e) = out.last_mut() {
            e.expected.push(line.to_owned());
        }
    }
    out
}

/// True when `line` is `pattern`, each `[..]` in it standing for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// True when `expected` is the lines of standard output `out` and standard error `err`,
/// in some interleaving of the two (the one a terminal shows depends on when each process
/// of a pipe, or an SSH server's two streams, wrote), with `[..]` and `...` as said above.
fn matches(expected: &[String], out: &[&str], err: &[&str]) -> bool {
    let mut failed = std::collections::HashSet::new();
    matches_from(expected, out, err, &mut failed)
}

/// [`matches`], `failed` holding the (expected, out, err) lengths already found not to.
fn matches_from(
    expected: &[String],
    out: &[&str],
    err: &[&str],
    failed: &mut std::collections::HashSet<(usize, usize, usize)>,
) -> bool {
    let at = (expected.len(), out.len(), err.len());
    if failed.contains(&at) {
        return false;
    }
    let found = match expected.split_first() {
        None => out.is_empty() && err.is_empty(),
        Some((e, rest)) if e == "..." => (0..=out.len())
            .any(|i| (0..=err.len()).any(|j| matches_from(rest, &out[i..], &err[j..], failed))),
        Some((e, rest)) => {
            out.first()
                .is_some_and(|a| line_matches(e, a) && matches_from(rest, &out[1..], err, failed))
                || err.first().is_some_and(|a| {
                    line_matches(e, a) && matches_from(rest, out, &err[1..], failed)
                })
        }
    };
    if !found {
        failed.insert(at);
    }
    found
}

/// The Markdown files whose console blocks are run: the README and the manual.
fn files() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs/src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The manual's SSH host, `clubs.school.example` on port 2222, made of a `serve-ssh`
/// in-process on `demo` (its operator's API key the moderator's) and an `ssh` in
/// `dir/bin` that gives the real client a config sending that host to it.
async fn ssh_host(demo: &DemoHandle, dir: &Path) -> ServerHandle {
    let (key, public, fingerprint) = moderator_key(dir);
    let host = dir.join("host");
    std::fs::create_dir_all(&host).expect("dir");
    let keys = host.join("authorized_keys");
    std::fs::write(&keys, &public).expect("write");
    let private = |p: &Path| {
        std::fs::set_permissions(p, std::os::unix::fs::PermissionsExt::from_mode(0o600))
            .expect("chmod")
    };
    private(&keys);
    std::fs::write(host.join("serve-ssh.toml"), "").expect("write");
    let m = demo.moderator();
    let tokens = host.join("tokens");
    std::fs::create_dir_all(&tokens).expect("dir");
    let remembered = club_admin::ssh::token_file(&tokens, &fingerprint);
    std::fs::write(&remembered, &m.token).expect("write");
    private(&remembered);
    std::fs::write(dir.join(".club-admin-token"), &m.token).expect("write");
    let options = ServeOptions {
        listen: "127.0.0.1:0".parse().expect("addr"),
        host_key: host.join("ssh_host_ed25519_key"),
        authorized_keys: Some(keys),
        allow_any_key: false,
        limits: Limits::default(),
        reattach: Duration::from_secs(600),
        remember_tokens: Some(tokens),
        mouse: true,
        status_socket: None,
        exec: true,
    };
    let flags = Flags {
        base_url: Some(demo.base_url.clone()),
        config: Some(host.join("serve-ssh.toml")),
        ..Flags::default()
    };
    let api_key = m.api_key.clone();
    let env = move |k: &str| (k == "CLUB_ADMIN_API_KEY").then(|| api_key.clone());
    let mut settings = resolve(&flags, &env, None).expect("settings");
    settings.state_dir = Some(host.join("state"));
    let keymap = club_admin::runtime::keymap(&settings).expect("keymap");
    let server = club_admin::ssh::start_with(options, settings, keymap, Hooks::default())
        .await
        .expect("serve-ssh starts");
    let config = host.join("ssh_config");
    std::fs::write(
        &config,
        format!(
            "Host clubs.school.example\n  HostName 127.0.0.1\n  Port {}\n  IdentityFile {}\n  \
             IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  \
             BatchMode yes\n  LogLevel ERROR\n  ControlMaster no\n",
            server.port(),
            key.display()
        ),
    )
    .expect("write");
    let real = which("ssh").expect("OpenSSH's ssh on the PATH");
    // The manual's `-p 2222` left out: the config's port is this server's.
    let wrapper = format!(
        "#!/bin/sh\nn=$#\nfor a in \"$@\"; do\n  if [ \"$a\" = -p ]; then skip=1; continue; fi\n  \
         if [ -n \"$skip\" ] && [ \"$a\" = 2222 ]; then skip=; continue; fi\n  skip=\n  \
         set -- \"$@\" \"$a\"\ndone\nshift \"$n\"\nexec {} -F {} \"$@\"\n",
        real.display(),
        config.display()
    );
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("dir");
    std::fs::write(bin.join("ssh"), wrapper).expect("write");
    std::fs::set_permissions(
        bin.join("ssh"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .expect("chmod");
    server
}

/// The moderator's key, `~/.ssh/id_ed25519` (comment `ton@laptop`, as the authorized keys
/// file and the host's audit name it): its file, public line and fingerprint.
fn moderator_key(home: &Path) -> (PathBuf, String, String) {
    let dir = home.join(".ssh");
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("id_ed25519");
    let made = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "ton@laptop", "-f"])
        .arg(&path)
        .status()
        .expect("ssh-keygen runs");
    assert!(made.success(), "ssh-keygen: {made:?}");
    let public = std::fs::read_to_string(path.with_extension("pub")).expect("public key");
    let listed = std::process::Command::new("ssh-keygen")
        .arg("-lf")
        .arg(path.with_extension("pub"))
        .output()
        .expect("ssh-keygen -l");
    let fingerprint = String::from_utf8_lossy(&listed.stdout)
        .split_whitespace()
        .nth(1)
        .expect("a fingerprint")
        .to_owned();
    (path, public, fingerprint)
}

/// The first `name` on the `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The files the examples read (`approvals.csv`, ...), copied into `dir`.
fn copy_files(dir: &Path) {
    let from = root().join("tests/suite/e2e/doc_files");
    for e in std::fs::read_dir(&from).expect("doc_files").flatten() {
        std::fs::copy(e.path(), dir.join(e.file_name())).expect("copy");
    }
}

/// True when an example of `list` runs `ssh`.
fn uses_ssh(list: &[Example]) -> bool {
    list.iter().any(|e| {
        e.command
            .split(|c: char| c.is_whitespace() || c == '|' || c == ';')
            .any(|w| w == "ssh")
    })
}

/// Runs `e` in `dir` with the demo's base URL and the moderator's credentials: its
/// standard output, standard error and exit code.
fn run(e: &Example, dir: &Path, url: &str, key: &str, token: &str) -> (String, String, i32) {
    let bin = Path::new(env!("CARGO_BIN_EXE_club-admin"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}:{}",
        dir.join("bin").display(),
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &e.command])
        .current_dir(dir)
        .env("PATH", path)
        .env("CLUB_ADMIN_BASE_URL", url)
        .env("CLUB_ADMIN_API_KEY", key)
        .env("CLUB_ADMIN_TOKEN", token)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir)
        .env("LANG", "C.UTF-8")
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("CLUB_ADMIN_LOG")
        .env_remove("JOURNAL_STREAM")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_console_example_of_the_manual_prints_what_it_says() {
    let mut ran = 0;
    let mut wrong = Vec::new();
    for file in files() {
        let name = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).expect("read");
        let list = examples(&name, &text);
        if list.is_empty() {
            continue;
        }
        let d = demo::start(DemoOptions::default()).await.expect("demo");
        let m = d.moderator();
        let (url, key, token) = (d.base_url.clone(), m.api_key.clone(), m.token.clone());
        let dir = tempfile::tempdir().expect("dir");
        copy_files(dir.path());
        let host = if uses_ssh(&list) {
            Some(ssh_host(&d, dir.path()).await)
        } else {
            None
        };
        for e in list {
            let dir = dir.path().to_path_buf();
            let (url, key, token) = (url.clone(), key.clone(), token.clone());
            let (e, (out, err, code)) = tokio::task::spawn_blocking(move || {
                let r = run(&e, &dir, &url, &key, &token);
                (e, r)
            })
            .await
            .expect("run");
            ran += 1;
            let (o, r): (Vec<&str>, Vec<&str>) = (out.lines().collect(), err.lines().collect());
            if code != e.code || !matches(&e.expected, &o, &r) {
                wrong.push(format!(
                    "{}:{}: $ {}\n--- expected (exit {}):\n{}\n--- printed (exit {code}):\n{out}--- on standard error:\n{err}",
                    e.file,
                    e.line,
                    e.command,
                    e.code,
                    e.expected.join("\n")
                ));
            }
        }
        if let Some(h) = host {
            h.stop().await;
        }
    }
    assert!(ran >= 5, "only {ran} console examples in the manual");
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn the_matcher_takes_wildcards_within_a_line_and_lines_with_dots() {
    let e = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(line_matches("id\t[..]", "id\tba929ed9"));
    assert!(line_matches("a [..] b [..] c", "a 1 b 2 c"));
    assert!(!line_matches("a [..] b", "a 1 c"));
    assert!(!line_matches("exact", "exact and more"));
    assert!(matches(
        &e(&["first", "...", "last"]),
        &["first", "x", "y", "last"],
        &[]
    ));
    assert!(matches(
        &e(&["first", "...", "last"]),
        &["first", "last"],
        &[]
    ));
    assert!(!matches(
        &e(&["first", "last"]),
        &["first", "x", "last"],
        &[]
    ));
    // Standard error's lines may come anywhere among the output's, in their own order.
    assert!(matches(&e(&["err", "a", "b"]), &["a", "b"], &["err"]));
    assert!(matches(&e(&["a", "b", "err"]), &["a", "b"], &["err"]));
    assert!(matches(&e(&["a", "...", "e2"]), &["a", "b"], &["e1", "e2"]));
    assert!(!matches(&e(&["b", "a", "err"]), &["a", "b"], &["err"]));
    assert!(!matches(&e(&["e2", "a", "e1"]), &["a"], &["e1", "e2"]));
    assert!(!matches(&e(&["a"]), &["a"], &["err"]));
    let got = examples(
        "x.md",
        "```console\n$ club-admin whoami\nid\t[..]\n? 2\n```\n```sh\n$ not this\n```\n",
    );
    assert_eq!(got.len(), 1);
    assert_eq!((got[0].line, got[0].code), (2, 2));
    assert_eq!(got[0].expected, ["id\t[..]"]);
}
