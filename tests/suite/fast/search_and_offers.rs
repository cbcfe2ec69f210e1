//! What a tester of the Thai release found: the filter's `year:` and `status:`
//! terms match what a Thai moderator sees (BE years, Thai status words), searches take SARA
//! AM however it was typed, the help offers undo only where approve and decline are offered,
//! and `Tab` in the sign-in box only where it saves the token. Each through `update` with
//! real keys and a `TestBackend` frame, in Thai and in English.

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::{ApiError, ErrorInfo, UpdateRoute};
use club_admin::app::{KeyCode, Model, Popup, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

/// `s` as the terminal shows it (SARA AM drawn as NIKHAHIT + SARA AA).
fn drawn(s: &str) -> String {
    club_admin::text::for_terminal(s).into_owned()
}

/// The queue filtered by `text`, typed after `/` and kept with Enter: how many rows show.
fn filtered(m: &mut Model, text: &str) -> usize {
    update(m, key('/'));
    while matches!(&m.popup(), Some(Popup::Filter { input, .. }) if !input.value().is_empty()) {
        update(m, code(KeyCode::Backspace));
    }
    typed(m, text);
    update(m, code(KeyCode::Enter));
    m.queue().visible().len()
}

/// Puts the cursor on the row of request `n`.
fn select(m: &mut Model, n: u128) {
    update(m, key('g'));
    while m.queue().selected().map(|i| i.id) != Some(Uuid::from_u128(n)) {
        let before = m.queue().cursor();
        update(m, key('j'));
        assert_ne!(
            m.queue().cursor(),
            before,
            "request {n} is not in the queue"
        );
    }
}

#[test]
fn year_matches_the_be_year_shown_and_the_ce_year_in_both_languages() {
    for lang in Lang::ALL {
        let mut m = loaded(options_in(lang), sample_rows());
        // Three requests of 2026 (2569), one of 2025 (2568).
        assert_eq!(filtered(&mut m, "year:2569"), 3, "{lang:?}");
        let s = screen(&m, 120, 40);
        if lang == Lang::Thai {
            assert!(s.contains("2569") && !s.contains("2568"), "{s}");
            assert!(s.contains("คิว 4 · แสดง 3"), "{s}");
        } else {
            assert!(s.contains("Queue 4 · 3 shown"), "{s}");
        }
        assert_eq!(filtered(&mut m, "year:2568"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "year:2026"), 3, "{lang:?}");
        assert_eq!(filtered(&mut m, "year:2025"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "-year:2569"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "year:2570"), 0, "{lang:?}");
    }
}

#[test]
fn status_matches_the_thai_words_the_queue_shows() {
    for lang in Lang::ALL {
        let mut m = model_with_lang(sample_rows(), lang);
        assert_eq!(filtered(&mut m, "status:รอพิจารณา"), 3, "{lang:?}");
        let s = screen(&m, 120, 40);
        assert!(!s.contains(&drawn("ไม่มีคำขอที่ตรงกับตัวกรอง")), "{s}");
        assert_eq!(filtered(&mut m, "status:อนุมัติแล้ว"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:อนุมัติ"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:ปฏิเสธแล้ว"), 0, "{lang:?}");
        assert_eq!(filtered(&mut m, "-status:รอพิจารณา"), 1, "{lang:?}");
        // The English codes still work.
        assert_eq!(filtered(&mut m, "status:pending"), 3, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:approved"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, ""), 4);

        // Deleted here (ลบแล้ว), and gone: deleted elsewhere (หายไป).
        select(&mut m, 1);
        update(&mut m, key('D'));
        let fx = update(&mut m, key('y'));
        answer_write(&mut m, &fx, ApiAnswer::Deleted(Ok(reply(()))));
        select(&mut m, 2);
        let fx = update(&mut m, key('a'));
        let gone = ApiError::NotFound(ErrorInfo {
            status: Some(404),
            error_type: Some("entity_not_found".into()),
            detail: Some("Club request not found".into()),
            error_id: None,
            excerpt: None,
        });
        answer_write(&mut m, &fx, ApiAnswer::Updated(Err(gone)));
        assert_eq!(filtered(&mut m, "status:ลบแล้ว"), 1, "{lang:?}");
        assert_eq!(m.queue().selected().map(|i| i.id), Some(Uuid::from_u128(1)));
        assert_eq!(filtered(&mut m, "status:deleted"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:หายไป"), 1, "{lang:?}");
        assert_eq!(m.queue().selected().map(|i| i.id), Some(Uuid::from_u128(2)));
        assert_eq!(filtered(&mut m, "status:gone"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:รอพิจารณา"), 1, "{lang:?}");
    }
}

#[test]
fn the_filter_takes_sara_am_however_it_was_typed() {
    let mut rows = sample_rows();
    // The server writes SARA AM as one character (U+0E33).
    rows.push(request(
        Uuid::from_u128(9),
        "pending",
        "51009",
        Some(("Kham", "คำ")),
        ("Thai Word a Day Club", "ชุมนุมภาษาไทยวันละคำ"),
        2026,
        5,
    ));
    for lang in Lang::ALL {
        let mut m = model_with_lang(rows.clone(), lang);
        // Typed on a Thai keyboard (U+0E33) and as the screen shows it (U+0E4D U+0E32).
        for word in ["วันละคำ", "วันละค\u{0E4D}\u{0E32}"] {
            assert_eq!(filtered(&mut m, word), 1, "{word:?}");
            assert_eq!(filtered(&mut m, &format!("club:{word}")), 1, "{word:?}");
            assert_eq!(m.queue().selected().map(|i| i.id), Some(Uuid::from_u128(9)));
            let s = screen(&m, 120, 40);
            assert!(s.contains("#51009"), "{s}");
        }
        assert_eq!(filtered(&mut m, "-วันละคำ"), 4);
    }
}

#[test]
fn the_help_search_takes_sara_am_typed_on_a_thai_keyboard() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('?'));
    // Typed as the screen draws it (NIKHAHIT + SARA AA): it always matched.
    typed(&mut m, "ค\u{0E4D}\u{0E32}สั่ง");
    let decomposed = screen(&m, 120, 40);
    assert!(decomposed.contains(&drawn("บรรทัดคำสั่ง")), "{decomposed}");
    update(&mut m, code(KeyCode::Esc));

    // Typed on a Thai keyboard: SARA AM is one key, one character (U+0E33).
    update(&mut m, key('?'));
    typed(&mut m, "คำสั่ง");
    let s = screen(&m, 120, 40);
    assert!(s.contains(&drawn("บรรทัดคำสั่ง")), "{s}");
    assert!(!s.contains("ไม่พบ"), "no 'no match' line:\n{s}");
    // The same rows (the search field itself differs only in how it holds SARA AM).
    let rows = |s: &str| s.lines().skip(4).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(rows(&s), rows(&decomposed));

    // Case-insensitive as before, in English.
    let mut m = model_with(sample_rows());
    update(&mut m, key('?'));
    typed(&mut m, "COMMAND LINE");
    let s = screen(&m, 120, 40);
    assert!(s.contains("command line (:help for commands)"), "{s}");
    assert!(!s.contains("No key matches"), "{s}");
}

/// The help's text of `z` in `lang`.
fn undo_text(lang: Lang) -> String {
    club_admin::i18n::tr(lang, "action-undo")
}

/// The help of `m`, whole, as drawn ([`help_drawn`]), opened with `?` and closed again.
fn whole_help(m: &mut Model) -> String {
    update(m, key('?'));
    let all = help_drawn(m);
    update(m, code(KeyCode::Esc));
    assert!(m.popup().is_none(), "the help closed");
    all
}

#[test]
fn undo_is_in_the_help_only_where_approve_and_decline_are() {
    for lang in Lang::ALL {
        let approve = club_admin::i18n::tr(lang, "action-approve");
        let mut m = model_with_lang(sample_rows(), lang);
        let help = whole_help(&mut m);
        assert!(help.contains(&undo_text(lang)), "{help}");
        assert!(help.contains(&approve), "{help}");

        // A server without the update route (service 0.9).
        let mut m = loaded_on(
            ModelOptions { lang, ..options() },
            sample_rows(),
            UpdateRoute::Missing,
        );
        let help = whole_help(&mut m);
        assert!(!help.contains(&approve), "{help}");
        assert!(!help.contains(&undo_text(lang)), "{help}");
        assert!(
            help.contains(&club_admin::i18n::tr(lang, "action-delete")),
            "{help}"
        );

        // Read-only: nothing that changes data, and nothing to take back.
        let mut m = loaded(
            ModelOptions {
                lang,
                read_only: true,
                ..options()
            },
            sample_rows(),
        );
        let help = whole_help(&mut m);
        for gone in [
            "action-approve",
            "action-decline",
            "action-delete",
            "action-undo",
        ] {
            let text = club_admin::i18n::tr(lang, gone);
            assert!(!help.contains(&text), "{gone} in\n{help}");
        }
        assert!(
            help.contains(&club_admin::i18n::tr(lang, "action-filter")),
            "{help}"
        );
        // Nor does its hint bar, as drawn; it still offers the filter.
        let bar = hint_bar(&m, 120);
        let hint =
            |k: &str, label: &str| drawn(&format!("{k} {}", club_admin::i18n::tr(lang, label)));
        for (k, gone) in [
            ("a", "hint-approve"),
            ("x", "hint-decline"),
            ("D", "hint-delete"),
            ("z", "hint-undo"),
        ] {
            assert!(!bar.contains(&hint(k, gone)), "{gone} in {bar}");
        }
        assert!(bar.contains(&hint("/", "hint-filter")), "{bar}");
    }
}

#[test]
fn tab_in_the_sign_in_box_is_offered_only_where_it_saves_and_then_toggles() {
    for lang in Lang::ALL {
        let toggle_help = club_admin::i18n::tr(lang, "popup-help-toggle-save");
        let toggle_hint = club_admin::i18n::tr(lang, "popup-hint-toggle-save");
        let memory = club_admin::i18n::tr(lang, "popup-sign-in-memory");

        // No token file (the demo): the box says the token stays in memory; neither the
        // hint bar nor the help offers Tab, and Tab changes nothing.
        let mut m = loaded(
            ModelOptions {
                lang,
                can_save_token: false,
                save_token: false,
                ..options()
            },
            sample_rows(),
        );
        let help = whole_help(&mut m);
        assert!(
            help.contains(&club_admin::i18n::tr(lang, "popup-help-sign-in")),
            "{help}"
        );
        assert!(!help.contains(&toggle_help), "{help}");
        update(&mut m, key('S'));
        let before = screen(&m, 120, 40);
        assert!(before.contains(&memory), "{before}");
        assert!(!before.contains(&toggle_hint), "{before}");
        assert!(
            !before.contains("[ ]") && !before.contains("[x]"),
            "{before}"
        );
        update(&mut m, code(KeyCode::Tab));
        assert_eq!(screen(&m, 120, 40), before);

        // A token file: offered in both, and Tab visibly turns saving off and on.
        let mut m = model_with_lang(sample_rows(), lang);
        assert!(m.can_save_token() && m.save_token());
        let help = whole_help(&mut m);
        assert!(help.contains(&toggle_help), "{help}");
        update(&mut m, key('S'));
        let on = screen(&m, 120, 40);
        assert!(on.contains("[x]") && on.contains(&toggle_hint), "{on}");
        update(&mut m, code(KeyCode::Tab));
        let off = screen(&m, 120, 40);
        assert!(off.contains("[ ]") && !off.contains("[x]"), "{off}");
        assert!(matches!(m.popup(), Some(Popup::SignIn { save: false, .. })));
        update(&mut m, code(KeyCode::Tab));
        assert_eq!(screen(&m, 120, 40), on);
    }
}

#[test]
fn new_contact_is_offered_only_with_a_club_shown_and_an_id_only_club_shows_its_short_id() {
    for lang in Lang::ALL {
        let mut m = model_with_lang(sample_rows(), lang);
        update(
            &mut m,
            club_admin::app::Msg::Key(club_admin::app::Key::new(KeyCode::Tab)),
        );
        let hint = |m: &Model| {
            screen(m, 120, 40)
                .lines()
                .last()
                .unwrap_or_default()
                .to_owned()
        };
        let new_contact = match lang {
            Lang::Thai => club_admin::text::for_terminal("n เพิ่มช่องทาง").into_owned(),
            Lang::English => "n new contact".to_owned(),
        };
        assert!(!hint(&m).contains(&new_contact), "{}", hint(&m));
        show_club(
            &mut m,
            serde_json::from_value(serde_json::json!({
                "id": Uuid::from_u128(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"}
            }))
            .expect("club"),
        );
        // Back in the club pane.
        update(
            &mut m,
            club_admin::app::Msg::Key(club_admin::app::Key::new(KeyCode::Tab)),
        );
        assert!(hint(&m).contains(&new_contact), "{}", hint(&m));
    }
    // A request read at fetch level id_only names its club by id alone.
    let bare: club_admin::api::ClubRequest = serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(1),
        "club": {"id": "abcdef12-0000-0000-0000-000000000000"},
        "student": {"id": Uuid::from_u128(99)},
        "year": 2026,
        "membership_status": "pending",
    }))
    .expect("request");
    let m = model_with(vec![bare]);
    let s = screen(&m, 120, 40);
    assert!(s.contains("abcdef12"), "{s}");
}

/// The filter reads `year:` by the command line's rule (`--year`): CE or BE, the whole year.
/// `year:2569` is `year:2026`; `year:202`, a part of a year, matches no request (it matched
/// every 2026 request as text before); `-year:2025` leaves 2025 out.
#[test]
fn the_filters_year_is_the_command_lines_year() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_with_lang(sample_rows(), lang);
        assert_eq!(filtered(&mut m, "year:2026"), 3);
        assert_eq!(filtered(&mut m, "year:2569"), 3, "BE is the same year");
        assert_eq!(filtered(&mut m, "year:2568"), 1);
        assert_eq!(
            filtered(&mut m, "year:202"),
            0,
            "a part of a year is no year"
        );
        assert_eq!(filtered(&mut m, "-year:2025"), 3);
    }
}

/// Issue 32: while the server has not said who is signed in (a slow link's first second),
/// no write key is offered, whatever the account turns out to be; once it answers, a staff
/// student is offered approve and decline.
#[test]
fn no_write_is_offered_before_the_account_is_known() {
    use club_admin::app::ApiCall;
    for lang in [Lang::English, Lang::Thai] {
        let mut m = model_from(options_in(lang));
        let fx = club_admin::app::start(&mut m);
        let approve = format!("a {}", club_admin::i18n::tr(lang, "hint-approve"));
        let delete = format!("D {}", club_admin::i18n::tr(lang, "hint-delete"));
        for w in [45, 80, 120] {
            let bar = hint_bar(&m, w);
            assert!(
                !bar.contains(&approve) && !bar.contains(&delete),
                "{w}: {bar}"
            );
        }
        let user = api_ids(&fx, |c| *c == ApiCall::CurrentUser)[0];
        for probe in api_ids(&fx, |c| *c == ApiCall::ProbeUpdateRoute) {
            let _ = answer(
                &mut m,
                probe,
                ApiAnswer::UpdateRoute(Ok(UpdateRoute::Present)),
            );
        }
        let _ = sign_in_moderator(&mut m, user);
        let bar = hint_bar(&m, 120);
        assert!(bar.contains(&approve), "{bar}");
    }
}

#[test]
fn a_school_number_is_found_as_the_row_prints_it_with_its_hash() {
    let mut m = loaded(options(), sample_rows());
    assert!(
        screen(&m, 120, 40).contains("#51002"),
        "the row prints the number with its #"
    );
    assert_eq!(filtered(&mut m, "#51002"), 1);
    assert_eq!(filtered(&mut m, "51002"), 1);
    assert_eq!(filtered(&mut m, "#5100"), 4, "a part of it, from its start");
}
