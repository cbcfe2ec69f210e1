//! The response envelope, its `meta` and the error object.

use serde::{Deserialize, Serialize};

use super::*;

/// `meta.pagination` of a listing (api-notes.md, "Listing").
///
/// `{first_p, last_p, next_p|null, prev_p|null, size, total}`; `last_p` is 0 when nothing
/// matches. The published interface always sends `null`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Pagination {
    /// First page number (1).
    pub first_p: Option<u32>,
    /// Last page number; 0 when nothing matches.
    pub last_p: Option<u32>,
    /// Next page, if any.
    pub next_p: Option<u32>,
    /// Previous page, if any.
    pub prev_p: Option<u32>,
    /// Page size (records).
    pub size: Option<u32>,
    /// Records matching, over all pages.
    pub total: Option<u64>,
}

/// `meta` of the envelope: `{timestamp, pagination}`; `null` in error bodies.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// Time of the response.
    #[serde(with = "tolerant_ts")]
    pub timestamp: Option<Timestamp>,
    /// Pagination of a listing; `null` elsewhere.
    pub pagination: Option<Pagination>,
}

/// The `error` object of an error envelope (api-notes.md, "Errors").
///
/// `{id, code, error_type, detail, source}`: `id` is a random UUID, `code` repeats the HTTP
/// status, `detail` is human text meant to be shown, `source` is free text not to be parsed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ErrorObject {
    /// Random identifier of this error occurrence (quote it when reporting).
    pub id: Option<String>,
    /// The HTTP status again.
    pub code: Option<serde_json::Value>,
    /// Machine-readable class, e.g. `invalid_permission`.
    pub error_type: Option<String>,
    /// Human-readable explanation.
    pub detail: Option<String>,
    /// Free text about where it happened.
    pub source: Option<String>,
}

/// The response envelope shared by every operation (interface-spec.md, "Response envelope").
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// Version label of the interface (the deployed service reports "0.8.4").
    #[serde(default)]
    pub api_version: Option<String>,
    /// The record; `null` in the delete response and in errors.
    #[serde(default = "none")]
    pub data: Option<T>,
    /// `null` on success.
    #[serde(default)]
    pub error: Option<ErrorObject>,
    /// `{timestamp, pagination}`; `null` in errors.
    #[serde(default)]
    pub meta: Option<Meta>,
}

fn none<T>() -> Option<T> {
    None
}

/// The keys that make a body the service's envelope: `api_version` (a string) and `data`
/// (present, `null` allowed).
#[derive(Deserialize)]
struct Shape {
    #[allow(dead_code)]
    api_version: String,
    #[serde(default)]
    data: Present,
}

/// Whether a key was there at all, whatever its value (`null` too).
#[derive(Default)]
struct Present(bool);

impl<'de> Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d)?;
        Ok(Present(true))
    }
}

/// True when a success body is the service's envelope (interface-spec.md, "Response
/// envelope": every response carries `api_version`, a string, and `data`, `null` in the
/// delete answer): a JSON object with both.
pub fn is_service_envelope(body: &[u8]) -> bool {
    serde_json::from_slice::<Shape>(body).is_ok_and(|s| s.data.0)
}

/// True when a success body comes from a server that is not the club service: whole JSON
/// that is not its envelope ([`is_service_envelope`]: another API), or a body that is not
/// JSON and was not sent as JSON (`json_labelled`: its `Content-Type` names JSON), such as
/// an HTML page or a captive portal. A body sent as JSON that does not parse (cut short,
/// garbled) is an unreadable answer of the service, not this; so is an empty body.
pub fn not_the_service(body: &[u8], json_labelled: bool) -> bool {
    if body.iter().all(u8::is_ascii_whitespace) {
        return false;
    }
    if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok() {
        return !is_service_envelope(body);
    }
    !json_labelled
}

#[cfg(test)]
mod tests {
    use super::is_service_envelope;

    #[test]
    fn the_envelope_is_known_by_api_version_and_data() {
        assert!(is_service_envelope(
            br#"{"api_version":"0.8.4","data":null,"error":null,"meta":null}"#
        ));
        assert!(is_service_envelope(
            br#"{"api_version":"0.9.0","data":{"id":"x"}}"#
        ));
        assert!(!is_service_envelope(br#"{"data":{"id":"x"}}"#));
        assert!(!is_service_envelope(br#"{"api_version":"1"}"#));
        assert!(!is_service_envelope(br#"{"api_version":1,"data":null}"#));
        assert!(!is_service_envelope(
            b"<html><body>Welcome to nginx!</body></html>"
        ));
        assert!(!is_service_envelope(
            br#"[{"api_version":"0.8.4","data":null}]"#
        ));
    }

    #[test]
    fn another_server_is_told_from_an_unreadable_answer() {
        use super::not_the_service;
        assert!(not_the_service(br#"{"status":"ok"}"#, true));
        assert!(not_the_service(b"<html>Welcome to nginx!</html>", false));
        assert!(!not_the_service(
            br#"{"api_version":"0.8.4","data":{"id":"#,
            true
        ));
        assert!(!not_the_service(b"not json at all", true));
        assert!(!not_the_service(b"", false));
        assert!(!not_the_service(
            br#"{"api_version":"0.8.4","data":null}"#,
            true
        ));
    }
}
