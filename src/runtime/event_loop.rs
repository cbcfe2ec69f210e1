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

/// Each spinner's share of the process's frames when many turn at once
/// ([`LoopOptions::spinners`]): with `n` turning, each one turns every `n` times this.
pub const SPINNER_SHARE: Duration = Duration::from_millis(10);

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
    /// Reload the queue this often (`--auto-refresh`), by the loop's own timer.
    pub auto_refresh: Option<Duration>,
    /// Reload the queue when this clock ticks instead (its value changes), whatever
    /// `auto_refresh` says: one clock for every session of a `serve-ssh`, so that the
    /// sessions of one scope refresh together and share one listing read
    /// ([`crate::api::shared_listing`]). `None`: the loop's own timer.
    pub refresh_clock: Option<tokio::sync::watch::Receiver<u64>>,
    /// The dashboards of this process whose spinner turns now (calls in flight, no decision
    /// held), shared by them: each one's spinner then turns every [`TICK`] or every
    /// [`SPINNER_SHARE`] times their number, whichever is longer, so that 200 `serve-ssh`
    /// sessions signing in at once draw some 100 spinner frames a second between them, not
    /// 1,600 (measured: the frames took the two cores the sign-ins' calls needed).
    /// A decision held keeps its dashboard's full pace. `None`: alone (the local dashboard).
    pub spinners: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
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

/// Applies `msgs` one by one on any [`Screen`] and runs their effects; failed local effects
/// come back as messages on `msg_tx`. After a suspend (Ctrl-Z) returns, that is once `fg`
/// has resumed the program, `Msg::Resumed` stamped by `clock` is applied at once, before
/// any tick could send a decision whose grace period ran out while stopped. True when the
/// app asked to quit.
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

/// The two ends of a dashboard's message channel (the worker's answers come in on `rx`;
/// failed local effects are sent back on `tx`), lent to one run of the loop.
pub struct Channels<'a> {
    /// Where messages are sent (the worker holds a clone).
    pub tx: &'a mpsc::UnboundedSender<Msg>,
    /// Where they arrive.
    pub rx: &'a mut mpsc::UnboundedReceiver<Msg>,
}

/// One run of the event loop on one terminal: the dashboard's Model, its effect
/// [`Runner`], the loop's settings and message channel, lent for the run, and the loop's
/// timers. A dashboard that outlives its terminal (a `serve-ssh` session, attached to one
/// connection after another) keeps what it lends between runs.
pub struct EventLoop<'a, B: Backend> {
    terminal: &'a mut Terminal<B>,
    model: &'a mut Model,
    runner: &'a mut Runner,
    opts: &'a LoopOptions,
    tx: &'a mpsc::UnboundedSender<Msg>,
    rx: &'a mut mpsc::UnboundedReceiver<Msg>,
    timers: Timers,
}

impl<'a, B: Backend> EventLoop<'a, B> {
    /// A run of the loop drawing on `terminal`, with the dashboard's parts.
    pub fn new(
        terminal: &'a mut Terminal<B>,
        model: &'a mut Model,
        runner: &'a mut Runner,
        opts: &'a LoopOptions,
        channels: Channels<'a>,
    ) -> Self {
        EventLoop {
            terminal,
            model,
            runner,
            opts,
            tx: channels.tx,
            rx: channels.rx,
            timers: Timers::new(opts),
        }
    }

    /// Runs the dashboard until quit, the input ends, or `stop` resolves (a signal). On a
    /// signal, decisions still held are sent at once and their answers awaited (see
    /// [`super::finish::on_signal`]). On the way out, a saved queue still waiting is
    /// written, and every file handed to the writer is on disk before this returns.
    ///
    /// `fresh`: a new dashboard ([`crate::app::start`] runs first); otherwise one that ran
    /// before and was left when its input ended: the user, the capabilities and the
    /// sign-in are where they were. The terminal's size and layout are applied first, then
    /// `initial` (ids from arguments, the restored queue), and the whole screen is drawn.
    /// Answers that came in meanwhile wait in the channel and are applied in their order.
    /// Draws only after something changed, once the pending messages are drained; ticks
    /// (for the spinner) only while calls are in flight; no wake-ups when idle.
    ///
    /// Errors: drawing failed.
    pub async fn run<S, F>(
        mut self,
        mut events: S,
        initial: Vec<Msg>,
        stop: F,
        fresh: bool,
    ) -> io::Result<()>
    where
        S: Stream<Item = io::Result<Event>> + Unpin,
        F: Future<Output = crate::app::EndedBy>,
    {
        let result = self.drive(&mut events, Some((initial, fresh)), stop).await;
        self.runner.flush_save();
        self.runner.written().await;
        result
    }

    /// The start of [`Self::run`] (`fresh`, `initial`) and its first whole frame, at once
    /// and without awaiting anything, for a loop that goes on in [`Self::run_opened`]: a
    /// `serve-ssh` session draws its first frame in its connection's own task, so that the
    /// frame leaves with the answer to the shell request instead of waiting behind other
    /// connections' key exchanges for the runtime's turns of the tasks between. A quit asked at the start (the Model's `quitting`, set with every
    /// [`crate::app::Effect::Quit`]) draws nothing, and `run_opened` then ends at once.
    ///
    /// Errors: drawing failed.
    pub fn open(&mut self, initial: Vec<Msg>, fresh: bool) -> io::Result<()> {
        if self.start_up(initial, fresh)? {
            return Ok(());
        }
        self.draw_frame()
    }

    /// [`Self::run`] on a terminal where [`Self::open`] drew the dashboard already: what
    /// came in since is applied and drawn, then as `run`. Errors: drawing failed.
    pub async fn run_opened<S, F>(mut self, mut events: S, stop: F) -> io::Result<()>
    where
        S: Stream<Item = io::Result<Event>> + Unpin,
        F: Future<Output = crate::app::EndedBy>,
    {
        let result = if self.model.quitting {
            Ok(())
        } else {
            self.drive(&mut events, None, stop).await
        };
        self.runner.flush_save();
        self.runner.written().await;
        result
    }

    /// The loop; `start`: the `initial` messages and `fresh` of a run not opened yet.
    async fn drive<S, F>(
        &mut self,
        events: &mut S,
        start: Option<(Vec<Msg>, bool)>,
        stop: F,
    ) -> io::Result<()>
    where
        S: Stream<Item = io::Result<Event>> + Unpin,
        F: Future<Output = crate::app::EndedBy>,
    {
        tokio::pin!(stop);
        let mut dirty = start.is_some();
        if let Some((initial, fresh)) = start
            && self.start_up(initial, fresh)?
        {
            return Ok(());
        }
        loop {
            if dirty {
                self.draw_frame()?;
                dirty = false;
            }
            let msg = match self.next_msg(events, &mut stop).await? {
                Next::Msg(m) => m,
                Next::Again => continue,
                Next::End => break,
            };
            // The clock first: a key is handled at the time it was pressed (a decision's
            // grace period counts from then), even after an idle spell without ticks.
            let mut batch = vec![Msg::Tick(self.opts.clock.now()), msg];
            while let Ok(m) = self.rx.try_recv() {
                batch.push(m);
                if batch.len() >= BATCH {
                    break;
                }
            }
            let quit = self.apply(batch);
            dirty = true;
            if quit || self.model.quitting {
                break;
            }
        }
        Ok(())
    }

    /// [`apply_on`] the loop's terminal. True when the app asked to quit.
    fn apply(&mut self, msgs: impl IntoIterator<Item = Msg>) -> bool {
        let mut screen = super::terminal::TermScreen {
            terminal: &mut *self.terminal,
            real: self.opts.real_terminal,
        };
        apply_on(
            &mut screen,
            &self.opts.clock,
            self.model,
            self.runner,
            msgs,
            self.tx,
        )
    }

    /// Start-up: the effects of [`crate::app::start`] (when `fresh`), then the terminal's
    /// size, the layout and the `initial` messages. True when the app asked to quit already.
    ///
    /// Errors: the terminal's size could not be read.
    fn start_up(&mut self, initial: Vec<Msg>, fresh: bool) -> io::Result<bool> {
        let (w, h) = size_of(self.terminal)?;
        let mut quit = false;
        if fresh {
            let fx = crate::app::start(self.model);
            let mut feedback = Vec::new();
            let mut screen = super::terminal::TermScreen {
                terminal: &mut *self.terminal,
                real: self.opts.real_terminal,
            };
            quit = self.runner.run(fx, &mut screen, &mut feedback);
            for f in feedback {
                let _ = self.tx.send(f);
            }
        }
        let layout = Msg::Layout {
            queue_rows: queue_rows(w, h, self.model.log.visible),
        };
        let first = [Msg::Resize(w, h), layout].into_iter().chain(initial);
        quit |= self.apply(first);
        Ok(quit)
    }
}

/// The loop's timers: the spinner tick (polled only while busy) and the auto-refresh.
struct Timers {
    /// The next spinner tick: [`TICK`] (or the process's share, [`LoopOptions::spinners`])
    /// after the last.
    tick_at: tokio::time::Instant,
    /// The process's turning spinners, and whether this loop is counted among them.
    spinners: Option<(std::sync::Arc<std::sync::atomic::AtomicUsize>, bool)>,
    /// Every `--auto-refresh` period, first one period from now; none without the option
    /// or with a refresh clock.
    refresh: Option<tokio::time::Interval>,
    /// The shared refresh clock ([`LoopOptions::refresh_clock`]), its ticks before this
    /// loop began seen already.
    clock: Option<tokio::sync::watch::Receiver<u64>>,
}

impl Timers {
    /// The timers for `opts`, started now.
    fn new(opts: &LoopOptions) -> Self {
        let clock = opts.refresh_clock.clone().map(|mut rx| {
            rx.borrow_and_update();
            rx
        });
        let refresh = opts.auto_refresh.filter(|_| clock.is_none()).map(|d| {
            let mut i = tokio::time::interval_at(tokio::time::Instant::now() + d, d);
            i.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            i
        });
        Timers {
            tick_at: tokio::time::Instant::now(),
            spinners: opts.spinners.clone().map(|s| (s, false)),
            refresh,
            clock,
        }
    }

    /// The time between two spinner ticks for a dashboard that is `spinning` (calls in
    /// flight, no decision held) or not, counting it among the process's turning spinners.
    fn tick_period(&mut self, spinning: bool) -> Duration {
        use std::sync::atomic::Ordering;
        let Some((count, counted)) = self.spinners.as_mut() else {
            return TICK;
        };
        if spinning != *counted {
            if spinning {
                count.fetch_add(1, Ordering::Relaxed);
            } else {
                count.fetch_sub(1, Ordering::Relaxed);
            }
            *counted = spinning;
        }
        if !spinning {
            return TICK;
        }
        let n = count.load(Ordering::Relaxed).min(1_000) as u32;
        TICK.max(SPINNER_SHARE * n)
    }
}

impl Drop for Timers {
    fn drop(&mut self) {
        // A loop that ends (a hang-up, a quit) turns no spinner.
        self.tick_period(false);
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

impl<B: Backend> EventLoop<'_, B> {
    /// Waits for the next message: a signal first, then input, answers, the spinner tick
    /// (while busy), the end of a notice's time, a retry, an auto-refresh, or a debounced
    /// queue save (handed to the writer here).
    ///
    /// Errors: the terminal's size could not be read.
    async fn next_msg<S, F>(
        &mut self,
        events: &mut S,
        stop: &mut std::pin::Pin<&mut F>,
    ) -> io::Result<Next>
    where
        S: Stream<Item = io::Result<Event>> + Unpin,
        F: Future<Output = crate::app::EndedBy>,
    {
        let model = &mut *self.model;
        let runner = &mut *self.runner;
        let opts = self.opts;
        let real = opts.real_terminal;
        let busy = model.animating();
        let spinning = model.busy() && !model.decisions().iter().any(|d| d.alive());
        let period = self.timers.tick_period(spinning);
        let save_due = runner.save_due();
        let retry_in = retry_wait(model, opts.clock.now());
        let notice_ends = model
            .notice_ends_at()
            .map(|at| (at - opts.clock.now()).to_std().unwrap_or(Duration::ZERO));
        let clock = &opts.clock;
        let tick_at = &mut self.timers.tick_at;
        let tick_due = *tick_at;
        let refresh = &mut self.timers.refresh;
        let clock_ticks = &mut self.timers.clock;
        let terminal = &mut *self.terminal;
        let (msg_tx, msg_rx) = (self.tx, &mut *self.rx);
        let next = tokio::select! {
            biased;
            ending = stop.as_mut() => {
                let end = (opts.final_wait, ending);
                super::finish::on_signal(terminal, real, model, runner, msg_tx, msg_rx, end).await;
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
            _ = tokio::time::sleep_until(tick_due), if busy => {
                *tick_at = tokio::time::Instant::now() + period;
                Next::Msg(Msg::Tick(clock.now()))
            }
            _ = async { match notice_ends { Some(d) => tokio::time::sleep(d).await, None => std::future::pending::<()>().await } } => Next::Msg(Msg::Tick(clock.now())),
            _ = async { match retry_in { Some(d) => tokio::time::sleep(d).await, None => std::future::pending::<()>().await } } => Next::Msg(Msg::Retry(clock.now())),
            _ = async { match refresh.as_mut() { Some(i) => { i.tick().await; } None => std::future::pending::<()>().await } } => Next::Msg(Msg::AutoRefresh),
            _ = async { match clock_ticks.as_mut() { Some(rx) => { if rx.changed().await.is_err() { std::future::pending::<()>().await } } None => std::future::pending::<()>().await } } => Next::Msg(Msg::AutoRefresh),
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
    fn draw_frame(&mut self) -> io::Result<()> {
        let now = Msg::Tick(self.opts.clock.now());
        self.apply([now]);
        let mut limits = None;
        let (model, theme) = (&*self.model, &self.opts.theme);
        self.terminal
            .draw(|f| limits = Some(crate::ui::view_scrolls(f, model, theme)))
            .map_err(|e| io::Error::other(e.to_string()))?;
        let (w, h) = size_of(self.terminal)?;
        let rows = queue_rows(w, h, self.model.log.visible);
        if rows != self.model.page_rows {
            self.apply([Msg::Layout { queue_rows: rows }]);
        }
        // How far each part can scroll as drawn: scrolling stops at the last line.
        if let Some(limits) = limits
            && self.model.scroll_limits != Some(limits)
        {
            self.apply([Msg::Scrolled(limits)]);
        }
        Ok(())
    }
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

/// One notch of the wheel: the help's (or the history's) scroll keys while it is open, the detail's while the
/// narrow layout shows it, else [`Msg::Wheel`].
fn wheel(model: &crate::app::Model, down: bool) -> Msg {
    use crate::app::{Action, Popup, Scope};
    if matches!(
        model.popup(),
        Some(Popup::Help { .. } | Popup::History { .. } | Popup::Term { .. })
    ) {
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
