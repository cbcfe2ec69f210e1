//! The fault matrix for the command line, in-process: the core that
//! `club-admin requests approve` runs (`ops::run::undecided`, then `ops::run::Decisions`,
//! whose lost answers are re-read with `decision::backoff`: 1 s to 30 s) against the
//! demo server with every fault flag, on a clock the test moves. What a run says (the
//! verdicts it would print, the audit, the exit code) equals the server's state; each
//! request gets at most one write from a run, and a script retrying what was reported not
//! applied never writes twice to a request the server approved. The real binary under
//! faults: `e2e::script::fault_matrix_the_command_line_tells_the_servers_truth`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::demo::{self, DemoOptions, Faults};
use club_admin::ops::run::{self, Control, Decisions, Verdict};
use club_admin::ops::{AuditEntry, AuditLog, Outcome, RowAction};
use club_admin::script::Exit;
use uuid::Uuid;

use crate::common::{MovedClock, writes_per_request};

/// The audit lines of `path` (none before the first write).
fn audit(path: &std::path::Path) -> Vec<AuditEntry> {
    match std::fs::read_to_string(path) {
        Ok(text) => crate::common::outcomes_of(
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
                .collect(),
        ),
        Err(_) => Vec::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_matrix_the_command_lines_core_tells_the_servers_truth() {
    let mixes = [
        // The worst case for the rule: every write lands, half the answers are lost after it.
        Faults {
            drop_after_write_rate: 0.5,
            ..Faults::default()
        },
        // Every fault at once, as on a phone hot spot.
        Faults {
            failure_rate: 0.3,
            drop_rate: 0.2,
            drop_after_write_rate: 0.3,
            latency: std::time::Duration::from_millis(5),
            ..Faults::default()
        },
    ];
    let backoffs: HashSet<std::time::Duration> =
        (0..8).map(club_admin::ops::decision::backoff).collect();
    for (mix, faults) in mixes.iter().enumerate() {
        let d = demo::start(DemoOptions {
            extra_requests: 20,
            ..DemoOptions::default()
        })
        .await
        .expect("demo server");
        let u = d.user("moderator").expect("demo account");
        // As `--concurrency 4` configures the command line's client; a read's retries
        // (the same number) follow each other at once: this test is not about their delay.
        let client = ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
            ClientOptions {
                concurrency: 4,
                retry_base_delay: std::time::Duration::from_millis(1),
                ..ClientOptions::default()
            },
        )
        .expect("client");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("audit.jsonl");
        let log = AuditLog {
            path: Some(path.clone()),
            server: d.base_url.clone(),
            user: Some(u.email.clone()),
            via: "cli",
            ..Default::default()
        };
        let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(20).collect();
        assert_eq!(ids.len(), 20);
        let clock = MovedClock::default();
        let mut to_send = ids.clone();
        let mut runs = 0;
        // A script retries what was not applied until nothing is left. The second mix took
        // 4 to 11 runs in 20 tries of the binary (3 to 7 in six here); 40 only bounds the
        // loop.
        while !to_send.is_empty() && runs < 40 {
            runs += 1;
            let audit_before = audit(&path).len();
            let writes_before = d.writes_received().len();
            d.set_faults(faults.clone());
            let control = Control::with_clock(Arc::new(clock.clone()));
            let split =
                run::undecided(&client, RowAction::Approve, to_send.clone(), &control).await;
            let (send, already) = (split.send.clone(), split.already.clone());
            let audit_failed = |e: String| panic!("audit line not written: {e}");
            let results = Decisions {
                client: &client,
                log: &log,
                action: RowAction::Approve,
                limit: 4,
                control: &control,
            }
            .send(&send, &audit_failed, |_, _| {})
            .await;
            d.set_faults(Faults::default());
            // As the command line ends: its verdicts, and a request left out unread fails the
            // run (a run that could read nothing sent nothing, and is no success).
            let code = Exit::of_run(&split, RowAction::Approve, &results).code();
            let what = format!("mix {mix}, run {runs}: exit {code}, {results:?}");
            // The script sends only what was not applied: nothing it sends is decided yet.
            assert!(already.is_empty(), "{already:?}; {what}");
            // At most one write per request in a run, and only to requests it audited.
            let audit: Vec<AuditEntry> = audit(&path).into_iter().skip(audit_before).collect();
            let sent = writes_per_request(&d, writes_before);
            for (id, n) in &sent {
                assert_eq!(*n, 1, "{id} got {n} writes; {what}");
                assert!(
                    audit.iter().any(|a| a.target == *id),
                    "{id} sent, not audited; {what}"
                );
            }
            // The last audit line of each request equals the server's state.
            let mut last: HashMap<Uuid, &AuditEntry> = HashMap::new();
            for a in &audit {
                assert_eq!(a.via.as_deref(), Some("cli"));
                last.insert(a.target, a);
            }
            // What the command line prints: the requests the server shows approved.
            let printed: HashSet<Uuid> = results
                .iter()
                .filter_map(|(_, v)| v.as_ref())
                .filter(|v| v.outcome() == Outcome::Ok)
                .filter_map(|v| v.request().map(|r| r.id))
                .collect();
            let mut unknown = 0;
            for &id in &to_send {
                let status = d.request_status(id);
                match last.get(&id).map(|a| a.outcome.as_str()) {
                    Some("ok") => {
                        assert_eq!(status, Some(MembershipStatus::Approved), "{id}; {what}");
                        assert!(printed.contains(&id), "{id} approved, not printed; {what}");
                    }
                    Some("failed") | None => {
                        assert_eq!(status, Some(MembershipStatus::Pending), "{id}; {what}");
                        assert!(!printed.contains(&id), "{id}; {what}");
                    }
                    Some("unknown") => unknown += 1,
                    Some(other) => panic!("{id}: outcome {other}; {what}"),
                }
            }
            // The exit code follows the settled outcomes: 0 only when every one was applied.
            let all_applied = to_send
                .iter()
                .all(|id| last.get(id).is_some_and(|a| a.outcome.as_str() == "ok"));
            if all_applied {
                assert_eq!(code, 0, "{what}");
            } else if unknown > 0 {
                assert_eq!(code, 4, "{what}");
            } else {
                assert_ne!(code, 0, "{what}");
            }
            // Retry only what the run reported as not applied (as a script would).
            to_send.retain(|id| {
                !last
                    .get(id)
                    .is_some_and(|a| matches!(a.outcome.as_str(), "ok" | "unknown"))
            });
            if mix == 0 {
                assert_eq!(code, 0, "every approval landed: {what}");
                // Lost answers happened (20 writes at 0.5: all answered is one in a million)
                // and each was settled by a re-read: `unknown`, then `ok`.
                let lost = audit
                    .iter()
                    .filter(|a| a.outcome.as_str() == "unknown")
                    .count();
                assert!(lost > 0, "{what}");
                assert_eq!(audit.len(), 20 + lost, "{what}");
                // Applied after all: nothing the command line would warn about on standard
                // error (a refusal, a lost answer not applied, an outcome unknown).
                assert!(
                    results.iter().all(|(_, v)| match v {
                        Some(Verdict::Done(_)) => true,
                        Some(Verdict::Settled { found, .. }) => found.applied(),
                        _ => false,
                    }),
                    "{what}"
                );
            }
        }
        assert!(
            to_send.is_empty(),
            "mix {mix}: still not applied after {runs} runs"
        );
        // Over all runs: no request the server approved was ever written twice.
        let all = writes_per_request(&d, 0);
        let audit = audit(&path);
        for id in &ids {
            let failed_before = audit
                .iter()
                .filter(|a| a.target == *id && a.outcome.as_str() == "failed")
                .count();
            assert!(
                all.get(id).copied().unwrap_or(0) <= 1 + failed_before,
                "{id}: {:?} writes, {failed_before} failed runs",
                all.get(id)
            );
        }
        // Every wait between re-reads was one of the backoff's steps, moved on the test's
        // clock (none of them was waited for); the first mix's re-reads never fail.
        let waits = clock.waits();
        assert!(waits.iter().all(|w| backoffs.contains(w)), "{waits:?}");
        if mix == 0 {
            assert!(waits.is_empty(), "{waits:?}");
        }
    }
}

/// A tester's finding: a run whose pre-read failed sent its approvals anyway, and a lost
/// answer re-read as approved was audited `ok` a second time for a request approved before
/// the run. A request whose status could not be read is not sent at all (said, exit 1), and
/// the pre-read is tried again on the run's clock before giving up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_whose_status_cannot_be_read_first_is_never_sent() {
    let d = demo::start(DemoOptions::default())
        .await
        .expect("demo server");
    let u = d.user("moderator").expect("demo account");
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            retry_base_delay: std::time::Duration::from_millis(1),
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(3).collect();
    assert_eq!(ids.len(), 3);
    let clock = MovedClock::default();
    let control = Control::with_clock(Arc::new(clock.clone()));
    // Approved before the run (by this moderator or another).
    for id in &ids[..2] {
        client
            .update_club_request(
                *id,
                &MembershipStatus::Approved,
                club_admin::ops::run::DECISION_LEVELS,
            )
            .await
            .expect("approved");
    }
    let writes_before = d.writes_received().len();
    // Every call fails now: the pre-read cannot tell what was decided.
    d.set_faults(Faults {
        failure_rate: 1.0,
        ..Faults::default()
    });
    let split = run::undecided(&client, RowAction::Approve, ids.clone(), &control).await;
    d.set_faults(Faults::default());
    assert!(split.send.is_empty(), "{split:?}");
    let unread: Vec<Uuid> = split.unread.iter().map(|(id, _)| *id).collect();
    assert_eq!(unread, ids, "each said, in order");
    assert!(
        split
            .unread
            .iter()
            .all(|(_, why)| why.contains("500") || why.contains("503")),
        "{split:?}"
    );
    assert_eq!(d.writes_received().len(), writes_before, "nothing written");
    assert_eq!(
        clock.waits().len() as u32,
        run::PRE_READ_TRIES - 1,
        "tried again with backoff before giving up: {:?}",
        clock.waits()
    );
    // Read again with the server back: the two approved are left out, the third is sent.
    let split = run::undecided(&client, RowAction::Approve, ids.clone(), &control).await;
    assert_eq!(split.send, vec![ids[2]]);
    assert_eq!(
        split.already.iter().map(|(id, _)| *id).collect::<Vec<_>>(),
        ids[..2].to_vec()
    );
    assert!(split.unread.is_empty());
}

/// A bulk whose writes' answers are lost and whose re-reads find the token refused (it
/// expired mid-run, or was signed out elsewhere): the run stops at once, leaves those
/// writes `unknown` with why, and sends nothing more with that token, instead of re-reading
/// for its whole patience and then sending the next writes into the same refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_refused_on_a_re_read_stops_the_run_and_sends_nothing_more() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    // Every write's answer comes after the client stopped waiting: lost.
    Mock::given(method("PUT"))
        .respond_with(ResponseTemplate::new(200).set_delay(std::time::Duration::from_secs(3)))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(401).set_body_json(crate::common::error_body(
                401,
                "invalid_token",
                "Invalid access token",
            )),
        )
        .mount(&server)
        .await;
    let client = ApiClient::new(
        &server.uri(),
        Credentials::new(Some("k".repeat(32)), Some("t".repeat(40))),
        ClientOptions {
            request_timeout: std::time::Duration::from_millis(500),
            retry_base_delay: std::time::Duration::from_millis(1),
            concurrency: 2,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog {
        path: Some(path.clone()),
        server: server.uri(),
        via: "cli",
        ..Default::default()
    };
    let ids: Vec<Uuid> = (1..=10).map(Uuid::from_u128).collect();
    let clock = MovedClock::default();
    let control = Control::with_clock(Arc::new(clock.clone()));
    let audit_failed = |e: String| panic!("audit line not written: {e}");
    let results = Decisions {
        client: &client,
        log: &log,
        action: RowAction::Approve,
        limit: 2,
        control: &control,
    }
    .send(&ids, &audit_failed, |_, _| {})
    .await;
    let received = server.received_requests().await.unwrap_or_default();
    let puts = received
        .iter()
        .filter(|r| r.method.as_str() == "PUT")
        .count();
    assert_eq!(
        puts, 2,
        "only the writes on their way when the token was refused"
    );
    assert!(control.stopped());
    let unknown: Vec<Uuid> = results
        .iter()
        .filter(|(_, v)| matches!(v, Some(Verdict::Unknown { .. })))
        .map(|(id, _)| *id)
        .collect();
    assert_eq!(unknown, ids[..2].to_vec(), "{results:?}");
    assert!(
        results[2..].iter().all(|(_, v)| v.is_none()),
        "the rest not sent: {results:?}"
    );
    for (_, v) in &results[..2] {
        let Some(Verdict::Unknown { why, .. }) = v else {
            unreachable!("checked above")
        };
        assert!(
            format!("{why:?}").contains("Invalid access token"),
            "{why:?}"
        );
    }
    assert_eq!(
        Exit::of_verdicts(&results).code(),
        2,
        "the refused token's code (sign in again), not only `unknown`'s"
    );
    assert!(
        clock
            .waits()
            .iter()
            .all(|w| *w < std::time::Duration::from_secs(10)),
        "no long wait on a refused token: {:?}",
        clock.waits()
    );
    let lines = audit(&path);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines.iter().all(|a| a.outcome.as_str() == "unknown"),
        "{lines:?}"
    );
}
