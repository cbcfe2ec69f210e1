//! Two moderators at once from the command line: the demo's two staff of the Robotics Club
//! (`moderator` and `moderator2`) approve overlapping sets of its requests, two processes of
//! the real binary started together. Every request is approved once; what the
//! other approved first is `already`, never `failed`, in the audit and the exit code.

use club_admin::api::MembershipStatus;
use club_admin::app::AuditEntry;
use club_admin::demo::{self, DemoHandle, DemoOptions};
use uuid::Uuid;

/// `requests approve -` on `ids` as the account `label`, its state in `state`; the exit code.
async fn approve(d: &DemoHandle, label: &str, ids: &[Uuid], state: &std::path::Path) -> i32 {
    crate::common::approve_piped(d, label, ids, &[], state, &state.join("budget")).await
}

fn audit(state: &std::path::Path) -> Vec<AuditEntry> {
    crate::common::outcomes_of(
        std::fs::read_to_string(state.join("club-admin").join("audit.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlapping_bulk_approvals_never_call_the_others_work_failed() {
    // 20 ms a request at the server, so the two runs overlap.
    let d = demo::start(DemoOptions {
        extra_requests: 400,
        pool: Some(club_admin::demo::Pool {
            hold: std::time::Duration::from_millis(20),
            ..club_admin::demo::Pool::deployed(200)
        }),
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    // The requests both may decide: the Robotics Club's.
    let theirs = d.pending_for("moderator2");
    let ids: Vec<Uuid> = d
        .pending_for("moderator")
        .into_iter()
        .filter(|id| theirs.contains(id))
        .take(60)
        .collect();
    assert_eq!(ids.len(), 60, "the two share a club's queue");
    // A takes 0..40, B 20..60: 20 in common, in opposite orders so they meet midway.
    let a_ids = ids[..40].to_vec();
    let mut b_ids = ids[20..].to_vec();
    b_ids.reverse();
    let (sa, sb) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let (ca, cb) = tokio::join!(
        approve(&d, "moderator", &a_ids, sa.path()),
        approve(&d, "moderator2", &b_ids, sb.path())
    );
    assert_eq!((ca, cb), (0, 0), "both runs succeed");
    for id in &ids {
        assert_eq!(d.request_status(*id), Some(MembershipStatus::Approved));
    }
    let writes = crate::common::writes_per_request(&d, 0);
    assert!(writes.values().all(|n| *n <= 2), "{writes:?}");
    let oks: usize = [sa.path(), sb.path()]
        .iter()
        .map(|s| {
            audit(s)
                .iter()
                .filter(|e| e.outcome.as_str() == "ok")
                .count()
        })
        .sum();
    assert_eq!(oks, 60, "each request approved by exactly one of them");
    for (name, state) in [("A", sa.path()), ("B", sb.path())] {
        let lines = audit(state);
        assert!(
            lines
                .iter()
                .all(|e| matches!(e.outcome.as_str(), "ok" | "already")),
            "{name}: {:?}",
            lines
                .iter()
                .map(|e| (e.outcome.as_str(), e.detail.clone()))
                .collect::<Vec<_>>()
        );
    }
}

/// Two `serve-ssh` dashboards of one process (one account, a key each) mark the same 10
/// requests and approve them at the same moment. The audit names each session's own writes
/// (`session`), so `history --format json` over SSH gives each its own rows, with its own
/// key and outcome: none left open, each request approved by exactly one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_ssh_sessions_bulking_the_same_requests_each_have_their_own_history_rows() {
    use crate::common::ssh_sessions::{Session, exec, queue_drawn, serve, until};
    let d = demo::start(DemoOptions {
        // 30 ms a request at the server, so the two bulks overlap.
        faults: club_admin::demo::Faults {
            latency: std::time::Duration::from_millis(30),
            ..Default::default()
        },
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    let server = serve(&d, dir.path(), 2, 0, 0).await;
    let (a, b) = tokio::join!(Session::open(server.addr, 1), Session::open(server.addr, 2));
    let token = d.moderator().token.clone();
    for s in [&a, &b] {
        until("the dashboard", || s.shows(|t| t.contains("S to sign in"))).await;
        s.send(b"S").await;
        until("the sign-in pop-up", || {
            s.shows(|t| t.contains("┌ Sign in"))
        })
        .await;
        s.send(format!("\x1b[200~{token}\x1b[201~\r").as_bytes())
            .await;
    }
    for s in [&a, &b] {
        until("the queue", || s.shows(queue_drawn)).await;
        s.send(&[b' '; 10]).await;
        until("10 marked", || s.shows(|t| t.contains("10 marked"))).await;
        s.send(b"a").await;
        until("the confirmation", || {
            s.shows(|t| t.contains("10 marked club requests"))
        })
        .await;
    }
    tokio::join!(a.send(b"y"), b.send(b"y"));
    until("both bulks' summaries", || {
        [&a, &b]
            .iter()
            .all(|s| s.shows(|t| t.contains(" of 10 done") || t.contains("/10 done")))
    })
    .await;
    let out = exec(server.addr, 3, &token, "history --format json")
        .await
        .expect("history over SSH");
    assert_eq!(
        out.code,
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("JSON rows");
    let word = |r: &serde_json::Value, k: &str| r[k].as_str().unwrap_or_default().to_owned();
    let open: Vec<_> = rows
        .iter()
        .filter(|r| matches!(word(r, "outcome").as_str(), "sending" | "unknown"))
        .collect();
    assert!(open.is_empty(), "no write left open: {open:#?}");
    // Each session names one key; the two sessions, two keys.
    let mut key_of = std::collections::HashMap::new();
    for r in &rows {
        let key = key_of
            .entry(word(r, "session"))
            .or_insert_with(|| word(r, "key"));
        assert_eq!(*key, word(r, "key"), "one key per session: {rows:#?}");
    }
    assert_eq!(key_of.len(), 2, "two sessions wrote: {rows:#?}");
    assert_eq!(
        key_of
            .values()
            .collect::<std::collections::HashSet<_>>()
            .len(),
        2,
        "each with its own key"
    );
    let mut per_request: std::collections::HashMap<String, Vec<String>> = Default::default();
    for r in &rows {
        per_request
            .entry(word(r, "target"))
            .or_default()
            .push(format!("{} {}", word(r, "session"), word(r, "outcome")));
    }
    assert_eq!(per_request.len(), 10, "{per_request:#?}");
    for (id, outcomes) in &per_request {
        let ok = outcomes.iter().filter(|o| o.ends_with(" ok")).count();
        assert_eq!(ok, 1, "{id} approved by exactly one session: {outcomes:?}");
        let sessions: std::collections::HashSet<_> =
            outcomes.iter().map(|o| o.split(' ').next()).collect();
        assert_eq!(
            sessions.len(),
            outcomes.len(),
            "one row per session: {outcomes:?}"
        );
    }
    assert!(
        per_request.values().any(|o| o.len() == 2),
        "the two bulks met on some request: {per_request:#?}"
    );
    drop((a, b));
    server.stop().await;
}
