//! The listing: pages of the pending requests in scope as the moderator works down the
//! queue (and the rows just after the cursor, read ahead), `G` while pages load, refresh,
//! the scope's rows, the first load tried again, and the answer to a listing page.

use std::collections::HashSet;

use uuid::Uuid;

use super::connection::{call, note_error, note_ok};
use super::errors::read_error_text;
use super::rows::{fetch_rows, fetch_unloaded, merge_row, say_decided_elsewhere};
use super::tell::say;
use crate::api::{ApiError, ClubRequest, MembershipStatus, Page, Reply, RequestFilter, Sort};
use crate::app::call::{ApiCall, ListPurpose, SearchPurpose};
use crate::app::model::{
    LISTING_END, ListScope, ListingKey, ListingSupport, Loadable, Model, Origin, QueueItem,
    RowState, Severity, listing_key,
};
use crate::app::msg::Effect;
use crate::i18n::tr;

/// Rows ahead of the cursor whose details are prefetched.
pub const PREFETCH_AHEAD: usize = 4;

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

/// Reloads the listing from page 1 and re-reads every known row. The status line says
/// "refreshing…" until the first answer.
pub(super) fn refresh(m: &mut Model) -> Vec<Effect> {
    refresh_as(m, false)
}

/// [`refresh`], `auto` for the automatic one: it speaks on the status line only where
/// nothing more important stands there (`Model::refresh_speaks`).
pub(super) fn refresh_as(m: &mut Model, auto: bool) -> Vec<Effect> {
    m.activities.refresh_auto = auto;
    let mut fx = Vec::new();
    if !matches!(m.user, Loadable::Loaded(_) | Loadable::Loading) {
        m.user = Loadable::Loading;
        fx.push(call(m, ApiCall::CurrentUser));
    } else if let Loadable::Loaded(user) = &m.user
        && m.listing.scope == ListScope::Unknown
        && !m.calls.iter().any(|c| {
            matches!(
                c,
                ApiCall::SearchClubs {
                    purpose: SearchPurpose::StaffedClubs,
                    ..
                }
            )
        })
    {
        // The user was read but the scope was not decided (the staffed clubs' lookup
        // failed): it is asked again, not waited for.
        let user = user.clone();
        fx.extend(super::scope::ask_scope(m, &user));
    }
    m.listing.retry_at = None;
    m.listing.generation += 1;
    m.listing.loading = false;
    m.listing.swept = false;
    if m.listing.support != ListingSupport::Unavailable
        && matches!(m.listing.scope, ListScope::Clubs(_) | ListScope::All)
    {
        // What is loaded is reloaded, and no more: the rest loads as the cursor nears it.
        // (With the whole listing loaded, the pages go on as when loading: a request shifted
        // by decisions is still found.)
        let pages = listed_pending(m).div_ceil(m.page_size.max(1)).max(1);
        m.listing.reload_pages = m.listing.has_more.then_some(pages);
        fx.extend(load_page(m, 1));
    }
    let ids: Vec<Uuid> = m
        .queue
        .items()
        .iter()
        .filter(|i| {
            m.deciding(i.id).is_none() && !matches!(i.state, RowState::Deleted | RowState::Loading)
        })
        .map(|i| i.id)
        .collect();
    fx.extend(fetch_rows(m, &ids));
    let seq = m.next_seq();
    m.activities.refreshing = Some(seq);
    // Nothing to read (no scope, no rows): the refresh ends at once, never "refreshing…"
    // for ever.
    end_refresh_when_read(m);
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
    let wait = match e {
        ApiError::Server(_) | ApiError::Decode { .. } => {
            let wait = crate::ops::decision::backoff(m.listing.retries);
            m.listing.retries = m.listing.retries.saturating_add(1);
            let at =
                m.now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::seconds(30));
            m.listing.retry_at = Some(at);
            wait
        }
        ApiError::Connect { .. } | ApiError::Timeout { .. } => {
            crate::ops::decision::backoff(m.link.attempts)
        }
        ApiError::Unauthorized { .. }
        | ApiError::Forbidden(_)
        | ApiError::NotFound(_)
        | ApiError::OperationUnavailable(_)
        | ApiError::Invalid(_)
        | ApiError::Conflict(_)
        | ApiError::Config(_)
        | ApiError::NotTheService { .. }
        | ApiError::Internal
        | ApiError::NotSent(_)
        | ApiError::NoAnswer(_) => return String::new(),
    };
    crate::tr!(m.lang, "status-retrying-in", secs = wait.as_secs())
}

/// The retry timer fired: a first load whose retry is due is tried again (a refresh,
/// which reads the user, the scope or the first page, whichever failed).
pub(super) fn retry_first_load(m: &mut Model, now: crate::api::Timestamp) -> Vec<Effect> {
    match m.listing.retry_at {
        Some(at) if at <= now => {
            m.listing.retry_at = None;
            if m.listing.loading {
                return Vec::new();
            }
            refresh(m)
        }
        _ => Vec::new(),
    }
}

/// Loads the next stretch of the listing. The listing is filtered to pending requests, so
/// every decision shifts later pages left: the page asked for is computed from how many
/// listed requests are still pending here, which never skips a request (an overlap is merged).
pub(super) fn load_more(m: &mut Model) -> Vec<Effect> {
    m.listing.reload_pages = None;
    let still_pending = listed_pending(m);
    load_page(m, still_pending / m.page_size.max(1) + 1)
}

/// Listed requests that are still pending here (the server's pending listing holds them
/// before any request this dashboard has not seen yet).
fn listed_pending(m: &Model) -> u32 {
    m.queue
        .items()
        .iter()
        .filter(|i| is_listed_pending(i))
        .count() as u32
}

/// A row of the listing, still there and pending here.
fn is_listed_pending(i: &QueueItem) -> bool {
    i.origin == Origin::Listing
        && !matches!(i.state, RowState::Deleted | RowState::Gone)
        && i.status() == Some(&MembershipStatus::Pending)
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

/// The listing's one query, the scope's pending requests in the listing's order, for
/// `page` and `purpose`: a page and a recount count the same requests (`None` when
/// nothing is listed).
fn listing_call(m: &Model, page: Page, purpose: ListPurpose) -> Option<ApiCall> {
    Some(ApiCall::ListRequests {
        filter: scope_filter(&m.listing.scope)?,
        sort: Sort::default(),
        page,
        levels: m.levels,
        purpose,
    })
}

/// The listing's filter for `scope`: its pending requests (`None` when nothing is listed).
fn scope_filter(scope: &ListScope) -> Option<RequestFilter> {
    match scope {
        ListScope::Clubs(ids) => Some(RequestFilter {
            club_ids: ids.clone(),
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        }),
        ListScope::All => Some(RequestFilter {
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        }),
        ListScope::Unknown | ListScope::None => None,
    }
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

/// True when a refresh's failure is said in the activity log only: the automatic refresh's,
/// and any while a bulk runs (its progress says what the link does: "paused: the service
/// cannot be reached; N waiting", which a failed read must not hide).
fn refresh_quiet(m: &Model) -> bool {
    m.activities.refresh_auto || m.activities.bulk.is_some()
}

/// A refresh's failure said: after `r`, on the status line; after the automatic refresh,
/// only in the activity log (the moderator's own message stays; the queue's bottom line
/// says when it was last updated).
pub(super) fn say_refresh_failed(m: &mut Model, text: &str) {
    if refresh_quiet(m) {
        super::tell::log_notice(m, text, Severity::Error);
    } else {
        say(m, Severity::Error, text);
    }
}

/// A page's rows into the queue: each one new to the queue is placed where the server's
/// order puts it (before the next row of the page the queue has, or after the one before
/// it), and marked new when it entered the listing after this dashboard read that part of
/// it ([`is_new`]): whatever the answer that brings it and the order answers arrive in.
/// Every row is merged; rows decided elsewhere are said once; how far the listing was read
/// moves on ([`note_read`]). Returns how many were added.
fn add_page(m: &mut Model, page: u32, rows: Vec<ClubRequest>) -> usize {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let keys: Vec<ListingKey> = rows.iter().map(listing_key).collect();
    let fresh: Vec<bool> = rows.iter().map(|r| is_new(m, r)).collect();
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
            if fresh[k]
                && let Some(item) = m.queue.get_mut(r.id)
            {
                item.fresh = true;
                m.listing.fresh += 1;
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

/// Whether `r`, not in the queue yet, is new to this dashboard. Never before the first
/// page was read. Where the listing of this scope was read ([`Listing::read_to`]) it is,
/// whatever its `created_at`: the request entered the listing after that read. On a page
/// not read yet it is not (paging down a long queue brings old requests), except on a
/// refresh that hunts because the server's count grew ([`Listing::hunting`]): there the
/// only sign left is its creation after the first load (the server's clock).
///
/// [`Listing::read_to`]: crate::app::model::Listing::read_to
/// [`Listing::hunting`]: crate::app::model::Listing::hunting
fn is_new(m: &Model, r: &ClubRequest) -> bool {
    let Some(first) = m.listing.first_load else {
        return false;
    };
    let read = m
        .listing
        .read_to
        .as_ref()
        .is_some_and(|(scope, to)| *scope == m.listing.scope && listing_key(r) <= *to);
    read || (m.listing.hunting && r.created_at.is_some_and(|c| c > first))
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

/// The server's count in an answer's `meta.pagination.total`, when it gave one.
fn total_of(meta: Option<&crate::api::Meta>) -> Option<u64> {
    meta.and_then(|x| x.pagination.as_ref())
        .and_then(|p| p.total)
}

/// Page 1's count of pending requests (`meta.pagination.total`): a count grown since the
/// last page 1 sends the reload on past the pages it had, to the last
/// ([`crate::app::model::Listing::hunting`]), since a new request may sort onto any page
/// (ids sort the listing). Whatever answered before it: the re-reads of known rows may end
/// the refresh first.
fn note_count(m: &mut Model, meta: Option<&crate::api::Meta>) {
    let total = total_of(meta);
    let grew = matches!((m.listing.last_total, total), (Some(a), Some(b)) if b > a);
    m.listing.hunting = grew;
    if let Some(t) = total {
        m.listing.last_total = Some(t);
    }
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
    }
    let added = add_page(m, page, reply.data);
    if page == 1 && m.listing.first_load.is_none() {
        m.listing.first_load = reply
            .meta
            .as_ref()
            .and_then(|x| x.timestamp)
            .or(Some(m.now));
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
    if m.listing.fresh > 0 {
        let text = crate::tr!(m.lang, "status-new-requests", n = m.listing.fresh);
        if m.notify != crate::config::NewRequestNotice::Off {
            m.notify_due = Some(text.clone());
        }
        m.listing.fresh = 0;
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

/// A refresh ends when none of its reads is in flight any more (where no listing answer
/// said so first). "refreshed" is said only when no error was said since it began: an error
/// of one of its reads stays on the status line.
pub(super) fn end_refresh_when_read(m: &mut Model) {
    if let Some(started) = m.activities.refreshing
        && !m.calls.iter().any(ApiCall::is_refresh_read)
    {
        let failed = m
            .notice
            .as_ref()
            .is_some_and(|n| n.severity == Severity::Error && n.seq > started);
        let speaks = m.refresh_speaks();
        m.activities.refreshing = None;
        m.activities.refresh_auto = false;
        if !failed && speaks {
            let text = tr(m.lang, "status-refreshed");
            say(m, Severity::Success, &text);
        }
    }
}

/// One read of the automatic refresh answered: the refresh stays automatic (it says its
/// failures only in the activity log, and never "refreshing…") until its last read has
/// answered, whatever order they answer in; a failure after a success must not reach the
/// status line over a bulk's summary.
pub(super) fn auto_refresh_answered(m: &mut Model) {
    if !m.calls.iter().any(ApiCall::is_refresh_read) {
        m.activities.refresh_auto = false;
    }
}

/// The server's count taken from an answer (`meta.pagination.total`) that listed `listed`
/// (pending when counted, so in the count): this dashboard's decisions on the wire
/// meanwhile may or may not be in it ([`Listing::counted_maybe`]). An answer to a call sent
/// before the one whose count stands (a recount crossing a page) leaves it. Returns whether
/// the count was taken.
///
/// [`Listing::counted_maybe`]: crate::app::model::Listing::counted_maybe
fn take_total(m: &mut Model, total: Option<u64>, listed: &[ClubRequest]) -> bool {
    if m.answering != 0 && m.answering < m.listing.counted_from {
        return false;
    }
    m.listing.counted_from = m.answering;
    m.listing.total = total;
    m.listing.counted_pending = listed.iter().map(|r| r.id).collect();
    m.listing.counted_maybe = m
        .decisions
        .on_the_wire()
        .filter(|id| !m.listing.counted_pending.contains(id))
        .collect();
    true
}

/// The count is no longer the scope's (another scope, another account): nothing to settle.
pub(super) fn forget_count(m: &mut Model) {
    m.listing.total = None;
    m.listing.counted_pending.clear();
    m.listing.counted_maybe.clear();
    m.listing.recount_due = false;
}

/// Whose write applied a decision the count hears of ([`uncount`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Applied {
    /// This dashboard's write, answered as applied: sent after the count unless it was on
    /// the wire then, so the request was pending when counted.
    ThisWrite,
    /// A write whose time is not known here: another's (told by another session, or met as
    /// "already decided"), or this dashboard's settled by a re-read. `recount`: the count
    /// may be read again for it (this dashboard's own doing; never for what other sessions
    /// tell, which are many at a term's start).
    Seen {
        /// Whether a recount may be asked.
        recount: bool,
    },
}

/// The server's count of pending requests shrinks by one when a request it listed pending
/// here is decided. Called before the row takes its new status.
pub(super) fn count_decided(m: &mut Model, id: Uuid, applied: Applied) {
    let listed_pending = m.queue.get(id).is_some_and(|i| {
        i.origin == crate::app::model::Origin::Listing
            && i.status() == Some(&crate::api::MembershipStatus::Pending)
    });
    if listed_pending {
        uncount(m, id, applied);
    }
}

/// A decision on a listed row was applied: the count shrinks by one where the server's
/// last count surely held the request pending (its answer listed it; or this dashboard's
/// write applied it and was sent after that count), never twice: a count too low would end
/// the listing before its last request, one too high only reads a page more. Where it may
/// hold the decision already (this dashboard's write on the wire while it was counted,
/// another's applied at a time not known), it is kept, and read again once nothing is on
/// its way ([`recount_when_settled`]) when the decision was this dashboard's; also after one
/// applied while a page or a recount was on its way (it may count it or not).
pub(super) fn uncount(m: &mut Model, id: Uuid, applied: Applied) {
    let listed = m.listing.counted_pending.remove(&id);
    let on_the_wire = m.listing.counted_maybe.remove(&id);
    let counting = m.listing.loading || counting_again(m);
    let (shrink, recount) = match applied {
        Applied::ThisWrite => (listed || !on_the_wire, on_the_wire || counting),
        Applied::Seen { recount } => (listed, recount && (!listed || counting)),
    };
    m.listing.recount_due |= recount;
    if shrink && let Some(t) = m.listing.total.as_mut() {
        *t = t.saturating_sub(1);
    }
}

/// True while a recount is on its way.
fn counting_again(m: &Model) -> bool {
    m.calls.iter().any(|c| {
        matches!(
            c,
            ApiCall::ListRequests {
                purpose: ListPurpose::Count { .. },
                ..
            }
        )
    })
}

/// The count read again when it may be off ([`uncount`]) and nothing can move it under the
/// read: no decision of this dashboard on the wire, no page on its way. Asked after every
/// message; one call, one row.
pub(super) fn recount_when_settled(m: &mut Model) -> Vec<Effect> {
    // Asked after every message (ticks too): the flag first, the book and the calls only
    // when a recount is due.
    if !m.listing.recount_due
        || m.listing.total.is_none()
        || m.listing.loading
        || m.decisions.on_the_wire().next().is_some()
        || counting_again(m)
    {
        return Vec::new();
    }
    let generation = m.listing.generation;
    let Some(c) = listing_call(m, Page::new(1, 1), ListPurpose::Count { generation }) else {
        return Vec::new();
    };
    m.listing.recount_due = false;
    vec![call(m, c)]
}

/// The recount's answer: the server's count, and more to load when it counts requests the
/// queue has not seen (they load as the cursor nears the end, as after a page; a sweep from
/// page 1 only as a page's answer decides). A failure keeps the count as it is: the next
/// page or refresh counts again.
pub(super) fn on_list_count(
    m: &mut Model,
    generation: u64,
    res: Result<Reply<Vec<ClubRequest>>, ApiError>,
) -> Vec<Effect> {
    if generation != m.listing.generation {
        return Vec::new();
    }
    let Ok(reply) = res else {
        return Vec::new();
    };
    note_ok(m, &reply.api_version);
    let total = total_of(reply.meta.as_ref());
    if total.is_none() {
        return Vec::new();
    }
    if take_total(m, total, &reply.data) && total.is_some_and(|t| t > u64::from(listed_pending(m)))
    {
        m.listing.has_more = true;
    }
    Vec::new()
}
