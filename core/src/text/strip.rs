//! Untrusted text stripped of what acts on a terminal or breaks a record: escape sequences,
//! control characters, bidi and invisible format characters, line breaks of every kind.

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
/// invisible format characters removed, tabs and line breaks (U+2028 and U+2029 too) as a
/// single space, and nothing else changed: for text that leaves through a pipe (scripts
/// `grep` the server's own characters), where [`sanitize`](super::sanitize)'s terminal
/// forms would not match.
pub fn strip_controls(text: &str) -> String {
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
            // A tab, and every line break a line-based reader splits at (VT, FF, FS to RS,
            // NEL, LINE and PARAGRAPH SEPARATOR: Python's `splitlines`, JavaScript's line
            // terminators): one space, so a field never splits a record.
            '\t'
            | '\n'
            | '\r'
            | '\u{b}'
            | '\u{c}'
            | '\u{1c}'..='\u{1e}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}' => {
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
