//! The listing's state: whether the server lists club requests, which ones this dashboard
//! lists, and how far the paging got.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::Timestamp;

/// Whether the server has the listing routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListingSupport {
    /// Not tried yet.
    #[default]
    Unknown,
    /// It answered.
    Available,
    /// 404: the queue is filled from ids only.
    Unavailable,
}

/// Which requests the listing fills the queue with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ListScope {
    /// Not known yet (user not loaded).
    #[default]
    Unknown,
    /// Pending requests of these clubs (the clubs the user staffs).
    Clubs(Vec<Uuid>),
    /// Every pending request the server lists (teachers, admins).
    All,
    /// No listing (a student who staffs no club, or listing unavailable).
    None,
}

/// The scope as remembered for the next start (in the saved queue, per server):
/// what the server's answers decided last time, so a warm start lists at once,
/// while `/auth/user` (and the staffed clubs) confirm or correct it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SavedScope {
    /// Every pending request (teachers, admins).
    All,
    /// The pending requests of these clubs (the clubs a student moderator staffs).
    Clubs(Vec<Uuid>),
    /// Nothing to list (a student on the staff of no club).
    None,
}

impl SavedScope {
    /// The remembered form of a scope the server's answers decided; `None` for
    /// [`ListScope::Unknown`].
    pub fn of(scope: &ListScope) -> Option<SavedScope> {
        match scope {
            ListScope::Unknown => None,
            ListScope::All => Some(SavedScope::All),
            ListScope::Clubs(ids) => Some(SavedScope::Clubs(ids.clone())),
            ListScope::None => Some(SavedScope::None),
        }
    }

    /// The scope to list with.
    pub fn scope(&self) -> ListScope {
        match self {
            SavedScope::All => ListScope::All,
            SavedScope::Clubs(ids) => ListScope::Clubs(ids.clone()),
            SavedScope::None => ListScope::None,
        }
    }
}

/// A request's place in the listing's order (`Sort::default()`: the year, then the id,
/// ascending; a request without a year last, as PostgreSQL sorts a null).
pub type ListingKey = (bool, i32, Uuid);

/// The place of `r` in the listing's order.
pub fn listing_key(r: &crate::api::ClubRequest) -> ListingKey {
    (r.year.is_none(), r.year.unwrap_or(0), r.id)
}

/// The end of the listing's order: after every request (the whole listing was read).
pub const LISTING_END: ListingKey = (true, i32::MAX, Uuid::max());

/// The ids of a scope's pending listing, as read once at `id_only` at its first load.
#[derive(Debug, Clone, Default)]
pub struct KnownIds {
    /// The scope they were read for.
    pub scope: ListScope,
    /// The ids its pages gave so far.
    pub ids: HashSet<Uuid>,
    /// Every page came: only then do they judge what is new.
    pub complete: bool,
}

/// The listing's paging state.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Whether the server lists.
    pub support: ListingSupport,
    /// What is listed.
    pub scope: ListScope,
    /// The server counts more pending requests than the queue has seen: scrolling near the
    /// end loads the next stretch (its page is computed by `load_more`).
    pub has_more: bool,
    /// A sweep from page 1 is under way or done since rows were last added (see
    /// `update::listing::on_list_page`): at most one per gap, never a loop.
    pub swept: bool,
    /// A page request is in flight.
    pub loading: bool,
    /// Total matching, per `meta.pagination.total`.
    pub total: Option<u64>,
    /// The request id of the answer whose count `total` is (0 before any): an answer to an
    /// older call does not replace it.
    pub counted_from: u64,
    /// The requests the answer that gave `total` listed: pending when counted, so a
    /// decision on one shrinks the count by one whenever it is applied.
    pub counted_pending: HashSet<Uuid>,
    /// This dashboard's decisions on the wire when the server last counted: that count may
    /// or may not include them, so their answer does not shrink `total`; it is read again
    /// instead ([`Listing::recount_due`]).
    pub counted_maybe: HashSet<Uuid>,
    /// `total` may be off by decisions applied while the server was counting: it is read
    /// again (one row's page) once no decision of this dashboard is on the wire and no page
    /// is on its way.
    pub recount_due: bool,
    /// When the listing was last loaded (page 1).
    pub refreshed_at: Option<Timestamp>,
    /// When it was loaded before that (this dashboard's clock).
    pub previous_load: Option<Timestamp>,
    /// The server's time (`meta.timestamp`, else this dashboard's clock) of the listing's
    /// first page the first time it came (after the start, or another account's sign-in):
    /// from then on a request entering the queue where the listing was read is new
    /// ([`Listing::read_to`]); beyond it, only one a refresh hunts for (the server's count
    /// grew) that was created later.
    pub first_load: Option<Timestamp>,
    /// How far the listing of this scope was read without a gap, in the listing's order
    /// ([`listing_key`]): a request that enters the queue at or before it was not there
    /// when that part was read, so it is new whatever its `created_at` (back-dated, moved
    /// into the club, a decline undone, another host's clock, a long transaction); rows
    /// after it are on pages not read yet. The end of the order once the whole listing was
    /// read. `None` before the first page, and for another scope than the one listed now.
    pub read_to: Option<(ListScope, ListingKey)>,
    /// The ids of the scope's pending requests when it was first listed, read at `id_only`
    /// after the first page when more pages follow ([`KnownIds`]): a request on a page not
    /// read yet that is not among them entered the listing since, so it is new whatever its
    /// `created_at`. `None` until asked, and after its read failed.
    pub known: Option<KnownIds>,
    /// The server's count of pending requests at the last page 1 (`meta.pagination.total`):
    /// a refresh that finds it grown reads on past the pages it had, to find the new ones.
    pub last_total: Option<u64>,
    /// A refresh found the count grown: its pages go on to the last one.
    pub hunting: bool,
    /// New requests a refresh found and has not announced yet.
    pub new_unsaid: usize,
    /// Marks dropped from rows a read showed decided elsewhere, not said yet.
    pub unmarked: usize,
    /// Another account signed in and its scope is not decided yet: the scope's correction
    /// says nothing (it is not "your clubs changed since the last start").
    pub new_account: bool,
    /// Bumped on every refresh; answers from older generations are dropped.
    pub generation: u64,
    /// Why the last listing call failed (cleared by the next page that arrives): an empty
    /// queue then says so instead of "no pending requests".
    pub error: Option<String>,
    /// The clubs the signed-in account staffs, as the staffed-clubs lookup answered (empty:
    /// none); `None` until it answered, and for an account that is not a student. What the
    /// rules of [`crate::ops::permit`] are asked with.
    pub staffed: Option<Vec<Uuid>>,
    /// Club names learnt from the staffed-clubs lookup.
    pub club_names: HashMap<Uuid, String>,
    /// The scope the server's answers decided last (saved for the next start).
    pub remembered: Option<SavedScope>,
    /// Bumped when `remembered` changes (`update` then saves the queue).
    pub remembered_version: u64,
    /// The scope was taken from the saved queue and the server has not confirmed it yet.
    pub provisional: bool,
    /// `G` was pressed while more pages were to come: the row it selected then. Each page
    /// that arrives moves the cursor on to the last row, while the cursor is still there.
    pub bottom_wanted: Option<Uuid>,
    /// A refresh (`r`, `--auto-refresh`) under way reloads this many pages, the ones loaded
    /// before it, and no more: a refresh never loads one page more.
    pub reload_pages: Option<u32>,
    /// The first load failed (a 5xx, an unreadable answer): when it is tried again by
    /// itself, with backoff (`Msg::Retry`); `None` once a page has arrived.
    pub retry_at: Option<Timestamp>,
    /// First-load retries sent so far (the backoff's exponent).
    pub retries: u32,
}
