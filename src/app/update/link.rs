//! The link to the server: every answer sets "online" or "offline" in the
//! header; reads that could not reach the server are kept and sent again once it answers,
//! probed with backoff (1 s, 2 s, ... 30 s) by `Msg::Retry`, without a key press. Writes are
//! never sent again (their outcome is learnt by re-reading the row).

use super::{answers, capability, club, listing, rows};
use crate::api::{ApiError, Timestamp};
use crate::app::effect::{ApiCall, Effect};
use crate::app::model::{Awaiting, Connection, ListScope, Model};
use crate::app::msg::ApiAnswer;
use crate::i18n::Lang;

/// The error in words (in `lang`, for the header) when it says the server could not be
/// reached (no connection, no answer in time), or that what answered is not the club
/// service (a wrong base URL: never shown online); `None` for an answer, even a refusal.
fn unreachable(lang: Lang, e: &ApiError) -> Option<String> {
    matches!(
        e,
        ApiError::Connect { .. } | ApiError::Timeout { .. } | ApiError::NotTheService { .. }
    )
    .then(|| e.describe(lang))
}

/// Applies an answer ([`answers::on_api`]); then the header follows it (offline when the
/// server could not be reached, else online), a read that could not reach the server is kept
/// for a retry, and when the server answers again after being unreachable, every kept read is
/// sent again.
pub(super) fn on_answer(m: &mut Model, awaiting: Awaiting, answer: ApiAnswer) -> Vec<Effect> {
    let down = answer.error().and_then(|e| unreachable(m.lang, e));
    let was_offline = matches!(m.connection, Connection::Offline(_));
    let lost = (down.is_some() && !awaiting.is_write()).then(|| awaiting.clone());
    let fx = answers::on_api(m, awaiting, answer);
    if let Some(read) = lost {
        m.link.lose(read);
    }
    match down {
        Some(why) => {
            m.connection = Connection::Offline(why);
            if m.link.retry_at.is_none() && !m.link.lost.is_empty() {
                m.link.schedule(m.now);
            }
        }
        None => {
            m.connection = Connection::Online;
            if was_offline || m.link.retry_at.is_some() {
                m.link.reset();
                m.link.back = true;
            }
        }
    }
    fx
}

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

/// Sends a kept read again, where it still means something (a listing page of the current
/// listing, the club still shown, ...).
fn resend(m: &mut Model, read: Awaiting) -> Vec<Effect> {
    match read {
        Awaiting::User | Awaiting::StaffedClubs => {
            if m.calls.iter().any(|a| *a == Awaiting::User) {
                return Vec::new();
            }
            if matches!(m.listing.scope, ListScope::Unknown) || m.user.get().is_none() {
                m.user = crate::app::model::Loadable::Loading;
            }
            vec![super::call(m, Awaiting::User, ApiCall::CurrentUser)]
        }
        Awaiting::Fetch(id) => rows::fetch_rows(m, &[id]),
        Awaiting::Reread(ids) => rows::fetch_rows(m, &ids),
        Awaiting::ListPage { page, generation } => {
            if generation == m.listing.generation && !m.listing.loading {
                listing::load_page(m, page)
            } else {
                Vec::new()
            }
        }
        Awaiting::Club(id) if m.club.club_id == Some(id) => club::load_club(m, id),
        Awaiting::UpdateRoute => capability::probe(m),
        // A pasted token is checked once: the moderator pastes it again if the link dropped.
        Awaiting::Club(_)
        | Awaiting::ClubSearch
        | Awaiting::Act(..)
        | Awaiting::Contact(_)
        | Awaiting::TokenCheck { .. } => Vec::new(),
    }
}
