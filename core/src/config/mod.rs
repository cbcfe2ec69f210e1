//! Configuration: defaults < config file < environment < flags. Secrets are resolved here
//! and held as [`SecretString`]s from then on.
//!
//! The config file is `$XDG_CONFIG_HOME/club-admin/config.toml` (or `--config`); see
//! `assets/config.example.toml` for every key.

mod choices;

pub use choices::NewRequestNotice;
use choices::host_budget_of;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use secrecy::SecretString;
use serde::Deserialize;

use crate::api::{ClientOptions, Credentials};
use crate::i18n::Lang;
use crate::i18n::dates::YearStyle;

/// Default grace period before an approve or decline is sent (`--decision-delay`,
/// `decision_delay_secs`), in seconds.
pub const DEFAULT_DECISION_DELAY_SECS: u64 = 5;
/// The longest grace period accepted, in seconds: longer, and a decision would wait
/// unseen after the moderator has moved on.
pub const MAX_DECISION_DELAY_SECS: u64 = 60;

/// The values given on the command line that [`resolve`] lays over the environment, the
/// config file and the defaults. Plain data: the command line (`src/cli.rs`) fills it from
/// its parsed flags, tests build it by hand. `None` and `false` leave a setting to the
/// layers below.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Flags {
    /// `--base-url`.
    pub base_url: Option<String>,
    /// `--api-key-file`.
    pub api_key_file: Option<PathBuf>,
    /// `--token-file`.
    pub token_file: Option<PathBuf>,
    /// `--config` (an explicit file must exist).
    pub config: Option<PathBuf>,
    /// `--read-only`.
    pub read_only: bool,
    /// `--allow-insecure-http`.
    pub allow_insecure_http: bool,
    /// `--concurrency`.
    pub concurrency: Option<usize>,
    /// `--timeout`, seconds.
    pub timeout: Option<u64>,
    /// `--host-budget`: calls in flight to the server from every club-admin process of this
    /// host (0 turns the host budget off).
    pub host_budget: Option<usize>,
    /// `--host-budget-dir`: the host budget's folder (an absolute path).
    pub host_budget_dir: Option<PathBuf>,
    /// `--mouse` (dashboard).
    pub mouse: bool,
    /// `--notify`: `off`, `bell` or `osc9` (dashboard).
    pub notify: Option<String>,
    /// `--auto-refresh`, seconds (dashboard).
    pub auto_refresh: Option<u64>,
    /// `--lang`: `th` or `en` (dashboard).
    pub lang: Option<String>,
    /// `--decision-delay`, seconds (dashboard).
    pub decision_delay: Option<u64>,
    /// The state folder instead of `$XDG_STATE_HOME/club-admin` (`serve-ssh`: the config
    /// file's `[serve_ssh] state_dir`).
    pub state_dir: Option<PathBuf>,
}

/// The queue's automatic refresh, seconds, unless set (`--auto-refresh`, `auto_refresh_secs`;
/// 0 turns it off): decisions made elsewhere and new requests show within a minute, for a
/// few calls a minute (the loaded listing pages and the loaded rows, 50 a call), and the
/// refresh says nothing unless it found something.
pub const DEFAULT_AUTO_REFRESH_SECS: u64 = 30;

/// A key binding value: one key or a list.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum KeyList {
    /// `approve = "a"`
    One(String),
    /// `approve = ["a", "enter"]`
    Many(Vec<String>),
}

/// The config file, every key optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// Base URL of the service.
    pub base_url: Option<String>,
    /// The API key itself (prefer `api_key_file`; the file must not be readable by others).
    pub api_key: Option<String>,
    /// A file holding the API key.
    pub api_key_file: Option<PathBuf>,
    /// A file holding the bearer token (also where a pasted token is saved).
    pub token_file: Option<PathBuf>,
    /// Most API calls in flight (default 8).
    pub concurrency: Option<usize>,
    /// Calls in flight to one server from every club-admin process of this host (default
    /// 12; 0 is off).
    pub host_budget: Option<usize>,
    /// The host budget's folder, the same for every process of the host (default
    /// `/run/club-admin-budget` when it exists, else `club-admin-budget` in the temporary
    /// directory).
    pub host_budget_dir: Option<PathBuf>,
    /// Seconds one try of a call waits for its whole answer (default 20); a read is tried
    /// again (`api::ApiError::Timeout` says how many tries and how long they took).
    pub timeout_secs: Option<u64>,
    /// Auto-refresh interval, seconds (default 30; 0 is off).
    pub auto_refresh_secs: Option<u64>,
    /// Listing page size (default 50, at most 100).
    pub page_size: Option<u32>,
    /// Ids one run of a subcommand reads from standard input or its arguments, at most
    /// (default 50000): past it the run is refused before anything is sent.
    pub max_input_ids: Option<usize>,
    /// Grace period before an approve/decline is sent, seconds (default 5, 0 sends at
    /// once, at most 60).
    pub decision_delay_secs: Option<u64>,
    /// Disable mutating actions.
    pub read_only: Option<bool>,
    /// Capture the mouse.
    pub mouse: Option<bool>,
    /// When the automatic refresh brings new requests: `"off"` (the default), `"bell"`
    /// (the terminal's bell) or `"osc9"` (a desktop notice, OSC 9).
    pub notify: Option<String>,
    /// Tick "save the token" in the sign-in pop-up by default (default false: shared
    /// school computers).
    pub save_token: Option<bool>,
    /// Allow http:// to non-loopback hosts.
    pub allow_insecure_http: Option<bool>,
    /// Language of the dashboard: `"th"` or `"en"` (`--lang` wins; default from the locale).
    pub language: Option<String>,
    /// How years are written: `"be"` (Buddhist Era, 2569; the default in Thai) or `"ce"`
    /// (2026; the default in English).
    pub year_style: Option<String>,
    /// Single-key commands also accept the character of the same key on the Thai Kedmanee
    /// layout (default true).
    pub thai_keys: Option<bool>,
    /// The audit file rotates past this size, megabytes (default 64; 0 never): the rotated
    /// file is kept beside it, and `history` reads it (`ops::rotate`).
    pub audit_rotate_mb: Option<u64>,
    /// Key overrides: `action = "key"` or `action = ["key", ...]`.
    #[serde(default)]
    pub keys: BTreeMap<String, KeyList>,
    /// `club-admin serve-ssh`'s own settings (the `[serve_ssh]` table).
    #[serde(default)]
    pub serve_ssh: ServeSshFile,
}

/// The config file's `[serve_ssh]` table: what `club-admin serve-ssh` (and its `--check`)
/// otherwise takes as flags, so that a systemd unit's command line stays
/// `serve-ssh --config FILE`. Every key optional; a flag given wins over its key.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ServeSshFile {
    /// `--listen`: address and port (`"0.0.0.0:2222"`).
    pub listen: Option<std::net::SocketAddr>,
    /// `--authorized-keys`: the public keys that may sign in.
    pub authorized_keys: Option<PathBuf>,
    /// `--host-key`: the server's host key file.
    pub host_key: Option<PathBuf>,
    /// `--status-socket`: where the running server answers `serve-ssh status`.
    pub status_socket: Option<PathBuf>,
    /// `--log-file`: the log file (under systemd without it the log goes to the journal).
    pub log_file: Option<PathBuf>,
    /// The log's level: `trace`, `debug`, `info` (the default), `warn`, `error`, or a
    /// filter as `CLUB_ADMIN_LOG` takes (which wins over it); read again on SIGHUP
    /// (`systemctl reload`).
    pub log_level: Option<String>,
    /// `--remember-tokens`: keep each key's token on disk.
    pub remember_tokens: Option<bool>,
    /// `--reattach-minutes`.
    pub reattach_minutes: Option<u64>,
    /// `--max-sessions`.
    pub max_sessions: Option<usize>,
    /// `--max-sessions-per-key`.
    pub max_sessions_per_key: Option<usize>,
    /// `--idle-minutes`.
    pub idle_minutes: Option<u64>,
    /// `--max-connections`: signed-in connections at once, in all.
    pub max_connections: Option<usize>,
    /// `--max-connections-per-key`: signed-in connections at once of one key.
    pub max_connections_per_key: Option<usize>,
    /// `--session-timeout`: seconds a signed-in connection has to ask for a dashboard or a
    /// command.
    pub session_timeout_seconds: Option<u64>,
    /// `--no-exec` when `false`: SSH clients may run the scripting subcommands (default
    /// true).
    pub exec: Option<bool>,
    /// `--exec-time-limit`: minutes a command an SSH client runs may take.
    pub exec_time_limit_minutes: Option<u64>,
    /// The state folder (audit file, host key, status socket, remembered tokens, log)
    /// instead of `$XDG_STATE_HOME/club-admin`; the packaged unit's is
    /// [`HOST_STATE_DIR`].
    pub state_dir: Option<PathBuf>,
}

/// Everything the dashboard needs, resolved.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Base URL (validated later by the client).
    pub base_url: String,
    /// Key and token.
    pub credentials: Credentials,
    /// The file the API key was read from (`--api-key-file`, else `api_key_file` in the
    /// config file when no `CLUB_ADMIN_API_KEY` is set); `None` for a key from the
    /// environment or the config file itself. What `serve-ssh --check` checks.
    pub api_key_file: Option<PathBuf>,
    /// Client options.
    pub client: ClientOptions,
    /// Most calls in flight.
    pub concurrency: usize,
    /// Auto-refresh interval; `None` is off.
    pub auto_refresh: Option<Duration>,
    /// Listing page size.
    pub page_size: u32,
    /// Ids one run reads, at most (config `max_input_ids`; [`crate::ops::parse::MAX_INPUT_IDS`]).
    pub max_input_ids: usize,
    /// Read-only mode.
    pub read_only: bool,
    /// Mouse capture.
    pub mouse: bool,
    /// How new requests are announced beyond the status line.
    pub notify: NewRequestNotice,
    /// Save pasted tokens by default.
    pub save_token: bool,
    /// Where a pasted token is saved.
    pub token_path: Option<PathBuf>,
    /// The config file's `[keys]` overrides, `action -> keys`, as written: checked by the
    /// dashboard when it builds its keymap (`app::Keymap::with_overrides` in the root
    /// package), which turns bad bindings into a configuration error. The scripting
    /// subcommands have no keys.
    pub key_overrides: BTreeMap<String, Vec<String>>,
    /// Grace period before an approve/decline is sent (zero: at once).
    pub decision_delay: Duration,
    /// The state directory (audit file, saved queues, default log).
    pub state_dir: Option<PathBuf>,
    /// Language of the user interface ([`Lang::detect`]: `--lang` > config `language` >
    /// `LC_ALL` / `LC_MESSAGES` / `LANG` > English).
    pub lang: Lang,
    /// How dates and academic years write the year (config `year_style`; default BE in
    /// Thai, CE in English).
    pub year_style: YearStyle,
    /// Map Thai Kedmanee characters to the QWERTY key at the same place for single-key
    /// commands (config `thai_keys`, default true).
    pub thai_keys: bool,
    /// Warnings to show at start: secrets other users can read.
    pub warnings: Vec<ReadableSecret>,
    /// The size past which the audit file rotates, bytes (config `audit_rotate_mb`; 0
    /// never): what each front end hands `ops::rotate::install` at its start.
    pub audit_rotate_bytes: u64,
}

/// The project's directories (XDG on Linux).
pub fn dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "club-admin")
}

/// Default config file path.
pub fn default_config_path() -> Option<PathBuf> {
    dirs().map(|d| d.config_dir().join("config.toml"))
}

/// The state folder of this host's `serve-ssh` as the systemd unit runs it
/// (`XDG_STATE_HOME=/var/lib/club-admin`, `docs/src/operators/install.md`): its audit file and status
/// socket, which `club-admin history --host` and `club-admin serve-ssh status` read.
pub const HOST_STATE_DIR: &str = "/var/lib/club-admin/club-admin";

/// The config file of this host's `serve-ssh` as the Debian package installs it and its
/// systemd unit runs it (`--config /etc/club-admin/serve-ssh.toml`): what `club-admin
/// history --host` reads the service and the state folder from.
pub const HOST_CONFIG: &str = "/etc/club-admin/serve-ssh.toml";

/// Default state directory (`$XDG_STATE_HOME/club-admin`, else the data dir).
pub fn default_state_dir() -> Option<PathBuf> {
    dirs().map(|d| {
        d.state_dir()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| d.data_local_dir().to_path_buf())
    })
}

/// A file that holds a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretFile {
    /// The config file, when it holds `api_key`.
    Config,
    /// `--api-key-file` / `CLUB_ADMIN_API_KEY_FILE`.
    ApiKey,
    /// The token file (`--token-file`, or the saved one).
    Token,
}

/// A secret file other users can read: a start-up warning. Its `Display` is English (the
/// command line's stderr, logs); the dashboard says it in the reader's language
/// ([`ReadableSecret::text`]). It names the file, never the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadableSecret {
    /// Which file it is.
    pub file: SecretFile,
    /// Its path.
    pub path: PathBuf,
    /// Its permission bits (`0o644`).
    pub mode: u32,
}

impl ReadableSecret {
    /// The warning in `lang` (keys `warning-readable-*`): "the token file /x can be read by
    /// other users (mode 644): run chmod 600 on it".
    pub fn text(&self, lang: Lang) -> String {
        let key = match self.file {
            SecretFile::Config => "warning-readable-config",
            SecretFile::ApiKey => "warning-readable-api-key",
            SecretFile::Token => "warning-readable-token",
        };
        crate::tr!(
            lang,
            key,
            path = self.path.display().to_string(),
            mode = format!("{:o}", self.mode)
        )
    }
}

impl std::fmt::Display for ReadableSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::English))
    }
}

/// A warning when `path` (a `file` holding a secret) can be read by group or others (unix);
/// `None` otherwise.
pub fn permission_warning(path: &Path, file: SecretFile) -> Option<ReadableSecret> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).ok()?.permissions().mode();
        (mode & 0o077 != 0).then(|| ReadableSecret {
            file,
            path: path.to_path_buf(),
            mode: mode & 0o777,
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (path, file);
        None
    }
}

/// Expands a leading `~/` to the home directory (config files are written by hand).
pub fn expand_home(path: &Path) -> PathBuf {
    match path.strip_prefix("~") {
        Ok(rest) => directories::BaseDirs::new()
            .map(|b| b.home_dir().join(rest))
            .unwrap_or_else(|| path.to_path_buf()),
        Err(_) => path.to_path_buf(),
    }
}

/// The API key in the file at `path` as the settings read it (trimmed; a `~/` is the
/// home), and the warnings of a file other users can read: for `serve-ssh`, which reads the
/// file again when the operator rewrites it.
///
/// Errors: the file cannot be read, or is empty (a message naming it; never the key).
pub fn read_api_key_file(path: &Path) -> Result<(String, Vec<ReadableSecret>), String> {
    let mut warnings = Vec::new();
    let key = read_secret_file(path, SecretFile::ApiKey, &mut warnings)?;
    Ok((key, warnings))
}

fn read_secret_file(
    path: &Path,
    file: SecretFile,
    warnings: &mut Vec<ReadableSecret>,
) -> Result<String, String> {
    let what = match file {
        SecretFile::Config => "config",
        SecretFile::ApiKey => "API key",
        SecretFile::Token => "token",
    };
    let path = &expand_home(path);
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not read the {what} file {}: {e}", path.display()))?;
    if let Some(w) = permission_warning(path, file) {
        warnings.push(w);
    }
    let value = text.trim().to_owned();
    if value.is_empty() {
        return Err(format!("the {what} file {} is empty", path.display()));
    }
    Ok(value)
}

/// Reads and parses a config file; a missing default file is an empty config.
///
/// Errors: unreadable or invalid TOML, an unknown key (named in the message).
pub fn load_file(
    path: Option<&Path>,
    explicit: bool,
) -> Result<(FileConfig, Option<PathBuf>), String> {
    let Some(path) = path else {
        return Ok((FileConfig::default(), None));
    };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let cfg: FileConfig = toml::from_str(&text)
                .map_err(|e| format!("config file {}: {e}", path.display()))?;
            Ok((cfg, Some(path.to_path_buf())))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
            Ok((FileConfig::default(), None))
        }
        Err(e) => Err(format!(
            "could not read config file {}: {e}",
            path.display()
        )),
    }
}

/// `value` when it lies in `min..=max`.
///
/// Errors: a message naming the setting and the bound (never clamped silently).
pub fn bounded<T: PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    value: T,
    min: T,
    max: T,
) -> Result<T, String> {
    if value < min || value > max {
        Err(format!(
            "{name} must be between {min} and {max}, not {value}"
        ))
    } else {
        Ok(value)
    }
}

/// The UI language (`--lang` > config `language` > `LC_ALL`/`LC_MESSAGES`/`LANG` >
/// English) and how years are written (config `year_style`, else BE in Thai, CE in English).
///
/// Errors: a `language` or `year_style` in the config file that is not one of the choices.
fn language_of(
    flags: &Flags,
    file: &FileConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(Lang, YearStyle), String> {
    if let Some(l) = file.language.as_deref()
        && Lang::parse(l).is_none()
    {
        return Err(format!(
            "config file: language = {l:?} is not a language of the dashboard: use \"th\" or \"en\""
        ));
    }
    let lang = Lang::detect(flags.lang.as_deref(), file.language.as_deref(), |k| env(k));
    let year_style = match file.year_style.as_deref() {
        None => YearStyle::default_for(lang),
        Some(v) => YearStyle::parse(v).ok_or_else(|| {
            format!("config file: year_style = {v:?} must be \"be\" (2569) or \"ce\" (2026)")
        })?,
    };
    Ok((lang, year_style))
}

/// The config file's `[keys]` overrides as lists (`approve = "a"` is `["a"]`), not yet
/// checked against the actions and keys the dashboard knows.
fn key_overrides_of(file: &FileConfig) -> BTreeMap<String, Vec<String>> {
    file.keys
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                match v {
                    KeyList::One(s) => vec![s.clone()],
                    KeyList::Many(v) => v.clone(),
                },
            )
        })
        .collect()
}

/// The configuration error for bad `[keys]` bindings (every one listed, as messages): what
/// the dashboard says when `app::Keymap::with_overrides` (in the root package) refuses
/// [`Settings::key_overrides`].
pub fn key_bindings_error(errors: &[String]) -> String {
    format!(
        "bad key bindings in the config file:\n  {}",
        errors.join("\n  ")
    )
}

/// The file the API key comes from, in the order [`secrets_of`] reads it: `--api-key-file`,
/// else none when `CLUB_ADMIN_API_KEY` (`env_key`) is set, else the config file's.
fn api_key_file_of(flags: &Flags, file: &FileConfig, env_key: Option<String>) -> Option<PathBuf> {
    match (&flags.api_key_file, env_key) {
        (Some(p), _) => Some(p.clone()),
        (None, Some(_)) => None,
        (None, None) => file.api_key_file.clone(),
    }
}

/// The API key and the token, and where a token is saved: flag files > environment
/// (`CLUB_ADMIN_API_KEY`, `CLUB_ADMIN_TOKEN`) > config file > the saved token file.
/// Readable-by-others files add a warning.
///
/// Errors: a named secret file cannot be read.
fn secrets_of(
    flags: &Flags,
    file: &FileConfig,
    env: &dyn Fn(&str) -> Option<String>,
    state_dir: Option<&Path>,
    warnings: &mut Vec<ReadableSecret>,
) -> Result<(Credentials, Option<PathBuf>), String> {
    let env_nonempty = |k: &str| {
        env(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let api_key = if let Some(p) = &flags.api_key_file {
        Some(read_secret_file(p, SecretFile::ApiKey, warnings)?)
    } else if let Some(k) = env_nonempty("CLUB_ADMIN_API_KEY") {
        Some(k)
    } else if let Some(p) = &file.api_key_file {
        Some(read_secret_file(p, SecretFile::ApiKey, warnings)?)
    } else {
        file.api_key.clone()
    };

    let token_path = flags
        .token_file
        .clone()
        .or_else(|| file.token_file.as_deref().map(expand_home))
        .or_else(|| state_dir.map(|d| d.join("token")));
    let token = if let Some(p) = &flags.token_file {
        Some(read_secret_file(p, SecretFile::Token, warnings)?)
    } else if let Some(t) = env_nonempty("CLUB_ADMIN_TOKEN") {
        Some(t)
    } else {
        match &token_path {
            Some(p) if p.exists() => Some(read_secret_file(p, SecretFile::Token, warnings)?),
            _ => None,
        }
    };

    Ok((
        Credentials {
            api_key: api_key.map(SecretString::from),
            token: token.map(SecretString::from),
        },
        token_path,
    ))
}

/// The client's options from the flags and the config file: the request timeout (1 to 600 s,
/// default 20), plain HTTP allowed or not, the calls in flight (1 to 64, default 8) and the
/// host budget (off: `None`).
///
/// Errors: a number out of its bounds, with a message naming the bound.
fn client_of(
    flags: &Flags,
    file: &FileConfig,
    host_budget: Option<crate::api::budget::BudgetOptions>,
) -> Result<ClientOptions, String> {
    let timeout = bounded(
        "timeout (seconds)",
        flags.timeout.or(file.timeout_secs).unwrap_or(20),
        1,
        600,
    )?;
    let concurrency = bounded(
        "concurrency",
        flags.concurrency.or(file.concurrency).unwrap_or(8),
        1,
        64,
    )?;
    Ok(ClientOptions {
        request_timeout: Duration::from_secs(timeout),
        allow_insecure_http: flags.allow_insecure_http || file.allow_insecure_http.unwrap_or(false),
        concurrency,
        host_budget,
        ..ClientOptions::default()
    })
}

/// The API key file the settings would read (`--api-key-file`, else the config file's
/// `api_key_file` when `CLUB_ADMIN_API_KEY` is not set), found without reading it: what
/// `serve-ssh --check` names when the key cannot be read. `None` when none is given or the
/// config file cannot be read.
pub fn api_key_file_path(flags: &Flags, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let explicit = flags.config.is_some();
    let path = flags.config.clone().or_else(default_config_path);
    let (file, _) = load_file(path.as_deref(), explicit).ok()?;
    let env_key = env("CLUB_ADMIN_API_KEY").filter(|v| !v.trim().is_empty());
    api_key_file_of(flags, &file, env_key).map(|p| expand_home(&p))
}

/// Resolves the settings: flags > environment (`CLUB_ADMIN_BASE_URL`, `CLUB_ADMIN_API_KEY`,
/// `CLUB_ADMIN_TOKEN`) > config file > defaults. `env` looks up environment variables
/// (injected for tests).
///
/// Errors: a config file that does not parse, a secret file that cannot be read, a number
/// out of its bounds, no base URL. (`[keys]` is checked later, by the dashboard.)
pub fn resolve(
    flags: &Flags,
    env: &dyn Fn(&str) -> Option<String>,
    base_url_override: Option<String>,
) -> Result<Settings, String> {
    let explicit = flags.config.is_some();
    let path = flags.config.clone().or_else(default_config_path);
    let (file, file_path) = load_file(path.as_deref(), explicit)?;
    let mut warnings = Vec::new();
    if let Some(p) = &file_path
        && file.api_key.is_some()
        && let Some(w) = permission_warning(p, SecretFile::Config)
    {
        warnings.push(w);
    }
    let env_nonempty = |k: &str| {
        env(k)
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty())
    };

    let base_url = base_url_override
        .or_else(|| flags.base_url.clone())
        .or_else(|| env_nonempty("CLUB_ADMIN_BASE_URL"))
        .or_else(|| file.base_url.clone())
        .ok_or_else(|| {
            "no server given: use --base-url URL, CLUB_ADMIN_BASE_URL or base_url in the config file (or `club-admin demo` to try the demo)".to_owned()
        })?;
    // Reported at start, whichever front end runs (not later as "Route not found" on every call).
    crate::api::base_url_characters(&base_url)?;

    let state_dir = flags.state_dir.clone().or_else(default_state_dir);
    let api_key_file = api_key_file_of(flags, &file, env_nonempty("CLUB_ADMIN_API_KEY"));
    let (credentials, token_path) =
        secrets_of(flags, &file, env, state_dir.as_deref(), &mut warnings)?;
    let key_overrides = key_overrides_of(&file);
    let (lang, year_style) = language_of(flags, &file, env)?;
    let refresh = flags
        .auto_refresh
        .or(file.auto_refresh_secs)
        .unwrap_or(DEFAULT_AUTO_REFRESH_SECS);
    if refresh != 0 {
        bounded("auto-refresh (seconds; 0 is off)", refresh, 5, 86_400)?;
    }
    let host_budget = host_budget_of(
        flags,
        &file,
        env_nonempty("CLUB_ADMIN_HOST_BUDGET"),
        env_nonempty("CLUB_ADMIN_BUDGET_DIR"),
    )?;
    let client = client_of(flags, &file, host_budget)?;
    let concurrency = client.concurrency;
    let page_size = bounded("page_size", file.page_size.unwrap_or(50), 1, 100)?;
    let decision_delay = decision_delay(flags.decision_delay.or(file.decision_delay_secs))?;
    Ok(Settings {
        base_url,
        credentials,
        api_key_file,
        client,
        concurrency,
        auto_refresh: (refresh > 0).then(|| Duration::from_secs(refresh)),
        page_size,
        max_input_ids: max_input_ids(&file)?,
        read_only: flags.read_only || file.read_only.unwrap_or(false),
        mouse: flags.mouse || file.mouse.unwrap_or(false),
        notify: NewRequestNotice::parse(flags.notify.as_deref().or(file.notify.as_deref()))?,
        // Off unless asked: on a shared school computer a saved token signs in the next
        // person at the desk.
        save_token: file.save_token.unwrap_or(false),
        token_path,
        key_overrides,
        decision_delay,
        state_dir,
        lang,
        year_style,
        thai_keys: file.thai_keys.unwrap_or(true),
        warnings,
        audit_rotate_bytes: audit_rotate_of(&file)?,
    })
}

/// The config file's `max_input_ids`, else [`crate::ops::parse::MAX_INPUT_IDS`].
///
/// Errors: below 1 or above 10,000,000, with a message naming the bound.
fn max_input_ids(file: &FileConfig) -> Result<usize, String> {
    let n = file
        .max_input_ids
        .unwrap_or(crate::ops::parse::MAX_INPUT_IDS);
    bounded("max_input_ids", n, 1, 10_000_000)
}

/// The size past which the audit rotates, bytes: the config's `audit_rotate_mb` (0 never),
/// else [`crate::ops::audit::DEFAULT_ROTATE_BYTES`].
///
/// Errors: more than a terabyte, with a message naming the bound.
fn audit_rotate_of(file: &FileConfig) -> Result<u64, String> {
    let mb = bounded(
        "audit_rotate_mb (megabytes; 0 never rotates)",
        file.audit_rotate_mb
            .unwrap_or(crate::ops::audit::DEFAULT_ROTATE_BYTES / 1_000_000),
        0,
        1_000_000,
    )?;
    Ok(mb * 1_000_000)
}

/// The grace period: `secs` (from the flag or the config file) or the default.
///
/// Errors: more than [`MAX_DECISION_DELAY_SECS`] seconds, with a message naming the bound.
pub fn decision_delay(secs: Option<u64>) -> Result<Duration, String> {
    let secs = bounded(
        "--decision-delay / decision_delay_secs (seconds; 0 sends at once)",
        secs.unwrap_or(DEFAULT_DECISION_DELAY_SECS),
        0,
        MAX_DECISION_DELAY_SECS,
    )?;
    Ok(Duration::from_secs(secs))
}
