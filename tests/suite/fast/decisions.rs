//! Decisions the moderator can take back, counted to the end, and never guessed: `update`
//! tests, Msg in, Model and Effects out.

use crate::common;
use crate::common::answers::ApiAnswer;

use chrono::Duration as Span;
use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, Effect, KeyCode, Msg, Outcome, Popup, update};
use common::*;
use uuid::Uuid;

fn tick(m: &mut Model, secs: i64) -> Vec<Effect> {
    update(m, Msg::Tick(now() + Span::seconds(secs)))
}

/// The (request id, target, status) of every PUT among `fx`.
fn puts(fx: &[Effect]) -> Vec<(u64, Uuid, MembershipStatus)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Api {
                request_id,
                call: ApiCall::UpdateRequest { id, status, .. },
                ..
            } => Some((*request_id, *id, status.clone())),
            _ => None,
        })
        .collect()
}

fn writes(fx: &[Effect]) -> usize {
    fx.iter()
        .filter(|e| matches!(e, Effect::Api { call, .. } if call.is_mutation()))
        .count()
}

fn audits(fx: &[Effect]) -> Vec<(Uuid, Outcome, String)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some((a.target, a.outcome, a.detail.clone().unwrap_or_default())),
            _ => None,
        })
        .collect()
}

fn selected(m: &Model) -> Uuid {
    m.queue().selected().expect("selected").id
}

fn approved(r: Uuid) -> ApiAnswer {
    let mut req = sample_rows()
        .into_iter()
        .find(|x| x.id == r)
        .expect("sample row");
    req.membership_status = Some(MembershipStatus::Approved);
    ApiAnswer::Updated(Ok(reply(req)))
}

/// A model of the sample rows (oldest first: 3 approved, then 1, 2, 4 pending) with a
/// grace period of 5 s and the cursor on request 1.
fn held5() -> Model {
    let mut m = held_model(sample_rows(), 5);
    update(&mut m, key('j'));
    assert_eq!(selected(&m), id(1));
    m
}

// ---------------------------------------------------------------------------------------
// item 2: the grace period

#[test]
fn an_approve_is_held_the_cursor_moves_on_and_it_is_sent_when_the_time_is_up() {
    let mut m = held5();
    let fx = update(&mut m, key('a'));
    assert_eq!(writes(&fx), 0, "nothing is sent during the grace period");
    assert_eq!(selected(&m), id(2), "the cursor moves on at once");
    assert_eq!(m.deciding(id(1)), Some(RowAction::Approve));
    assert!(m.animating(), "the loop ticks while a decision is held");
    assert!(!m.busy(), "nothing is in flight");
    let s = status(&m);
    assert!(
        s.contains("approving") && s.contains("in 5 s") && s.contains("z undo"),
        "{s}"
    );
    let fx = tick(&mut m, 4);
    assert_eq!(writes(&fx), 0);
    assert!(status(&m).contains("in 1 s"), "{}", status(&m));
    // The row counts down too, in the short form that fits the status column.
    let shown = screen(&m, 120, 40);
    assert!(shown.contains("│  approving 1 s "), "{shown}");
    assert!(shown.contains("z undo"), "the hint bar offers z");
    let fx = tick(&mut m, 5);
    let p = puts(&fx);
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].1, p[0].2.clone()),
        (id(1), MembershipStatus::Approved)
    );
    assert!(m.held().is_empty());
    assert!(!screen(&m, 120, 40).contains("z undo"), "no undo once sent");
    let fx = answer(&mut m, p[0].0, approved(id(1)));
    assert_eq!(audits(&fx), vec![(id(1), Outcome::Ok, String::new())]);
    assert_eq!(
        m.queue().get(id(1)).and_then(|i| i.status().cloned()),
        Some(MembershipStatus::Approved)
    );
}

#[test]
fn z_takes_back_the_latest_decision_which_is_never_sent() {
    let mut m = held5();
    update(&mut m, key('a')); // request 1, cursor to 2
    let fx = update(&mut m, key('x')); // request 2 declined, cursor to 4
    assert_eq!(writes(&fx), 0);
    assert_eq!(selected(&m), id(4));
    let fx = update(&mut m, key('z'));
    assert_eq!(
        audits(&fx),
        vec![(
            id(2),
            Outcome::Undone,
            "taken back (z) before it was sent".into()
        )]
    );
    assert_eq!(writes(&fx), 0);
    let row = m.queue().get(id(2)).expect("row");
    assert_eq!(row.state, RowState::Ready, "pending again");
    assert!(row.is_actionable());
    assert_eq!(selected(&m), id(2), "the cursor goes back to it");
    assert!(status(&m).contains("taken back"), "{}", status(&m));
    assert_eq!(
        m.log().entries().last().map(|e| e.outcome),
        Some(Outcome::Undone)
    );
    // The approve of request 1 is still held and goes when due; nothing for request 2.
    let fx = tick(&mut m, 6);
    let p = puts(&fx);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].1, id(1));
    let fx = update(&mut m, key('z'));
    assert!(audits(&fx).is_empty());
    assert!(status(&m).contains("nothing to undo"), "{}", status(&m));
}

#[test]
fn a_bulk_decision_is_held_and_taken_back_as_a_whole() {
    let mut m = held5();
    update(&mut m, key(' ')); // mark 1, move to 2
    update(&mut m, key(' ')); // mark 2
    update(&mut m, key('a'));
    assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
    let fx = update(&mut m, key('y'));
    assert_eq!(writes(&fx), 0);
    assert!(m.bulk().is_none(), "no progress until it is sent");
    assert!(
        status(&m).contains("approving 2 requests in 5 s"),
        "{}",
        status(&m)
    );
    let fx = update(&mut m, key('z'));
    let undone: Vec<Uuid> = audits(&fx)
        .into_iter()
        .filter(|a| a.1 == Outcome::Undone)
        .map(|a| a.0)
        .collect();
    assert_eq!(undone, vec![id(1), id(2)]);
    assert_eq!(
        m.queue().stats().marked,
        2,
        "the marks stay for another try"
    );
    assert_eq!(writes(&tick(&mut m, 10)), 0, "never sent");
    // Held again, and this time sent: one bulk task with its progress.
    update(&mut m, key('x'));
    update(&mut m, key('y'));
    let fx = tick(&mut m, 16);
    let p = puts(&fx);
    assert_eq!(p.len(), 2);
    assert!(p.iter().all(|x| x.2 == MembershipStatus::Declined));
    assert_eq!(m.bulk().map(|b| (b.total, b.done)), Some((2, 0)));
    assert!(status(&m).contains("declining… 0/2"), "{}", status(&m));
}

#[test]
fn two_bulk_decisions_sent_on_one_tick_share_one_truthful_progress() {
    let club = ("Computer Club", "ชุมนุมคอมพิวเตอร์");
    let rows: Vec<ClubRequest> = (1..=4).map(|n| pending_row(n, club)).collect();
    let mut m = held_model(rows.clone(), 5);
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    update(&mut m, key('a'));
    update(&mut m, key('y'));
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    update(&mut m, key('a'));
    match &m.popup() {
        Some(Popup::Confirm { ids, .. }) => assert_eq!(ids.len(), 4, "1 and 2 are still marked"),
        other => panic!("{other:?}"),
    }
    update(&mut m, key('y'));
    assert_eq!(m.held().len(), 2);
    assert_eq!(m.held().requests(), 4, "1 and 2 are held once");
    let fx = tick(&mut m, 5);
    let p = puts(&fx);
    assert_eq!(p.len(), 4);
    assert_eq!(m.bulk().map(|b| (b.total, b.done)), Some((4, 0)));
    for (rid, r, _) in p {
        let mut req = rows.iter().find(|x| x.id == r).expect("row").clone();
        req.membership_status = Some(MembershipStatus::Approved);
        answer(&mut m, rid, ApiAnswer::Updated(Ok(reply(req))));
    }
    assert!(m.bulk().is_none());
    assert!(
        status(&m).contains("approve: 4 of 4 done"),
        "{}",
        status(&m)
    );
}

#[test]
fn delete_keeps_its_confirmation_and_is_never_held() {
    let mut m = held5();
    update(&mut m, key('D'));
    assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
    let fx = update(&mut m, key('y'));
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Api {
            call: ApiCall::DeleteRequest { id: x },
            ..
        } if *x == id(1)
    )));
    assert!(m.held().is_empty());
}

#[test]
fn quitting_with_decisions_held_asks_and_waits_meanwhile() {
    let mut m = held5();
    update(&mut m, key('a'));
    let fx = update(&mut m, key('q'));
    assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Quit)));
    let shown = screen(&m, 120, 40);
    assert!(shown.contains("s send now, quit"), "{shown}");
    assert!(shown.contains("d discard, quit"), "{shown}");
    assert!(shown.contains("Esc stay"), "{shown}");
    assert_eq!(
        writes(&tick(&mut m, 30)),
        0,
        "not sent while the question is open"
    );
    // Stay: the countdown goes on; it was due long ago, so the next tick sends it.
    update(&mut m, code(KeyCode::Esc));
    assert!(m.popup().is_none() && !m.quitting());
    assert_eq!(puts(&tick(&mut m, 31)).len(), 1);
}

#[test]
fn quitting_and_discarding_audits_undone_and_sends_nothing() {
    let mut m = held5();
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    let fx = update(&mut m, key('d'));
    assert_eq!(writes(&fx), 0);
    assert_eq!(
        audits(&fx),
        vec![(
            id(1),
            Outcome::Undone,
            "discarded on quitting before it was sent".into()
        )]
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
}

#[test]
fn quitting_and_sending_now_quits_once_the_server_answered() {
    let mut m = held5();
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    let fx = update(&mut m, key('s'));
    let p = puts(&fx);
    assert_eq!(p.len(), 1, "sent now");
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Quit)),
        "not before the answer"
    );
    assert!(status(&m).contains("quitting when the server has answered"));
    let fx = answer(&mut m, p[0].0, approved(id(1)));
    assert_eq!(audits(&fx), vec![(id(1), Outcome::Ok, String::new())]);
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
}

#[test]
fn a_force_quit_discards_what_is_held() {
    let mut m = held5();
    update(&mut m, key('a'));
    let fx = update(&mut m, ctrl('c'));
    assert_eq!(writes(&fx), 0);
    assert_eq!(audits(&fx)[0].1, Outcome::Undone);
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
}

#[test]
fn a_hang_up_sends_what_is_held_and_audits_the_unanswered_as_unknown() {
    let mut m = held5();
    update(&mut m, key('a'));
    update(&mut m, key('a'));
    let fx = update(&mut m, Msg::Flush(club_admin::app::EndedBy::HangUp));
    assert_eq!(puts(&fx).len(), 2, "the moderator meant them: sent at once");
    assert_eq!(m.writes_pending(), 2);
    let p = puts(&fx);
    let fx = answer(&mut m, p[0].0, approved(id(1)));
    assert_eq!(audits(&fx)[0].1, Outcome::Ok);
    assert_eq!(m.writes_pending(), 1);
    let fx = update(&mut m, Msg::Stop);
    assert_eq!(
        audits(&fx).iter().map(|a| (a.0, a.1)).collect::<Vec<_>>(),
        vec![(id(2), Outcome::Unknown)]
    );
    assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
}

#[test]
fn a_zero_delay_sends_at_once() {
    let mut m = held_model(sample_rows(), 0);
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    assert_eq!(puts(&fx).len(), 1);
    assert!(m.held().is_empty());
}

#[test]
fn the_decision_delay_is_bounded() {
    use club_admin::config::decision_delay;
    assert_eq!(decision_delay(None), Ok(std::time::Duration::from_secs(5)));
    assert_eq!(decision_delay(Some(0)), Ok(std::time::Duration::ZERO));
    assert_eq!(
        decision_delay(Some(60)),
        Ok(std::time::Duration::from_secs(60))
    );
    let e = decision_delay(Some(61)).expect_err("too long");
    assert!(
        e.contains("decision_delay_secs") && e.contains("between 0 and 60"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// item 3: mark all means all

fn pending_row(n: u128, club: (&str, &str)) -> ClubRequest {
    request(
        id(n),
        "pending",
        &format!("5{n:04}"),
        None,
        club,
        2026,
        n as i64,
    )
}

/// A signed-in admin whose listing's first page holds `first` of `total` pending requests;
/// returns the model and the request id of the next page, asked at once (short queue).
fn listed(first: Vec<ClubRequest>, total: u64) -> (Model, u64) {
    let mut m = model();
    let fx = club_admin::app::start(&mut m);
    let rid = api_ids(&fx, |_| true)[0];
    let fx = common::sign_in_moderator(&mut m, rid);
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Listing(Ok(listing_reply(first, Some(2), total))),
    );
    let next = api_ids(&fx, |c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        )
    });
    assert_eq!(next.len(), 1, "the next stretch is asked for");
    (m, next[0])
}

#[test]
fn mark_all_loads_the_rest_of_the_listing_then_marks_every_match() {
    let club = ("Computer Club", "ชุมนุมคอมพิวเตอร์");
    let (mut m, next) = listed((1..=3).map(|n| pending_row(n, club)).collect(), 5);
    assert!(m.listing().has_more);
    let fx = update(&mut m, key('*'));
    assert_eq!(
        m.queue().stats().marked,
        0,
        "nothing marked before all is loaded"
    );
    assert!(
        api_ids(&fx, |_| true).is_empty(),
        "the page asked for is awaited"
    );
    assert!(
        status(&m).contains("loading the rest of the queue"),
        "{}",
        status(&m)
    );
    let fx = answer(
        &mut m,
        next,
        ApiAnswer::Listing(Ok(listing_reply(
            (4..=5).map(|n| pending_row(n, club)).collect(),
            None,
            5,
        ))),
    );
    assert!(
        api_ids(&fx, |c| matches!(
            c,
            ApiCall::ListRequests {
                purpose: club_admin::app::ListPurpose::Page { .. },
                ..
            }
        ))
        .is_empty()
    );
    assert_eq!(
        m.queue().stats().marked,
        5,
        "every request the listing holds"
    );
    assert!(
        status(&m).contains("5 marked") && status(&m).contains("of Computer Club"),
        "{}",
        status(&m)
    );
    update(&mut m, key('a'));
    match &m.popup() {
        Some(Popup::Confirm { ids, .. }) => assert_eq!(ids.len(), 5),
        other => panic!("{other:?}"),
    }
    let shown = screen(&m, 120, 40);
    assert!(
        shown.contains("Approve 5 marked club requests of Computer Club?"),
        "{shown}"
    );
}

#[test]
fn mark_all_respects_the_filter_and_names_no_club_for_several() {
    let rows = vec![
        pending_row(1, ("Computer Club", "ชุมนุมคอมพิวเตอร์")),
        pending_row(2, ("Chess Club", "ชุมนุมหมากรุก")),
        pending_row(3, ("Computer Club", "ชุมนุมคอมพิวเตอร์")),
    ];
    let (mut m, next) = listed(rows, 4);
    update(&mut m, key('*'));
    answer(
        &mut m,
        next,
        ApiAnswer::Listing(Ok(listing_reply(
            vec![pending_row(4, ("Chess Club", "ชุมนุมหมากรุก"))],
            None,
            4,
        ))),
    );
    assert_eq!(m.queue().stats().marked, 4);
    update(&mut m, key('a'));
    let shown = screen(&m, 120, 40);
    assert!(shown.contains("Approve 4 marked club requests?"), "{shown}");
    update(&mut m, key('n'));
    update(&mut m, key('u'));
    // With a filter, only the matching requests.
    update(&mut m, key('/'));
    typed(&mut m, "chess");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, key('*'));
    let marked: Vec<Uuid> = m.queue().marked_ids();
    assert_eq!(marked, vec![id(2), id(4)]);
    assert!(status(&m).contains("of Chess Club"), "{}", status(&m));
}

#[test]
fn mark_all_stops_and_marks_nothing_when_a_page_fails() {
    let club = ("Computer Club", "ชุมนุมคอมพิวเตอร์");
    let (mut m, next) = listed((1..=3).map(|n| pending_row(n, club)).collect(), 9);
    update(&mut m, key('*'));
    answer(
        &mut m,
        next,
        ApiAnswer::Listing(Err(ApiError::timeout(20_000))),
    );
    assert_eq!(m.queue().stats().marked, 0);
    assert!(status(&m).contains("mark all stopped"), "{}", status(&m));
}

// ---------------------------------------------------------------------------------------
// item 4: a lost answer is never guessed

fn lost() -> ApiAnswer {
    ApiAnswer::Updated(Err(ApiError::timeout(20_000)))
}

/// Approves request 1 (no grace period) and loses the answer; returns the model, the audit
/// lines of the lost answer and the request id of the re-read.
fn approve_and_lose() -> (Model, Vec<(Uuid, Outcome, String)>, u64) {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = puts(&fx)[0].0;
    let fx = answer(&mut m, put, lost());
    let reread = api_ids(
        &fx,
        |c| matches!(c, ApiCall::GetRequest { id: x, .. } if *x == id(1)),
    );
    assert_eq!(reread.len(), 1, "the row re-reads itself");
    assert_eq!(writes(&fx), 0, "never resent");
    // The core's backoff re-reads it: the client tries each re-read once (issue 34).
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Api { request_id, tries: club_admin::app::Tries::Once, .. } if *request_id == reread[0]
        )),
        "a lost write's re-read is tried once by the client: {fx:?}"
    );
    (m, audits(&fx), reread[0])
}

#[test]
fn a_lost_answer_is_audited_unknown_then_settled_ok_by_the_re_read() {
    let (mut m, first, reread) = approve_and_lose();
    assert_eq!(first.len(), 1);
    assert_eq!((first[0].0, first[0].1), (id(1), Outcome::Unknown));
    assert!(first[0].2.contains("timed out"), "{}", first[0].2);
    let row = m.queue().get(id(1)).expect("row");
    assert!(
        row.error
            .as_deref()
            .unwrap_or("")
            .contains("outcome unknown")
    );
    assert_eq!(
        row.status(),
        Some(&MembershipStatus::Pending),
        "not guessed"
    );
    assert_eq!(m.writes_pending(), 1, "the re-read settles a write");
    let mut r = sample_rows()[0].clone();
    r.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, reread, ApiAnswer::Request(Ok(reply(r))));
    let second = audits(&fx);
    assert_eq!(second.len(), 1);
    assert_eq!((second[0].0, second[0].1), (id(1), Outcome::Ok));
    assert!(second[0].2.contains("approved"), "{}", second[0].2);
    let row = m.queue().get(id(1)).expect("row");
    assert_eq!(row.status(), Some(&MembershipStatus::Approved));
    assert!(row.error.is_none());
    assert!(m.decisions().lost().is_empty());
    assert!(status(&m).contains("approved"), "{}", status(&m));
}

#[test]
fn a_lost_answer_settled_as_still_pending_is_failed() {
    let (mut m, _, reread) = approve_and_lose();
    let fx = answer(
        &mut m,
        reread,
        ApiAnswer::Request(Ok(reply(sample_rows()[0].clone()))),
    );
    let second = audits(&fx);
    assert_eq!(second[0].1, Outcome::Failed);
    assert!(second[0].2.contains("still pending"), "{}", second[0].2);
    let row = m.queue().get(id(1)).expect("row");
    assert!(row.is_actionable(), "can be decided again");
    assert!(row.error.as_deref().unwrap_or("").contains("still pending"));
}

#[test]
fn a_failed_re_read_leaves_it_unknown_until_a_read_succeeds() {
    let (mut m, _, reread) = approve_and_lose();
    let fx = answer(
        &mut m,
        reread,
        ApiAnswer::Request(Err(ApiError::Connect {
            failure: ConnectFailure::NoConnection,
            host: "127.0.0.1:9".into(),
            cause: Some("connection refused".into()),
        })),
    );
    assert!(audits(&fx).is_empty(), "nothing settled, nothing guessed");
    assert_eq!(m.decisions().lost().len(), 1);
    let row = m.queue().get(id(1)).expect("row");
    assert!(row.error.as_deref().unwrap_or("").contains("still unknown"));
    // Enter on the row reads it again; this read settles it.
    let _ = cursor_to(&mut m, id(1));
    let fx = update(&mut m, code(KeyCode::Enter));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let mut r = sample_rows()[0].clone();
    r.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, rid, ApiAnswer::Request(Ok(reply(r))));
    assert_eq!(audits(&fx)[0].1, Outcome::Ok);
}

#[test]
fn a_delete_whose_answer_is_lost_is_settled_by_a_404() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let fx = update(&mut m, key('y'));
    let del = api_ids(&fx, |c| matches!(c, ApiCall::DeleteRequest { .. }))[0];
    let fx = answer(
        &mut m,
        del,
        ApiAnswer::Deleted(Err(ApiError::Connect {
            failure: ConnectFailure::ClosedMidAnswer,
            host: "127.0.0.1:9".into(),
            cause: Some("connection closed before message completed".into()),
        })),
    );
    assert_eq!(audits(&fx)[0].1, Outcome::Unknown);
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Request(Err(ApiError::NotFound(ErrorInfo {
            status: Some(404),
            ..ErrorInfo::default()
        }))),
    );
    let second = audits(&fx);
    assert_eq!(
        (second[0].1, second[0].2.contains("deleted")),
        (Outcome::Ok, true)
    );
    assert_eq!(
        m.queue().get(id(1)).map(|i| i.state.clone()),
        Some(RowState::Deleted)
    );
}

#[test]
fn a_bulk_action_counts_lost_answers_as_unknown_not_failed() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    update(&mut m, key('a'));
    let fx = update(&mut m, key('y'));
    let p = puts(&fx);
    assert_eq!(p.len(), 2);
    answer(&mut m, p[0].0, approved(p[0].1));
    assert!(status(&m).contains("1/2"), "{}", status(&m));
    answer(&mut m, p[1].0, lost());
    let s = status(&m);
    assert!(s.contains("1 of 2 done") && s.contains("1 unknown"), "{s}");
    assert!(!s.contains("failed"), "{s}");
}

/// Once the re-reads of a bulk action's lost answers settle them, its summary is said
/// again with the server's truth: the status line never keeps "unknown" for decisions that
/// are known (a tester saw "0 of 10 done, 10 unknown" stay over ten approved rows).
#[test]
fn a_bulk_summary_is_said_again_once_its_lost_answers_are_settled() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    for _ in 0..3 {
        update(&mut m, key(' '));
    }
    update(&mut m, key('a'));
    let fx = update(&mut m, key('y'));
    let p = puts(&fx);
    assert_eq!(p.len(), 3);
    answer(&mut m, p[0].0, approved(p[0].1));
    let lost_a = answer(&mut m, p[1].0, lost());
    let lost_b = answer(&mut m, p[2].0, lost());
    let s = status(&m);
    assert!(s.contains("1 of 3 done") && s.contains("2 unknown"), "{s}");
    let reread = |fx: &[Effect]| api_ids(fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let (ra, rb) = (reread(&lost_a), reread(&lost_b));
    // The first re-read shows it applied: the summary stands until the last one is known.
    let mut shown = approved(p[1].1);
    if let ApiAnswer::Updated(Ok(r)) = shown {
        shown = ApiAnswer::Request(Ok(r));
    }
    answer(&mut m, ra, shown);
    assert!(status(&m).contains("2 unknown"), "{}", status(&m));
    // The second shows it still pending (the write did not land): 2 of 3 done, 1 failed.
    let pending = sample_rows()
        .into_iter()
        .find(|x| x.id == p[2].1)
        .expect("sample row");
    answer(&mut m, rb, ApiAnswer::Request(Ok(reply(pending))));
    let s = status(&m);
    assert!(
        s.contains("approve: 2 of 3 done") && s.contains("1 failed"),
        "{s}"
    );
    assert!(!s.contains("unknown"), "{s}");
}

/// A row whose re-read failed too is read again by itself, at the core's
/// backoff (`Msg::Retry` at `Model::retry_at`, no key), and `a` on it reads instead of
/// sending a second write.
#[test]
fn an_unknown_outcome_is_re_read_by_itself_and_never_written_twice() {
    let (mut m, _, reread) = approve_and_lose();
    let down = || {
        ApiAnswer::Request(Err(ApiError::Server(ErrorInfo {
            status: Some(503),
            ..ErrorInfo::default()
        })))
    };
    let fx = answer(&mut m, reread, down());
    assert!(audits(&fx).is_empty(), "nothing settled, nothing guessed");
    // The server answered again after the time-out: the link is back, so the row is read
    // again at once (not at the end of its backoff).
    let again = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
    assert_eq!(
        again.len(),
        1,
        "read again at once when the link comes back"
    );
    let fx = answer(&mut m, again[0], down());
    assert!(audits(&fx).is_empty());
    let due = m.retry_at().expect("a re-read is planned");
    assert_eq!((due - m.now()).num_seconds(), 1, "first backoff: 1 s");
    let row = m.queue().get(id(1)).expect("row");
    assert!(row.error.as_deref().unwrap_or("").contains("still unknown"));
    assert!(
        m.animating(),
        "the countdown ticks while a write is unsettled"
    );
    // Before it is due, nothing; at the time, the re-read goes out without a key.
    let now = m.now();
    let early = update(&mut m, Msg::Retry(now));
    assert!(api_ids(&early, |c| matches!(c, ApiCall::GetRequest { .. })).is_empty());
    let fx = update(&mut m, Msg::Retry(due));
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let fx = answer(&mut m, rid, down());
    assert!(audits(&fx).is_empty());
    let next = m.retry_at().expect("planned again");
    assert_eq!((next - due).num_seconds(), 2, "second backoff: 2 s");
    // The detail pane counts down to it as the clock moves (a tester saw it stand still).
    let _ = cursor_to(&mut m, id(1));
    let shown = |m: &Model| screen(m, 120, 40);
    assert!(
        shown(&m).contains("reading it again by itself in 2 s"),
        "{}",
        shown(&m)
    );
    update(
        &mut m,
        Msg::Tick(due + chrono::Duration::milliseconds(1500)),
    );
    assert!(
        shown(&m).contains("reading it again by itself in 1 s"),
        "{}",
        shown(&m)
    );
    // `a` on the row: a read, not a PUT.
    let _ = cursor_to(&mut m, id(1));
    let fx = update(&mut m, key('a'));
    assert!(
        api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. })).is_empty(),
        "never a second write while the outcome is unknown"
    );
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    assert!(m.held().is_empty(), "nothing held either");
    let mut r = sample_rows()[0].clone();
    r.membership_status = Some(MembershipStatus::Approved);
    let fx = answer(&mut m, rid, ApiAnswer::Request(Ok(reply(r))));
    assert_eq!(audits(&fx)[0].1, Outcome::Ok);
    assert!(m.decisions().lost().is_empty() && m.retry_at().is_none());
}

/// Twelve pending requests in `lang`, every one marked and approved at once (confirmed):
/// the model and the effects of the confirmation.
fn twelve_approved(lang: club_admin::i18n::Lang) -> (Model, Vec<Effect>) {
    let rows: Vec<ClubRequest> = (1..=12u128)
        .map(|n| {
            request(
                Uuid::from_u128(n),
                "pending",
                &format!("5{n:04}"),
                Some(("Somchai", "สมชาย")),
                ("Robotics Club", "ชุมนุมหุ่นยนต์"),
                2026,
                n as i64,
            )
        })
        .collect();
    let mut m = model_with_lang(rows, lang);
    for _ in 0..12 {
        update(&mut m, key(' '));
    }
    update(&mut m, key('a'));
    let fx = update(&mut m, key('y'));
    (m, fx)
}

/// A bulk action's progress shows its pace, and that the server is slow
/// once the client's limit was cut back (`Msg::Pace`), in both languages.
#[test]
fn bulk_progress_shows_the_pace_and_a_slow_server() {
    for lang in club_admin::i18n::Lang::ALL {
        let (mut m, fx) = twelve_approved(lang);
        let sent = puts(&fx);
        // At most the window goes at once (the limiter's limit, 8 before it tells); each
        // answer lets the next one go.
        assert_eq!(sent.len(), 8, "{lang:?}");
        tick(&mut m, 2);
        let mut next = Vec::new();
        for (rid, id, _) in sent.iter().take(6) {
            let mut r = sample_rows()[0].clone();
            r.id = *id;
            r.membership_status = Some(MembershipStatus::Approved);
            let fx = answer(&mut m, *rid, ApiAnswer::Updated(Ok(reply(r))));
            next.extend(puts(&fx));
        }
        assert_eq!(next.len(), 4, "{lang:?}: the rest went as answers came");
        let (_, text) = m.status_line().expect("progress");
        let rate = if lang == club_admin::i18n::Lang::Thai {
            "3 รายการ/วินาที"
        } else {
            "3/s"
        };
        assert!(
            text.contains("6/12") && text.contains(rate),
            "{lang:?}: {text}"
        );
        let slow = if lang == club_admin::i18n::Lang::Thai {
            "เซิร์ฟเวอร์ช้า"
        } else {
            "server slow"
        };
        assert!(!text.contains(slow), "{lang:?}: {text}");
        update(
            &mut m,
            Msg::Pace {
                limit: 2,
                slowed: true,
                in_flight: 2,
            },
        );
        let (_, text) = m.status_line().expect("progress");
        assert!(text.contains(slow), "{lang:?}: {text}");
    }
}

/// "Send now" on quitting waits for a lost answer to be settled, and does not quit when a
/// decision it sent was not applied: the moderator is told first (`q` then quits).
#[test]
fn send_now_and_quit_waits_for_the_truth_and_stays_when_a_decision_was_not_applied() {
    let quits = |fx: &[Effect]| fx.iter().any(|e| matches!(e, Effect::Quit));
    let mut m = held_model(sample_rows(), 5);
    update(&mut m, key('j'));
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
    let fx = update(&mut m, key('s'));
    let put = puts(&fx)[0].0;
    let fx = answer(&mut m, put, lost());
    assert!(!quits(&fx), "the outcome is unknown: not yet");
    let rid = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
    let (_, text) = m.status_line().expect("said");
    assert!(text.contains("re-reading"), "{text}");
    // The re-read shows it still pending: not applied.
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Request(Ok(reply(sample_rows()[0].clone()))),
    );
    assert_eq!(audits(&fx)[0].1, Outcome::Failed);
    assert!(
        !quits(&fx),
        "a decision was not applied: the moderator is told first"
    );
    let (_, text) = m.status_line().expect("said");
    assert!(
        text.contains("not quitting: 1 decision was not applied"),
        "{text}"
    );
    let fx = update(&mut m, key('q'));
    assert!(quits(&fx), "q quits once told");
}

/// A tester's finding: the queue's title counted a row whose outcome is unknown as pending.
/// It is counted as unknown until a re-read settles it, in English and Thai.
#[test]
fn the_queue_title_counts_an_unknown_outcome_apart_from_pending() {
    for (lang, unknown, pending) in [
        (club_admin::i18n::Lang::English, "1 unknown", "2 pending"),
        (club_admin::i18n::Lang::Thai, "ไม่รู้ผล 1", "รอพิจารณา 2"),
    ] {
        let mut m = model_with_lang(sample_rows(), lang);
        let before = screen(&m, 120, 40);
        let title = before.lines().nth(1).unwrap_or("").to_owned();
        assert!(!title.contains(unknown), "{title}");
        let _ = cursor_to(&mut m, id(1));
        let fx = update(&mut m, key('a'));
        let put = puts(&fx)[0].0;
        let fx = answer(&mut m, put, lost());
        assert!(m.outcome_unknown(id(1)));
        for (w, h) in [(120, 40), (80, 24)] {
            let s = screen(&m, w, h);
            let title = s.lines().nth(1).unwrap_or("");
            let unknown = club_admin::text::for_terminal(unknown).into_owned();
            let pending = club_admin::text::for_terminal(pending).into_owned();
            assert!(
                title.contains(&unknown) && title.contains(&pending),
                "{w}x{h}: {title}"
            );
        }
        // Settled by the re-read: approved, nothing unknown.
        let reread = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }))[0];
        let mut r = sample_rows()[0].clone();
        r.membership_status = Some(MembershipStatus::Approved);
        let _ = answer(&mut m, reread, ApiAnswer::Request(Ok(reply(r))));
        assert!(!m.outcome_unknown(id(1)));
        let title = screen(&m, 120, 40).lines().nth(1).unwrap_or("").to_owned();
        assert!(
            !title.contains(&club_admin::text::for_terminal(unknown).into_owned()),
            "{title}"
        );
    }
}

/// The command line's lesson in the dashboard (the core's `decision::may_send`): an approve
/// on a row whose status was never read (added by id, its read on its way) sends nothing and
/// reads the row; once it shows pending, `a` approves. Marked with read rows, the unread one
/// is left out and read. In English and Thai.
#[test]
fn a_row_whose_status_was_never_read_is_read_before_it_is_decided() {
    for (lang, said) in [
        (
            club_admin::i18n::Lang::English,
            "its status is not read yet",
        ),
        (club_admin::i18n::Lang::Thai, "ยังไม่ได้อ่านสถานะ"),
    ] {
        let said = club_admin::text::for_terminal(said).into_owned();
        let mut m = model_with_lang(sample_rows(), lang);
        let new = Uuid::from_u128(70);
        let _ = update(&mut m, key('i'));
        typed(&mut m, &new.to_string());
        let fx = update(&mut m, code(KeyCode::Enter));
        let first_read = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
        assert_eq!(first_read.len(), 1);
        let _ = cursor_to(&mut m, new);
        let fx = update(&mut m, key('a'));
        assert_eq!(writes(&fx), 0, "nothing sent to a row never read");
        assert!(m.status_text().unwrap_or_default().contains(&said));
        for (w, h) in [(80, 24), (120, 40)] {
            assert!(screen(&m, w, h).contains(&said), "{w}x{h}");
        }
        // Its read arrives: pending. `a` now approves (no grace period here).
        let mut r = sample_rows()[0].clone();
        r.id = new;
        let _ = answer(
            &mut m,
            first_read[0],
            ApiAnswer::Request(Ok(reply(r.clone()))),
        );
        let _ = cursor_to(&mut m, new);
        let fx = update(&mut m, key('a'));
        assert_eq!(puts(&fx).len(), 1, "approved once read");
        assert_eq!(puts(&fx)[0].1, new);
        // Marked beside a read row: a second unread id is left out and read.
        let other = Uuid::from_u128(71);
        let _ = update(&mut m, key('i'));
        typed(&mut m, &other.to_string());
        let _ = update(&mut m, code(KeyCode::Enter));
        let _ = cursor_to(&mut m, other);
        let _ = update(&mut m, key(' '));
        let _ = cursor_to(&mut m, id(2));
        let _ = update(&mut m, key(' '));
        let _ = update(&mut m, key('a'));
        let fx = update(&mut m, key('y'));
        let sent: Vec<Uuid> = puts(&fx).into_iter().map(|(_, i, _)| i).collect();
        assert_eq!(sent, vec![id(2)], "only the read row is decided");
        assert!(
            api_ids(
                &fx,
                |c| matches!(c, ApiCall::GetRequest { id: x, .. } if *x == other)
            )
            .len()
                + api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. })).len()
                >= 1
                || m.queue()
                    .get(other)
                    .is_some_and(|i| i.state == RowState::Loading),
            "the unread row is read"
        );
    }
}

/// While the quit question holds them, held rows say "held" at once (not a countdown, not
/// "approving…"): nothing is sent while the moderator decides what happens to them.
#[test]
fn rows_held_by_the_quit_question_say_held_not_a_countdown() {
    for lang in [
        club_admin::i18n::Lang::English,
        club_admin::i18n::Lang::Thai,
    ] {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(20),
                ..options()
            },
            sample_rows(),
        );
        update(&mut m, key('j'));
        update(&mut m, key('a'));
        update(&mut m, key('q'));
        assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
        let held = club_admin::tr!(lang, "row-held-unsent", action = "approve");
        let held = club_admin::text::for_terminal(&held).into_owned();
        let s = screen(&m, 120, 40);
        let row = s
            .lines()
            .find(|l| l.contains("51001"))
            .unwrap_or_else(|| panic!("the row is drawn:\n{s}"));
        assert!(row.contains(held.as_str()), "{row}");
    }
}

/// A row read again (`r`) while its approve is held: the read's answer still sets the row's
/// state (the marker comes from the decision), so when the approve's answer is lost the row
/// re-reads itself and the decision settles (a review found it could stay unknown for good,
/// the loop ticking and "send now" never quitting).
#[test]
fn a_lost_answer_on_a_row_read_while_its_decision_was_held_is_re_read_and_settles() {
    let mut m = held_model(sample_rows(), 5);
    update(&mut m, key('j'));
    assert_eq!(selected(&m), id(1));
    let reads_of = |fx: &[Effect]| -> Vec<(u64, ApiCall)> {
        calls(fx)
            .into_iter()
            .filter(|(_, c)| c.rows_read().contains(&id(1)))
            .collect()
    };
    let rows = sample_rows();
    let read_answer = |call: &ApiCall| match call {
        ApiCall::ListRequests { filter, .. } => {
            let data: Vec<ClubRequest> = rows
                .iter()
                .filter(|r| filter.ids.contains(&r.id))
                .cloned()
                .collect();
            let n = data.len() as u64;
            ApiAnswer::Listing(Ok(listing_reply(data, None, n)))
        }
        _ => ApiAnswer::Request(Ok(reply(rows[0].clone()))),
    };
    let fx = update(&mut m, key('r'));
    let reads = reads_of(&fx);
    assert!(!reads.is_empty(), "r reads the row again");
    update(&mut m, key('a'));
    assert_eq!(m.deciding(id(1)), Some(RowAction::Approve));
    for (rid, call) in &reads {
        answer(&mut m, *rid, read_answer(call));
    }
    let fx = tick(&mut m, 10);
    let (rid, _, _) = puts(&fx)[0];
    let fx = answer(&mut m, rid, lost());
    let rereads = reads_of(&fx);
    assert_eq!(
        rereads.len(),
        1,
        "the row whose answer was lost re-reads itself"
    );
    let mut approved = rows[0].clone();
    approved.membership_status = Some(MembershipStatus::Approved);
    let settled = match &rereads[0].1 {
        ApiCall::ListRequests { .. } => {
            ApiAnswer::Listing(Ok(listing_reply(vec![approved], None, 1)))
        }
        _ => ApiAnswer::Request(Ok(reply(approved))),
    };
    let fx = answer(&mut m, rereads[0].0, settled);
    assert_eq!(
        audits(&fx).first().map(|a| a.1),
        Some(Outcome::Ok),
        "settled by the re-read"
    );
    assert!(!m.outcome_unknown(id(1)) && m.decisions().lost().is_empty());
}

/// Every slot of the host budget held by other processes (`Msg::Budget` with `busy`): said
/// once when it starts (status line and activity log), then after a bulk action's progress
/// while it lasts, and no more once it ends; in both languages.
#[test]
fn a_busy_host_budget_is_said_once_and_after_the_bulk_progress() {
    use club_admin::api::budget::BudgetStatus;
    for (lang, busy_words) in [
        (
            club_admin::i18n::Lang::English,
            "host budget busy: 1 call at a time",
        ),
        (
            club_admin::i18n::Lang::Thai,
            "งบของเครื่องเต็ม: ส่งทีละ 1 รายการ",
        ),
    ] {
        let rows: Vec<ClubRequest> = (1..=4u128)
            .map(|n| {
                request(
                    Uuid::from_u128(n),
                    "pending",
                    &format!("5{n:04}"),
                    Some(("Somchai", "สมชาย")),
                    ("Robotics Club", "ชุมนุมหุ่นยนต์"),
                    2026,
                    n as i64,
                )
            })
            .collect();
        let mut m = model_with_lang(rows, lang);
        let logged_before = m.log().entries().len();
        let busy = |unslotted| {
            Msg::Budget(BudgetStatus {
                busy: true,
                unslotted,
                ..BudgetStatus::default()
            })
        };
        update(&mut m, busy(1));
        let started = club_admin::i18n::tr(lang, "status-budget-busy");
        assert_eq!(status(&m), started, "{lang:?}");
        update(&mut m, busy(5));
        assert_eq!(
            m.log().entries().len(),
            logged_before + 1,
            "{lang:?}: once in the log"
        );
        for _ in 0..4 {
            update(&mut m, key(' '));
        }
        update(&mut m, key('a'));
        let fx = update(&mut m, key('y'));
        assert_eq!(puts(&fx).len(), 4, "{lang:?}");
        assert!(status(&m).contains(busy_words), "{lang:?}: {}", status(&m));
        update(&mut m, Msg::Budget(BudgetStatus::default()));
        assert!(!status(&m).contains(busy_words), "{lang:?}: {}", status(&m));
        assert_eq!(m.log().entries().len(), logged_before + 1, "{lang:?}");
    }
}

/// The dashboard's audit lines name the request as its row shows it (`#number → club`),
/// so `club-admin history` names it as the history pop-up does.
#[test]
fn a_decisions_audit_lines_carry_the_requests_school_number_and_club() {
    let mut m = model_with(sample_rows());
    let row = sample_rows()[0].clone();
    let number = row
        .student
        .as_ref()
        .and_then(|s| s.student_id.clone())
        .expect("a school number");
    let club = row
        .club
        .as_ref()
        .and_then(|c| c.name.as_ref())
        .and_then(|n| n.best().map(str::to_owned))
        .expect("a club name");
    let _ = cursor_to(&mut m, row.id);
    let fx = update(&mut m, key('a'));
    let fx = if fx.iter().any(|e| matches!(e, Effect::Audit(_))) {
        fx
    } else {
        tick(&mut m, 10)
    };
    let labels: Vec<Option<String>> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Audit(a) if a.target == row.id => Some(a.label.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        labels,
        vec![Some(format!("#{number} → {club}"))],
        "the sending line names it"
    );
}

/// A bulk whose lost answer was settled by its re-read before the bulk ended: the summary
/// counts it as the server showed it, never "unknown (re-reading)" of a write that is known.
#[test]
fn a_lost_answer_settled_during_the_bulk_is_not_unknown_in_its_summary() {
    let rows: Vec<ClubRequest> = sample_rows()
        .into_iter()
        .filter(|r| r.membership_status == Some(MembershipStatus::Pending))
        .take(3)
        .collect();
    assert_eq!(rows.len(), 3);
    let mut m = model_with(rows.clone());
    for _ in 0..3 {
        update(&mut m, key(' '));
    }
    update(&mut m, key('a'));
    let sent = puts(&update(&mut m, key('y')));
    assert_eq!(sent.len(), 3);
    // The first answer is lost; its re-read shows it applied while the others are on
    // their way.
    let fx = answer(&mut m, sent[0].0, lost());
    let reread = api_ids(
        &fx,
        |c| matches!(c, ApiCall::GetRequest { id: x, .. } if *x == sent[0].1),
    )[0];
    let approved = |id: Uuid| {
        let mut r = rows.iter().find(|r| r.id == id).cloned().expect("row");
        r.membership_status = Some(MembershipStatus::Approved);
        r
    };
    let fx = answer(
        &mut m,
        reread,
        ApiAnswer::Request(Ok(reply(approved(sent[0].1)))),
    );
    assert_eq!(audits(&fx)[0].1, Outcome::Ok, "settled: applied");
    for (rid, id, _) in &sent[1..] {
        answer(&mut m, *rid, ApiAnswer::Updated(Ok(reply(approved(*id)))));
    }
    let text = status(&m);
    assert!(text.contains("3 of 3 done"), "{text}");
    assert!(!text.contains("unknown"), "{text}");
}

/// `serve-ssh` stops while a bulk is half sent: the writes still waiting for their turn are
/// audited `not_sent` with "not sent: the server stopped" (never `undone`: nobody took them
/// back), and a request's detail pane, reading the history back, says so in the reader's
/// language.
#[test]
fn writes_the_server_s_stop_kept_from_leaving_say_the_server_stopped() {
    for lang in club_admin::i18n::Lang::ALL {
        let (mut m, fx) = twelve_approved(lang);
        let mut lines: Vec<club_admin::ops::AuditEntry> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Audit(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        let sent = puts(&fx).len();
        assert_eq!(sent, 8, "the window went; 4 wait for their turn");
        let fx = update(&mut m, Msg::Flush(club_admin::app::EndedBy::ServerStopped));
        let not_sent: Vec<_> = audits(&fx)
            .into_iter()
            .filter(|a| a.1 == Outcome::NotSent)
            .collect();
        assert_eq!(not_sent.len(), 4, "{fx:?}");
        assert!(
            not_sent
                .iter()
                .all(|a| a.2 == "not sent: the server stopped"),
            "{not_sent:?}"
        );
        assert!(audits(&fx).iter().all(|a| a.1 != Outcome::Undone));
        lines.extend(fx.iter().filter_map(|e| match e {
            Effect::Audit(a) => Some(a.clone()),
            _ => None,
        }));
        let rows = club_admin::ops::history::fold(lines);
        update(&mut m, Msg::HistoryRead(Ok(rows.into())));
        cursor_to(&mut m, not_sent[0].0);
        // Wide enough that the detail pane's history line is not wrapped.
        let s = screen(&m, 240, 40);
        let why = club_admin::i18n::tr(lang, "log-why-server-stopped");
        assert!(
            s.contains(&*club_admin::text::for_terminal(&why)),
            "{lang:?}: the detail says why\n{s}"
        );
    }
}
