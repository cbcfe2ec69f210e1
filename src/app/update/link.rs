//! The link to the server: reads that could not reach the server (kept by `update` as
//! every answer comes in, which also sets "online" or "offline" in the header) are sent
//! again once it answers, probed with backoff (1 s, 2 s, ... 30 s) by `Msg::Retry`, without a
//! key press. Writes are never sent again (their outcome is learnt by re-reading the row).

use super::{capability, club, listing, rows};
use crate::api::Timestamp;
use crate::app::call::{ApiCall, WhenBack};
use crate::app::model::{Connection, ListScope, Model};
use crate::app::msg::{Effect, Tries};

/// Once the server answers again, every kept read is sent again: called after everything
/// else an answer settles (a lost write's re-read settles first, on the row as it was read).
pub(super) fn resend_lost(m: &mut Model) -> Vec<Effect> {
    if !std::mem::take(&mut m.link.back) {
        return Vec::new();
    }
    let lost = std::mem::take(&mut m.link.lost);
    let mut fx: Vec<Effect> = lost.into_iter().flat_map(|read| resend(m, read)).collect();
    // Writes whose answer was lost are re-read at once, not at their backoff's end.
    fx.extend(super::lost::reread_all(m));
    fx
}

/// The retry timer fired at `now`: while the server is unreachable, the oldest kept read is
/// sent again as the probe (unless a call in flight will tell first), and the next retry is
/// planned further off. Nothing kept, or online: the timer stops.
pub(super) fn retry(m: &mut Model, now: Timestamp) -> Vec<Effect> {
    m.now = now;
    if !matches!(m.connection, Connection::Offline(_)) || m.link.lost.is_empty() {
        m.link.reset();
        return Vec::new();
    }
    m.link.attempts = m.link.attempts.saturating_add(1);
    m.link.schedule(now);
    if m.busy() {
        return Vec::new();
    }
    while !m.link.lost.is_empty() {
        let read = m.link.lost.remove(0);
        let fx = resend(m, read);
        if !fx.is_empty() {
            return fx;
        }
    }
    m.link.reset();
    Vec::new()
}

/// Sends a kept read again, as its operation declares ([`ApiCall::when_back`]), where it
/// still means something (a listing page of the current listing, the club still shown, ...).
/// The link's backoff is the read's one policy now: the client tries it once
/// ([`Tries::Once`]).
fn resend(m: &mut Model, read: ApiCall) -> Vec<Effect> {
    let fx = resent(m, read);
    fx.into_iter()
        .map(|e| match e {
            Effect::Api {
                request_id, call, ..
            } => Effect::Api {
                request_id,
                call,
                tries: Tries::Once,
            },
            other => other,
        })
        .collect()
}

/// The effects that send `read` again ([`resend`]).
fn resent(m: &mut Model, read: ApiCall) -> Vec<Effect> {
    match read.when_back() {
        WhenBack::User => {
            if m.calls.iter().any(|c| *c == ApiCall::CurrentUser) {
                return Vec::new();
            }
            if matches!(m.listing.scope, ListScope::Unknown) || m.user.get().is_none() {
                m.user = crate::app::model::Loadable::Loading;
            }
            vec![super::connection::call(m, ApiCall::CurrentUser)]
        }
        WhenBack::Rows(ids) => {
            // A row whose write could not leave is the link's probe (read as it is: its
            // decision waits queued); the others are read as any row.
            let (waiting, rest): (Vec<_>, Vec<_>) = ids.into_iter().partition(|id| {
                m.decisions
                    .get(*id)
                    .is_some_and(|d| matches!(d.stage(), crate::ops::decision::Stage::Queued))
            });
            let mut fx = rows::fetch_rows(m, &rest);
            let levels = m.levels;
            for id in waiting {
                let read = ApiCall::GetRequest { id, levels };
                if !m.calls.iter().any(|c| *c == read) {
                    fx.push(super::connection::call(m, read));
                }
            }
            fx
        }
        WhenBack::Page { page, generation } => {
            if generation == m.listing.generation && !m.listing.loading {
                listing::load_page(m, page)
            } else {
                Vec::new()
            }
        }
        WhenBack::Club(id) if m.club.club_id == Some(id) => club::load_club(m, id),
        WhenBack::Probe => capability::probe(m),
        WhenBack::Club(_) | WhenBack::Dropped => Vec::new(),
    }
}
