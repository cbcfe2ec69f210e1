//! The event loop: input and API answers in, `update`, effects out through the one
//! [`Runner`], draw when something changed. Terminal input becomes the app's messages here
//! ([`to_msg`]: crossterm's events with the app's own `Key`; taps placed by the view's
//! geometry, [`crate::ui::tap`]).

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;

use crossterm::event::{
    Event, KeyCode as CtKeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use futures::{Stream, StreamExt};
use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;

use super::effects::{Runner, Screen};
use crate::app::{Effect, Key, KeyCode, Model, Msg, update};
use crate::ui::{Theme, queue_rows};

/// Spinner frame interval while calls are in flight.
const TICK: Duration = Duration::from_millis(120);
/// Messages applied before a frame is drawn, at most (a burst of answers is drawn in
/// batches, so keys stay responsive).
const BATCH: usize = 256;

/// The wall clock the loop stamps on [`Msg::Tick`] and [`Msg::Retry`] (a decision's grace
/// period, the token's expiry, retries): [`Clock::system`] in the dashboard; a test gives
/// one it moves, so a grace period passes without waiting for it.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> chrono::DateTime<chrono::Utc> + Send + Sync>);

impl Clock {
    /// The system's wall clock (`chrono::Utc::now`).
    pub fn system() -> Clock {
        Clock(Arc::new(chrono::Utc::now))
    }

    /// A clock that reads `now`.
    pub fn new(now: impl Fn() -> chrono::DateTime<chrono::Utc> + Send + Sync + 'static) -> Clock {
        Clock(Arc::new(now))
    }

    /// The time now.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        (self.0)()
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Clock({})", self.now())
    }
}

/// Settings of the loop besides the model and the runner.
#[derive(Debug, Clone)]
pub struct LoopOptions {
    /// Reload the queue this often (`--auto-refresh`).
    pub auto_refresh: Option<Duration>,
    /// Colours.
    pub theme: Theme,
    /// True when drawing to the real terminal (OSC 52 and mouse capture go to stdout).
    pub real_terminal: bool,
    /// On a hang-up or SIGTERM, how long to wait for the answers to the writes sent last
    /// (the held decisions, sent at once): the client's request timeout.
    pub final_wait: Duration,
    /// The wall clock.
    pub clock: Clock,
}

/// Applies `msgs` one by one and runs their effects; failed local effects come back as
/// messages on `msg_tx`. After a suspend (Ctrl-Z) returns, that is once `fg` has resumed
/// the program, `Msg::Resumed` stamped by `clock` is applied at once, before any tick
/// could send a decision whose grace period ran out while stopped. True when the app asked
/// to quit.
fn apply<B: Backend>(
    terminal: &mut Terminal<B>,
    real: bool,
    clock: &Clock,
    model: &mut Model,
    runner: &mut Runner,
    msgs: impl IntoIterator<Item = Msg>,
    msg_tx: &mpsc::UnboundedSender<Msg>,
) -> bool {
    apply_on(
        &mut super::terminal::TermScreen { terminal, real },
        clock,
        model,
        runner,
        msgs,
        msg_tx,
    )
}

/// [`apply`] on any [`Screen`].
pub(super) fn apply_on(
    screen: &mut dyn Screen,
    clock: &Clock,
    model: &mut Model,
    runner: &mut Runner,
    msgs: impl IntoIterator<Item = Msg>,
    msg_tx: &mpsc::UnboundedSender<Msg>,
) -> bool {
    let mut quit = false;
    let mut msgs: std::collections::VecDeque<Msg> = msgs.into_iter().collect();
    while let Some(m) = msgs.pop_front() {
        let fx = update(model, m);
        let suspended = fx.iter().any(|e| matches!(e, Effect::Suspend));
        let mut feedback = Vec::new();
        quit |= runner.run(fx, screen, &mut feedback);
        for f in feedback {
            let _ = msg_tx.send(f);
        }
        if suspended {
            msgs.push_front(Msg::Resumed(clock.now()));
        }
    }
    quit
}

/// How long after `now` the model wants `Msg::Retry` (the server could not be reached), if it
/// does.
fn retry_wait(model: &Model, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let at = model.retry_at()?;
    Some((at - now).to_std().unwrap_or(Duration::ZERO))
}

fn size_of<B: Backend>(terminal: &Terminal<B>) -> io::Result<(u16, u16)> {
    let s = terminal
        .size()
        .map_err(|e| io::Error::other(e.to_string()))?;
    Ok((s.width, s.height))
}

/// Runs the dashboard until quit, the input ends, or `stop` resolves (a signal). On a
/// signal, decisions still held are sent at once and their answers awaited (see
/// [`super::finish::on_signal`]). On the way out, a saved queue still waiting is written, and every
/// file handed to the writer is on disk before this returns.
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
    runner: &mut Runner,
    opts: &LoopOptions,
    events: S,
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
    let channels = Channels {
        tx: &msg_tx,
        rx: &mut msg_rx,
    };
    attach_loop(
        terminal, model, runner, opts, events, channels, initial, stop, true,
    )
    .await
}

/// The two ends of a dashboard's message channel (the worker's answers come in on `rx`;
/// failed local effects are sent back on `tx`), lent to one run of the loop.
pub struct Channels<'a> {
    /// Where messages are sent (the worker holds a clone).
    pub tx: &'a mpsc::UnboundedSender<Msg>,
    /// Where they arrive.
    pub rx: &'a mut mpsc::UnboundedReceiver<Msg>,
}

/// [`run_loop`] for a dashboard that outlives its terminal (a `serve-ssh` session, attached
/// to one connection after another): the message channel is lent, not given, so the
/// dashboard keeps it between runs. `fresh`: a new dashboard ([`crate::app::start`] runs
/// first, as in [`run_loop`]); otherwise one that ran before and was left when its input
/// ended: the user, the capabilities and the sign-in are where they were, the new
/// terminal's size and layout are applied first, then `initial`, and the whole screen is
/// drawn. Answers that came in meanwhile wait in `channels.rx` and are applied in their
/// order.
///
/// Errors: drawing failed.
#[allow(clippy::too_many_arguments)]
pub async fn attach_loop<B, S, F>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    mut events: S,
    channels: Channels<'_>,
    initial: Vec<Msg>,
    stop: F,
    fresh: bool,
) -> io::Result<()>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    F: Future<Output = ()>,
{
    let result = drive(
        terminal,
        model,
        runner,
        opts,
        &mut events,
        channels.tx,
        channels.rx,
        initial,
        stop,
        fresh,
    )
    .await;
    runner.flush_save();
    runner.written().await;
    result
}

#[allow(clippy::too_many_arguments)]
async fn drive<B, S, F>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    events: &mut S,
    msg_tx: &mpsc::UnboundedSender<Msg>,
    msg_rx: &mut mpsc::UnboundedReceiver<Msg>,
    initial: Vec<Msg>,
    stop: F,
    fresh: bool,
) -> io::Result<()>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    F: Future<Output = ()>,
{
    tokio::pin!(stop);
    let real = opts.real_terminal;
    if start_up(terminal, model, runner, opts, msg_tx, initial, fresh)? {
        return Ok(());
    }
    let mut dirty = true;
    let mut timers = Timers::new(opts);
    loop {
        if dirty {
            draw_frame(terminal, model, runner, opts, msg_tx)?;
            dirty = false;
        }
        let next = next_msg(
            terminal,
            model,
            runner,
            opts,
            events,
            msg_tx,
            msg_rx,
            &mut timers,
            &mut stop,
        );
        let msg = match next.await? {
            Next::Msg(m) => m,
            Next::Again => continue,
            Next::End => break,
        };
        // The clock first: a key is handled at the time it was pressed (a decision's grace
        // period counts from then), even after an idle spell without ticks.
        let mut batch = vec![Msg::Tick(opts.clock.now()), msg];
        while let Ok(m) = msg_rx.try_recv() {
            batch.push(m);
            if batch.len() >= BATCH {
                break;
            }
        }
        let quit = apply(terminal, real, &opts.clock, model, runner, batch, msg_tx);
        dirty = true;
        if quit || model.quitting {
            break;
        }
    }
    Ok(())
}

/// Start-up: the effects of [`crate::app::start`] (when `fresh`), then the terminal's size,
/// the layout and the `initial` messages. True when the app asked to quit already.
///
/// Errors: the terminal's size could not be read.
fn start_up<B: Backend>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    msg_tx: &mpsc::UnboundedSender<Msg>,
    initial: Vec<Msg>,
    fresh: bool,
) -> io::Result<bool> {
    let real = opts.real_terminal;
    let (w, h) = size_of(terminal)?;
    let mut quit = false;
    if fresh {
        let fx = crate::app::start(model);
        let mut feedback = Vec::new();
        quit = runner.run(
            fx,
            &mut super::terminal::TermScreen { terminal, real },
            &mut feedback,
        );
        for f in feedback {
            let _ = msg_tx.send(f);
        }
    }
    let layout = Msg::Layout {
        queue_rows: queue_rows(w, h, model.log.visible),
    };
    let first = [Msg::Resize(w, h), layout].into_iter().chain(initial);
    quit |= apply(terminal, real, &opts.clock, model, runner, first, msg_tx);
    Ok(quit)
}

/// The loop's timers: the spinner tick (polled only while busy) and the auto-refresh.
struct Timers {
    /// Every [`TICK`]; missed ticks are skipped.
    tick: tokio::time::Interval,
    /// Every `--auto-refresh` period, first one period from now; none without the option.
    refresh: Option<tokio::time::Interval>,
}

impl Timers {
    /// The timers for `opts`, started now.
    fn new(opts: &LoopOptions) -> Self {
        let refresh = opts.auto_refresh.map(|d| {
            let mut i = tokio::time::interval_at(tokio::time::Instant::now() + d, d);
            i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            i
        });
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        Timers { tick, refresh }
    }
}

/// What waiting for the next message gave.
// As large as a `Msg` (which allows this lint too); returned once per message and never
// stored, so boxing would only add an allocation.
#[allow(clippy::large_enum_variant)]
enum Next {
    /// A message to apply.
    Msg(Msg),
    /// Nothing to apply (an ignored event, a saved queue written): wait again.
    Again,
    /// The loop ends: a signal was handled, or the input ended or failed.
    End,
}

/// Waits for the next message: a signal first, then input, answers, the spinner tick
/// (while busy), a retry, an auto-refresh, or a debounced queue save (handed to the writer
/// here).
///
/// Errors: the terminal's size could not be read.
#[allow(clippy::too_many_arguments)]
async fn next_msg<B, S, F>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    events: &mut S,
    msg_tx: &mpsc::UnboundedSender<Msg>,
    msg_rx: &mut mpsc::UnboundedReceiver<Msg>,
    timers: &mut Timers,
    stop: &mut std::pin::Pin<&mut F>,
) -> io::Result<Next>
where
    B: Backend,
    S: Stream<Item = io::Result<Event>> + Unpin,
    F: Future<Output = ()>,
{
    let real = opts.real_terminal;
    let busy = model.animating();
    let save_due = runner.save_due();
    let retry_in = retry_wait(model, opts.clock.now());
    let notice_ends = model
        .notice_ends_at()
        .map(|at| (at - opts.clock.now()).to_std().unwrap_or(Duration::ZERO));
    let clock = &opts.clock;
    let tick = &mut timers.tick;
    let refresh = &mut timers.refresh;
    let next = tokio::select! {
        biased;
        _ = stop.as_mut() => {
            super::finish::on_signal(terminal, real, model, runner, msg_tx, msg_rx, opts.final_wait).await;
            Next::End
        }
        ev = events.next() => match ev {
            Some(Ok(ev)) => {
                let size = size_of(terminal)?;
                match to_msg(ev, size, model) {
                    Some(m) => Next::Msg(m),
                    None => Next::Again,
                }
            }
            Some(Err(e)) => {
                tracing::error!("input error: {e}");
                Next::End
            }
            None => Next::End,
        },
        Some(m) = msg_rx.recv() => Next::Msg(m),
        _ = tick.tick(), if busy => Next::Msg(Msg::Tick(clock.now())),
        _ = async { match notice_ends { Some(d) => tokio::time::sleep(d).await, None => std::future::pending::<()>().await } } => Next::Msg(Msg::Tick(clock.now())),
        _ = async { match retry_in { Some(d) => tokio::time::sleep(d).await, None => std::future::pending::<()>().await } } => Next::Msg(Msg::Retry(clock.now())),
        _ = async { match refresh.as_mut() { Some(i) => { i.tick().await; } None => std::future::pending::<()>().await } } => Next::Msg(Msg::AutoRefresh),
        _ = async { match save_due { Some(at) => tokio::time::sleep_until(at).await, None => std::future::pending::<()>().await } } => {
            runner.flush_save();
            Next::Again
        }
    };
    Ok(next)
}

/// One frame: the clock, the view, and the queue's height if the layout changed.
///
/// Errors: drawing failed.
fn draw_frame<B: Backend>(
    terminal: &mut Terminal<B>,
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    msg_tx: &mpsc::UnboundedSender<Msg>,
) -> io::Result<()> {
    let real = opts.real_terminal;
    let now = Msg::Tick(opts.clock.now());
    apply(terminal, real, &opts.clock, model, runner, [now], msg_tx);
    let mut limits = None;
    terminal
        .draw(|f| limits = Some(crate::ui::view_scrolls(f, model, &opts.theme)))
        .map_err(|e| io::Error::other(e.to_string()))?;
    let (w, h) = size_of(terminal)?;
    let rows = queue_rows(w, h, model.log.visible);
    if rows != model.page_rows {
        let layout = Msg::Layout { queue_rows: rows };
        apply(terminal, real, &opts.clock, model, runner, [layout], msg_tx);
    }
    // How far each part can scroll as drawn: scrolling stops at the last line.
    if let Some(limits) = limits
        && model.scroll_limits != Some(limits)
    {
        apply(
            terminal,
            real,
            &opts.clock,
            model,
            runner,
            [Msg::Scrolled(limits)],
            msg_tx,
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// terminal input: crossterm's events become the app's messages, with the app's own `Key`

/// The app's key for a crossterm key event; `None` for releases and keys the app does not
/// use (media keys, lone modifiers, ...).
pub fn key(ev: &KeyEvent) -> Option<Key> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    let code = match ev.code {
        CtKeyCode::Char(c) => KeyCode::Char(c),
        CtKeyCode::Enter => KeyCode::Enter,
        CtKeyCode::Esc => KeyCode::Esc,
        CtKeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        CtKeyCode::Tab => KeyCode::Tab,
        CtKeyCode::BackTab => KeyCode::BackTab,
        CtKeyCode::Backspace => KeyCode::Backspace,
        CtKeyCode::Delete => KeyCode::Delete,
        CtKeyCode::Up => KeyCode::Up,
        CtKeyCode::Down => KeyCode::Down,
        CtKeyCode::Left => KeyCode::Left,
        CtKeyCode::Right => KeyCode::Right,
        CtKeyCode::Home => KeyCode::Home,
        CtKeyCode::End => KeyCode::End,
        CtKeyCode::PageUp => KeyCode::PageUp,
        CtKeyCode::PageDown => KeyCode::PageDown,
        CtKeyCode::F(n) => KeyCode::F(n),
        _ => return None,
    };
    Some(Key {
        code,
        ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
        alt: ev
            .modifiers
            .intersects(KeyModifiers::ALT | KeyModifiers::META),
    })
}

/// The message for a terminal event, on a screen of `size` (columns, rows) showing `model`
/// (taps are placed by the view's geometry, [`crate::ui::tap`]). `None` for events the app
/// ignores.
///
/// Taps are keys (a phone has no Esc or Tab without an extra key row): a tap on a hint of
/// the hint bar presses its key, a tap on a queue row selects it (on the selected row of the
/// narrow queue, opens its detail); the wheel (or a swipe, which phone terminals send as
/// wheel notches) scrolls the help while it is open, the detail while the narrow layout shows
/// it, else moves in the focused pane.
pub fn to_msg(ev: Event, size: (u16, u16), model: &crate::app::Model) -> Option<Msg> {
    tracing::trace!(?ev, "terminal event");
    match ev {
        Event::Key(k) => key(&k).map(Msg::Key),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Mouse(me) => match me.kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = me.kind == MouseEventKind::ScrollDown;
                Some(wheel(model, down))
            }
            MouseEventKind::Down(MouseButton::Left) => {
                match crate::ui::tap(model, size.0, size.1, me.column, me.row) {
                    crate::ui::Tap::Key(k) => Some(Msg::Key(k)),
                    crate::ui::Tap::Pane(pane, row) => Some(Msg::Click { pane, row }),
                    crate::ui::Tap::Nothing => None,
                }
            }
            _ => None,
        },
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// One notch of the wheel: the help's scroll keys while it is open, the detail's while the
/// narrow layout shows it, else [`Msg::Wheel`].
fn wheel(model: &crate::app::Model, down: bool) -> Msg {
    use crate::app::{Action, Popup, Scope};
    if matches!(model.popup(), Some(Popup::Help { .. })) {
        return Msg::Key(Key::new(if down { KeyCode::Down } else { KeyCode::Up }));
    }
    if model.detail_open() {
        let action = if down {
            Action::DetailDown
        } else {
            Action::DetailUp
        };
        if let Some(k) = model.keymap.key_for(Scope::Queue, action) {
            return Msg::Key(k);
        }
    }
    Msg::Wheel { down }
}
