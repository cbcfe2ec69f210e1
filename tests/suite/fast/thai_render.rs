//! Thai text drawn right: frames written through ratatui's real
//! `CrosstermBackend` into bytes, fed to the `vt100` terminal emulator. After every
//! incremental frame the emulated screen must equal a fresh full draw of the same frame, for
//! Thai names with stacked marks and SARA AM, Lao AM, wide CJK, emoji and zero-width
//! characters, scrolled like `Ctrl-D Ctrl-D Ctrl-U Ctrl-U`. A proptest checks that the width
//! the UI computes for cleaned text is the width the terminal advances.

use crate::common;
use crate::common::answers::ApiAnswer;

use std::cell::RefCell;
use std::io::Write;
use std::num::NonZeroU16;
use std::rc::Rc;

use club_admin::app::{Model, Msg, update};
use club_admin::text::{clean, for_terminal, width};
use club_admin::ui::{Theme, queue_rows, view};
use common::*;
use proptest::prelude::*;
use ratatui::backend::CrosstermBackend;
use ratatui::buffer::CellWidth;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph};
use ratatui::{Frame, Terminal, TerminalOptions, Viewport};
use serde_json::json;
use unicode_segmentation::UnicodeSegmentation;
use uuid::Uuid;

/// Names as students type them: stacked marks (mai tho over sara i, mai han-akat with mai
/// tho), SARA AM alone and after a tone mark, Lao AM, CJK, emoji sequences, zero-width and
/// invisible characters, an orphan mark at the start.
const NAMES: &[&str] = &[
    "น้ำ",
    "ปั้น",
    "กิ๋ว",
    "ทองคำ",
    "น้ำฝน ใจดี",
    "ชุมนุมภาษาไทยวันละคำ",
    "ศรีสุวรรณวิจิตรเลิศล้ำอำไพพงศ์",
    "ຄຳ ສີສຸວັນ",
    "王小明 Photography",
    "👩🏽‍💻 coder",
    "zero\u{200b}width\u{200d}joiner",
    "❤️ heart ⌚\u{fe0e}",
    "🇹🇭 ไทย",
    "\u{0e49}orphan mark",
    "กิ๊กฺฺฺ๊๊๊",
    "Somchai",
    "한국어 ᄀ\u{1161}",
    "नमस्ते का",
];

/// A writer the test keeps a handle on: ratatui's `CrosstermBackend` writes into it.
#[derive(Clone, Default)]
struct Bytes(Rc<RefCell<Vec<u8>>>);

impl Write for Bytes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn nz(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("non-zero size")
}

/// A ratatui terminal writing real escape sequences into bytes, and the emulator that reads
/// them.
struct Emulated {
    term: Terminal<CrosstermBackend<Bytes>>,
    out: Bytes,
    vt: vt100::Parser,
}

impl Emulated {
    fn new(w: u16, h: u16) -> Emulated {
        let out = Bytes::default();
        let term = Terminal::with_options(
            CrosstermBackend::new(out.clone()),
            TerminalOptions {
                viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
            },
        )
        .expect("terminal");
        Emulated {
            term,
            out,
            vt: vt100::Parser::new(nz(h), nz(w), 0),
        }
    }

    fn draw(&mut self, render: impl FnOnce(&mut Frame)) {
        self.term.draw(render).expect("draw");
        let bytes = std::mem::take(&mut *self.out.0.borrow_mut());
        self.vt.process(&bytes);
    }

    /// The screen as the eye sees it: one line of text per row (a cell never written and a
    /// written space both read as a space; the second half of a wide character is skipped)
    /// and, per cell, the attributes that show.
    fn screen(&self) -> Shown {
        let s = self.vt.screen();
        let (rows, cols) = s.size();
        let (rows, cols) = (rows.get(), cols.get());
        let mut lines = Vec::new();
        let mut attrs = Vec::new();
        for r in 0..rows {
            let mut line = String::new();
            for c in 0..cols {
                let Some(cell) = s.cell(r, c) else { continue };
                if cell.is_wide_continuation() {
                    continue;
                }
                if cell.has_contents() {
                    line.push_str(cell.contents());
                } else {
                    line.push(' ');
                }
                attrs.push(format!(
                    "{r},{c}:{:?}{:?}{}{}{}{}",
                    cell.fgcolor(),
                    cell.bgcolor(),
                    cell.bold(),
                    cell.italic(),
                    cell.underline(),
                    cell.inverse()
                ));
            }
            lines.push(line);
        }
        (lines, attrs)
    }
}

/// What a screen shows: rows of text, and the attributes of every cell.
type Shown = (Vec<String>, Vec<String>);

/// Draws `render` on a fresh terminal: what `Ctrl-L` would show.
fn full_draw(w: u16, h: u16, render: impl FnOnce(&mut Frame)) -> Shown {
    let mut e = Emulated::new(w, h);
    e.draw(render);
    e.screen()
}

fn assert_same(step: &str, incremental: &Shown, full: &Shown) {
    for (n, (a, b)) in incremental.0.iter().zip(&full.0).enumerate() {
        assert_eq!(
            a, b,
            "{step}: row {n} after incremental frames differs from a full redraw"
        );
    }
    for (a, b) in incremental.1.iter().zip(&full.1) {
        assert_eq!(a, b, "{step}: attributes differ from a full redraw");
    }
}

fn row(n: usize) -> serde_json::Value {
    let name = NAMES[n % NAMES.len()];
    let club = NAMES[(n * 7 + 3) % NAMES.len()];
    // Odd rows carry the name in the English field too (students do type Thai there).
    let en = if n % 2 == 1 {
        json!(format!("{name} {n}"))
    } else {
        json!(null)
    };
    json!({
        "id": Uuid::from_u128(1000 + n as u128),
        "created_at": (now() - chrono::Duration::minutes(37 * n as i64 + 5)).to_rfc3339(),
        "club": {"id": Uuid::from_u128(5000 + (n % 9) as u128), "name": {"en-US": if n.is_multiple_of(3) { json!(null) } else { json!(format!("{club} Club")) }, "th": format!("ชุมนุม{club}")}},
        "student": {"id": Uuid::from_u128(9000 + n as u128), "student_id": format!("5{n:04}"), "person": {
            "first_name": {"en-US": en, "th": name},
            "last_name": {"en-US": null, "th": NAMES[(n + 5) % NAMES.len()]},
        }},
        "year": 2026,
        "membership_status": "pending",
    })
}

fn thai_model(w: u16, h: u16) -> Model {
    let rows = (0..60)
        .map(|n| serde_json::from_value(row(n)).expect("request json"))
        .collect();
    let mut m = model_with(rows);
    let queue_rows = queue_rows(w, h, m.log().visible);
    let _ = update(&mut m, Msg::Layout { queue_rows });
    m
}

/// The real dashboard (`ui::view` over an `app::Model`), driven by keys.
#[test]
fn dashboard_scrolled_over_thai_names_equals_a_full_redraw() {
    for (w, h) in [(80u16, 24u16), (120, 40), (97, 30)] {
        let theme = Theme::new(true);
        let mut m = thai_model(w, h);
        let mut e = Emulated::new(w, h);
        e.draw(|f| view(f, &m, &theme));
        assert_same(
            &format!("{w}x{h} first frame"),
            &e.screen(),
            &full_draw(w, h, |f| view(f, &m, &theme)),
        );
        let steps: Vec<(&str, Msg)> = vec![
            ("Ctrl-D", ctrl('d')),
            ("Ctrl-D", ctrl('d')),
            ("Ctrl-U", ctrl('u')),
            ("Ctrl-U", ctrl('u')),
            ("j", key('j')),
            ("j", key('j')),
            ("G", key('G')),
            ("Ctrl-U", ctrl('u')),
            ("k", key('k')),
            ("g", key('g')),
            ("?", key('?')),
            ("Esc", code(club_admin::app::KeyCode::Esc)),
            ("Tab", code(club_admin::app::KeyCode::Tab)),
            ("Ctrl-D", ctrl('d')),
            ("Tab", code(club_admin::app::KeyCode::Tab)),
            ("Ctrl-D", ctrl('d')),
            ("Ctrl-U", ctrl('u')),
        ];
        let mut done = String::new();
        for (name, msg) in steps {
            let _ = update(&mut m, msg);
            done.push_str(name);
            done.push(' ');
            e.draw(|f| view(f, &m, &theme));
            assert_same(
                &format!("{w}x{h} after {done}"),
                &e.screen(),
                &full_draw(w, h, |f| view(f, &m, &theme)),
            );
        }
    }
}

/// ratatui widgets directly: a scrolling list of names and a paragraph beside it, with raw
/// (unsanitized) names passed through [`clean`] the way the UI does.
fn widgets_frame(f: &mut Frame, offset: usize, selected: usize, text: &[String]) {
    let area = f.area();
    let left = Rect::new(0, 0, area.width / 2, area.height);
    let right = Rect::new(area.width / 2, 0, area.width - area.width / 2, area.height);
    let items: Vec<ListItem> = text
        .iter()
        .enumerate()
        .map(|(n, t)| ListItem::new(format!("{n:>2} {}", clean(t, 30))))
        .collect();
    let mut state = ListState::default()
        .with_offset(offset)
        .with_selected(Some(selected));
    f.render_stateful_widget(
        List::new(items)
            .block(Block::default().borders(Borders::ALL).title(clean(
                &text[selected],
                left.width.saturating_sub(4) as usize,
            )))
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED)),
        left,
        &mut state,
    );
    let para: Vec<ratatui::text::Line> = text[offset..]
        .iter()
        .map(|t| ratatui::text::Line::from(clean(t, 60)))
        .collect();
    f.render_widget(
        Paragraph::new(para)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL)),
        right,
    );
}

#[test]
fn scrolling_widgets_over_thai_names_equals_a_full_redraw() {
    let text: Vec<String> = (0..80)
        .map(|n| {
            format!(
                "{} {}",
                NAMES[n % NAMES.len()],
                NAMES[(n * 5 + 1) % NAMES.len()]
            )
        })
        .collect();
    let (w, h) = (70u16, 20u16);
    let page = (h as usize - 2) / 2;
    let mut e = Emulated::new(w, h);
    let mut offset = 0usize;
    // Ctrl-D Ctrl-D Ctrl-U Ctrl-U, then single steps and a longer jump.
    let moves: [isize; 9] = [0, 1, 1, -1, -1, 3, 1, -2, -2];
    for (n, mv) in moves.iter().enumerate() {
        let delta = mv * page as isize;
        offset = offset.saturating_add_signed(delta).min(text.len() - 1);
        let selected = (offset + n) % text.len();
        e.draw(|f| widgets_frame(f, offset, selected, &text));
        assert_same(
            &format!("move {n} (offset {offset})"),
            &e.screen(),
            &full_draw(w, h, |f| widgets_frame(f, offset, selected, &text)),
        );
    }
}

/// What the emulator advances for `s` printed from column 0 of an empty wide row.
fn vt_advance(s: &str) -> usize {
    let mut vt = vt100::Parser::new(nz(2), nz(1000), 0);
    vt.process(s.as_bytes());
    let (row, col) = vt.screen().cursor_position();
    assert_eq!(row, 0, "{s:?} wrapped");
    col as usize
}

/// A zero-width joiner that joins nothing in its own grapheme is dropped: after a skin-tone
/// modifier, unicode-width (what ratatui measures a span's width with) reads it as an emoji
/// ZWJ sequence two cells wide where the buffer holds two graphemes of two cells each. The
/// first case is the one the property test below found (2026-11-24).
#[test]
fn a_zero_width_joiner_that_joins_nothing_is_dropped() {
    for raw in [
        "ก\u{1f3fd}\u{200d}\u{1f469}",
        "\u{1f469}\u{1f3fd}\u{200d}\u{1f469}",
        "a\u{200d}\u{1f469}",
        "ก\u{200d}ข",
    ] {
        let c = clean(raw, 200);
        assert!(!c.contains('\u{200d}'), "{raw:?} -> {c:?}");
        assert_eq!(width(&c), vt_advance(&c), "{raw:?} -> {c:?}");
        assert_eq!(
            width(&c),
            unicode_width::UnicodeWidthStr::width(c.as_str()),
            "{raw:?} -> {c:?}"
        );
        assert_eq!(for_terminal(&c), c.as_str(), "idempotent: {c:?}");
    }
    // A ZWJ sequence keeps its look, one emoji per cell, and its width agrees everywhere.
    let c = clean("\u{1f469}\u{200d}\u{1f4bb}", 200);
    assert!(c.contains('\u{1f469}') && c.contains('\u{1f4bb}'), "{c:?}");
    assert_eq!(width(&c), vt_advance(&c), "{c:?}");
    assert_eq!(
        width(&c),
        unicode_width::UnicodeWidthStr::width(c.as_str()),
        "{c:?}"
    );
}

fn thai_char() -> impl Strategy<Value = char> {
    prop_oneof![
        // The Thai block (consonants, vowels, tone marks, SARA AM, digits).
        6 => (0x0E01u32..=0x0E5B).prop_filter_map("assigned", char::from_u32),
        // Lao, including Lao AM.
        1 => (0x0E81u32..=0x0EDF).prop_filter_map("assigned", char::from_u32),
        1 => prop::sample::select(vec![' ', 'a', '王', '👩', '\u{200b}', '\u{200d}', '\u{fe0f}', '\u{1f3fd}', 'ำ', 'ຳ']),
    ]
}

fn any_text_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => thai_char(),
        2 => any::<char>(),
        2 => prop::sample::select(vec![
            '\u{0903}', '\u{093e}', '\u{0600}', '\u{17d8}', '\u{1100}', '\u{1161}', '\u{ac00}',
            '\u{1f1f9}', '\u{1f1ed}', '\u{fe0e}', '\u{20e3}', '\u{ff9e}', '❤', '⌚', '1', 'ل', 'ا',
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// The width the UI reserves for cleaned Thai text is the width the terminal advances,
    /// and each grapheme ratatui puts in a cell is one terminal cell of the same width.
    #[test]
    fn width_of_clean_thai_is_what_the_terminal_advances(chars in prop::collection::vec(thai_char(), 0..40)) {
        let s: String = chars.into_iter().collect();
        let c = clean(&s, 200);
        prop_assert_eq!(width(&c), vt_advance(&c), "{:?} -> {:?}", s, c);
        prop_assert_eq!(width(&c), unicode_width::UnicodeWidthStr::width(c.as_str()), "{:?}", c);
        for g in c.graphemes(true) {
            prop_assert_eq!(g.cell_width() as usize, vt_advance(g), "grapheme {:?} of {:?}", g, c);
            // One cell in the terminal too: ratatui rewrites a cell as a whole, and a
            // grapheme the terminal spreads over two cells leaves the second behind.
            let advancing = g.chars().filter(|&ch| vt_advance(&format!("a{ch}")) > 1).count();
            prop_assert!(advancing <= 1, "grapheme {:?} of {:?} is {} terminal cells", g, c, advancing);
        }
    }

    /// The same for any text: nothing the terminal would draw wider or narrower is left.
    #[test]
    fn width_of_any_clean_text_is_what_the_terminal_advances(chars in prop::collection::vec(any_text_char(), 0..40)) {
        let s: String = chars.into_iter().collect();
        let c = clean(&s, 200);
        prop_assert_eq!(width(&c), vt_advance(&c), "{:?} -> {:?}", s, c);
        for g in c.graphemes(true) {
            let nonzero = g.chars().filter(|&ch| vt_advance(&format!("a{ch}")) > 1).count();
            prop_assert!(nonzero <= 1, "grapheme {:?} of {:?} is {} terminal cells", g, c, nonzero);
            prop_assert_eq!(g.cell_width() as usize, vt_advance(&format!("a{g}")) - 1, "grapheme {:?} of {:?}", g, c);
        }
        let again = for_terminal(&c).into_owned();
        prop_assert_eq!(again, c, "idempotent");
    }

}

proptest! {
    // Each case draws a dozen frames through the emulator: fewer cases (1500 passed once, and 5000 of the width tests).
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Incremental frames of random Thai names equal a full redraw.
    #[test]
    fn random_thai_lists_redraw_like_a_full_draw(
        names in prop::collection::vec(prop::collection::vec(any_text_char(), 1..14), 12..30),
        moves in prop::collection::vec(-3isize..=3, 1..6),
    ) {
        let text: Vec<String> = names.into_iter().map(|c| c.into_iter().collect()).collect();
        let (w, h) = (50u16, 12u16);
        let mut e = Emulated::new(w, h);
        let mut offset = 0usize;
        for (n, mv) in moves.iter().enumerate() {
            offset = offset.saturating_add_signed(*mv * 5).min(text.len() - 1);
            let selected = (offset + n) % text.len();
            e.draw(|f| widgets_frame(f, offset, selected, &text));
            let inc = e.screen();
            let full = full_draw(w, h, |f| widgets_frame(f, offset, selected, &text));
            prop_assert_eq!(&inc.0, &full.0, "move {} of {:?}", n, text);
        }
    }
}

#[test]
fn sara_am_is_drawn_as_nikhahit_and_sara_aa() {
    assert_eq!(clean("น้ำ", 10), "น้\u{0e4d}\u{0e32}");
    assert_eq!(clean("ຄຳ", 10), "ຄ\u{0ecd}\u{0eb2}");
    assert_eq!(width(&clean("ทองคำ", 10)), 5);
    assert!(!clean("ชุมนุมภาษาไทยวันละคำ", 40).contains('\u{0e33}'));
    // Text without SARA AM is left alone (no copy).
    assert!(matches!(
        for_terminal("ปั้น กิ๋ว"),
        std::borrow::Cow::Borrowed(_)
    ));
}

/// The tester's screens on terminal cells: Thai rows with SARA AM in long club names and a
/// decision held and counting down (`a`, ticks, `j a`, `z`), at 80x24 and 120x40. On the
/// emulated terminal every student number is whole, SARA AM is never split between its
/// NIKHAHIT and SARA AA, a cut name ends in "…", and every incremental frame equals a full
/// redraw.
#[test]
fn held_countdown_over_thai_clubs_keeps_cells_whole_on_the_terminal() {
    let clubs = [
        ("Model United Nations Club", "ชุมนุมสหประชาชาติจำลอง"),
        ("Thai Word of the Day Club", "ชุมนุมภาษาไทยวันละคำสำหรับทุกคน"),
        ("Sportsmanship Club", "ชุมนุมน้ำใจนักกีฬาและการออกกำลังกาย"),
        ("Computer Club", "ชุมนุมคอมพิวเตอร์และการเขียนโปรแกรม"),
    ];
    let names = [
        ("Premruedee", "เปรมฤดีศรีสุขสวัสดิ์"),
        ("Kanyanat", "กัญญาณัฐจันทร์เพ็ญ"),
    ];
    let rows: Vec<_> = (0..8u128)
        .map(|n| {
            let club = clubs[n as usize % clubs.len()];
            let name = names[n as usize % names.len()];
            let number = format!("5{:04}", 335 + n * 111);
            request(
                Uuid::from_u128(n + 1),
                "pending",
                &number,
                Some(name),
                club,
                2025,
                30 - n as i64,
            )
        })
        .collect();
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let theme = Theme::new(true);
        let o = ModelOptions {
            lang: club_admin::i18n::Lang::Thai,
            decision_delay: std::time::Duration::from_secs(5),
            ..options()
        };
        let mut m = loaded(o, rows.clone());
        let queue_rows = queue_rows(w, h, m.log().visible);
        let _ = update(&mut m, Msg::Layout { queue_rows });
        let mut e = Emulated::new(w, h);
        e.draw(|f| view(f, &m, &theme));
        let steps: Vec<(&str, Msg)> = vec![
            ("a", key('a')),
            ("1 s", Msg::Tick(now() + chrono::Duration::seconds(1))),
            ("j", key('j')),
            ("a", key('a')),
            ("2 s", Msg::Tick(now() + chrono::Duration::seconds(2))),
            ("z", key('z')),
            ("3 s", Msg::Tick(now() + chrono::Duration::seconds(3))),
        ];
        let mut done = String::new();
        for (name, msg) in steps {
            let _ = update(&mut m, msg);
            done.push_str(name);
            done.push(' ');
            e.draw(|f| view(f, &m, &theme));
            let shown = e.screen();
            let step = format!("{w}x{h} after {done}");
            assert_same(&step, &shown, &full_draw(w, h, |f| view(f, &m, &theme)));
            // The first six rows (the title, the header and the column names above them).
            let table = &shown.0[3..9];
            for (n, line) in table.iter().enumerate() {
                let number = format!(" #5{:04} ", 335 + n * 111);
                assert!(line.contains(&number), "{step}: {number} cut: {line}");
                let club = for_terminal(clubs[n % clubs.len()].1).into_owned();
                let cut = club
                    .char_indices()
                    .skip(1)
                    .any(|(i, _)| line.contains(&format!("{}…", &club[..i])));
                assert!(
                    line.contains(&club) || cut,
                    "{step}: club cut silently: {line}"
                );
                let chars: Vec<char> = line.chars().collect();
                for (i, c) in chars.iter().enumerate() {
                    if *c == '\u{0E4D}' {
                        assert_eq!(chars.get(i + 1), Some(&'\u{0E32}'), "{step}: {line}");
                    }
                }
            }
        }
    }
}

/// A line that ratatui's word wrapping lets run one cell past its area, ending in a two-cell
/// emoji (a student's name in the server's words, issue 31), must not leave the pane's border
/// blank once the line is gone: the real dashboard (`ui::view`, which settles such a frame
/// with `ui::settle_wide_cells`) over a decline refused with a name in its detail, at every
/// padding that moves the emoji along the line, then `j` to the next request; every
/// incremental frame equals a full redraw.
#[test]
fn an_emoji_ending_a_wrapped_line_never_blanks_the_panes_border() {
    let theme = Theme::new(true);
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        for pad in 0..48 {
            let mut m = model_with(sample_rows());
            let _ = update(&mut m, Msg::Resize(w, h));
            let _ = update(&mut m, key('j'));
            let target = m.queue().selected().map(|i| i.id).expect("a row");
            let fx = update(&mut m, key('x'));
            let detail = format!("{} Pimchanok 👩🏽‍💻👩🏽‍💻👩🏽‍💻 Dev", "x".repeat(pad));
            answer_write(&mut m, &fx, ApiAnswer::Updated(Err(forbidden(&detail))));
            let _ = cursor_to(&mut m, target);
            let mut e = Emulated::new(w, h);
            e.draw(|f| view(f, &m, &theme));
            let step = format!("{w}x{h}, {pad} x before the name");
            assert_same(
                &step,
                &e.screen(),
                &full_draw(w, h, |f| view(f, &m, &theme)),
            );
            let _ = update(&mut m, key('j'));
            e.draw(|f| view(f, &m, &theme));
            let full = full_draw(w, h, |f| view(f, &m, &theme));
            assert_same(&format!("{step}, then j"), &e.screen(), &full);
        }
    }
}
