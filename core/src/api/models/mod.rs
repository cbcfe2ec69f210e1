//! Wire models of the club administration service.
//!
//! Shapes follow `interface-spec.md` (the published interface) widened by the deployed
//! behaviour recorded in `api-notes.md`: every field but `id` is optional (what arrives depends
//! on the fetch level asked for), unknown fields are ignored, timestamps are parsed tolerantly
//! (RFC 3339 with 0 to 9 fraction digits; an unparseable one becomes `None`, never an error),
//! and open enumerations keep unknown values in an `Other(String)` variant.
//!
//! Modules: [`level`] (fetch levels), [`bilingual`] (two-language text), [`enums`] (open
//! enumerations: membership status, contact type), [`envelope`] (envelope, meta, errors),
//! [`records`] (user, contact, student, club, club request).

mod contact_check;
pub use contact_check::{ContactProblem, MAX_VALUE as MAX_CONTACT_VALUE};
mod bilingual;
mod enums;
mod envelope;
mod level;
mod records;

pub use bilingual::*;
pub use enums::*;
pub use envelope::*;
pub use level::*;
pub use records::*;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serializer};

/// A point in time in UTC, as the service writes it (`2026-11-22T08:20:31.565326358Z`).
pub type Timestamp = DateTime<Utc>;

/// Parses an RFC 3339 timestamp with any number (0 to 9) of fraction digits.
///
/// Returns `None` for anything else; per api-notes.md, "Parse tolerantly".
pub fn parse_timestamp(text: &str) -> Option<Timestamp> {
    DateTime::parse_from_rfc3339(text.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Serde helper: an optional, tolerantly parsed timestamp (`null`, absent or garbage → `None`).
pub(crate) mod tolerant_ts {
    use super::*;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
        let raw = Option::<serde_json::Value>::deserialize(d)?;
        Ok(match raw {
            Some(serde_json::Value::String(s)) => parse_timestamp(&s),
            _ => None,
        })
    }

    pub fn serialize<S: Serializer>(v: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(t) => s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
            None => s.serialize_none(),
        }
    }
}
