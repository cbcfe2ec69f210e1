//! What a client saw of its server and its account: a call's answer ([`Reply`]), and for
//! the operator's status of `serve-ssh`, who the token in use belongs to ([`Who`]) and
//! whether the last call was answered ([`Link`]). Never a secret in what is read out.

use std::sync::RwLock;

use secrecy::{ExposeSecret, SecretString};

use super::error::ApiError;
use super::models::{Meta, Timestamp};

/// Who the token slot's token belongs to: the e-mail the server gave for it, and the
/// e-mail of a token checked but not yet taken
/// ([`super::ApiClient::current_user_with`]).
#[derive(Default)]
pub(crate) struct Who {
    /// The e-mail of the token in use, as the server last said.
    pub(crate) email: Option<String>,
    /// A token checked, and its account's e-mail.
    pub(crate) checked: Option<(SecretString, Option<String>)>,
}

impl Who {
    /// `token` becomes the one in use: the e-mail is the checked one when it is that token,
    /// else unknown until the server says.
    pub(crate) fn take(&mut self, token: Option<&SecretString>) {
        let checked = self.checked.take();
        self.email = match (token, checked) {
            (Some(t), Some((c, email))) if c.expose_secret() == t.expose_secret() => email,
            _ => None,
        };
    }
}

/// What the last call said about the link to the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// When it ended.
    pub at: Timestamp,
    /// True when the server answered (whatever it said); false when no answer came (no
    /// connection, a time-out, a connection closed without an answer).
    pub answered: bool,
}

impl Link {
    /// Keeps in `slot` what `result` (a call's, just ended) says of the link.
    pub(crate) fn record<T>(slot: &RwLock<Option<Link>>, result: &Result<T, ApiError>) {
        let answered = !matches!(
            result,
            Err(ApiError::Connect { .. } | ApiError::Timeout { .. })
        );
        if let Ok(mut l) = slot.write() {
            *l = Some(Link {
                at: chrono::Utc::now(),
                answered,
            });
        }
    }
}

/// A successful answer: the envelope's `data` plus what the UI shows about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply<T> {
    /// The record(s).
    pub data: T,
    /// `api_version` of the envelope.
    pub api_version: Option<String>,
    /// `meta` (timestamp, pagination), when sent.
    pub meta: Option<Meta>,
}
