//! The command line: its definitions (clap derive) and [`run`], which hands each front end
//! its plain values: the dashboard and the demo to [`crate::runtime`], `serve-ssh` to
//! [`crate::ssh`], the scripting subcommands to [`crate::script`], with the flags as a
//! [`config::Flags`]. The only module that knows both the dashboard and the scripting
//! subcommands.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::config;
use crate::runtime::{self, Failure, StartIds};
use crate::script::{self, Exit};

mod demo;
pub mod logging;
pub mod man;
mod serve_ssh;

pub use demo::{DemoArgs, DemoServerArgs, FaultArgs, ServeDemoArgs};
pub use serve_ssh::{ServeSshAction, ServeSshArgs, StatusArgs};

/// What `club-admin --version` prints after the name: Cargo.toml's version, and the commit
/// it was built from when built from a git checkout (`1.0.0 (4c4f95d)`; `build.rs`).
pub const VERSION: &str = env!("CLUB_ADMIN_VERSION");

/// club-admin: review club membership requests from a terminal.
///
/// Without a subcommand, opens the dashboard on the server given by --base-url,
/// CLUB_ADMIN_BASE_URL or the config file. Secrets are read from the environment
/// (CLUB_ADMIN_API_KEY, CLUB_ADMIN_TOKEN) or from files, never from flags. The connection
/// and configuration flags go before or after any subcommand.
#[derive(Debug, Parser)]
#[command(name = "club-admin", version = VERSION, about, long_about, after_long_help = crate::script::exit::exit_codes_text())]
pub struct Cli {
    /// What to run; the dashboard when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Connection and configuration (global: every subcommand takes them).
    #[command(flatten)]
    pub conn: ConnArgs,
    /// Dashboard options.
    #[command(flatten)]
    pub dashboard: DashboardArgs,
}

/// Subcommands (parsed once; the size difference between variants does not matter).
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Start the embedded demo server in-process and open the dashboard on it.
    Demo(DemoArgs),
    /// Run the demo server alone and print its URL and credentials (for curl and tests).
    ServeDemo(ServeDemoArgs),
    /// Serve the dashboard over SSH: every moderator connects with `ssh -p 2222 HOST` and
    /// gets a dashboard of their own (public-key sign-in, keys from --authorized-keys).
    ServeSsh(ServeSshArgs),
    /// The scripting subcommands (whoami, requests, clubs).
    #[command(flatten)]
    Script(crate::script::ScriptCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    Completions(CompletionsArgs),
    /// Print the man page (roff) to standard output, or write one page per subcommand.
    Man(ManArgs),
}

/// The connection and configuration flags, defined once for the dashboard, `demo` and every
/// scripting subcommand. Global: `club-admin --base-url URL requests list` and
/// `club-admin requests list --base-url URL` are the same (given twice, the later wins).
#[derive(Debug, Args, Clone, Default, PartialEq, Eq)]
#[command(next_help_heading = "Connection and configuration")]
pub struct ConnArgs {
    /// Base URL of the service (https; http only to loopback) [env: CLUB_ADMIN_BASE_URL].
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,
    /// File holding the API key (instead of CLUB_ADMIN_API_KEY).
    #[arg(long, global = true, value_name = "PATH")]
    pub api_key_file: Option<PathBuf>,
    /// File holding the bearer token (instead of CLUB_ADMIN_TOKEN or the saved token).
    #[arg(long, global = true, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Config file (default: $XDG_CONFIG_HOME/club-admin/config.toml).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Log file (default: $XDG_STATE_HOME/club-admin/club-admin.log).
    #[arg(long, global = true, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
    /// Refuse every action that changes data on the server, before anything is sent (also
    /// `read_only = true` in the config).
    #[arg(long, global = true)]
    pub read_only: bool,
    /// Allow http:// to a host that is not loopback (secrets travel unencrypted).
    #[arg(long, global = true)]
    pub allow_insecure_http: bool,
    /// Most API calls in flight at once, 1 to 64 (bulk actions, prefetch) [default: 8, or
    /// `concurrency` in the config].
    #[arg(long, global = true, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub concurrency: Option<usize>,
    /// Calls in flight to the server from every club-admin process on this host together,
    /// 0 to 64; 0 turns the host budget off [default: 12, or CLUB_ADMIN_HOST_BUDGET, or
    /// `host_budget` in the config].
    #[arg(long, global = true, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub host_budget: Option<usize>,
    /// The host budget's folder, an absolute path every club-admin process of this host
    /// names alike [default: /run/club-admin-budget if it exists, else
    /// $TMPDIR/club-admin-budget; or CLUB_ADMIN_BUDGET_DIR, or `host_budget_dir` in the config].
    #[arg(long, global = true, value_name = "PATH")]
    pub host_budget_dir: Option<PathBuf>,
    /// Seconds one try of a call waits for its whole answer, 1 to 600 (a read is tried
    /// again: 3 tries, 5 for `requests list`) [default: 20, or `timeout_secs` in the config].
    #[arg(long, global = true, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub timeout: Option<u64>,
}

/// Options of the dashboard alone (also taken by `demo`, after its name).
#[derive(Debug, Args, Clone, Default, PartialEq, Eq)]
#[command(next_help_heading = "Dashboard")]
pub struct DashboardArgs {
    /// Club request ids to put in the queue (any mix of spaces, commas, newlines).
    #[arg(value_name = "REQUEST_ID", help_heading = None::<&str>)]
    pub ids: Vec<String>,
    /// File of club request ids to add to the queue.
    #[arg(long, value_name = "PATH")]
    pub queue_file: Option<PathBuf>,
    /// Capture the mouse (off by default: keeps the terminal's own selection working).
    #[arg(long)]
    pub mouse: bool,
    /// When the automatic refresh brings new requests, also ring the terminal's bell (`bell`)
    /// or send a desktop notice (`osc9`) [default: off, or `notify` in the config].
    #[arg(long, value_name = "HOW", value_parser = ["off", "bell", "osc9"])]
    pub notify: Option<String>,
    /// Refresh the queue every N seconds without a key (default 30; 0 turns it off; at
    /// least 5): new requests and decisions made elsewhere show within that time.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub auto_refresh: Option<u64>,
    /// Language of the dashboard: th (Thai) or en (English). Default: the config file's
    /// `language`, else LC_ALL / LC_MESSAGES / LANG (th* is Thai), else English.
    #[arg(long, value_name = "LANG", value_parser = ["th", "en"])]
    pub lang: Option<String>,
    /// Hold each approve/decline this long before sending it (z takes it back meanwhile);
    /// 0 sends at once [default: 5, at most 60].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub decision_delay: Option<u64>,
}

impl ConnArgs {
    /// The plain flags [`config::resolve`] takes: these, with the dashboard's own options
    /// when the dashboard (or `demo`) runs.
    pub fn flags(&self, dashboard: Option<&DashboardArgs>) -> config::Flags {
        let mut f = config::Flags {
            base_url: self.base_url.clone(),
            api_key_file: self.api_key_file.clone(),
            token_file: self.token_file.clone(),
            config: self.config.clone(),
            read_only: self.read_only,
            allow_insecure_http: self.allow_insecure_http,
            concurrency: self.concurrency,
            timeout: self.timeout,
            host_budget: self.host_budget,
            host_budget_dir: self.host_budget_dir.clone(),
            ..config::Flags::default()
        };
        if let Some(d) = dashboard {
            f.mouse = d.mouse;
            f.notify = d.notify.clone();
            f.auto_refresh = d.auto_refresh;
            f.lang = d.lang.clone();
            f.decision_delay = d.decision_delay;
        }
        f
    }
}

impl DashboardArgs {
    /// What the dashboard starts with besides the configuration.
    pub fn start_ids(&self) -> StartIds {
        StartIds {
            ids: self.ids.clone(),
            queue_file: self.queue_file.clone(),
        }
    }

    /// The first dashboard option given, as written on the command line (`None` when every
    /// one is left out).
    pub fn first_given(&self) -> Option<&'static str> {
        [
            (!self.ids.is_empty(), "REQUEST_ID"),
            (self.queue_file.is_some(), "--queue-file"),
            (self.mouse, "--mouse"),
            (self.auto_refresh.is_some(), "--auto-refresh"),
            (self.lang.is_some(), "--lang"),
            (self.decision_delay.is_some(), "--decision-delay"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

/// A whole number, 0 or more, that fits `T`. (Its flags take negative numbers as values, so
/// that `-5` gets a message saying what is wrong instead of being taken for a flag.)
/// Bounds narrower than the type's are checked by [`config::resolve`], which names them.
pub(crate) fn whole<T: TryFrom<i128>>(text: &str) -> Result<T, String> {
    let text = text.trim();
    match text.parse::<i128>() {
        Err(_) => Err(format!("{text} is not a whole number")),
        Ok(n) if n < 0 => Err(format!("{text} is negative: give 0 or more")),
        Ok(n) => T::try_from(n).map_err(|_| format!("{text} is too large")),
    }
}

/// `completions`
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `man`
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `club-admin.1` and one page per subcommand into this directory instead.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

/// The name the shells complete.
const BIN: &str = "club-admin";

/// Runs the command line and returns the exit code. The scripting subcommands end with
/// their [`Exit`]; the dashboard, `demo` and `serve-demo` with 0, 2 for a configuration
/// error (a number out of bounds, a broken config file, bad key bindings, no server or API
/// key: said before the terminal is touched) or 1 for any other failure. Errors are printed
/// to standard error, one message each, never a secret.
pub fn run(cli: Cli) -> ExitCode {
    let Cli {
        command,
        conn,
        dashboard,
    } = cli;
    if command.is_some()
        && let Some(flag) = dashboard.first_given()
    {
        let e = Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            format!(
                "{flag} is an option of the dashboard: give it without a subcommand (or after `demo`)"
            ),
        );
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    match command {
        Some(Command::Completions(a)) => completions(a.shell).into(),
        Some(Command::Man(a)) => man(a.out_dir).into(),
        Some(Command::Script(cmd)) => {
            init_logging(conn.log_file.clone(), "script");
            let flags = conn.flags(None);
            match block_on(script::run(cmd, &flags, Arc::new(script::stdio::Process))) {
                Ok(exit) => exit.into(),
                Err(code) => code,
            }
        }
        Some(Command::ServeSsh(a)) => serve_ssh::run(a, &conn),
        Some(Command::ServeDemo(a)) => {
            init_logging(conn.log_file.clone(), "serve-demo");
            finish(block_on(runtime::serve_demo(a.options())).map(|r| r.map_err(Failure::Other)))
        }
        Some(Command::Demo(a)) => {
            init_logging(conn.log_file.clone(), "dashboard");
            let flags = conn.flags(Some(&a.dashboard));
            finish(block_on(runtime::demo(
                a.demo_start(),
                &flags,
                a.dashboard.start_ids(),
            )))
        }
        None => {
            init_logging(conn.log_file.clone(), "dashboard");
            let flags = conn.flags(Some(&dashboard));
            finish(block_on(runtime::dashboard(&flags, dashboard.start_ids())))
        }
    }
}

/// Runs `fut` to its end on a multi-threaded runtime of two workers.
///
/// Errors: the runtime could not start (printed): exit code 1.
pub(crate) fn block_on<T>(fut: impl std::future::Future<Output = T>) -> Result<T, ExitCode> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| {
            script::say(&format!("could not start the async runtime: {e}"));
            ExitCode::FAILURE
        })?;
    let out = rt.block_on(fut);
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    Ok(out)
}

/// The exit code of the dashboard, `demo` or `serve-demo`, their failure said on standard
/// error: 2 for a configuration error, 1 for any other.
pub(crate) fn finish(result: Result<Result<(), Failure>, ExitCode>) -> ExitCode {
    match result {
        Err(code) => code,
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(failure)) => {
            // Not eprintln!: it panics when standard error is a terminal that hung up.
            let _ = writeln!(std::io::stderr(), "club-admin: {failure}");
            match failure {
                Failure::Config(_) => Exit::Usage.into(),
                Failure::Other(_) => Exit::Failed.into(),
            }
        }
    }
}

/// Logs go to a file (default `$XDG_STATE_HOME/club-admin/club-admin.log`, mode 0600,
/// rotated at 10 MiB) or, under systemd, to the journal; never to the screen
/// ([`logging::init`]). A log that cannot be used (a symbolic link, a file of another
/// user) is left out, and said on standard error now, before a dashboard takes the screen.
fn init_logging(path: Option<PathBuf>, what: &str) {
    if let Err(e) = logging::init(path, what) {
        // Not eprintln!: it panics when standard error is a terminal that hung up.
        let _ = writeln!(std::io::stderr(), "club-admin: warning: no log: {e}");
    }
}

/// The completion script of `club-admin` for `shell`.
///
/// bash: clap_complete (4.6.11, the newest release) spells the state of a subcommand two
/// ways when the command's name has a hyphen (clap-rs/clap#6421). Its loop over the words
/// typed reaches `club__admin__subcmd__requests`, but labels the case arms
/// `club__subcmd__admin__subcmd__requests`; no arm below the top level ever matched, and
/// bash fell back to file names. The arms are relabelled here as the loop spells them (as
/// the fix upstream does); a clap_complete that spells both alike leaves nothing to
/// relabel.
pub fn completion_script(shell: clap_complete::Shell) -> String {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN, &mut buf);
    let script = String::from_utf8_lossy(&buf).into_owned();
    if shell != clap_complete::Shell::Bash {
        return script;
    }
    const SEP: &str = "__subcmd__";
    let arm = format!("{}{SEP}", BIN.replace('-', SEP));
    let state = format!("{}{SEP}", BIN.replace('-', "__"));
    script.replace(&arm, &state)
}

fn completions(shell: clap_complete::Shell) -> Exit {
    script::emit(&completion_script(shell))
        .err()
        .unwrap_or(Exit::Ok)
}

fn man(out_dir: Option<PathBuf>) -> Exit {
    let cmd = Cli::command();
    match out_dir {
        Some(dir) => {
            let r = std::fs::create_dir_all(&dir).and_then(|()| man::write_pages(cmd, &dir));
            match r {
                Ok(()) => Exit::Ok,
                Err(e) => {
                    script::say(&format!(
                        "could not write man pages to {}: {e}",
                        dir.display()
                    ));
                    Exit::Failed
                }
            }
        }
        None => {
            let mut buf = Vec::new();
            if let Err(e) = man::render(&cmd, &mut buf) {
                script::say(&format!("could not render the man page: {e}"));
                return Exit::Failed;
            }
            script::emit(&String::from_utf8_lossy(&buf))
                .err()
                .unwrap_or(Exit::Ok)
        }
    }
}
