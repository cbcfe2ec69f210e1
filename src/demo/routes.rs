//! HTTP handlers of the demo server, with the deployed wire format (api-notes.md).
// Handler helpers return the error *response* itself; it is built once per request and
// sent at once, so boxing it would only add an allocation.
#![allow(clippy::result_large_err)]

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use chrono::{SecondsFormat, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

use super::listing_params;
use super::state::{DemoState, Refusal};
use super::{Faults, ServiceVersion};
use crate::api::{ContactType, FetchLevel, Levels, MembershipStatus};

/// Unwraps a `Result<T, Response>`, answering with the error response.
macro_rules! or_respond {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(response) => return response,
        }
    };
}

/// The version label the older deployed service reports (api-notes.md); the default.
pub const API_VERSION: &str = "0.8.4";

tokio::task_local! {
    /// `api_version` of the envelopes built while a request is handled: set per request by
    /// [`router`] from [`AppState::version`], so that the free helpers [`ok`] and [`error`]
    /// need no state (two demo servers of different versions share one process in tests).
    static VERSION: &'static str;
}

/// The `api_version` label for the request being handled ([`API_VERSION`] outside one).
fn version_label() -> &'static str {
    VERSION.try_with(|v| *v).unwrap_or(API_VERSION)
}

/// Shared handler state.
#[derive(Clone)]
pub struct AppState {
    /// The data, behind one lock.
    pub data: Arc<Mutex<DemoState>>,
    /// Fault injection, changeable while running.
    pub faults: Arc<Mutex<Faults>>,
    /// Which deployed service the server imitates.
    pub version: ServiceVersion,
    /// Requests received (counted by the fault layer, before any fault).
    pub calls: Arc<std::sync::atomic::AtomicU64>,
    /// Every write received (`PUT /v1/clubs/requests/<id>`, ...), before any fault: how
    /// many times a client sent each write, whatever became of it.
    pub writes: Arc<Mutex<Vec<String>>>,
    /// The imitated database pool (`--pool N`), if any.
    pub pool: Option<super::pool::Connections>,
    /// Authenticated requests in flight now and at most so far (whether or not a pool is
    /// imitated): what the harnesses and tests of the host budget count.
    pub in_flight: Arc<super::pool::InFlight>,
}

impl AppState {
    pub(super) fn lock(&self) -> MutexGuard<'_, DemoState> {
        self.data.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn now_text() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Nanos, true)
}

/// A success envelope.
pub(super) fn ok(data: Value, pagination: Option<Value>) -> Response {
    let body = json!({
        "api_version": version_label(),
        "data": data,
        "error": null,
        "meta": { "timestamp": now_text(), "pagination": pagination },
    });
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// A JSON error envelope: `{"api_version","error":{id,code,error_type,detail,source},"data":null,"meta":null}`.
pub fn error(status: u16, error_type: &str, detail: &str) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = json!({
        "api_version": version_label(),
        "error": {
            "id": Uuid::new_v4(),
            "code": status,
            "error_type": error_type,
            "detail": detail,
            "source": "demo server",
        },
        "data": null,
        "meta": null,
    });
    (code, axum::Json(body)).into_response()
}

fn refused(r: Refusal) -> Response {
    error(r.0, r.1, &r.2)
}

/// 404 text/plain, as the deployed service answers a malformed UUID in the path.
fn bad_path() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Invalid URL: UUID parsing failed",
    )
        .into_response()
}

fn parse_id(raw: &str) -> Result<Uuid, Response> {
    Uuid::parse_str(raw).map_err(|_| bad_path())
}

/// Authenticates a call: the key always; the token when `need_token`, and whenever one is
/// sent. A call that needs a token and sends none is answered `missing_token` before its key
/// is looked at, as the deployed service does (a bad key with no token reads as a missing
/// token there; only a key-only read such as `GET /v1/clubs/{id}` judges the key alone).
/// Returns the index of the acting user (the token's, else the key's).
fn auth(state: &AppState, headers: &HeaderMap, need_token: bool) -> Result<usize, Response> {
    if need_token && headers.get(header::AUTHORIZATION).is_none() {
        return Err(error(401, "missing_token", "Missing access token"));
    }
    let st = state.lock();
    let key = headers.get("x-api-key").and_then(|v| v.to_str().ok());
    let Some(key) = key.filter(|k| !k.is_empty()) else {
        return Err(error(401, "missing_api_key", "Missing API key"));
    };
    let Some(key_user) = st.users.iter().position(|u| u.api_key == key) else {
        return Err(error(401, "invalid_api_key", "Invalid API key"));
    };
    let Some(authz) = headers.get(header::AUTHORIZATION) else {
        return if need_token {
            Err(error(401, "missing_token", "Missing access token"))
        } else {
            Ok(key_user)
        };
    };
    let authz = authz.to_str().unwrap_or("");
    let Some(token) = authz.strip_prefix("Bearer ") else {
        return Err(error(
            401,
            "invalid_authorization_scheme",
            "Invalid authorization scheme",
        ));
    };
    match st.tokens.get(token.trim()) {
        None => Err(error(401, "invalid_token", "Invalid access token")),
        Some(t) if t.expires <= Utc::now() => {
            Err(error(401, "invalid_token", "Access token has expired"))
        }
        Some(t) => Ok(t.user),
    }
}

/// A 400 `invalid_request` with `detail`.
fn invalid(detail: String) -> Response {
    error(400, "invalid_request", &detail)
}

/// `fetch_level` / `descendant_fetch_level` of a single read's query string.
fn query_levels(raw: &Option<String>) -> Result<Levels, Response> {
    listing_params::parse::<listing_params::LevelsQuery>(raw.as_deref())
        .and_then(|q| q.levels())
        .map_err(invalid)
}

async fn health(State(state): State<AppState>) -> Response {
    let n = state.lock().requests.len();
    ok(
        json!({ "server_time": now_text(), "database_connection": true, "database_response_time": n % 7 + 1 }),
        None,
    )
}

async fn current_user(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let user = or_respond!(auth(&state, &headers, true));
    let st = state.lock();
    let u = &st.users[user];
    ok(
        json!({
            "id": u.id, "created_at": u.created_at, "email": u.email, "role": u.role,
            "meta": u.meta, "is_admin": u.is_admin, "onboarded": u.onboarded,
            "permissions": u.permissions,
        }),
        None,
    )
}

async fn get_club(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let id = or_respond!(parse_id(&id));
    let user = or_respond!(auth(&state, &headers, false));
    let levels = or_respond!(query_levels(&q));
    let st = state.lock();
    match st.club(id) {
        None => error(404, "entity_not_found", &format!("Club {id} not found")),
        Some(c) => match st.club_json(c, levels, Some(user)) {
            Ok(v) => ok(v, None),
            Err(r) => refused(r),
        },
    }
}

/// The shared body shape: `{data, fetch_level, descendant_fetch_level}`.
fn parse_body(body: &Bytes) -> Result<(Value, Levels), Response> {
    let v: Value = serde_json::from_slice(body).map_err(|e| {
        error(
            400,
            "invalid_request",
            &format!("Json deserialize error: {e}"),
        )
    })?;
    let lv =
        |k: &str| listing_params::parse_level(v.get(k).and_then(|x| x.as_str())).map_err(invalid);
    let levels = Levels::new(lv("fetch_level")?, lv("descendant_fetch_level")?);
    let data = v
        .get("data")
        .cloned()
        .filter(|d| d.is_object())
        .ok_or_else(|| {
            error(
                400,
                "invalid_request",
                "Json deserialize error: missing field `data`",
            )
        })?;
    Ok((data, levels))
}

async fn create_contact(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let club_id = or_respond!(parse_id(&id));
    let user = or_respond!(auth(&state, &headers, true));
    let (data, _levels) = or_respond!(parse_body(&body));
    let kind = match data.get("type").and_then(|t| t.as_str()) {
        Some(t) => match ContactType::parse(t) {
            ContactType::Other(o) => {
                return error(
                    400,
                    "invalid_request",
                    &format!(
                        "Json deserialize error: unknown variant `{o}`, expected one of `phone`, `email`, `facebook`, `line`, `instagram`, `website`, `discord`, `other`"
                    ),
                );
            }
            k => k,
        },
        None => {
            return error(
                400,
                "invalid_request",
                "Json deserialize error: missing field `type`",
            );
        }
    };
    let value = match data.get("value").and_then(|t| t.as_str()) {
        Some(v) if !v.trim().is_empty() => v.to_owned(),
        _ => {
            return error(
                400,
                "invalid_request",
                "Json deserialize error: missing field `value`",
            );
        }
    };
    let mut st = state.lock();
    match st.add_contact(user, club_id, kind, value) {
        Ok(cid) => ok(st.contact_json(cid, FetchLevel::Default), None),
        Err(r) => refused(r),
    }
}

async fn get_request(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Response {
    let id = or_respond!(parse_id(&id));
    // Deployed behaviour: the token is demanded here too (api-notes.md).
    let user = or_respond!(auth(&state, &headers, true));
    let levels = or_respond!(query_levels(&q));
    let st = state.lock();
    match st.requests.iter().find(|r| r.id == id) {
        None => error(
            404,
            "entity_not_found",
            &format!("Club request {id} not found"),
        ),
        Some(r) => match st.request_json(r, levels, Some(user)) {
            Ok(v) => ok(v, None),
            Err(e) => refused(e),
        },
    }
}

async fn update_request(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let id = or_respond!(parse_id(&id));
    let user = or_respond!(auth(&state, &headers, true));
    let (data, levels) = or_respond!(parse_body(&body));
    let status = match data.get("status").and_then(|s| s.as_str()) {
        None => {
            return error(
                400,
                "invalid_request",
                "Json deserialize error: missing field `status`",
            );
        }
        Some(s) => match MembershipStatus::parse(s) {
            MembershipStatus::Other(o) => {
                return error(
                    400,
                    "invalid_request",
                    &format!(
                        "Json deserialize error: unknown variant `{o}`, expected one of `pending`, `approved`, `declined`"
                    ),
                );
            }
            MembershipStatus::Pending => {
                return error(
                    400,
                    "invalid_request",
                    "A club request cannot be set back to pending",
                );
            }
            s => s,
        },
    };
    let race = state.faults.lock().map(|f| f.race).unwrap_or_default();
    let checked = if race.is_zero() {
        state.lock().update_request(user, id, status)
    } else {
        // As the deployed 0.8.4 service: the pending check, then the write a moment later;
        // a decision checked meanwhile is written too (the last one stays).
        let first = state.lock().check_update(user, id, true);
        if first.is_ok() {
            tokio::time::sleep(race).await;
        }
        let mut st = state.lock();
        first
            .and_then(|_| st.check_update(user, id, false))
            .inspect(|idx| st.write_status(*idx, status))
    };
    let st = state.lock();
    match checked {
        Ok(idx) => {
            let r = st.requests[idx].clone();
            match st.request_json(&r, levels, Some(user)) {
                Ok(v) => ok(v, None),
                Err(e) => refused(e),
            }
        }
        Err(r) => refused(r),
    }
}

async fn delete_request(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let id = or_respond!(parse_id(&id));
    let user = or_respond!(auth(&state, &headers, true));
    match state.lock().delete_request(user, id) {
        Ok(()) => ok(Value::Null, None),
        Err(r) => refused(r),
    }
}

/// Page `p` (from 1) of `size` rows, each shaped by `shape`, with `meta.pagination`; a
/// refusal while shaping (a student reading `default` students) answers for the whole page.
fn page_of<T>(
    rows: &[T],
    p: usize,
    size: usize,
    shape: impl Fn(&T) -> Result<Value, Refusal>,
) -> Response {
    let page: Result<Vec<Value>, Refusal> = rows
        .iter()
        .skip((p - 1).saturating_mul(size))
        .take(size)
        .map(shape)
        .collect();
    match page {
        Ok(page) => ok(Value::Array(page), Some(page_meta(rows.len(), p, size))),
        Err(r) => refused(r),
    }
}

fn page_meta(total: usize, p: usize, size: usize) -> Value {
    let last = if total == 0 || size == 0 {
        0
    } else {
        total.div_ceil(size)
    };
    json!({
        "first_p": 1,
        "last_p": last,
        "next_p": if p < last { Some(p + 1) } else { None },
        "prev_p": if p > 1 && last > 0 { Some((p - 1).min(last)) } else { None },
        "size": size,
        "total": total,
    })
}

async fn list_requests(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let user = or_respond!(auth(&state, &headers, true));
    let l: listing_params::Listing<listing_params::RequestFilterData> = or_respond!(
        listing_params::listing(
            q.as_deref(),
            &["id", "club_id", "student_id", "membership_status", "year"],
        )
        .map_err(invalid)
    );
    let f = l.data.unwrap_or_default();
    let status = match f
        .membership_status
        .as_deref()
        .map(listing_params::membership_status)
    {
        None => None,
        Some(s) => Some(or_respond!(s.map_err(invalid))),
    };
    let ids = f.ids.unwrap_or_default();
    let club_ids = f.club_ids.unwrap_or_default();
    let student_ids = f.student_ids.unwrap_or_default();
    let st = state.lock();
    let mut rows: Vec<_> = st
        .requests
        .iter()
        .filter(|r| ids.is_empty() || ids.contains(&r.id))
        .filter(|r| club_ids.is_empty() || club_ids.contains(&r.club_id))
        .filter(|r| student_ids.is_empty() || student_ids.contains(&r.student_id))
        .filter(|r| status.as_ref().is_none_or(|s| &r.membership_status == s))
        .filter(|r| f.year.is_none_or(|y| r.year == Some(y)))
        .collect();
    if !l.sort_by.is_empty() {
        rows.sort_by(|a, b| {
            let mut ord = std::cmp::Ordering::Equal;
            for k in &l.sort_by {
                ord = ord.then_with(|| match k.as_str() {
                    "club_id" => a.club_id.cmp(&b.club_id),
                    "student_id" => a.student_id.cmp(&b.student_id),
                    "membership_status" => a
                        .membership_status
                        .as_str()
                        .cmp(b.membership_status.as_str()),
                    "year" => a.year.cmp(&b.year),
                    _ => a.id.cmp(&b.id),
                });
            }
            if l.ascending { ord } else { ord.reverse() }
        });
    }
    let (p, size) = l.page;
    page_of(&rows, p, size, |r| st.request_json(r, l.levels, Some(user)))
}

async fn list_clubs(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Response {
    let user = or_respond!(auth(&state, &headers, true));
    let l: listing_params::Listing<listing_params::ClubFilterData> =
        or_respond!(listing_params::listing(q.as_deref(), &["id"]).map_err(invalid));
    let text = l.text.as_ref().map(|t| t.to_lowercase());
    if text.is_some() && l.data.is_some() {
        return invalid("filter[q] cannot be combined with filter[data]".into());
    }
    let f = l.data.unwrap_or_default();
    let ids = f.ids.unwrap_or_default();
    let contact_ids = f.contact_ids.unwrap_or_default();
    let member_ids = f.member_ids.unwrap_or_default();
    let staff_ids = f.staff_ids.unwrap_or_default();
    let name = f.name.as_ref().map(|t| t.to_lowercase());
    let st = state.lock();
    let texts = |c: &super::seed::SeedClub| {
        let mut all = String::new();
        for t in [&c.name, &c.description].into_iter().flatten() {
            for s in [&t.en, &t.th].into_iter().flatten() {
                all.push_str(&s.to_lowercase());
                all.push('\n');
            }
        }
        all
    };
    let mut rows: Vec<_> = st
        .clubs
        .iter()
        .filter(|c| ids.is_empty() || ids.contains(&c.id))
        .filter(|c| contact_ids.is_empty() || c.contact_ids.iter().any(|x| contact_ids.contains(x)))
        .filter(|c| member_ids.is_empty() || c.member_ids.iter().any(|x| member_ids.contains(x)))
        .filter(|c| staff_ids.is_empty() || c.staff_ids.iter().any(|x| staff_ids.contains(x)))
        .filter(|c| {
            name.as_ref().is_none_or(|n| {
                c.name.as_ref().is_some_and(|t| {
                    [&t.en, &t.th]
                        .into_iter()
                        .flatten()
                        .any(|s| s.to_lowercase().contains(n.as_str()))
                })
            })
        })
        .filter(|c| text.as_ref().is_none_or(|t| texts(c).contains(t.as_str())))
        .collect();
    if !l.sort_by.is_empty() {
        rows.sort_by(|a, b| {
            if l.ascending {
                a.id.cmp(&b.id)
            } else {
                b.id.cmp(&a.id)
            }
        });
    }
    let (p, size) = l.page;
    page_of(&rows, p, size, |c| st.club_json(c, l.levels, Some(user)))
}

/// 404 JSON `entity_not_found` "Route not found": the deployed answer to an unknown route,
/// and to a known path with a method it does not serve (0.9.0 answers `PUT
/// /v1/clubs/requests/{id}` so while GET and DELETE of that path still work).
async fn not_found() -> Response {
    error(404, "entity_not_found", "Route not found")
}

/// Runs the rest of the request with [`VERSION`] set to the server's label.
async fn with_version(
    State(state): State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    VERSION.scope(state.version.label(), next.run(req)).await
}

/// The router with every operation of the interface and the two listings, as the service of
/// `state.version` offers them: 0.9.0 has no `PUT /v1/clubs/requests/{id}`.
pub fn router(state: AppState) -> Router {
    let request = get(get_request).delete(delete_request);
    let request = if state.version.has_update_route() {
        request.put(update_request)
    } else {
        request
    };
    Router::new()
        .route("/health-check", get(health))
        .route("/auth/user", get(current_user))
        .route("/auth/oauth/init", get(super::signin::init))
        .route("/auth/oauth/callback", get(super::signin::callback))
        .route("/v1/clubs", get(list_clubs))
        .route("/v1/clubs/requests", get(list_requests))
        .route("/v1/clubs/requests/{id}", request)
        .route("/v1/clubs/{id}", get(get_club))
        .route("/v1/clubs/{id}/contacts", post(create_contact))
        .method_not_allowed_fallback(not_found)
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::pool::hold,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            super::faults::inject,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            with_version,
        ))
        .with_state(state)
}
