//! The man pages: clap_mangen's page of each command, laid out as
//! `clap_mangen::generate_to` lays them out (`club-admin.1`, `club-admin-serve-ssh.1`...),
//! each followed by the sections clap_mangen does not write: EXIT STATUS (from the
//! program's own table, [`crate::script::exit::EXIT_CODES`]), ENVIRONMENT, FILES and SEE
//! ALSO, in roff.

use std::io::Write;
use std::path::Path;

use roff::{Roff, bold, italic, roman};

/// The environment variables the program reads, and what for.
const ENVIRONMENT: [(&str, &str); 11] = [
    (
        "CLUB_ADMIN_BASE_URL",
        "the service's base URL (--base-url, base_url in the config file)",
    ),
    (
        "CLUB_ADMIN_API_KEY",
        "the operator's API key (--api-key-file, api_key_file in the config file)",
    ),
    (
        "CLUB_ADMIN_TOKEN",
        "a bearer token (--token-file); an SSH client sends it to serve-ssh's commands with SetEnv",
    ),
    (
        "CLUB_ADMIN_HOST_BUDGET",
        "calls in flight from every club-admin process of the host (--host-budget)",
    ),
    (
        "CLUB_ADMIN_BUDGET_DIR",
        "the host budget's folder (--host-budget-dir; the package's unit sets /run/club-admin-budget)",
    ),
    (
        "CLUB_ADMIN_LOG",
        "the log's filter (tracing's directives: debug, club_admin=debug); wins over the config file's log_level",
    ),
    (
        "XDG_CONFIG_HOME",
        "where the config file is looked for: $XDG_CONFIG_HOME/club-admin/config.toml (else ~/.config)",
    ),
    (
        "XDG_STATE_HOME",
        "the state folder: $XDG_STATE_HOME/club-admin (else ~/.local/state): the audit, the log, saved queues",
    ),
    (
        "LANG, LC_ALL, LC_MESSAGES",
        "the dashboard's language when it names Thai or English (--lang wins)",
    ),
    ("NO_COLOR", "when set and not empty, no colours"),
    (
        "JOURNAL_STREAM",
        "set by systemd: when it names standard error, the log goes to the journal",
    ),
];

/// The files the program reads and writes.
const FILES: [(&str, &str); 8] = [
    (
        "~/.config/club-admin/config.toml",
        "the config file (--config)",
    ),
    (
        "~/.local/state/club-admin/audit.jsonl",
        "the audit: every write, before it is sent and when its answer comes (club-admin history)",
    ),
    (
        "~/.local/state/club-admin/club-admin.log",
        "the log (--log-file), mode 0600, rotated at 10 MiB",
    ),
    (
        "/etc/club-admin/serve-ssh.toml",
        "the package's serve-ssh settings (a conffile)",
    ),
    (
        "/etc/club-admin/api_key, /etc/club-admin/authorized_keys",
        "the package's API key (mode 600, the service's) and the moderators' public keys",
    ),
    (
        "/var/lib/club-admin/club-admin/",
        "the package's state folder: the host's audit (club-admin history --host), the host key, the status socket",
    ),
    (
        "/lib/systemd/system/club-admin-ssh.service",
        "the package's unit (systemctl reload sends SIGHUP: the log level is read again)",
    ),
    (
        "/usr/share/doc/club-admin/",
        "the README and the manual (docs/src), the example config files",
    ),
];

/// The page of `cmd` (already built) with the sections of [`extra_sections`] after
/// clap_mangen's, and without the exit codes `--help` ends with (EXIT STATUS says them).
///
/// Errors: the writer's.
pub fn render(cmd: &clap::Command, w: &mut dyn Write) -> std::io::Result<()> {
    let cmd = cmd.clone().after_long_help(None::<&str>);
    clap_mangen::Man::new(cmd).render(w)?;
    extra_sections().to_writer(w)
}

/// EXIT STATUS, ENVIRONMENT, FILES and SEE ALSO.
pub fn extra_sections() -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["EXIT STATUS"]);
    for (code, what) in crate::script::exit::EXIT_CODES {
        r.control("TP", []);
        r.text([bold(code.to_string())]);
        r.text([roman(what)]);
    }
    r.control("SH", ["ENVIRONMENT"]);
    for (name, what) in ENVIRONMENT {
        r.control("TP", []);
        r.text([bold(name)]);
        r.text([roman(what)]);
    }
    r.control("SH", ["FILES"]);
    for (path, what) in FILES {
        r.control("TP", []);
        r.text([italic(path)]);
        r.text([roman(what)]);
    }
    r.control("SH", ["SEE ALSO"]);
    r.text([
        bold("club-admin"),
        roman("(1), "),
        bold("club-admin-serve-ssh"),
        roman("(1), "),
        bold("systemctl"),
        roman("(1), "),
        bold("ssh"),
        roman("(1); the manual: /usr/share/doc/club-admin/docs/src/SUMMARY.md"),
    ]);
    r
}

/// Every page, one file per command not hidden (`club-admin.1`,
/// `club-admin-serve-ssh.1`...), in `dir`.
///
/// Errors: a file could not be written.
pub fn write_pages(cmd: clap::Command, dir: &Path) -> std::io::Result<()> {
    fn each(cmd: &clap::Command, dir: &Path) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            each(sub, dir)?;
        }
        let name = clap_mangen::Man::new(cmd.clone()).get_filename();
        let mut file = std::fs::File::create(dir.join(name))?;
        render(cmd, &mut file)?;
        file.flush()
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    each(&cmd, dir)
}
