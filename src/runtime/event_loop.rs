//! The event loop: input and API results in, `update`, effects out, draw when changed.

use std::future::Future;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use base64::Engine;
use crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use secrecy::ExposeSecret;
use tokio::sync::mpsc;

use super::worker::Worker;
use crate::api::ApiClient;
use crate::app::{Effect, Model, Msg, Pane, update};
use crate::ui::{Theme, queue_rows, view};

/// What the loop needs besides the model: the client (for the token), the worker, files.
pub struct Env {
    /// The API client (shares its token with the worker's clones).
    pub client: ApiClient,
    /// The worker.
    pub worker: Worker,
    /// Where a pasted token is saved (0600).
    pub token_path: Option<PathBuf>,
    /// The audit file (JSON Lines, appended).
    pub audit_path: Option<PathBuf>,
    /// The saved queue for this server.
    pub queue_path: Option<PathBuf>,
    /// Auto-refresh interval.
    pub auto_refresh: Option<Duration>,
    /// Colours.
    pub theme: Theme,
    /// True when drawing to the real terminal (OSC 52 and mouse go to stdout).
    pub real_terminal: bool,
}

/// Appends one JSON line and flushes it (a crash loses at most the line being written).
///
/// Errors: the file or its directory cannot be written.
pub fn append_json_line<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
    line.push(b'\n');
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(&line)?;
    f.flush()
}

/// Writes a file atomically (temp file, then rename), with mode 0600 on unix.
///
/// Errors: the file or its directory cannot be written.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    {
        let mut opts = std::fs::OpenOptions::new();
        opts.create(true).write(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// OSC 52: asks the terminal to put `text` on the clipboard (works over SSH).
pub fn osc52(text: &str) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text);
    format!("\x1b]52;c;{b64}\x07")
}

impl Env {
    /// Runs the effects that are not API calls; returns messages to feed back.
    fn perform<B: Backend>(
        &self,
        terminal: &mut Terminal<B>,
        effects: Vec<Effect>,
        out: &mut Vec<Msg>,
    ) -> bool {
        let mut quit = false;
        for fx in effects {
            match fx {
                Effect::Api { request_id, call } => self.worker.send(request_id, call),
                Effect::SetToken(t) => self.client.set_token(Some(t)),
                Effect::SaveToken(t) => {
                    let result = match &self.token_path {
                        Some(p) => write_private(p, t.expose_secret().as_bytes())
                            .map_err(|e| e.to_string()),
                        None => Err("no place to save it (no state directory)".into()),
                    };
                    if result.is_ok() {
                        tracing::info!("token saved to the token file");
                    }
                    out.push(Msg::EffectDone {
                        what: "saving the token".into(),
                        result,
                    });
                }
                Effect::Audit(entry) => {
                    tracing::info!(action = %entry.action, target = %entry.target, outcome = %entry.outcome, "audit");
                    if let Some(p) = &self.audit_path
                        && let Err(e) = append_json_line(p, &entry)
                    {
                        out.push(Msg::EffectDone {
                            what: "writing the audit file".into(),
                            result: Err(e.to_string()),
                        });
                    }
                }
                Effect::SaveQueue(q) => {
                    if let Some(p) = &self.queue_path {
                        let bytes = serde_json::to_vec_pretty(&q).unwrap_or_default();
                        if let Err(e) = write_private(p, &bytes) {
                            out.push(Msg::EffectDone {
                                what: "saving the queue".into(),
                                result: Err(e.to_string()),
                            });
                        }
                    }
                }
                Effect::Copy(text) => {
                    if self.real_terminal {
                        let mut o = io::stdout();
                        let _ = o.write_all(osc52(&text).as_bytes());
                        let _ = o.flush();
                    }
                }
                Effect::SetMouse(on) => {
                    if self.real_terminal {
                        super::terminal::set_mouse(on);
                    }
                }
                Effect::Redraw => {
                    let _ = terminal.clear();
                }
                Effect::Quit => quit = true,
            }
        }
        quit
    }
}

/// Places a left click: which pane, and in the queue which drawn row (below the border and
/// the column header).
fn click(width: u16, height: u16, log_visible: bool, x: u16, y: u16) -> Msg {
    let a = crate::ui::areas(ratatui::layout::Rect::new(0, 0, width, height), log_visible);
    let pos = ratatui::layout::Position::new(x, y);
    if a.queue.contains(pos) {
        let first = a.queue.y + 2;
        let row = (y >= first && y + 1 < a.queue.bottom()).then(|| usize::from(y - first));
        Msg::Click {
            pane: Pane::Queue,
            row,
        }
    } else if a.club.contains(pos) {
        Msg::Click {
            pane: Pane::Club,
            row: None,
        }
    } else if a.log.contains(pos) {
        Msg::Click {
            pane: Pane::Log,
            row: None,
        }
    } else {
        Msg::Click {
            pane: Pane::Queue,
            row: None,
        }
    }
}

fn to_msg(ev: Event) -> Option<Msg> {
    tracing::trace!(?ev, "terminal event");
    match ev {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(Msg::Key(k)),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Mouse(m) => Some(Msg::Mouse(m)),
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// Runs the dashboard until quit, the input ends, or `stop` resolves (a signal).
///
/// `initial` messages (ids from arguments, the restored queue) are applied after
/// [`crate::app::start`]. Draws only after something changed, once the pending messages are
/// drained; ticks (for the spinner) only while calls are in flight; no wake-ups when idle.
///
/// Errors: drawing failed.
#[allow(clippy::too_many_arguments)]
pub async fn run_loop<B, S, F>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    env: &Env,
    mut events: S,
    msg_tx: mpsc::UnboundedSender<Msg>,
    mut msg_rx: mpsc::UnboundedReceiver<Msg>,
    initial: Vec<Msg>,
    stop: F,
) -> io::Result<()>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    F: Future<Output = ()>,
{
    tokio::pin!(stop);
    let size = terminal
        .size()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut fx = crate::app::start(model);
    fx.extend(update(model, Msg::Resize(size.width, size.height)));
    fx.extend(update(
        model,
        Msg::Layout {
            queue_rows: queue_rows(size.width, size.height, model.log_visible),
        },
    ));
    for m in initial {
        fx.extend(update(model, m));
    }
    let mut feedback = Vec::new();
    if env.perform(terminal, fx, &mut feedback) {
        return Ok(());
    }
    for m in feedback {
        let _ = msg_tx.send(m);
    }
    let mut dirty = true;
    let mut refresh = env.auto_refresh.map(|d| {
        let mut i = tokio::time::interval_at(tokio::time::Instant::now() + d, d);
        i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        i
    });
    let mut tick = tokio::time::interval(Duration::from_millis(120));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        if dirty {
            let _ = update(model, Msg::Tick(chrono::Utc::now()));
            terminal
                .draw(|f| view(f, model, &env.theme))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let size = terminal
                .size()
                .map_err(|e| io::Error::other(e.to_string()))?;
            let rows = queue_rows(size.width, size.height, model.log_visible);
            if rows != model.page_rows {
                let _ = update(model, Msg::Layout { queue_rows: rows });
            }
            dirty = false;
        }
        let busy = model.busy();
        let msg = tokio::select! {
            biased;
            _ = &mut stop => break,
            ev = events.next() => match ev {
                Some(Ok(Event::Mouse(me))) if matches!(me.kind, MouseEventKind::Down(MouseButton::Left)) => {
                    match terminal.size() {
                        Ok(size) => click(size.width, size.height, model.log_visible, me.column, me.row),
                        Err(_) => continue,
                    }
                }
                Some(Ok(ev)) => match to_msg(ev) {
                    Some(m) => m,
                    None => continue,
                },
                Some(Err(e)) => {
                    tracing::error!("input error: {e}");
                    break;
                }
                None => break,
            },
            Some(m) = msg_rx.recv() => m,
            _ = tick.tick(), if busy => Msg::Tick(chrono::Utc::now()),
            _ = async { match refresh.as_mut() { Some(i) => { i.tick().await; } None => std::future::pending::<()>().await } } => Msg::AutoRefresh,
        };
        let mut batch = vec![msg];
        while let Ok(m) = msg_rx.try_recv() {
            batch.push(m);
            if batch.len() >= 256 {
                break;
            }
        }
        let mut quit = false;
        for m in batch {
            let fx = update(model, m);
            let mut feedback = Vec::new();
            quit |= env.perform(terminal, fx, &mut feedback);
            for f in feedback {
                let _ = msg_tx.send(f);
            }
        }
        dirty = true;
        if quit || model.quitting {
            break;
        }
    }
    Ok(())
}
