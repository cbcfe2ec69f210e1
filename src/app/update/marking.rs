//! Mark all means all: `*` marks every request matching the filter, not only the rows
//! loaded so far. Where the listing has more pages, they load first (the status line shows
//! how far), then the marks are set.

use uuid::Uuid;

use super::listing;
use super::tell::say;
use crate::app::model::{ListingSupport, MarkAll, Model, Severity};
use crate::app::msg::Effect;

/// `*`: marks every actionable request the filter shows, after loading the rest of the
/// listing when the server has more.
pub(super) fn mark_all(m: &mut Model) -> Vec<Effect> {
    let more = m.listing.support == ListingSupport::Available && m.listing.has_more;
    if !more && !m.listing.loading {
        finish(m);
        return Vec::new();
    }
    if m.activities.marking_all.is_none() {
        let seq = m.next_seq();
        m.activities.marking_all = Some(MarkAll { seq });
    }
    if m.listing.loading {
        // A page is on its way; `on_page` goes on when it arrives.
        return Vec::new();
    }
    listing::load_more(m)
}

/// A listing page was answered (`ok`: it arrived): load the next one, or mark once
/// everything is loaded. A page that failed stops it: nothing is marked.
pub(super) fn on_page(m: &mut Model, ok: bool) -> Vec<Effect> {
    if m.activities.marking_all.is_none() {
        return Vec::new();
    }
    if !ok {
        m.activities.marking_all = None;
        let text = crate::i18n::tr(m.lang, "status-mark-all-stopped");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    if m.listing.loading {
        return Vec::new();
    }
    if m.listing.has_more {
        return listing::load_more(m);
    }
    finish(m);
    Vec::new()
}

/// Marks every actionable row the filter shows and says how many, and of which club when
/// they are all of one.
fn finish(m: &mut Model) {
    m.activities.marking_all = None;
    let rows: Vec<usize> = m
        .queue
        .visible()
        .iter()
        .copied()
        .filter(|&i| m.queue.items()[i].is_actionable())
        .collect();
    for &i in &rows {
        m.queue.set_marked(i, true);
    }
    let ids: Vec<Uuid> = rows.iter().map(|&i| m.queue.items()[i].id).collect();
    let club = m.one_club(&ids);
    let marked = m.queue.stats().marked;
    let n = ids.len();
    let lang = m.lang;
    let text = match (marked == n, club) {
        (true, None) => crate::tr!(lang, "status-marked-every", n = n),
        (true, Some(c)) => crate::tr!(lang, "status-marked-every-of", n = n, club = c),
        (false, None) => crate::tr!(lang, "status-marked-some", n = n, all = marked),
        (false, Some(c)) => {
            crate::tr!(lang, "status-marked-some-of", n = n, club = c, all = marked)
        }
    };
    say(m, Severity::Info, &text);
}
