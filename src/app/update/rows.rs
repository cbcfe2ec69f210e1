//! Row reads: rows by id (through the listing's `ids` filter, 50 a call, or one GET per
//! row), what a read brings merged into its row (and a row decided elsewhere said so), and
//! the answers to those reads.

use std::collections::HashSet;

use uuid::Uuid;

use super::connection::{call_tried, note_error, note_ok};
use super::errors::{error_text, read_error_text};
use super::new_requests;
use super::tell::{auto_refresh_answered, queue_key, say, say_refresh_failed};
use crate::api::{ApiError, ClubRequest, MembershipStatus, Page, Reply, RequestFilter, Sort};
use crate::app::call::{ApiCall, ListPurpose};
use crate::app::keymap::Action;
use crate::app::model::{ListingSupport, Loadable, Model, Origin, RowState, Severity};
use crate::app::msg::{Effect, Tries};
use crate::i18n::{Lang, tr};

/// Rows ahead of the cursor whose details are prefetched.
pub const PREFETCH_AHEAD: usize = 4;

/// Rows re-read per listing call (the `ids` filter of the listing): the deployed
/// listing's page size limit is 100; 50 keeps each answer small on a slow link.
pub const REREAD_CHUNK: usize = 50;

/// Reads rows. Where the server lists, through the listing's `ids` filter, 50 rows a call
/// (one round trip instead of fifty on a slow link); else one GET per row. While the first
/// answers are still awaited at start (whether the server lists is not known yet), a long
/// list waits, except the rows near the cursor: [`fetch_unloaded`] reads it once known.
/// A read failing on the way is tried again by the client ([`Tries::Client`]).
pub(super) fn fetch_rows(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    fetch_rows_tried(m, ids, Tries::Client)
}

/// [`fetch_rows`] for a caller that reads again by its own rule (a lost write's re-reads,
/// with the shared backoff): the client tries each read once ([`Tries::Once`]), so no two
/// retry policies nest.
pub(super) fn reread_rows(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    fetch_rows_tried(m, ids, Tries::Once)
}

fn fetch_rows_tried(m: &mut Model, ids: &[Uuid], tries: Tries) -> Vec<Effect> {
    let ids: Vec<Uuid> = ids
        .iter()
        .copied()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                m.deciding(i.id).is_none()
                    && !matches!(i.state, RowState::Loading | RowState::Deleted)
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
            .map(|id| call_tried(m, ApiCall::GetRequest { id, levels }, tries))
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
                purpose: ListPurpose::Reread(chunk.to_vec()),
            };
            call_tried(m, c, tries)
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
    // Matched on what was just read (`Queue::apply_changes` re-indexes too, after this message).
    for id in ids {
        if let Some(item) = m.queue.get_mut(*id) {
            item.reindex();
        }
    }
    if let Some(text) = hidden_words(m, ids) {
        say(m, Severity::Info, &text);
    }
}

/// A write's outcome reached row `id` (this dashboard's answer or its settlement, another
/// session's word, a lost answer): reads sent before now no longer take the row back
/// ([`crate::app::model::QueueItem::written_from`]).
pub(super) fn note_written(m: &mut Model, id: Uuid) {
    let from = m.calls.next_id();
    if let Some(item) = m.queue.get_mut(id) {
        item.written_from = from;
    }
}

/// Merges what the server said of a row into it (the row keeps fields of other levels),
/// unless the read was sent before a write's outcome reached the row
/// ([`crate::app::model::QueueItem::written_from`]): the server may have read it before
/// that write, and a row approved here never turns pending again from an older read.
/// Returns true when the row was pending here and the server now shows it decided although
/// this dashboard neither decided it nor waits to settle its own decision: someone else
/// decided it. Its mark is dropped (a bulk decision on it could only be refused). A row
/// decided (here or elsewhere) that a read shows pending again is new, as a request never
/// seen ([`new_requests::mark`]). A read showing this dashboard's applied decision
/// overwritten is noted for [`super::decisions::overwritten`].
pub(super) fn merge_row(m: &mut Model, r: ClubRequest) -> bool {
    super::term::follow_row(m, &r);
    let r = slim(r);
    let id = r.id;
    let deciding = m.deciding(r.id).is_some();
    let ours = m.outcome_unknown(r.id)
        || m.calls
            .iter()
            .any(|c| c.decision().is_some_and(|(id, _)| id == r.id));
    let mut elsewhere = false;
    let mut new_again = false;
    let answering = m.answering;
    // This dashboard's applied decision, the request read since in the other status.
    let overwritten = m
        .decisions
        .get(r.id)
        .and_then(|d| d.overwritten_by(r.membership()));
    if let Some(item) = m.queue.get_mut(r.id) {
        if item.written_after(answering) {
            // Read before a write's outcome reached the row: older than what the row shows
            // (which stays, and is no longer being read unless a newer read is on its way).
            if item.state == RowState::Loading && !m.calls.reads_since(r.id, item.written_from) {
                item.state = RowState::Ready;
            }
            return false;
        }
        if let Some(s) = overwritten {
            m.overwritten_due.push((r.id, s));
        }
        let was_pending = item.status() == Some(&MembershipStatus::Pending);
        let was_decided = matches!(
            item.status(),
            Some(MembershipStatus::Approved | MembershipStatus::Declined)
        );
        let now = r.membership().cloned();
        let back = !deciding && was_decided && now == Some(MembershipStatus::Pending);
        match &mut item.request {
            Some(old) => old.merge_from(r),
            None => item.request = Some(r),
        }
        // The row's state follows the read even while a decision of this dashboard is held
        // or on its way (the row's marker comes from the decision, not from the state).
        item.state = RowState::Ready;
        if !deciding
            && was_pending
            && !ours
            && let Some(s) = now.filter(|s| *s != MembershipStatus::Pending)
        {
            item.decided_elsewhere = Some(s);
            if item.marked {
                item.marked = false;
                m.listing.unmarked += 1;
            }
            new_requests::clear(item);
            elsewhere = true;
        }
        if back && !item.is_new {
            // Set back to pending elsewhere: new here, as a request never seen.
            item.decided_elsewhere = None;
            item.decided_by = None;
            new_again = true;
        }
        item.read_error = None;
    }
    if new_again {
        new_requests::mark(m, id);
    }
    elsewhere
}

/// Says how many rows a read showed decided by someone else ([`merge_row`]), once per
/// answer; the marks on them are gone.
pub(super) fn say_decided_elsewhere(m: &mut Model, n: usize) {
    let unmarked = std::mem::take(&mut m.listing.unmarked);
    if n == 0 {
        return;
    }
    let text = if unmarked > 0 {
        crate::tr!(m.lang, "status-decided-elsewhere", n = n)
    } else {
        crate::tr!(m.lang, "status-decided-elsewhere-plain", n = n)
    };
    super::tell::say_unless_busy(m, Severity::Info, &text);
}

/// A read of `ids` answered: a status line saying one of them is being read (`Enter`) goes
/// (the row shows what was read; a failure says its own words).
fn read_said(m: &mut Model, ids: &[Uuid]) {
    if m.notice
        .as_ref()
        .and_then(|n| n.reading)
        .is_some_and(|id| ids.contains(&id))
    {
        m.notice = None;
    }
}

/// Rows read by id through the listing arrived; ids the server did not list are gone.
pub(super) fn on_reread(
    m: &mut Model,
    ids: Vec<Uuid>,
    res: Result<Reply<Vec<ClubRequest>>, ApiError>,
) -> Vec<Effect> {
    if res.is_ok() {
        read_said(m, &ids);
    }
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let found: HashSet<Uuid> = reply.data.iter().map(|r| r.id).collect();
            let mut first = Vec::new();
            let mut elsewhere = 0;
            for r in reply.data {
                if first_read_by_hand(m, r.id) {
                    first.push(r.id);
                }
                if merge_row(m, r) {
                    elsewhere += 1;
                }
            }
            say_decided_elsewhere(m, elsewhere);
            say_if_hidden(m, &first);
            for id in ids.into_iter().filter(|id| !found.contains(id)) {
                super::term::follow_gone(m, id);
                if let Some(item) = m.queue.get_mut(id)
                    && item.state == RowState::Loading
                {
                    item.state = RowState::Gone;
                    item.read_error = Some(tr(m.lang, "error-row-gone-elsewhere"));
                    item.marked = false;
                }
            }
            let speaks = m.refresh_speaks();
            auto_refresh_answered(m);
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
            say_refresh_failed(m, &text);
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
    if res.is_ok() {
        read_said(m, &[id]);
    }
    match res {
        Ok(reply) => {
            note_ok(m, &reply.api_version);
            let first = first_read_by_hand(m, reply.data.id);
            if merge_row(m, reply.data) {
                say_decided_elsewhere(m, 1);
            }
            if first {
                say_if_hidden(m, &[id]);
            }
        }
        Err(e) => {
            note_error(m, &e);
            let text = read_error_text(m, &e);
            if let Some(item) = m.queue.get_mut(id) {
                item.state = match (&e, item.request.is_some()) {
                    (ApiError::NotFound(_), _) => RowState::Gone,
                    (_, true) => RowState::Ready,
                    (_, false) => RowState::Failed,
                };
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

/// Rows added by hand that the active filter hides, in words with the key that clears
/// the filter ("the filter /club:art hides 1 request you added · Backspace clears it");
/// `None` when there is no filter or it shows them all. Judged on the rows as they are
/// now (a row not read yet is judged once read).
pub(super) fn hidden_words(m: &Model, ids: &[Uuid]) -> Option<String> {
    let filter = m.queue.filter();
    if filter.trim().is_empty() {
        return None;
    }
    let terms = crate::app::filter::parse(filter);
    let hidden = ids
        .iter()
        .filter(|id| m.queue.get(**id).is_some_and(|i| !i.matches(&terms)))
        .count();
    if hidden == 0 {
        return None;
    }
    let key = queue_key(m, Action::ClearFilter, ":filter");
    Some(crate::tr!(
        m.lang,
        "status-ids-hidden",
        n = hidden,
        filter = crate::text::clean(filter, 30),
        key = key
    ))
}
