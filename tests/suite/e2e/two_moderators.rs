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
