//! A refresh (`r`, `:refresh`, `--auto-refresh`, the first load tried again): the user, the
//! scope or the listing's pages read again, whichever is missing, and every known row
//! re-read. How a refresh ends is said by [`super::tell::end_refresh_when_read`].

use uuid::Uuid;

use super::connection::call;
use super::count::listed_pending;
use super::listing::load_page;
use super::rows::fetch_rows;
use super::scope::ask_scope;
use super::tell::end_refresh_when_read;
use crate::app::call::{ApiCall, SearchPurpose};
use crate::app::model::{ListScope, ListingSupport, Loadable, Model, RowState};
use crate::app::msg::Effect;

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
        fx.extend(ask_scope(m, &user));
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
