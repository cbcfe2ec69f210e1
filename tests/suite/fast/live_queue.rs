//! The queue stays live without `r`: the automatic refresh (every 30 s by default) brings
//! new requests, marked new until the cursor reaches them, and rows decided by someone else
//! meanwhile, whose marks are dropped; it says only what it found, never "refreshing…" over
//! the moderator's own message. Through `update` with real answers, in English and Thai.

use crate::common::answers::ApiAnswer;
use crate::common::*;
use club_admin::api::{ApiError, ClubRequest, MembershipStatus, UpdateRoute};
use club_admin::app::{ApiCall, Effect, Model, Msg, update};
use club_admin::i18n::Lang;
use serde_json::json;

/// A pending request `n` of club 900, created at `created` (also `fast::new_requests`'s).
pub(crate) fn pending(n: u128, created: chrono::DateTime<chrono::Utc>) -> ClubRequest {
    serde_json::from_value(json!({
        "id": id(n),
        "created_at": created.to_rfc3339(),
        "club": {"id": id(900)},
        "student": {"id": id(1000 + n), "student_id": format!("5{n:04}")},
        "year": 2026,
        "membership_status": "pending",
    }))
    .expect("request")
}

/// A signed-in admin whose whole listing (three pending requests) is loaded at [`now`].
fn listed(lang: Lang) -> Model {
    listed_from(options_in(lang))
}

/// [`listed`], started with `o`.
fn listed_from(o: club_admin::app::ModelOptions) -> Model {
    started_listing(o).0
}

/// A model started with `o`, signed in as an admin on a server with approve and decline,
/// whose listing's first page (three pending requests, read at [`now`]) was answered; and
/// the effects of that answer.
fn started_listing(o: club_admin::app::ModelOptions) -> (Model, Vec<Effect>) {
    let mut m = model_from(o);
    let fx = club_admin::app::start(&mut m);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Title(_))),
        "no title before the queue is counted"
    );
    for probe in api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute) {
        let _ = answer(
            &mut m,
            probe,
            ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
        );
    }
    let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
    let fx = sign_in_moderator(&mut m, user);
    let list = api_ids(&fx, |c| matches!(c, ApiCall::ListRequests { .. }))[0];
    let first: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    let fx = answer(
        &mut m,
        list,
        ApiAnswer::Listing(Ok(listing_reply(first, None, 3))),
    );
    assert_eq!(m.queue().len(), 3);
    (m, fx)
}

/// Answers every listing call of `fx`: pages with `page`, re-reads by ids with the rows of
/// `rows` they ask for.
fn answer_reads(m: &mut Model, fx: &[Effect], page: &[ClubRequest], rows: &[ClubRequest]) {
    for (rid, c) in calls(fx) {
        if let ApiCall::ListRequests { filter, .. } = c {
            let data: Vec<ClubRequest> = if filter.ids.is_empty() {
                page.to_vec()
            } else {
                rows.iter()
                    .filter(|r| filter.ids.contains(&r.id))
                    .cloned()
                    .collect()
            };
            let total = page.len() as u64;
            let _ = answer(
                m,
                rid,
                ApiAnswer::Listing(Ok(listing_reply(data, None, total))),
            );
        }
    }
}

#[test]
fn the_automatic_refresh_brings_new_requests_marked_new_and_says_only_that() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        let _ = update(&mut m, key('/'));
        let _ = update(
            &mut m,
            Msg::Key(club_admin::app::Key::new(club_admin::app::KeyCode::Esc)),
        );
        let later = now() + chrono::Duration::seconds(30);
        let _ = update(&mut m, Msg::Tick(later));
        let before = status(&m);
        let fx = update(&mut m, Msg::AutoRefresh);
        assert!(!calls(&fx).is_empty(), "it reads");
        assert_eq!(status(&m), before, "never 'refreshing…'");
        // A request made after the first load, and the three known.
        let mut page: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        page.push(pending(4, now() + chrono::Duration::seconds(10)));
        let rows = page.clone();
        answer_reads(&mut m, &fx, &page, &rows);
        assert_eq!(m.queue().len(), 4);
        let new = m.queue().get(id(4)).expect("the new row");
        assert!(new.is_new, "marked new");
        assert!(
            !m.queue().get(id(1)).is_some_and(|i| i.is_new),
            "the old ones are not"
        );
        assert_eq!(
            status(&m),
            club_admin::tr!(lang, "status-new-requests", n = 1usize)
        );
        // Drawn with the new marker, which the help explains.
        for (w, h) in [(80, 24), (120, 40), (45, 30)] {
            let screen = screen(&m, w, h);
            let row = screen
                .lines()
                .find(|l| l.contains("50004"))
                .unwrap_or_else(|| panic!("the new row is drawn at {w}x{h}:\n{screen}"));
            assert!(row.contains("+"), "{w}x{h}: {row}");
        }
        // The cursor reaching it: no longer new.
        let _ = cursor_to(&mut m, id(4));
        assert!(!m.queue().get(id(4)).is_some_and(|i| i.is_new));
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

#[test]
fn a_marked_request_decided_elsewhere_loses_its_mark_and_is_said_once() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        let _ = update(&mut m, key(' '));
        let _ = update(&mut m, key(' '));
        assert_eq!(m.queue().marked_ids().len(), 2);
        let marked = m.queue().marked_ids();
        let fx = update(&mut m, Msg::AutoRefresh);
        // The server: the first marked one approved, the second declined by someone else.
        let mut rows: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        for r in rows.iter_mut() {
            if r.id == marked[0] {
                r.membership_status = Some(MembershipStatus::Approved);
            } else if r.id == marked[1] {
                r.membership_status = Some(MembershipStatus::Declined);
            }
        }
        let page: Vec<ClubRequest> = rows
            .iter()
            .filter(|r| r.membership_status == Some(MembershipStatus::Pending))
            .cloned()
            .collect();
        answer_reads(&mut m, &fx, &page, &rows);
        assert!(m.queue().marked_ids().is_empty(), "no mark left on them");
        let row = m.queue().get(marked[0]).expect("row");
        assert_eq!(row.decided_elsewhere, Some(MembershipStatus::Approved));
        assert_eq!(row.status(), Some(&MembershipStatus::Approved));
        assert_eq!(
            status(&m),
            club_admin::tr!(lang, "status-decided-elsewhere", n = 2usize)
        );
        // Its detail says so.
        let _ = cursor_to(&mut m, marked[0]);
        let approved = club_admin::tr!(lang, "status-state", status = "approved");
        let said = club_admin::tr!(lang, "detail-decided-elsewhere", status = approved.as_str());
        let drawn: String = screen(&m, 120, 40).split_whitespace().collect();
        let said: String = club_admin::text::for_terminal(&said)
            .split_whitespace()
            .take(3)
            .collect();
        assert!(drawn.contains(&said), "{said} in\n{drawn}");
        // `a` now has nothing marked: the row under the cursor is pending still, or decided.
        let fx = update(&mut m, key('a'));
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::Api { call: ApiCall::UpdateRequest { id, .. }, .. } if marked.contains(id))),
            "nothing is sent to what others decided"
        );
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

#[test]
fn its_own_decision_is_not_taken_for_someone_elses() {
    let mut m = listed(Lang::English);
    let target = m.queue().selected().map(|i| i.id).expect("a row");
    let fx = update(&mut m, key('a'));
    let (rid, _) = calls(&fx)
        .into_iter()
        .find(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. }))
        .expect("sent");
    // Its answer is lost; the re-read shows it approved: this dashboard's own decision.
    let fx = answer(
        &mut m,
        rid,
        ApiAnswer::Updated(Err(ApiError::timeout(20_000))),
    );
    let mut rows: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    for r in rows.iter_mut().filter(|r| r.id == target) {
        r.membership_status = Some(MembershipStatus::Approved);
    }
    for (rid, c) in calls(&fx) {
        let a = match c {
            ApiCall::GetRequest { .. } => ApiAnswer::Request(Ok(reply(
                rows.iter().find(|r| r.id == target).cloned().expect("row"),
            ))),
            ApiCall::ListRequests { .. } => ApiAnswer::Listing(Ok(listing_reply(
                rows.iter().filter(|r| r.id == target).cloned().collect(),
                None,
                1,
            ))),
            _ => continue,
        };
        let _ = answer(&mut m, rid, a);
    }
    let row = m.queue().get(target).expect("row");
    assert_eq!(row.status(), Some(&MembershipStatus::Approved));
    assert_eq!(
        row.decided_elsewhere, None,
        "it was this dashboard's decision"
    );
}

#[test]
fn the_window_title_carries_the_pending_count() {
    for lang in [Lang::English, Lang::Thai] {
        let (mut m, fx) = started_listing(options_in(lang));
        let titles: Vec<&String> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Title(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(
            titles,
            vec![&club_admin::tr!(lang, "title-pending", n = 3u64)]
        );
        // Nothing changed: no title again.
        let fx = update(&mut m, key('j'));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Title(_))));
    }
}

/// The automatic refresh never replaces a held decision's countdown on the status line,
/// even where the count of loaded requests stood before it.
#[test]
fn the_automatic_refresh_leaves_the_undo_countdown_in_place() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed_from(club_admin::app::ModelOptions {
            decision_delay: std::time::Duration::from_secs(5),
            ..options_in(lang)
        });
        // The first load said "3 pending requests loaded"; `a` holds a decision for 5 s.
        let _ = update(&mut m, key('a'));
        assert_eq!(m.held().len(), 1);
        let countdown = status(&m);
        assert!(!countdown.is_empty());
        let fx = update(&mut m, Msg::AutoRefresh);
        let page: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        answer_reads(&mut m, &fx, &page, &page);
        assert_eq!(status(&m), countdown, "the countdown stays");
    }
}

/// With `--notify bell` (or `osc9`), new requests the automatic refresh brings also ring
/// the terminal's bell (or send a desktop notice); off by default.
#[test]
fn new_requests_ring_the_bell_only_when_asked() {
    use club_admin::config::NewRequestNotice;
    for (notify, want) in [
        (NewRequestNotice::Off, None),
        (NewRequestNotice::Bell, Some(false)),
        (NewRequestNotice::Osc9, Some(true)),
    ] {
        let mut m = listed_from(club_admin::app::ModelOptions {
            notify,
            ..options_in(Lang::English)
        });
        let _ = update(&mut m, Msg::Tick(now() + chrono::Duration::seconds(30)));
        let fx = update(&mut m, Msg::AutoRefresh);
        let mut page: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        page.push(pending(4, now() + chrono::Duration::seconds(10)));
        let mut got = None;
        for (rid, c) in calls(&fx) {
            if let ApiCall::ListRequests { filter, .. } = c {
                let data: Vec<ClubRequest> = if filter.ids.is_empty() {
                    page.clone()
                } else {
                    page.iter()
                        .filter(|r| filter.ids.contains(&r.id))
                        .cloned()
                        .collect()
                };
                let fx = answer(
                    &mut m,
                    rid,
                    ApiAnswer::Listing(Ok(listing_reply(data, None, 4))),
                );
                for e in fx {
                    if let Effect::Notify { osc9, text } = e {
                        assert!(text.contains("1 new request"), "{text}");
                        got = Some(osc9);
                    }
                }
            }
        }
        assert_eq!(got, want, "{notify:?}");
    }
    assert!(NewRequestNotice::parse(Some("beep")).is_err());
}

/// A row the automatic refresh finds decided elsewhere is said plainly when it had no mark,
/// and never over a held decision's countdown (the log has it then).
#[test]
fn decided_elsewhere_never_replaces_the_countdown_and_speaks_of_marks_only_when_dropped() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        let fx = update(&mut m, Msg::AutoRefresh);
        let mut rows: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        rows[2].membership_status = Some(MembershipStatus::Approved);
        let page: Vec<ClubRequest> = rows[..2].to_vec();
        answer_reads(&mut m, &fx, &page, &rows);
        assert_eq!(
            status(&m),
            club_admin::tr!(lang, "status-decided-elsewhere-plain", n = 1usize),
            "no mark was dropped"
        );

        let mut m = listed_from(club_admin::app::ModelOptions {
            decision_delay: std::time::Duration::from_secs(5),
            ..options_in(lang)
        });
        let _ = update(&mut m, key('a'));
        let countdown = status(&m);
        let logged = m.log().entries().len();
        let fx = update(&mut m, Msg::AutoRefresh);
        answer_reads(&mut m, &fx, &page, &rows);
        assert_eq!(status(&m), countdown, "the countdown stays");
        assert!(m.log().entries().len() > logged, "the log has it");
    }
}

/// `Enter` says the row is being read; once the read answers, that goes from the status
/// line (the row shows what was read).
#[test]
fn reading_a_row_is_said_until_its_read_answers() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        let fx = update(
            &mut m,
            Msg::Key(club_admin::app::Key::new(club_admin::app::KeyCode::Enter)),
        );
        let reading = status(&m);
        assert!(!reading.is_empty());
        let page: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        for (rid, c) in calls(&fx) {
            let a = match c {
                ApiCall::GetRequest { id, .. } => ApiAnswer::Request(Ok(reply(
                    page.iter().find(|r| r.id == id).cloned().expect("row"),
                ))),
                ApiCall::ListRequests { filter, .. } => ApiAnswer::Listing(Ok(listing_reply(
                    page.iter()
                        .filter(|r| filter.ids.contains(&r.id))
                        .cloned()
                        .collect(),
                    None,
                    1,
                ))),
                _ => continue,
            };
            let _ = answer(&mut m, rid, a);
        }
        assert_ne!(status(&m), reading, "the 'reading' line went");
    }
}

/// A 500 as the deployed service sends one.
fn server_error() -> ApiError {
    ApiError::Server(club_admin::api::ErrorInfo {
        status: Some(500),
        error_type: Some("internal".into()),
        detail: Some("Internal server error (injected)".into()),
        error_id: None,
        excerpt: None,
    })
}

/// Issue 32: a refresh that fails while the queue is on screen says "could not refresh",
/// not "could not load"; the automatic one only in the activity log (the moderator's own
/// last message stays on the status line); `r`'s failure stands until a refresh answers,
/// which clears it. English and Thai.
#[test]
fn a_failed_refresh_says_so_once_and_goes_when_the_queue_answers_again() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        let _ = update(&mut m, Msg::Tick(now() + chrono::Duration::seconds(30)));
        let fx = update(&mut m, key('a'));
        let rid = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
        let mut r = pending(1, now());
        r.membership_status = Some(MembershipStatus::Approved);
        let _ = answer(&mut m, rid, ApiAnswer::Updated(Ok(reply(r))));
        let mine = status(&m);
        let logged = m.log().entries().len();
        let fx = update(&mut m, Msg::AutoRefresh);
        let _ = fail_calls(&mut m, &fx, &server_error());
        assert_eq!(
            status(&m),
            mine,
            "the automatic refresh's failure stays off the line"
        );
        let failed = club_admin::i18n::tr(lang, "status-queue-refresh-failed");
        assert!(
            m.log().entries()[logged..]
                .iter()
                .any(|e| e.label.contains(&failed)),
            "it is in the log"
        );
        // `r` fails: said, in the refresh's words.
        let fx = update(&mut m, key('r'));
        let _ = fail_calls(&mut m, &fx, &server_error());
        let said = status(&m);
        assert!(said.starts_with(&failed), "{said}");
        let load = club_admin::i18n::tr(lang, "status-queue-failed");
        assert!(!said.contains(&load), "{said}");
        // The next refresh answers: the failure goes.
        let fx = update(&mut m, Msg::AutoRefresh);
        let page: Vec<ClubRequest> = (2..=3).map(|n| pending(n, now())).collect();
        answer_reads(&mut m, &fx, &page, &page);
        assert!(!status(&m).contains(&failed), "{}", status(&m));
    }
}

/// Issue 32: a notice gives way after a while (20 s; an error after 60 s), so an old
/// "nothing to do" never stands over work done since; the activity log keeps errors, and
/// the model says when the line changes by itself, for the event loop to wake then.
#[test]
fn an_old_notice_gives_way_and_the_loop_is_told_when() {
    use club_admin::app::model::{NOTICE_ERROR_SECS, NOTICE_SECS};
    for lang in [Lang::English, Lang::Thai] {
        let mut m = listed(lang);
        // An error: a decline on a row that is not pending (the server refused it).
        let fx = update(&mut m, key('x'));
        let rid = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }))[0];
        let _ = answer(
            &mut m,
            rid,
            ApiAnswer::Updated(Err(forbidden("Club request cannot be changed now"))),
        );
        let said = status(&m);
        assert!(!said.is_empty());
        let at = m.now();
        assert_eq!(
            m.notice_ends_at(),
            Some(at + chrono::Duration::seconds(NOTICE_ERROR_SECS))
        );
        let _ = update(
            &mut m,
            Msg::Tick(at + chrono::Duration::seconds(NOTICE_SECS + 1)),
        );
        assert_eq!(status(&m), said, "an error stays longer");
        let _ = update(
            &mut m,
            Msg::Tick(at + chrono::Duration::seconds(NOTICE_ERROR_SECS)),
        );
        assert_eq!(status(&m), "", "then the line is clear");
        assert_eq!(m.notice_ends_at(), None, "nothing more to wake for");
        let drawn = screen(&m, 80, 24);
        assert!(!drawn.contains(&said), "{drawn}");
        assert!(
            m.log()
                .entries()
                .iter()
                .any(|e| said.contains(&e.label) || e.label.contains("cannot be changed")),
            "the log keeps it"
        );
    }
}

/// True for the recount: a one-row page of the scope read for its count.
fn is_recount(c: &ApiCall) -> bool {
    matches!(
        c,
        ApiCall::ListRequests {
            purpose: club_admin::app::ListPurpose::Count { .. },
            page,
            ..
        } if page.size == 1
    )
}

/// The recount's call among `fx`, when one was asked.
fn recount(fx: &[Effect]) -> Option<u64> {
    calls(fx)
        .into_iter()
        .find_map(|(rid, c)| is_recount(&c).then_some(rid))
}

/// `a` on the selected row: the approval's request id (sent at once: no grace period).
fn approve_selected(m: &mut Model) -> (u64, uuid::Uuid) {
    let fx = update(m, key('a'));
    calls(&fx)
        .into_iter()
        .find_map(|(rid, c)| match c {
            ApiCall::UpdateRequest { id, .. } => Some((rid, id)),
            _ => None,
        })
        .expect("the approval sent")
}

fn approved(r: &ClubRequest) -> ClubRequest {
    let mut r = r.clone();
    r.membership_status = Some(MembershipStatus::Approved);
    r
}

/// Answers every listing call of `fx` as the server now has it (`rows`, pending; a
/// recount with its first row) and those their answers ask, until none is left.
fn answer_listing_until_idle(m: &mut Model, fx: Vec<Effect>, rows: &[ClubRequest]) {
    let mut waiting = calls(&fx);
    while let Some((rid, c)) = waiting.pop() {
        let ApiCall::ListRequests { filter, .. } = &c else {
            continue;
        };
        let data: Vec<ClubRequest> = rows
            .iter()
            .filter(|r| filter.ids.is_empty() || filter.ids.contains(&r.id))
            .take(if is_recount(&c) { 1 } else { 50 })
            .cloned()
            .collect();
        let total = rows.len() as u64;
        let fx = answer(
            m,
            rid,
            ApiAnswer::Listing(Ok(listing_reply(data, None, total))),
        );
        waiting.extend(calls(&fx));
    }
}

/// A refresh's reads sent before an approval and answered after it (the server read the
/// request still pending) do not take the row back to pending, and the count they carry is
/// never shrunk by that approval a second time: it stands until the server counts again,
/// which the listing asks at once (its count is above the rows it has).
#[test]
fn a_read_sent_before_a_decision_and_answered_after_it_does_not_take_the_row_back() {
    let mut m = listed(Lang::English);
    let before: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    let refresh = update(&mut m, key('r'));
    let (write, target) = approve_selected(&mut m);
    let row = before.iter().find(|r| r.id == target).expect("row");
    let fx = answer(&mut m, write, ApiAnswer::Updated(Ok(reply(approved(row)))));
    assert!(
        recount(&fx).is_none(),
        "not while the refresh's page is on its way"
    );
    assert_eq!(m.listing().total, Some(2));
    let mut after = Vec::new();
    for (rid, c) in calls(&refresh) {
        if let ApiCall::ListRequests { filter, .. } = c {
            let data = before
                .iter()
                .filter(|r| filter.ids.is_empty() || filter.ids.contains(&r.id))
                .cloned()
                .collect();
            after.extend(answer(
                &mut m,
                rid,
                ApiAnswer::Listing(Ok(listing_reply(data, None, 3))),
            ));
        }
    }
    let row = m.queue().get(target).expect("row");
    assert_eq!(row.status(), Some(&MembershipStatus::Approved), "{row:?}");
    assert_eq!(m.queue().stats().pending, 2);
    assert_eq!(
        m.listing().total,
        Some(3),
        "the server's count as that read made it"
    );
    let now_pending: Vec<ClubRequest> = before.iter().filter(|r| r.id != target).cloned().collect();
    answer_listing_until_idle(&mut m, after, &now_pending);
    assert_eq!(m.listing().total, Some(2), "counted again");
    assert_eq!(m.queue().stats().pending, 2);
    assert_eq!(m.queue().len(), 3);
}

/// An approval on its way while the server counts: applied before the count (the page no
/// longer lists it), its answer does not shrink that count again, and the count is read
/// again; applied after (the page still lists it pending), its answer shrinks the count by
/// one and nothing more is asked.
#[test]
fn a_decision_on_the_wire_while_the_server_counts_is_counted_once() {
    for applied_first in [true, false] {
        let mut m = listed(Lang::English);
        let before: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
        let (write, target) = approve_selected(&mut m);
        let refresh = update(&mut m, key('r'));
        let listed_now: Vec<ClubRequest> = before
            .iter()
            .filter(|r| !applied_first || r.id != target)
            .cloned()
            .collect();
        let total = listed_now.len() as u64;
        for (rid, c) in calls(&refresh) {
            if let ApiCall::ListRequests { filter, .. } = c {
                let data = listed_now
                    .iter()
                    .filter(|r| filter.ids.is_empty() || filter.ids.contains(&r.id))
                    .cloned()
                    .collect();
                let _ = answer(
                    &mut m,
                    rid,
                    ApiAnswer::Listing(Ok(listing_reply(data, None, total))),
                );
            }
        }
        let row = before.iter().find(|r| r.id == target).expect("row");
        let fx = answer(&mut m, write, ApiAnswer::Updated(Ok(reply(approved(row)))));
        assert_eq!(m.listing().total, Some(2), "applied first: {applied_first}");
        assert_eq!(
            recount(&fx).is_some(),
            applied_first,
            "read again only where the count may hold the approval"
        );
        assert_eq!(m.queue().stats().pending, 2);
    }
}

/// The refresh's calls of `fx` answered as the server read them, `rows` (each page with
/// `total`, each re-read with the rows it asks for) but for the re-reads `keep` is told to
/// leave unanswered; returns the re-reads left.
fn answer_refresh(
    m: &mut Model,
    fx: &[Effect],
    rows: &[ClubRequest],
    total: u64,
    keep: bool,
) -> Vec<u64> {
    let mut left = Vec::new();
    for (rid, c) in calls(fx) {
        let ApiCall::ListRequests { filter, .. } = c else {
            continue;
        };
        if !filter.ids.is_empty() && keep {
            left.push(rid);
            continue;
        }
        let data = rows
            .iter()
            .filter(|r| filter.ids.is_empty() || filter.ids.contains(&r.id))
            .cloned()
            .collect();
        let _ = answer(
            m,
            rid,
            ApiAnswer::Listing(Ok(listing_reply(data, None, total))),
        );
    }
    left
}

/// Someone else approved a request before the server last counted (the page no longer
/// lists it), and this dashboard's approval of it is answered "already approved": the count
/// does not shrink for it a second time; it is read again instead.
#[test]
fn a_decision_already_made_elsewhere_before_the_count_is_not_counted_twice() {
    let mut m = listed(Lang::English);
    let target = m.queue().selected().map(|i| i.id).expect("a row");
    let before: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    let others: Vec<ClubRequest> = before.iter().filter(|r| r.id != target).cloned().collect();
    // The refresh: the page counts 2 (the other's approval applied), the row's re-read was
    // made before it (still pending).
    let refresh = update(&mut m, key('r'));
    for (rid, c) in calls(&refresh) {
        let ApiCall::ListRequests { filter, .. } = c else {
            continue;
        };
        let (data, total) = if filter.ids.is_empty() {
            (others.clone(), 2)
        } else {
            (
                before
                    .iter()
                    .filter(|r| filter.ids.contains(&r.id))
                    .cloned()
                    .collect(),
                3,
            )
        };
        let _ = answer(
            &mut m,
            rid,
            ApiAnswer::Listing(Ok(listing_reply(data, None, total))),
        );
    }
    assert_eq!(m.listing().total, Some(2));
    let (write, id) = approve_selected(&mut m);
    assert_eq!(id, target);
    let fx = answer(
        &mut m,
        write,
        ApiAnswer::Updated(Err(forbidden("Club request has already been approved"))),
    );
    assert_eq!(m.listing().total, Some(2), "not shrunk a second time");
    assert!(recount(&fx).is_some(), "the count is read again");
}

/// A row being read when another session tells it was decided: that read, sent before, is
/// passed over, and the row is not left "being read" for good.
#[test]
fn a_read_passed_over_for_a_told_decision_leaves_the_row_read() {
    use club_admin::app::{Heard, RowAction, Told};
    let mut m = listed(Lang::English);
    let target = m.queue().selected().map(|i| i.id).expect("a row");
    let before: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    let refresh = update(&mut m, key('r'));
    assert!(
        calls(&refresh)
            .iter()
            .any(|(_, c)| c.rows_read().contains(&target)),
        "the row's re-read is on its way"
    );
    let _ = update(
        &mut m,
        Msg::Heard(Told {
            id: target,
            heard: Heard::Decided(RowAction::Approve),
            by: Some("s1@school.example.ac.th".into()),
            at: now(),
        }),
    );
    let left = answer_refresh(&mut m, &refresh, &before, 3, false);
    assert!(left.is_empty());
    let row = m.queue().get(target).expect("row");
    assert_eq!(row.status(), Some(&MembershipStatus::Approved));
    assert_eq!(row.state, club_admin::app::RowState::Ready);
}

/// An approval sent while the row's read is on its way, whose answer is lost: that read
/// (made before the write) does not settle it as "still pending"; a fresh read is sent and
/// settles it.
#[test]
fn a_lost_answer_is_settled_by_a_read_sent_after_it_not_by_one_on_its_way() {
    let mut m = listed(Lang::English);
    let target = m.queue().selected().map(|i| i.id).expect("a row");
    let before: Vec<ClubRequest> = (1..=3).map(|n| pending(n, now())).collect();
    let refresh = update(&mut m, key('r'));
    assert_eq!(
        m.queue().get(target).map(|i| i.state.clone()),
        Some(club_admin::app::RowState::Loading)
    );
    let (write, _) = approve_selected(&mut m);
    let fx = answer(
        &mut m,
        write,
        ApiAnswer::Updated(Err(ApiError::timeout(20_000))),
    );
    assert!(m.outcome_unknown(target));
    let fresh: Vec<u64> = calls(&fx)
        .into_iter()
        .filter(|(_, c)| c.rows_read().contains(&target))
        .map(|(rid, _)| rid)
        .collect();
    assert_eq!(fresh.len(), 1, "a fresh read: {fx:?}");
    let mut audited = Vec::new();
    for (rid, c) in calls(&refresh) {
        let ApiCall::ListRequests { filter, .. } = c else {
            continue;
        };
        let data = before
            .iter()
            .filter(|r| filter.ids.is_empty() || filter.ids.contains(&r.id))
            .cloned()
            .collect();
        audited.extend(answer(
            &mut m,
            rid,
            ApiAnswer::Listing(Ok(listing_reply(data, None, 3))),
        ));
    }
    assert!(
        m.outcome_unknown(target),
        "not settled by the read made before the write"
    );
    assert!(
        !audited.iter().any(|e| matches!(e, Effect::Audit(_))),
        "{audited:?}"
    );
    let row = before.iter().find(|r| r.id == target).expect("row");
    let reply = match calls(&fx).into_iter().find(|(rid, _)| *rid == fresh[0]) {
        Some((_, ApiCall::GetRequest { .. })) => ApiAnswer::Request(Ok(reply(approved(row)))),
        _ => ApiAnswer::Listing(Ok(listing_reply(vec![approved(row)], None, 1))),
    };
    let fx = answer(&mut m, fresh[0], reply);
    assert!(!m.outcome_unknown(target));
    let settled: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Audit(a) => Some(a.outcome),
            _ => None,
        })
        .collect();
    assert_eq!(settled, vec![club_admin::ops::Outcome::Ok], "{fx:?}");
}
