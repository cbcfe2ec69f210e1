//! The server's count of the scope's pending requests (`meta.pagination.total`), kept true
//! as decisions apply ([`count_decided`], [`uncount`]) and read again when it may be off
//! ([`recount_when_settled`]); the listing's one query, which a page and a recount share
//! ([`listing_call`]); and how many listed requests are still pending here
//! ([`listed_pending`]). The listing loads more while the count is above what it has seen.

use uuid::Uuid;

use super::connection::{call, note_ok};
use crate::api::{ApiError, ClubRequest, MembershipStatus, Page, Reply, RequestFilter, Sort};
use crate::app::call::{ApiCall, ListPurpose};
use crate::app::model::{ListScope, Model, Origin, QueueItem, RowState};
use crate::app::msg::Effect;

/// The listing's one query, the scope's pending requests in the listing's order, for
/// `page` and `purpose`: a page and a recount count the same requests (`None` when
/// nothing is listed).
pub(super) fn listing_call(m: &Model, page: Page, purpose: ListPurpose) -> Option<ApiCall> {
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

/// Listed requests that are still pending here (the server's pending listing holds them
/// before any request this dashboard has not seen yet).
pub(super) fn listed_pending(m: &Model) -> u32 {
    m.queue
        .items()
        .iter()
        .filter(|i| is_listed_pending(i))
        .count() as u32
}

/// A row of the listing, still there and pending here.
pub(super) fn is_listed_pending(i: &QueueItem) -> bool {
    i.origin == Origin::Listing
        && !matches!(i.state, RowState::Deleted | RowState::Gone)
        && i.status() == Some(&MembershipStatus::Pending)
}

/// The server's count in an answer's `meta.pagination.total`, when it gave one.
pub(super) fn total_of(meta: Option<&crate::api::Meta>) -> Option<u64> {
    meta.and_then(|x| x.pagination.as_ref())
        .and_then(|p| p.total)
}

/// Page 1's count of pending requests (`meta.pagination.total`): a count grown since the
/// last page 1 sends the reload on past the pages it had, to the last
/// ([`crate::app::model::Listing::hunting`]), since a new request may sort onto any page
/// (ids sort the listing). Whatever answered before it: the re-reads of known rows may end
/// the refresh first.
pub(super) fn note_count(m: &mut Model, meta: Option<&crate::api::Meta>) {
    let total = total_of(meta);
    m.listing.hunting = matches!((m.listing.last_total, total), (Some(a), Some(b)) if b > a);
    m.listing.last_total = total.or(m.listing.last_total);
}

/// The server's count taken from an answer (`meta.pagination.total`) that listed `listed`
/// (pending when counted, so in the count): this dashboard's decisions on the wire
/// meanwhile may or may not be in it ([`Listing::counted_maybe`]). An answer to a call sent
/// before the one whose count stands (a recount crossing a page) leaves it. Returns whether
/// the count was taken.
///
/// [`Listing::counted_maybe`]: crate::app::model::Listing::counted_maybe
pub(super) fn take_total(m: &mut Model, total: Option<u64>, listed: &[ClubRequest]) -> bool {
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
    /// A write whose time is not known here: another's (reported by another session, or met as
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
        i.origin == Origin::Listing && i.status() == Some(&MembershipStatus::Pending)
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
    // Asked after every message (ticks too): the flag first, the table of decisions and the calls only
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
    let (true, Ok(reply)) = (generation == m.listing.generation, res) else {
        return Vec::new();
    };
    note_ok(m, &reply.api_version);
    if let Some(total) = total_of(reply.meta.as_ref())
        && take_total(m, Some(total), &reply.data)
        && total > u64::from(listed_pending(m))
    {
        m.listing.has_more = true;
    }
    Vec::new()
}
