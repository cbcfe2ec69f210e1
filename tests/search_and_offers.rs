//! What a tester of the Thai release found (issue 11): the filter's `year:` and `status:`
//! terms match what a Thai moderator sees (BE years, Thai status words), and searches take
//! SARA AM however it was typed. Each through `update` with real keys and a `TestBackend`
//! frame, in Thai and in English.

mod common;

use club_admin::api::{ApiError, ErrorInfo};
use club_admin::app::{ApiAnswer, ApiCall, Effect, KeyCode, Model, Msg, Popup, update};
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
    while matches!(&m.popup, Some(Popup::Filter { input, .. }) if !input.value().is_empty()) {
        update(m, code(KeyCode::Backspace));
    }
    typed(m, text);
    update(m, code(KeyCode::Enter));
    m.queue.visible().len()
}

/// The one write among `fx`, answered with `answer`.
fn answer_write(m: &mut Model, fx: &[Effect], answer: ApiAnswer) {
    let ids = api_ids(fx, |c| {
        matches!(
            c,
            ApiCall::UpdateRequest { .. } | ApiCall::DeleteRequest { .. }
        )
    });
    assert_eq!(ids.len(), 1, "one write: {fx:?}");
    update(
        m,
        Msg::Api {
            request_id: ids[0],
            answer,
        },
    );
}

/// Puts the cursor on the row of request `n`.
fn select(m: &mut Model, n: u128) {
    update(m, key('g'));
    while m.queue.selected().map(|i| i.id) != Some(Uuid::from_u128(n)) {
        let before = m.queue.cursor();
        update(m, key('j'));
        assert_ne!(m.queue.cursor(), before, "request {n} is not in the queue");
    }
}

#[test]
fn year_matches_the_be_year_shown_and_the_ce_year_in_both_languages() {
    for lang in Lang::ALL {
        let mut m = model_with_lang(sample_rows(), lang);
        m.year_style = club_admin::i18n::dates::YearStyle::default_for(lang);
        // Three requests of 2026 (2569), one of 2025 (2568).
        assert_eq!(filtered(&mut m, "year:2569"), 3, "{lang:?}");
        let s = screen(&m, 120, 40);
        if lang == Lang::Thai {
            assert!(s.contains("2569") && !s.contains("2568"), "{s}");
            assert!(s.contains("คิว แสดง 3 จาก 4"), "{s}");
        } else {
            assert!(s.contains("Queue 3 shown of 4"), "{s}");
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
        assert_eq!(m.queue.selected().map(|i| i.id), Some(Uuid::from_u128(1)));
        assert_eq!(filtered(&mut m, "status:deleted"), 1, "{lang:?}");
        assert_eq!(filtered(&mut m, "status:หายไป"), 1, "{lang:?}");
        assert_eq!(m.queue.selected().map(|i| i.id), Some(Uuid::from_u128(2)));
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
            assert_eq!(m.queue.selected().map(|i| i.id), Some(Uuid::from_u128(9)));
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
