//! The term at a glance in the dashboard: `T` opens the view and reads the scope's
//! requests, every status, off the event loop ([`Effect::ReadTerm`]); the figures are the
//! shared ones ([`crate::ops::stats::figures`], as `club-admin stats`'s), with the decisions of
//! the history's rows (this server's audit, [`Model::history`]). While the view is open it
//! follows the queue's own answers (its pages and rows, [`follow_page`], [`follow_row`]),
//! and reads by id only the requests that left the queue's pages: a refresh of the view
//! costs what the queue's costs, and more only when the service's count says something
//! changed beyond what the queue read ([`follow_through`]). This file keeps what was read
//! and computed; the view draws it (`ui/term.rs`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use chrono::FixedOffset;
use uuid::Uuid;

use crate::api::{ClubRequest, MembershipStatus, Reply, RequestFilter};
use crate::app::call::ApiCall;
use crate::app::model::{ListScope, Loadable, Model, Popup, PopupOp, listing_key};
use crate::app::msg::{Effect, TermAsk};

/// `T`: the view opens and the scope's requests are read again, every page (the figures
/// read before stay shown until the new ones come).
pub(super) fn open(m: &mut Model) -> Vec<Effect> {
    m.popup = Some(Popup::Term { scroll: 0 });
    read(m)
}

/// An account the service lets decide nothing (a teacher, an administrator: not a student,
/// [`crate::ops::permit::Refusal::NotStudent`]) sees the term view first, once, as soon as
/// its scope is known and nothing else is open: the queue offers it nothing to do, the term
/// answers what it is asked. Esc or `T` goes to the queue.
pub(super) fn first_view(m: &mut Model) -> Vec<Effect> {
    use crate::ops::permit::{Refusal, Write};
    if !m.review_opens_term || m.popup.is_some() || m.user.get().is_none() {
        return Vec::new();
    }
    if m.permit(Write::Decide, None) != Err(Refusal::NotStudent) {
        // A student decides in the queue.
        m.review_opens_term = false;
        return Vec::new();
    }
    if scope_filter(&m.listing.scope).is_none() {
        return Vec::new();
    }
    m.review_opens_term = false;
    open(m)
}

/// The scope's filter, every status: the clubs of the queue's scope, or every club; `None`
/// while the scope is not known or nothing is listed.
fn scope_filter(scope: &ListScope) -> Option<RequestFilter> {
    match scope {
        ListScope::Clubs(ids) => Some(RequestFilter {
            club_ids: ids.clone(),
            ..RequestFilter::default()
        }),
        ListScope::All => Some(RequestFilter::default()),
        ListScope::Unknown | ListScope::None => None,
    }
}

/// One read at a time; nothing to read while the scope is not known (the view says so).
fn read(m: &mut Model) -> Vec<Effect> {
    if m.term_reading {
        return Vec::new();
    }
    let Some(filter) = scope_filter(&m.listing.scope) else {
        m.term = Loadable::Failed(crate::i18n::tr(m.lang, "term-no-scope"));
        return Vec::new();
    };
    let same_scope = m.term_filter.as_ref() == Some(&filter);
    m.term_reading = true;
    if !same_scope {
        // Another scope's requests are not brought up to date, nor kept for this one's.
        m.term_read = None;
    }
    m.term_filter = Some(filter.clone());
    if !matches!(m.term, Loadable::Loaded(_)) || !same_scope {
        m.term = Loadable::Loading;
    }
    vec![Effect::ReadTerm {
        filter,
        page_size: m.page_size,
        ask: TermAsk::Whole,
    }]
}

/// Moves the view's `scroll` on `op` (the help's steps: a line, ten lines, the ends); any
/// other operation leaves it.
pub(super) fn scroll(op: PopupOp, scroll: &mut u16) {
    *scroll = scrolled(op, *scroll);
}

fn scrolled(op: PopupOp, scroll: u16) -> u16 {
    match op {
        PopupOp::ScrollUp => scroll.saturating_sub(1),
        PopupOp::ScrollDown => scroll.saturating_add(1),
        PopupOp::PageUp => scroll.saturating_sub(10),
        PopupOp::PageDown => scroll.saturating_add(10),
        PopupOp::Home => 0,
        PopupOp::End => u16::MAX,
        PopupOp::Close
        | PopupOp::Submit
        | PopupOp::Yes
        | PopupOp::No
        | PopupOp::Press
        | PopupOp::Toggle
        | PopupOp::ToggleSave
        | PopupOp::CopyAddress
        | PopupOp::NextField
        | PopupOp::PrevKind
        | PopupOp::NextKind
        | PopupOp::SendHeld
        | PopupOp::DiscardHeld
        | PopupOp::HoldAgain => scroll,
    }
}

/// True while the view is open on a read of the queue's own scope: the queue's answers
/// bring it up to date.
fn following(m: &Model) -> bool {
    matches!(m.popup, Some(Popup::Term { .. }))
        && m.term_read.is_some()
        && m.term_filter.is_some()
        && m.term_filter == scope_filter(&m.listing.scope)
}

fn is_pending(r: &ClubRequest) -> bool {
    r.membership() == Some(&MembershipStatus::Pending)
}

/// A request the queue read (a page's row, a row read again, a decision's answer) taken into
/// the view's requests: one new to them, in the scope, is added; a pending one takes its
/// new status. A decided request never goes back to pending (the service changes only
/// pending ones): a read older than the view's stays out.
pub(super) fn follow_row(m: &mut Model, r: &ClubRequest) {
    let Some(status) = r.membership() else {
        return;
    };
    if !following(m) {
        return;
    }
    let in_scope = m.term_filter.as_ref().is_some_and(|f| {
        f.club_ids.is_empty() || r.club.as_ref().is_some_and(|c| f.club_ids.contains(&c.id))
    });
    let Some((requests, _)) = m.term_read.as_mut() else {
        return;
    };
    match requests.iter().position(|x| x.id == r.id) {
        Some(i) if is_pending(&requests[i]) && *status != MembershipStatus::Pending => {
            Arc::make_mut(requests)[i] = r.clone();
        }
        Some(_) => return,
        None if in_scope => Arc::make_mut(requests).push(r.clone()),
        None => return,
    }
    m.term_follow.changed = true;
}

/// A request the queue read by id and the service lists no more (deleted) leaves the
/// view's requests.
pub(super) fn follow_gone(m: &mut Model, id: Uuid) {
    if !following(m) {
        return;
    }
    if let Some((requests, _)) = m.term_read.as_mut()
        && requests.iter().any(|r| r.id == id)
    {
        Arc::make_mut(requests).retain(|r| r.id != id);
        m.term_follow.changed = true;
    }
}

/// A page of the queue's listing (the scope's pending requests, in the listing's order):
/// the view's pending requests that sort within the stretch the page covers (from the
/// start for page 1, to the end for the last page) and are not on it have left the pending
/// listing, decided or deleted since: they are read by id once the queue's reads are in
/// ([`follow_through`]). Page 1's count of pending requests is kept to check the view's
/// against. Its rows themselves come through [`follow_row`].
pub(super) fn follow_page(m: &mut Model, page: u32, reply: &Reply<Vec<ClubRequest>>) {
    let rows = &reply.data;
    // Rows read below `default` carry no status nor year, nor the listing's order.
    if !following(m) || rows.iter().any(|r| r.membership().is_none()) {
        return;
    }
    let pagination = reply.meta.as_ref().and_then(|x| x.pagination.as_ref());
    if page == 1 {
        m.term_follow.count = pagination.and_then(|p| p.total);
    }
    let last = match pagination {
        Some(p) => p.next_p.is_none(),
        None => rows.len() < m.page_size as usize,
    };
    let (lo, hi) = (
        rows.iter().map(listing_key).min(),
        rows.iter().map(listing_key).max(),
    );
    if lo.is_none() && page > 1 {
        return;
    }
    let on_page: HashSet<Uuid> = rows.iter().map(|r| r.id).collect();
    let within = |r: &ClubRequest| {
        let k = listing_key(r);
        (page == 1 || lo.is_some_and(|l| k >= l)) && (last || hi.is_some_and(|h| k <= h))
    };
    if let Some((requests, _)) = &m.term_read {
        let left = requests
            .iter()
            .filter(|r| is_pending(r) && !on_page.contains(&r.id) && within(r))
            .map(|r| r.id);
        m.term_follow.left.extend(left);
    }
}

/// After every message: the figures computed again when the view's requests changed; once
/// none of the queue's listing reads (its pages, its rows read again, which may tell of
/// them first) nor a read of the view's is on its way, the requests that left the queue's
/// pages read by id (one call for up to a page of them), then the service's count of
/// pending requests checked against the view's: where they differ, something the queue
/// did not read changed (a request new or decided beyond its pages), and the scope's
/// pending pages are read ([`crate::ops::stats::refresh_pages`]).
pub(super) fn follow_through(m: &mut Model) -> Vec<Effect> {
    if m.term_follow.changed {
        m.term_follow.changed = false;
        compute(m);
    }
    let f = &m.term_follow;
    let quiet = !m.term_reading && !f.reading;
    if (f.left.is_empty() && f.count.is_none()) || !quiet || m.calls.iter().any(is_listing) {
        return Vec::new();
    }
    let (Some(filter), Some((requests, _)), true) =
        (m.term_filter.clone(), m.term_read.clone(), following(m))
    else {
        m.term_follow = Default::default();
        return Vec::new();
    };
    let left = std::mem::take(&mut m.term_follow.left);
    // Those the queue's own reads told of meanwhile (its rows read again) are known.
    let ids: Vec<Uuid> = requests
        .iter()
        .filter(|r| is_pending(r) && left.contains(&r.id))
        .map(|r| r.id)
        .collect();
    let ask = if !ids.is_empty() {
        TermAsk::ById(ids)
    } else {
        let pending = requests.iter().filter(|r| is_pending(r)).count() as u64;
        match m.term_follow.count.take() {
            Some(count) if count != pending => TermAsk::Pending(requests),
            Some(_) | None => return Vec::new(),
        }
    };
    m.term_follow.reading = true;
    vec![Effect::ReadTerm {
        filter,
        page_size: m.page_size,
        ask,
    }]
}

fn is_listing(c: &ApiCall) -> bool {
    matches!(c, ApiCall::ListRequests { .. })
}

/// The scope's requests, read ([`crate::app::Msg::TermRead`]): the figures computed with
/// the history's rows as they are now; a failure of a whole read is said in the view (the
/// figures before it stay). A read by id updates the requests it read and drops those the
/// service lists no more; a follow-up read that failed is left to the next refresh, whose
/// reads find the same again.
pub(super) fn on_read(
    m: &mut Model,
    read: Result<Vec<ClubRequest>, String>,
    ask: TermAsk,
    offset_secs: i32,
) -> Vec<Effect> {
    match ask {
        TermAsk::Whole => {
            m.term_reading = false;
            m.term_follow = Default::default();
        }
        TermAsk::Pending(_) | TermAsk::ById(_) => m.term_follow.reading = false,
    }
    let offset = FixedOffset::east_opt(offset_secs)
        .unwrap_or_else(|| FixedOffset::east_opt(0).expect("UTC is an offset"));
    match (read, ask) {
        (Ok(found), TermAsk::ById(ids)) => {
            if let Some((requests, _)) = m.term_read.as_mut() {
                let asked: HashSet<Uuid> = ids.into_iter().collect();
                let mut found: HashMap<Uuid, ClubRequest> =
                    found.into_iter().map(|r| (r.id, r)).collect();
                let requests = Arc::make_mut(requests);
                requests.retain(|r| !asked.contains(&r.id) || found.contains_key(&r.id));
                for r in requests.iter_mut() {
                    if let Some(now) = found.remove(&r.id) {
                        *r = now;
                    }
                }
                compute(m);
            }
        }
        (Ok(requests), TermAsk::Whole | TermAsk::Pending(_)) => {
            m.term_read = Some((Arc::new(requests), offset));
            compute(m);
        }
        (Err(why), TermAsk::Whole) => {
            if !matches!(m.term, Loadable::Loaded(_)) {
                m.term = Loadable::Failed(why);
            }
        }
        (Err(_), TermAsk::Pending(_) | TermAsk::ById(_)) => {}
    }
    Vec::new()
}

/// After the history was read again: the figures follow its rows.
pub(super) fn follow_history(m: &mut Model) {
    if m.term_read.is_some() {
        compute(m);
    }
}

fn compute(m: &mut Model) {
    let Some((requests, offset)) = &m.term_read else {
        return;
    };
    let rows = m.history.get().map(|rows| &rows[..]);
    let figures = crate::ops::stats::figures(requests, rows, None, *offset);
    m.term = Loadable::Loaded(Arc::new(figures));
}
