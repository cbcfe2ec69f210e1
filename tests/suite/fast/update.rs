//! `update` tests: Msg in, Model and Effects out.

use crate::common;
use crate::common::answers::{AnswerWith, ApiAnswer};

use std::collections::BTreeMap;

use club_admin::api::*;
use club_admin::app::KeyCode;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, Keymap, Msg, Outcome, Popup, update};
use common::*;
use uuid::Uuid;

/// The `ids` filters of the listing calls among `fx` (rows read by id, 50 per call).
fn read_by_ids(fx: &[Effect]) -> Vec<Vec<Uuid>> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                call: ApiCall::ListRequests { filter, .. },
                ..
            } if !filter.ids.is_empty() => Some(filter.ids.clone()),
            _ => None,
        })
        .collect()
}

/// The page numbers of the listing calls among `fx`.
/// The pages of the listing calls among `fx` (not the ids read once at the first load).
fn list_pages(fx: &[Effect]) -> Vec<u32> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                call: ApiCall::ListRequests { page, purpose, .. },
                ..
            } if !matches!(purpose, club_admin::app::ListPurpose::Known { .. }) => Some(page.p),
            _ => None,
        })
        .collect()
}

fn selected(m: &Model) -> Uuid {
    m.queue().selected().expect("selected").id
}

#[test]
fn start_reads_the_user_and_asks_for_a_token_when_none() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    assert_eq!(api_ids(&fx, |c| *c == ApiCall::CurrentUser).len(), 1);
    assert!(m.popup().is_none());
    let mut m = model_from(ModelOptions {
        has_token: false,
        ..options()
    });
    let _ = club_admin::app::start(&mut m);
    // Without a token the pop-up waits to be asked for: the status line says which key.
    assert!(m.popup().is_none(), "{:?}", m.popup());
    assert!(status(&m).contains("press S to sign in"), "{}", status(&m));
    update(&mut m, key('S'));
    assert!(matches!(m.popup(), Some(Popup::SignIn { .. })));
    // `S` pressed again (or typed before the pop-up was drawn) is not typed into the field.
    update(&mut m, key('S'));
    assert!(
        matches!(m.popup(), Some(Popup::SignIn { input, .. }) if input.value().is_empty()),
        "{:?}",
        m.popup()
    );
}

#[test]
fn a_student_moderator_lists_the_pending_requests_of_the_clubs_they_staff() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let rid = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let student: User = serde_json::from_value(serde_json::json!({"id": id(9), "email": "s@x", "role": "student", "meta": {"student_id": id(77)}, "is_admin": false})).expect("user");
    let fx = answer(&mut m, rid, ApiAnswer::User(Ok(reply(student))));
    let calls: Vec<&ApiCall> = fx
        .iter()
        .filter_map(|e| {
            if let Effect::Api { call, .. } = e {
                Some(call)
            } else {
                None
            }
        })
        .collect();
    assert!(
        matches!(calls[0], ApiCall::SearchClubs { query: ClubQuery::StaffIds(ids), .. } if ids == &vec![id(77)]),
        "{calls:?}"
    );
    let rid = api_ids(&fx, |_| true)[0];
    let club: Club = serde_json::from_value(
        serde_json::json!({"id": id(5), "name": {"en-US": "Robotics", "th": "หุ่นยนต์"}}),
    )
    .expect("club");
    let mut fx = answer(&mut m, rid, ApiAnswer::Clubs(Ok(reply(vec![club]))));
    // The scope is remembered for the next start (the saved queue changed).
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::SaveQueue(q) if q.scope == Some(SavedScope::Clubs(vec![id(5)])))
        ),
        "{fx:?}"
    );
    fx.retain(|e| matches!(e, Effect::Api { .. }));
    match &fx[..] {
        [
            Effect::Api {
                call:
                    ApiCall::ListRequests {
                        filter,
                        levels,
                        sort,
                        page,
                        ..
                    },
                ..
            },
        ] => {
            assert_eq!(filter.club_ids, vec![id(5)]);
            assert_eq!(filter.membership_status, Some(MembershipStatus::Pending));
            assert_eq!(
                *levels,
                Levels::REQUEST_ROW,
                "descendants at compact by default"
            );
            assert!(!sort.by.is_empty(), "always sorted: stable pages");
            assert_eq!(page.p, 1);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn listing_unavailable_falls_back_to_ids() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let rid = api_ids(&fx, |_| true)[0];
    let fx = answer(&mut m, rid, ApiAnswer::User(Ok(reply(admin()))));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let e = ApiError::OperationUnavailable(ErrorInfo {
        status: Some(404),
        detail: Some("Route not found".into()),
        ..ErrorInfo::default()
    });
    answer(&mut m, rid, ApiAnswer::Listing(Err(e)));
    assert_eq!(m.listing().support, ListingSupport::Unavailable);
    assert!(m.status_text().expect("status").contains("add request ids"));
    let fx = update(
        &mut m,
        Msg::AddIds {
            text: format!("{}", id(42)),
            origin: club_admin::app::IdsFrom::Arguments,
        },
    );
    assert_eq!(
        api_ids(
            &fx,
            |c| matches!(c, ApiCall::GetRequest { id: x, .. } if *x == id(42))
        )
        .len(),
        1
    );
}

#[test]
fn rows_arrive_sorted_oldest_first_and_the_next_page_loads_near_the_end() {
    let mut m = model();
    assert_eq!(
        m.queue().sort(),
        QueueSort::Server,
        "server order by default"
    );
    let start = club_admin::app::start(&mut m);
    // Oldest first, as a saved queue restores it.
    let server = m.server_key().to_owned();
    let fx = update(
        &mut m,
        Msg::Restore(SavedQueue {
            server,
            sort: QueueSort::Age,
            ..SavedQueue::default()
        }),
    );
    assert!(fx.is_empty());
    let rid = api_ids(&start, |_| true)[0];
    let fx = answer(&mut m, rid, ApiAnswer::User(Ok(reply(admin()))));
    let rid = api_ids(&fx, |_| true)[0];
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Listing(Ok(listing_reply(sample_rows(), Some(2), 120))),
    );
    assert_eq!(m.queue().items().len(), 4);
    assert_eq!(m.listing().total, Some(120));
    let order: Vec<Uuid> = m
        .queue()
        .visible()
        .iter()
        .map(|&i| m.queue().items()[i].id)
        .collect();
    assert_eq!(order, vec![id(3), id(1), id(2), id(4)], "oldest first");
    let pages = api_ids(&fx, |c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        )
    });
    assert_eq!(
        pages.len(),
        1,
        "short queue: the next stretch is fetched at once"
    );
    assert!(m.listing().loading);
    let fx = update(&mut m, key('j'));
    assert!(
        api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. })).is_empty(),
        "no second request while one is loading"
    );
}

#[test]
fn navigation_keys() {
    let mut m = model_with(sample_rows());
    assert_eq!(m.queue().cursor(), 0);
    update(&mut m, key('j'));
    assert_eq!(m.queue().cursor(), 1);
    update(&mut m, code(KeyCode::Down));
    assert_eq!(m.queue().cursor(), 2);
    update(&mut m, key('k'));
    update(&mut m, code(KeyCode::Up));
    assert_eq!(m.queue().cursor(), 0);
    update(&mut m, key('G'));
    assert_eq!(m.queue().cursor(), 3);
    update(&mut m, key('g'));
    assert_eq!(m.queue().cursor(), 0);
    update(&mut m, code(KeyCode::PageDown));
    assert_eq!(m.queue().cursor(), 3);
    update(&mut m, code(KeyCode::PageUp));
    assert_eq!(m.queue().cursor(), 0);
    update(&mut m, key('k'));
    assert_eq!(m.queue().cursor(), 0, "stays at the top");
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus(), Pane::Club);
    update(&mut m, code(KeyCode::BackTab));
    assert_eq!(m.focus(), Pane::Queue);
    update(&mut m, key('L'));
    assert!(m.log().visible);
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Tab));
    assert_eq!(m.focus(), Pane::Log);
    update(&mut m, key('L'));
    assert_eq!(m.focus(), Pane::Queue, "hiding the log leaves its focus");
}

#[test]
fn approve_moves_on_at_once_and_marks_done_only_when_the_server_confirms() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j')); // id 1 (pending)
    assert_eq!(selected(&m), id(1));
    let fx = update(&mut m, key('a'));
    let put = api_ids(
        &fx,
        |c| matches!(c, ApiCall::UpdateRequest { id: x, status: MembershipStatus::Approved, .. } if *x == id(1)),
    );
    assert_eq!(put.len(), 1);
    assert_eq!(
        selected(&m),
        id(2),
        "cursor on the next pending request at once"
    );
    let row = m.queue().get(id(1)).expect("row");
    assert_eq!(m.deciding(row.id), Some(RowAction::Approve));
    assert_eq!(
        row.status(),
        Some(&MembershipStatus::Pending),
        "not marked done before the server says so"
    );
    let mut answer_req = sample_rows()[0].clone();
    answer_req.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, put[0], ApiAnswer::Updated(Ok(reply(answer_req))));
    let row = m.queue().get(id(1)).expect("row");
    assert_eq!(row.state, RowState::Ready);
    assert_eq!(row.status(), Some(&MembershipStatus::Approved));
    // The window title follows the pending count (one less); the rest is the audit line.
    let (titles, fx): (Vec<Effect>, Vec<Effect>) =
        fx.into_iter().partition(|e| matches!(e, Effect::Title(_)));
    assert!(titles.len() <= 1, "{titles:?}");
    match &fx[..] {
        [Effect::Audit(a)] => {
            assert_eq!(
                (a.action.as_str(), a.target, a.outcome.as_str()),
                ("approve", id(1), "ok")
            );
            assert_eq!(a.user.as_deref(), Some("ton.j@mysk.ac.th"));
        }
        other => panic!("{other:?}"),
    }
    assert!(m.status_text().expect("status").contains("approved"));
    assert_eq!(
        m.log().entries().last().map(|e| e.outcome),
        Some(Outcome::Ok)
    );
}

#[test]
fn decline_and_non_pending_rows() {
    let mut m = model_with(sample_rows());
    assert_eq!(selected(&m), id(3), "approved row first (oldest)");
    let fx = update(&mut m, key('a'));
    assert!(
        fx.is_empty(),
        "an approved request cannot be approved again"
    );
    assert!(
        m.status_text()
            .expect("status")
            .contains("already approved")
    );
    update(&mut m, key('j'));
    let fx = update(&mut m, key('x'));
    assert_eq!(
        api_ids(&fx, |c| matches!(
            c,
            ApiCall::UpdateRequest {
                status: MembershipStatus::Declined,
                ..
            }
        ))
        .len(),
        1
    );
}

#[test]
fn a_refused_action_keeps_the_row_with_the_servers_detail_and_rereads_it() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
    let fx = answer(
        &mut m,
        put,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    let row = m.queue().get(id(1)).expect("row stays");
    assert!(
        row.error
            .as_deref()
            .unwrap_or("")
            .contains("Student must be a staff member of the club to update club requests")
    );
    assert_eq!(row.state, RowState::Loading, "being re-read");
    assert_eq!(
        row.status(),
        Some(&MembershipStatus::Pending),
        "nothing shown approved that the server did not confirm"
    );
    assert_eq!(
        api_ids(
            &fx,
            |c| matches!(c, ApiCall::GetRequest { id: x, .. } if *x == id(1))
        )
        .len(),
        1,
        "re-read to show the true state"
    );
    assert!(api_ids(&fx, |c| c.is_mutation()).is_empty(), "never resent");
    assert!(fx.iter().any(|e| matches!(e, Effect::Audit(a) if a.outcome == Outcome::Failed && a.detail.as_deref().unwrap_or("").contains("staff member of the club"))));
    assert!(matches!(
        m.log().entries().last().map(|e| e.outcome),
        Some(Outcome::Failed)
    ));
}

#[test]
fn lost_answers_are_reread_not_resent_and_404_means_gone() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |_| true)[0];
    let fx = answer(
        &mut m,
        put,
        ApiAnswer::Updated(Err(ApiError::Connect {
            failure: ConnectFailure::ClosedWithoutAnswer,
            host: "127.0.0.1:9".into(),
            cause: None,
        })),
    );
    assert!(
        m.queue()
            .get(id(1))
            .and_then(|r| r.error.clone())
            .unwrap_or_default()
            .contains("outcome unknown")
    );
    let reread = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
    assert_eq!(reread.len(), 1);
    assert!(
        matches!(m.connection(), Connection::Offline(_)),
        "offline notice"
    );
    // The link is down: a new decision waits (nothing spent on a server that drops them)...
    let fx = update(&mut m, key('a')); // now on id 2
    assert!(api_ids(&fx, |_| true).is_empty(), "it waits");
    assert!(m.writes_paused());
    // ... and goes by itself once an answer gets through (the re-read of id 1).
    let fx = answer(
        &mut m,
        reread[0],
        ApiAnswer::Request(Ok(reply(sample_rows()[0].clone()))),
    );
    let put = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
    let fx = answer(
        &mut m,
        put,
        ApiAnswer::Updated(Err(ApiError::NotFound(ErrorInfo {
            status: Some(404),
            ..ErrorInfo::default()
        }))),
    );
    assert_eq!(
        m.queue().get(id(2)).map(|r| r.state.clone()),
        Some(RowState::Gone)
    );
    assert!(api_ids(&fx, |_| true).is_empty());
}

#[test]
fn delete_asks_with_focus_on_cancel() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('D'));
    assert!(fx.is_empty());
    match &m.popup() {
        Some(Popup::Confirm {
            action: RowAction::Delete,
            ids,
            on_confirm: false,
            ..
        }) => assert_eq!(ids, &vec![id(1)]),
        other => panic!("{other:?}"),
    }
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        fx.is_empty() && m.popup().is_none(),
        "Enter on Cancel cancels"
    );
    update(&mut m, key('D'));
    update(&mut m, code(KeyCode::Right));
    assert!(matches!(
        m.popup(),
        Some(Popup::Confirm {
            on_confirm: true,
            ..
        })
    ));
    update(&mut m, code(KeyCode::Esc));
    assert!(m.popup().is_none());
    update(&mut m, key('D'));
    let fx = update(&mut m, key('y'));
    let del = api_ids(&fx, |c| *c == ApiCall::DeleteRequest { id: id(1) });
    assert_eq!(del.len(), 1);
    let fx = answer(&mut m, del[0], ApiAnswer::Deleted(Ok(reply(()))));
    assert_eq!(
        m.queue().get(id(1)).map(|r| r.state.clone()),
        Some(RowState::Deleted)
    );
    assert!(fx.iter().any(
        |e| matches!(e, Effect::Audit(a) if a.action == "delete" && a.outcome == Outcome::Ok)
    ));
}

#[test]
fn bulk_approve_confirms_the_count_and_keeps_failures_marked() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    update(&mut m, key(' ')); // mark id 1, cursor to id 2
    update(&mut m, key(' ')); // mark id 2
    assert_eq!(m.queue().marked_ids().len(), 2);
    let fx = update(&mut m, key('a'));
    assert!(fx.is_empty());
    assert!(
        matches!(&m.popup(), Some(Popup::Confirm { ids, hidden: 0, action: RowAction::Approve, .. }) if ids.len() == 2)
    );
    let fx = update(&mut m, key('y'));
    let puts = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
    assert_eq!(puts.len(), 2);
    assert_eq!(m.bulk().map(|b| b.total), Some(2));
    let mut ok = sample_rows()[0].clone();
    ok.membership_status = Some(MembershipStatus::Approved);
    answer(&mut m, puts[0], ApiAnswer::Updated(Ok(reply(ok))));
    assert!(m.status_text().expect("status").contains("1/2"));
    answer(
        &mut m,
        puts[1],
        ApiAnswer::Updated(Err(forbidden(
            "Insufficient permissions to perform this action",
        ))),
    );
    assert!(m.bulk().is_none());
    let st = m.status_text().expect("status");
    assert!(
        st.contains("1 of 2 done") && st.contains("1 failed"),
        "{st}"
    );
    assert_eq!(
        m.queue().marked_ids(),
        vec![id(2)],
        "the failed row stays marked for a retry"
    );
    assert!(m.queue().get(id(2)).and_then(|r| r.error.clone()).is_some());
}

#[test]
fn marks_range_all_clear_and_hidden_count() {
    let mut m = model_with(sample_rows());
    update(&mut m, key(' '));
    update(&mut m, key('j'));
    update(&mut m, key('V'));
    assert_eq!(
        m.queue().marked_ids().len(),
        3,
        "range from the mark to the cursor"
    );
    update(&mut m, key('u'));
    assert!(m.queue().marked_ids().is_empty());
    update(&mut m, key('*'));
    assert_eq!(m.queue().marked_ids().len(), 3, "all visible pending rows");
    update(&mut m, key('/'));
    typed(&mut m, "chess");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.queue().visible().len(), 1);
    update(&mut m, key('x'));
    assert!(
        matches!(&m.popup(), Some(Popup::Confirm { ids, hidden: 2, .. }) if ids.len() == 3),
        "{:?}",
        m.popup()
    );
}

#[test]
fn filter_matches_thai_and_terms_and_esc_restores() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('/'));
    typed(&mut m, "หุ่นยนต์");
    assert_eq!(m.queue().visible().len(), 2, "live while typing");
    update(&mut m, code(KeyCode::Esc));
    assert_eq!(m.queue().visible().len(), 4, "Esc restores the old filter");
    update(&mut m, key('/'));
    let fx = typed(&mut m, "status:approved");
    assert!(fx.is_empty());
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SaveQueue(q) if q.filter == "status:approved"))
    );
    assert_eq!(m.queue().visible().len(), 1);
    update(&mut m, key('/'));
    for _ in 0..20 {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "-robotics 2026");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.queue().visible().len(), 1, "Pimchanok → Chess");
    update(&mut m, key('/'));
    for _ in 0..20 {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "51004");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(selected(&m), id(4));
}

#[test]
fn single_letter_commands_never_fire_in_a_text_field() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('/'));
    let fx = typed(&mut m, "qaxD?");
    assert!(fx.is_empty());
    assert!(!m.quitting());
    assert!(matches!(&m.popup(), Some(Popup::Filter { input, .. }) if input.value() == "qaxD?"));
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('c'));
    assert!(m.club().editing);
    let fx = typed(&mut m, "qa");
    assert!(fx.is_empty() && !m.quitting());
    assert_eq!(m.club().input.value(), "qa");
}

#[test]
fn add_ids_skips_invalid_uuids_before_any_request() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('i'));
    update(
        &mut m,
        Msg::Paste(format!("{},  not-a-uuid\n{};{}", id(10), id(11), id(1))),
    );
    let fx = update(&mut m, code(KeyCode::Enter));
    // The server lists: both are read in one listing call with the `ids` filter.
    assert_eq!(
        read_by_ids(&fx),
        vec![vec![id(10), id(11)]],
        "only new, valid ids are read"
    );
    let st = m.status_text().expect("status");
    assert!(st.contains("added 2") && st.contains("not-a-uuid"), "{st}");
    assert_eq!(m.queue().items().len(), 6);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SaveQueue(q) if q.manual_ids.contains(&id(10))))
    );
}

#[test]
fn club_lookup_refuses_a_bad_id_and_reads_at_the_chosen_level() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('c'));
    typed(&mut m, "12345678-abcd-zz");
    let fx = update(&mut m, code(KeyCode::Enter));
    // Not hex-only, so not meant as an id: it is searched as a name.
    assert!(
        matches!(&fx[..], [Effect::Api { call: ApiCall::SearchClubs { query: ClubQuery::Text(t), .. }, .. }] if t == "12345678-abcd-zz"),
        "{fx:?}"
    );
    update(&mut m, key('c'));
    for _ in 0..20 {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "12345678-abcd-ef");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        fx.is_empty(),
        "a malformed UUID is refused before any request"
    );
    assert!(
        m.status_text()
            .expect("status")
            .contains("not a valid club id")
    );
    update(&mut m, key('c'));
    for _ in 0..20 {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, &id(5).to_string());
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        matches!(&fx[..], [Effect::Api { call: ApiCall::GetClub { id: x, levels }, .. }] if *x == id(5) && levels.fetch_level == FetchLevel::Default),
        "{fx:?}"
    );
    // Contacts whole on the deployed service: descendants at `default` (a contact below it is
    // a bare `{id}`, api-notes.md).
    assert!(
        matches!(&fx[..], [Effect::Api { call: ApiCall::GetClub { levels, .. }, .. }] if levels.descendant_fetch_level == FetchLevel::Default),
        "{fx:?}"
    );
    let fx = update(&mut m, key('f'));
    // At `detailed` the students stay `compact` (a student account may not read others at
    // `default`); the worker reads the contacts again (`ops::club::read_club`).
    assert!(
        matches!(&fx[..], [Effect::Api { call: ApiCall::GetClub { levels, .. }, .. }] if levels.fetch_level == FetchLevel::Detailed && levels.descendant_fetch_level == FetchLevel::Compact),
        "{fx:?}"
    );
    let fx = update(&mut m, key('F'));
    let rid = api_ids(&fx, |_| true)[0];
    let club: Club = serde_json::from_value(serde_json::json!({"id": id(5), "name": {"en-US": "Robotics", "th": "หุ่นยนต์"}, "contacts": []})).expect("club");
    answer(&mut m, rid, ApiAnswer::Club(Ok(reply(club))));
    assert!(m.club().club.get().is_some());
}

#[test]
fn new_contact_form_posts_and_shows_the_created_contact() {
    let mut m = model_with(sample_rows());
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('n'));
    assert!(
        m.popup().is_none()
            && m.status_text()
                .expect("status")
                .contains("look up a club first")
    );
    show_club(
        &mut m,
        serde_json::from_value(serde_json::json!({"id": id(5), "contacts": []})).expect("club"),
    );
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('n'));
    assert!(matches!(
        m.popup(),
        Some(Popup::AddContact {
            kind: 0,
            on_value: false,
            ..
        })
    ));
    update(&mut m, code(KeyCode::Right)); // email
    update(&mut m, code(KeyCode::Right)); // facebook
    update(&mut m, code(KeyCode::Left)); // email
    update(&mut m, code(KeyCode::Tab));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(fx.is_empty(), "empty value refused");
    typed(&mut m, "club@school.ac.th");
    let fx = update(&mut m, code(KeyCode::Enter));
    let rid = match &fx[..] {
        [
            Effect::Audit(ahead),
            Effect::Api {
                request_id,
                call:
                    ApiCall::CreateContact {
                        club_id, contact, ..
                    },
                ..
            },
        ] => {
            // The write-ahead line first: the runner holds the call until it is written.
            assert_eq!(ahead.outcome, club_admin::ops::Outcome::Sending);
            assert_eq!(
                (ahead.action.as_str(), ahead.target),
                ("add-contact", id(5))
            );
            assert_eq!(ahead.value.as_deref(), Some("email club@school.ac.th"));
            assert_eq!(*club_id, id(5));
            assert_eq!(contact.kind, ContactType::Email);
            assert_eq!(contact.value, "club@school.ac.th");
            *request_id
        }
        other => panic!("{other:?}"),
    };
    let dup = ApiError::Invalid(ErrorInfo {
        status: Some(400),
        detail: Some("Contact with the same value already exists".into()),
        ..ErrorInfo::default()
    });
    answer(&mut m, rid, ApiAnswer::ContactCreated(Err(dup)));
    assert!(
        matches!(&m.popup(), Some(Popup::AddContact { error: Some(e), .. }) if e.contains("already exists")),
        "the form stays open with the error"
    );
    let fx = update(&mut m, code(KeyCode::Enter));
    let rid = api_ids(&fx, |_| true)[0];
    let contact: Contact = serde_json::from_value(
        serde_json::json!({"id": id(6), "type": "email", "value": "club@school.ac.th"}),
    )
    .expect("contact");
    let fx = answer(&mut m, rid, ApiAnswer::ContactCreated(Ok(reply(contact))));
    assert!(m.popup().is_none());
    assert_eq!(
        m.club()
            .club
            .get()
            .and_then(|c| c.contacts.as_ref())
            .map(|c| c.len()),
        Some(1)
    );
    assert!(fx.iter().any(
        |e| matches!(e, Effect::Audit(a) if a.action == "add-contact" && a.outcome == Outcome::Ok)
    ));
}

#[test]
fn unauthorised_anywhere_becomes_session_expired_without_losing_the_queue() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |_| true)[0];
    let e = ApiError::Unauthorized {
        kind: AuthErrorKind::InvalidToken,
        info: ErrorInfo {
            status: Some(401),
            ..ErrorInfo::default()
        },
    };
    let fx = answer(&mut m, put, ApiAnswer::Updated(Err(e)));
    assert!(m.session_expired());
    // No pop-up opens by itself (keys meant for the queue never land in its field); the
    // status line says which key signs in, and the refused decision waits for it, not
    // audited `failed`.
    assert!(m.popup().is_none(), "{:?}", m.popup());
    assert!(
        status(&m).contains("session expired: press S to sign in"),
        "{}",
        status(&m)
    );
    assert!(!fx.iter().any(|e| matches!(e, Effect::Audit(_))), "{fx:?}");
    assert_eq!(m.held().requests(), 1);
    assert_eq!(m.queue().items().len(), 4);
    let token = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3OTUzNjY1NDF9.c2ln";
    update(
        &mut m,
        Msg::Paste(format!("{{\"data\":{{\"access_token\":\"{token}\"}}}}")),
    );
    let check = update(&mut m, code(KeyCode::Enter));
    // The pasted token is checked with /auth/user before it is used or saved.
    let rid = api_ids(&check, |c| matches!(c, ApiCall::CheckToken { .. }));
    assert_eq!(rid.len(), 1);
    assert!(check.iter().all(|e| !matches!(e, Effect::SetToken(_))));
    let fx = common::sign_in_moderator(&mut m, rid[0]);
    assert!(matches!(fx.first(), Some(Effect::SetToken(_))));
    assert!(fx.iter().any(|e| matches!(e, Effect::SaveToken(_))));
    assert!(!m.session_expired());
    assert_eq!(m.token_expires().map(|t| t.timestamp()), Some(1795366541));
    // The same account signed in again: the decision held since the 401 goes now.
    let sent = later(&mut m, std::time::Duration::from_millis(120));
    assert_eq!(
        api_ids(&sent, |c| matches!(c, ApiCall::UpdateRequest { .. })).len(),
        1,
        "{sent:?}"
    );
    let dbg = format!("{check:?}{fx:?}");
    assert!(
        !dbg.contains(token),
        "the token never appears in Debug output"
    );
}

#[test]
fn a_401_to_a_call_sent_before_the_sign_in_does_not_expire_the_new_session() {
    // A dashboard that starts without a token (every `serve-ssh` session): its first read
    // of the user is refused with 401, but the answer may come after the moderator has
    // pasted a token, while it is checked or after the server took it.
    for late_while_checking in [false, true] {
        a_401_before_the_sign_in(late_while_checking);
    }
}

fn a_401_before_the_sign_in(late_while_checking: bool) {
    let mut m = model_from(ModelOptions {
        has_token: false,
        ..options()
    });
    let first = club_admin::app::start(&mut m);
    let early = api_ids(&first, |c| matches!(c, ApiCall::CurrentUser))[0];
    let token = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3OTUzNjY1NDF9.c2ln";
    update(&mut m, Msg::Paste(token.into()));
    let check = update(&mut m, code(KeyCode::Enter));
    let rid = api_ids(&check, |c| matches!(c, ApiCall::CheckToken { .. }))[0];
    let e = ApiError::Unauthorized {
        kind: AuthErrorKind::MissingToken,
        info: ErrorInfo {
            status: Some(401),
            ..ErrorInfo::default()
        },
    };
    if late_while_checking {
        // The 401 comes while the token is being checked: the check's answer decides.
        answer(&mut m, early, ApiAnswer::User(Err(e.clone())));
        assert!(
            m.popup().is_none(),
            "no pop-up while checking: {:?}",
            m.popup()
        );
    }
    answer(&mut m, rid, ApiAnswer::User(Ok(reply(admin()))));
    assert!(m.popup().is_none(), "signed in: {:?}", m.popup());
    if !late_while_checking {
        answer(&mut m, early, ApiAnswer::User(Err(e.clone())));
    }
    assert!(!m.session_expired(), "the late 401 was for no token");
    assert!(m.popup().is_none(), "no sign-in pop-up: {:?}", m.popup());
    assert!(m.user().get().is_some(), "the signed-in user stays");
    // A 401 to a call sent with the new token still ends the session.
    let fx = update(&mut m, key('r'));
    let later = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }));
    assert!(!later.is_empty(), "r reads the listing: {fx:?}");
    answer(&mut m, later[0], ApiAnswer::Listing(Err(e)));
    assert!(m.session_expired());
}

#[test]
fn a_bad_pasted_token_is_explained() {
    let mut m = model();
    update(&mut m, key('S'));
    update(&mut m, Msg::Paste("{\"data\":{}}".into()));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(fx.is_empty());
    assert!(
        matches!(&m.popup(), Some(Popup::SignIn { error: Some(e), .. }) if e.contains("access_token"))
    );
    update(&mut m, code(KeyCode::Tab));
    assert!(
        matches!(&m.popup(), Some(Popup::SignIn { save: false, .. })),
        "Tab toggles saving"
    );
}

#[test]
fn read_only_refuses_every_change() {
    let mut m = loaded(
        ModelOptions {
            read_only: true,
            ..options()
        },
        sample_rows(),
    );
    update(&mut m, key('j'));
    for k in ['a', 'x', 'D'] {
        let fx = update(&mut m, key(k));
        assert!(fx.is_empty() && m.popup().is_none(), "{k}");
        assert!(m.status_text().expect("status").contains("read-only"));
    }
}

#[test]
fn quit_saves_the_queue_and_asks_twice_while_actions_run() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    update(&mut m, key('a'));
    let fx = update(&mut m, key('q'));
    assert!(fx.is_empty() && !m.quitting(), "first q warns");
    assert!(m.status_text().expect("status").contains("press q again"));
    let fx = update(&mut m, key('q'));
    assert!(m.quitting());
    match &fx[..] {
        [Effect::Audit(a), Effect::Quit] => {
            assert_eq!(
                (a.action.as_str(), a.target, a.outcome.as_str()),
                ("approve", id(1), "unknown"),
                "recorded as sent, outcome unknown"
            );
            // The core's words, as the command line writes for a run left the same way.
            assert_eq!(
                a.detail.as_deref(),
                Some(club_admin::ops::decision::abandoned_detail().as_str())
            );
        }
        other => panic!("{other:?}"),
    }
    let mut m = model_with(sample_rows());
    let fx = update(&mut m, ctrl('c'));
    assert!(m.quitting() && matches!(fx.last(), Some(Effect::Quit)));
}

#[test]
fn help_is_searchable_and_command_line_runs_commands() {
    let en = |k: &str| club_admin::i18n::tr(club_admin::i18n::Lang::English, k);
    // Rows the search "approve" keeps (their text says approve), and rows it leaves out.
    let kept = [en("action-approve"), en("action-undo")];
    let left_out = [
        en("action-decline"),
        en("action-delete"),
        en("action-mark"),
        en("action-filter"),
        en("action-refresh"),
        en("action-sign-in"),
    ];
    let mut m = model_with(sample_rows());
    update(&mut m, key('?'));
    let whole = help_drawn(&m);
    for row in kept.iter().chain(&left_out) {
        assert!(whole.contains(row.as_str()), "{row:?} unsearched:\n{whole}");
    }
    // As a user searches: `/` out of habit (as for the queue filter), then the words.
    update(&mut m, key('/'));
    typed(&mut m, "approve");
    assert!(
        matches!(&m.popup(), Some(Popup::Help { query, .. }) if query.value() == "/approve"),
        "{:?}",
        m.popup()
    );
    let found = help_drawn(&m);
    for row in &kept {
        assert!(found.contains(row.as_str()), "{row:?} found:\n{found}");
    }
    for row in &left_out {
        assert!(!found.contains(row.as_str()), "{row:?} left out:\n{found}");
    }
    assert!(!found.contains("No key matches"), "{found}");
    // Typed away and something else typed: no row matches, and the help says so.
    for _ in "/approve".chars() {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "xyzzy");
    let none = help_drawn(&m);
    for row in kept.iter().chain(&left_out) {
        assert!(!none.contains(row.as_str()), "{row:?} for xyzzy:\n{none}");
    }
    assert!(none.contains("No key matches \"xyzzy\"."), "{none}");
    update(&mut m, code(KeyCode::Esc));
    assert!(m.popup().is_none());
    update(&mut m, key(':'));
    typed(&mut m, "sort club");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.queue().sort(), QueueSort::Club);
    update(&mut m, key(':'));
    typed(&mut m, "bogus");
    update(&mut m, code(KeyCode::Enter));
    assert!(m.status_text().expect("status").contains("unknown command"));
    update(&mut m, key(':'));
    typed(&mut m, "level detailed default");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        m.levels(),
        Levels::new(FetchLevel::Detailed, FetchLevel::Default)
    );
    update(&mut m, key(':'));
    typed(&mut m, "mouse on");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(matches!(&fx[..], [Effect::SetMouse(true)]));
    update(&mut m, key('s'));
    assert_eq!(m.queue().sort(), QueueSort::Status);
    update(&mut m, key('s'));
    assert_eq!(m.queue().sort(), QueueSort::Server);
}

#[test]
fn copy_sends_osc52_text_of_selected_or_marked_ids() {
    let mut m = model_with(sample_rows());
    let fx = update(&mut m, key('y'));
    assert!(matches!(&fx[..], [Effect::Copy(t)] if *t == id(3).to_string()));
    update(&mut m, key('*'));
    let fx = update(&mut m, key('y'));
    assert!(matches!(&fx[..], [Effect::Copy(t)] if t.lines().count() == 3));
}

#[test]
fn stale_answers_are_dropped_and_ticks_and_resizes_apply() {
    let mut m = model_with(sample_rows());
    let before = m.queue().items().to_vec();
    let fx = answer(&mut m, 9999, ApiAnswer::Deleted(Ok(reply(()))));
    assert!(fx.is_empty());
    assert_eq!(m.queue().items(), before);
    let later = now() + chrono::Duration::minutes(5);
    update(&mut m, Msg::Tick(later));
    assert_eq!(m.now(), later);
    update(&mut m, Msg::Resize(80, 24));
    assert_eq!(m.size(), (80, 24));
}

#[test]
fn refresh_relists_and_rereads_rows_by_id_and_marks_vanished_ones_gone() {
    let mut m = model_with(sample_rows());
    let fx = update(&mut m, key('r'));
    let page1 = api_ids(&fx, |c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        )
    });
    assert_eq!(page1.len(), 1);
    let reread: Vec<(u64, Vec<Uuid>)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id,
                call: ApiCall::ListRequests { filter, .. },
                ..
            } if !filter.ids.is_empty() => Some((*request_id, filter.ids.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(reread.len(), 1, "4 rows: one call");
    assert_eq!(reread[0].1.len(), 4);
    let mut rows = sample_rows();
    rows.retain(|r| r.id != id(2));
    rows[0].membership_status = Some(MembershipStatus::Approved);
    answer(
        &mut m,
        reread[0].0,
        ApiAnswer::Listing(Ok(listing_reply(rows, None, 3))),
    );
    assert_eq!(
        m.queue().get(id(2)).map(|r| r.state.clone()),
        Some(RowState::Gone),
        "deleted elsewhere"
    );
    assert_eq!(
        m.queue().get(id(1)).and_then(|r| r.status().cloned()),
        Some(MembershipStatus::Approved),
        "approved elsewhere shows its new state"
    );
}

#[test]
fn restore_applies_only_to_the_same_server() {
    let mut m = model();
    let saved = SavedQueue {
        server: "http://other".into(),
        manual_ids: vec![id(1)],
        filter: "x".into(),
        sort: QueueSort::Club,
        scope: None,
    };
    assert!(update(&mut m, Msg::Restore(saved.clone())).is_empty());
    assert!(m.queue().items().is_empty());
    let saved = SavedQueue {
        server: m.base_url().to_owned(),
        ..saved
    };
    let fx = update(&mut m, Msg::Restore(saved));
    assert_eq!(m.queue().items().len(), 1);
    assert_eq!(m.queue().filter(), "x");
    assert_eq!(
        api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. })).len(),
        1
    );
}

#[test]
fn keymap_overrides_apply_and_bad_bindings_are_reported() {
    let mut o = BTreeMap::new();
    o.insert(
        "approve".to_owned(),
        vec!["A".to_owned(), "ctrl-a".to_owned()],
    );
    let km = Keymap::default().with_overrides(&o).expect("valid");
    let a = club_admin::app::Key::char('A');
    assert_eq!(
        km.lookup(club_admin::app::Scope::Queue, &a),
        Some(club_admin::app::Action::Approve)
    );
    let mut bad = BTreeMap::new();
    bad.insert("aprove".to_owned(), vec!["a".to_owned()]);
    bad.insert("decline".to_owned(), vec!["a".to_owned()]);
    bad.insert("delete".to_owned(), vec!["esc".to_owned()]);
    let errs = Keymap::default().with_overrides(&bad).expect_err("invalid");
    let all = errs.join("\n");
    assert!(all.contains("aprove: no such action"), "{all}");
    assert!(all.contains("bound to both"), "{all}");
    assert!(all.contains("Esc only cancels"), "{all}");
    // The hint bar as drawn offers approve on its key: `a` by default, `A` once rebound.
    let m = model_with(sample_rows());
    let bar = hint_bar(&m, 120);
    assert!(bar.contains("a approve"), "{bar}");
    let m = loaded(
        ModelOptions {
            keymap: km,
            ..options()
        },
        sample_rows(),
    );
    let bar = hint_bar(&m, 120);
    assert!(
        bar.contains("A approve") && !bar.contains("a approve"),
        "{bar}"
    );
}

#[test]
fn mouse_wheel_moves_the_cursor() {
    let mut m = model_with(sample_rows());
    let ev = crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::ScrollDown,
        column: 1,
        row: 1,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    let msg =
        club_admin::runtime::event_loop::to_msg(crossterm::event::Event::Mouse(ev), (120, 40), &m)
            .expect("the wheel is a message");
    assert!(matches!(msg, Msg::Wheel { down: true }));
    update(&mut m, msg);
    assert_eq!(m.queue().cursor(), 1);
}

#[test]
fn pasted_ids_outside_a_field_are_added() {
    let mut m = model_with(sample_rows());
    let fx = update(&mut m, Msg::Paste(format!("{}\n{}", id(20), id(21))));
    assert_eq!(read_by_ids(&fx), vec![vec![id(20), id(21)]]);
}

#[test]
fn a_long_id_list_at_start_waits_for_the_listing_then_is_read_fifty_at_a_time() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |_| true)[0];
    let text: Vec<String> = (1000..1120).map(|n| id(n).to_string()).collect();
    let fx = update(
        &mut m,
        Msg::AddIds {
            text: text.join("\n"),
            origin: club_admin::app::IdsFrom::Arguments,
        },
    );
    let gets = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
    assert!(
        gets.is_empty(),
        "not read one by one before the server's listing support is known"
    );
    let fx = update(&mut m, key('j'));
    let gets = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
    assert!(
        !gets.is_empty() && gets.len() <= 5,
        "only the rows near the cursor: {}",
        gets.len()
    );
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(vec![], None, 0))),
    );
    let chunks = read_by_ids(&fx);
    assert_eq!(
        chunks.iter().map(Vec::len).sum::<usize>(),
        120 - gets.len(),
        "every unread row"
    );
    assert!(chunks.iter().all(|c| c.len() <= 50), "at most 50 per call");
    assert_eq!(chunks.len(), 3);
}

#[test]
fn without_listing_ids_are_read_one_by_one() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |_| true)[0];
    update(
        &mut m,
        Msg::AddIds {
            text: (1000..1010)
                .map(|n| id(n).to_string())
                .collect::<Vec<_>>()
                .join(" "),
            origin: club_admin::app::IdsFrom::Arguments,
        },
    );
    let fx = answer(&mut m, user, ApiAnswer::User(Ok(reply(admin()))));
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let e = ApiError::OperationUnavailable(ErrorInfo {
        status: Some(404),
        detail: Some("Route not found".into()),
        ..ErrorInfo::default()
    });
    let fx = answer(&mut m, list, ApiAnswer::Listing(Err(e)));
    assert_eq!(
        api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. })).len(),
        10
    );
}

#[test]
fn incremental_counts_match_a_full_recount() {
    let mut m = model_with(sample_rows());
    let script = "j a * x y u j D y / status:pending\r s j  V a y s s";
    for c in script.chars() {
        let msg = if c == '\r' {
            code(KeyCode::Enter)
        } else {
            key(c)
        };
        let fx = update(&mut m, msg);
        // Answer every action as the server would.
        for e in fx {
            if let Effect::Api {
                request_id, call, ..
            } = e
            {
                let answer = match &call {
                    ApiCall::UpdateRequest { id, status, .. } => {
                        let mut r = sample_rows()
                            .into_iter()
                            .find(|r| r.id == *id)
                            .expect("row");
                        r.membership_status = Some(status.clone());
                        ApiAnswer::Updated(Ok(reply(r)))
                    }
                    ApiCall::DeleteRequest { .. } => ApiAnswer::Deleted(Ok(reply(()))),
                    _ => continue,
                };
                let answer = call.answer_with(answer);
                update(&mut m, Msg::Api { request_id, answer });
            }
        }
        let incremental = m.queue().stats();
        let mut full = m.queue().clone();
        full.refresh_view();
        assert_eq!(incremental, full.stats(), "after {c:?}");
        assert_eq!(m.queue().visible(), full.visible(), "after {c:?}");
    }
    let (p, a, d, o) = m.queue().counts();
    assert_eq!(p + a + d + o, 4);
}

#[test]
fn decisions_shift_the_pending_listing_and_no_request_is_skipped() {
    let mut m = model_from(ModelOptions {
        page_size: 2,
        ..options()
    });
    let fx = club_admin::app::start(&mut m);
    let rid = api_ids(&fx, |_| true)[0];
    let fx = common::sign_in_moderator(&mut m, rid);
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let rows = sample_rows();
    let page1 = vec![rows[0].clone(), rows[1].clone()];
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Listing(Ok(listing_reply(page1, Some(2), 4))),
    );
    // Both listed requests are pending here: the next stretch starts at page 2.
    let more = list_pages(&fx);
    assert_eq!(more, vec![2]);
    let rid = api_ids(&fx, |c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        )
    })[0];
    // Meanwhile both are approved: on the server, what was page 2 is now page 1.
    for id in [id(1), id(2)] {
        let _ = cursor_to(&mut m, id);
        let fx = update(&mut m, key('a'));
        let put = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
        let mut r = rows.iter().find(|r| r.id == id).expect("row").clone();
        r.membership_status = Some(MembershipStatus::Approved);
        answer(&mut m, put, ApiAnswer::Updated(Ok(reply(r))));
    }
    // The page-2 answer (asked before the approvals) comes back empty.
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Listing(Ok(listing_reply(vec![], None, 2))),
    );
    // The server still counts 2 pending requests this dashboard has not seen: it goes on.
    let more = list_pages(&fx);
    assert_eq!(
        more,
        vec![1],
        "no listed request is still pending here, so page 1 holds the unseen ones"
    );
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    answer(
        &mut m,
        rid,
        ApiAnswer::Listing(Ok(listing_reply(vec![rows[3].clone()], None, 1))),
    );
    assert!(
        m.queue().get(id(4)).is_some(),
        "the shifted request is in the queue"
    );
}

#[test]
fn auto_refresh_reloads_unless_busy_or_signed_out() {
    let mut m = model_with(sample_rows());
    let fx = update(&mut m, Msg::AutoRefresh);
    assert_eq!(
        list_pages(&fx),
        vec![1, 1],
        "page 1 and the re-read of the known rows"
    );
    let fx = update(&mut m, Msg::AutoRefresh);
    assert!(list_pages(&fx).is_empty(), "not while a page is loading");
    let mut m = model_with(sample_rows());
    expire_session(&mut m);
    assert!(m.session_expired() && m.popup().is_none() && !m.busy());
    assert!(
        update(&mut m, Msg::AutoRefresh).is_empty(),
        "not while signed out"
    );
    // Never signed in (a `serve-ssh` session before its sign-in): no call at all.
    let mut m = Model::new(ModelOptions {
        has_token: false,
        ..ModelOptions::new("http://127.0.0.1:9")
    });
    let start = club_admin::app::start(&mut m);
    assert!(!m.has_token(), "{start:?}");
    assert!(
        update(&mut m, Msg::AutoRefresh).is_empty(),
        "not without a token"
    );
}

#[test]
fn add_ids_with_nothing_valid_keeps_the_text() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('i'));
    update(&mut m, Msg::Paste("12345-not-an-id".into()));
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(fx.is_empty(), "nothing is sent");
    assert!(
        matches!(&m.popup(), Some(Popup::AddIds { input }) if input.value() == "12345-not-an-id"),
        "the text is kept"
    );
    assert!(
        m.status_text()
            .expect("status")
            .contains("not a club request id")
    );
}

#[test]
fn a_click_selects_a_row_or_focuses_a_pane() {
    let mut m = model_with(sample_rows());
    update(
        &mut m,
        Msg::Click {
            pane: Pane::Queue,
            row: Some(2),
        },
    );
    assert_eq!(m.queue().cursor(), 2);
    update(
        &mut m,
        Msg::Click {
            pane: Pane::Queue,
            row: Some(40),
        },
    );
    assert_eq!(m.queue().cursor(), 2, "below the last row: nothing");
    update(
        &mut m,
        Msg::Click {
            pane: Pane::Club,
            row: None,
        },
    );
    assert_eq!(m.focus(), Pane::Club);
    update(
        &mut m,
        Msg::Click {
            pane: Pane::Log,
            row: None,
        },
    );
    assert_eq!(m.focus(), Pane::Queue, "the log is hidden");
    update(&mut m, key('?'));
    update(
        &mut m,
        Msg::Click {
            pane: Pane::Club,
            row: None,
        },
    );
    assert_eq!(m.focus(), Pane::Queue, "a pop-up takes no clicks behind it");
}

#[test]
fn earlier_decisions_from_the_audit_file_are_shown_with_their_outcome() {
    let mut m = model_with(sample_rows());
    let entry = |outcome: Outcome, detail: Option<&str>| club_admin::app::AuditEntry {
        at: now(),
        server: m.server_key().to_owned(),
        user: None,
        action: "approve".into(),
        target: id(1),
        outcome,
        detail: detail.map(str::to_owned),
        value: None,
        via: Some("dashboard".into()),
        key: None,
        run: None,
        session: None,
        carried: None,
        settled_by: None,
        label: None,
        key_comment: None,
    };
    let entries = vec![
        entry(Outcome::Ok, None),
        entry(
            Outcome::Failed,
            Some("Student must be a staff member of the club to update club requests"),
        ),
        entry(Outcome::Unknown, Some("quit before the server answered")),
    ];
    update(&mut m, Msg::History(entries));
    let outcomes: Vec<(Outcome, Option<String>)> = m
        .log()
        .entries()
        .iter()
        .take(3)
        .map(|e| (e.outcome, e.detail.clone()))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            (Outcome::Ok, None),
            (
                Outcome::Failed,
                Some("Student must be a staff member of the club to update club requests".into())
            ),
            (
                Outcome::Unknown,
                Some("quit before the server answered".into())
            ),
        ]
    );
    assert!(
        m.log()
            .entries()
            .iter()
            .take(3)
            .all(|e| e.label == "(earlier session)")
    );
}

/// Seen over `serve-ssh`: a session started without a token showed "could not read the
/// current user: unauthorized ..." under the sign-in pop-up. The start's 401s say nothing
/// the pop-up does not; the status line asks for the token, in English and Thai.
#[test]
fn a_start_without_a_token_asks_for_one_and_reports_no_401() {
    for (lang, asks, not) in [
        (
            club_admin::i18n::Lang::English,
            "no token",
            "could not read",
        ),
        (
            club_admin::i18n::Lang::Thai,
            "ไม่มีโทเคน",
            "อ่านข้อมูลผู้ใช้ปัจจุบันไม่ได้",
        ),
    ] {
        let mut m = model_from(ModelOptions {
            has_token: false,
            ..options_in(lang)
        });
        let fx = club_admin::app::start(&mut m);
        let _ = fail_calls(&mut m, &fx, &unauthorized());
        // The pop-up opens when asked: the status line says which key.
        assert!(m.popup().is_none(), "{:?}", m.popup());
        let asks = club_admin::text::for_terminal(asks).into_owned();
        let not = club_admin::text::for_terminal(not).into_owned();
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(s.contains(&asks), "{w}x{h}:\n{s}");
            assert!(!s.contains(&not), "{w}x{h}:\n{s}");
        }
    }
}

/// Club 5 shown with no contact, and the new contact `email club@school.ac.th` sent from its
/// form: the model, and the effects of Enter.
fn new_contact_sent() -> (Model, Vec<Effect>) {
    let mut m = model_with(sample_rows());
    show_club(
        &mut m,
        serde_json::from_value(serde_json::json!({"id": id(5), "contacts": []})).expect("club"),
    );
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('n'));
    update(&mut m, code(KeyCode::Right)); // email
    update(&mut m, code(KeyCode::Tab));
    typed(&mut m, "club@school.ac.th");
    let fx = update(&mut m, code(KeyCode::Enter));
    (m, fx)
}

/// A new contact whose answer is lost runs the one decision machine as an approval does:
/// `sending` before it leaves, `unknown` when the answer is lost, the club re-read (never the
/// contact sent again), a re-read that fails planned after the backoff, and the read that
/// shows the contact settles it `ok` with the contact's value.
#[test]
fn a_new_contact_whose_answer_is_lost_is_settled_by_re_reads_of_the_club() {
    let (mut m, fx) = new_contact_sent();
    let post = api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. }));
    assert_eq!(post.len(), 1, "{fx:?}");
    // A 503 after the write: it may have been applied.
    let lost = ApiError::Server(ErrorInfo {
        status: Some(503),
        ..ErrorInfo::default()
    });
    let fx = answer(&mut m, post[0], ApiAnswer::ContactCreated(Err(lost)));
    let audits: Vec<(Outcome, Option<String>)> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some((a.outcome, a.value.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        audits,
        vec![(Outcome::Unknown, Some("email club@school.ac.th".into()))]
    );
    let read = api_ids(
        &fx,
        |c| matches!(c, ApiCall::GetClub { id: c, .. } if *c == id(5)),
    );
    assert_eq!(read.len(), 1, "the club is read again: {fx:?}");
    assert!(
        api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. })).is_empty(),
        "never sent again"
    );
    // Pressing Enter again sends nothing while it is unsettled.
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(
        api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. })).is_empty(),
        "{fx:?}"
    );
    // The re-read fails too: the next one is planned after the backoff.
    let fault = ApiError::Server(ErrorInfo {
        status: Some(500),
        ..ErrorInfo::default()
    });
    let fx = answer(&mut m, read[0], ApiAnswer::Club(Err(fault)));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Audit(_))), "{fx:?}");
    let due = m
        .retry_at()
        .unwrap_or_else(|| panic!("a re-read planned: {:?}", m.club().writes.get(id(5))));
    let fx = update(&mut m, Msg::Retry(due));
    let read = api_ids(
        &fx,
        |c| matches!(c, ApiCall::GetClub { id: c, .. } if *c == id(5)),
    );
    assert_eq!(read.len(), 1, "{fx:?}");
    // The club has it: the contact was added, audited `ok` with its value.
    let club: Club = serde_json::from_value(serde_json::json!({
        "id": id(5),
        "contacts": [{"id": id(6), "type": "email", "value": "club@school.ac.th"}]
    }))
    .expect("club");
    let fx = answer(&mut m, read[0], ApiAnswer::Club(Ok(reply(club))));
    let ok: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Audit(a) if a.outcome == Outcome::Ok => Some(a.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(ok.len(), 1, "{fx:?}");
    assert_eq!(ok[0].value.as_deref(), Some("email club@school.ac.th"));
    assert!(
        ok[0].detail.as_deref().is_some_and(|d| d.contains("added")),
        "{:?}",
        ok[0].detail
    );
    assert!(status(&m).contains("club@school.ac.th"), "{}", status(&m));
    assert_eq!(m.retry_at(), None, "nothing more to re-read");
}

/// The `max_bytes` of the audit file's reads for the history among `fx`.
fn history_reads(fx: &[Effect]) -> Vec<u64> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::ReadHistory { max_bytes } => Some(*max_bytes),
            _ => None,
        })
        .collect()
}

/// Before a sign-in (a `serve-ssh` dashboard opened by any authorized key) the team's
/// history is neither read nor shown: `H` says to sign in first, a read already on its way
/// keeps nothing; signed in, it is read.
#[test]
fn the_history_is_neither_read_nor_shown_before_a_sign_in() {
    use club_admin::app::update::START_BYTES;
    let mut m = model_from(ModelOptions {
        has_token: false,
        ..options()
    });
    let fx = club_admin::app::start(&mut m);
    assert!(history_reads(&fx).is_empty(), "no read at start: {fx:?}");
    let h = update(&mut m, key('H'));
    assert!(history_reads(&h).is_empty(), "{h:?}");
    assert!(m.popup().is_none(), "no pop-up before a sign-in");
    assert!(status(&m).contains("signed in"), "{}", status(&m));
    // A read answered now (asked before a sign-out) is kept by no one.
    update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    assert!(m.history().get().is_none(), "nothing kept");
    // Signed in: the history is read.
    let user_call = calls(&fx)
        .into_iter()
        .find(|(_, c)| matches!(c, ApiCall::CurrentUser))
        .map(|(id, _)| id)
        .expect("the user is read at start");
    let fx = answer(&mut m, user_call, ApiAnswer::User(Ok(reply(moderator()))));
    assert_eq!(history_reads(&fx), vec![START_BYTES], "{fx:?}");
}

#[test]
fn the_history_follows_every_audit_line_and_what_others_did_one_read_at_a_time() {
    use club_admin::app::update::{SHOWN_BYTES, START_BYTES};
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let told = club_admin::app::Told {
        id: id(3),
        heard: club_admin::app::Heard::Decided(RowAction::Decline),
        by: Some("other@mysk.ac.th".into()),
        at: m.now(),
    };
    // The start's read back (the detail's lines come from it).
    let fx = update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    assert!(history_reads(&fx).is_empty(), "{fx:?}");
    assert!(matches!(m.history(), Loadable::Loaded(_)));
    // An approval: its `sending` line, then the file read again after it.
    let fx = update(&mut m, key('a'));
    let first = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
    assert_eq!(first.len(), 1, "{fx:?}");
    let audit = fx.iter().position(|e| matches!(e, Effect::Audit(_)));
    let read = fx
        .iter()
        .position(|e| matches!(e, Effect::ReadHistory { .. }));
    assert!(
        audit.is_some() && audit < read,
        "the read after the line: {fx:?}"
    );
    assert_eq!(history_reads(&fx), vec![START_BYTES]);
    // A second while that read is on its way: none more now, one once it is back.
    let fx = update(&mut m, key('a'));
    let second = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
    assert_eq!(second.len(), 1, "{fx:?}");
    assert!(history_reads(&fx).is_empty(), "{fx:?}");
    let fx = update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    assert_eq!(history_reads(&fx), vec![START_BYTES]);
    let fx = update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    assert!(history_reads(&fx).is_empty(), "nothing new: no more reads");
    // The outcomes: read again, one read at a time.
    let mut done = sample_rows()[0].clone();
    done.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, first[0], ApiAnswer::Updated(Ok(reply(done))));
    assert_eq!(history_reads(&fx), vec![START_BYTES]);
    let fx = answer(
        &mut m,
        second[0],
        ApiAnswer::Updated(Err(ApiError::Internal)),
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::Audit(_))), "{fx:?}");
    assert!(history_reads(&fx).is_empty(), "{fx:?}");
    let fx = update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    assert_eq!(history_reads(&fx), vec![START_BYTES]);
    update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    // The pop-up open: its size; what another session did reads it too.
    let fx = update(&mut m, key('H'));
    assert_eq!(history_reads(&fx), vec![SHOWN_BYTES]);
    update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    let fx = update(&mut m, Msg::Heard(told.clone()));
    assert_eq!(history_reads(&fx), vec![SHOWN_BYTES]);
    update(&mut m, Msg::HistoryRead(Ok(Vec::new().into())));
    // Closed: the detail's size (the sessions of a server share the read itself).
    update(&mut m, Msg::Key(club_admin::app::Key::new(KeyCode::Esc)));
    let fx = update(&mut m, Msg::Heard(told));
    assert_eq!(history_reads(&fx), vec![START_BYTES]);
}

/// A new contact whose POST could not connect never reached the server: audited `queued`
/// then `undone` (never `failed`), its decision settled, and the form sends it again on
/// Enter.
#[test]
fn a_new_contact_that_could_not_connect_is_not_a_failure_and_is_sent_again_on_enter() {
    let (mut m, fx) = new_contact_sent();
    let post = api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. }));
    assert_eq!(post.len(), 1, "{fx:?}");
    let refused = ApiError::Connect {
        failure: ConnectFailure::NoConnection,
        host: "127.0.0.1:9".into(),
        cause: Some("connection refused".into()),
    };
    let fx = answer(&mut m, post[0], ApiAnswer::ContactCreated(Err(refused)));
    let outcomes: Vec<Outcome> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some(a.outcome),
            _ => None,
        })
        .collect();
    assert_eq!(outcomes, vec![Outcome::Queued, Outcome::Undone]);
    assert!(m.club().writes.alive(id(5)).is_none(), "settled");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. })).len(),
        1,
        "sent again: {fx:?}"
    );
}
