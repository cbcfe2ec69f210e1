//! The embedded demo server: an axum server on 127.0.0.1 that speaks the interface as the
//! deployed service does (interface-spec.md plus api-notes.md), with state in memory seeded
//! from `assets/demo/*.json`.
//!
//! [`start`] runs it in-process and returns a [`DemoHandle`] with its address and the demo
//! accounts' credentials; `club-admin serve-demo` runs it alone.

mod faults;
pub mod listing_params;
pub mod pool;
pub mod routes;
pub mod seed;
mod signin;
pub mod state;

use std::fmt;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use base64::Engine;
use chrono::{Duration as ChronoDuration, Utc};
use uuid::Uuid;

pub use faults::Faults;
pub use pool::Pool;

use crate::api::{MembershipStatus, Timestamp};
use state::{DemoState, IssuedToken};

/// Which deployed service the demo server imitates (both are deployed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ServiceVersion {
    /// 0.8.4, the version api-notes.md records: `PUT /v1/clubs/requests/{id}` approves and
    /// declines; a student's request to join a club is inserted `pending`.
    #[default]
    V0_8,
    /// 0.9.0, the current deployment: no update route (`PUT /v1/clubs/requests/{id}` answers
    /// 404 `entity_not_found` "Route not found", as any unknown route does); a request to join
    /// is inserted `approved` (no moderation step). Requests already in the data (the seed)
    /// keep their status: they were made before the upgrade.
    V0_9,
}

impl ServiceVersion {
    /// The `api_version` label of the envelopes: `0.8.4` or `0.9.0`.
    pub fn label(self) -> &'static str {
        match self {
            ServiceVersion::V0_8 => routes::API_VERSION,
            ServiceVersion::V0_9 => "0.9.0",
        }
    }

    /// True when `PUT /v1/clubs/requests/{id}` exists.
    pub fn has_update_route(self) -> bool {
        self == ServiceVersion::V0_8
    }

    /// The status a newly joined request is inserted with.
    pub fn join_status(self) -> MembershipStatus {
        match self {
            ServiceVersion::V0_8 => MembershipStatus::Pending,
            ServiceVersion::V0_9 => MembershipStatus::Approved,
        }
    }

    /// Reads `0.8`, `0.8.4`, `0.9` or `0.9.0` (the value of `--api-version`).
    ///
    /// Errors: any other text, with the accepted values.
    pub fn parse(text: &str) -> Result<ServiceVersion, String> {
        match text.trim() {
            "0.8" | "0.8.4" => Ok(ServiceVersion::V0_8),
            "0.9" | "0.9.0" => Ok(ServiceVersion::V0_9),
            other => Err(format!(
                "unknown API version {other:?}: the demo imitates 0.8 (0.8.4) or 0.9 (0.9.0)"
            )),
        }
    }
}

/// How to start the demo server.
#[derive(Debug, Clone, Default)]
pub struct DemoOptions {
    /// TCP port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// Faults to inject from the start.
    pub faults: Faults,
    /// Validity of the issued tokens; `None` means 8 hours.
    pub token_ttl: Option<ChronoDuration>,
    /// Extra requests to add (spread over the moderator's clubs), for scale tests; they are
    /// joined at start, so `pending` on 0.8 and `approved` on 0.9 ([`ServiceVersion::join_status`]).
    pub extra_requests: usize,
    /// Which deployed service to imitate; 0.8.4 by default.
    pub api_version: ServiceVersion,
    /// Imitate the deployed service's database pool (`--pool N`): `None`, no pool.
    pub pool: Option<Pool>,
}

/// A demo account with its credentials. `Debug` redacts both secrets.
#[derive(Clone)]
pub struct DemoUser {
    /// `moderator`, `moderator2` (a second staff member of the moderator's Robotics Club), `teacher` or `admin`.
    pub label: String,
    /// E-mail.
    pub email: String,
    /// The account's `role` as `/auth/user` reports it.
    pub role: String,
    /// API key.
    pub api_key: String,
    /// Bearer token (JWT-shaped, with `exp`).
    pub token: String,
    /// When the token expires.
    pub token_expires: Timestamp,
}

impl fmt::Debug for DemoUser {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DemoUser")
            .field("label", &self.label)
            .field("email", &self.email)
            .field("role", &self.role)
            .field("api_key", &"[redacted]")
            .field("token", &"[redacted]")
            .finish()
    }
}

/// A running demo server. Dropping it stops the server.
pub struct DemoHandle {
    /// Bound address.
    pub addr: SocketAddr,
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    /// The accounts: moderator (first, the default), teacher, admin, moderator2.
    pub users: Vec<DemoUser>,
    state: routes::AppState,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl fmt::Debug for DemoHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DemoHandle")
            .field("base_url", &self.base_url)
            .field("users", &self.users)
            .finish()
    }
}

impl Drop for DemoHandle {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Makes a JWT-shaped HS256 token with `sub`, `iat`, `exp`; the signature is random bytes
/// (the demo server recognises its own tokens by value, it does not verify signatures).
pub fn make_token(sub: Uuid, expires: Timestamp) -> String {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let header = b64.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let claims = serde_json::json!({ "sub": sub, "iat": Utc::now().timestamp(), "exp": expires.timestamp() });
    let payload = b64.encode(claims.to_string());
    let sig: Vec<u8> = (0..32).map(|_| fastrand::u8(..)).collect();
    format!("{header}.{payload}.{}", b64.encode(sig))
}

impl DemoHandle {
    /// The default account (the club-staff moderator).
    pub fn moderator(&self) -> &DemoUser {
        &self.users[0]
    }

    /// The account with this label.
    pub fn user(&self, label: &str) -> Option<&DemoUser> {
        self.users.iter().find(|u| u.label == label)
    }

    /// Issues another token for the account `label`, expiring at `expires` (in the past for
    /// expired-token tests). `None` for an unknown label.
    pub fn issue_token(&self, label: &str, expires: Timestamp) -> Option<String> {
        let mut st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        let idx = st.users.iter().position(|u| u.label == label)?;
        let token = make_token(st.users[idx].id, expires);
        st.tokens
            .insert(token.clone(), IssuedToken { user: idx, expires });
        Some(token)
    }

    /// Replaces the injected faults while running.
    pub fn set_faults(&self, faults: Faults) {
        if let Ok(mut f) = self.state.faults.lock() {
            *f = faults;
        }
    }

    /// The stored membership status of a request; `None` when it does not exist (deleted).
    pub fn request_status(&self, id: Uuid) -> Option<MembershipStatus> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        st.requests
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.membership_status.clone())
    }

    /// Ids of the pending requests in clubs that `label` moderates, in listing order.
    pub fn pending_for(&self, label: &str) -> Vec<Uuid> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        let Some(u) = st.users.iter().position(|u| u.label == label) else {
            return Vec::new();
        };
        st.requests
            .iter()
            .filter(|r| r.membership_status == MembershipStatus::Pending)
            .filter(|r| st.may_moderate(u, r.club_id))
            .map(|r| r.id)
            .collect()
    }

    /// Ids of every pending request (any club), in listing order: what an account that reads
    /// every club (a teacher, an administrator) lists.
    pub fn pending(&self) -> Vec<Uuid> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        st.requests
            .iter()
            .filter(|r| r.membership_status == MembershipStatus::Pending)
            .map(|r| r.id)
            .collect()
    }

    /// Ids of the requests the student account `label` made (any status), in listing
    /// order: the only ones it may delete.
    pub fn requests_of(&self, label: &str) -> Vec<Uuid> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        let Some(sid) = st
            .users
            .iter()
            .find(|u| u.label == label)
            .and_then(|u| u.meta.as_ref().and_then(|m| m.student_id))
        else {
            return Vec::new();
        };
        st.requests
            .iter()
            .filter(|r| r.student_id == sid)
            .map(|r| r.id)
            .collect()
    }

    /// Every mutating call the server accepted, in order (`update <id> <status>`,
    /// `delete <id>`, `contact <club> <id>`).
    pub fn mutations(&self) -> Vec<String> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        st.mutations.clone()
    }

    /// Every write received so far, answered, refused or dropped (`PUT /v1/clubs/requests/<id>`,
    /// `DELETE ...`, `POST /v1/clubs/<id>/contacts`), in order: a client that never writes
    /// twice sends each request's write once.
    pub fn writes_received(&self) -> Vec<String> {
        self.state
            .writes
            .lock()
            .map(|w| w.clone())
            .unwrap_or_default()
    }

    /// HTTP requests received so far (every route, answered or dropped), for harnesses that
    /// count calls.
    pub fn calls(&self) -> u64 {
        self.state.calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The most authenticated requests (`/v1/...`, `/auth/user`) that were in flight at
    /// once so far, from all clients together: the figure the deployed service's pool
    /// stalls at 16 (api-notes.md, "Other").
    pub fn peak_in_flight(&self) -> usize {
        self.state.in_flight.peak()
    }

    /// Which deployed service this server imitates.
    pub fn api_version(&self) -> ServiceVersion {
        self.state.version
    }

    /// A student asks to join a club, as the service's join operation does (the demo has no
    /// HTTP route for it: the dashboard never joins). The row is inserted with the status of
    /// [`ServiceVersion::join_status`]: `pending` on 0.8, `approved` on 0.9 (and the student
    /// becomes a member). Returns the new request's id; `None` for an unknown club or student.
    pub fn join(&self, student: Uuid, club: Uuid) -> Option<Uuid> {
        let mut st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        if !st.students.contains_key(&student) || st.club(club).is_none() {
            return None;
        }
        let status = self.state.version.join_status();
        let id = Uuid::new_v4();
        st.requests.push(seed::SeedRequest {
            id,
            created_at: Some(Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true)),
            club_id: club,
            student_id: student,
            year: Some(2026),
            membership_status: status.clone(),
        });
        if status == MembershipStatus::Approved
            && let Some(c) = st.clubs.iter_mut().find(|c| c.id == club)
            && !c.member_ids.contains(&student)
        {
            c.member_ids.push(student);
        }
        Some(id)
    }

    /// Ids of every student, sorted.
    pub fn student_ids(&self) -> Vec<Uuid> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        let mut ids: Vec<Uuid> = st.students.keys().copied().collect();
        ids.sort();
        ids
    }

    /// Ids of every club, in seed order.
    pub fn club_ids(&self) -> Vec<Uuid> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        st.clubs.iter().map(|c| c.id).collect()
    }

    /// Values of a club's contacts.
    pub fn contact_values(&self, club: Uuid) -> Vec<String> {
        let st = self.state.data.lock().unwrap_or_else(|p| p.into_inner());
        st.club(club)
            .map(|c| {
                c.contact_ids
                    .iter()
                    .filter_map(|id| st.contacts.get(id).and_then(|c| c.value.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Starts the demo server on a tokio runtime that must already be running.
///
/// Errors: the port cannot be bound, or the embedded data does not parse.
pub async fn start(options: DemoOptions) -> Result<DemoHandle, String> {
    let seed = seed::load()?;
    let mut state = DemoState::new(seed);
    add_extra_requests(
        &mut state,
        options.extra_requests,
        options.api_version.join_status(),
    );
    let ttl = options.token_ttl.unwrap_or(ChronoDuration::hours(8));
    let expires = Utc::now() + ttl;
    let mut users = Vec::new();
    for (i, u) in state.users.clone().iter().enumerate() {
        let token = make_token(u.id, expires);
        state
            .tokens
            .insert(token.clone(), IssuedToken { user: i, expires });
        users.push(DemoUser {
            label: u.label.clone(),
            email: u.email.clone(),
            role: u.role.clone(),
            api_key: u.api_key.clone(),
            token,
            token_expires: expires,
        });
    }
    let app_state = routes::AppState {
        data: Arc::new(Mutex::new(state)),
        faults: Arc::new(Mutex::new(options.faults.clone())),
        version: options.api_version,
        calls: Arc::new(std::sync::atomic::AtomicU64::new(0)),
        writes: Arc::new(Mutex::new(Vec::new())),
        pool: options.pool.clone().map(pool::Connections::new),
        in_flight: Arc::new(pool::InFlight::default()),
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.port))
        .await
        .map_err(|e| format!("could not bind 127.0.0.1:{}: {e}", options.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?;
    // A trailing slash is tolerated, as on the deployed service: it is stripped before
    // routing (a `Router` layer would run after routing).
    let app =
        tower::ServiceExt::map_request(routes::router(app_state.clone()), strip_trailing_slash);
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        let make = axum::ServiceExt::<axum::extract::Request>::into_make_service(app);
        let serve = axum::serve(listener, make).with_graceful_shutdown(async {
            let _ = rx.await;
        });
        if let Err(e) = serve.await {
            tracing::error!("demo server stopped: {e}");
        }
    });
    Ok(DemoHandle {
        addr,
        base_url: format!("http://{addr}"),
        users,
        state: app_state,
        shutdown: Some(tx),
    })
}

fn strip_trailing_slash(mut req: axum::extract::Request) -> axum::extract::Request {
    let path = req.uri().path();
    if path.len() > 1 && path.ends_with('/') {
        let trimmed = path.trim_end_matches('/');
        let new = match req.uri().query() {
            Some(q) => format!("{trimmed}?{q}"),
            None => trimmed.to_owned(),
        };
        if let Ok(pq) = new.parse::<axum::http::uri::PathAndQuery>() {
            let mut parts = req.uri().clone().into_parts();
            parts.path_and_query = Some(pq);
            if let Ok(uri) = axum::http::Uri::from_parts(parts) {
                *req.uri_mut() = uri;
            }
        }
    }
    req
}

fn add_extra_requests(state: &mut DemoState, n: usize, status: MembershipStatus) {
    if n == 0 {
        return;
    }
    let Some(mod_student) = state
        .users
        .first()
        .and_then(|u| u.meta.as_ref())
        .and_then(|m| m.student_id)
    else {
        return;
    };
    let clubs: Vec<Uuid> = state
        .clubs
        .iter()
        .filter(|c| c.staff_ids.contains(&mod_student))
        .map(|c| c.id)
        .collect();
    let students: Vec<Uuid> = state.students.keys().copied().collect();
    if clubs.is_empty() || students.is_empty() {
        return;
    }
    for i in 0..n {
        state.requests.push(seed::SeedRequest {
            id: Uuid::new_v4(),
            created_at: Some(
                (Utc::now() - ChronoDuration::minutes(i as i64))
                    .to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            ),
            club_id: clubs[i % clubs.len()],
            student_id: students[i % students.len()],
            year: Some(2026),
            membership_status: status.clone(),
        });
    }
}
