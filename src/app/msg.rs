//! Messages into `update` and effects out of it.

use crossterm::event::{KeyEvent, MouseEvent};
use secrecy::SecretString;
use uuid::Uuid;

use crate::api::{
    ApiError, Club, ClubQuery, ClubRequest, Contact, Levels, MembershipStatus, NewContact, Page,
    Reply, RequestFilter, RequestSortKey, Sort, Timestamp, User,
};

/// Everything that can happen to the model. `update` is its only reader.
///
/// (Variants differ in size; each message is moved once through a channel, so boxing the
/// large ones would only add allocations.)
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Msg {
    /// A key press (release and repeat events are filtered out by the runtime).
    Key(KeyEvent),
    /// Bracketed paste.
    Paste(String),
    /// A mouse event (only when mouse capture is on).
    Mouse(MouseEvent),
    /// A click, already placed by the runtime: the pane under it and, in the queue, the row
    /// counted from the first row drawn.
    Click {
        /// The pane clicked.
        pane: super::model::Pane,
        /// Queue row from the top of the drawn rows, when a row was clicked.
        row: Option<usize>,
    },
    /// The terminal changed size (columns, rows).
    Resize(u16, u16),
    /// The view drew the queue with this many rows (for paging and scrolling).
    Layout {
        /// Rows of the queue table.
        queue_rows: usize,
    },
    /// Wall-clock time, sent while something animates and once a second for ages.
    Tick(Timestamp),
    /// The auto-refresh timer fired.
    AutoRefresh,
    /// Ids from the command line, `--queue-file`, standard input or the saved queue.
    AddIds {
        /// Raw text: any mix of whitespace, commas, newlines.
        text: String,
        /// Where it came from (for the status line).
        origin: String,
    },
    /// The saved queue state for this server (restored at start).
    Restore(super::model::SavedQueue),
    /// Decisions of earlier sessions on this server, from the audit file, oldest first.
    History(Vec<AuditEntry>),
    /// A notice for the status line and the activity log (start-up warnings).
    Notice(String),
    /// An API call finished.
    Api {
        /// The id `update` gave the call; answers to calls no longer awaited are dropped.
        request_id: u64,
        /// The result.
        outcome: ApiOutcome,
    },
    /// The result of a local side effect (saving a token, writing the audit file, copying).
    EffectDone {
        /// What it was, in words.
        what: String,
        /// `Err` with a message when it failed.
        result: Result<(), String>,
    },
}

/// The result of one API call.
#[derive(Debug)]
pub enum ApiOutcome {
    /// `GET /auth/user`.
    User(Result<Reply<User>, ApiError>),
    /// `GET /v1/clubs/requests/{id}`.
    Request(Result<Reply<ClubRequest>, ApiError>),
    /// `PUT /v1/clubs/requests/{id}`.
    Updated(Result<Reply<ClubRequest>, ApiError>),
    /// `DELETE /v1/clubs/requests/{id}`.
    Deleted(Result<Reply<()>, ApiError>),
    /// `GET /v1/clubs/{id}`.
    Club(Result<Reply<Club>, ApiError>),
    /// `GET /v1/clubs`.
    Clubs(Result<Reply<Vec<Club>>, ApiError>),
    /// `POST /v1/clubs/{id}/contacts`.
    ContactCreated(Result<Reply<Contact>, ApiError>),
    /// `GET /v1/clubs/requests`.
    Listing(Result<Reply<Vec<ClubRequest>>, ApiError>),
}

/// One API call for the worker.
#[derive(Debug, Clone, PartialEq)]
pub enum ApiCall {
    /// Operation 1.
    CurrentUser,
    /// Operation 5.
    GetRequest {
        /// Request id.
        id: Uuid,
        /// Levels.
        levels: Levels,
    },
    /// Operation 3.
    UpdateRequest {
        /// Request id.
        id: Uuid,
        /// New status.
        status: MembershipStatus,
        /// Levels of the answer.
        levels: Levels,
    },
    /// Operation 6.
    DeleteRequest {
        /// Request id.
        id: Uuid,
    },
    /// Operation 4.
    GetClub {
        /// Club id.
        id: Uuid,
        /// Levels.
        levels: Levels,
    },
    /// Operation 2.
    CreateContact {
        /// Club id.
        club_id: Uuid,
        /// Type and value.
        contact: NewContact,
        /// Levels of the answer.
        levels: Levels,
    },
    /// Deployed listing of requests.
    ListRequests {
        /// Filter.
        filter: RequestFilter,
        /// Sort.
        sort: Sort<RequestSortKey>,
        /// Page.
        page: Page,
        /// Levels.
        levels: Levels,
    },
    /// Deployed listing of clubs.
    SearchClubs {
        /// Query.
        query: ClubQuery,
        /// Page.
        page: Page,
        /// Levels.
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

/// One line of the audit file (JSON Lines): what was done, to what, when, with what outcome.
/// Never holds a secret.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AuditEntry {
    /// When the answer arrived (RFC 3339).
    pub at: Timestamp,
    /// Base URL of the server.
    pub server: String,
    /// E-mail of the signed-in user, when known.
    pub user: Option<String>,
    /// `approve`, `decline`, `delete` or `add-contact`.
    pub action: String,
    /// The club request or club acted on.
    pub target: Uuid,
    /// `ok`, `failed`, or `unknown` (sent, but the program quit before the answer).
    pub outcome: String,
    /// The server's `detail` or the error in words, on failure.
    pub detail: Option<String>,
    /// Which front end acted: `dashboard` or `cli`. Absent in lines written before the
    /// field existed (they still parse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Work handed out of `update`: API calls go to the worker, the rest to the runtime.
#[derive(Debug)]
pub enum Effect {
    /// Run an API call; its result comes back as [`Msg::Api`] with the same `request_id`.
    Api {
        /// Correlation id.
        request_id: u64,
        /// The call.
        call: ApiCall,
    },
    /// Use this bearer token from now on.
    SetToken(SecretString),
    /// Save the token to the token file (0600).
    SaveToken(SecretString),
    /// Append to the audit file.
    Audit(AuditEntry),
    /// Save the queue state for the next start.
    SaveQueue(super::model::SavedQueue),
    /// Put text on the user's clipboard with OSC 52 (works over SSH).
    Copy(String),
    /// Turn mouse capture on or off.
    SetMouse(bool),
    /// Clear and redraw the whole screen.
    Redraw,
    /// Leave the program.
    Quit,
}
