//! Output of the scripting subcommands: an aligned table (display width, via
//! [`crate::text`]), tab-separated values, one JSON document, or ids one per line.
//!
//! Every string from the server is untrusted (api-notes.md, "Other"): the table and TSV pass
//! it through [`crate::text::sanitize`] or [`crate::text::strip_controls`] (escape sequences
//! and control characters removed, tabs and every line break a line reader splits at, U+2028
//! and U+2029 too, folded to a space, so a field never breaks a record or a column); JSON
//! keeps it whole but writes control, bidi and invisible format characters as `\uXXXX`, so
//! the document means the same and nothing reaches a terminal raw. U+2028 and U+2029 are
//! among them (serde_json alone would write them raw: valid JSON, but a line-based reader,
//! `splitlines` or a JavaScript line reader, would split a string at them).

use std::io;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

use super::args::OutputArgs;
use crate::text;

/// The chosen output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned columns with a header; `width` is the terminal's width in cells, when known.
    Table {
        /// Columns available, in cells; `None`: no limit.
        width: Option<usize>,
    },
    /// Tab-separated values, no header.
    Tsv,
    /// One pretty-printed JSON document.
    Json,
    /// Ids, one per line.
    Ids,
}

impl Format {
    /// `--json`, else `--ids`, else `--table`, else a table when standard output is a
    /// terminal and TSV when it is not. A table fits `terminal_width` cells when known.
    pub fn choose(out: &OutputArgs, stdout_terminal: bool, terminal_width: Option<usize>) -> Self {
        if out.json {
            Format::Json
        } else if out.ids_only {
            Format::Ids
        } else if out.table || stdout_terminal {
            Format::Table {
                width: terminal_width,
            }
        } else {
            Format::Tsv
        }
    }

    /// [`Format::choose`] for this process: standard output's terminal state, and the width
    /// a table must fit: the terminal's (standard output's, or the controlling terminal's
    /// when `--table` goes into a pipe such as `| head`), else `$COLUMNS`; none when neither
    /// is known (a cron job: the table is not cut).
    pub fn detect(out: &OutputArgs) -> Self {
        Format::choose(
            out,
            super::stdio::streams().terminals()[1],
            super::stdio::streams().terminal_width(),
        )
    }
}

/// A table column: its header and the range of widths (in cells) it may take. A column
/// with `min < max` gives up cells when the table is wider than the terminal.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Header text.
    pub header: &'static str,
    /// Narrowest it is cut to.
    pub min: usize,
    /// Widest it is ever shown.
    pub max: usize,
}

impl Column {
    /// A column of `min..=max` cells.
    pub const fn new(header: &'static str, min: usize, max: usize) -> Self {
        Column { header, min, max }
    }
}

const GAP: usize = 2;

/// Renders `rows` under `columns` as aligned text, every cell sanitised and cut by display
/// width (never splitting a grapheme: Thai marks stay on their letters). When the table is
/// wider than `width`, the widest shrinkable columns give up cells first, down to their
/// minimum; when even the minimums do not fit, the widest columns are cut further (headers
/// too), so that no line is wider than `width` (unless `width` cannot hold one cell per
/// column and the gaps). Lines end in
/// `\n` and carry no trailing spaces; an empty `rows` gives the header line only.
pub fn table(columns: &[Column], rows: &[Vec<String>], width: Option<usize>) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            columns
                .iter()
                .enumerate()
                .map(|(i, c)| text::clean(r.get(i).map(String::as_str).unwrap_or(""), c.max))
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            cells
                .iter()
                .map(|r| text::width(&r[i]))
                .chain([text::width(c.header)])
                .max()
                .unwrap_or(0)
                .min(c.max.max(text::width(c.header)))
        })
        .collect();
    if let Some(avail) = width {
        let total = |w: &[usize]| w.iter().sum::<usize>() + GAP * w.len().saturating_sub(1);
        while total(&widths) > avail {
            let shrinkable = widths
                .iter()
                .enumerate()
                .filter(|&(i, &w)| w > columns[i].min)
                .max_by_key(|&(i, &w)| (w - columns[i].min, i));
            match shrinkable {
                Some((i, _)) => widths[i] -= 1,
                None => break,
            }
        }
        // Still too wide at every column's minimum (a phone's terminal): the widest column
        // gives up a cell at a time, down to one, so that no line wraps; cut cells end in `…`.
        while total(&widths) > avail {
            match widths
                .iter()
                .enumerate()
                .filter(|&(_, &w)| w > 1)
                .max_by_key(|&(i, &w)| (w, i))
            {
                Some((i, _)) => widths[i] -= 1,
                None => break,
            }
        }
    }
    let mut out = String::new();
    let mut line = |cells: Vec<String>| {
        let mut l = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let cell = text::fit_width(cell, widths[i]);
            if i > 0 {
                l.push_str(&" ".repeat(GAP));
            }
            l.push_str(&cell);
            l.push_str(&" ".repeat(widths[i].saturating_sub(text::width(&cell))));
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(columns.iter().map(|c| c.header.to_owned()).collect());
    for r in cells {
        line(r);
    }
    out
}

/// Renders `(key, value)` pairs as two aligned columns without a header (a record shown on
/// a terminal); values are sanitised and cut to fit `width`.
pub fn pairs(pairs: &[(String, String)], width: Option<usize>) -> String {
    let key_w = pairs.iter().map(|(k, _)| text::width(k)).max().unwrap_or(0);
    let value_w = width.map_or(400, |w| w.saturating_sub(key_w + GAP).max(4));
    let mut out = String::new();
    for (k, v) in pairs {
        let v = text::clean(v, value_w);
        let line = format!("{k}{}{v}", " ".repeat(key_w - text::width(k) + GAP));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Renders rows as tab-separated values: each field stripped of control characters (tabs
/// and new lines become a space) and otherwise as the server wrote it (no terminal forms:
/// a script greps the server's own characters), one row per line, no header.
pub fn tsv(rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    for r in rows {
        let fields: Vec<String> = r.iter().map(|f| text::strip_controls(f)).collect();
        out.push_str(&fields.join("\t"));
        out.push('\n');
    }
    out
}

/// One id per line.
pub fn ids<I: IntoIterator<Item = D>, D: std::fmt::Display>(ids: I) -> String {
    let mut out = String::new();
    for id in ids {
        out.push_str(&id.to_string());
        out.push('\n');
    }
    out
}

/// `value` as one pretty-printed JSON document with a final new line. Control, bidi and
/// invisible format characters inside strings are written as `\uXXXX` escapes.
///
/// Errors: only when `value`'s `Serialize` fails (never for the API models).
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut buf = Vec::new();
    let mut ser =
        serde_json::Serializer::with_formatter(&mut buf, SafeFormatter(PrettyFormatter::new()));
    value.serialize(&mut ser)?;
    buf.push(b'\n');
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}' | '\u{2029}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// serde_json's pretty printer, with unsafe characters escaped inside strings.
struct SafeFormatter<'a>(PrettyFormatter<'a>);

impl Formatter for SafeFormatter<'_> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if needs_escape(c) {
                writer.write_all(&fragment.as_bytes()[start..i])?;
                write!(writer, "\\u{:04x}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 3] = [
        Column::new("ID", 2, 2),
        Column::new("CLUB", 6, 30),
        Column::new("YEAR", 4, 4),
    ];

    fn rows() -> Vec<Vec<String>> {
        vec![
            vec!["a1".into(), "ชุมนุมหุ่นยนต์".into(), "2026".into()],
            vec!["b2".into(), "Chess Club".into(), "2025".into()],
            vec!["c3".into(), "กีฬา\x1b[31mแดง\tx".into(), "2026".into()],
        ]
    }

    #[test]
    fn table_aligns_thai_by_display_width() {
        let t = table(&COLS, &rows(), None);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "ID  CLUB        YEAR");
        // The year column starts at the same cell on every line, although the Thai name
        // has combining marks (more chars than cells).
        let year_col = |l: &str| {
            let end = l.rfind("20").unwrap_or(0);
            text::width(&l[..end])
        };
        assert_eq!(year_col(lines[1]), 16);
        assert_eq!(year_col(lines[2]), 16);
        assert_eq!(year_col(lines[3]), 16);
        assert!(
            lines[3].contains("กีฬาแดง x"),
            "escape removed, tab folded: {t}"
        );
        assert!(!t.contains('\x1b') && !t.contains('\t'));
    }

    #[test]
    fn table_shrinks_flexible_columns_to_the_width() {
        let t = table(&COLS, &rows(), Some(16));
        for l in t.lines() {
            assert!(text::width(l) <= 16, "{l:?} is wider than 16");
        }
        assert!(t.contains('…'), "a cut name ends with an ellipsis: {t}");
        // Below the columns' minimums the widest are cut further: nothing wraps.
        let t = table(&COLS, &rows(), Some(12));
        for l in t.lines() {
            assert!(text::width(l) <= 12, "{l:?} is wider than 12:\n{t}");
        }
        // Never below one cell a column.
        let t = table(&COLS, &rows(), Some(3));
        assert!(
            t.lines()
                .skip(1)
                .all(|l| text::width(l) <= 1 + 2 + 1 + 2 + 1),
            "{t}"
        );
    }

    #[test]
    fn a_request_table_fits_a_phone_terminal_of_45_columns() {
        let cols = [
            Column::new("ID", 36, 36),
            Column::new("STATUS", 8, 12),
            Column::new("YEAR", 4, 6),
            Column::new("CLUB", 10, 44),
            Column::new("STUDENT", 10, 44),
            Column::new("ASKED", 10, 10),
        ];
        let row = vec![
            "6f1c2a3b-0000-4000-8000-000000000001".to_owned(),
            "pending".to_owned(),
            "2026".to_owned(),
            "Robotics Club / ชุมนุมหุ่นยนต์".to_owned(),
            "#51234 สมชาย ใจดี".to_owned(),
            "2026-11-22".to_owned(),
        ];
        let t = table(&cols, &[row.clone(), row], Some(45));
        for l in t.lines() {
            assert!(text::width(l) <= 45, "{l:?} is wider than 45:\n{t}");
        }
        assert!(t.lines().nth(1).is_some_and(|l| l.contains('…')), "{t}");
    }

    #[test]
    fn tsv_keeps_one_record_per_line() {
        let t = tsv(&rows());
        assert_eq!(t.lines().count(), 3);
        assert!(t.lines().all(|l| l.split('\t').count() == 3), "{t:?}");
    }

    /// U+2028, U+2029, NEL, VT and FF (each a line break to Python's `splitlines`) never
    /// split a record of the table or the TSV, and JSON writes them escaped.
    #[test]
    fn no_line_break_of_any_kind_splits_a_record() {
        let name = "a\u{2028}b\u{2029}c\u{85}d\u{b}e\u{c}f\u{1c}g\r\nh";
        let rows = vec![vec!["1".to_owned(), name.to_owned(), "2026".to_owned()]];
        let is_break =
            |c: char| "\n\r\u{b}\u{c}\u{1c}\u{1d}\u{1e}\u{85}\u{2028}\u{2029}".contains(c);
        let t = tsv(&rows);
        assert_eq!(t.matches(is_break).count(), 1, "{t:?}");
        assert!(t.ends_with("\ta b c d e f g h\t2026\n"), "{t:?}");
        let t = table(&COLS, &rows, None);
        assert_eq!(t.matches(is_break).count(), 2, "header and row: {t:?}");
        let j = json(&serde_json::json!({ "name": name })).expect("json");
        assert!(j.contains("\\u2028") && j.contains("\\u2029") && !j.contains('\u{2028}'));
    }

    #[test]
    fn json_escapes_what_a_terminal_would_act_on_and_round_trips() {
        let v = serde_json::json!({"name": "a\u{9b}31mb\u{202e}c\u{1b}]52;c;x\u{7}", "th": "ไทย"});
        let s = json(&v).expect("json");
        assert!(!s.contains('\u{9b}') && !s.contains('\u{202e}') && !s.contains('\u{1b}'));
        assert!(s.contains("\\u009b") && s.contains("\\u202e") && s.contains("ไทย"));
        let back: serde_json::Value = serde_json::from_str(&s).expect("parses");
        assert_eq!(back, v);
    }

    #[test]
    fn format_choice() {
        let none = OutputArgs::default();
        assert_eq!(
            Format::choose(&none, true, Some(80)),
            Format::Table { width: Some(80) }
        );
        assert_eq!(Format::choose(&none, false, None), Format::Tsv);
        let table_flag = OutputArgs {
            table: true,
            ..OutputArgs::default()
        };
        assert_eq!(
            Format::choose(&table_flag, false, None),
            Format::Table { width: None }
        );
        let json_flag = OutputArgs {
            json: true,
            ..OutputArgs::default()
        };
        assert_eq!(Format::choose(&json_flag, true, Some(80)), Format::Json);
    }
}
