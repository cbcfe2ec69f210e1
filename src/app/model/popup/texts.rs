//! The pop-ups' words that depend on a decision, a count or a name: confirmations, the quit
//! question, and the refusals a pop-up shows. Each takes the reader's language and gives the
//! text of `assets/locales/{en,th}/popups.ftl` (keys `confirm-*`, `popup-*`, `form-*`); names
//! passed in are the caller's, already in the reader's language.

use uuid::Uuid;

use crate::api::{ContactProblem, ContactType, MAX_CONTACT_VALUE, NewContact, TokenError};
use crate::app::model::RowAction;
use crate::i18n::Lang;
use crate::tr;

/// The confirmation's title: "Delete?" / "ยืนยันการลบ".
pub fn confirm_title(lang: Lang, action: RowAction) -> String {
    tr!(lang, "confirm-title", action = action.verb())
}

/// The confirming button's label: "Delete" / "ลบ".
pub fn confirm_button(lang: Lang, action: RowAction) -> String {
    tr!(lang, "confirm-button", action = action.verb())
}

/// The question for one club request: "Delete club request {id}?".
pub fn confirm_one(lang: Lang, action: RowAction, id: Uuid) -> String {
    tr!(
        lang,
        "confirm-one",
        action = action.verb(),
        id = id.to_string()
    )
}

/// The question for `n` marked club requests, naming their `club` when they are all of one
/// (see [`crate::app::Model::one_club`]): "Approve 5 marked club requests of Computer Club?".
pub fn confirm_many(lang: Lang, action: RowAction, n: usize, club: Option<&str>) -> String {
    match club {
        Some(club) => tr!(
            lang,
            "confirm-many-of-club",
            action = action.verb(),
            n = n,
            club = club
        ),
        None => tr!(lang, "confirm-many", action = action.verb(), n = n),
    }
}

/// The warning that `n` of the marked requests are hidden by the filter.
pub fn confirm_hidden(lang: Lang, n: usize) -> String {
    tr!(lang, "confirm-hidden", n = n)
}

/// The status line after "no" to a confirmation: "approve cancelled".
pub fn confirm_cancelled(lang: Lang, action: RowAction) -> String {
    tr!(lang, "confirm-cancelled", action = action.verb())
}

/// The quit question's first line: `decisions` held decisions on `requests` club requests
/// not sent yet.
pub fn quit_held_summary(lang: Lang, decisions: usize, requests: usize) -> String {
    tr!(lang, "popup-quit-held", n = decisions, requests = requests)
}

/// One held decision in the quit question: the verb, then `what` (a request's label, or
/// [`quit_held_requests`] for several).
pub fn quit_held_row(lang: Lang, action: RowAction, what: &str) -> String {
    tr!(
        lang,
        "popup-quit-held-row",
        action = action.verb(),
        what = what
    )
}

/// "{n} requests": a held decision on several requests.
pub fn quit_held_requests(lang: Lang, n: usize) -> String {
    tr!(lang, "popup-quit-held-requests", n = n)
}

/// "… and {n} more": the held decisions the quit question does not list.
pub fn quit_held_more(lang: Lang, n: usize) -> String {
    tr!(lang, "popup-quit-held-more", n = n)
}

/// Why a pasted token was refused before any request (shown in the sign-in box).
pub fn token_refusal(lang: Lang, e: &TokenError) -> String {
    let key = match e {
        TokenError::Empty => "popup-token-empty",
        TokenError::NoAccessToken => "popup-token-no-access-token",
        TokenError::Malformed => "popup-token-malformed",
    };
    crate::i18n::tr(lang, key)
}

/// Why the add-ids box took nothing: no text, or only `bad` words that are not ids (shown
/// as typed, comma-separated).
pub fn add_ids_refusal(lang: Lang, bad: &[String]) -> String {
    if bad.is_empty() {
        crate::i18n::tr(lang, "popup-add-ids-empty")
    } else {
        tr!(lang, "popup-add-ids-bad", ids = bad.join(", "))
    }
}

/// A contact type's name: the server's name (`phone`, `line` …) in English, the Thai word
/// in Thai (brand names as Thai writes them: ไลน์, เฟซบุ๊ก); a type no document lists as
/// the server names it.
pub fn contact_type_name(lang: Lang, kind: &ContactType) -> String {
    tr!(lang, "form-contact-type", kind = kind.as_str())
}

/// Why the new-contact form refuses `contact` before any request, in `lang`; `None` when
/// [`NewContact::check`] accepts it: empty, too long, control characters, or not a valid
/// value of its type (the value quoted as typed).
pub fn contact_refusal(lang: Lang, contact: &NewContact) -> Option<String> {
    Some(match contact.check().err()? {
        ContactProblem::Empty => crate::i18n::tr(lang, "form-contact-empty"),
        ContactProblem::TooLong => tr!(lang, "form-contact-too-long", n = MAX_CONTACT_VALUE),
        ContactProblem::Control => crate::i18n::tr(lang, "form-contact-control"),
        ContactProblem::Invalid { value, kind } => tr!(
            lang,
            "form-contact-invalid",
            value = format!("\"{value}\""),
            kind = kind.as_str(),
            format = crate::ops::parse::contact_format_in(lang, &kind)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(lang: Lang, kind: ContactType, value: &str) -> Option<String> {
        contact_refusal(
            lang,
            &NewContact {
                kind,
                value: value.into(),
            },
        )
    }

    #[test]
    fn contact_refusals_keep_the_english_of_the_check_and_have_thai() {
        for (kind, value) in [
            (ContactType::OtherType, "  "),
            (ContactType::OtherType, "x".repeat(201).as_str()),
            (ContactType::OtherType, "a\u{7}b"),
            (ContactType::Email, "club1school.example"),
        ] {
            let en = refusal(Lang::English, kind.clone(), value).expect("refused");
            let check = NewContact {
                kind: kind.clone(),
                value: value.into(),
            }
            .check()
            .expect_err("refused");
            assert!(
                en.starts_with(&check.to_string()),
                "English is the check's own words: {en}"
            );
            let th = refusal(Lang::Thai, kind, value).expect("refused");
            assert!(
                th.chars().any(|c| ('\u{e00}'..='\u{e7f}').contains(&c)),
                "{th}"
            );
        }
        assert!(refusal(Lang::Thai, ContactType::Email, "a@b.example").is_none());
        let th = refusal(Lang::Thai, ContactType::OtherType, &"x".repeat(201)).expect("long");
        assert!(th.contains("200"), "the limit of the check: {th}");
        let th = refusal(Lang::Thai, ContactType::Email, "nope").expect("bad");
        assert!(th.contains("อีเมล") && th.contains("\"nope\""), "{th}");
        // The format `ops::parse` expects, in the reader's language.
        assert!(th.contains("club@school.ac.th"), "{th}");
        let en = refusal(Lang::English, ContactType::Phone, "12").expect("bad");
        assert!(en.ends_with("9 to 15 digits, like +66 81 234 5678"), "{en}");
    }

    #[test]
    fn contact_types_in_thai_brand_names_as_thai_writes_them() {
        assert_eq!(contact_type_name(Lang::Thai, &ContactType::Phone), "โทรศัพท์");
        assert_eq!(contact_type_name(Lang::Thai, &ContactType::Line), "ไลน์");
        assert_eq!(contact_type_name(Lang::English, &ContactType::Line), "line");
        assert_eq!(
            contact_type_name(Lang::English, &ContactType::Phone),
            "phone"
        );
    }
}
