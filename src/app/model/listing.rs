//! The listing's state: whether the server lists club requests, which ones this dashboard
//! lists, and how far the paging got.

use std::collections::HashMap;

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
    /// Not decided yet (user not loaded).
    #[default]
    Undecided,
    /// Pending requests of these clubs (the clubs the user staffs).
    Clubs(Vec<Uuid>),
    /// Every pending request the server lists (teachers, admins).
    All,
    /// No listing (a student who staffs no club, or listing unavailable).
    None,
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
    /// `update::fetch::on_list_page`): at most one per gap, never a loop.
    pub swept: bool,
    /// A page request is in flight.
    pub loading: bool,
    /// Total matching, per `meta.pagination.total`.
    pub total: Option<u64>,
    /// When the listing was last loaded (page 1).
    pub refreshed_at: Option<Timestamp>,
    /// Bumped on every refresh; answers from older generations are dropped.
    pub generation: u64,
    /// Why the last listing call failed (cleared by the next page that arrives): an empty
    /// queue then says so instead of "no pending requests".
    pub error: Option<String>,
    /// Club names learnt from the staffed-clubs lookup.
    pub club_names: HashMap<Uuid, String>,
}
