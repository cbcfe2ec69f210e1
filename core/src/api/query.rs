//! The bracket query syntax of the deployed listing routes (api-notes.md, "Listing").
//!
//! Everything travels in the query string: `filter[data][club_ids][0]=<uuid>`,
//! `filter[data][membership_status]=pending`, `sort[by][0]=id&sort[ascending]=true`,
//! `pagination[p]=1&pagination[size]=50`. Dot syntax is silently ignored by the server (and
//! would return everything), an empty `filter[data]` is 400, and `pagination[p]` is required
//! whenever `pagination` is sent: the builders here never produce those traps.

use uuid::Uuid;

use super::models::{FetchLevel, Levels, MembershipStatus};

/// Filter of `GET /v1/clubs/requests`. Empty fields are not sent; when all are empty no
/// `filter` is sent at all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestFilter {
    /// Only these request ids.
    pub ids: Vec<Uuid>,
    /// Only requests to these clubs.
    pub club_ids: Vec<Uuid>,
    /// Only requests from these students.
    pub student_ids: Vec<Uuid>,
    /// Only this membership status.
    pub membership_status: Option<MembershipStatus>,
    /// Only this academic year.
    pub year: Option<i32>,
}

/// Sort key of the request listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestSortKey {
    /// `id`
    Id,
    /// `club_id`
    ClubId,
    /// `student_id`
    StudentId,
    /// `membership_status`
    MembershipStatus,
    /// `year`
    Year,
}

impl RequestSortKey {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            RequestSortKey::Id => "id",
            RequestSortKey::ClubId => "club_id",
            RequestSortKey::StudentId => "student_id",
            RequestSortKey::MembershipStatus => "membership_status",
            RequestSortKey::Year => "year",
        }
    }
}

/// Sort of a listing: keys in order of precedence and a direction. Without a sort the
/// server's order is not stable across pages, so the client always sends one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sort<K> {
    /// Keys, most significant first.
    pub by: Vec<K>,
    /// Ascending when true.
    pub ascending: bool,
}

impl Default for Sort<RequestSortKey> {
    fn default() -> Self {
        Sort {
            by: vec![RequestSortKey::Year, RequestSortKey::Id],
            ascending: true,
        }
    }
}

/// A page of a listing: `p` counts from 1, `size` is clamped to 1..=100 (size 0 returns
/// nonsense on the deployed service).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// Page number, from 1.
    pub p: u32,
    /// Records per page.
    pub size: u32,
}

impl Page {
    /// Page `p` of `size` records, both clamped to their valid ranges.
    pub fn new(p: u32, size: u32) -> Self {
        Page {
            p: p.max(1),
            size: size.clamp(1, 100),
        }
    }
}

impl Default for Page {
    fn default() -> Self {
        Page::new(1, 50)
    }
}

/// Query of `GET /v1/clubs`: either free text (`filter[q]`) or structured data filters,
/// never both (the server answers 400 to the mix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClubQuery {
    /// Every club.
    All,
    /// Name or description, either language.
    Text(String),
    /// Clubs whose staff include these student ids (the clubs a student moderates).
    StaffIds(Vec<Uuid>),
    /// Exactly these club ids.
    Ids(Vec<Uuid>),
    /// Name match.
    Name(String),
}

type Pairs = Vec<(String, String)>;

fn push_levels(q: &mut Pairs, levels: Levels) {
    q.push(("fetch_level".into(), levels.fetch_level.as_str().into()));
    q.push((
        "descendant_fetch_level".into(),
        levels.descendant_fetch_level.as_str().into(),
    ));
}

fn push_ids(q: &mut Pairs, name: &str, ids: &[Uuid]) {
    for (i, id) in ids.iter().enumerate() {
        q.push((format!("filter[data][{name}][{i}]"), id.to_string()));
    }
}

fn push_page(q: &mut Pairs, page: Page) {
    q.push(("pagination[p]".into(), page.p.to_string()));
    q.push(("pagination[size]".into(), page.size.to_string()));
}

/// Query pairs for the request listing, in a stable order.
pub fn request_list_query(
    filter: &RequestFilter,
    sort: &Sort<RequestSortKey>,
    page: Page,
    levels: Levels,
) -> Pairs {
    let mut q = Pairs::new();
    push_ids(&mut q, "ids", &filter.ids);
    push_ids(&mut q, "club_ids", &filter.club_ids);
    push_ids(&mut q, "student_ids", &filter.student_ids);
    if let Some(s) = &filter.membership_status {
        q.push(("filter[data][membership_status]".into(), s.as_str().into()));
    }
    if let Some(y) = filter.year {
        q.push(("filter[data][year]".into(), y.to_string()));
    }
    push_levels(&mut q, levels);
    let by = if sort.by.is_empty() {
        vec![RequestSortKey::Id]
    } else {
        sort.by.clone()
    };
    for (i, k) in by.iter().enumerate() {
        q.push((format!("sort[by][{i}]"), k.as_str().into()));
    }
    q.push(("sort[ascending]".into(), sort.ascending.to_string()));
    push_page(&mut q, page);
    q
}

/// Query pairs for the club listing, sorted by `id` (the only club sort key).
pub fn club_list_query(query: &ClubQuery, page: Page, levels: Levels) -> Pairs {
    let mut q = Pairs::new();
    match query {
        ClubQuery::All => {}
        ClubQuery::Text(t) if t.trim().is_empty() => {}
        ClubQuery::Text(t) => q.push(("filter[q]".into(), t.trim().into())),
        ClubQuery::StaffIds(ids) => push_ids(&mut q, "staff_ids", ids),
        ClubQuery::Ids(ids) => push_ids(&mut q, "ids", ids),
        ClubQuery::Name(n) if n.trim().is_empty() => {}
        ClubQuery::Name(n) => q.push(("filter[data][name]".into(), n.trim().into())),
    }
    push_levels(&mut q, levels);
    q.push(("sort[by][0]".into(), "id".into()));
    q.push(("sort[ascending]".into(), "true".into()));
    push_page(&mut q, page);
    q
}

/// Query pairs for a single-record GET (`fetch_level`, `descendant_fetch_level`).
pub fn levels_query(levels: Levels) -> Pairs {
    let mut q = Pairs::new();
    push_levels(&mut q, levels);
    q
}

/// Parses a level name for command-line and config use.
pub fn parse_level(text: &str) -> Result<FetchLevel, String> {
    FetchLevel::parse(text).ok_or_else(|| {
        format!("unknown fetch level {text:?}: use id_only, compact, default or detailed")
    })
}
