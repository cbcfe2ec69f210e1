//! `club-admin serve-ssh`: its options, and its three uses: serve (the default), `--check`
//! (what it would use, line by line; [`crate::ssh::check`]) and `status` (the running
//! server's answer on its status socket; [`crate::ssh::status`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::{ConnArgs, block_on, finish, logging, whole};
use crate::script::Exit;
use crate::ssh::check::Line;

/// What `serve-ssh` does instead of serving.
#[derive(Debug, Subcommand, Clone)]
pub enum ServeSshAction {
    /// Ask the running serve-ssh on this host who is on it: sessions (key, signed-in
    /// e-mail, attached or waiting, since when), connections not signed in, calls in
    /// flight, host budget fall-backs, the service's state. Only root and the server's
    /// user may ask.
    Status(StatusArgs),
    /// End signed-in connections of the running serve-ssh: one (--connection N, the number
    /// `serve-ssh status` shows) or every one of a key (--key, its fingerprint or its
    /// comment). A dashboard whose connection ends waits for its key as after a dropped
    /// connection. Only root and the server's user may ask.
    Kick(KickArgs),
}

/// `serve-ssh kick`
#[derive(Debug, Args, Clone)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["connection", "key"])))]
pub struct KickArgs {
    /// The status socket [default: as `serve-ssh status`].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// The connection's number (`#12` in `serve-ssh status`).
    #[arg(long, value_name = "N")]
    pub connection: Option<u64>,
    /// Every connection of the key with this fingerprint (SHA256:...) or comment.
    #[arg(long, value_name = "KEY")]
    pub key: Option<String>,
}

/// `serve-ssh status`
#[derive(Debug, Args, Clone)]
pub struct StatusArgs {
    /// The status socket [default: the config file's `status_socket` (or its `state_dir`'s),
    /// else $XDG_STATE_HOME/club-admin/serve-ssh.sock when it exists, else the host's
    /// /var/lib/club-admin/club-admin/serve-ssh.sock].
    #[arg(long, value_name = "PATH")]
    pub socket: Option<PathBuf>,
    /// Print the status as JSON (for scripts) instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Options of `serve-ssh` (the connection flags, --base-url, --api-key-file, --config,
/// --read-only, --concurrency and --timeout, are the dashboard's, before or after it).
///
/// A key may also run the scripting subcommands as its moderator (`ssh -p 2222 HOST
/// requests list --json`): whoami, requests, clubs and history, nothing else (see
/// --no-exec and --exec-time-limit).
#[derive(Debug, Args, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ServeSshArgs {
    /// Ask the running server instead of starting one.
    #[command(subcommand)]
    pub action: Option<ServeSshAction>,
    /// Check, line by line, what serve-ssh would use (owners and modes of its files and
    /// folders, the authorized keys, the host key, the service with the API key, the host
    /// budget, the listen address bound and let go) and exit: 0 when all is right, 1
    /// otherwise. Nothing is started. Run by root on a state folder of another user (the
    /// package's club-admin), it checks as that user.
    #[arg(long)]
    pub check: bool,
    /// The status socket the running server answers on (mode 0600, for root and its user)
    /// [default: `status_socket` in the config's [serve_ssh], else
    /// $XDG_STATE_HOME/club-admin/serve-ssh.sock].
    #[arg(long, value_name = "PATH")]
    pub status_socket: Option<PathBuf>,
    /// Address and port to listen on [default: `listen` in the config's [serve_ssh], else
    /// 127.0.0.1:2222].
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<std::net::SocketAddr>,
    /// The public keys that may sign in (OpenSSH authorized_keys format; read again when it
    /// changes). Required unless --allow-any-key [default: `authorized_keys` in the
    /// config's [serve_ssh]].
    #[arg(long, value_name = "FILE")]
    pub authorized_keys: Option<PathBuf>,
    /// Let any public key sign in (a demo on a closed network; each session still signs in
    /// to the service with its own token).
    #[arg(long, conflicts_with = "authorized_keys")]
    pub allow_any_key: bool,
    /// The server's host key (ed25519, made with mode 0600 on first start) [default:
    /// `host_key` in the config's [serve_ssh], else
    /// $XDG_STATE_HOME/club-admin/ssh_host_ed25519_key].
    #[arg(long, value_name = "FILE")]
    pub host_key: Option<PathBuf>,
    /// Keep each key's token on disk (one file per key fingerprint, mode 0600, in
    /// $XDG_STATE_HOME/club-admin/ssh-tokens/), so that a new session with the same key is
    /// signed in. Off by default (or `remember_tokens = true` in the config's [serve_ssh]):
    /// a token lives in its session's memory only.
    #[arg(long)]
    pub remember_tokens: bool,
    /// Minutes a dropped session's dashboard waits for the same key to come back (0: it
    /// ends at once) [default: 10, or `reattach_minutes` in the config's [serve_ssh]].
    #[arg(long, value_name = "MINUTES", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub reattach_minutes: Option<u64>,
    /// Dashboards open at once, in all (attached or waiting) [default: 64, or
    /// `max_sessions` in the config's [serve_ssh]].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_sessions: Option<usize>,
    /// Dashboards open at once with one key [default: 3, or `max_sessions_per_key` in the
    /// config's [serve_ssh]].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_sessions_per_key: Option<usize>,
    /// Signed-in connections at once, in all, whatever they do (dashboards, commands, none:
    /// `ssh -N`); one past it gets one sentence and the exit code 75 (busy, try again)
    /// [default: 136, or `max_connections` in the config's [serve_ssh]].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_connections: Option<usize>,
    /// Signed-in connections at once of one key, counted from the moment the key is
    /// accepted; one past it gets one sentence and the exit code 75 [default: 10, or
    /// `max_connections_per_key` in the config's [serve_ssh]].
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_connections_per_key: Option<usize>,
    /// Seconds a signed-in connection has to ask for a dashboard or a command before it is
    /// closed (`ssh -N` holds none) [default: 20, or `session_timeout_seconds` in the
    /// config's [serve_ssh]].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub session_timeout: Option<u64>,
    /// Minutes without a key from the client before its session is disconnected (its
    /// dashboard then waits to be re-attached) [default: 30, or `idle_minutes` in the
    /// config's [serve_ssh]].
    #[arg(long, value_name = "MINUTES", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub idle_minutes: Option<u64>,
    /// Refuse every command an SSH client asks to run (`ssh HOST requests list`); by
    /// default the scripting subcommands run as the key's moderator [or `exec = false` in
    /// the config's [serve_ssh]].
    #[arg(long)]
    pub no_exec: bool,
    /// Minutes a command an SSH client runs may take; then nothing more is sent and the
    /// answers in flight are awaited for 30 s more [default: 10, or
    /// `exec_time_limit_minutes` in the config's [serve_ssh]].
    #[arg(long, value_name = "MINUTES", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub exec_time_limit: Option<u64>,
    /// Seconds a connection has to sign in, from the moment it was accepted (OpenSSH's
    /// LoginGraceTime).
    #[arg(long, value_name = "SECONDS", default_value_t = 30, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub auth_timeout: u64,
    /// Seconds a connection has to send its SSH identification line (at most
    /// --auth-timeout).
    #[arg(long, value_name = "SECONDS", default_value_t = 10, allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub banner_timeout: u64,
    /// Connections not signed in, in all, as OpenSSH's MaxStartups: below START all are let
    /// in; from START, RATE % of new ones make room (the oldest connection not yet through
    /// the key exchange is cut, else the new one is refused), rising to 100 % at FULL.
    #[arg(long, value_name = "START:RATE:FULL", default_value = "10:30:100", value_parser = startups)]
    pub max_startups: crate::ssh::Startups,
    /// Connections not signed in from one address (at the limit, its oldest one not yet
    /// through the key exchange is cut for a new one, else the new one is refused).
    #[arg(long, value_name = "N", default_value_t = 10, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub max_startups_per_address: usize,
    /// Public keys a connection may try.
    #[arg(long, value_name = "N", default_value_t = 6, allow_negative_numbers = true, value_parser = whole::<usize>)]
    pub auth_attempts: usize,
    /// The largest window drawn; a larger one gets this much.
    #[arg(long, value_name = "COLSxROWS", default_value = "400x200", value_parser = window)]
    pub max_window: (u16, u16),
    /// Default language of a session: th or en (a client's LANG / LC_ALL naming Thai or
    /// English wins) [default: the config file's `language`, else the server's locale].
    #[arg(long, value_name = "LANG", value_parser = ["th", "en"])]
    pub lang: Option<String>,
    /// Hold each approve/decline this long before sending it (z takes it back meanwhile);
    /// 0 sends at once [default: 5, at most 60].
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub decision_delay: Option<u64>,
    /// Start sessions without mouse capture (on by default: a phone's taps select rows and
    /// press the hints; off keeps the terminal's own selection; `:mouse` toggles it).
    #[arg(long)]
    pub no_mouse: bool,
    /// Each session refreshes its queue every N seconds without a key (default 30, or
    /// `auto_refresh_secs` in the config; 0 turns it off; at least 5): new requests and
    /// decisions made in other sessions or elsewhere show within that time.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = whole::<u64>)]
    pub auto_refresh: Option<u64>,
}

/// `START:RATE:FULL` ([`crate::ssh::Startups`]).
fn startups(text: &str) -> Result<crate::ssh::Startups, String> {
    text.parse()
}

/// `COLSxROWS`, each from 20 to 1000.
fn window(text: &str) -> Result<(u16, u16), String> {
    let (c, r) = text
        .trim()
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text} is not COLSxROWS (400x200)"))?;
    let n = |v: &str| -> Result<u16, String> {
        match v.trim().parse::<u16>() {
            Ok(n) if (20..=1000).contains(&n) => Ok(n),
            _ => Err(format!("{v} is not a whole number from 20 to 1000")),
        }
    };
    Ok((n(c)?, n(r)?))
}

impl ServeSshArgs {
    /// The server's options: each flag given, else its key in the config file's
    /// `[serve_ssh]` table (`file`), else its default.
    ///
    /// Errors: no host key given and no state directory to put it in; a limit of 0.
    pub fn options(
        &self,
        file: &crate::config::ServeSshFile,
    ) -> Result<crate::ssh::ServeOptions, String> {
        let state_dir = state_dir(file);
        let host_key = self
            .host_key
            .clone()
            .or_else(|| file.host_key.clone())
            .or_else(|| {
                state_dir
                    .as_ref()
                    .map(|d| d.join(crate::ssh::HOST_KEY_NAME))
            })
            .ok_or("no state directory for the host key: give --host-key FILE")?;
        let limits = self.limits(file)?;
        let minutes = |m: u64| std::time::Duration::from_secs(m.saturating_mul(60));
        Ok(crate::ssh::ServeOptions {
            listen: self.listen.or(file.listen).unwrap_or(DEFAULT_LISTEN),
            host_key,
            // --allow-any-key leaves the file's keys aside, as the flags conflict.
            authorized_keys: match self.allow_any_key {
                true => None,
                false => self
                    .authorized_keys
                    .clone()
                    .or_else(|| file.authorized_keys.clone()),
            },
            allow_any_key: self.allow_any_key,
            limits,
            reattach: minutes(
                self.reattach_minutes
                    .or(file.reattach_minutes)
                    .unwrap_or(10),
            ),
            remember_tokens: match self.remember_tokens || file.remember_tokens == Some(true) {
                true => Some(
                    state_dir
                        .as_ref()
                        .map(|d| d.join("ssh-tokens"))
                        .ok_or("--remember-tokens: no state directory to keep tokens in")?,
                ),
                false => None,
            },
            mouse: !self.no_mouse,
            exec: !self.no_exec && file.exec != Some(false),
            status_socket: self
                .status_socket
                .clone()
                .or_else(|| file.status_socket.clone())
                .or_else(|| crate::ssh::status::default_socket(state_dir.as_deref())),
        })
    }

    /// The limits: each flag, else the file's key, else the default.
    ///
    /// Errors: a limit of 0.
    fn limits(&self, file: &crate::config::ServeSshFile) -> Result<crate::ssh::Limits, String> {
        let max_sessions = self.max_sessions.or(file.max_sessions).unwrap_or(64);
        let max_sessions_per_key = self
            .max_sessions_per_key
            .or(file.max_sessions_per_key)
            .unwrap_or(3);
        let idle_minutes = self.idle_minutes.or(file.idle_minutes).unwrap_or(30);
        let max_connections = self
            .max_connections
            .or(file.max_connections)
            .unwrap_or_else(|| max_sessions.saturating_mul(2).saturating_add(8));
        let max_connections_per_key = self
            .max_connections_per_key
            .or(file.max_connections_per_key)
            .unwrap_or(10);
        let session_timeout = self
            .session_timeout
            .or(file.session_timeout_seconds)
            .unwrap_or(20);
        let exec_minutes = self
            .exec_time_limit
            .or(file.exec_time_limit_minutes)
            .unwrap_or(10);
        for (name, v) in [
            ("--max-sessions", max_sessions),
            ("--max-sessions-per-key", max_sessions_per_key),
            ("--auth-attempts", self.auth_attempts),
            ("--max-startups-per-address", self.max_startups_per_address),
            ("--max-connections", max_connections),
            ("--max-connections-per-key", max_connections_per_key),
        ] {
            if v == 0 {
                return Err(format!("{name} 0 lets no one in: give 1 or more"));
            }
        }
        if self.auth_timeout == 0
            || idle_minutes == 0
            || self.banner_timeout == 0
            || exec_minutes == 0
            || session_timeout == 0
        {
            return Err(
                "--auth-timeout, --banner-timeout, --idle-minutes, --exec-time-limit and --session-timeout must be 1 or more".into(),
            );
        }
        Ok(crate::ssh::Limits {
            max_sessions,
            max_sessions_per_key,
            idle_timeout: std::time::Duration::from_secs(idle_minutes.saturating_mul(60)),
            auth_timeout: std::time::Duration::from_secs(self.auth_timeout),
            banner_timeout: std::time::Duration::from_secs(self.banner_timeout),
            max_startups: self.max_startups,
            max_startups_per_address: self.max_startups_per_address,
            auth_attempts: self.auth_attempts,
            max_window: self.max_window,
            exec_time_limit: std::time::Duration::from_secs(exec_minutes.saturating_mul(60)),
            max_connections,
            max_connections_per_key,
            session_timeout: std::time::Duration::from_secs(session_timeout),
        })
    }
}

/// Where `serve-ssh` listens by default: loopback, for a reverse proxy or a port forward.
pub const DEFAULT_LISTEN: std::net::SocketAddr = std::net::SocketAddr::V4(
    std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 2222),
);

/// The state folder: the config file's `[serve_ssh] state_dir`, else
/// `$XDG_STATE_HOME/club-admin`.
fn state_dir(file: &crate::config::ServeSshFile) -> Option<PathBuf> {
    file.state_dir
        .clone()
        .or_else(crate::config::default_state_dir)
}

/// The `[serve_ssh]` table of the config file the flags name (`--config`, else the
/// default one; a missing default file is an empty table).
///
/// Errors: the config file cannot be read or does not parse.
fn file_settings(flags: &crate::config::Flags) -> Result<crate::config::ServeSshFile, String> {
    let path = flags
        .config
        .clone()
        .or_else(crate::config::default_config_path);
    let (file, _) = crate::config::load_file(path.as_deref(), flags.config.is_some())?;
    Ok(file.serve_ssh)
}

/// Runs `serve-ssh` as `a` asks: the status, the check, or the server.
pub fn run(a: ServeSshArgs, conn: &ConnArgs) -> ExitCode {
    let say = |e: &str| {
        let _ = writeln!(std::io::stderr(), "club-admin: {e}");
    };
    // The socket a config file names (`status_socket`, else its state folder's), when no
    // --socket is given.
    let configured = || {
        let file = file_settings(&conn.flags(None)).ok()?;
        file.status_socket.clone().or_else(|| {
            file.state_dir
                .as_deref()
                .and_then(|d| crate::ssh::status::default_socket(Some(d)))
        })
    };
    if let Some(ServeSshAction::Kick(k)) = &a.action {
        let k = KickArgs {
            socket: k.socket.clone().or_else(configured),
            ..k.clone()
        };
        return match block_on(kick(&k)) {
            Ok(Ok(code) | Err(code)) => code,
            Err(code) => code,
        };
    }
    if let Some(ServeSshAction::Status(s)) = &a.action {
        let socket = s.socket.clone().or_else(configured);
        return match block_on(status(socket, s.json)) {
            Ok(code) => code,
            Err(code) => code,
        };
    }
    if conn.token_file.is_some() && !a.check {
        say("serve-ssh takes no --token-file: each session signs in with its own token");
        return Exit::Usage.into();
    }
    let mut flags = conn.flags(None);
    flags.lang = a.lang.clone();
    flags.decision_delay = a.decision_delay;
    flags.auto_refresh = a.auto_refresh;
    let file = match file_settings(&flags) {
        Ok(f) => f,
        Err(e) => {
            say(&e);
            return Exit::Usage.into();
        }
    };
    let options = match a.options(&file) {
        Ok(o) => o,
        Err(e) => {
            say(&e);
            return Exit::Usage.into();
        }
    };
    flags.state_dir = file.state_dir.clone();
    // The log's default follows the state folder (unless the journal takes it).
    let log_file = conn.log_file.clone().or(file.log_file.clone()).or_else(|| {
        match (&file.state_dir, logging::stderr_is_journal()) {
            (Some(d), false) => Some(d.join("club-admin.log")),
            _ => None,
        }
    });
    if a.check {
        return run_check(options, &flags, log_file, state_dir(&file).as_deref());
    }
    if let Err(e) = logging::init_server(log_file, "serve-ssh", file.log_level.as_deref()) {
        say(&format!(
            "warning: no log file: {e}; the log goes to standard error (the journal under systemd)"
        ));
    }
    let reload_level = || reload_log_level(&flags);
    finish(block_on(crate::ssh::serve(options, &flags, &reload_level)))
}

/// On SIGHUP: the config file's `[serve_ssh] log_level` read again and made the log's
/// ([`logging::set_level`]); what came of it is logged (a file that no longer parses
/// leaves the level as it was).
fn reload_log_level(flags: &crate::config::Flags) {
    let level = match file_settings(flags) {
        Ok(file) => file.log_level,
        Err(e) => {
            tracing::warn!("SIGHUP: the config file was not read again ({e}): the log level stays");
            return;
        }
    };
    match logging::set_level(level.as_deref()) {
        Ok(true) => tracing::info!(
            "SIGHUP: the log level is now {}",
            level.as_deref().unwrap_or("info")
        ),
        Ok(false) => tracing::info!("SIGHUP: CLUB_ADMIN_LOG sets the log level: it stays"),
        Err(e) => tracing::warn!("SIGHUP: {e}: the log level stays"),
    }
}

/// `serve-ssh --check`, as the user `serve-ssh` runs as ([`as_the_service`]).
fn run_check(
    options: crate::ssh::ServeOptions,
    flags: &crate::config::Flags,
    log_file: Option<PathBuf>,
    state_dir: Option<&Path>,
) -> ExitCode {
    let print = |line: &Line| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", line.render());
        let _ = out.flush();
    };
    match as_the_service(state_dir) {
        Ok(None) => {}
        Ok(Some(line)) => print(&line),
        Err(line) => {
            print(&line);
            return ExitCode::FAILURE;
        }
    }
    match block_on(check(options, flags, log_file)) {
        Ok(code) => code,
        Err(code) => code,
    }
}

/// Who `--check` checks as: the user `serve-ssh` runs as, the owner of the state folder
/// (the package's `club-admin`), when the folder exists and is not this process's user's.
/// Root becomes that user (its supplementary groups, group and uid, before any thread
/// starts), so that every file is opened, the budget's slots made and the port bound as
/// the service would; a `·` line says so, with the command that does the same by hand.
/// Another user cannot become it, and checked as itself every owner would look wrong and
/// its `chown` would break the service: a `✗` line names the user and the command to run
/// as root, and nothing else is checked.
///
/// Errors: that `✗` line (also when root cannot become the user).
fn as_the_service(state_dir: Option<&Path>) -> Result<Option<Line>, Line> {
    let Some((shown, owner)) = state_dir.and_then(state_owner) else {
        return Ok(None);
    };
    let me = crate::api::budget::effective_uid();
    if owner == me {
        return Ok(None);
    }
    let user = nix::unistd::User::from_uid(nix::unistd::Uid::from_raw(owner));
    let Ok(Some(user)) = user else {
        return Err(Line::bad(format!(
            "{shown} belongs to uid {owner}, which has no user name here, not to you (uid {me}): serve-ssh runs as the owner of its state folder; give the folder to the user serve-ssh runs as"
        )));
    };
    let name = &user.name;
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let again = format!("runuser -u {name} -- {}", shell_words::join(&args));
    let whose = format!("{shown} belongs to {name} (uid {owner}), the user serve-ssh runs as");
    if me != 0 {
        return Err(Line::bad(format!(
            "{whose}, not to you (uid {me}): checked as you, every file of the service would look wrong, and giving them to you would break it; check as {name}, as root: {again}"
        )));
    }
    become_user(&user).map_err(|e| {
        Line::bad(format!(
            "{whose}; the check could not become {name}: {e}; as root, run: {again}"
        ))
    })?;
    Ok(Some(Line::said(format!(
        "{whose}: checked as {name}, not as root, as this does: {again}"
    ))))
}

/// The state folder's owner, and the folder named: the state folder itself, or, when this
/// user may not look into the folder above it (the package's `/var/lib/club-admin` is
/// 0750), that folder's owner unless it is root.
fn state_owner(dir: &Path) -> Option<(String, u32)> {
    use std::os::unix::fs::MetadataExt;
    match std::fs::metadata(dir) {
        Ok(m) => Some((format!("the state folder {}", dir.display()), m.uid())),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            let (above, m) = dir
                .ancestors()
                .skip(1)
                .find_map(|a| std::fs::metadata(a).ok().map(|m| (a, m)))?;
            (m.uid() != 0).then(|| {
                let shown = format!(
                    "the folder {} above the state folder {}",
                    above.display(),
                    dir.display()
                );
                (shown, m.uid())
            })
        }
        Err(_) => None,
    }
}

/// This process becomes `user`: its supplementary groups, its group, then its uid (for
/// good: a check has nothing to do as root afterwards), and, as `runuser` sets them, its
/// `HOME`, `USER` and `LOGNAME` (a default config file is looked for in its home, as the
/// advised `runuser` command would). Called before any thread of the process starts.
///
/// Errors: the system's refusal of any of the three.
fn become_user(user: &nix::unistd::User) -> nix::Result<()> {
    let name = std::ffi::CString::new(user.name.as_bytes()).map_err(|_| nix::Error::EINVAL)?;
    nix::unistd::initgroups(&name, user.gid)?;
    nix::unistd::setgid(user.gid)?;
    nix::unistd::setuid(user.uid)?;
    // SAFETY: the process has one thread here (`run_check` calls this before `block_on`
    // builds the runtime, and nothing before it starts one), so nothing reads or writes
    // the environment meanwhile.
    unsafe {
        std::env::set_var("HOME", &user.dir);
        std::env::set_var("USER", &user.name);
        std::env::set_var("LOGNAME", &user.name);
    }
    Ok(())
}

/// `serve-ssh --check`: every line printed; exit 0 when none is wrong, 1 otherwise, 2
/// when the configuration does not resolve.
async fn check(
    options: crate::ssh::ServeOptions,
    flags: &crate::config::Flags,
    log_file: Option<PathBuf>,
) -> ExitCode {
    let env = |k: &str| std::env::var(k).ok();
    let settings = match crate::config::resolve(flags, &env, None) {
        Ok(s) => s,
        Err(e) => {
            // A key the user serving cannot read is the service's fault to fix, with how.
            let unreadable = crate::config::api_key_file_path(flags, &env)
                .and_then(|p| crate::ssh::check::unreadable_key_file(&p));
            if let Some(line) = unreadable {
                let _ = writeln!(std::io::stdout(), "{}", line.render());
                return ExitCode::FAILURE;
            }
            let _ = writeln!(std::io::stderr(), "club-admin: {e}");
            return Exit::Usage.into();
        }
    };
    let log_file = match log_file {
        Some(p) => Some(p),
        None if logging::stderr_is_journal() => None,
        None => settings
            .state_dir
            .as_ref()
            .map(|d| d.join("club-admin.log")),
    };
    let inputs = crate::ssh::check::CheckInputs {
        host_key: options.host_key.clone(),
        authorized_keys: options.authorized_keys.clone(),
        log_file,
        status_socket: options.status_socket.clone(),
        listen: Some(options.listen),
        exec: options.exec.then_some((
            options.limits.exec_time_limit,
            options.remember_tokens.is_some(),
        )),
    };
    let mut lines = crate::ssh::check::check(&inputs, &settings).await;
    lines.extend(sandbox_lines(&inputs, &settings, flags.config.as_deref()));
    let mut out = std::io::stdout().lock();
    for l in &lines {
        let _ = writeln!(out, "{}", l.render());
    }
    let _ = out.flush();
    match crate::ssh::check::all_right(&lines) {
        true => ExitCode::SUCCESS,
        false => ExitCode::FAILURE,
    }
}

/// The paths the server will write, tried against the sandbox of the package's unit when
/// the unit runs this config file ([`crate::ssh::check_paths`]): the state folder, the host
/// key while it is still to be made, the log file, the status socket's folder.
fn sandbox_lines(
    inputs: &crate::ssh::check::CheckInputs,
    settings: &crate::config::Settings,
    config: Option<&Path>,
) -> Vec<Line> {
    use crate::ssh::check_paths::{Sandbox, Written, lines};
    let Some(sandbox) = Sandbox::of_host() else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    let mut add = |what, path, folder, needed| {
        paths.push(Written {
            what,
            path,
            folder,
            needed,
        })
    };
    if let Some(d) = &settings.state_dir {
        add("the state folder", d.as_path(), true, true);
    }
    if !inputs.host_key.exists() {
        add(
            "the host key (made at the first start)",
            &inputs.host_key,
            false,
            true,
        );
    }
    if let Some(f) = &inputs.log_file {
        add("the log file", f.as_path(), false, false);
    }
    if let Some(d) = inputs.status_socket.as_deref().and_then(Path::parent) {
        add("the status socket's folder", d, true, false);
    }
    lines(&sandbox, config, &paths)
}

/// `serve-ssh kick`: how many connections it ended, on standard output; exit 1 when no
/// server answers or none was picked (said on standard error).
async fn kick(k: &KickArgs) -> Result<ExitCode, ExitCode> {
    let path = status_socket(k.socket.clone()).ok_or(ExitCode::from(Exit::Usage))?;
    let which = match (&k.connection, &k.key) {
        (Some(n), _) => crate::ssh::conns::Kick::Connection(*n),
        (None, Some(key)) => crate::ssh::conns::Kick::Key(key.clone()),
        (None, None) => return Err(Exit::Usage.into()),
    };
    match crate::ssh::status::kick(&path, which).await {
        Ok(0) => {
            let _ = writeln!(
                std::io::stderr(),
                "club-admin: no connection matched: serve-ssh status lists them"
            );
            Ok(ExitCode::FAILURE)
        }
        Ok(n) => {
            let _ = writeln!(std::io::stdout(), "{n} connection(s) ended");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "club-admin: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The status socket to ask: `socket` when given, else the user's own when it exists,
/// else the host's. `None` (with a message on standard error) when there is no state
/// folder to look in.
fn status_socket(socket: Option<PathBuf>) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match socket {
        Some(p) => vec![p],
        None => [
            crate::ssh::status::default_socket(crate::config::default_state_dir().as_deref()),
            Some(
                PathBuf::from(crate::config::HOST_STATE_DIR).join(crate::ssh::status::SOCKET_NAME),
            ),
        ]
        .into_iter()
        .flatten()
        .collect(),
    };
    let path = candidates
        .iter()
        .find(|p| p.exists())
        .or(candidates.first())
        .cloned();
    if path.is_none() {
        let _ = writeln!(
            std::io::stderr(),
            "club-admin: no state folder: give --socket PATH"
        );
    }
    path
}

/// `serve-ssh status`: the table (or `--json`) on standard output; exit 1 when no server
/// answers (said on standard error).
async fn status(socket: Option<PathBuf>, json: bool) -> ExitCode {
    let Some(path) = status_socket(socket) else {
        return Exit::Usage.into();
    };
    match crate::ssh::status::query(&path).await {
        Ok(s) => {
            let text = match json {
                true => serde_json::to_string_pretty(&s).unwrap_or_default() + "\n",
                false => crate::ssh::status::table(&s, chrono::Utc::now()),
            };
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "club-admin: {e}");
            ExitCode::FAILURE
        }
    }
}
