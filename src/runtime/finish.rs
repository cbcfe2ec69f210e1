//! The dashboard's end when its terminal is gone or going: on a hang-up or SIGTERM
//! ([`on_signal`]), and for a `serve-ssh` dashboard whose connection is gone for good
//! ([`detached`]). A bulk in progress stops: writes not yet on the wire are not sent (as
//! Ctrl-C stops the command line's run); held decisions are sent (the moderator meant them),
//! answers are awaited for a while, and what is still unanswered is audited `unknown`.

use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::Backend;
use tokio::sync::mpsc;

use super::effects::{Runner, Screen};
use super::event_loop::{Channels, Clock, LoopOptions, apply_on};
use crate::app::{EndedBy, Model, Msg};

/// The end on a hang-up, SIGTERM or the server's stop (`ending`): held decisions are sent at
/// once (the moderator meant them; [`Msg::Flush`]), answers are applied until no write is
/// pending or `wait` passes,
/// then [`Msg::Stop`] audits what is still unanswered as `unknown`. Nothing is drawn: the
/// terminal may be gone.
pub(super) async fn on_signal<B: Backend>(
    terminal: &mut Terminal<B>,
    real: bool,
    model: &mut Model,
    runner: &mut Runner,
    msg_tx: &mpsc::UnboundedSender<Msg>,
    msg_rx: &mut mpsc::UnboundedReceiver<Msg>,
    (wait, ending): (Duration, EndedBy),
) {
    let mut screen = super::terminal::TermScreen { terminal, real };
    let clock = &Clock::system();
    let channels = Channels {
        tx: msg_tx,
        rx: msg_rx,
    };
    finish(&mut screen, clock, model, runner, channels, (wait, ending)).await;
}

/// [`on_signal`] on any [`Screen`], the time read from `clock`; answers awaited for `wait`,
/// the writes kept from leaving audited with `ending`'s why.
async fn finish<Sc: Screen>(
    screen: &mut Sc,
    clock: &Clock,
    model: &mut Model,
    runner: &mut Runner,
    channels: Channels<'_>,
    (wait, ending): (Duration, EndedBy),
) {
    let (msg_tx, msg_rx) = (channels.tx, channels.rx);
    let deadline = tokio::time::Instant::now() + wait;
    // A bulk in progress ends as Ctrl-C ends the command line's: what is not on the wire
    // yet is not sent. Then the held decisions go (the moderator meant them).
    runner.stop_writes(match ending {
        EndedBy::HangUp => crate::api::error::why::DASHBOARD_ENDING,
        EndedBy::ServerStopped => crate::api::error::why::SERVER_STOPPED,
    });
    apply_on(screen, clock, model, runner, [Msg::Flush(ending)], msg_tx);
    // Each answer, and the end, at the time it comes: its audit line carries that time.
    while model.writes_pending() > 0 {
        match tokio::time::timeout_at(deadline, msg_rx.recv()).await {
            Ok(Some(m)) => {
                let now = Msg::Tick(clock.now());
                apply_on(screen, clock, model, runner, [now, m], msg_tx);
            }
            Ok(None) | Err(_) => break,
        }
    }
    let now = Msg::Tick(clock.now());
    apply_on(screen, clock, model, runner, [now, Msg::Stop], msg_tx);
    runner.flush_save();
    runner.written().await;
}

/// A screen that is not there (a `serve-ssh` dashboard whose connection is gone).
struct NoScreen;

impl Screen for NoScreen {
    fn redraw(&mut self) {}
    fn set_mouse(&mut self, _on: bool) {}
    fn copy(&mut self, _text: &str) {}
}

/// The end for good of a dashboard that has no terminal any more (a `serve-ssh` session
/// whose re-attach window passed, or whose server stops while it is detached): the same
/// rule as a hang-up of the local dashboard. The answers that came in meanwhile are
/// applied first; then held decisions are sent at once ([`Msg::Flush`]), answers are applied
/// until no write is pending or `opts.final_wait` passes, and [`Msg::Stop`] audits what is
/// still unanswered as `unknown`. The time is read from `opts.clock`; `ending` says why it
/// ends.
pub async fn detached(
    model: &mut Model,
    runner: &mut Runner,
    opts: &LoopOptions,
    channels: Channels<'_>,
    ending: EndedBy,
) {
    let wait = opts.final_wait;
    let mut screen = NoScreen;
    let mut waiting = Vec::new();
    while let Ok(m) = channels.rx.try_recv() {
        waiting.push(m);
    }
    let now = Msg::Tick(opts.clock.now());
    let msgs = std::iter::once(now).chain(waiting);
    apply_on(&mut screen, &opts.clock, model, runner, msgs, channels.tx);
    let clock = &opts.clock;
    finish(&mut screen, clock, model, runner, channels, (wait, ending)).await;
}
