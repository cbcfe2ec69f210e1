//! What this server lets this account do (issue 13 item 2): learnt at start by probing the
//! update route, and from the answers to real decisions.

use crate::api::UpdateRoute;

/// What the server and the account allow, as far as known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Whether approve and decline (`PUT /v1/clubs/requests/{id}`) work here: `None` until
    /// the start-up probe or the answer to a decision told. Unknown counts as allowed: the
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

    /// The header's words when decisions are not possible, short enough for the header:
    /// "this server cannot approve or decline" (route missing, service 0.9) or "this
    /// account cannot approve or decline" (role refused; the server's detail is in the
    /// status line and the log). `None` while decisions are allowed or unknown.
    pub fn header_notice(&self) -> Option<&'static str> {
        match self.update_route.as_ref()? {
            UpdateRoute::Present => None,
            UpdateRoute::Missing => Some("this server cannot approve or decline"),
            UpdateRoute::RoleRefused { .. } => Some("this account cannot approve or decline"),
        }
    }
}
