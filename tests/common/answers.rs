//! Answers as tests write them: the server's payload of an operation ([`ApiAnswer`]),
//! given the context of the call it answers by [`AnswerWith::answer_with`] once the call is
//! read from the model's calls in flight ([`answer_msg`]). Shared by the tests and the
//! benchmark (`#[path]`).
#![allow(dead_code)]

use club_admin::api::{ApiError, Club, ClubRequest, Contact, Reply, UpdateRoute, User};
use club_admin::app::call::{decision_of, deleted, listed, searched, updated};
use club_admin::app::{Answer, ApiCall, ListPurpose, Model, Msg, RowAction, SearchPurpose};

/// The server's answer to one operation, as a test writes it: the payload only, without
/// what the call was for.
#[derive(Debug)]
pub enum ApiAnswer {
    /// `GET /auth/user` (interface-spec.md, operation 1).
    User(Result<Reply<User>, ApiError>),
    /// `GET /v1/clubs/requests/{id}` (operation 5).
    Request(Result<Reply<ClubRequest>, ApiError>),
    /// `PUT /v1/clubs/requests/{id}` (operation 3).
    Updated(Result<Reply<ClubRequest>, ApiError>),
    /// `DELETE /v1/clubs/requests/{id}` (operation 6; `data` is null).
    Deleted(Result<Reply<()>, ApiError>),
    /// `GET /v1/clubs/{id}` (operation 4).
    Club(Result<Reply<Club>, ApiError>),
    /// `GET /v1/clubs` (deployed listing, api-notes.md).
    Clubs(Result<Reply<Vec<Club>>, ApiError>),
    /// `POST /v1/clubs/{id}/contacts` (operation 2).
    ContactCreated(Result<Reply<Contact>, ApiError>),
    /// `GET /v1/clubs/requests` (deployed listing, api-notes.md).
    Listing(Result<Reply<Vec<ClubRequest>>, ApiError>),
    /// The probe of operation 3 ([`ApiCall::ProbeUpdateRoute`]).
    UpdateRoute(Result<UpdateRoute, ApiError>),
}

/// A call answered as a test writes it.
pub trait AnswerWith {
    /// This call's answer carrying `payload`.
    fn answer_with(self, payload: ApiAnswer) -> Answer;
}

impl AnswerWith for ApiCall {
    /// This call's answer carrying `payload`. Panics when `payload` is the answer of
    /// another operation: a test's mistake, never the program's.
    ///
    /// One arm per operation, no default: an operation added to
    /// [`ApiCall`] does not compile until its tests' payload is given here.
    fn answer_with(self, payload: ApiAnswer) -> Answer {
        let call = format!("{self:?}");
        let other = |payload: ApiAnswer| -> ! {
            panic!("a test answered {call} with the answer of another operation: {payload:?}")
        };
        match self {
            ApiCall::CurrentUser => match payload {
                ApiAnswer::User(r) => Answer::User(r),
                p => other(p),
            },
            ApiCall::CheckToken { token, save } => match payload {
                ApiAnswer::User(result) => Answer::TokenCheck {
                    token,
                    save,
                    result,
                },
                p => other(p),
            },
            ApiCall::GetRequest { id, .. } => match payload {
                ApiAnswer::Request(result) => Answer::Row { id, result },
                p => other(p),
            },
            ApiCall::UpdateRequest { id, status, .. } => match payload {
                ApiAnswer::Updated(r) => Answer::Decision {
                    id,
                    action: decision_of(&status),
                    result: r.map(updated),
                },
                p => other(p),
            },
            ApiCall::DeleteRequest { id } => match payload {
                ApiAnswer::Deleted(r) => Answer::Decision {
                    id,
                    action: RowAction::Delete,
                    result: r.map(deleted),
                },
                p => other(p),
            },
            ApiCall::GetClub { id, .. } => match payload {
                ApiAnswer::Club(result) => Answer::Club { id, result },
                p => other(p),
            },
            ApiCall::CreateContact { club_id, .. } => match payload {
                ApiAnswer::ContactCreated(result) => Answer::ContactCreated { club_id, result },
                p => other(p),
            },
            ApiCall::ListRequests { purpose, .. } => match payload {
                ApiAnswer::Listing(r) => listed(purpose, r),
                p => other(p),
            },
            ApiCall::SearchClubs { purpose, .. } => match payload {
                ApiAnswer::Clubs(r) => searched(purpose, r),
                p => other(p),
            },
            ApiCall::ProbeUpdateRoute => match payload {
                ApiAnswer::UpdateRoute(r) => Answer::UpdateRoute(r),
                p => other(p),
            },
        }
    }
}

impl ApiAnswer {
    /// The answer to a call no longer awaited (`update` drops it, whatever it says): the
    /// payload with an empty context (nil ids, generation 0).
    pub fn unawaited(self) -> Answer {
        let id = uuid::Uuid::nil();
        match self {
            ApiAnswer::User(r) => Answer::User(r),
            ApiAnswer::Request(result) => Answer::Row { id, result },
            ApiAnswer::Updated(r) => Answer::Decision {
                id,
                action: RowAction::Approve,
                result: r.map(updated),
            },
            ApiAnswer::Deleted(r) => Answer::Decision {
                id,
                action: RowAction::Delete,
                result: r.map(deleted),
            },
            ApiAnswer::Club(result) => Answer::Club { id, result },
            ApiAnswer::Clubs(r) => searched(SearchPurpose::Lookup, r),
            ApiAnswer::ContactCreated(result) => Answer::ContactCreated {
                club_id: id,
                result,
            },
            ApiAnswer::Listing(r) => listed(
                ListPurpose::Page {
                    page: 1,
                    generation: 0,
                },
                r,
            ),
            ApiAnswer::UpdateRoute(r) => Answer::UpdateRoute(r),
        }
    }
}

/// The message that answers the call `request_id` of `m` with the server's `payload`: the
/// call is read from `m`'s ledger and gives the answer its context; a call no longer
/// awaited gets [`ApiAnswer::unawaited`] (dropped by `update`).
pub fn answer_msg(m: &Model, request_id: u64, payload: ApiAnswer) -> Msg {
    let answer = match m.awaited_call(request_id) {
        Some(call) => call.clone().answer_with(payload),
        None => payload.unawaited(),
    };
    Msg::Api { request_id, answer }
}
