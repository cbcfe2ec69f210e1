//! Wire models of the club administration service.
//!
//! Shapes follow `interface-spec.md` (the published interface) widened by the deployed
//! behaviour recorded in `api-notes.md`: every field but `id` is optional (what arrives depends
//! on the fetch level asked for), unknown fields are ignored, timestamps are parsed tolerantly
//! (RFC 3339 with 0 to 9 fraction digits; an unparseable one becomes `None`, never an error),
//! and open enumerations keep unknown values in an `Other(String)` variant.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use uuid::Uuid;

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

/// How much of a record (and of the records below it) the service returns.
///
/// Per api-notes.md "Fetch levels": `id_only` (the server default), `compact`, `default`,
/// `detailed`; anything else is answered with 400. The JSON does not say which level it is,
/// so callers remember what they asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchLevel {
    /// `{"id": ...}` only.
    IdOnly,
    /// Names and summary fields.
    Compact,
    /// Adds relations at the descendant level.
    Default,
    /// Everything, including club staff and members.
    Detailed,
}

impl FetchLevel {
    /// All levels, lowest first.
    pub const ALL: [FetchLevel; 4] = [
        FetchLevel::IdOnly,
        FetchLevel::Compact,
        FetchLevel::Default,
        FetchLevel::Detailed,
    ];

    /// The wire name (`id_only`, `compact`, `default`, `detailed`).
    pub fn as_str(self) -> &'static str {
        match self {
            FetchLevel::IdOnly => "id_only",
            FetchLevel::Compact => "compact",
            FetchLevel::Default => "default",
            FetchLevel::Detailed => "detailed",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<FetchLevel> {
        FetchLevel::ALL.into_iter().find(|l| l.as_str() == text)
    }

    /// The next level up, saturating at `detailed`.
    pub fn raise(self) -> FetchLevel {
        match self {
            FetchLevel::IdOnly => FetchLevel::Compact,
            FetchLevel::Compact => FetchLevel::Default,
            _ => FetchLevel::Detailed,
        }
    }

    /// The next level down, saturating at `id_only`.
    pub fn lower(self) -> FetchLevel {
        match self {
            FetchLevel::Detailed => FetchLevel::Default,
            FetchLevel::Default => FetchLevel::Compact,
            _ => FetchLevel::IdOnly,
        }
    }
}

impl fmt::Display for FetchLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The pair of fetch levels sent with every read and write.
///
/// GET sends them as the query parameters `fetch_level` and `descendant_fetch_level`; PUT and
/// POST as top-level JSON fields beside `data` (interface-spec.md, "Shared body shape").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Levels {
    /// Level of the record itself.
    pub fetch_level: FetchLevel,
    /// Level of the records one step below it (two steps down is always `{id}`).
    pub descendant_fetch_level: FetchLevel,
}

impl Levels {
    /// Builds a pair of levels.
    pub const fn new(fetch_level: FetchLevel, descendant_fetch_level: FetchLevel) -> Self {
        Levels {
            fetch_level,
            descendant_fetch_level,
        }
    }

    /// What the review queue asks for: the request at `default`, its student and club at
    /// `compact`. A student account asking for `default` students outside its own classroom
    /// gets 403 for the whole request (api-notes.md), so `compact` is the safe descendant level.
    pub const REQUEST_ROW: Levels = Levels::new(FetchLevel::Default, FetchLevel::Compact);

    /// `id_only` for both.
    pub const ID_ONLY: Levels = Levels::new(FetchLevel::IdOnly, FetchLevel::IdOnly);
}

impl Default for Levels {
    fn default() -> Self {
        Levels::REQUEST_ROW
    }
}

/// Text in the two languages of the school: `{"en-US": string|null, "th": string|null}`.
///
/// Per api-notes.md the whole object may be `null` or have both keys null; a plain string is
/// also accepted (taken as Thai) so that nothing fails on a server that simplifies it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MultiLangText {
    /// English text (`en-US`).
    #[serde(rename = "en-US")]
    pub en: Option<String>,
    /// Thai text (`th`).
    pub th: Option<String>,
}

impl<'de> Deserialize<'de> for MultiLangText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Obj {
            #[serde(rename = "en-US", default)]
            en: Option<String>,
            #[serde(default)]
            th: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Plain(String),
            Obj(Obj),
        }
        Ok(match Either::deserialize(d)? {
            Either::Plain(s) => MultiLangText {
                en: None,
                th: Some(s),
            },
            Either::Obj(o) => MultiLangText { en: o.en, th: o.th },
        })
    }
}

impl MultiLangText {
    /// Builds a text from both languages.
    pub fn new(en: Option<&str>, th: Option<&str>) -> Self {
        MultiLangText {
            en: en.map(str::to_owned),
            th: th.map(str::to_owned),
        }
    }

    /// English when present and not blank, else Thai; `None` when both are missing.
    pub fn best(&self) -> Option<&str> {
        non_blank(&self.en).or_else(|| non_blank(&self.th))
    }

    /// Thai when present and not blank, else English.
    pub fn thai_first(&self) -> Option<&str> {
        non_blank(&self.th).or_else(|| non_blank(&self.en))
    }
}

fn non_blank(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|t| !t.trim().is_empty())
}

macro_rules! open_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            /// A value no document lists; kept verbatim so it can be shown.
            Other(String),
        }

        impl $name {
            /// Every known value, in documentation order.
            pub const KNOWN: &'static [$name] = &[$($name::$var),+];

            /// The wire spelling.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$var => $wire,)+
                    $name::Other(s) => s.as_str(),
                }
            }

            /// Parses a wire value; unknown values become `Other`.
            pub fn parse(text: &str) -> Self {
                match text {
                    $($wire => $name::$var,)+
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
    };
}

open_enum!(
    /// Membership status of a club request.
    ///
    /// Per api-notes.md: `pending`, `approved`, `declined`; interface-spec.md shows only
    /// `approved`. Only a pending request can change, and only to approved or declined.
    MembershipStatus {
        /// Waiting for a decision.
        Pending => "pending",
        /// Accepted by club staff.
        Approved => "approved",
        /// Refused by club staff.
        Declined => "declined",
    }
);

open_enum!(
    /// Type of a club contact (api-notes.md, "Contact": eight values).
    ContactType {
        /// A telephone number.
        Phone => "phone",
        /// An e-mail address.
        Email => "email",
        /// A Facebook page or profile.
        Facebook => "facebook",
        /// A LINE id.
        Line => "line",
        /// An Instagram account.
        Instagram => "instagram",
        /// A web address.
        Website => "website",
        /// A Discord server or user.
        Discord => "discord",
        /// Anything else.
        OtherType => "other",
    }
);

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

/// The `meta` of a `User` record: which kind of person the account belongs to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UserMeta {
    /// The student record id, for student accounts (use it as `staff_ids` to find the clubs
    /// a student moderates, api-notes.md "Listing").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub student_id: Option<Uuid>,
    /// The teacher record id, for teacher accounts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teacher_id: Option<Uuid>,
    /// The organization record id, for organization accounts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organization_id: Option<Uuid>,
}

/// The authenticated user (interface-spec.md operation 1; fields per api-notes.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// User id.
    pub id: Uuid,
    /// Account creation time.
    #[serde(default, with = "tolerant_ts")]
    pub created_at: Option<Timestamp>,
    /// E-mail address.
    #[serde(default)]
    pub email: Option<String>,
    /// One of `student`, `teacher`, `organization`, `staff`, `management` (kept as text).
    #[serde(default)]
    pub role: Option<String>,
    /// Which person record the account belongs to.
    #[serde(default)]
    pub meta: Option<UserMeta>,
    /// Administrator flag.
    #[serde(default)]
    pub is_admin: Option<bool>,
    /// Whether the account finished onboarding.
    #[serde(default)]
    pub onboarded: Option<bool>,
    /// Permission names.
    #[serde(default)]
    pub permissions: Option<Vec<String>>,
}

/// A club contact (interface-spec.md operation 2; `type` values per api-notes.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    /// Contact id.
    pub id: Uuid,
    /// Creation time.
    #[serde(default, with = "tolerant_ts")]
    pub created_at: Option<Timestamp>,
    /// Optional label; `null` as a whole or with both keys null.
    #[serde(default)]
    pub name: Option<MultiLangText>,
    /// Contact type.
    #[serde(default, rename = "type")]
    pub kind: Option<ContactType>,
    /// The value (a number, an address, a handle): untrusted text.
    #[serde(default)]
    pub value: Option<String>,
    /// Audience flags; `null` in every observed response.
    #[serde(default)]
    pub include_students: Option<bool>,
    /// Audience flag.
    #[serde(default)]
    pub include_teachers: Option<bool>,
    /// Audience flag.
    #[serde(default)]
    pub include_parents: Option<bool>,
}

/// The body `data` of contact creation: `{type, value}` (api-notes.md: any `name` is ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewContact {
    /// Contact type.
    #[serde(rename = "type")]
    pub kind: ContactType,
    /// The value.
    pub value: String,
}

/// A person's name parts (nested in a student at `default`), each multi-language.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Person {
    /// Title, e.g. "นาย" / "Mr.".
    pub prefix: Option<MultiLangText>,
    /// Given name.
    pub first_name: Option<MultiLangText>,
    /// Family name.
    pub last_name: Option<MultiLangText>,
    /// Middle name.
    pub middle_name: Option<MultiLangText>,
    /// Nickname.
    pub nickname: Option<MultiLangText>,
}

impl Person {
    /// "First Last" in the preferred language (English first unless `thai`), if any part is known.
    pub fn full_name(&self, thai: bool) -> Option<String> {
        let pick = |t: &Option<MultiLangText>| {
            t.as_ref()
                .and_then(|t| if thai { t.thai_first() } else { t.best() })
                .map(str::to_owned)
        };
        let parts: Vec<String> = [
            pick(&self.first_name),
            pick(&self.middle_name),
            pick(&self.last_name),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join(" "))
    }
}

/// A classroom reference (`{id}` or more).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classroom {
    /// Classroom id.
    pub id: Uuid,
    /// Room number, e.g. 505, when sent.
    #[serde(default)]
    pub number: Option<i64>,
}

/// A student, as nested in club requests and clubs (api-notes.md, "Student (nested)").
///
/// `compact`: `{id, student_id, person_id, user_id}`; `default` adds `person`, `classroom`,
/// `class_no`, `contacts`, `user`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Student {
    /// Student record id.
    pub id: Uuid,
    /// School number (text, may be null).
    #[serde(default)]
    pub student_id: Option<String>,
    /// Person record id.
    #[serde(default)]
    pub person_id: Option<Uuid>,
    /// User account id.
    #[serde(default)]
    pub user_id: Option<Uuid>,
    /// Name parts (at `default`).
    #[serde(default)]
    pub person: Option<Person>,
    /// Classroom (at `default`).
    #[serde(default)]
    pub classroom: Option<Classroom>,
    /// Number in class (at `default`).
    #[serde(default)]
    pub class_no: Option<i64>,
    /// Contacts (at `default`, usually `{id}` only).
    #[serde(default)]
    pub contacts: Option<Vec<serde_json::Value>>,
}

/// A club (interface-spec.md operation 4; fields per level in api-notes.md).
///
/// `id_only` `{id}`; `compact` adds `name`, `description`, `logo_url`, `background_color`,
/// `member_count`; `default` adds `contacts`, `accent_color`, `staff_count`; `detailed` adds
/// `staffs` and `members`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Club {
    /// Club id.
    pub id: Uuid,
    /// Club name.
    #[serde(default)]
    pub name: Option<MultiLangText>,
    /// Description.
    #[serde(default)]
    pub description: Option<MultiLangText>,
    /// Logo address.
    #[serde(default)]
    pub logo_url: Option<String>,
    /// Background colour (CSS text).
    #[serde(default)]
    pub background_color: Option<String>,
    /// Accent colour (CSS text).
    #[serde(default)]
    pub accent_color: Option<String>,
    /// Number of members.
    #[serde(default)]
    pub member_count: Option<i64>,
    /// Number of staff.
    #[serde(default)]
    pub staff_count: Option<i64>,
    /// Contacts, at the descendant level.
    #[serde(default)]
    pub contacts: Option<Vec<Contact>>,
    /// Staff students (at `detailed`).
    #[serde(default)]
    pub staffs: Option<Vec<Student>>,
    /// Member students (at `detailed`).
    #[serde(default)]
    pub members: Option<Vec<Student>>,
}

/// A club membership request (interface-spec.md operations 3, 5, 6; api-notes.md shape).
///
/// `id_only` and `compact`: `{id}`; `default` and `detailed`:
/// `{id, created_at|null, club, student, year|null, membership_status}`. The published
/// interface names the status field `status`; both spellings are read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClubRequest {
    /// Club request id.
    pub id: Uuid,
    /// When the student asked.
    #[serde(default, with = "tolerant_ts")]
    pub created_at: Option<Timestamp>,
    /// The club (at the descendant level).
    #[serde(default)]
    pub club: Option<Club>,
    /// The student (at the descendant level).
    #[serde(default)]
    pub student: Option<Student>,
    /// Academic year (e.g. 2026).
    #[serde(default)]
    pub year: Option<i32>,
    /// Membership status (deployed spelling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub membership_status: Option<MembershipStatus>,
    /// Membership status (published spelling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<MembershipStatus>,
}

impl ClubRequest {
    /// A request known only by id.
    pub fn bare(id: Uuid) -> Self {
        ClubRequest {
            id,
            created_at: None,
            club: None,
            student: None,
            year: None,
            membership_status: None,
            status: None,
        }
    }

    /// The membership status under either spelling, if the level carried it.
    pub fn membership(&self) -> Option<&MembershipStatus> {
        self.membership_status.as_ref().or(self.status.as_ref())
    }

    /// Merges a newer answer into this record: fields the newer answer lacks (because it
    /// was fetched at a lower level) keep their older values.
    pub fn merge_from(&mut self, newer: ClubRequest) {
        let status = newer.membership().cloned();
        self.id = newer.id;
        if newer.created_at.is_some() {
            self.created_at = newer.created_at;
        }
        if newer.club.is_some() {
            self.club = newer.club;
        }
        if newer.student.is_some() {
            self.student = newer.student;
        }
        if newer.year.is_some() {
            self.year = newer.year;
        }
        if let Some(s) = status {
            self.membership_status = Some(s);
            self.status = None;
        }
    }
}
