//! Settings read by more than one rule of precedence: the host budget (flag, environment,
//! config file, default, each bounded) and how new requests are announced.

use super::{FileConfig, Flags, bounded};

/// How the dashboard announces new requests that the automatic refresh brought, beyond the
/// status line and the `+` on their rows (opt-in: a bell in a school's computer room is
/// unwelcome).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NewRequestNotice {
    /// Nothing more (the default).
    #[default]
    Off,
    /// The terminal's bell (BEL).
    Bell,
    /// A desktop notice through the terminal (OSC 9: iTerm2, kitty, WezTerm, Windows
    /// Terminal, foot; others ignore it).
    Osc9,
}

impl NewRequestNotice {
    /// Reads `off`, `bell` or `osc9` (`None`: off).
    ///
    /// Errors: any other word, naming the three.
    pub fn parse(text: Option<&str>) -> Result<NewRequestNotice, String> {
        match text.map(|t| t.trim().to_ascii_lowercase()).as_deref() {
            None | Some("off") => Ok(NewRequestNotice::Off),
            Some("bell") => Ok(NewRequestNotice::Bell),
            Some("osc9") => Ok(NewRequestNotice::Osc9),
            Some(other) => Err(format!(
                "notify must be off, bell or osc9, not {:?}",
                crate::text::clean(other, 20)
            )),
        }
    }
}

/// The host budget (`--host-budget` > `CLUB_ADMIN_HOST_BUDGET`, given as `from_env` > config
/// file > [`crate::api::budget::DEFAULT_SLOTS`]); 0 is off.
///
/// Errors: the variable is not a whole number, or the budget is above
/// [`crate::api::budget::MAX_SLOTS`].
pub(super) fn host_budget_of(
    flags: &Flags,
    file: &FileConfig,
    from_env: Option<String>,
) -> Result<usize, String> {
    let host_budget = match flags.host_budget {
        Some(n) => n,
        None => match from_env {
            Some(v) => v.parse::<usize>().map_err(|_| {
                format!("CLUB_ADMIN_HOST_BUDGET must be a whole number (0 is off), not {v:?}")
            })?,
            None => file
                .host_budget
                .unwrap_or(crate::api::budget::DEFAULT_SLOTS),
        },
    };
    bounded(
        "host budget (0 is off)",
        host_budget,
        0,
        crate::api::budget::MAX_SLOTS,
    )
}
