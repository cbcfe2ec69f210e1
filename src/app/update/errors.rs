//! An API error in words: on the status line (at most 300 characters), with the fetch level
//! that explains a student's 403, and in the activity log and the audit file with the
//! error id a server administrator can look up.

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
