//! The three decisions a moderator takes on a club request, and the new contact of a club:
//! the writes the one decision machine runs ([`super::decision`]).

use crate::api::MembershipStatus;

/// A write: a decision on a club request, approve or decline (interface-spec.md, operation
/// 3, `PUT /v1/clubs/requests/{id}` with `status`) or delete (operation 6, `DELETE`); or a
/// new contact for a club (operation 2, `POST /v1/clubs/{id}/contacts`), whose target is the
/// club.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowAction {
    /// PUT status approved.
    Approve,
    /// PUT status declined.
    Decline,
    /// DELETE.
    Delete,
    /// POST a contact to a club (its target is the club, never a request row).
    AddContact,
}

impl RowAction {
    /// Verb for the audit file and log (`approve`).
    pub fn verb(self) -> &'static str {
        match self {
            RowAction::Approve => "approve",
            RowAction::Decline => "decline",
            RowAction::Delete => "delete",
            RowAction::AddContact => "add-contact",
        }
    }

    /// The decision on a request an audit line's `action` names (`approve`, `decline`,
    /// `delete`); `None` for any other (`add-contact`, whose target is a club).
    pub fn from_verb(verb: &str) -> Option<RowAction> {
        [RowAction::Approve, RowAction::Decline, RowAction::Delete]
            .into_iter()
            .find(|a| a.verb() == verb)
    }

    /// Past participle for messages (`approved`).
    pub fn past(self) -> &'static str {
        match self {
            RowAction::Approve => "approved",
            RowAction::Decline => "declined",
            RowAction::Delete => "deleted",
            RowAction::AddContact => "added",
        }
    }

    /// The membership status a PUT sets, if any (`None` for a delete).
    pub fn status(self) -> Option<MembershipStatus> {
        match self {
            RowAction::Approve => Some(MembershipStatus::Approved),
            RowAction::Decline => Some(MembershipStatus::Declined),
            RowAction::Delete | RowAction::AddContact => None,
        }
    }

    /// True for approve and decline: they need the update route (0.8.x; a 0.9.0 server has
    /// none, api-notes.md).
    pub fn needs_update_route(self) -> bool {
        self.status().is_some()
    }
}
