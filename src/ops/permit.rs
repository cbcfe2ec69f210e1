//! Who the server lets delete a club request (operation 6), as far as an account's record
//! tells before any call.
//!
//! The deployed service answers 403 to a delete by a teacher, and to a student moderator
//! deleting a request that is not their own (seen by testers against the service;
//! api-notes.md: "DELETE ... 403 when the caller may not"). A request is a student's
//! own when its `student.id` is the account's `meta.student_id`. An administrator may. A face
//! leaves delete out of what it offers where this says no, and refuses it before any call.

use crate::api::{ClubRequest, User};

/// True when the server may let `user` delete `request`: an administrator; a student
/// account, for a request of its own (the request's `student.id` is the account's
/// `meta.student_id`). Never a teacher or any other account. `request` not read yet (no
/// student known): true for a student, so the row is read and the question asked again.
pub fn may_delete(user: &User, request: Option<&ClubRequest>) -> bool {
    if user.is_admin.unwrap_or(false) {
        return true;
    }
    let Some(own) = user.meta.as_ref().and_then(|m| m.student_id) else {
        return false;
    };
    match request.map(|r| r.student.as_ref().map(|s| s.id)) {
        Some(Some(student)) => student == own,
        // The request's student is not known (never read, or read at a level without it).
        _ => true,
    }
}

/// True when `user` may delete some request (an administrator or a student account): for
/// the help, which lists what the account can do at all.
pub fn may_delete_any(user: &User) -> bool {
    user.is_admin.unwrap_or(false) || user.meta.as_ref().is_some_and(|m| m.student_id.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use uuid::Uuid;

    fn user(v: serde_json::Value) -> User {
        serde_json::from_value(v).expect("user")
    }

    fn request(student: u128) -> ClubRequest {
        serde_json::from_value(json!({
            "id": Uuid::from_u128(1),
            "club": {"id": Uuid::from_u128(2)},
            "student": {"id": Uuid::from_u128(student)},
            "membership_status": "pending",
        }))
        .expect("request")
    }

    #[test]
    fn teachers_never_students_their_own_admins_all() {
        let teacher = user(json!({"id": Uuid::from_u128(5), "role": "teacher",
            "meta": {"teacher_id": Uuid::from_u128(6)}, "is_admin": false}));
        let student = user(json!({"id": Uuid::from_u128(7), "role": "student",
            "meta": {"student_id": Uuid::from_u128(8)}, "is_admin": false}));
        let admin = user(json!({"id": Uuid::from_u128(9), "role": "management", "is_admin": true}));
        let own = request(8);
        let other = request(10);
        assert!(!may_delete(&teacher, Some(&own)));
        assert!(!may_delete(&teacher, None));
        assert!(!may_delete_any(&teacher));
        assert!(may_delete(&student, Some(&own)));
        assert!(!may_delete(&student, Some(&other)));
        assert!(may_delete(&student, None));
        assert!(may_delete_any(&student));
        assert!(may_delete(&admin, Some(&other)));
        assert!(may_delete_any(&admin));
    }
}
