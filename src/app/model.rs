//! The Model: everything the view shows and `update` changes.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use tui_input::Input;
use uuid::Uuid;

use super::keymap::{Keymap, Scope};
use crate::api::{
    Club, ClubRequest, ContactType, FetchLevel, Levels, MembershipStatus, Timestamp, User,
};

/// Something fetched from the server.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Loadable<T> {
    /// Not asked for.
    #[default]
    NotAsked,
    /// In flight.
    Loading,
    /// Arrived.
    Loaded(T),
    /// Failed, with the error in words.
    Failed(String),
}

impl<T> Loadable<T> {
    /// The value, when loaded.
    pub fn get(&self) -> Option<&T> {
        match self {
            Loadable::Loaded(v) => Some(v),
            _ => None,
        }
    }
}

/// A pane that can have focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The review queue (and its detail pane).
    Queue,
    /// The club lookup.
    Club,
    /// The activity log.
    Log,
}

impl Pane {
    /// The keymap scope of this pane.
    pub fn scope(self) -> Scope {
        match self {
            Pane::Queue => Scope::Queue,
            Pane::Club => Scope::Club,
            Pane::Log => Scope::Log,
        }
    }
}

/// A decision on a club request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowAction {
    /// PUT status approved.
    Approve,
    /// PUT status declined.
    Decline,
    /// DELETE.
    Delete,
}

impl RowAction {
    /// Verb for the audit file and log (`approve`).
    pub fn verb(self) -> &'static str {
        match self {
            RowAction::Approve => "approve",
            RowAction::Decline => "decline",
            RowAction::Delete => "delete",
        }
    }

    /// Progressive form for the row (`approving…`).
    pub fn progress(self) -> &'static str {
        match self {
            RowAction::Approve => "approving…",
            RowAction::Decline => "declining…",
            RowAction::Delete => "deleting…",
        }
    }

    /// The membership status a PUT sets, if any.
    pub fn status(self) -> Option<MembershipStatus> {
        match self {
            RowAction::Approve => Some(MembershipStatus::Approved),
            RowAction::Decline => Some(MembershipStatus::Declined),
            RowAction::Delete => None,
        }
    }
}

/// The state of one row of the queue.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum RowState {
    /// Known by id only; not read yet.
    #[default]
    Unloaded,
    /// Being read.
    Loading,
    /// Read.
    Ready,
    /// The last read failed (the row's `error` says why); `Enter` tries again.
    Failed,
    /// An action is in flight; the row shows it until the server answers.
    Acting(RowAction),
    /// Deleted on the server (confirmed by the server's answer).
    Deleted,
    /// The server does not know this id (404): deleted elsewhere, or never existed.
    Gone,
}

/// Where a row came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// The server's listing.
    Listing,
    /// Ids given by the user (arguments, file, stdin, pasted).
    Manual,
}

/// One club request in the queue.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem {
    /// Request id.
    pub id: Uuid,
    /// What the server last said (merged across levels).
    pub request: Option<ClubRequest>,
    /// Row state.
    pub state: RowState,
    /// The last failed action on this row (the server's `detail`), shown until the next
    /// action; a later successful read does not clear it.
    pub error: Option<String>,
    /// The last failed read of this row, cleared by the next successful read.
    pub read_error: Option<String>,
    /// Marked for a bulk action.
    pub marked: bool,
    /// Where it came from.
    pub origin: Origin,
    /// Lower-case text the filter matches against (status, club, student, year, id).
    pub search: String,
}

impl QueueItem {
    /// A row known by id only.
    pub fn new(id: Uuid, origin: Origin) -> Self {
        let mut item = QueueItem {
            id,
            request: None,
            state: RowState::Unloaded,
            error: None,
            read_error: None,
            marked: false,
            origin,
            search: String::new(),
        };
        item.reindex();
        item
    }

    /// The error to show: the failed action's, else the failed read's.
    pub fn shown_error(&self) -> Option<&str> {
        self.error.as_deref().or(self.read_error.as_deref())
    }

    /// The membership status, when known.
    pub fn status(&self) -> Option<&MembershipStatus> {
        self.request.as_ref().and_then(|r| r.membership())
    }

    /// True when an approve/decline can still apply (pending, or not yet known).
    pub fn is_actionable(&self) -> bool {
        !matches!(
            self.state,
            RowState::Acting(_) | RowState::Deleted | RowState::Gone
        ) && self
            .status()
            .is_none_or(|s| *s == MembershipStatus::Pending)
    }

    /// Club name (English, else Thai), when known.
    pub fn club_name(&self) -> Option<&str> {
        self.request
            .as_ref()
            .and_then(|r| r.club.as_ref())
            .and_then(|c| c.name.as_ref())
            .and_then(|n| n.best())
    }

    /// Student name, when the level carried it.
    pub fn student_name(&self) -> Option<String> {
        self.request
            .as_ref()
            .and_then(|r| r.student.as_ref())
            .and_then(|s| s.person.as_ref())
            .and_then(|p| p.full_name(false))
    }

    /// School number, when known.
    pub fn school_number(&self) -> Option<&str> {
        self.request
            .as_ref()
            .and_then(|r| r.student.as_ref())
            .and_then(|s| s.student_id.as_deref())
    }

    /// Rebuilds the filter text after the request changed.
    pub fn reindex(&mut self) {
        let mut s = format!("{} ", self.id);
        if let Some(st) = self.status() {
            s.push_str(&format!("status:{st} "));
        }
        if let Some(r) = &self.request {
            if let Some(y) = r.year {
                s.push_str(&format!("year:{y} "));
            }
            if let Some(n) = r.club.as_ref().and_then(|c| c.name.as_ref()) {
                for t in [&n.en, &n.th].into_iter().flatten() {
                    s.push_str(&format!("club:{} ", t.to_lowercase().replace(' ', "_")));
                    s.push_str(&t.to_lowercase());
                    s.push(' ');
                }
            }
            if let Some(st) = &r.student {
                if let Some(n) = &st.student_id {
                    s.push_str(n);
                    s.push(' ');
                }
                if let Some(p) = &st.person {
                    for part in [&p.first_name, &p.last_name, &p.nickname]
                        .into_iter()
                        .flatten()
                    {
                        for t in [&part.en, &part.th].into_iter().flatten() {
                            s.push_str(&t.to_lowercase());
                            s.push(' ');
                        }
                    }
                }
            }
        }
        for e in [&self.error, &self.read_error].into_iter().flatten() {
            s.push_str(" error ");
            s.push_str(&e.to_lowercase());
        }
        self.search = s;
    }
}

/// Order of the queue.
///
/// The default is the server's listing order (year, then id): pages load at the end, below
/// the cursor, as the moderator works down the queue. The listing cannot sort by age
/// (api-notes.md: sort keys are id, club_id, student_id, membership_status, year), so
/// "oldest first" sorts what is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum QueueSort {
    /// As the server listed them (and ids as added).
    #[default]
    Server,
    /// Oldest request first.
    Age,
    /// By club name.
    Club,
    /// Pending first, then approved, declined.
    Status,
}

impl QueueSort {
    /// The next order in the cycle.
    pub fn next(self) -> QueueSort {
        match self {
            QueueSort::Server => QueueSort::Age,
            QueueSort::Age => QueueSort::Club,
            QueueSort::Club => QueueSort::Status,
            QueueSort::Status => QueueSort::Server,
        }
    }

    /// Label.
    pub fn label(self) -> &'static str {
        match self {
            QueueSort::Age => "oldest first",
            QueueSort::Club => "club",
            QueueSort::Status => "status",
            QueueSort::Server => "server order",
        }
    }
}

/// Counts over all rows of the queue, kept up to date as rows change (so drawing a frame
/// never walks the whole queue).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Pending rows.
    pub pending: usize,
    /// Approved rows.
    pub approved: usize,
    /// Declined rows.
    pub declined: usize,
    /// Deleted, gone, unknown or other rows.
    pub other: usize,
    /// Marked rows.
    pub marked: usize,
}

/// What of a row decides its place in the view and the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowKey {
    category: u8,
    marked: bool,
    created: Option<i64>,
    club: Option<String>,
}

fn category(item: &QueueItem) -> u8 {
    match (&item.state, item.status()) {
        (RowState::Deleted | RowState::Gone, _) => 3,
        (_, Some(MembershipStatus::Pending)) => 0,
        (_, Some(MembershipStatus::Approved)) => 1,
        (_, Some(MembershipStatus::Declined)) => 2,
        _ => 3,
    }
}

fn row_key(item: &QueueItem) -> RowKey {
    RowKey {
        category: category(item),
        marked: item.marked,
        created: item
            .request
            .as_ref()
            .and_then(|r| r.created_at)
            .map(|t| t.timestamp_micros()),
        club: item.club_name().map(str::to_lowercase),
    }
}

/// The review queue.
///
/// Rows changed through [`Queue::get_mut`] or [`Queue::set_marked`] are settled by
/// [`Queue::settle`] (which `update` calls once per message): counts are adjusted in place, and
/// the view is rebuilt only when a changed row enters or leaves the filter or moves in the
/// sort order.
#[derive(Debug, Clone, Default)]
pub struct Queue {
    /// Rows in arrival order.
    pub items: Vec<QueueItem>,
    /// Row index by request id.
    pub index: HashMap<Uuid, usize>,
    /// Indices into `items` that pass the filter, in sort order.
    pub visible: Vec<usize>,
    /// Cursor position in `visible`.
    pub cursor: usize,
    /// First visible row drawn (scroll).
    pub offset: usize,
    /// The filter text (change it with [`Queue::set_filter`]).
    pub filter: String,
    /// The order.
    pub sort: QueueSort,
    /// Where the last mark was set (for range marks), a position in `visible`.
    pub anchor: Option<usize>,
    /// Counts over all rows.
    pub stats: QueueStats,
    terms: Vec<super::filter::Term>,
    shown: Vec<bool>,
    touched: Vec<(usize, RowKey)>,
    /// Every row in sort order (filter not applied); rebuilt only when rows or the sort
    /// change, so a new filter costs one pass over the rows.
    order: Vec<usize>,
}

impl Queue {
    /// The row under the cursor.
    pub fn selected(&self) -> Option<&QueueItem> {
        self.visible.get(self.cursor).map(|&i| &self.items[i])
    }

    /// The row with this id.
    pub fn get(&self, id: Uuid) -> Option<&QueueItem> {
        self.index.get(&id).map(|&i| &self.items[i])
    }

    /// The row with this id, to change; settled by [`Queue::settle`].
    pub fn get_mut(&mut self, id: Uuid) -> Option<&mut QueueItem> {
        let i = *self.index.get(&id)?;
        self.touched.push((i, row_key(&self.items[i])));
        Some(&mut self.items[i])
    }

    /// Marks or unmarks the row at `index` (into `items`).
    pub fn set_marked(&mut self, index: usize, marked: bool) {
        if let Some(item) = self.items.get_mut(index)
            && item.marked != marked
        {
            item.marked = marked;
            if marked {
                self.stats.marked += 1;
            } else {
                self.stats.marked -= 1;
            }
        }
    }

    /// Unmarks every row.
    pub fn clear_marks(&mut self) {
        for i in &mut self.items {
            i.marked = false;
        }
        self.stats.marked = 0;
    }

    /// Sets the filter and rebuilds the view (one pass over the rows; the sort order is kept).
    pub fn set_filter(&mut self, filter: &str) {
        self.filter = filter.to_owned();
        self.terms = super::filter::parse(filter);
        if self.order.len() != self.items.len() || !self.touched.is_empty() {
            self.refresh_view();
        } else {
            self.apply_filter();
        }
    }

    /// Recomputes which rows pass the filter and the visible list from the kept order.
    fn apply_filter(&mut self) {
        let keep = self.selected().map(|i| i.id);
        let terms = &self.terms;
        self.shown = self
            .items
            .iter()
            .map(|i| super::filter::matches(terms, &i.search))
            .collect();
        let shown = &self.shown;
        self.visible = self.order.iter().copied().filter(|&i| shown[i]).collect();
        self.keep_cursor_on(keep);
    }

    fn keep_cursor_on(&mut self, keep: Option<Uuid>) {
        if let Some(id) = keep
            && let Some(&row) = self.index.get(&id)
            && let Some(pos) = self.visible.iter().position(|&v| v == row)
        {
            self.cursor = pos;
        }
        self.clamp();
    }

    /// Adds a row unless the id is already there; returns true when added. Call
    /// [`Queue::refresh_view`] after adding.
    pub fn push(&mut self, item: QueueItem) -> bool {
        if self.index.contains_key(&item.id) {
            return false;
        }
        self.index.insert(item.id, self.items.len());
        self.items.push(item);
        true
    }

    /// Replaces all rows (keeping those `keep` accepts) and rebuilds everything.
    pub fn retain(&mut self, keep: impl Fn(&QueueItem) -> bool) {
        self.items.retain(|i| keep(i));
        self.index = self
            .items
            .iter()
            .enumerate()
            .map(|(n, i)| (i.id, n))
            .collect();
        self.touched.clear();
        self.refresh_view();
    }

    /// Ids of marked rows (all, visible or not).
    pub fn marked_ids(&self) -> Vec<Uuid> {
        if self.stats.marked == 0 {
            return Vec::new();
        }
        self.items
            .iter()
            .filter(|i| i.marked)
            .map(|i| i.id)
            .collect()
    }

    /// Applies the changes made through [`Queue::get_mut`]: re-indexes the changed rows,
    /// adjusts the counts, and rebuilds the view only if a row's filter match or sort key
    /// changed.
    pub fn settle(&mut self) {
        if self.touched.is_empty() {
            return;
        }
        let mut touched = std::mem::take(&mut self.touched);
        touched.sort_by_key(|t| t.0);
        touched.dedup_by_key(|t| t.0);
        let mut rebuild = false;
        let mut refilter = false;
        for (i, before) in touched {
            if i >= self.items.len() {
                rebuild = true;
                continue;
            }
            self.items[i].reindex();
            let after = row_key(&self.items[i]);
            self.count(&before, -1);
            self.count(&after, 1);
            let matches = super::filter::matches(&self.terms, &self.items[i].search);
            let moved = match self.sort {
                QueueSort::Age => before.created != after.created,
                QueueSort::Club => before.club != after.club,
                QueueSort::Status => before.category != after.category,
                QueueSort::Server => false,
            };
            rebuild |= moved;
            refilter |= self.shown.get(i).copied() != Some(matches);
        }
        if rebuild || self.order.len() != self.items.len() {
            self.refresh_view();
        } else if refilter {
            self.apply_filter();
        }
    }

    fn count(&mut self, k: &RowKey, d: isize) {
        let slot = match k.category {
            0 => &mut self.stats.pending,
            1 => &mut self.stats.approved,
            2 => &mut self.stats.declined,
            _ => &mut self.stats.other,
        };
        *slot = slot.saturating_add_signed(d);
        if k.marked {
            self.stats.marked = self.stats.marked.saturating_add_signed(d);
        }
    }

    /// Recomputes `visible` from the filter and sort (and the counts), keeping the cursor on
    /// the same row when it is still visible.
    pub fn refresh_view(&mut self) {
        for (i, _) in std::mem::take(&mut self.touched) {
            if let Some(item) = self.items.get_mut(i) {
                item.reindex();
            }
        }
        if self.terms.is_empty() && !self.filter.trim().is_empty() {
            self.terms = super::filter::parse(&self.filter);
        }
        let items = &self.items;
        let mut order: Vec<usize> = (0..items.len()).collect();
        match self.sort {
            QueueSort::Server => {}
            QueueSort::Age => order.sort_by_cached_key(|&i| {
                let k = items[i].request.as_ref().and_then(|r| r.created_at);
                // Unknown ages last; then oldest first.
                (k.is_none(), k)
            }),
            QueueSort::Club => order.sort_by_cached_key(|&i| {
                let k = items[i].club_name().map(str::to_lowercase);
                (k.is_none(), k)
            }),
            QueueSort::Status => order.sort_by_key(|&i| match category(&items[i]) {
                0 => 0,
                3 if items[i].status().is_none() => 1,
                c => c + 1,
            }),
        }
        self.order = order;
        let mut stats = QueueStats::default();
        for item in &self.items {
            match category(item) {
                0 => stats.pending += 1,
                1 => stats.approved += 1,
                2 => stats.declined += 1,
                _ => stats.other += 1,
            }
            if item.marked {
                stats.marked += 1;
            }
        }
        self.stats = stats;
        self.apply_filter();
    }

    /// Keeps the cursor inside `visible`.
    pub fn clamp(&mut self) {
        if self.visible.is_empty() {
            self.cursor = 0;
        } else if self.cursor >= self.visible.len() {
            self.cursor = self.visible.len() - 1;
        }
    }

    /// Counts by membership status over all rows: (pending, approved, declined, other/unknown).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let s = self.stats;
        (s.pending, s.approved, s.declined, s.other)
    }
}

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
    /// A page request is in flight.
    pub loading: bool,
    /// Total matching, per `meta.pagination.total`.
    pub total: Option<u64>,
    /// When the listing was last loaded (page 1).
    pub refreshed_at: Option<Timestamp>,
    /// Bumped on every refresh; answers from older generations are dropped.
    pub generation: u64,
    /// Club names learnt from the staffed-clubs lookup.
    pub club_names: HashMap<Uuid, String>,
}

/// The club lookup pane.
#[derive(Debug, Clone, Default)]
pub struct ClubPane {
    /// The id or name field.
    pub input: Input,
    /// The field has focus (printable keys go to it).
    pub editing: bool,
    /// Level of the club.
    pub level: Option<FetchLevel>,
    /// The club shown.
    pub club: Loadable<Club>,
    /// Search results (when a name was looked up).
    pub results: Loadable<Vec<Club>>,
    /// Selected search result.
    pub result_cursor: usize,
    /// Scroll of the club details.
    pub scroll: u16,
    /// Id of the club shown or being loaded.
    pub club_id: Option<Uuid>,
}

impl ClubPane {
    /// The level in use (`default` unless changed).
    pub fn level(&self) -> FetchLevel {
        self.level.unwrap_or(FetchLevel::Default)
    }

    /// Levels for reading the club: descendants at `compact` unless `detailed` at the top.
    pub fn levels(&self) -> Levels {
        let l = self.level();
        Levels::new(
            l,
            if l >= FetchLevel::Default {
                FetchLevel::Compact
            } else {
                FetchLevel::IdOnly
            },
        )
    }
}

/// A pop-up over the panes.
#[derive(Debug, Clone)]
pub enum Popup {
    /// Key help, searchable.
    Help {
        /// Search text.
        query: Input,
        /// Scroll.
        scroll: u16,
    },
    /// Confirmation of a destructive or bulk action. Focus starts on Cancel.
    Confirm {
        /// What to do.
        action: RowAction,
        /// To which requests.
        ids: Vec<Uuid>,
        /// Marked rows the filter hides (part of `ids`).
        hidden: usize,
        /// Focus on the confirming button (false: on Cancel).
        on_confirm: bool,
    },
    /// Paste or type request ids.
    AddIds {
        /// The text.
        input: Input,
    },
    /// Paste a token.
    SignIn {
        /// The token, shown masked.
        input: Input,
        /// Save it to the token file.
        save: bool,
        /// Last error.
        error: Option<String>,
    },
    /// The `:` command line.
    Command {
        /// The command.
        input: Input,
    },
    /// The queue filter.
    Filter {
        /// Text (applied as typed).
        input: Input,
        /// The filter before editing (restored by Esc).
        before: String,
    },
    /// New contact for a club.
    AddContact {
        /// The club.
        club_id: Uuid,
        /// Index into [`ContactType::KNOWN`].
        kind: usize,
        /// The value.
        value: Input,
        /// Focus on the value field (false: on the type picker).
        on_value: bool,
        /// Last error.
        error: Option<String>,
    },
}

impl Popup {
    /// True when the pop-up has a text field with focus (printable keys go to it).
    pub fn takes_text(&self) -> bool {
        match self {
            Popup::Confirm { .. } => false,
            Popup::AddContact { on_value, .. } => *on_value,
            _ => true,
        }
    }
}

/// What an in-flight API call is for.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    /// The current user.
    User,
    /// Reading a request row.
    Fetch(Uuid),
    /// An action on a row.
    Act(Uuid, RowAction),
    /// The club pane.
    Club(Uuid),
    /// The club search results.
    ClubSearch,
    /// The clubs the user staffs (to scope the listing).
    StaffedClubs,
    /// A contact creation.
    Contact(Uuid),
    /// A page of the listing.
    ListPage {
        /// Page number.
        page: u32,
        /// Listing generation.
        generation: u64,
    },
    /// Re-reading known rows by id through the listing.
    Reread(Vec<Uuid>),
}

/// How an entry in the activity log ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Succeeded.
    Ok,
    /// Failed, with the reason.
    Failed(String),
    /// Sent, but no answer was seen (the program quit first), with the explanation.
    Unknown(String),
}

/// One entry of the activity log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// When the answer arrived (or, for earlier sessions, when it was recorded).
    pub at: Timestamp,
    /// What (`approve`, `delete`, `add-contact`, `sign-in`, `load`...).
    pub what: String,
    /// Which request or club, when any.
    pub target: Option<Uuid>,
    /// Short description of the target (student → club).
    pub label: String,
    /// Outcome.
    pub outcome: Outcome,
}

/// Severity of the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Neutral.
    Info,
    /// Good news.
    Success,
    /// A problem.
    Error,
}

/// The status line.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// Text.
    pub text: String,
    /// Severity.
    pub level: Level,
}

/// A bulk action in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkTask {
    /// What.
    pub action: RowAction,
    /// Rows in the task.
    pub ids: HashSet<Uuid>,
    /// Total.
    pub total: usize,
    /// Answered so far.
    pub done: usize,
    /// Failed so far.
    pub failed: usize,
}

/// Connection state for the header.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Connection {
    /// Nothing answered yet.
    #[default]
    Unknown,
    /// The last call reached the server.
    Online,
    /// The last call could not reach the server.
    Offline(String),
}

/// What is saved between starts for one server: ids added by hand and the filter.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedQueue {
    /// Base URL the queue belongs to.
    pub server: String,
    /// Ids added by hand (arguments, file, stdin, pasted), in order.
    pub manual_ids: Vec<Uuid>,
    /// The filter text.
    pub filter: String,
    /// The sort.
    #[serde(default)]
    pub sort: QueueSort,
}

/// Settings the model starts with.
#[derive(Debug, Clone)]
pub struct ModelOptions {
    /// Base URL shown in the header.
    pub base_url: String,
    /// Refuse mutating actions.
    pub read_only: bool,
    /// The keymap.
    pub keymap: Keymap,
    /// A token is configured.
    pub has_token: bool,
    /// When the token expires.
    pub token_expires: Option<Timestamp>,
    /// Sign-in address.
    pub sign_in_url: String,
    /// Listing page size.
    pub page_size: u32,
    /// Now.
    pub now: Timestamp,
    /// Mouse capture on at start.
    pub mouse: bool,
    /// Save a pasted token by default.
    pub save_token: bool,
    /// A pasted token can be saved (there is a token file to save it to).
    pub can_save_token: bool,
    /// What the saved queue and the audit entries are keyed by: the base URL, or `demo` for
    /// the in-process demo server (whose port changes at every start). `None`: the base URL.
    pub server_key: Option<String>,
}

impl ModelOptions {
    /// Defaults for `base_url`: default keymap, a token present, pages of 50, now, no mouse.
    pub fn new(base_url: &str) -> ModelOptions {
        ModelOptions {
            base_url: base_url.to_owned(),
            read_only: false,
            keymap: Keymap::default(),
            has_token: true,
            token_expires: None,
            sign_in_url: format!("{}/auth/oauth/init", base_url.trim_end_matches('/')),
            page_size: 50,
            now: chrono::Utc::now(),
            mouse: false,
            save_token: false,
            can_save_token: false,
            server_key: None,
        }
    }
}

/// The whole state of the dashboard.
#[derive(Debug, Clone)]
pub struct Model {
    /// Base URL.
    pub base_url: String,
    /// Key of this server in the saved queue and the audit file (see [`ModelOptions`]).
    pub server_key: String,
    /// Where to sign in.
    pub sign_in_url: String,
    /// `--read-only`.
    pub read_only: bool,
    /// The signed-in user.
    pub user: Loadable<User>,
    /// `api_version` of the last answer.
    pub api_version: Option<String>,
    /// A token is set.
    pub has_token: bool,
    /// Token expiry from `exp`.
    pub token_expires: Option<Timestamp>,
    /// A 401 said the session is over; cleared by signing in.
    pub session_expired: bool,
    /// Header connection state.
    pub connection: Connection,
    /// The queue.
    pub queue: Queue,
    /// Listing state.
    pub listing: Listing,
    /// Levels for reading requests.
    pub levels: Levels,
    /// Focused pane.
    pub focus: Pane,
    /// Open pop-up.
    pub popup: Option<Popup>,
    /// Club pane.
    pub club: ClubPane,
    /// Status line.
    pub status: Option<Status>,
    /// Activity log, oldest first.
    pub log: Vec<LogEntry>,
    /// Show the log pane.
    pub log_visible: bool,
    /// Log scroll from the bottom.
    pub log_scroll: usize,
    /// Bulk task.
    pub bulk: Option<BulkTask>,
    /// The keymap.
    pub keymap: Keymap,
    /// In-flight calls by request id.
    pub inflight: HashMap<u64, Pending>,
    /// Next request id.
    pub next_request_id: u64,
    /// Wall clock (set by ticks; keeps `view` deterministic).
    pub now: Timestamp,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// Rows of the queue table last drawn (for paging).
    pub page_rows: usize,
    /// Listing page size.
    pub page_size: u32,
    /// Mouse capture on.
    pub mouse: bool,
    /// Save pasted tokens by default.
    pub save_token: bool,
    /// A pasted token can be saved.
    pub can_save_token: bool,
    /// The user asked to quit.
    pub quitting: bool,
    /// `q` was pressed once while actions were in flight; a second `q` quits.
    pub quit_armed: bool,
}

impl Model {
    /// A fresh model.
    pub fn new(o: ModelOptions) -> Self {
        Model {
            server_key: o.server_key.unwrap_or_else(|| o.base_url.clone()),
            base_url: o.base_url,
            sign_in_url: o.sign_in_url,
            read_only: o.read_only,
            user: Loadable::NotAsked,
            api_version: None,
            has_token: o.has_token,
            token_expires: o.token_expires,
            session_expired: false,
            connection: Connection::Unknown,
            queue: Queue::default(),
            listing: Listing::default(),
            levels: Levels::REQUEST_ROW,
            focus: Pane::Queue,
            popup: None,
            club: ClubPane::default(),
            status: None,
            log: Vec::new(),
            log_visible: false,
            log_scroll: 0,
            bulk: None,
            keymap: o.keymap,
            inflight: HashMap::new(),
            next_request_id: 1,
            now: o.now,
            size: (120, 40),
            page_rows: 20,
            page_size: o.page_size.clamp(1, 100),
            mouse: o.mouse,
            save_token: o.save_token && o.can_save_token,
            can_save_token: o.can_save_token,
            quitting: false,
            quit_armed: false,
        }
    }

    /// True while something is in flight (the runtime ticks only then, for the spinner).
    pub fn busy(&self) -> bool {
        !self.inflight.is_empty()
    }

    /// The snapshot saved for the next start.
    pub fn saved_queue(&self) -> SavedQueue {
        SavedQueue {
            server: self.server_key.clone(),
            manual_ids: self
                .queue
                .items
                .iter()
                .filter(|i| i.origin == Origin::Manual && !matches!(i.state, RowState::Deleted))
                .map(|i| i.id)
                .collect(),
            filter: self.queue.filter.clone(),
            sort: self.queue.sort,
        }
    }

    /// The contact types in picker order.
    pub fn contact_types() -> &'static [ContactType] {
        ContactType::KNOWN
    }
}
