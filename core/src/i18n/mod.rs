//! The dashboard in Thai or English.
//!
//! Words come from the Fluent files under `assets/locales/en/` and `assets/locales/th/`
//! (every `.ftl` file of a folder: `main.ftl` for keys and hints, one file per area of the
//! UI beside it), embedded at compile time by `fluent-templates`
//! (`static_loader!`; plural rules are CLDR's through `fluent-bundle`: English has `one` and
//! `other`, Thai only `other`). `tests/suite/fast/i18n.rs` fails when the two languages differ in keys or in
//! `$placeholders`.
//!
//! ## Calls
//!
//! - [`tr`]`(lang, "hint-approve")` → `"อนุมัติ"` / `"approve"`;
//! - [`tr_args`]`(lang, "club-members", &[("n", 3.into())])` → `"สมาชิก 3 คน"` / `"3 members"`;
//! - the [`tr!`](crate::tr) macro: `tr!(lang, "club-members", n = 3)`;
//! - [`Lang::detect`] picks the language from `--lang`, the config file and the locale.
//!
//! None of them panics: a key missing in Thai falls back to English, a key missing in both
//! (or a missing argument) gives the key itself. The text returned went through
//! [`crate::text::for_terminal`], so Thai with SARA AM is drawn right.
//!
//! ## Key naming
//!
//! `<area>-<item>` in lower-case kebab-case (Fluent identifiers cannot hold dots):
//! `scope-*` (help sections), `action-*` (help texts; the action's config name with `_` as
//! `-`, see [`action_key`]), `hint-*` (footer labels), `age-*` (relative ages, times left),
//! and for the rest of the UI `header-*`, `status-*`, `error-*`, `confirm-*`, `popup-*`,
//! `empty-*`, `log-*`, `club-*`. Arguments are short snake-case names (`$n` for a count).

pub mod dates;
pub mod kedmanee;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use fluent_templates::{LanguageIdentifier, StaticLoader, langid, static_loader};

pub use fluent_templates::fluent_bundle::FluentValue;

static_loader! {
    static LOCALES = {
        locales: "../assets/locales",
        fallback_language: "en",
        // No Unicode isolation marks around arguments: they would reach the terminal.
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

static THAI: LanguageIdentifier = langid!("th");
static ENGLISH: LanguageIdentifier = langid!("en");

/// The language of the user interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// ภาษาไทย (`th`).
    Thai,
    /// English (`en`), the default.
    #[default]
    English,
}

impl Lang {
    /// Every language, Thai first.
    pub const ALL: [Lang; 2] = [Lang::Thai, Lang::English];

    /// The language a value names: `th`, `thai`, `th_TH.UTF-8`, `th-TH` … are Thai; `en`,
    /// `english`, `en_US.UTF-8` … English (case-insensitive). `None` for anything else,
    /// including `C` and `POSIX`.
    pub fn parse(value: &str) -> Option<Lang> {
        let v = value.trim().to_ascii_lowercase();
        let lang = v.split(['_', '-', '.', '@']).next().unwrap_or_default();
        match lang {
            "th" | "thai" => Some(Lang::Thai),
            "en" | "english" => Some(Lang::English),
            _ => None,
        }
    }

    /// The language of a POSIX locale value (`LANG` and friends): Thai for `th*`, else
    /// English (`C`, `POSIX`, `de_DE.UTF-8` …: the UI has no other language).
    pub fn from_locale(value: &str) -> Lang {
        if value.trim().to_ascii_lowercase().starts_with("th") {
            Lang::Thai
        } else {
            Lang::English
        }
    }

    /// Picks the language, first match wins:
    ///
    /// 1. `flag`, the `--lang th|en` value;
    /// 2. `config`, the config file's `language`;
    /// 3. the locale: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set and not empty
    ///    decides, as POSIX does (`LC_ALL=C` with `LANG=th_TH.UTF-8` is English): `th*` is
    ///    Thai, anything else English;
    /// 4. English.
    ///
    /// A `flag` or `config` value [`Lang::parse`] does not know is skipped (the config
    /// loader reports it); `env` looks up environment variables (injected for tests).
    pub fn detect(
        flag: Option<&str>,
        config: Option<&str>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Lang {
        if let Some(l) = flag.and_then(Lang::parse) {
            return l;
        }
        if let Some(l) = config.and_then(Lang::parse) {
            return l;
        }
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| env(k))
            .find(|v| !v.trim().is_empty())
            .map(|v| Lang::from_locale(&v))
            .unwrap_or_default()
    }

    /// The BCP 47 code: `th` or `en` (also the folder under `assets/locales`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::Thai => "th",
            Lang::English => "en",
        }
    }

    fn id(self) -> &'static LanguageIdentifier {
        match self {
            Lang::Thai => &THAI,
            Lang::English => &ENGLISH,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

fn loader() -> &'static StaticLoader {
    &LOCALES
}

fn lookup(lang: Lang, key: &str, args: Option<&HashMap<Cow<'static, str>, FluentValue>>) -> String {
    let found = loader()
        .lookup_single_language(lang.id(), key, args)
        .or_else(|_| loader().lookup_single_language(&ENGLISH, key, args));
    match found {
        Ok(text) => match crate::text::for_terminal(&text) {
            Cow::Borrowed(_) => text,
            Cow::Owned(fixed) => fixed,
        },
        Err(_) => key.to_owned(),
    }
}

/// The text of `key` in `lang`; English when Thai lacks it, `key` itself when both do.
pub fn tr(lang: Lang, key: &str) -> String {
    lookup(lang, key, None)
}

/// [`tr`] with arguments: `tr_args(lang, "club-members", &[("n", 3.into())])`. Numbers
/// select plural variants by CLDR rules. A missing argument makes the lookup fail like a
/// missing key (English, then the key).
pub fn tr_args(lang: Lang, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| (Cow::Owned((*k).to_owned()), v.clone()))
        .collect();
    lookup(lang, key, Some(&map))
}

/// The key of an action's text for a `prefix` (`"action"` or `"hint"`) and the action's
/// config name (`Action::name()`, e.g. `next_pane`): `action-next-pane`.
pub fn action_key(prefix: &str, config_name: &str) -> String {
    format!("{prefix}-{}", config_name.replace('_', "-"))
}

/// `tr!(lang, "key")` or `tr!(lang, "key", n = 3, name = "Somchai")`: [`tr`] and
/// [`tr_args`] with named arguments.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $key:expr $(,)?) => {
        $crate::i18n::tr($lang, $key)
    };
    ($lang:expr, $key:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr_args(
            $lang,
            $key,
            &[$((stringify!($name), $crate::i18n::FluentValue::from($value))),+],
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k: &str| map.get(k).cloned()
    }

    #[test]
    fn detection_order_flag_config_lc_all_lc_messages_lang() {
        let thai_env = env_of(&[("LANG", "th_TH.UTF-8")]);
        assert_eq!(Lang::detect(None, None, env_of(&[])), Lang::English);
        assert_eq!(Lang::detect(None, None, &thai_env), Lang::Thai);
        assert_eq!(
            Lang::detect(Some("en"), Some("th"), &thai_env),
            Lang::English
        );
        assert_eq!(
            Lang::detect(Some("th"), Some("en"), env_of(&[])),
            Lang::Thai
        );
        assert_eq!(Lang::detect(None, Some("en"), &thai_env), Lang::English);
        assert_eq!(Lang::detect(None, Some("th"), env_of(&[])), Lang::Thai);
        // An unknown config value is skipped, not taken for English.
        assert_eq!(Lang::detect(None, Some("fr"), &thai_env), Lang::Thai);
        let env = env_of(&[("LC_ALL", "C"), ("LC_MESSAGES", "th_TH"), ("LANG", "th_TH")]);
        assert_eq!(
            Lang::detect(None, None, env),
            Lang::English,
            "LC_ALL decides"
        );
        let env = env_of(&[("LC_ALL", ""), ("LC_MESSAGES", "th_TH"), ("LANG", "en_US")]);
        assert_eq!(
            Lang::detect(None, None, env),
            Lang::Thai,
            "empty LC_ALL is unset"
        );
        let env = env_of(&[("LC_MESSAGES", "en_GB.UTF-8"), ("LANG", "th_TH.UTF-8")]);
        assert_eq!(Lang::detect(None, None, env), Lang::English);
        let env = env_of(&[("LANG", "de_DE.UTF-8")]);
        assert_eq!(Lang::detect(None, None, env), Lang::English);
        let env = env_of(&[("LANG", "th")]);
        assert_eq!(Lang::detect(None, None, env), Lang::Thai);
    }

    #[test]
    fn parse_names() {
        for v in ["th", "TH", "thai", "th_TH.UTF-8", "th-TH", " th "] {
            assert_eq!(Lang::parse(v), Some(Lang::Thai), "{v}");
        }
        for v in ["en", "English", "en_US.UTF-8", "en-GB"] {
            assert_eq!(Lang::parse(v), Some(Lang::English), "{v}");
        }
        for v in ["", "C", "POSIX", "fr", "thx"] {
            assert_eq!(Lang::parse(v), None, "{v}");
        }
    }

    #[test]
    fn lookups_with_fallbacks_and_plurals() {
        assert_eq!(tr(Lang::English, "hint-approve"), "approve");
        assert_eq!(tr(Lang::Thai, "hint-approve"), "อนุมัติ");
        assert_eq!(tr(Lang::Thai, "no-such-key"), "no-such-key");
        assert_eq!(tr(Lang::English, "no-such-key"), "no-such-key");
        assert_eq!(
            tr_args(Lang::English, "club-members", &[("n", 1.into())]),
            "1 member"
        );
        assert_eq!(
            tr_args(Lang::English, "club-members", &[("n", 3.into())]),
            "3 members"
        );
        assert_eq!(
            tr_args(Lang::Thai, "club-members", &[("n", 3.into())]),
            "สมาชิก 3 คน"
        );
        assert_eq!(crate::tr!(Lang::Thai, "age-days", n = 3), "3 วัน");
        assert_eq!(crate::tr!(Lang::English, "age-days", n = 3), "3d");
        assert_eq!(crate::tr!(Lang::English, "hint-quit"), "quit");
        // No isolation marks around arguments.
        assert!(!tr_args(Lang::Thai, "age-ago", &[("age", "3 วัน".into())]).contains('\u{2068}'));
        // A missing argument is a failed lookup: the key, never a panic.
        assert_eq!(tr(Lang::English, "club-members"), "club-members");
    }

    #[test]
    fn thai_text_comes_out_drawn_right() {
        // "คำสั่ง" holds SARA AM: the UI gets NIKHAHIT + SARA AA.
        let s = tr(Lang::Thai, "hint-command-line");
        assert_eq!(s, "ค\u{0e4d}\u{0e32}ส\u{0e31}\u{0e48}ง");
        assert!(!s.contains('\u{0e33}'));
    }

    #[test]
    fn action_keys() {
        assert_eq!(action_key("action", "next_pane"), "action-next-pane");
        assert_eq!(
            tr(Lang::Thai, &action_key("hint", "new_contact")),
            "เพิ่มช่องทาง"
        );
    }
}
