//! Errors of the API client, classed so that a user interface can act on them.

use thiserror::Error;

/// The 403 detail with which the deployed 0.8.x service refuses approve and decline to a
/// caller who is not a student; see [`ApiError::is_role_refusal`].
pub const ROLE_REFUSAL_DETAIL: &str = "User is not a student";

/// [`ApiError::Timeout`]'s English words (its `Display`).
fn timeout_english(millis: u64, tries: u32, spent_millis: u64) -> String {
    let secs = |ms: u64| format!("{:.1}", ms as f64 / 1000.0);
    if tries > 1 {
        format!(
            "no answer in {} s: {tries} tries, the last timed out after {} s",
            secs(spent_millis),
            secs(millis)
        )
    } else {
        format!("timed out after {} s", secs(millis))
    }
}

/// What was known about a failed HTTP exchange.
///
/// `status` is the HTTP status (absent for transport failures). `error_type`, `detail` and
/// `error_id` come from a JSON error body (api-notes.md, "Errors"); `excerpt` holds a
/// sanitised, length-limited start of a body that was not JSON (text/plain 404, a proxy's
/// HTML page).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ErrorInfo {
    /// HTTP status code, when a response arrived.
    pub status: Option<u16>,
    /// The server's `error.error_type`, e.g. `invalid_permission`.
    pub error_type: Option<String>,
    /// The server's `error.detail`: human text to show.
    pub detail: Option<String>,
    /// The server's `error.id` (a UUID per occurrence).
    pub error_id: Option<String>,
    /// Start of a non-JSON body, control characters removed, at most 200 characters.
    pub excerpt: Option<String>,
}

impl ErrorInfo {
    /// The most useful human text: the server's `detail`, else the body excerpt, else the
    /// status, else an empty string.
    pub fn message(&self) -> String {
        if let Some(d) = self.detail.as_deref().filter(|d| !d.trim().is_empty()) {
            return crate::text::sanitize(d);
        }
        if let Some(e) = self.excerpt.as_deref().filter(|d| !d.trim().is_empty()) {
            return e.to_owned();
        }
        match self.status {
            Some(s) => format!("HTTP {s}"),
            None => String::new(),
        }
    }

    /// `: {detail} (HTTP {status})`: the reason first (it is what the moderator reads),
    /// then the status. The error id is left to the log and the activity pane
    /// ([`ApiError::error_id`]). No words: the same in every language.
    pub(super) fn suffix(&self) -> String {
        let mut out = String::new();
        let msg = self.message();
        if !msg.is_empty() && !msg.starts_with("HTTP ") {
            out.push_str(": ");
            out.push_str(&msg);
        }
        if let Some(s) = self.status {
            out.push_str(&format!(" (HTTP {s})"));
        }
        out
    }
}

/// Why a request was refused with 401 (api-notes.md, `error_type` of 401 answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthErrorKind {
    /// `missing_api_key` when no `X-Api-Key` was sent.
    MissingKey,
    /// The key was refused: unknown, revoked or expired. `invalid_api_key`, or the deployed
    /// service's `missing_api_key` to a key that was sent (the client tells them apart: it
    /// knows whether it sent one).
    InvalidKey,
    /// `missing_token` (or `invalid_authorization_scheme`): no usable bearer token.
    MissingToken,
    /// `invalid_token`: the token is invalid or expired; sign in again.
    InvalidToken,
    /// A 401 with no recognised `error_type`.
    Unknown,
}

impl AuthErrorKind {
    /// Classifies an `error_type` text.
    pub fn from_error_type(t: Option<&str>) -> Self {
        match t {
            Some("missing_api_key") => AuthErrorKind::MissingKey,
            Some("invalid_api_key") => AuthErrorKind::InvalidKey,
            Some("missing_token") | Some("invalid_authorization_scheme") => {
                AuthErrorKind::MissingToken
            }
            Some("invalid_token") => AuthErrorKind::InvalidToken,
            _ => AuthErrorKind::Unknown,
        }
    }

    /// Short human description.
    pub fn describe(self) -> &'static str {
        match self {
            AuthErrorKind::MissingKey => "no API key was sent",
            AuthErrorKind::InvalidKey => {
                "the API key was refused (unknown, revoked or expired): whoever set it up (over SSH, the server's operator) must put in a new one"
            }
            AuthErrorKind::MissingToken => "this needs a sign-in token",
            AuthErrorKind::InvalidToken => "session expired or token invalid: sign in again",
            AuthErrorKind::Unknown => "not authorised",
        }
    }

    /// True when signing in again (a new bearer token) can fix it.
    pub fn needs_sign_in(self) -> bool {
        matches!(
            self,
            AuthErrorKind::MissingToken | AuthErrorKind::InvalidToken | AuthErrorKind::Unknown
        )
    }
}

/// A failed API call.
///
/// Every variant that comes from an HTTP answer carries its [`ErrorInfo`]. `Display` never
/// contains the API key or the bearer token: they travel in headers, which are not part of any
/// message.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum ApiError {
    /// 401: see [`AuthErrorKind`].
    #[error("unauthorised: {}{}", kind.describe(), info.suffix())]
    Unauthorized {
        /// Which 401 it is (`error_type`): missing or invalid key, token, scheme.
        kind: AuthErrorKind,
        /// The answer.
        info: ErrorInfo,
    },
    /// 403 `invalid_permission`: not allowed, or the request is no longer pending.
    #[error("refused{}", .0.suffix())]
    Forbidden(ErrorInfo),
    /// 404 for an unknown id (JSON `entity_not_found`, or text/plain for a malformed path).
    #[error("not found{}", .0.suffix())]
    NotFound(ErrorInfo),
    /// 404 "Route not found": this server does not have the operation at all.
    #[error("this server does not offer that operation{}", .0.suffix())]
    OperationUnavailable(ErrorInfo),
    /// 400 `invalid_request` (bad JSON, bad enum, duplicate contact value, ...).
    #[error("invalid request{}", .0.suffix())]
    Invalid(ErrorInfo),
    /// 409 `conflicted`.
    #[error("conflict{}", .0.suffix())]
    Conflict(ErrorInfo),
    /// 5xx, or any other unexpected status.
    #[error("server error{}", .0.suffix())]
    Server(ErrorInfo),
    /// No complete answer within the configured time (`--timeout`, which bounds each try of
    /// a call): "timed out after 5.0 s"; a read tried again says every try and the time they
    /// took together, "no answer in 16.2 s: 3 tries, the last timed out after 5.0 s"
    /// ([`ApiError::after_tries`]). Made by [`ApiError::timeout`].
    #[error("{}", timeout_english(*millis, *tries, *spent_millis))]
    Timeout {
        /// The limit the last try hit, in milliseconds.
        millis: u64,
        /// The tries of this call, 1 unless a read was tried again.
        tries: u32,
        /// From the start of the first try to the end of the last, waits between them
        /// included, in milliseconds (`millis` for one try).
        spent_millis: u64,
    },
    /// Could not connect, or the connection closed without (a whole) response.
    #[error("connection failed: {}{}", failure.english(host), cause.as_ref().map(|c| format!(" ({c})")).unwrap_or_default())]
    Connect {
        /// What happened.
        failure: ConnectFailure,
        /// `host:port` of the server ("the server" when the URL was not known).
        host: String,
        /// What the transport said, sanitised, at most 120 characters (no secrets: headers
        /// are never included).
        cause: Option<String>,
    },
    /// A 2xx answer whose body was not the expected JSON (or was too large).
    #[error("unreadable answer{}: {message}{}", status.map(|s| format!(" (HTTP {s})")).unwrap_or_default(), excerpt.as_ref().map(|e| format!(" [{e}]")).unwrap_or_default())]
    Decode {
        /// HTTP status of the answer.
        status: Option<u16>,
        /// What the parser said.
        message: String,
        /// Sanitised start of the body.
        excerpt: Option<String>,
    },
    /// The client could not be built or the request not formed (bad base URL, bad header).
    #[error("configuration error: {0}")]
    Config(String),
    /// A 2xx answer that is not the service's envelope (interface-spec.md, "Response
    /// envelope": every response carries `api_version`, a string, and `data`), or an answer
    /// to the current user's read without the service's error envelope (a web server's 404
    /// page): the base URL names another server (a web page, another API, a captive portal).
    #[error("this server is not the club service: its answer{} is not the service's (no api_version and data): check the base URL{}", status.map(|s| format!(" (HTTP {s})")).unwrap_or_default(), excerpt.as_ref().map(|e| format!(" [{e}]")).unwrap_or_default())]
    NotTheService {
        /// HTTP status of the answer.
        status: Option<u16>,
        /// Sanitised start of the body.
        excerpt: Option<String>,
    },
    /// The client failed internally (its task panicked: a bug): no answer was made, and
    /// whether a write was sent is not known, so a write's answer counts as lost.
    #[error("the client failed internally")]
    Internal,
    /// A write that never left this process (its audit line could not be written first, or
    /// the run stopped before it was sent: a hang-up): nothing reached the server. The words
    /// say why.
    #[error("not sent: {0}")]
    NotSent(String),
    /// No answer was waited for: the process stopped waiting for a write it had sent (a
    /// second Ctrl-C, a quit), or ended before its answer (an interrupted run, settled at the
    /// next start). Whether the write was applied is unknown: it counts as lost.
    #[error("no answer: {0}")]
    NoAnswer(String),
}

/// The kind of a failed call, as [`ApiError::class`] sorts the variants: what the failure
/// means for a write ([`ErrorClass::write_lost`]), for the connection
/// ([`ErrorClass::offline`]) and for a read (a `Refused` read gets the same answer again;
/// the dashboard's first load tries a `ServerFault` again by itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// The server answered no (a 4xx), or the client could not form the call: nothing
    /// changed, and the same call gets the same answer.
    Refused,
    /// No connection could be made (refused, unreachable, DNS, TLS): the call never left.
    NotConnected,
    /// The call left but no whole answer came back (a timeout, a connection closed).
    Unanswered,
    /// The server answered with a fault (5xx) or with an answer that could not be read.
    ServerFault,
    /// What answered is not the club service (the base URL names another server).
    NotTheService,
    /// A write this program kept from leaving ([`ApiError::NotSent`]).
    NotSent,
    /// No answer will come and what happened is unknown: the program stopped waiting, or
    /// the client failed internally.
    Unknown,
}

impl ErrorClass {
    /// For a write: true when it may have reached the server although no answer says so
    /// (a 5xx may come after the commit, api-notes.md "Errors"): its answer is lost and a
    /// re-read settles it. False when the write surely changed nothing.
    pub fn write_lost(self) -> bool {
        matches!(
            self,
            ErrorClass::Unanswered
                | ErrorClass::ServerFault
                | ErrorClass::NotTheService
                | ErrorClass::Unknown
        )
    }

    /// For the connection: true when the server could not be reached (no connection, or no
    /// answer in time); any answer, even a refusal, says it is online.
    pub fn offline(self) -> bool {
        matches!(self, ErrorClass::NotConnected | ErrorClass::Unanswered)
    }
}

/// How a connection failed ([`ApiError::Connect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectFailure {
    /// No connection could be made (refused, unreachable, DNS, TLS).
    NoConnection,
    /// The connection closed before any answer.
    ClosedWithoutAnswer,
    /// The connection closed in the middle of the answer.
    ClosedMidAnswer,
}

impl ConnectFailure {
    /// English words, with the server's `host`: "could not connect to 127.0.0.1:9".
    pub fn english(self, host: &str) -> String {
        match self {
            ConnectFailure::NoConnection => format!("could not connect to {host}"),
            ConnectFailure::ClosedWithoutAnswer => {
                format!("the connection to {host} closed without an answer")
            }
            ConnectFailure::ClosedMidAnswer => {
                format!("the connection to {host} closed in the middle of the answer")
            }
        }
    }
}

impl ApiError {
    /// The [`ErrorInfo`] of an answer-bearing error.
    pub fn info(&self) -> Option<&ErrorInfo> {
        match self {
            ApiError::Unauthorized { info, .. }
            | ApiError::Forbidden(info)
            | ApiError::NotFound(info)
            | ApiError::OperationUnavailable(info)
            | ApiError::Invalid(info)
            | ApiError::Conflict(info)
            | ApiError::Server(info) => Some(info),
            ApiError::Timeout { .. }
            | ApiError::Connect { .. }
            | ApiError::Decode { .. }
            | ApiError::Config(_)
            | ApiError::NotTheService { .. }
            | ApiError::Internal
            | ApiError::NotSent(_)
            | ApiError::NoAnswer(_) => None,
        }
    }

    /// HTTP status, when a response arrived.
    pub fn status(&self) -> Option<u16> {
        match self {
            ApiError::Decode { status, .. } | ApiError::NotTheService { status, .. } => *status,
            other => other.info().and_then(|i| i.status),
        }
    }

    /// True for a 401 that signing in again can fix.
    pub fn needs_sign_in(&self) -> bool {
        matches!(self, ApiError::Unauthorized { kind, .. } if kind.needs_sign_in())
    }

    /// The error body's `id` (a random UUID per error, api-notes.md), sanitised: for the log
    /// and the activity pane, where a server administrator can look it up.
    pub fn error_id(&self) -> Option<String> {
        self.info()
            .and_then(|i| i.error_id.as_deref())
            .map(crate::text::sanitize)
    }

    /// True when the answer proves the server lacks the operation: 404 with the service's
    /// JSON `detail` "Route not found" (deployed behaviour, api-notes.md). A plain 404 for an
    /// unknown id is [`ApiError::NotFound`], not this.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ApiError::OperationUnavailable(_))
    }

    /// True for the service refusing an operation to the caller's *role*, not to one request:
    /// 403 whose detail contains "not a student" — the deployed 0.8.x text is
    /// [`ROLE_REFUSAL_DETAIL`], "User is not a student", answered to every approve and
    /// decline by a teacher. Not the per-club refusal of a student
    /// moderator ("Student must be a staff member of the club to update club requests"), nor
    /// "Club request has already been approved", nor the generic "Insufficient permissions
    /// to perform this action": those are about one request.
    pub fn is_role_refusal(&self) -> bool {
        matches!(self, ApiError::Forbidden(info) if info
            .detail
            .as_deref()
            .is_some_and(|d| d.to_ascii_lowercase().contains("not a student")))
    }

    /// The status a request already has, when this is the service refusing a decision
    /// because the request is no longer pending: 403 whose detail says "already been
    /// approved" or "already been declined" (deployed behaviour, api-notes.md "Many
    /// moderators at once": another moderator decided it first). `None` for any other error.
    pub fn already_decided(&self) -> Option<crate::api::MembershipStatus> {
        let ApiError::Forbidden(info) = self else {
            return None;
        };
        let d = info.detail.as_deref()?.to_ascii_lowercase();
        if d.contains("already been approved") {
            Some(crate::api::MembershipStatus::Approved)
        } else if d.contains("already been declined") {
            Some(crate::api::MembershipStatus::Declined)
        } else {
            None
        }
    }

    /// One try that hit the limit of `millis` milliseconds.
    pub const fn timeout(millis: u64) -> ApiError {
        ApiError::Timeout {
            millis,
            tries: 1,
            spent_millis: millis,
        }
    }

    /// The last error of a read tried `tries` times in `spent` (the first try's start to the
    /// last's end, waits included): a [`ApiError::Timeout`] records them, so its words say
    /// what the wait really was; any other error, or a single try, is returned as it is.
    /// Called by each loop that tries a read again (the client's own retries of a GET,
    /// `ops::run::with_tries`).
    pub fn after_tries(self, tries: u32, spent: std::time::Duration) -> ApiError {
        match self {
            ApiError::Timeout { millis, .. } if tries > 1 => ApiError::Timeout {
                millis,
                tries,
                spent_millis: u64::try_from(spent.as_millis()).unwrap_or(u64::MAX),
            },
            e => e,
        }
    }

    /// True for failures where the request may never have reached the server or the server
    /// could not answer (transport failures, timeouts, 502/503/504): worth retrying a read.
    pub fn is_transient(&self) -> bool {
        self.class().offline()
            || matches!(self, ApiError::Server(i) if matches!(i.status, Some(502..=504)))
    }

    /// What this error means for a write, a read and the connection: the one place that
    /// sorts the variants ([`ErrorClass`]).
    pub fn class(&self) -> ErrorClass {
        match self {
            ApiError::Unauthorized { .. }
            | ApiError::Forbidden(_)
            | ApiError::NotFound(_)
            | ApiError::OperationUnavailable(_)
            | ApiError::Invalid(_)
            | ApiError::Conflict(_)
            | ApiError::Config(_) => ErrorClass::Refused,
            ApiError::Connect {
                failure: ConnectFailure::NoConnection,
                ..
            } => ErrorClass::NotConnected,
            ApiError::Connect { .. } | ApiError::Timeout { .. } => ErrorClass::Unanswered,
            ApiError::Server(_) | ApiError::Decode { .. } => ErrorClass::ServerFault,
            ApiError::NotTheService { .. } => ErrorClass::NotTheService,
            ApiError::NotSent(_) => ErrorClass::NotSent,
            ApiError::Internal | ApiError::NoAnswer(_) => ErrorClass::Unknown,
        }
    }

    /// Classifies a non-success answer from its status, content and body.
    pub fn from_response(status: u16, body: &[u8]) -> ApiError {
        let mut info = ErrorInfo {
            status: Some(status),
            ..ErrorInfo::default()
        };
        match serde_json::from_slice::<super::models::Envelope<serde_json::Value>>(body) {
            Ok(env) if env.error.is_some() => {
                let e = env.error.unwrap_or_default();
                info.error_type = e.error_type;
                info.detail = e.detail.map(|d| crate::text::truncate_chars(&d, 500));
                info.error_id = e.id;
            }
            _ => {
                if !body.is_empty() {
                    info.excerpt = Some(excerpt(body));
                }
            }
        }
        let route_missing = info
            .detail
            .as_deref()
            .is_some_and(|d| d.to_ascii_lowercase().contains("route not found"));
        match status {
            401 => ApiError::Unauthorized {
                kind: AuthErrorKind::from_error_type(info.error_type.as_deref()),
                info,
            },
            403 => ApiError::Forbidden(info),
            404 if route_missing => ApiError::OperationUnavailable(info),
            404 | 410 => ApiError::NotFound(info),
            400 | 405 | 413 | 415 | 422 => ApiError::Invalid(info),
            409 => ApiError::Conflict(info),
            _ => ApiError::Server(info),
        }
    }
}

/// A sanitised, length-limited excerpt of a body that was not the expected JSON: HTML tags
/// are dropped, whitespace folded, control characters removed, at most 200 characters.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(4096)]);
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if in_tag => {}
            _ => out.push(c),
        }
    }
    let cleaned = crate::text::sanitize(&out);
    let folded = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::text::truncate_chars(&folded, 200)
}

/// The current user's read answered by what is not the service: `/auth/user` has no id in
/// its path, so a 400, 404, 405 or 409 without the service's error envelope (a web server's
/// page, another API's error) does not come from the club service (interface-spec.md: every
/// response carries the envelope; api-notes.md: its errors carry `error_type` and `detail`).
/// A gateway's 5xx page stays a server error (the service behind it may be down).
pub(crate) fn not_the_service(e: ApiError) -> ApiError {
    match e {
        ApiError::NotFound(info) | ApiError::Invalid(info) | ApiError::Conflict(info)
            if info.error_type.is_none() && info.detail.is_none() =>
        {
            ApiError::NotTheService {
                status: info.status,
                excerpt: info.excerpt,
            }
        }
        e => e,
    }
}

/// The program's own words for why a write got no answer or was not sent (inside
/// [`ApiError::NoAnswer`] and [`ApiError::NotSent`]), each with its message key: the audit
/// file, the logs and the command line keep them in English; the dashboard shows them in
/// its language ([`ApiError::describe`]).
pub mod why {
    /// An interrupted run's write, settled by a later one: the audit's words that
    /// `ops::history` knows such a line by.
    pub const RUN_ENDED: &str = "the run that sent it ended before its answer";
    /// A write whose answer was no longer waited for (a second Ctrl-C, a quit).
    pub const LEFT_BEFORE_ANSWER: &str =
        "left before the server answered; check the request's state";
    /// A call whose answer could not come back: the client's call thread had ended.
    pub const CALLS_ENDED: &str = "the client's calls ended before the answer";
    /// Writes queued in a dashboard that was ending (a hang-up or a stop).
    pub const DASHBOARD_ENDING: &str =
        "the dashboard was ending (a hang-up or a stop) before it was sent";
    /// Writes queued in a `serve-ssh` dashboard whose server stopped: their audit lines'
    /// detail is `not sent: the server stopped`, however they were kept from leaving.
    pub const SERVER_STOPPED: &str = "the server stopped";
    /// A write whose audit line could not be written first; followed by ` (the error)`.
    pub const AUDIT_NOT_WRITTEN: &str = "its audit line could not be written first";

    /// Each of the words above with its key in `assets/locales/*/status.ftl`.
    pub(crate) const KEYS: &[(&str, &str)] = &[
        (RUN_ENDED, "why-run-ended"),
        (LEFT_BEFORE_ANSWER, "why-left-before-answer"),
        (CALLS_ENDED, "why-calls-ended"),
        (DASHBOARD_ENDING, "why-dashboard-ending"),
        (SERVER_STOPPED, "why-server-stopped"),
        (AUDIT_NOT_WRITTEN, "why-audit-not-written"),
    ];
}
