//! What this server lets this account do: learnt at start by probing the
//! update route, and from the answers to real decisions.

use crate::api::UpdateRoute;
use crate::i18n::Lang;

/// What the server and the account allow, as far as known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Whether approve and decline (`PUT /v1/clubs/requests/{id}`) work here: `None` until
    /// the start-up probe or the answer to a decision says. Unknown counts as allowed: the
    /// first answer tells ([`UpdateRoute::learned_from`]).
    pub update_route: Option<UpdateRoute>,
    /// The notice that decisions are not possible was put on the status line and in the
    /// activity log: it is given once, not once per key or per answer.
    pub notice_given: bool,
    /// Probes sent so far (at most [`PROBE_LIMIT`]).
    pub probes: u32,
}

/// Probes sent at most in one session: a server whose answers to the probe never arrive is
/// then learnt from the first real decision instead.
pub const PROBE_LIMIT: u32 = 3;

impl Capabilities {
    /// True unless the server or the account is known to refuse approve and decline.
    pub fn decisions_allowed(&self) -> bool {
        self.update_route
            .as_ref()
            .is_none_or(UpdateRoute::allows_decisions)
    }

    /// The header's words in `lang` (keys `status-cannot-decide-*`) when decisions are not
    /// possible, short enough for the header: "this server cannot approve or decline" (route missing, service 0.9) or "this
    /// account cannot approve or decline" (role refused; the server's detail is in the
    /// status line and the log). `None` while decisions are allowed or unknown.
    pub fn header_notice_in(&self, lang: Lang) -> Option<String> {
        let key = match self.update_route.as_ref()? {
            UpdateRoute::Present => return None,
            UpdateRoute::Missing => "status-cannot-decide-server",
            UpdateRoute::RoleRefused { .. } => "status-cannot-decide-account",
        };
        Some(crate::i18n::tr(lang, key))
    }
}

/// [`UpdateRoute::notice`] in the reader's language, for the status line and the activity
/// log: "this server cannot approve or decline", or "this account cannot approve or decline:
/// <the server's detail>" (the detail as the server gave it). `None` when decisions are
/// allowed.
pub fn route_notice(lang: Lang, route: &UpdateRoute) -> Option<String> {
    match route {
        UpdateRoute::Present => None,
        UpdateRoute::Missing => Some(crate::i18n::tr(lang, "status-cannot-decide-server")),
        UpdateRoute::RoleRefused { detail } => Some(crate::tr!(
            lang,
            "status-cannot-decide-account-why",
            detail = detail.as_str()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_in_english_are_the_api_words_and_in_thai_thai() {
        let routes = [
            UpdateRoute::Present,
            UpdateRoute::Missing,
            UpdateRoute::RoleRefused {
                detail: "User is not a student".into(),
            },
        ];
        for r in routes {
            assert_eq!(route_notice(Lang::English, &r), r.notice());
            let caps = Capabilities {
                update_route: Some(r.clone()),
                ..Capabilities::default()
            };
            let english = match &r {
                UpdateRoute::Present => None,
                UpdateRoute::Missing => Some("this server cannot approve or decline"),
                UpdateRoute::RoleRefused { .. } => Some("this account cannot approve or decline"),
            };
            assert_eq!(caps.header_notice_in(Lang::English).as_deref(), english);
            if let Some(th) = route_notice(Lang::Thai, &r) {
                assert!(th.contains("อนุมัติ"), "{th}");
            }
        }
        let role = UpdateRoute::RoleRefused {
            detail: "User is not a student".into(),
        };
        let th = route_notice(Lang::Thai, &role).unwrap_or_default();
        assert!(th.ends_with(": User is not a student"), "{th}");
    }
}
