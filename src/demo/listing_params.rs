//! Query strings of the demo server, read with `serde_qs` in the bracket syntax of the
//! deployed listings (api-notes.md, "Listing"):
//! `filter[data][club_ids][0]=<uuid>&sort[by][0]=id&sort[ascending]=true&pagination[p]=1`.
//!
//! Brackets may be percent-encoded (`%5B`, `%5D`, as `reqwest` sends them): `serde_qs` decodes
//! them in form-encoding mode; lower-case escapes (`%5b`) are accepted too, since
//! percent-encoding is case-insensitive. Unknown keys are ignored, so the dot syntax
//! (`filter.data.club_ids`) filters nothing, as on the deployed service. A `filter` or
//! `filter[data]` with no known field is 400 (api-notes.md: "an empty `filter[data]` is 400"),
//! and `pagination[p]` is required whenever `pagination` is sent.
//!
//! Failures are `Err(detail)`, the text of a 400 `invalid_request` answer, worded as the
//! deployed service words them ("Query deserialize error: ...").

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::api::{FetchLevel, Levels, MembershipStatus};

/// `fetch_level` and `descendant_fetch_level`, as sent (checked by [`LevelsQuery::levels`]).
#[derive(Debug, Default, Deserialize)]
pub struct LevelsQuery {
    /// Level of the record.
    pub fetch_level: Option<String>,
    /// Level of the records below it.
    pub descendant_fetch_level: Option<String>,
}

impl LevelsQuery {
    /// Both levels; absent means `id_only`.
    ///
    /// Errors: an unknown level, with the deployed service's "unknown variant" wording.
    pub fn levels(&self) -> Result<Levels, String> {
        Ok(Levels::new(
            parse_level(self.fetch_level.as_deref())?,
            parse_level(self.descendant_fetch_level.as_deref())?,
        ))
    }
}

/// One fetch level; `None` is `id_only` (the default of the deployed service).
///
/// Errors: an unknown level.
pub fn parse_level(v: Option<&str>) -> Result<FetchLevel, String> {
    match v {
        None => Ok(FetchLevel::IdOnly),
        Some(t) => FetchLevel::parse(t).ok_or_else(|| {
            format!(
                "Query deserialize error: unknown variant `{t}`, expected one of `id_only`, `compact`, `default`, `detailed`"
            )
        }),
    }
}

/// `sort[by][i]` and `sort[ascending]`.
#[derive(Debug, Default, Deserialize)]
pub struct SortQuery {
    /// Keys, most significant first (index order).
    pub by: Option<Vec<String>>,
    /// Direction; absent means ascending.
    pub ascending: Option<bool>,
}

/// `pagination[p]` (required, from 1) and `pagination[size]` (default 50).
#[derive(Debug, Deserialize)]
pub struct PaginationQuery {
    /// Page number.
    pub p: usize,
    /// Rows per page.
    pub size: Option<usize>,
}

/// `filter[data]` or `filter[q]`.
#[derive(Debug, Deserialize)]
#[serde(bound = "D: DeserializeOwned")]
pub struct FilterQuery<D> {
    /// Field filters.
    pub data: Option<D>,
    /// Free text (clubs only).
    pub q: Option<String>,
}

/// The whole query of a listing route, with `D` the route's `filter[data]` fields.
#[derive(Debug, Deserialize)]
#[serde(bound = "D: DeserializeOwned")]
pub struct ListQuery<D> {
    /// Level of the rows.
    pub fetch_level: Option<String>,
    /// Level of the records below the rows.
    pub descendant_fetch_level: Option<String>,
    /// `filter[data][...]` or `filter[q]` (never both: 400, api-notes.md).
    pub filter: Option<FilterQuery<D>>,
    /// Sort.
    pub sort: Option<SortQuery>,
    /// Page.
    pub pagination: Option<PaginationQuery>,
}

/// `filter[data]` of `GET /v1/clubs/requests`.
#[derive(Debug, Default, Deserialize)]
pub struct RequestFilterData {
    /// Request ids.
    pub ids: Option<Vec<Uuid>>,
    /// Club ids.
    pub club_ids: Option<Vec<Uuid>>,
    /// Student ids.
    pub student_ids: Option<Vec<Uuid>>,
    /// `pending`, `approved` or `declined` (checked by the handler).
    pub membership_status: Option<String>,
    /// Academic year.
    pub year: Option<i32>,
}

/// `filter[data]` of `GET /v1/clubs`.
#[derive(Debug, Default, Deserialize)]
pub struct ClubFilterData {
    /// Club ids.
    pub ids: Option<Vec<Uuid>>,
    /// Clubs holding any of these contacts.
    pub contact_ids: Option<Vec<Uuid>>,
    /// Clubs with any of these members (student ids).
    pub member_ids: Option<Vec<Uuid>>,
    /// Clubs with any of these staff (student ids).
    pub staff_ids: Option<Vec<Uuid>>,
    /// Name contains (either language, case-insensitive).
    pub name: Option<String>,
}

/// True when a `filter[data]` holds at least one known field.
pub trait FilterData {
    /// Whether any field was sent.
    fn is_set(&self) -> bool;
}

impl FilterData for RequestFilterData {
    fn is_set(&self) -> bool {
        self.ids.is_some()
            || self.club_ids.is_some()
            || self.student_ids.is_some()
            || self.membership_status.is_some()
            || self.year.is_some()
    }
}

impl FilterData for ClubFilterData {
    fn is_set(&self) -> bool {
        self.ids.is_some()
            || self.contact_ids.is_some()
            || self.member_ids.is_some()
            || self.staff_ids.is_some()
            || self.name.is_some()
    }
}

/// A listing's query, checked: levels, filter fields, sort keys, page.
#[derive(Debug)]
pub struct Listing<D> {
    /// Levels of the rows.
    pub levels: Levels,
    /// `filter[data]`, when sent (never empty).
    pub data: Option<D>,
    /// `filter[q]`, when sent.
    pub text: Option<String>,
    /// Sort keys (each one of the route's allowed keys), most significant first.
    pub sort_by: Vec<String>,
    /// Ascending unless `sort[ascending]=false`.
    pub ascending: bool,
    /// Page number (from 1) and size; `(1, 50)` when no `pagination` was sent.
    pub page: (usize, usize),
}

/// Parses a raw query string into `T` (bracket syntax, brackets possibly percent-encoded).
///
/// Errors: the 400 detail, "Query deserialize error: ...".
pub fn parse<T: DeserializeOwned>(raw: Option<&str>) -> Result<T, String> {
    let raw = raw.unwrap_or("");
    // serde_qs decodes `%5B`/`%5D` only in upper case; percent-encoding is case-insensitive.
    let text: Cow<'_, str> = if raw.contains("%5b") || raw.contains("%5d") {
        Cow::Owned(raw.replace("%5b", "%5B").replace("%5d", "%5D"))
    } else {
        Cow::Borrowed(raw)
    };
    serde_qs::Config::new()
        .use_form_encoding(true)
        .deserialize_str::<T>(&text)
        .map_err(|e| format!("Query deserialize error: {e}"))
}

/// Parses and checks a listing's query; `sort_keys` are the keys the route sorts by.
///
/// Errors: the 400 detail (unknown level, empty filter, unknown sort key, missing
/// `pagination[p]`, a malformed UUID or number).
pub fn listing<D: DeserializeOwned + FilterData>(
    raw: Option<&str>,
    sort_keys: &[&str],
) -> Result<Listing<D>, String> {
    let q: ListQuery<D> = parse(raw)?;
    let levels = Levels::new(
        parse_level(q.fetch_level.as_deref())?,
        parse_level(q.descendant_fetch_level.as_deref())?,
    );
    let (data, text) = match q.filter {
        None => (None, None),
        Some(f) => {
            if f.data.is_none() && f.q.is_none() {
                return Err("Query deserialize error: filter must not be empty".into());
            }
            if f.data.as_ref().is_some_and(|d| !d.is_set()) {
                return Err("Query deserialize error: filter[data] must not be empty".into());
            }
            (f.data, f.q)
        }
    };
    let sort = q.sort.unwrap_or_default();
    let sort_by = sort.by.unwrap_or_default();
    if let Some(bad) = sort_by.iter().find(|k| !sort_keys.contains(&k.as_str())) {
        return Err(format!(
            "Query deserialize error: unknown variant `{bad}` for sort"
        ));
    }
    let page = match q.pagination {
        None => (1, 50),
        Some(p) => (p.p.max(1), p.size.unwrap_or(50)),
    };
    Ok(Listing {
        levels,
        data,
        text,
        sort_by,
        ascending: sort.ascending.unwrap_or(true),
        page,
    })
}

/// A `membership_status` filter value.
///
/// Errors: anything but `pending`, `approved`, `declined`.
pub fn membership_status(text: &str) -> Result<MembershipStatus, String> {
    match MembershipStatus::parse(text) {
        MembershipStatus::Other(o) => {
            Err(format!("Query deserialize error: unknown variant `{o}`"))
        }
        s => Ok(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLUB: &str = "afc78f65-d4d6-4034-b978-a5a5055b2167";
    const OTHER: &str = "881852b6-708f-4cb5-884b-a66ab08f3240";

    fn requests(q: &str) -> Result<Listing<RequestFilterData>, String> {
        listing(Some(q), &["id", "year"])
    }

    #[test]
    fn brackets_plain_and_percent_encoded_read_alike() {
        let plain = format!(
            "filter[data][club_ids][0]={CLUB}&filter[data][club_ids][1]={OTHER}&filter[data][year]=2026&sort[by][0]=year&sort[by][1]=id&sort[ascending]=false&pagination[p]=2&pagination[size]=5&fetch_level=default&descendant_fetch_level=compact"
        );
        for q in [
            plain.clone(),
            plain.replace('[', "%5B").replace(']', "%5D"),
            plain.replace('[', "%5b").replace(']', "%5d"),
        ] {
            let l = requests(&q).expect("parses");
            let data = l.data.expect("filter[data]");
            assert_eq!(
                data.club_ids,
                Some(vec![
                    Uuid::parse_str(CLUB).expect("uuid"),
                    Uuid::parse_str(OTHER).expect("uuid")
                ]),
                "{q}"
            );
            assert_eq!(data.year, Some(2026));
            assert_eq!(l.sort_by, vec!["year", "id"]);
            assert!(!l.ascending);
            assert_eq!(l.page, (2, 5));
            assert_eq!(
                l.levels,
                Levels::new(FetchLevel::Default, FetchLevel::Compact)
            );
        }
    }

    #[test]
    fn indices_order_the_array() {
        let l = requests(&format!(
            "filter[data][ids][1]={CLUB}&filter[data][ids][0]={OTHER}"
        ))
        .expect("parses");
        let ids = l.data.and_then(|d| d.ids).expect("ids");
        assert_eq!(ids[0].to_string(), OTHER);
        assert_eq!(ids[1].to_string(), CLUB);
    }

    #[test]
    fn the_traps_of_api_notes() {
        // Dot syntax is ignored: no filter at all.
        let l = requests("filter.data.membership_status=approved").expect("ignored");
        assert!(l.data.is_none());
        // Empty filter[data], a filter[data] with no known field, and a bare filter are 400.
        for q in [
            "filter%5Bdata%5D=",
            "filter[data]=",
            "filter[data][nope]=1",
            "filter=",
        ] {
            let e = requests(q).expect_err(q);
            assert!(e.contains("must not be empty"), "{q}: {e}");
        }
        // pagination without p.
        let e = requests("pagination%5Bsize%5D=5").expect_err("no p");
        assert!(e.contains("missing field `p`"), "{e}");
        // Malformed values.
        for q in [
            "filter[data][club_ids][0]=nope",
            "filter[data][year]=abc",
            "sort[ascending]=maybe",
            "sort[by][0]=student_id",
            "fetch_level=everything",
        ] {
            let e = requests(q).expect_err(q);
            assert!(e.starts_with("Query deserialize error:"), "{q}: {e}");
        }
        // Defaults.
        let l = requests("").expect("empty query");
        assert_eq!(l.page, (1, 50));
        assert!(l.ascending && l.sort_by.is_empty());
        assert_eq!(l.levels, Levels::ID_ONLY);
    }

    #[test]
    fn club_text_query_decodes_thai_and_plus() {
        let l: Listing<ClubFilterData> =
            listing(Some("filter[q]=%E0%B8%AB%E0%B8%B8+x"), &["id"]).expect("parses");
        assert_eq!(l.text.as_deref(), Some("หุ x"));
        assert!(l.data.is_none());
    }

    #[test]
    fn levels_of_a_single_read() {
        let q: LevelsQuery = parse(Some("fetch_level=compact")).expect("parses");
        assert_eq!(
            q.levels(),
            Ok(Levels::new(FetchLevel::Compact, FetchLevel::IdOnly))
        );
        let q: LevelsQuery = parse(None).expect("parses");
        assert_eq!(q.levels(), Ok(Levels::ID_ONLY));
    }
}
