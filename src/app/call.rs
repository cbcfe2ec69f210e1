//! Every API operation the dashboard makes, declared once: the call ([`ApiCall`]: what is
//! sent, and what its answer is for), its answer ([`Answer`]: one variant per purpose, with
//! the call's context and its typed result), and the one place where a call meets its
//! answer ([`ApiCall::perform`], or [`ApiCall::failed`] when its task panicked). `update`
//! routes an [`Answer`] to its handler by one exhaustive match (`app/update/answers.rs`,
//! `route`): no answer can reach the handler of another call, and this file imports no
//! handler. The calls in flight are kept here ([`Calls`]: by request id, to count them and
//! drop answers no longer awaited).
//!
//! Adding an operation: its method in `core/src/api/client.rs`; a variant of [`ApiCall`] and of
//! [`Answer`] here, with their arms in every exhaustive match (`perform`, `failed`, the
//! questions asked of a call) and a payload in the tests' `tests/common/answers.rs`; its arm in
//! `app/update/answers.rs`'s `route` and the handler in its module of `app/update/`; its route
//! in the demo server (`demo/routes.rs`).

use std::collections::HashMap;

use uuid::Uuid;

use crate::api::{
    ApiClient, ApiError, Club, ClubQuery, ClubRequest, Contact, Levels, MembershipStatus,
    NewContact, Page, Reply, RequestFilter, RequestSortKey, Sort, UpdateRoute, User,
};
use crate::ops::RowAction;

/// A pasted token on its way to being checked (`Debug` shows no secret; equal when the
/// tokens are).
#[derive(Clone)]
pub struct CandidateToken(pub secrecy::SecretString);

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

/// What a listing call ([`ApiCall::ListRequests`]) is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListPurpose {
    /// A page of the listing of the scope.
    Page {
        /// Page number, from 1.
        page: u32,
        /// The listing's generation when asked (answers of older generations are dropped).
        generation: u64,
    },
    /// Known rows read again by id (the listing's `ids` filter, at most
    /// [`super::update::REREAD_CHUNK`] a call).
    Reread(Vec<Uuid>),
    /// The scope's count of pending requests read again (`meta.pagination.total` of a
    /// one-row page), after decisions applied while the server counted made the count
    /// uncertain ([`crate::app::model::Listing::recount_due`]).
    Count {
        /// The listing's generation when asked (answers of older generations are dropped).
        generation: u64,
    },
    /// A page of the ids of the scope's pending listing at `id_only`, read once at its first
    /// load ([`crate::app::model::Listing::known`]).
    Known {
        /// Page number, from 1.
        page: u32,
    },
}

/// What a club search ([`ApiCall::SearchClubs`]) is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchPurpose {
    /// The club lookup's results (by name), for the moderator to pick from.
    Lookup,
    /// The clubs the signed-in student staffs: they scope the listing.
    StaffedClubs,
}

/// One API call for the worker, with what its answer is for; its answer comes back as the
/// [`Answer`] of the same purpose ([`ApiCall::perform`]).
#[derive(Debug, Clone, PartialEq)]
pub enum ApiCall {
    /// `GET /auth/user` (interface-spec.md, operation 1): the current user.
    CurrentUser,
    /// `GET /auth/user` with a pasted token, before it replaces the one in use.
    CheckToken {
        /// The token.
        token: CandidateToken,
        /// Save it to the token file once the server takes it.
        save: bool,
    },
    /// `GET /v1/clubs/requests/{id}` (operation 5): one row read by id.
    GetRequest {
        /// The club request.
        id: Uuid,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `PUT /v1/clubs/requests/{id}` (operation 3): approve (`approved`) or decline (any
    /// other status; the dashboard sends `declined` only). Only a `pending` request
    /// changes (deployed behaviour, api-notes.md).
    UpdateRequest {
        /// The club request.
        id: Uuid,
        /// `approved` or `declined` (`pending` is refused with 400).
        status: MembershipStatus,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `DELETE /v1/clubs/requests/{id}` (operation 6): the delete decision.
    DeleteRequest {
        /// The club request.
        id: Uuid,
    },
    /// `GET /v1/clubs/{id}` (operation 4), with a second read of the contacts when they came
    /// as bare ids ([`crate::ops::club_read::read_club`]): the club shown in the club pane.
    GetClub {
        /// The club.
        id: Uuid,
        /// Fetch levels of the answer.
        levels: Levels,
    },
    /// `POST /v1/clubs/{id}/contacts` (operation 2): a contact added to the club.
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
        /// A page of the listing, or known rows read again.
        purpose: ListPurpose,
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
        /// The club lookup, or the staffed clubs.
        purpose: SearchPurpose,
    },
}

/// What becomes of a read that could not reach the server, once the server answers again
/// ([`ApiCall::when_back`]): declared with the operation, carried out by `update`'s link
/// module. Writes are never sent again (a lost write's outcome is learnt by re-reading).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhenBack {
    /// Not sent again: a write, or what the moderator asks again if still wanted (a
    /// pasted token's check, a club search).
    Dropped,
    /// The current user read again (whose answer asks the scope again).
    User,
    /// These rows read again.
    Rows(Vec<Uuid>),
    /// This page of the listing read again, while it is still the current listing's.
    Page {
        /// Page number, from 1.
        page: u32,
        /// The listing's generation when asked.
        generation: u64,
    },
    /// This club read again, while the club pane still shows it.
    Club(Uuid),
    /// The update route probed again.
    Probe,
}

/// A decision's answer: the request as the server now has it after an update (operation
/// 3), nothing after a delete (operation 6, whose `data` is null).
pub type Decided = Result<Reply<Option<ClubRequest>>, ApiError>;

/// The answer to one [`ApiCall`], one variant per purpose: the call's context and the
/// server's typed result (errors included).
#[derive(Debug)]
pub enum Answer {
    /// [`ApiCall::CurrentUser`].
    User(Result<Reply<User>, ApiError>),
    /// [`ApiCall::CheckToken`]: the server's answer on a pasted token.
    TokenCheck {
        /// The token checked.
        token: CandidateToken,
        /// Save it once taken.
        save: bool,
        /// The user the token signs in, or why not.
        result: Result<Reply<User>, ApiError>,
    },
    /// [`ApiCall::GetRequest`]: one row read by id.
    Row {
        /// The club request read.
        id: Uuid,
        /// The request.
        result: Result<Reply<ClubRequest>, ApiError>,
    },
    /// [`ApiCall::UpdateRequest`] or [`ApiCall::DeleteRequest`]: the answer to a decision.
    Decision {
        /// The club request decided.
        id: Uuid,
        /// Approve, decline or delete.
        action: RowAction,
        /// The server's answer.
        result: Decided,
    },
    /// [`ApiCall::GetClub`]: the club for the club pane.
    Club {
        /// The club read.
        id: Uuid,
        /// The club, its contacts whole.
        result: Result<Reply<Club>, ApiError>,
    },
    /// [`ApiCall::SearchClubs`] for the club lookup.
    ClubSearch(Result<Reply<Vec<Club>>, ApiError>),
    /// [`ApiCall::SearchClubs`] for the clubs the student staffs.
    StaffedClubs(Result<Reply<Vec<Club>>, ApiError>),
    /// [`ApiCall::CreateContact`].
    ContactCreated {
        /// The club the contact was added to.
        club_id: Uuid,
        /// The new contact.
        result: Result<Reply<Contact>, ApiError>,
    },
    /// [`ApiCall::ListRequests`] for a page of the listing.
    ListPage {
        /// Page number, from 1.
        page: u32,
        /// The listing's generation when asked.
        generation: u64,
        /// The page's rows.
        result: Result<Reply<Vec<ClubRequest>>, ApiError>,
    },
    /// [`ApiCall::ListRequests`] reading the scope's count again.
    ListCount {
        /// The listing's generation when asked.
        generation: u64,
        /// The one-row page whose `meta.pagination.total` is the count.
        result: Result<Reply<Vec<ClubRequest>>, ApiError>,
    },
    /// [`ApiCall::ListRequests`] reading a page of the ids the listing held at its first
    /// load.
    Known {
        /// Page number, from 1.
        page: u32,
        /// The page's requests, at `id_only`.
        result: Result<Reply<Vec<ClubRequest>>, ApiError>,
    },
    /// [`ApiCall::ListRequests`] reading known rows again by id.
    Reread {
        /// The rows asked for.
        ids: Vec<Uuid>,
        /// The rows the server has of them.
        result: Result<Reply<Vec<ClubRequest>>, ApiError>,
    },
    /// [`ApiCall::ProbeUpdateRoute`]: whether approve and decline exist; an error when the
    /// answer could not tell (401, 5xx, no answer).
    UpdateRoute(Result<UpdateRoute, ApiError>),
}

/// The decision a PUT of `status` is: approve for `approved`, else decline.
pub fn decision_of(status: &MembershipStatus) -> RowAction {
    if *status == MembershipStatus::Approved {
        RowAction::Approve
    } else {
        RowAction::Decline
    }
}

/// An update's answer as a decision's.
pub fn updated(r: Reply<ClubRequest>) -> Reply<Option<ClubRequest>> {
    Reply {
        data: Some(r.data),
        api_version: r.api_version,
        meta: r.meta,
    }
}

/// A delete's answer as a decision's.
pub fn deleted(r: Reply<()>) -> Reply<Option<ClubRequest>> {
    Reply {
        data: None,
        api_version: r.api_version,
        meta: r.meta,
    }
}

impl ApiCall {
    /// Sends the call through `api` and returns its answer (errors are in the answer).
    pub async fn perform(self, api: &ApiClient) -> Answer {
        match self {
            ApiCall::CurrentUser => Answer::User(api.current_user().await),
            ApiCall::CheckToken { token, save } => {
                let result = api.current_user_with(&token.0).await;
                Answer::TokenCheck {
                    token,
                    save,
                    result,
                }
            }
            ApiCall::GetRequest { id, levels } => Answer::Row {
                id,
                result: api.club_request(id, levels).await,
            },
            ApiCall::UpdateRequest { id, status, levels } => Answer::Decision {
                id,
                action: decision_of(&status),
                result: api
                    .update_club_request(id, &status, levels)
                    .await
                    .map(updated),
            },
            ApiCall::DeleteRequest { id } => Answer::Decision {
                id,
                action: RowAction::Delete,
                result: api.delete_club_request(id).await.map(deleted),
            },
            // Its contacts whole on the deployed service too (a second read where needed).
            ApiCall::GetClub { id, levels } => Answer::Club {
                id,
                result: crate::ops::club_read::read_club(api, id, levels).await,
            },
            ApiCall::CreateContact {
                club_id,
                contact,
                levels,
            } => Answer::ContactCreated {
                club_id,
                result: api.create_club_contact(club_id, &contact, levels).await,
            },
            ApiCall::ListRequests {
                filter,
                sort,
                page,
                levels,
                purpose,
            } => {
                let result = api.list_club_requests(&filter, &sort, page, levels).await;
                listed(purpose, result)
            }
            ApiCall::SearchClubs {
                query,
                page,
                levels,
                purpose,
            } => searched(purpose, api.search_clubs(&query, page, levels).await),
            ApiCall::ProbeUpdateRoute => Answer::UpdateRoute(api.probe_update_route().await),
        }
    }

    /// The answer of this call when it failed with `e` before any answer was made (its
    /// task panicked): the same answer as a failure of the server, so that it reaches its
    /// own handler and settles by the usual rules.
    pub fn failed(self, e: ApiError) -> Answer {
        match self {
            ApiCall::CurrentUser => Answer::User(Err(e)),
            ApiCall::CheckToken { token, save } => Answer::TokenCheck {
                token,
                save,
                result: Err(e),
            },
            ApiCall::GetRequest { id, .. } => Answer::Row { id, result: Err(e) },
            ApiCall::UpdateRequest { id, status, .. } => Answer::Decision {
                id,
                action: decision_of(&status),
                result: Err(e),
            },
            ApiCall::DeleteRequest { id } => Answer::Decision {
                id,
                action: RowAction::Delete,
                result: Err(e),
            },
            ApiCall::GetClub { id, .. } => Answer::Club { id, result: Err(e) },
            ApiCall::CreateContact { club_id, .. } => Answer::ContactCreated {
                club_id,
                result: Err(e),
            },
            ApiCall::ListRequests { purpose, .. } => listed(purpose, Err(e)),
            ApiCall::SearchClubs { purpose, .. } => searched(purpose, Err(e)),
            ApiCall::ProbeUpdateRoute => Answer::UpdateRoute(Err(e)),
        }
    }

    /// True for calls that change data on the server (never sent again, always audited,
    /// ahead of reads in the worker's queue).
    pub fn is_mutation(&self) -> bool {
        // Every operation named, none by default: a new one cannot compile until it is
        // declared a write or a read (a write counted as a read would be retried).
        match self {
            ApiCall::UpdateRequest { .. }
            | ApiCall::DeleteRequest { .. }
            | ApiCall::CreateContact { .. } => true,
            ApiCall::CurrentUser
            | ApiCall::CheckToken { .. }
            | ApiCall::GetRequest { .. }
            | ApiCall::GetClub { .. }
            | ApiCall::ListRequests { .. }
            | ApiCall::ProbeUpdateRoute
            | ApiCall::SearchClubs { .. } => false,
        }
    }

    /// The decision this call sends (the request and approve, decline or delete); `None`
    /// for any other call.
    pub fn decision(&self) -> Option<(Uuid, RowAction)> {
        match self {
            ApiCall::UpdateRequest { id, status, .. } => Some((*id, decision_of(status))),
            ApiCall::DeleteRequest { id } => Some((*id, RowAction::Delete)),
            ApiCall::CurrentUser
            | ApiCall::CheckToken { .. }
            | ApiCall::GetRequest { .. }
            | ApiCall::GetClub { .. }
            | ApiCall::CreateContact { .. }
            | ApiCall::ListRequests { .. }
            | ApiCall::ProbeUpdateRoute
            | ApiCall::SearchClubs { .. } => None,
        }
    }

    /// For a write: what its audit line names (the target and the action's verb:
    /// `approve`, `decline`, `delete`, `add-contact`); `None` for a read.
    pub fn audited_as(&self) -> Option<(Uuid, &'static str)> {
        match self {
            ApiCall::CreateContact { club_id, .. } => Some((*club_id, "add-contact")),
            ApiCall::UpdateRequest { .. } | ApiCall::DeleteRequest { .. } => {
                self.decision().map(|(id, action)| (id, action.verb()))
            }
            ApiCall::CurrentUser
            | ApiCall::CheckToken { .. }
            | ApiCall::GetRequest { .. }
            | ApiCall::GetClub { .. }
            | ApiCall::ListRequests { .. }
            | ApiCall::ProbeUpdateRoute
            | ApiCall::SearchClubs { .. } => None,
        }
    }

    /// The rows this call reads by id (a row's own read, or known rows read again through
    /// the listing); empty for any other call.
    pub fn rows_read(&self) -> &[Uuid] {
        match self {
            ApiCall::GetRequest { id, .. } => std::slice::from_ref(id),
            ApiCall::ListRequests {
                purpose: ListPurpose::Reread(ids),
                ..
            } => ids,
            ApiCall::ListRequests {
                purpose:
                    ListPurpose::Page { .. } | ListPurpose::Count { .. } | ListPurpose::Known { .. },
                ..
            }
            | ApiCall::CurrentUser
            | ApiCall::CheckToken { .. }
            | ApiCall::UpdateRequest { .. }
            | ApiCall::DeleteRequest { .. }
            | ApiCall::GetClub { .. }
            | ApiCall::CreateContact { .. }
            | ApiCall::ProbeUpdateRoute
            | ApiCall::SearchClubs { .. } => &[],
        }
    }

    /// What becomes of this call when it could not reach the server, once the server
    /// answers again.
    pub fn when_back(&self) -> WhenBack {
        match self {
            // The staffed clubs are asked again by the user's answer.
            ApiCall::CurrentUser
            | ApiCall::SearchClubs {
                purpose: SearchPurpose::StaffedClubs,
                ..
            } => WhenBack::User,
            ApiCall::GetRequest { .. }
            | ApiCall::ListRequests {
                purpose: ListPurpose::Reread(_),
                ..
            } => WhenBack::Rows(self.rows_read().to_vec()),
            ApiCall::ListRequests {
                purpose: ListPurpose::Page { page, generation },
                ..
            } => WhenBack::Page {
                page: *page,
                generation: *generation,
            },
            ApiCall::GetClub { id, .. } => WhenBack::Club(*id),
            ApiCall::ProbeUpdateRoute => WhenBack::Probe,
            // A pasted token is checked once: the moderator pastes it again if the link
            // dropped. A recount is not kept: the next page or refresh counts again. The
            // ids of the first load are not read later (they would hold requests entered
            // since): what is new is then judged without them.
            ApiCall::CheckToken { .. }
            | ApiCall::ListRequests {
                purpose: ListPurpose::Count { .. } | ListPurpose::Known { .. },
                ..
            }
            | ApiCall::SearchClubs {
                purpose: SearchPurpose::Lookup,
                ..
            }
            | ApiCall::UpdateRequest { .. }
            | ApiCall::DeleteRequest { .. }
            | ApiCall::CreateContact { .. } => WhenBack::Dropped,
        }
    }

    /// True for the reads a refresh waits for before it is done: the user (or a token's
    /// check), the staffed clubs, the listing's pages and rows read by id.
    pub fn is_refresh_read(&self) -> bool {
        match self {
            ApiCall::CurrentUser
            | ApiCall::CheckToken { .. }
            | ApiCall::GetRequest { .. }
            | ApiCall::ListRequests {
                purpose: ListPurpose::Page { .. } | ListPurpose::Reread(_),
                ..
            }
            | ApiCall::SearchClubs {
                purpose: SearchPurpose::StaffedClubs,
                ..
            } => true,
            ApiCall::SearchClubs {
                purpose: SearchPurpose::Lookup,
                ..
            }
            | ApiCall::ListRequests {
                purpose: ListPurpose::Count { .. } | ListPurpose::Known { .. },
                ..
            }
            | ApiCall::UpdateRequest { .. }
            | ApiCall::DeleteRequest { .. }
            | ApiCall::GetClub { .. }
            | ApiCall::CreateContact { .. }
            | ApiCall::ProbeUpdateRoute => false,
        }
    }
}

/// A listing call's answer, by what it was for.
pub fn listed(purpose: ListPurpose, result: Result<Reply<Vec<ClubRequest>>, ApiError>) -> Answer {
    match purpose {
        ListPurpose::Page { page, generation } => Answer::ListPage {
            page,
            generation,
            result,
        },
        ListPurpose::Reread(ids) => Answer::Reread { ids, result },
        ListPurpose::Count { generation } => Answer::ListCount { generation, result },
        ListPurpose::Known { page } => Answer::Known { page, result },
    }
}

/// A club search's answer, by what it was for.
pub fn searched(purpose: SearchPurpose, result: Result<Reply<Vec<Club>>, ApiError>) -> Answer {
    match purpose {
        SearchPurpose::Lookup => Answer::ClubSearch(result),
        SearchPurpose::StaffedClubs => Answer::StaffedClubs(result),
    }
}

impl Answer {
    /// The error, when the call failed.
    pub fn error(&self) -> Option<&ApiError> {
        match self {
            Answer::User(r) | Answer::TokenCheck { result: r, .. } => r.as_ref().err(),
            Answer::Row { result, .. } => result.as_ref().err(),
            Answer::Decision { result, .. } => result.as_ref().err(),
            Answer::Club { result, .. } => result.as_ref().err(),
            Answer::ClubSearch(r) | Answer::StaffedClubs(r) => r.as_ref().err(),
            Answer::ContactCreated { result, .. } => result.as_ref().err(),
            Answer::ListPage { result, .. }
            | Answer::ListCount { result, .. }
            | Answer::Known { result, .. }
            | Answer::Reread { result, .. } => result.as_ref().err(),
            Answer::UpdateRoute(r) => r.as_ref().err(),
        }
    }

    /// True when the call succeeded (for the worker's log line).
    pub fn is_ok(&self) -> bool {
        self.error().is_none()
    }

    /// The rows this answer read by id (as [`ApiCall::rows_read`]).
    pub fn rows_read(&self) -> &[Uuid] {
        match self {
            Answer::Row { id, .. } => std::slice::from_ref(id),
            Answer::Reread { ids, .. } => ids,
            Answer::User(_)
            | Answer::TokenCheck { .. }
            | Answer::Decision { .. }
            | Answer::Club { .. }
            | Answer::ClubSearch(_)
            | Answer::StaffedClubs(_)
            | Answer::ContactCreated { .. }
            | Answer::ListPage { .. }
            | Answer::ListCount { .. }
            | Answer::Known { .. }
            | Answer::UpdateRoute(_) => &[],
        }
    }
}

/// The API calls in flight, by request id: to count them, to drop answers of calls no
/// longer awaited, to know when a refresh's reads are done, and to tell answers of calls
/// sent before the token in use from the others (`Model::token_from`). What an answer is
/// for travels with the answer itself ([`Answer`]).
#[derive(Debug, Clone, Default)]
pub struct Calls {
    inflight: HashMap<u64, ApiCall>,
    next_id: u64,
}

impl Calls {
    /// Records a call and returns its request id (unique for the life of the model).
    pub fn start(&mut self, call: ApiCall) -> u64 {
        self.next_id += 1;
        self.inflight.insert(self.next_id, call);
        self.next_id
    }

    /// The request id the next call will get.
    pub fn next_id(&self) -> u64 {
        self.next_id + 1
    }

    /// The call the answer with this id answers, no longer in flight; `None` for an answer
    /// no longer awaited.
    pub fn finish(&mut self, request_id: u64) -> Option<ApiCall> {
        self.inflight.remove(&request_id)
    }

    /// The call with this id, while it is in flight.
    pub fn get(&self, request_id: u64) -> Option<&ApiCall> {
        self.inflight.get(&request_id)
    }

    /// Calls in flight.
    pub fn len(&self) -> usize {
        self.inflight.len()
    }

    /// True when nothing is in flight.
    pub fn is_empty(&self) -> bool {
        self.inflight.is_empty()
    }

    /// Every call in flight (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = &ApiCall> {
        self.inflight.values()
    }

    /// True when a call sent at or after request id `from` reads row `id` (by id, or among
    /// known rows read again).
    pub fn reads_since(&self, id: Uuid, from: u64) -> bool {
        self.inflight
            .iter()
            .any(|(rid, c)| *rid >= from && c.rows_read().contains(&id))
    }
}

#[cfg(test)]
mod tests;
