//! Reading: rows near the cursor, rows by id (through the listing, 50 a call), listing
//! pages as the moderator works down the queue, refresh; and the answers to those reads.

use std::collections::HashSet;

use uuid::Uuid;

use super::{call, error_text, note_error, note_ok, read_error_text, say};
use crate::api::{ApiError, ClubRequest, MembershipStatus, Page, Reply, RequestFilter, Sort};
use crate::app::effect::{ApiCall, Effect};
use crate::app::model::{
    Awaiting, ListScope, ListingSupport, Loadable, Model, Origin, QueueItem, RowState, Severity,
};
use crate::i18n::{Lang, tr};

/// Rows re-read per listing call (the `ids` filter of the listing): the deployed
/// listing's page size limit is 100; 50 keeps each answer small on a slow link.
pub const REREAD_CHUNK: usize = 50;
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

/// Reads rows. Where the server lists, through the listing's `ids` filter, 50 rows a call
/// (one round trip instead of fifty on a slow link); else one GET per row. While the first
/// answers are still awaited at start (whether the server lists is not known yet), a long
/// list waits, except the rows near the cursor: [`fetch_unloaded`] reads it once known.
pub(super) fn fetch_rows(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    let ids: Vec<Uuid> = ids
        .iter()
        .copied()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                !matches!(
                    i.state,
                    RowState::Acting(_) | RowState::Loading | RowState::Deleted
                )
            })
        })
        .collect();
    if ids.is_empty() {
        return Vec::new();
    }
    let batch = m.listing.support == ListingSupport::Available && ids.len() > 1;
    if !batch
        && m.listing.support == ListingSupport::Unknown
        && matches!(m.user, Loadable::Loading)
        && ids.len() > PREFETCH_AHEAD + 1
    {
        return Vec::new();
    }
    for id in &ids {
        if let Some(item) = m.queue.get_mut(*id) {
            item.state = RowState::Loading;
        }
    }
    let levels = m.levels;
    if !batch {
        return ids
            .into_iter()
            .map(|id| call(m, Awaiting::Fetch(id), ApiCall::GetRequest { id, levels }))
            .collect();
    }
    ids.chunks(REREAD_CHUNK)
        .map(|chunk| {
            let c = ApiCall::ListRequests {
                filter: RequestFilter {
                    ids: chunk.to_vec(),
                    ..RequestFilter::default()
                },
                sort: Sort::default(),
                page: Page::new(1, REREAD_CHUNK as u32),
                levels,
            };
            call(m, Awaiting::Reread(chunk.to_vec()), c)
        })
        .collect()
}

/// Reads every row not read yet (once the server's listing support is known).
pub(super) fn fetch_unloaded(m: &mut Model) -> Vec<Effect> {
    let ids: Vec<Uuid> = m
        .queue
        .items()
        .iter()
        .filter(|i| i.state == RowState::Unloaded)
        .map(|i| i.id)
        .collect();
    fetch_rows(m, &ids)
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
        fx.push(call(m, Awaiting::User, ApiCall::CurrentUser));
    } else if let Loadable::Loaded(user) = &m.user
        && m.listing.scope == ListScope::Undecided
        && !m.calls.iter().any(|a| *a == Awaiting::StaffedClubs)
    {
        // The user was read but the scope was not decided (the staffed clubs' lookup
        // failed): it is asked again, not waited for.
        let user = user.clone();
        fx.extend(super::answers::ask_scope(m, &user));
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
            !matches!(
                i.state,
                RowState::Acting(_) | RowState::Deleted | RowState::Loading
            )
        })
        .map(|i| i.id)
        .collect();
    fx.extend(fetch_rows(m, &ids));
    let seq = m.next_seq();
    m.activities.refreshing = Some(seq);
    // Nothing to read (no scope, no rows): the refresh ends at once, never "refreshing…"
    // for ever.
    super::answers::end_refresh_when_read(m);
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
            let wait = crate::app::model::backoff(m.listing.retries);
            m.listing.retries = m.listing.retries.saturating_add(1);
            let at =
                m.now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::seconds(30));
            m.listing.retry_at = Some(at);
            wait
        }
        ApiError::Connect { .. } | ApiError::Timeout { .. } => {
            crate::app::model::backoff(m.link.attempts)
        }
        _ => return String::new(),
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
        .filter(|i| {
            i.origin == Origin::Listing
                && !matches!(i.state, RowState::Deleted | RowState::Gone)
                && i.status() == Some(&MembershipStatus::Pending)
        })
        .count() as u32
}

/// Drops the rows the listing brought that the scope no longer covers (rows added by hand
/// and rows with a decision on its way stay), after `:scope` or once the user's clubs are
/// known. The cursor moves to the nearest remaining row.
pub(super) fn apply_scope(m: &mut Model) {
    let ListScope::Clubs(clubs) = &m.listing.scope else {
        return;
    };
    let clubs: HashSet<Uuid> = clubs.iter().copied().collect();
    let outside = |i: &QueueItem| {
        i.origin == Origin::Listing
            && !matches!(i.state, RowState::Acting(_))
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
    let filter = match &m.listing.scope {
        ListScope::Clubs(ids) => RequestFilter {
            club_ids: ids.clone(),
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        },
        ListScope::All => RequestFilter {
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        },
        _ => return Vec::new(),
    };
    m.listing.loading = true;
    let generation = m.listing.generation;
    let c = ApiCall::ListRequests {
        filter,
        sort: Sort::default(),
        page: Page::new(page, m.page_size),
        levels: m.levels,
    };
    vec![call(m, Awaiting::ListPage { page, generation }, c)]
}

/// Drops what no row or detail shows (club descriptions, logos, nested lists), so a queue of
/// many thousand requests stays small.
fn slim(mut r: ClubRequest) -> ClubRequest {
    if let Some(c) = r.club.as_mut() {
        c.description = None;
        c.logo_url = None;
        c.background_color = None;
        c.accent_color = None;
        c.contacts = None;
        c.staffs = None;
        c.members = None;
    }
    if let Some(s) = r.student.as_mut() {
        s.contacts = None;
    }
    r
}

/// True for a row added by hand in this session that is read for the first time (and no
/// longer counted as unread): once read, whether the filter hides it is known
/// ([`say_if_hidden`]).
fn first_read_by_hand(m: &mut Model, id: Uuid) -> bool {
    m.added_unread.remove(&id) && m.queue.get(id).is_some_and(|i| i.origin == Origin::Manual)
}

/// Says so when the filter hides rows added by hand that were just read for the first time
/// (with the key that clears the filter).
fn say_if_hidden(m: &mut Model, ids: &[Uuid]) {
    // Matched on what was just read (`settle` re-indexes too, after this message).
    for id in ids {
        if let Some(item) = m.queue.get_mut(*id) {
            item.reindex();
        }
    }
    if let Some(text) = super::ids::hidden_words(m, ids) {
        say(m, Severity::Info, &text);
    }
}

/// Merges what the server said of a row into it (the row keeps fields of other levels).
pub(super) fn merge_row(m: &mut Model, r: ClubRequest) {
    let r = slim(r);
    if let Some(item) = m.queue.get_mut(r.id) {
        match &mut item.request {
            Some(old) => old.merge_from(r),
            None => item.request = Some(r),
        }
        if !matches!(item.state, RowState::Acting(_)) {
            item.state = RowState::Ready;
        }
        item.read_error = None;
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
        Err(e) => {
            let what = tr(m.lang, "status-queue-failed");
            return listing_failed(m, &e, &what);
        }
    };
    let mut fx = Vec::new();
    note_ok(m, &reply.api_version);
    m.listing.error = None;
    m.listing.retry_at = None;
    m.listing.retries = 0;
    if m.listing.support != ListingSupport::Available {
        m.listing.support = ListingSupport::Available;
        fx.extend(fetch_unloaded(m));
    }
    let pag = reply.meta.as_ref().and_then(|x| x.pagination.clone());
    let last_page = pag.as_ref().and_then(|p| p.last_p).unwrap_or(page);
    m.listing.total = pag.as_ref().and_then(|p| p.total);
    let first_load = m.listing.refreshed_at.is_none();
    if page == 1 {
        m.listing.refreshed_at = Some(m.now);
    }
    let mut added = 0;
    for r in reply.data {
        if m.queue.push(QueueItem::new(r.id, Origin::Listing)) {
            added += 1;
        }
        merge_row(m, r);
    }
    m.queue.refresh_view();
    // More to load while the server counts more pending requests than this dashboard has
    // seen (decisions shift pages; see `load_more`).
    let seen = u64::from(listed_pending(m));
    let more = m.listing.total.is_some_and(|t| t > seen);
    m.listing.has_more = more;
    let reloaded = m.listing.reload_pages.is_some_and(|n| page >= n);
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
    super::paging::honour_bottom(m);
    fx.extend(prefetch(m));
    fx
}

/// "N pending requests loaded of T": after a refresh, at the first load when nothing was
/// said yet (a restored filter or a warning stays readable), and as later pages update it.
fn say_loaded(m: &mut Model, first_load: bool) {
    let speaks = m.refresh_speaks();
    let refreshed = m.activities.refreshing.take().is_some() && speaks;
    m.activities.refresh_auto = false;
    let current = m.notice.as_ref();
    // At the first load, an error said before it (the load failed and was tried again)
    // no longer stands: the queue is here (the activity log keeps the failure).
    let nothing_said =
        current.is_none_or(|n| first_load && n.severity == Severity::Error && !n.start_warning);
    let update_count = current.is_some_and(|n| n.about_listing);
    if refreshed || (first_load && nothing_said) || update_count {
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

/// Rows read by id through the listing arrived; ids the server did not list are gone.
pub(super) fn on_reread(
    m: &mut Model,
    ids: Vec<Uuid>,
    res: Result<Reply<Vec<ClubRequest>>, ApiError>,
) -> Vec<Effect> {
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let found: HashSet<Uuid> = reply.data.iter().map(|r| r.id).collect();
            let mut first = Vec::new();
            for r in reply.data {
                if first_read_by_hand(m, r.id) {
                    first.push(r.id);
                }
                merge_row(m, r);
            }
            say_if_hidden(m, &first);
            for id in ids.into_iter().filter(|id| !found.contains(id)) {
                if let Some(item) = m.queue.get_mut(id)
                    && item.state == RowState::Loading
                {
                    item.state = RowState::Gone;
                    item.read_error = Some(tr(m.lang, "error-row-gone-elsewhere"));
                    item.marked = false;
                }
            }
            let speaks = m.refresh_speaks();
            m.activities.refresh_auto = false;
            if m.activities.refreshing.take().is_some() && speaks {
                let text = tr(m.lang, "status-refreshed");
                say(m, Severity::Success, &text);
            }
        }
        Err(e) => {
            note_error(m, &e);
            let text = read_error_text(m, &e);
            for id in &ids {
                if let Some(item) = m.queue.get_mut(*id)
                    && item.state == RowState::Loading
                {
                    item.state = if item.request.is_some() {
                        RowState::Ready
                    } else {
                        RowState::Failed
                    };
                    item.read_error = Some(text.clone());
                }
            }
            m.activities.refreshing = None;
            let text = crate::tr!(
                m.lang,
                "status-refresh-failed",
                error = error_text(m.lang, &e)
            );
            say(m, Severity::Error, &text);
        }
    }
    Vec::new()
}

/// One row read by id arrived.
pub(super) fn on_fetch(
    m: &mut Model,
    id: Uuid,
    res: Result<Reply<ClubRequest>, ApiError>,
) -> Vec<Effect> {
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let first = first_read_by_hand(m, reply.data.id);
            merge_row(m, reply.data);
            if first {
                say_if_hidden(m, &[id]);
            }
        }
        Err(e) => {
            note_error(m, &e);
            let text = read_error_text(m, &e);
            if let Some(item) = m.queue.get_mut(id) {
                if !matches!(item.state, RowState::Acting(_)) {
                    item.state = match (&e, item.request.is_some()) {
                        (ApiError::NotFound(_), _) => RowState::Gone,
                        (_, true) => RowState::Ready,
                        (_, false) => RowState::Failed,
                    };
                }
                item.read_error = Some(match &e {
                    ApiError::NotFound(_) => not_found_text(m.lang, item.request.is_some()),
                    _ => text,
                });
            }
        }
    }
    Vec::new()
}

/// Why a row the server does not know is shown as it is: a row read before was deleted
/// elsewhere; one never read was never there (a mistyped or foreign id).
fn not_found_text(lang: Lang, was_read: bool) -> String {
    if was_read {
        tr(lang, "error-row-deleted-since-read")
    } else {
        tr(lang, "error-row-not-found")
    }
}
