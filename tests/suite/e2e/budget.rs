//! The host budget: processes of the real binary on one host share one budget of calls in
//! flight per server (`--host-budget`, lock files in `CLUB_ADMIN_BUDGET_DIR`). Three bulk
//! approvals at once never put more calls in flight at the server than the budget; a budget
//! held by someone else without end costs a few seconds and one call at a time, never a
//! run that does not end; a FIFO planted under a budget name, or a folder of another user,
//! hangs nothing and is said once.

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
            service: false,
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

/// `club-admin whoami` (the real binary, against the demo) with the host budget in `dir`:
/// its exit code and standard error. The deadline guards against a hang only (the issue's
/// FIFO held every process for good); it measures nothing.
async fn whoami(d: &DemoHandle, dir: &Path) -> (i32, String) {
    let u = d.user("moderator").expect("demo account");
    let state = tempfile::tempdir().expect("tempdir");
    let run = tokio::process::Command::new(crate::common::CLUB_ADMIN)
        .arg("whoami")
        .env("CLUB_ADMIN_BASE_URL", &d.base_url)
        .env("CLUB_ADMIN_API_KEY", &u.api_key)
        .env("CLUB_ADMIN_TOKEN", &u.token)
        .env("CLUB_ADMIN_BUDGET_DIR", dir)
        .env("XDG_STATE_HOME", state.path())
        .env("XDG_CONFIG_HOME", state.path())
        .env_remove("CLUB_ADMIN_HOST_BUDGET")
        .env_remove("CLUB_ADMIN_LOG")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("whoami ends: nothing planted blocks it")
        .expect("spawn club-admin");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn mkfifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o666)).expect("mkfifo");
}

/// The attack: another user of the host runs `mkfifo` on a name the budget uses.
/// Each run of the real binary ends as usual and says what it refused, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_planted_under_a_budget_name_neither_hangs_nor_goes_unsaid() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let key = club_admin::api::budget::server_key(&d.base_url);
    let tmp = tempfile::tempdir().expect("tempdir");
    let said_once = |stderr: &str, words: &str| {
        assert_eq!(stderr.matches(words).count(), 1, "{words:?} in {stderr}");
        assert_eq!(stderr.matches("host budget").count(), 1, "{stderr}");
    };

    // The first slot's name: the other eleven slots are used.
    let one = tmp.path().join("one");
    std::fs::create_dir(&one).expect("mkdir");
    mkfifo(&one.join(format!("{key}.0.lock")));
    let (code, stderr) = whoami(&d, &one).await;
    assert_eq!(code, 0, "{stderr}");
    // A process other than the service uses 8 of the 12 (the rest are the service's).
    said_once(&stderr, "is not a plain file (a FIFO): 7 of 8 slots used");

    // Every slot's name: the process goes on without the shared budget.
    let all = tmp.path().join("all");
    std::fs::create_dir(&all).expect("mkdir");
    for i in 0..club_admin::api::budget::DEFAULT_SLOTS {
        mkfifo(&all.join(format!("{key}.{i}.lock")));
    }
    let (code, stderr) = whoami(&d, &all).await;
    assert_eq!(code, 0, "{stderr}");
    said_once(
        &stderr,
        "is not a plain file (a FIFO): going on without the shared budget, at most 2 calls in flight",
    );

    // The folder's own name.
    let folder = tmp.path().join("folder");
    mkfifo(&folder);
    let (code, stderr) = whoami(&d, &folder).await;
    assert_eq!(code, 0, "{stderr}");
    said_once(
        &stderr,
        "is not a real directory (a FIFO): going on without",
    );
}

/// A folder another user made first (the issue's `mkdir` as another user, mode 0755) is
/// refused by the real binary, said once, and nothing is put in it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_folder_of_another_user_is_refused_and_left_empty() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("budget");
    std::fs::create_dir(&dir).expect("mkdir");
    // The tests run as root: uid 65534 (nobody) is "another user".
    std::os::unix::fs::chown(&dir, Some(65534), Some(65534)).expect("chown");
    let (code, stderr) = whoami(&d, &dir).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr
            .matches("belongs to another user (uid 65534): going on without the shared budget")
            .count(),
        1,
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&dir).map(|d| d.count()).ok(), Some(0));
}

/// Another process holds every slot of the budget: `whoami` says the wait as it begins,
/// waits for a slot no longer than the budget's `WAIT`, ends as usual and says once on
/// standard error that calls went one at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_starved_budget_is_said_once_on_standard_error() {
    use club_admin::api::budget::{BudgetOptions, DEFAULT_SLOTS, HostBudget};
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("budget");
    let hog = HostBudget::open(
        &d.base_url,
        // As the service: every slot, those a member may not take too.
        &BudgetOptions {
            slots: DEFAULT_SLOTS,
            dir: dir.clone(),
            service: true,
        },
    );
    let mut held = Vec::new();
    for _ in 0..DEFAULT_SLOTS {
        held.push(hog.acquire().await);
    }
    let (code, stderr) = whoami(&d, &dir).await;
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr
            .matches("host budget busy: other club-admin processes hold every slot")
            .count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "nothing refused: {stderr}");
    // The wait is said as it begins, once, before the run goes on one call at a time.
    let wait =
        "waiting for the host budget: other club-admin processes of this host hold its slots";
    assert_eq!(stderr.matches(wait).count(), 1, "{stderr}");
    assert!(
        stderr.find(wait) < stderr.find("host budget busy"),
        "the wait first: {stderr}"
    );
}
