//! Words of decisions and statuses in the reader's language, for the status line, row errors
//! and the activity log (keys `status-verb`, `status-progress`,
//! `status-past`, `status-state` of `assets/locales/*/status.ftl`).
//!
//! [`RowAction::verb`] stays the English code for the audit file and the log's `what`;
//! these are what the moderator reads.

use super::row::RowAction;
use crate::api::{FetchLevel, MembershipStatus};
use crate::i18n::Lang;
use crate::tr;

/// The decision as a verb: "approve" / "อนุมัติ".
pub fn verb(lang: Lang, action: RowAction) -> String {
    tr!(lang, "status-verb", action = action.verb())
}

/// The decision under way, ending in `…`: "approving…" / "กำลังอนุมัติ…".
pub fn progress(lang: Lang, action: RowAction) -> String {
    tr!(lang, "status-progress", action = action.verb())
}

/// The decision done: "approved" / "อนุมัติแล้ว".
pub fn past(lang: Lang, action: RowAction) -> String {
    tr!(lang, "status-past", action = action.verb())
}

/// A membership status: "pending", "approved", "declined" / "รอพิจารณา", "อนุมัติแล้ว",
/// "ปฏิเสธแล้ว"; a status no document lists is shown as the server wrote it (sanitised, at
/// most 20 columns).
pub fn status_word(lang: Lang, status: &MembershipStatus) -> String {
    match status {
        MembershipStatus::Other(s) => crate::text::clean(s, 20),
        known => tr!(lang, "status-state", status = known.as_str()),
    }
}

/// A fetch level's name in `lang` (keys `detail-level-*`): "default" / "ปกติ". The English
/// names are the wire names (interface-spec.md) the `:level` command takes.
pub fn level(lang: Lang, level: FetchLevel) -> String {
    let key = match level {
        FetchLevel::IdOnly => "detail-level-id-only",
        FetchLevel::Compact => "detail-level-compact",
        FetchLevel::Default => "detail-level-default",
        FetchLevel::Detailed => "detail-level-detailed",
    };
    crate::i18n::tr(lang, key)
}

/// "N requests" (N ≥ 2 in practice): "51 requests" / "51 คำขอ".
pub fn requests(lang: Lang, n: usize) -> String {
    tr!(lang, "status-requests", n = n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english_progress(a: RowAction) -> &'static str {
        match a {
            RowAction::Approve => "approving",
            RowAction::Decline => "declining",
            RowAction::Delete => "deleting",
            RowAction::AddContact => "adding the contact",
        }
    }

    #[test]
    fn english_words_are_the_codes_and_thai_words_are_thai() {
        for a in [RowAction::Approve, RowAction::Decline, RowAction::Delete] {
            assert_eq!(verb(Lang::English, a), a.verb());
            assert_eq!(
                progress(Lang::English, a),
                format!("{}…", english_progress(a))
            );
            assert_eq!(past(Lang::English, a), a.past());
            for w in [
                verb(Lang::Thai, a),
                progress(Lang::Thai, a),
                past(Lang::Thai, a),
            ] {
                assert!(!w.chars().any(|c| c.is_ascii_alphabetic()), "{w}");
            }
        }
        assert_eq!(verb(Lang::Thai, RowAction::Decline), "ปฏิเสธ");
        // SARA AM comes out as NIKHAHIT + SARA AA (crate::text::for_terminal).
        let approving = crate::text::for_terminal("กำลังอนุมัติ…").into_owned();
        assert_eq!(progress(Lang::Thai, RowAction::Approve), approving);
        for s in MembershipStatus::KNOWN {
            assert_eq!(status_word(Lang::English, s), s.as_str());
            assert_ne!(status_word(Lang::Thai, s), s.as_str());
        }
        let odd = MembershipStatus::Other("waitlisted".into());
        assert_eq!(status_word(Lang::Thai, &odd), "waitlisted");
        assert_eq!(requests(Lang::English, 51), "51 requests");
        assert_eq!(
            requests(Lang::Thai, 51),
            crate::text::for_terminal("คำขอ 51 รายการ")
        );
    }
}
