//! The term at a glance from the command line: `club-admin stats` (its figures checked
//! against the demo's known requests and decisions) and `club-admin requests watch` (the
//! real binary against the demo; over SSH, in-process `serve-ssh` with russh clients, one
//! watcher and a hundred, the demo server's calls counted).
#![cfg(unix)]

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use uuid::Uuid;

use crate::common::pty::GUARD;
use crate::common::ssh_sessions::{connect, exec, serve};

/// The binary wired to the demo as `label`, its state in `dir`.
fn command(d: &DemoHandle, label: &str, dir: &std::path::Path) -> tokio::process::Command {
    let u = d.user(label).expect("demo account");
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_club-admin"));
    cmd.env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("CLUB_ADMIN_BASE_URL", &d.base_url)
        .env("CLUB_ADMIN_API_KEY", &u.api_key)
        .env("CLUB_ADMIN_TOKEN", &u.token)
        .env_remove("CLUB_ADMIN_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

async fn run(d: &DemoHandle, dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = command(d, "moderator", dir)
        .args(args)
        .output()
        .await
        .expect("club-admin runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The demo's seeded requests, as the file the demo reads them from has them.
fn seeded() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/requests.json"
    ))
    .expect("the demo's requests");
    serde_json::from_str(&text).expect("JSON")
}

/// Two approvals and a decline by the demo moderator, audited; then `stats --json`: every
/// count as the demo holds it, pending per club adding up, the three decisions (and only
/// they) in the days, the wait and the moderator's row, the seeded decisions said to be
/// decided without an audit line; the table draws its bars.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_tells_the_demo_s_known_figures() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    let mine = d.pending_for("moderator");
    let (approve, decline) = (&mine[..2], &mine[2..3]);
    let ids = |v: &[Uuid]| v.iter().map(Uuid::to_string).collect::<Vec<_>>();
    let mut args = vec!["requests".to_owned(), "approve".to_owned()];
    args.extend(ids(approve));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(run(&d, dir.path(), &args).await.0, 0);
    let id = decline[0].to_string();
    assert_eq!(
        run(&d, dir.path(), &["requests", "decline", &id]).await.0,
        0
    );

    let (code, out, err) = run(&d, dir.path(), &["stats", "--json"]).await;
    assert_eq!(code, 0, "{err}");
    let f: Value = serde_json::from_str(&out).expect("one JSON object");
    let seed = seeded();
    let count = |s: &str| seed.iter().filter(|r| r["membership_status"] == s).count() as u64;
    let n = |v: &Value| v.as_u64().unwrap_or(u64::MAX);
    assert_eq!(n(&f["requests"]), seed.len() as u64);
    assert_eq!(n(&f["pending"]), count("pending") - 3);
    assert_eq!(n(&f["approved"]), count("approved") + 2);
    assert_eq!(n(&f["declined"]), count("declined") + 1);
    assert_eq!(n(&f["pending"]), d.pending().len() as u64);
    let clubs = f["clubs"].as_array().expect("clubs");
    let per_club: u64 = clubs.iter().map(|c| n(&c["pending"])).sum();
    assert_eq!(per_club, n(&f["pending"]));
    let pendings: Vec<u64> = clubs.iter().map(|c| n(&c["pending"])).collect();
    assert!(
        pendings.windows(2).all(|w| w[0] >= w[1]),
        "longest first: {pendings:?}"
    );
    // Every club is named (some only in Thai: the demo has clubs without an English name).
    assert!(clubs.iter().all(|c| c["name_th"].is_string()), "{clubs:?}");
    assert!(clubs.iter().any(|c| c["name_en"].is_null()), "{clubs:?}");
    let arrived: u64 = f["arrivals"]
        .as_array()
        .expect("arrivals")
        .iter()
        .map(|d| n(&d["requests"]))
        .sum();
    let dated = seed.iter().filter(|r| r["created_at"].is_string()).count() as u64;
    assert_eq!(arrived, dated);
    assert_eq!(f["audited"], true);
    assert_eq!(
        n(&f["decided_unaudited"]),
        count("approved") + count("declined")
    );
    let days = f["decisions"].as_array().expect("decisions");
    let (a, x): (u64, u64) = days.iter().fold((0, 0), |(a, x), d| {
        (a + n(&d["approved"]), x + n(&d["declined"]))
    });
    assert_eq!((a, x), (2, 1));
    assert_eq!(n(&f["wait"]["decided"]), 3);
    assert!(f["wait"]["median_s"].as_i64().is_some_and(|s| s >= 0));
    assert!(f["wait"]["p90_s"].as_i64() >= f["wait"]["median_s"].as_i64());
    let who = &f["moderators"][0];
    assert_eq!(who["moderator"], d.moderator().email.as_str());
    assert_eq!((n(&who["approved"]), n(&who["declined"])), (2, 1));

    let (code, table, _) = run(&d, dir.path(), &["stats"]).await;
    assert_eq!(code, 0);
    assert!(table.contains('█'), "{table}");
    assert!(
        table.contains(&format!("{} requests:", seed.len())),
        "{table}"
    );
    assert!(table.contains(d.moderator().email.as_str()), "{table}");
}

/// Lines of a stream, collected by a task, to wait on.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

impl Lines {
    fn follow<R: tokio::io::AsyncRead + Unpin + Send + 'static>(&self, r: R) {
        let to = self.0.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(r).lines();
            while let Ok(Some(l)) = lines.next_line().await {
                to.lock().expect("lines").push(l);
            }
        });
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().expect("lines").clone()
    }

    async fn until(&self, what: &str, f: impl Fn(&[String]) -> bool) {
        let deadline = Instant::now() + GUARD;
        while !f(&self.all()) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {:?}",
                self.all()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn events(lines: &[String]) -> Vec<Value> {
    lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

fn has(lines: &[String], event: &str, id: Uuid) -> bool {
    events(lines)
        .iter()
        .any(|e| e["event"] == event && e["id"] == id.to_string().as_str())
}

/// The real binary watches the demo: a request a student makes is printed within one
/// period, a decision with who made it (from the audit), a deletion as gone, each once;
/// the watch ends by itself once its reader has closed the pipe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_prints_each_change_once_and_ends_with_its_reader() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    let mut child = command(&d, "moderator", dir.path())
        .args(["requests", "watch", "--json", "--every", "5"])
        .spawn()
        .expect("watch runs");
    let (out, err) = (Lines::default(), Lines::default());
    let stdout = child.stdout.take().expect("stdout");
    err.follow(child.stderr.take().expect("stderr"));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    // Standard output is read until told to stop, then closed (the reader goes away).
    let reader = out.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        tokio::select! {
            () = async { while let Ok(Some(l)) = lines.next_line().await { reader.0.lock().expect("lines").push(l); } } => {}
            _ = rx => {}
        }
    });
    err.until("the baseline", |l| l.iter().any(|l| l.contains("watching")))
        .await;

    let asked = d
        .join(d.student_ids()[0], d.club_ids()[0])
        .expect("a new request");
    let t0 = Instant::now();
    out.until("the new request", |l| has(l, "new", asked)).await;
    assert!(
        t0.elapsed() < Duration::from_secs(12),
        "within one period and its read"
    );

    let mine = d.pending_for("moderator")[0];
    let (code, _, e) = run(&d, dir.path(), &["requests", "approve", &mine.to_string()]).await;
    assert_eq!(code, 0, "{e}");
    out.until("the decision", |l| has(l, "decided", mine)).await;
    let all = events(&out.all());
    let decided = all
        .iter()
        .find(|e| e["event"] == "decided")
        .expect("decided");
    assert_eq!(decided["status"], "approved");
    assert_eq!(decided["by"], d.moderator().email.as_str());
    assert_eq!(
        all.iter()
            .filter(|e| e["id"] == asked.to_string().as_str())
            .count(),
        1
    );

    // The service fails every call: said once; a request asked meanwhile is told once,
    // after `back`, when the service answers again.
    d.set_faults(Faults {
        failure_rate: 1.0,
        ..Faults::default()
    });
    out.until("unreachable", |l| {
        events(l).iter().any(|e| e["event"] == "unreachable")
    })
    .await;
    let during = d
        .join(d.student_ids()[2], d.club_ids()[2])
        .expect("a request asked during the outage");
    // Another round fails meanwhile, and says nothing more.
    tokio::time::sleep(Duration::from_secs(6)).await;
    d.set_faults(Faults::default());
    out.until("back, and the request asked meanwhile", |l| {
        has(l, "new", during)
    })
    .await;
    let all = events(&out.all());
    let at = |kind: &str| all.iter().position(|e| e["event"] == kind);
    let count = |kind: &str| all.iter().filter(|e| e["event"] == kind).count();
    assert_eq!((count("unreachable"), count("back")), (1, 1), "{all:?}");
    let asked_at = all
        .iter()
        .position(|e| e["id"] == during.to_string().as_str());
    assert!(at("back") < asked_at, "{all:?}");
    assert!(all[at("back").expect("back")]["since"].is_string());
    assert_eq!(count("new"), 2, "each new request once: {all:?}");

    let _ = tx.send(());
    let ended = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
    assert!(ended.is_ok(), "the watch ended after its reader went away");
}

/// Counts the demo's calls while `watchers` watch over SSH for two whole periods after
/// their first reads; the first watcher's output is followed and a request joined to check
/// it arrives. Returns the calls of those two periods and the shared store's counts.
async fn watch_over_ssh(watchers: usize) -> (u64, u64, Duration) {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let dir = tempfile::tempdir().expect("dir");
    let server = serve(&d, dir.path(), watchers, 0, 0).await;
    let token = d.moderator().token.clone();
    let started = Lines::default();
    let first = Lines::default();
    let mut handles = Vec::new();
    for i in 0..watchers {
        let h = connect(server.addr, i as u32).await.expect("a connection");
        let mut ch = h.channel_open_session().await.expect("a channel");
        ch.set_env(true, "CLUB_ADMIN_TOKEN", &token)
            .await
            .expect("env");
        ch.exec(true, "requests watch --json --every 5")
            .await
            .expect("exec");
        let (started, first) = (started.clone(), first.clone());
        tokio::spawn(async move {
            while let Some(msg) = ch.wait().await {
                match msg {
                    russh::ChannelMsg::ExtendedData { data, .. }
                        if String::from_utf8_lossy(&data).contains("watching") =>
                    {
                        started.0.lock().expect("lines").push(i.to_string());
                    }
                    russh::ChannelMsg::Data { data } if i == 0 => {
                        for l in String::from_utf8_lossy(&data).lines() {
                            first.0.lock().expect("lines").push(l.to_owned());
                        }
                    }
                    _ => {}
                }
            }
        });
        handles.push(h);
    }
    started
        .until("every watcher's first read", |l| l.len() == watchers)
        .await;
    // Two whole periods, from the start of a period (the watchers read at its start).
    let wait_start = 5_000
        - (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("time")
            .as_millis()
            % 5_000) as u64;
    tokio::time::sleep(Duration::from_millis(wait_start + 2_500)).await;
    let before = d.calls();
    let asked = d
        .join(d.student_ids()[1], d.club_ids()[1])
        .expect("a new request");
    let t0 = Instant::now();
    first
        .until("the new request over SSH", |l| has(l, "new", asked))
        .await;
    let seen_in = t0.elapsed();
    tokio::time::sleep(Duration::from_millis(10_000).saturating_sub(seen_in)).await;
    let calls = d.calls() - before;
    assert_eq!(server.commands(), watchers);
    if watchers == 1 {
        // `stats` over SSH: the figures of the demo as it is now (the joined request too).
        let out = exec(server.addr, 9_999, &token, "stats --json")
            .await
            .expect("stats over SSH");
        assert_eq!(
            out.code,
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let f: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(f["requests"].as_u64(), Some(seeded().len() as u64 + 1));
        assert_eq!(f["pending"].as_u64(), Some(d.pending().len() as u64));
    }
    // The readers go away (their connections close): every run ends.
    for h in &handles {
        let _ = h
            .disconnect(russh::Disconnect::ByApplication, "", "en")
            .await;
    }
    drop(handles);
    let deadline = Instant::now() + GUARD;
    while server.commands() > 0 {
        assert!(
            Instant::now() < deadline,
            "the watches ended with their clients"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let shared = server.calls().listing_reads;
    server.stop().await;
    (calls, shared.sent, seen_in)
}

/// One watcher and a hundred over SSH, on one scope, for two periods: the hundred cost the
/// service what one costs (the listing's reads are shared); a request joined is printed
/// within one period; the runs end when their clients go.
#[test]
fn a_hundred_watchers_over_ssh_cost_the_calls_of_one() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (one, _, seen_one) = rt.block_on(watch_over_ssh(1));
    let (hundred, sent, seen_hundred) = rt.block_on(watch_over_ssh(100));
    eprintln!(
        "two periods of watching: 1 watcher {one} calls (new request seen in {seen_one:?}), 100 watchers {hundred} calls (seen in {seen_hundred:?}; listing reads sent {sent})"
    );
    assert!(one >= 2, "each period reads the listing: {one}");
    assert!(
        hundred <= one + 2,
        "100 watchers made {hundred} calls in two periods; one makes {one}"
    );
}

/// A client of the demo as `label`.
fn client_as(d: &DemoHandle, label: &str) -> club_admin::api::ApiClient {
    let u = d.user(label).expect("demo account");
    club_admin::api::ApiClient::new(
        &d.base_url,
        club_admin::api::Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        club_admin::api::ClientOptions::default(),
    )
    .expect("client")
}

/// An administrator's dashboard on the demo (real update, runner, worker and HTTP client),
/// every page of its queue loaded (`G`), the queue shown first.
async fn admin_dashboard(d: &DemoHandle) -> crate::common::headless::Headless {
    let model = club_admin::app::Model::new(club_admin::app::ModelOptions {
        review_opens_term: false,
        ..club_admin::app::ModelOptions::new(&d.base_url)
    });
    let mut h = crate::common::headless::Headless::new(model, client_as(d, "admin"), 8);
    h.run_until_idle(GUARD).await.expect("the first load");
    h.send(club_admin::app::Msg::Key(club_admin::app::Key::char('G')));
    h.run_until_idle(GUARD).await.expect("every page");
    h
}

/// The figures' counts by status, in all and per club (the club's id first).
fn counts(f: &club_admin::ops::stats::Figures) -> Vec<(Option<Uuid>, [u64; 3])> {
    let mut out: Vec<_> = f
        .clubs
        .iter()
        .map(|c| (Some(c.id), [c.pending, c.approved, c.declined]))
        .collect();
    out.sort();
    out.push((None, [f.pending, f.approved, f.declined]));
    out
}

/// One automatic refresh of each dashboard, the one without the view first: their calls.
async fn refresh_both(
    d: &DemoHandle,
    queue_only: &mut crate::common::headless::Headless,
    viewing: &mut crate::common::headless::Headless,
) -> (u64, u64) {
    let mut calls = Vec::new();
    for h in [queue_only, viewing] {
        let before = d.calls();
        h.send(club_admin::app::Msg::AutoRefresh);
        h.run_until(GUARD, |m| !m.term_reading())
            .await
            .expect("a refresh");
        calls.push(d.calls() - before);
    }
    (calls[0], calls[1])
}

/// The view's figures equal those of a whole read of the demo now.
async fn figures_are_whole(d: &DemoHandle, h: &crate::common::headless::Headless) {
    use club_admin::app::model::Loadable;
    let whole = club_admin::ops::stats::read_pages(
        &client_as(d, "admin"),
        &club_admin::api::RequestFilter::default(),
        50,
    )
    .await
    .expect("a whole read");
    let offset = chrono::FixedOffset::east_opt(0).expect("UTC");
    let Loadable::Loaded(shown) = h.model.term() else {
        panic!("figures: {:?}", h.model.term());
    };
    let whole = club_admin::ops::stats::figures(&whole, None, None, offset);
    assert_eq!(counts(shown), counts(&whole));
}

/// The term view's refresh costs what the queue's refresh costs: two administrators'
/// dashboards on the demo, every page of their queues loaded, the term view open in one.
/// After a new request, then after an approval and a deletion, the automatic refresh of
/// the one with the view open makes the calls of the other's (the queue's pages and its
/// rows read again tell the view), and its figures are those of a whole read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_term_s_refresh_costs_the_queue_s_and_misses_nothing() {
    use club_admin::api::MembershipStatus;
    use club_admin::app::model::Loadable;
    use club_admin::app::{Key, Msg};
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut queue_only = admin_dashboard(&d).await;
    let mut viewing = admin_dashboard(&d).await;
    viewing.send(Msg::Key(Key::char('T')));
    let loaded =
        |m: &club_admin::app::Model| !m.term_reading() && matches!(m.term(), Loadable::Loaded(_));
    viewing
        .run_until(GUARD, loaded)
        .await
        .expect("the view's whole read");

    // A new request: the service's count grows, and the queue's refresh reads on to it.
    let asked = d
        .join(d.student_ids()[0], d.club_ids()[0])
        .expect("a new request");
    let (queue, view) = refresh_both(&d, &mut queue_only, &mut viewing).await;
    eprintln!(
        "a refresh after a new request: the queue's {queue} calls, with the term view open {view}"
    );
    assert!(viewing.model.queue().items().iter().any(|i| i.id == asked));
    assert_eq!(view, queue, "the queue's reads tell the view");
    figures_are_whole(&d, &viewing).await;

    let approved = d.pending_for("moderator")[0];
    client_as(&d, "moderator")
        .update_club_request(
            approved,
            &MembershipStatus::Approved,
            club_admin::ops::stats::LEVELS,
        )
        .await
        .expect("approved");
    let deleted = d
        .requests_of("requester")
        .into_iter()
        .find(|id| d.request_status(*id) == Some(MembershipStatus::Pending))
        .expect("a pending request of the requester's");
    client_as(&d, "requester")
        .delete_club_request(deleted)
        .await
        .expect("deleted");
    let (queue, view) = refresh_both(&d, &mut queue_only, &mut viewing).await;
    eprintln!(
        "a refresh after a decision and a deletion: the queue's {queue} calls, with the term view open {view}"
    );
    assert_eq!(view, queue, "the queue's reads tell the view");
    figures_are_whole(&d, &viewing).await;
}
