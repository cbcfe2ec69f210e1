//! [`ApiError`] in the reader's language, for the dashboard.
//!
//! `Display` stays English: the command line (`src/script`), the audit file and the logs use
//! it. [`ApiError::describe`] gives the same text from the locale files (keys `error-*` of
//! `assets/locales/*/status.ftl`); in English it equals `Display` word for word. What the
//! server said (its `detail`, a body excerpt, the transport's message) and the HTTP status
//! stay as given.

use super::error::{ApiError, AuthErrorKind, ConnectFailure};
use crate::i18n::Lang;
use crate::tr;

/// `why`, the text inside [`ApiError::NotSent`] or [`ApiError::NoAnswer`], in `lang` where
/// they are the program's own ([`super::error::why`]; what follows them, such as a file's
/// error, stays as given); anything else as given.
fn why_in(lang: Lang, why: &str) -> String {
    super::error::why::KEYS
        .iter()
        .find_map(|(words, key)| {
            why.strip_prefix(words)
                .map(|rest| format!("{}{rest}", crate::i18n::tr(lang, key)))
        })
        .unwrap_or_else(|| why.to_owned())
}

impl AuthErrorKind {
    /// [`AuthErrorKind::describe`] in `lang`: "the API key was refused (unknown, revoked or expired): whoever set it up (over SSH, the server's operator) must put in a new one" /
    /// "คีย์ API ถูกปฏิเสธ (...)".
    pub fn describe_in(self, lang: Lang) -> String {
        let key = match self {
            AuthErrorKind::MissingKey => "error-auth-missing-key",
            AuthErrorKind::InvalidKey => "error-auth-invalid-key",
            AuthErrorKind::MissingToken => "error-auth-missing-token",
            AuthErrorKind::InvalidToken => "error-auth-invalid-token",
            AuthErrorKind::Unknown => "error-auth-unknown",
        };
        crate::i18n::tr(lang, key)
    }
}

impl ApiError {
    /// The error message in `lang`, for the dashboard: the class of the failure in the
    /// reader's language ("refused", "ถูกปฏิเสธ"), then the server's own words and the HTTP
    /// status as given (`: Club request has already been approved (HTTP 403)`). Not cut: the
    /// caller bounds it. In English it is exactly the `Display` text.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            ApiError::Unauthorized { kind, info } => tr!(
                lang,
                "error-unauthorised",
                why = kind.describe_in(lang),
                suffix = info.suffix()
            ),
            ApiError::Forbidden(i) => tr!(lang, "error-refused", suffix = i.suffix()),
            ApiError::NotFound(i) => tr!(lang, "error-not-found", suffix = i.suffix()),
            ApiError::OperationUnavailable(i) => {
                tr!(lang, "error-unavailable", suffix = i.suffix())
            }
            ApiError::Invalid(i) => tr!(lang, "error-invalid", suffix = i.suffix()),
            ApiError::Conflict(i) => tr!(lang, "error-conflict", suffix = i.suffix()),
            ApiError::Server(i) => tr!(lang, "error-server", suffix = i.suffix()),
            ApiError::Timeout {
                millis,
                tries,
                spent_millis,
            } => {
                let secs = |ms: u64| format!("{:.1}", ms as f64 / 1000.0);
                if *tries > 1 {
                    tr!(
                        lang,
                        "error-timeout-tries",
                        spent = secs(*spent_millis),
                        tries = *tries,
                        seconds = secs(*millis)
                    )
                } else {
                    tr!(lang, "error-timeout", seconds = secs(*millis))
                }
            }
            ApiError::Connect {
                failure,
                host,
                cause,
            } => {
                let key = match failure {
                    ConnectFailure::NoConnection => "error-connect-none",
                    ConnectFailure::ClosedWithoutAnswer => "error-connect-closed",
                    ConnectFailure::ClosedMidAnswer => "error-connect-mid-answer",
                };
                let what = tr!(lang, key, host = host.as_str());
                match cause {
                    Some(c) => tr!(lang, "error-connect-cause", what = what, cause = c.as_str()),
                    None => tr!(lang, "error-connect", what = what),
                }
            }
            ApiError::Decode {
                status,
                message,
                excerpt,
            } => tr!(
                lang,
                "error-decode",
                status = status.map(|s| format!(" (HTTP {s})")).unwrap_or_default(),
                message = message.as_str(),
                excerpt = excerpt
                    .as_ref()
                    .map(|e| format!(" [{e}]"))
                    .unwrap_or_default()
            ),
            ApiError::Config(message) => tr!(lang, "error-config", message = message.as_str()),
            ApiError::NotTheService { status, excerpt } => tr!(
                lang,
                "error-not-the-service",
                status = status.map(|s| format!(" (HTTP {s})")).unwrap_or_default(),
                excerpt = excerpt
                    .as_ref()
                    .map(|e| format!(" [{e}]"))
                    .unwrap_or_default()
            ),
            ApiError::Internal => tr!(lang, "error-internal"),
            ApiError::NotSent(why) => tr!(lang, "error-not-sent", why = why_in(lang, why)),
            ApiError::NoAnswer(why) => tr!(lang, "error-no-answer", why = why_in(lang, why)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ErrorInfo;

    fn info(status: u16, detail: Option<&str>) -> ErrorInfo {
        ErrorInfo {
            status: Some(status),
            detail: detail.map(str::to_owned),
            ..ErrorInfo::default()
        }
    }

    fn every_error() -> Vec<ApiError> {
        let mut all: Vec<ApiError> = [
            AuthErrorKind::MissingKey,
            AuthErrorKind::InvalidKey,
            AuthErrorKind::MissingToken,
            AuthErrorKind::InvalidToken,
            AuthErrorKind::Unknown,
        ]
        .into_iter()
        .map(|kind| ApiError::Unauthorized {
            kind,
            info: info(401, Some("Token expired")),
        })
        .collect();
        all.extend([
            ApiError::Forbidden(info(403, Some("Club request has already been approved"))),
            ApiError::NotFound(info(404, None)),
            ApiError::OperationUnavailable(info(404, Some("Route not found"))),
            ApiError::Invalid(info(400, Some("bad enum"))),
            ApiError::Conflict(info(409, None)),
            ApiError::Server(ErrorInfo {
                status: Some(502),
                excerpt: Some("Bad Gateway nginx".into()),
                ..ErrorInfo::default()
            }),
            ApiError::timeout(2500),
            ApiError::timeout(5000).after_tries(3, std::time::Duration::from_millis(16_230)),
            ApiError::Connect {
                failure: ConnectFailure::NoConnection,
                host: "127.0.0.1:9".into(),
                cause: Some("Connection refused (os error 111)".into()),
            },
            ApiError::Connect {
                failure: ConnectFailure::ClosedWithoutAnswer,
                host: "127.0.0.1:9".into(),
                cause: None,
            },
            ApiError::Decode {
                status: Some(200),
                message: "expected value at line 1".into(),
                excerpt: Some("<html>".into()),
            },
            ApiError::Decode {
                status: None,
                message: "too large".into(),
                excerpt: None,
            },
            ApiError::Config("bad base URL".into()),
            ApiError::NotTheService {
                status: Some(200),
                excerpt: Some("Welcome to nginx!".into()),
            },
            ApiError::Internal,
            ApiError::NotSent("the terminal hung up".into()),
            ApiError::NoAnswer("the run ended first".into()),
        ]);
        all.extend(
            super::super::error::why::KEYS
                .iter()
                .flat_map(|(words, _)| {
                    [
                        ApiError::NotSent(format!("{words} (disk full)")),
                        ApiError::NoAnswer((*words).to_owned()),
                    ]
                }),
        );
        all
    }

    #[test]
    fn the_programs_own_words_are_said_in_thai_and_what_follows_them_is_kept() {
        for (words, _) in super::super::error::why::KEYS {
            let e = ApiError::NotSent(format!("{words} (disk full)"));
            let thai = e.describe(Lang::Thai);
            assert!(!thai.contains(words), "{thai}");
            assert!(thai.ends_with(" (disk full)"), "{thai}");
            assert!(
                thai.chars().any(|c| ('\u{0E00}'..='\u{0E7F}').contains(&c)),
                "{thai}"
            );
        }
        let other = ApiError::NoAnswer("something else".into());
        assert!(other.describe(Lang::Thai).ends_with("something else"));
    }

    #[test]
    fn english_is_the_display_text_word_for_word() {
        for e in every_error() {
            assert_eq!(e.describe(Lang::English), e.to_string());
        }
        for k in [AuthErrorKind::MissingKey, AuthErrorKind::Unknown] {
            assert_eq!(k.describe_in(Lang::English), k.describe());
        }
    }

    #[test]
    fn thai_has_thai_words_and_keeps_the_servers_words_and_status() {
        for e in every_error() {
            let th = e.describe(Lang::Thai);
            assert_ne!(th, e.to_string(), "{th}");
            assert!(
                th.chars().any(|c| ('\u{0e00}'..='\u{0e7f}').contains(&c)),
                "{th}"
            );
            if let Some(s) = e.status() {
                assert!(th.contains(&format!("(HTTP {s})")), "{th}");
            }
        }
        let refused =
            ApiError::Forbidden(info(403, Some("Club request has already been approved")));
        assert_eq!(
            refused.describe(Lang::Thai),
            "ถูกปฏิเสธ: Club request has already been approved (HTTP 403)"
        );
        assert_eq!(
            ApiError::timeout(2500).describe(Lang::Thai),
            "หมดเวลาหลังรอ 2.5 วินาที"
        );
        let tried =
            ApiError::timeout(5000).after_tries(3, std::time::Duration::from_millis(16_230));
        assert_eq!(
            tried.to_string(),
            "no answer in 16.2 s: 3 tries, the last timed out after 5.0 s"
        );
        assert_eq!(
            tried.describe(Lang::Thai),
            crate::text::for_terminal(
                "ไม่ได้คำตอบใน 16.2 วินาที: ลอง 3 ครั้ง ครั้งสุดท้ายหมดเวลาหลังรอ 5.0 วินาที"
            )
        );
    }
}
