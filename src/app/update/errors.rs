//! An API error in words: on the status line (at most 300 characters), with the fetch level
//! that explains a student's 403, and in the activity log and the audit file with the
//! error id a server administrator can look up; and a start-up warning (a secret file
//! others can read), said the same way.

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
        let key = m
            .keymap
            .key_for(
                crate::app::keymap::Scope::Queue,
                crate::app::Action::LowerLevel,
            )
            .map(|k| k.to_string())
            .unwrap_or_else(|| ":level".to_owned());
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
    let check = crate::i18n::tr(m.lang, "log-warning-check");
    super::log(m, "warning", None, check, Err(sentence.clone()));
    // The status line keeps it until something newer is said (the first load does
    // not replace it).
    let text = crate::tr!(m.lang, "status-warning", warning = sentence);
    super::say(m, crate::app::model::Severity::Error, &text);
    if let Some(n) = m.notice.as_mut() {
        n.start_warning = true;
    }
}
