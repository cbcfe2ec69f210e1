//! Hostile text: nothing but printable text reaches the terminal, and every cell keeps its
//! width (proptest plus fixed cases).

use club_admin::text::{clean, fit_width, sanitize, width};
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthChar;

fn printable(s: &str) -> bool {
    !s.chars().any(|c| {
        c.is_control()
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{feff}')
    })
}

const FIXED: &[&str] = &[
    "Evil\u{1b}]0;pwned title\u{7}after",
    "\u{1b}]52;c;ZXZpbCBjbGlwYm9hcmQ=\u{7}clip",
    "\u{1b}]52;c;ZXZpbA==\u{1b}\\st-terminated",
    "\u{1b}[2J\u{1b}[H\u{1b}[31mred\u{1b}[0m",
    "\u{9b}31mC1 CSI\u{9d}0;title\u{9c}end",
    "bell\u{7} backspace\u{8} del\u{7f} nul\u{0}",
    "\u{202e}esreveR \u{2066}isolate\u{2069}",
    "zero\u{200b}width\u{200d}joiner",
    "กิ๊กฺฺฺ๊๊๊ ศรีสุวรรณวิจิตรเลิศล้ำอำไพพงศ์",
    "王小明 한국어 日本語テキスト",
    "👩🏽‍💻👨‍👩‍👧‍👦🏳️‍🌈 emoji",
    "tab\tnew\nline\rreturn",
    "\u{1b}P+q544e\u{1b}\\DCS",
    "\u{1b}_APC payload\u{1b}\\ok",
    "\u{1b}",
    "\u{1b}[",
    "\u{1b}]no terminator",
];

#[test]
fn fixed_cases_are_printable_and_fit() {
    for s in FIXED {
        let out = sanitize(s);
        assert!(printable(&out), "{s:?} -> {out:?}");
        for w in [0usize, 1, 2, 3, 5, 10, 40] {
            let c = clean(s, w);
            assert!(width(&c) <= w, "{s:?} at {w}: {c:?} is {} wide", width(&c));
            assert!(printable(&c));
        }
    }
    assert_eq!(sanitize("Evil\u{1b}]0;pwned title\u{7}after"), "Evilafter");
    assert_eq!(sanitize("\u{1b}[2J\u{1b}[H\u{1b}[31mred\u{1b}[0m"), "red");
    assert_eq!(sanitize("\u{202e}esreveR"), "esreveR");
    assert_eq!(fit_width("王小明", 5), "王小…");
    assert_eq!(fit_width("abc", 3), "abc");
    assert_eq!(fit_width("abcd", 3), "ab…");
    // An emoji ZWJ sequence is drawn as its emoji side by side, its skin tone and joiner
    // dropped (woman, laptop: 4 cells, one grapheme each: text::for_terminal), and is cut on
    // those cells; a flag is its two letters.
    assert_eq!(width("👩🏽‍💻"), 2, "not through for_terminal: one grapheme");
    assert_eq!(sanitize("👩🏽‍💻"), "👩💻");
    assert_eq!(width(&sanitize("👩🏽‍💻")), 4);
    assert_eq!(fit_width("👩🏽‍💻👩🏽‍💻", 3), "👩…");
    assert_eq!(sanitize("👨‍👩‍👧‍👦 👍🏿 🇹🇭"), "👨👩👧👦 👍 TH");
    assert_eq!(fit_width("น้ำใจดี", 3), "น้\u{e4d}า…", "SARA AM is two cells");
}

#[test]
fn a_hundred_thousand_characters() {
    let long: String = "ชื่อยาวมาก\u{1b}[31m".repeat(10_000);
    assert!(long.chars().count() >= 100_000);
    let c = clean(&long, 60);
    assert!(width(&c) <= 60);
    assert!(printable(&c));
    assert!(c.ends_with('…'));
}

fn hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => any::<char>(),
        2 => prop::sample::select(vec!['\u{1b}', '[', ']', '\u{7}', '\u{9b}', '\u{9d}', '\u{9c}', '\\', ';', 'P', '_']),
        2 => prop::sample::select(vec!['\u{202e}', '\u{2066}', '\u{200d}', '\u{200b}', '\u{fe0f}', '\u{1f3fd}']),
        3 => prop::sample::select(vec!['ก', 'ิ', '๊', 'ฺ', 'ี', 'ั', '王', '한', '👩', '💻', 'a', ' ']),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn clean_never_lets_controls_through_and_never_overflows(chars in prop::collection::vec(hostile_char(), 0..200), w in 0usize..80) {
        let s: String = chars.into_iter().collect();
        let c = clean(&s, w);
        prop_assert!(printable(&c), "{:?} -> {:?}", s, c);
        prop_assert!(width(&c) <= w, "{:?} at {} -> {:?}", s, w, c);
    }

    #[test]
    fn fit_width_keeps_whole_graphemes(chars in prop::collection::vec(hostile_char(), 0..100), w in 1usize..40) {
        let s = sanitize(&chars.into_iter().collect::<String>());
        let out = fit_width(&s, w);
        prop_assert!(width(&out) <= w);
        let body = out.strip_suffix('…').unwrap_or(&out);
        prop_assert!(s.starts_with(body), "a prefix of the input");
        // The cut falls on a grapheme boundary of the input.
        let boundary = s.grapheme_indices(true).any(|(i, _)| i == body.len()) || body.len() == s.len();
        prop_assert!(boundary, "{:?} cut inside a grapheme at {}", s, body.len());
    }
}

/// The width ratatui's buffer gives `text`: the sum of its graphemes' `CellWidth`, control
/// characters left out, as `Buffer::set_stringn` lays a line out.
fn ratatui_width(text: &str) -> usize {
    use ratatui::buffer::CellWidth;
    text.graphemes(true)
        .filter(|g| !g.contains(char::is_control))
        .map(|g| usize::from(g.cell_width()))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// The shared library measures text without ratatui (it knows no terminal crate): its
    /// widths are ratatui's, or a row would overflow or leave a gap.
    #[test]
    fn width_is_ratatuis(chars in prop::collection::vec(prop_oneof![
        3 => hostile_char(),
        1 => prop::sample::select(vec!['\u{ff9e}', '\u{ff9f}', 'ｶ', '\u{3099}', 'é', '\u{301}', 'ำ', 'ໍ']),
    ], 0..60)) {
        let s: String = chars.into_iter().filter(|c| !c.is_control()).collect();
        prop_assert_eq!(width(&s), ratatui_width(&s), "{:?}", s);
    }
}

/// The cells tmux (3.4 and later) fills for `text`, by its rules for joining a character to
/// the cell before it (`screen_write_combine` in its screen-write.c): a zero-width character
/// or ZWJ joins the cell before; a skin-tone modifier or a regional indicator ("modifiers" to
/// tmux) joins a cell that holds more than one byte and makes it two cells wide; a character
/// after a ZWJ joins its cell. Anything else starts a cell of its `wcwidth`.
fn tmux_cells(text: &str) -> usize {
    struct Cell {
        bytes: usize,
        width: usize,
        zwj: bool,
    }
    let modifier = |c: char| matches!(c, '\u{1F1E6}'..='\u{1F1FF}' | '\u{1F3FB}'..='\u{1F3FF}');
    let mut cells: Vec<Cell> = Vec::new();
    for c in text.chars() {
        let w = UnicodeWidthChar::width(c).unwrap_or(0).min(2);
        let join = match cells.last() {
            Some(_) if w == 0 || c == '\u{200D}' => Some(false),
            Some(last) if modifier(c) && last.bytes >= 2 => Some(true),
            Some(last) if last.zwj => Some(false),
            _ => None,
        };
        match (join, cells.last_mut()) {
            (Some(wide), Some(last)) => {
                last.bytes += c.len_utf8();
                last.zwj |= c == '\u{200D}';
                if wide {
                    last.width = 2;
                }
            }
            _ => cells.push(Cell {
                bytes: c.len_utf8(),
                width: w,
                zwj: c == '\u{200D}',
            }),
        }
    }
    cells.iter().map(|c| c.width).sum()
}

/// Emoji names drawn where tmux 3.4+ draws them (issue 31: a zero-width-joined emoji name
/// left a stale cell at the pane's edge): for every cleaned text, the cells tmux fills are the
/// cells ratatui lays out. Before the skin tone was dropped, "👩🏽‍💻" became
/// "👩<ZWSP>🏽💻": 6 cells to ratatui, 4 to tmux, which joined 🏽 to the woman's cell.
#[test]
fn emoji_sequences_take_the_cells_tmux_gives_them() {
    for name in [
        "👩🏽‍💻 Dev",
        "เดฟ 👍🏿",
        "👨‍👩‍👧‍👦 family",
        "🏳️‍🌈",
        "ไทย🇹🇭",
        "王🇹🇭",
        "🧑‍🌾",
        "❤️ heart",
    ] {
        let drawn = sanitize(name);
        assert_eq!(
            tmux_cells(&drawn),
            width(&drawn),
            "{name:?} drawn as {drawn:?}"
        );
    }
    assert_ne!(
        tmux_cells("👩\u{200b}🏽💻"),
        width("👩\u{200b}🏽💻"),
        "the old drawing: the model sees the stale cell"
    );
}

fn emoji_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => prop::sample::select(vec!['👩', '💻', '👍', '👨', '🏳', '🌈', '🧑', '🌾', '\u{1F1F9}', '\u{1F1ED}']),
        3 => prop::sample::select(vec!['\u{200d}', '\u{fe0f}', '\u{1f3fb}', '\u{1f3fd}', '\u{1f3ff}', '\u{200b}']),
        2 => prop::sample::select(vec!['a', ' ', 'ก', 'ิ', '王', 'é']),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn cleaned_emoji_take_the_cells_tmux_gives_them(chars in prop::collection::vec(emoji_char(), 0..40), w in 1usize..30) {
        let s: String = chars.into_iter().collect();
        let drawn = sanitize(&s);
        prop_assert_eq!(tmux_cells(&drawn), width(&drawn), "{:?} drawn as {:?}", s, drawn);
        let cut = clean(&s, w);
        prop_assert_eq!(tmux_cells(&cut), width(&cut), "{:?} cut to {:?}", s, cut);
    }
}
