//! Untrusted text made safe for the terminal.
//!
//! Every string from the server is typed by students (api-notes.md, "Other"): it may hold
//! escape sequences (CSI, OSC — including OSC 52 clipboard writes and window titles), C0/C1
//! controls, bidi overrides, very long values and Thai combining marks. [`sanitize`] removes
//! everything that is not printable; [`fit_width`] truncates by display width, on grapheme
//! boundaries, so Thai marks, wide CJK and emoji never break a row.
//!
//! ## Buffer and terminal agree on every cell
//!
//! ratatui puts one grapheme in one buffer cell and gives it the grapheme's width
//! (`ratatui::buffer::CellWidth`); a terminal advances its cursor per code point
//! (`wcwidth`, and the `vt100` crate the tests emulate with). When one grapheme holds two code
//! points that each advance the cursor — SARA AM (U+0E33) after a Thai consonant, Lao AM
//! (U+0EB3), an emoji ZWJ sequence, a spacing vowel sign of an Indic script — the terminal
//! fills two independent cells where ratatui sees one wide one, so an incremental frame that
//! rewrites only the first leaves the second on screen ("Photography Clubำ" after
//! scrolling). Some terminals join what others keep apart (tmux from 3.4 joins a skin-tone
//! modifier or a regional indicator to the cell before it). [`for_terminal`], applied by
//! [`sanitize`], [`fit_width`], [`clean`] and [`truncate_chars`], rewrites text so that every
//! grapheme is exactly one terminal cell of the width ratatui gives it, and leaves out what
//! terminals draw differently.

use std::borrow::Cow;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

mod name;
mod strip;
mod wrap;

pub use name::file_name_part;
pub use strip::strip_controls;
pub use wrap::wrap;

/// Returns `text` with escape sequences, control characters (C0, DEL, C1) and bidi or
/// invisible format characters removed, then made [`for_terminal`] (SARA AM drawn as NIKHAHIT
/// + SARA AA, one grapheme per terminal cell). Tabs and line breaks become a single space.
pub fn sanitize(text: &str) -> String {
    let out = strip_controls(text);
    match for_terminal(&out) {
        Cow::Borrowed(_) => out,
        Cow::Owned(fixed) => fixed,
    }
}

/// Breaks a grapheme in two without showing anything: ZERO WIDTH SPACE is a grapheme of its
/// own (Grapheme_Cluster_Break=Control, UAX #29 GB4/GB5) of width 0, which ratatui never
/// gives a cell of its own and a terminal never advances for.
const BREAK: char = '\u{200B}';

/// ZERO WIDTH JOINER.
const ZWJ: char = '\u{200D}';

/// The cells a terminal advances for `c` on its own: `wcwidth` as the `vt100` crate computes
/// it (unicode-width per code point, at most 2; unprintable code points are 1 there but never
/// get here, [`sanitize`] removed them).
fn advance(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(1).min(2)
}

/// True for the Thai and Lao blocks, whose graphemes are a base and zero-width marks (SARA
/// AM and Lao AM apart) and whose width is the sum of the code points' widths.
fn thai_or_lao(c: char) -> bool {
    ('\u{0E00}'..='\u{0EFF}').contains(&c)
}

/// The width ratatui gives one grapheme in its buffer (`ratatui::buffer::CellWidth` for
/// `str`, restated here so that this crate needs no terminal crate; a test of the root
/// package compares the two): unicode-width's width of the grapheme, plus one for each
/// halfwidth katakana (semi-)voiced sound mark (U+FF9E, U+FF9F), which terminals draw in a
/// cell of their own. A control character is never drawn.
fn cell_width(g: &str) -> usize {
    if g.contains(char::is_control) {
        0
    } else if g.len() == 1 {
        1
    } else {
        g.width()
            + g.chars()
                .filter(|c| matches!(c, '\u{FF9E}' | '\u{FF9F}'))
                .count()
    }
}

/// True when the terminal draws grapheme `g` as one cell of the width ratatui gives it: at
/// most its first code point advances the cursor, by exactly that width.
fn one_cell(g: &str) -> bool {
    let mut chars = g.chars();
    let Some(first) = chars.next() else {
        return true;
    };
    if chars.any(|c| advance(c) > 0) {
        return false;
    }
    cell_width(g) == advance(first)
}

/// Characters replaced by a sequence that looks the same and whose graphemes are one cell
/// each: SARA AM and Lao AM by their compatibility decompositions (NFKD: NIKHAHIT + SARA AA,
/// U+0E4D U+0E32; Lao NIGGAHITA + Lao AA, U+0ECD U+0EB2); the halfwidth katakana sound marks
/// (ratatui counts them 2 cells, terminals 1) by their compatibility decompositions, the
/// combining marks U+3099 and U+309A; KHMER SIGN BEYYAL (unicode-width says 3 cells,
/// terminals at most 2) by the sequence Unicode recommends instead (U+17D4 U+179B U+17D4);
/// U+FFFD by `?` (terminals built on the `vte` parser, `vt100` among them, take U+FFFD for a
/// decoding error and draw nothing). VARIATION SELECTOR-16 (emoji presentation) is dropped:
/// terminals disagree on the width it gives, and ratatui's diff writes the cell after a wide
/// grapheme holding it without moving the cursor, which shifts the rest of the row on a
/// terminal that draws it two cells wide. The skin-tone modifiers (U+1F3FB to U+1F3FF) are
/// dropped and a regional indicator becomes its letter (the flag 🇹🇭 reads `TH`): tmux from
/// 3.4 joins either to the cell before it whatever that holds (a wide emoji, a Thai letter, a
/// ZERO WIDTH SPACE put between the halves of an emoji sequence) and draws the pair two cells
/// wide, where ratatui and other terminals count each on its own, so the rest of the row
/// moved and left a stale cell at the pane's edge. ZERO WIDTH JOINER is dropped
/// too (tmux joins whatever follows one to its cell): an emoji ZWJ sequence is drawn as its
/// emoji side by side ("👩🏽‍💻" as 👩💻), each the two cells every terminal gives it.
fn replacement(c: char) -> Option<&'static str> {
    const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    match c {
        '\u{1F3FB}'..='\u{1F3FF}' | ZWJ => Some(""),
        '\u{1F1E6}'..='\u{1F1FF}' => {
            let i = c as usize - 0x1F1E6;
            LETTERS.get(i..i + 1)
        }
        '\u{0E33}' => Some("\u{0E4D}\u{0E32}"),
        '\u{0EB3}' => Some("\u{0ECD}\u{0EB2}"),
        '\u{FF9E}' => Some("\u{3099}"),
        '\u{FF9F}' => Some("\u{309A}"),
        '\u{17D8}' => Some("\u{17D4}\u{179B}\u{17D4}"),
        '\u{FFFD}' => Some("?"),
        '\u{FE0F}' => Some(""),
        _ => None,
    }
}

/// `text` rewritten so that every grapheme is one terminal cell of the width ratatui gives it
/// (see the module docs), which makes an incremental frame equal a full redraw:
///
/// - SARA AM (U+0E33) becomes NIKHAHIT + SARA AA (U+0E4D U+0E32) and Lao AM (U+0EB3) becomes
///   U+0ECD U+0EB2: they look the same;
/// - any other grapheme of several cells (Indic spacing vowels, Hangul jamo runs) is split
///   into one grapheme per cell with ZERO WIDTH SPACE, which draws nothing: the terminal
///   shows what it showed before, cell by cell;
/// - VARIATION SELECTOR-16 (U+FE0F), ZERO WIDTH JOINER and the skin-tone modifiers are
///   dropped (an emoji ZWJ sequence is its emoji side by side), U+FE0E where it narrows a
///   wide character; a regional indicator becomes its letter (🇹🇭 is `TH`); a code point no
///   terminal draws as ratatui expects becomes `?`;
/// - combining marks with no character before them are dropped; text ending in a character
///   that joins what follows (a prepended concatenation mark, a conjoining jamo) ends with
///   ZERO WIDTH SPACE, so text put after it in the same string starts a grapheme of its own.
///
/// Returns the input unchanged (borrowed) when nothing needs rewriting, which is the case for
/// ASCII and for Thai without SARA AM. Idempotent. Search and comparison should run on the
/// raw text (or on both sides through this function): "น้ำ" and its drawn form differ.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    // The common case, ASCII and Thai without SARA AM starting with a letter: every grapheme
    // is a base with zero-width marks.
    if text.chars().next().is_some_and(|c| advance(c) > 0)
        && text
            .chars()
            .all(|c| c.is_ascii() || (thai_or_lao(c) && c != '\u{0E33}' && c != '\u{0EB3}'))
    {
        return Cow::Borrowed(text);
    }
    let mapped: Cow<'_, str> = if text.chars().any(|c| replacement(c).is_some()) {
        let mut out = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            match replacement(c) {
                Some(r) => out.push_str(r),
                None => out.push(c),
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    };
    let mut graphemes = mapped.graphemes(true);
    let first = graphemes.clone().next();
    let last = graphemes.clone().next_back();
    let ends_safe = first.is_none_or(|g| cell_width(g) > 0 && !joins_before(g))
        && last.is_none_or(|g| !joins_after(g));
    if ends_safe && graphemes.all(|g| one_cell(g) && !g.ends_with(ZWJ)) {
        return mapped;
    }
    let mut out = String::with_capacity(mapped.len() + 8);
    for g in mapped.graphemes(true) {
        if one_cell(g) {
            push_piece(&mut out, g);
            continue;
        }
        // One unit per code point that advances the cursor, with the zero-width ones after it.
        let mut start = 0;
        for (i, c) in g.char_indices().skip(1) {
            if advance(c) > 0 {
                push_piece(&mut out, &fix_unit(&g[start..i]));
                start = i;
            }
        }
        push_piece(&mut out, &fix_unit(&g[start..]));
    }
    // Marks with no character of this text before them would join whatever precedes.
    while let Some(g) = out.graphemes(true).next()
        && (cell_width(g) == 0 || joins_before(g))
    {
        out.drain(..g.len());
    }
    // A trailing ZWJ joins nothing visible; a trailing prepended mark, regional indicator or
    // conjoining jamo would join what follows.
    while out.ends_with('\u{200D}') {
        out.pop();
    }
    if out.graphemes(true).next_back().is_some_and(joins_after) {
        out.push(BREAK);
    }
    Cow::Owned(out)
}

/// True when `b` placed right after the grapheme `a` joins it (becomes part of its grapheme).
fn joins(a: &str, b: &str) -> bool {
    // Small texts are joined on the stack: this runs for every cleaned text.
    let mut buf = [0u8; 64];
    let owned;
    let joined = if a.len() + b.len() <= buf.len() {
        buf[..a.len()].copy_from_slice(a.as_bytes());
        buf[a.len()..a.len() + b.len()].copy_from_slice(b.as_bytes());
        match std::str::from_utf8(&buf[..a.len() + b.len()]) {
            Ok(s) => s,
            Err(_) => return false,
        }
    } else {
        owned = format!("{a}{b}");
        owned.as_str()
    };
    joined.graphemes(true).next().map(str::len) != Some(a.len())
}

/// Characters that start a grapheme whatever precedes them and end one whatever follows
/// (UAX #29: no Extend, SpacingMark, ZWJ, Prepend, regional indicator or Hangul jamo among
/// them): ASCII, Thai consonants and leading vowels, CJK ideographs. Saves the segmenter.
fn plain_base(c: char) -> bool {
    c.is_ascii()
        || matches!(c, '\u{0E01}'..='\u{0E2E}' | '\u{0E40}'..='\u{0E44}' | '\u{4E00}'..='\u{9FFF}')
}

/// True when grapheme `g`, at the start of a text, would join whatever the UI puts before it
/// (a spacing mark or an emoji modifier with no base): it is dropped.
fn joins_before(g: &str) -> bool {
    match g.chars().next() {
        Some(c) if plain_base(c) => false,
        _ => joins("a", g),
    }
}

/// True when grapheme `g`, at the end of a text, would join whatever the UI puts after it
/// (a prepended concatenation mark, a trailing ZWJ, a lone regional indicator, a conjoining
/// jamo): the text then ends with [`BREAK`], which ratatui keeps in the last cell.
fn joins_after(g: &str) -> bool {
    match g.chars().next_back() {
        // A Thai or Lao vowel or tone mark ends a grapheme too.
        Some(c) if plain_base(c) || thai_or_lao(c) => false,
        _ => ["a", "\u{1F469}", "\u{1F1F9}", "\u{AC00}", "\u{1100}"]
            .iter()
            .any(|n| joins(g, n)),
    }
}

/// One code point that advances the cursor and the zero-width ones after it, made one cell:
/// as is, else without variation selectors, else the first code point alone, else `?`.
fn fix_unit(unit: &str) -> Cow<'_, str> {
    if one_cell(unit) {
        return Cow::Borrowed(unit);
    }
    let plain: String = unit
        .chars()
        .filter(|c| !matches!(c, '\u{FE0E}' | '\u{FE0F}'))
        .collect();
    if one_cell(&plain) {
        return Cow::Owned(plain);
    }
    match unit.chars().next() {
        Some(c) if one_cell(c.encode_utf8(&mut [0; 4])) => Cow::Owned(c.to_string()),
        _ => Cow::Borrowed("?"),
    }
}

/// Appends a piece that is one cell (or zero-width marks) to `out`, keeping it a grapheme of
/// its own: a piece that would join the last grapheme of `out` is separated by [`BREAK`] (or,
/// when it is only zero-width marks, kept only if the joined grapheme is still one cell).
fn push_piece(out: &mut String, piece: &str) {
    // A ZWJ joins nothing at the end of a piece (the pieces are graphemes, or one-cell
    // units of one): dropped.
    let piece = piece.trim_end_matches(ZWJ);
    if piece.is_empty() {
        return;
    }
    if let Some(tail) = out.graphemes(true).next_back() {
        let joined = format!("{tail}{piece}");
        let joins = joined.graphemes(true).next().map(str::len) != Some(tail.len());
        if joins {
            if piece.chars().all(|c| advance(c) == 0) {
                if one_cell(&joined) {
                    out.push_str(piece);
                }
                return;
            }
            out.push(BREAK);
        }
    }
    out.push_str(piece);
}

/// Width of `text` in terminal cells as ratatui lays it out: the sum of its graphemes'
/// widths (`ratatui::buffer::CellWidth`; control characters count 0). For text that went through
/// [`for_terminal`] this is also what the terminal advances.
pub fn width(text: &str) -> usize {
    if text.is_ascii() {
        return text.bytes().filter(|b| !b.is_ascii_control()).count();
    }
    if text
        .chars()
        .all(|c| thai_or_lao(c) || c.is_ascii_graphic() || c == ' ')
    {
        return text.chars().map(advance).sum();
    }
    text.graphemes(true).map(cell_width).sum()
}

/// Cuts `text` to at most `max` cells, on grapheme boundaries but never between the two
/// halves of a SARA AM (NIKHAHIT + SARA AA, as [`for_terminal`] writes it; Lao AM too),
/// ending with `…` when cut. The result's width is never above `max`. The text is first made
/// [`for_terminal`].
pub fn fit_width(text: &str, max: usize) -> String {
    fit_safe_width(&for_terminal(text), max)
}

/// [`fit_width`] for text already made [`for_terminal`].
fn fit_safe_width(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for unit in units(text) {
        let w = width(unit);
        if used + w > max - 1 {
            break;
        }
        out.push_str(unit);
        used += w;
    }
    // A Thai leading vowel (เ แ โ ใ ไ) is written before the consonant it is said after:
    // cut from it, it reads as another word ("เ…" for "เปรม").
    while out.ends_with(is_leading_vowel) {
        out.pop();
    }
    if out
        .graphemes(true)
        .next_back()
        .is_some_and(|g| joins(g, "…"))
    {
        out.push(BREAK);
    }
    out.push('…');
    out
}

/// True when `a` ends with NIKHAHIT (U+0E4D) or Lao NIGGAHITA (U+0ECD) and `b` starts with
/// SARA AA (U+0E32) or Lao AA (U+0EB2): the two halves of SARA AM (or Lao AM) as
/// [`for_terminal`] writes it, two graphemes that read as one vowel.
fn am_halves(a: &str, b: &str) -> bool {
    matches!(
        (a.chars().next_back(), b.chars().next()),
        (Some('\u{0E4D}'), Some('\u{0E32}')) | (Some('\u{0ECD}'), Some('\u{0EB2}'))
    )
}

/// The units `text` may be cut between: its graphemes, except that the two halves of a
/// SARA AM or Lao AM ([`am_halves`]) stay one unit, so a cut never leaves "คํ" for "คำ".
fn units(text: &str) -> impl Iterator<Item = &str> {
    let mut graphemes = text.grapheme_indices(true).peekable();
    std::iter::from_fn(move || {
        let (start, g) = graphemes.next()?;
        let mut end = start + g.len();
        if let Some(&(next_start, next)) = graphemes.peek()
            && am_halves(g, next)
        {
            end = next_start + next.len();
            graphemes.next();
        }
        Some(&text[start..end])
    })
}

/// True for the Thai and Lao leading vowels (เ แ โ ใ ไ, ເ ແ ໂ ໃ ໄ): written before the
/// consonant they follow in speech, each a grapheme of its own (UAX #29 gives them no
/// Prepend), yet never to be parted from the consonant after them by a cut or a line break.
fn is_leading_vowel(c: char) -> bool {
    matches!(c, '\u{0E40}'..='\u{0E44}' | '\u{0EC0}'..='\u{0EC4}')
}

/// True for the Thai and Lao vowels written after a syllable's consonant in a cell of their
/// own (SARA A ะ, SARA AA า, LAKKHANGYAO ๅ, MAI YAMOK ๆ; Lao ະ າ): a line never starts
/// with one.
fn is_following_vowel(c: char) -> bool {
    matches!(
        c,
        '\u{0E30}' | '\u{0E32}' | '\u{0E45}' | '\u{0E46}' | '\u{0EB0}' | '\u{0EB2}'
    )
}

/// [`sanitize`] then [`fit_width`]: the one call for server text going into a cell.
pub fn clean(text: &str, max: usize) -> String {
    // Bound the work on pathological input first: nothing wider than `max` is shown anyway,
    // and every grapheme is at least one char wide or zero; keep a generous margin for marks.
    let bounded = if text.len() > max.saturating_mul(16).max(256) {
        let mut end = max.saturating_mul(16).max(256);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    } else {
        text
    };
    fit_safe_width(&sanitize(bounded), max)
}

/// The first 8 hex digits of an id: enough to tell requests apart on a screen or in a
/// table (the dashboard's rows, `club-admin history`).
pub fn short_id(id: uuid::Uuid) -> String {
    let mut s = id.to_string();
    s.truncate(8);
    s
}

/// Cuts `text` to at most `max` chars (for messages and logs), ending with `…` when cut,
/// then makes it [`for_terminal`] (which may add a few chars).
pub fn truncate_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return for_terminal(text).into_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    for_terminal(&out).into_owned()
}

/// `text` as searches compare it (the queue filter, the help's search): lower-case, SARA AM
/// (U+0E33) written as NIKHAHIT + SARA AA (U+0E4D U+0E32) and Lao AM (U+0EB3) as U+0ECD
/// U+0EB2, as [`crate::text::for_terminal`] draws them and as every text from the locale
/// files comes; ZERO WIDTH SPACE (which `for_terminal` may put between cells) dropped. A
/// Thai keyboard types SARA AM as one character, the screen shows two: both find the same.
pub fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            '\u{0E33}' => out.push_str("\u{0E4D}\u{0E32}"),
            '\u{0EB3}' => out.push_str("\u{0ECD}\u{0EB2}"),
            '\u{200B}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("a  b", 0), ["a  b"]);
        let lines = wrap("ลบคำขอ ชุมนุมหุ่นยนต์", 8);
        assert!(lines.iter().all(|l| width(l) <= 8), "{lines:?}");
    }

    #[test]
    fn thai_is_wrapped_and_cut_with_its_vowels_whole() {
        let name = sanitize("เปรมฤดีเกเรแก้วน้ำใจ");
        // From 2 columns: SARA AM with its consonant is one unit two columns wide.
        for cols in 2..=12 {
            let lines = wrap(&name, cols);
            assert_eq!(lines.concat(), name, "nothing lost at {cols}");
            for l in &lines {
                assert!(width(l) <= cols, "{l:?} at {cols}");
                if cols >= 3 {
                    assert!(
                        !l.ends_with(is_leading_vowel),
                        "{l:?} ends on a leading vowel"
                    );
                    assert!(!l.starts_with(is_following_vowel), "{l:?} starts on ะ/า");
                }
                assert!(!l.starts_with('\u{0E32}'), "SARA AM parted: {lines:?}");
            }
            let cut = fit_width(&name, cols);
            assert!(width(&cut) <= cols);
            assert!(
                !cut.trim_end_matches('…').ends_with(is_leading_vowel),
                "{cut:?}"
            );
        }
        assert_eq!(fit_width("เปรม เกเร", 7), "เปรม …");
        assert_eq!(fit_width("เปรมเกเร", 6), "เปรม…");
    }

    /// The shortcuts above hold for the Unicode tables the segmenter and unicode-width ship.
    #[test]
    fn shortcuts_agree_with_the_segmenter_and_the_widths() {
        let neighbours = ['a', 'ก', '\u{1F469}', '\u{1F1F9}', '\u{AC00}', '\u{1100}'];
        for c in ('\0'..='\u{9FFF}').filter(|&c| plain_base(c) || thai_or_lao(c)) {
            if c.is_control() {
                continue;
            }
            let s = c.to_string();
            for n in neighbours {
                assert!(!joins(&s, &n.to_string()), "U+{:04X} joins {n}", c as u32);
            }
            if plain_base(c) {
                assert!(!joins("a", &s), "U+{:04X} joins what precedes", c as u32);
            }
            if thai_or_lao(c) && c != '\u{0E33}' && c != '\u{0EB3}' && advance(c) > 0 {
                assert!(!joins("ก", &s), "U+{:04X} joins a consonant", c as u32);
            }
            for base in ["ก", "ກ", "a"] {
                let g = format!("{base}{c}");
                let sum: usize = g.chars().map(advance).sum();
                assert_eq!(width(&g), sum, "{g:?}");
                assert_eq!(
                    g.graphemes(true).map(cell_width).sum::<usize>(),
                    sum,
                    "{g:?}"
                );
            }
        }
    }
}
