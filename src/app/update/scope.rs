//! The listing's scope across starts. The scope the server's answers decide
//! (every pending request, or those of the clubs the user staffs) is remembered per server in
//! the saved queue. A warm start lists the remembered scope at once, beside `/auth/user`, so
//! the first rows come after one round trip; the answers then confirm it, or correct the
//! queue without losing the cursor.

use super::connection::call;
use super::tell::say;
use super::{count, listing};
use crate::api::{ClubQuery, FetchLevel, Levels, Page, User};
use crate::app::call::{ApiCall, SearchPurpose};
use crate::app::model::{
    ListScope, ListingSupport, Loadable, Model, Origin, QueueItem, SavedScope, Severity,
};
use crate::app::msg::Effect;

/// At restore: lists the remembered scope at once while the start-up still waits for the
/// user (a token is set, nothing decided yet, the server not known to lack the listing).
pub(super) fn list_remembered(m: &mut Model, saved: Option<&SavedScope>) -> Vec<Effect> {
    let Some(saved) = saved else {
        return Vec::new();
    };
    if m.listing.scope != ListScope::Unknown
        || !m.has_token
        || m.listing.support == ListingSupport::Unavailable
        || !matches!(m.user, Loadable::Loading)
    {
        return Vec::new();
    }
    let scope = in_order(saved.scope());
    m.listing.remembered = SavedScope::of(&scope);
    m.listing.scope = scope;
    m.listing.provisional = true;
    listing::load_page(m, 1)
}

/// The scope the server's answers decided (`/auth/user`, then the staffed clubs): remembered
/// for the next start, and listed. A remembered scope already listed is kept when it is the
/// same; otherwise the queue is corrected: rows the listing brought from clubs no longer in
/// scope go (rows added by hand and rows with a decision in flight stay), answers for the old
/// scope are dropped, and the new scope is listed from page 1. The cursor stays on its
/// request where that is still there.
pub(super) fn chosen(m: &mut Model, scope: ListScope) -> Vec<Effect> {
    let scope = in_order(scope);
    let saved = SavedScope::of(&scope);
    if m.listing.remembered != saved {
        m.listing.remembered = saved;
        m.listing.remembered_version += 1;
    }
    let provisional = std::mem::take(&mut m.listing.provisional);
    if provisional && m.listing.scope == scope {
        // Confirmed. Its first page is loaded or on its way, unless it failed (a session
        // that had expired, say): then it is asked for now.
        if m.listing.refreshed_at.is_none() && !m.listing.loading {
            return listing::load_page(m, 1);
        }
        return Vec::new();
    }
    if provisional {
        correct(m, &scope);
    }
    m.listing.scope = scope;
    listing::apply_scope(m);
    listing::load_page(m, 1)
}

/// The scope with its clubs sorted and without repeats: the server may list the same
/// clubs in another order, which is the same scope.
fn in_order(scope: ListScope) -> ListScope {
    match scope {
        ListScope::Clubs(mut ids) => {
            ids.sort_unstable();
            ids.dedup();
            ListScope::Clubs(ids)
        }
        other => other,
    }
}

/// Drops what the old scope listed and the new one does not hold.
fn correct(m: &mut Model, scope: &ListScope) {
    m.listing.generation += 1;
    m.listing.loading = false;
    m.listing.has_more = false;
    count::forget_count(m);
    let in_scope = |item: &QueueItem| {
        let club = item
            .request
            .as_ref()
            .and_then(|r| r.club.as_ref())
            .map(|c| c.id);
        match scope {
            ListScope::All => true,
            ListScope::Clubs(ids) => club.is_some_and(|c| ids.contains(&c)),
            ListScope::Unknown | ListScope::None => false,
        }
    };
    let before = m.queue.len();
    let book = &m.decisions;
    m.queue
        .retain(|i| i.origin != Origin::Listing || book.alive(i.id).is_some() || in_scope(i));
    let dropped = before - m.queue.len();
    if std::mem::take(&mut m.listing.new_account) {
        // Another account signed in: its listing replaced the last one's whole, and the
        // status line says what became of the last account's held decisions.
        return;
    }
    let text = if dropped > 0 {
        crate::tr!(m.lang, "status-clubs-changed-dropped", n = dropped)
    } else {
        crate::i18n::tr(m.lang, "status-clubs-changed")
    };
    say(m, Severity::Info, &text);
}

/// Clubs one student staffs, asked in one page: a student on the staff of more than 100
/// clubs is not a case the service knows (a club has a handful of staff).
const STAFFED_CLUBS_PAGE: u32 = 100;

/// Decides the listing's scope for `user`: a student's staffed clubs are looked up (the
/// answer decides), anyone else lists every pending request.
pub(super) fn ask_scope(m: &mut Model, user: &User) -> Vec<Effect> {
    let student = user.meta.as_ref().and_then(|x| x.student_id);
    match (student, user.is_admin.unwrap_or(false)) {
        (Some(sid), false) => {
            let c = ApiCall::SearchClubs {
                query: ClubQuery::StaffIds(vec![sid]),
                page: Page::new(1, STAFFED_CLUBS_PAGE),
                levels: Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
                purpose: SearchPurpose::StaffedClubs,
            };
            vec![call(m, c)]
        }
        _ => chosen(m, ListScope::All),
    }
}
