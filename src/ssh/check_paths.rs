//! `serve-ssh --check` as the package's unit runs the server: each path the server will
//! write (the state folder, the host key when it is still to be made, the log file, the
//! status socket's folder, the host budget's folder) tried against the unit's sandbox
//! (`ProtectSystem=`, `ProtectHome=`, `PrivateTmp=`, `ReadWritePaths=`, `ReadOnlyPaths=`,
//! `InaccessiblePaths=`, `StateDirectory=`, `LogsDirectory=`, `CacheDirectory=`,
//! `RuntimeDirectory=`; systemd.exec(5)), read from the unit file and its drop-ins. A path
//! the sandbox leaves read-only passes every check of owners and modes, and then fails at
//! the first write ("Read-only file system"): here it is a `✗` with the drop-in that opens
//! it. Only when the unit runs the config file being checked (its `ExecStart=` names
//! `--config` with that file): a server started by hand has no sandbox.

use std::path::{Component, Path, PathBuf};

use super::check::Line;

/// The package's unit.
pub const UNIT: &str = "club-admin-ssh.service";

/// Where systemd looks for a system unit and its drop-ins, the first the strongest
/// (systemd.unit(5)).
pub const UNIT_DIRS: [&str; 4] = [
    "/etc/systemd/system",
    "/run/systemd/system",
    "/usr/lib/systemd/system",
    "/lib/systemd/system",
];

/// What the sandbox lets the service do at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read and write.
    Writable,
    /// Read only.
    ReadOnly,
    /// Not even seen.
    Inaccessible,
}

/// The sandbox of a unit, as far as writing goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sandbox {
    /// The files read: the unit, then its drop-ins in the order applied.
    pub files: Vec<PathBuf>,
    /// `ProtectSystem=` (`no`, `yes`, `full`, `strict`).
    pub protect_system: String,
    /// `ProtectHome=` (`no`, `yes`, `read-only`, `tmpfs`).
    pub protect_home: String,
    /// `PrivateTmp=yes`: `/tmp` and `/var/tmp` are the service's own, writable.
    pub private_tmp: bool,
    /// Paths made writable, with the setting that did it.
    pub writable: Vec<(PathBuf, String)>,
    /// `ReadOnlyPaths=`.
    pub read_only: Vec<PathBuf>,
    /// `InaccessiblePaths=`.
    pub inaccessible: Vec<PathBuf>,
    /// `User=`, the owner a folder made for the service needs.
    pub user: Option<String>,
    /// The `--config` of `ExecStart=`.
    pub config: Option<PathBuf>,
}

impl Sandbox {
    /// The sandbox of `texts`: a unit file's text, then its drop-ins' in the order systemd
    /// applies them. Only `[Service]` counts; an empty list setting (`ReadWritePaths=`)
    /// empties what came before it, as in systemd.
    pub fn parse(texts: &[&str]) -> Sandbox {
        let mut sb = Sandbox {
            protect_system: "no".into(),
            protect_home: "no".into(),
            ..Sandbox::default()
        };
        for text in texts {
            let mut in_service = false;
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with('[') {
                    in_service = line == "[Service]";
                    continue;
                }
                if !in_service || line.starts_with('#') || line.starts_with(';') {
                    continue;
                }
                let Some((key, value)) = line.split_once('=') else {
                    continue;
                };
                sb.set(key.trim(), value.trim());
            }
        }
        sb
    }

    /// One `KEY=value` of `[Service]`.
    fn set(&mut self, key: &str, value: &str) {
        let paths = || -> Vec<PathBuf> {
            value
                .split_whitespace()
                .map(|p| p.trim_matches('"').trim_start_matches(['-', '+']))
                .filter(|p| p.starts_with('/'))
                .map(PathBuf::from)
                .collect()
        };
        let under = |base: &str| -> Vec<(PathBuf, String)> {
            value
                .split_whitespace()
                .map(|d| d.split(':').next().unwrap_or(d).trim_matches('"'))
                .filter(|d| !d.is_empty())
                .map(|d| (Path::new(base).join(d), format!("{key}={d}")))
                .collect()
        };
        match key {
            "ProtectSystem" => self.protect_system = yes_no(value),
            "ProtectHome" => self.protect_home = yes_no(value),
            "PrivateTmp" => self.private_tmp = yes_no(value) == "yes",
            "User" => self.user = Some(value.to_owned()).filter(|u| !u.is_empty()),
            "ExecStart" => {
                let words = shell_words::split(value).unwrap_or_default();
                if let Some(i) = words.iter().position(|w| w == "--config") {
                    self.config = words.get(i + 1).map(PathBuf::from);
                } else if let Some(c) = words.iter().find_map(|w| w.strip_prefix("--config=")) {
                    self.config = Some(PathBuf::from(c));
                }
            }
            "ReadWritePaths" if value.is_empty() => self
                .writable
                .retain(|(_, why)| !why.starts_with("ReadWritePaths")),
            "ReadWritePaths" => self.writable.extend(
                paths()
                    .into_iter()
                    .map(|p| (p.clone(), format!("ReadWritePaths={}", p.display()))),
            ),
            "ReadOnlyPaths" if value.is_empty() => self.read_only.clear(),
            "ReadOnlyPaths" => self.read_only.extend(paths()),
            "InaccessiblePaths" if value.is_empty() => self.inaccessible.clear(),
            "InaccessiblePaths" => self.inaccessible.extend(paths()),
            "StateDirectory" => self.writable.extend(under("/var/lib")),
            "LogsDirectory" => self.writable.extend(under("/var/log")),
            "CacheDirectory" => self.writable.extend(under("/var/cache")),
            "RuntimeDirectory" => self.writable.extend(under("/run")),
            _ => {}
        }
    }

    /// The package's unit on this host with its drop-ins ([`UNIT_DIRS`]), when there is
    /// one; `None` when none is installed.
    pub fn of_host() -> Option<Sandbox> {
        let unit = UNIT_DIRS
            .iter()
            .map(|d| Path::new(d).join(UNIT))
            .find(|p| p.is_file())?;
        // Drop-ins by file name, the strongest folder's file for a name, applied in the
        // order of their names.
        let mut dropins: std::collections::BTreeMap<std::ffi::OsString, PathBuf> =
            Default::default();
        for dir in UNIT_DIRS.iter().rev() {
            let d = Path::new(dir).join(format!("{UNIT}.d"));
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "conf") {
                    dropins.insert(e.file_name(), p);
                }
            }
        }
        let mut files = vec![unit];
        files.extend(dropins.into_values());
        let texts: Vec<String> = files
            .iter()
            .map(|f| std::fs::read_to_string(f).unwrap_or_default())
            .collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut sb = Sandbox::parse(&refs);
        sb.files = files;
        Some(sb)
    }

    /// What the service may do at `path` (absolute; `.` and `..` taken as written), and
    /// the setting that decides it: the most specific rule wins, as systemd's mounts do.
    pub fn access(&self, path: &Path) -> (Access, String) {
        let path = normal(path);
        let mut best: Option<(usize, Access, String)> = None;
        let mut rule = |base: &Path, access: Access, why: String| {
            let base = normal(base);
            if path.starts_with(&base) {
                let depth = base.components().count();
                if best.as_ref().is_none_or(|(d, _, _)| depth >= *d) {
                    best = Some((depth, access, why));
                }
            }
        };
        let ro = |what: &str| format!("ProtectSystem={what}");
        match self.protect_system.as_str() {
            "strict" => rule(Path::new("/"), Access::ReadOnly, ro("strict")),
            s @ ("yes" | "full") => {
                for d in ["/usr", "/boot", "/efi"] {
                    rule(Path::new(d), Access::ReadOnly, ro(s));
                }
                if s == "full" {
                    rule(Path::new("/etc"), Access::ReadOnly, ro(s));
                }
            }
            _ => {}
        }
        for d in ["/dev", "/proc", "/sys"] {
            rule(Path::new(d), Access::Writable, "the kernel's own".into());
        }
        if self.private_tmp {
            for d in ["/tmp", "/var/tmp"] {
                rule(Path::new(d), Access::Writable, "PrivateTmp=yes".into());
            }
        }
        let home = match self.protect_home.as_str() {
            "yes" | "tmpfs" => Some(Access::Inaccessible),
            "read-only" => Some(Access::ReadOnly),
            _ => None,
        };
        if let Some(a) = home {
            for d in ["/home", "/root", "/run/user"] {
                rule(
                    Path::new(d),
                    a,
                    format!("ProtectHome={}", self.protect_home),
                );
            }
        }
        for (p, why) in &self.writable {
            rule(p, Access::Writable, why.clone());
        }
        for p in &self.read_only {
            rule(
                p,
                Access::ReadOnly,
                format!("ReadOnlyPaths={}", p.display()),
            );
        }
        for p in &self.inaccessible {
            rule(
                p,
                Access::Inaccessible,
                format!("InaccessiblePaths={}", p.display()),
            );
        }
        match best {
            Some((_, a, why)) => (a, why),
            None => (Access::Writable, "no sandbox setting".into()),
        }
    }
}

/// `yes`/`true`/`on`/`1` as `yes`, `no`/`false`/`off`/`0` as `no`, anything else as written.
fn yes_no(v: &str) -> String {
    match v.to_ascii_lowercase().as_str() {
        "yes" | "true" | "on" | "1" => "yes".into(),
        "no" | "false" | "off" | "0" | "" => "no".into(),
        other => other.into(),
    }
}

/// `path` with `.` and `..` resolved as written (no file system asked).
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A path the server will write, for [`lines`].
#[derive(Debug, Clone, Copy)]
pub struct Written<'a> {
    /// What it is, as a line names it ("the log file").
    pub what: &'a str,
    /// The path.
    pub path: &'a Path,
    /// True for a folder (the drop-in opens it), false for a file (its folder).
    pub folder: bool,
    /// True when the server cannot start without writing it (the state folder, the host
    /// key): a `✗`. False when it does without (the log file goes to the journal, the
    /// status socket is not made): a warning (`·`), the check still passes.
    pub needed: bool,
}

/// The folder a drop-in must open for `path` to be written: the path itself for a
/// folder, else its folder.
fn opening(path: &Path, is_folder: bool) -> PathBuf {
    match is_folder {
        true => path.to_path_buf(),
        false => path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/")),
    }
}

/// The lines for `paths` as `sandbox` lets the service write them, when the unit runs
/// `config` (else none: a server started by hand has no sandbox). A path the service may
/// write is a `✓` naming the setting; one it may not is a `✗` (a warning `·` when the
/// server does without it, [`Written::needed`]) with the fix: a drop-in
/// `ReadWritePaths=` line, written by a command to run as root (the folder made first for
/// the service's user when it is missing), or the path moved where the unit lets it write.
pub fn lines(sandbox: &Sandbox, config: Option<&Path>, paths: &[Written]) -> Vec<Line> {
    let same = match (config, &sandbox.config) {
        (Some(a), Some(b)) => {
            a == b
                || matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
        }
        _ => false,
    };
    if !same {
        return Vec::new();
    }
    let unit_file = sandbox
        .files
        .first()
        .map(|f| f.display().to_string())
        .unwrap_or_else(|| UNIT.into());
    let mut out = vec![Line::said(format!(
        "{UNIT} runs this config file: its paths are checked as its sandbox lets it write ({unit_file}{})",
        match sandbox.files.len() {
            0 | 1 => String::new(),
            n => format!(" and {} drop-in{}", n - 1, if n == 2 { "" } else { "s" }),
        }
    ))];
    for &Written {
        what,
        path,
        folder,
        needed,
    } in paths
    {
        let (access, why) = sandbox.access(path);
        if access == Access::Writable {
            out.push(Line::good(format!(
                "{what} {} is writable under {UNIT} ({why})",
                path.display()
            )));
            continue;
        }
        let dir = opening(path, folder);
        let user = sandbox.user.as_deref().unwrap_or("club-admin");
        let make = match dir.exists() {
            true => String::new(),
            false => format!(
                "install -d -m 0700 -o {user} -g {user} {} && ",
                shell_words::quote(&dir.to_string_lossy())
            ),
        };
        let dropin = format!("/etc/systemd/system/{UNIT}.d");
        let shown = match access {
            Access::ReadOnly => "read-only",
            Access::Inaccessible | Access::Writable => "hidden",
        };
        let (mark, then): (fn(String) -> Line, &str) = match needed {
            true => (Line::bad, "the service could not write it"),
            false => (
                Line::said,
                "warning: the server starts without it (a log goes to the journal instead; a status socket is not made)",
            ),
        };
        out.push(mark(format!(
            "{what} {} is {shown} to {UNIT} ({why}): {then}. Open it with a drop-in, as root: {make}mkdir -p {dropin} && printf '[Service]\\nReadWritePaths={}\\n' > {dropin}/writable-paths.conf && systemctl daemon-reload; or give a path under /var/lib/club-admin or /var/log/club-admin",
            path.display(),
            dir.display(),
        )));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT_TEXT: &str = include_str!("../../packaging/deb/club-admin-ssh.service");

    #[test]
    fn the_packaged_unit_lets_the_state_and_log_folders_be_written_and_nothing_else() {
        let sb = Sandbox::parse(&[UNIT_TEXT]);
        assert_eq!(
            sb.config.as_deref(),
            Some(Path::new("/etc/club-admin/serve-ssh.toml"))
        );
        let at = |p: &str| sb.access(Path::new(p)).0;
        assert_eq!(
            at("/var/lib/club-admin/club-admin/audit.jsonl"),
            Access::Writable
        );
        assert_eq!(at("/var/log/club-admin/serve-ssh.log"), Access::Writable);
        assert_eq!(at("/run/club-admin-budget"), Access::Writable);
        assert_eq!(at("/tmp/x"), Access::Writable);
        assert_eq!(at("/srv/club-admin/serve-ssh.log"), Access::ReadOnly);
        assert_eq!(at("/var/log/serve-ssh.log"), Access::ReadOnly);
        assert_eq!(at("/var/lib/club-admin/../x"), Access::ReadOnly);
        assert_eq!(at("/home/alice/log"), Access::Inaccessible);
    }

    #[test]
    fn a_drop_in_opens_a_folder_and_an_empty_setting_empties_the_list() {
        let dropin = "[Service]\nReadWritePaths=/srv/club-admin\n";
        let sb = Sandbox::parse(&[UNIT_TEXT, dropin]);
        assert_eq!(
            sb.access(Path::new("/srv/club-admin/a.log")).0,
            Access::Writable
        );
        let reset = "[Service]\nReadWritePaths=\n";
        let sb = Sandbox::parse(&[UNIT_TEXT, dropin, reset]);
        assert_eq!(
            sb.access(Path::new("/srv/club-admin/a.log")).0,
            Access::ReadOnly
        );
        assert_eq!(
            sb.access(Path::new("/run/club-admin-budget")).0,
            Access::ReadOnly
        );
        // StateDirectory= is not a ReadWritePaths=: an empty ReadWritePaths= keeps it.
        assert_eq!(
            sb.access(Path::new("/var/lib/club-admin")).0,
            Access::Writable
        );
    }

    #[test]
    fn a_read_only_path_says_the_drop_in_and_only_for_the_units_config() {
        let sb = Sandbox::parse(&[UNIT_TEXT]);
        let config = Path::new("/etc/club-admin/serve-ssh.toml");
        let log = Path::new("/nonexistent-club-admin-test/logs/serve-ssh.log");
        let state = Path::new("/var/lib/club-admin/club-admin");
        let written = |what, path, folder, needed| Written {
            what,
            path,
            folder,
            needed,
        };
        let out = lines(
            &sb,
            Some(config),
            &[
                written("the state folder", state, true, true),
                written("the log file", log, false, false),
                written("the host key", log, false, true),
            ],
        );
        assert_eq!(out.len(), 4, "{out:?}");
        assert_eq!(out[1].ok, Some(true), "{out:?}");
        assert!(out[1].text.contains("StateDirectory=club-admin"), "{out:?}");
        // The log file: a warning (the server logs to the journal), the check passes.
        assert_eq!(out[2].ok, None, "{out:?}");
        assert!(
            out[2]
                .text
                .contains("warning: the server starts without it (a log goes to the journal instead; a status socket is not made)")
        );
        // The host key: the server cannot start without it.
        assert_eq!(out[3].ok, Some(false), "{out:?}");
        assert!(out[3].text.contains("the service could not write it"));
        let t = &out[2].text;
        assert!(
            t.contains("read-only to club-admin-ssh.service (ProtectSystem=strict)"),
            "{t}"
        );
        assert!(
            t.contains("install -d -m 0700 -o club-admin -g club-admin /nonexistent-club-admin-test/logs && "),
            "{t}"
        );
        assert!(t.contains("printf '[Service]\\nReadWritePaths=/nonexistent-club-admin-test/logs\\n' > /etc/systemd/system/club-admin-ssh.service.d/writable-paths.conf && systemctl daemon-reload"), "{t}");
        // Another config file: the server is not the unit's, nothing is said.
        assert!(
            lines(
                &sb,
                Some(Path::new("/home/a/x.toml")),
                &[written("the log file", log, false, false)]
            )
            .is_empty()
        );
        assert!(lines(&sb, None, &[written("the log file", log, false, false)]).is_empty());
    }
}
