//! The dashboard on a phone: the narrow layout (below 60 columns) and every pop-up at the
//! sizes of a phone held upright or on its side, in English and Thai, through real keys and
//! real `TestBackend` frames.

use crate::common::answers::ApiAnswer;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::common::*;
use club_admin::app::model::*;
use club_admin::app::{KeyCode, Msg, update};
use club_admin::i18n::Lang;
use club_admin::runtime::lean::{LeanBackend, SharedSize};
use club_admin::text::{for_terminal, width};
use club_admin::ui::{Theme, view};
use ratatui::Terminal;
use ratatui::backend::{Backend, TestBackend};
use ratatui::buffer::Buffer;

/// The sizes a moderator's terminal has: a phone upright (40x16, 45x30, 50x25), on its side
/// (90x20), and the desktop's (60x20, 80x24, 120x40).
pub const SIZES: [(u16, u16); 7] = [
    (40, 16),
    (45, 30),
    (50, 25),
    (60, 20),
    (90, 20),
    (80, 24),
    (120, 40),
];

/// A club at the detailed level, both names, contacts.
pub fn club() -> club_admin::api::Club {
    serde_json::from_value(serde_json::json!({
        "id": id(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
        "description": {"en-US": "We build robots that sort the school's recycling", "th": "สร้างหุ่นยนต์แยกขยะของโรงเรียน"},
        "member_count": 22, "staff_count": 1,
        "contacts": [
            {"id": id(6), "type": "line", "value": "@robot", "name": {"en-US": "LINE group", "th": null}},
            {"id": id(7), "type": "phone", "value": "02-123-4567", "name": null}
        ]
    }))
    .expect("club")
}

/// Every screen of the tour: a name and the keys (from the queue at the size) that reach it.
pub fn tour(lang: Lang, w: u16, h: u16) -> Vec<(&'static str, Model)> {
    let mut out = Vec::new();
    let base = || {
        let mut m = loaded(
            ModelOptions {
                decision_delay: std::time::Duration::from_secs(5),
                ..options_in(lang)
            },
            sample_rows(),
        );
        let _ = update(&mut m, Msg::Resize(w, h));
        let rows = club_admin::ui::queue_rows(w, h, m.log().visible);
        let _ = update(&mut m, Msg::Layout { queue_rows: rows });
        m
    };
    let m = base();
    out.push(("queue", m.clone()));
    let mut d = m.clone();
    update(&mut d, key('j'));
    update(&mut d, code(KeyCode::Enter));
    out.push(("detail", d));
    let mut c = m.clone();
    show_club(&mut c, club());
    update(&mut c, key('c'));
    out.push(("club lookup", c.clone()));
    let mut n = c.clone();
    update(&mut n, code(KeyCode::Esc));
    update(&mut n, key('n'));
    out.push(("contact form", n));
    let mut x = m.clone();
    update(&mut x, key('?'));
    out.push(("help", x.clone()));
    update(&mut x, code(KeyCode::PageDown));
    update(&mut x, code(KeyCode::PageDown));
    out.push(("help scrolled", x));
    let mut s = m.clone();
    update(&mut s, key('S'));
    out.push(("sign-in", s));
    let mut del = m.clone();
    update(&mut del, key('j'));
    update(&mut del, key('D'));
    out.push(("confirm delete", del));
    let mut bulk = m.clone();
    update(&mut bulk, key('j'));
    update(&mut bulk, key(' '));
    update(&mut bulk, key(' '));
    update(&mut bulk, key('x'));
    out.push(("confirm bulk", bulk));
    let mut q = m.clone();
    update(&mut q, key('j'));
    update(&mut q, key('a'));
    let held = q.clone();
    out.push(("held", held));
    update(&mut q, key('q'));
    out.push(("quit with held", q));
    let mut r = m.clone();
    update(&mut r, key('j'));
    update(&mut r, key('a'));
    update(&mut r, ctrl('z'));
    let back = r.now() + chrono::Duration::seconds(60);
    update(&mut r, Msg::Resumed(back));
    out.push(("resume", r));
    let mut cmd = m.clone();
    update(&mut cmd, key(':'));
    typed(&mut cmd, "club robotics");
    out.push(("command line", cmd));
    let mut f = m.clone();
    update(&mut f, key('/'));
    typed(&mut f, "rob");
    out.push(("filter", f));
    let mut ids = m.clone();
    update(&mut ids, key('i'));
    out.push(("add ids", ids));
    out
}

/// A writer the test reads back.
#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a terminal shows in each cell: the text and the attributes that show.
fn looks(p: &vt100::Parser) -> Vec<(String, bool, bool, bool, bool)> {
    let s = p.screen();
    let (rows, cols) = s.size();
    let mut out = Vec::new();
    for r in 0..rows.get() {
        for c in 0..cols.get() {
            if let Some(cell) = s.cell(r, c) {
                let text = match cell.contents() {
                    "" => " ",
                    t => t,
                };
                out.push((
                    text.to_owned(),
                    cell.bold(),
                    cell.underline(),
                    cell.inverse(),
                    cell.dim(),
                ));
            }
        }
    }
    out
}

/// The dashboard's frame of `m` on a `w` x `h` screen.
fn frame_of(m: &Model, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view(f, m, &Theme::new(false))).expect("draw");
    t.backend().buffer().clone()
}

/// A terminal (vt100) fed by the dashboard's own backend (the lean one, as over SSH) frame
/// after frame, as ratatui's diff hands it the changes.
struct Screen {
    backend: LeanBackend<Sink>,
    out: Sink,
    vt: vt100::Parser,
    prev: Buffer,
}

impl Screen {
    fn new(w: u16, h: u16) -> Screen {
        let out = Sink::default();
        let nz = |n: u16| std::num::NonZero::new(n).expect("a size");
        Screen {
            backend: LeanBackend::sized(out.clone(), SharedSize::new(w, h)),
            out,
            vt: vt100::Parser::new(nz(h), nz(w), 0),
            prev: Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h)),
        }
    }

    /// Draws `next` over what the screen shows (only the cells that changed are written).
    fn draw(&mut self, next: &Buffer) {
        let diff = self.prev.diff(next);
        self.backend.draw(diff.iter().copied()).expect("draw");
        Backend::flush(&mut self.backend).expect("flush");
        let bytes = std::mem::take(&mut *self.out.0.borrow_mut());
        self.vt.process(&bytes);
        self.prev = next.clone();
    }
}

/// Asserts that `m` drawn over the frames before it (as the terminal shows it) equals `m`
/// drawn on a blank screen, which is what Ctrl-L draws: cell by cell, text and attributes.
fn same_as_redrawn(screen: &Screen, m: &Model, what: &str) {
    let (w, h) = (screen.prev.area.width, screen.prev.area.height);
    let mut fresh = Screen::new(w, h);
    fresh.draw(&frame_of(m, w, h));
    let (a, b) = (looks(&screen.vt), looks(&fresh.vt));
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    assert!(
        first.is_none(),
        "{what}: cell {:?} differs after Ctrl-L: {:?} then {:?}\n{}",
        first.map(|i| (i / usize::from(w), i % usize::from(w))),
        first.map(|i| &a[i]),
        first.map(|i| &b[i]),
        fresh.vt.screen().contents()
    );
}

/// The text inside the box whose top border holds `title` on the drawn `buf`, the borders
/// left out, its lines joined (trailing blanks cut): what the box says, words cut at a
/// line's end joined again. `None` when no such box is drawn whole (its four corners).
fn boxed(buf: &Buffer, title: &str) -> Option<String> {
    let (w, h) = (buf.area.width, buf.area.height);
    let row = |y: u16, from: u16, to: u16| -> String {
        (from..to)
            .map(|x| buf[(x, y)].symbol().to_owned())
            .collect()
    };
    for y in 0..h {
        let line = row(y, 0, w);
        if !line.contains(title) {
            continue;
        }
        // The box's left corner: the last '┌' before the title's first cell.
        let title_x = (0..w).find(|&x| row(y, x, w).starts_with(title))?;
        let left = (0..title_x).rev().find(|&x| buf[(x, y)].symbol() == "┌")?;
        let right = (title_x..w).find(|&x| buf[(x, y)].symbol() == "┐")?;
        let mut out = String::new();
        for yy in y + 1..h {
            if buf[(left, yy)].symbol() == "└" {
                return (buf[(right, yy)].symbol() == "┘").then_some(out);
            }
            out.push_str(row(yy, left + 1, right).trim_end());
        }
        return None;
    }
    None
}

/// What each screen of the tour must show, whole: words of its own (in the reader's
/// language) and, for a pop-up, its box from top to bottom.
fn check(name: &str, lang: Lang, buf: &Buffer, s: &str, w: u16, h: u16) {
    let what = format!("{name} {lang:?} {w}x{h}");
    let t = |k: &str| for_terminal(&club_admin::i18n::tr(lang, k)).into_owned();
    let thai = lang == Lang::Thai;
    assert_eq!(s.lines().count(), usize::from(h), "{what}");
    for l in s.lines() {
        assert!(
            width(l) <= usize::from(w),
            "{what}: a line wider than the screen: {l}"
        );
    }
    // The header: who, and the link, at every size.
    let head = s.lines().next().unwrap_or("");
    // The tour signs in as the moderator (`common::moderator`).
    assert!(
        head.contains("ton.j@mysk"),
        "{what}: who is signed in: {head}"
    );
    assert!(head.contains(&t("header-online")), "{what}: online: {head}");
    let boxed_text = |key: &str| {
        boxed(buf, &t(key)).unwrap_or_else(|| panic!("{what}: the box drawn whole:\n{s}"))
    };
    match name {
        "queue" | "held" => {
            for no in ["#51001", "#51002", "#51004"] {
                assert!(s.contains(no), "{what}: {no} whole:\n{s}");
            }
            let pending = for_terminal(&club_admin::app::model::words::status_word(
                lang,
                &club_admin::api::MembershipStatus::Pending,
            ))
            .into_owned();
            assert!(s.contains(&pending), "{what}: the status:\n{s}");
        }
        "detail" => {
            let text = boxed_text("detail-title");
            assert!(text.contains("#51001"), "{what}: {text}");
            let name = if thai { "สมชาย" } else { "Somchai" };
            assert!(text.contains(name), "{what}: {text}");
        }
        "club lookup" => {
            let text = boxed_text("club-title");
            assert!(text.contains("Robotics"), "{what}: {text}");
            // The narrow layout gives the club the whole body: its contacts are on screen.
            if is_narrow(w) || h >= 40 {
                assert!(text.contains("@robot"), "{what}: {text}");
            }
        }
        "contact form" => {
            let text = boxed_text("form-contact-title");
            assert!(
                text.contains(&t("form-contact-value").trim_end_matches(' ').to_owned()),
                "{what}: {text}"
            );
        }
        "help" => {
            let text = boxed_text("popup-help-title");
            assert!(text.contains("help"), "{what}: {text}");
        }
        "help scrolled" => {
            boxed_text("popup-help-title");
        }
        "sign-in" => {
            let text = boxed_text("popup-sign-in-title");
            let url = "http://127.0.0.1:9/auth/oauth/init";
            assert!(text.contains(url), "{what}: the address whole: {text}");
            assert!(
                text.contains(t("popup-sign-in-token").as_str()),
                "{what}: {text}"
            );
        }
        "confirm delete" => {
            let title = club_admin::app::model::popup::confirm_title(lang, RowAction::Delete);
            let text = boxed(buf, &for_terminal(&title)).unwrap_or_else(|| panic!("{what}:\n{s}"));
            let name = if thai { "สมชาย" } else { "Somchai" };
            assert!(text.contains(name), "{what}: the request named: {text}");
            assert!(
                text.contains(t("confirm-cancel").as_str()),
                "{what}: {text}"
            );
        }
        "confirm bulk" => {
            let title = club_admin::app::model::popup::confirm_title(lang, RowAction::Decline);
            let text = boxed(buf, &for_terminal(&title)).unwrap_or_else(|| panic!("{what}:\n{s}"));
            assert!(text.contains('2'), "{what}: {text}");
        }
        "quit with held" | "resume" => {
            let key = if name == "resume" {
                "popup-resume-title"
            } else {
                "popup-quit-title"
            };
            let text = boxed_text(key);
            let name = if thai { "สมชาย" } else { "Somchai" };
            assert!(text.contains(name), "{what}: the decision named: {text}");
            assert!(text.contains("Esc"), "{what}: the ways out: {text}");
        }
        "command line" => assert!(s.contains(":club robotics"), "{what}:\n{s}"),
        "filter" => assert!(s.contains("/rob"), "{what}:\n{s}"),
        "add ids" => {
            boxed_text("popup-add-ids-title");
        }
        _ => panic!("no check for {name}"),
    }
}

#[test]
fn every_screen_and_pop_up_is_drawn_whole_at_every_size_and_equals_itself_after_ctrl_l() {
    for lang in Lang::ALL {
        for (w, h) in SIZES {
            let mut screen = Screen::new(w, h);
            let queue = tour(lang, w, h).remove(0).1;
            for (name, mut m) in tour(lang, w, h) {
                // Drawn over the queue, as a moderator gets there.
                screen.draw(&frame_of(&queue, w, h));
                let buf = frame_of(&m, w, h);
                screen.draw(&buf);
                let s = screen_text(&m, w, h);
                check(name, lang, &buf, &s, w, h);
                same_as_redrawn(&screen, &m, &format!("{name} {lang:?} {w}x{h}"));
                let fx = update(&mut m, ctrl('l'));
                assert!(
                    fx.iter()
                        .any(|e| matches!(e, club_admin::app::Effect::Redraw))
                );
                assert_eq!(screen_text(&m, w, h), s, "{name} {lang:?} {w}x{h}: Ctrl-L");
            }
        }
    }
}

fn screen_text(m: &Model, w: u16, h: u16) -> String {
    screen(m, w, h)
}

/// The `/` and `:` prompt lines, typed into and erased key by key at 80x24 (and on a
/// phone), as the terminal shows them frame after frame, equal the same prompt redrawn
/// (Ctrl-L): no cell keeps an underline or a letter the prompt no longer has.
#[test]
fn the_prompt_lines_equal_themselves_redrawn_while_typing_and_erasing() {
    for lang in Lang::ALL {
        for (w, h) in [(80, 24), (45, 30), (120, 40), (40, 16)] {
            for (open, text) in [('/', "club:robotics"), (':', "filter status:pending")] {
                let mut m = tour(lang, w, h).remove(0).1;
                let mut screen = Screen::new(w, h);
                screen.draw(&frame_of(&m, w, h));
                let mut keys = vec![key(open)];
                keys.extend(text.chars().map(key));
                keys.extend((0..5).map(|_| code(KeyCode::Backspace)));
                keys.extend("xyz".chars().map(key));
                keys.push(code(KeyCode::Home));
                keys.push(code(KeyCode::Delete));
                keys.push(code(KeyCode::End));
                for (n, k) in keys.into_iter().enumerate() {
                    update(&mut m, k);
                    screen.draw(&frame_of(&m, w, h));
                    same_as_redrawn(&screen, &m, &format!("{open} key {n} {lang:?} {w}x{h}"));
                }
                update(&mut m, code(KeyCode::Esc));
                screen.draw(&frame_of(&m, w, h));
                same_as_redrawn(&screen, &m, &format!("{open} closed {lang:?} {w}x{h}"));
            }
        }
    }
}

/// The cell (column, row) where `text` begins on the drawn screen, searched from the
/// bottom (the hint bar) up.
fn where_is(m: &Model, w: u16, h: u16, text: &str) -> (u16, u16) {
    let buf = frame_of(m, w, h);
    for y in (0..h).rev() {
        for x in 0..w {
            let rest: String = (x..w).map(|x| buf[(x, y)].symbol().to_owned()).collect();
            if rest.starts_with(text) {
                return (x, y);
            }
        }
    }
    panic!("{text:?} is not on screen:\n{}", screen(m, w, h))
}

/// A terminal's mouse event at (`x`, `y`) as the runtime turns it into a message.
fn mouse(
    m: &Model,
    w: u16,
    h: u16,
    kind: crossterm::event::MouseEventKind,
    x: u16,
    y: u16,
) -> Option<Msg> {
    let ev = crossterm::event::MouseEvent {
        kind,
        column: x,
        row: y,
        modifiers: crossterm::event::KeyModifiers::NONE,
    };
    club_admin::runtime::event_loop::to_msg(crossterm::event::Event::Mouse(ev), (w, h), m)
}

/// A tap (left button down) on `text` as drawn.
fn tap_on(m: &mut Model, w: u16, h: u16, text: &str) -> Vec<club_admin::app::Effect> {
    let (x, y) = where_is(m, w, h, text);
    let left = crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left);
    match mouse(m, w, h, left, x, y) {
        Some(msg) => update(m, msg),
        None => panic!("a tap on {text:?} does nothing"),
    }
}

#[test]
fn taps_select_rows_open_and_close_the_detail_and_press_the_hints() {
    for lang in Lang::ALL {
        for (w, h) in [(45u16, 30u16), (40, 16), (90, 20)] {
            let what = format!("{lang:?} {w}x{h}");
            let t = |k: &str| for_terminal(&club_admin::i18n::tr(lang, k)).into_owned();
            let mut m = tour(lang, w, h).remove(0).1;
            // A tap on a row selects it.
            tap_on(&mut m, w, h, "#51002");
            let selected = m
                .queue()
                .selected()
                .and_then(|i| i.school_number().map(str::to_owned));
            assert_eq!(selected.as_deref(), Some("51002"), "{what}");
            if is_narrow(w) {
                // A second tap on it opens its detail; the hint "back" closes it.
                tap_on(&mut m, w, h, "#51002");
                assert!(m.detail_open(), "{what}: the detail is open");
                assert!(screen(&m, w, h).contains(&t("detail-title")), "{what}");
                tap_on(&mut m, w, h, &format!("Esc {}", t("hint-narrow-back")));
                assert!(!m.detail_open(), "{what}: back on the queue");
            }
            // The hint "x decline" declines (held for its grace period): no x key pressed.
            tap_on(&mut m, w, h, &format!("x {}", t("hint-decline")));
            assert_eq!(m.held().len(), 1, "{what}: the decline is held");
            // "z undo" takes it back.
            tap_on(&mut m, w, h, &format!("z {}", t("hint-undo")));
            assert!(m.held().is_empty(), "{what}: undone");
            // The help opens from its hint, scrolls with the wheel (a swipe) and closes from
            // its own hint: no Esc key.
            tap_on(&mut m, w, h, &format!("? {}", t("hint-help")));
            assert!(m.popup().is_some(), "{what}: the help is open");
            let down = crossterm::event::MouseEventKind::ScrollDown;
            for _ in 0..3 {
                let msg = mouse(&m, w, h, down, 5, 5).expect("the wheel is a message");
                update(&mut m, msg);
            }
            // Tell the model how far the help scrolls as drawn, as the event loop does.
            let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
            let mut limits = None;
            term.draw(|f| limits = Some(club_admin::ui::view_scrolls(f, &m, &Theme::new(false))))
                .expect("draw");
            update(&mut m, Msg::Scrolled(limits.expect("limits")));
            assert!(
                matches!(m.popup(), Some(club_admin::app::Popup::Help { scroll, .. }) if *scroll > 0),
                "{what}: the wheel scrolled the help"
            );
            tap_on(&mut m, w, h, &format!("Esc/? {}", t("popup-hint-close")));
            assert!(m.popup().is_none(), "{what}: closed by a tap");
        }
    }
}

/// The header keeps who is signed in, the link and what the account cannot do at every
/// width from the narrowest supported up (a 0.9 server, where no one can approve; a session
/// that expired): the e-mail is cut first, never the state.
#[test]
fn the_header_keeps_who_online_and_what_cannot_be_done_at_every_width() {
    use club_admin::api::UpdateRoute;
    for lang in Lang::ALL {
        let t = |k: &str| for_terminal(&club_admin::i18n::tr(lang, k)).into_owned();
        let notice = t("header-cannot-decide-short");
        let long = club_admin::tr!(lang, "status-cannot-decide-server");
        let admin_on = |route| loaded_as_admin_on(options_in(lang), sample_rows(), route);
        let mut expired = admin_on(UpdateRoute::Missing);
        expire_session(&mut expired);
        let cases = [
            (admin_on(UpdateRoute::Missing), "online"),
            (expired, "expired"),
        ];
        for (m, case) in cases {
            for w in MIN_SIZE.0..=160 {
                let head = screen(&m, w, 24).lines().next().unwrap_or("").to_owned();
                let what = format!("{lang:?} {case} {w} columns: {head}");
                // The e-mail, cut to no fewer than four letters where the states take the
                // rest (Thai, 40 columns, expired: "admi…").
                assert!(head.contains("admi"), "who: {what}");
                if w >= 46 {
                    assert!(head.contains("admin@"), "who: {what}");
                }
                // With the session expired, a phone's header keeps who and "expired" first:
                // nothing can be done before a sign-in.
                if case == "online" || w >= 52 {
                    // An administrator reviews only (api-notes.md, "Who may do what"): that
                    // notice stands for what cannot be done, before the server's.
                    let review = t("header-review-only-short");
                    assert!(
                        head.contains(&notice)
                            || head.contains(for_terminal(&long).as_ref())
                            || head.contains(&review),
                        "what cannot be done: {what}"
                    );
                }
                if case == "online" {
                    assert!(head.contains(&t("header-online")), "online: {what}");
                } else {
                    assert!(
                        head.contains(&t("header-session-expired-short"))
                            || head.contains(&t("header-session-expired")),
                        "expired: {what}"
                    );
                }
                assert!(width(&head) <= usize::from(w), "{what}");
            }
        }
    }
}

/// The help wraps each row inside its columns at every width: an action's name or a text's
/// next line never starts at the box's left edge (only section titles do).
#[test]
fn the_help_never_wraps_an_action_name_to_the_left_edge() {
    let names: Vec<&str> = club_admin::app::keymap::Keymap::default()
        .help_rows_offered(club_admin::app::Offered {
            read_only: false,
            decisions: true,
            delete: true,
            club_shown: true,
            contact: true,
            signed_out: false,
            suspend: true,
        })
        .into_iter()
        .map(|(_, _, name, _)| name)
        .collect();
    for lang in Lang::ALL {
        for w in [40u16, 45, 50, 60, 70, 80, 90, 120] {
            let mut m = tour(lang, w, 200).remove(0).1;
            update(&mut m, key('?'));
            let buf = frame_of(&m, w, 200);
            let title = for_terminal(&club_admin::i18n::tr(lang, "popup-help-title")).into_owned();
            let text_rows: Vec<String> = {
                let s = screen(&m, w, 200);
                let lines: Vec<&str> = s.lines().collect();
                let top = lines
                    .iter()
                    .position(|l| l.contains(&title))
                    .expect("the help");
                lines[top + 1..]
                    .iter()
                    .take_while(|l| !l.contains('└'))
                    .map(|l| l.split('│').nth(1).unwrap_or("").to_owned())
                    .collect()
            };
            assert!(boxed(&buf, &title).is_some(), "{lang:?} {w}: drawn whole");
            for row in &text_rows {
                let first = row.split_whitespace().next().unwrap_or("");
                if names.contains(&first) {
                    assert!(
                        row.starts_with("  "),
                        "{lang:?} {w}: {first:?} at the left edge: {row:?}"
                    );
                }
            }
        }
    }
}

/// Thai names and clubs that start with a leading vowel (เ แ โ ใ ไ) or hold SARA AM, as
/// students type them.
fn thai_rows() -> Vec<club_admin::api::ClubRequest> {
    let rows = [
        (
            "เปรมฤดี",
            "แก้วมณีโชติช่วง",
            "ชุมนุมเครื่องดนตรีไทยและนาฏศิลป์",
            "50335",
        ),
        ("ไพลิน", "ใจงามเลิศล้ำ", "ชมรมโยคะเพื่อสุขภาพ", "51242"),
        ("โชติกา", "เกตุแก้วน้ำใจ", "ชุมนุมแนะแนวการศึกษาต่อ", "52027"),
        ("น้ำฝน", "ไม้ใบงาม", "ชุมนุมใบไม้สีเขียว", "50959"),
    ];
    rows.iter()
        .enumerate()
        .map(|(n, (first, last, club, no))| {
            serde_json::from_value(serde_json::json!({
                "id": id(700 + n as u128),
                "created_at": now().to_rfc3339(),
                "club": {"id": id(800 + n as u128), "name": {"en-US": null, "th": club}},
                "student": {"id": id(900 + n as u128), "student_id": no, "person": {
                    "first_name": {"en-US": null, "th": first},
                    "last_name": {"en-US": null, "th": last}}},
                "year": 2026,
                "membership_status": "pending",
            }))
            .expect("request")
        })
        .collect()
}

/// True when `s` parts a leading vowel from its consonant (a leading vowel last before `…`
/// or at a line's end) or halves a SARA AM (NIKHAHIT not followed by SARA AA).
fn parts_a_vowel(s: &str) -> Option<String> {
    for line in s.lines() {
        let chars: Vec<char> = line.trim_end().chars().collect();
        for (i, c) in chars.iter().enumerate() {
            let next = chars.get(i + 1).copied();
            let leading = ('\u{0E40}'..='\u{0E44}').contains(c);
            if leading && matches!(next, None | Some('…') | Some(' ') | Some('│')) {
                return Some(line.to_owned());
            }
            if *c == '\u{0E4D}' && next != Some('\u{0E32}') {
                return Some(line.to_owned());
            }
        }
    }
    None
}

#[test]
fn thai_names_and_clubs_are_cut_and_wrapped_with_their_vowels_whole_at_narrow_widths() {
    for w in MIN_SIZE.0..=70 {
        let mut m = loaded(options_in(Lang::Thai), thai_rows());
        update(&mut m, Msg::Resize(w, 30));
        let s = screen(&m, w, 30);
        for no in ["#50335", "#51242", "#52027", "#50959"] {
            assert!(s.contains(no), "{w}: {no} whole:\n{s}");
        }
        assert_eq!(parts_a_vowel(&s), None, "{w} columns, queue:\n{s}");
        // The detail and the club pane wrap the names: never after a leading vowel.
        for n in 0..4 {
            let mut d = m.clone();
            for _ in 0..n {
                update(&mut d, key('j'));
            }
            update(&mut d, code(KeyCode::Enter));
            let s = screen(&d, w, 30);
            assert_eq!(parts_a_vowel(&s), None, "{w} columns, detail {n}:\n{s}");
        }
    }
}

/// Issue 32: the narrow header counts what the server counts while pages are still to load
/// (as the window's title does), not the rows loaded so far.
#[test]
fn the_narrow_header_counts_the_server_s_pending_requests_while_pages_are_to_load() {
    for lang in Lang::ALL {
        let m = model_with_lang_more(lang);
        let head = screen(&m, 45, 30).lines().next().unwrap_or("").to_owned();
        let said = club_admin::tr!(lang, "queue-count-pending", n = 64usize);
        assert!(
            head.contains(for_terminal(&said).as_ref()),
            "{lang:?}: {head}"
        );
    }
}

/// The sample rows (three pending) as the first page of a listing whose server counts 64.
fn model_with_lang_more(lang: Lang) -> club_admin::app::Model {
    loaded_with_more(options_in(lang), sample_rows(), 64)
}

/// Issue 32: in the narrow layout Esc closes the activity log as `L` does (a phone has Esc
/// on its extra row, and the hint bar offers it), whether the log has the focus or not.
#[test]
fn esc_closes_the_activity_log_in_the_narrow_layout() {
    for lang in Lang::ALL {
        let mut m = loaded(options_in(lang), sample_rows());
        let _ = club_admin::app::update(&mut m, club_admin::app::Msg::Resize(45, 30));
        let _ = club_admin::app::update(&mut m, key('L'));
        assert!(m.log().visible, "L shows the log");
        let _ = club_admin::app::update(&mut m, code(club_admin::app::KeyCode::Esc));
        assert!(!m.log().visible, "{lang:?}: Esc closed it");
        assert_eq!(m.focus(), club_admin::app::Pane::Queue);
        // Wide, Esc only cancels: the log stays.
        let _ = club_admin::app::update(&mut m, club_admin::app::Msg::Resize(120, 40));
        let _ = club_admin::app::update(&mut m, key('L'));
        let _ = club_admin::app::update(&mut m, code(club_admin::app::KeyCode::Esc));
        assert!(m.log().visible, "{lang:?}: wide, the log stays");
    }
}

/// Issue 32: at a phone's width the status line cuts a request's long name first, so what
/// happened to it stays in sight: a held decision's undo key, and the word "failed" of a
/// refused one (whose whole text is in the log). English and Thai, at 40x16 and 45x30.
#[test]
fn the_status_line_cuts_the_name_not_what_happened_at_phone_widths() {
    use club_admin::app::ApiCall;
    let long = || {
        vec![request(
            id(1),
            "pending",
            "51234",
            Some(("Nattawut Srisukwattanakul", "ณัฐวุฒิ ศรีสุขวัฒนากุล")),
            ("Science and Technology Club", "ชุมนุมวิทยาศาสตร์และเทคโนโลยี"),
            2026,
            1,
        )]
    };
    for lang in Lang::ALL {
        let o = ModelOptions {
            decision_delay: std::time::Duration::from_secs(5),
            ..options_in(lang)
        };
        let mut m = loaded(o, long());
        let _ = update(&mut m, key('x'));
        let undo = club_admin::tr!(lang, "status-held-undo", key = "z");
        let held = club_admin::tr!(
            lang,
            "status-held",
            action = "decline",
            what = "",
            seconds = 5
        );
        let declining = held
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        for (w, h) in [(40, 16), (45, 30)] {
            let _ = update(&mut m, Msg::Resize(w, h));
            let s = screen(&m, w, h);
            let line = s
                .lines()
                .find(|l| l.starts_with(&declining))
                .unwrap_or_default();
            assert!(line.contains('…'), "the name is cut: {line:?}");
            assert!(
                line.contains(&undo),
                "{lang:?} {w}x{h}: {undo:?} in {line:?}\n{s}"
            );
        }
        let fx = later(&mut m, std::time::Duration::from_secs(6));
        let rid = calls(&fx)
            .into_iter()
            .find(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. }))
            .map(|(rid, _)| rid)
            .expect("the decline is sent");
        let refusal = forbidden("Club request cannot be changed now");
        let _ = answer(&mut m, rid, ApiAnswer::Updated(Err(refusal)));
        let failed = club_admin::tr!(
            lang,
            "status-action-failed",
            action = "",
            label = "",
            error = ""
        );
        let failed = failed.trim().trim_end_matches(':').trim();
        let decline = club_admin::tr!(lang, "status-verb", action = "decline");
        for (w, h) in [(40, 16), (45, 30)] {
            let _ = update(&mut m, Msg::Resize(w, h));
            let s = screen(&m, w, h);
            let line = s
                .lines()
                .find(|l| l.starts_with(&decline))
                .unwrap_or_default();
            assert!(
                line.contains(failed),
                "{lang:?} {w}x{h}: {failed:?} in {line:?}\n{s}"
            );
            assert!(line.contains('…'), "the name is cut: {line:?}");
        }
        crate::fast::edges::same_after_redraw(&mut m);
    }
}

/// Issue 32: the club pane offers `n` only to an account that may add the club's contacts
/// (its footer line, and the hint bar on a phone, where it was never offered), and says on
/// its border that more lines are below, with the key; English and Thai.
#[test]
fn the_club_pane_offers_new_contact_only_where_allowed_and_shows_there_is_more() {
    for lang in Lang::ALL {
        let new_contact = format!("n {}", club_admin::i18n::tr(lang, "hint-new-contact"));
        let staff = loaded(options_in(lang), sample_rows());
        let admin = loaded_as_admin(options_in(lang), sample_rows());
        for (mut m, may) in [(staff, true), (admin, false)] {
            show_club(&mut m, club());
            let wide = screen(&m, 120, 40);
            let read = club_admin::tr!(lang, "club-footer-read", level = "\u{1}");
            let prefix = read.split('\u{1}').next().unwrap_or_default();
            let footer = wide
                .lines()
                .find(|l| l.contains(prefix))
                .unwrap_or_else(|| panic!("the club's footer:\n{wide}"));
            assert_eq!(footer.contains("· n"), may, "{lang:?} may={may}: {footer}");
            // On a phone: the club pane, its hints.
            let _ = update(&mut m, Msg::Resize(45, 30));
            let _ = update(&mut m, code(KeyCode::Tab));
            assert_eq!(m.focus(), Pane::Club);
            // The hint bar: the last two lines of a phone's screen.
            let phone = screen(&m, 45, 30);
            let bar: Vec<&str> = phone.lines().rev().take(2).collect();
            let offered = bar.iter().any(|l| l.contains(&new_contact));
            assert_eq!(offered, may, "{lang:?} may={may}:\n{phone}");
            crate::fast::edges::same_after_redraw(&mut m);
        }
        // At 80x24 the club's lines go past the pane's edge: its border says so.
        let mut m = loaded(options_in(lang), sample_rows());
        show_club(&mut m, club());
        let _ = update(&mut m, code(KeyCode::Tab));
        let drawn = screen(&m, 80, 24);
        assert!(drawn.contains("↓ j"), "{lang:?}:\n{drawn}");
    }
}

/// Issue 32: the activity log on a phone begins with a whole entry (its time first), not
/// the tail of one cut by the pane's top edge.
#[test]
fn the_activity_log_on_a_phone_begins_with_a_whole_entry() {
    for lang in Lang::ALL {
        let mut m = loaded_as_admin(options_in(lang), sample_rows());
        // Refusals, each logged whole (long: they wrap over several lines at 40 columns).
        for k in ['a', 'x', 'D', 'a', 'x', 'D', 'a'] {
            let _ = update(&mut m, key(k));
            let _ = update(&mut m, code(KeyCode::Esc));
        }
        let _ = update(&mut m, Msg::Resize(40, 16));
        let _ = update(&mut m, key('L'));
        assert!(m.log().visible);
        let s = screen(&m, 40, 16);
        let lines: Vec<&str> = s.lines().collect();
        let top = lines
            .iter()
            .position(|l| {
                l.starts_with('┌')
                    && l.contains(&club_admin::tr!(
                        lang,
                        "log-title",
                        n = m.log().entries().len()
                    ))
            })
            .unwrap_or_else(|| panic!("the log's box:\n{s}"));
        let first = lines[top + 1].trim_start_matches('│');
        let time = first.split_whitespace().next().unwrap_or_default();
        assert!(
            time.len() == 8 && time.chars().filter(|c| *c == ':').count() == 2,
            "{lang:?}: the top line is an entry's start: {first:?}\n{s}"
        );
    }
}

/// `n` pending requests of one club, their school numbers `5000k`.
fn pending_rows(n: u128) -> Vec<club_admin::api::ClubRequest> {
    (1..=n)
        .map(|k| {
            request(
                id(k),
                "pending",
                &format!("5{k:04}"),
                Some(("Somchai", "สมชาย")),
                ("Robotics Club", "ชุมนุมหุ่นยนต์"),
                2026,
                k as i64,
            )
        })
        .collect()
}

/// The approvals `fx` sends, with their request ids.
fn approvals(fx: &[club_admin::app::Effect]) -> Vec<(u64, uuid::Uuid)> {
    calls(fx)
        .into_iter()
        .filter_map(|(rid, c)| match c {
            club_admin::app::ApiCall::UpdateRequest { id, .. } => Some((rid, id)),
            _ => None,
        })
        .collect()
}

/// On a phone, a token whose expiry has passed (no call refused yet) is said in the header
/// ("expired") and the hint bar leads with `S`, as once the server said so; not before.
#[test]
fn on_a_phone_a_token_past_its_expiry_is_in_the_header_and_s_is_offered() {
    for lang in Lang::ALL {
        let t = |k: &str| for_terminal(&club_admin::i18n::tr(lang, k)).into_owned();
        let expired = t("header-session-expired-short");
        let sign_in = format!("S {}", t("hint-sign-in"));
        let o = ModelOptions {
            token_expires: Some(now() + chrono::Duration::minutes(10)),
            ..options_in(lang)
        };
        let mut m = loaded(o, sample_rows());
        let _ = update(&mut m, Msg::Resize(45, 30));
        let s = screen(&m, 45, 30);
        let head = s.lines().next().unwrap_or_default();
        assert!(!head.contains(&expired), "{lang:?} before: {head}");
        assert!(!s.contains(&sign_in), "{lang:?} before:\n{s}");
        let _ = later(&mut m, std::time::Duration::from_secs(11 * 60));
        let s = screen(&m, 45, 30);
        let head = s.lines().next().unwrap_or_default();
        assert!(head.contains(&expired), "{lang:?}: {head}\n{s}");
        assert!(head.contains("ton.j@"), "who stays: {head}");
        let hints: String = s.lines().rev().take(2).collect::<Vec<_>>().join("\n");
        assert!(hints.contains(&sign_in), "{lang:?}: {hints}\n{s}");
        let _ = update(&mut m, key('S'));
        assert!(matches!(m.popup(), Some(Popup::SignIn { .. })), "{lang:?}");
    }
}

/// A bulk's summary on a phone keeps its counts: its words give way ("approve 9/10 done,
/// 1 failed"), the full text one key away in the activity log.
#[test]
fn a_bulk_summary_keeps_its_counts_at_45_columns() {
    for lang in Lang::ALL {
        let mut m = model_with_lang(pending_rows(10), lang);
        let _ = update(&mut m, Msg::Resize(45, 30));
        for _ in 0..10 {
            let _ = update(&mut m, key(' '));
        }
        let _ = update(&mut m, key('a'));
        // The window goes first (8); each answer lets the next one go.
        let mut sent = approvals(&update(&mut m, key('y')));
        assert_eq!(sent.len(), 8, "the window of approvals sent");
        let mut k = 0;
        while k < sent.len() {
            let (rid, target) = sent[k];
            let a = if k == 3 {
                ApiAnswer::Updated(Err(forbidden("Club request cannot be changed now")))
            } else {
                let mut r = pending_rows(10)
                    .into_iter()
                    .find(|r| r.id == target)
                    .expect("a row");
                r.membership_status = Some(club_admin::api::MembershipStatus::Approved);
                ApiAnswer::Updated(Ok(reply(r)))
            };
            sent.extend(approvals(&answer(&mut m, rid, a)));
            k += 1;
        }
        assert_eq!(sent.len(), 10, "ten approvals sent");
        let action = club_admin::app::model::words::verb(lang, RowAction::Approve);
        let counts = club_admin::tr!(
            lang,
            "status-bulk-summary-short",
            action = action,
            ok = 9,
            total = 10
        );
        let failed = club_admin::tr!(lang, "status-bulk-summary-failed-short", n = 1);
        let more = club_admin::tr!(lang, "status-full-text", key = "L");
        let s = screen(&m, 45, 30);
        let line = s
            .lines()
            .find(|l| l.contains(for_terminal(&counts).as_ref()))
            .unwrap_or_default();
        assert!(
            line.contains(for_terminal(&failed).as_ref()),
            "{lang:?}: {failed:?} in {line:?}\n{s}"
        );
        assert!(line.contains(&more), "{lang:?}: {more:?} in {line:?}");
        assert!(width(line) <= 45, "{line}");
        // Where it fits, the summary is said whole.
        let wide = screen(&m, 120, 40);
        let full = status(&m);
        assert!(wide.contains(&full), "{lang:?}: {full:?}\n{wide}");
    }
}

/// A request marked for a bulk and decided in another session (`serve-ssh`) while the bulk
/// is under way loses its mark at once, on the phone's screen too; the bulk goes on.
#[test]
fn a_mark_goes_when_another_session_decides_the_row_during_a_bulk() {
    use club_admin::app::{Heard, Told};
    for lang in Lang::ALL {
        let o = ModelOptions {
            decision_delay: std::time::Duration::from_secs(5),
            ..options_in(lang)
        };
        let mut m = loaded(o, pending_rows(3));
        let _ = update(&mut m, Msg::Resize(45, 30));
        for _ in 0..3 {
            let _ = update(&mut m, key(' '));
        }
        let _ = update(&mut m, key('a'));
        let _ = update(&mut m, key('y'));
        assert_eq!(m.held().len(), 1, "the bulk is held for its grace period");
        let row_line = |m: &Model| {
            screen(m, 45, 30)
                .lines()
                .find(|l| l.contains("#50002"))
                .unwrap_or_default()
                .to_owned()
        };
        assert!(row_line(&m).starts_with('●'), "marked: {}", row_line(&m));
        let _ = update(
            &mut m,
            Msg::Heard(Told {
                id: id(2),
                heard: Heard::Decided(RowAction::Approve),
                by: Some("s1@school.example.ac.th".into()),
                at: now(),
            }),
        );
        let line = row_line(&m);
        assert!(!line.starts_with('●'), "{lang:?}: the mark is gone: {line}");
        assert_eq!(m.queue().marked_ids(), vec![id(1), id(3)], "{lang:?}");
        // The bulk goes on: its three approvals leave when the grace period ends.
        let fx = later(&mut m, std::time::Duration::from_secs(6));
        assert_eq!(approvals(&fx).len(), 3, "{lang:?}");
    }
}
