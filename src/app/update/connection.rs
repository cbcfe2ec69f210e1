//! The connection to the service as calls and their answers show it, for every file of
//! `update`: a call recorded in flight ([`call`]), online or offline and the server's
//! version from an answer ([`note_ok`], [`note_error`]), a 401 that no longer speaks for the
//! session ([`stale_unauthorised`]), and the sign-in pop-up ([`sign_in_popup`]); the
//! sign-in itself is [`super::signin`]'s.
//!
//! Like [`super::tell`], it imports no other file of `update`.

use tui_input::Input;

use crate::api::ApiError;
use crate::app::call::ApiCall;
use crate::app::model::{Connection, Model, Popup};
use crate::app::msg::{Effect, Tries};

/// Records a call in flight and returns its effect; a read failing on the way is tried again
/// by the client ([`Tries::Client`]).
pub(super) fn call(m: &mut Model, call: ApiCall) -> Effect {
    call_tried(m, call, Tries::Client)
}

/// Records a call in flight, a read tried as `tries` says (by the client, or once: the
/// caller tries it again by its own rule).
pub(super) fn call_tried(m: &mut Model, call: ApiCall, tries: Tries) -> Effect {
    let request_id = m.calls.start(call.clone());
    Effect::Api {
        request_id,
        call,
        tries,
    }
}

/// Records what an error says about the connection and the session.
pub(super) fn note_error(m: &mut Model, e: &ApiError) {
    m.connection = if e.class().offline() {
        Connection::Offline(e.describe(m.lang))
    } else {
        Connection::Online
    };
    if stale_unauthorised(m, e) {
        return;
    }
    if let ApiError::Unauthorized { kind, .. } = e
        && kind.needs_sign_in()
        && !m.session_expired
    {
        // The sign-in pop-up does not open by itself: keys the moderator meant for the
        // queue (typed before the screen changed) must never land in its masked field. The
        // header and the status line say which key signs in; decisions wait for it.
        m.session_expired = true;
        m.expired_now = Some(*kind);
    }
}

/// True when `e` is a 401 answering a call sent before the token in use was taken (with no
/// token, or an older one), or before a pasted token whose check is still in flight: it
/// says nothing about the session now (the check's answer will).
pub(super) fn stale_unauthorised(m: &Model, e: &ApiError) -> bool {
    let checking = m.activities.signing_in.is_some() && m.answering < m.signing_from;
    matches!(e, ApiError::Unauthorized { .. })
        && m.answering != 0
        && (m.answering < m.token_from || checking)
}

/// Records a successful answer: online, and the server's `api_version`.
pub(super) fn note_ok(m: &mut Model, api_version: &Option<String>) {
    m.connection = Connection::Online;
    if let Some(v) = api_version {
        m.api_version = Some(crate::text::clean(v, 20));
    }
}

/// The sign-in pop-up, empty, with `error` said in it (a refused token's why).
pub(super) fn sign_in_popup(m: &Model, error: Option<String>) -> Popup {
    Popup::SignIn {
        input: Input::default(),
        // Unticked unless the configuration or this session's last sign-in asked to save
        // (shared school computers: a saved token signs in the next person at the desk).
        save: m.save_token,
        can_save: m.can_save_token,
        error,
    }
}
