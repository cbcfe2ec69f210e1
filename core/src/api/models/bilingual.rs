//! Text in the two languages of the school.

use serde::{Deserialize, Deserializer, Serialize};

/// Text in the two languages of the school: `{"en-US": string|null, "th": string|null}`.
///
/// Per api-notes.md the whole object may be `null` or have both keys null; a plain string is
/// also accepted (taken as Thai) so that nothing fails on a server that simplifies it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MultiLangText {
    /// English text (`en-US`).
    #[serde(rename = "en-US")]
    pub en: Option<String>,
    /// Thai text (`th`).
    pub th: Option<String>,
}

impl<'de> Deserialize<'de> for MultiLangText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Obj {
            #[serde(rename = "en-US", default)]
            en: Option<String>,
            #[serde(default)]
            th: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Plain(String),
            Obj(Obj),
        }
        Ok(match Either::deserialize(d)? {
            Either::Plain(s) => MultiLangText {
                en: None,
                th: Some(s),
            },
            Either::Obj(o) => MultiLangText { en: o.en, th: o.th },
        })
    }
}

impl MultiLangText {
    /// Builds a text from both languages.
    pub fn new(en: Option<&str>, th: Option<&str>) -> Self {
        MultiLangText {
            en: en.map(str::to_owned),
            th: th.map(str::to_owned),
        }
    }

    /// English when present and not blank, else Thai; `None` when both are missing.
    pub fn best(&self) -> Option<&str> {
        non_blank(&self.en).or_else(|| non_blank(&self.th))
    }

    /// Thai when present and not blank, else English.
    pub fn thai_first(&self) -> Option<&str> {
        non_blank(&self.th).or_else(|| non_blank(&self.en))
    }
}

fn non_blank(s: &Option<String>) -> Option<&str> {
    s.as_deref().filter(|t| !t.trim().is_empty())
}
