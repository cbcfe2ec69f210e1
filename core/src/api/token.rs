//! Bearer-token helpers: reading a JWT's `exp` and accepting a pasted token.

use base64::Engine;
use secrecy::SecretString;

use super::models::Timestamp;

/// Reads the `exp` claim (unix seconds) of a JWT without verifying its signature, to show when
/// the session ends (api-notes.md, "Authentication": HS256 with `sub`, `iat`, `exp`).
///
/// Returns `None` for anything that is not a three-part token with a JSON payload holding a
/// numeric `exp`.
pub fn jwt_expiry(token: &str) -> Option<Timestamp> {
    let mut parts = token.trim().split('.');
    let (_, payload, _) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let exp = claims.get("exp")?;
    let secs = exp.as_i64().or_else(|| exp.as_f64().map(|f| f as i64))?;
    chrono::DateTime::from_timestamp(secs, 0)
}

/// Why a pasted token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Nothing was pasted.
    #[error("nothing was pasted")]
    Empty,
    /// JSON without `data.access_token`.
    #[error("the pasted JSON has no data.access_token")]
    NoAccessToken,
    /// Text that cannot be a bearer token (spaces, control characters).
    #[error("that does not look like a token (it has spaces or control characters)")]
    Malformed,
}

/// Accepts a token pasted by the user, either raw (optionally with a `Bearer ` prefix) or as
/// the JSON page that `{base_url}/auth/oauth/init` ends on, whose `data.access_token` is the
/// token (api-notes.md, "Getting a token over SSH"). A top-level `access_token` is accepted
/// too. The result is held as a secret.
pub fn parse_pasted_token(pasted: &str) -> Result<SecretString, TokenError> {
    let text = pasted.trim();
    if text.is_empty() {
        return Err(TokenError::Empty);
    }
    let raw = if text.starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|_| TokenError::NoAccessToken)?;
        v.pointer("/data/access_token")
            .or_else(|| v.get("access_token"))
            .and_then(|t| t.as_str())
            .ok_or(TokenError::NoAccessToken)?
            .trim()
            .to_owned()
    } else {
        text.strip_prefix("Bearer ")
            .unwrap_or(text)
            .trim()
            .to_owned()
    };
    if raw.is_empty() {
        return Err(TokenError::Empty);
    }
    if raw
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || !c.is_ascii())
    {
        return Err(TokenError::Malformed);
    }
    Ok(SecretString::from(raw))
}
