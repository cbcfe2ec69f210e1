//! The term view (`T`): reached through `update` (the key, the read it asks for, its answer
//! and the history's rows), drawn by the real view on a `TestBackend` at 40x15, 45x30, 80x24
//! and 120x40 in English and Thai (snapshots), scrolled to its end, and the figures it
//! shows checked against the requests and decisions it was given.

use crate::common::answers::ApiAnswer;
use std::sync::Arc;

use club_admin::app::model::Loadable;
use club_admin::app::{Effect, Msg, Popup, update};
use club_admin::i18n::Lang;
use uuid::Uuid;

use crate::common::*;

/// Ten requests of three clubs over a fortnight: five pending (three of Robotics), three
/// approved, two declined; the audit has three of the five decisions.
fn term_requests() -> Vec<club_admin::api::ClubRequest> {
    let clubs = [
        ("Robotics Club", "ชุมนุมหุ่นยนต์"),
        ("Chess Club", "ชุมนุมหมากรุก"),
        ("Astronomy Club", "ชุมนุมดาราศาสตร์"),
    ];
    let rows = [
        (1, "pending", 0, 1),
        (2, "pending", 0, 2),
        (3, "pending", 0, 2),
        (4, "pending", 1, 5),
        (5, "pending", 2, 9),
        (6, "approved", 0, 12),
        (7, "approved", 1, 12),
        (8, "approved", 2, 13),
        (9, "declined", 0, 14),
        (10, "declined", 1, 7),
    ];
    rows.iter()
        .map(|&(n, status, club, days_ago)| {
            request(
                Uuid::from_u128(n),
                status,
                &format!("5100{n}"),
                None,
                clubs[club],
                2026,
                days_ago,
            )
        })
        .collect()
}

/// The audit's rows of three decisions: requests 6 and 7 approved by one moderator, 9
/// declined by another, each a day after it was asked.
fn audit_rows(server: &str) -> Arc<[club_admin::ops::history::Row]> {
    let line = |n: u128, action: &str, days_ago: i64, who: &str| {
        serde_json::from_value::<club_admin::ops::AuditEntry>(serde_json::json!({
            "at": (now() - chrono::Duration::days(days_ago)).to_rfc3339(),
            "server": server,
            "user": who,
            "action": action,
            "target": Uuid::from_u128(n),
            "outcome": "ok",
            "detail": null,
        }))
        .expect("an audit line")
    };
    let mut rows = club_admin::ops::history::fold([
        line(6, "approve", 11, "ton.jaidee@student.school.example.ac.th"),
        line(7, "approve", 11, "ton.jaidee@student.school.example.ac.th"),
        line(
            9,
            "decline",
            13,
            "por.purichaya@student.school.example.ac.th",
        ),
    ]);
    rows.reverse();
    rows.into()
}

/// An administrator's dashboard in `lang` with the term view open and its figures read.
fn term_open(lang: Lang) -> club_admin::app::Model {
    let mut m = loaded_as_admin(options_in(lang), sample_rows());
    let fx = update(&mut m, key('T'));
    assert!(matches!(m.popup(), Some(Popup::Term { .. })));
    let asked = fx.iter().any(|e| {
        matches!(e, Effect::ReadTerm { filter, .. }
            if filter.membership_status.is_none() && filter.club_ids.is_empty())
    });
    assert!(
        asked,
        "T reads every status of the scope (every club): {fx:?}"
    );
    let server = m.server_key().to_owned();
    update(&mut m, Msg::HistoryRead(Ok(audit_rows(&server))));
    update(
        &mut m,
        Msg::TermRead {
            read: Ok(term_requests()),
            ask: club_admin::app::TermAsk::Whole,
            offset_secs: 7 * 3600,
        },
    );
    m
}

#[test]
fn the_view_shows_the_figures_it_was_given() {
    let m = term_open(Lang::English);
    let Loadable::Loaded(f) = m.term() else {
        panic!("figures: {:?}", m.term());
    };
    assert_eq!(
        (f.requests, f.pending, f.approved, f.declined),
        (10, 5, 3, 2)
    );
    assert_eq!(f.clubs[0].name_en.as_deref(), Some("Robotics Club"));
    assert_eq!(f.clubs[0].pending, 3);
    let wait = f.wait.expect("three waits");
    assert_eq!(
        (wait.decided, wait.median_s, wait.p90_s),
        (3, 86_400, 86_400)
    );
    assert_eq!(f.moderators[0].approved, 2);
    assert_eq!(f.decided_unaudited, 2);
    let s = screen(&m, 120, 40);
    assert!(
        s.contains("10 requests: 5 pending, 3 approved, 2 declined"),
        "{s}"
    );
    assert!(s.contains("median 1d"), "{s}");
    assert!(s.contains("Robotics Club") && s.contains('█'), "{s}");
}

#[test]
fn the_view_scrolls_to_its_last_line_and_closes() {
    let mut m = term_open(Lang::English);
    // End scrolls as far as the view can (the frame tells how far), to the last line.
    update(&mut m, code(club_admin::app::KeyCode::End));
    let _ = crate::fast::edges::shown(&mut m, 80, 24);
    let s = crate::fast::edges::shown(&mut m, 80, 24);
    assert!(
        s.contains("club-admin stats --json"),
        "the end is reached: {s}"
    );
    update(&mut m, key('T'));
    assert!(m.popup().is_none());
}

#[test]
fn the_view_without_an_audit_says_the_decisions_are_unknown() {
    let mut m = loaded_as_admin(options_in(Lang::English), sample_rows());
    update(&mut m, key('T'));
    update(
        &mut m,
        Msg::HistoryRead(Err("no audit file here (no state folder)".into())),
    );
    update(
        &mut m,
        Msg::TermRead {
            read: Ok(term_requests()),
            ask: club_admin::app::TermAsk::Whole,
            offset_secs: 0,
        },
    );
    let Loadable::Loaded(f) = m.term() else {
        panic!("figures: {:?}", m.term());
    };
    assert!(!f.audited && f.moderators.is_empty() && f.wait.is_none());
}

/// The view at each size, in both languages, Ctrl-L giving the same screen.
#[test]
fn the_view_at_each_size_in_english_and_thai() {
    for (lang, tag) in [(Lang::English, "en"), (Lang::Thai, "th")] {
        let mut m = term_open(lang);
        for (w, h) in [(40, 15), (45, 30), (80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            update(&mut m, ctrl('l'));
            assert_eq!(s, screen(&m, w, h), "Ctrl-L redraws the same screen");
            insta::assert_snapshot!(format!("term_{tag}_{w}x{h}"), s);
        }
    }
}

/// While the view is open it follows the queue's refresh: the automatic refresh asks
/// nothing of its own; the listing's page brings a new request, and the one pending
/// request it no longer holds, which the queue does not hold either, is read by id (one
/// read, once the queue's reads are in), its decision then counted. Once the view is
/// closed, the queue's pages are not followed.
#[test]
fn the_view_follows_the_queue_s_refresh_and_reads_only_what_left_it() {
    use club_admin::app::call::ListPurpose;
    let mut m = term_open(Lang::English);
    let fx = update(&mut m, Msg::AutoRefresh);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::ReadTerm { .. })),
        "the refresh reads the queue's pages and rows only: {fx:?}"
    );
    let listing = |purpose: fn(&ListPurpose) -> bool| {
        api_ids(
            &fx,
            move |c| matches!(c, club_admin::app::ApiCall::ListRequests { purpose: p, .. } if purpose(p)),
        )
    };
    let page = listing(|p| matches!(p, ListPurpose::Page { .. }));
    let rows_again = listing(|p| matches!(p, ListPurpose::Reread(_)));
    assert_eq!((page.len(), rows_again.len()), (1, 1), "{fx:?}");
    // The pending listing now: 1 to 4 still pending, 5 gone from it, 11 new.
    let mut rows: Vec<_> = term_requests().into_iter().take(4).collect();
    rows.push(request(
        Uuid::from_u128(11),
        "pending",
        "51011",
        None,
        ("Chess Club", "ชุมนุมหมากรุก"),
        2026,
        0,
    ));
    let fx = answer(
        &mut m,
        page[0],
        ApiAnswer::Listing(Ok(listing_reply(rows, None, 5))),
    );
    let term_reads = |fx: &[Effect]| -> Vec<Vec<Uuid>> {
        fx.iter()
            .filter_map(|e| {
                if let Effect::ReadTerm {
                    ask: club_admin::app::TermAsk::ById(ids),
                    ..
                } = e
                {
                    Some(ids.clone())
                } else {
                    None
                }
            })
            .collect()
    };
    assert!(
        term_reads(&fx).is_empty(),
        "the queue's rows are on their way: {fx:?}"
    );
    let Loadable::Loaded(f) = m.term() else {
        panic!("figures: {:?}", m.term());
    };
    assert_eq!((f.requests, f.pending), (11, 6), "the new request counted");
    let again: Vec<_> = term_requests().into_iter().take(4).collect();
    let fx = answer(
        &mut m,
        rows_again[0],
        ApiAnswer::Listing(Ok(listing_reply(again, None, 4))),
    );
    assert_eq!(term_reads(&fx), vec![vec![Uuid::from_u128(5)]], "{fx:?}");
    let mut decided = term_requests()[4].clone();
    decided.membership_status = Some(club_admin::api::MembershipStatus::Declined);
    update(
        &mut m,
        Msg::TermRead {
            read: Ok(vec![decided]),
            ask: club_admin::app::TermAsk::ById(vec![Uuid::from_u128(5)]),
            offset_secs: 0,
        },
    );
    let Loadable::Loaded(f) = m.term() else {
        panic!("figures: {:?}", m.term());
    };
    assert_eq!(
        (f.requests, f.pending, f.approved, f.declined),
        (11, 5, 3, 3),
        "request 5's decline counted"
    );
    update(&mut m, key('T'));
    assert!(m.popup().is_none());
    let fx = update(&mut m, Msg::AutoRefresh);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::ReadTerm { .. })),
        "{fx:?}"
    );
}

/// Where the service counts more pending requests than the view holds once the queue's
/// reads are in (a request new beyond the pages the queue read), the view reads the scope's
/// pending pages once, with its requests to bring up to date.
#[test]
fn a_count_the_view_does_not_match_reads_the_pending_pages() {
    use club_admin::app::call::ListPurpose;
    use club_admin::app::{ApiCall, TermAsk};
    let mut m = term_open(Lang::English);
    let pending: Vec<_> = term_requests().into_iter().take(5).collect();
    let mut fx = update(&mut m, Msg::AutoRefresh);
    let mut asked = Vec::new();
    // The queue's reads answered as the service would: its pending listing holds the
    // view's five and counts six; its rows read again are as they were.
    for _ in 0..20 {
        let mut next = Vec::new();
        for e in &fx {
            if let Effect::ReadTerm { ask, .. } = e {
                asked.push(ask.clone());
            }
        }
        for (id, call) in calls(&fx) {
            let ApiCall::ListRequests { purpose, .. } = call else {
                continue;
            };
            let reply = match purpose {
                ListPurpose::Page { page: 1, .. } => listing_reply(pending.clone(), Some(2), 6),
                ListPurpose::Page { .. } => listing_reply(Vec::new(), None, 6),
                ListPurpose::Reread(_) | ListPurpose::Count { .. } => {
                    listing_reply(pending[..4].to_vec(), None, 4)
                }
                ListPurpose::Known { .. } => listing_reply(pending.clone(), None, 6),
            };
            next.extend(answer(&mut m, id, ApiAnswer::Listing(Ok(reply))));
        }
        if next.is_empty() {
            break;
        }
        fx = next;
    }
    let kinds: Vec<_> = asked
        .iter()
        .map(|a| match a {
            TermAsk::Pending(previous) => format!("pending pages of {}", previous.len()),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(kinds, vec!["pending pages of 10".to_owned()]);
}
/// A teacher or an administrator (the service lets them decide nothing) sees the term view
/// first, once the scope is known, over a header that says "review only"; Esc goes to the
/// queue and `T` comes back. Drawn at 45x30 and 80x24 in English and Thai (snapshots).
#[test]
fn a_reviewer_sees_the_term_first_and_esc_goes_to_the_queue() {
    for (lang, tag) in [(Lang::English, "en"), (Lang::Thai, "th")] {
        let o = club_admin::app::ModelOptions {
            review_opens_term: true,
            ..options_in(lang)
        };
        let mut m = loaded_as_admin(o, sample_rows());
        assert!(matches!(m.popup(), Some(Popup::Term { .. })), "{tag}");
        assert!(m.term_reading(), "its whole read asked");
        let server = m.server_key().to_owned();
        update(&mut m, Msg::HistoryRead(Ok(audit_rows(&server))));
        update(
            &mut m,
            Msg::TermRead {
                read: Ok(term_requests()),
                ask: club_admin::app::TermAsk::Whole,
                offset_secs: 7 * 3600,
            },
        );
        for (w, h) in [(45, 30), (80, 24)] {
            let s = screen(&m, w, h);
            update(&mut m, ctrl('l'));
            assert_eq!(s, screen(&m, w, h), "Ctrl-L redraws the same screen");
            insta::assert_snapshot!(format!("term_first_{tag}_{w}x{h}"), s);
        }
        let review = screen(&m, 120, 40);
        assert!(
            review.contains("review only") || review.contains("ตรวจดูเท่านั้น"),
            "{review}"
        );
        update(&mut m, code(club_admin::app::KeyCode::Esc));
        assert!(m.popup().is_none(), "Esc goes to the queue");
        update(&mut m, Msg::AutoRefresh);
        assert!(m.popup().is_none(), "the term view opens first only once");
        update(&mut m, key('T'));
        assert!(matches!(m.popup(), Some(Popup::Term { .. })));
    }
}

/// A moderator (a student on a club's staff) sees the queue first, as before.
#[test]
fn a_moderator_sees_the_queue_first() {
    let o = club_admin::app::ModelOptions {
        review_opens_term: true,
        ..options_in(Lang::English)
    };
    let m = loaded(o, sample_rows());
    assert!(m.popup().is_none());
}
