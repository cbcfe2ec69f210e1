//! What an [`ApiClient`](super::ApiClient) is made from: the service's two secrets
//! ([`Credentials`]), the transport options ([`ClientOptions`]) and the check of the base
//! URL ([`validate_base_url`]: https, or http to loopback only).

use std::fmt;
use std::time::Duration;

use secrecy::SecretString;
use url::Url;

use super::error::ApiError;

/// The two secrets of the service: the API key (`X-Api-Key`, every call) and the OAuth bearer
/// token (`Authorization: Bearer`, sent on every call when set — api-notes.md: the deployed
/// service demands it on some reads the interface calls key-only).
///
/// `Debug` prints `[redacted]` in place of both.
#[derive(Clone, Default)]
pub struct Credentials {
    /// The API key, `mysk_<short>_<long>` on the deployed service.
    pub api_key: Option<SecretString>,
    /// The bearer token (a JWT).
    pub token: Option<SecretString>,
}

impl Credentials {
    /// Builds credentials from plain strings (empty strings count as absent).
    pub fn new(api_key: Option<String>, token: Option<String>) -> Self {
        let secret = |s: Option<String>| {
            s.map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .map(SecretString::from)
        };
        Credentials {
            api_key: secret(api_key),
            token: secret(token),
        }
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = |s: &Option<SecretString>| if s.is_some() { "[redacted]" } else { "none" };
        f.debug_struct("Credentials")
            .field("api_key", &mark(&self.api_key))
            .field("token", &mark(&self.token))
            .finish()
    }
}

/// Transport options of [`ApiClient`](super::ApiClient).
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// Time allowed to open a connection.
    pub connect_timeout: Duration,
    /// Time allowed for a whole request, body included.
    pub request_timeout: Duration,
    /// Extra attempts for a GET after a connect error, timeout or 502/503/504; writes
    /// (PUT, POST, DELETE) are never retried.
    pub get_retries: usize,
    /// First backoff delay; doubled per attempt, with jitter.
    pub retry_base_delay: Duration,
    /// Allow `http://` to a host that is not loopback (otherwise refused: secrets would
    /// travel in clear text).
    pub allow_insecure_http: bool,
    /// The ceiling of calls in flight to the server (`--concurrency`); the limit itself
    /// adapts below it and below [`super::limit::SAFE_MAX`] ([`super::limit::Limiter`]).
    pub concurrency: usize,
    /// A fixed limit instead of the adaptive one (for measuring fixed settings only).
    pub fixed_concurrency: bool,
    /// The host budget: calls in flight to this server from every club-admin process on
    /// this host ([`super::budget::HostBudget`]); `None` is off (each process alone).
    pub host_budget: Option<super::budget::BudgetOptions>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(20),
            get_retries: 2,
            retry_base_delay: Duration::from_millis(200),
            allow_insecure_http: false,
            concurrency: 8,
            fixed_concurrency: false,
            host_budget: None,
        }
    }
}

/// Refuses a base URL with a character no URL is typed with: a control character, a line
/// or paragraph separator (U+2028, U+2029), a space of any kind inside it, or an invisible
/// format character (U+200B to U+200F, U+202A to U+202E, U+2060 to U+2064, U+FEFF). The URL
/// parser would percent-encode it into the path, and every call would then be answered
/// "Route not found". Spaces around it are left to the caller's trim.
///
/// Errors: the first such character, its code point and its place (in characters from 1),
/// in English.
pub fn base_url_characters(text: &str) -> Result<(), String> {
    let invisible = |c: char| matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}');
    let found = text
        .trim()
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() || c.is_whitespace() || invisible(*c));
    match found {
        None => Ok(()),
        Some((at, c)) => Err(format!(
            "the base URL has U+{:04X} ({}) at character {}: a URL has no spaces, line breaks or invisible characters (a pasted line?); type it again",
            u32::from(c),
            match c {
                '\u{2028}' => "a line separator",
                '\u{2029}' => "a paragraph separator",
                c if c.is_control() => "a control character",
                c if c.is_whitespace() => "a space",
                _ => "an invisible character",
            },
            at + 1
        )),
    }
}

/// Checks a base URL: it must parse, be `https`, or `http` only to a loopback host unless
/// `allow_insecure_http`. Returns it without a trailing slash.
///
/// Errors: [`ApiError::Config`] naming the problem.
pub fn validate_base_url(text: &str, allow_insecure_http: bool) -> Result<Url, ApiError> {
    base_url_characters(text).map_err(ApiError::Config)?;
    let url = Url::parse(text.trim())
        .map_err(|e| ApiError::Config(format!("base URL {:?} is not a URL: {e}", text.trim())))?;
    let loopback = match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    match url.scheme() {
        "https" => {}
        "http" if loopback || allow_insecure_http => {}
        "http" => {
            return Err(ApiError::Config(format!(
                "refusing http:// to {}: the API key and token would travel unencrypted (use https, or --allow-insecure-http)",
                url.host_str().unwrap_or("?")
            )));
        }
        other => {
            return Err(ApiError::Config(format!(
                "base URL scheme {other:?} is not http or https"
            )));
        }
    }
    if url.host().is_none() {
        return Err(ApiError::Config("base URL has no host".into()));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(ApiError::Config(
            "base URL must not have a query or fragment".into(),
        ));
    }
    let mut url = url;
    let trimmed = url.path().trim_end_matches('/').to_owned();
    url.set_path(&trimmed);
    Ok(url)
}
