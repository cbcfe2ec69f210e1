//! A bulk while the service cannot be reached: the dashboard's writes wait (as the command
//! line's run waits on its lost answers) instead of being spent on a service that drops
//! every connection, and go on when it is back; the progress says so. The real worker and
//! client against the demo over HTTP.

use crate::common;

use std::time::Duration;

use club_admin::api::*;
use club_admin::app::Outcome;
use club_admin::demo::{self, DemoOptions, Faults};
use club_admin::runtime::headless::Headless;
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
    let screen_text = screen(&h.model, 120, 40);
    assert!(
        screen_text.contains("paused: the service cannot be reached"),
        "{screen_text}"
    );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bulk_whose_service_stopped_before_its_first_write_waits_and_lands_whole_when_it_is_back()
{
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
    let mut door = Door::open_to(upstream).await;
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
