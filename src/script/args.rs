//! Command-line definitions of the scripting subcommands (clap derive). The command line
//! flattens them into its subcommands; the connection and configuration flags are global
//! there and reach [`super::run`] as a [`crate::config::Flags`].

use clap::{Args, Subcommand, ValueEnum};

use crate::api::{ContactType, FetchLevel, query::parse_level};

/// The non-interactive subcommands: the same client, configuration, sign-in, audit file and
/// read-only switch as the dashboard.
#[derive(Debug, Subcommand)]
pub enum ScriptCommand {
    /// Print the signed-in user (GET /auth/user).
    Whoami(WhoamiArgs),
    /// List, show, approve, decline or delete club requests.
    #[command(subcommand)]
    Requests(RequestsCommand),
    /// Show a club, add a club contact.
    #[command(subcommand)]
    Clubs(ClubsCommand),
    /// Who decided what: the audit file read back, one row per write (its final outcome),
    /// filtered; a table, JSON or CSV.
    History(HistoryArgs),
    /// The term's figures: pending per club, requests and decisions per day, the wait for a
    /// decision, each moderator's decisions; a table with bars, or --json.
    Stats(StatsArgs),
}

/// `club-admin history`
#[derive(Debug, Args, Clone, Default)]
pub struct HistoryArgs {
    /// The audit file to read [default: your own, $XDG_STATE_HOME/club-admin/audit.jsonl].
    #[arg(long, value_name = "FILE", conflicts_with = "host")]
    pub audit: Option<std::path::PathBuf>,
    /// Read this host's serve-ssh audit instead of your own: the state folder of the
    /// host's serve-ssh config (--config, else /etc/club-admin/serve-ssh.toml), else
    /// /var/lib/club-admin/club-admin; --club then reaches the service that config names.
    #[arg(long)]
    pub host: bool,
    /// Only writes of this moderator: a part of the e-mail or of the SSH key's comment
    /// (without case), or an SSH key's fingerprint (SHA256:...).
    #[arg(long, value_name = "TEXT")]
    pub moderator: Option<String>,
    /// Only writes about this club's requests (and its new contacts): an id or a name, as
    /// `requests list --club`; its requests are listed from the service (needs the key and
    /// token).
    #[arg(long, value_name = "ID|NAME")]
    pub club: Option<String>,
    /// Only writes to this request (or club); may be given again.
    #[arg(long, value_name = "ID")]
    pub request: Vec<String>,
    /// Only writes with this final outcome: ok, failed, unknown, undone, already, conflict,
    /// sending (an open write); may be given again.
    #[arg(long, value_name = "OUTCOME")]
    pub outcome: Vec<String>,
    /// Only writes decided from this time: today, yesterday, a date (2026-11-20, local), an
    /// RFC 3339 time, or a span back from now (2h, 30m, 7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only writes decided before this time (as --since; a date counts whole: --until
    /// 2026-11-20 keeps that day).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Output: an aligned table, a JSON array of rows, or CSV with a header line.
    #[arg(long, value_enum, default_value_t = HistoryFormat::Table)]
    pub format: HistoryFormat,
    /// The rows as a JSON array, as every other subcommand's `--json` (`--format json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
}

impl HistoryArgs {
    /// The output asked for: `--json`, else `--format`.
    pub fn output(&self) -> HistoryFormat {
        if self.json {
            HistoryFormat::Json
        } else {
            self.format
        }
    }
}

/// The output of `history`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum HistoryFormat {
    /// An aligned table (times local, cells cut by display width).
    #[default]
    Table,
    /// A JSON array of rows (times RFC 3339 UTC).
    Json,
    /// CSV with a header line (times RFC 3339 UTC), for the school's records.
    Csv,
}

/// `club-admin requests ...`
#[derive(Debug, Subcommand)]
pub enum RequestsCommand {
    /// Every page of the listing of club requests, sorted by id.
    ///
    /// Piped output is tab-separated without a header, one request per line:
    /// id, status, year, club id, club name (English), club name (Thai), school number,
    /// student name, created at (RFC 3339).
    List(ListArgs),
    /// Read club requests by id (same columns as `list`).
    Show(ShowArgs),
    /// Approve pending club requests (PUT /v1/clubs/requests/{id} status=approved).
    Approve(ActArgs),
    /// Decline pending club requests (PUT /v1/clubs/requests/{id} status=declined).
    Decline(ActArgs),
    /// Delete club requests (DELETE /v1/clubs/requests/{id}); asks first on a terminal.
    Delete(DeleteArgs),
    /// Print each change of the scope's pending requests as it happens (new, approved,
    /// declined, gone), as lines or --json (one object per line), until interrupted.
    Watch(WatchArgs),
}

/// `club-admin clubs ...`
#[derive(Debug, Subcommand)]
pub enum ClubsCommand {
    /// Show a club by id, or by name (searched in both languages; one match needed).
    Show(ClubShowArgs),
    /// Club contacts.
    #[command(subcommand)]
    Contact(ContactCommand),
}

/// `club-admin clubs contact ...`
#[derive(Debug, Subcommand)]
pub enum ContactCommand {
    /// Add a contact to a club (POST /v1/clubs/{id}/contacts).
    Add(ContactAddArgs),
}

/// Output options. Without them: an aligned table when standard output is a terminal,
/// tab-separated values (no header) when it is not.
#[derive(Debug, Args, Clone, Default)]
pub struct OutputArgs {
    /// Print the service's objects as one JSON document (an array for lists).
    #[arg(long, conflicts_with_all = ["ids_only", "table"])]
    pub json: bool,
    /// Print only ids, one per line (for `... --ids | club-admin requests approve -`).
    #[arg(long = "ids", id = "ids_only", conflicts_with = "table")]
    pub ids_only: bool,
    /// Print the aligned table even when standard output is not a terminal.
    #[arg(long)]
    pub table: bool,
}

/// Options shared by every scripting subcommand that talks to the server (the connection
/// and configuration flags are global, defined once by the command line).
#[derive(Debug, Args, Clone, Default)]
pub struct Common {
    /// Output format.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `whoami`
#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

/// Membership status filter of `requests list`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    /// Waiting for a decision.
    Pending,
    /// Approved.
    Approved,
    /// Declined.
    Declined,
    /// Any status.
    All,
}

/// Fetch levels of the requests read (the request itself, and its club and student).
#[derive(Debug, Args, Clone)]
pub struct LevelArgs {
    /// Fetch level of each request: id_only, compact, default, detailed.
    #[arg(long, value_name = "LEVEL", default_value = "default", value_parser = parse_level)]
    pub level: FetchLevel,
    /// Fetch level of each request's club and student (`default` adds student names; a
    /// student account may only read its own classroom's students at that level).
    #[arg(long, value_name = "LEVEL", default_value = "compact", value_parser = parse_level)]
    pub descendant_level: FetchLevel,
}

/// `requests list`
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only requests to this club: its id, or (part of) its name in English or Thai (one
    /// match needed); repeat for several.
    #[arg(long = "club", value_name = "ID|NAME")]
    pub clubs: Vec<String>,
    /// Only this membership status.
    #[arg(long, value_enum, default_value_t = StatusArg::Pending)]
    pub status: StatusArg,
    /// Only this academic year, CE (2026) or BE (2569), from 2000 to 2100 CE.
    #[arg(long, value_name = "YEAR", value_parser = crate::ops::parse::academic_year)]
    pub year: Option<i32>,
    /// Only the clubs you are on the staff of (teachers and administrators: every club, as
    /// in the dashboard).
    #[arg(long, conflicts_with = "clubs")]
    pub mine: bool,
    /// `--fetch-level` and `--descendant-fetch-level` of the records printed.
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

/// `requests show`
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Club request ids (any mix of spaces, commas, new lines); `-` reads standard input.
    #[arg(value_name = "ID", required = true)]
    pub targets: Vec<String>,
    /// `--fetch-level` and `--descendant-fetch-level` of the records printed.
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

/// `requests approve` and `requests decline`
#[derive(Debug, Args)]
pub struct ActArgs {
    /// Club request ids (any mix of spaces, commas, new lines); `-` reads standard input.
    #[arg(value_name = "ID", required = true)]
    pub targets: Vec<String>,
    /// Say what would be sent, send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

/// `requests delete`
#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// The ids and options of approve/decline.
    #[command(flatten)]
    pub act: ActArgs,
    /// Do not ask (required when standard input is not a terminal or carries the ids).
    #[arg(long, short = 'y')]
    pub yes: bool,
}

/// `clubs show`
#[derive(Debug, Args)]
pub struct ClubShowArgs {
    /// A club id, or (part of) a club name in English or Thai.
    #[arg(value_name = "ID|NAME")]
    pub club: String,
    /// Fetch level of the club (`default` includes its contacts).
    #[arg(long, value_name = "LEVEL", default_value = "default", value_parser = parse_level)]
    pub level: FetchLevel,
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

fn contact_types() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(ContactType::KNOWN.iter().map(|t| {
        // `as_str` of a known variant is a literal; the 'static borrow comes from KNOWN.
        let s: &'static str = t.as_str();
        s
    }))
}

/// `clubs contact add`
#[derive(Debug, Args)]
pub struct ContactAddArgs {
    /// The club: its id, or (part of) its name in English or Thai (one match needed).
    #[arg(value_name = "ID|NAME")]
    pub club: String,
    /// Contact type.
    #[arg(long = "type", value_name = "T", value_parser = contact_types())]
    pub kind: String,
    /// Contact value (a number, an address, a handle).
    #[arg(long, value_name = "V")]
    pub value: String,
    /// Say what would be sent, send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Shared options.
    #[command(flatten)]
    pub common: Common,
}

/// `club-admin stats` (run by `script/stats.rs`)
#[derive(Debug, Args, Clone, Default)]
pub struct StatsArgs {
    /// The scope's requests as `requests watch` and the dashboard see them.
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// The audit file the decisions are read from [default: your own,
    /// $XDG_STATE_HOME/club-admin/audit.jsonl; over SSH, the host's].
    #[arg(long, value_name = "FILE")]
    pub audit: Option<std::path::PathBuf>,
    /// Print the figures as one JSON object (the manual's "club-admin stats" lists its
    /// fields and units).
    #[arg(long)]
    pub json: bool,
}

/// Which requests a figure or a watch covers.
#[derive(Debug, Args, Clone, Default)]
pub struct ScopeArgs {
    /// Only requests to this club: its id, or (part of) its name in English or Thai (one
    /// match needed); repeat for several.
    #[arg(long = "club", value_name = "ID|NAME")]
    pub clubs: Vec<String>,
    /// Only the clubs you are on the staff of (teachers and administrators: every club, as
    /// in the dashboard).
    #[arg(long, conflicts_with = "clubs")]
    pub mine: bool,
    /// Only this academic year, CE (2026) or BE (2569).
    #[arg(long, value_name = "YEAR", value_parser = crate::ops::parse::academic_year)]
    pub year: Option<i32>,
}

/// `club-admin requests watch` (run by `script/watch.rs`)
#[derive(Debug, Args, Clone, Default)]
pub struct WatchArgs {
    /// The requests watched: the scope's pending requests.
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Seconds between two reads, 5 to 3600 [default: the configured automatic refresh,
    /// auto_refresh_secs, else 30].
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(5..=3600))]
    pub every: Option<u64>,
    /// One JSON object per line per event (the manual's "club-admin requests watch" lists
    /// the fields).
    #[arg(long)]
    pub json: bool,
}
