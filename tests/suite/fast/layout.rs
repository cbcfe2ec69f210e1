//! Layout of the header and the queue in Thai and English (the tester's report on the
//! release binary at 80x24 and 120x40): cells are cut with "…", never clipped silently; a
//! student's number is never cut; SARA AM is never split; the table's columns do not move
//! while a decision is held; the user's e-mail has the header's room first; the queue title
//! gives way least useful first. Real `update` calls, real `TestBackend` frames.

use crate::common;
use crate::common::answers::ApiAnswer;

use club_admin::api::*;
use club_admin::app::model::*;
use club_admin::app::{KeyCode, Msg, update};
use club_admin::i18n::Lang;
use club_admin::text::{fit_width, for_terminal, width};
use common::*;
use serde_json::json;
use uuid::Uuid;

/// Thai as the terminal gets it (SARA AM drawn as NIKHAHIT + SARA AA).
fn th(s: &str) -> String {
    for_terminal(s).into_owned()
}

/// A student of the demo: (Thai name, English name, number, Thai club, English club).
type Student = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

/// Names and clubs as the demo server has them: long Thai names, SARA AM in club names.
const STUDENTS: [Student; 6] = [
    (
        "เปรมฤดี ศรีสุข",
        "Premruedee Srisuk",
        "50335",
        "ชุมนุมดาราศาสตร์",
        "Astronomy Club",
    ),
    (
        "กัญญาณัฐ จันทร์เพ็ญ",
        "Kanyanat Chanpen",
        "51242",
        "ชุมนุมภาษาไทยวันละคำ",
        "Thai Word of the Day Club",
    ),
    (
        "ภัทรพล พิทักษ์ธรรม",
        "Pattarapon Pitakdham",
        "52027",
        "ชุมนุมสหประชาชาติจำลอง",
        "Model United Nations Club",
    ),
    (
        "ศิริรัตน์ ทองคำ",
        "Sirirat Thongkham",
        "50959",
        "ชุมนุมคอมพิวเตอร์",
        "Computer Club",
    ),
    (
        "ณัฐธิดา แก้วมณี",
        "Nattida Kaewmanee",
        "51274",
        "ชุมนุมภาษาไทยวันละคำสำหรับทุกคนในโรงเรียน",
        "Thai Word of the Day Club for Everyone",
    ),
    (
        "ศุภณัฐ บุญมา",
        "Suppanat Boonma",
        "51041",
        "ชุมนุมน้ำใจนักกีฬาและการออกกำลังกาย",
        "Sportsmanship and Exercise Club",
    ),
];

fn demo_row(n: usize, s: &Student, status: &str) -> ClubRequest {
    let (th_name, en_name, number, th_club, en_club) = *s;
    let split = |full: &str| {
        let mut parts = full.splitn(2, ' ');
        let first = parts.next().unwrap_or("").to_owned();
        (first, parts.next().unwrap_or("").to_owned())
    };
    let ((th_first, th_last), (en_first, en_last)) = (split(th_name), split(en_name));
    serde_json::from_value(json!({
        "id": Uuid::from_u128(100 + n as u128),
        // Oldest first: the order of the list, the default sort of `model_with_lang`.
        "created_at": (now() - chrono::Duration::days(60 - 7 * n as i64)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(200 + n as u128), "name": {"en-US": en_club, "th": th_club}},
        "student": {"id": Uuid::from_u128(300 + n as u128), "student_id": number, "person": {
            "first_name": {"en-US": en_first, "th": th_first},
            "last_name": {"en-US": en_last, "th": th_last},
        }},
        "year": 2025,
        "membership_status": status,
    }))
    .expect("request json")
}

/// The demo's rows, all pending.
fn demo_rows() -> Vec<ClubRequest> {
    STUDENTS
        .iter()
        .enumerate()
        .map(|(n, s)| demo_row(n, s, "pending"))
        .collect()
}

/// The options of a reader of `lang` whose approve and decline are held for `delay` seconds.
fn demo_options(lang: Lang, delay: u64) -> ModelOptions {
    ModelOptions {
        decision_delay: std::time::Duration::from_secs(delay),
        ..options_in(lang)
    }
}

/// The demo's rows read in `lang`, approve and decline held for `delay` seconds.
fn demo(lang: Lang, delay: u64) -> Model {
    loaded(demo_options(lang, delay), demo_rows())
}

/// The queue's table lines (below the column header) of a screen: those holding a `#`.
fn table_lines(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .skip(3)
        .take_while(|l| l.starts_with('│'))
        .filter(|l| l.contains('#'))
        .collect()
}

/// True when `line` holds `text` whole, or cut to a prefix ending in "…".
fn whole_or_cut(line: &str, text: &str) -> bool {
    if line.contains(text) {
        return true;
    }
    text.char_indices()
        .skip(1)
        .any(|(i, _)| line.contains(&format!("{}…", &text[..i])))
}

/// Asserts every NIKHAHIT on `screen` is followed by SARA AA: SARA AM is never cut in half.
fn sara_am_whole(screen: &str, what: &str) {
    let chars: Vec<char> = screen.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if *c == '\u{0E4D}' {
            assert_eq!(
                chars.get(i + 1),
                Some(&'\u{0E32}'),
                "{what}: SARA AM cut in half:\n{screen}"
            );
        }
    }
}

/// Asserts each demo row is drawn with its number whole and its names whole or cut with "…".
fn rows_drawn_whole_or_cut(m: &Model, screen: &str, what: &str) {
    let lines = table_lines(screen);
    assert!(!lines.is_empty(), "{what}:\n{screen}");
    let thai = m.lang() == Lang::Thai;
    for (line, s) in lines.iter().zip(STUDENTS.iter()) {
        let (name, club) = if thai { (s.0, s.3) } else { (s.1, s.4) };
        // The number is never cut, so it is never read as another student's.
        assert!(
            line.contains(&format!(" #{} ", s.2)),
            "{what}: #{} cut: {line}",
            s.2
        );
        assert!(
            whole_or_cut(line, &th(name)),
            "{what}: name cut silently: {line}"
        );
        assert!(
            whole_or_cut(line, &th(club)),
            "{what}: club cut silently: {line}"
        );
    }
    sara_am_whole(screen, what);
}

#[test]
fn cells_are_cut_with_an_ellipsis_and_the_number_is_kept_whole() {
    for lang in Lang::ALL {
        for (w, h) in [(80, 24), (120, 40), (100, 30), (60, 15), (140, 40)] {
            let mut m = demo(lang, 5);
            let what = format!("{lang:?} {w}x{h}");
            rows_drawn_whole_or_cut(&m, &screen(&m, w, h), &what);
            // While a decision is held, as the tester saw it.
            update(&mut m, key('a'));
            rows_drawn_whole_or_cut(&m, &screen(&m, w, h), &format!("{what} held"));
        }
    }
}

#[test]
fn a_long_name_is_cut_before_the_number() {
    let m = demo(Lang::Thai, 5);
    let s = screen(&m, 120, 40);
    // 120 columns leave the student column too narrow for this name and number.
    assert!(s.contains(&format!("{}… #51242 ", th("กัญญาณัฐ จันท"))), "{s}");
    let m = demo(Lang::English, 5);
    let s = screen(&m, 120, 40);
    assert!(s.contains("Premruedee Sr… #50335 "), "{s}");
}

#[test]
fn sara_am_is_never_cut_in_half_at_any_width() {
    for lang in Lang::ALL {
        for w in 60..=140 {
            let mut m = demo(lang, 5);
            sara_am_whole(&screen(&m, w, 24), &format!("{lang:?} {w} columns"));
            update(&mut m, key('j'));
            update(&mut m, key('a'));
            sara_am_whole(&screen(&m, w, 24), &format!("{lang:?} {w} columns, held"));
        }
    }
    // The cut itself: "คำ" is drawn as "คํา" and never cut to "คํ".
    let club = "ชุมนุมภาษาไทยวันละคำสำหรับทุกคน";
    for max in 1..=width(&th(club)) + 1 {
        let cut = fit_width(club, max);
        assert!(width(&cut) <= max, "{cut:?} wider than {max}");
        sara_am_whole(&cut, &format!("cut to {max}"));
    }
    assert_eq!(fit_width("ชุมนุมภาษาไทยวันละคำ 2568", 17), "ชุมนุมภาษาไทยวันละ…");
    assert_eq!(fit_width("ນ້ຳ ຄຳ", 3), "ນ້\u{0ECD}\u{0EB2}…");
}

#[test]
fn columns_do_not_move_while_a_decision_is_held() {
    for lang in Lang::ALL {
        for (w, h) in [(80, 24), (120, 40)] {
            let mut m = demo(lang, 5);
            let before = screen(&m, w, h);
            update(&mut m, key('a'));
            let held = screen(&m, w, h);
            let what = format!("{lang:?} {w}x{h}");
            // The queue's part of each line (at 120 columns the detail pane is beside it).
            let queue = |s: &str| -> Vec<String> {
                s.lines()
                    .map(|l| l.split("││").next().unwrap_or("").to_owned())
                    .collect()
            };
            let (b, a) = (queue(&before), queue(&held));
            // The column header and every row but the held one are drawn as before.
            assert_eq!(a[2], b[2], "{what}: the column header moved");
            for n in 4..4 + STUDENTS.len() - 1 {
                assert_eq!(a[n], b[n], "{what}: row {n} moved");
            }
            // The held row counts down in the short form, whole, in the status column.
            let countdown = match lang {
                Lang::Thai => th("│  กำลังอนุมัติ 5 วิ  "),
                Lang::English => "│  approving 5 s ".to_owned(),
            };
            assert!(a[3].starts_with(&countdown), "{what}: {}", a[3]);
            // The undo key is offered by the hint bar and the status line.
            let undo = if lang == Lang::Thai {
                "z ถอน"
            } else {
                "z undo"
            };
            let bottom: Vec<&str> = held.lines().rev().take(2).collect();
            assert!(bottom.iter().all(|l| l.contains(undo)), "{what}:\n{held}");
        }
    }
}

#[test]
fn the_longest_countdown_fits_the_status_column() {
    for lang in Lang::ALL {
        let mut m = demo(lang, 60);
        let before = screen(&m, 80, 24);
        update(&mut m, key('x'));
        let s = screen(&m, 80, 24);
        let countdown = match lang {
            Lang::Thai => th("│  กำลังปฏิเสธ 60 วิ "),
            Lang::English => "│  declining 60 s ".to_owned(),
        };
        assert!(
            s.lines().nth(3).unwrap_or("").starts_with(&countdown),
            "{s}"
        );
        assert_eq!(before.lines().nth(2), s.lines().nth(2), "{lang:?}");
    }
}

fn user(email: &str, role: &str, admin: bool) -> User {
    serde_json::from_value(json!({
        "id": Uuid::from_u128(501), "email": email, "role": role, "is_admin": admin,
        "onboarded": true, "permissions": []
    }))
    .expect("user")
}

/// The header line of `m` drawn `w` wide.
fn header(m: &Model, w: u16) -> String {
    screen(m, w, 24).lines().next().unwrap_or("").to_owned()
}

/// Asserts how the header line `h` shows `email`. With `cut`: cut once, with "…", after a
/// part of the e-mail, and by the least (one blank is all the room left beside it). Without:
/// the whole e-mail and no "…" anywhere on the line.
fn cut_by_the_least(h: &str, email: &str, cut: bool, what: &str) {
    if !cut {
        assert!(h.contains(email), "{what}: the whole e-mail: {h}");
        assert!(!h.contains('…'), "{what}: nothing is cut: {h}");
        return;
    }
    assert_eq!(h.matches('…').count(), 1, "{what}: the e-mail is cut: {h}");
    let (before, after) = h.split_once('…').expect("one \"…\"");
    let kept = email
        .char_indices()
        .map(|(i, _)| &email[..i])
        .filter(|p| p.len() >= 12 && before.ends_with(p))
        .max_by_key(|p| p.len());
    assert!(kept.is_some(), "{what}: \"…\" cuts the e-mail: {h}");
    assert!(!h.contains(email), "{what}: cut, not whole: {h}");
    assert!(
        after.starts_with(' ') && !after[1..].starts_with(' '),
        "{what}: the e-mail is cut while room is left: {h}"
    );
}

#[test]
fn the_email_has_the_header_room_first() {
    let moderator = "ton.jaidee@student.school.example.ac.th";
    for lang in Lang::ALL {
        let m = loaded_as_admin(demo_options(lang, 5), demo_rows());
        // The admin (role staff): the whole e-mail, then that the account reviews only
        // (the role gives way first).
        let h = header(&m, 80);
        let review = club_admin::i18n::tr(lang, "header-review-only-short");
        let review = club_admin::text::for_terminal(&review).into_owned();
        let at = |t: &str| h.find(t);
        assert!(
            at("admin@school.example.ac.th").is_some() && at("admin@") < at(&review),
            "{lang:?}: {h}"
        );
        let email = "admin@school.example.ac.th";
        cut_by_the_least(&h, email, false, &format!("{lang:?} admin"));
        // The moderator: the API version never keeps its room while the e-mail is cut.
        let m = signed_in(demo_options(lang, 5), user(moderator, "student", false));
        let h = header(&m, 80);
        assert!(!h.contains("API"), "{lang:?}: {h}");
        assert!(h.contains(&moderator[..36]), "{lang:?}: {h}");
        if lang == Lang::English {
            assert!(h.contains(moderator), "{h}");
        }
        // Thai words take more room: the e-mail is cut there, by the least; whole in English.
        let cut = lang == Lang::Thai;
        cut_by_the_least(&h, moderator, cut, &format!("{lang:?} moderator"));
        // A 0.9 server, the moderator: the notice in its short form; the e-mail cut by the
        // least.
        let mut m = model_from(demo_options(lang, 5));
        let start = club_admin::app::start(&mut m);
        for (id, call) in calls(&start) {
            let payload = match call {
                club_admin::app::ApiCall::ProbeUpdateRoute => {
                    ApiAnswer::UpdateRoute(Ok(UpdateRoute::Missing))
                }
                club_admin::app::ApiCall::CurrentUser => {
                    ApiAnswer::User(Ok(reply(user(moderator, "student", false))))
                }
                _ => continue,
            };
            answer(&mut m, id, payload);
        }
        let email = moderator;
        let h = header(&m, 80);
        let notice = if lang == Lang::Thai {
            "อนุมัติ/ปฏิเสธไม่ได้"
        } else {
            "no approve/decline"
        };
        assert!(h.contains(notice), "{lang:?}: {h}");
        assert!(h.contains("ton.jaidee@student."), "{lang:?}: {h}");
        assert!(!h.contains("API"), "{lang:?}: {h}");
        cut_by_the_least(&h, email, true, &format!("{lang:?} 0.9"));
        // Wide: everything, the role in full.
        let h = header(&m, 160);
        let role = if lang == Lang::Thai {
            "(นักเรียน)"
        } else {
            "(student)"
        };
        let full = format!("{moderator} {role}");
        assert!(h.contains(&full), "{lang:?}: {h}");
        cut_by_the_least(&h, email, false, &format!("{lang:?} 160 wide"));
        assert!(h.contains("API 0.8.4"), "{lang:?}: {h}");
    }
}

/// The parts of the queue's title ("คิว 7 · แสดง 3 · ..."), from the screen's second line.
fn title_parts(screen: &str) -> Vec<String> {
    let line = screen.lines().nth(1).unwrap_or("");
    let inner = line.trim_start_matches('┌').trim_start();
    let end = inner.find(" ─").unwrap_or(inner.len());
    inner[..end].split(" · ").map(str::to_owned).collect()
}

/// A queue with every count: 2 pending, 1 approved, 1 declined, 1 being read (added by id
/// and not read yet: not "gone"), 2 marked, a filter showing some.
fn counted(lang: Lang, declined: bool) -> Model {
    let statuses = [
        "pending",
        "pending",
        "approved",
        if declined { "declined" } else { "pending" },
    ];
    let rows = STUDENTS
        .iter()
        .zip(statuses)
        .enumerate()
        .map(|(n, (s, st))| demo_row(n, s, st))
        .collect();
    let mut m = model_with_lang(rows, lang);
    update(
        &mut m,
        Msg::AddIds {
            text: Uuid::from_u128(999).to_string(),
            origin: club_admin::app::IdsFrom::Dialog,
        },
    );
    update(&mut m, key(' '));
    update(&mut m, key(' '));
    update(&mut m, key('/'));
    typed(&mut m, "5");
    update(&mut m, code(KeyCode::Enter));
    m
}

#[test]
fn the_title_gives_way_least_useful_first() {
    for lang in Lang::ALL {
        let t = |key: &str, n: usize| th(&club_admin::i18n::tr_args(lang, key, &[("n", n.into())]));
        for declined in [true, false] {
            let m = counted(lang, declined);
            let (pending, approved, declined_n, other) = m.queue().counts();
            let stats = m.queue().stats();
            assert_eq!((approved, other, stats.unread, stats.marked), (1, 0, 1, 2));
            // Most needed first: the parts kept at any width are a beginning of this list.
            let mut order = vec![
                t("queue-title", m.queue().items().len()),
                t("queue-shown", m.queue().visible().len()),
                t("queue-count-pending", pending),
                t("queue-count-marked", 2),
                t("queue-count-approved", 1),
            ];
            if declined_n > 0 {
                order.push(t("queue-count-declined", declined_n));
            }
            order.push(t("queue-count-reading", stats.unread));
            if declined_n == 0 {
                order.push(t("queue-count-declined", 0));
            }
            let mut seen = std::collections::BTreeSet::new();
            for w in 60..=160 {
                let parts = title_parts(&screen(&m, w, 24));
                let kept = order.iter().take_while(|p| parts.contains(p)).count();
                assert_eq!(
                    parts.len(),
                    kept,
                    "{lang:?} {w}: {parts:?} is not a beginning of {order:?}"
                );
                assert!(kept >= 3, "{lang:?} {w}: {parts:?}");
                seen.insert(kept);
            }
            assert!(
                seen.len() > 2,
                "{lang:?}: the widths tried drop several parts"
            );
        }
    }
}

#[test]
fn the_title_with_a_filter_reads_well() {
    for lang in Lang::ALL {
        let mut m = demo(lang, 5);
        update(&mut m, key('/'));
        typed(&mut m, "zzzz");
        update(&mut m, code(KeyCode::Enter));
        let parts = title_parts(&screen(&m, 80, 24));
        let expected = match lang {
            Lang::Thai => ["คิว 6", "แสดง 0", "รอพิจารณา 6"],
            Lang::English => ["Queue 6", "0 shown", "6 pending"],
        };
        assert_eq!(&parts[..3], &expected.map(th), "{lang:?}");
    }
}
