//! The panes in Thai and English: header, queue (rows in every
//! state), detail and club lookup, drawn by the real view on a `TestBackend` after real
//! `update` calls. In Thai the pane words are Thai and their English forms are absent; in
//! English they are as before.

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{ApiCall, KeyCode, Msg, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

/// The model read in `lang` (years in the Buddhist Era in Thai).
/// Thai as the terminal gets it (SARA AM drawn as NIKHAHIT + SARA AA).
fn th(s: &str) -> String {
    club_admin::text::for_terminal(s).into_owned()
}

/// Asserts every Thai word is on `screen` and no English one is.
fn thai_words(screen: &str, thai: &[&str], english: &[&str]) {
    for w in thai {
        assert!(screen.contains(&th(w)), "{w:?} missing:\n{screen}");
    }
    for w in english {
        assert!(
            !screen.contains(w),
            "English {w:?} in the Thai screen:\n{screen}"
        );
    }
}

/// Asserts every English word is on `screen`.
fn english_words(screen: &str, words: &[&str]) {
    for w in words {
        assert!(screen.contains(w), "{w:?} missing:\n{screen}");
    }
}

fn not_found() -> ApiError {
    ApiError::NotFound(ErrorInfo {
        status: Some(404),
        error_type: Some("entity_not_found".into()),
        detail: Some("Club request not found".into()),
        error_id: None,
        excerpt: None,
    })
}

/// Puts the cursor on request `n`.
fn select(m: &mut Model, n: u128) {
    update(m, key('g'));
    for _ in 0..m.queue().visible().len() {
        if m.queue().selected().map(|i| i.id) == Some(id(n)) {
            return;
        }
        update(m, key('j'));
    }
    panic!("request {n} is not shown:\n{}", screen(m, 120, 40));
}

/// Sample rows plus request 5 (pending) and 6 (pending), in every state a row can show:
/// 1 approved by the server answer's refusal kept as an error ("!"), 2 gone (404 to an
/// approve), 4 deleted, 5 held for its grace period, 6 marked, 99 added by id and loading.
fn rows_in_every_state(lang: Lang) -> Model {
    let mut rows = sample_rows();
    for n in [5u128, 6] {
        rows.push(request(
            id(n),
            "pending",
            &format!("5100{n}"),
            Some(("Nok", "นก")),
            ("Chess Club", "ชุมนุมหมากรุก"),
            2026,
            n as i64,
        ));
    }
    // A grace period of 5 s: rows 1 and 2 are sent once it has passed, row 5 stays held.
    let grace = std::time::Duration::from_secs(5);
    let mut m = loaded(
        ModelOptions {
            decision_delay: grace,
            ..options_in(lang)
        },
        rows,
    );
    // 1: a decline refused by the server; the row keeps its error.
    select(&mut m, 1);
    update(&mut m, key('x'));
    let fx = later(&mut m, grace);
    answer_write(
        &mut m,
        &fx,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    // 2: deleted elsewhere: the approve is answered 404.
    select(&mut m, 2);
    update(&mut m, key('a'));
    let fx = later(&mut m, grace);
    answer_write(&mut m, &fx, ApiAnswer::Updated(Err(not_found())));
    // 4: deleted here.
    select(&mut m, 4);
    update(&mut m, key('D'));
    let fx = update(&mut m, key('y'));
    answer_write(&mut m, &fx, ApiAnswer::Deleted(Ok(reply(()))));
    // 5: approved: held, counting down.
    select(&mut m, 5);
    let fx = update(&mut m, key('a'));
    assert!(
        api_ids(&fx, |c| matches!(c, ApiCall::UpdateRequest { .. })).is_empty(),
        "held, not sent"
    );
    // 6: marked.
    select(&mut m, 6);
    update(&mut m, key(' '));
    update(
        &mut m,
        Msg::AddIds {
            text: id(99).to_string(),
            origin: club_admin::app::IdsFrom::Dialog,
        },
    );
    select(&mut m, 1);
    m
}

#[test]
fn header_in_thai_and_english() {
    let m = loaded_as_admin(options_in(Lang::Thai), sample_rows());
    for w in [120, 80] {
        let s = screen(&m, w, 24);
        let header = s.lines().next().unwrap_or("");
        // Who, what the account may do ("review only": an administrator decides nothing),
        // the token and the link; at 120 columns the role too.
        thai_words(
            header,
            &[
                "admin@school.example.ac.th",
                "ตรวจดูเท่านั้น",
                "โทเคน 7 ชม. 59 นาที",
                "● ออนไลน์",
            ],
            &[", admin", "token", "online", "review only"],
        );
        if w == 120 {
            assert!(header.contains("(เจ้าหน้าที่, แอดมิน)"), "{header}");
        }
    }
    let m = loaded_as_admin(options_in(Lang::English), sample_rows());
    let header = screen(&m, 120, 24).lines().next().unwrap_or("").to_owned();
    english_words(&header, &["(staff, admin)", "token 7h 59m", "● online"]);
    let header = screen(&m, 80, 24).lines().next().unwrap_or("").to_owned();
    english_words(
        &header,
        &[
            "admin@school.example.ac.th",
            "review only",
            "token 7h 59m",
            "● online",
        ],
    );
}

#[test]
fn header_session_connection_and_capability_in_thai() {
    for lang in Lang::ALL {
        // Started without a token, the server out of reach.
        let mut m = model_from(ModelOptions {
            has_token: false,
            ..options_in(lang)
        });
        let fx = club_admin::app::start(&mut m);
        fail_calls(&mut m, &fx, &no_connection());
        let no_token = screen(&m, 120, 24);
        let no_token = no_token.lines().next().unwrap_or("");
        // A server without approve and decline (0.9).
        let m = loaded_on(options_in(lang), sample_rows(), UpdateRoute::Missing);
        let wide = screen(&m, 120, 24);
        let narrow = screen(&m, 80, 24);
        let (wide, narrow) = (
            wide.lines().next().unwrap_or(""),
            narrow.lines().next().unwrap_or(""),
        );
        match lang {
            Lang::Thai => {
                thai_words(
                    no_token,
                    &["ไม่มีโทเคน: กด S เพื่อเข้าสู่ระบบ", "○ ออฟไลน์"],
                    &["no token", "offline"],
                );
                thai_words(wide, &["เซิร์ฟเวอร์นี้อนุมัติหรือปฏิเสธไม่ได้"], &["cannot"]);
                thai_words(narrow, &["อนุมัติ/ปฏิเสธไม่ได้"], &["no approve"]);
            }
            Lang::English => {
                english_words(no_token, &["no token: S to sign in", "○ offline"]);
                english_words(wide, &["this server cannot approve or decline"]);
                english_words(narrow, &["no approve/decline"]);
            }
        }
        // An account the server refuses (the probe said so), its session over.
        let mut m = loaded_on(
            options_in(lang),
            sample_rows(),
            UpdateRoute::RoleRefused {
                detail: "User is not a student".into(),
            },
        );
        expire_session(&mut m);
        let s = screen(&m, 120, 24);
        let header = s.lines().next().unwrap_or("");
        // Read-only from the start (which sends no probe: nothing would be offered).
        let m = loaded(
            ModelOptions {
                read_only: true,
                ..options_in(lang)
            },
            sample_rows(),
        );
        let s = screen(&m, 120, 24);
        let read_only = s.lines().next().unwrap_or("");
        let footer = s.lines().last().unwrap_or("");
        match lang {
            Lang::Thai => {
                thai_words(
                    header,
                    &["เซสชันหมดอายุ", "บัญชีนี้อนุมัติหรือปฏิเสธไม่ได้"],
                    &["session expired", "this account"],
                );
                // Read-only is said in the header too.
                thai_words(read_only, &["อ่านอย่างเดียว"], &["read-only"]);
                thai_words(footer, &["อ่านอย่างเดียว"], &["read-only"]);
            }
            Lang::English => {
                english_words(
                    header,
                    &[
                        "session expired: S to sign in",
                        "this account cannot approve or decline",
                    ],
                );
                english_words(read_only, &["read-only"]);
                english_words(footer, &["read-only"]);
            }
        }
    }
}

#[test]
fn header_while_signing_in_and_for_a_user_not_onboarded() {
    for lang in Lang::ALL {
        let mut m = model_from(options_in(lang));
        let start = club_admin::app::start(&mut m);
        let s = screen(&m, 120, 24);
        let (header, queue) = (s.lines().next().unwrap_or(""), s.as_str());
        match lang {
            Lang::Thai => {
                thai_words(
                    header,
                    &["กำลังเข้าสู่ระบบ…", "○ กำลังเชื่อมต่อ"],
                    &["signing in", "connecting"],
                );
                thai_words(queue, &["กำลังโหลด…"], &["Loading"]);
            }
            Lang::English => {
                english_words(header, &["signing in…", "○ connecting"]);
                english_words(queue, &["Loading…"]);
            }
        }
        let user: User = serde_json::from_value(serde_json::json!({
            "id": Uuid::from_u128(501), "role": "student", "is_admin": false, "onboarded": false
        }))
        .expect("user");
        let asked = api_ids(&start, |c| *c == ApiCall::CurrentUser);
        answer(&mut m, asked[0], ApiAnswer::User(Ok(reply(user))));
        let header = screen(&m, 120, 24).lines().next().unwrap_or("").to_owned();
        match lang {
            Lang::Thai => thai_words(
                &header,
                &["(ไม่มีอีเมล)", "(นักเรียน, ยังไม่ลงทะเบียน)"],
                &["no e-mail", "not onboarded"],
            ),
            Lang::English => english_words(&header, &["(no e-mail)", "(student, not onboarded)"]),
        }
    }
}

/// The Thai words of the queue's rows and title, and their English forms.
const ROW_WORDS: [(&str, &str); 10] = [
    ("กำลังอนุมัติ 5 วิ", "approving 5 s"),
    ("รอพิจารณา", "pending"),
    ("อนุมัติแล้ว", "approved"),
    ("หายไป", "gone"),
    ("ลบแล้ว", "deleted"),
    ("กำลังโหลด…", "loading…"),
    ("คิว 7", "Queue 7"),
    ("เลือกไว้ 1", "1 marked"),
    ("เรียง: เก่าสุดก่อน", "sort: oldest first"),
    ("ผ่านมา", "age"),
];

#[test]
fn queue_rows_in_every_state_in_thai_and_english() {
    let m = rows_in_every_state(Lang::Thai);
    let s = screen(&m, 120, 40);
    let thai: Vec<&str> = ROW_WORDS.iter().map(|w| w.0).collect();
    thai_words(
        &s,
        &thai,
        &[
            "approving",
            "pending",
            "approved",
            "gone",
            "deleted",
            "loading",
            "Queue",
            "marked",
            "sort:",
            "status",
            "student",
            "year",
        ],
    );
    // The error row keeps its mark; its status stays the server's, in Thai.
    assert!(
        s.lines()
            .any(|l| l.contains("│! ") && l.contains(&th("รอพิจารณา"))),
        "{s}"
    );
    let m = rows_in_every_state(Lang::English);
    let s = screen(&m, 120, 40);
    let english: Vec<&str> = ROW_WORDS.iter().map(|w| w.1).collect();
    english_words(&s, &english);
    english_words(&s, &["status", "student", "club", "year"]);
}

#[test]
fn queue_title_keeps_what_matters_first_at_80_columns() {
    let mut m = rows_in_every_state(Lang::Thai);
    // A filter: the title says how many are shown.
    update(&mut m, key('/'));
    typed(&mut m, "club:chess");
    update(&mut m, code(KeyCode::Enter));
    let s = screen(&m, 80, 24);
    let title = s.lines().nth(1).unwrap_or("");
    thai_words(
        title,
        &["คิว 7 · แสดง 3 · รอพิจารณา 3", "เลือกไว้ 1"],
        &["Queue", "shown"],
    );
    assert!(
        title.ends_with('┐') && title.contains(" ─"),
        "nothing cut: {title}"
    );
    let mut m = rows_in_every_state(Lang::English);
    update(&mut m, key('/'));
    typed(&mut m, "club:chess");
    update(&mut m, code(KeyCode::Enter));
    let s = screen(&m, 80, 24);
    let title = s.lines().nth(1).unwrap_or("");
    english_words(title, &["Queue 7 · 3 shown · 3 pending", "1 marked"]);
}

#[test]
fn status_filter_keeps_the_server_words_in_thai() {
    let mut m = loaded(options_in(Lang::Thai), sample_rows());
    update(&mut m, key('/'));
    typed(&mut m, "status:approved");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(
        m.queue().visible().len(),
        1,
        "status:approved finds the approved row"
    );
    let s = screen(&m, 120, 40);
    thai_words(
        &s,
        &["คิว 4 · แสดง 1", "อนุมัติแล้ว", "/status:approved"],
        &["approved    "],
    );
    update(&mut m, key('/'));
    for _ in 0.."status:approved".len() {
        update(&mut m, code(KeyCode::Backspace));
    }
    typed(&mut m, "status:pending");
    update(&mut m, code(KeyCode::Enter));
    assert_eq!(m.queue().visible().len(), 3);
}

#[test]
fn empty_states_in_thai_and_english() {
    for lang in Lang::ALL {
        let m = loaded(options_in(lang), Vec::new());
        let s = screen(&m, 80, 24);
        match lang {
            Lang::Thai => thai_words(
                &s,
                &["ไม่มีคำขอที่รอพิจารณา", "ยังไม่ได้เลือกคำขอ"],
                &["No pending", "Nothing selected"],
            ),
            Lang::English => english_words(&s, &["No pending requests.", "Nothing selected."]),
        }
        let mut m = loaded(options_in(lang), sample_rows());
        update(&mut m, key('/'));
        typed(&mut m, "nobody");
        update(&mut m, code(KeyCode::Enter));
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => thai_words(
                &s,
                &["ไม่มีคำขอที่ตรงกับตัวกรอง /nobody"],
                &["No request matches"],
            ),
            Lang::English => english_words(&s, &["No request matches the filter /nobody"]),
        }
        let s = screen(&m, 40, 10);
        match lang {
            Lang::Thai => thai_words(&s, &["หน้าจอเล็กเกินไป"], &["Terminal too small"]),
            Lang::English => english_words(&s, &["Terminal too small"]),
        }
        // The keys that still act, Ctrl-C among them, on a phone's small window.
        let s = screen(&m, 44, 14);
        match lang {
            Lang::Thai => thai_words(&s, &["Ctrl-C (ออกทันที"], &["quit at once"]),
            Lang::English => english_words(&s, &["Ctrl-C (quit at once"]),
        }
    }
}

/// A request whose student has a number in class, added by id and read.
fn detailed_student_row(m: &mut Model) {
    let r: ClubRequest = serde_json::from_value(serde_json::json!({
        "id": id(40),
        "created_at": (now() - chrono::Duration::days(3)).to_rfc3339(),
        "club": {"id": id(41), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"}},
        "student": {"id": id(42), "student_id": "51040", "class_no": 12, "person": {
            "first_name": {"en-US": "Malee", "th": "มาลี"},
            "last_name": {"en-US": "Srisuk", "th": "ศรีสุข"},
            "nickname": {"en-US": "Mali", "th": "มะลิ"}}},
        "year": 2026,
        "membership_status": "pending"
    }))
    .expect("request");
    let fx = update(
        m,
        Msg::AddIds {
            text: id(40).to_string(),
            origin: club_admin::app::IdsFrom::Dialog,
        },
    );
    let read = api_ids(&fx, |c| matches!(c, ApiCall::GetRequest { .. }));
    assert_eq!(read.len(), 1, "{fx:?}");
    answer(m, read[0], ApiAnswer::Request(Ok(reply(r))));
    select(m, 40);
}

#[test]
fn detail_pane_in_thai_and_english() {
    let mut m = loaded(options_in(Lang::Thai), sample_rows());
    detailed_student_row(&mut m);
    let s = screen(&m, 120, 40);
    thai_words(
        &s,
        &[
            "คำขอ",
            "รหัส",
            "สถานะ",
            "นักเรียน",
            "#51040 มาลี ศรีสุข / Malee Srisuk (มะลิ /",
            "Mali) · เลขที่ 12",
            "ชุมนุม     ชุมนุมหุ่นยนต์",
            "ปีการศึกษา 2569",
            "ส่งเมื่อ",
            "19 พ.ย. 2569 09:00 UTC (3 วันที่แล้ว)",
            "ที่มา      เพิ่มด้วยรหัส",
            "ระดับ     ปกติ / ย่อ (f/F)",
        ],
        &[
            "Request",
            "asked",
            "source",
            "added by id",
            "levels",
            "default",
        ],
    );
    // The student's number in class, where the line has room for it.
    let s = screen(&m, 200, 40);
    thai_words(
        &s,
        &["#51040 มาลี ศรีสุข / Malee Srisuk (มะลิ / Mali) · เลขที่ 12"],
        &["no. 12"],
    );
    let mut m = loaded(options_in(Lang::English), sample_rows());
    detailed_student_row(&mut m);
    let s = screen(&m, 200, 40);
    english_words(
        &s,
        &[
            " Request ",
            "student  #51040 Malee Srisuk / มาลี ศรีสุข (Mali / มะลิ) · no. 12",
            "club     Robotics Club",
            "year     2026",
            "asked    19 Nov 2026 09:00 UTC (3d ago)",
            "source   added by id",
            "levels   default / compact (f/F)",
        ],
    );
}

#[test]
fn detail_pane_shows_the_row_errors_in_thai() {
    let mut m = rows_in_every_state(Lang::Thai);
    select(&mut m, 1);
    let s = screen(&m, 120, 40);
    thai_words(
        &s,
        &[
            "ทำรายการล่าสุดไม่สำเร็จ: ถูกปฏิเสธ: Student must be",
            "รายการจากเซิร์ฟเวอร์",
        ],
        &["last action", "refused", "server listing"],
    );
    let mut m = rows_in_every_state(Lang::English);
    select(&mut m, 1);
    english_words(
        &screen(&m, 120, 40),
        &["last action: refused: Student must be", "server listing"],
    );
}

/// A club at the detailed level: both names, counts, contacts of several types, staff and
/// members.
fn club() -> Club {
    serde_json::from_value(serde_json::json!({
        "id": id(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
        "description": {"en-US": "We build robots", "th": "สร้างหุ่นยนต์"},
        "member_count": 22, "staff_count": 1,
        "contacts": [
            {"id": id(6), "type": "line", "value": "@robot", "name": {"en-US": "LINE group", "th": null}},
            {"id": id(7), "type": "phone", "value": "02-123-4567", "name": null},
            {"id": id(8), "type": "website", "value": "https://robot.example", "name": null}
        ],
        "staffs": [{"id": id(9), "student_id": "51009", "person": {
            "first_name": {"en-US": "Anan", "th": "อนันต์"}, "last_name": {"en-US": "Dee", "th": "ดี"}}}],
        "members": []
    }))
    .expect("club")
}

#[test]
fn club_pane_in_thai_and_english() {
    for lang in Lang::ALL {
        let mut m = loaded(options_in(lang), sample_rows());
        show_club(&mut m, club());
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => thai_words(
                &s,
                &[
                    "ค้นหาชุมนุม (c)",
                    "รหัสหรือชื่อ:",
                    // Field names padded to 9 columns by display width.
                    "ชื่อ       ชุมนุมหุ่นยนต์ / Robotics Club",
                    "รายละเอียด สร้างหุ่นยนต์ / We build robots",
                    "จำนวน    สมาชิก 22 คน, กรรมการ 1 คน",
                    "ช่องทางติดต่อ (3)",
                    "  ไลน์       @robot (LINE group)",
                    "  โทรศัพท์    02-123-4567",
                    "  เว็บไซต์    https://robot.example",
                    "กรรมการ (1)",
                    "#51009 อนันต์ ดี / Anan Dee",
                    "สมาชิก (0)",
                    "ระดับการดึงข้อมูล ปกติ (f/F) · n เพิ่มช่องทางติดต่อ",
                ],
                &[
                    "Club lookup",
                    "id or name",
                    "members",
                    "staff",
                    "contacts",
                    "phone",
                    "fetch level",
                ],
            ),
            Lang::English => english_words(
                &s,
                &[
                    "Club lookup (c)",
                    "id or name:",
                    "name     Robotics Club / ชุมนุมหุ่นยนต์",
                    "people   22 members, 1 staff",
                    "contacts (3)",
                    "  phone     02-123-4567",
                    "staff (1)",
                    "#51009 Anan Dee / อนันต์ ดี",
                    "members (0)",
                    "fetch level default (f/F) · n new contact",
                ],
            ),
        }
    }
}

#[test]
fn club_pane_states_and_field_hints_in_thai() {
    for lang in Lang::ALL {
        let mut m = loaded(options_in(lang), sample_rows());
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => thai_words(&s, &["กด c พิมพ์รหัสชุมนุม"], &["Press c"]),
            Lang::English => english_words(&s, &["Press c, type a club id"]),
        }
        update(&mut m, key('c'));
        let s = screen(&m, 120, 40);
        let footer = s.lines().last().unwrap_or("");
        match lang {
            Lang::Thai => thai_words(footer, &["Enter ค้นหา", "Esc ยกเลิก"], &["look up", "cancel"]),
            Lang::English => english_words(footer, &["Enter look up", "Esc cancel"]),
        }
        // A search by name: searching until the server answers.
        typed(&mut m, "robot");
        let fx = update(&mut m, code(KeyCode::Enter));
        let search = api_ids(&fx, |c| matches!(c, ApiCall::SearchClubs { .. }));
        assert_eq!(search.len(), 1, "one search: {fx:?}");
        assert!(matches!(m.club().results, Loadable::Loading));
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => thai_words(&s, &["กำลังค้นหา…"], &["searching"]),
            Lang::English => english_words(&s, &["searching…"]),
        }
        // The server finds none.
        answer(&mut m, search[0], ApiAnswer::Clubs(Ok(reply(Vec::new()))));
        assert!(matches!(&m.club().results, Loadable::Loaded(v) if v.is_empty()));
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => thai_words(&s, &["ไม่พบชุมนุมที่ตรงกัน"], &["no club matches"]),
            Lang::English => english_words(&s, &["no club matches"]),
        }
        // A club asked for by id: loading until the server answers.
        update(&mut m, key(':'));
        typed(&mut m, &format!("club {}", id(5)));
        let fx = update(&mut m, code(KeyCode::Enter));
        assert_eq!(
            api_ids(&fx, |c| matches!(c, ApiCall::GetClub { .. })).len(),
            1
        );
        assert!(matches!(m.club().club, Loadable::Loading));
        let s = screen(&m, 120, 40);
        match lang {
            Lang::Thai => assert_eq!(s.matches(&th("กำลังโหลด…")).count(), 1, "{s}"),
            Lang::English => english_words(&s, &["loading…"]),
        }
    }
}

#[test]
fn membership_words_and_sort_names() {
    use club_admin::app::model::words::{progress, status_word};
    let cases = [
        (MembershipStatus::Pending, "รอพิจารณา", "pending"),
        (MembershipStatus::Approved, "อนุมัติแล้ว", "approved"),
        (MembershipStatus::Declined, "ปฏิเสธแล้ว", "declined"),
    ];
    for (s, thai, english) in cases {
        assert_eq!(status_word(Lang::Thai, &s), th(thai));
        assert_eq!(status_word(Lang::English, &s), english);
    }
    let other = MembershipStatus::Other("waitlisted".into());
    assert_eq!(
        status_word(Lang::Thai, &other),
        "waitlisted",
        "the server's word"
    );
    assert_eq!(progress(Lang::Thai, RowAction::Delete), th("กำลังลบ…"));
    assert_eq!(progress(Lang::English, RowAction::Delete), "deleting…");
    for (s, english) in [
        (QueueSort::Server, "server order"),
        (QueueSort::Age, "oldest first"),
        (QueueSort::Club, "club"),
        (QueueSort::Status, "status"),
    ] {
        assert_eq!(s.label_in(Lang::English), english, "English as before");
        assert_ne!(s.label_in(Lang::Thai), english);
    }
}

#[test]
fn large_counts_are_written_as_before() {
    // Fluent's numbers carry no grouping: the title reads as the English format! did.
    assert_eq!(
        club_admin::tr!(Lang::English, "queue-title", n = 100_000usize),
        "Queue 100000"
    );
    assert_eq!(
        club_admin::tr!(Lang::Thai, "queue-count-pending", n = 12_345usize),
        th("รอพิจารณา 12345")
    );
}
