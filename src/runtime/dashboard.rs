//! The dashboard in the terminal: settings, the messages it starts with, the terminal
//! taken over and given back.

use std::io::{IsTerminal, Read, Write};

use super::build::{self, Dashboard};
use super::event_loop::{Channels, EventLoop};
use super::{Failure, StartIds, effects, stop_signal, terminal};
use crate::api::{ApiClient, Credentials};
use crate::app::model::SavedQueue;
use crate::app::msg::HISTORY_LINES;
use crate::app::{IdsFrom, Keymap, Model, Msg};
use crate::config::{self, Flags, Settings};

/// Piped standard input read for ids, at most (16 MiB: 400,000 ids).
const STDIN_LIMIT: u64 = 16 * 1024 * 1024;

/// Opens the dashboard. `base_url` and `creds` override the configuration (demo mode).
///
/// Errors: [`Failure::Config`] (the settings, the keymap, the client's refusal of the
/// base URL), found before the terminal is touched; [`Failure::Other`] for the rest.
pub(super) async fn dashboard(
    flags: &Flags,
    start: StartIds,
    base_url: Option<String>,
    creds: Option<Credentials>,
) -> Result<(), Failure> {
    let demo_mode = creds.is_some();
    let settings = settings_for(flags, base_url, creds).map_err(Failure::Config)?;
    crate::ops::rotate::install(settings.audit_rotate_bytes);
    let keymap = keymap(&settings).map_err(Failure::Config)?;
    let client = ApiClient::new(
        &settings.base_url,
        settings.credentials.clone(),
        settings.client.clone(),
    )
    .map_err(|e| Failure::Config(e.to_string()))?;
    for w in &settings.warnings {
        let _ = writeln!(std::io::stderr(), "club-admin: warning: {w}");
        tracing::warn!("{w}");
    }

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
        .map(|d| d.join(super::queue_file_name(&server_key)));
    let initial = initial_messages(&start, &settings, &server_key, queue_path.as_deref())
        .map_err(Failure::Other)?;
    if !std::io::stdout().is_terminal() {
        return Err(Failure::Other("standard output is not a terminal".into()));
    }

    let model = Model::new(build::model_options(&settings, keymap, &client, server_key));
    let audit_path = crate::ops::AuditLog::in_state_dir(state_dir.as_deref());
    let files = effects::Files {
        token_path: settings.token_path.clone(),
        audit_path: audit_path.clone(),
        queue_path,
        recent: None,
    };
    let server = model.server_key().to_owned();
    let mut dash = build::Builder::new(model, client, settings.concurrency)
        .files(files)
        .loop_options(build::loop_options(&settings, true))
        .build();
    // The demo server is new at every start (its data seeded afresh): an earlier demo's
    // writes cannot be settled against it.
    if !demo_mode {
        dash.settle_interrupted(audit_path.as_deref(), &server, None);
    }
    in_terminal(&mut dash, settings.mouse, initial)
        .await
        .map_err(Failure::Other)
}

/// The dashboard's keymap: the defaults with the config file's `[keys]` overrides
/// ([`Settings::key_overrides`]).
///
/// Errors: every bad binding, listed ([`config::key_bindings_error`]): a configuration
/// error, the dashboard does not start.
pub fn keymap(settings: &Settings) -> Result<Keymap, String> {
    Keymap::default()
        .with_overrides(&settings.key_overrides)
        .map_err(|errors| config::key_bindings_error(&errors))
}

/// Takes over the terminal (mouse capture if `mouse`), runs the event loop until quit or a
/// hang-up or stop signal, and gives the terminal back.
///
/// Errors: the terminal could not be set up, or drawing failed.
async fn in_terminal(dash: &mut Dashboard, mouse: bool, initial: Vec<Msg>) -> Result<(), String> {
    terminal::install_panic_hook();
    let mut tui =
        terminal::enter(mouse).map_err(|e| format!("could not set up the terminal: {e}"))?;
    let events = crossterm::event::EventStream::new();
    let channels = Channels {
        tx: &dash.tx,
        rx: &mut dash.rx,
    };
    let stop = async {
        tokio::select! {
            _ = stop_signal() => {}
            _ = terminal::hangup() => {}
        }
        crate::app::EndedBy::HangUp
    };
    let result = EventLoop::new(
        &mut tui,
        &mut dash.model,
        &mut dash.runner,
        &dash.opts,
        channels,
    )
    .run(events, initial, stop, true)
    .await;
    terminal::restore();
    // The terminal is restored; ratatui's own clean-up on drop would try again and, on a
    // terminal that hung up, report the failure by panicking. Nothing of it is needed now.
    std::mem::forget(tui);
    tracing::info!("club-admin stopped");
    result.map_err(|e| format!("terminal error: {e}"))
}

/// The settings: the configuration, or in demo mode the demo server's address and
/// credentials (the user's configured secrets are ignored; keys and options are kept).
///
/// Errors: the configuration is invalid, or there is no API key.
fn settings_for(
    flags: &Flags,
    base_url: Option<String>,
    creds: Option<Credentials>,
) -> Result<Settings, String> {
    let demo_mode = creds.is_some();
    let env = |k: &str| std::env::var(k).ok();
    let mut settings: Settings = if demo_mode {
        // The demo ignores the user's configured secrets, but keeps keys and options.
        let s = config::resolve(
            flags,
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
        config::resolve(flags, &env, base_url)?
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
    Ok(settings)
}

/// Ids read as bytes ([`crate::ops::parse::ids_text`]): a line that is not UTF-8 keeps the
/// others, its token is reported by the queue as not an id (never sent), and its number is
/// logged.
fn ids_text(what: &str, bytes: &[u8]) -> String {
    let (text, not_utf8) = crate::ops::parse::ids_text(bytes);
    if !not_utf8.is_empty() {
        tracing::warn!("{what}: line(s) {not_utf8:?} not UTF-8");
    }
    text
}

/// The messages applied after start: the saved queue, earlier decisions from the audit
/// file, start-up warnings, and ids from arguments, `--queue-file` and piped standard input
/// (read before the terminal is taken over).
///
/// Errors: `--queue-file` cannot be read.
fn initial_messages(
    start: &StartIds,
    settings: &Settings,
    server_key: &str,
    queue_path: Option<&std::path::Path>,
) -> Result<Vec<Msg>, String> {
    let mut initial = Vec::new();
    if let Some(p) = queue_path
        && let Ok(text) = std::fs::read_to_string(p)
        && let Ok(saved) = serde_json::from_str::<SavedQueue>(&text)
    {
        initial.push(Msg::Restore(saved));
    }
    if let Some(p) = crate::ops::AuditLog::in_state_dir(settings.state_dir.as_deref())
        && let Ok(text) = std::fs::read_to_string(&p)
    {
        let base = server_key;
        let mut earlier: Vec<crate::app::AuditEntry> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<crate::app::AuditEntry>(l).ok())
            .filter(|e| e.server == base && !e.outcome.is_ahead())
            .collect();
        let skip = earlier.len().saturating_sub(HISTORY_LINES);
        earlier.drain(..skip);
        if !earlier.is_empty() {
            initial.push(Msg::History(earlier));
        }
    }
    for w in &settings.warnings {
        initial.push(Msg::Warning(w.clone()));
    }
    if !start.ids.is_empty() {
        initial.push(Msg::AddIds {
            text: start.ids.join(" "),
            origin: IdsFrom::Arguments,
        });
    }
    if let Some(p) = &start.queue_file {
        let bytes = std::fs::read(p)
            .map_err(|e| format!("could not read --queue-file {}: {e}", p.display()))?;
        initial.push(Msg::AddIds {
            text: ids_text("--queue-file", &bytes),
            origin: IdsFrom::File(p.display().to_string()),
        });
    }
    if !std::io::stdin().is_terminal() {
        let mut bytes = Vec::new();
        let _ = std::io::stdin().take(STDIN_LIMIT).read_to_end(&mut bytes);
        let text = ids_text("standard input", &bytes);
        if !text.trim().is_empty() {
            initial.push(Msg::AddIds {
                text,
                origin: IdsFrom::Stdin,
            });
        }
    }
    Ok(initial)
}
