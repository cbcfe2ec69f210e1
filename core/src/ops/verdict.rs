//! How an awaited decision ended, as the server says ([`Verdict`]): what the command
//! line prints, audits and exits with ([`super::run::decide`] gives it).

use super::action::RowAction;
use super::audit::Outcome;
use super::decision::{self, Ending, Found, StillUnknown};
use crate::api::{ApiError, ClubRequest};

/// How a decision ended, as the server says.
#[derive(Debug)]
pub enum Verdict {
    /// The server confirmed it: the updated request (approve, decline) or nothing (delete).
    Done(Option<ClubRequest>),
    /// The server refused it: nothing changed.
    Refused(ApiError),
    /// The answer was lost and a re-read settled it: applied or not ([`Found::applied`]);
    /// the request as re-read, when it still exists.
    Settled {
        /// What the re-read showed.
        found: Found,
        /// How the answer was lost.
        cause: ApiError,
        /// The request as re-read (`None` when it is gone).
        request: Option<ClubRequest>,
    },
    /// The server refused the decision because the request was already decided by someone
    /// else ([`Answer::Already`]): settled at the server's status, `outcome` is
    /// [`Outcome::Already`] (the same decision) or [`Outcome::Conflict`] (the opposite).
    Already {
        /// The status the request has.
        status: crate::api::MembershipStatus,
        /// `already` or `conflict`.
        outcome: Outcome,
    },
    /// The answer was lost and no re-read could settle it before the run gave up: the
    /// outcome is unknown (never sent again).
    Unknown {
        /// How the answer was lost.
        cause: ApiError,
        /// Why the last re-read did not settle it.
        why: StillUnknown,
    },
}

impl Verdict {
    /// The verdict of a decision settled by its answer, with the request the answer gave.
    pub(super) fn of(action: RowAction, ending: Ending, request: Option<ClubRequest>) -> Verdict {
        match ending {
            Ending::Done => Verdict::Done(request),
            Ending::Refused(e) => Verdict::Refused(e),
            Ending::Already(status) => Verdict::Already {
                outcome: decision::already_line(action, &status).0,
                status,
            },
            // A lost answer is settled by the loop, which gives `Verdict::Settled` itself.
            Ending::Found { .. }
            | Ending::Undone
            | Ending::Unknown
            | Ending::NotSent
            | Ending::Overwritten(_) => {
                unreachable!("a decision answered is settled by its answer")
            }
        }
    }

    /// The audit outcome the verdict ends on: `ok`, `failed` or `unknown`.
    pub fn outcome(&self) -> Outcome {
        match self {
            Verdict::Done(_) => Outcome::Ok,
            Verdict::Refused(_) => Outcome::Failed,
            Verdict::Settled { found, .. } if found.applied() => Outcome::Ok,
            Verdict::Settled { .. } => Outcome::Failed,
            Verdict::Already { outcome, .. } => *outcome,
            Verdict::Unknown { .. } => Outcome::Unknown,
        }
    }

    /// The request as the server last showed it, when known.
    pub fn request(&self) -> Option<&ClubRequest> {
        match self {
            Verdict::Done(r) | Verdict::Settled { request: r, .. } => r.as_ref(),
            Verdict::Refused(_) | Verdict::Already { .. } | Verdict::Unknown { .. } => None,
        }
    }

    /// The verdict in English, for the command line: `approved`, the server's refusal,
    /// `approved (after a lost answer, settled by a re-read)`, ...
    pub fn english(&self, action: RowAction) -> String {
        match self {
            Verdict::Done(_) => action.past().to_owned(),
            Verdict::Refused(e) => decision::error_detail(e),
            Verdict::Settled { found, cause, .. } => decision::settled_detail(cause, found),
            Verdict::Already { status, .. } => decision::already_line(action, status).1,
            Verdict::Unknown { cause, why } => {
                let why = match why {
                    StillUnknown::ReadFailed(e) => format!("the re-read failed too: {e}"),
                    StillUnknown::LevelHidesStatus => {
                        "the re-read does not show the status".to_owned()
                    }
                    StillUnknown::Refused(e) => format!(
                        "the re-read was refused ({}): nothing more was sent",
                        decision::error_detail(e)
                    ),
                };
                format!(
                    "outcome unknown: the answer was lost ({}) and {why}; it was not sent again",
                    decision::error_detail(cause)
                )
            }
        }
    }
}
