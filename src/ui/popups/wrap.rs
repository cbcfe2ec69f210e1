//! Word wrapping for the pop-ups' texts, done before drawing so that a pop-up knows how many
//! lines it needs (Thai and English texts differ in length).

use unicode_segmentation::UnicodeSegmentation;

use crate::text::width;

/// `text` broken into lines of at most `cols` terminal columns ([`crate::text::width`]):
/// at spaces where it can, inside a word wider than `cols` (between graphemes) where it
/// must. Runs of spaces collapse. At least one line; `cols == 0` gives `text` as one line.
pub(super) fn wrap(text: &str, cols: usize) -> Vec<String> {
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
        for g in word.graphemes(true) {
            if !line.is_empty() && width(&line) + width(g) > cols {
                lines.push(std::mem::take(&mut line));
            }
            line.push_str(g);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("a  b", 0), ["a  b"]);
        // Thai: the marks above and below take no column.
        let lines = wrap("ลบคำขอ ชุมนุมหุ่นยนต์", 8);
        assert!(
            lines.iter().all(|l| crate::text::width(l) <= 8),
            "{lines:?}"
        );
    }
}
