//! The term at a glance in the dashboard: `T` opens the view and reads the scope's
//! requests, every status, off the event loop ([`Effect::ReadTerm`]); the figures are the
//! core's ([`crate::ops::stats::figures`], as `club-admin stats`'s), with the decisions of
//! the history's rows (this server's audit, [`Model::history`]). This file keeps what was
//! read and computed; the view draws it (`ui/term.rs`).

use std::sync::Arc;

use chrono::FixedOffset;

use crate::api::{ClubRequest, RequestFilter};
use crate::app::model::{ListScope, Loadable, Model, Popup, PopupOp};
use crate::app::msg::Effect;

/// `T`: the view opens and the scope's requests are read again, every page (the figures
/// read before stay shown until the new ones come).
pub(super) fn open(m: &mut Model) -> Vec<Effect> {
    m.popup = Some(Popup::Term { scroll: 0 });
    read(m, false)
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
/// `pending_only`: with a whole read of the same scope before, only its pending requests
/// are read again ([`crate::ops::stats::refresh_pages`]), what the queue's refresh reads.
fn read(m: &mut Model, pending_only: bool) -> Vec<Effect> {
    if m.term_reading {
        return Vec::new();
    }
    let Some(filter) = scope_filter(&m.listing.scope) else {
        m.term = Loadable::Failed(crate::i18n::tr(m.lang, "term-no-scope"));
        return Vec::new();
    };
    let same_scope = m.term_filter.as_ref() == Some(&filter);
    let previous = match &m.term_read {
        Some((requests, _)) if pending_only && same_scope => Some(requests.clone()),
        Some(_) | None => None,
    };
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
        previous,
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

/// The automatic refresh while the view is open reads the term's pending requests again, as
/// the queue's refresh does (the decided ones stay decided).
pub(super) fn refresh(m: &mut Model) -> Vec<Effect> {
    if matches!(m.popup, Some(Popup::Term { .. })) {
        read(m, true)
    } else {
        Vec::new()
    }
}

/// The scope's requests, read ([`crate::app::Msg::TermRead`]): the figures computed with
/// the history's rows as they are now; a failure is said in the view (the figures before
/// it stay).
pub(super) fn on_read(
    m: &mut Model,
    read: Result<Vec<ClubRequest>, String>,
    offset_secs: i32,
) -> Vec<Effect> {
    m.term_reading = false;
    match read {
        Ok(requests) => {
            let offset = FixedOffset::east_opt(offset_secs)
                .unwrap_or_else(|| FixedOffset::east_opt(0).expect("UTC is an offset"));
            m.term_read = Some((Arc::new(requests), offset));
            compute(m);
        }
        Err(why) => {
            if !matches!(m.term, Loadable::Loaded(_)) {
                m.term = Loadable::Failed(why);
            }
        }
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
