//! Effects: the work `update` hands out. API calls go to the worker; the rest (files,
//! clipboard, terminal) to the runtime's effect runner.

use secrecy::SecretString;
use uuid::Uuid;

use super::model::SavedQueue;
use crate::api::{
    ClubQuery, Levels, MembershipStatus, NewContact, Page, RequestFilter, RequestSortKey, Sort,
};

/// Audit lines of earlier sessions shown in the activity log at start: the newest 500 for
/// this server (a day of heavy moderation; older lines stay in the file).
pub const HISTORY_LINES: usize = 500;

/// A pasted token on its way to being checked (`Debug` shows no secret; equal when the
/// tokens are).
#[derive(Clone)]
pub struct CandidateToken(pub SecretString);

impl std::fmt::Debug for CandidateToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CandidateToken([redacted])")
    }
}

impl PartialEq for CandidateToken {
    fn eq(&self, other: &Self) -> bool {
        use secrecy::ExposeSecret;
        self.0.expose_secret() == other.0.expose_secret()
    }
}

/// One API call for the worker; its answer comes back as the [`super::msg::ApiAnswer`]
/// variant of the same operation.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiCall {
    /// `GET /auth/user` (interface-spec.md, operation 1).
    CurrentUser,
    /// `GET /auth/user` with a pasted token, before it replaces the one in use.
    CheckToken(CandidateToken),
    /// `GET /v1/clubs/requests/{id}` (operation 5).
    GetRequest {
        /// The club request.
        id: Uuid,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `PUT /v1/clubs/requests/{id}` (operation 3): only a `pending` request changes
    /// (deployed behaviour, api-notes.md).
    UpdateRequest {
        /// The club request.
        id: Uuid,
        /// `approved` or `declined` (`pending` is refused with 400).
        status: MembershipStatus,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `DELETE /v1/clubs/requests/{id}` (operation 6).
    DeleteRequest {
        /// The club request.
        id: Uuid,
    },
    /// `GET /v1/clubs/{id}` (operation 4), with a second read of the contacts when they came
    /// as bare ids ([`crate::ops::club::read_club`]).
    GetClub {
        /// The club.
        id: Uuid,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `POST /v1/clubs/{id}/contacts` (operation 2).
    CreateContact {
        /// The club.
        club_id: Uuid,
        /// Type and value (the server ignores a name).
        contact: NewContact,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `GET /v1/clubs/requests` (deployed listing, api-notes.md; bracket syntax).
    ListRequests {
        /// `filter[data]`: ids, club ids, membership status, year.
        filter: RequestFilter,
        /// `sort[by]`: stable order across pages.
        sort: Sort<RequestSortKey>,
        /// `pagination[p]` (from 1) and `pagination[size]`.
        page: Page,
        /// Fetch levels of the rows.
        levels: Levels,
    },
    /// Whether approve and decline exist for this account: operation 3 for
    /// the nil UUID, which no request has, so nothing changes
    /// ([`crate::api::ApiClient::probe_update_route`]). Treated as a read: not audited, not
    /// ahead of other reads in the worker's queue.
    ProbeUpdateRoute,
    /// `GET /v1/clubs` (deployed listing): by text, or by staff ids.
    SearchClubs {
        /// `filter[q]` or `filter[data]` (never both: 400).
        query: ClubQuery,
        /// Page of the results.
        page: Page,
        /// Fetch levels of the clubs.
        levels: Levels,
    },
}

impl ApiCall {
    /// True for calls that change data on the server (never retried, always audited).
    pub fn is_mutation(&self) -> bool {
        matches!(
            self,
            ApiCall::UpdateRequest { .. }
                | ApiCall::DeleteRequest { .. }
                | ApiCall::CreateContact { .. }
        )
    }
}

pub use crate::ops::audit::{AuditEntry, Outcome};

/// Work handed out of `update`.
#[derive(Debug)]
pub enum Effect {
    /// Run an API call; its answer comes back as [`super::Msg::Api`] with the same
    /// `request_id`.
    Api {
        /// Correlation id, unique for the life of the model.
        request_id: u64,
        /// The call.
        call: ApiCall,
    },
    /// Use this bearer token from now on (every call after this one).
    SetToken(SecretString),
    /// Save the token to the token file (mode 0600).
    SaveToken(SecretString),
    /// Append one line to the audit file.
    Audit(AuditEntry),
    /// The saved part of the queue changed (emitted by `update` itself when it differs
    /// from the last one emitted): the runner writes it after a short quiet spell, and on
    /// exit.
    SaveQueue(SavedQueue),
    /// Put text on the user's clipboard with OSC 52 (works over SSH).
    Copy(String),
    /// Turn mouse capture on or off.
    SetMouse(bool),
    /// Announce new requests beyond the status line: the terminal's bell, or a desktop
    /// notice with this text (OSC 9) when `osc9` (`--notify`).
    Notify {
        /// A desktop notice (OSC 9) rather than the bell.
        osc9: bool,
        /// What it says ("club-admin: 2 new requests").
        text: String,
    },
    /// Tell the other sessions of the same server (`serve-ssh`) what this one did to
    /// requests; nothing to do for a dashboard alone. (Applied decisions are told from the
    /// audit lines themselves: [`super::msg::Told::from_audit`].)
    Tell(Vec<super::msg::Told>),
    /// Set the terminal's title (OSC 2): the pending count, so a moderator sees the queue
    /// from another window or tab (the title the terminal had is given back on exit).
    Title(String),
    /// Clear and redraw the whole screen.
    Redraw,
    /// Give the terminal back and stop the program (SIGTSTP, as Ctrl-Z does in a shell);
    /// on `fg` take the terminal again and redraw it whole.
    Suspend,
    /// Leave the program.
    Quit,
}
