//! The runtime: terminal set-up, the event loop and the API worker; and [`run`], the entry
//! point of the binary.

pub mod event_loop;
pub mod headless;
pub mod terminal;
pub mod worker;

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use tokio::sync::mpsc;

use crate::api::{ApiClient, Credentials};
use crate::app::model::SavedQueue;
use crate::app::{Model, ModelOptions, Msg};
use crate::cli::{Cli, Command, DashboardArgs, DemoArgs, ServeDemoArgs};
use crate::config::{self, Settings};

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
            rt.block_on(dashboard(cli.dashboard, None, None))
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
    let result = dashboard(args.dashboard, Some(handle.base_url.clone()), Some(creds)).await;
    drop(handle);
    result
}

/// Opens the dashboard. `base_url` and `creds` override the configuration (demo mode).
async fn dashboard(
    args: DashboardArgs,
    base_url: Option<String>,
    creds: Option<Credentials>,
) -> Result<(), String> {
    let demo_mode = creds.is_some();
    let env = |k: &str| std::env::var(k).ok();
    let mut settings: Settings = if demo_mode {
        // The demo ignores the user's configured secrets, but keeps keys and options.
        let s = config::resolve(
            &args,
            &|k| {
                if k.starts_with("CLUB_ADMIN_") {
                    None
                } else {
                    env(k)
                }
            },
            base_url.clone(),
        )?;
        Settings {
            token_path: None,
            ..s
        }
    } else {
        config::resolve(&args, &env, base_url)?
    };
    if let Some(c) = creds {
        settings.credentials = c;
    }
    if settings.credentials.api_key.is_none() {
        return Err(
            "no API key: set CLUB_ADMIN_API_KEY, --api-key-file or api_key_file in the config file"
                .into(),
        );
    }
    let client = ApiClient::new(
        &settings.base_url,
        settings.credentials.clone(),
        settings.client.clone(),
    )
    .map_err(|e| e.to_string())?;
    for w in &settings.warnings {
        let _ = writeln!(std::io::stderr(), "club-admin: warning: {w}");
        tracing::warn!("{w}");
    }

    // Ids from arguments, --queue-file and piped standard input, read before the terminal
    // is taken over.
    let mut initial = Vec::new();
    let state_dir = settings.state_dir.clone();
    // The demo server's port changes at every start: its saved queue and history are keyed
    // by "demo" instead of its address.
    let server_key = if demo_mode {
        "demo".to_owned()
    } else {
        client.base_url().to_owned()
    };
    let queue_path = state_dir
        .as_ref()
        .map(|d| d.join(queue_file_name(&server_key)));
    if let Some(p) = &queue_path
        && let Ok(text) = std::fs::read_to_string(p)
        && let Ok(saved) = serde_json::from_str::<SavedQueue>(&text)
    {
        initial.push(Msg::Restore(saved));
    }
    if let Some(p) = state_dir.as_ref().map(|d| d.join("audit.jsonl"))
        && let Ok(text) = std::fs::read_to_string(&p)
    {
        let base = server_key.clone();
        let mut earlier: Vec<crate::app::AuditEntry> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<crate::app::AuditEntry>(l).ok())
            .filter(|e| e.server == base)
            .collect();
        let skip = earlier.len().saturating_sub(500);
        earlier.drain(..skip);
        if !earlier.is_empty() {
            initial.push(Msg::History(earlier));
        }
    }
    for w in &settings.warnings {
        initial.push(Msg::Notice(format!("warning: {w}")));
    }
    if !args.ids.is_empty() {
        initial.push(Msg::AddIds {
            text: args.ids.join(" "),
            origin: "arguments".into(),
        });
    }
    if let Some(p) = &args.queue_file {
        let text = std::fs::read_to_string(p)
            .map_err(|e| format!("could not read --queue-file {}: {e}", p.display()))?;
        initial.push(Msg::AddIds {
            text,
            origin: format!("{}", p.display()),
        });
    }
    if !std::io::stdin().is_terminal() {
        let mut text = String::new();
        let _ = std::io::stdin()
            .take(16 * 1024 * 1024)
            .read_to_string(&mut text);
        if !text.trim().is_empty() {
            initial.push(Msg::AddIds {
                text,
                origin: "standard input".into(),
            });
        }
    }
    if !std::io::stdout().is_terminal() {
        return Err("standard output is not a terminal".into());
    }

    let (msg_tx, msg_rx) = mpsc::unbounded_channel();
    let worker = worker::spawn(client.clone(), settings.concurrency, msg_tx.clone());
    let mut model = Model::new(ModelOptions {
        base_url: client.base_url().to_owned(),
        read_only: settings.read_only,
        keymap: settings.keymap.clone(),
        has_token: client.has_token(),
        token_expires: client.token_expiry(),
        sign_in_url: client.sign_in_url(),
        page_size: settings.page_size,
        now: chrono::Utc::now(),
        mouse: settings.mouse,
        save_token: settings.save_token,
        can_save_token: settings.token_path.is_some(),
        server_key: Some(server_key),
    });
    let env_ = event_loop::Env {
        client,
        worker,
        token_path: settings.token_path.clone(),
        audit_path: state_dir.as_ref().map(|d| d.join("audit.jsonl")),
        queue_path,
        auto_refresh: settings.auto_refresh,
        theme: crate::ui::Theme::from_env(),
        real_terminal: true,
    };

    terminal::install_panic_hook();
    let mut tui = terminal::enter(settings.mouse)
        .map_err(|e| format!("could not set up the terminal: {e}"))?;
    if std::env::var_os("CLUB_ADMIN_TEST_PANIC").is_some() {
        // Test-only trigger: proves the panic hook restores the terminal.
        panic!("test panic requested by CLUB_ADMIN_TEST_PANIC");
    }
    let events = crossterm::event::EventStream::new();
    let result = event_loop::run_loop(
        &mut tui,
        &mut model,
        &env_,
        events,
        msg_tx,
        msg_rx,
        initial,
        async {
            tokio::select! {
                _ = stop_signal() => {}
                _ = terminal::hangup() => {}
            }
        },
    )
    .await;
    terminal::restore();
    // The terminal is restored; ratatui's own clean-up on drop would try again and, on a
    // terminal that hung up, report the failure by panicking. Nothing of it is needed now.
    std::mem::forget(tui);
    // A quit through `update` already saved the queue (Effect::SaveQueue); a signal or a
    // hung-up terminal ended the loop without it.
    if !model.quitting
        && let Some(p) = &env_.queue_path
    {
        let saved = model.saved_queue();
        let _ =
            event_loop::write_private(p, &serde_json::to_vec_pretty(&saved).unwrap_or_default());
    }
    tracing::info!("club-admin stopped");
    result.map_err(|e| format!("terminal error: {e}"))
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
