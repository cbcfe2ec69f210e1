//! Untrusted text made safe for the terminal.
//!
//! Every string from the server is typed by students (api-notes.md, "Other"): it may hold
//! escape sequences (CSI, OSC — including OSC 52 clipboard writes and window titles), C0/C1
//! controls, bidi overrides, very long values and Thai combining marks. [`sanitize`] removes
//! everything that is not printable; [`fit_width`] truncates by display width, on grapheme
//! boundaries, so Thai marks, wide CJK and emoji never break a row.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Characters that reorder or hide text: bidi embeddings, overrides and isolates, plus the
/// invisible marks that have no business in a name (LRM, RLM, ALM, BOM, word joiner...).
fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{206A}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}')
}

/// Returns `text` with escape sequences, control characters (C0, DEL, C1) and bidi or
/// invisible format characters removed. Tabs and newlines become a single space.
/// Zero-width joiners (U+200D) stay, so emoji sequences keep their shape.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                // CSI: parameters and intermediates, then one final byte 0x40..=0x7E.
                Some('[') => {
                    chars.next();
                    for n in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&n) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \).
                Some(']') | Some('P') | Some('X') | Some('^') | Some('_') => {
                    chars.next();
                    skip_string(&mut chars);
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            },
            '\u{9b}' => {
                for n in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&n) {
                        break;
                    }
                }
            }
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\t' | '\n' | '\r' => {
                if !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            c if c.is_control() => {}
            c if is_invisible_format(c) => {}
            c => out.push(c),
        }
    }
    out
}

fn skip_string(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(n) = chars.next() {
        match n {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

/// Display width of `text` in terminal cells.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Cuts `text` to at most `max` cells, on grapheme boundaries, ending with `…` when cut.
/// The result's width is never above `max`.
pub fn fit_width(text: &str, max: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for g in text.graphemes(true) {
        let w = width(g);
        if used + w > max - 1 {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push('…');
    out
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
    fit_width(&sanitize(bounded), max)
}

/// Cuts `text` to at most `max` chars (for messages and logs), ending with `…` when cut.
pub fn truncate_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}
