//! The listing: pages of the pending requests in scope as the moderator works down the
//! queue (and the rows just after the cursor, read ahead), `G` while pages load, the
//! scope's rows, the first load tried again, and the answer to a listing page. A refresh
//! starts in [`super::refresh`]; the server's count is [`super::count`]'s.

use std::collections::HashSet;

use uuid::Uuid;

use super::connection::{call, note_error, note_ok};
use super::count::{
    is_listed_pending, listed_pending, listing_call, note_count, take_total, total_of,
};
use super::errors::read_error_text;
use super::new_requests;
use super::rows::{PREFETCH_AHEAD, fetch_rows, fetch_unloaded, merge_row, say_decided_elsewhere};
use super::tell::{auto_refresh_answered, refresh_quiet, say};
use crate::api::{ApiError, ClubRequest, ErrorClass, Page, Reply};
use crate::app::call::ListPurpose;
use crate::app::model::{
    LISTING_END, ListScope, ListingKey, ListingSupport, Model, Origin, QueueItem, RowState,
    Severity, listing_key,
};
use crate::app::msg::Effect;
use crate::i18n::tr;

/// Load the next listing page when the cursor is this close to the end.
pub const PAGE_AHEAD: usize = 15;

/// Reads unread rows at and just after the cursor, and the next listing page near the end.
pub(super) fn prefetch(m: &mut Model) -> Vec<Effect> {
    let start = m.queue.cursor();
    let end = (start + 1 + PREFETCH_AHEAD).min(m.queue.visible().len());
    let ids: Vec<Uuid> = (start..end)
        .filter_map(|pos| m.queue.visible_item(pos))
        .filter(|i| i.state == RowState::Unloaded)
        .map(|i| i.id)
        .collect();
    let mut fx = fetch_rows(m, &ids);
    if m.queue.cursor() + PAGE_AHEAD >= m.queue.visible().len()
        && !m.listing.loading
        && m.listing.has_more
    {
        fx.extend(load_more(m));
    }
    fx
}

/// The first load failed with `e`: tried again by itself with backoff (1 s, 2 s, ... 30 s)
/// where that can help (a 5xx, an unreadable answer; a server that cannot be reached is
/// probed by the link already). Returns the words to add to the error ("trying again in
/// 4 s"), empty when no retry is planned.
pub(super) fn plan_first_load_retry(m: &mut Model, e: &ApiError) -> String {
    if m.listing.refreshed_at.is_some() || m.session_expired {
        return String::new();
    }
    let wait = if e.class() == ErrorClass::ServerFault {
        let wait = crate::ops::decision::backoff(m.listing.retries);
        m.listing.retries = m.listing.retries.saturating_add(1);
        let at = m.now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::seconds(30));
        m.listing.retry_at = Some(at);
        wait
    } else if e.class().offline() {
        crate::ops::decision::backoff(m.link.attempts)
    } else {
        return String::new();
    };
    crate::tr!(m.lang, "status-retrying-in", secs = wait.as_secs())
}

/// Loads the next stretch of the listing. The listing is filtered to pending requests, so
/// every decision shifts later pages left: the page asked for is computed from how many
/// listed requests are still pending here, which never skips a request (an overlap is merged).
pub(super) fn load_more(m: &mut Model) -> Vec<Effect> {
    m.listing.reload_pages = None;
    let still_pending = listed_pending(m);
    load_page(m, still_pending / m.page_size.max(1) + 1)
}

/// Drops the rows the listing brought that the scope no longer covers (rows added by hand
/// and rows with a decision on its way stay), after `:scope` or once the user's clubs are
/// known. The cursor moves to the nearest remaining row.
pub(super) fn apply_scope(m: &mut Model) {
    let ListScope::Clubs(clubs) = &m.listing.scope else {
        return;
    };
    let clubs: HashSet<Uuid> = clubs.iter().copied().collect();
    let book = &m.decisions;
    let outside = |i: &QueueItem| {
        i.origin == Origin::Listing
            && book.alive(i.id).is_none()
            && i.request
                .as_ref()
                .and_then(|r| r.club.as_ref())
                .is_some_and(|c| !clubs.contains(&c.id))
    };
    if m.queue.items().iter().any(outside) {
        m.queue.retain(|i| !outside(i));
    }
}

/// Asks for one page of the pending requests in scope.
pub(super) fn load_page(m: &mut Model, page: u32) -> Vec<Effect> {
    let generation = m.listing.generation;
    let size = m.page_size;
    let Some(c) = listing_call(
        m,
        Page::new(page, size),
        ListPurpose::Page { page, generation },
    ) else {
        return Vec::new();
    };
    m.listing.loading = true;
    // This page's count holds every decision answered before it is sent; those still on
    // the wire when it answers, or answered meanwhile, are weighed then ([`uncount`]).
    m.listing.recount_due = false;
    vec![call(m, c)]
}

/// A listing call failed: a 404 means the server has no listing (api-notes.md: fall back to
/// request ids); anything else is reported with `what`.
pub(super) fn listing_failed(m: &mut Model, e: &ApiError, what: &str) -> Vec<Effect> {
    note_error(m, e);
    m.activities.refreshing = None;
    if matches!(e, ApiError::OperationUnavailable(_) | ApiError::NotFound(_)) {
        m.listing.support = ListingSupport::Unavailable;
        m.listing.scope = ListScope::None;
        let text = tr(m.lang, "status-no-listing");
        say(m, Severity::Info, &text);
        // Rows given by id are read one by one now that the listing is known to be missing.
        fetch_unloaded(m)
    } else {
        let text = read_error_text(m, e);
        m.listing.error = Some(text.clone());
        m.listing.reload_pages = None;
        let again = plan_first_load_retry(m, e);
        say(m, Severity::Error, &format!("{what}: {text}{again}"));
        Vec::new()
    }
}

/// A page of a refresh failed while the queue is on screen: "could not refresh the queue",
/// not "could not load" it. The automatic refresh says it in the activity log only (the
/// moderator's own last message stays; the queue's bottom line says when it was updated);
/// the next refresh that answers clears it.
fn refresh_failed(m: &mut Model, e: &ApiError) -> Vec<Effect> {
    let what = tr(m.lang, "status-queue-refresh-failed");
    if !refresh_quiet(m) {
        return listing_failed(m, e, &what);
    }
    let notice = m.notice.clone();
    let fx = listing_failed(m, e, &what);
    // listing_failed said it (and logged it, as every error): the line goes back.
    m.notice = notice;
    fx
}

/// A page's rows into the queue: each one new to the queue is placed where the server's
/// order puts it (before the next row of the page the queue has, or after the one before
/// it), and marked new when it entered the listing after this dashboard read that part of
/// it ([`new_requests::is_new`]): whatever the answer that brings it and the order answers
/// arrive in. Every row is merged; rows decided elsewhere are said once; how far the
/// listing was read moves on ([`note_read`]). Returns how many were added.
fn add_page(m: &mut Model, page: u32, rows: Vec<ClubRequest>) -> usize {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let keys: Vec<ListingKey> = rows.iter().map(listing_key).collect();
    let new: Vec<bool> = rows.iter().map(|r| new_requests::is_new(m, r)).collect();
    let mut added = 0;
    let mut elsewhere = 0;
    for (k, r) in rows.into_iter().enumerate() {
        let before = ids[k + 1..]
            .iter()
            .copied()
            .find(|id| m.queue.get(*id).is_some());
        let after = k.checked_sub(1).map(|j| ids[j]);
        if m.queue
            .insert_near(QueueItem::new(r.id, Origin::Listing), before, after)
        {
            added += 1;
            if new[k] {
                new_requests::mark(m, r.id);
            }
        }
        if merge_row(m, r) {
            elsewhere += 1;
        }
    }
    say_decided_elsewhere(m, elsewhere);
    note_read(m, page, &keys);
    added
}

/// A page of the listing was read: how far the listing is read without a gap moves to its
/// last row, when the page follows what was read (the queue holds at least as many of the
/// listing's pending requests before its first row as the pages before it hold: a decision
/// applied while the page was on its way shifts a request onto a page already read, and
/// what lies between is not read yet).
fn note_read(m: &mut Model, page: u32, keys: &[ListingKey]) {
    let (Some(first), Some(last)) = (keys.iter().min(), keys.iter().max()) else {
        return;
    };
    let scope = m.listing.scope.clone();
    let so_far = m
        .listing
        .read_to
        .as_ref()
        .filter(|(s, _)| *s == scope)
        .map(|(_, to)| *to);
    let offset = u64::from(page.saturating_sub(1)) * u64::from(m.page_size.max(1));
    let known_before = m
        .queue
        .items()
        .iter()
        .filter(|i| {
            is_listed_pending(i) && i.request.as_ref().is_some_and(|r| listing_key(r) < *first)
        })
        .count() as u64;
    if known_before >= offset && so_far.is_none_or(|to| *last > to) {
        m.listing.read_to = Some((scope, *last));
    }
}

/// The whole listing of this scope was read (the server counts no pending request the
/// queue has not seen): every request that enters it later is new.
fn note_read_whole(m: &mut Model) {
    m.listing.read_to = Some((m.listing.scope.clone(), LISTING_END));
}

/// A page's rows and counts taken into the Model: the listing answers again, the server's
/// total, page 1's time, the rows added. Returns the reads it asks (rows never read, once
/// the listing works), how many rows were new, and the last page.
fn take_page(
    m: &mut Model,
    page: u32,
    reply: Reply<Vec<ClubRequest>>,
) -> (Vec<Effect>, usize, u32) {
    let mut fx = Vec::new();
    note_ok(m, &reply.api_version);
    // The listing answers again: its failure no longer stands on the status line (the
    // activity log keeps it).
    if let Some(e) = m.listing.error.take()
        && m.notice.as_ref().is_some_and(|n| n.text.contains(&e))
    {
        m.notice = None;
    }
    m.listing.retry_at = None;
    m.listing.retries = 0;
    if m.listing.support != ListingSupport::Available {
        m.listing.support = ListingSupport::Available;
        fx.extend(fetch_unloaded(m));
    }
    let pag = reply.meta.as_ref().and_then(|x| x.pagination.clone());
    let last_page = pag.as_ref().and_then(|p| p.last_p).unwrap_or(page);
    let _ = take_total(m, total_of(reply.meta.as_ref()), &reply.data);
    let first = m.listing.refreshed_at.is_none();
    if page == 1 {
        m.listing.previous_load = m.listing.refreshed_at;
        m.listing.refreshed_at = Some(m.now);
        note_count(m, reply.meta.as_ref());
    }
    if page == 1 && first {
        // Another account's first load (or the start's): nothing read yet is new.
        m.listing.first_load = None;
        m.listing.read_to = None;
        m.listing.known = None;
    }
    let added = add_page(m, page, reply.data);
    if page == 1 && m.listing.first_load.is_none() {
        m.listing.first_load = reply
            .meta
            .as_ref()
            .and_then(|x| x.timestamp)
            .or(Some(m.now));
        if pag.as_ref().is_some_and(|p| p.next_p.is_some()) {
            fx.extend(new_requests::read_known(m, 1));
        }
    }
    m.queue.refresh_view();
    (fx, added, last_page)
}

/// A page of the listing arrived.
pub(super) fn on_list_page(
    m: &mut Model,
    page: u32,
    generation: u64,
    res: Result<Reply<Vec<ClubRequest>>, ApiError>,
) -> Vec<Effect> {
    if generation != m.listing.generation {
        return Vec::new();
    }
    m.listing.loading = false;
    let reply = match res {
        Ok(reply) => reply,
        Err(e) if m.listing.refreshed_at.is_some() => return refresh_failed(m, &e),
        Err(e) => {
            let what = tr(m.lang, "status-queue-failed");
            return listing_failed(m, &e, &what);
        }
    };
    super::term::follow_page(m, page, &reply);
    let first_load = m.listing.refreshed_at.is_none();
    let (mut fx, added, last_page) = take_page(m, page, reply);
    // More to load while the server counts more pending requests than this dashboard has
    // seen (decisions shift pages; see `load_more`).
    let seen = u64::from(listed_pending(m));
    let more = m.listing.total.is_some_and(|t| t > seen);
    m.listing.has_more = more;
    if !more {
        note_read_whole(m);
    }
    let reloaded = m.listing.reload_pages.is_some_and(|n| page >= n);
    if m.listing.hunting && more && page < last_page {
        // The count grew: the new requests may be on any page (ids sort them): read on.
        fx.extend(load_page(m, page + 1));
        return fx;
    }
    m.listing.hunting = false;
    if added > 0 {
        m.listing.swept = false;
    } else if reloaded {
        // A refresh reloaded the pages it had: the rest loads as the cursor nears it.
    } else if more && page < last_page {
        // Everything on this page was known already (pages shifted): go on (keeping the
        // reads asked for above: they are in flight already).
        fx.extend(load_page(m, page + 1));
        return fx;
    } else if more && !m.listing.swept {
        // The last page brought nothing new, yet the server counts a pending request this
        // queue has not seen: a decision confirmed while a page was on its way shifted it
        // onto a page already read. Read the listing again from page 1, once.
        m.listing.swept = true;
        fx.extend(load_page(m, 1));
        return fx;
    } else if more {
        // A whole sweep found nothing new: the count is off (a request changed elsewhere
        // meanwhile). Stop asking rather than ask for ever; `r` reloads.
        m.listing.has_more = false;
    }
    m.listing.reload_pages = None;
    say_loaded(m, first_load);
    honour_bottom(m);
    fx.extend(prefetch(m));
    fx
}

/// "N pending requests loaded of T": after a refresh, at the first load when nothing was
/// said yet (a restored filter or a warning stays readable), and as later pages update it.
fn say_loaded(m: &mut Model, first_load: bool) {
    if let Some(text) = new_requests::unsaid(m) {
        m.activities.refreshing = None;
        auto_refresh_answered(m);
        say(m, Severity::Info, &text);
        return;
    }
    let speaks = m.refresh_speaks();
    let auto = m.activities.refresh_auto;
    let refreshed = m.activities.refreshing.take().is_some() && speaks;
    auto_refresh_answered(m);
    let current = m.notice.as_ref();
    // At the first load, an error said before it (the load failed and was tried again)
    // no longer stands: the queue is here (the activity log keeps the failure).
    let nothing_said =
        current.is_none_or(|n| first_load && n.severity == Severity::Error && !n.start_warning);
    // The count said earlier follows the pages loaded, but never from the automatic refresh
    // nor over a held decision's countdown (a lower message never replaces a higher one).
    let update_count =
        current.is_some_and(|n| n.about_listing) && !auto && m.decisions.held().is_empty();
    // A warning kept for the first load (a readable token file, another account's held
    // decisions not sent) stays readable when the listing arrives.
    let pinned = first_load && current.is_some_and(|n| n.start_warning);
    if !pinned && (refreshed || (first_load && nothing_said) || update_count) {
        let n = listed_pending(m);
        let text = match m.listing.total {
            Some(t) => crate::tr!(m.lang, "status-loaded-of", n = n, total = t),
            None => crate::tr!(m.lang, "status-loaded", n = n),
        };
        say(m, Severity::Info, &text);
        if let Some(n) = m.notice.as_mut() {
            n.about_listing = true;
        }
    }
}

/// `G` was pressed (the cursor is on the last row loaded): with more pages to come, remember
/// the row it selected.
pub(super) fn want_bottom(m: &mut Model) {
    m.listing.bottom_wanted = if m.listing.has_more || m.listing.loading {
        m.queue.selected().map(|i| i.id)
    } else {
        None
    };
}

/// A page arrived: while the cursor is still where `G` left it, it moves on to the last row
/// (the prefetch after it then asks for the next page); the wish ends when nothing more is to
/// come, or when the cursor was moved meanwhile.
pub(super) fn honour_bottom(m: &mut Model) {
    let Some(wanted) = m.listing.bottom_wanted else {
        return;
    };
    if m.queue.selected().map(|i| i.id) != Some(wanted) {
        m.listing.bottom_wanted = None;
        return;
    }
    if let Some(last) = m.queue.visible().len().checked_sub(1) {
        m.queue.set_cursor(last);
    }
    m.listing.bottom_wanted = if m.listing.has_more {
        m.queue.selected().map(|i| i.id)
    } else {
        None
    };
}
