//! What a write's answer means, and how a lost answer is settled: the rule both faces
//! follow.
//!
//! A write (approve, decline, delete, new contact) gets one of three answers:
//! - **done**: the server confirmed it (2xx);
//! - **refused**: the server answered with a refusal (4xx): nothing changed, safe to retry;
//! - **lost**: no answer can be trusted (the connection dropped or timed out, a 5xx, an
//!   unreadable 2xx): the write may or may not have been applied. The outcome is `unknown`
//!   until a re-read of the request tells ([`settle`]). A write whose outcome is unknown is
//!   never sent again.

use std::time::Duration;

use super::action::RowAction;
use crate::api::{ApiError, ConnectFailure, MembershipStatus};

/// The meaning of a write's answer.
#[derive(Debug)]
pub enum Answer<T> {
    /// The server confirmed the write; its answer (the updated request, the new contact).
    Done(T),
    /// The server refused a decision because the request was already decided, with the
    /// status it has (403 "already been approved|declined"; api-notes.md "Many moderators
    /// at once"): settled at that status, not a failure, never retried.
    Already(MembershipStatus),
    /// The server refused it (nothing changed).
    Refused(ApiError),
    /// No answer can be trusted: the outcome is unknown until a re-read settles it.
    Lost(ApiError),
}

/// True when a write may have reached the server although no answer says so: the
/// connection closed or timed out after the request was sent, the answer could not be read,
/// or a 5xx came back (a server fault may come after the commit; deployed behaviour,
/// api-notes.md "Errors"). A connection that could not be made at all
/// ([`ConnectFailure::NoConnection`]: refused, unreachable, DNS, TLS) sent nothing: that
/// write is refused, not lost.
pub fn answer_lost(e: &ApiError) -> bool {
    match e {
        ApiError::Connect { failure, .. } => *failure != ConnectFailure::NoConnection,
        ApiError::Timeout { .. }
        | ApiError::Server(_)
        | ApiError::Decode { .. }
        | ApiError::NotTheService { .. }
        | ApiError::Internal => true,
        _ => false,
    }
}

/// True when the write was never sent: no connection could be made.
pub fn not_sent(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Connect {
            failure: ConnectFailure::NoConnection,
            ..
        }
    )
}

/// The meaning of a write's result ([`answer_lost`] decides between refused and lost).
pub fn classify<T>(result: Result<T, ApiError>) -> Answer<T> {
    match result {
        Ok(t) => Answer::Done(t),
        Err(e) => match e.already_decided() {
            Some(status) => Answer::Already(status),
            None if answer_lost(&e) => Answer::Lost(e),
            None => Answer::Refused(e),
        },
    }
}

/// True when no further call of the same kind can succeed in this run: the operation is
/// missing (404 "Route not found", [`ApiError::OperationUnavailable`]), the credentials were
/// refused (401), the client is misconfigured, or the server cannot be reached at all (no
/// connection could be made), or the server is not the club service (its answer is not the
/// service's envelope). A bulk run stops sending the rest.
pub fn stops_run(e: &ApiError) -> bool {
    not_sent(e)
        || matches!(
            e,
            ApiError::OperationUnavailable(_)
                | ApiError::Unauthorized { .. }
                | ApiError::Config(_)
                | ApiError::NotTheService { .. }
        )
}

/// What a re-read of the request showed, after a write whose answer was lost.
#[derive(Debug, Clone, PartialEq)]
pub enum Reread {
    /// The request was read; its membership status, when the fetch level shows it
    /// (`default` and above, api-notes.md "Fetch levels").
    Found(Option<MembershipStatus>),
    /// 404: the server does not know the request (any more).
    Missing,
    /// The re-read failed too (in words): the outcome stays unknown; read again later.
    Failed(String),
}

impl Reread {
    /// The re-read's result as a [`Reread`]: a 404 is [`Reread::Missing`], any other error
    /// [`Reread::Failed`] with its English words.
    pub fn of<T>(
        result: Result<T, ApiError>,
        status: impl FnOnce(&T) -> Option<MembershipStatus>,
    ) -> Reread {
        match result {
            Ok(t) => Reread::Found(status(&t)),
            Err(ApiError::NotFound(_)) => Reread::Missing,
            Err(e) => Reread::Failed(crate::text::truncate_chars(&e.to_string(), 300)),
        }
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
}

impl Found {
    /// True when the write was applied (audit `ok`); else it was not (audit `failed`).
    pub fn applied(&self) -> bool {
        matches!(self, Found::Deleted | Found::Decided(_))
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
        }
    }
}

/// Why a re-read could not settle a lost answer (the outcome stays unknown).
#[derive(Debug, Clone, PartialEq)]
pub enum StillUnknown {
    /// The re-read failed too (its error in words).
    ReadFailed(String),
    /// The request was read at a fetch level that does not show its status.
    LevelHidesStatus,
}

/// The settlement rule: what a re-read of the request means for a decision whose answer
/// was lost. `Ok(found)` settles it (applied or not); `Err` leaves it unknown, to be read
/// again ([`settle_backoff`]).
pub fn settle(action: RowAction, reread: &Reread) -> Result<Found, StillUnknown> {
    match (action, reread) {
        (_, Reread::Failed(why)) => Err(StillUnknown::ReadFailed(why.clone())),
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

/// The first wait before re-reading a request whose write lost its answer.
pub const SETTLE_FIRST: Duration = Duration::from_secs(1);
/// The longest wait between two re-reads.
pub const SETTLE_MAX: Duration = Duration::from_secs(30);

/// Whether a decision may be sent to a request whose membership status, as last read, is
/// `known` (both faces): an approve or a decline only to a request read as pending. A
/// request whose status was never read may have been decided before; were its answer lost,
/// a re-read showing it decided could not be told from this decision. A delete goes to any
/// request (nothing else deletes). The command line reads every status first
/// (`run::undecided`); the dashboard reads the row first.
pub fn may_send(action: RowAction, known: Option<&MembershipStatus>) -> bool {
    match action.status() {
        None => true,
        Some(_) => known == Some(&MembershipStatus::Pending),
    }
}

/// The wait before re-read number `attempt + 1` of an unsettled request (attempt counts the
/// re-reads that failed): 1 s, 2 s, 4 s, ... at most 30 s. The same schedule in both faces.
pub fn settle_backoff(attempt: u32) -> Duration {
    SETTLE_FIRST
        .saturating_mul(1u32 << attempt.min(5))
        .min(SETTLE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ErrorInfo;

    #[test]
    fn a_refusal_is_refused_and_a_fault_is_lost() {
        let forbidden = ApiError::Forbidden(ErrorInfo::default());
        assert!(matches!(classify::<()>(Err(forbidden)), Answer::Refused(_)));
        let server = ApiError::Server(ErrorInfo::default());
        assert!(matches!(classify::<()>(Err(server)), Answer::Lost(_)));
        let connect = |failure| ApiError::Connect {
            failure,
            host: "h".into(),
            cause: None,
        };
        let refused = connect(ConnectFailure::NoConnection);
        assert!(stops_run(&refused), "an unreachable server stops the run");
        assert!(matches!(classify::<()>(Err(refused)), Answer::Refused(_)));
        let closed = connect(ConnectFailure::ClosedWithoutAnswer);
        assert!(matches!(classify::<()>(Err(closed)), Answer::Lost(_)));
        assert!(matches!(classify(Ok(1)), Answer::Done(1)));
    }

    #[test]
    fn a_reread_settles_by_the_servers_status() {
        use MembershipStatus::*;
        let a = RowAction::Approve;
        assert_eq!(
            settle(a, &Reread::Found(Some(Approved))),
            Ok(Found::Decided(Approved))
        );
        assert_eq!(
            settle(a, &Reread::Found(Some(Pending))),
            Ok(Found::StillPending)
        );
        assert_eq!(
            settle(a, &Reread::Found(Some(Declined))),
            Ok(Found::Now(Declined))
        );
        assert_eq!(settle(a, &Reread::Missing), Ok(Found::Gone));
        assert_eq!(
            settle(a, &Reread::Found(None)),
            Err(StillUnknown::LevelHidesStatus)
        );
        assert!(settle(a, &Reread::Failed("x".into())).is_err());
        let d = RowAction::Delete;
        assert_eq!(settle(d, &Reread::Missing), Ok(Found::Deleted));
        assert_eq!(
            settle(d, &Reread::Found(Some(Pending))),
            Ok(Found::NotDeleted)
        );
        assert!(Found::Deleted.applied() && !Found::StillPending.applied());
    }

    #[test]
    fn rereads_back_off_from_one_second_to_thirty() {
        let waits: Vec<u64> = (0..8).map(|a| settle_backoff(a).as_secs()).collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30, 30]);
    }
}
