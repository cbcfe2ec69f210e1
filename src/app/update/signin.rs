//! The sign-in, in one file: a pasted token sent to the server to be checked before it is
//! used ([`sign_in`]), the server's word on it (taken: it replaces the session, saved if
//! asked, and another account's held decisions are never sent under it; refused: the
//! sign-in pop-up stays open with why: [`on_token_check`]), who is signed in
//! ([`on_user`], whose answer scopes the listing). The sign-in pop-up is made by
//! [`super::connection::sign_in_popup`], a leaf every file that opens it may use. A session
//! the server says is over is noted where every error is ([`super::connection::note_error`])
//! and said after the answer ([`tell_expired`]: which key signs in, what waits).

use uuid::Uuid;

use super::connection::{call, note_error, note_ok, sign_in_popup};
use super::errors::error_text;
use super::tell::{log, say};
use super::{capability, count, held, listing, lost, rows};
use crate::api::{ApiError, AuthErrorKind, Levels, Reply, User};
use crate::app::call::CandidateToken;
use crate::app::model::{ListScope, Loadable, Model, Popup, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;

/// Checks a pasted token with `/auth/user` before it replaces the one in use: a mistyped
/// token never ends a working session ([`on_token_check`] takes the answer).
pub(super) fn sign_in(m: &mut Model, token: secrecy::SecretString, save: bool) -> Vec<Effect> {
    let seq = m.next_seq();
    m.activities.signing_in = Some(seq);
    let token = crate::app::call::CandidateToken(token);
    let c = crate::app::call::ApiCall::CheckToken { token, save };
    m.signing_from = m.calls.next_id();
    vec![call(m, c)]
}

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
    if m.listing.scope == ListScope::Unknown || m.listing.provisional {
        fx.extend(super::scope::ask_scope(m, &user));
    }
    m.user = Loadable::Loaded(user);
    fx.extend(super::history::signed_in(m));
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
    let mut popup = sign_in_popup(m, Some(why.clone()));
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
    if before.is_some() && !same_account && m.user.get().is_some_and(crate::ops::permit::is_student)
    {
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
    count::forget_count(m);
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

/// On a tick, once the token's own expiry has passed: the session is over as the service
/// will say at the next call (api-notes.md: no refresh, every call refused 401), noted as
/// its 401 would be, so the header, the keys and the held decisions agree, and said once.
pub(super) fn expire_at_token_exp(m: &mut Model) {
    if m.has_token && !m.session_expired && m.token_expires.is_some_and(|exp| exp <= m.now) {
        m.session_expired = true;
        m.expired_now = Some(AuthErrorKind::InvalidToken);
        tell_expired(m);
    }
}

/// Once an answer said the session is over: the status line says so last (after what the
/// answer itself said, which the log keeps), with the key that signs in and what waits.
pub(super) fn tell_expired(m: &mut Model) {
    let Some(kind) = m.expired_now.take() else {
        return;
    };
    if !m.session_expired {
        return;
    }
    let key = super::tell::sign_in_key(m);
    let text = match kind {
        AuthErrorKind::MissingToken => {
            crate::tr!(m.lang, "status-needs-token-press", key = key)
        }
        _ if m.decisions.held().is_empty() => {
            crate::tr!(m.lang, "status-session-expired-press", key = key)
        }
        AuthErrorKind::MissingKey
        | AuthErrorKind::InvalidKey
        | AuthErrorKind::InvalidToken
        | AuthErrorKind::Unknown => crate::tr!(
            m.lang,
            "status-session-expired-held",
            key = key,
            n = m.decisions.held().len()
        ),
    };
    say(m, Severity::Error, &text);
}
