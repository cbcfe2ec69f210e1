//! A sign-in is asked for, never forced on the moderator's keys; a new account is a new
//! user at once; sorts cover the whole scope; and the smaller truths of the status line and
//! the hint bar (who may delete, what is in flight, what a refresh may replace). Through
//! real keys and messages, the real view on a `TestBackend`, in English and Thai.

use super::edges::same_after_redraw;
use crate::common::answers::ApiAnswer;
use crate::common::*;
use club_admin::api::*;
use club_admin::app::model::{QueueSort, RowState};
use club_admin::app::{ApiCall, Effect, KeyCode, Model, Msg, Outcome, Popup, update};
use club_admin::i18n::Lang;
use uuid::Uuid;

fn pick<'a>(lang: Lang, th: &'a str, en: &'a str) -> String {
    let s = if lang == Lang::Thai { th } else { en };
    club_admin::text::for_terminal(s).into_owned()
}

/// A student account, staff of the clubs whose staff lists hold `student` (its
/// `meta.student_id`).
fn student(n: u128, email: &str) -> User {
    serde_json::from_value(serde_json::json!({
        "id": id(n), "email": email, "role": "student",
        "meta": {"student_id": id(n + 1000)}, "is_admin": false
    }))
    .expect("user")
}

fn teacher() -> User {
    serde_json::from_value(serde_json::json!({
        "id": id(7), "email": "kru@school.example.ac.th", "role": "teacher",
        "meta": {"teacher_id": id(8)}, "is_admin": false
    }))
    .expect("user")
}

/// The club id `common::request` gives a club of this English name.
fn club_of(name: &str) -> Uuid {
    Uuid::from_u128(name.len() as u128 + 7)
}

fn club(name: &str) -> Club {
    serde_json::from_value(serde_json::json!({"id": club_of(name)})).expect("club")
}

/// Answers every call among `fx` that `answer` knows; the effects that follow.
fn answer_all(
    m: &mut Model,
    fx: &[Effect],
    answer: impl Fn(&ApiCall) -> Option<ApiAnswer>,
) -> Vec<Effect> {
    let mut out = Vec::new();
    for (rid, call) in calls(fx) {
        if let Some(a) = answer(&call) {
            out.extend(crate::common::answer(m, rid, a));
        }
    }
    out
}

/// Signed in as `user`, staff of `clubs`, its listing answered with `rows`.
fn student_model(
    lang: Lang,
    delay: u64,
    user: &User,
    clubs: &[&str],
    rows: Vec<ClubRequest>,
) -> Model {
    let mut m = model_from(ModelOptions {
        decision_delay: std::time::Duration::from_secs(delay),
        ..options_in(lang)
    });
    let fx = club_admin::app::start(&mut m);
    let clubs: Vec<Club> = clubs.iter().map(|c| club(c)).collect();
    let fx = answer_all(&mut m, &fx, |c| match c {
        ApiCall::CurrentUser => Some(ApiAnswer::User(Ok(reply(user.clone())))),
        ApiCall::ProbeUpdateRoute => Some(ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present))),
        _ => None,
    });
    let fx = answer_all(&mut m, &fx, |c| match c {
        ApiCall::SearchClubs { .. } => Some(ApiAnswer::Clubs(Ok(reply(clubs.clone())))),
        _ => None,
    });
    let total = rows.len() as u64;
    answer_all(&mut m, &fx, |c| match c {
        ApiCall::ListRequests { .. } => Some(ApiAnswer::Listing(Ok(listing_reply(
            rows.clone(),
            None,
            total,
        )))),
        _ => None,
    });
    m
}

fn two_club_rows() -> Vec<ClubRequest> {
    vec![
        request(
            id(1),
            "pending",
            "51001",
            Some(("Somchai", "สมชาย")),
            ("Robotics Club", "ชุมนุมหุ่นยนต์"),
            2026,
            3,
        ),
        request(
            id(2),
            "pending",
            "51002",
            Some(("Pimchanok", "พิมพ์ชนก")),
            ("Chess Club", "ชุมนุมหมากรุก"),
            2026,
            2,
        ),
        request(
            id(4),
            "pending",
            "51004",
            Some(("Wang", "หวัง")),
            ("Robotics Club", "ชุมนุมหุ่นยนต์"),
            2026,
            1,
        ),
    ]
}

const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3OTUzNjY1NDF9.c2ln";

/// `S`, the token pasted, Enter: the check's effects.
fn sign_in_again(m: &mut Model) -> Vec<Effect> {
    update(m, key('S'));
    assert!(
        matches!(m.popup(), Some(Popup::SignIn { .. })),
        "{:?}",
        m.popup()
    );
    update(m, Msg::Paste(TOKEN.into()));
    update(m, code(KeyCode::Enter))
}

// ---------------------------------------------------------------------------------------
// a new sign-in is a new user

#[test]
fn another_accounts_sign_in_takes_its_scope_at_once_and_sends_nothing_held_before() {
    for lang in Lang::ALL {
        let s1 = student(10, "s1@student.example.ac.th");
        let s3 = student(30, "s3@student.example.ac.th");
        let mut m = student_model(
            lang,
            10,
            &s1,
            &["Robotics Club", "Chess Club"],
            two_club_rows(),
        );
        assert_eq!(m.queue().len(), 3);
        // A decision held on the Chess Club row, then another account signs in.
        cursor_to(&mut m, id(2));
        update(&mut m, key('a'));
        assert_eq!(m.held().requests(), 1);
        let check = sign_in_again(&mut m);
        let fx = answer_all(&mut m, &check, |c| match c {
            ApiCall::CheckToken { .. } => Some(ApiAnswer::User(Ok(reply(s3.clone())))),
            _ => None,
        });
        // Not sent under s3: audited as not sent, by s1, never `failed`.
        assert!(m.held().is_empty());
        let audit: Vec<_> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Audit(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(audit.len(), 1, "{audit:?}");
        assert_eq!(audit[0].outcome, Outcome::Undone);
        assert_eq!(audit[0].user.as_deref(), Some("s1@student.example.ac.th"));
        assert_eq!(
            audit[0].detail.as_deref(),
            Some("not sent: another account signed in")
        );
        assert!(!fx.iter().any(|e| matches!(
            e,
            Effect::Api {
                call: ApiCall::UpdateRequest { .. },
                ..
            }
        )));
        let said = status(&m);
        assert!(
            said.contains(&pick(
                lang,
                "ไม่ส่งการตัดสินที่พักไว้ของบัญชีก่อน 1",
                "the held decision of the last one not sent"
            )),
            "{said}"
        );
        // What s3 may do is asked again, and its clubs.
        assert!(fx.iter().any(|e| matches!(
            e,
            Effect::Api {
                call: ApiCall::ProbeUpdateRoute,
                ..
            }
        )));
        // The header names s3 at once.
        let s = screen(&m, 120, 40);
        assert!(
            s.contains("s3@student.example.ac.th") && !s.contains("s1@"),
            "{s}"
        );
        // s3 staffs the Robotics Club only: the Chess Club row goes, the listing reloads.
        let fx = answer_all(&mut m, &fx, |c| match c {
            ApiCall::SearchClubs { .. } => {
                Some(ApiAnswer::Clubs(Ok(reply(vec![club("Robotics Club")]))))
            }
            ApiCall::ProbeUpdateRoute => Some(ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present))),
            _ => None,
        });
        assert!(m.queue().get(id(2)).is_none(), "the other club's row went");
        // The last account's listing went whole: the new one loads from page 1, in the
        // server's order (never appended after the old rows).
        assert_eq!(m.queue().len(), 0);
        let (list, page) = calls(&fx)
            .into_iter()
            .find_map(|(rid, c)| match c {
                ApiCall::ListRequests { filter, page, .. } => Some((rid, (filter, page))),
                _ => None,
            })
            .expect("the listing reloads in the new scope");
        assert_eq!(page.0.club_ids, vec![club_of("Robotics Club")]);
        assert_eq!(page.1.p, 1);
        let robotics: Vec<ClubRequest> = two_club_rows()
            .into_iter()
            .filter(|r| r.id != id(2))
            .collect();
        let _ = answer(
            &mut m,
            list,
            ApiAnswer::Listing(Ok(listing_reply(robotics, None, 2))),
        );
        assert_eq!(m.queue().len(), 2);
        // The new listing's count does not replace what was said of the held decision.
        let said = status(&m);
        assert!(
            said.contains(&pick(
                lang,
                "ไม่ส่งการตัดสินที่พักไว้ของบัญชีก่อน 1",
                "the held decision of the last one not sent"
            )),
            "{said}"
        );
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(
                !s.contains("Pimchanok") && !s.contains("พิมพ์ชนก"),
                "{w}x{h}\n{s}"
            );
        }
        same_after_redraw(&mut m);
    }
}

// ---------------------------------------------------------------------------------------
// the sign-in pop-up opens only when asked

/// An admin's queue whose held approve (5 s) was sent and answered 401.
fn expired_with_a_held_decision(lang: Lang) -> Model {
    let mut m = loaded(
        ModelOptions {
            decision_delay: std::time::Duration::from_secs(5),
            ..options_in(lang)
        },
        sample_rows(),
    );
    cursor_to(&mut m, id(2));
    update(&mut m, key('a'));
    let sent = later(&mut m, std::time::Duration::from_secs(6));
    let fx = fail_calls(&mut m, &sent, &unauthorized());
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Audit(_))),
        "not audited failed: {fx:?}"
    );
    m
}

/// The token's check (`check`) answered as the same account, then a tick: the decisions
/// it sends (request, status).
fn same_account_sends(m: &mut Model, check: &[Effect]) -> Vec<(Uuid, MembershipStatus)> {
    answer_all(m, check, |c| match c {
        ApiCall::CheckToken { .. } => Some(ApiAnswer::User(Ok(reply(moderator())))),
        _ => None,
    });
    let fx = later(m, std::time::Duration::from_millis(120));
    calls(&fx)
        .into_iter()
        .filter_map(|(_, c)| match c {
            ApiCall::UpdateRequest { id, status, .. } => Some((id, status)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_401_opens_nothing_keys_stay_with_the_queue_and_the_decision_waits_for_the_sign_in() {
    for lang in Lang::ALL {
        let mut m = expired_with_a_held_decision(lang);
        assert!(m.session_expired());
        assert!(m.popup().is_none(), "{:?}", m.popup());
        assert!(
            status(&m).contains(&pick(
                lang,
                "เซสชันหมดอายุ: กด S เพื่อเข้าสู่ระบบ",
                "session expired: press S to sign in"
            )),
            "{}",
            status(&m)
        );
        // `j j a` typed right after: they act on the queue (a is refused, said why).
        update(&mut m, key('g'));
        update(&mut m, key('j'));
        update(&mut m, key('j'));
        let fx = update(&mut m, key('a'));
        assert!(m.popup().is_none());
        assert!(calls(&fx).is_empty(), "{fx:?}");
        assert!(
            status(&m).contains(&pick(lang, "เข้าสู่ระบบก่อน (กด S)", "sign in first (press S)")),
            "{}",
            status(&m)
        );
        assert_eq!(m.held().requests(), 1);
        // Ticks do not send it while the session is over; the row says held.
        let fx = later(&mut m, std::time::Duration::from_secs(30));
        assert!(calls(&fx).is_empty(), "{fx:?}");
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(
                s.contains(&pick(lang, "พักอนุมัติ", "approve held")),
                "{w}x{h}\n{s}"
            );
            assert!(
                !s.contains(&pick(lang, "กำลังอนุมัติ…", "approving…")),
                "{w}x{h}\n{s}"
            );
        }
        same_after_redraw(&mut m);
        // `S` opens the pop-up; `S` again is not typed.
        update(&mut m, key('S'));
        update(&mut m, key('S'));
        assert!(matches!(m.popup(), Some(Popup::SignIn { input, .. }) if input.value().is_empty()));
        update(&mut m, Msg::Paste(TOKEN.into()));
        let check = update(&mut m, code(KeyCode::Enter));
        // The same account: sent at the next tick.
        assert_eq!(
            same_account_sends(&mut m, &check),
            vec![(id(2), MembershipStatus::Approved)]
        );
    }
}

#[test]
fn quitting_before_the_sign_in_audits_the_held_decision_as_not_sent() {
    for lang in Lang::ALL {
        // `q`, then discard.
        let mut m = expired_with_a_held_decision(lang);
        update(&mut m, key('q'));
        assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
        let fx = update(&mut m, key('d'));
        let outcomes: Vec<_> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Audit(a) => Some(a.outcome),
                _ => None,
            })
            .collect();
        assert_eq!(outcomes, vec![Outcome::Undone], "{fx:?}");
        assert!(fx.iter().any(|e| matches!(e, Effect::Quit)));
        // Ctrl-C.
        let mut m = expired_with_a_held_decision(lang);
        let fx = update(&mut m, ctrl('c'));
        assert!(
            fx.iter()
                .any(|e| matches!(e, Effect::Audit(a) if a.outcome == Outcome::Undone))
        );
        assert!(
            !fx.iter()
                .any(|e| matches!(e, Effect::Audit(a) if a.outcome == Outcome::Failed))
        );
        // A hang-up cannot send it either: not sent, not failed.
        let mut m = expired_with_a_held_decision(lang);
        let fx = update(&mut m, Msg::Flush(club_admin::app::EndedBy::HangUp));
        assert!(calls(&fx).is_empty());
        assert!(fx.iter().any(
            |e| matches!(e, Effect::Audit(a) if a.outcome == Outcome::Undone
            && a.detail.as_deref() == Some("not sent: the session had expired"))
        ));
        // "Send now" waits for the sign-in, then sends and quits.
        let mut m = expired_with_a_held_decision(lang);
        update(&mut m, key('q'));
        let fx = update(&mut m, key('s'));
        assert!(calls(&fx).is_empty() && !m.quitting());
        assert!(
            status(&m).contains(&pick(
                lang,
                "จะส่งการตัดสินที่พักไว้ 1",
                "the held decision is sent"
            )),
            "{}",
            status(&m)
        );
        let check = sign_in_again(&mut m);
        let fx = answer_all(&mut m, &check, |c| match c {
            ApiCall::CheckToken { .. } => Some(ApiAnswer::User(Ok(reply(moderator())))),
            _ => None,
        });
        let put = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
        assert_eq!(put.len(), 1, "{fx:?}");
        let row = request(
            id(2),
            "approved",
            "51002",
            Some(("Pimchanok", "พิมพ์ชนก")),
            ("Chess Club", "ชุมนุมหมากรุก"),
            2026,
            2,
        );
        let fx = answer(&mut m, put[0], ApiAnswer::Updated(Ok(reply(row))));
        assert!(fx.iter().any(|e| matches!(e, Effect::Quit)), "{fx:?}");
    }
}

#[test]
fn a_start_without_a_token_opens_nothing_and_a_pasted_token_opens_the_sign_in() {
    for lang in Lang::ALL {
        let mut m = model_from(ModelOptions {
            has_token: false,
            ..options_in(lang)
        });
        club_admin::app::start(&mut m);
        assert!(m.popup().is_none());
        // Keys go to the queue; `a` says to sign in first.
        update(&mut m, key('j'));
        update(&mut m, key('a'));
        assert!(m.popup().is_none());
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(
                s.contains(&pick(lang, "กด S เพื่อเข้าสู่ระบบ", "S to sign in")),
                "{w}x{h}\n{s}"
            );
        }
        same_after_redraw(&mut m);
        update(
            &mut m,
            Msg::Paste(format!("{{\"data\":{{\"access_token\":\"{TOKEN}\"}}}}")),
        );
        assert!(
            matches!(m.popup(), Some(Popup::SignIn { input, .. }) if !input.value().is_empty())
        );
        // Never saved unless asked: shared school computers.
        let mut fresh = Model::new(ModelOptions {
            can_save_token: true,
            ..ModelOptions::new("http://127.0.0.1:9")
        });
        update(&mut fresh, key('S'));
        assert!(matches!(
            fresh.popup(),
            Some(Popup::SignIn { save: false, .. })
        ));
    }
}

// ---------------------------------------------------------------------------------------
// sorts cover the whole scope

#[test]
fn a_sort_loads_the_rest_of_the_listing_first_and_says_when_it_could_not() {
    for lang in Lang::ALL {
        for fails in [false, true] {
            let mut m = model_from(options_in(lang));
            let fx = club_admin::app::start(&mut m);
            let fx = answer_all(&mut m, &fx, |c| match c {
                ApiCall::CurrentUser => Some(ApiAnswer::User(Ok(reply(admin())))),
                ApiCall::ProbeUpdateRoute => Some(ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present))),
                _ => None,
            });
            let first: Vec<ClubRequest> = sample_rows()
                .into_iter()
                .filter(|r| r.membership() == Some(&MembershipStatus::Pending))
                .collect();
            let fx = answer_all(&mut m, &fx, |c| match c {
                ApiCall::ListRequests { .. } => Some(ApiAnswer::Listing(Ok(listing_reply(
                    first.clone(),
                    Some(2),
                    5,
                )))),
                _ => None,
            });
            assert!(m.listing().has_more);
            assert_eq!(m.queue().sort(), QueueSort::Server);
            // Oldest first: the rest of the listing loads first (a prefetch may have asked
            // for the next page already: the sort waits for it).
            let mut fx: Vec<Effect> = fx;
            fx.extend(update(&mut m, key('s')));
            assert_eq!(m.queue().sort(), QueueSort::Age);
            let pages = api_ids(&fx, |c| {
                matches!(
                    c,
                    ApiCall::ListRequests {
                        purpose: club_admin::app::ListPurpose::Page { .. },
                        ..
                    }
                )
            });
            assert_eq!(pages.len(), 1, "{fx:?}");
            assert!(
                status(&m).contains(&pick(
                    lang,
                    "กำลังเรียงแบบ เก่าสุดก่อน",
                    "sorting oldest first: loading"
                )),
                "{}",
                status(&m)
            );
            let more = vec![
                request(
                    id(5),
                    "pending",
                    "51005",
                    Some(("Old", "เก่า")),
                    ("Chess Club", "ชุมนุมหมากรุก"),
                    2026,
                    90,
                ),
                request(
                    id(6),
                    "pending",
                    "51006",
                    Some(("Older", "เก่ากว่า")),
                    ("Chess Club", "ชุมนุมหมากรุก"),
                    2026,
                    99,
                ),
            ];
            let answer_page = if fails {
                ApiAnswer::Listing(Err(ApiError::Server(ErrorInfo {
                    status: Some(500),
                    ..ErrorInfo::default()
                })))
            } else {
                ApiAnswer::Listing(Ok(listing_reply(more, None, 5)))
            };
            answer(&mut m, pages[0], answer_page);
            let s = screen(&m, 120, 40);
            if fails {
                assert!(m.sorts_loaded_only());
                assert!(
                    s.contains(&pick(lang, "เฉพาะ 3 รายการที่โหลด", "only the 3 loaded")),
                    "{s}"
                );
            } else {
                assert!(!m.sorts_loaded_only());
                // The oldest of the whole scope is first.
                assert_eq!(m.queue().visible_item(0).map(|i| i.id), Some(id(6)));
                assert!(
                    status(&m).contains(&pick(lang, "ทั้งหมด 5 รายการ", "all 5 pending requests")),
                    "{}",
                    status(&m)
                );
            }
            same_after_redraw(&mut m);
        }
    }
}

// ---------------------------------------------------------------------------------------
// smaller truths

#[test]
fn delete_is_offered_only_where_the_server_lets_this_account_delete() {
    for (lang, who) in Lang::ALL
        .into_iter()
        .flat_map(|l| [(l, teacher()), (l, admin())])
    {
        // A teacher, an administrator: never (api-notes.md, "Who may do what").
        let mut m = signed_in(options_in(lang), who);
        update(
            &mut m,
            Msg::AddIds {
                text: id(1).to_string(),
                origin: club_admin::app::IdsFrom::Arguments,
            },
        );
        let hints = hint_bar(&m, 120);
        assert!(!hints.contains("D "), "{hints}");
        update(&mut m, key('?'));
        assert!(!help_drawn(&m).contains("D Del"), "no delete in the help");
        update(&mut m, code(KeyCode::Esc));
        let fx = update(&mut m, key('D'));
        assert!(m.popup().is_none() && calls(&fx).is_empty());
        // A student moderator: their own request only.
        let s1 = student(10, "s1@student.example.ac.th");
        let own: ClubRequest = serde_json::from_value(serde_json::json!({
            "id": id(1), "club": {"id": club_of("Robotics Club")}, "student": {"id": id(1010)},
            "membership_status": "pending", "year": 2026
        }))
        .expect("own");
        let other: ClubRequest = serde_json::from_value(serde_json::json!({
            "id": id(2), "club": {"id": club_of("Robotics Club")}, "student": {"id": id(99)},
            "membership_status": "pending", "year": 2026
        }))
        .expect("other");
        let mut m = student_model(lang, 0, &s1, &["Robotics Club"], vec![own, other]);
        cursor_to(&mut m, id(2));
        assert!(!hint_bar(&m, 120).contains("D "), "{}", hint_bar(&m, 120));
        update(&mut m, key('D'));
        assert!(m.popup().is_none());
        assert!(
            status(&m).contains(&pick(
                lang,
                "ลบได้เฉพาะคำขอของตนเอง",
                "may delete only their own requests"
            )),
            "{}",
            status(&m)
        );
        cursor_to(&mut m, id(1));
        assert!(hint_bar(&m, 120).contains("D "), "{}", hint_bar(&m, 120));
        update(&mut m, key('D'));
        assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
    }
}

#[test]
fn in_flight_counts_calls_on_the_wire_and_a_refresh_never_replaces_a_countdown_or_a_refusal() {
    for lang in Lang::ALL {
        let mut m = loaded(
            ModelOptions {
                decision_delay: std::time::Duration::from_secs(10),
                ..options_in(lang)
            },
            sample_rows(),
        );
        // `r`: several reads awaited; the limiter says two are on the wire.
        update(&mut m, key('r'));
        assert!(m.awaited() >= 2, "{}", m.awaited());
        update(
            &mut m,
            Msg::Pace {
                limit: 1,
                slowed: false,
                in_flight: 1,
            },
        );
        later(&mut m, std::time::Duration::from_millis(120));
        later(&mut m, std::time::Duration::from_millis(600));
        let s = screen(&m, 120, 40);
        assert!(
            s.contains(&pick(lang, "รอเซิร์ฟเวอร์ 1 รายการ", "1 in flight")),
            "{s}"
        );
        assert_eq!(m.in_flight(), 1);

        // A held decision counts down; the automatic refresh ends without a word over it.
        let mut m = loaded(
            ModelOptions {
                decision_delay: std::time::Duration::from_secs(10),
                ..options_in(lang)
            },
            sample_rows(),
        );
        update(&mut m, key('a'));
        let before = status(&m);
        let fx = update(&mut m, Msg::AutoRefresh);
        answer_all(&mut m, &fx, |c| match c {
            ApiCall::ListRequests { .. } => Some(ApiAnswer::Listing(Ok(listing_reply(
                sample_rows(),
                None,
                3,
            )))),
            _ => None,
        });
        assert!(m.listing().refreshed_at.is_some());
        assert_eq!(status(&m), before);
        // A refusal stays too.
        let mut m = model_with_lang(sample_rows(), lang);
        cursor_to(&mut m, id(3));
        update(&mut m, key('a'));
        let refusal = status(&m);
        let fx = update(&mut m, Msg::AutoRefresh);
        answer_all(&mut m, &fx, |c| match c {
            ApiCall::ListRequests { .. } => Some(ApiAnswer::Listing(Ok(listing_reply(
                sample_rows(),
                None,
                3,
            )))),
            _ => None,
        });
        assert_eq!(status(&m), refusal);
    }
}

#[test]
fn a_request_not_found_shows_its_id_and_esc_clears_the_club_lookup() {
    for lang in Lang::ALL {
        let mut m = model_with_lang(sample_rows(), lang);
        let gone = Uuid::parse_str("5f0c1e2d-0000-4000-8000-000000000001").expect("uuid");
        let fx = update(
            &mut m,
            Msg::AddIds {
                text: gone.to_string(),
                origin: club_admin::app::IdsFrom::Arguments,
            },
        );
        answer_all(&mut m, &fx, |c| match c {
            ApiCall::ListRequests { .. } => {
                Some(ApiAnswer::Listing(Ok(listing_reply(vec![], None, 0))))
            }
            ApiCall::GetRequest { .. } => {
                Some(ApiAnswer::Request(Err(ApiError::NotFound(ErrorInfo {
                    status: Some(404),
                    ..ErrorInfo::default()
                }))))
            }
            _ => None,
        });
        assert_eq!(
            m.queue().get(gone).map(|i| i.state.clone()),
            Some(RowState::Gone)
        );
        for (w, h) in [(80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(s.contains("5f0c1e2d"), "{w}x{h}\n{s}");
        }
        update(&mut m, key('c'));
        typed(&mut m, "robo");
        update(&mut m, code(KeyCode::Esc));
        assert_eq!(m.club().input.value(), "");
        same_after_redraw(&mut m);
    }
}

/// Signed out (no token), the hint bar offers the sign-in, not decisions the dashboard would
/// only refuse ("sign in first"); once signed in they are back.
#[test]
fn signed_out_the_hints_offer_sign_in_not_decisions() {
    for lang in Lang::ALL {
        let approve = club_admin::tr!(lang, "status-verb", action = "approve");
        let signed_out = model_from(ModelOptions {
            has_token: false,
            ..options_in(lang)
        });
        let sign_in = club_admin::i18n::tr(lang, "action-sign_in");
        for w in [80, 120] {
            let bar = hint_bar(&signed_out, w);
            assert!(!bar.contains(&format!("a {approve}")), "{w}: {bar}");
            assert!(
                bar.starts_with("S "),
                "{w}: the sign-in first: {bar} ({sign_in})"
            );
        }
        let signed_in = model_with_lang(sample_rows(), lang);
        let bar = hint_bar(&signed_in, 120);
        assert!(bar.contains(&format!("a {approve}")), "{bar}");
    }
}

/// In the sign-in pop-up, Ctrl-Y copies the sign-in address (OSC 52: over SSH it reaches the
/// moderator's own terminal, a phone's clipboard), and types nothing into the field.
#[test]
fn ctrl_y_copies_the_sign_in_address() {
    for lang in Lang::ALL {
        let mut m = model_from(ModelOptions {
            has_token: false,
            ..options_in(lang)
        });
        update(&mut m, key('S'));
        assert!(matches!(m.popup(), Some(Popup::SignIn { .. })));
        let fx = update(&mut m, ctrl('y'));
        let copied: Vec<&String> = fx
            .iter()
            .filter_map(|e| match e {
                Effect::Copy(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(copied, vec!["http://127.0.0.1:9/auth/oauth/init"]);
        match m.popup() {
            Some(Popup::SignIn { input, .. }) => assert_eq!(input.value(), ""),
            other => panic!("{other:?}"),
        }
        for (w, h) in [(45, 30), (80, 24), (120, 40)] {
            let s = screen(&m, w, h);
            assert!(s.contains("Ctrl-Y"), "{w}x{h}:\n{s}");
        }
    }
}

/// Issue 32: once the token's expiry has passed (the header says "session expired"), `a` holds
/// nothing and sends nothing: the status line says to sign in first, with the key, and the
/// hint bar leads with it; no decision is left to fail with 401 later.
#[test]
fn past_the_token_s_expiry_a_decision_asks_for_the_sign_in_first() {
    for lang in Lang::ALL {
        let mut m = loaded(
            club_admin::app::ModelOptions {
                token_expires: Some(now() + chrono::Duration::minutes(1)),
                ..options_in(lang)
            },
            sample_rows(),
        );
        let _ = update(&mut m, Msg::Tick(now() + chrono::Duration::minutes(2)));
        let _ = cursor_to(&mut m, id(1));
        let fx = update(&mut m, key('a'));
        assert!(calls(&fx).is_empty(), "nothing sent: {fx:?}");
        assert!(m.held().is_empty(), "nothing held");
        let action = club_admin::app::model::words::verb(lang, club_admin::app::RowAction::Approve);
        let said = club_admin::tr!(lang, "status-sign-in-first", action = action, key = "S");
        assert_eq!(status(&m), said);
        assert!(hint_bar(&m, 120).starts_with('S'), "{}", hint_bar(&m, 120));
        // Before the expiry, the same key holds the decision.
        let mut fresh = loaded(options_in(lang), sample_rows());
        let _ = cursor_to(&mut fresh, id(1));
        let fx = update(&mut fresh, key('a'));
        let sent = calls(&fx)
            .iter()
            .any(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. }));
        assert!(sent || fresh.held().len() == 1, "held or sent: {fx:?}");
    }
}

/// A decision held while the token's own expiry passes is never sent under a session the
/// header calls expired: at the expiry the header says so, the status line says once which key
/// signs in and that the decision waits, no write leaves; after the same account signs in
/// again it goes.
#[test]
fn a_decision_held_across_the_token_s_expiry_waits_for_the_sign_in() {
    for lang in Lang::ALL {
        let mut m = loaded(
            club_admin::app::ModelOptions {
                decision_delay: std::time::Duration::from_secs(5),
                token_expires: Some(now() + chrono::Duration::seconds(3)),
                ..options_in(lang)
            },
            sample_rows(),
        );
        cursor_to(&mut m, id(2));
        update(&mut m, key('a'));
        assert_eq!(m.held().requests(), 1);
        let fx = later(&mut m, std::time::Duration::from_secs(6));
        let puts = api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. }));
        assert!(puts.is_empty(), "sent under an expired session: {fx:?}");
        let s = screen(&m, 120, 40);
        let expired = club_admin::i18n::tr(lang, "header-session-expired");
        assert!(
            s.contains(&*club_admin::text::for_terminal(&expired)),
            "{s}"
        );
        let said = club_admin::tr!(lang, "status-session-expired-held", key = "S", n = 1);
        assert_eq!(status(&m), said);
        assert_eq!(m.held().requests(), 1);
        // The next ticks send nothing either.
        let fx = later(&mut m, std::time::Duration::from_secs(30));
        assert!(calls(&fx).is_empty(), "{fx:?}");
        let check = sign_in_again(&mut m);
        assert_eq!(
            same_account_sends(&mut m, &check),
            vec![(id(2), MembershipStatus::Approved)]
        );
    }
}
