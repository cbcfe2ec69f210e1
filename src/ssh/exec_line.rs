//! The command line of an SSH exec request (`ssh -p 2222 HOST requests approve -`): what
//! `serve-ssh` runs for a moderator's key, read as the command line reads its own, with
//! nothing of the host named by the client.
//!
//! Only the scripting subcommands run ([`ALLOWED`]); a flag that names a file, another
//! service or the host's budget ([`REFUSED_FLAGS`]) is refused with one sentence, as is any
//! other command (`id`, `sh -c ...`, `serve-ssh`, a path). The line is split as a POSIX
//! shell would (quotes, backslashes) but never run by one.

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::script::ScriptCommand;

/// The subcommands a client may run (`club-admin` before them is allowed and ignored).
pub const ALLOWED: [&str; 5] = ["whoami", "requests", "clubs", "history", "stats"];

/// Flags of the command line that are refused over SSH: each names a file of the host, the
/// service or the host's own settings, which are the server's.
pub const REFUSED_FLAGS: [&str; 13] = [
    "--config",
    "--token-file",
    "--api-key-file",
    "--log-file",
    "--base-url",
    "--host-budget",
    "--host-budget-dir",
    "--allow-insecure-http",
    "--timeout",
    "--audit",
    "--host",
    "--queue-file",
    "--out-dir",
];

/// A scripting subcommand as an SSH client gives it, with the two connection flags a client
/// may give.
#[derive(Debug, Parser)]
#[command(
    name = "club-admin",
    about = "The scripting subcommands over SSH: ssh -p PORT HOST COMMAND [ARGS...]",
    disable_version_flag = true
)]
pub struct ExecLine {
    /// What to run.
    #[command(subcommand)]
    pub command: ScriptCommand,
    /// Refuse every action that changes data on the server, before anything is sent.
    #[arg(long, global = true)]
    pub read_only: bool,
    /// Most API calls in flight at once for this run, 1 to 64 (never more than the
    /// server's own limit).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub concurrency: Option<u16>,
}

/// What an exec request's command comes to.
#[derive(Debug)]
pub enum Parsed {
    /// A subcommand to run.
    Run(Box<ExecLine>),
    /// Nothing to run: `text` to print (on standard output when `to_stdout`, as `--help`
    /// is, else standard error), then the exit code `code`.
    Said {
        /// The words, ending in a new line.
        text: String,
        /// Standard output (help) or standard error (a refusal, a usage error).
        to_stdout: bool,
        /// The exit code: 0 for help, 2 for a refusal or a usage error.
        code: u8,
    },
}

impl Parsed {
    fn refused(text: String) -> Parsed {
        Parsed::Said {
            text: format!("club-admin: {text}\n"),
            to_stdout: false,
            code: 2,
        }
    }
}

/// The longest command line run, in bytes: ids beyond a few hundred go on standard input
/// (`-`). A longer one is refused with one sentence; one past SSH's own packet limit
/// (256 KiB) never reaches the server (the client's connection is closed).
pub const MAX_COMMAND_BYTES: usize = 32 * 1024;

/// Reads the command of an exec request: its bytes split into words as a shell would,
/// checked against [`ALLOWED`] and [`REFUSED_FLAGS`], then parsed as the command line.
pub fn parse(command: &[u8]) -> Parsed {
    if command.len() > MAX_COMMAND_BYTES {
        return Parsed::refused(format!(
            "the command line is {} KiB, longer than {} KiB: give the ids on standard input instead (... | ssh HOST requests approve -); nothing was run",
            command.len().div_ceil(1024),
            MAX_COMMAND_BYTES / 1024
        ));
    }
    let Ok(text) = std::str::from_utf8(command) else {
        return Parsed::refused("the command is not UTF-8: nothing was run".into());
    };
    let words = match shell_words::split(text) {
        Ok(w) => w,
        Err(e) => {
            return Parsed::refused(format!(
                "the command could not be read ({e}): nothing was run"
            ));
        }
    };
    let mut words = words.as_slice();
    if words.first().map(String::as_str) == Some("club-admin") {
        words = &words[1..];
    }
    let Some(first) = command_word(words) else {
        return Parsed::refused(format!(
            "no command given: over SSH this server runs {}; without a command, ssh opens the dashboard",
            ALLOWED.join(", ")
        ));
    };
    if words.iter().any(|w| w.starts_with("CLUB_ADMIN_TOKEN=")) {
        return Parsed::refused(
            "a token goes with ssh's own option, not in the command: ssh -o SetEnv=CLUB_ADMIN_TOKEN=TOKEN -p PORT HOST COMMAND (nothing was run)"
                .into(),
        );
    }
    if let Some(flag) = refused_flag(words) {
        return Parsed::refused(format!(
            "{flag} is refused over SSH: the server's own service, configuration and files are used (nothing was run)"
        ));
    }
    let help = matches!(first.as_str(), "help" | "--help" | "-h");
    if !help && !ALLOWED.contains(&first.as_str()) {
        let shown = crate::text::clean(first, 40);
        return Parsed::refused(format!(
            "{shown:?} is not a command here: over SSH this server runs only {} (nothing was run)",
            ALLOWED.join(", ")
        ));
    }
    let argv = std::iter::once("club-admin").chain(words.iter().map(String::as_str));
    let line = without_refused(ExecLine::command())
        .try_get_matches_from(argv)
        .and_then(|m| ExecLine::from_arg_matches(&m));
    match line {
        Ok(line) => Parsed::Run(Box::new(line)),
        Err(e) => {
            let to_stdout = !e.use_stderr();
            Parsed::Said {
                text: e.render().to_string(),
                to_stdout,
                code: if to_stdout { 0 } else { 2 },
            }
        }
    }
}

/// `c` with [`REFUSED_FLAGS`] hidden from its help and its subcommands' (they are refused
/// before parsing: the help over SSH lists only what may be given).
fn without_refused(mut c: clap::Command) -> clap::Command {
    let refused: Vec<String> = c
        .get_arguments()
        .filter(|a| {
            a.get_long()
                .is_some_and(|l| REFUSED_FLAGS.contains(&format!("--{l}").as_str()))
        })
        .map(|a| a.get_id().to_string())
        .collect();
    for id in refused {
        c = c.mut_arg(id, |a| a.hide(true));
    }
    let subcommands: Vec<String> = c
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect();
    for name in subcommands {
        c = c.mut_subcommand(name, without_refused);
    }
    c
}

/// The command as the server's log and status show it: each word that looks like a token
/// (a JSON Web Token's `eyJ`, or a word of 60 characters or more) as `[hidden]`, control
/// characters removed, at most 80 columns.
pub fn for_log(command: &[u8]) -> String {
    let text = String::from_utf8_lossy(command);
    let words: Vec<&str> = text
        .split_whitespace()
        .map(|w| match w.contains("eyJ") || w.chars().count() >= 60 {
            true => "[hidden]",
            false => w,
        })
        .collect();
    crate::text::clean(&words.join(" "), 80)
}

/// The command among `words`: the first that is not a flag (nor `--concurrency`'s value);
/// `--help` and `-h` count as the command `help`.
fn command_word(words: &[String]) -> Option<&String> {
    let mut value_next = false;
    words.iter().find(|w| {
        if std::mem::take(&mut value_next) {
            return false;
        }
        match w.as_str() {
            "--help" | "-h" => true,
            "--concurrency" => {
                value_next = true;
                false
            }
            w => !w.starts_with('-'),
        }
    })
}

/// The first refused flag among `words` (before a `--` that ends the flags), as written
/// without its value.
fn refused_flag(words: &[String]) -> Option<&'static str> {
    words
        .iter()
        .take_while(|w| w.as_str() != "--")
        .find_map(|w| {
            let name = w.split_once('=').map_or(w.as_str(), |(n, _)| n);
            REFUSED_FLAGS.iter().copied().find(|f| *f == name)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(p: Parsed) -> (String, bool, u8) {
        match p {
            Parsed::Said {
                text,
                to_stdout,
                code,
            } => (text, to_stdout, code),
            Parsed::Run(line) => panic!("expected words, got a run: {line:?}"),
        }
    }

    #[test]
    fn the_scripting_subcommands_parse_with_their_flags() {
        for line in [
            "whoami --json",
            "club-admin requests list --mine --json",
            "requests approve - --dry-run",
            "requests delete 6f1c2b9e-0000-4000-8000-000000000001 --yes",
            "clubs show 'Robotics Club'",
            "history --since today --format csv",
            "--read-only requests approve -",
            "requests list --concurrency 4",
            "--concurrency 2 whoami",
        ] {
            assert!(
                matches!(parse(line.as_bytes()), Parsed::Run(_)),
                "{line} did not parse"
            );
        }
    }

    #[test]
    fn other_commands_and_host_files_are_refused_with_one_sentence() {
        for (line, word) in [
            ("id", "\"id\" is not a command here"),
            ("sh -c 'cat /etc/passwd'", "\"sh\" is not a command here"),
            ("serve-ssh", "\"serve-ssh\" is not a command here"),
            ("demo", "\"demo\" is not a command here"),
            ("/bin/sh", "\"/bin/sh\" is not a command here"),
            ("history --audit /etc/shadow", "--audit is refused over SSH"),
            (
                "requests list --config=/tmp/x",
                "--config is refused over SSH",
            ),
            (
                "whoami --token-file /root/t",
                "--token-file is refused over SSH",
            ),
            ("--log-file /tmp/l whoami", "--log-file is refused over SSH"),
            ("history --host", "--host is refused over SSH"),
            ("", "no command given"),
            ("--read-only", "no command given"),
            ("--concurrency 2 id", "\"id\" is not a command here"),
            ("requests list 'unclosed", "could not be read"),
        ] {
            let (text, to_stdout, code) = said(parse(line.as_bytes()));
            assert!(text.contains(word), "{line}: {text}");
            assert_eq!(text.lines().count(), 1, "{line}: {text}");
            assert!(!to_stdout);
            assert_eq!(code, 2, "{line}");
        }
    }

    #[test]
    fn help_goes_to_standard_output_and_a_usage_error_to_standard_error() {
        let (text, to_stdout, code) = said(parse(b"--help"));
        assert!(to_stdout && code == 0);
        assert!(
            text.contains("requests") && !text.contains("serve-ssh"),
            "{text}"
        );
        for line in [
            &b"history --help"[..],
            b"requests approve --help",
            b"--help",
        ] {
            let (text, to_stdout, _) = said(parse(line));
            assert!(to_stdout, "{text}");
            for flag in REFUSED_FLAGS {
                assert!(!text.contains(&format!("{flag} ")), "{flag} in: {text}");
            }
        }
        let (text, _, _) = said(parse(b"history --help"));
        assert!(text.contains("--json"), "{text}");
        let (text, to_stdout, code) = said(parse(b"requests frobnicate"));
        assert!(!to_stdout && code == 2, "{text}");
        let (_, _, code) = said(parse(b"requests list --concurrency 500"));
        assert_eq!(code, 2);
    }

    #[test]
    fn a_token_in_the_command_is_refused_and_never_logged() {
        let line = b"CLUB_ADMIN_TOKEN=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln whoami";
        let (text, _, code) = said(parse(line));
        assert!(
            text.contains("SetEnv=CLUB_ADMIN_TOKEN=TOKEN") && code == 2,
            "{text}"
        );
        assert!(!text.contains("eyJ"), "{text}");
        assert_eq!(for_log(line), "[hidden] whoami");
        assert_eq!(for_log(b"requests list --json"), "requests list --json");
    }

    #[test]
    fn a_refused_flag_after_the_end_of_flags_is_an_argument() {
        assert_eq!(refused_flag(&["--".into(), "--config".into()]), None);
        assert_eq!(
            refused_flag(&["x".into(), "--api-key-file=/k".into()]),
            Some("--api-key-file")
        );
    }
}
