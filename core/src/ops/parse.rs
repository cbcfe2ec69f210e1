//! How input is read, the same in every front end: request ids, academic years (CE or BE),
//! contact values by type, a club given by id or by name. Nothing here sends a request:
//! bad input is refused before anything is sent.

use uuid::Uuid;

use crate::api::ContactProblem;
use crate::api::{Club, ContactType, NewContact};
use crate::i18n::Lang;
use crate::i18n::dates::BE_OFFSET;

/// Splits text into request ids: any mix of whitespace, commas, semicolons and newlines
/// (quotes and brackets around a token are dropped, so a JSON array of ids reads too).
/// Returns the valid ids (deduplicated, in order) and the tokens that are not UUIDs,
/// sanitised and cut to 40 characters (never sent to the server).
pub fn parse_ids(text: &str) -> (Vec<Uuid>, Vec<String>) {
    let mut ids = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut bad = Vec::new();
    for tok in tokens(text) {
        match Uuid::parse_str(tok) {
            Ok(id) if seen.insert(id) => ids.push(id),
            Ok(_) => {}
            Err(_) => bad.push(crate::text::truncate_chars(&crate::text::sanitize(tok), 40)),
        }
    }
    (ids, bad)
}

/// Text of ids read as bytes (a file, standard input), and the lines that are not UTF-8.
///
/// Returns every line of `bytes` (split at `\n`, numbered from 1), the lines that are not
/// UTF-8 decoded lossily (each bad byte sequence as U+FFFD, so a token holding one is not a
/// UUID: [`parse_ids`] reports it, and nothing of it is ever sent), and the numbers of those
/// lines, in order, for the reader's message ("line 3: not UTF-8"). One stray byte (a name in
/// Latin-1 pasted among the ids, a binary tail) costs its own token, never the whole file.
pub fn ids_text(bytes: &[u8]) -> (String, Vec<usize>) {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.to_owned(), Vec::new());
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut not_utf8 = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            text.push('\n');
        }
        match std::str::from_utf8(line) {
            Ok(l) => text.push_str(l),
            Err(_) => {
                not_utf8.push(i + 1);
                text.push_str(&String::from_utf8_lossy(line));
            }
        }
    }
    (text, not_utf8)
}

/// Ids one run reads from its standard input or a file at most, by default: a school's
/// largest spreadsheet fits many times over (`max_input_ids` in the config's
/// `[serve_ssh]`, `--max-input-ids`).
pub const MAX_INPUT_IDS: usize = 50_000;

/// The longest line of ids read, in bytes (a line of a spreadsheet's export, ids and their
/// columns, is far shorter).
pub const MAX_LINE_BYTES: usize = 16 * 1024;

/// Bytes of input read per id allowed, at most: blank lines and columns beside the ids
/// count too, so a stream of empty lines stops at `max_ids` × this.
pub const BYTES_PER_ID: usize = 128;

/// Invalid tokens named one by one; the rest are counted.
pub const NAMED_INVALID: usize = 5;

/// Why a stream of ids was refused before its end: nothing was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TooMuch {
    /// More ids (valid or not) than the bound.
    Ids(usize),
    /// A line longer than [`MAX_LINE_BYTES`] (its number).
    Line(usize),
    /// More bytes than `max_ids` × [`BYTES_PER_ID`].
    Bytes(usize),
}

impl std::fmt::Display for TooMuch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooMuch::Ids(n) => write!(
                f,
                "more than {n} ids or words (the bound of one run, max_input_ids; words that are not ids count too): split the list; nothing was sent"
            ),
            TooMuch::Line(n) => write!(
                f,
                "line {n} is longer than {MAX_LINE_BYTES} bytes: not a list of ids; nothing was sent"
            ),
            TooMuch::Bytes(n) => write!(
                f,
                "more than {n} bytes without that many ids: not a list of ids; nothing was sent"
            ),
        }
    }
}

/// Ids read from a stream chunk by chunk, within bounds ([`TooMuch`]): the same reading as
/// [`parse_ids`] and [`ids_text`] (any mix of separators; a line that is not UTF-8 named
/// and costs its own tokens), with at most `max_ids` ids, lines of at most
/// [`MAX_LINE_BYTES`] and `max_ids` × [`BYTES_PER_ID`] bytes in all, so that no input can
/// fill the memory of the process that reads it.
#[derive(Debug)]
pub struct IdStream {
    max_ids: usize,
    line: Vec<u8>,
    line_no: usize,
    bytes: usize,
    seen: std::collections::HashSet<Uuid>,
    /// The ids read, deduplicated, in order.
    pub ids: Vec<Uuid>,
    /// Tokens seen (valid or not; a repeated id counts each time).
    pub tokens: usize,
    /// The first [`NAMED_INVALID`] tokens that are not UUIDs (sanitised, cut to 40
    /// characters).
    pub invalid: Vec<String>,
    /// Every token that is not a UUID.
    pub invalid_count: usize,
    /// The numbers of the first [`NAMED_INVALID`] lines that are not UTF-8.
    pub not_utf8: Vec<usize>,
    /// Every line that is not UTF-8.
    pub not_utf8_count: usize,
    /// Ids given more than once (each repeat).
    pub duplicates: usize,
}

impl IdStream {
    /// A stream that takes at most `max_ids` ids (at least 1).
    pub fn new(max_ids: usize) -> IdStream {
        IdStream {
            max_ids: max_ids.max(1),
            line: Vec::new(),
            line_no: 0,
            bytes: 0,
            seen: std::collections::HashSet::new(),
            ids: Vec::new(),
            tokens: 0,
            invalid: Vec::new(),
            invalid_count: 0,
            not_utf8: Vec::new(),
            not_utf8_count: 0,
            duplicates: 0,
        }
    }

    /// The next bytes of the stream.
    ///
    /// Errors: a bound passed ([`TooMuch`]): stop reading.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), TooMuch> {
        self.bytes += chunk.len();
        let limit = self.max_ids.saturating_mul(BYTES_PER_ID);
        if self.bytes > limit {
            return Err(TooMuch::Bytes(limit));
        }
        let mut rest = chunk;
        while let Some(at) = rest.iter().position(|b| *b == b'\n') {
            self.line.extend_from_slice(&rest[..at]);
            rest = &rest[at + 1..];
            self.end_line()?;
        }
        self.line.extend_from_slice(rest);
        if self.line.len() > MAX_LINE_BYTES {
            return Err(TooMuch::Line(self.line_no + 1));
        }
        Ok(())
    }

    /// The end of the stream: its last line read.
    ///
    /// Errors: a bound passed ([`TooMuch`]).
    pub fn finish(&mut self) -> Result<(), TooMuch> {
        if !self.line.is_empty() {
            self.end_line()?;
        }
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), TooMuch> {
        self.line_no += 1;
        if self.line.len() > MAX_LINE_BYTES {
            return Err(TooMuch::Line(self.line_no));
        }
        let line = std::mem::take(&mut self.line);
        let text = match std::str::from_utf8(&line) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => {
                self.not_utf8_count += 1;
                if self.not_utf8.len() < NAMED_INVALID {
                    self.not_utf8.push(self.line_no);
                }
                String::from_utf8_lossy(&line)
            }
        };
        for tok in tokens(&text) {
            self.tokens += 1;
            if self.tokens > self.max_ids {
                return Err(TooMuch::Ids(self.max_ids));
            }
            match Uuid::parse_str(tok) {
                Ok(id) if self.seen.insert(id) => self.ids.push(id),
                Ok(_) => self.duplicates += 1,
                Err(_) => {
                    self.invalid_count += 1;
                    if self.invalid.len() < NAMED_INVALID {
                        self.invalid
                            .push(crate::text::truncate_chars(&crate::text::sanitize(tok), 40));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The tokens of ids text: split at whitespace, commas and semicolons, quotes, brackets and
/// a byte order mark around each dropped, empty ones skipped.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        // Quotes and brackets around an id, and the byte order mark a spreadsheet's export
        // starts with (U+FEFF: invisible, so the id would look valid in the error).
        .map(|t| t.trim_matches(|c: char| matches!(c, '"' | '\'' | '[' | ']' | '\u{feff}')))
        .filter(|t| !t.is_empty())
}

/// The earliest academic year accepted, CE.
pub const FIRST_YEAR: i32 = 2000;
/// The latest academic year accepted, CE.
pub const LAST_YEAR: i32 = 2100;

/// An academic year as typed, in the Common Era (2026) or the Buddhist Era (2569, as Thai
/// schools write it): the CE year the API takes (`filter[data][year]`, api-notes.md).
/// A number from [`FIRST_YEAR`] + 543 up is read as BE.
///
/// Errors: not a whole number, or outside 2000-2100 CE (2543-2643 BE), with a message.
pub fn academic_year(text: &str) -> Result<i32, String> {
    let t = text.trim();
    let n: i32 = t.parse().map_err(|_| {
        format!(
            "{:?} is not a year: give it as 2026 (CE) or 2569 (BE)",
            crate::text::clean(t, 20)
        )
    })?;
    let ce = if n >= FIRST_YEAR + BE_OFFSET {
        n - BE_OFFSET
    } else {
        n
    };
    if !(FIRST_YEAR..=LAST_YEAR).contains(&ce) {
        return Err(format!(
            "{n} is not an academic year from {FIRST_YEAR} to {LAST_YEAR} (CE) or {} to {} (BE)",
            FIRST_YEAR + BE_OFFSET,
            LAST_YEAR + BE_OFFSET
        ));
    }
    Ok(ce)
}

/// A new contact read from its type's wire name (`email`, `line`, ...; interface-spec.md
/// and api-notes.md "Contact") and its value, trimmed and checked for its type
/// ([`NewContact::check`]): the rule of the dashboard's form and of `clubs contact add`.
///
/// Errors: what is wrong with the value ([`ContactProblem`]).
pub fn contact(kind: &str, value: &str) -> Result<NewContact, ContactProblem> {
    let new = NewContact {
        kind: ContactType::parse(kind.trim()),
        value: value.trim().to_owned(),
    };
    new.check()?;
    Ok(new)
}

/// The format a contact type expects, in English (the command line's refusal):
/// [`contact_format_in`] in English.
pub fn contact_format(kind: &ContactType) -> String {
    contact_format_in(Lang::English, kind)
}

/// The format a contact type expects, in `lang` ("an e-mail address, like
/// club@school.ac.th"): the text both front ends show with a refused value (`form-contact-format-*`
/// in `assets/locales/*/popups.ftl`), for the rule of [`NewContact::check`].
pub fn contact_format_in(lang: Lang, kind: &ContactType) -> String {
    let key = match kind {
        ContactType::Email => "form-contact-format-email",
        ContactType::Phone => "form-contact-format-phone",
        ContactType::Website => "form-contact-format-website",
        ContactType::Line => "form-contact-format-line",
        ContactType::Instagram => "form-contact-format-instagram",
        ContactType::Facebook => "form-contact-format-facebook",
        ContactType::Discord => "form-contact-format-discord",
        ContactType::OtherType | ContactType::Other(_) => "form-contact-format-other",
    };
    crate::i18n::tr(lang, key)
}

/// `a line`, `an email`: the contact type's name with its article (for messages).
pub fn with_article(kind: &str) -> String {
    let vowel = kind
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {kind}", if vowel { "an" } else { "a" })
}

/// A club as given: by id, or by (part of) its name in English or Thai.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClubRef {
    /// A club id.
    Id(Uuid),
    /// Text to search clubs by (`filter[q]`, deployed listing, api-notes.md).
    Name(String),
}

impl ClubRef {
    /// Reads a club reference: a UUID is an id; hex digits and dashes that are not a UUID
    /// are a mistyped id (refused); anything else is a name.
    ///
    /// Errors: empty text, or a mistyped id, with a message.
    pub fn parse(text: &str) -> Result<ClubRef, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("no club given: give its id or (part of) its name".to_owned());
        }
        if let Ok(id) = Uuid::parse_str(t) {
            return Ok(ClubRef::Id(id));
        }
        if looks_like_id(t) {
            return Err(format!(
                "\"{}\" is not a club id (a UUID)",
                crate::text::clean(t, 40)
            ));
        }
        // SARA AM typed as NIKHAHIT + SARA AA (as a terminal shows it) is searched as
        // the one character the server's names hold.
        Ok(ClubRef::Name(
            t.replace("\u{0E4D}\u{0E32}", "\u{0E33}")
                .replace("\u{0ECD}\u{0EB2}", "\u{0EB3}"),
        ))
    }
}

/// Hex and dashes only, long enough to be meant as an id.
fn looks_like_id(text: &str) -> bool {
    text.len() >= 8 && text.contains('-') && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// Which club a name search means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClubPick {
    /// Exactly one club: the only match, or the only one whose English or Thai name equals
    /// the name typed (ignoring case and how SARA AM was typed).
    One(Uuid),
    /// No club matched.
    None,
    /// Several matched and none by its whole name: the user chooses.
    Many(usize),
}

/// The club `name` means among the search results `clubs`.
pub fn pick_club(name: &str, clubs: &[Club]) -> ClubPick {
    let wanted = crate::text::fold(name.trim());
    let exact: Vec<&Club> = clubs
        .iter()
        .filter(|c| {
            c.name.as_ref().is_some_and(|n| {
                [&n.en, &n.th]
                    .into_iter()
                    .flatten()
                    .any(|s| crate::text::fold(s.trim()) == wanted)
            })
        })
        .collect();
    match (clubs.len(), exact.len()) {
        (0, _) => ClubPick::None,
        (1, _) => ClubPick::One(clubs[0].id),
        (_, 1) => ClubPick::One(exact[0].id),
        (n, _) => ClubPick::Many(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spreadsheet_s_byte_order_mark_is_not_part_of_the_first_id() {
        let text =
            "\u{feff}6f1c2b9e-0000-4000-8000-000000000001\n6f1c2b9e-0000-4000-8000-000000000002";
        let (ids, bad) = parse_ids(text);
        assert_eq!(ids.len(), 2, "{bad:?}");
        assert!(bad.is_empty());
    }

    #[test]
    fn years_are_read_in_either_era_and_bounded() {
        assert_eq!(academic_year("2026"), Ok(2026));
        assert_eq!(academic_year(" 2569 "), Ok(2026));
        assert!(academic_year("26").is_err());
        assert!(academic_year("3000").is_err());
        assert!(academic_year("twenty").is_err());
        assert!(academic_year("2543").is_ok_and(|y| y == 2000));
    }

    #[test]
    fn ids_are_split_and_bad_tokens_kept_apart() {
        let a = "6f1c1b9e-3d57-4c4b-9a38-1b2f6a8b5c01";
        let (ids, bad) = parse_ids(&format!("[\"{a}\", nope; {a}]"));
        assert_eq!(ids.len(), 1);
        assert_eq!(bad, vec!["nope".to_owned()]);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_named_and_costs_only_its_own_tokens() {
        let a = "6f1c1b9e-3d57-4c4b-9a38-1b2f6a8b5c01";
        let b = "6f1c1b9e-3d57-4c4b-9a38-1b2f6a8b5c02";
        let bytes = [a.as_bytes(), b"\ncaf\xe9\xff\r\n", b.as_bytes(), b"\n"].concat();
        let (text, not_utf8) = ids_text(&bytes);
        assert_eq!(not_utf8, vec![2]);
        let (ids, bad) = parse_ids(&text);
        assert_eq!(ids.len(), 2, "the ids around it are kept: {text:?}");
        assert_eq!(bad.len(), 1, "its token is reported, never sent: {bad:?}");
        assert!(bad[0].starts_with("caf"), "{bad:?}");
        assert_eq!(ids_text(a.as_bytes()), (a.to_owned(), Vec::new()));
    }

    #[test]
    fn a_club_is_an_id_a_mistyped_id_or_a_name() {
        let a = "6f1c1b9e-3d57-4c4b-9a38-1b2f6a8b5c01";
        assert!(matches!(ClubRef::parse(a), Ok(ClubRef::Id(_))));
        assert!(ClubRef::parse("6f1c1b9e-3d57").is_err());
        assert_eq!(ClubRef::parse(" robot "), Ok(ClubRef::Name("robot".into())));
        assert!(ClubRef::parse("  ").is_err());
    }

    #[test]
    fn contact_values_are_checked_for_their_type() {
        assert!(contact("email", "nope").is_err());
        assert!(
            contact("email", " club@school.ac.th ").is_ok_and(|c| c.value == "club@school.ac.th")
        );
        assert!(contact("line", "@robot_club").is_ok());
    }
}
