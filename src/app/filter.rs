//! The queue filter: whitespace-separated terms that must all match (case-insensitive).
//!
//! `status:pending` or `status:รอพิจารณา` (the status in either language), `year:2026` or
//! `year:2569` (the academic year in CE or BE), `club:robot` or `club:หุ่นยนต์` (any part of
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
            (!needle.is_empty()).then_some(Term {
                needle,
                negated,
                club,
            })
        })
        .collect()
}

/// True when the row satisfies every term: `club:` terms against its club names, the
/// others against its whole search text (both [`fold`]ed, see `QueueItem::reindex`).
pub fn matches(terms: &[Term], item: &crate::app::model::QueueItem) -> bool {
    terms.iter().all(|t| {
        let haystack = if t.club {
            &item.club_search
        } else {
            &item.search
        };
        haystack.contains(t.needle.as_str()) != t.negated
    })
}

pub use crate::ops::input::parse_ids;

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
    }
}
