//! `club-admin history`: the audit file read back by the real binary, one row per write,
//! with its filters and formats, and a row for an interrupted run's write settled by the
//! next run (the binary's own settlement at start against the demo server).

use std::path::{Path, PathBuf};
use std::process::Stdio;

use club_admin::api::{Levels, MembershipStatus};
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::ops::history::{self, End, Filter};
use club_admin::ops::{AuditEntry, Outcome};
use serde_json::Value;
use uuid::Uuid;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with a private state directory `home` (its audit file is
/// `home/state/club-admin/audit.jsonl`), on `d` as its moderator when given.
async fn run(home: &Path, d: Option<&DemoHandle>, args: &[&str]) -> Out {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_club-admin"));
    cmd.args(args)
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env_remove("CLUB_ADMIN_API_KEY")
        .env_remove("CLUB_ADMIN_TOKEN")
        .env_remove("CLUB_ADMIN_BASE_URL")
        .env("COLUMNS", "200")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = d {
        let u = d.moderator();
        cmd.env("CLUB_ADMIN_BASE_URL", &d.base_url)
            .env("CLUB_ADMIN_API_KEY", &u.api_key)
            .env("CLUB_ADMIN_TOKEN", &u.token);
    }
    let out = cmd.output().await.expect("run club-admin");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn audit_of(home: &Path) -> PathBuf {
    home.join("state").join("club-admin").join("audit.jsonl")
}

#[allow(clippy::too_many_arguments)]
fn line(
    at: &str,
    user: &str,
    action: &str,
    target: Uuid,
    outcome: Outcome,
    run: &str,
    value: Option<&str>,
    via: &str,
) -> String {
    let e = AuditEntry {
        at: chrono::DateTime::parse_from_rfc3339(at)
            .expect("time")
            .with_timezone(&chrono::Utc),
        server: "http://127.0.0.1:1".into(),
        user: Some(user.into()),
        action: action.into(),
        target,
        outcome,
        detail: (outcome == Outcome::Failed)
            .then(|| "Club request has already been declined".into()),
        value: value.map(str::to_owned),
        via: Some(via.into()),
        key: None,
        key_comment: None,
        run: Some(run.into()),
        session: None,
        carried: None,
        settled_by: None,
        label: None,
    };
    serde_json::to_string(&e).expect("json")
}

/// A file of four writes by two moderators over two days, one lost and settled, one left
/// open, one taken back, one a Thai contact; and a line cut by a crash.
fn sample(dir: &Path) -> (PathBuf, [Uuid; 5]) {
    let ids = [1u128, 2, 3, 4, 5].map(Uuid::from_u128);
    let ton = "ton.jaidee@student.school.example";
    let por = "por@student.school.example";
    // A moderator whose address is Thai (an internationalised e-mail): the table aligns it.
    let thai = "ครูสมศรี@โรงเรียน.example";
    let lines = [
        line(
            "2026-11-20T08:00:00Z",
            ton,
            "approve",
            ids[0],
            Outcome::Sending,
            "r1",
            None,
            "ssh",
        ),
        line(
            "2026-11-20T08:00:01Z",
            ton,
            "approve",
            ids[0],
            Outcome::Unknown,
            "r1",
            None,
            "ssh",
        ),
        line(
            "2026-11-20T08:00:05Z",
            ton,
            "approve",
            ids[0],
            Outcome::Ok,
            "r1",
            None,
            "ssh",
        ),
        line(
            "2026-11-20T09:00:00Z",
            por,
            "decline",
            ids[1],
            Outcome::Sending,
            "r2",
            None,
            "cli",
        ),
        "{\"at\":\"2026-11-20T09:00:0".to_owned(),
        line(
            "2026-11-21T10:00:00Z",
            por,
            "approve",
            ids[2],
            Outcome::Undone,
            "r2",
            None,
            "cli",
        ),
        line(
            "2026-11-21T11:00:00Z",
            thai,
            "add-contact",
            ids[3],
            Outcome::Sending,
            "r3",
            Some("line @ชุมนุมหุ่นยนต์"),
            "dashboard",
        ),
        line(
            "2026-11-21T11:00:01Z",
            thai,
            "add-contact",
            ids[3],
            Outcome::Ok,
            "r3",
            Some("line @ชุมนุมหุ่นยนต์"),
            "dashboard",
        ),
        line(
            "2026-11-21T12:00:00Z",
            por,
            "approve",
            ids[4],
            Outcome::Sending,
            "r4",
            None,
            "ssh",
        ),
        line(
            "2026-11-21T12:00:01Z",
            por,
            "approve",
            ids[4],
            Outcome::Failed,
            "r4",
            None,
            "ssh",
        ),
    ];
    let path = dir.join("audit.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    (path, ids)
}

#[test]
fn the_core_folds_each_write_into_one_row_with_its_final_outcome() {
    let dir = tempfile::tempdir().expect("dir");
    let (path, ids) = sample(dir.path());
    let h = history::read(&path).expect("read");
    assert_eq!(h.skipped, 1, "the cut line is passed over and counted");
    let got: Vec<(Uuid, Outcome, usize)> = h
        .rows
        .iter()
        .map(|r| (r.target, r.outcome, r.lines))
        .collect();
    assert_eq!(
        got,
        vec![
            (ids[0], Outcome::Ok, 3),
            (ids[1], Outcome::Sending, 1),
            (ids[2], Outcome::Undone, 1),
            (ids[3], Outcome::Ok, 2),
            (ids[4], Outcome::Failed, 2),
        ]
    );
    assert!(h.rows[1].is_open() && !h.rows[0].settled_after_crash);
    let keep = |f: Filter| -> Vec<Uuid> {
        h.rows
            .iter()
            .filter(|r| f.keeps(r))
            .map(|r| r.target)
            .collect()
    };
    let por = Filter {
        moderator: Some("POR@".into()),
        ..Filter::default()
    };
    assert_eq!(keep(por), vec![ids[1], ids[2], ids[4]]);
    let day = |t: &str, end| history::parse_time(t, chrono::Local::now(), end).expect("time");
    let since = Filter {
        since: Some(day("2026-11-21T00:00:00Z", End::Start)),
        ..Filter::default()
    };
    assert_eq!(keep(since), vec![ids[2], ids[3], ids[4]]);
    let ok = Filter {
        outcomes: vec![Outcome::Ok],
        until: Some(day("2026-11-20T23:00:00Z", End::End)),
        ..Filter::default()
    };
    assert_eq!(keep(ok), vec![ids[0]]);
}

#[test]
fn times_are_read_as_a_moderator_writes_them() {
    let now = chrono::Local::now();
    let t = |s: &str| history::parse_time(s, now, End::Start);
    let back = |s: &str| (now.with_timezone(&chrono::Utc) - t(s).expect(s)).num_seconds();
    assert_eq!(back("2h"), 7200);
    assert_eq!(back("30m"), 1800);
    assert_eq!(back("7d"), 7 * 86400);
    let today = t("today").expect("today");
    let yesterday = t("yesterday").expect("yesterday");
    assert_eq!(
        (today - yesterday).num_hours(),
        24,
        "local days (no DST in CI's zone)"
    );
    assert!(today <= now.with_timezone(&chrono::Utc));
    let until = history::parse_time("2026-11-20", now, End::End).expect("date");
    let from = t("2026-11-20").expect("date");
    assert_eq!(
        (until - from).num_hours(),
        24,
        "--until a date keeps that day"
    );
    assert_eq!(
        t("2026-11-20T08:00:00+07:00")
            .expect("rfc3339")
            .to_rfc3339(),
        "2026-11-20T01:00:00+00:00"
    );
    for bad in ["soon", "2h30", "-2h", "2026-13-01"] {
        let e = t(bad).expect_err(bad);
        assert!(e.contains("today, yesterday"), "{e}");
    }
    assert!(history::parse_outcome("OK").is_ok());
    assert!(
        history::parse_outcome("done")
            .expect_err("no")
            .contains("already")
    );
}

#[tokio::test]
async fn the_binary_filters_and_writes_json_csv_and_an_aligned_table() {
    let home = tempfile::tempdir().expect("dir");
    let (path, ids) = sample(home.path());
    let p = path.to_str().expect("utf-8");
    let json = run(
        home.path(),
        None,
        &[
            "history",
            "--audit",
            p,
            "--format",
            "json",
            "--moderator",
            "ton",
            "--since",
            "2026-11-20",
        ],
    )
    .await;
    assert_eq!(json.code, 0, "{}", json.stderr);
    let rows: Vec<Value> = serde_json::from_str(&json.stdout).expect("json");
    let targets: Vec<&str> = rows.iter().filter_map(|r| r["target"].as_str()).collect();
    assert_eq!(targets, vec![ids[0].to_string()]);
    assert_eq!(rows[0]["outcome"], "ok");
    assert_eq!(rows[0]["lines"], 3);
    assert!(json.stderr.contains("1 lines of"), "{}", json.stderr);

    let one = run(
        home.path(),
        None,
        &[
            "history",
            "--audit",
            p,
            "--format",
            "csv",
            "--request",
            &ids[1].to_string(),
            "--outcome",
            "sending",
        ],
    )
    .await;
    assert_eq!(one.code, 0, "{}", one.stderr);
    let mut r = csv::Reader::from_reader(one.stdout.as_bytes());
    let header: Vec<String> = r
        .headers()
        .expect("header")
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header[..3], ["at", "settled_at", "server"]);
    let recs: Vec<csv::StringRecord> = r.records().map(|x| x.expect("record")).collect();
    assert_eq!(recs.len(), 1);
    assert_eq!(&recs[0][6], ids[1].to_string());
    assert_eq!(&recs[0][8], "sending");

    let table = run(
        home.path(),
        None,
        &["history", "--audit", p, "--format", "table"],
    )
    .await;
    assert_eq!(table.code, 0, "{}", table.stderr);
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", table.stdout);
    // Every row's OUTCOME column starts at the same display column, the Thai one's too.
    let col = |l: &str| {
        let at = l
            .find("ok")
            .or_else(|| l.find("sending"))
            .or_else(|| l.find("undone"))
            .or_else(|| l.find("failed"))
            .or_else(|| l.find("OUTCOME"))
            .expect(l);
        club_admin::text::width(&l[..at])
    };
    let cols: Vec<usize> = lines.iter().map(|l| col(l)).collect();
    assert!(
        cols.iter().all(|c| *c == cols[0]),
        "{cols:?}\n{}",
        table.stdout
    );
    // DETAIL comes after the Thai contact value whole.
    assert!(table.stdout.contains("line @ชุมนุมหุ่นยนต์"), "{}", table.stdout);

    for bad in [
        vec!["--since", "soon"],
        vec!["--outcome", "done"],
        vec!["--request", "nope"],
    ] {
        let mut args = vec!["history", "--audit", p];
        args.extend(bad.iter().copied());
        let o = run(home.path(), None, &args).await;
        assert_eq!(o.code, 2, "{args:?}: {}", o.stderr);
    }
}

/// A killed run's approval that the server applied, settled by the next command of the
/// same user: the history shows it approved and settled after a crash; the next run's own
/// approval is a row of its own.
#[tokio::test]
async fn an_interrupted_runs_write_settled_later_is_one_row_with_its_settled_outcome() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let pending = d.pending_for("moderator");
    let (landed, next) = (pending[0], pending[1]);
    let u = d.moderator();
    let client = crate::common::client_as(&d, u);
    // The killed run's write reached the server; its answer never reached the run.
    client
        .update_club_request(landed, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect("approved");
    let home = tempfile::tempdir().expect("dir");
    let audit = audit_of(home.path());
    std::fs::create_dir_all(audit.parent().expect("dir")).expect("mkdir");
    let mut sending = serde_json::from_str::<AuditEntry>(&line(
        "2026-11-20T08:00:00Z",
        &u.email,
        "approve",
        landed,
        Outcome::Sending,
        "killed-run",
        None,
        "cli",
    ))
    .expect("entry");
    sending.server = d.base_url.trim_end_matches('/').to_owned();
    std::fs::write(
        &audit,
        serde_json::to_string(&sending).expect("json") + "\n",
    )
    .expect("write");

    let approve = run(
        home.path(),
        Some(&d),
        &["requests", "approve", &next.to_string()],
    )
    .await;
    assert_eq!(approve.code, 0, "{}", approve.stderr);
    assert!(
        approve
            .stderr
            .contains("1 write of an interrupted run: 1 approved"),
        "{}",
        approve.stderr
    );

    let out = run(home.path(), None, &["history", "--format", "json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<Value> = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(rows.len(), 2, "{}", out.stdout);
    assert_eq!(rows[0]["target"], landed.to_string());
    assert_eq!(rows[0]["outcome"], "ok");
    assert_eq!(rows[0]["settled_after_crash"], true);
    assert_eq!(rows[0]["run"], "killed-run");
    assert_eq!(rows[0]["lines"], 2);
    assert_eq!(rows[1]["target"], next.to_string());
    assert_eq!(rows[1]["settled_after_crash"], false);

    let table = run(
        home.path(),
        None,
        &["history", "--since", "2026-11-19", "--outcome", "ok"],
    )
    .await;
    assert!(
        table.stdout.contains("ok, settled after a crash"),
        "{}",
        table.stdout
    );
    for o in [&approve, &out, &table] {
        assert!(!o.stdout.contains(&u.token) && !o.stderr.contains(&u.api_key));
    }

    // --club: the writes to that club's requests, as the service lists them, and no other.
    let club_of = |id: Uuid| {
        let client = &client;
        async move {
            let r = client
                .club_request(id, Levels::REQUEST_ROW)
                .await
                .expect("read");
            r.data.club.expect("its club").id
        }
    };
    let taken = [club_of(landed).await, club_of(next).await];
    let other = d
        .club_ids()
        .into_iter()
        .find(|c| !taken.contains(c))
        .expect("another club");
    let joined = d.join(d.student_ids()[0], other).expect("a new request");
    let mut undone = sending.clone();
    (undone.target, undone.outcome, undone.run) = (joined, Outcome::Undone, Some("r9".into()));
    let mut text = std::fs::read_to_string(&audit).expect("audit");
    text.push_str(&(serde_json::to_string(&undone).expect("json") + "\n"));
    std::fs::write(&audit, text).expect("append");
    let other_text = other.to_string();
    let by_club = run(
        home.path(),
        Some(&d),
        &["history", "--club", &other_text, "--format", "json"],
    )
    .await;
    assert_eq!(by_club.code, 0, "{}", by_club.stderr);
    let rows: Vec<Value> = serde_json::from_str(&by_club.stdout).expect("json");
    let targets: Vec<&str> = rows.iter().filter_map(|r| r["target"].as_str()).collect();
    assert_eq!(targets, vec![joined.to_string()], "{}", by_club.stdout);
    let mine = taken[0].to_string();
    let by_club = run(
        home.path(),
        Some(&d),
        &["history", "--club", &mine, "--format", "json"],
    )
    .await;
    let rows: Vec<Value> = serde_json::from_str(&by_club.stdout).expect("json");
    assert!(
        rows.iter().any(|r| r["target"] == landed.to_string()),
        "{}",
        by_club.stdout
    );
    assert!(rows.iter().all(|r| r["target"] != joined.to_string()));
}

#[tokio::test]
async fn a_serve_ssh_write_is_named_by_its_keys_comment_in_every_format() {
    let home = tempfile::tempdir().expect("dir");
    let id = Uuid::from_u128(7);
    // A `serve-ssh` session's approval before its user was known: the key's fingerprint and
    // its comment in the authorized keys file, no e-mail.
    let entry = |at: &str, outcome: Outcome| AuditEntry {
        at: chrono::DateTime::parse_from_rfc3339(at)
            .expect("time")
            .with_timezone(&chrono::Utc),
        server: "http://127.0.0.1:1".into(),
        user: None,
        action: "approve".into(),
        target: id,
        outcome,
        detail: None,
        value: None,
        via: Some("ssh".into()),
        key: Some("SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG".into()),
        key_comment: Some("alice@phone".into()),
        run: Some("r9".into()),
        session: None,
        carried: None,
        settled_by: None,
        label: None,
    };
    let path = home.path().join("audit.jsonl");
    let text: String = [
        entry("2026-11-22T08:00:00Z", Outcome::Sending),
        entry("2026-11-22T08:00:01Z", Outcome::Ok),
    ]
    .iter()
    .map(|e| serde_json::to_string(e).expect("json") + "\n")
    .collect();
    std::fs::write(&path, text).expect("write");
    let p = path.to_str().expect("utf-8");
    let table = run(home.path(), None, &["history", "--audit", p]).await;
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("alice@phone") && !table.stdout.contains("SHA256:"),
        "the moderator is the key's comment: {}",
        table.stdout
    );
    let csv = run(
        home.path(),
        None,
        &["history", "--audit", p, "--format", "csv"],
    )
    .await;
    let mut lines = csv.stdout.lines();
    let header = lines.next().unwrap_or_default();
    assert!(
        header.ends_with(",detail,key_comment,label,lines,session"),
        "{header}"
    );
    let row = lines.next().unwrap_or_default();
    assert!(row.contains(",alice@phone,"), "{row}");
    // `--moderator` finds it by a part of the comment, without case.
    let found = run(
        home.path(),
        None,
        &[
            "history",
            "--audit",
            p,
            "--format",
            "json",
            "--moderator",
            "ALICE",
        ],
    )
    .await;
    let rows: Vec<Value> = serde_json::from_str(&found.stdout).expect("json");
    assert_eq!(rows.len(), 1, "{}", found.stdout);
    assert_eq!(rows[0]["key_comment"], "alice@phone");
    assert_eq!(rows[0]["outcome"], "ok");
}

#[test]
fn the_shared_last_read_follows_the_file_as_it_grows() {
    let home = tempfile::tempdir().expect("dir");
    let (path, ids) = sample(home.path());
    let shared = history::RecentRows::default();
    let first = shared.read(&path, 1024 * 1024).expect("read");
    let again = shared.read(&path, 1024 * 1024).expect("read");
    assert!(
        std::sync::Arc::ptr_eq(&first, &again),
        "an unchanged file: the same rows, one copy for every session"
    );
    // The file's rows, newest first.
    let mut whole = history::read_recent(&path, 1024 * 1024).expect("read").rows;
    whole.sort_by_key(|r| std::cmp::Reverse(r.settled_at));
    assert_eq!(&first[..], &whole[..]);
    assert!(first.windows(2).all(|w| w[0].settled_at >= w[1].settled_at));
    // Another session's write lands: the next read has it.
    let more = line(
        "2026-11-23T08:00:00Z",
        "por@student.school.example",
        "delete",
        ids[4],
        Outcome::Ok,
        "r7",
        None,
        "ssh",
    );
    let mut text = std::fs::read_to_string(&path).expect("read");
    text.push_str(&more);
    text.push('\n');
    std::fs::write(&path, text).expect("write");
    let grown = shared.read(&path, 1024 * 1024).expect("read");
    assert_eq!(grown.len(), first.len() + 1, "the new write is a row");
    assert!(
        grown
            .iter()
            .any(|r| r.action == "delete" && r.target == ids[4])
    );
    // A smaller window of the same file is a read of its own.
    let tail = shared.read(&path, 200).expect("read");
    assert!(tail.len() < grown.len(), "{} rows", tail.len());
}

/// `history --host` reads the host's `serve-ssh` config (here `--config`, as the unit names
/// it): the audit in its state folder, and `--club NAME` resolved on the service it names
/// with its API key (the token is the user's own), not asking for `--base-url`; `--json`
/// as every other subcommand takes it.
#[tokio::test]
async fn history_host_resolves_the_club_through_the_host_s_config() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let u = d.moderator();
    let target = d.pending_for("moderator")[0];
    let client = crate::common::client_as(&d, u);
    let club = client
        .club_request(target, Levels::REQUEST_ROW)
        .await
        .expect("read")
        .data
        .club
        .expect("its club");
    let name = club
        .name
        .as_ref()
        .and_then(|n| n.best())
        .expect("a name")
        .to_owned();
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("host-state");
    std::fs::create_dir_all(&state).expect("mkdir");
    let mut entry = serde_json::from_str::<AuditEntry>(&line(
        "2026-11-20T08:00:00Z",
        &u.email,
        "approve",
        target,
        Outcome::Ok,
        "r1",
        None,
        "ssh",
    ))
    .expect("entry");
    entry.server = d.base_url.trim_end_matches('/').to_owned();
    let mut other = entry.clone();
    other.target = Uuid::from_u128(77);
    let text = [&entry, &other]
        .iter()
        .map(|e| serde_json::to_string(e).expect("json") + "\n")
        .collect::<String>();
    std::fs::write(state.join("audit.jsonl"), text).expect("audit");
    let key = dir.path().join("api_key");
    std::fs::write(&key, format!("{}\n", u.api_key)).expect("key");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let config = dir.path().join("serve-ssh.toml");
    std::fs::write(
        &config,
        format!(
            "base_url = {:?}\napi_key_file = {:?}\n\n[serve_ssh]\nstate_dir = {:?}\n",
            d.base_url,
            key.display().to_string(),
            state.display().to_string()
        ),
    )
    .expect("config");
    let home = dir.path().join("home");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_club-admin"))
        .args(["history", "--host", "--config"])
        .arg(&config)
        .args(["--club", &name, "--json"])
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env_remove("CLUB_ADMIN_API_KEY")
        .env_remove("CLUB_ADMIN_BASE_URL")
        .env("CLUB_ADMIN_TOKEN", &u.token)
        .stdin(Stdio::null())
        .output()
        .await
        .expect("run club-admin");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("--base-url"), "{stderr}");
    let rows: Vec<Value> = serde_json::from_str(&stdout).expect("json");
    let targets: Vec<&str> = rows.iter().filter_map(|r| r["target"].as_str()).collect();
    assert_eq!(targets, vec![target.to_string()], "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_history_names_a_request_as_the_dashboard_does_school_number_and_club() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let u = d.moderator().clone();
    let target = d.pending_for(&u.label)[0];
    let home = tempfile::tempdir().expect("dir");
    let approve = run(
        home.path(),
        Some(&d),
        &["requests", "approve", &target.to_string()],
    )
    .await;
    assert_eq!(approve.code, 0, "{}", approve.stderr);
    // The label the core makes of the request as the service shows it.
    let client = crate::common::client_as(&d, &u);
    let read = client
        .club_request(target, club_admin::ops::run::DECISION_LEVELS)
        .await
        .expect("read");
    let label = club_admin::ops::audit::request_label(&read.data).expect("a label");
    assert!(label.starts_with('#') && label.contains(" → "), "{label}");

    // No credentials: the history is the audit's alone, and names the request.
    let table = run(home.path(), None, &["history"]).await;
    assert_eq!(table.code, 0, "{}", table.stderr);
    let short = &target.to_string()[..8];
    assert!(
        table.stdout.contains(&format!("{label} ({short})")),
        "{label} in\n{}",
        table.stdout
    );
    let json = run(home.path(), None, &["history", "--json"]).await;
    let rows: Vec<Value> = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(rows[0]["label"], label.as_str(), "{}", json.stdout);
    assert_eq!(rows[0]["target"], target.to_string());
}

/// The audit rotates past `audit_rotate_mb` (1 MB here) at the next write, and nothing is
/// lost: the old file stays beside the new one, a write left open in it (a killed run's) is
/// carried into the new file, so the next run still settles it, and `history` reads both
/// files: every write once, the open one joined with the line that settled it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_history_read_across_a_rotation_has_every_write_once() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let home = tempfile::tempdir().expect("dir");
    let config = home.path().join("config").join("club-admin");
    std::fs::create_dir_all(&config).expect("config folder");
    std::fs::write(config.join("config.toml"), "audit_rotate_mb = 1\n").expect("config");
    let audit = audit_of(home.path());
    std::fs::create_dir_all(audit.parent().expect("folder")).expect("state folder");
    let pending = d.pending_for("moderator");
    let (killed, next) = (pending[0], pending[1]);
    let mut text = String::new();
    let mut n = 0u128;
    while text.len() < 1_100_000 {
        n += 1;
        let at = format!("2026-11-{:02}T08:00:00Z", 1 + n % 20);
        let l = line(
            &at,
            "por@school",
            "approve",
            Uuid::from_u128(1000 + n),
            Outcome::Ok,
            "old",
            None,
            "cli",
        );
        text.push_str(&(l + "\n"));
    }
    // A run killed with its write on the wire: its `sending` line and nothing after it.
    let open = line(
        "2026-11-21T08:00:00Z",
        "ton@school",
        "approve",
        killed,
        Outcome::Sending,
        "killed-run",
        None,
        "cli",
    );
    let mut open: AuditEntry = serde_json::from_str(&open).expect("a line");
    open.server = d.base_url.clone();
    text.push_str(&(serde_json::to_string(&open).expect("json") + "\n"));
    std::fs::write(&audit, &text).expect("audit");

    let next_text = next.to_string();
    let approve = run(home.path(), Some(&d), &["requests", "approve", &next_text]).await;
    assert_eq!(approve.code, 0, "{}", approve.stderr);
    let rotated: Vec<PathBuf> = std::fs::read_dir(audit.parent().expect("folder"))
        .expect("state folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("audit-"))
        })
        .collect();
    assert_eq!(rotated.len(), 1, "the old file kept beside: {rotated:?}");
    let rotated_len = std::fs::metadata(&rotated[0]).expect("rotated").len();
    assert_eq!(rotated_len, text.len() as u64, "the old file whole");
    let current = std::fs::metadata(&audit).expect("current").len();
    assert!(current < 10_000, "a new file: {current} bytes");

    let out = run(home.path(), None, &["history", "--format", "json"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<Value> = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(rows.len() as u128, n + 2, "every write once");
    let of = |id: Uuid| -> Vec<&Value> {
        rows.iter()
            .filter(|r| r["target"] == id.to_string())
            .collect()
    };
    let k = of(killed);
    assert_eq!(k.len(), 1, "the killed run's write once: {k:?}");
    assert_eq!(
        k[0]["lines"], 2,
        "its `sending` line and the one that settled it: {k:?}"
    );
    assert_eq!(k[0]["settled_after_crash"], true);
    assert_eq!(k[0]["outcome"], "failed", "still pending: not applied");
    let a = of(next);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["outcome"], "ok");
}

/// `history --host` where the host's config keeps no audit (a `serve-ssh` started by hand
/// wrote its own elsewhere) says where it looked and how to name the file; the advice,
/// followed, reads it.
#[tokio::test]
async fn history_host_without_the_hosts_audit_says_to_give_audit() {
    let home = tempfile::tempdir().expect("dir");
    let empty = home.path().join("host-state");
    std::fs::create_dir_all(&empty).expect("folder");
    let config = home.path().join("serve-ssh.toml");
    std::fs::write(
        &config,
        format!(
            "[serve_ssh]\nstate_dir = {:?}\n",
            empty.display().to_string()
        ),
    )
    .expect("config");
    let config_text = config.display().to_string();
    let out = run(
        home.path(),
        None,
        &["history", "--host", "--config", &config_text],
    )
    .await;
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains(&empty.join("audit.jsonl").display().to_string())
            && out.stderr.contains("give that file with --audit FILE"),
        "{}",
        out.stderr
    );
    // The advice followed: the file the hand-started server wrote.
    let (wrote, _) = sample(home.path());
    let wrote_text = wrote.display().to_string();
    let out = run(home.path(), None, &["history", "--audit", &wrote_text]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.is_empty());
}
