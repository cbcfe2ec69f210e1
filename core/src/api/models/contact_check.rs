//! Checks of a new contact's value by type, before it is sent: the service answers a bad
//! value with a bare 400 (or stores it), so the form says what is wrong first. The service's
//! own rule, a value unique per club (400 "Contact with the same value already exists",
//! api-notes.md), can only be checked by the server.

use super::{ContactType, NewContact};

/// Longest value accepted (the service's bodies are capped at 2 MiB; a contact is a line).
pub const MAX_VALUE: usize = 200;

/// What is wrong with a new contact's value ([`NewContact::check`]). `Display` gives English
/// words for the command line; the dashboard's form says it in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContactProblem {
    /// Nothing but spaces.
    #[error("type a value")]
    Empty,
    /// Longer than [`MAX_VALUE`] characters.
    #[error("at most {MAX_VALUE} characters")]
    TooLong,
    /// Holds a control character.
    #[error("no control characters")]
    Control,
    /// Not a value of its type (the value is in the error, as typed and trimmed; it holds
    /// no control character, checked first).
    #[error("\"{value}\" is not a valid {kind} value")]
    Invalid {
        /// The value, trimmed.
        value: String,
        /// Its type.
        kind: ContactType,
    },
}

impl NewContact {
    /// The value, checked for its type: an e-mail address, a phone number (9 to 15 digits,
    /// with `+`, spaces, dashes, dots or brackets), a web address (`http://` or `https://`),
    /// a LINE id (`@`-optional, 4 to 20 of `a-z 0-9 . _ -`), an Instagram name (1 to 30 of
    /// `A-Z a-z 0-9 . _`), a Facebook page (a `facebook.com` address or a name of 5 to 50
    /// letters, digits and dots), a Discord name or invite; anything else non-empty.
    ///
    /// Errors: what is wrong ([`ContactProblem`]).
    pub fn check(&self) -> Result<(), ContactProblem> {
        let v = self.value.trim();
        if v.is_empty() {
            return Err(ContactProblem::Empty);
        }
        if v.chars().count() > MAX_VALUE {
            return Err(ContactProblem::TooLong);
        }
        if v.chars().any(char::is_control) {
            return Err(ContactProblem::Control);
        }
        let ok = match &self.kind {
            ContactType::Email => is_email(v),
            ContactType::Phone => is_phone(v),
            ContactType::Website => is_web(v),
            ContactType::Line => is_name(v.strip_prefix('@').unwrap_or(v), 4, 20, ".-_", true),
            ContactType::Instagram => is_name(v.strip_prefix('@').unwrap_or(v), 1, 30, "._", false),
            ContactType::Facebook => is_web_on(v, "facebook.com") || is_name(v, 5, 50, ".", false),
            ContactType::Discord => is_web_on(v, "discord.gg") || is_name(v, 2, 32, "._", false),
            ContactType::OtherType | ContactType::Other(_) => true,
        };
        if ok {
            Ok(())
        } else {
            Err(ContactProblem::Invalid {
                value: v.to_owned(),
                kind: self.kind.clone(),
            })
        }
    }
}

fn is_email(v: &str) -> bool {
    let Some((local, domain)) = v.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !v.chars().any(char::is_whitespace)
}

fn is_phone(v: &str) -> bool {
    let digits = v.chars().filter(char::is_ascii_digit).count();
    (9..=15).contains(&digits)
        && v.chars()
            .all(|c| c.is_ascii_digit() || " +-.()".contains(c))
        && v.chars().filter(|c| *c == '+').count() <= 1
        && !v[1..].contains('+')
}

fn is_web(v: &str) -> bool {
    url::Url::parse(v).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

fn is_web_on(v: &str, site: &str) -> bool {
    url::Url::parse(v).is_ok_and(|u| {
        matches!(u.scheme(), "http" | "https")
            && u.host_str()
                .is_some_and(|h| h == site || h.ends_with(&format!(".{site}")))
    })
}

/// `min..=max` characters of ASCII letters, digits and `extra`; lower-case only if `lower`.
fn is_name(v: &str, min: usize, max: usize, extra: &str, lower: bool) -> bool {
    let n = v.chars().count();
    (min..=max).contains(&n)
        && v.chars().all(|c| {
            (c.is_ascii_digit() || extra.contains(c) || c.is_ascii_alphabetic())
                && !(lower && c.is_ascii_uppercase())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(kind: ContactType, v: &str) -> Result<(), ContactProblem> {
        NewContact {
            kind,
            value: v.into(),
        }
        .check()
    }

    #[test]
    fn values_are_checked_for_their_type() {
        assert!(check(ContactType::Email, "club1@school.example.ac.th").is_ok());
        assert!(check(ContactType::Email, "club1school.example").is_err());
        assert!(check(ContactType::Phone, "+66 81 234 5678").is_ok());
        assert!(check(ContactType::Phone, "02-123-4567").is_ok());
        assert!(check(ContactType::Phone, "call me").is_err());
        assert!(check(ContactType::Phone, "66+812345678").is_err());
        assert!(check(ContactType::Website, "https://club.example.ac.th/robot").is_ok());
        assert!(check(ContactType::Website, "club.example").is_err());
        assert!(check(ContactType::Line, "@robot_club").is_ok());
        assert!(check(ContactType::Line, "Robot Club").is_err());
        assert!(check(ContactType::Instagram, "club_1_official").is_ok());
        assert!(check(ContactType::Instagram, "club 1").is_err());
        assert!(check(ContactType::Facebook, "https://www.facebook.com/robotclub").is_ok());
        assert!(check(ContactType::Facebook, "https://evil.example/facebook.com").is_err());
        assert!(check(ContactType::Discord, "https://discord.gg/abc123").is_ok());
        assert!(check(ContactType::OtherType, "Room 204, building 3").is_ok());
        assert!(check(ContactType::OtherType, "  ").is_err());
        assert!(check(ContactType::OtherType, &"x".repeat(201)).is_err());
    }
}
