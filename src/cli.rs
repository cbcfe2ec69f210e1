//! Command-line definitions (clap).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// club-admin: review club membership requests from a terminal.
///
/// Without a subcommand, opens the dashboard on the server given by --base-url,
/// CLUB_ADMIN_BASE_URL or the config file. Secrets are read from the environment
/// (CLUB_ADMIN_API_KEY, CLUB_ADMIN_TOKEN) or from files, never from flags.
#[derive(Debug, Parser)]
#[command(name = "club-admin", version, about, long_about)]
pub struct Cli {
    /// What to run; the dashboard when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// The scripting subcommands (whoami, requests, clubs, completions, man).
    #[command(flatten)]
    Script(crate::script::ScriptCommand),
}

/// Options of the dashboard (also used by `demo`).
#[derive(Debug, Args, Clone, Default)]
pub struct DashboardArgs {
    /// Club request ids to put in the queue (any mix of spaces, commas, newlines).
    #[arg(value_name = "REQUEST_ID")]
    pub ids: Vec<String>,
    /// Base URL of the service (https; http only to loopback) [env: CLUB_ADMIN_BASE_URL].
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// File holding the API key (instead of CLUB_ADMIN_API_KEY).
    #[arg(long, value_name = "PATH")]
    pub api_key_file: Option<PathBuf>,
    /// File holding the bearer token (instead of CLUB_ADMIN_TOKEN).
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// Config file (default: $XDG_CONFIG_HOME/club-admin/config.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// File of club request ids to add to the queue.
    #[arg(long, value_name = "PATH")]
    pub queue_file: Option<PathBuf>,
    /// Log file (default: $XDG_STATE_HOME/club-admin/club-admin.log).
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
    /// Disable every action that changes data on the server.
    #[arg(long)]
    pub read_only: bool,
    /// Allow http:// to a host that is not loopback (secrets travel unencrypted).
    #[arg(long)]
    pub allow_insecure_http: bool,
    /// Most API calls in flight at once (bulk actions, prefetch).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Whole-request timeout in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<u64>,
    /// Capture the mouse (off by default: keeps the terminal's own selection working).
    #[arg(long)]
    pub mouse: bool,
    /// Reload the queue every N seconds (0, the default, is off; at least 5).
    #[arg(long, value_name = "SECONDS")]
    pub auto_refresh: Option<u64>,
    /// Language of the dashboard: th (Thai) or en (English). Default: the config file's
    /// `language`, else LC_ALL / LC_MESSAGES / LANG (th* is Thai), else English.
    #[arg(long, value_name = "LANG", value_parser = ["th", "en"])]
    pub lang: Option<String>,
    /// Hold each approve/decline this long before sending it (z takes it back meanwhile);
    /// 0 sends at once [default: 5, at most 60].
    #[arg(long, value_name = "SECONDS")]
    pub decision_delay: Option<u64>,
}

/// Options of `demo`.
#[derive(Debug, Args, Clone)]
pub struct DemoArgs {
    /// Demo account to sign in as.
    #[arg(long = "as", value_name = "ACCOUNT", default_value = "moderator", value_parser = ["moderator", "teacher", "admin"])]
    pub account: String,
    /// Sign in with the API key only (shows the sign-in popup, as a new user would see it).
    #[arg(long)]
    pub no_token: bool,
    /// Which service version the demo server imitates.
    #[command(flatten)]
    pub server: DemoServerArgs,
    /// Faults of the demo server.
    #[command(flatten)]
    pub faults: FaultArgs,
    /// Dashboard options.
    #[command(flatten)]
    pub dashboard: DashboardArgs,
}

/// Options of `serve-demo`.
#[derive(Debug, Args, Clone)]
pub struct ServeDemoArgs {
    /// TCP port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Which service version the demo server imitates.
    #[command(flatten)]
    pub server: DemoServerArgs,
    /// Faults of the demo server.
    #[command(flatten)]
    pub faults: FaultArgs,
    /// Extra pending requests to add (for scale tests).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub extra_requests: usize,
}

/// The deployed service the demo server imitates (`demo` and `serve-demo`).
#[derive(Debug, Args, Clone, Default)]
pub struct DemoServerArgs {
    /// Service version to imitate: 0.8 (0.8.4: approve and decline exist) or 0.9 (0.9.0: no
    /// update route, joining inserts an approved request).
    #[arg(long, value_name = "VERSION", default_value = "0.8", value_parser = crate::demo::ServiceVersion::parse)]
    pub api_version: crate::demo::ServiceVersion,
}

/// Fault injection of the demo server (all off by default).
#[derive(Debug, Args, Clone, Default)]
pub struct FaultArgs {
    /// Fixed delay added to every answer, in milliseconds.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub latency_ms: u64,
    /// Extra random delay (0..=N ms) added to every answer.
    #[arg(long, default_value_t = 0, value_name = "MS")]
    pub jitter_ms: u64,
    /// Share of requests (0.0-1.0) answered with 500 or 503.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", value_parser = rate)]
    pub failure_rate: f64,
    /// Share of requests (0.0-1.0) whose connection is closed without an answer.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", value_parser = rate)]
    pub drop_rate: f64,
    /// Share of successful writes (0.0-1.0) whose answer is lost after the write committed.
    #[arg(long, default_value_t = 0.0, value_name = "RATE", value_parser = rate)]
    pub drop_after_write_rate: f64,
}

/// A share from 0.0 to 1.0.
fn rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("{text:?} is not a rate from 0.0 to 1.0")),
    }
}

impl FaultArgs {
    /// The demo server's [`crate::demo::Faults`].
    pub fn to_faults(&self) -> crate::demo::Faults {
        crate::demo::Faults {
            latency: std::time::Duration::from_millis(self.latency_ms),
            jitter: std::time::Duration::from_millis(self.jitter_ms),
            failure_rate: self.failure_rate,
            drop_rate: self.drop_rate,
            drop_after_write_rate: self.drop_after_write_rate,
        }
    }
}
