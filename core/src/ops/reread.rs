//! A write whose answer was lost: what a re-read of the request shows ([`Reread`]), how it
//! settles the write ([`settle`]: applied or not, [`Found`]) or leaves it unknown
//! ([`StillUnknown`]), and the English details of the audit lines about it. The state
//! machine that follows such a write is [`super::decision`]; the wait between re-reads is its
//! [`super::decision::backoff`].

use super::action::RowAction;
use super::refused::error_detail;
use crate::api::{ApiError, MembershipStatus};
use crate::i18n::Lang;

/// What a re-read of the request showed, after a write whose answer was lost.
#[derive(Debug, Clone, PartialEq)]
pub enum Reread {
    /// The request was read; its membership status, when the fetch level shows it
    /// (`default` and above, api-notes.md "Fetch levels").
    Found(Option<MembershipStatus>),
    /// 404: the server does not know the request (any more).
    Missing,
    /// The re-read failed too (its message): the outcome stays unknown; read again later.
    Failed(String),
    /// After a new contact: the club was read with its contacts whole, and has a contact of
    /// that type and value (`true`) or not ([`Reread::of_club`]).
    Contact(bool),
}

impl Reread {
    /// The re-read's result as a [`Reread`]: what `proves` reads in a success, a 404 is
    /// [`Reread::Missing`], any other error [`Reread::Failed`] with its English message.
    pub fn of<T>(result: Result<&T, &ApiError>, proves: impl FnOnce(&T) -> Reread) -> Reread {
        match result {
            Ok(t) => proves(t),
            Err(ApiError::NotFound(_)) => Reread::Missing,
            Err(e) => Reread::Failed(crate::text::truncate_chars(&e.to_string(), 300)),
        }
    }

    /// What a read of the request shows: its membership status (when its level shows it).
    pub fn of_request(r: &crate::api::Reply<crate::api::ClubRequest>) -> Reread {
        Reread::Found(r.data.membership().cloned())
    }

    /// What a read of the club (its contacts whole) shows of the new contact `new`.
    pub fn of_club(
        new: &crate::api::NewContact,
    ) -> impl Fn(&crate::api::Reply<crate::api::Club>) -> Reread + '_ {
        move |r| Reread::Contact(has_contact(&r.data, new))
    }
}

/// How a write whose answer was lost ended, as a re-read showed it.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// Applied: the request is gone after a delete.
    Deleted,
    /// Applied: the request has the decided status.
    Decided(MembershipStatus),
    /// Not applied: the request is not on the server any more (after an approve/decline).
    Gone,
    /// Not applied: the request is still there after a delete.
    NotDeleted,
    /// Not applied: the request is still pending (safe to decide again).
    StillPending,
    /// Not applied: the request has another status now.
    Now(MembershipStatus),
    /// Applied: the club has the new contact.
    Added,
    /// Not applied: the club has no such contact (safe to add again).
    NotAdded,
}

impl Found {
    /// True when the write was applied (audit `ok`); else it was not (audit `failed`).
    pub fn applied(&self) -> bool {
        matches!(self, Found::Deleted | Found::Decided(_) | Found::Added)
    }

    /// In English, for the audit file and the command line: `approved`, `deleted`,
    /// `not applied: still pending`, ...
    pub fn english(&self) -> String {
        match self {
            Found::Deleted => "deleted".to_owned(),
            Found::Decided(s) => s.to_string(),
            Found::Gone => "the request is not on the server any more".to_owned(),
            Found::NotDeleted => "still on the server: not deleted".to_owned(),
            Found::StillPending => "not applied: still pending".to_owned(),
            Found::Now(s) => format!("not applied: the request is {s} now"),
            Found::Added => "added".to_owned(),
            Found::NotAdded => "not added".to_owned(),
        }
    }
}

/// Why a re-read could not settle a lost answer (the outcome stays unknown).
#[derive(Debug, Clone, PartialEq)]
pub enum StillUnknown {
    /// The re-read failed too (its error message).
    ReadFailed(String),
    /// The request was read at a fetch level that does not show its status.
    LevelHidesStatus,
    /// The re-read was refused so that no later one in this run can succeed (the token or
    /// key refused, the route gone: [`super::decision::stops_reads`]): the run stops.
    Refused(crate::api::ApiError),
}

/// The settlement rule: what a re-read of the request means for a decision whose answer
/// was lost. `Ok(found)` settles it (applied or not); `Err` leaves it unknown, to be read
/// again ([`super::decision::backoff`]).
pub fn settle(action: RowAction, reread: &Reread) -> Result<Found, StillUnknown> {
    match (action, reread) {
        (_, Reread::Failed(why)) => Err(StillUnknown::ReadFailed(why.clone())),
        (RowAction::AddContact, Reread::Contact(true)) => Ok(Found::Added),
        (RowAction::AddContact, Reread::Contact(false) | Reread::Missing) => Ok(Found::NotAdded),
        (RowAction::AddContact, Reread::Found(_)) | (_, Reread::Contact(_)) => {
            Err(StillUnknown::LevelHidesStatus)
        }
        (RowAction::Delete, Reread::Missing) => Ok(Found::Deleted),
        (RowAction::Delete, Reread::Found(_)) => Ok(Found::NotDeleted),
        (_, Reread::Missing) => Ok(Found::Gone),
        (_, Reread::Found(None)) => Err(StillUnknown::LevelHidesStatus),
        (_, Reread::Found(Some(s))) if Some(s) == action.status().as_ref() => {
            Ok(Found::Decided(s.clone()))
        }
        (_, Reread::Found(Some(MembershipStatus::Pending))) => Ok(Found::StillPending),
        (_, Reread::Found(Some(s))) => Ok(Found::Now(s.clone())),
    }
}

/// The detail of the `unknown` line of a write whose answer was lost.
pub fn lost_detail(e: &ApiError) -> String {
    crate::tr!(Lang::English, "log-answer-lost", error = error_detail(e))
}

/// The detail of the line that settles a lost answer (`ok` or `failed`): how the answer was
/// lost and what the re-read found.
pub fn settled_detail(cause: &ApiError, found: &Found) -> String {
    let words = crate::text::truncate_chars(&cause.describe(Lang::English), 300);
    let lost = crate::tr!(Lang::English, "log-answer-had-been-lost", error = words);
    crate::tr!(
        Lang::English,
        "log-settled",
        lost = lost,
        outcome = found.english()
    )
}

/// The detail of an `unknown` line for a write abandoned before its answer (a second
/// Ctrl-C, a quit).
pub fn abandoned_detail() -> String {
    crate::api::error::why::LEFT_BEFORE_ANSWER.to_owned()
}

/// True when `club` (read with its contacts whole) has a contact of `new`'s type and value
/// (values compared trimmed, without case): how a lost or interrupted new contact is settled.
fn has_contact(club: &crate::api::Club, new: &crate::api::NewContact) -> bool {
    let wanted = new.value.trim();
    club.contacts.iter().flatten().any(|c| {
        c.kind.as_ref() == Some(&new.kind)
            && c.value
                .as_deref()
                .is_some_and(|v| v.trim().eq_ignore_ascii_case(wanted))
    })
}
