//! Issue 18, the edges of the dashboard: refresh reloads what is loaded, a failed first
//! load is retried by itself, scrolling is clamped and has its ends, nothing said is lost.
//! Msg in (real keys), Model, Effects and the drawn screen out.

use crate::common;

use club_admin::api::*;
use club_admin::app::{ApiAnswer, ApiCall, Effect, Model, Msg, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

fn answer(m: &mut Model, rid: u64, outcome: ApiAnswer) -> Vec<Effect> {
    update(
        m,
        Msg::Api {
            request_id: rid,
            answer: outcome,
        },
    )
}

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

fn pages_asked(fx: &[Effect]) -> Vec<u32> {
    calls(fx)
        .into_iter()
        .filter_map(|c| match c {
            ApiCall::ListRequests { page, filter, .. } if filter.ids.is_empty() => Some(page.p),
            _ => None,
        })
        .collect()
}

fn status(m: &Model) -> String {
    m.status_text().unwrap_or_default()
}

fn server_error() -> ApiError {
    ApiError::Server(ErrorInfo {
        status: Some(500),
        error_type: None,
        detail: Some("boom".into()),
        error_id: None,
        excerpt: None,
    })
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

fn pending_of(n: u128, club: u128) -> ClubRequest {
    serde_json::from_value(serde_json::json!({
        "id": id(n),
        "created_at": now().to_rfc3339(),
        "club": {"id": id(club)},
        "student": {"id": id(1000 + n), "student_id": format!("5{n:04}")},
        "year": 2026,
        "membership_status": "pending",
    }))
    .expect("request")
}

fn page(from: u128, n: u128) -> Vec<ClubRequest> {
    (from..from + n).map(|i| pending_of(i, 5)).collect()
}

/// Starts `m`, the server having approve and decline (the probe answered).
fn started(m: &mut Model) -> Vec<Effect> {
    let fx = club_admin::app::start(m);
    for probe in api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute) {
        let _ = answer(m, probe, ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)));
    }
    fx
}

/// A model started in `lang` as an admin, with `first` listed of `total` pending.
fn listed(lang: Lang, first: Vec<ClubRequest>, total: u64) -> Model {
    let mut m = model();
    m.lang = lang;
    let fx = started(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    let list = listing_ids(&fx)[0];
    let _ = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(first, Some(2), total))),
    );
    m
}

/// The screen equals itself after Ctrl-L, at 80x24 and 120x40.
pub fn same_after_redraw(m: &mut Model) {
    let before = [screen(m, 80, 24), screen(m, 120, 40)];
    let fx = update(m, ctrl('l'));
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Redraw)),
        "Ctrl-L redraws"
    );
    assert_eq!(before, [screen(m, 80, 24), screen(m, 120, 40)]);
}

// ---------------------------------------------------------------------------------------
// item 1: refresh refreshes

#[test]
fn r_r_r_reloads_the_loaded_page_and_never_one_more() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang, page(1, 50), 193);
        assert_eq!(m.queue.len(), 50);
        for _ in 0..3 {
            let fx = update(&mut m, key('r'));
            assert_eq!(pages_asked(&fx), vec![1], "page 1 again");
            let list = api_ids(
                &fx,
                |c| matches!(c, ApiCall::ListRequests { filter, .. } if filter.ids.is_empty()),
            );
            let rereads = api_ids(
                &fx,
                |c| matches!(c, ApiCall::ListRequests { filter, .. } if !filter.ids.is_empty()),
            );
            let fx = answer(
                &mut m,
                list[0],
                ApiAnswer::Listing(Ok(listing_reply(page(1, 50), Some(2), 193))),
            );
            assert_eq!(pages_asked(&fx), Vec::<u32>::new(), "no next page");
            for r in rereads {
                let _ = answer(
                    &mut m,
                    r,
                    ApiAnswer::Listing(Ok(listing_reply(page(1, 50), None, 50))),
                );
            }
            assert_eq!(m.queue.len(), 50, "still the 50 rows loaded");
            assert!(!m.busy());
            assert!(!status(&m).contains('…'), "{}", status(&m));
        }
        // The rest still loads as the cursor nears the end.
        let fx = update(&mut m, key('G'));
        assert_eq!(pages_asked(&fx), vec![2]);
        same_after_redraw(&mut m);
    }
}

#[test]
fn auto_refresh_reloads_and_never_pulls_the_whole_listing() {
    let mut m = listed(Lang::English, page(1, 50), 193);
    for _ in 0..4 {
        let fx = update(&mut m, Msg::AutoRefresh);
        let list = api_ids(
            &fx,
            |c| matches!(c, ApiCall::ListRequests { filter, .. } if filter.ids.is_empty()),
        );
        assert_eq!(pages_asked(&fx), vec![1]);
        let fx = answer(
            &mut m,
            list[0],
            ApiAnswer::Listing(Ok(listing_reply(page(1, 50), Some(2), 193))),
        );
        assert!(pages_asked(&fx).is_empty());
    }
    assert_eq!(m.queue.len(), 50);
}

/// A student's start whose staffed clubs' lookup failed with a 500.
fn clubs_failed(lang: Lang) -> Model {
    let mut m = model();
    m.lang = lang;
    let fx = started(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(student(77)))));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }))[0];
    let _ = answer(&mut m, staffed, ApiAnswer::Clubs(Err(server_error())));
    m
}

#[test]
fn a_failed_first_load_is_retried_by_itself_with_backoff_and_says_so() {
    for (lang, says) in [
        (Lang::English, "trying again in 1 s"),
        (Lang::Thai, "1 วินาที"),
    ] {
        let mut m = clubs_failed(lang);
        assert!(status(&m).contains(says), "{}", status(&m));
        same_after_redraw(&mut m);
        let at = m.retry_at().expect("a retry is planned");
        assert_eq!((at - m.now).num_seconds(), 1);
        // Again a 500: the next wait is longer.
        let fx = update(&mut m, Msg::Retry(at));
        let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }));
        assert_eq!(
            staffed.len(),
            1,
            "the clubs are asked again: {:?}",
            calls(&fx)
        );
        let _ = answer(&mut m, staffed[0], ApiAnswer::Clubs(Err(server_error())));
        let next = m.retry_at().expect("planned again");
        assert_eq!((next - m.now).num_seconds(), 2);
        // Then the server answers: the queue loads, no more retries.
        let fx = update(&mut m, Msg::Retry(next));
        let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }))[0];
        let fx = answer(&mut m, staffed, ApiAnswer::Clubs(Ok(reply(vec![club(5)]))));
        let list = listing_ids(&fx)[0];
        let _ = answer(
            &mut m,
            list,
            ApiAnswer::Listing(Ok(listing_reply(page(1, 3), None, 3))),
        );
        assert_eq!(m.queue.len(), 3);
        assert_eq!(m.retry_at(), None);
        assert!(!m.busy());
        same_after_redraw(&mut m);
    }
}

#[test]
fn r_after_the_clubs_failed_asks_again_and_is_never_refreshing_for_ever() {
    let mut m = clubs_failed(Lang::English);
    let fx = update(&mut m, key('r'));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }));
    assert_eq!(
        staffed.len(),
        1,
        "r asks for the clubs again: {:?}",
        calls(&fx)
    );
    let _ = answer(&mut m, staffed[0], ApiAnswer::Clubs(Err(server_error())));
    assert!(!m.busy());
    assert!(!status(&m).contains("refreshing"), "{}", status(&m));
    assert!(
        status(&m).contains("could not find your clubs"),
        "{}",
        status(&m)
    );
}

#[test]
fn a_user_read_that_failed_at_start_is_retried_by_itself() {
    let mut m = model();
    let fx = started(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let _ = answer(&mut m, user, ApiAnswer::User(Err(server_error())));
    assert!(status(&m).contains("trying again in 1 s"), "{}", status(&m));
    let at = m.retry_at().expect("planned");
    let fx = update(&mut m, Msg::Retry(at));
    assert_eq!(api_ids(&fx, |c| *c == ApiCall::CurrentUser).len(), 1);
}

#[test]
fn nothing_to_read_ends_the_refresh_at_once() {
    let mut m = model();
    let fx = started(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(student(77)))));
    let staffed = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }))[0];
    let _ = answer(&mut m, staffed, ApiAnswer::Clubs(Ok(reply(vec![]))));
    let _ = update(&mut m, key('r'));
    assert!(!m.busy());
    assert!(!status(&m).contains("refreshing"), "{}", status(&m));
}
