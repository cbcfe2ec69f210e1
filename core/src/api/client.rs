//! The HTTP client: one method per operation of the interface, plus the deployed listings.

use std::fmt;
use std::sync::{Arc, RwLock};

use backon::{ExponentialBuilder, Retryable};
use reqwest::{Method, RequestBuilder};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use uuid::Uuid;

use super::error::{ApiError, ConnectFailure, excerpt, not_the_service};
use super::models::{
    Club, ClubRequest, Contact, Envelope, FetchLevel, Levels, MembershipStatus, NewContact, User,
};
use super::options::{ClientOptions, Credentials, validate_base_url};
use super::plan::Planned;
use super::query::{
    ClubQuery, Page, RequestFilter, RequestSortKey, Sort, club_list_query, levels_query,
    request_list_query,
};
use super::seen::Who;
pub use super::seen::{Link, Reply};

/// Largest response body read, in bytes (8 MiB). A larger body is refused with
/// [`ApiError::Decode`] instead of filling memory.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// An answer read whole, before its envelope is read.
struct RawAnswer {
    status: u16,
    /// The answer said its body is JSON (`Content-Type`).
    json_labelled: bool,
    body: Vec<u8>,
}

/// What an answer, or its absence, says about the server's load
/// ([`super::limit::Signal`]).
fn load_signal(raw: &Result<RawAnswer, ApiError>) -> super::limit::Signal {
    use super::limit::Signal;
    match raw {
        Ok(a) if a.status >= 500 => Signal::Overloaded,
        // A refusal is answered before the work, often at once: no measure of the server's
        // load; nor is a connection that could not be made.
        Ok(a) if (400..500).contains(&a.status) => Signal::Neutral,
        Ok(_) => Signal::Answered,
        Err(ApiError::Timeout { .. }) => Signal::Overloaded,
        Err(ApiError::Connect { .. }) => Signal::Neutral,
        Err(_) => Signal::Answered,
    }
}

/// The store of listing answers the sessions of one process share
/// ([`super::shared_listing`]): a listing page as this client reads it.
pub type SharedListing = super::shared_listing::SharedListing<Reply<Vec<ClubRequest>>>;

/// The API client: the only code in the project that knows HTTP.
///
/// Cheap to clone (shared connection pool and shared token). Every method maps a
/// non-success answer to an [`ApiError`] class; none panics on any body.
#[derive(Clone)]
pub struct ApiClient {
    http: reqwest::Client,
    /// The base URL without a trailing slash (what [`super::plan`] builds URLs on).
    pub(super) base: String,
    /// The API key, shared by clones and by every client [`ApiClient::for_session`] made:
    /// replaced for all of them at once ([`ApiClient::replace_api_key`]).
    api_key: Arc<RwLock<Option<SecretString>>>,
    token: Arc<RwLock<Option<SecretString>>>,
    options: ClientOptions,
    limiter: super::limit::Limiter,
    /// The host's budget for this server, shared by clones; `None` when off.
    budget: Option<super::budget::HostBudget>,
    /// The store of listing answers shared with the other sessions of this process
    /// ([`super::shared_listing`]); `None` for a client of its own, and for a read tried once.
    shared_listing: Option<SharedListing>,
    /// The e-mail of the account the token in use belongs to, as the server last said
    /// ([`ApiClient::signed_in`]); shared with the token slot's clones.
    who: Arc<RwLock<Who>>,
    /// The last answer from the server, or its absence ([`ApiClient::link`]); shared by
    /// every clone and session of this client.
    link: Arc<RwLock<Option<Link>>>,
    /// Where the calls run when not in the caller's task ([`ApiClient::calls_on_own_thread`]);
    /// shared by clones and sessions.
    call_thread: Option<super::call_thread::CallThread>,
}

impl fmt::Debug for ApiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiClient")
            .field("base", &self.base)
            .field("api_key", &"[redacted]")
            .field("token", &self.has_token().then_some("[redacted]"))
            .field("options", &self.options)
            .finish()
    }
}

impl ApiClient {
    fn send_planned(&self, plan: Planned) -> RequestBuilder {
        let method = Method::from_bytes(plan.method.as_bytes()).unwrap_or(Method::GET);
        let path = plan
            .url
            .strip_prefix(&self.base)
            .unwrap_or(&plan.url)
            .to_owned();
        let rb = self.request(method, &path);
        match plan.body {
            Some(b) => rb.json(&b),
            None => rb,
        }
    }

    /// Builds a client for `base_url` (validated by [`validate_base_url`]).
    ///
    /// Errors: [`ApiError::Config`] for a bad URL or a TLS set-up failure.
    pub fn new(
        base_url: &str,
        credentials: Credentials,
        options: ClientOptions,
    ) -> Result<Self, ApiError> {
        let url = validate_base_url(base_url, options.allow_insecure_http)?;
        for (what, secret) in [
            ("API key", &credentials.api_key),
            ("token", &credentials.token),
        ] {
            if let Some(s) = secret
                && reqwest::header::HeaderValue::from_str(s.expose_secret()).is_err()
            {
                return Err(ApiError::Config(format!(
                    "the {what} has characters an HTTP header cannot carry (check for a stray newline or quote)"
                )));
            }
        }
        let http = reqwest::Client::builder()
            .connect_timeout(options.connect_timeout)
            .timeout(options.request_timeout)
            .user_agent(concat!("club-admin/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ApiError::Config(format!("could not build the HTTP client: {e}")))?;
        Ok(ApiClient {
            http,
            base: url.as_str().trim_end_matches('/').to_owned(),
            api_key: Arc::new(RwLock::new(credentials.api_key)),
            token: Arc::new(RwLock::new(credentials.token)),
            limiter: if options.fixed_concurrency {
                super::limit::Limiter::fixed(options.concurrency)
            } else {
                super::limit::Limiter::new(options.concurrency)
            },
            budget: options
                .host_budget
                .as_ref()
                .map(|b| super::budget::HostBudget::open(url.as_str(), b)),
            options,
            shared_listing: None,
            who: Arc::default(),
            link: Arc::default(),
            call_thread: None,
        })
    }

    /// A client for another user of the same process (a `serve-ssh` session): the same
    /// server, API key, HTTP connection pool and [`Limiter`](super::limit::Limiter) (the
    /// `--concurrency` ceiling holds for the whole process), with a token slot of its own,
    /// empty. Its clones share that slot; this client's token is untouched.
    pub fn for_session(&self) -> ApiClient {
        ApiClient {
            http: self.http.clone(),
            base: self.base.clone(),
            api_key: self.api_key.clone(),
            token: Arc::new(RwLock::new(None)),
            limiter: self.limiter.clone(),
            budget: self.budget.clone(),
            options: self.options.clone(),
            shared_listing: self.shared_listing.clone(),
            who: Arc::default(),
            link: self.link.clone(),
            call_thread: self.call_thread.clone(),
        }
    }

    /// This client, its calls (the wait for room under the limiter, the host budget's slot,
    /// the request and the reading of its answer) run on a runtime of a thread of its own
    /// ([`super::call_thread`]), shared by its clones and by every client made from it by
    /// [`ApiClient::for_session`]: for `serve-ssh`, whose sessions' drawing would otherwise
    /// count in the answers' times the limiter judges the service by. The thread ends when
    /// the last of them is dropped.
    ///
    /// Errors: the thread could not be started: [`ApiError::Config`].
    pub fn calls_on_own_thread(mut self) -> Result<ApiClient, ApiError> {
        let thread = super::call_thread::CallThread::start("api-calls")
            .map_err(|e| ApiError::Config(format!("could not start the calls' thread: {e}")))?;
        self.call_thread = Some(thread);
        Ok(self)
    }

    /// This client, its listing reads shared through `store` with every client made from it
    /// by [`ApiClient::for_session`] (the sessions of one `serve-ssh`): a
    /// listing read another session sent a moment ago, or has in flight, answers this one
    /// ([`super::shared_listing`] says when).
    pub fn sharing_listing(mut self, store: SharedListing) -> ApiClient {
        self.shared_listing = Some(store);
        self
    }

    /// The store of shared listing answers, when this client shares ([`ApiClient::sharing_listing`]).
    pub fn shared_listing(&self) -> Option<&SharedListing> {
        self.shared_listing.as_ref()
    }

    /// Replaces the API key of this client, its clones and every client made from it by
    /// [`ApiClient::for_session`] (the operator rewrote the key file: `serve-ssh` reads it
    /// again).
    ///
    /// Errors: a key an HTTP header cannot carry ([`ApiError::Config`]); the key in use is
    /// kept.
    pub fn replace_api_key(&self, key: SecretString) -> Result<(), ApiError> {
        if reqwest::header::HeaderValue::from_str(key.expose_secret()).is_err() {
            return Err(ApiError::Config(
                "the API key has characters an HTTP header cannot carry (check for a stray newline or quote)".into(),
            ));
        }
        if let Ok(mut k) = self.api_key.write() {
            *k = Some(key);
        }
        Ok(())
    }

    /// The validated base URL, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// Where a user signs in to get a token: `{base_url}/auth/oauth/init` (api-notes.md).
    pub fn sign_in_url(&self) -> String {
        format!("{}/auth/oauth/init", self.base)
    }

    /// Replaces the bearer token (after a sign-in); `None` forgets it. Shared by clones.
    pub fn set_token(&self, token: Option<SecretString>) {
        if let Ok(mut who) = self.who.write() {
            who.take(token.as_ref());
        }
        if let Ok(mut slot) = self.token.write() {
            *slot = token;
        }
    }

    /// The e-mail of the account signed in with this client's token, as the server last
    /// said (`GET /auth/user`, or the check of the token taken); `None` without a token or
    /// before the server said. No secret.
    pub fn signed_in(&self) -> Option<String> {
        self.who.read().ok().and_then(|w| w.email.clone())
    }

    /// What the last call of this client (or of any session made from it) said about the
    /// link to the server; `None` before the first call ended.
    pub fn link(&self) -> Option<Link> {
        self.link.read().ok().and_then(|l| *l)
    }

    /// True when a bearer token is set.
    pub fn has_token(&self) -> bool {
        self.token.read().map(|t| t.is_some()).unwrap_or(false)
    }

    /// The token's expiry read from its `exp` claim, if it is a JWT.
    pub fn token_expiry(&self) -> Option<super::models::Timestamp> {
        let guard = self.token.read().ok()?;
        guard
            .as_ref()
            .and_then(|t| super::token::jwt_expiry(t.expose_secret()))
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let mut rb = self
            .http
            .request(method, format!("{}{}", self.base, path))
            .header(reqwest::header::ACCEPT, "application/json");
        // Marked sensitive, so that no Debug output or trace log of the HTTP stack shows them.
        let secret = |text: &str| {
            reqwest::header::HeaderValue::from_str(text).map(|mut v| {
                v.set_sensitive(true);
                v
            })
        };
        if let Ok(guard) = self.api_key.read()
            && let Some(key) = guard.as_ref()
            && let Ok(v) = secret(key.expose_secret())
        {
            rb = rb.header("X-Api-Key", v);
        }
        if let Ok(guard) = self.token.read()
            && let Some(token) = guard.as_ref()
            && let Ok(v) = secret(&format!("Bearer {}", token.expose_secret()))
        {
            rb = rb.header(reqwest::header::AUTHORIZATION, v);
        }
        rb
    }

    fn map_transport(&self, e: reqwest::Error) -> ApiError {
        if e.is_timeout() {
            return ApiError::timeout(self.options.request_timeout.as_millis() as u64);
        }
        let host = e
            .url()
            .and_then(|u| {
                u.host_str()
                    .map(|h| format!("{h}:{}", u.port_or_known_default().unwrap_or(0)))
            })
            .unwrap_or_else(|| "the server".into());
        let failure = if e.is_connect() {
            ConnectFailure::NoConnection
        } else if e.is_body() || e.is_decode() {
            ConnectFailure::ClosedMidAnswer
        } else {
            ConnectFailure::ClosedWithoutAnswer
        };
        let mut cause = String::new();
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            cause = s.to_string();
            src = s.source();
        }
        let cause = crate::text::truncate_chars(&crate::text::sanitize(&cause), 120);
        ApiError::Connect {
            failure,
            host,
            cause: (!cause.is_empty()).then_some(cause),
        }
    }

    /// The shared limit of calls in flight to this server (clones share it).
    pub fn limiter(&self) -> &super::limit::Limiter {
        &self.limiter
    }

    /// The host budget's status ([`super::budget::BudgetStatus`]: what of it was refused,
    /// whether calls go one at a time), sent at every change; `None` when the budget is off
    /// (`--host-budget 0`). Clones (and [`ApiClient::for_session`]) share one budget.
    pub fn watch_budget(
        &self,
    ) -> Option<tokio::sync::watch::Receiver<super::budget::BudgetStatus>> {
        self.budget.as_ref().map(super::budget::HostBudget::watch)
    }

    /// Sends one request under the limiter (a write before waiting reads), tells the
    /// limiter what its answer says about the server's load, and reads the answer's
    /// envelope (`data` may be null). On a client whose calls run on a thread of their own
    /// ([`ApiClient::calls_on_own_thread`]) all but the reading of the envelope runs there.
    async fn exchange<T: DeserializeOwned>(
        &self,
        rb: RequestBuilder,
    ) -> Result<Reply<Option<T>>, ApiError> {
        use super::call_thread::Lost;
        let req = rb.build().map_err(|e| self.map_transport(e))?;
        let raw = match &self.call_thread {
            None => self.send_limited(req).await,
            Some(thread) => {
                let me = self.clone();
                match thread.run(async move { me.send_limited(req).await }).await {
                    Ok(raw) => raw,
                    Err(Lost::Panicked) => Err(ApiError::Internal),
                    Err(Lost::Cancelled) => {
                        Err(ApiError::NoAnswer(super::error::why::CALLS_ENDED.into()))
                    }
                }
            }
        };
        let result = raw.and_then(|raw| self.read_envelope(raw));
        Link::record(&self.link, &result);
        result
    }

    /// Sends once under the limiter and the host budget and reads the answer's bytes: from
    /// the permit to the last byte is the answer's time the limiter judges the server by.
    async fn send_limited(&self, req: reqwest::Request) -> Result<RawAnswer, ApiError> {
        let write = req.method() != Method::GET;
        let permit = self.limiter.acquire(write).await;
        // The host's budget is held from just before the call until its answer is read (a
        // wait for it counts in the answer's time: a busy host slows this process's growth).
        let slot = match &self.budget {
            Some(b) => Some(b.acquire().await),
            None => None,
        };
        let raw = self.send_now(req).await;
        drop(slot);
        permit.done(load_signal(&raw));
        raw
    }

    /// Sends once and reads the answer's bytes (at most [`MAX_BODY_BYTES`]).
    async fn send_now(&self, req: reqwest::Request) -> Result<RawAnswer, ApiError> {
        let mut resp = self
            .http
            .execute(req)
            .await
            .map_err(|e| self.map_transport(e))?;
        let status = resp.status().as_u16();
        let json_labelled = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.to_ascii_lowercase().contains("json"));
        let mut body: Vec<u8> = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    if body.len() + chunk.len() > MAX_BODY_BYTES {
                        return Err(ApiError::Decode {
                            status: Some(status),
                            message: format!(
                                "the answer is larger than {} MiB",
                                MAX_BODY_BYTES / (1024 * 1024)
                            ),
                            excerpt: None,
                        });
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) => return Err(self.map_transport(e)),
            }
        }
        Ok(RawAnswer {
            status,
            json_labelled,
            body,
        })
    }

    /// The envelope of an answer read whole; `data` may be null.
    fn read_envelope<T: DeserializeOwned>(
        &self,
        raw: RawAnswer,
    ) -> Result<Reply<Option<T>>, ApiError> {
        let RawAnswer {
            status,
            json_labelled,
            body,
        } = raw;
        if !(200..300).contains(&status) {
            return Err(self.key_refused(ApiError::from_response(status, &body)));
        }
        if super::models::not_the_service(&body, json_labelled) {
            return Err(ApiError::NotTheService {
                status: Some(status),
                excerpt: (!body.is_empty()).then(|| excerpt(&body)),
            });
        }
        let env: Envelope<T> = serde_json::from_slice(&body).map_err(|e| ApiError::Decode {
            status: Some(status),
            message: e.to_string(),
            excerpt: (!body.is_empty()).then(|| excerpt(&body)),
        })?;
        if env.error.is_some() {
            return Err(self.key_refused(ApiError::from_response(status, &body)));
        }
        Ok(Reply {
            data: env.data,
            api_version: env.api_version,
            meta: env.meta,
        })
    }

    /// The deployed service answers a key it does not know (unknown, revoked, expired) with
    /// 401 `missing_api_key` "Missing API Key", as if none had been sent (its key extractor,
    /// api-notes.md "Authentication": a missing or unknown key is 401). When this client sent
    /// a key, that answer is the key refused ([`AuthErrorKind::InvalidKey`](super::AuthErrorKind)),
    /// not a key missing.
    fn key_refused(&self, e: ApiError) -> ApiError {
        match e {
            ApiError::Unauthorized {
                kind: super::error::AuthErrorKind::MissingKey,
                info,
            } if self.api_key.read().is_ok_and(|k| k.is_some()) => ApiError::Unauthorized {
                kind: super::error::AuthErrorKind::InvalidKey,
                info,
            },
            e => e,
        }
    }

    fn require<T>(reply: Reply<Option<T>>) -> Result<Reply<T>, ApiError> {
        match reply.data {
            Some(data) => Ok(Reply {
                data,
                api_version: reply.api_version,
                meta: reply.meta,
            }),
            None => Err(ApiError::Decode {
                status: Some(200),
                message: "the answer's data was null".into(),
                excerpt: None,
            }),
        }
    }

    /// The same client (key, token, limit of calls in flight and host budget shared) whose
    /// GETs are tried once: for a caller that tries reads again by its own rule
    /// (`ops::run::with_tries`), so that a read is retried by one policy, never by two
    /// nested ones.
    pub fn single_try(&self) -> ApiClient {
        let mut c = self.clone();
        c.options.get_retries = 0;
        // A read tried once asks the server now: never reuses another session's answer.
        c.shared_listing = None;
        c
    }

    /// A GET with retries (jittered exponential backoff, `get_retries` times) on transient
    /// failures; none for a [`ApiClient::single_try`] client. Each try has the whole
    /// `request_timeout`; a read that timed out after more than one try says so, with the
    /// time all of them took ([`ApiError::after_tries`]).
    async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(String, String)],
    ) -> Result<Reply<T>, ApiError> {
        let started = tokio::time::Instant::now();
        let tries = std::sync::atomic::AtomicU32::new(0);
        let attempt = || async {
            tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let reply = self
                .exchange::<T>(self.request(Method::GET, path).query(query))
                .await?;
            Self::require(reply)
        };
        let backoff = ExponentialBuilder::default()
            .with_min_delay(self.options.retry_base_delay)
            .with_max_delay(self.options.retry_base_delay * 8)
            .with_max_times(self.options.get_retries)
            .with_jitter();
        attempt
            .retry(backoff)
            .when(ApiError::is_transient)
            .notify(|e, wait| tracing::debug!(error = %e, ?wait, "retrying GET {path}"))
            .await
            .map_err(|e| {
                e.after_tries(
                    tries.load(std::sync::atomic::Ordering::Relaxed),
                    started.elapsed(),
                )
            })
    }

    /// `GET /health-check` (no credentials needed; api-notes.md "Other"): `data` is
    /// `{server_time, database_connection, database_response_time}`, kept as JSON; the
    /// reply's `api_version` is the service's version.
    ///
    /// Errors: as any read (`Connect`, `Timeout`, 5xx, not the service's envelope).
    pub async fn health(&self) -> Result<Reply<serde_json::Value>, ApiError> {
        self.get("/health-check", &[])
            .await
            .map_err(not_the_service)
    }

    /// Operation 1 (interface-spec.md): `GET /auth/user`, the signed-in user.
    ///
    /// Needs the key and the token. Errors: `Unauthorized` (missing/invalid key or token).
    pub async fn current_user(&self) -> Result<Reply<User>, ApiError> {
        let r: Result<Reply<User>, ApiError> =
            self.get("/auth/user", &[]).await.map_err(not_the_service);
        if let (Ok(reply), Ok(mut who)) = (&r, self.who.write()) {
            who.email = reply.data.email.clone();
        }
        r
    }

    /// Operation 1 with a candidate token instead of the one in use (which is left as it
    /// is): checks a pasted token before it replaces a working session.
    ///
    /// Errors: as [`ApiClient::current_user`]; `Unauthorized` when the token is refused.
    pub async fn current_user_with(&self, token: &SecretString) -> Result<Reply<User>, ApiError> {
        let mut probe = self.clone();
        probe.token = Arc::new(RwLock::new(Some(token.clone())));
        probe.who = Arc::default();
        let r = probe.current_user().await;
        // The e-mail is this client's once the token is taken ([`ApiClient::set_token`]).
        if let (Ok(reply), Ok(mut who)) = (&r, self.who.write()) {
            who.checked = Some((token.clone(), reply.data.email.clone()));
        }
        r
    }

    /// Operation 4: `GET /v1/clubs/{id}` at `levels` (query parameters).
    ///
    /// Errors: `NotFound` for an unknown club, `Invalid` for a level the server rejects.
    pub async fn club(&self, id: Uuid, levels: Levels) -> Result<Reply<Club>, ApiError> {
        self.get(&format!("/v1/clubs/{id}"), &levels_query(levels))
            .await
    }

    /// Operation 2: `POST /v1/clubs/{club_id}/contacts` with body
    /// `{"data":{"type","value"},"fetch_level","descendant_fetch_level"}`; returns the new
    /// contact. Never retried.
    ///
    /// Errors: `Forbidden` (not staff of the club), `Invalid` (duplicate value, bad type),
    /// `NotFound` (unknown club).
    pub async fn create_club_contact(
        &self,
        club_id: Uuid,
        new_contact: &NewContact,
        levels: Levels,
    ) -> Result<Reply<Contact>, ApiError> {
        let rb = self.send_planned(self.plan_new_contact(club_id, new_contact, levels));
        let answer = self.exchange(rb).await;
        self.wrote();
        Self::require(answer?)
    }

    /// A write ended, answered or not (a lost answer may have landed): it may have changed
    /// what a listing says, so no listing answer read before it serves a read asked after
    /// ([`super::shared_listing::SharedListing::write_answered`]).
    fn wrote(&self) {
        if let Some(store) = &self.shared_listing {
            store.write_answered();
        }
    }

    /// Operation 5: `GET /v1/clubs/requests/{id}` at `levels`.
    ///
    /// Errors: `NotFound` (unknown or deleted request), `Forbidden` (a student asking for
    /// `default` students outside their classroom, api-notes.md).
    pub async fn club_request(
        &self,
        id: Uuid,
        levels: Levels,
    ) -> Result<Reply<ClubRequest>, ApiError> {
        self.get(&format!("/v1/clubs/requests/{id}"), &levels_query(levels))
            .await
    }

    /// Operation 3: `PUT /v1/clubs/requests/{id}` with `{"data":{"status"},...levels}`;
    /// returns the updated request. Never retried (a lost answer is resolved by re-reading).
    ///
    /// Errors: `Forbidden` (not staff, or no longer pending: "Club request has already been
    /// approved"), `Invalid` (`pending` as the new status), `NotFound`,
    /// `OperationUnavailable` (a server without this operation).
    pub async fn update_club_request(
        &self,
        id: Uuid,
        status: &MembershipStatus,
        levels: Levels,
    ) -> Result<Reply<ClubRequest>, ApiError> {
        let answer = self.put_status(id, status, levels).await;
        self.wrote();
        answer
    }

    /// Operation 3 as sent, for a decision and for the probe (which changes nothing).
    async fn put_status(
        &self,
        id: Uuid,
        status: &MembershipStatus,
        levels: Levels,
    ) -> Result<Reply<ClubRequest>, ApiError> {
        let rb = self.send_planned(self.plan_update(id, status, levels));
        Self::require(self.exchange(rb).await?)
    }

    /// Finds out, without side effects, whether approve and decline exist on this server:
    /// sends operation 3, `PUT /v1/clubs/requests/00000000-0000-0000-0000-000000000000`
    /// with `{"data":{"status":"approved"},"fetch_level":"id_only","descendant_fetch_level":"id_only"}`.
    /// No request has the nil UUID, so nothing changes; the answer is classified by
    /// [`classify_update_probe`](super::route_probe::classify_update_probe): 404 "Route not
    /// found" (0.9.0) → `Missing`; 404 for the id (0.8.x) → `Present`; 403 "User is not a
    /// student" → `RoleRefused`. One call, never retried.
    ///
    /// Errors: 401 (`Unauthorized`: the probe needs the key and the token), 5xx, `Timeout`,
    /// `Connect`, and a 404 that is not the service's JSON: the answer is then unknown.
    ///
    /// A client that shares the listing's store ([`ApiClient::sharing_listing`]) asks the
    /// server once: a route another session's probe found present is answered from the
    /// store (missing, or refused to a role, is asked each time).
    pub async fn probe_update_route(&self) -> Result<super::route_probe::UpdateRoute, ApiError> {
        use super::route_probe::UpdateRoute;
        if self
            .shared_listing
            .as_ref()
            .is_some_and(|s| s.route_present())
        {
            return Ok(UpdateRoute::Present);
        }
        let route = super::route_probe::classify_update_probe(
            self.put_status(
                super::route_probe::PROBE_ID,
                &MembershipStatus::Approved,
                Levels::ID_ONLY,
            )
            .await,
        );
        // The route present is kept for the other sessions; a role's refusal is this
        // account's own, and a route missing is asked again (a proxy's 405 during a deploy
        // must not turn approve off for every later session).
        if let (Some(store), Ok(UpdateRoute::Present)) = (&self.shared_listing, &route) {
            store.learned_route_present();
        }
        route
    }

    /// Operation 6: `DELETE /v1/clubs/requests/{id}`; success is 200 with `data: null`.
    /// Never retried.
    ///
    /// Errors: `Forbidden`, `NotFound`.
    pub async fn delete_club_request(&self, id: Uuid) -> Result<Reply<()>, ApiError> {
        let rb = self.send_planned(self.plan_delete(id));
        let answer = self.exchange::<serde_json::Value>(rb).await;
        self.wrote();
        let reply = answer?;
        Ok(Reply {
            data: (),
            api_version: reply.api_version,
            meta: reply.meta,
        })
    }

    /// Deployed listing (api-notes.md, not in the interface): `GET /v1/clubs/requests` with
    /// the bracket query syntax. `meta.pagination` tells the pages.
    ///
    /// Errors: `OperationUnavailable` or `NotFound` on a server without listing (fall back to
    /// request ids), `Invalid` for a filter the server rejects.
    pub async fn list_club_requests(
        &self,
        filter: &RequestFilter,
        sort: &Sort<RequestSortKey>,
        page: Page,
        levels: Levels,
    ) -> Result<Reply<Vec<ClubRequest>>, ApiError> {
        let q = request_list_query(filter, sort, page, levels);
        const PATH: &str = "/v1/clubs/requests";
        // A student asking for `default` students outside its classroom is refused the whole
        // answer (api-notes.md): above `compact` below, an answer depends on who asks and
        // is never shared.
        let shareable = matches!(
            levels.descendant_fetch_level,
            FetchLevel::IdOnly | FetchLevel::Compact
        );
        match &self.shared_listing {
            Some(store) if shareable => {
                let key = format!(
                    "{PATH}?{}",
                    q.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join("&")
                );
                store.read(key, async || self.get(PATH, &q).await).await
            }
            _ => self.get(PATH, &q).await,
        }
    }

    /// Deployed listing of clubs: `GET /v1/clubs` with `filter[q]` or `filter[data]`.
    ///
    /// Errors: as [`ApiClient::list_club_requests`].
    pub async fn search_clubs(
        &self,
        query: &ClubQuery,
        page: Page,
        levels: Levels,
    ) -> Result<Reply<Vec<Club>>, ApiError> {
        let q = club_list_query(query, page, levels);
        self.get("/v1/clubs", &q).await
    }
}
