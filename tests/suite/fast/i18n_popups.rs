//! The pop-ups in Thai and in English: each pop-up is opened with real
//! keys (`update` with `Msg::Key`), drawn into a `TestBackend` frame, and read back. The Thai
//! frame holds the Thai words and none of the English ones, and the other way round; at 80x24
//! every word of the long Thai texts is on screen (wrapped, not cut) and no row is wider than
//! the terminal.

use crate::common;

use club_admin::app::model::*;
use club_admin::app::{Key, KeyCode, Msg, Popup, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

/// The frame's text, one line per row, trailing spaces cut; a wide character's second cell
/// is skipped.
fn screen(m: &Model, w: u16, h: u16) -> String {
    let out = common::screen(m, w, h);
    for line in out.lines() {
        assert!(
            club_admin::text::width(line) <= w as usize,
            "row wider than the terminal: {line}"
        );
    }
    out
}

/// `s` as the terminal shows it (SARA AM drawn as NIKHAHIT + SARA AA).
fn drawn(s: &str) -> String {
    club_admin::text::for_terminal(s).into_owned()
}

/// Asserts every text of `present` is in `shown` and none of `absent` is.
fn words(shown: &str, present: &[&str], absent: &[&str]) {
    for p in present {
        assert!(shown.contains(&drawn(p)), "missing {p:?} in\n{shown}");
    }
    for a in absent {
        assert!(!shown.contains(&drawn(a)), "unexpected {a:?} in\n{shown}");
    }
}

/// Asserts every space-separated word of `text` is on screen: the text was wrapped at
/// spaces, nothing of it was cut off.
fn whole(shown: &str, text: &str) {
    for w in text.split(' ') {
        assert!(
            shown.contains(&drawn(w)),
            "{w:?} of {text:?} cut off in\n{shown}"
        );
    }
}

fn status(m: &Model) -> String {
    m.status_text().unwrap_or_default()
}

#[test]
fn help_titles_hints_sections_and_no_match() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('?'));
    let s = screen(&m, 120, 40);
    words(
        &s,
        &["ปุ่มลัด (กด ? หรือ Esc เพื่อปิด)", "ค้นหา:", "พิมพ์ ค้นหา", "Esc/? ปิด"],
        &["Keys (? or Esc to close)", "search:", "scroll", "close"],
    );
    typed(&mut m, "ยืนยัน");
    let s = screen(&m, 120, 40);
    words(
        &s,
        &["การยืนยัน", "กดปุ่มที่เลือกไว้", "สลับระหว่างปุ่มยกเลิกกับปุ่มดำเนินการ"],
        &["Confirmation", "press the chosen button"],
    );
    // Searching in English finds the same rows, said in Thai.
    for _ in 0.."ยืนยัน".chars().count() {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "discard");
    let s = screen(&m, 120, 40);
    words(
        &s,
        &[
            "ออกขณะมีการอนุมัติ/ปฏิเสธรอส่ง (q)",
            "ทิ้งการอนุมัติ/ปฏิเสธที่รอไว้ (ไม่ส่ง) แล้วออก",
        ],
        &["discard the held decisions"],
    );
    typed(&mut m, "zzz");
    let s = screen(&m, 80, 24);
    words(
        &s,
        &["ไม่พบปุ่มที่ตรงกับ \"discardzzz\"", "คำสั่ง (:)"],
        &["No key matches", "Commands (:)"],
    );

    let mut m = model_with_lang(sample_rows(), Lang::English);
    update(&mut m, key('?'));
    typed(&mut m, "confirm");
    let s = screen(&m, 120, 40);
    words(
        &s,
        &[
            "Keys (? or Esc to close)",
            "search:",
            "Confirmation",
            "press the chosen button",
        ],
        &["ปุ่มลัด", "การยืนยัน"],
    );
    typed(&mut m, "zzz");
    let s = screen(&m, 120, 40);
    words(
        &s,
        &["No key matches \"confirmzzz\".", "Commands (:)"],
        &["ไม่พบ"],
    );
}

#[test]
fn the_whole_help_fits_at_80x24_in_thai() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('?'));
    // Scroll to the end: the filter terms, the longest Thai line, wrap inside the box.
    let mut last = String::new();
    for _ in 0..20 {
        update(&mut m, Msg::Key(Key::new(KeyCode::PageDown)));
        last = screen(&m, 80, 24);
        if last.contains(&drawn("คำที่ไม่เอา")) {
            break;
        }
    }
    whole(
        &last,
        "ตัวกรอง: status:pending club:robot year:2569 -คำที่ไม่เอา หรือข้อความใดก็ได้",
    );
}

#[test]
fn delete_confirmation_names_the_request_in_the_readers_language() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "ยืนยันการลบ",
            "ลบคำขอเข้าชุมนุม 00000000-0000-0000-0000-000000000001 ใช่ไหม?",
            "สมชาย ใจดี → ชุมนุมหุ่นยนต์",
            "ลบแล้วย้อนกลับไม่ได้",
            "[ ยกเลิก ]   [ ลบ ]",
            "y ยืนยัน",
            "n/Esc ยกเลิก",
            "←/→ เลือกปุ่ม",
            "Enter กด",
        ],
        &["Delete", "Cancel", "cannot be undone", "confirm"],
    );
    update(&mut m, key('n'));
    assert!(m.popup().is_none());
    assert_eq!(status(&m), drawn("ยกเลิกการลบแล้ว"));

    let mut m = model_with_lang(sample_rows(), Lang::English);
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "Delete?",
            "Delete club request 00000000-0000-0000-0000-000000000001?",
            "Somchai Jaidee → Robotics Club",
            "Deleting cannot be undone.",
            "[ Cancel ]   [ Delete ]",
            "y confirm",
        ],
        // (The detail pane shows both names: the label's Thai one would be "สมชาย ใจดี →".)
        &["ยืนยัน", "ลบ", "ใจดี →"],
    );
    update(&mut m, code(KeyCode::Esc));
    assert_eq!(status(&m), "delete cancelled");
}

/// Marks the two Robotics Club requests (1 and 4) of the sample rows.
fn two_of_one_club(lang: Lang) -> Model {
    let mut m = model_with_lang(sample_rows(), lang);
    update(&mut m, key('j'));
    update(&mut m, key(' '));
    update(&mut m, key('j'));
    update(&mut m, key(' '));
    let mut marked = m.queue().marked_ids();
    marked.sort();
    assert_eq!(marked, [Uuid::from_u128(1), Uuid::from_u128(4)]);
    m
}

#[test]
fn marked_rows_confirmation_says_how_many_of_which_club_and_what_is_hidden() {
    let mut m = two_of_one_club(Lang::Thai);
    update(&mut m, key('a'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "ยืนยันการอนุมัติ",
            "อนุมัติคำขอที่เลือกไว้ 2 รายการ ของ ชุมนุมหุ่นยนต์ ใช่ไหม?",
            "[ อนุมัติ ]",
        ],
        &["Approve", "marked club requests", "Robotics Club?"],
    );
    update(&mut m, key('n'));
    assert_eq!(status(&m), drawn("ยกเลิกการอนุมัติแล้ว"));
    // A filter hides one of them.
    update(&mut m, key('/'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "ตัวกรอง (ตรง 4 รายการ): /",
            "Enter ใช้ตัวกรองนี้",
            "Esc กลับไปแบบเดิม",
        ],
        &["matches)", "keep", "undo"],
    );
    typed(&mut m, "51001");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, key('x'));
    assert!(matches!(m.popup(), Some(Popup::Confirm { hidden: 1, .. })));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "ยืนยันการปฏิเสธ",
            "ปฏิเสธคำขอที่เลือกไว้ 2 รายการ ของ ชุมนุมหุ่นยนต์ ใช่ไหม?",
            "ในจำนวนนี้ 1 รายการถูกตัวกรองปัจจุบันซ่อนอยู่",
        ],
        &["hidden by the current filter", "Decline"],
    );

    let mut m = two_of_one_club(Lang::English);
    update(&mut m, key('/'));
    assert!(screen(&m, 80, 24).contains("filter (4 matches): /"));
    typed(&mut m, "51001");
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, key('x'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "Decline?",
            "Decline 2 marked club requests of Robotics Club?",
            "1 of them is hidden by the current filter.",
            "[ Decline ]",
        ],
        &["ปฏิเสธ", "รายการ"],
    );
}

/// Seven pending requests of one club, oldest first by id.
fn seven() -> Vec<club_admin::api::ClubRequest> {
    (1..=7u128)
        .map(|n| {
            request(
                Uuid::from_u128(n),
                "pending",
                &format!("5100{n}"),
                Some(("Somchai", "สมชาย")),
                ("Robotics Club", "ชุมนุมหุ่นยนต์"),
                2026,
                10 - n as i64,
            )
        })
        .collect()
}

/// Five decisions held on one request each and one on two marked requests, then `q`.
fn quitting_with_six_held(lang: Lang) -> Model {
    let mut m = loaded(
        ModelOptions {
            lang,
            decision_delay: std::time::Duration::from_secs(30),
            ..options()
        },
        seven(),
    );
    for _ in 0..5 {
        update(&mut m, key('a'));
    }
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    update(&mut m, key('a'));
    update(&mut m, key('y'));
    update(&mut m, key('q'));
    assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
    assert_eq!(m.held().iter().count(), 6);
    m
}

#[test]
fn quit_question_with_decisions_held() {
    let m = quitting_with_six_held(Lang::Thai);
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "ออกจากโปรแกรม?",
            "ยังไม่ได้ส่งการอนุมัติ/ปฏิเสธ 6 รายการ (คำขอ 7 รายการ):",
            "อนุมัติ คำขอ 2 รายการ",
            "อนุมัติ สมชาย ใจดี → ชุมนุมหุ่นยนต์",
            "… และอีก 2 รายการ",
            "s ส่งเลยแล้วออก   d ทิ้งแล้วออก   Esc อยู่ต่อ",
        ],
        // (The queue rows say "approving in 30 s": not a pop-up's words.)
        &[
            "Quit?",
            "not sent yet",
            "approve ",
            "more",
            "send now",
            "stay",
        ],
    );
    let m = quitting_with_six_held(Lang::English);
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "Quit?",
            "6 decisions on 7 requests not sent yet:",
            "approve 2 requests",
            "approve Somchai Jaidee → Robotics Club",
            "… and 2 more",
            "s send now, quit   d discard, quit   Esc stay",
        ],
        &["ออก", "อนุมัติ", "ใจดี →"],
    );
    // One decision on one request: singular in English.
    let mut m = held_model(sample_rows(), 30);
    update(&mut m, key('j'));
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    assert!(screen(&m, 80, 24).contains("1 decision on 1 request not sent yet:"));
}

#[test]
fn add_ids_box_and_its_refusals() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('i'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "เพิ่มรหัสคำขอเข้าชุมนุม",
            "รหัส:",
            "พิมพ์ รหัส",
            "Enter เพิ่ม",
            "Esc ยกเลิก",
        ],
        &[
            "Add club request ids",
            "Paste or type",
            "ids:",
            "add",
            "cancel",
        ],
    );
    whole(&s, "วางหรือพิมพ์รหัส คั่นด้วยช่องว่าง จุลภาค หรือขึ้นบรรทัดใหม่");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(status(&m), drawn("พิมพ์หรือวางรหัสคำขอเข้าชุมนุมอย่างน้อยหนึ่งรหัส"));
    update(&mut m, Msg::Paste("12345-not-an-id".into()));
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        status(&m),
        drawn("ไม่ใช่รหัสคำขอเข้าชุมนุม (UUID): 12345-not-an-id")
    );
    assert!(matches!(m.popup(), Some(Popup::AddIds { .. })));

    let mut m = model_with_lang(sample_rows(), Lang::English);
    update(&mut m, key('i'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "Add club request ids",
            "Paste or type ids: spaces, commas or new lines between them.",
            "ids:",
            "type ids",
        ],
        &["รหัส"],
    );
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(status(&m), "type or paste at least one club request id");
}

#[test]
fn sign_in_box_its_toggle_and_the_refused_tokens() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('S'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "โทเคน:",
            "[x] บันทึกโทเคนลงไฟล์ส่วนตัว (0600) ไว้ใช้ครั้งหน้า  Tab",
            "Enter เข้าสู่ระบบ",
            "Tab บันทึก เปิด/ปิด",
            "http://127.0.0.1:9/auth/oauth/init",
        ],
        &[
            "Sign in",
            "token:",
            "save the token",
            "Open this address",
            "saving on/off",
        ],
    );
    whole(&s, "เปิดที่อยู่นี้ในเบราว์เซอร์บนคอมพิวเตอร์ของคุณเอง แล้วเข้าสู่ระบบ:");
    whole(&s, "จากนั้นวางโทเคน หรือวางหน้า JSON ทั้งหน้าที่ได้ในตอนท้าย:");
    // At the narrowest screen, 60 columns, every word is still there.
    let narrow = screen(&m, 60, 24);
    for text in [
        "เปิดที่อยู่นี้ในเบราว์เซอร์บนคอมพิวเตอร์ของคุณเอง แล้วเข้าสู่ระบบ:",
        "จากนั้นวางโทเคน หรือวางหน้า JSON ทั้งหน้าที่ได้ในตอนท้าย:",
        "[x] บันทึกโทเคนลงไฟล์ส่วนตัว (0600) ไว้ใช้ครั้งหน้า",
    ] {
        whole(&narrow, text);
    }
    update(&mut m, code(KeyCode::Tab));
    assert!(screen(&m, 80, 24).contains(&drawn("[ ] บันทึกโทเคน")));
    for (pasted, why) in [
        ("", "ยังไม่ได้วางอะไรเลย"),
        ("{\"data\": {}}", "JSON ที่วางไม่มี data.access_token"),
        ("two words", "ข้อความนี้ไม่ใช่โทเคน (มีช่องว่างหรืออักขระควบคุม)"),
    ] {
        update(&mut m, Msg::Paste(pasted.into()));
        update(&mut m, code(KeyCode::Enter));
        let s = screen(&m, 80, 24);
        words(&s, &[why], &["nothing was pasted", "does not look like"]);
    }
    // Without a token file the box says the token stays in memory.
    let mut m = loaded(
        ModelOptions {
            lang: Lang::Thai,
            can_save_token: false,
            ..options()
        },
        sample_rows(),
    );
    // The session has expired (a 401), so closing the box says how to sign in.
    expire_session(&mut m);
    update(&mut m, key('S'));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &["โทเคนจะเก็บไว้ในหน่วยความจำเท่านั้น"],
        &["Tab", "in memory"],
    );
    update(&mut m, code(KeyCode::Esc));
    assert_eq!(status(&m), drawn("ยังไม่ได้เข้าสู่ระบบ: กด S เพื่อเข้าสู่ระบบ"));

    let mut m = model_with_lang(sample_rows(), Lang::English);
    update(&mut m, key('S'));
    update(&mut m, code(KeyCode::Enter));
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "Sign in",
            "Open this address in a browser on your own computer and sign in:",
            "Then paste the token, or the whole JSON page it ends on:",
            "token:",
            "[x] save the token to a private file (0600) for next time  Tab",
            "nothing was pasted",
            "Tab saving on/off",
        ],
        &["โทเคน", "เข้าสู่ระบบ"],
    );
    // Longer than the 54 columns inside the box at 60x24: wrapped at spaces, not cut.
    let narrow = screen(&m, 60, 24);
    whole(
        &narrow,
        "Open this address in a browser on your own computer and sign in:",
    );
    assert!(
        narrow.contains("│and sign in:"),
        "the end goes on the next line:\n{narrow}"
    );
    whole(
        &narrow,
        "[x] save the token to a private file (0600) for next time  Tab",
    );
}

#[test]
fn command_line_hints() {
    for (lang, present, absent) in [
        (Lang::Thai, ["Enter สั่งงาน", "Esc ยกเลิก"], ["run", "cancel"]),
        (
            Lang::English,
            ["Enter run", "Esc cancel"],
            ["สั่งงาน", "ยกเลิก"],
        ),
    ] {
        let mut m = model_with_lang(sample_rows(), lang);
        update(&mut m, key(':'));
        assert!(matches!(m.popup(), Some(Popup::Command { .. })));
        words(&screen(&m, 80, 24), &present, &absent);
    }
}

/// The new-contact form of a club shown (Robotics Club), opened from the club pane.
fn contact_form(lang: Lang) -> Model {
    let mut m = model_with_lang(sample_rows(), lang);
    show_club(
        &mut m,
        serde_json::from_value(serde_json::json!({
            "id": Uuid::from_u128(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
            "member_count": 22, "contacts": []
        }))
        .expect("club"),
    );
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('n'));
    assert!(matches!(m.popup(), Some(Popup::AddContact { .. })));
    m
}

#[test]
fn the_new_contact_form_and_its_refusals() {
    let mut m = contact_form(Lang::Thai);
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "เพิ่มช่องทางติดต่อของชุมนุม",
            "ชุมนุม: ชุมนุมหุ่นยนต์",
            "ประเภท: โทรศัพท์ อีเมล เฟซบุ๊ก ไลน์ อินสตาแกรม เว็บไซต์ ดิสคอร์ด อื่นๆ",
            "ข้อมูล:",
            "Tab ประเภท/ข้อมูล",
            "→ ประเภท",
            "Enter ข้อมูล",
        ],
        &["New club contact", "club:", "type:", "phone", "value"],
    );
    // Enter goes to the value; Enter again with nothing typed is refused in the form.
    update(&mut m, code(KeyCode::Enter));
    update(&mut m, code(KeyCode::Enter));
    words(
        &screen(&m, 80, 24),
        &["กรอกข้อมูลก่อน", "Enter เพิ่ม"],
        &["type a value"],
    );
    // An e-mail address that is not one.
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Right));
    update(&mut m, code(KeyCode::Tab));
    typed(&mut m, "nope");
    update(&mut m, code(KeyCode::Enter));
    words(
        &screen(&m, 80, 24),
        &["\"nope\" ไม่ใช่อีเมลที่ถูกต้อง"],
        &["is not a valid"],
    );

    let mut m = contact_form(Lang::English);
    let s = screen(&m, 80, 24);
    words(
        &s,
        &[
            "New club contact",
            "club: Robotics Club",
            "type: phone email facebook line instagram website discord other",
            "value:",
            "Tab type/value",
        ],
        &["ชุมนุม:", "โทรศัพท์", "ประเภท:"],
    );
    update(&mut m, code(KeyCode::Enter));
    typed(&mut m, "x");
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Right));
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, code(KeyCode::Enter));
    words(
        &screen(&m, 80, 24),
        &["\"x\" is not a valid email value"],
        &["อีเมล"],
    );
}

#[test]
fn a_box_over_thai_text_leaves_no_half_of_sara_am() {
    let mut m = model_with_lang(sample_rows(), Lang::Thai);
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let s = screen(&m, 80, 24);
    for line in s.lines() {
        let chars: Vec<char> = line.chars().collect();
        for (i, c) in chars.iter().enumerate() {
            if *c == '\u{e4d}' {
                assert_eq!(
                    chars.get(i + 1),
                    Some(&'\u{e32}'),
                    "NIKHAHIT without SARA AA: {line}"
                );
            }
        }
    }
}

/// Forty of this server's decisions, by two moderators (one over `serve-ssh` with a key's
/// comment), as the audit file's rows read back.
fn history_rows(m: &Model) -> Vec<club_admin::ops::history::Row> {
    use club_admin::ops::{AuditEntry, Outcome};
    let at = |i: i64| chrono::Utc::now() - chrono::Duration::minutes(100 - i);
    let entries = (0..40).map(|i| AuditEntry {
        at: at(i),
        server: m.server_key().to_owned(),
        user: (i % 2 == 0).then(|| "hana@school.example".to_owned()),
        action: "approve".into(),
        target: Uuid::from_u128(1000 + i as u128),
        outcome: Outcome::Ok,
        detail: None,
        value: None,
        via: Some("ssh".into()),
        key: Some("SHA256:abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG".into()),
        key_comment: Some("bob@laptop".into()),
        run: Some(format!("r{i}")),
        session: None,
        carried: None,
        settled_by: None,
        label: None,
    });
    let mut rows = club_admin::ops::history::fold(entries);
    rows.reverse();
    rows
}

#[test]
fn the_history_counts_what_the_search_keeps_and_says_more_below_in_both_languages() {
    for (lang, found, more) in [
        (Lang::English, "20 of 40 decisions match", "more below ↓"),
        (Lang::Thai, "ตรงกับคำค้น 20 จาก 40 รายการ", "มีต่อด้านล่าง ↓"),
    ] {
        let mut m = model_with_lang(sample_rows(), lang);
        update(&mut m, key('H'));
        let rows = history_rows(&m);
        update(&mut m, Msg::HistoryRead(Ok(rows.into())));
        let s = screen(&m, 60, 15);
        // The key by its comment, never its fingerprint; lines below the edge are said.
        words(&s, &["ssh (bob@laptop)", more], &["SHA256:"]);
        // The search ignores case: `h` finds Hana (`H` would close an empty search).
        typed(&mut m, "hana");
        let s = screen(&m, 120, 40);
        words(&s, &[found], &[]);
        assert!(
            matches!(m.popup(), Some(Popup::History { .. })),
            "{lang:?}: still open"
        );
        // A request's whole id is searched too (the line shows its label or a short id).
        for _ in 0..4 {
            update(&mut m, Msg::Key(Key::new(KeyCode::Backspace)));
        }
        typed(&mut m, "0000-0000000003e9");
        let s = screen(&m, 120, 40);
        let one = match lang {
            Lang::Thai => "ตรงกับคำค้น 1 จาก 40 รายการ",
            _ => "1 of 40 decisions match",
        };
        words(&s, &[one], &[]);
    }
}

#[test]
fn a_read_of_this_servers_rows_is_held_shared_and_another_servers_rows_are_left_out() {
    use std::sync::Arc;
    let mut m = model_with_lang(sample_rows(), Lang::English);
    // As `serve-ssh`'s sessions get it: one read, newest first, every row this server's.
    let rows: Arc<[club_admin::ops::history::Row]> = history_rows(&m).into();
    update(&mut m, Msg::HistoryRead(Ok(rows.clone())));
    let held = m.history().get().expect("rows");
    assert!(Arc::ptr_eq(held, &rows), "the one read is held, not copied");
    // A row of another server, oldest first: this server's rows only, newest first.
    let mut mixed = history_rows(&m);
    mixed.reverse();
    mixed[3].server = "https://elsewhere.example".into();
    update(&mut m, Msg::HistoryRead(Ok(mixed.into())));
    let held = m.history().get().expect("rows");
    assert_eq!(held.len(), 39);
    assert!(held.iter().all(|r| r.server == m.server_key()));
    assert!(held.windows(2).all(|w| w[0].settled_at >= w[1].settled_at));
}

#[test]
fn the_history_draws_its_newest_rows_only_and_says_how_to_find_the_others_in_both_languages() {
    // The pop-up draws the newest 200 (`ui::history::DRAWN`).
    for (lang, count, more, found) in [
        (
            Lang::English,
            "280 decisions",
            "Only the newest 200 are listed",
            "200+ of 280 decisions match",
        ),
        (
            Lang::Thai,
            "280 รายการ",
            "แสดงเฉพาะ 200 รายการล่าสุด",
            "ตรงกับคำค้น 200+ จาก 280 รายการ",
        ),
    ] {
        let mut m = model_with_lang(sample_rows(), lang);
        update(&mut m, key('H'));
        // A term's worth, newest first: seven times the forty rows, each its own request.
        let one = history_rows(&m);
        let rows: Vec<_> = (0..7u128)
            .flat_map(|k| {
                one.iter().cloned().map(move |mut r| {
                    r.target = Uuid::from_u128(r.target.as_u128() + 10_000 * k);
                    r
                })
            })
            .collect();
        assert_eq!(rows.len(), 280);
        update(&mut m, Msg::HistoryRead(Ok(rows.into())));
        let s = screen(&m, 120, 40);
        words(&s, &[count, more], &[]);
        // A search that keeps them all: the count says it stopped at the rows drawn.
        typed(&mut m, "ssh");
        let s = screen(&m, 120, 40);
        words(&s, &[found], &[]);
    }
}

/// A write the server answered "already approved" (someone else's hand) reads as such in
/// the history, not as this moderator's approval; the search finds it by that word; and a
/// request not in the queue is named by its audit label (`#number → club`).
#[test]
fn the_history_says_already_and_names_a_request_by_its_label_in_both_languages() {
    use club_admin::ops::{AuditEntry, Outcome};
    for (lang, already, search) in [
        (
            Lang::English,
            "approved (already, by someone else",
            "already",
        ),
        (Lang::Thai, "มีผู้อื่นทำไว้แล้ว", "มีผู้อื่น"),
    ] {
        let mut m = model_with_lang(sample_rows(), lang);
        update(&mut m, key('H'));
        let entry = AuditEntry {
            at: chrono::Utc::now(),
            server: m.server_key().to_owned(),
            user: Some("hana@school.example".into()),
            action: "approve".into(),
            target: Uuid::from_u128(4242),
            outcome: Outcome::Already,
            detail: Some("already approved by someone else (this write changed nothing)".into()),
            value: None,
            via: Some("dashboard".into()),
            key: None,
            key_comment: None,
            run: Some("r".into()),
            session: None,
            carried: None,
            settled_by: None,
            label: Some("#50335 → Astronomy Club".into()),
        };
        let rows = club_admin::ops::history::fold([entry]);
        update(&mut m, Msg::HistoryRead(Ok(rows.into())));
        let s = screen(&m, 120, 40);
        words(&s, &[already, "#50335 →"], &[]);
        typed(&mut m, search);
        let s = screen(&m, 120, 40);
        words(&s, &[already], &[]);
    }
}
