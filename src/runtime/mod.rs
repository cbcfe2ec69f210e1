//! The runtime: the one dashboard builder ([`build`]), terminal set-up, the event loop and
//! the effect runner with its API worker; and the commands that run in it, each taking
//! plain values: [`dashboard`], [`demo`] (the dashboard on the embedded demo server) and
//! [`serve_demo`]. The command line (`src/cli.rs`) calls them.

pub mod build;
mod dashboard;
pub mod effects;
pub mod event_loop;
pub mod finish;
pub mod lean;
pub mod terminal;
pub mod worker;

use std::io::Write;
use std::path::PathBuf;

use crate::api::Credentials;
use crate::config::Flags;

pub use dashboard::keymap;

/// Why the dashboard, `demo` or `serve-demo` stopped with an error. `Display` is the message
/// (one line, except the list of bad key bindings; never a secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The configuration cannot be used (a number out of its bounds, a config file that does
    /// not parse, bad key bindings, a secret file that cannot be read, no server or API key,
    /// a base URL the client refuses). Found before the terminal is touched; nothing was
    /// sent.
    Config(String),
    /// Anything else: a `--queue-file` that cannot be read, standard output that is not a
    /// terminal, the terminal itself, the demo server.
    Other(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Config(text) | Failure::Other(text) => f.write_str(text),
        }
    }
}

/// The request ids the dashboard starts with, besides the saved queue and piped standard
/// input: those given as arguments and the file named by `--queue-file`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartIds {
    /// Ids as given on the command line (any mix of spaces, commas, new lines).
    pub ids: Vec<String>,
    /// A file of ids to read before the terminal is taken over.
    pub queue_file: Option<PathBuf>,
}

/// What `demo` starts: the demo server, and the account the dashboard signs in as.
#[derive(Debug, Clone)]
pub struct DemoStart {
    /// The demo server (its port is chosen freely).
    pub server: crate::demo::DemoOptions,
    /// `moderator`, `teacher` or `admin`.
    pub account: String,
    /// Sign in with the account's token too (false: the key only, as a new user).
    pub with_token: bool,
}

/// Opens the dashboard on the configured server: `flags` over the environment, the config
/// file and the defaults; `start` adds ids to the queue.
///
/// Errors: [`Failure::Config`] before the terminal is touched; [`Failure::Other`] for the
/// rest.
pub async fn dashboard(flags: &Flags, start: StartIds) -> Result<(), Failure> {
    dashboard::dashboard(flags, start, None, None).await
}

/// `club-admin demo`: starts the demo server in-process and opens the dashboard on it,
/// signed in as `demo.account`. The user's `CLUB_ADMIN_*` variables and configured secrets
/// are ignored; the other settings (keys, options, `flags`) are kept.
///
/// Errors: as [`dashboard`]; the demo server could not start, or has no such account:
/// [`Failure::Other`].
pub async fn demo(demo: DemoStart, flags: &Flags, start: StartIds) -> Result<(), Failure> {
    let handle = crate::demo::start(demo.server)
        .await
        .map_err(Failure::Other)?;
    let user = handle
        .user(&demo.account)
        .ok_or_else(|| Failure::Other(format!("no demo account {:?}", demo.account)))?
        .clone();
    let creds = Credentials::new(
        Some(user.api_key.clone()),
        demo.with_token.then(|| user.token.clone()),
    );
    let result =
        dashboard::dashboard(flags, start, Some(handle.base_url.clone()), Some(creds)).await;
    drop(handle);
    result
}

/// A file name for this server's saved queue: the base URL with everything but letters,
/// digits, dots and dashes replaced.
pub fn queue_file_name(base_url: &str) -> String {
    format!("queue-{}.json", crate::text::file_name_part(base_url))
}

/// `club-admin serve-demo`: runs the demo server until a stop signal, after printing its
/// address and the demo accounts' credentials (demo data only) to standard output.
///
/// Errors: the demo server could not start.
pub async fn serve_demo(options: crate::demo::DemoOptions) -> Result<(), String> {
    let handle = crate::demo::start(options).await?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "club-admin demo server listening on {} (imitating service {})",
        handle.base_url,
        handle.api_version().label()
    );
    let _ = writeln!(
        out,
        "demo credentials (demo data only, tokens valid until {}):",
        handle.moderator().token_expires.to_rfc3339()
    );
    for u in &handle.users {
        let _ = writeln!(out, "  {} <{}> role={}", u.label, u.email, u.role);
        let _ = writeln!(out, "    X-Api-Key: {}", u.api_key);
        let _ = writeln!(out, "    Authorization: Bearer {}", u.token);
    }
    let m = handle.moderator();
    let _ = writeln!(
        out,
        "try:\n  curl -s -H 'X-Api-Key: {}' -H 'Authorization: Bearer {}' {}/auth/user",
        m.api_key, m.token, handle.base_url
    );
    let _ = writeln!(
        out,
        "open the dashboard on it:\n  CLUB_ADMIN_API_KEY={} CLUB_ADMIN_TOKEN={} club-admin --base-url {}",
        m.api_key, m.token, handle.base_url
    );
    let _ = out.flush();
    drop(out);
    stop_signal().await;
    drop(handle);
    Ok(())
}

/// Resolves on Ctrl-C (outside raw mode), SIGTERM or SIGHUP.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).ok();
        let mut hup = signal(SignalKind::hangup()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = async { if let Some(t) = term.as_mut() { t.recv().await; } else { std::future::pending::<()>().await } } => {}
            _ = async { if let Some(h) = hup.as_mut() { h.recv().await; } else { std::future::pending::<()>().await } } => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
