//! Every key acts on the request the moderator means: the cursor follows the request, and
//! the bugs a new user hit stay fixed. `update` tests, plus a few real frames.

use crate::common;
use crate::common::answers::ApiAnswer;

use std::collections::BTreeMap;

use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, KeyCode, Keymap, Msg, Outcome, Popup, update};
use common::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use uuid::Uuid;

fn selected(m: &Model) -> Uuid {
    m.queue().selected().expect("a row is selected").id
}

fn shown(m: &Model) -> Vec<Uuid> {
    m.queue()
        .visible()
        .iter()
        .map(|&i| m.queue().items()[i].id)
        .collect()
}

fn select(m: &mut Model, n: u128) {
    assert!(shown(m).contains(&id(n)), "row shown");
    cursor_to(m, id(n));
}

fn command(m: &mut Model, text: &str) -> Vec<Effect> {
    update(m, key(':'));
    typed(m, text);
    update(m, code(KeyCode::Enter))
}

/// Answers every write among `fx` with success (the server's updated request).
fn confirm_writes(m: &mut Model, fx: Vec<Effect>) {
    for e in fx {
        if let Effect::Api {
            request_id, call, ..
        } = e
        {
            let a = match call {
                ApiCall::UpdateRequest { id, status, .. } => {
                    let mut r = sample_rows().into_iter().find(|r| r.id == id).expect("row");
                    r.membership_status = Some(status);
                    ApiAnswer::Updated(Ok(reply(r)))
                }
                ApiCall::DeleteRequest { .. } => ApiAnswer::Deleted(Ok(reply(()))),
                _ => continue,
            };
            answer(m, request_id, a);
        }
    }
}

fn draw(m: &Model, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| club_admin::ui::view(f, m, &club_admin::ui::Theme::new(false)))
        .expect("draw");
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

// ----- the cursor follows the request -----------------------------------------------------

#[test]
fn a_filter_keeps_the_selected_request_or_goes_to_the_first_row() {
    let mut m = model_with(sample_rows());
    select(&mut m, 4);
    update(&mut m, key('/'));
    typed(&mut m, "robot");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(selected(&m), id(4), "still shown: still selected");
    select(&mut m, 4);
    update(&mut m, key('/'));
    for _ in 0..5 {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "chess");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(shown(&m), vec![id(2)]);
    assert_eq!(selected(&m), id(2), "hidden by the filter: the first row");
}

#[test]
fn a_sort_and_new_rows_keep_the_selected_request() {
    let mut m = model_with(sample_rows());
    select(&mut m, 2);
    update(&mut m, key('s'));
    assert_eq!(selected(&m), id(2), "after a sort");
    let fx = update(&mut m, Msg::Paste(format!("{}", id(77))));
    assert!(!fx.is_empty());
    assert_eq!(selected(&m), id(2), "after rows were added");
}

#[test]
fn typed_ahead_keys_act_on_the_rows_shown_after_the_filter() {
    // `/club:robot` Enter `a a`, typed fast: the two robotics requests, nothing else.
    let mut m = model_with(sample_rows());
    select(&mut m, 2);
    let mut fx = Vec::new();
    update(&mut m, key('/'));
    typed(&mut m, "club:robot");
    update(&mut m, code(KeyCode::Enter));
    fx.extend(update(&mut m, key('a')));
    fx.extend(update(&mut m, key('a')));
    let puts: Vec<Uuid> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Api {
                call: ApiCall::UpdateRequest { id, .. },
                ..
            } => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(puts, vec![id(1), id(4)]);
}

#[test]
fn clear_done_on_the_last_row_moves_to_its_neighbour_without_a_panic() {
    // demo, G, G, a, :clear-done (exit 101 before).
    let mut m = model_with(sample_rows());
    update(&mut m, key('G'));
    update(&mut m, key('G'));
    assert_eq!(selected(&m), id(4));
    let fx = update(&mut m, key('a'));
    confirm_writes(&mut m, fx);
    select(&mut m, 4);
    command(&mut m, "clear-done");
    assert_eq!(shown(&m), vec![id(1), id(2)], "approved rows cleared");
    assert_eq!(
        selected(&m),
        id(2),
        "the nearest remaining neighbour of the cleared row"
    );
}

// ----- the numbered bugs -------------------------------------------------------------------

#[test]
fn a_pane_key_that_clashes_with_a_global_key_stops_the_start() {
    let mut o = BTreeMap::new();
    o.insert("approve".to_owned(), vec!["q".to_owned()]);
    let errs = Keymap::default().with_overrides(&o).expect_err("clash");
    let all = errs.join("\n");
    assert!(
        all.contains("q is bound to both") && all.contains("quit"),
        "{all}"
    );
    assert!(
        Keymap::default().with_overrides(&BTreeMap::new()).is_ok(),
        "the defaults do not clash"
    );
}

#[test]
fn scope_to_one_club_narrows_the_queue() {
    let mut m = model_with(sample_rows());
    let robotics = m
        .queue()
        .get(id(1))
        .and_then(|i| i.request.as_ref())
        .and_then(|r| r.club.as_ref())
        .map(|c| c.id)
        .expect("club id");
    let fx = command(&mut m, &format!("scope {robotics}"));
    let mut ids: Vec<Uuid> = m.queue().items().iter().map(|i| i.id).collect();
    ids.sort();
    assert_eq!(ids, vec![id(1), id(4)], "other clubs' listed rows dropped");
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Api { call: ApiCall::ListRequests { filter, .. }, .. } if filter.club_ids == vec![robotics])),
        "the listing is asked for that club"
    );
}

#[test]
fn deleted_rows_are_not_pending_in_the_filter() {
    let mut m = model_with(sample_rows());
    select(&mut m, 1);
    update(&mut m, key('D'));
    let fx = update(&mut m, key('y'));
    confirm_writes(&mut m, fx);
    assert_eq!(status(&m), "Somchai Jaidee → Robotics Club: deleted");
    let pending = m.queue().stats().pending;
    update(&mut m, key('/'));
    typed(&mut m, "status:pending");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        m.queue().visible().len(),
        pending,
        "filter agrees with the header"
    );
    assert!(!shown(&m).contains(&id(1)));
}

#[test]
fn club_filter_matches_either_language_and_any_part_of_the_name() {
    let mut m = model_with(sample_rows());
    let mut by = |f: &str| {
        update(&mut m, key('/'));
        for _ in 0..30 {
            update(&mut m, code(KeyCode::Backspace));
        }
        typed(&mut m, f);
        update(&mut m, code(KeyCode::Enter));
        let mut v = shown(&m);
        v.sort();
        v
    };
    let thai = by("club:หุ่นยนต์");
    let english = by("club:robot");
    assert_eq!(thai, vec![id(1), id(4)]);
    assert_eq!(thai, english);
    assert_eq!(by("club:chess_club"), vec![id(2)]);
    assert_eq!(by("-club:robot").len(), 2);
}

#[test]
fn invalid_ids_from_the_command_line_are_reported_and_logged() {
    let mut m = model();
    update(
        &mut m,
        Msg::AddIds {
            text: format!("{} not-an-id 1234", id(5)),
            origin: club_admin::app::IdsFrom::Arguments,
        },
    );
    assert!(status(&m).contains("skipped 2"), "{}", status(&m));
    let e = m.log().entries().last().expect("a log entry");
    assert_eq!(e.outcome, Outcome::Failed);
    assert!(e.detail.as_deref().unwrap_or("").contains("not-an-id"));
}

#[test]
fn commands_refuse_unknown_arguments_and_say_what_they_did() {
    let mut m = model_with(sample_rows());
    let fx = command(&mut m, "mouse maybe");
    assert!(!m.mouse() && fx.iter().all(|e| !matches!(e, Effect::SetMouse(_))));
    assert!(status(&m).contains("mouse takes on or off"));
    command(&mut m, "club-level");
    assert!(status(&m).contains("club-level takes a fetch level"));
    command(&mut m, "club-level detailed");
    assert_eq!(status(&m), "club fetch level: detailed");
    command(&mut m, "sort club");
    assert_eq!(status(&m), "sorted: club");
    command(&mut m, "log");
    assert!(status(&m).contains("activity log shown"));
    update(&mut m, code(KeyCode::Enter));
    assert!(status(&m).starts_with("reading "), "{}", status(&m));
    update(&mut m, key('i'));
    typed(&mut m, &id(9).to_string());
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(status(&m), "added 1 request id from the i dialog");
}

#[test]
fn the_load_message_follows_the_pages() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = common::sign_in_moderator(&mut m, user);
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let first: Vec<ClubRequest> = sample_rows()
        .into_iter()
        .filter(|r| r.membership() == Some(&MembershipStatus::Pending))
        .collect();
    let (a, b) = first.split_at(2);
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(a.to_vec(), Some(2), 3))),
    );
    assert_eq!(status(&m), "2 pending requests loaded of 3");
    let next = api_ids(&fx, |c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        )
    });
    let next = match next.as_slice() {
        [n] => *n,
        _ => {
            update(&mut m, key('G'));
            let fx = update(&mut m, key('j'));
            api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0]
        }
    };
    answer(
        &mut m,
        next,
        ApiAnswer::Listing(Ok(listing_reply(b.to_vec(), None, 3))),
    );
    assert_eq!(status(&m), "3 pending requests loaded of 3");
}

#[test]
fn a_failed_queue_load_is_not_an_empty_queue() {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = common::sign_in_moderator(&mut m, user);
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let e = ApiError::Server(ErrorInfo {
        status: Some(500),
        detail: Some("database unavailable".into()),
        ..ErrorInfo::default()
    });
    answer(&mut m, list, ApiAnswer::Listing(Err(e)));
    let screen = draw(&m, 120, 40);
    assert!(screen.contains("Could not load the queue"), "{screen}");
    assert!(!screen.contains("No pending requests"));
}

#[test]
fn errors_put_the_reason_first_and_keep_the_error_id_for_the_log() {
    let e = ApiError::Forbidden(ErrorInfo {
        status: Some(403),
        detail: Some("Student must be a staff member of the club".into()),
        error_id: Some("995c0b0e-0000-4000-8000-000000000000".into()),
        ..ErrorInfo::default()
    });
    let text = e.to_string();
    assert!(
        text.starts_with("refused: Student must be a staff member"),
        "{text}"
    );
    assert!(
        text.ends_with("(HTTP 403)") && !text.contains("995c"),
        "{text}"
    );
    let mut m = model_with(sample_rows());
    select(&mut m, 1);
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
    answer(&mut m, put, ApiAnswer::Updated(Err(e)));
    assert!(!status(&m).contains("995c"));
    let logged = m.log().entries().last().and_then(|e| e.detail.clone());
    assert!(logged.unwrap_or_default().contains("error id 995c"));
}

#[test]
fn an_invalid_club_query_does_not_show_the_old_club() {
    let mut m = model_with(sample_rows());
    let fx = command(&mut m, &format!("club {}", id(20)));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetClub { .. }))[0];
    let club: Club = serde_json::from_value(
        serde_json::json!({"id": id(20), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"}}),
    )
    .expect("club");
    answer(&mut m, rid, ApiAnswer::Club(Ok(reply(club))));
    assert!(m.club().club.get().is_some());
    command(&mut m, "club 1234-abcd");
    assert!(m.club().club.get().is_none() && m.club().club_id.is_none());
    assert!(matches!(&m.club().club, Loadable::Failed(t) if t.contains("not a valid club id")));
}

#[test]
fn a_student_known_by_id_only_is_not_shown_as_the_request() {
    let mut r = sample_rows().remove(0);
    r.student = serde_json::from_value(serde_json::json!({"id": id(0xabcdef)})).ok();
    let m = model_with(vec![r]);
    let screen = draw(&m, 120, 40);
    assert!(screen.contains("student 00000000…"), "{screen}");
}

#[test]
fn an_id_that_never_existed_says_not_found() {
    let mut m = model();
    let fx = update(
        &mut m,
        Msg::AddIds {
            text: id(404).to_string(),
            origin: club_admin::app::IdsFrom::Dialog,
        },
    );
    let get = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    answer(
        &mut m,
        get,
        ApiAnswer::Request(Err(ApiError::NotFound(ErrorInfo {
            status: Some(404),
            ..ErrorInfo::default()
        }))),
    );
    let row = m.queue().get(id(404)).expect("row");
    assert_eq!(row.state, RowState::Gone);
    assert!(row.shown_error().unwrap_or("").starts_with("not found"));
    assert!(draw(&m, 120, 40).contains("not found"));
}

#[test]
fn a_restored_filter_is_announced() {
    let mut m = model();
    let server = m.server_key().to_owned();
    update(
        &mut m,
        Msg::Restore(SavedQueue {
            server,
            manual_ids: vec![],
            filter: "club:chess".into(),
            sort: QueueSort::Server,
            scope: None,
        }),
    );
    assert!(
        status(&m).contains("the filter /club:chess"),
        "{}",
        status(&m)
    );
}

#[test]
fn a_pasted_token_is_checked_before_it_replaces_the_session() {
    let mut m = model_with(sample_rows());
    let sign_in = |m: &mut Model, token: &str| {
        update(m, key('S'));
        update(m, Msg::Paste(token.to_owned()));
        let fx = update(m, code(KeyCode::Enter));
        assert!(
            fx.iter().all(|e| !matches!(e, Effect::SetToken(_))),
            "not used before the server takes it"
        );
        api_ids(&fx, |c| matches!(c, ApiCall::CheckToken { .. }))[0]
    };
    let rid = sign_in(&mut m, "mistyped.token.value");
    let refused = ApiError::Unauthorized {
        kind: AuthErrorKind::InvalidToken,
        info: ErrorInfo {
            status: Some(401),
            detail: Some("Invalid token".into()),
            ..ErrorInfo::default()
        },
    };
    let fx = answer(&mut m, rid, ApiAnswer::User(Err(refused)));
    assert!(fx.iter().all(|e| !matches!(e, Effect::SetToken(_))));
    assert!(
        !m.session_expired() && m.has_token(),
        "the working session stays"
    );
    assert!(
        matches!(&m.popup(), Some(Popup::SignIn { error: Some(e), .. }) if e.starts_with("that token was refused")),
        "{:?}",
        m.popup()
    );
    update(&mut m, code(KeyCode::Esc));
    let rid = sign_in(&mut m, "good.token.value");
    let fx = common::sign_in_moderator(&mut m, rid);
    assert!(fx.iter().any(|e| matches!(e, Effect::SetToken(_))));
    assert_eq!(status(&m), "signed in");
}

#[test]
fn a_contact_value_is_checked_before_it_is_sent_and_audited_with_its_type() {
    let mut m = model_with(sample_rows());
    let fx = command(&mut m, &format!("club {}", id(20)));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetClub { .. }))[0];
    let club: Club =
        serde_json::from_value(serde_json::json!({"id": id(20), "contacts": []})).expect("club");
    answer(&mut m, rid, ApiAnswer::Club(Ok(reply(club))));
    update(&mut m, key('n'));
    // The first type in the picker is phone.
    update(&mut m, code(KeyCode::Enter));
    typed(&mut m, "call the club");
    let fx = update(&mut m, code(KeyCode::Enter));
    assert!(fx.is_empty(), "refused before any request");
    assert!(
        matches!(&m.popup(), Some(Popup::AddContact { error: Some(e), .. }) if e.contains("not a valid phone")),
        "{:?}",
        m.popup()
    );
    for _ in 0.."call the club".len() {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "+66 81 234 5678");
    let fx = update(&mut m, code(KeyCode::Enter));
    let post = api_ids(&fx, |c| matches!(c, ApiCall::CreateContact { .. }))[0];
    let made: Contact = serde_json::from_value(
        serde_json::json!({"id": id(30), "type": "phone", "value": "+66 81 234 5678"}),
    )
    .expect("contact");
    let fx = answer(&mut m, post, ApiAnswer::ContactCreated(Ok(reply(made))));
    assert!(
        fx.iter().any(
            |e| matches!(e, Effect::Audit(a) if a.value.as_deref() == Some("phone +66 81 234 5678"))
        ),
        "{fx:?}"
    );
}

#[test]
fn the_queue_bottom_line_gives_way_by_whole_parts() {
    let mut m = model_with_more(sample_rows(), 1234);
    assert!(m.listing().has_more && m.listing().total == Some(1234));
    update(&mut m, key('/'));
    typed(&mut m, "club:robotics_club status:pending");
    update(&mut m, code(KeyCode::Enter));
    for (w, h) in [(80, 24), (120, 40), (60, 15)] {
        let screen = draw(&m, w, h);
        let line = screen
            .lines()
            .find(|l| l.contains("/club:robotics"))
            .expect("the bottom line");
        for part in [
            " more below ",
            " server: 1234 pending ",
            // Restored at start, the sort covers the loaded rows only, and says so.
            " sort: oldest first, only the 3 loaded ",
        ] {
            let half = &part[..part.len() / 2];
            assert!(
                line.contains(part) || !line.contains(half),
                "{part:?} cut at {w}x{h}: {line}"
            );
        }
    }
}

#[test]
fn question_mark_closes_the_help_only_while_its_search_is_empty() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('?'));
    typed(&mut m, "del?");
    assert!(
        matches!(&m.popup(), Some(Popup::Help { query, .. }) if query.value() == "del?"),
        "{:?}",
        m.popup()
    );
    for _ in 0..4 {
        update(&mut m, code(KeyCode::Backspace));
    }
    update(&mut m, key('?'));
    assert!(m.popup().is_none(), "an empty search: ? closes");
}
