//! Configuration: flags > environment > config file > defaults; secrets from files; bad key
//! bindings and world-readable secrets reported.

use crate::common;

use std::collections::HashMap;
use std::io::Write;

use club_admin::config::{Flags, SecretFile, permission_warning, resolve};
use secrecy::ExposeSecret;

fn write(path: &std::path::Path, text: &str, mode: u32) {
    let mut f = std::fs::File::create(path).expect("create");
    f.write_all(text.as_bytes()).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    let _ = mode;
}

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k: &str| map.get(k).cloned()
}

#[test]
fn precedence_flags_env_file_defaults() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("config.toml");
    write(
        &cfg,
        "base_url = \"https://file.example\"\napi_key = \"mysk_file_key\"\nconcurrency = 3\nauto_refresh_secs = 30\nread_only = true\n",
        0o600,
    );
    let mut args = Flags {
        config: Some(cfg.clone()),
        ..Flags::default()
    };
    let s = resolve(&args, &env_of(&[]), None).expect("file only");
    assert_eq!(s.base_url, "https://file.example");
    assert_eq!(
        s.credentials
            .api_key
            .as_ref()
            .map(|k| k.expose_secret().to_owned())
            .as_deref(),
        Some("mysk_file_key")
    );
    assert_eq!(s.concurrency, 3);
    assert_eq!(s.auto_refresh, Some(std::time::Duration::from_secs(30)));
    assert!(s.read_only);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let env = env_of(&[
        ("CLUB_ADMIN_BASE_URL", "https://env.example"),
        ("CLUB_ADMIN_API_KEY", "mysk_env_key"),
        ("CLUB_ADMIN_TOKEN", "env.token.x"),
    ]);
    let s = resolve(&args, &env, None).expect("env over file");
    assert_eq!(s.base_url, "https://env.example");
    assert_eq!(
        s.credentials
            .api_key
            .as_ref()
            .map(|k| k.expose_secret().to_owned())
            .as_deref(),
        Some("mysk_env_key")
    );
    assert_eq!(
        s.credentials
            .token
            .as_ref()
            .map(|k| k.expose_secret().to_owned())
            .as_deref(),
        Some("env.token.x")
    );
    args.base_url = Some("https://flag.example".into());
    args.concurrency = Some(12);
    let keyf = dir.path().join("key");
    write(&keyf, "mysk_flag_key\n", 0o600);
    args.api_key_file = Some(keyf);
    let s = resolve(&args, &env, None).expect("flags over env");
    assert_eq!(s.base_url, "https://flag.example");
    assert_eq!(s.concurrency, 12);
    assert_eq!(
        s.credentials
            .api_key
            .as_ref()
            .map(|k| k.expose_secret().to_owned())
            .as_deref(),
        Some("mysk_flag_key")
    );
    let dbg = format!("{s:?}");
    assert!(
        !dbg.contains("mysk_flag_key") && !dbg.contains("env.token.x"),
        "settings Debug redacts secrets"
    );
}

#[test]
fn missing_base_url_is_explained() {
    let dir = tempfile::tempdir().expect("dir");
    let args = Flags {
        config: Some(dir.path().join("none.toml")),
        ..Flags::default()
    };
    let e = resolve(&args, &env_of(&[]), None).expect_err("explicit missing config file");
    assert!(e.contains("could not read config file"), "{e}");
    let cfg = dir.path().join("c.toml");
    write(&cfg, "", 0o600);
    let args = Flags {
        config: Some(cfg),
        ..Flags::default()
    };
    let e = resolve(&args, &env_of(&[]), None).expect_err("no url");
    assert!(
        e.contains("--base-url") && e.contains("club-admin demo"),
        "{e}"
    );
}

#[test]
fn unknown_config_keys_and_bad_bindings_stop_the_start() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("c.toml");
    write(
        &cfg,
        "base_url = \"https://x.example\"\nconcurency = 3\n",
        0o600,
    );
    let args = Flags {
        config: Some(cfg.clone()),
        ..Flags::default()
    };
    let e = resolve(&args, &env_of(&[]), None).expect_err("typo");
    assert!(e.contains("concurency"), "{e}");
    write(
        &cfg,
        "base_url = \"https://x.example\"\n[keys]\napprove = \"x\"\nfrobnicate = \"z\"\n",
        0o600,
    );
    // `[keys]` is carried as written; the dashboard's keymap refuses bad bindings, all listed.
    let s = resolve(&args, &env_of(&[]), None).expect("[keys] is checked by the dashboard");
    assert_eq!(s.key_overrides["frobnicate"], ["z"]);
    let e = club_admin::runtime::keymap(&s).expect_err("bad bindings");
    assert!(
        e.starts_with("bad key bindings in the config file:")
            && e.contains("frobnicate: no such action")
            && e.contains("bound to both approve and decline"),
        "{e}"
    );
    write(
        &cfg,
        "base_url = \"https://x.example\"\n[keys]\napprove = [\"A\", \"ctrl-a\"]\ndecline = \"X\"\n",
        0o600,
    );
    let s = resolve(&args, &env_of(&[]), None).expect("good bindings");
    assert_eq!(s.key_overrides["approve"], ["A", "ctrl-a"]);
    // The dashboard started with these bindings offers approve on `A` in its hint bar (to a
    // staff student, signed in: nothing is offered before the account is known).
    let m = common::loaded(
        common::ModelOptions {
            keymap: club_admin::runtime::keymap(&s).expect("good bindings"),
            ..common::options()
        },
        common::sample_rows(),
    );
    let bar = common::hint_bar(&m, 120);
    assert!(
        bar.contains("A approve") && bar.contains("X decline"),
        "{bar}"
    );
}

#[cfg(unix)]
#[test]
fn secrets_readable_by_others_are_reported() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("c.toml");
    write(
        &cfg,
        "base_url = \"https://x.example\"\napi_key = \"mysk_secret_in_file\"\n",
        0o644,
    );
    let tok = dir.path().join("token");
    write(&tok, "a.b.c", 0o640);
    let args = Flags {
        config: Some(cfg.clone()),
        token_file: Some(tok.clone()),
        ..Flags::default()
    };
    let s = resolve(&args, &env_of(&[]), None).expect("resolves");
    let all = s
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        all.contains("config file") && all.contains("chmod 600"),
        "{all}"
    );
    assert!(all.contains("token file"), "{all}");
    assert!(
        !all.contains("mysk_secret_in_file") && !all.contains("a.b.c"),
        "warnings name files, never secrets"
    );
    assert!(permission_warning(&tok, SecretFile::Token).is_some());
    write(&tok, "a.b.c", 0o600);
    assert!(permission_warning(&tok, SecretFile::Token).is_none());
}

#[test]
fn a_leading_tilde_is_the_home_directory() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("c.toml");
    write(
        &cfg,
        "base_url = \"https://x.example\"\ntoken_file = \"~/club-admin-token-test\"\n",
        0o600,
    );
    let args = Flags {
        config: Some(cfg),
        ..Flags::default()
    };
    let s = resolve(&args, &env_of(&[]), None).expect("resolves");
    let p = s.token_path.expect("token path");
    assert!(!p.starts_with("~"), "{}", p.display());
    assert!(p.ends_with("club-admin-token-test"));
    assert_eq!(
        club_admin::config::expand_home(std::path::Path::new("/abs/path")),
        std::path::PathBuf::from("/abs/path")
    );
}

#[test]
fn language_year_style_and_thai_keys() {
    use club_admin::i18n::Lang;
    use club_admin::i18n::dates::YearStyle;

    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("c.toml");
    write(&cfg, "base_url = \"https://x.example\"\n", 0o600);
    let mut args = Flags {
        config: Some(cfg.clone()),
        ..Flags::default()
    };
    // Defaults: English without a Thai locale, CE years in English, Thai keys on.
    let s = resolve(&args, &env_of(&[("LANG", "C.UTF-8")]), None).expect("defaults");
    assert_eq!(
        (s.lang, s.year_style, s.thai_keys),
        (Lang::English, YearStyle::Ce, true)
    );
    // The locale: Thai, and BE years by default in Thai.
    let thai_env = env_of(&[("LANG", "th_TH.UTF-8")]);
    let s = resolve(&args, &thai_env, None).expect("thai locale");
    assert_eq!((s.lang, s.year_style), (Lang::Thai, YearStyle::Be));
    let s = resolve(
        &args,
        &env_of(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "th_TH.UTF-8")]),
        None,
    )
    .expect("LC_ALL first");
    assert_eq!(s.lang, Lang::English);
    // The config file over the locale, the flag over the config file.
    write(
        &cfg,
        "base_url = \"https://x.example\"\nlanguage = \"en\"\nyear_style = \"be\"\nthai_keys = false\n",
        0o600,
    );
    let s = resolve(&args, &thai_env, None).expect("config");
    assert_eq!(
        (s.lang, s.year_style, s.thai_keys),
        (Lang::English, YearStyle::Be, false)
    );
    args.lang = Some("th".into());
    let s = resolve(&args, &env_of(&[]), None).expect("flag");
    assert_eq!(
        (s.lang, s.year_style),
        (Lang::Thai, YearStyle::Be),
        "--lang th"
    );
    write(
        &cfg,
        "base_url = \"https://x.example\"\nlanguage = \"th\"\nyear_style = \"ce\"\n",
        0o600,
    );
    args.lang = None;
    let s = resolve(&args, &env_of(&[]), None).expect("thai with CE years");
    assert_eq!((s.lang, s.year_style), (Lang::Thai, YearStyle::Ce));
    // Values the dashboard does not know stop the start, named.
    write(
        &cfg,
        "base_url = \"https://x.example\"\nlanguage = \"fr\"\n",
        0o600,
    );
    let e = resolve(&args, &env_of(&[]), None).expect_err("bad language");
    assert!(e.contains("language") && e.contains("\"fr\""), "{e}");
    write(
        &cfg,
        "base_url = \"https://x.example\"\nyear_style = \"ad\"\n",
        0o600,
    );
    let e = resolve(&args, &env_of(&[]), None).expect_err("bad year style");
    assert!(e.contains("year_style") && e.contains("\"ad\""), "{e}");
}

#[test]
fn lang_flag_takes_th_or_en() {
    use clap::Parser;
    use club_admin::cli::Cli;

    let cli = Cli::try_parse_from(["club-admin", "--lang", "th"]).expect("th");
    assert_eq!(cli.dashboard.lang.as_deref(), Some("th"));
    let cli = Cli::try_parse_from(["club-admin", "demo", "--lang", "en"]).expect("demo en");
    match cli.command {
        Some(club_admin::cli::Command::Demo(d)) => {
            assert_eq!(d.dashboard.lang.as_deref(), Some("en"))
        }
        other => panic!("not demo: {other:?}"),
    }
    let e = Cli::try_parse_from(["club-admin", "--lang", "fr"]).expect_err("fr");
    assert!(e.to_string().contains("th"), "{e}");
}

#[test]
fn the_example_config_parses_with_every_key_set() {
    // Every commented `key = value` line of the example, uncommented, is a valid config.
    let text = include_str!("../../../assets/config.example.toml");
    let mut lines = Vec::new();
    let mut in_keys = false;
    for line in text.lines() {
        if line.starts_with('[') {
            in_keys = true;
        }
        let body = line.trim_start_matches("# ");
        let is_setting = body
            .split_once(" = ")
            .is_some_and(|(k, _)| !k.contains(' ') && !k.is_empty());
        if line.starts_with("# ") && is_setting {
            // `api_key` and `api_key_file` are alternatives; keep the file one out too (it
            // must exist).
            if !body.starts_with("api_key") && !body.starts_with("token_file") {
                lines.push(body.split(" #").next().unwrap_or(body).to_owned());
            }
        } else if in_keys || line.starts_with('[') {
            lines.push(line.to_owned());
        }
    }
    let parsed: Result<club_admin::config::FileConfig, _> = toml::from_str(&lines.join("\n"));
    let cfg = parsed.expect("example config");
    assert_eq!(cfg.language.as_deref(), Some("th"));
    assert_eq!(cfg.year_style.as_deref(), Some("be"));
    assert_eq!(cfg.thai_keys, Some(true));
}

#[test]
fn numbers_out_of_bounds_are_refused_with_the_bound() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("c.toml");
    write(&cfg, "base_url = \"https://api.example.ac.th\"\n", 0o600);
    let with = |f: &dyn Fn(&mut Flags)| {
        let mut args = Flags {
            config: Some(cfg.clone()),
            ..Flags::default()
        };
        f(&mut args);
        resolve(&args, &env_of(&[]), None)
    };
    let e = with(&|a| a.concurrency = Some(0)).expect_err("concurrency 0");
    assert!(e.contains("concurrency must be between 1 and 64"), "{e}");
    let e = with(&|a| a.timeout = Some(0)).expect_err("timeout 0");
    assert!(e.contains("between 1 and 600"), "{e}");
    let e = with(&|a| a.auto_refresh = Some(3)).expect_err("auto-refresh 3");
    assert!(e.contains("between 5 and 86400"), "{e}");
    assert!(with(&|a| a.auto_refresh = Some(0)).is_ok(), "0 is off");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["serve-demo", "--failure-rate", "2"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a rate from 0.0 to 1.0"), "{err}");
}

/// Runs the binary with private config and state directories under `dir`, no `CLUB_ADMIN_*`
/// variable but those in `env`, and empty standard input. Killed after 30 s: a value taken
/// by mistake must not leave `serve-demo` or the dashboard running.
fn run_bin(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_club-admin"));
    cmd.args(args)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, _) in std::env::vars().filter(|(k, _)| k.starts_with("CLUB_ADMIN_")) {
        cmd.env_remove(k);
    }
    cmd.envs(env.iter().copied());
    let child = cmd.spawn().expect("spawn club-admin");
    let pid = child.id();
    // Awaited on a thread of its own; 30 s is only a guard against a hang.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(30)) {
        Ok(out) => out.expect("output"),
        Err(_) => {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
            let err = match rx.recv() {
                Ok(Ok(out)) => String::from_utf8_lossy(&out.stderr).into_owned(),
                _ => String::new(),
            };
            panic!("club-admin {args:?} still ran after 30 s: {err}");
        }
    }
}

#[test]
fn configuration_errors_exit_2_in_both_faces_before_the_terminal() {
    let dir = tempfile::tempdir().expect("dir");
    let good = dir.path().join("good.toml");
    write(&good, "base_url = \"https://api.example.ac.th\"\n", 0o600);
    let broken = dir.path().join("broken.toml");
    write(
        &broken,
        "base_url = [\"https://api.example.ac.th\"\n",
        0o600,
    );
    let keys = dir.path().join("keys.toml");
    write(
        &keys,
        "base_url = \"https://api.example.ac.th\"\n[keys]\nfrobnicate = \"z\"\napprove = \"x\"\n",
        0o600,
    );
    let (good, broken, keys) = (
        good.to_str().expect("utf-8"),
        broken.to_str().expect("utf-8"),
        keys.to_str().expect("utf-8"),
    );
    let env = [("CLUB_ADMIN_API_KEY", "mysk_config_test_key_0123")];
    let dashboard: &[&str] = &[];
    let demo: &[&str] = &["demo"];
    let script: &[&str] = &["requests", "list"];
    /// The arguments of a face (before the flags).
    type Face<'a> = &'a [&'a str];
    // (flags, the message, the faces it stops): the scripting subcommands have no keys.
    let cases: [(Vec<&str>, &str, Vec<Face>); 5] = [
        (
            vec!["--config", good, "--concurrency", "0"],
            "concurrency must be between 1 and 64, not 0",
            vec![dashboard, demo, script],
        ),
        (
            vec!["--config", good, "--timeout", "9999"],
            "timeout (seconds) must be between 1 and 600, not 9999",
            vec![dashboard, demo, script],
        ),
        (
            vec!["--config", good, "--decision-delay", "61"],
            "must be between 0 and 60, not 61",
            vec![dashboard, demo],
        ),
        (
            vec!["--config", broken],
            "config file",
            vec![dashboard, demo, script],
        ),
        (
            vec!["--config", keys],
            "bad key bindings in the config file:\n  ",
            vec![dashboard, demo],
        ),
    ];
    for (flags, words, faces) in cases {
        let mut said = Vec::new();
        for face in faces {
            let args: Vec<&str> = face.iter().chain(&flags).copied().collect();
            let out = run_bin(dir.path(), &args, &env);
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(
                stderr.starts_with("club-admin: ") && stderr.contains(words),
                "{args:?}: {stderr}"
            );
            assert!(
                out.stdout.is_empty() && !stderr.contains('\u{1b}'),
                "{args:?}: the terminal was touched"
            );
            assert!(!stderr.contains("mysk_config_test_key"), "{args:?}");
            said.push(stderr);
        }
        assert!(
            said.windows(2).all(|w| w[0] == w[1]),
            "the same words in every face: {said:?}"
        );
    }

    // The scripting subcommands do not read the keys: a dry run that needs no server goes
    // through.
    let out = run_bin(
        dir.path(),
        &[
            "clubs",
            "contact",
            "add",
            "6f1c2a3b-0000-4000-8000-000000000001",
            "--type",
            "line",
            "--value",
            "@robot_club",
            "--dry-run",
            "--config",
            keys,
        ],
        &[],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Other failures of the dashboard keep exit code 1.
    let out = run_bin(dir.path(), &["--config", good], &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("standard output is not a terminal"),
        "{stderr}"
    );
    let missing = dir.path().join("no-such-ids.txt");
    let missing = missing.to_str().expect("utf-8");
    let out = run_bin(
        dir.path(),
        &["--config", good, "--queue-file", missing],
        &env,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("could not read --queue-file"), "{stderr}");
}

#[test]
fn numeric_demo_flags_name_their_bound_even_when_negative() {
    let dir = tempfile::tempdir().expect("dir");
    for face in ["serve-demo", "demo"] {
        for flag in ["--failure-rate", "--drop-rate", "--drop-after-write-rate"] {
            for (value, words) in [
                ("-0.1", "-0.1 is not a rate from 0.0 to 1.0"),
                ("1.5", "1.5 is not a rate from 0.0 to 1.0"),
                ("often", "often is not a rate from 0.0 to 1.0"),
            ] {
                let out = run_bin(dir.path(), &[face, flag, value], &[]);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert_eq!(
                    out.status.code(),
                    Some(2),
                    "{face} {flag} {value}: {stderr}"
                );
                assert!(
                    stderr.contains(words) && !stderr.contains("unexpected argument"),
                    "{face} {flag} {value}: {stderr}"
                );
            }
        }
    }
    for args in [
        &["serve-demo", "--latency-ms", "-5"][..],
        &["serve-demo", "--jitter-ms", "-1"],
        &["serve-demo", "--port", "-80"],
        &["serve-demo", "--extra-requests", "-3"],
        &["demo", "--latency-ms", "-5"],
        &["requests", "list", "--concurrency", "-2"],
        &["--timeout", "-1"],
        &["--auto-refresh", "-30"],
        &["demo", "--decision-delay", "-1"],
    ] {
        let out = run_bin(dir.path(), args, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let value = args[args.len() - 1];
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{value} is negative: give 0 or more")),
            "{args:?}: {stderr}"
        );
    }
    let out = run_bin(dir.path(), &["serve-demo", "--latency-ms", "1.5"], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("1.5 is not a whole number"), "{stderr}");
}

/// The queue refreshes itself by default (every 30 s), for the dashboard and every
/// `serve-ssh` session: `--auto-refresh N` sets it, 0 turns it off, under 5 is refused; and
/// the host budget is on by default (12), `--host-budget 0` turns it off.
#[test]
fn the_queue_refreshes_itself_and_the_host_budget_is_on_unless_turned_off() {
    use clap::Parser;
    use club_admin::cli::{Cli, Command};
    let dir = tempfile::tempdir().expect("dir");
    let none = dir.path().join("none.toml");
    write(&none, "", 0o600);
    let flags = |auto_refresh, host_budget| Flags {
        base_url: Some("http://127.0.0.1:9".into()),
        config: Some(none.clone()),
        auto_refresh,
        host_budget,
        ..Flags::default()
    };
    let s = resolve(&flags(None, None), &env_of(&[]), None).expect("defaults");
    assert_eq!(s.auto_refresh, Some(std::time::Duration::from_secs(30)));
    assert_eq!(s.client.host_budget.as_ref().map(|b| b.slots), Some(12));
    let s = resolve(&flags(Some(0), Some(0)), &env_of(&[]), None).expect("off");
    assert_eq!(s.auto_refresh, None);
    assert!(s.client.host_budget.is_none());
    let s = resolve(
        &flags(Some(7), None),
        &env_of(&[("CLUB_ADMIN_HOST_BUDGET", "3")]),
        None,
    )
    .expect("set");
    assert_eq!(s.auto_refresh, Some(std::time::Duration::from_secs(7)));
    assert_eq!(s.client.host_budget.as_ref().map(|b| b.slots), Some(3));
    assert!(resolve(&flags(Some(2), None), &env_of(&[]), None).is_err());
    // serve-ssh takes it too.
    let key = dir.path().join("host_key");
    let cli = Cli::try_parse_from([
        "club-admin",
        "serve-ssh",
        "--allow-any-key",
        "--host-key",
        key.to_str().expect("path"),
        "--auto-refresh",
        "7",
    ])
    .expect("serve-ssh");
    let Some(Command::ServeSsh(a)) = cli.command else {
        panic!("serve-ssh parsed as another command");
    };
    assert_eq!(a.auto_refresh, Some(7));
}

#[test]
fn serve_ssh_takes_its_settings_from_the_config_files_table_and_a_flag_wins() {
    use clap::Parser;
    use club_admin::cli::Cli;
    use std::path::Path;
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("serve-ssh.toml");
    std::fs::write(
        &path,
        "[serve_ssh]\nlisten = \"0.0.0.0:2200\"\nauthorized_keys = \"/srv/keys\"\n\
         host_key = \"/srv/host_key\"\nstatus_socket = \"/srv/s.sock\"\nmax_sessions = 7\n\
         max_sessions_per_key = 2\nidle_minutes = 5\nreattach_minutes = 1\n\
         state_dir = \"/srv/state\"\nremember_tokens = true\n",
    )
    .expect("write");
    let (file, _) = club_admin::config::load_file(Some(&path), true).expect("load");
    let parse =
        |args: &[&str]| match Cli::try_parse_from(["club-admin", "serve-ssh"].iter().chain(args))
            .expect("parse")
            .command
        {
            Some(club_admin::cli::Command::ServeSsh(a)) => a,
            other => panic!("not serve-ssh: {other:?}"),
        };
    let o = parse(&[]).options(&file.serve_ssh).expect("options");
    assert_eq!(o.listen.to_string(), "0.0.0.0:2200");
    assert_eq!(o.authorized_keys.as_deref(), Some(Path::new("/srv/keys")));
    assert_eq!(o.host_key, Path::new("/srv/host_key"));
    assert_eq!(o.status_socket.as_deref(), Some(Path::new("/srv/s.sock")));
    assert_eq!(o.limits.max_sessions, 7);
    assert_eq!(o.limits.max_sessions_per_key, 2);
    assert_eq!(o.limits.idle_timeout, Duration::from_secs(300));
    assert_eq!(o.reattach, Duration::from_secs(60));
    assert_eq!(
        o.remember_tokens.as_deref(),
        Some(Path::new("/srv/state/ssh-tokens"))
    );
    // A flag wins over its key; the state folder gives the defaults the file leaves out.
    let o = parse(&["--listen", "127.0.0.1:2201", "--max-sessions", "9"])
        .options(&file.serve_ssh)
        .expect("options");
    assert_eq!(o.listen.to_string(), "127.0.0.1:2201");
    assert_eq!(o.limits.max_sessions, 9);
    let bare = club_admin::config::ServeSshFile {
        state_dir: Some("/srv/state".into()),
        ..Default::default()
    };
    let o = parse(&[]).options(&bare).expect("options");
    assert_eq!(o.host_key, Path::new("/srv/state/ssh_host_ed25519_key"));
    assert_eq!(
        o.status_socket.as_deref(),
        Some(Path::new("/srv/state/serve-ssh.sock"))
    );
    assert_eq!(o.listen.to_string(), "127.0.0.1:2222");
    // --allow-any-key leaves the file's keys aside; a 0 from the file is refused as the flag's.
    let o = parse(&["--allow-any-key"])
        .options(&file.serve_ssh)
        .expect("options");
    assert_eq!(o.authorized_keys, None);
    let zero = club_admin::config::ServeSshFile {
        max_sessions: Some(0),
        ..Default::default()
    };
    let e = parse(&[]).options(&zero).expect_err("0 sessions");
    assert!(e.contains("--max-sessions 0"), "{e}");
    // An unknown key in the table is named.
    std::fs::write(&path, "[serve_ssh]\nlisten_on = \"0.0.0.0:22\"\n").expect("write");
    let e = club_admin::config::load_file(Some(&path), true).expect_err("unknown key");
    assert!(e.contains("listen_on"), "{e}");
}

#[test]
fn serve_ssh_check_reads_the_state_folder_from_the_config_file() {
    // `serve-ssh --check --config FILE` names the state folder the file gives, not
    // $XDG_STATE_HOME's (the package's unit sets no XDG_STATE_HOME).
    let dir = tempfile::tempdir().expect("tempdir");
    let state = dir.path().join("state");
    let path = dir.path().join("serve-ssh.toml");
    std::fs::write(
        &path,
        format!(
            "base_url = \"http://127.0.0.1:9\"\napi_key = \"k\"\ntimeout_secs = 1\n[serve_ssh]\nstate_dir = {:?}\n",
            state.display().to_string()
        ),
    )
    .expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["serve-ssh", "--check", "--allow-any-key", "--config"])
        .arg(&path)
        .env("XDG_STATE_HOME", dir.path().join("xdg"))
        .env("HOME", dir.path())
        .env_remove("JOURNAL_STREAM")
        .output()
        .expect("run");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("the state folder {}", state.display())),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains(&state.join("ssh_host_ed25519_key").display().to_string()),
        "{said}"
    );
    assert!(!said.contains("/xdg/"), "{said}");
}

/// A base URL with a character no URL is typed with (a line separator pasted with it, a
/// control character, a space, an invisible mark) is refused at start, by the real binary,
/// naming the character and where it is; before, the parser percent-encoded it into the path
/// and every call was answered "Route not found".
#[test]
fn a_base_url_with_a_line_separator_or_control_character_is_refused_at_start() {
    let dir = tempfile::tempdir().expect("dir");
    let env = [("CLUB_ADMIN_API_KEY", "mysk_config_test_key_0123")];
    for (url, words) in [
        (
            "http://127.0.0.1:9/api\u{2028}v1",
            "U+2028 (a line separator) at character 23",
        ),
        (
            "http://127.0.0.1:9/\u{1b}[0m",
            "U+001B (a control character)",
        ),
        (
            "https://api.example\u{200B}.ac.th",
            "U+200B (an invisible character)",
        ),
        ("https://api.example.ac.th/a b", "U+0020 (a space)"),
    ] {
        for face in [&["requests", "list"][..], &["whoami"][..]] {
            let mut args = vec!["--base-url", url];
            args.extend_from_slice(face);
            let out = run_bin(dir.path(), &args, &env);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{url:?} {face:?}: {err}");
            assert!(err.contains(words), "{url:?}: {err}");
            assert!(!err.contains("Route not found"), "{err}");
        }
    }
    // Through the environment and the config file too (the same check in `resolve`).
    let flags = Flags::default();
    let e = resolve(
        &flags,
        &env_of(&[("CLUB_ADMIN_BASE_URL", "https://api.example.ac.th\u{2029}/x")]),
        None,
    )
    .expect_err("refused");
    assert!(e.contains("U+2029 (a paragraph separator)"), "{e}");
    // Spaces around it are trimmed, as before.
    let s = resolve(
        &flags,
        &env_of(&[("CLUB_ADMIN_BASE_URL", " https://api.example.ac.th/ ")]),
        None,
    )
    .expect("a good URL");
    assert_eq!(s.base_url, "https://api.example.ac.th/");
}

/// A symbolic link given as `--log-file` is not followed, and that is said at start on
/// standard error (the manual: "said on standard error at start"); the run goes on without
/// a log and the link's target is left as it was.
#[test]
fn a_log_file_that_is_a_symbolic_link_is_said_at_start() {
    let dir = tempfile::tempdir().expect("dir");
    let target = dir.path().join("someone-elses-file");
    std::fs::write(&target, "keep\n").expect("target");
    let link = dir.path().join("club-admin.log");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let link_text = link.to_str().expect("utf-8");
    let env = [("CLUB_ADMIN_API_KEY", "mysk_config_test_key_0123")];
    let out = run_bin(
        dir.path(),
        &[
            "--log-file",
            link_text,
            "--base-url",
            "http://127.0.0.1:9",
            "whoami",
        ],
        &env,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "club-admin: warning: no log: the log file {link_text} is a symbolic link, which is never followed"
        )),
        "{err}"
    );
    assert_eq!(err.matches("no log:").count(), 1, "said once: {err}");
    assert_eq!(
        std::fs::read_to_string(&target).ok().as_deref(),
        Some("keep\n")
    );
    // A plain file there: nothing said.
    std::fs::remove_file(&link).expect("rm");
    let out = run_bin(
        dir.path(),
        &[
            "--log-file",
            link_text,
            "--base-url",
            "http://127.0.0.1:9",
            "whoami",
        ],
        &env,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("no log"), "{err}");
    assert!(link.is_file(), "the log is made");
}
