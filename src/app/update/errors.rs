//! An API error in words: on the status line (at most 300 characters), with the fetch level
//! that explains a student's 403, and in the activity log and the audit file with the
//! error id a server administrator can look up; and a start-up warning (a secret file
//! others can read, a host budget that cannot be used), said the same way.

use crate::api::ApiError;
use crate::app::model::Model;
use crate::i18n::Lang;

/// An error in words in `lang` ([`ApiError::describe`]), at most 300 characters (a proxy's
/// HTML page is not a message). `Lang::English` for the audit file.
pub(super) fn error_text(lang: Lang, e: &ApiError) -> String {
    crate::text::truncate_chars(&e.describe(lang), 300)
}

/// A failed read in words; a 403 while students are read above `compact` says that the
/// fetch level is why (a student account may not read `default` students, api-notes.md),
/// and which key lowers it.
pub(super) fn read_error_text(m: &Model, e: &ApiError) -> String {
    let text = error_text(m.lang, e);
    let level = m.levels.descendant_fetch_level;
    if matches!(e, ApiError::Forbidden(_)) && level > crate::api::FetchLevel::Compact {
        let key = super::tell::queue_key(m, crate::app::keymap::Action::LowerLevel, ":level");
        crate::tr!(
            m.lang,
            "error-at-fetch-level",
            error = text,
            level = crate::app::model::words::level(m.lang, level),
            key = key
        )
    } else {
        text
    }
}

/// An error for the activity log (in `lang`) and the audit file (`Lang::English`): the
/// words, then the error id a server administrator can look up (the status line leaves the
/// id out).
pub(super) fn log_text(lang: Lang, e: &ApiError) -> String {
    match e.error_id() {
        Some(id) => crate::tr!(lang, "log-error-id", error = error_text(lang, e), id = id),
        None => error_text(lang, e),
    }
}

/// A start-up warning: in the log, and on the status line until something newer is said.
pub(super) fn on_warning(m: &mut Model, w: &crate::config::ReadableSecret) {
    // The log: "warning  secret file check failed: the token file ... can be read by
    // other users (mode 644): run chmod 600 ... so that only you can read it".
    let sentence = w.text(m.lang);
    start_warning(m, "log-warning-check", sentence);
}

/// The warning `sentence` in the log under the check `check` (a Fluent key), and on the
/// status line until something newer is said (the first load does not replace it).
fn start_warning(m: &mut Model, check: &str, sentence: String) {
    let check = crate::i18n::tr(m.lang, check);
    super::tell::log(m, "warning", None, check, Err(sentence.clone()));
    let text = crate::tr!(m.lang, "status-warning", warning = sentence);
    super::tell::say(m, crate::app::model::Severity::Error, &text);
    if let Some(n) = m.notice.as_mut() {
        n.start_warning = true;
    }
}

/// The host budget's status (`Msg::Budget`): a part refused is said once, as a start-up
/// warning ("the host budget's /tmp/club-admin-budget belongs to another user (uid 1000):
/// going on without the shared budget, at most 2 calls in flight"); calls going one at a
/// time are said when it starts (the log and the status line), and after a bulk action's
/// progress while it lasts (`Model::status_line`).
pub(super) fn on_budget(
    m: &mut Model,
    status: crate::api::budget::BudgetStatus,
) -> Vec<crate::app::msg::Effect> {
    let was = std::mem::replace(&mut m.budget, status);
    if let Some(r) = m.budget.refusal.clone()
        && was.refusal.as_ref() != Some(&r)
    {
        start_warning(m, "log-budget-check", r.text(m.lang));
    }
    if m.budget.busy && !was.busy {
        let text = crate::i18n::tr(m.lang, "status-budget-busy");
        let check = crate::i18n::tr(m.lang, "log-budget-check");
        super::tell::log(m, "warning", None, check, Err(text.clone()));
        super::tell::say(m, crate::app::model::Severity::Info, &text);
    }
    Vec::new()
}
