//! The runtime: terminal set-up, the event loop and the API worker; and [`run`], the entry
//! point of the binary.

mod dashboard;
pub mod effects;
pub mod event_loop;
pub mod files;
pub mod headless;
pub mod input;
pub mod lean;
pub mod terminal;
pub mod worker;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::api::Credentials;
use crate::cli::{Cli, Command, DemoArgs, ServeDemoArgs};
use crate::config::{self};

/// Runs the command line: the dashboard, `demo` or `serve-demo`. Returns the exit code;
/// errors are printed to standard error in words (never a secret).
pub fn run(cli: Cli) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("club-admin: could not start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match cli.command {
        Some(Command::Script(cmd)) => {
            init_logging(crate::script::log_file(&cmd, &cli.dashboard), "script");
            let exit = rt.block_on(crate::script::run(cmd, cli.dashboard));
            rt.shutdown_timeout(std::time::Duration::from_millis(200));
            return exit.into();
        }
        Some(Command::ServeDemo(args)) => {
            init_logging(None, "serve-demo");
            rt.block_on(serve_demo(args))
        }
        Some(Command::Demo(args)) => {
            init_logging(args.dashboard.log_file.clone(), "dashboard");
            rt.block_on(demo(args))
        }
        None => {
            init_logging(cli.dashboard.log_file.clone(), "dashboard");
            rt.block_on(dashboard::dashboard(cli.dashboard, None, None))
        }
    };
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Not eprintln!: it panics when standard error is a terminal that hung up.
            let _ = writeln!(std::io::stderr(), "club-admin: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to a file (default `$XDG_STATE_HOME/club-admin/club-admin.log`), never to the
/// screen. `CLUB_ADMIN_LOG` sets the filter (default `club_admin=info`).
fn init_logging(path: Option<PathBuf>, what: &str) {
    let path = path.or_else(|| config::default_state_dir().map(|d| d.join("club-admin.log")));
    let Some(path) = path else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
    else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("CLUB_ADMIN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("club_admin=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
    tracing::info!("club-admin {} starting ({what})", env!("CARGO_PKG_VERSION"));
}

/// A file name for this server's saved queue: the base URL with everything but letters,
/// digits, dots and dashes replaced.
pub fn queue_file_name(base_url: &str) -> String {
    let s: String = base_url
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("queue-{s}.json")
}

async fn demo(args: DemoArgs) -> Result<(), String> {
    let handle = crate::demo::start(crate::demo::DemoOptions {
        port: 0,
        faults: args.faults.to_faults(),
        token_ttl: None,
        extra_requests: 0,
        api_version: args.server.api_version,
    })
    .await?;
    let user = handle
        .user(&args.account)
        .ok_or_else(|| format!("no demo account {:?}", args.account))?
        .clone();
    let creds = Credentials::new(
        Some(user.api_key.clone()),
        (!args.no_token).then(|| user.token.clone()),
    );
    let result =
        dashboard::dashboard(args.dashboard, Some(handle.base_url.clone()), Some(creds)).await;
    drop(handle);
    result
}

async fn serve_demo(args: ServeDemoArgs) -> Result<(), String> {
    let handle = crate::demo::start(crate::demo::DemoOptions {
        port: args.port,
        faults: args.faults.to_faults(),
        token_ttl: None,
        extra_requests: args.extra_requests,
        api_version: args.server.api_version,
    })
    .await?;
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
