//! Fetch levels (api-notes.md, "Fetch levels").

use std::fmt;

use serde::{Deserialize, Serialize};

/// How much of a record (and of the records below it) the service returns.
///
/// Per api-notes.md "Fetch levels": `id_only` (the server default), `compact`, `default`,
/// `detailed`; anything else is answered with 400. The JSON does not say which level it is,
/// so callers remember what they asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchLevel {
    /// `{"id": ...}` only.
    IdOnly,
    /// Names and summary fields.
    Compact,
    /// Adds relations at the descendant level.
    Default,
    /// Everything, including club staff and members.
    Detailed,
}

impl FetchLevel {
    /// All levels, lowest first.
    pub const ALL: [FetchLevel; 4] = [
        FetchLevel::IdOnly,
        FetchLevel::Compact,
        FetchLevel::Default,
        FetchLevel::Detailed,
    ];

    /// The wire name (`id_only`, `compact`, `default`, `detailed`).
    pub fn as_str(self) -> &'static str {
        match self {
            FetchLevel::IdOnly => "id_only",
            FetchLevel::Compact => "compact",
            FetchLevel::Default => "default",
            FetchLevel::Detailed => "detailed",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<FetchLevel> {
        FetchLevel::ALL.into_iter().find(|l| l.as_str() == text)
    }

    /// The next level up, saturating at `detailed`.
    pub fn raise(self) -> FetchLevel {
        match self {
            FetchLevel::IdOnly => FetchLevel::Compact,
            FetchLevel::Compact => FetchLevel::Default,
            FetchLevel::Default | FetchLevel::Detailed => FetchLevel::Detailed,
        }
    }

    /// The next level down, saturating at `id_only`.
    pub fn lower(self) -> FetchLevel {
        match self {
            FetchLevel::Detailed => FetchLevel::Default,
            FetchLevel::Default => FetchLevel::Compact,
            FetchLevel::Compact | FetchLevel::IdOnly => FetchLevel::IdOnly,
        }
    }
}

impl fmt::Display for FetchLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The pair of fetch levels sent with every read and write.
///
/// GET sends them as the query parameters `fetch_level` and `descendant_fetch_level`; PUT and
/// POST as top-level JSON fields beside `data` (interface-spec.md, "Shared body shape").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Levels {
    /// Level of the record itself.
    pub fetch_level: FetchLevel,
    /// Level of the records one step below it (two steps down is always `{id}`).
    pub descendant_fetch_level: FetchLevel,
}

impl Levels {
    /// Builds a pair of levels.
    pub const fn new(fetch_level: FetchLevel, descendant_fetch_level: FetchLevel) -> Self {
        Levels {
            fetch_level,
            descendant_fetch_level,
        }
    }

    /// What the review queue asks for: the request at `default`, its student and club at
    /// `compact`. A student account asking for `default` students outside its own classroom
    /// gets 403 for the whole request (api-notes.md), so `compact` is the safe descendant level.
    pub const REQUEST_ROW: Levels = Levels::new(FetchLevel::Default, FetchLevel::Compact);

    /// `id_only` for both.
    pub const ID_ONLY: Levels = Levels::new(FetchLevel::IdOnly, FetchLevel::IdOnly);
}

impl Default for Levels {
    fn default() -> Self {
        Levels::REQUEST_ROW
    }
}
