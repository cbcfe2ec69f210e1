//! A `serve-ssh` stopped (as `systemctl stop` stops it) while a session's bulk approval is
//! half sent: the writes on the wire are answered and audited with their answer's time; the
//! rows the stop kept from leaving are audited `not_sent`, "not sent: the server stopped"
//! (never `undone`: nobody took them back; never `failed`: the server never saw them) and
//! are still pending on the server.
#![cfg(unix)]

use club_admin::api::MembershipStatus;
use club_admin::demo::{self, DemoOptions, Faults};
use club_admin::ops::{AuditEntry, Outcome};

use crate::common::ssh_sessions::{Session, queue_drawn, serve, until};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_mid_bulk_records_the_writes_it_kept_from_leaving_as_not_sent() {
    let d = demo::start(DemoOptions {
        extra_requests: 40,
        // 200 ms an answer: the bulk is half sent when the stop comes.
        faults: Faults {
            latency: std::time::Duration::from_millis(200),
            ..Faults::default()
        },
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    let server = serve(&d, dir.path(), 1, 0, 0).await;
    let s = Session::open(server.addr, 1).await;
    let token = d.moderator().token.clone();
    until("the dashboard", || s.shows(|t| t.contains("S to sign in"))).await;
    s.send(b"S").await;
    until("the sign-in pop-up", || {
        s.shows(|t| t.contains("┌ Sign in"))
    })
    .await;
    s.send(format!("\x1b[200~{token}\x1b[201~\r").as_bytes())
        .await;
    until("the queue", || s.shows(queue_drawn)).await;
    s.send(b"*").await;
    until("every row marked", || {
        s.shows(|t| t.contains(" marked") && !t.contains("loading"))
    })
    .await;
    s.send(b"a").await;
    until("the confirmation", || {
        s.shows(|t| t.contains("marked club requests"))
    })
    .await;
    let before = d.pending_for("moderator");
    s.send(b"y").await;
    until("the bulk under way", || !d.mutations().is_empty()).await;
    let stopping = tokio::spawn(server.stop());
    let audit = dir.path().join("state").join("audit.jsonl");
    let read = || std::fs::read_to_string(&audit).unwrap_or_default();
    until("the session's writes all settled", || {
        let text = read();
        let rows = club_admin::ops::history::fold(
            text.lines().filter_map(|l| serde_json::from_str(l).ok()),
        );
        text.contains("not_sent") && rows.iter().all(|r| !r.is_open())
    })
    .await;
    // The client leaves as the server ends its session.
    drop(s);
    stopping.await.expect("the stop");
    let text = read();
    let lines: Vec<AuditEntry> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let said = |o: Outcome| lines.iter().filter(|e| e.outcome == o).count();
    let not_sent: Vec<&AuditEntry> = lines
        .iter()
        .filter(|e| e.outcome == Outcome::NotSent)
        .collect();
    assert!(
        !not_sent.is_empty(),
        "the stop kept some from leaving: {text}"
    );
    assert_eq!(said(Outcome::Undone), 0, "nobody took any back: {text}");
    assert_eq!(said(Outcome::Failed), 0, "none failed: {text}");
    for e in &not_sent {
        assert_eq!(
            e.detail.as_deref(),
            Some("not sent: the server stopped"),
            "why it was not sent"
        );
        assert_eq!(
            d.request_status(e.target),
            Some(MembershipStatus::Pending),
            "a write not sent left its request pending"
        );
        assert!(before.contains(&e.target));
    }
    // Each write's outcome carries the time its answer came, not its sending's.
    let mut sent_at = std::collections::HashMap::new();
    for e in &lines {
        match e.outcome {
            Outcome::Sending => {
                sent_at.insert(e.target, e.at);
            }
            Outcome::Ok => {
                let at = sent_at.get(&e.target).expect("its sending line");
                assert!(
                    e.at - *at >= chrono::Duration::milliseconds(150),
                    "the ok of {} at {} was sent at {at}: the answer took 200 ms",
                    e.target,
                    e.at
                );
            }
            _ => {}
        }
    }
    assert!(said(Outcome::Ok) >= 1, "{text}");
}
