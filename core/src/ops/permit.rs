//! Who may do what: the service's rules for every write, as far as an account's record and
//! the clubs it staffs tell before any call. Deployed behaviour, api-notes.md, "Who may do
//! what" (measured on 0.8.4; 0.9.0 keeps them for the writes it has):
//!
//! | write | student on the club's staff | other student | requester (own) | teacher | admin |
//! | --- | --- | --- | --- | --- | --- |
//! | approve / decline | yes | 403 [`Refusal::NotStaff`] | 403 unless staff | 403 [`Refusal::NotStudent`] | 403 [`Refusal::NotStudent`] |
//! | delete a request | only their own | 403 [`Refusal::NotOwn`] | yes | 403 [`Refusal::NotStudent`] | 403 [`Refusal::NotStudent`] |
//! | create a club contact | yes | 403 [`Refusal::NotStaff`] | 403 unless staff | 403 [`Refusal::NotStudent`] | 403 [`Refusal::NotStudent`] |
//!
//! Only a student account writes; `is_admin` grants no write. Every front end asks [`check`]
//! before it offers a write (a key in the hint bar, a pop-up) and before it sends one (a key
//! pressed anyway, the command line, its dry run): a refusal sends nothing and says why
//! ([`Refusal::english`], or the i18n key [`Refusal::key`]). What is not known yet (the
//! account not read, the request's student or the staffed clubs not known) is allowed: the
//! server's answer tells.

use uuid::Uuid;

use crate::api::{ClubRequest, User};

/// A write the service guards by the account (api-notes.md, "Who may do what").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Write {
    /// Approve or decline a club request (`PUT /v1/clubs/requests/{id}`, 0.8.x).
    Decide,
    /// Delete a club request (`DELETE /v1/clubs/requests/{id}`).
    Delete,
    /// Create a club contact (`POST /v1/clubs/{id}/contacts`).
    AddContact,
}

impl Write {
    /// The write a row action makes: approve and decline decide.
    pub fn of(action: super::action::RowAction) -> Write {
        match action {
            super::action::RowAction::Approve | super::action::RowAction::Decline => Write::Decide,
            super::action::RowAction::Delete => Write::Delete,
            super::action::RowAction::AddContact => Write::AddContact,
        }
    }
}

/// Why the service refuses a write to an account (each a 403 `invalid_permission`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not a student account (a teacher, an administrator, any other role): "User is not a
    /// student", for every write.
    NotStudent,
    /// A student who is not on the club's staff: approve and decline "Student must be a
    /// staff member of the club to update club requests"; a contact "Insufficient
    /// permissions to perform this action".
    NotStaff,
    /// A student deleting another student's request: "Student is not allowed to interact
    /// with this club request".
    NotOwn,
}

impl Refusal {
    /// The service's own `detail` for this refusal of `write` (api-notes.md), as the demo
    /// server answers it.
    pub fn detail(self, write: Write) -> &'static str {
        match (self, write) {
            (Refusal::NotStudent, _) => "User is not a student",
            (Refusal::NotStaff, Write::Decide) => {
                "Student must be a staff member of the club to update club requests"
            }
            (Refusal::NotStaff, _) => "Insufficient permissions to perform this action",
            (Refusal::NotOwn, _) => "Student is not allowed to interact with this club request",
        }
    }

    /// The i18n key of the reader's words for this refusal of `write` (`permit-*` in
    /// `assets/locales/*/status.ftl`).
    pub fn key(self, write: Write) -> &'static str {
        match (self, write) {
            (Refusal::NotStudent, Write::Decide) => "permit-not-student-decide",
            (Refusal::NotStudent, Write::Delete) => "permit-not-student-delete",
            (Refusal::NotStudent, Write::AddContact) => "permit-not-student-contact",
            (Refusal::NotStaff, Write::AddContact) => "permit-not-staff-contact",
            (Refusal::NotStaff, _) => "permit-not-staff-decide",
            (Refusal::NotOwn, _) => "permit-not-own",
        }
    }

    /// The reader's words in English ([`Refusal::key`] in English): "teachers and
    /// administrators review; only club staff students decide".
    pub fn english(self, write: Write) -> String {
        crate::i18n::tr(crate::i18n::Lang::English, self.key(write))
    }
}

/// What an account is, for the rules: a student (with its `meta.student_id`, when given)
/// or not. A student is `role` "student"; a record with no role is a student when it names a
/// `meta.student_id` (an older service's record).
fn student(user: &User) -> Option<Option<Uuid>> {
    let sid = user.meta.as_ref().and_then(|m| m.student_id);
    match user.role.as_deref() {
        Some("student") => Some(sid),
        None if sid.is_some() => Some(sid),
        _ => None,
    }
}

/// True for a student account (the only kind that writes).
pub fn is_student(user: &User) -> bool {
    student(user).is_some()
}

/// What is known of the write's target, for [`check`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Target<'a> {
    /// The club of the request (approve, decline) or the club itself (a contact); `None`:
    /// not known yet.
    pub club: Option<Uuid>,
    /// The request's student (delete); `None`: not known yet.
    pub owner: Option<Uuid>,
    /// The clubs the account staffs (`staff_ids` holding its `meta.student_id`); `None`:
    /// not looked up yet.
    pub staffed: Option<&'a [Uuid]>,
}

impl<'a> Target<'a> {
    /// The target of a decision or a delete on `request` (its club and student, as read),
    /// for an account staffing `staffed`.
    pub fn request(request: Option<&ClubRequest>, staffed: Option<&'a [Uuid]>) -> Self {
        Target {
            club: request.and_then(|r| r.club.as_ref().map(|c| c.id)),
            owner: request.and_then(|r| r.student.as_ref().map(|s| s.id)),
            staffed,
        }
    }
}

/// Whether the service lets `user` make `write` on `target`: `Err` with the reason when it
/// never does; `Ok` when it does, or when what would tell is not known yet.
pub fn check(user: &User, write: Write, target: Target<'_>) -> Result<(), Refusal> {
    let Some(sid) = student(user) else {
        return Err(Refusal::NotStudent);
    };
    match write {
        Write::Delete => match (sid, target.owner) {
            (Some(own), Some(owner)) if own != owner => Err(Refusal::NotOwn),
            _ => Ok(()),
        },
        Write::Decide | Write::AddContact => match (target.staffed, target.club) {
            (Some(staffed), Some(club)) if !staffed.contains(&club) => Err(Refusal::NotStaff),
            // No club at all: nothing of this kind can be allowed.
            (Some([]), None) => Err(Refusal::NotStaff),
            _ => Ok(()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn user(v: serde_json::Value) -> User {
        serde_json::from_value(v).expect("user")
    }

    fn request(club: u128, student: u128) -> ClubRequest {
        serde_json::from_value(json!({
            "id": Uuid::from_u128(1),
            "club": {"id": Uuid::from_u128(club)},
            "student": {"id": Uuid::from_u128(student)},
            "membership_status": "pending",
        }))
        .expect("request")
    }

    /// Every cell of api-notes.md's table, by role.
    #[test]
    fn every_cell_of_the_table() {
        let teacher = user(json!({"id": Uuid::from_u128(5), "role": "teacher",
            "meta": {"teacher_id": Uuid::from_u128(6)}, "is_admin": false}));
        let staff = user(json!({"id": Uuid::from_u128(7), "role": "student",
            "meta": {"student_id": Uuid::from_u128(8)}, "is_admin": false}));
        let other = user(json!({"id": Uuid::from_u128(11), "role": "student",
            "meta": {"student_id": Uuid::from_u128(12)}, "is_admin": false}));
        let admin = user(json!({"id": Uuid::from_u128(9), "role": "staff", "is_admin": true}));
        let club = Uuid::from_u128(2);
        let staffs: &[Uuid] = &[club];
        let none: &[Uuid] = &[];
        let own = request(2, 8);
        let others = request(2, 12);
        let t = |r: &ClubRequest, s| Target::request(Some(r), Some(s));
        let contact = |s| Target {
            club: Some(club),
            owner: None,
            staffed: Some(s),
        };
        // Staff of the club.
        assert_eq!(check(&staff, Write::Decide, t(&others, staffs)), Ok(()));
        assert_eq!(check(&staff, Write::AddContact, contact(staffs)), Ok(()));
        assert_eq!(check(&staff, Write::Delete, t(&own, staffs)), Ok(()));
        assert_eq!(
            check(&staff, Write::Delete, t(&others, staffs)),
            Err(Refusal::NotOwn)
        );
        // Another student, a requester: their own request only.
        assert_eq!(
            check(&other, Write::Decide, t(&others, none)),
            Err(Refusal::NotStaff)
        );
        assert_eq!(
            check(&other, Write::AddContact, contact(none)),
            Err(Refusal::NotStaff)
        );
        assert_eq!(check(&other, Write::Delete, t(&others, none)), Ok(()));
        assert_eq!(
            check(&other, Write::Delete, t(&own, none)),
            Err(Refusal::NotOwn)
        );
        // Teachers and administrators: nothing.
        for u in [&teacher, &admin] {
            for w in [Write::Decide, Write::Delete, Write::AddContact] {
                assert_eq!(
                    check(u, w, t(&own, staffs)),
                    Err(Refusal::NotStudent),
                    "{w:?}"
                );
                assert_eq!(check(u, w, Target::default()), Err(Refusal::NotStudent));
            }
        }
        // Not known yet: allowed, the server tells.
        assert_eq!(check(&other, Write::Decide, Target::default()), Ok(()));
        assert_eq!(check(&other, Write::Delete, Target::default()), Ok(()));
        assert_eq!(
            check(&other, Write::Decide, Target::request(None, Some(none))),
            Err(Refusal::NotStaff)
        );
    }

    #[test]
    fn the_details_are_the_services_words() {
        assert_eq!(
            Refusal::NotStudent.detail(Write::Delete),
            crate::api::error::ROLE_REFUSAL_DETAIL
        );
        assert!(
            Refusal::NotStaff
                .detail(Write::Decide)
                .contains("staff member")
        );
        for w in [Write::Decide, Write::Delete, Write::AddContact] {
            for r in [Refusal::NotStudent, Refusal::NotStaff, Refusal::NotOwn] {
                assert!(!r.english(w).is_empty());
                assert_ne!(r.english(w), r.key(w), "{} has no English words", r.key(w));
            }
        }
    }
}
