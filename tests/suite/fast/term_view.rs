//! The term view (`T`): reached through `update` (the key, the read it asks for, its answer
//! and the history's rows), drawn by the real view on a `TestBackend` at 40x15, 45x30, 80x24
//! and 120x40 in English and Thai (snapshots), scrolled to its end, and the figures it
//! shows checked against the requests and decisions it was given.

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

/// While the view is open the automatic refresh reads the term's pending requests again
/// (with the earlier read to bring up to date); once it is closed, only the queue's.
#[test]
fn the_automatic_refresh_reads_the_term_s_pending_requests_while_it_is_open() {
    let mut m = term_open(Lang::English);
    let fx = update(&mut m, Msg::AutoRefresh);
    let brought_up_to_date: Vec<bool> = fx
        .iter()
        .filter_map(|e| {
            if let Effect::ReadTerm { previous, .. } = e {
                Some(previous.as_ref().is_some_and(|p| p.len() == 10))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(brought_up_to_date, vec![true], "{fx:?}");
    update(
        &mut m,
        Msg::TermRead {
            read: Ok(term_requests()),
            offset_secs: 0,
        },
    );
    update(&mut m, key('T'));
    assert!(m.popup().is_none());
    let fx = update(&mut m, Msg::AutoRefresh);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::ReadTerm { .. })),
        "{fx:?}"
    );
}
