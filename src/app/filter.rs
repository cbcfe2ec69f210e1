//! The queue filter: whitespace-separated terms that must all match (case-insensitive).
//!
//! `status:pending`, `year:2026`, `club:robot` or `club:หุ่นยนต์` (any part of the club's
//! name in either language, `_` for spaces), or any text matched anywhere (Thai included:
//! matching is on characters, not bytes). A term starting with `-` must not match.

/// One term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// Lower-case needle.
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
            let needle = t.to_lowercase();
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
/// others against its whole search text (both lower-case, see `QueueItem::reindex`).
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

/// Splits pasted text into request ids: any mix of whitespace, commas, semicolons and
/// newlines. Returns the valid ids (deduplicated, in order) and the tokens that are not
/// UUIDs (never sent to the server).
pub fn parse_ids(text: &str) -> (Vec<uuid::Uuid>, Vec<String>) {
    let mut ids = Vec::new();
    let mut bad = Vec::new();
    for tok in text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|t| t.trim_matches(|c: char| c == '"' || c == '\'' || c == '[' || c == ']'))
        .filter(|t| !t.is_empty())
    {
        match uuid::Uuid::parse_str(tok) {
            Ok(id) if !ids.contains(&id) => ids.push(id),
            Ok(_) => {}
            Err(_) => bad.push(crate::text::truncate_chars(&crate::text::sanitize(tok), 40)),
        }
    }
    (ids, bad)
}
