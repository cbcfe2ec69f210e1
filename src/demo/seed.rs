//! The demo data, embedded from `assets/demo/*.json` (made by `assets/demo/generate.py`).

use serde::Deserialize;
use uuid::Uuid;

use crate::api::{Classroom, Contact, MembershipStatus, MultiLangText, Person, UserMeta};

/// A student of the demo school.
#[derive(Debug, Clone, Deserialize)]
pub struct SeedStudent {
    /// Student record id.
    pub id: Uuid,
    /// School number.
    pub student_id: Option<String>,
    /// Person record id.
    pub person_id: Uuid,
    /// User account id.
    pub user_id: Uuid,
    /// Name parts.
    pub person: Option<Person>,
    /// The student's classroom (`{id}`), for the rule that a student reads `default`
    /// students only in their own classroom (api-notes.md).
    pub classroom: Option<Classroom>,
    /// Number in class.
    pub class_no: Option<i64>,
}

/// A club of the demo school, with its relations as id lists.
#[derive(Debug, Clone, Deserialize)]
pub struct SeedClub {
    /// Club id.
    pub id: Uuid,
    /// The club's name in Thai and English.
    pub name: Option<MultiLangText>,
    /// Description.
    pub description: Option<MultiLangText>,
    /// Logo address.
    pub logo_url: Option<String>,
    /// Background colour.
    pub background_color: Option<String>,
    /// Accent colour.
    pub accent_color: Option<String>,
    /// Contacts of the club.
    pub contact_ids: Vec<Uuid>,
    /// Staff (student ids).
    pub staff_ids: Vec<Uuid>,
    /// Members (student ids).
    pub member_ids: Vec<Uuid>,
}

/// A club membership request.
#[derive(Debug, Clone, Deserialize)]
pub struct SeedRequest {
    /// Request id.
    pub id: Uuid,
    /// Creation time (RFC 3339 text, as stored).
    pub created_at: Option<String>,
    /// Club asked for.
    pub club_id: Uuid,
    /// Student asking.
    pub student_id: Uuid,
    /// Academic year.
    pub year: Option<i32>,
    /// Membership status.
    pub membership_status: MembershipStatus,
}

/// A demo account and its API key.
#[derive(Clone, Deserialize)]
pub struct SeedUser {
    /// User id.
    pub id: Uuid,
    /// Creation time text.
    pub created_at: Option<String>,
    /// E-mail.
    pub email: String,
    /// `student`, `teacher` or `staff` (the administrator, with `is_admin`) (the `role` of `/auth/user`).
    pub role: String,
    /// Person link.
    pub meta: Option<UserMeta>,
    /// Admin flag.
    pub is_admin: bool,
    /// Onboarded flag.
    pub onboarded: bool,
    /// Permissions.
    pub permissions: Vec<String>,
    /// The demo API key (printed at start; demo only).
    pub api_key: String,
    /// `moderator`, `moderator2` (a second staff member of the moderator's Robotics Club), `teacher` or `admin`.
    pub label: String,
}

/// Everything the demo server starts with.
pub struct Seed {
    /// Students (`assets/demo/students.json`).
    pub students: Vec<SeedStudent>,
    /// Clubs.
    pub clubs: Vec<SeedClub>,
    /// Contacts.
    pub contacts: Vec<Contact>,
    /// Requests.
    pub requests: Vec<SeedRequest>,
    /// Users.
    pub users: Vec<SeedUser>,
}

/// Parses the embedded files.
///
/// Errors: a message naming the file that does not parse (a build-time asset bug).
pub fn load() -> Result<Seed, String> {
    fn parse<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, String> {
        serde_json::from_str(text).map_err(|e| format!("assets/demo/{name}: {e}"))
    }
    Ok(Seed {
        students: parse(
            "students.json",
            include_str!("../../assets/demo/students.json"),
        )?,
        clubs: parse("clubs.json", include_str!("../../assets/demo/clubs.json"))?,
        contacts: parse(
            "contacts.json",
            include_str!("../../assets/demo/contacts.json"),
        )?,
        requests: parse(
            "requests.json",
            include_str!("../../assets/demo/requests.json"),
        )?,
        users: parse("users.json", include_str!("../../assets/demo/users.json"))?,
    })
}
