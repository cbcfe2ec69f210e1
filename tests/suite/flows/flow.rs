//! Flow tests: `update`, the real worker and API client, against the demo server over HTTP.
//! The driver runs effects as the event loop does and settles until nothing is in flight.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::api::*;
use club_admin::app::KeyCode;
use club_admin::app::Msg;
use club_admin::app::model::*;
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults};
use common::*;
use uuid::Uuid;

struct Driver {
    h: Headless,
}

impl Driver {
    async fn new(d: &DemoHandle, label: &str) -> Driver {
        let u = d.user(label).expect("user");
        let client = ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
            ClientOptions {
                get_retries: 0,
                ..ClientOptions::default()
            },
        )
        .expect("client");
        let m = model_from(live_options_at(&d.base_url));
        let mut drv = Driver {
            h: Headless::new(m, client, 8),
        };
        drv.settle().await;
        drv
    }

    async fn settle(&mut self) {
        self.h
            .run_until_idle(Duration::from_secs(20))
            .await
            .expect("settled in time");
    }

    async fn send(&mut self, msg: Msg) {
        self.h.send(msg);
        self.settle().await;
    }

    async fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.send(key(c)).await;
        }
    }

    fn selected(&self) -> uuid::Uuid {
        self.h.model.queue().selected().expect("selected").id
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approve_decline_delete_bulk_and_add_contact_against_the_demo() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut drv = Driver::new(&d, "moderator").await;
    let pending = d.pending_for("moderator");
    assert!(matches!(drv.h.model.user(), Loadable::Loaded(_)));
    assert!(
        matches!(drv.h.model.listing().scope, ListScope::Clubs(ref c) if c.len() == 4),
        "{:?}",
        drv.h.model.listing().scope
    );
    assert_eq!(drv.h.model.listing().total, Some(pending.len() as u64));
    assert!(
        drv.h.model.queue().items().len() >= 50,
        "first page (and maybe the next) loaded"
    );
    assert!(
        drv.h
            .model
            .queue()
            .items()
            .iter()
            .all(|i| i.status() == Some(&MembershipStatus::Pending))
    );

    let first = drv.selected();
    drv.keys("a").await;
    assert_eq!(d.request_status(first), Some(MembershipStatus::Approved));
    assert_eq!(
        drv.h
            .model
            .queue()
            .get(first)
            .and_then(|i| i.status().cloned()),
        Some(MembershipStatus::Approved)
    );
    let second = drv.selected();
    assert_ne!(first, second);
    drv.keys("x").await;
    assert_eq!(d.request_status(second), Some(MembershipStatus::Declined));
    // A student moderator may not delete another student's request (the deployed service
    // answers 403): `D` is not offered, and pressed it sends nothing and says why.
    let third = drv.selected();
    assert!(!hint_bar(&drv.h.model, 120).contains("D delete"));
    drv.keys("D").await;
    assert!(
        drv.h.model.popup().is_none(),
        "no question: nothing to confirm"
    );
    assert_eq!(d.request_status(third), Some(MembershipStatus::Pending));
    assert!(
        drv.h
            .model
            .status_text()
            .unwrap_or_default()
            .contains("a student may delete only their own requests")
    );

    drv.keys("j   ").await;
    let marked = drv.h.model.queue().marked_ids();
    assert_eq!(marked.len(), 3);
    drv.keys("ay").await;
    for id in &marked {
        assert_eq!(d.request_status(*id), Some(MembershipStatus::Approved));
    }
    assert!(drv.h.model.queue().marked_ids().is_empty());
    assert!(
        drv.h
            .model
            .status_text()
            .expect("status")
            .contains("3 of 3 done")
    );

    // Club lookup and a new contact on a club the moderator staffs.
    let club_id = match &drv.h.model.listing().scope {
        ListScope::Clubs(c) => c[0],
        _ => unreachable!(),
    };
    drv.send(key('c')).await;
    for c in club_id.to_string().chars() {
        drv.send(key(c)).await;
    }
    drv.send(code(KeyCode::Enter)).await;
    assert_eq!(drv.h.model.club().club.get().map(|c| c.id), Some(club_id));
    drv.keys("n").await;
    drv.send(code(KeyCode::Right)).await; // email
    drv.send(code(KeyCode::Tab)).await;
    for c in "new-contact@school.example.ac.th".chars() {
        drv.send(key(c)).await;
    }
    drv.send(code(KeyCode::Enter)).await;
    assert!(
        d.contact_values(club_id)
            .contains(&"new-contact@school.example.ac.th".to_owned())
    );
    assert!(
        drv.h
            .model
            .club()
            .club
            .get()
            .and_then(|c| c.contacts.as_ref())
            .is_some_and(|c| c
                .iter()
                .any(|x| x.value.as_deref() == Some("new-contact@school.example.ac.th")))
    );

    let muts = d.mutations();
    let mut dedup = muts.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(muts.len(), dedup.len(), "no action sent twice: {muts:?}");
    // approve, decline, three in bulk, the contact (the delete was not sent).
    assert_eq!(muts.len(), 6);
    assert_eq!(drv.h.audit().len(), 6);
    assert!(
        drv.h
            .audit()
            .iter()
            .all(|a| a.outcome == club_admin::app::Outcome::Ok)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_never_shows_an_unconfirmed_approval() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut drv = Driver::new(&d, "moderator").await;
    let first = drv.selected();
    d.set_faults(Faults {
        drop_rate: 1.0,
        ..Faults::default()
    });
    drv.keys("a").await;
    let row = drv.h.model.queue().get(first).expect("row");
    assert_eq!(
        row.status(),
        Some(&MembershipStatus::Pending),
        "not shown approved"
    );
    assert!(
        row.error.as_deref().unwrap_or("").contains("connection"),
        "{:?}",
        row.error
    );
    assert!(matches!(drv.h.model.connection(), Connection::Offline(_)));
    assert_eq!(d.request_status(first), Some(MembershipStatus::Pending));
    d.set_faults(Faults::default());
    drv.keys("r").await;
    assert!(matches!(drv.h.model.connection(), Connection::Online));
    assert_eq!(
        drv.h
            .model
            .queue()
            .get(first)
            .and_then(|i| i.status().cloned()),
        Some(MembershipStatus::Pending)
    );
    assert!(d.mutations().is_empty(), "the write was never resent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approved_elsewhere_shows_its_new_state() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut drv = Driver::new(&d, "moderator").await;
    let target = drv.selected();
    // Another session of a staff student (an administrator writes nothing).
    let elsewhere = d.user("moderator").expect("moderator");
    let other = ApiClient::new(
        &d.base_url,
        Credentials::new(
            Some(elsewhere.api_key.clone()),
            Some(elsewhere.token.clone()),
        ),
        ClientOptions::default(),
    )
    .expect("client");
    other
        .update_club_request(target, &MembershipStatus::Approved, Levels::ID_ONLY)
        .await
        .expect("approved elsewhere");
    drv.keys("a").await;
    // Approved by someone else first: not a failure. The row takes the server's status,
    // keeps no mark and no error; the log (and the audit) say `already`.
    let row = drv.h.model.queue().get(target).expect("row");
    assert_eq!(
        row.error, None,
        "no error: the request is as this moderator wanted"
    );
    assert!(!row.marked);
    assert_eq!(row.status(), Some(&MembershipStatus::Approved));
    let last = drv.h.model.log().entries().last().expect("a log line");
    assert_eq!(last.outcome, club_admin::app::Outcome::Already);
    assert!(
        drv.h
            .model
            .status_text()
            .unwrap_or_default()
            .contains("already approved by someone else"),
        "{:?}",
        drv.h.model.status_text()
    );

    // Declined by someone else, then approved here: a conflict, shown as one.
    let next = drv.selected();
    assert_ne!(next, target);
    other
        .update_club_request(next, &MembershipStatus::Declined, Levels::ID_ONLY)
        .await
        .expect("declined elsewhere");
    drv.keys("a").await;
    let row = drv.h.model.queue().get(next).expect("row");
    assert_eq!(row.status(), Some(&MembershipStatus::Declined));
    assert!(
        row.error.as_deref().unwrap_or("").contains("conflict"),
        "{:?}",
        row.error
    );
    let last = drv.h.model.log().entries().last().expect("a log line");
    assert_eq!(last.outcome, club_admin::app::Outcome::Conflict);
    assert_eq!(
        d.request_status(next),
        Some(MembershipStatus::Declined),
        "nothing changed on the server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_session_keeps_the_queue_and_signing_in_resumes() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut drv = Driver::new(&d, "moderator").await;
    let n = drv.h.model.queue().items().len();
    let expired = d
        .issue_token(
            "moderator",
            chrono::Utc::now() - chrono::Duration::seconds(1),
        )
        .expect("token");
    drv.h
        .client()
        .set_token(Some(secrecy::SecretString::from(expired)));
    let target = drv.selected();
    drv.keys("a").await;
    assert!(drv.h.model.session_expired());
    // No pop-up opens by itself: the status line says which key signs in; the decision the
    // server refused (401: not applied) waits for it.
    assert!(drv.h.model.popup().is_none());
    assert!(
        drv.h
            .model
            .status_text()
            .unwrap_or_default()
            .contains("press S to sign in")
    );
    assert_eq!(drv.h.model.held().requests(), 1);
    assert_eq!(drv.h.model.queue().items().len(), n);
    assert_eq!(d.request_status(target), Some(MembershipStatus::Pending));
    // More keys meant for the queue act on the queue (approve is refused, said why).
    drv.keys("jja").await;
    assert!(drv.h.model.popup().is_none());
    assert_eq!(drv.h.model.held().requests(), 1);
    let fresh = d
        .issue_token("moderator", chrono::Utc::now() + chrono::Duration::hours(1))
        .expect("token");
    // The pasted token opens the sign-in pop-up with it; Enter checks it.
    drv.send(Msg::Paste(fresh)).await;
    drv.send(code(KeyCode::Enter)).await;
    assert!(!drv.h.model.session_expired());
    assert!(matches!(drv.h.model.user(), Loadable::Loaded(_)));
    // The same account: the held decision goes by itself, no key pressed.
    drv.h
        .run_until(Duration::from_secs(20), |m| m.held().is_empty())
        .await
        .expect("sent");
    drv.settle().await;
    assert_eq!(d.request_status(target), Some(MembershipStatus::Approved));
    let approved: Vec<_> = drv
        .h
        .audit()
        .iter()
        .filter(|e| e.target == target)
        .map(|e| e.outcome)
        .collect();
    assert_eq!(approved, vec![club_admin::app::Outcome::Ok], "one line, ok");
}

/// The fault matrix for the dashboard: mark 20, `a`, `y` against the demo server
/// with every fault flag on (5xx, dropped connections, answers lost after the write), then
/// no key at all. The dashboard settles every row by itself (re-reads with backoff): each
/// row, the queue's counts on screen and the audit equal the server, and each request got
/// at most one write. Then `a` on rows the server still has pending sends once more, and
/// never to an approved one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fault_matrix_the_dashboard_settles_every_row_by_itself() {
    let d = demo::start(DemoOptions {
        extra_requests: 20,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let mut drv = Driver::new(&d, "moderator").await;
    let pending = d.pending_for("moderator");
    assert!(pending.len() >= 20, "{}", pending.len());
    for _ in 0..20 {
        drv.h.send(key(' '));
    }
    let marked = drv.h.model.queue().marked_ids();
    assert_eq!(marked.len(), 20);
    d.set_faults(Faults {
        failure_rate: 0.3,
        drop_rate: 0.2,
        drop_after_write_rate: 0.3,
        ..Faults::default()
    });
    drv.h.send(key('a'));
    drv.h.send(key('y'));
    let settled =
        |m: &club_admin::app::Model| m.decisions().lost().is_empty() && m.held().is_empty();
    let ran = drv.h.run_until(Duration::from_secs(120), settled).await;
    d.set_faults(Faults::default());
    ran.expect("every row settled without a key");

    let check = |drv: &Driver, what: &str| {
        let m = &drv.h.model;
        let mut approved = 0;
        for id in &marked {
            let server = d.request_status(*id);
            let row = m.queue().get(*id).expect("row").status().cloned();
            assert_eq!(
                row, server,
                "{what}: the row of {id} shows the server's status"
            );
            if server == Some(MembershipStatus::Approved) {
                approved += 1;
            }
            let last = drv
                .h
                .audit()
                .iter()
                .rev()
                .find(|a| a.target == *id)
                .map(|a| a.outcome.as_str());
            match server {
                Some(MembershipStatus::Approved) => assert_eq!(last, Some("ok"), "{what}: {id}"),
                _ => assert!(
                    matches!(last, Some("failed") | None),
                    "{what}: {id}: {last:?}"
                ),
            }
        }
        let screen = screen(m, 120, 40);
        let others = m
            .queue()
            .items()
            .iter()
            .filter(|i| !marked.contains(&i.id))
            .filter(|i| i.status() == Some(&MembershipStatus::Approved))
            .count();
        assert!(
            screen.contains(&format!("{} approved", approved + others)),
            "{what}: the counts on screen are the server's ({approved} approved):\n{screen}"
        );
        approved
    };
    let approved = check(&drv, "after the faults");
    for (id, n) in writes_per_request(&d, 0) {
        assert_eq!(n, 1, "{id} got {n} writes");
    }
    assert!(approved > 0, "some approvals went through the faults");
    let unknown = drv
        .h
        .audit()
        .iter()
        .filter(|a| a.outcome == club_admin::app::Outcome::Unknown)
        .count();
    assert!(unknown > 0, "answers were lost (and settled by re-reads)");

    // Whatever is still pending is decided again, once, by the moderator.
    let left: Vec<Uuid> = marked
        .iter()
        .copied()
        .filter(|id| d.request_status(*id) == Some(MembershipStatus::Pending))
        .collect();
    if !left.is_empty() {
        // They stay marked, with their error: `a`, `y` decides them again.
        let mut still: Vec<Uuid> = drv.h.model.queue().marked_ids();
        still.sort();
        let mut want = left.clone();
        want.sort();
        assert_eq!(
            still, want,
            "the rows not applied stay marked for another try"
        );
        drv.send(key('a')).await;
        drv.send(key('y')).await;
        drv.h
            .run_until(Duration::from_secs(30), settled)
            .await
            .expect("settled");
        assert_eq!(check(&drv, "after deciding the rest"), 20);
    }
    for (id, n) in writes_per_request(&d, 0) {
        let was_left = left.contains(&id);
        assert!(n <= 1 + usize::from(was_left), "{id} got {n} writes");
    }
}

/// The deployed pool's stall in the dashboard: mark 40, `a`, `y` against the demo imitating the
/// deployed service's pool (`--pool 16`), at a ceiling of 1, 8 and 64: every write lands once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pool_never_stalls_the_dashboards_bulk_approve_at_any_ceiling() {
    for ceiling in [1, 8, 64] {
        let d = demo::start(DemoOptions {
            extra_requests: 40,
            pool: Some(demo::Pool {
                acquire_timeout: Duration::from_secs(2),
                ..demo::Pool::deployed(16)
            }),
            ..DemoOptions::default()
        })
        .await
        .expect("demo");
        let u = d.user("moderator").expect("user");
        let client = ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
            ClientOptions {
                get_retries: 0,
                concurrency: ceiling,
                ..ClientOptions::default()
            },
        )
        .expect("client");
        let m = model_from(live_options_at(&d.base_url));
        let mut drv = Driver {
            h: Headless::new(m, client, ceiling),
        };
        drv.settle().await;
        for _ in 0..40 {
            drv.h.send(key(' '));
        }
        let marked = drv.h.model.queue().marked_ids();
        assert_eq!(marked.len(), 40);
        drv.h.send(key('a'));
        drv.h.send(key('y'));
        drv.h
            .run_until(Duration::from_secs(60), |m| {
                m.decisions().lost().is_empty() && m.held().is_empty()
            })
            .await
            .expect("done");
        for id in &marked {
            assert_eq!(
                d.request_status(*id),
                Some(MembershipStatus::Approved),
                "--concurrency {ceiling}"
            );
        }
        let w = writes_per_request(&d, 0);
        assert_eq!(w.len(), 40);
        assert!(
            w.values().all(|n| *n == 1),
            "--concurrency {ceiling}: {w:?}"
        );
    }
}

/// The demo's pool imitates the deployed stall (api-notes.md, "Other"): 64 signed-in
/// requests at once, with no limit of ours, wait on each other until the acquire timeout
/// and fail with 500; the same requests under the adaptive limit all succeed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demos_pool_stalls_as_the_deployed_service_does() {
    let d = demo::start(DemoOptions {
        pool: Some(demo::Pool {
            acquire_timeout: Duration::from_millis(300),
            ..demo::Pool::deployed(16)
        }),
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let u = d.user("moderator").expect("user");
    let client = |fixed: bool| {
        ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
            ClientOptions {
                get_retries: 0,
                concurrency: 64,
                fixed_concurrency: fixed,
                ..ClientOptions::default()
            },
        )
        .expect("client")
    };
    for (fixed, stalls) in [(true, true), (false, false)] {
        let c = client(fixed);
        let calls = (0..64).map(|_| {
            let c = c.clone();
            async move { c.current_user().await }
        });
        let answers = futures::future::join_all(calls).await;
        let timed_out = answers
            .iter()
            .filter(|a| {
                a.as_ref().is_err_and(|e| {
                    e.info()
                        .and_then(|i| i.detail.as_deref())
                        .is_some_and(|d| d.contains("pool timed out"))
                })
            })
            .count();
        assert_eq!(
            timed_out > 0,
            stalls,
            "fixed {fixed}: {timed_out} of 64 timed out"
        );
        if !stalls {
            assert!(answers.iter().all(|a| a.is_ok()));
        }
    }
}

/// The club pane shows each contact's type and value against a server that answers nested
/// contacts as the deployed service does (bare `{id}` below the descendant level `default`,
/// api-notes.md): at `default` and at `detailed` (students kept at `compact`, the contacts
/// read again), in English and Thai, never the `?` of a contact without its type.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_club_pane_shows_contact_types_and_values_at_every_level() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    for lang in [
        club_admin::i18n::Lang::English,
        club_admin::i18n::Lang::Thai,
    ] {
        let u = d.user("moderator").expect("user");
        let client = crate::common::client_as(&d, u);
        let m = model_from(ModelOptions {
            lang,
            ..live_options_at(&d.base_url)
        });
        let mut drv = Driver {
            h: Headless::new(m, client, 8),
        };
        drv.settle().await;
        let club_id = d
            .club_ids()
            .into_iter()
            .find(|c| !d.contact_values(*c).is_empty())
            .expect("a club with contacts");
        drv.send(key('c')).await;
        for c in club_id.to_string().chars() {
            drv.send(key(c)).await;
        }
        drv.send(code(KeyCode::Enter)).await;
        for level in ["default", "detailed"] {
            if level == "detailed" {
                // The pane's level changed: the club is read again at it.
                drv.send(key(':')).await;
                for c in "club-level detailed".chars() {
                    drv.send(key(c)).await;
                }
                drv.send(code(KeyCode::Enter)).await;
                assert_eq!(drv.h.model.club().level(), FetchLevel::Detailed);
            }
            let club = drv.h.model.club().club.get().cloned().expect("club read");
            assert_eq!(club.id, club_id);
            let contacts = club.contacts.expect("contacts");
            assert!(
                contacts
                    .iter()
                    .all(|c| c.kind.is_some() && c.value.is_some()),
                "{lang:?} {level}: {contacts:?}"
            );
            let s = screen(&drv.h.model, 120, 40);
            for v in d.contact_values(club_id) {
                assert!(s.contains(&v), "{lang:?} {level}: {v} not on screen:\n{s}");
            }
        }
    }
}

/// A base URL that names another server (a web server, another JSON API) is never shown
/// online: its answers are not the service's envelope, so the header shows it offline and the
/// status line says it is not the club service, in English and Thai; nothing is listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_is_not_the_club_service_is_not_shown_online() {
    use wiremock::matchers::method;
    use wiremock::{Mock, MockServer, ResponseTemplate};
    for (code, body) in [
        (
            200,
            serde_json::json!({"status": "ok", "user": {"id": 1, "name": "someone"}}),
        ),
        (
            200,
            serde_json::Value::String("<html><body>Welcome to nginx!</body></html>".into()),
        ),
        (
            404,
            serde_json::Value::String("<html><body>404 Not Found</body></html>".into()),
        ),
    ] {
        let server = MockServer::start().await;
        let template = match &body {
            serde_json::Value::String(html) => {
                ResponseTemplate::new(code).set_body_string(html.clone())
            }
            json => ResponseTemplate::new(code).set_body_json(json.clone()),
        };
        Mock::given(method("GET"))
            .respond_with(template.clone())
            .mount(&server)
            .await;
        Mock::given(method("PUT"))
            .respond_with(template)
            .mount(&server)
            .await;
        for (lang, words, online) in [
            (
                club_admin::i18n::Lang::English,
                "this server is not the club service",
                "online",
            ),
            (
                club_admin::i18n::Lang::Thai,
                "เซิร์ฟเวอร์นี้ไม่ใช่บริการชุมนุม",
                "ออนไลน์",
            ),
        ] {
            let client = ApiClient::new(
                &server.uri(),
                Credentials::new(Some("mysk_k_x".into()), Some("tok.en.x".into())),
                ClientOptions {
                    get_retries: 0,
                    ..ClientOptions::default()
                },
            )
            .expect("client");
            let m = model_from(ModelOptions {
                lang,
                ..live_options_at(&server.uri())
            });
            let mut drv = Driver {
                h: Headless::new(m, client, 8),
            };
            drv.settle().await;
            assert!(
                matches!(drv.h.model.connection(), Connection::Offline(why) if why.contains(words)),
                "{lang:?}: {:?}",
                drv.h.model.connection()
            );
            let status = drv.h.model.status_text().unwrap_or_default();
            assert!(status.contains(words), "{lang:?}: {status}");
            assert!(drv.h.model.queue().is_empty(), "nothing listed");
            let s = screen(&drv.h.model, 120, 40);
            let header = s.lines().next().unwrap_or("");
            assert!(
                !header.contains(&format!("● {online}")),
                "{lang:?}: {header}"
            );
        }
    }
}

/// A token file others can read (mode 644): the start-up warning is one clear sentence on
/// the status line, which the first load does not replace, and in the activity log ("secret
/// file check failed: ..."), never "... failed: warning"; in English and Thai.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_readable_token_file_is_said_on_the_status_line_and_in_the_log() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    for (lang, sentence, check) in [
        (
            club_admin::i18n::Lang::English,
            "the token file /home/t/.local/state/club-admin/token can be read by other users (mode 644): run chmod 600 /home/t/.local/state/club-admin/token so that only you can read it",
            "secret file check failed: the token file",
        ),
        (
            club_admin::i18n::Lang::Thai,
            "ไฟล์โทเคน /home/t/.local/state/club-admin/token ผู้ใช้อื่นอ่านได้ (สิทธิ์ 644): สั่ง chmod 600 /home/t/.local/state/club-admin/token เพื่อให้อ่านได้เฉพาะคุณ",
            "ตรวจสิทธิ์ไฟล์ลับ ไม่สำเร็จ: ไฟล์โทเคน",
        ),
    ] {
        let u = d.user("moderator").expect("user");
        let client = crate::common::client_as(&d, u);
        let m = model_from(ModelOptions {
            lang,
            ..live_options_at(&d.base_url)
        });
        let mut drv = Driver {
            h: Headless::new(m, client, 8),
        };
        drv.send(Msg::Warning(club_admin::config::ReadableSecret {
            file: club_admin::config::SecretFile::Token,
            path: "/home/t/.local/state/club-admin/token".into(),
            mode: 0o644,
        }))
        .await;
        assert!(!drv.h.model.queue().is_empty(), "the queue loaded");
        let status = drv.h.model.status_text().unwrap_or_default();
        assert!(status.contains(sentence), "{lang:?}: {status}");
        drv.send(key('L')).await;
        let s = screen(&drv.h.model, 200, 40);
        assert!(
            s.contains(club_admin::text::for_terminal(check).as_ref()),
            "{lang:?}:\n{s}"
        );
        assert!(
            !s.contains("failed: warning") && !s.contains("ไม่สำเร็จ: คำเตือน"),
            "{s}"
        );
    }
}
