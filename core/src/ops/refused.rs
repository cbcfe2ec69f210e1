//! A write the server refused, or that was never sent: whether a bulk run stops sending
//! the rest ([`stops_run`]), and the English details of the audit lines that say so
//! ([`error_detail`], [`already_line`]). The state machine that writes those lines is
//! [`super::decision`].

use super::action::RowAction;
use super::audit::Outcome;
use crate::api::{ApiError, ErrorClass, MembershipStatus};
use crate::i18n::Lang;

/// True when the write was never sent: no connection could be made.
pub fn not_sent(e: &ApiError) -> bool {
    e.class() == ErrorClass::NotConnected
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

/// True when no later read in this run can succeed either: [`stops_run`]'s refusals that
/// are not a connection that could not be made (the service down may come back while a run
/// waits; a refused token, key or route does not). A re-read of a lost answer refused so
/// stops the run: waiting on would only send the next writes with the same credentials.
pub fn stops_reads(e: &ApiError) -> bool {
    stops_run(e) && !not_sent(e)
}

/// The English detail of a failed write: the error message (at most 300 characters), then
/// the server's error id an administrator can look up.
pub fn error_detail(e: &ApiError) -> String {
    let mut words = crate::text::truncate_chars(&e.describe(Lang::English), 300);
    if not_sent(e) {
        words.push_str(" (not sent)");
    }
    match e.error_id() {
        Some(id) => crate::tr!(Lang::English, "log-error-id", error = words, id = id),
        None => words,
    }
}

/// The English detail of a `queued` line: the write could not leave (`e`: no connection
/// could be made), so the server never received it; it waits for the service.
pub fn queued_detail(e: &ApiError) -> String {
    let words = crate::text::truncate_chars(&e.describe(Lang::English), 300);
    format!("not sent: {words}; it waits until the service answers again")
}

/// The English detail of an `overwritten` line: the status a later read showed in place of
/// the one the write set (`overwritten: declined since`).
pub fn overwritten_detail(read: &MembershipStatus) -> String {
    format!("overwritten: {read} since")
}

/// The outcome and English detail of a decision the server refused because the request was
/// already decided (`status`, [`ApiError::already_decided`]): `already` when that is what
/// `action` wanted, `conflict` when it is the opposite.
pub fn already_line(action: RowAction, status: &MembershipStatus) -> (Outcome, String) {
    if action.status().as_ref() == Some(status) {
        (
            Outcome::Already,
            format!("already {status} by someone else (this write changed nothing)"),
        )
    } else {
        (
            Outcome::Conflict,
            format!("not applied: someone else had already {status} it"),
        )
    }
}
