//! A crash in the middle of a bulk: `kill -9` of the real binary (the command line, and the
//! dashboard in a pseudo-terminal) at a random point of a bulk approval against the demo
//! behind a 30 ms link. Every request the server applied has its line in the audit file
//! (the write-ahead `sending` line at least), and the next start settles every write the
//! killed run left open, in that run's name, and says so.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use club_admin::api::MembershipStatus;
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use club_admin::ops::{AuditEntry, Outcome};
use uuid::Uuid;

use crate::common::pty::GUARD;
use crate::common::{CLUB_ADMIN, dashboard_in};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// The demo with `extra` more requests, each answer 30 ms late.
async fn slow_demo(extra: usize) -> DemoHandle {
    demo::start(DemoOptions {
        extra_requests: extra,
        faults: Faults {
            latency: Duration::from_millis(30),
            ..Faults::default()
        },
        ..DemoOptions::default()
    })
    .await
    .expect("demo")
}

/// Every line of the audit file (the write-ahead lines too).
fn lines(audit: &std::path::Path) -> Vec<AuditEntry> {
    std::fs::read_to_string(audit)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Waits until the server has applied at least `n` writes (a guard against a hang).
fn wait_applied(d: &DemoHandle, n: usize) {
    let deadline = Instant::now() + GUARD;
    while d.mutations().len() < n {
        assert!(
            Instant::now() < deadline,
            "only {} applied",
            d.mutations().len()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Waits until a write is open in `audit` (its last line `sending`), a guard against a hang.
fn wait_open(audit: &std::path::Path) {
    let deadline = Instant::now() + GUARD;
    loop {
        let mut last: HashMap<Uuid, Outcome> = HashMap::new();
        for e in lines(audit) {
            last.insert(e.target, e.outcome);
        }
        if last.values().any(|o| *o == Outcome::Sending) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no write open in {}",
            audit.display()
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// After a kill at a random point: the answers the server still gives to writes whose client
/// is gone are applied (it finishes them); then every request it applied has a line.
fn every_applied_write_has_a_line(d: &DemoHandle, ids: &[Uuid], audit: &[AuditEntry]) -> usize {
    std::thread::sleep(Duration::from_millis(300));
    let audited: HashSet<Uuid> = audit.iter().map(|e| e.target).collect();
    let applied: Vec<Uuid> = ids
        .iter()
        .copied()
        .filter(|id| d.request_status(*id) == Some(MembershipStatus::Approved))
        .collect();
    for id in &applied {
        assert!(
            audited.contains(id),
            "{id} approved at the server, no audit line"
        );
    }
    applied.len()
}

/// After the next start: every write of the killed run is closed (a line after its
/// `sending` one), each applied one `ok`, each other one not `ok`. The file is read until
/// no write of that run is open (its writer may still be writing the last lines).
fn every_write_is_settled(d: &DemoHandle, audit_path: &std::path::Path, killed_run: &str) {
    let last_of = |audit: &[AuditEntry]| {
        let mut last: HashMap<Uuid, AuditEntry> = HashMap::new();
        for e in audit
            .iter()
            .filter(|e| e.run.as_deref() == Some(killed_run))
        {
            last.insert(e.target, e.clone());
        }
        last
    };
    let deadline = Instant::now() + GUARD;
    let mut last = last_of(&lines(audit_path));
    while Instant::now() < deadline
        && last
            .values()
            .any(|e| matches!(e.outcome, Outcome::Sending | Outcome::Unknown))
    {
        std::thread::sleep(Duration::from_millis(20));
        last = last_of(&lines(audit_path));
    }
    assert!(!last.is_empty());
    let sent = lines(audit_path);
    for (id, e) in &last {
        let id = *id;
        // The line that settles it names who sent it (user, face, key), not the settler.
        if e.settled_by.is_some()
            && let Some(first) = sent
                .iter()
                .find(|s| s.target == id && s.run.as_deref() == Some(killed_run))
        {
            let who = |x: &AuditEntry| (x.user.clone(), x.via.clone(), x.key.clone());
            assert_eq!(who(e), who(first), "{id}: {e:?}");
        }
        let applied = d.request_status(id) == Some(MembershipStatus::Approved);
        assert_ne!(e.outcome, Outcome::Sending, "{id} left open: {e:?}");
        assert_ne!(e.outcome, Outcome::Unknown, "{id} left unknown: {e:?}");
        assert_eq!(e.outcome == Outcome::Ok, applied, "{id}: {e:?}");
    }
}

/// The next start's summary counts the writes the killed run left open (`audit` is the file
/// as the kill left it) as the server has them: those it applied "approved", the others "not
/// applied". Which of them the server applied depends on where the kill fell (a write killed
/// during its answer's delay never reaches the server), so both counts are taken from it.
fn the_summary_tells_what_became_of_them(d: &DemoHandle, audit: &[AuditEntry], said: &str) {
    let mut last: HashMap<Uuid, &AuditEntry> = HashMap::new();
    for e in audit {
        last.insert(e.target, e);
    }
    let open: Vec<Uuid> = last
        .values()
        .filter(|e| matches!(e.outcome, Outcome::Sending | Outcome::Unknown))
        .map(|e| e.target)
        .collect();
    assert!(!open.is_empty(), "the kill left no write open");
    let applied = open
        .iter()
        .filter(|id| d.request_status(**id) == Some(MembershipStatus::Approved))
        .count();
    let n = open.len();
    let writes = if n == 1 { "write" } else { "writes" };
    assert!(
        said.contains(&format!("{n} {writes} of an interrupted run:")),
        "{n} open: {said}"
    );
    if applied > 0 {
        assert!(said.contains(&format!("{applied} approved")), "{said}");
    }
    if applied < n {
        assert!(
            said.contains(&format!("{} not applied", n - applied)),
            "{said}"
        );
    } else {
        assert!(!said.contains("not applied"), "{said}");
    }
}

/// The window of writes on their way: the tests' `--concurrency` (the default, 8).
const WINDOW: usize = 8;

/// Only what left is recorded as sent: the writes `audit` records as sent by `run` (a
/// `sending` line) that the server never received are at most the window that was on its
/// way when the run was killed (a bulk's other rows wait in the dashboard, unrecorded).
fn sent_but_never_received(d: &DemoHandle, audit: &[AuditEntry], run: &str) -> usize {
    let received: HashSet<Uuid> = d
        .writes_received()
        .iter()
        .filter_map(|w| w.rsplit('/').next())
        .filter_map(|id| Uuid::parse_str(id).ok())
        .collect();
    let sent: HashSet<Uuid> = audit
        .iter()
        .filter(|e| e.outcome == Outcome::Sending && e.run.as_deref() == Some(run))
        .map(|e| e.target)
        .collect();
    let never = sent.difference(&received).count();
    assert!(
        never <= WINDOW,
        "{never} writes recorded as sent that the server never received ({} sent, {} received)",
        sent.len(),
        received.len()
    );
    never
}

/// After the next start settled a killed run: its writes settled `failed` are at most the
/// window that was on its way (none of the bulk's rows that never left is a failure).
fn failed_at_most_the_window(audit_path: &std::path::Path, run: &str) {
    let failed = lines(audit_path)
        .iter()
        .filter(|e| e.run.as_deref() == Some(run) && e.outcome == Outcome::Failed)
        .count();
    assert!(failed <= WINDOW, "{failed} failed after the crash");
}

/// The run of the process that wrote the first `sending` line.
fn first_run(audit: &[AuditEntry]) -> String {
    audit
        .iter()
        .find(|e| e.outcome == Outcome::Sending)
        .and_then(|e| e.run.clone())
        .expect("a write-ahead line")
}

/// The moderator's dashboard on `d` in a pseudo-terminal, its state under `dir`, decisions
/// sent at once, no host budget: its queue drawn.
fn dashboard_on(d: &DemoHandle, dir: &std::path::Path) -> crate::common::pty::Pty {
    let u = d.moderator();
    let envs = [
        ("CLUB_ADMIN_API_KEY", u.api_key.as_str()),
        ("CLUB_ADMIN_TOKEN", u.token.as_str()),
    ];
    let args = [
        "--base-url",
        &d.base_url,
        "--decision-delay",
        "0",
        "--host-budget",
        "0",
    ];
    let s = dashboard_in(dir, &args, &envs);
    s.wait_for("the queue", |t| t.contains("server: "));
    s
}

/// `*` `a` `y`: every request shown marked and approved in one bulk.
fn approve_all(s: &mut crate::common::pty::Pty) {
    s.send(b"*");
    s.wait_for("every request marked", |t| t.contains(" marked "));
    s.send(b"a");
    s.wait_for("the confirmation", |t| t.contains("┌ Approve"));
    s.send(b"y");
}

#[test]
fn a_command_line_bulk_killed_at_a_random_point_loses_no_line_and_the_next_run_settles_it() {
    let rt = rt();
    let d = rt.block_on(slow_demo(220));
    let u = d.moderator().clone();
    let pending = d.pending_for(&u.label);
    let ids: Vec<Uuid> = pending.iter().copied().take(200).collect();
    assert_eq!(ids.len(), 200);
    // The next runs approve requests the killed run was not given.
    let others: Vec<Uuid> = pending.iter().copied().skip(200).take(2).collect();
    assert_eq!(others.len(), 2);
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state");
    let run = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = std::process::Command::new(CLUB_ADMIN)
            .args(args)
            .env("CLUB_ADMIN_BASE_URL", &d.base_url)
            .env("CLUB_ADMIN_API_KEY", &u.api_key)
            .env("CLUB_ADMIN_TOKEN", &u.token)
            .env("CLUB_ADMIN_BUDGET_DIR", dir.path().join("budget"))
            .env("XDG_STATE_HOME", &state)
            .env("XDG_CONFIG_HOME", &state)
            .env_remove("CLUB_ADMIN_LOG")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn club-admin");
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(stdin.as_bytes()).expect("stdin");
        drop(pipe);
        child
    };
    let text: String = ids.iter().map(|id| format!("{id}\n")).collect();
    let mut child = run(&["requests", "approve", "-", "--concurrency", "8"], &text);
    let kill_at = 20 + fastrand::usize(..120);
    wait_applied(&d, kill_at);
    let audit_path = state.join("club-admin").join("audit.jsonl");
    // Killed while a write is open in its audit (sent, its answer 220 ms away): a loaded
    // machine may narrow the run to one write at a time, with instants where none is.
    wait_open(&audit_path);
    child.kill().expect("kill -9");
    let _ = child.wait();
    let audit = lines(&audit_path);
    let applied = every_applied_write_has_a_line(&d, &ids, &audit);
    assert!(applied >= kill_at, "{applied} < {kill_at}");
    assert!(applied < ids.len(), "killed before the end");
    let killed = first_run(&audit);
    sent_but_never_received(&d, &audit, &killed);

    // The next run (one more approval) settles the killed run's writes first.
    let next = run(&["requests", "approve", &others[0].to_string()], "");
    let out = next.wait_with_output().expect("the next run");
    let said = String::from_utf8_lossy(&out.stderr);
    every_write_is_settled(&d, &audit_path, &killed);
    failed_at_most_the_window(&audit_path, &killed);
    the_summary_tells_what_became_of_them(&d, &audit, &said);
    // Settled once: a third start finds nothing left open.
    let third = run(&["requests", "approve", &others[1].to_string()], "");
    let out = third.wait_with_output().expect("a third run");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!said.contains("interrupted run"), "{said}");
}

#[test]
fn a_dashboard_bulk_killed_at_a_random_point_loses_no_line_and_the_next_start_settles_it() {
    let rt = rt();
    let d = rt.block_on(slow_demo(120));
    let dir = tempfile::tempdir().expect("dir");
    let ids = d.pending_for(&d.moderator().label);
    let mut s = dashboard_on(&d, dir.path());
    approve_all(&mut s);
    let kill_at = 10 + fastrand::usize(..60);
    wait_applied(&d, kill_at);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(s.pid() as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .expect("kill -9");
    let _ = s.wait_exit_within(GUARD);
    let audit_path = dir.path().join("state/club-admin/audit.jsonl");
    let audit = lines(&audit_path);
    let applied = every_applied_write_has_a_line(&d, &ids, &audit);
    assert!(applied >= kill_at && applied < ids.len(), "{applied}");
    let killed = first_run(&audit);
    sent_but_never_received(&d, &audit, &killed);

    // The next start re-reads and settles them, and says so.
    let mut again = dashboard_on(&d, dir.path());
    again.wait_for("the summary", |t| t.contains("of an interrupted run:"));
    every_write_is_settled(&d, &audit_path, &killed);
    failed_at_most_the_window(&audit_path, &killed);
    again.send(b"q");
    assert!(again.wait_exit().success());
}

#[test]
fn a_hang_up_during_a_bulk_ends_it_as_ctrl_c_does() {
    let rt = rt();
    let d = rt.block_on(slow_demo(120));
    let dir = tempfile::tempdir().expect("dir");
    let ids = d.pending_for(&d.moderator().label);
    let mut s = dashboard_on(&d, dir.path());
    approve_all(&mut s);
    wait_applied(&d, 5);
    let at_hang_up = d.writes_received().len();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(s.pid() as i32),
        nix::sys::signal::Signal::SIGHUP,
    )
    .expect("hang up");
    let st = s.wait_exit();
    assert!(st.success(), "{st:?}");
    // Only the writes already on their way went after the hang-up.
    let after = d.writes_received().len() - at_hang_up;
    assert!(after <= 12, "{after} writes sent after the hang-up");
    let audit_path = dir.path().join("state/club-admin/audit.jsonl");
    let audit = lines(&audit_path);
    let approved = every_applied_write_has_a_line(&d, &ids, &audit);
    assert!(approved < ids.len(), "the bulk stopped: {approved}");
    // Every write the bulk began is closed: answered, or not sent (said why).
    let open = club_admin::ops::recover::scan(&audit_path).expect("scan");
    assert!(open.is_empty(), "{open:?}");
    sent_but_never_received(&d, &audit, &first_run(&audit));
    // The rest of the bulk never left: not sent (`not_sent`, saying why; never `undone`:
    // nobody took it back), none failed.
    let not_sent = audit
        .iter()
        .filter(|e| {
            e.outcome == Outcome::NotSent
                && e.detail
                    .as_deref()
                    .is_some_and(|t| t.starts_with("not sent: the dashboard"))
        })
        .count();
    assert!(not_sent > 0, "the rest of the bulk was not sent");
    assert!(audit.iter().all(|e| e.outcome != Outcome::Undone));
    let failed = audit
        .iter()
        .filter(|e| e.outcome == Outcome::Failed)
        .count();
    assert_eq!(failed, 0, "nothing that did not leave is a failure");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_ssh_settles_an_interrupted_runs_writes_as_it_starts_before_anyone_signs_in() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let u = d.moderator().clone();
    let pending = d.pending_for(&u.label);
    let (landed, never) = (pending[0], pending[1]);
    // The killed session's first write reached the server; its second never did.
    let client = crate::common::client_as(&d, &u);
    client
        .update_club_request(
            landed,
            &MembershipStatus::Approved,
            club_admin::ops::run::DECISION_LEVELS,
        )
        .await
        .expect("applied");
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join("state");
    std::fs::create_dir_all(&state).expect("state");
    let audit_path = state.join("audit.jsonl");
    let key = "SHA256:aKilledSessionsKey";
    let sending = |target: Uuid| AuditEntry {
        at: chrono::Utc::now(),
        server: d.base_url.trim_end_matches('/').to_owned(),
        user: Some(u.email.clone()),
        action: "approve".into(),
        target,
        outcome: Outcome::Sending,
        detail: None,
        value: None,
        via: Some("ssh".into()),
        key: Some(key.into()),
        key_comment: Some("ton@phone".into()),
        run: Some("a-killed-serve-ssh".into()),
        session: None,
        carried: None,
        settled_by: None,
        label: None,
    };
    let text: String = [landed, never]
        .iter()
        .map(|id| serde_json::to_string(&sending(*id)).expect("json") + "\n")
        .collect();
    std::fs::write(&audit_path, text).expect("audit");
    // The session that sent them remembered its token.
    let tokens = dir.path().join("tokens");
    std::fs::create_dir_all(&tokens).expect("tokens");
    std::fs::write(club_admin::ssh::token_file(&tokens, key), &u.token).expect("token");

    let server =
        crate::common::ssh_sessions::serve_with(&d, dir.path(), 1, 0, 0, Some(tokens)).await;
    // Nobody connects: the start settles them by itself.
    let deadline = Instant::now() + GUARD;
    while !club_admin::ops::recover::scan(&audit_path)
        .expect("scan")
        .is_empty()
    {
        assert!(Instant::now() < deadline, "{:?}", lines(&audit_path));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let audit = lines(&audit_path);
    let last = |id: Uuid| audit.iter().rev().find(|e| e.target == id).cloned();
    let (a, b) = (last(landed).expect("landed"), last(never).expect("never"));
    assert_eq!(a.outcome, Outcome::Ok, "{a:?}");
    assert_eq!(b.outcome, Outcome::Failed, "{b:?}");
    for e in [&a, &b] {
        assert!(e.settled_by.is_some(), "{e:?}");
        assert_eq!(e.key.as_deref(), Some(key), "the sender kept: {e:?}");
        assert_eq!(e.run.as_deref(), Some("a-killed-serve-ssh"));
    }
    let rows = club_admin::ops::history::fold(audit.clone());
    assert!(
        rows.iter().all(|r| r.settled_after_crash && !r.is_open()),
        "{rows:?}"
    );
    server.stop().await;
}
