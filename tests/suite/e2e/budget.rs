//! The host budget: processes of the real binary on one host share one budget of calls in
//! flight per server (`--host-budget`, lock files in `CLUB_ADMIN_BUDGET_DIR`). Three bulk
//! approvals at once never put more calls in flight at the server than the budget; a budget
//! held by someone else without end costs a few seconds and one call at a time, never a
//! run that does not end.

use std::path::Path;
use std::time::{Duration, Instant};

use club_admin::api::MembershipStatus;
use club_admin::demo::{self, DemoHandle, DemoOptions};
use uuid::Uuid;

/// Runs `requests approve --concurrency 64 -` on `ids` with the budget `budget` kept in
/// `dir`; returns the exit code.
async fn approve(d: &DemoHandle, ids: &[Uuid], budget: usize, dir: &Path) -> i32 {
    let state = tempfile::tempdir().expect("tempdir");
    let budget = budget.to_string();
    let extra = ["--concurrency", "64", "--host-budget", budget.as_str()];
    crate::common::approve_piped(d, "moderator", ids, &extra, state.path(), dir).await
}

fn approved_once(d: &DemoHandle, ids: &[Uuid]) {
    for id in ids {
        assert_eq!(d.request_status(*id), Some(MembershipStatus::Approved));
    }
    let writes = crate::common::writes_per_request(d, 0);
    assert_eq!(writes.len(), ids.len());
    assert!(writes.values().all(|n| *n == 1), "{writes:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_bulk_runs_at_once_stay_within_the_hosts_budget() {
    // Each request takes 10 ms at the server (a pool too large to stall), so the three runs
    // overlap for their whole length.
    let d = demo::start(DemoOptions {
        extra_requests: 600,
        pool: Some(club_admin::demo::Pool {
            hold: Duration::from_millis(10),
            ..club_admin::demo::Pool::deployed(200)
        }),
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(600).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let budget = dir.path().join("budget");
    let (a, b, c) = tokio::join!(
        approve(&d, &ids[..200], 3, &budget),
        approve(&d, &ids[200..400], 3, &budget),
        approve(&d, &ids[400..], 3, &budget),
    );
    assert_eq!((a, b, c), (0, 0, 0));
    approved_once(&d, &ids);
    assert!(
        d.peak_in_flight() <= 3,
        "three processes, each allowed 2 to 12 calls, held to the host's 3: {} at once",
        d.peak_in_flight()
    );
    // Every user of the host may use the directory; nobody may remove another's files.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&budget)
        .expect("budget dir")
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o1777, "{mode:o}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_held_by_someone_else_without_end_falls_back_to_one_call() {
    let d = demo::start(DemoOptions {
        extra_requests: 20,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let ids: Vec<Uuid> = d.pending_for("moderator").into_iter().take(20).collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let budget = dir.path().join("budget");
    // Another user holds both slots of this server's budget and never lets go.
    let hog = club_admin::api::budget::HostBudget::open(
        &d.base_url,
        &club_admin::api::budget::BudgetOptions {
            slots: 2,
            dir: budget.clone(),
        },
    );
    let _held = (hog.acquire().await, hog.acquire().await);
    let started = Instant::now();
    let code = tokio::time::timeout(Duration::from_secs(120), approve(&d, &ids, 2, &budget))
        .await
        .expect("the run ends: no wait without end");
    assert_eq!(code, 0);
    approved_once(&d, &ids);
    assert_eq!(d.peak_in_flight(), 1, "one call at a time without a slot");
    assert!(
        started.elapsed() >= club_admin::api::budget::WAIT,
        "it waited for a slot first"
    );
}
