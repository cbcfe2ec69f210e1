//! What the server can do, found out without side effects.
//!
//! The deployed service exists in two versions: 0.8.x has `PUT /v1/clubs/requests/{id}`
//! (approve and decline), 0.9.0 does not and answers it 404 `entity_not_found`
//! "Route not found", as it answers any unknown route (api-notes.md, "The operations, as
//! deployed"). [`ApiClient::probe_update_route`](super::ApiClient::probe_update_route) sends
//! that PUT for the nil UUID, which no request has, so the call changes nothing, and
//! [`classify_update_probe`] reads the answer.

use super::client::Reply;
use super::error::ApiError;
use super::models::ClubRequest;

/// The id the probe updates: the nil UUID, which names no club request.
pub const PROBE_ID: uuid::Uuid = uuid::Uuid::nil();

/// Whether approve and decline (`PUT /v1/clubs/requests/{id}`) can work for this account on
/// this server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateRoute {
    /// The server has the operation: it answered for the id (404 "not found" for the nil
    /// UUID), or refused the body or the caller in a way that is not about the role (400,
    /// 403, 409), or (against all odds) succeeded.
    Present,
    /// The server has the operation but refuses it to this account's role: 403 whose detail
    /// is the deployed "User is not a student" (a teacher on 0.8.x gets it for every
    /// approve). Seen by the probe only when the server checks the role before the id (the
    /// demo server does); otherwise the first approve answers it — see
    /// [`ApiError::is_role_refusal`].
    RoleRefused {
        /// The server's detail, sanitised (no control characters), at most 500 characters.
        detail: String,
    },
    /// The server lacks the operation: 404 "Route not found" (0.9.0), or 405.
    Missing,
}

impl UpdateRoute {
    /// True when approve and decline may be offered (only [`UpdateRoute::Present`]).
    pub fn allows_decisions(&self) -> bool {
        matches!(self, UpdateRoute::Present)
    }

    /// The one-line notice for the header when decisions are not possible; `None` when they
    /// are. Missing: "this server cannot approve or decline";
    /// role refused: "this account cannot approve or decline: <detail>".
    pub fn notice(&self) -> Option<String> {
        match self {
            UpdateRoute::Present => None,
            UpdateRoute::Missing => Some("this server cannot approve or decline".into()),
            UpdateRoute::RoleRefused { detail } => {
                Some(format!("this account cannot approve or decline: {detail}"))
            }
        }
    }

    /// What an answer to a real approve or decline tells about the route, when it tells
    /// anything: `Missing` for 404 "Route not found", `RoleRefused` for the role refusal,
    /// `None` otherwise (success, or a failure about that one request). For the case where
    /// the start-up probe could not decide, or the server changed version while running.
    pub fn learned_from<T>(result: &Result<T, ApiError>) -> Option<UpdateRoute> {
        match result {
            Err(e) if e.is_unavailable() => Some(UpdateRoute::Missing),
            Err(e) if e.is_role_refusal() => Some(UpdateRoute::RoleRefused {
                detail: e.info().map(|i| i.message()).unwrap_or_default(),
            }),
            _ => None,
        }
    }
}

/// Classifies the answer to the probe (`PUT /v1/clubs/requests/00000000-0000-0000-0000-000000000000`
/// with `{"data":{"status":"approved"}}`):
///
/// - 404 "Route not found" ([`ApiError::OperationUnavailable`]) or 405 → `Missing`;
/// - 403 "User is not a student" → `RoleRefused`;
/// - 404 JSON for the id (`entity_not_found` "... not found"), any other 403, 400, 409, or a
///   success → `Present`;
/// - everything else is returned as the error: 401 (sign in first), 5xx, timeout, connection
///   failure, an unreadable answer, and a 404 that is not the service's JSON (a proxy's HTML
///   page): the route is then unknown, and the caller should keep approve and decline and
///   learn from the first answer ([`UpdateRoute::learned_from`]).
pub fn classify_update_probe(
    result: Result<Reply<ClubRequest>, ApiError>,
) -> Result<UpdateRoute, ApiError> {
    let e = match result {
        Ok(_) => return Ok(UpdateRoute::Present),
        Err(e) => e,
    };
    if let Some(route) = UpdateRoute::learned_from::<()>(&Err(e.clone())) {
        return Ok(route);
    }
    match &e {
        ApiError::Invalid(info) if info.status == Some(405) => Ok(UpdateRoute::Missing),
        // Only the service's own JSON 404 proves the route: it names the entity.
        ApiError::NotFound(info) if info.error_type.is_some() || info.detail.is_some() => {
            Ok(UpdateRoute::Present)
        }
        ApiError::Forbidden(_) | ApiError::Invalid(_) | ApiError::Conflict(_) => {
            Ok(UpdateRoute::Present)
        }
        ApiError::Unauthorized { .. }
        | ApiError::NotFound(_)
        | ApiError::OperationUnavailable(_)
        | ApiError::Server(_)
        | ApiError::Timeout { .. }
        | ApiError::Connect { .. }
        | ApiError::Decode { .. }
        | ApiError::Config(_)
        | ApiError::NotTheService { .. }
        | ApiError::Internal
        | ApiError::NotSent(_)
        | ApiError::NoAnswer(_) => Err(e),
    }
}
