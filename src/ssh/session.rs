//! One session's dashboard: its own Model, API client (the operator's API key, the
//! session's own token, in memory only), worker and effect runner, drawn by the local
//! dashboard's backend ([`LeanBackend`]) into the SSH channel, and the registry that keeps a
//! dashboard whose connection dropped until its key comes back or the re-attach window
//! passes.

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::event::Event;
use futures::StreamExt;
use ratatui::Terminal;
use russh::ChannelId;
use russh::server::Handle;
use std::future::Future;
use tokio::sync::{mpsc, oneshot};

use super::Shared;
use crate::app::{EndedBy, Model, ModelOptions};
use crate::i18n::Lang;
use crate::i18n::dates::YearStyle;
use crate::runtime::build::{self, Builder, Dashboard};
use crate::runtime::effects::{Files, Origin, RemoteTerminal};
use crate::runtime::event_loop::{Channels, EventLoop, LoopOptions};
use crate::runtime::lean::{LeanBackend, SharedSize};
use crate::runtime::terminal;

/// A dashboard of one session, attached to a connection or waiting for one.
pub(crate) struct Dash {
    /// Its number on the server (how the others and the status name it).
    pub(crate) number: u64,
    /// The dashboard itself, as [`Builder`] put it together.
    dash: Dashboard,
    /// The loop ran once ([`crate::app::start`] is not run again on re-attach).
    started: bool,
    /// The window it was last drawn in (kept while detached).
    size: SharedSize,
    /// The packets of the connection it is attached to, for copied text (OSC 52) and mouse
    /// capture; `None` while detached.
    clipboard_to: ClipboardTo,
}

/// Forwards to a dashboard (`number`, its channel `tx`) what the other sessions tell, as
/// [`crate::app::Msg::Heard`], until the dashboard is gone. A dashboard too slow to keep up
/// (over 1,024 behind) skips what it missed: its next refresh reads the truth.
fn hear_others(
    mut rx: tokio::sync::broadcast::Receiver<(u64, crate::app::Told)>,
    number: u64,
    tx: mpsc::UnboundedSender<crate::app::Msg>,
) {
    use tokio::sync::broadcast::error::RecvError;
    tokio::spawn(async move {
        loop {
            let got = tokio::select! {
                got = rx.recv() => got,
                () = tx.closed() => break,
            };
            match got {
                Ok((from, t)) if from != number => {
                    if tx.send(crate::app::Msg::Heard(t)).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!(
                        dashboard = number,
                        missed = n,
                        "missed what other sessions told"
                    );
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
}

/// With `--remember-tokens`, the key's token file; the token of an earlier session in it,
/// if any, is set on `client` (the start checks it with the server; a refused one opens
/// the sign-in pop-up).
fn remembered_token(
    shared: &Shared,
    key: &str,
    client: &crate::api::ApiClient,
) -> Option<std::path::PathBuf> {
    let token_path = shared
        .token_dir
        .as_deref()
        .map(|dir| super::token_file(dir, key));
    if let Some(token) = shared
        .token_dir
        .as_deref()
        .and_then(|dir| super::read_token(dir, key))
    {
        client.set_token(Some(token));
    }
    token_path
}

/// The connection a dashboard's copied text and mouse capture go to, while it has one.
type ClipboardTo = Arc<std::sync::Mutex<Option<mpsc::UnboundedSender<Vec<u8>>>>>;

impl Dash {
    /// A new dashboard, number `number`, for the key `key` (its comment in the authorized
    /// keys file, `comment`, stamped on its audit lines beside it) in `lang`: signed out (it opens
    /// on the sign-in pop-up), its token kept only by its own client.
    pub(crate) fn new(
        shared: &Shared,
        number: u64,
        key: &str,
        comment: Option<&str>,
        lang: Lang,
    ) -> Dash {
        let s = &shared.settings;
        let client = shared.client.for_session();
        let token_path = remembered_token(shared, key, &client);
        let year_style = if lang == s.lang {
            s.year_style
        } else {
            YearStyle::default_for(lang)
        };
        let server_key = client.base_url().to_owned();
        let client_base = server_key.clone();
        let model = Model::new(ModelOptions {
            mouse: shared.mouse,
            save_token: token_path.is_some(),
            can_save_token: token_path.is_some(),
            can_suspend: false,
            command: format!("ssh -p {} HOST", shared.listen.port()),
            lang,
            year_style,
            ..build::model_options(s, shared.keymap.clone(), &client, server_key)
        });
        let clipboard_to: ClipboardTo = Arc::default();
        let to = clipboard_to.clone();
        // Copied ids (OSC 52) and mouse capture reach the client's terminal, as the local
        // dashboard's reach its own.
        let remote = RemoteTerminal::new(move |bytes| {
            if let Ok(slot) = to.lock()
                && let Some(tx) = slot.as_ref()
            {
                let _ = tx.send(bytes);
            }
        });
        let files = Files {
            token_path,
            audit_path: shared.audit_path.clone(),
            queue_path: None,
            recent: Some(shared.recent.clone()),
        };
        // The sessions agree: what this one does is broadcast to the others at once
        // (their rows follow without a refresh), and what they do arrives here.
        let told = shared.told.clone();
        let tell: crate::runtime::effects::Tell = Arc::new(move |t| {
            let _ = told.send((number, t));
        });
        let dash = Builder::new(model, client, s.concurrency)
            .files(files)
            .origin(Origin {
                via: "ssh".to_owned(),
                key: Some(key.to_owned()),
                key_comment: comment.map(str::to_owned),
            })
            .remote(remote)
            .tell(tell)
            .loop_options(LoopOptions {
                refresh_clock: Some(shared.refresh.subscribe()),
                spinners: Some(shared.spinners.clone()),
                ..build::loop_options(s, false)
            })
            .build();
        let mut dash = dash;
        dash.settle_interrupted(
            shared.audit_path.as_deref(),
            client_base.as_str(),
            Some(&*shared.open_writes),
        );
        hear_others(shared.told.subscribe(), number, dash.tx.clone());
        Dash {
            number,
            dash,
            started: false,
            size: SharedSize::new(80, 24),
            clipboard_to,
        }
    }

    /// Its client (the session's token slot; what the status reads the e-mail from).
    pub(crate) fn client(&self) -> crate::api::ApiClient {
        self.dash.runner.client().clone()
    }

    /// The end for good without a terminal: the local dashboard's rule on a hang-up
    /// ([`crate::runtime::finish::detached`]).
    pub(crate) async fn finish(mut self) {
        let d = &mut self.dash;
        let channels = Channels {
            tx: &d.tx,
            rx: &mut d.rx,
        };
        let ending = EndedBy::HangUp;
        crate::runtime::finish::detached(&mut d.model, &mut d.runner, &d.opts, channels, ending)
            .await;
    }

    /// The loop's start on `terminal` and its first frame, drawn at once
    /// ([`EventLoop::open`]; [`crate::app::start`] first on the first run). A quit asked
    /// meanwhile is the Model's `quitting`, which [`Self::run_opened`] heeds. Errors:
    /// drawing failed.
    fn open_loop<B: ratatui::backend::Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
    ) -> io::Result<()> {
        let fresh = !self.started;
        self.started = true;
        let d = &mut self.dash;
        let channels = Channels {
            tx: &d.tx,
            rx: &mut d.rx,
        };
        EventLoop::new(terminal, &mut d.model, &mut d.runner, &d.opts, channels)
            .open(Vec::new(), fresh)
    }

    /// The loop on `terminal`, opened by [`Self::open_loop`], with `events` until they
    /// end or `stop` resolves ([`EventLoop::run_opened`]).
    async fn run_opened<B, S, F>(
        &mut self,
        terminal: &mut Terminal<B>,
        events: S,
        stop: F,
    ) -> io::Result<()>
    where
        B: ratatui::backend::Backend,
        S: futures::Stream<Item = io::Result<Event>> + Unpin,
        F: Future<Output = EndedBy>,
    {
        let d = &mut self.dash;
        let channels = Channels {
            tx: &d.tx,
            rx: &mut d.rx,
        };
        EventLoop::new(terminal, &mut d.model, &mut d.runner, &d.opts, channels)
            .run_opened(events, stop)
            .await
    }
}

/// What a connection lends a dashboard while attached.
pub(crate) struct Attachment {
    /// The connection's handle, to write to the channel.
    pub handle: Handle,
    /// The session channel.
    pub channel: ChannelId,
    /// The window's size, kept by the connection's handler.
    pub size: SharedSize,
    /// The client's keys as crossterm events; ends when the connection does.
    pub input: mpsc::UnboundedReceiver<io::Result<Event>>,
    /// Notified when the operator ends the connection (`serve-ssh kick`).
    pub kicked: Arc<tokio::sync::Notify>,
}

/// How an attachment ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The connection dropped: the dashboard waits for its key to come back.
    Detached,
    /// The moderator quit, or the server stops: the dashboard is over.
    Over,
}

/// Bytes for the SSH channel: collected by `write`, sent as one packet per `flush` (one per
/// frame) to the queue that [`send_packets`] hands to the connection in order.
struct ChannelOut {
    buf: Vec<u8>,
    tx: mpsc::UnboundedSender<Vec<u8>>,
}

/// Hands the `packets` to the connection in order, in a task that ends when every writer
/// is dropped and every packet was handed over, or the connection is gone.
fn send_packets(
    handle: Handle,
    channel: ChannelId,
    mut packets: mpsc::UnboundedReceiver<Vec<u8>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(bytes) = packets.recv().await {
            if handle.data(channel, bytes).await.is_err() {
                break;
            }
        }
    })
}

impl Write for ChannelOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let bytes = std::mem::take(&mut self.buf);
        // A connection that is gone takes nothing more: its bytes are dropped here (the
        // dashboard learns it is gone from its input, which ends).
        let _ = self.tx.send(bytes);
        Ok(())
    }
}

/// A dashboard's screen on a connection, opened by [`open`]: the terminal drawing into the
/// channel's packets, and the packets not handed to the connection yet.
pub(crate) struct Screen {
    terminal: Terminal<LeanBackend<ChannelOut>>,
    /// The packets drawn: the connection's handler takes the first frame's at once
    /// ([`Screen::first_packets`]), [`attach`] hands the rest over as they come.
    packets: mpsc::UnboundedReceiver<Vec<u8>>,
    /// For what is not a frame (the terminal given back): the same queue.
    tx: mpsc::UnboundedSender<Vec<u8>>,
}

impl Screen {
    /// The packets drawn so far (the terminal taken and the first frame, after [`open`]),
    /// for the connection's handler to send with its answer to the shell request.
    pub(crate) fn first_packets(&mut self) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| self.packets.try_recv().ok()).collect()
    }
}

/// Opens `dash`'s screen in a window of `size`: the client's terminal taken (the alternate
/// screen, bracketed paste, the mouse when on), the loop started and the whole dashboard
/// drawn, without awaiting anything (the connection's handler calls it: its first frame
/// then leaves with the answer to the shell request). Copied text and
/// mouse capture go to this screen's packets from now on.
///
/// Errors: the terminal could not be set up or drawn on.
pub(crate) fn open(dash: &mut Dash, size: SharedSize) -> io::Result<Screen> {
    dash.size = size.clone();
    let (tx, packets) = mpsc::unbounded_channel();
    let mut out = ChannelOut {
        buf: Vec::new(),
        tx: tx.clone(),
    };
    if let Ok(mut slot) = dash.clipboard_to.lock() {
        *slot = Some(tx.clone());
    }
    terminal::take(&mut out, dash.dash.model.mouse)?;
    let mut screen = Terminal::new(LeanBackend::sized(out, size))?;
    dash.open_loop(&mut screen)?;
    Ok(Screen {
        terminal: screen,
        packets,
        tx,
    })
}

/// [`open`] in the session's task (a dashboard called back, or one whose first frame could
/// not be drawn in the connection's task); `None`, logged, when it cannot be.
fn open_here(dash: &mut Dash, size: SharedSize) -> Option<Screen> {
    match open(dash, size) {
        Ok(s) => Some(s),
        Err(e) => {
            tracing::error!("could not set up a session's screen: {e}");
            if let Ok(mut slot) = dash.clipboard_to.lock() {
                *slot = None;
            }
            None
        }
    }
}

/// Runs `dash` on `at` until the moderator quits, the connection drops or the server
/// stops (`stopping` then resolves; held decisions follow the local hang-up rule before
/// this returns). `screen`: the dashboard opened on this connection already ([`open`]),
/// else it is opened here. Gives the dashboard back with how it ended.
pub(crate) async fn attach(
    shared: Arc<Shared>,
    mut dash: Box<Dash>,
    at: Attachment,
    screen: Option<Box<Screen>>,
) -> (Box<Dash>, Ending) {
    let Attachment {
        handle,
        channel,
        size,
        input,
        kicked,
    } = at;
    let Some(Screen {
        terminal: mut screen,
        packets,
        tx,
    }) = screen.map(|s| *s).or_else(|| open_here(&mut dash, size))
    else {
        return (dash, Ending::Detached);
    };
    let sender = send_packets(handle.clone(), channel, packets);
    let mut after = ChannelOut {
        buf: Vec::new(),
        tx,
    };
    let stopped = AtomicBool::new(false);
    let mut stop = shared.stop.clone();
    let stop = async {
        super::stopping(&mut stop).await;
        stopped.store(true, Ordering::SeqCst);
        EndedBy::ServerStopped
    };
    // No key for `idle_timeout`: the input ends as if the connection had dropped (the
    // dashboard waits for its key), and the client gets the reason below.
    let idle = shared.limits.idle_timeout;
    let idled = Arc::new(AtomicBool::new(false));
    // A kick ends the input as a hang-up would, and the client is told why below.
    let was_kicked = Arc::new(AtomicBool::new(false));
    let flag = was_kicked.clone();
    let kick = Box::pin(async move {
        kicked.notified().await;
        flag.store(true, Ordering::SeqCst);
    });
    let events = futures::StreamExt::take_until(until_idle(input, idle, idled.clone()), kick);
    let result = dash.run_opened(&mut screen, events, stop).await;
    let ending = if stopped.load(Ordering::SeqCst) || dash.dash.model.quitting {
        Ending::Over
    } else {
        if let Err(e) = &result {
            tracing::info!("a session's screen is gone: {e}");
        }
        Ending::Detached
    };
    if let Ok(mut slot) = dash.clipboard_to.lock() {
        *slot = None;
    }
    // The frames' writer goes with the terminal; every packet is handed over before the
    // channel closes.
    drop(screen);
    let idled = idled.load(Ordering::SeqCst);
    let was_kicked = was_kicked.load(Ordering::SeqCst);
    if ending == Ending::Over || idled || was_kicked {
        let _ = terminal::give_back(&mut after);
    }
    drop(after);
    let _ = sender.await;
    if stopped.load(Ordering::SeqCst) {
        refuse(&handle, channel, STOPPING_TEXT, 0).await;
    } else if ending == Ending::Over {
        close(&handle, channel, 0).await;
    } else if idled {
        refuse(&handle, channel, &idle_text(idle, shared.reattach), 0).await;
    } else if was_kicked {
        refuse(&handle, channel, KICKED_TEXT, 0).await;
    }
    (dash, ending)
}

/// The client's keys, ending as the connection's input ends or after `idle` without a key
/// (then `idled` is set).
fn until_idle(
    mut input: mpsc::UnboundedReceiver<io::Result<Event>>,
    idle: Duration,
    idled: Arc<AtomicBool>,
) -> impl futures::Stream<Item = io::Result<Event>> + Unpin {
    let mut deadline = Box::pin(tokio::time::sleep(idle));
    futures::stream::poll_fn(move |cx| match input.poll_recv(cx) {
        std::task::Poll::Ready(Some(ev)) => {
            deadline.as_mut().reset(tokio::time::Instant::now() + idle);
            std::task::Poll::Ready(Some(ev))
        }
        std::task::Poll::Ready(None) => std::task::Poll::Ready(None),
        std::task::Poll::Pending => match deadline.as_mut().poll(cx) {
            std::task::Poll::Ready(()) => {
                idled.store(true, Ordering::SeqCst);
                std::task::Poll::Ready(None)
            }
            std::task::Poll::Pending => std::task::Poll::Pending,
        },
    })
}

/// What a moderator's client is shown when the operator ends the connection
/// (`serve-ssh kick`); the dashboard waits for the key to come back, as after a hang-up.
pub(crate) const KICKED_TEXT: &str = "the server's operator ended this connection (serve-ssh kick); your dashboard waits for you as after a dropped connection";

/// What each moderator's client is shown when the server stops under it (`systemctl stop`,
/// a restart, an upgrade), after its held decisions were sent.
pub(crate) const STOPPING_TEXT: &str = "the server is stopping (its operator stopped, restarted or upgraded it): the decisions you held were sent and audited; your marks are not kept. Connect again in a minute with the same command; if nothing answers then, ask your operator";

/// What a client disconnected for want of keys is shown.
fn idle_text(idle: Duration, reattach: Duration) -> String {
    let span = |d: Duration| match d.as_secs() {
        s if s < 60 => format!("{s} s"),
        s => format!("{} min", s.div_ceil(60)),
    };
    format!(
        "no key for {}: disconnected. Your dashboard waits {} for you: connect again with the same key",
        span(idle),
        span(reattach)
    )
}

/// How a detached dashboard's run ended.
pub(crate) enum Detached {
    /// A connection of its key called it back: here it is.
    Back(Box<Dash>, oneshot::Sender<Box<Dash>>),
    /// The re-attach window passed or the server stops: it ended for good (the local
    /// hang-up rule ran: held decisions sent, answers awaited, the rest audited).
    Over,
}

/// Runs `dash` without a terminal while its connection is gone: answers are applied as
/// they come (and audited at once), lost answers are re-read, held decisions are sent when
/// their grace period ends, as on screen (drawn to nowhere). Ends when `wake` brings a
/// connection's call-back, when `window` passes or when the server stops.
pub(crate) async fn run_detached(
    shared: Arc<Shared>,
    mut dash: Box<Dash>,
    wake: oneshot::Receiver<oneshot::Sender<Box<Dash>>>,
    window: Duration,
) -> Detached {
    let mut terminal = match Terminal::new(LeanBackend::sized(io::sink(), dash.size.clone())) {
        Ok(t) => t,
        Err(e) => {
            tracing::error!("could not set up a detached session: {e}");
            dash.finish().await;
            return Detached::Over;
        }
    };
    let back = std::sync::Mutex::new(None);
    let events = Box::pin(
        futures::stream::once(async {
            if let Ok(tx) = wake.await
                && let Ok(mut slot) = back.lock()
            {
                *slot = Some(tx);
            }
        })
        .filter_map(|()| std::future::ready(None::<io::Result<Event>>)),
    );
    let mut stop = shared.stop.clone();
    let ended = AtomicBool::new(false);
    let stop = async {
        // The window passed: the client is gone for good, as a hang-up; else the server
        // stops.
        let ending = tokio::select! {
            _ = tokio::time::sleep(window) => EndedBy::HangUp,
            _ = super::stopping(&mut stop) => EndedBy::ServerStopped,
        };
        ended.store(true, Ordering::SeqCst);
        ending
    };
    // The start of a run (the size and layout applied, drawn to nowhere), then the loop.
    let result = match dash.open_loop(&mut terminal) {
        Ok(()) => dash.run_opened(&mut terminal, events, stop).await,
        Err(e) => Err(e),
    };
    if let Err(e) = result {
        tracing::warn!("a detached session's loop failed: {e}");
    }
    let back = back.lock().ok().and_then(|mut b| b.take());
    match back {
        Some(tx) if !ended.load(Ordering::SeqCst) => Detached::Back(dash, tx),
        _ => Detached::Over,
    }
}

/// Says `text` on the channel's standard error, ends it with `status` and closes it (a
/// refused request, a session that cannot start). The line ends as a terminal in raw mode
/// needs (`\r\n`); see [`refuse_command`] for a command's.
pub(crate) async fn refuse(handle: &Handle, channel: ChannelId, text: &str, status: u32) {
    refuse_command(handle, channel, text, status, true).await;
}

/// [`refuse`] for an exec request: its line ends in `\n` as the command line's own errors
/// do, unless the client asked for a terminal (`ssh -t`, raw mode: `\r\n`).
pub(crate) async fn refuse_command(
    handle: &Handle,
    channel: ChannelId,
    text: &str,
    status: u32,
    terminal: bool,
) {
    let end = if terminal { "\r\n" } else { "\n" };
    let line = format!("club-admin: {text}{end}");
    let _ = handle.extended_data(channel, 1, line.into_bytes()).await;
    close(handle, channel, status).await;
}

/// Ends the channel as a finished command does: its exit status, end of file, close.
pub(crate) async fn close(handle: &Handle, channel: ChannelId, status: u32) {
    let _ = handle.exit_status_request(channel, status).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}

/// The dashboards alive: how many per key and in all (attached or waiting), and those
/// waiting for their key to come back, newest last.
#[derive(Default)]
pub(crate) struct Registry {
    per_key: HashMap<String, usize>,
    total: usize,
    /// Commands running for exec requests (counted in `per_key` too, not in `total`).
    runs: usize,
    parked: HashMap<String, Vec<(u64, Wake)>>,
    next: u64,
}

/// How a detached dashboard is called back: the sender its runner answers on with the
/// dashboard.
pub(crate) type Wake = oneshot::Sender<oneshot::Sender<Box<Dash>>>;

/// What a new connection of a key gets.
pub(crate) enum Claim {
    /// Its dashboard, running detached: call it back with this.
    Again(Wake),
    /// A new one (counted already).
    New,
}

/// Why a session cannot start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// `--max-sessions` dashboards are alive.
    Total(usize),
    /// `--max-sessions-per-key` dashboards of this key are alive.
    PerKey(usize),
}

impl Registry {
    /// The key's newest waiting dashboard, else room for a new one within the limits.
    pub(crate) fn claim(
        &mut self,
        key: &str,
        max_total: usize,
        max_per_key: usize,
    ) -> Result<Claim, Full> {
        if let Some(list) = self.parked.get_mut(key)
            && let Some((_, wake)) = list.pop()
        {
            return Ok(Claim::Again(wake));
        }
        self.room(key, max_total, max_per_key)?;
        self.total += 1;
        Ok(Claim::New)
    }

    /// Room for a command an exec request runs for `key`: it counts against the key's
    /// sessions (`max_per_key`, beside its dashboards), and the commands and dashboards
    /// together against `max_total`.
    pub(crate) fn claim_run(
        &mut self,
        key: &str,
        max_total: usize,
        max_per_key: usize,
    ) -> Result<(), Full> {
        self.room(key, max_total, max_per_key)?;
        self.runs += 1;
        Ok(())
    }

    /// Room for one more dashboard or command of `key` within the limits: counted against
    /// the key's (the caller counts it in all, as a dashboard or a command).
    fn room(&mut self, key: &str, max_total: usize, max_per_key: usize) -> Result<(), Full> {
        if self.total + self.runs >= max_total {
            return Err(Full::Total(max_total));
        }
        let n = self.per_key.entry(key.to_owned()).or_default();
        if *n >= max_per_key {
            return Err(Full::PerKey(max_per_key));
        }
        *n += 1;
        Ok(())
    }

    /// A command is over: its place is free.
    pub(crate) fn release_run(&mut self, key: &str) {
        self.runs = self.runs.saturating_sub(1);
        self.release_key(key);
    }

    /// A dashboard is over: its place is free.
    pub(crate) fn release(&mut self, key: &str) {
        self.total = self.total.saturating_sub(1);
        self.release_key(key);
    }

    fn release_key(&mut self, key: &str) {
        if let Some(n) = self.per_key.get_mut(key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_key.remove(key);
            }
        }
    }

    /// Keeps the call-back of a detached dashboard of `key`; the number it is kept under
    /// (for [`Registry::unpark`]).
    pub(crate) fn park(&mut self, key: &str, wake: Wake) -> u64 {
        self.next += 1;
        let id = self.next;
        self.parked
            .entry(key.to_owned())
            .or_default()
            .push((id, wake));
        id
    }

    /// Forgets the call-back kept under `id` (its dashboard ended); false when a connection
    /// took it meanwhile.
    pub(crate) fn unpark(&mut self, key: &str, id: u64) -> bool {
        let Some(list) = self.parked.get_mut(key) else {
            return false;
        };
        let Some(pos) = list.iter().position(|(i, _)| *i == id) else {
            return false;
        };
        list.remove(pos);
        if list.is_empty() {
            self.parked.remove(key);
        }
        true
    }

    /// Dashboards alive (attached or waiting).
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// Commands running for exec requests.
    pub(crate) fn runs(&self) -> usize {
        self.runs
    }

    /// Dashboards whose connection is gone, waiting for their key.
    pub(crate) fn waiting(&self) -> usize {
        self.parked.values().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{Claim, Full, Registry};

    #[test]
    fn a_key_s_commands_count_against_its_sessions_beside_its_dashboards() {
        let mut r = Registry::default();
        assert!(matches!(r.claim("k", 10, 3), Ok(Claim::New)));
        assert_eq!(r.claim_run("k", 10, 3), Ok(()));
        assert_eq!(r.claim_run("k", 10, 3), Ok(()));
        assert_eq!(r.claim_run("k", 10, 3), Err(Full::PerKey(3)));
        assert!(matches!(r.claim("k", 10, 3), Err(Full::PerKey(3))));
        // Another key is not held back by them, and commands count in all too.
        assert_eq!(r.claim_run("j", 3, 3), Err(Full::Total(3)));
        r.release_run("k");
        assert_eq!(r.runs(), 1);
        assert_eq!(r.claim_run("j", 10, 3), Ok(()));
        r.release_run("k");
        r.release_run("j");
        r.release("k");
        assert_eq!((r.runs(), r.total()), (0, 0));
        assert!(matches!(r.claim("k", 1, 1), Ok(Claim::New)));
    }
}
