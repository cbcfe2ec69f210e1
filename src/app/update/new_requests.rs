//! Requests new to this dashboard, shown with a `+` until the cursor reaches them: one that
//! entered the listing after this dashboard read that part of it, or one a read shows set
//! back to pending elsewhere. Decided ([`is_new`]), set ([`mark`]), said once ("3 new
//! requests", [`unsaid`]) and cleared ([`clear`], [`seen`]) here only.

use uuid::Uuid;

use super::connection::call;
use super::count::listing_call;
use crate::api::{ApiError, ClubRequest, Levels, Page, Reply};
use crate::app::call::{ApiCall, ListPurpose};
use crate::app::model::{KnownIds, Model, QueueItem, listing_key};
use crate::app::msg::Effect;

/// Whether `r`, not in the queue yet, enters it new. Never before the first
/// page was read. Where the listing of this scope was read ([`Listing::read_to`]) it is,
/// whatever its `created_at`: the request entered the listing after that read. On a page
/// not read yet, it is when it is not among the ids the listing held at its first load
/// ([`Listing::known`]). Without those ids (not read yet, or their read failed) it is not
/// (paging down a long queue brings old requests), except on a refresh that hunts because
/// the server's count grew ([`Listing::hunting`]): there the only sign left is its creation
/// after the first load (the server's clock).
///
/// [`Listing::read_to`]: crate::app::model::Listing::read_to
/// [`Listing::known`]: crate::app::model::Listing::known
/// [`Listing::hunting`]: crate::app::model::Listing::hunting
pub(super) fn is_new(m: &Model, r: &ClubRequest) -> bool {
    let Some(first) = m.listing.first_load else {
        return false;
    };
    let read = m
        .listing
        .read_to
        .as_ref()
        .is_some_and(|(scope, to)| *scope == m.listing.scope && listing_key(r) <= *to);
    let known = (m.listing.known.as_ref()).filter(|k| k.complete && k.scope == m.listing.scope);
    read || match known {
        Some(known) => !known.ids.contains(&r.id),
        None => m.listing.hunting && r.created_at.is_some_and(|c| c > first),
    }
}

/// Asks page `page` of the ids of the scope's pending listing, at `id_only` and as many a
/// page as the server gives (a listing read, so `serve-ssh`'s sessions share it as they
/// share the pages): from the first load, when more pages follow the first.
pub(super) fn read_known(m: &mut Model, page: u32) -> Vec<Effect> {
    let Some(mut c) = listing_call(m, Page::new(page, 100), ListPurpose::Known { page }) else {
        return Vec::new();
    };
    if let ApiCall::ListRequests { levels, .. } = &mut c {
        *levels = Levels::ID_ONLY;
    }
    if page == 1 {
        let scope = m.listing.scope.clone();
        m.listing.known = Some(KnownIds {
            scope,
            ..KnownIds::default()
        });
    }
    vec![call(m, c)]
}

/// A page of the ids the listing held at its first load: kept, and the next page asked
/// until the last. A failure leaves none (what is new is judged without them).
pub(super) fn on_known(
    m: &mut Model,
    page: u32,
    res: Result<Reply<Vec<ClubRequest>>, ApiError>,
) -> Vec<Effect> {
    let scope = &m.listing.scope;
    let Some(known) = m.listing.known.as_mut().filter(|k| k.scope == *scope) else {
        return Vec::new();
    };
    let Ok(reply) = res else {
        m.listing.known = None;
        return Vec::new();
    };
    known.ids.extend(reply.data.iter().map(|r| r.id));
    let pages = reply.meta.as_ref().and_then(|x| x.pagination.as_ref());
    match pages.and_then(|p| p.next_p).filter(|next| *next > page) {
        Some(next) => read_known(m, next),
        None => {
            known.complete = true;
            Vec::new()
        }
    }
}

/// Row `id` is new: its `+` shows, and the next page's answer says it ([`unsaid`]).
pub(super) fn mark(m: &mut Model, id: Uuid) {
    if let Some(item) = m.queue.get_mut(id)
        && !item.is_new
    {
        item.is_new = true;
        m.listing.new_unsaid += 1;
    }
}

/// The row is no longer new (decided elsewhere).
pub(super) fn clear(item: &mut QueueItem) {
    item.is_new = false;
}

/// The cursor reached a new row: it is new no longer.
pub(super) fn seen(m: &mut Model) {
    if let Some(id) = m.queue.selected().filter(|i| i.is_new).map(|i| i.id)
        && let Some(item) = m.queue.get_mut(id)
    {
        clear(item);
    }
}

/// "3 new requests", once, for the rows marked new since it was last said (`None` when
/// there are none); the terminal is asked to notify too where the configuration says so.
pub(super) fn unsaid(m: &mut Model) -> Option<String> {
    let n = std::mem::take(&mut m.listing.new_unsaid);
    if n == 0 {
        return None;
    }
    let text = crate::tr!(m.lang, "status-new-requests", n = n);
    if m.notify != crate::config::NewRequestNotice::Off {
        m.notify_due = Some(text.clone());
    }
    Some(text)
}
