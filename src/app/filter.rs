//! The queue filter: whitespace-separated terms that must all match (case-insensitive).
//!
//! `status:pending` or `status:รอพิจารณา` (the status in either language), `year:2026` or
//! `year:2569` (the academic year in CE or BE, read by the command line's rule
//! [`crate::ops::parse::academic_year`]: the whole year, never a part of it), `club:robot` or `club:หุ่นยนต์` (any part of
//! the club's name in either language, `_` for spaces), or any text matched anywhere (Thai
//! included: matching is on characters, not bytes). A term starting with `-` must not
//! match. Both sides are compared [`fold`]ed, so SARA AM matches however it was typed.

pub use crate::text::fold;

/// One term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// The needle, [`fold`]ed.
    pub needle: String,
    /// True for `-term`.
    pub negated: bool,
    /// True for `club:...`: matched against the club's names only (the needle is what
    /// follows `club:`).
    pub club: bool,
    /// For `year:...`: the academic year in CE as the command line reads it
    /// ([`crate::ops::parse::academic_year`]: `year:2569` is `year:2026`), matched against
    /// the request's year exactly; `Some(None)` for text that is no year (`year:202`), which
    /// matches no request. `None` for other terms.
    pub year: Option<Option<i32>>,
}

/// Parses the filter text.
pub fn parse(text: &str) -> Vec<Term> {
    text.split_whitespace()
        .filter_map(|t| {
            let (negated, t) = match t.strip_prefix('-') {
                Some(rest) if !rest.is_empty() => (true, rest),
                _ => (false, t),
            };
            let needle = fold(t);
            let (needle, club) = match needle.strip_prefix("club:") {
                Some(rest) if !rest.is_empty() => (rest.to_owned(), true),
                _ => (needle, false),
            };
            let year = match needle.strip_prefix("year:") {
                Some(rest) if !rest.is_empty() => Some(crate::ops::parse::academic_year(rest).ok()),
                _ => None,
            };
            (!needle.is_empty()).then_some(Term {
                needle,
                negated,
                club,
                year,
            })
        })
        .collect()
}

/// What a row is matched by: its search text and its clubs' names (both [`fold`]ed, built
/// by `QueueItem::reindex`) and its request's academic year in CE, if known.
#[derive(Debug, Clone, Copy)]
pub struct Haystack<'a> {
    /// The row's whole search text, folded.
    pub all: &'a str,
    /// The club's names in both languages, folded.
    pub club: &'a str,
    /// The request's academic year (CE), when read.
    pub year: Option<i32>,
}

/// True when the row satisfies every term: `year:` terms by the request's academic year (the
/// command line's rule: CE or BE, the whole year), `club:` terms against its club names, the
/// others against its whole search text.
pub fn matches(terms: &[Term], row: Haystack<'_>) -> bool {
    terms.iter().all(|t| {
        if let Some(year) = t.year {
            let has = year.is_some() && row.year == year;
            return has != t.negated;
        }
        let haystack = if t.club { row.club } else { row.all };
        haystack.contains(t.needle.as_str()) != t.negated
    })
}

pub use crate::ops::parse::parse_ids;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_lowers_case_and_writes_sara_am_as_the_screen_draws_it() {
        assert_eq!(fold("คำสั่ง"), "ค\u{0E4D}\u{0E32}สั่ง");
        assert_eq!(fold("ค\u{0E4D}\u{0E32}สั่ง"), fold("คำสั่ง"));
        assert_eq!(fold("Command LINE"), "command line");
        assert_eq!(fold("ຄຳ"), "ຄ\u{0ECD}\u{0EB2}");
        assert_eq!(fold("a\u{200B}b"), "ab");
        // What the locale files give (drawn for the terminal) folds to the same.
        let drawn = crate::text::for_terminal("บรรทัดคำสั่ง");
        assert!(fold(&drawn).contains(&fold("คำสั่ง")));
    }

    #[test]
    fn terms_are_folded() {
        let t = parse("Club:วันละคำ -Year:2569");
        assert_eq!(t[0].needle, "วันละค\u{0E4D}\u{0E32}");
        assert!(t[0].club && !t[0].negated);
        assert_eq!(t[1].needle, "year:2569");
        assert!(t[1].negated);
        assert_eq!(t[1].year, Some(Some(2026)), "the command line's year rule");
        assert_eq!(parse("year:202")[0].year, Some(None), "not a year");
        assert_eq!(parse("year:2026")[0].year, Some(Some(2026)));
        assert_eq!(parse("2026")[0].year, None, "plain text stays text");
    }
}
