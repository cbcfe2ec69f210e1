//! Every awaited answer to its own handler ([`route`]), and the answers no single room owns:
//! who is signed in (the current user, whose answer scopes the listing; a pasted token's
//! check; the clubs a student staffs) and a decision's answer, handed by what it means to
//! the room it concerns ([`on_decision`]: the decision machine, the bulk task, a session
//! over, a lost answer's re-reads).

use uuid::Uuid;

use super::connection::{note_error, note_ok};
use super::errors::error_text;
use super::tell::{label_of, log, say};
use super::{actions, bulk, capability, decisions, held, listing, lost, rows, scope};
use crate::api::{ApiError, ClubRequest, Levels, Reply, UpdateRoute, User};
use crate::app::call::{Answer, CandidateToken, Decided};
use crate::app::model::{ListScope, ListingSupport, Loadable, Model, Popup, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;
use crate::ops::RowAction;
use crate::ops::decision::{self, Event};

/// The current user's answer: signed in (the update route probed, the scope asked), or
/// why not.
pub(super) fn on_user(m: &mut Model, res: Result<Reply<User>, ApiError>) -> Vec<Effect> {
    let reply = match res {
        Ok(reply) => reply,
        // Read before the token in use was taken: the sign-in read the user since.
        Err(e) if super::connection::stale_unauthorised(m, &e) => return Vec::new(),
        // Started without a token (a `serve-ssh` session, `--no-token`): the sign-in pop-up
        // asks for one already; the server's 401 says nothing new and is no error.
        Err(ApiError::Unauthorized { .. }) if !m.has_token => {
            m.user = Loadable::NotAsked;
            return Vec::new();
        }
        Err(e) => {
            note_error(m, &e);
            m.activities.signing_in = None;
            let why = error_text(m.lang, &e);
            m.user = Loadable::Failed(why.clone());
            let again = listing::plan_first_load_retry(m, &e);
            let text = crate::tr!(m.lang, "status-user-failed", error = why) + &again;
            say(m, Severity::Error, &text);
            return Vec::new();
        }
    };
    note_ok(m, &reply.api_version);
    m.session_expired = false;
    let user = reply.data;
    let email = user.email.clone().unwrap_or_default();
    log(
        m,
        "signed in",
        Some(user.id),
        crate::text::clean(&email, 60),
        Ok(()),
    );
    let mut fx = capability::probe(m);
    if m.listing.scope == ListScope::Unknown || scope::unconfirmed(m) {
        fx.extend(super::scope::ask_scope(m, &user));
    }
    m.user = Loadable::Loaded(user);
    if m.activities.signing_in.take().is_some() {
        let text = tr(m.lang, "status-signed-in");
        say(m, Severity::Success, &text);
    }
    fx
}

/// A pasted token the server refused (or could not check): the sign-in pop-up stays open
/// with why (the server's own words for a 401: the session in use is still signed in).
fn token_refused(m: &mut Model, e: &ApiError, save: bool) {
    m.activities.signing_in = None;
    let why = if matches!(e, ApiError::Unauthorized { .. }) {
        m.connection = crate::app::model::Connection::Online;
        match e.info().and_then(|i| i.detail.as_deref()) {
            Some(d) => crate::tr!(
                m.lang,
                "status-token-refused-why",
                detail = crate::text::clean(d, 80)
            ),
            None => tr(m.lang, "status-token-refused"),
        }
    } else {
        note_error(m, e);
        crate::tr!(
            m.lang,
            "status-token-check-failed",
            error = error_text(m.lang, e)
        )
    };
    let mut popup = super::connection::sign_in_popup(m, Some(why.clone()));
    if let Popup::SignIn { save: s, .. } = &mut popup {
        *s = save;
    }
    m.popup = Some(popup);
    say(m, Severity::Error, &why);
}

/// The server's word on a pasted token: taken, it replaces the session (and is saved if
/// asked); refused, the sign-in pop-up says so and the session in use stays.
pub(super) fn on_token_check(
    m: &mut Model,
    token: CandidateToken,
    save: bool,
    res: Result<Reply<User>, ApiError>,
) -> Vec<Effect> {
    if let Err(e) = &res {
        token_refused(m, e, save);
        return Vec::new();
    }
    use secrecy::ExposeSecret;
    m.token_expires = crate::api::jwt_expiry(token.0.expose_secret());
    m.has_token = true;
    m.session_expired = false;
    // Every call from here on carries this token.
    m.token_from = m.calls.next_id();
    m.save_token = save;
    let label = tr(m.lang, "log-token-taken");
    log(m, "sign-in", None, label, Ok(()));
    let mut fx = vec![Effect::SetToken(token.0.clone())];
    if save {
        fx.push(Effect::SaveToken(token.0));
    }
    let before = m.user.get().map(|u| u.id);
    let now = res.as_ref().ok().map(|r| r.data.id);
    let same_account = before.is_some() && before == now;
    if !same_account {
        // Decisions held under the account before are never sent under another: audited
        // (by the account that made them) as not sent.
        fx.extend(held::after_sign_in(m, false));
    }
    if before.is_some() && !same_account {
        new_account(m);
    }
    fx.extend(on_user(m, res));
    if before.is_some() && !same_account && actions::is_student(m) {
        // A student account reads students at `compact` outside its classroom only.
        m.levels = Levels::REQUEST_ROW;
    }
    if same_account {
        fx.extend(held::after_sign_in(m, true));
    }
    held::tell_not_sent(m);
    // Rows that failed for want of a token are read again, the first stretch of them
    // (as many as one listing call reads): the rest follow the cursor.
    let failed: Vec<Uuid> = m
        .queue
        .items()
        .iter()
        .filter(|i| matches!(i.state, RowState::Failed | RowState::Unloaded))
        .map(|i| i.id)
        .take(rows::REREAD_CHUNK)
        .collect();
    fx.extend(rows::fetch_rows(m, &failed));
    // Writes whose answer was lost are settled at once with the new session.
    fx.extend(lost::reread_all(m));
    fx
}

/// Another account signed in: what the last one could do and saw is forgotten at once.
/// Its scope is asked again ([`on_user`] then asks the staffed clubs; their answer drops the
/// rows of clubs the new account does not staff and reloads the listing from page 1), what
/// the server lets it do is probed again, marks go, and answers for the old listing are
/// dropped.
fn new_account(m: &mut Model) {
    m.capabilities = crate::app::model::Capabilities::default();
    m.listing.provisional = true;
    m.listing.new_account = true;
    m.listing.staffed = None;
    m.listing.generation += 1;
    m.listing.loading = false;
    m.listing.has_more = false;
    m.listing.total = None;
    m.listing.refreshed_at = None;
    m.listing.reload_pages = None;
    m.listing.swept = false;
    m.activities.marking_all = None;
    m.activities.sorting_all = None;
    m.queue.clear_marks();
    m.queue.set_anchor(None);
    // The last account's listing goes whole (rows added by hand stay): the new account's
    // loads from page 1 in the server's order, never after the old rows.
    // A row whose write is on its way stays until its answer.
    let book = &m.decisions;
    m.queue
        .retain(|i| i.origin != crate::app::model::Origin::Listing || book.alive(i.id).is_some());
}

/// The clubs the signed-in student staffs: the listing's scope.
pub(super) fn on_staffed_clubs(
    m: &mut Model,
    res: Result<Reply<Vec<crate::api::Club>>, ApiError>,
) -> Vec<Effect> {
    let reply = match res {
        Ok(reply) => reply,
        Err(e) => {
            let what = tr(m.lang, "status-staffed-clubs-failed");
            return listing::listing_failed(m, &e, &what);
        }
    };
    note_ok(m, &reply.api_version);
    m.listing.support = ListingSupport::Available;
    let mut fx = rows::fetch_unloaded(m);
    let ids: Vec<Uuid> = reply.data.iter().map(|c| c.id).collect();
    m.listing.staffed = Some(ids.clone());
    let thai = m.lang == crate::i18n::Lang::Thai;
    for c in &reply.data {
        let name = c.name.as_ref();
        if let Some(n) = name.and_then(|n| if thai { n.thai_first() } else { n.best() }) {
            m.listing.club_names.insert(c.id, crate::text::clean(n, 60));
        }
    }
    if ids.is_empty() {
        fx.extend(scope::chosen(m, ListScope::None));
        // What to do next, too long for a phone's status line: in the log too, whole, where
        // the line's "L: full text" leads.
        let text = tr(m.lang, "status-no-staffed-clubs");
        super::tell::log_notice(m, &text, Severity::Info);
        say(m, Severity::Info, &text);
        if let Some(n) = m.notice.as_mut() {
            n.logged = true;
        }
    } else {
        fx.extend(scope::chosen(m, ListScope::Clubs(ids)));
    }
    fx
}

/// Hands the answer to its own handler, the one `update` room that waits for it: one arm
/// per purpose, nothing left over (so no answer reaches the handler of another call).
/// `update` calls it for every awaited answer, between the link's bookkeeping and what
/// waits on reads. Here, not in `app/call.rs`: the call that an answer answers never
/// imports its handler, so the call's room stays below the rooms that handle answers.
pub(super) fn route(answer: Answer, m: &mut Model) -> Vec<Effect> {
    use super::club;
    match answer {
        Answer::User(result) => on_user(m, result),
        Answer::TokenCheck {
            token,
            save,
            result,
        } => on_token_check(m, token, save, result),
        Answer::StaffedClubs(result) => on_staffed_clubs(m, result),
        Answer::ListPage {
            page,
            generation,
            result,
        } => listing::on_list_page(m, page, generation, result),
        Answer::Reread { ids, result } => rows::on_reread(m, ids, result),
        Answer::Row { id, result } => rows::on_fetch(m, id, result),
        Answer::Decision { id, action, result } => on_decision(m, id, action, result),
        Answer::Club { id, result } => club::on_club(m, id, result),
        Answer::ClubSearch(result) => club::on_club_search(m, result),
        Answer::ContactCreated { club_id, result } => club::on_contact_created(m, club_id, result),
        Answer::UpdateRoute(result) => capability::on_update_route(m, result),
    }
}

/// The server's answer to the decision on `id`: the book takes its meaning (the core's
/// [`decision::classify`]), the audit gets the line the transition writes, the row takes the
/// server's word (or keeps its error), a bulk task counts it.
fn on_decision(m: &mut Model, id: Uuid, action: RowAction, result: Decided) -> Vec<Effect> {
    if action.needs_update_route()
        && let Some(route) = UpdateRoute::learned_from(&result)
        && let Err(e) = result
    {
        return bulk::refused_by_route(m, id, route, e);
    }
    let result: Result<Option<ClubRequest>, ApiError> = result.map(|reply| {
        note_ok(m, &reply.api_version);
        reply.data
    });
    if let Err(e) = &result
        && matches!(e, ApiError::Unauthorized { kind, .. } if kind.needs_sign_in())
    {
        return held::session_over(m, id, e.clone());
    }
    let label = label_of(m, id);
    let (answer, request) = decision::classify(result).split();
    let mut fx: Vec<Effect> = decisions::step(m, id, Event::Answered(answer.clone()))
        .into_iter()
        .collect();
    match answer {
        decision::Answer::Done(()) => {
            decisions::confirmed(m, id, action, request.flatten(), &label)
        }
        decision::Answer::Already(status) => decisions::already(m, id, action, status, &label),
        decision::Answer::Lost(e) => fx.extend(lost::lost(m, id, action, e, &label)),
        // It never left (no connection could be made): queued again, it waits.
        decision::Answer::Refused(e) if decision::not_sent(&e) => {
            decisions::not_left(m, id, &e);
            let why = crate::tr!(m.lang, "log-write-waits", error = error_text(m.lang, &e));
            let queued = crate::app::msg::Outcome::Queued;
            decisions::push_log(m, action, id, &label, queued, &why);
        }
        // Dropped before it left (a bulk stopped): not sent, the row as it was.
        decision::Answer::Refused(e @ ApiError::NotSent(_)) => {
            let why = error_text(m.lang, &e);
            decisions::push_log(
                m,
                action,
                id,
                &label,
                crate::app::msg::Outcome::Undone,
                &why,
            );
        }
        decision::Answer::Refused(e) => fx.extend(decisions::refused(m, id, action, e, &label)),
    }
    if m.activities.bulk.is_some() {
        fx.extend(bulk::after_answer(m, id));
    }
    fx
}
