//! The records: user, contact, person, student, club, club request.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::*;

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
    /// Nickname, in either language (students are often known by it).
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
    /// What the club is about; `null` as a whole or in both languages (api-notes.md).
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
