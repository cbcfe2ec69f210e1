//! A bulk while the service cannot be reached: the dashboard's writes wait (as the command
//! line's run waits on its lost answers) instead of being spent on a service that drops
//! every connection, and go on when it is back; the progress says so. The real worker and
//! client against the demo over HTTP.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::api::*;
use club_admin::app::Outcome;
use club_admin::demo::{self, DemoOptions, Faults};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_pauses_while_the_service_cannot_be_reached_and_goes_on_when_it_is_back() {
    let d = demo::start(DemoOptions {
        extra_requests: 60,
        faults: Faults {
            latency: Duration::from_millis(150),
            ..Faults::default()
        },
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let u = d.moderator().clone();
    let client = ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let mut h = Headless::new(model_from(live_options_at(&d.base_url)), client, 4);
    h.run_until_idle(Duration::from_secs(20))
        .await
        .expect("loaded");
    for _ in 0..40 {
        h.send(key(' '));
    }
    let marked = h.model.queue().marked_ids();
    assert_eq!(marked.len(), 40);
    h.send(key('a'));
    h.send(key('y'));
    // The service is gone as the bulk starts: every connection is closed unanswered.
    d.set_faults(Faults {
        drop_rate: 1.0,
        ..Faults::default()
    });
    let before = d.writes_received().len();
    // Answers are applied as they come (`run_until` returns at its limit: writes still
    // wait, so the dashboard is never idle meanwhile).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !h.model.writes_paused() {
        assert!(std::time::Instant::now() < deadline, "the writes pause");
        let _ = h.run_until(Duration::from_millis(200), |_| false).await;
    }
    // The progress says so (a failed read of the listing may stand on the status line a
    // moment before it: the newest message shows).
    loop {
        let screen_text = screen(&h.model, 120, 40);
        if screen_text.contains("paused: the service cannot be reached") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{screen_text}");
        let _ = h.run_until(Duration::from_millis(200), |_| false).await;
    }
    // Two seconds more with the service gone: no write goes but the ones already started.
    let _ = h.run_until(Duration::from_secs(2), |_| false).await;
    let during = d.writes_received().len() - before;
    // At most the writes the worker had started (its limit of calls in flight).
    assert!(
        during <= 8,
        "{during} writes spent on a service that could not be reached"
    );

    // Back: the re-reads get through, the writes go on, every request the bulk had not
    // tried yet ends approved; the few sent into the outage are settled by their re-reads
    // (dropped before the server ran them: not applied, still pending).
    d.set_faults(Faults::default());
    let settled = |m: &club_admin::app::Model| {
        !m.writes_paused()
            && m.decisions().lost().is_empty()
            && marked
                .iter()
                .all(|id| m.decisions().deciding(*id).is_none())
    };
    h.run_until(Duration::from_secs(90), settled)
        .await
        .expect("the bulk went on once the service was back");
    let audit = h.audit();
    let mut lost_in_the_outage = 0;
    for id in &marked {
        let last = audit
            .iter()
            .rev()
            .find(|e| e.target == *id)
            .unwrap_or_else(|| panic!("{id}: no outcome"));
        if d.request_status(*id) == Some(MembershipStatus::Approved) {
            assert_eq!(last.outcome.as_str(), "ok", "{id}: {last:?}");
        } else {
            lost_in_the_outage += 1;
            assert_eq!(last.outcome.as_str(), "failed", "{id}: {last:?}");
            assert!(
                last.detail
                    .as_deref()
                    .is_some_and(|t| t.contains("still pending")),
                "{last:?}"
            );
        }
    }
    assert!(
        lost_in_the_outage <= during,
        "{lost_in_the_outage} > {during}"
    );
}

/// A door in front of a server: open, it forwards every connection; shut, nothing listens
/// on its port (a connection is refused, as when the service is stopped) and the
/// connections it forwarded are cut.
struct Door {
    addr: std::net::SocketAddr,
    upstream: std::net::SocketAddr,
    task: Option<(
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    )>,
}

impl Door {
    async fn open_to(upstream: std::net::SocketAddr) -> Door {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let mut door = Door {
            addr,
            upstream,
            task: None,
        };
        door.serve(listener);
        door
    }

    fn serve(&mut self, listener: tokio::net::TcpListener) {
        let upstream = self.upstream;
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let mut conns = tokio::task::JoinSet::new();
            loop {
                tokio::select! {
                    _ = &mut stopped => break,
                    accepted = listener.accept() => {
                        let Ok((mut down, _)) = accepted else { break };
                        conns.spawn(async move {
                            if let Ok(mut up) = tokio::net::TcpStream::connect(upstream).await {
                                let _ = tokio::io::copy_bidirectional(&mut down, &mut up).await;
                            }
                        });
                    }
                }
            }
            drop(listener);
            // Every forwarded connection is cut before `shut` returns.
            conns.shutdown().await;
        });
        self.task = Some((stop, task));
    }

    fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Nothing listens any more; every forwarded connection is cut.
    async fn shut(&mut self) {
        if let Some((stop, task)) = self.task.take() {
            let _ = stop.send(());
            let _ = task.await;
        }
    }

    /// Listens again on the same port.
    async fn reopen(&mut self) {
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .expect("the same port again");
        self.serve(listener);
    }
}

/// The demo with 20 more requests, and an open door in front of it.
async fn demo_behind_a_door() -> (club_admin::demo::DemoHandle, Door) {
    let d = demo::start(DemoOptions {
        extra_requests: 20,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let upstream: std::net::SocketAddr = d
        .base_url
        .trim_start_matches("http://")
        .parse()
        .expect("the demo's address");
    let door = Door::open_to(upstream).await;
    (d, door)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_whose_service_stopped_before_its_first_write_waits_and_lands_whole_when_it_is_back()
{
    let (d, mut door) = demo_behind_a_door().await;
    let u = d.moderator().clone();
    let client = ApiClient::new(
        &door.base_url(),
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let mut h = Headless::new(model_from(live_options_at(&door.base_url())), client, 4);
    h.run_until_idle(Duration::from_secs(20))
        .await
        .expect("loaded");
    for _ in 0..10 {
        h.send(key(' '));
    }
    let marked = h.model.queue().marked_ids();
    assert_eq!(marked.len(), 10);
    let before = d.writes_received().len();
    // The service stops just before the bulk's first write.
    door.shut().await;
    h.send(key('a'));
    h.send(key('y'));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let _ = h.run_until(Duration::from_millis(200), |_| false).await;
        let text = screen(&h.model, 120, 40);
        if text.contains("paused: the service cannot be reached; 10 waiting") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{text}");
    }
    assert!(
        d.writes_received().len() == before,
        "nothing reached the server: {:?}",
        d.writes_received()
    );
    // Nothing that did not leave is a failure: each try is `queued`, none `failed`.
    let failed = h.audit().iter().filter(|e| e.outcome == Outcome::Failed);
    assert_eq!(failed.count(), 0, "{:?}", h.audit());
    assert!(h.audit().iter().any(|e| e.outcome == Outcome::Queued));

    // Back: every write goes by itself (no key), all applied, 0 failed.
    door.reopen().await;
    let done = |m: &club_admin::app::Model| marked.iter().all(|id| m.deciding(*id).is_none());
    h.run_until(Duration::from_secs(90), done)
        .await
        .expect("the bulk landed once the service was back");
    for id in &marked {
        assert_eq!(
            d.request_status(*id),
            Some(MembershipStatus::Approved),
            "{id}"
        );
        let last = h.audit().iter().rev().find(|e| e.target == *id);
        assert_eq!(last.map(|e| e.outcome), Some(Outcome::Ok), "{id}");
    }
    let failed = h.audit().iter().filter(|e| e.outcome == Outcome::Failed);
    assert_eq!(failed.count(), 0);
    let text = screen(&h.model, 120, 40);
    assert!(text.contains("10 of 10"), "{text}");
}

/// A run's clock that holds every wait until the test lets it go (`go`), then moves at
/// once: the test sees the run waiting for the service before it brings the service back.
#[derive(Clone)]
struct HeldClock {
    waiting: std::sync::Arc<tokio::sync::Notify>,
    go: tokio::sync::watch::Receiver<bool>,
}

struct HeldStopwatch {
    at: Duration,
    clock: HeldClock,
}

impl club_admin::ops::run::RunClock for HeldClock {
    fn start(&self) -> Box<dyn club_admin::ops::run::Stopwatch> {
        Box::new(HeldStopwatch {
            at: Duration::ZERO,
            clock: self.clone(),
        })
    }
}

impl club_admin::ops::run::Stopwatch for HeldStopwatch {
    fn elapsed(&self) -> Duration {
        self.at
    }

    fn sleep(
        &mut self,
        d: Duration,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        self.at += d;
        let waiting = self.clock.waiting.clone();
        let mut go = self.clock.go.clone();
        Box::pin(async move {
            waiting.notify_one();
            let _ = go.wait_for(|g| *g).await;
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_line_bulk_whose_service_stopped_waits_and_lands_whole_when_it_is_back() {
    use club_admin::ops::run::{Control, Decisions, Verdict};
    use club_admin::ops::{AuditLog, RowAction};
    let (d, mut door) = demo_behind_a_door().await;
    let u = d.moderator().clone();
    let client = ApiClient::new(
        &door.base_url(),
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            concurrency: 4,
            ..ClientOptions::default()
        },
    )
    .expect("client");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("audit.jsonl");
    let log = AuditLog {
        path: Some(path.clone()),
        server: door.base_url(),
        user: Some(u.email.clone()),
        via: "cli",
        ..Default::default()
    };
    let ids: Vec<uuid::Uuid> = d.pending_for(&u.label).into_iter().take(10).collect();
    assert_eq!(ids.len(), 10);
    let (go, gate) = tokio::sync::watch::channel(false);
    let clock = HeldClock {
        waiting: std::sync::Arc::new(tokio::sync::Notify::new()),
        go: gate,
    };
    let waiting = clock.waiting.clone();
    let before = d.writes_received().len();
    // The service stops before the run's first write.
    door.shut().await;
    let run = tokio::spawn({
        let (client, log, ids) = (client.clone(), log.clone(), ids.clone());
        async move {
            let control = Control::with_clock(std::sync::Arc::new(clock));
            let audit_failed = |e: String| panic!("audit line not written: {e}");
            Decisions {
                client: &client,
                log: &log,
                action: RowAction::Approve,
                limit: 4,
                control: &control,
            }
            .send(&ids, &audit_failed, |_, _| {})
            .await
        }
    });
    // A write could not connect and waits for the service: `queued`, not failed.
    tokio::time::timeout(Duration::from_secs(30), waiting.notified())
        .await
        .expect("the run waits for the service");
    let lines = |p: &std::path::Path| -> Vec<club_admin::ops::AuditEntry> {
        std::fs::read_to_string(p)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    };
    let so_far = lines(&path);
    assert!(
        so_far.iter().any(|e| e.outcome == Outcome::Queued),
        "{so_far:?}"
    );
    assert!(
        !so_far.iter().any(|e| e.outcome == Outcome::Failed),
        "{so_far:?}"
    );
    assert_eq!(
        d.writes_received().len(),
        before,
        "nothing reached the server"
    );
    // Back: every write goes, each once, all applied, none failed.
    door.reopen().await;
    let _ = go.send(true);
    let results = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the run ends")
        .expect("the run");
    for (id, v) in &results {
        assert!(matches!(v, Some(Verdict::Done(_))), "{id}: {v:?}");
        assert_eq!(d.request_status(*id), Some(MembershipStatus::Approved));
    }
    assert_eq!(d.writes_received().len() - before, 10, "each write once");
    let all = lines(&path);
    assert!(!all.iter().any(|e| e.outcome == Outcome::Failed), "{all:?}");
    let history = club_admin::ops::history::fold(all);
    assert_eq!(history.len(), 10, "one row per write: {history:?}");
    assert!(
        history.iter().all(|r| r.outcome == Outcome::Ok),
        "{history:?}"
    );
}
