//! Lines of text for a box of a given width: broken at spaces, and inside a word (a Thai
//! run has no spaces) only where the script allows it.

use super::{is_following_vowel, is_leading_vowel, units, width};

/// True when a line may break between unit `a` and unit `b` of a word ([`units`](super::units)): not
/// after a leading vowel, not before a following vowel (so "เปรม" never ends a line on
/// "เ", and SARA AM, one unit, stays whole).
fn may_break_between(a: &str, b: &str) -> bool {
    !a.ends_with(is_leading_vowel) && !b.starts_with(is_following_vowel)
}

/// `text` broken into lines of at most `cols` terminal cells ([`width`](super::width)): at spaces where it
/// can; inside a word wider than `cols` (a Thai run has no spaces) between graphemes, never
/// between the two halves of a SARA AM, after a leading vowel (เ แ โ ใ ไ) or before a
/// following one (ะ า ๆ) unless a piece of `cols` cells has no other place to break. Runs of
/// spaces collapse. Every line is at most `cols` wide (a single grapheme wider than `cols`
/// stands alone). At least one line; `cols == 0` gives `text` as one line. The text is
/// taken as it will be drawn (already [`sanitize`](super::sanitize)d or [`for_terminal`](super::for_terminal)).
pub fn wrap(text: &str, cols: usize) -> Vec<String> {
    if cols == 0 {
        return vec![text.to_owned()];
    }
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let needed = if line.is_empty() {
            width(word)
        } else {
            width(&line) + 1 + width(word)
        };
        if needed <= cols {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if width(word) <= cols {
            line.push_str(word);
            continue;
        }
        let mut rest: Vec<&str> = units(word).collect();
        while !rest.is_empty() {
            // As many units as fit, then back to the last place a line may break.
            let mut used = 0;
            let mut fit = 0;
            while fit < rest.len() && used + width(rest[fit]) <= cols {
                used += width(rest[fit]);
                fit += 1;
            }
            if fit == rest.len() {
                line = rest.concat();
                break;
            }
            let fit = fit.max(1);
            let at = (1..=fit)
                .rev()
                .find(|&i| may_break_between(rest[i - 1], rest[i]))
                .unwrap_or(fit);
            lines.push(rest[..at].concat());
            rest.drain(..at);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
