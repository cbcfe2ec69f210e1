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
