//! A slow link and two service versions, against the demo server over HTTP (the real `update`,
//! worker and client through `Headless`): both service versions and the teacher's role, a warm
//! start, `G` over many pages, reads coming back after an outage, and twenty approvals over a link
//! with 300 ms per call.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, KeyCode, ListPurpose, Msg};
use club_admin::demo::{self, DemoHandle, DemoOptions, Faults, ServiceVersion};
use common::*;

fn client(d: &DemoHandle, label: &str) -> ApiClient {
    let u = d.user(label).expect("user");
    ApiClient::new(
        &d.base_url,
        Credentials::new(Some(u.api_key.clone()), Some(u.token.clone())),
        ClientOptions {
            get_retries: 0,
            ..ClientOptions::default()
        },
    )
    .expect("client")
}

fn fresh_model(d: &DemoHandle) -> club_admin::app::Model {
    model_from(live_options_at(&d.base_url))
}

async fn started(d: &DemoHandle, label: &str) -> Headless {
    let mut h = Headless::new(fresh_model(d), client(d, label), 8);
    settle(&mut h).await;
    h
}

async fn settle(h: &mut Headless) {
    h.run_until_idle(Duration::from_secs(30))
        .await
        .expect("settled in time");
}

async fn press(h: &mut Headless, msg: Msg) {
    h.send(msg);
    settle(h).await;
}

fn status(h: &Headless) -> String {
    h.model.status_text().unwrap_or_default()
}

fn capability_entries(h: &Headless) -> usize {
    h.model
        .log()
        .entries()
        .iter()
        .filter(|e| e.what == "capability")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_0_9_approve_and_decline_are_refused_here_and_the_rest_works() {
    let d = demo::start(DemoOptions {
        api_version: ServiceVersion::V0_9,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let mut h = started(&d, "moderator").await;
    assert_eq!(
        h.model.capabilities().update_route,
        Some(UpdateRoute::Missing),
        "found out at start"
    );
    assert_eq!(
        h.model
            .capabilities()
            .header_notice_in(club_admin::i18n::Lang::English)
            .as_deref(),
        Some("this server cannot approve or decline")
    );
    assert!(
        h.model.queue().items().len() >= 20,
        "the listing works: {} rows",
        h.model.queue().items().len()
    );
    let first = h.model.queue().selected().expect("row").id;
    for k in ['a', 'x', 'a'] {
        press(&mut h, key(k)).await;
        assert!(status(&h).contains("nothing was sent"), "{}", status(&h));
    }
    assert!(d.mutations().is_empty(), "{:?}", d.mutations());
    assert_eq!(capability_entries(&h), 1, "said once");
    assert_eq!(d.request_status(first), Some(MembershipStatus::Pending));
    assert!(h.audit().is_empty(), "nothing was sent, nothing to audit");

    // Reads, delete and contacts work as before.
    press(&mut h, code(KeyCode::Enter)).await;
    assert!(
        h.model
            .queue()
            .get(first)
            .is_some_and(|i| i.read_error.is_none())
    );
    // A student moderator may not delete another student's request (the deployed service
    // answers 403): refused here, nothing sent.
    press(&mut h, key('D')).await;
    assert!(h.model.popup().is_none());
    assert_eq!(d.request_status(first), Some(MembershipStatus::Pending));
    let club_id = match &h.model.listing().scope {
        ListScope::Clubs(c) => c[0],
        other => panic!("{other:?}"),
    };
    press(&mut h, key('c')).await;
    for c in club_id.to_string().chars() {
        press(&mut h, key(c)).await;
    }
    press(&mut h, code(KeyCode::Enter)).await;
    press(&mut h, key('n')).await;
    press(&mut h, code(KeyCode::Right)).await;
    press(&mut h, code(KeyCode::Tab)).await;
    for c in "club@school.example.ac.th".chars() {
        press(&mut h, key(c)).await;
    }
    press(&mut h, code(KeyCode::Enter)).await;
    assert!(
        d.contact_values(club_id)
            .contains(&"club@school.example.ac.th".to_owned())
    );
    assert_eq!(
        d.mutations().len(),
        1,
        "the contact only: {:?}",
        d.mutations()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teacher_on_0_8_is_told_once_and_nothing_is_sent() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = started(&d, "teacher").await;
    assert!(
        matches!(
            h.model.capabilities().update_route,
            Some(UpdateRoute::RoleRefused { ref detail }) if detail.contains("not a student")
        ),
        "{:?}",
        h.model.capabilities().update_route
    );
    assert_eq!(
        h.model
            .capabilities()
            .header_notice_in(club_admin::i18n::Lang::English)
            .as_deref(),
        Some("this account cannot approve or decline")
    );
    assert!(!h.model.queue().items().is_empty(), "the teacher lists");
    for _ in 0..5 {
        press(&mut h, key('a')).await;
    }
    assert!(d.mutations().is_empty());
    assert_eq!(capability_entries(&h), 1, "once, not once per key");
    // The hint bar as drawn offers neither; the rest of the queue's keys are still there.
    let bar = hint_bar(&h.model, 120);
    assert!(
        !bar.contains("approve") && !bar.contains("decline"),
        "{bar}"
    );
    // Nor delete: the server never lets a teacher delete.
    assert!(
        !bar.contains("D delete") && bar.contains("/ filter"),
        "{bar}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warm_start_lists_beside_the_user_and_keeps_to_the_scope() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let cold = started(&d, "moderator").await;
    let saved = cold.model.saved_queue();
    assert!(
        matches!(saved.scope, Some(SavedScope::Clubs(ref c)) if c.len() == 4),
        "{:?}",
        saved.scope
    );
    let rows = cold.model.queue().items().len();
    drop(cold);

    let before = d.calls();
    let mut warm = Headless::new(fresh_model(&d), client(&d, "moderator"), 8);
    warm.send(Msg::Restore(saved.clone()));
    let waiting: Vec<ApiCall> = warm.model.awaiting().cloned().collect();
    assert!(
        waiting.contains(&ApiCall::CurrentUser)
            && waiting.iter().any(|a| matches!(
                a,
                ApiCall::ListRequests {
                    purpose: ListPurpose::Page { page: 1, .. },
                    ..
                }
            )),
        "the listing starts with /auth/user, not after it: {waiting:?}"
    );
    settle(&mut warm).await;
    assert_eq!(warm.model.queue().items().len(), rows);
    assert!(!warm.model.listing().provisional, "confirmed by the server");
    assert_eq!(warm.model.saved_queue().scope, saved.scope);
    assert_eq!(
        d.calls() - before,
        5,
        "user, probe, listing, staffed clubs, the ids of the listing's pages (read once at its \
         first load): the listing is not asked twice"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn g_over_many_pages_lands_on_the_last_pending_request() {
    let d = demo::start(DemoOptions {
        extra_requests: 180,
        ..DemoOptions::default()
    })
    .await
    .expect("demo");
    let mut h = started(&d, "moderator").await;
    let total = d.pending_for("moderator").len();
    assert!(
        h.model.queue().items().len() < total,
        "not everything is listed yet"
    );
    press(&mut h, key('G')).await;
    assert_eq!(h.model.queue().items().len(), total, "every page loaded");
    assert_eq!(h.model.queue().cursor(), total - 1, "on the true last row");
    assert!(!h.model.listing().has_more);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_lost_in_an_outage_come_back_without_a_key() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = started(&d, "moderator").await;
    let first = h.model.queue().selected().expect("row").id;
    d.set_faults(Faults {
        drop_rate: 1.0,
        ..Faults::default()
    });
    press(&mut h, code(KeyCode::Enter)).await;
    assert!(matches!(h.model.connection(), Connection::Offline(_)));
    assert!(
        h.model
            .queue()
            .get(first)
            .is_some_and(|i| i.read_error.is_some())
    );
    let at = h.model.retry_at().expect("a retry is planned");
    // Still down at the first retry: planned again, further off.
    press(&mut h, Msg::Retry(at)).await;
    let next = h.model.retry_at().expect("planned again");
    assert!(next > at);
    // The link comes back: the retry timer (no key) reads the row again.
    d.set_faults(Faults::default());
    press(&mut h, Msg::Retry(next)).await;
    assert_eq!(*h.model.connection(), Connection::Online);
    assert_eq!(h.model.retry_at(), None);
    assert!(
        h.model
            .queue()
            .get(first)
            .is_some_and(|i| i.read_error.is_none()),
        "read again"
    );
    assert!(d.mutations().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_approvals_over_a_slow_link_all_land() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let mut h = started(&d, "moderator").await;
    d.set_faults(Faults {
        latency: Duration::from_millis(300),
        ..Faults::default()
    });
    let mut approved = Vec::new();
    for _ in 0..20 {
        approved.push(h.model.queue().selected().expect("row").id);
        // As the event loop does: the key is applied at once; answers are applied as they
        // come, between keys, never waited for.
        h.send(key('a'));
        let _ = h.run_until_idle(Duration::from_millis(1)).await;
    }
    let mut dedup = approved.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), 20, "each key approved the next request");
    settle(&mut h).await;
    for id in &approved {
        assert_eq!(d.request_status(*id), Some(MembershipStatus::Approved));
    }
    let updates = d
        .mutations()
        .iter()
        .filter(|m| m.starts_with("update"))
        .count();
    assert_eq!(updates, 20, "each sent once");
    assert_eq!(
        h.audit()
            .iter()
            .filter(|a| a.outcome == club_admin::app::Outcome::Ok)
            .count(),
        20
    );
}
