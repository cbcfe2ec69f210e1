//! Exit codes of the scripting subcommands (documented in `docs/src/scripts/scripting.md`), and how
//! a run's code is chosen: from an error ([`Exit::of`]), from a run's verdicts
//! ([`Exit::of_run`]), the worse of two ([`Exit::and`]).

use std::process::ExitCode;

use uuid::Uuid;

use crate::api::ApiError;
use crate::ops::run::{self, Verdict};
use crate::ops::{Outcome, RowAction};

/// How a scripting run ended. The process exit code is the discriminant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: everything succeeded.
    Ok = 0,
    /// 1: one or more items failed; the others still ran.
    Failed = 1,
    /// 2: usage or configuration error (bad arguments or ids, no server or API key,
    /// read-only mode, credentials refused with 401).
    Usage = 2,
    /// 3: the server lacks the operation (404 "Route not found", api-notes.md).
    Unavailable = 3,
    /// 4: a write's answer was lost and no re-read could tell whether it was applied: its
    /// outcome is unknown (audited `unknown`; never sent again: check it with
    /// `club-admin requests show ID` before deciding again).
    Unknown = 4,
    /// 75: refused before it ran because the server was busy (over SSH: the key's or the
    /// server's connections, dashboards or commands at their limit): nothing was sent; the
    /// same command a moment later runs (`EX_TEMPFAIL` of sysexits.h).
    Busy = 75,
}

/// The exit code of a command interrupted (Ctrl-C) before it sent anything: 128 + SIGINT,
/// as a shell reports it.
pub const INTERRUPTED: u8 = 130;

/// The exit code of a command over SSH that passed the server's time limit
/// (`exec_time_limit_minutes`) and was not done by then: 124, as `timeout(1)` reports one.
pub const TIME_LIMIT: u8 = 124;

/// Every exit code of the program and what it means: the one table `--help` and the man
/// pages' EXIT STATUS are written from ([`exit_codes_text`]).
pub const EXIT_CODES: [(u8, &str); 8] = [
    (
        Exit::Ok as u8,
        "success: everything asked was done (serve-ssh --check: no line is wrong)",
    ),
    (
        Exit::Failed as u8,
        "one or more items failed, the others still ran (serve-ssh --check: a line is wrong; serve-ssh status: no server answers)",
    ),
    (
        Exit::Usage as u8,
        "usage or configuration error: bad arguments or ids, no server or API key, read-only mode, credentials refused (401), a server that could not start",
    ),
    (
        Exit::Unavailable as u8,
        "the service lacks the operation (404 \"Route not found\": the service 0.9.0 cannot approve or decline; nothing was sent)",
    ),
    (
        Exit::Unknown as u8,
        "a write's answer was lost and no re-read could tell whether it was applied (audited unknown, never sent again: check it with club-admin requests show ID)",
    ),
    (
        Exit::Busy as u8,
        "over SSH: the server was busy (the key's or the server's connections, dashboards or commands at their limit): nothing was run; the same command a moment later runs",
    ),
    (
        TIME_LIMIT,
        "over SSH: the command passed the server's time limit (exec_time_limit_minutes) before it was done: nothing more was sent after it, what was sent is audited",
    ),
    (
        INTERRUPTED,
        "interrupted (Ctrl-C) before anything was sent: nothing changed on the service",
    ),
];

/// [`EXIT_CODES`] as the end of `club-admin --help` prints it: a heading, then one
/// indented `CODE  meaning` line each.
pub fn exit_codes_text() -> String {
    let mut out = String::from("Exit status:");
    for (code, what) in EXIT_CODES {
        out.push_str(&format!("\n  {code:<3}  {what}"));
    }
    out
}

impl Exit {
    /// The exit code of a run: the worst of its verdicts. Applied (confirmed or settled) is 0;
    /// refused is [`Exit::of`] its error; settled as not applied or not sent is 1; an outcome
    /// still unknown is [`Exit::Unknown`].
    pub fn of_verdicts(results: &[(Uuid, Option<Verdict>)]) -> Exit {
        results
            .iter()
            .fold(Exit::Ok, |acc, (_, v)| acc.and(Exit::of_verdict(v)))
    }

    /// The exit code of a whole run: its verdicts ([`Exit::of_verdicts`]), and a failure when a request
    /// left out before sending fails the run ([`run::Undecided::fails`]: its status could not be
    /// read first, or it is decided the other way). A run that sent nothing because nothing
    /// could be read is no success.
    pub fn of_run(
        split: &run::Undecided,
        action: RowAction,
        results: &[(Uuid, Option<Verdict>)],
    ) -> Exit {
        let exit = Exit::of_verdicts(results);
        if split.fails(action) {
            exit.and(Exit::Failed)
        } else {
            exit
        }
    }

    /// The exit code one verdict stands for (`None`: never answered).
    fn of_verdict(v: &Option<Verdict>) -> Exit {
        match v {
            None => Exit::Failed,
            Some(Verdict::Refused(e)) => Exit::of(e),
            // The re-read was refused (a token refused: sign in again): that refusal's code
            // where it ranks above `unknown`.
            Some(Verdict::Unknown {
                why: crate::ops::reread::StillUnknown::Refused(e),
                ..
            }) => Exit::of(e).and(Exit::Unknown),
            Some(v) => match v.outcome() {
                // Someone else made the same decision first: the request is as asked.
                Outcome::Ok | Outcome::Already => Exit::Ok,
                Outcome::Unknown => Exit::Unknown,
                Outcome::Failed
                | Outcome::Conflict
                | Outcome::Undone
                | Outcome::Sending
                | Outcome::Queued
                | Outcome::NotSent
                | Outcome::Overwritten => Exit::Failed,
            },
        }
    }

    /// The worse of two outcomes, ranked Ok < Failed < Unknown < Busy < Unavailable < Usage: a run that hit
    /// a configuration problem reports it even if some item also failed.
    pub fn and(self, other: Exit) -> Exit {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    fn rank(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Failed => 1,
            Exit::Unknown => 2,
            Exit::Busy => 3,
            Exit::Unavailable => 4,
            Exit::Usage => 5,
        }
    }

    /// The outcome one failed API call stands for: 401 is a configuration problem (the key
    /// or token), and so is a server that is not the club service (the base URL);
    /// [`ApiError::OperationUnavailable`] is 3, anything else is 1.
    pub fn of(e: &ApiError) -> Exit {
        match e {
            ApiError::OperationUnavailable(_) => Exit::Unavailable,
            ApiError::Unauthorized { .. }
            | ApiError::Config(_)
            | ApiError::NotTheService { .. } => Exit::Usage,
            ApiError::Forbidden(_)
            | ApiError::NotFound(_)
            | ApiError::Invalid(_)
            | ApiError::Conflict(_)
            | ApiError::Server(_)
            | ApiError::Timeout { .. }
            | ApiError::Connect { .. }
            | ApiError::Decode { .. }
            | ApiError::Internal
            | ApiError::NotSent(_)
            | ApiError::NoAnswer(_) => Exit::Failed,
        }
    }

    /// The numeric code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{AuthErrorKind, ErrorInfo};

    #[test]
    fn codes_and_ranking() {
        assert_eq!(
            [
                Exit::Ok,
                Exit::Failed,
                Exit::Usage,
                Exit::Unavailable,
                Exit::Unknown
            ]
            .map(Exit::code),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(Exit::Ok.and(Exit::Failed), Exit::Failed);
        assert_eq!(Exit::Failed.and(Exit::Unavailable), Exit::Unavailable);
        assert_eq!(Exit::Failed.and(Exit::Unknown), Exit::Unknown);
        assert_eq!(Exit::Unknown.and(Exit::Unavailable), Exit::Unavailable);
        assert_eq!(Exit::Unavailable.and(Exit::Usage), Exit::Usage);
    }

    #[test]
    fn classification_follows_the_api_error_class() {
        let route = ApiError::from_response(
            404,
            br#"{"error":{"error_type":"entity_not_found","detail":"Route not found"}}"#,
        );
        assert_eq!(Exit::of(&route), Exit::Unavailable);
        assert!(crate::ops::decision::stops_run(&route));
        let unknown = ApiError::from_response(
            404,
            br#"{"error":{"error_type":"entity_not_found","detail":"Club request not found"}}"#,
        );
        assert_eq!(Exit::of(&unknown), Exit::Failed);
        assert!(!crate::ops::decision::stops_run(&unknown));
        let auth = ApiError::Unauthorized {
            kind: AuthErrorKind::InvalidToken,
            info: ErrorInfo::default(),
        };
        assert_eq!(Exit::of(&auth), Exit::Usage);
        assert!(crate::ops::decision::stops_run(&auth));
    }
}
