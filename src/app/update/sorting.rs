//! Sorts cover the whole scope: a sort other than the server's order (`s`, `:sort`) first
//! loads the rest of the listing (the status line shows how far), then the queue shows
//! every request in scope in that order. Up to [`SORT_ALL_CAP`] requests: past it (or when
//! a page fails), the queue's bottom line says that only the loaded rows are sorted.

use super::listing;
use super::tell::say;
use crate::app::model::{ListingSupport, MarkAll, Model, QueueSort, Severity};
use crate::app::msg::Effect;

/// Requests a sort loads at most before it sorts: 20 pages of 50, a school's busiest week
/// of requests in one moderator's clubs many times over, loaded in a few seconds at the
/// service's safe pace; a larger queue is sorted as far as loaded (the bottom line says so)
/// rather than read whole at every `s`.
pub const SORT_ALL_CAP: usize = 1000;

/// The sort was set to `m.queue.sort()`: says so, and where it is not the server's order
/// and the listing has more pages, loads them first (up to [`SORT_ALL_CAP`] requests).
pub(super) fn sorted(m: &mut Model) -> Vec<Effect> {
    let text = sorted_text(m.lang, m.queue.sort());
    say(m, Severity::Info, &text);
    if m.queue.sort() == QueueSort::Server || !more_to_load(m) {
        m.activities.sorting_all = None;
        return Vec::new();
    }
    if m.activities.sorting_all.is_none() {
        let seq = m.next_seq();
        m.activities.sorting_all = Some(MarkAll { seq });
    }
    if m.listing.loading {
        // A page is on its way; `on_page` goes on when it arrives.
        return Vec::new();
    }
    listing::load_more(m)
}

/// True while the listing has pages this dashboard has not loaded, below the cap.
fn more_to_load(m: &Model) -> bool {
    m.listing.support == ListingSupport::Available
        && m.listing.has_more
        && m.queue.len() < SORT_ALL_CAP
}

/// A listing page was answered (`ok`: it arrived): load the next one, or tell once the
/// whole scope (or the cap) is loaded. A page that failed stops it: the rows loaded are
/// sorted, and the bottom line says only they are.
pub(super) fn on_page(m: &mut Model, ok: bool) -> Vec<Effect> {
    if m.activities.sorting_all.is_none() {
        return Vec::new();
    }
    if !ok {
        m.activities.sorting_all = None;
        let text = crate::i18n::tr(m.lang, "status-sort-all-stopped");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    if m.listing.loading {
        return Vec::new();
    }
    if more_to_load(m) {
        return listing::load_more(m);
    }
    m.activities.sorting_all = None;
    let order = m.queue.sort().label_in(m.lang);
    let text = if m.listing.has_more {
        crate::tr!(
            m.lang,
            "status-sort-all-capped",
            order = order,
            n = m.queue.len(),
            cap = SORT_ALL_CAP
        )
    } else {
        crate::tr!(
            m.lang,
            "status-sort-all-done",
            order = order,
            n = m.queue.len()
        )
    };
    say(m, Severity::Info, &text);
    Vec::new()
}

/// "sorted: oldest first" in `lang`.
fn sorted_text(lang: crate::i18n::Lang, sort: crate::app::model::QueueSort) -> String {
    let code = match sort {
        QueueSort::Server => "server",
        QueueSort::Age => "age",
        QueueSort::Club => "club",
        QueueSort::Status => "status",
    };
    crate::tr!(lang, "status-sorted", sort = code)
}
