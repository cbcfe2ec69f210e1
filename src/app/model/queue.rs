//! The review queue: rows in arrival order, the filtered and sorted view of them, the
//! cursor, marks and counts. Rows change only through [`Queue`]'s methods; the view and the
//! counts follow through [`Queue::apply_changes`], which `update` calls once per message.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::row::{Origin, QueueItem, RowState};
use crate::api::MembershipStatus;

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

    /// How the order is named in the queue's bottom line (in `lang`: keys `queue-sort-*`):
    /// "oldest first" / "เก่าสุดก่อน".
    pub fn label_in(self, lang: crate::i18n::Lang) -> String {
        let key = match self {
            QueueSort::Age => "queue-sort-age",
            QueueSort::Club => "queue-sort-club",
            QueueSort::Status => "queue-sort-status",
            QueueSort::Server => "queue-sort-server",
        };
        crate::i18n::tr(lang, key)
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
    /// Deleted, gone or other rows.
    pub other: usize,
    /// Rows not read from the server yet (added by id, or an interrupted run's write being
    /// re-read): their status is not known.
    pub unread: usize,
    /// Marked rows.
    pub marked: usize,
}

/// What of a row decides its place in the view and the counts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RowKey {
    category: u8,
    manual: bool,
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
        (_, None) => 4,
        (_, Some(MembershipStatus::Other(_))) => 3,
    }
}

fn row_key(item: &QueueItem) -> RowKey {
    RowKey {
        category: category(item),
        manual: item.origin == Origin::Manual,
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
/// Rows changed through [`Queue::get_mut`] or the marking methods are applied by
/// [`Queue::apply_changes`]: counts are adjusted in place, and the view is rebuilt only when a
/// changed row enters or leaves the filter or moves in the sort order. The cursor is a
/// position in the view; it stays on the same request when the view is rebuilt.
#[derive(Debug, Clone, Default)]
pub struct Queue {
    items: Vec<QueueItem>,
    index: HashMap<Uuid, usize>,
    /// Indices into `items` that pass the filter, in sort order.
    visible: Vec<usize>,
    cursor: usize,
    offset: usize,
    filter: String,
    sort: QueueSort,
    /// Where the last mark was set (for range marks), a position in `visible`.
    anchor: Option<usize>,
    stats: QueueStats,
    terms: Vec<crate::app::filter::Term>,
    shown: Vec<bool>,
    touched: Vec<(usize, RowKey)>,
    /// Every row in sort order (filter not applied); rebuilt only when rows or the sort
    /// change, so a new filter costs one pass over the rows.
    order: Vec<usize>,
    /// Bumped whenever what [`super::SavedQueue`] holds may have changed (ids added by hand,
    /// their deletion, the filter, the sort): `update` compares it to decide on saving.
    persist_version: u64,
}

impl Queue {
    /// Every row, in arrival order.
    pub fn items(&self) -> &[QueueItem] {
        &self.items
    }

    /// The view: indices into [`Queue::items`] that pass the filter, in sort order.
    pub fn visible(&self) -> &[usize] {
        &self.visible
    }

    /// The row at `pos` in the view.
    pub fn visible_item(&self, pos: usize) -> Option<&QueueItem> {
        self.visible.get(pos).map(|&i| &self.items[i])
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the queue has no rows.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The cursor: a position in the view (0 when the view is empty).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Moves the cursor to `pos` in the view (clamped to the last row).
    pub fn set_cursor(&mut self, pos: usize) {
        self.cursor = pos;
        self.clamp();
    }

    /// First row of the view drawn (scroll), kept by [`Queue::scroll_into_view`].
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Keeps the cursor inside a window of `rows` drawn rows, scrolling as little as
    /// possible.
    pub fn scroll_into_view(&mut self, rows: usize) {
        let rows = rows.max(1);
        self.clamp();
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + rows {
            self.offset = self.cursor + 1 - rows;
        }
        self.offset = self.offset.min(self.visible.len().saturating_sub(rows));
    }

    /// The filter text.
    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// The order.
    pub fn sort(&self) -> QueueSort {
        self.sort
    }

    /// Sets the order and rebuilds the view (the cursor stays on its request).
    pub fn set_sort(&mut self, sort: QueueSort) {
        if self.sort != sort {
            self.persist_version += 1;
        }
        self.sort = sort;
        self.refresh_view();
    }

    /// Where the last mark was set, a position in the view.
    pub fn anchor(&self) -> Option<usize> {
        self.anchor
    }

    /// Sets or clears the range-mark anchor.
    pub fn set_anchor(&mut self, anchor: Option<usize>) {
        self.anchor = anchor;
    }

    /// Counts over all rows.
    pub fn stats(&self) -> QueueStats {
        self.stats
    }

    /// See the field of the same name: changes when the saved part may have changed.
    pub fn persist_version(&self) -> u64 {
        self.persist_version
    }

    /// The row under the cursor.
    pub fn selected(&self) -> Option<&QueueItem> {
        self.visible.get(self.cursor).map(|&i| &self.items[i])
    }

    /// The row with this id.
    pub fn get(&self, id: Uuid) -> Option<&QueueItem> {
        self.index.get(&id).map(|&i| &self.items[i])
    }

    /// The row with this id, to change; applied by [`Queue::apply_changes`].
    pub fn get_mut(&mut self, id: Uuid) -> Option<&mut QueueItem> {
        let i = *self.index.get(&id)?;
        self.touched.push((i, row_key(&self.items[i])));
        Some(&mut self.items[i])
    }

    /// Marks or unmarks the row at `index` (into [`Queue::items`]).
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
            // A row changed earlier in this message (`get_mut`) is recounted from its key
            // before that change: the mark is counted here already, not twice.
            for (i, before) in &mut self.touched {
                if *i == index {
                    before.marked = marked;
                }
            }
        }
    }

    /// Unmarks every row.
    pub fn clear_marks(&mut self) {
        for i in &mut self.items {
            i.marked = false;
        }
        for (_, before) in &mut self.touched {
            before.marked = false;
        }
        self.stats.marked = 0;
    }

    /// Sets the filter and rebuilds the view (one pass over the rows; the sort order is kept).
    /// The cursor stays on its request if still shown, else goes to the first row.
    pub fn set_filter(&mut self, filter: &str) {
        if self.filter != filter {
            self.persist_version += 1;
        }
        self.filter = filter.to_owned();
        self.terms = crate::app::filter::parse(filter);
        let old = self.view_ids();
        if self.order.len() != self.items.len() || !self.touched.is_empty() {
            self.rebuild_order();
        }
        self.apply_filter(old, true);
    }

    /// The ids of the view, in order (what the moderator sees before a change).
    fn view_ids(&self) -> Vec<Uuid> {
        self.visible
            .iter()
            .filter_map(|&i| self.items.get(i))
            .map(|i| i.id)
            .collect()
    }

    /// Recomputes which rows pass the filter and the visible list from the kept order, then
    /// puts the cursor back on what the moderator saw (see [`Queue::relocate`]).
    fn apply_filter(&mut self, old: Vec<Uuid>, filter_changed: bool) {
        let old_cursor = self.cursor;
        let terms = &self.terms;
        self.shown = self.items.iter().map(|i| i.matches(terms)).collect();
        let shown = &self.shown;
        self.visible = self.order.iter().copied().filter(|&i| shown[i]).collect();
        self.relocate(&old, old_cursor, filter_changed);
    }

    /// The cursor follows the request, not the row number: the request selected in `old`
    /// (the view before) stays selected if still shown; after a filter that hides it, the
    /// first row; otherwise its nearest neighbour in the old order (the next one still
    /// shown, else the previous one).
    fn relocate(&mut self, old: &[Uuid], old_cursor: usize, filter_changed: bool) {
        let shown_row = |q: &Queue, id: &Uuid| {
            q.index
                .get(id)
                .copied()
                .filter(|&i| q.shown.get(i).copied().unwrap_or(false))
        };
        let target = match old.get(old_cursor) {
            Some(sel) if shown_row(self, sel).is_some() => shown_row(self, sel),
            Some(_) if filter_changed => {
                self.cursor = 0;
                return;
            }
            Some(_) => old[old_cursor + 1..]
                .iter()
                .chain(old[..old_cursor].iter().rev())
                .find_map(|id| shown_row(self, id)),
            None => None,
        };
        if let Some(row) = target
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
        if item.origin == Origin::Manual {
            self.persist_version += 1;
        }
        self.index.insert(item.id, self.items.len());
        self.items.push(item);
        true
    }

    /// Adds a row where the server's order puts it: before the row `before`, or else just
    /// after the row `after`, when that row is in the queue; at the end otherwise (as
    /// [`Queue::push`]). False if the id is already there. The view follows at the next
    /// [`Queue::refresh_view`] (or [`Queue::apply_changes`]).
    pub fn insert_near(
        &mut self,
        item: QueueItem,
        before: Option<Uuid>,
        after: Option<Uuid>,
    ) -> bool {
        let at = before
            .and_then(|b| self.index.get(&b).copied())
            .or_else(|| after.and_then(|a| self.index.get(&a).map(|i| i + 1)));
        let Some(pos) = at.filter(|p| *p < self.items.len()) else {
            return self.push(item);
        };
        if self.index.contains_key(&item.id) {
            return false;
        }
        if item.origin == Origin::Manual {
            self.persist_version += 1;
        }
        let shift = |i: &mut usize| {
            if *i >= pos {
                *i += 1;
            }
        };
        self.index.values_mut().for_each(shift);
        self.visible.iter_mut().for_each(shift);
        self.order.iter_mut().for_each(shift);
        self.touched.iter_mut().for_each(|(i, _)| shift(i));
        if pos <= self.shown.len() {
            self.shown.insert(pos, false);
        }
        self.index.insert(item.id, pos);
        self.items.insert(pos, item);
        true
    }

    /// Replaces all rows (keeping those `keep` accepts) and rebuilds everything.
    /// The cursor moves to the nearest remaining neighbour when its row goes.
    pub fn retain(&mut self, keep: impl Fn(&QueueItem) -> bool) {
        self.persist_version += 1;
        let old = self.view_ids();
        for (i, _) in std::mem::take(&mut self.touched) {
            if let Some(item) = self.items.get_mut(i) {
                item.reindex();
            }
        }
        self.items.retain(|i| keep(i));
        self.index = self
            .items
            .iter()
            .enumerate()
            .map(|(n, i)| (i.id, n))
            .collect();
        self.rebuild_order();
        self.apply_filter(old, false);
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
    pub fn apply_changes(&mut self) {
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
            if self.items[i].origin == Origin::Manual || before.manual {
                // A row added by hand may have been deleted, or a listed row taken over.
                self.persist_version += 1;
            }
            self.count(&before, -1);
            self.count(&after, 1);
            let matches = self.items[i].matches(&self.terms);
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
            let old = self.view_ids();
            self.apply_filter(old, false);
        }
    }

    fn count(&mut self, k: &RowKey, d: isize) {
        let slot = match k.category {
            0 => &mut self.stats.pending,
            1 => &mut self.stats.approved,
            2 => &mut self.stats.declined,
            4 => &mut self.stats.unread,
            _ => &mut self.stats.other,
        };
        *slot = slot.saturating_add_signed(d);
        if k.marked {
            self.stats.marked = self.stats.marked.saturating_add_signed(d);
        }
    }

    /// Recomputes `visible` from the filter and sort (and the counts); the cursor follows its
    /// request (see [`Queue::relocate`]).
    pub fn refresh_view(&mut self) {
        let old = self.view_ids();
        self.rebuild_order();
        self.apply_filter(old, false);
    }

    /// Re-indexes changed rows, sorts every row and recounts (the filter is not applied).
    fn rebuild_order(&mut self) {
        for (i, _) in std::mem::take(&mut self.touched) {
            if let Some(item) = self.items.get_mut(i) {
                item.reindex();
            }
        }
        if self.terms.is_empty() && !self.filter.trim().is_empty() {
            self.terms = crate::app::filter::parse(&self.filter);
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
            // Pending, not read yet, approved, declined, the rest.
            QueueSort::Status => order.sort_by_key(|&i| match category(&items[i]) {
                0 => 0,
                4 => 1,
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
                4 => stats.unread += 1,
                _ => stats.other += 1,
            }
            if item.marked {
                stats.marked += 1;
            }
        }
        self.stats = stats;
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
