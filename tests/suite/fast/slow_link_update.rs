//! `update` tests for a slow link and two service versions: what the server can do (the
//! update-route probe, decisions refused here), the listing's scope remembered across starts, `G`
//! while pages load, and reads retried when the link comes back. Msg in, Model and Effects out.

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, ListPurpose, Model, Msg, update};
use common::*;
use uuid::Uuid;

fn calls(fx: &[Effect]) -> Vec<&ApiCall> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api { call, .. } => Some(call),
            _ => None,
        })
        .collect()
}

fn listing_ids(fx: &[Effect]) -> Vec<u64> {
    api_ids(fx, |c| matches!(c, ApiCall::ListRequests { .. }))
}

fn offline() -> ApiError {
    ApiError::Connect {
        failure: ConnectFailure::NoConnection,
        host: "127.0.0.1:9".into(),
        cause: None,
    }
}

fn student(staff_of: u128) -> User {
    serde_json::from_value(serde_json::json!({"id": id(9), "email": "s@x", "role": "student", "meta": {"student_id": id(staff_of)}, "is_admin": false})).expect("user")
}

fn club(n: u128) -> Club {
    serde_json::from_value(
        serde_json::json!({"id": id(n), "name": {"en-US": "Club", "th": "ชุมนุม"}}),
    )
    .expect("club")
}

/// A pending request `n` of club `club`.
fn pending_of(n: u128, club: u128) -> ClubRequest {
    serde_json::from_value(serde_json::json!({
        "id": id(n),
        "created_at": now().to_rfc3339(),
        "club": {"id": id(club)},
        // The moderator's own (they may delete it too: a student deletes their own).
        "student": {"id": id(common::MODERATOR_STUDENT), "student_id": format!("5{n:04}")},
        "year": 2026,
        "membership_status": "pending",
    }))
    .expect("request")
}

fn capability_log_entries(m: &Model) -> usize {
    m.log()
        .entries()
        .iter()
        .filter(|e| e.what == "capability")
        .count()
}

// ---------------------------------------------------------------------------------------
// what the server can do

#[test]
fn start_probes_the_update_route_beside_the_user_only_with_a_token_and_not_read_only() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let c = calls(&fx);
    assert_eq!(c, vec![&ApiCall::CurrentUser, &ApiCall::ProbeUpdateRoute]);
    assert!(
        !ApiCall::ProbeUpdateRoute.is_mutation(),
        "a read: never audited"
    );

    let mut m = model_from(ModelOptions {
        has_token: false,
        ..options()
    });
    let fx = club_admin::app::start(&mut m);
    assert_eq!(calls(&fx), vec![&ApiCall::CurrentUser]);

    let mut m = model_from(ModelOptions {
        read_only: true,
        ..options()
    });
    let fx = club_admin::app::start(&mut m);
    assert_eq!(calls(&fx), vec![&ApiCall::CurrentUser]);
}

#[test]
fn without_the_update_route_approve_and_decline_are_refused_here_and_offered_nowhere() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let probe = api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute)[0];
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = common::sign_in_moderator(&mut m, user);
    let list = listing_ids(&fx)[0];
    let _ = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(sample_rows(), None, 3))),
    );
    let bar = hint_bar(&m, 120);
    assert!(
        bar.contains("a approve") && bar.contains("x decline"),
        "{bar}"
    );

    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Missing)),
    );
    assert_eq!(
        m.capabilities()
            .header_notice_in(club_admin::i18n::Lang::English)
            .as_deref(),
        Some("this server cannot approve or decline")
    );
    assert!(
        status(&m).contains("this server cannot approve or decline"),
        "{}",
        status(&m)
    );
    assert_eq!(capability_log_entries(&m), 1);

    let before = m.queue().cursor();
    for k in ['a', 'x', 'a'] {
        let fx = update(&mut m, key(k));
        assert!(calls(&fx).is_empty(), "refused here, nothing sent: {fx:?}");
        assert!(status(&m).contains("nothing was sent"), "{}", status(&m));
    }
    assert_eq!(m.queue().cursor(), before, "the cursor does not move on");
    assert_eq!(capability_log_entries(&m), 1, "said once in the log");
    // Marked rows: refused too, before the confirmation.
    let _ = update(&mut m, key(' '));
    let fx = update(&mut m, key('a'));
    assert!(calls(&fx).is_empty() && m.popup().is_none());

    // Neither the hint bar nor the help (as drawn) offers them; delete is still offered.
    let bar = hint_bar(&m, 120);
    assert!(
        !bar.contains("approve") && !bar.contains("decline"),
        "{bar}"
    );
    assert!(bar.contains("D delete"), "delete is still offered: {bar}");
    let en = |k: &str| club_admin::i18n::tr(club_admin::i18n::Lang::English, k);
    let _ = update(&mut m, key('?'));
    let help = help_drawn(&m);
    assert!(
        !help.contains(&en("action-approve")) && !help.contains(&en("action-decline")),
        "{help}"
    );
    assert!(help.contains(&en("action-delete")), "{help}");
    let _ = update(&mut m, code(club_admin::app::KeyCode::Esc));
    assert!(m.popup().is_none());

    // Delete still works: it asks, and its confirmation sends the call.
    let _ = update(&mut m, key('u'));
    let _ = update(&mut m, key('D'));
    assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
    let fx = update(&mut m, key('y'));
    assert!(
        calls(&fx)
            .iter()
            .any(|c| matches!(c, ApiCall::DeleteRequest { .. }))
    );
}

#[test]
fn a_role_refused_by_every_answer_is_said_once_and_then_refused_here() {
    let (mut m, _) = listed(page(1, 4), 4);
    let mut sent = Vec::new();
    for _ in 0..3 {
        let fx = update(&mut m, key('a'));
        sent.extend(api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. })));
    }
    assert_eq!(sent.len(), 3, "three approvals sent before any answer");
    let mut audits = 0;
    for rid in sent {
        let fx = answer(
            &mut m,
            rid,
            ApiAnswer::Updated(Err(forbidden(ROLE_REFUSAL_DETAIL))),
        );
        audits += fx
            .iter()
            .filter(
                |e| matches!(e, Effect::Audit(a) if a.outcome == club_admin::app::Outcome::Failed),
            )
            .count();
        assert!(calls(&fx).is_empty(), "nothing re-read: nothing changed");
    }
    assert_eq!(audits, 3, "every refused write is audited");
    assert!(matches!(
        m.capabilities().update_route,
        Some(UpdateRoute::RoleRefused { .. })
    ));
    assert_eq!(
        capability_log_entries(&m),
        1,
        "said once, not once per answer"
    );
    assert!(
        status(&m).contains("this account cannot approve or decline"),
        "{}",
        status(&m)
    );
    assert_eq!(
        m.capabilities()
            .header_notice_in(club_admin::i18n::Lang::English)
            .as_deref(),
        Some("this account cannot approve or decline")
    );
    assert!(
        m.queue().items().iter().all(|i| m.deciding(i.id).is_none()),
        "no row waits for an answer"
    );
    let fx = update(&mut m, key('a'));
    assert!(calls(&fx).is_empty(), "the fourth is refused here");
}

#[test]
fn a_route_missing_mid_bulk_ends_with_the_notice_not_an_offer_to_retry() {
    let (mut m, _) = listed(page(1, 4), 4);
    let _ = update(&mut m, key('*'));
    let _ = update(&mut m, key('a'));
    let fx = update(&mut m, key('y'));
    let sent = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
    assert_eq!(sent.len(), 4);
    let missing = ApiError::OperationUnavailable(ErrorInfo {
        status: Some(404),
        error_type: Some("entity_not_found".into()),
        detail: Some("Route not found".into()),
        error_id: None,
        excerpt: None,
    });
    for rid in sent {
        let _ = answer(&mut m, rid, ApiAnswer::Updated(Err(missing.clone())));
    }
    assert!(m.bulk().is_none());
    assert!(
        status(&m).contains("this server cannot approve or decline"),
        "{}",
        status(&m)
    );
    assert_eq!(capability_log_entries(&m), 1);
}

// ---------------------------------------------------------------------------------------
// the scope across starts

#[test]
fn a_warm_start_lists_the_remembered_clubs_at_once_and_the_answers_confirm_them() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let saved = SavedQueue {
        server: m.server_key().to_owned(),
        scope: Some(SavedScope::Clubs(vec![id(5)])),
        ..SavedQueue::default()
    };
    let fx = update(&mut m, Msg::Restore(saved));
    let c = calls(&fx);
    assert!(
        matches!(c[..], [ApiCall::ListRequests { filter, page, .. }] if filter.club_ids == vec![id(5)] && page.p == 1),
        "listed at once, beside /auth/user: {c:?}"
    );
    let list = listing_ids(&fx)[0];
    let _ = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(
            vec![pending_of(1, 5), pending_of(2, 5)],
            None,
            2,
        ))),
    );
    assert_eq!(m.queue().items().len(), 2, "rows before the user is known");
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(student(77)))));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }));
    assert_eq!(staffed.len(), 1, "the scope is checked");
    let fx = answer(
        &mut m,
        staffed[0],
        ApiAnswer::Clubs(Ok(reply(vec![club(5)]))),
    );
    assert!(listing_ids(&fx).is_empty(), "confirmed: not listed twice");
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::SaveQueue(_))),
        "nothing new to save"
    );
    assert_eq!(m.queue().items().len(), 2);
}

#[test]
fn a_changed_scope_corrects_the_queue_and_keeps_the_cursor() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let saved = SavedQueue {
        server: m.server_key().to_owned(),
        manual_ids: vec![id(9)],
        scope: Some(SavedScope::Clubs(vec![id(5), id(6)])),
        ..SavedQueue::default()
    };
    let fx = update(&mut m, Msg::Restore(saved));
    let list = listing_ids(&fx)[0];
    let rows = vec![
        pending_of(1, 5),
        pending_of(2, 6),
        pending_of(3, 5),
        pending_of(4, 6),
    ];
    let _ = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(rows, Some(2), 60))),
    );
    // The moderator works on: the cursor on request 4 (club 6).
    let _ = cursor_to(&mut m, id(4));
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(student(77)))));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }))[0];
    let fx = answer(&mut m, staffed, ApiAnswer::Clubs(Ok(reply(vec![club(6)]))));
    let ids: Vec<Uuid> = m.queue().items().iter().map(|i| i.id).collect();
    assert!(
        !ids.contains(&id(1)) && !ids.contains(&id(3)),
        "club 5 left: {ids:?}"
    );
    assert!(ids.contains(&id(2)) && ids.contains(&id(4)), "club 6 kept");
    assert!(ids.contains(&id(9)), "an id added by hand is kept");
    assert_eq!(
        m.queue().selected().map(|i| i.id),
        Some(id(4)),
        "the cursor kept its request"
    );
    let c = calls(&fx);
    assert!(
        matches!(c[..], [ApiCall::ListRequests { filter, page, .. }] if filter.club_ids == vec![id(6)] && page.p == 1),
        "{c:?}"
    );
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::SaveQueue(q) if q.scope == Some(SavedScope::Clubs(vec![id(6)])))
        ),
        "the new scope is saved"
    );
    assert!(status(&m).contains("your clubs changed"), "{}", status(&m));
}

#[test]
fn an_admin_remembered_as_all_is_confirmed_and_a_cold_start_remembers_the_scope() {
    // Cold: nothing remembered; the user's answer decides and the saved queue carries it.
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    assert_eq!(listing_ids(&fx).len(), 1);
    let saved = fx
        .iter()
        .find_map(|e| match e {
            Effect::SaveQueue(q) => Some(q.clone()),
            _ => None,
        })
        .expect("saved");
    assert_eq!(saved.scope, Some(SavedScope::All));
    // A saved queue from before the scope was remembered still loads (no scope).
    let old: SavedQueue =
        serde_json::from_str(r#"{"server":"demo","manual_ids":[],"filter":"","sort":"Server"}"#)
            .expect("old file");
    assert_eq!(old.scope, None);

    // Warm: listed at once; the user's answer confirms.
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = update(&mut m, Msg::Restore(saved));
    assert_eq!(listing_ids(&fx).len(), 1);
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    assert!(listing_ids(&fx).is_empty(), "not listed twice");
}

// ---------------------------------------------------------------------------------------
// G while pages load

/// A model started as an admin, with `first` listed of `total` pending; and the request id
/// of the update-route probe still in flight.
fn listed(first: Vec<ClubRequest>, total: u64) -> (Model, u64) {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let probe = api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute)[0];
    let fx = common::sign_in_moderator(&mut m, user);
    let list = listing_ids(&fx)[0];
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(first.clone(), Some(2), total))),
    );
    // The ids the listing holds, read once at its first load.
    let known = |c: &ApiCall| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: ListPurpose::Known { .. },
                ..
            }
        )
    };
    for rid in api_ids(&fx, known) {
        let ids = listing_reply(first.clone(), None, total);
        let _ = answer(&mut m, rid, ApiAnswer::Listing(Ok(ids)));
    }
    (m, probe)
}

fn page(from: u128, n: u128) -> Vec<ClubRequest> {
    (from..from + n).map(|i| pending_of(i, 5)).collect()
}

#[test]
fn g_while_pages_load_lands_on_the_true_last_row() {
    let (mut m, _) = listed(page(1, 50), 120);
    let fx = update(&mut m, key('G'));
    assert_eq!(m.queue().cursor(), 49);
    let next = listing_ids(&fx);
    assert_eq!(next.len(), 1, "the next page is asked for");
    let fx = answer(
        &mut m,
        next[0],
        ApiAnswer::Listing(Ok(listing_reply(page(51, 50), Some(3), 120))),
    );
    assert_eq!(
        m.queue().selected().map(|i| i.id),
        Some(id(100)),
        "on to the new last row"
    );
    let next = listing_ids(&fx);
    assert_eq!(next.len(), 1, "and the rest is loaded");
    let fx = answer(
        &mut m,
        next[0],
        ApiAnswer::Listing(Ok(listing_reply(page(101, 20), None, 120))),
    );
    assert_eq!(
        m.queue().selected().map(|i| i.id),
        Some(id(120)),
        "the true last row"
    );
    assert!(listing_ids(&fx).is_empty(), "nothing more to load");
    assert_eq!(m.listing().bottom_wanted, None);
}

#[test]
fn g_then_a_move_while_the_page_loads_leaves_the_cursor_where_the_user_put_it() {
    let (mut m, _) = listed(page(1, 50), 120);
    let fx = update(&mut m, key('G'));
    let next = listing_ids(&fx)[0];
    let _ = update(&mut m, key('k'));
    assert_eq!(m.queue().cursor(), 48);
    let _ = answer(
        &mut m,
        next,
        ApiAnswer::Listing(Ok(listing_reply(page(51, 50), Some(3), 120))),
    );
    assert_eq!(m.queue().cursor(), 48, "the wish ended with the move");
    assert_eq!(m.listing().bottom_wanted, None);
}

// ---------------------------------------------------------------------------------------
// online, offline, retries

/// A failed answer of the kind `call` expects: the server could not be reached.
fn unreachable_answer(call: &ApiCall) -> ApiAnswer {
    match call {
        ApiCall::GetRequest { .. } => ApiAnswer::Request(Err(offline())),
        ApiCall::ListRequests { .. } => ApiAnswer::Listing(Err(offline())),
        ApiCall::ProbeUpdateRoute => ApiAnswer::UpdateRoute(Err(offline())),
        ApiCall::CurrentUser => ApiAnswer::User(Err(offline())),
        other => panic!("not a read: {other:?}"),
    }
}

/// Sends every call of `fx` back as unreachable; returns how many.
fn all_unreachable(m: &mut Model, fx: &[Effect]) -> usize {
    let mut n = 0;
    for e in fx {
        if let Effect::Api {
            request_id, call, ..
        } = e
        {
            let a = unreachable_answer(call);
            let _ = answer(m, *request_id, a);
            n += 1;
        }
    }
    n
}

#[test]
fn reads_lost_offline_are_retried_with_backoff_and_resent_when_the_link_is_back() {
    let (mut m, probe) = listed(page(1, 4), 4);
    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
    );
    assert_eq!(*m.connection(), Connection::Online);
    // Two rows re-read (Enter), both lost: the link is down.
    let enter = || code(club_admin::app::KeyCode::Enter);
    let mut fx = update(&mut m, enter());
    let _ = update(&mut m, key('j'));
    fx.extend(update(&mut m, enter()));
    assert_eq!(all_unreachable(&mut m, &fx), 2);
    assert!(matches!(m.connection(), Connection::Offline(_)));
    let mut at = m.retry_at().expect("a retry is planned");
    assert_eq!(
        (at - m.now()).num_seconds(),
        1,
        "1 s after the first failure"
    );

    let mut waits = Vec::new();
    for _ in 0..7 {
        let fx = update(&mut m, Msg::Retry(at));
        let next = m.retry_at().expect("still planned while offline");
        waits.push((next - at).num_seconds());
        let c = calls(&fx);
        assert_eq!(c.len(), 1, "one read as the probe: {c:?}");
        assert!(matches!(c[0], ApiCall::GetRequest { .. }), "{c:?}");
        assert_eq!(all_unreachable(&mut m, &fx), 1);
        at = next;
    }
    assert_eq!(waits, vec![2, 4, 8, 16, 30, 30, 30], "backoff 1 s → 30 s");

    // The link is back: the probe read succeeds, and the other lost read is sent again.
    let fx = update(&mut m, Msg::Retry(at));
    let rid = api_ids(&fx, |_| true)[0];
    let id = match calls(&fx)[0] {
        ApiCall::GetRequest { id, .. } => *id,
        other => panic!("{other:?}"),
    };
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Request(Ok(reply(pending_of(id.as_u128(), 5)))),
    );
    assert_eq!(*m.connection(), Connection::Online);
    assert_eq!(m.retry_at(), None, "no more retries");
    let c = calls(&fx);
    assert!(
        matches!(c[..], [ApiCall::GetRequest { id: other, .. }] if *other != id),
        "the other lost read is sent again: {c:?}"
    );
    // Online again: a retry that fires late does nothing.
    assert!(update(&mut m, Msg::Retry(at)).is_empty());
}

/// Issue 34, item 5: one retry policy per read, never two nested. A read for the first time
/// (a page, a row read on Enter) is tried again by the client; every read the link probes
/// with or sends again is tried once by the client (the link's backoff is its policy; a lost
/// write's re-reads, with the core's backoff: `fast::decisions`).
#[test]
fn every_read_is_tried_again_by_one_policy() {
    use club_admin::app::Tries;
    let tries = |fx: &[Effect]| -> Vec<(String, Tries)> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Api { call, tries, .. } => {
                    let name = format!("{call:?}");
                    let name = name.split([' ', '(']).next().unwrap_or_default().to_owned();
                    Some((name, *tries))
                }
                _ => None,
            })
            .collect()
    };
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    assert!(
        tries(&fx).iter().all(|(_, t)| *t == Tries::Client),
        "first reads: the client's retries: {:?}",
        tries(&fx)
    );
    let (mut m, probe) = listed(page(1, 4), 4);
    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
    );
    // A refresh lists the first page again: the client's retries.
    let fx = update(&mut m, key('r'));
    let t = tries(&fx);
    assert!(
        t.iter()
            .any(|(c, t)| c == "ListRequests" && *t == Tries::Client),
        "{t:?}"
    );
    let _ = all_unreachable(&mut m, &fx);
    // The link is down: a row read on Enter is the client's to try again; the link's probe
    // is tried once.
    let fx = update(&mut m, code(club_admin::app::KeyCode::Enter));
    assert_eq!(tries(&fx), vec![("GetRequest".to_owned(), Tries::Client)]);
    let _ = all_unreachable(&mut m, &fx);
    let at = m.retry_at().expect("a retry is planned");
    let fx = update(&mut m, Msg::Retry(at));
    let t = tries(&fx);
    assert!(!t.is_empty(), "the link probes");
    assert!(t.iter().all(|(_, t)| *t == Tries::Once), "{t:?}");
}

/// The outcomes of the audit lines in `fx`, in order.
fn audited(fx: &[Effect]) -> Vec<club_admin::app::Outcome> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some(a.outcome),
            _ => None,
        })
        .collect()
}

#[test]
fn a_write_that_could_not_connect_waits_and_goes_by_itself_once_the_service_answers() {
    use club_admin::app::Outcome;
    let (mut m, probe) = listed(page(1, 4), 4);
    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
    );
    let fx = update(&mut m, key('a'));
    assert_eq!(audited(&fx), vec![Outcome::Sending], "written as it leaves");
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
    let target = match calls(&fx)[..] {
        [ApiCall::UpdateRequest { id, .. }] => *id,
        ref c => panic!("{c:?}"),
    };
    // No connection could be made: the server never received it. Not a failure: `queued`,
    // and nothing goes at once (no write hammers a server that is down).
    let fx = answer(&mut m, rid, ApiAnswer::Updated(Err(offline())));
    assert_eq!(audited(&fx), vec![Outcome::Queued]);
    assert!(calls(&fx).is_empty(), "{:?}", calls(&fx));
    assert_eq!(
        m.deciding(target),
        Some(RowAction::Approve),
        "still decided"
    );
    let logged = m.log().entries().last().cloned().expect("a log line");
    assert_eq!(logged.outcome, Outcome::Queued);
    assert!(
        logged
            .detail
            .as_deref()
            .is_some_and(|d| d.contains("never reached the server")),
        "{logged:?}"
    );
    // While the service cannot be reached, the link probes with a read of the row, never
    // the write.
    let mut at = m.retry_at().expect("planned");
    for _ in 0..3 {
        let fx = update(&mut m, Msg::Retry(at));
        let c = calls(&fx);
        assert!(matches!(c[..], [ApiCall::GetRequest { .. }]), "{c:?}");
        assert_eq!(all_unreachable(&mut m, &fx), 1);
        at = m.retry_at().expect("planned");
    }
    // It answers: the write goes again by itself, its `sending` line first, and lands.
    let fx = update(&mut m, Msg::Retry(at));
    let read = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let fx = answer(
        &mut m,
        read,
        ApiAnswer::Request(Ok(reply(pending_of(target.as_u128(), 5)))),
    );
    let puts = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
    assert_eq!(puts.len(), 1, "{:?}", calls(&fx));
    assert_eq!(audited(&fx), vec![Outcome::Sending]);
    let mut done = pending_of(target.as_u128(), 5);
    done.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, puts[0], ApiAnswer::Updated(Ok(reply(done))));
    assert_eq!(audited(&fx), vec![Outcome::Ok]);
    assert_eq!(m.deciding(target), None);
}

/// A bulk paused because its writes could not connect goes on within one short probe of
/// the service answering again: while writes wait, the probes are at most 2 s apart, not
/// the backoff's 30 s (it went on 15 to 20 s after the service was back).
#[test]
fn writes_waiting_for_the_service_probe_it_every_two_seconds_at_most() {
    let (mut m, probe) = listed(page(1, 4), 4);
    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
    );
    let fx = update(&mut m, key('a'));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
    let _ = answer(&mut m, rid, ApiAnswer::Updated(Err(offline())));
    let mut at = m.retry_at().expect("planned");
    let mut waits = Vec::new();
    for _ in 0..8 {
        let fx = update(&mut m, Msg::Retry(at));
        assert_eq!(
            all_unreachable(&mut m, &fx),
            1,
            "one probe, never the write"
        );
        let next = m.retry_at().expect("planned");
        waits.push((next - at).num_seconds());
        at = next;
    }
    assert_eq!(waits, vec![2, 2, 2, 2, 2, 2, 2, 2], "at most 2 s apart");
}

#[test]
fn the_header_says_it_once_and_the_footer_and_help_leave_approve_out() {
    let (mut m, probe) = listed(page(1, 4), 4);
    let _ = answer(
        &mut m,
        probe,
        ApiAnswer::UpdateRoute(Ok(UpdateRoute::Missing)),
    );
    let screen = |m: &Model, w: u16, h: u16| {
        let mut t =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
        t.draw(|f| club_admin::ui::view(f, m, &club_admin::ui::Theme::new(true)))
            .expect("draw");
        let b = t.backend().buffer().clone();
        (0..h)
            .map(|y| (0..w).map(|x| b[(x, y)].symbol()).collect::<String>())
            .collect::<Vec<_>>()
    };
    let lines = screen(&m, 120, 40);
    assert!(
        lines[0].contains("this server cannot approve or decline"),
        "{}",
        lines[0]
    );
    let narrow = screen(&m, 80, 24);
    assert!(narrow[0].contains("no approve/decline"), "{}", narrow[0]);
    // The status line said it when it was learnt; the header keeps saying it after.
    let _ = update(&mut m, key('s'));
    let lines = screen(&m, 120, 40);
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("cannot approve"))
            .count(),
        1,
        "in the header only, once"
    );
    let footer = &lines[39];
    assert!(
        !footer.contains("approve") && !footer.contains("decline"),
        "{footer}"
    );
    assert!(footer.contains("delete"), "{footer}");
    let _ = update(&mut m, key('?'));
    let help = screen(&m, 120, 40).join("\n");
    assert!(!help.contains("approve (marked rows"), "{help}");
    assert!(help.contains("delete, after confirmation"), "{help}");
}

#[test]
fn a_remembered_scope_whose_listing_failed_is_listed_once_confirmed() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let saved = SavedQueue {
        server: m.server_key().to_owned(),
        scope: Some(SavedScope::All),
        ..SavedQueue::default()
    };
    let fx = update(&mut m, Msg::Restore(saved));
    let list = listing_ids(&fx)[0];
    let _ = answer(&mut m, list, ApiAnswer::Listing(Err(forbidden("no"))));
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    let c = calls(&fx);
    assert!(
        matches!(c[..], [ApiCall::ListRequests { page, .. }] if page.p == 1),
        "{c:?}"
    );
}

#[test]
fn ctrl_z_suspends_from_anywhere_even_a_text_field() {
    let mut m = model();
    let fx = update(&mut m, ctrl('z'));
    assert!(matches!(fx[..], [Effect::Suspend]), "{fx:?}");
    let _ = update(&mut m, key('/'));
    assert!(matches!(m.popup(), Some(Popup::Filter { .. })));
    let fx = update(&mut m, ctrl('z'));
    assert!(matches!(fx[..], [Effect::Suspend]), "{fx:?}");
    assert!(
        matches!(m.popup(), Some(Popup::Filter { .. })),
        "the filter stays open"
    );
}

#[test]
fn the_same_clubs_in_another_order_are_the_same_scope() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let saved = SavedQueue {
        server: m.server_key().to_owned(),
        scope: Some(SavedScope::Clubs(vec![id(6), id(5)])),
        ..SavedQueue::default()
    };
    let _ = update(&mut m, Msg::Restore(saved));
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(student(77)))));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }))[0];
    let fx = answer(
        &mut m,
        staffed,
        ApiAnswer::Clubs(Ok(reply(vec![club(5), club(6)]))),
    );
    assert!(
        listing_ids(&fx).is_empty(),
        "confirmed, not corrected: {fx:?}"
    );
    assert!(!status(&m).contains("changed"), "{}", status(&m));
}

#[test]
fn reads_asked_for_while_a_known_page_is_skipped_are_sent() {
    // A warm start with the ids of the first page already queued (a queue file): the page
    // adds nothing, the next one is asked for, and the rows read by id are sent too (their
    // calls are awaited: dropping them would leave the rows loading for ever).
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let _ = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let saved = SavedQueue {
        server: m.server_key().to_owned(),
        scope: Some(SavedScope::Clubs(vec![id(5)])),
        ..SavedQueue::default()
    };
    let fx = update(&mut m, Msg::Restore(saved));
    let list = listing_ids(&fx)[0];
    let text: Vec<String> = (1..=60u128).map(|n| id(n).to_string()).collect();
    let fx = update(
        &mut m,
        Msg::AddIds {
            text: text.join(" "),
            origin: club_admin::app::IdsFrom::File("queue.txt".into()),
        },
    );
    assert!(calls(&fx).is_empty(), "waits for the listing to be known");
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(page(1, 50), Some(2), 120))),
    );
    let c = calls(&fx);
    let rereads = c
        .iter()
        .filter(|c| matches!(c, ApiCall::ListRequests { filter, .. } if !filter.ids.is_empty()))
        .count();
    let pages = c
        .iter()
        .filter(|c| {
            matches!(
                c,
                ApiCall::ListRequests {
                    purpose: ListPurpose::Page { .. },
                    ..
                }
            )
        })
        .count();
    assert_eq!(
        (rereads, pages),
        (2, 1),
        "60 ids read 50 a call, and page 2: {c:?}"
    );
    assert_eq!(
        m.in_flight(),
        c.len() + 2,
        "every call awaited was handed out (+ user, probe)"
    );
}

#[test]
fn calls_in_flight_show_only_once_they_last() {
    let (mut m, _probe) = listed(page(1, 4), 4);
    let status_row = |m: &Model| {
        let mut t =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).expect("terminal");
        t.draw(|f| club_admin::ui::view(f, m, &club_admin::ui::Theme::new(true)))
            .expect("draw");
        let b = t.backend().buffer().clone();
        (0..120).map(|x| b[(x, 38)].symbol()).collect::<String>()
    };
    assert!(m.busy(), "the probe is in flight");
    let t0 = m.now();
    let _ = update(&mut m, Msg::Tick(t0));
    assert!(!status_row(&m).contains("in flight"), "not at once");
    let _ = update(&mut m, Msg::Tick(t0 + chrono::Duration::milliseconds(240)));
    assert!(!status_row(&m).contains("in flight"));
    let _ = update(&mut m, Msg::Tick(t0 + chrono::Duration::milliseconds(360)));
    assert!(status_row(&m).contains("1 in flight"), "{}", status_row(&m));
}
