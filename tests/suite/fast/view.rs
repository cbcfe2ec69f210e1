//! View tests: real `TestBackend` frames at 80x24 and 120x40 (insta snapshots for the text,
//! buffer checks where style matters).

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::*;
use club_admin::app::KeyCode;
use club_admin::app::model::*;
use club_admin::app::{Msg, Popup, update};
use club_admin::ui::{Theme, view};
use common::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Modifier;
use uuid::Uuid;

fn draw(m: &Model, w: u16, h: u16, color: bool) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view(f, m, &Theme::new(color))).expect("draw");
    t
}

fn text(t: &Terminal<TestBackend>) -> String {
    buffer_text(t.backend().buffer())
}

fn hostile_rows() -> Vec<ClubRequest> {
    let mut rows = sample_rows();
    let evil: ClubRequest = serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(7),
        "created_at": (now() - chrono::Duration::hours(5)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(70), "name": {"en-US": "Volunteer Service Club for Community Development and Environmental Sustainability", "th": null}},
        "student": {"id": Uuid::from_u128(71), "student_id": "5\u{1b}[2J1\u{7}", "person": {
            "first_name": {"en-US": "Evil\u{1b}]0;pwned\u{7}\u{1b}[31mRed\u{202e}txet", "th": null},
            "last_name": {"en-US": "\u{1b}]52;c;ZXZpbA==\u{7}กิ๊กฺฺฺ๊๊๊ 👩🏽‍💻 王小明", "th": null}}},
        "year": 2026,
        "membership_status": "pending"
    })).expect("json");
    rows.push(evil);
    rows
}

#[test]
fn queue_at_120x40() {
    let m = model_with(hostile_rows());
    insta::assert_snapshot!("queue_120x40", text(&draw(&m, 120, 40, true)));
}

#[test]
fn queue_at_80x24() {
    let m = model_with(hostile_rows());
    insta::assert_snapshot!("queue_80x24", text(&draw(&m, 80, 24, true)));
}

#[test]
fn no_control_characters_reach_the_terminal_and_rows_keep_their_width() {
    let mut m = model_with(hostile_rows());
    update(&mut m, key('G'));
    for (w, h) in [(80, 24), (120, 40)] {
        let t = draw(&m, w, h, true);
        let buf = t.backend().buffer();
        for cell in buf.content() {
            assert!(
                !cell
                    .symbol()
                    .chars()
                    .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)),
                "control in {:?}",
                cell.symbol()
            );
        }
        let s = text(&t);
        assert!(
            s.contains("Evil") && s.contains("Red"),
            "the printable part is shown"
        );
        assert!(!s.contains("pwned"), "the OSC title payload is dropped");
        for line in s.lines() {
            assert!(
                club_admin::text::width(line) <= w as usize,
                "row wider than the terminal: {line}"
            );
        }
    }
}

#[test]
fn errors_loading_and_acting_rows() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |_| true)[0];
    // id 2 now selected; make id 4 fail and add an unloaded id.
    let fx2 = update(&mut m, key('x'));
    let put2 = api_ids(&fx2, |c| {
        matches!(c, club_admin::app::ApiCall::UpdateRequest { .. })
    })[0];
    answer(
        &mut m,
        put2,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    update(
        &mut m,
        Msg::AddIds {
            text: Uuid::from_u128(99).to_string(),
            origin: club_admin::app::IdsFrom::Dialog,
        },
    );
    let s = text(&draw(&m, 120, 40, true));
    assert!(s.contains("approving…"), "{s}");
    assert!(s.contains("loading…"), "{s}");
    let _ = put;
    insta::assert_snapshot!("states_120x40", s);
}

#[test]
fn empty_and_loading_queue() {
    let mut m = model();
    let _ = club_admin::app::start(&mut m);
    let s = text(&draw(&m, 80, 24, true));
    assert!(s.contains("Loading"), "{s}");
    let m = model_with(Vec::new());
    let s = text(&draw(&m, 80, 24, true));
    assert!(s.contains("No pending requests"), "{s}");
    insta::assert_snapshot!("empty_80x24", s);
}

#[test]
fn selection_stays_visible_without_colour() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    let t = draw(&m, 120, 40, false);
    let buf = t.backend().buffer();
    // Row 3 is the second data row (header line, border, column header, first row).
    let y = 4;
    let reversed = (1..60)
        .filter(|&x| buf[(x, y)].modifier.contains(Modifier::REVERSED))
        .count();
    assert!(reversed > 40, "selected row in reverse video: {reversed}");
    for cell in buf.content() {
        assert_eq!(
            cell.fg,
            ratatui::style::Color::Reset,
            "no colour under NO_COLOR"
        );
    }
    let t = draw(&m, 120, 40, true);
    let coloured = t
        .backend()
        .buffer()
        .content()
        .iter()
        .filter(|c| c.fg != ratatui::style::Color::Reset)
        .count();
    assert!(coloured > 0);
}

#[test]
fn too_small_shows_a_notice() {
    let m = model_with(sample_rows());
    let s = text(&draw(&m, 40, 10, true));
    assert!(s.contains("Terminal too small"), "{s}");
}

#[test]
fn popups() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let s = text(&draw(&m, 120, 40, true));
    assert!(
        s.contains("Delete club request 00000000-0000-0000-0000-000000000001?"),
        "{s}"
    );
    assert!(
        s.contains("[ Cancel ]") && s.contains("cannot be undone"),
        "{s}"
    );
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('?'));
    let s = text(&draw(&m, 120, 40, true));
    assert!(
        s.contains("approve (marked rows, else the selected one)"),
        "{s}"
    );
    insta::assert_snapshot!("help_120x40", s);
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('S'));
    update(&mut m, Msg::Paste("secret-token-value".into()));
    let s = text(&draw(&m, 80, 24, true));
    assert!(s.contains("http://127.0.0.1:9/auth/oauth/init"), "{s}");
    assert!(!s.contains("secret-token-value"), "the token is masked");
    assert!(s.contains("••••"), "{s}");
    assert!(matches!(m.popup(), Some(Popup::SignIn { .. })));
}

#[test]
fn header_shows_user_token_expiry_and_connection() {
    let m = model_with(sample_rows());
    let s = text(&draw(&m, 120, 40, true));
    let first = s.lines().next().unwrap_or("");
    assert!(first.contains("ton.j@mysk.ac.th (student)"), "{first}");
    assert!(first.contains("token 7h 59m"), "{first}");
    assert!(first.contains("online"), "{first}");
}

#[test]
fn club_pane_and_log() {
    let mut m = model_with(sample_rows());
    show_club(&mut m, serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
        "description": {"en-US": null, "th": "สร้างหุ่นยนต์"}, "member_count": 22, "staff_count": 3,
        "contacts": [{"id": Uuid::from_u128(6), "type": "line", "value": "@robot\u{1b}[2J", "name": {"en-US": "LINE group", "th": null}}]
    })).expect("club"));
    update(&mut m, key('L'));
    update(&mut m, key('j'));
    let fx = update(&mut m, key('a'));
    let put = api_ids(&fx, |_| true)[0];
    answer(
        &mut m,
        put,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    let s = text(&draw(&m, 120, 40, true));
    assert!(
        s.contains("ชุมนุมหุ่นยนต์") && s.contains("@robot") && s.contains("22 members"),
        "{s}"
    );
    assert!(
        s.contains("Activity (2)") && s.contains("staff member of the club"),
        "{s}"
    );
    insta::assert_snapshot!("club_and_log_120x40", s);
}

/// The sample rows read by a Thai user from the start: names in Thai first, hints, help
/// titles and dates in Thai, years in the Buddhist Era.
fn thai(o: ModelOptions) -> Model {
    let o = ModelOptions {
        lang: club_admin::i18n::Lang::Thai,
        year_style: club_admin::i18n::dates::YearStyle::Be,
        ..o
    };
    loaded(o, sample_rows())
}

#[test]
fn queue_in_thai_at_120x40_and_80x24() {
    let m = thai(options());
    let wide = text(&draw(&m, 120, 40, true));
    assert!(
        wide.contains("ชุมนุมหุ่นยนต์") && wide.contains("2569"),
        "{wide}"
    );
    assert!(
        wide.contains("อนุมัติ") && wide.contains("ออก"),
        "Thai hints:\n{wide}"
    );
    insta::assert_snapshot!("queue_th_120x40", wide);
    let narrow = text(&draw(&m, 80, 24, true));
    assert!(
        narrow.contains("ออก"),
        "quit stays in the hint bar:\n{narrow}"
    );
    insta::assert_snapshot!("queue_th_80x24", narrow);
}

#[test]
fn help_in_thai_is_searchable_in_thai() {
    let mut m = thai(options());
    update(&mut m, key('?'));
    let screen = text(&draw(&m, 120, 40, true));
    assert!(
        screen.contains("ใช้ได้ทุกที่"),
        "scope titles in Thai:\n{screen}"
    );
    insta::assert_snapshot!("help_th_120x40", screen);
    typed(&mut m, "อนุมัติ");
    let found = text(&draw(&m, 120, 40, true));
    assert!(found.contains("approve"), "{found}");
    assert!(!found.contains("page_down"), "{found}");
}

/// The detail and club panes read by a Thai user: field names, statuses, both names (Thai
/// first), the row's error, the club's counts, contacts and fetch level in Thai.
#[test]
fn detail_and_club_in_thai_at_120x40_and_80x24() {
    let mut m = thai(options());
    // The club first (looked up by id), then a decision on the second row that fails.
    show_club(&mut m, serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
        "description": {"en-US": "We build robots", "th": "สร้างหุ่นยนต์"}, "member_count": 22, "staff_count": 3,
        "contacts": [
            {"id": Uuid::from_u128(6), "type": "line", "value": "@robot", "name": {"en-US": "LINE group", "th": null}},
            {"id": Uuid::from_u128(7), "type": "phone", "value": "02-123-4567", "name": null}
        ]
    })).expect("club"));
    update(&mut m, key('j'));
    let fx = update(&mut m, key('x'));
    let put = api_ids(&fx, |c| {
        matches!(c, club_admin::app::ApiCall::UpdateRequest { .. })
    })[0];
    answer(
        &mut m,
        put,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    update(&mut m, key('k'));
    let wide = text(&draw(&m, 120, 40, true));
    let thai_text = |s: &str| club_admin::text::for_terminal(s).into_owned();
    assert!(
        wide.contains(&thai_text("ทำรายการล่าสุดไม่สำเร็จ"))
            && wide.contains(&thai_text("สมาชิก 22 คน"))
            && wide.contains(&thai_text("โทรศัพท์")),
        "{wide}"
    );
    insta::assert_snapshot!("detail_and_club_th_120x40", wide);
    let narrow = text(&draw(&m, 80, 24, true));
    assert!(narrow.contains(&thai_text("นักเรียน")), "{narrow}");
    insta::assert_snapshot!("detail_and_club_th_80x24", narrow);
}

#[test]
fn delete_confirmation_in_thai_at_80x24() {
    let mut m = thai(options());
    update(&mut m, key('j'));
    update(&mut m, key('D'));
    let s = text(&draw(&m, 80, 24, true));
    assert!(s.contains("ยืนยันการลบ") && s.contains("[ ยกเลิก ]"), "{s}");
    insta::assert_snapshot!("confirm_delete_th_80x24", s);
}

#[test]
fn sign_in_box_in_thai_at_80x24() {
    let mut m = thai(options());
    update(&mut m, key('S'));
    update(&mut m, code(KeyCode::Enter));
    let s = text(&draw(&m, 80, 24, true));
    assert!(
        s.contains("โทเคน:") && s.contains("ยังไม่ได้วางอะไรเลย"),
        "{s}"
    );
    insta::assert_snapshot!("sign_in_th_80x24", s);
}

#[test]
fn quit_with_decisions_held_in_thai_at_80x24() {
    let mut m = thai(ModelOptions {
        decision_delay: std::time::Duration::from_secs(30),
        ..options()
    });
    update(&mut m, key('j'));
    update(&mut m, key('a'));
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    let s = text(&draw(&m, 80, 24, true));
    assert!(s.contains("อยู่ต่อ"), "{s}");
    insta::assert_snapshot!("quit_held_th_80x24", s);
}

/// A request whose student and club names are 5,000 characters each (issue 31).
fn long_named_row() -> ClubRequest {
    let student = "Supercalifragilistic Expialidocious ".repeat(140);
    let club = "ชุมนุมหุ่นยนต์เพื่อการพัฒนา Robotics ".repeat(140);
    assert!(student.chars().count() >= 5000 && club.chars().count() >= 5000);
    serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(7),
        "created_at": (now() - chrono::Duration::hours(5)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(70), "name": {"en-US": club, "th": null}},
        "student": {"id": Uuid::from_u128(71), "student_id": "51234", "person": {
            "first_name": {"en-US": student, "th": null}, "last_name": {"en-US": "Jaidee", "th": null}}},
        "year": 2026,
        "membership_status": "pending"
    }))
    .expect("json")
}

/// Names of 5,000 characters are cut in the detail pane (ending in `…`), so that the club,
/// the academic year and the date asked stay in view: at 80x24 (the pane below the queue) and
/// on a phone's 45x30 (the detail opened with Enter), in real `TestBackend` frames.
#[test]
fn names_of_five_thousand_characters_leave_the_requests_fields_in_view() {
    for (w, h) in [(80u16, 24u16), (45, 30)] {
        let mut m = model_with(vec![long_named_row()]);
        update(&mut m, Msg::Resize(w, h));
        let rows = club_admin::ui::queue_rows(w, h, m.log().visible);
        update(&mut m, Msg::Layout { queue_rows: rows });
        if w < 60 {
            update(&mut m, code(KeyCode::Enter));
        }
        let s = text(&draw(&m, w, h, false));
        let shown = |field: &str| {
            s.lines()
                .any(|l| l.trim_start_matches(['│', ' ']).starts_with(field))
        };
        for field in ["student  #51234 Supercalifragilistic", "club     ชุมนุมหุ่นยนต์"]
        {
            assert!(shown(field), "{field:?} at {w}x{h}:\n{s}");
        }
        assert!(shown("year     2026"), "the year at {w}x{h}:\n{s}");
        assert!(shown("asked    "), "the date asked at {w}x{h}:\n{s}");
        assert!(s.contains('…'), "a cut name ends with an ellipsis:\n{s}");
    }
}

/// Ctrl-Z suspends only where there is a shell to go back to: a `serve-ssh` session's help
/// (`can_suspend` false) neither offers it nor says what a return from one does; a local
/// dashboard's help does, in English and in Thai.
#[test]
fn the_help_offers_suspend_only_where_ctrl_z_suspends() {
    for lang in [
        club_admin::i18n::Lang::English,
        club_admin::i18n::Lang::Thai,
    ] {
        for can_suspend in [true, false] {
            let mut m = Model::new(ModelOptions {
                can_suspend,
                lang,
                ..options()
            });
            update(&mut m, key('?'));
            typed(&mut m, "ctrl-z");
            let s = text(&draw(&m, 120, 40, true));
            assert_eq!(s.contains("Ctrl-Z"), can_suspend, "{lang:?}:\n{s}");
            if lang == club_admin::i18n::Lang::English {
                update(&mut m, code(KeyCode::Esc));
                update(&mut m, key('?'));
                typed(&mut m, "suspend");
                let s = text(&draw(&m, 120, 40, true));
                assert_eq!(s.contains("suspend to the shell"), can_suspend, "{s}");
            }
        }
    }
}
