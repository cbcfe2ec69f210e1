//! Settings read by more than one rule of precedence: the host budget (flag, environment,
//! config file, default, each bounded; its folder) and how new requests are announced.

use std::path::PathBuf;

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
/// file > [`crate::api::budget::DEFAULT_SLOTS`]; 0 is off: `None`) in its folder
/// (`--host-budget-dir` > `CLUB_ADMIN_BUDGET_DIR`, given as `dir_from_env` > config
/// `host_budget_dir` > [`crate::api::budget::default_dir`]).
///
/// Errors: the variable is not a whole number, the budget is above
/// [`crate::api::budget::MAX_SLOTS`], or a folder named is not an absolute path (every
/// process of the host must name the same folder, wherever it starts).
pub(super) fn host_budget_of(
    flags: &Flags,
    file: &FileConfig,
    from_env: Option<String>,
    dir_from_env: Option<String>,
) -> Result<Option<crate::api::budget::BudgetOptions>, String> {
    let slots = match flags.host_budget {
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
    let slots = bounded(
        "host budget (0 is off)",
        slots,
        0,
        crate::api::budget::MAX_SLOTS,
    )?;
    let named = flags
        .host_budget_dir
        .clone()
        .or_else(|| dir_from_env.map(PathBuf::from))
        .or_else(|| file.host_budget_dir.clone());
    if let Some(d) = &named
        && !d.is_absolute()
    {
        return Err(format!(
            "the host budget's folder must be an absolute path (every process of the host names the same one), not {:?}",
            crate::text::clean(&d.display().to_string(), 200)
        ));
    }
    Ok((slots > 0).then(|| crate::api::budget::BudgetOptions {
        slots,
        dir: named.unwrap_or_else(crate::api::budget::default_dir),
        service: false,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_budgets_folder_is_flag_then_environment_then_file_then_found() {
        let file = FileConfig {
            host_budget_dir: Some("/srv/file-budget".into()),
            ..FileConfig::default()
        };
        let flags = Flags {
            host_budget_dir: Some("/srv/flag-budget".into()),
            ..Flags::default()
        };
        let env = || Some("/srv/env-budget".to_owned());
        let dir = |flags: &Flags, file: &FileConfig, env: Option<String>| {
            host_budget_of(flags, file, None, env)
                .ok()
                .flatten()
                .map(|b| b.dir)
        };
        assert_eq!(dir(&flags, &file, env()), Some("/srv/flag-budget".into()));
        assert_eq!(
            dir(&Flags::default(), &file, env()),
            Some("/srv/env-budget".into())
        );
        assert_eq!(
            dir(&Flags::default(), &file, None),
            Some("/srv/file-budget".into())
        );
        assert_eq!(
            dir(&Flags::default(), &FileConfig::default(), None),
            Some(crate::api::budget::default_dir())
        );
        // Off: no budget, wherever it would live.
        let off = Flags {
            host_budget: Some(0),
            ..flags.clone()
        };
        assert_eq!(host_budget_of(&off, &file, None, env()), Ok(None));
        // A folder every process must name alike is never relative to where one starts.
        let relative = host_budget_of(&Flags::default(), &file, None, Some("budget".into()));
        assert!(
            relative
                .as_ref()
                .is_err_and(|e| e.contains("absolute path")),
            "{relative:?}"
        );
    }
}
