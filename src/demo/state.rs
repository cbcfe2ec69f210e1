//! In-memory state of the demo server and the shaping of records per fetch level.
//!
//! Shapes follow api-notes.md, "Fetch levels": records two levels down are always `{id}`.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::{Value, json};
use uuid::Uuid;

use super::seed::{Seed, SeedClub, SeedRequest, SeedStudent, SeedUser};
use crate::api::{Contact, FetchLevel, Levels, MembershipStatus, Timestamp};

/// A bearer token issued by the demo server.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    /// Index into `users`.
    pub user: usize,
    /// Expiry (the JWT's `exp`).
    pub expires: Timestamp,
}

/// The whole mutable state, behind one lock.
pub struct DemoState {
    /// Students by id.
    pub students: HashMap<Uuid, SeedStudent>,
    /// Clubs in seed order.
    pub clubs: Vec<SeedClub>,
    /// Contacts by id.
    pub contacts: HashMap<Uuid, Contact>,
    /// Requests in seed order (deleted ones removed).
    pub requests: Vec<SeedRequest>,
    /// The demo accounts (moderator, teacher, admin) with their keys and tokens.
    pub users: Vec<SeedUser>,
    /// Issued tokens by their text.
    pub tokens: HashMap<String, IssuedToken>,
    /// Mutating calls the server accepted (for tests: "no action is sent twice").
    pub mutations: Vec<String>,
}

/// Why an operation was refused: `(HTTP status, error_type, detail)`.
pub type Refusal = (u16, &'static str, String);

/// The standard 403 detail of the deployed service.
pub const NO_PERMISSION: &str = "Insufficient permissions to perform this action";

/// The 403 detail the service gives a caller whose role is not `student` on every write.
pub const NOT_A_STUDENT: &str = "User is not a student";

/// The 403 detail of a student's delete of another student's request.
pub const NOT_OWN: &str = "Student is not allowed to interact with this club request";

impl DemoState {
    /// Builds the state from the seed.
    pub fn new(seed: Seed) -> Self {
        DemoState {
            students: seed.students.into_iter().map(|s| (s.id, s)).collect(),
            clubs: seed.clubs,
            contacts: seed.contacts.into_iter().map(|c| (c.id, c)).collect(),
            requests: seed.requests,
            users: seed.users,
            tokens: HashMap::new(),
            mutations: Vec::new(),
        }
    }

    /// The club with this id.
    pub fn club(&self, id: Uuid) -> Option<&SeedClub> {
        self.clubs.iter().find(|c| c.id == id)
    }

    /// True when `user` may moderate `club`: a student on its staff (api-notes.md, "Who may
    /// do what": `is_admin` grants no write).
    pub fn may_moderate(&self, user: usize, club: Uuid) -> bool {
        let u = &self.users[user];
        if u.role != "student" {
            return false;
        }
        let Some(sid) = u.meta.as_ref().and_then(|m| m.student_id) else {
            return false;
        };
        self.club(club).is_some_and(|c| c.staff_ids.contains(&sid))
    }

    /// Student accounts may see `default` students only in their own classroom
    /// (api-notes.md: otherwise 403 for the whole request).
    pub fn check_student_level(
        &self,
        user: Option<usize>,
        student: Uuid,
        level: FetchLevel,
    ) -> Result<(), Refusal> {
        if level < FetchLevel::Default {
            return Ok(());
        }
        let Some(u) = user.map(|u| &self.users[u]) else {
            return Ok(());
        };
        if u.role != "student" {
            return Ok(());
        }
        let own = u
            .meta
            .as_ref()
            .and_then(|m| m.student_id)
            .and_then(|id| self.students.get(&id))
            .and_then(|s| s.classroom.as_ref().map(|c| c.id));
        let theirs = self
            .students
            .get(&student)
            .and_then(|s| s.classroom.as_ref().map(|c| c.id));
        if own.is_some() && own == theirs {
            Ok(())
        } else {
            Err((403, "invalid_permission", NO_PERMISSION.into()))
        }
    }

    /// A student at `level`.
    pub fn student_json(&self, id: Uuid, level: FetchLevel) -> Value {
        let Some(s) = self.students.get(&id) else {
            return json!({ "id": id });
        };
        match level {
            FetchLevel::IdOnly => json!({ "id": id }),
            FetchLevel::Compact => json!({
                "id": s.id, "student_id": s.student_id, "person_id": s.person_id, "user_id": s.user_id,
            }),
            FetchLevel::Default | FetchLevel::Detailed => json!({
                "id": s.id, "student_id": s.student_id, "person_id": s.person_id, "user_id": s.user_id,
                "person": s.person,
                "classroom": s.classroom.as_ref().map(|c| json!({ "id": c.id })),
                "class_no": s.class_no,
                "contacts": [],
                "user": { "id": s.user_id },
            }),
        }
    }

    /// A contact at `level`, as the deployed service answers it (api-notes.md, "Fetch
    /// levels"): `{id}` at `id_only` and at `compact` (so a club read with
    /// `descendant_fetch_level=compact` has its contacts as bare ids), the whole contact
    /// (`id`, `name`, `type`, `value`) from `default` up.
    pub fn contact_json(&self, id: Uuid, level: FetchLevel) -> Value {
        match (level, self.contacts.get(&id)) {
            (FetchLevel::IdOnly | FetchLevel::Compact, _) | (_, None) => json!({ "id": id }),
            (_, Some(c)) => serde_json::to_value(c).unwrap_or_else(|_| json!({ "id": id })),
        }
    }

    fn club_json_inner(&self, c: &SeedClub, levels: Levels) -> Value {
        let mut v = json!({ "id": c.id });
        let lvl = levels.fetch_level;
        let desc = levels.descendant_fetch_level;
        if lvl >= FetchLevel::Compact {
            v["name"] = json!(c.name);
            v["description"] = json!(c.description);
            v["logo_url"] = json!(c.logo_url);
            v["background_color"] = json!(c.background_color);
            v["member_count"] = json!(c.member_ids.len());
        }
        if lvl >= FetchLevel::Default {
            v["contacts"] = Value::Array(
                c.contact_ids
                    .iter()
                    .map(|id| self.contact_json(*id, desc))
                    .collect(),
            );
            v["accent_color"] = json!(c.accent_color);
            v["staff_count"] = json!(c.staff_ids.len());
        }
        if lvl >= FetchLevel::Detailed {
            v["staffs"] = Value::Array(
                c.staff_ids
                    .iter()
                    .map(|id| self.student_json(*id, desc))
                    .collect(),
            );
            v["members"] = Value::Array(
                c.member_ids
                    .iter()
                    .map(|id| self.student_json(*id, desc))
                    .collect(),
            );
        }
        v
    }

    /// A club at `levels`, checking student visibility for the caller.
    pub fn club_json(
        &self,
        c: &SeedClub,
        levels: Levels,
        user: Option<usize>,
    ) -> Result<Value, Refusal> {
        if levels.fetch_level >= FetchLevel::Detailed {
            for s in c.staff_ids.iter().chain(&c.member_ids) {
                self.check_student_level(user, *s, levels.descendant_fetch_level)?;
            }
        }
        Ok(self.club_json_inner(c, levels))
    }

    /// A club request at `levels`, checking student visibility for the caller.
    pub fn request_json(
        &self,
        r: &SeedRequest,
        levels: Levels,
        user: Option<usize>,
    ) -> Result<Value, Refusal> {
        if levels.fetch_level < FetchLevel::Default {
            return Ok(json!({ "id": r.id }));
        }
        let desc = levels.descendant_fetch_level;
        self.check_student_level(user, r.student_id, desc)?;
        let club = match self.club(r.club_id) {
            Some(c) => self.club_json_inner(c, Levels::new(desc, FetchLevel::IdOnly)),
            None => json!({ "id": r.club_id }),
        };
        Ok(json!({
            "id": r.id,
            "created_at": r.created_at,
            "club": club,
            "student": self.student_json(r.student_id, desc),
            "year": r.year,
            "membership_status": r.membership_status,
        }))
    }

    /// Applies a status change (PUT), checking what the deployed service checks, in its order:
    /// the caller's role first (a teacher or an administrator gets 403 "User is not a
    /// student" to every approve, api-notes.md "Who may do what"), then the id (404), then club staff (403 "Student must be a staff member ..."), then `pending`
    /// (403 "Club request has already been ...").
    pub fn update_request(
        &mut self,
        user: usize,
        id: Uuid,
        status: MembershipStatus,
    ) -> Result<usize, Refusal> {
        let idx = self.check_update(user, id, true)?;
        self.write_status(idx, status);
        Ok(idx)
    }

    /// The checks of [`DemoState::update_request`], nothing changed: the request's index.
    /// `pending` false leaves out the last check (a decision whose check passed a moment
    /// before, [`super::Faults::race`], is written whatever came meanwhile).
    ///
    /// Errors: the refusal the deployed service gives.
    pub fn check_update(&self, user: usize, id: Uuid, pending: bool) -> Result<usize, Refusal> {
        let u = &self.users[user];
        if u.role != "student" {
            return Err((403, "invalid_permission", NOT_A_STUDENT.into()));
        }
        let idx = self.requests.iter().position(|r| r.id == id).ok_or((
            404,
            "entity_not_found",
            format!("Club request {id} not found"),
        ))?;
        let club = self.requests[idx].club_id;
        if !self.may_moderate(user, club) {
            // Only students reach this point (an admin may moderate every club).
            return Err((
                403,
                "invalid_permission",
                "Student must be a staff member of the club to update club requests".into(),
            ));
        }
        match &self.requests[idx].membership_status {
            MembershipStatus::Pending => {}
            _ if !pending => {}
            other => {
                return Err((
                    403,
                    "invalid_permission",
                    format!("Club request has already been {other}"),
                ));
            }
        }
        Ok(idx)
    }

    /// Writes a checked status change ([`DemoState::check_update`]) to the request at `idx`.
    pub fn write_status(&mut self, idx: usize, status: MembershipStatus) {
        let (id, club) = (self.requests[idx].id, self.requests[idx].club_id);
        self.requests[idx].membership_status = status.clone();
        self.mutations.push(format!("update {id} {status}"));
        if status == MembershipStatus::Approved {
            let sid = self.requests[idx].student_id;
            if let Some(c) = self.clubs.iter_mut().find(|c| c.id == club)
                && !c.member_ids.contains(&sid)
            {
                c.member_ids.push(sid);
            }
        }
    }

    /// Deletes a request (DELETE).
    pub fn delete_request(&mut self, user: usize, id: Uuid) -> Result<(), Refusal> {
        let idx = self.requests.iter().position(|r| r.id == id).ok_or((
            404,
            "entity_not_found",
            format!("Club request {id} not found"),
        ))?;
        // As the deployed service (api-notes.md, "Who may do what"): a student may delete
        // their own request, whatever its status; nobody else may.
        let u = &self.users[user];
        if u.role != "student" {
            return Err((403, "invalid_permission", NOT_A_STUDENT.into()));
        }
        let own = u
            .meta
            .as_ref()
            .and_then(|m| m.student_id)
            .is_some_and(|sid| sid == self.requests[idx].student_id);
        if !own {
            return Err((403, "invalid_permission", NOT_OWN.into()));
        }
        self.requests.remove(idx);
        self.mutations.push(format!("delete {id}"));
        Ok(())
    }

    /// Adds a contact to a club (POST).
    pub fn add_contact(
        &mut self,
        user: usize,
        club_id: Uuid,
        kind: crate::api::ContactType,
        value: String,
    ) -> Result<Uuid, Refusal> {
        let club = self.club(club_id).ok_or((
            404,
            "entity_not_found",
            format!("Club {club_id} not found"),
        ))?;
        if self.users[user].role != "student" {
            return Err((403, "invalid_permission", NOT_A_STUDENT.into()));
        }
        if !self.may_moderate(user, club_id) {
            return Err((403, "invalid_permission", NO_PERMISSION.into()));
        }
        let duplicate = club.contact_ids.iter().any(|cid| {
            self.contacts
                .get(cid)
                .is_some_and(|c| c.value.as_deref() == Some(value.as_str()))
        });
        if duplicate {
            return Err((
                400,
                "invalid_request",
                "Contact with the same value already exists".into(),
            ));
        }
        let id = Uuid::new_v4();
        self.contacts.insert(
            id,
            Contact {
                id,
                created_at: Some(Utc::now()),
                name: None,
                kind: Some(kind),
                value: Some(value),
                include_students: None,
                include_teachers: None,
                include_parents: None,
            },
        );
        if let Some(c) = self.clubs.iter_mut().find(|c| c.id == club_id) {
            c.contact_ids.push(id);
        }
        self.mutations.push(format!("contact {club_id} {id}"));
        Ok(id)
    }
}
