//! The real event loop, `runtime::event_loop::EventLoop`, driven in-process: a
//! `TestBackend` for the terminal (every frame it flushes is told to the test), a scripted
//! stream of crossterm events for the keyboard, a `stop` future for the signals, the real
//! runner, worker and client against the demo server, and a wall clock the test moves
//! (`LoopOptions::clock`), so a grace period passes without being waited for. Keys in;
//! frames, server writes, audit lines and the saved queue out; `q` ends the loop.

use std::io;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::{Backend, ClearType, TestBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use tokio::sync::{mpsc, oneshot, watch};

use club_admin::api::{ApiClient, ClientOptions, Credentials, MembershipStatus};
use club_admin::app::{AuditEntry, Model, ModelOptions};
use club_admin::demo::{self, DemoHandle, DemoOptions};
use club_admin::runtime::build::{Builder, Dashboard};
use club_admin::runtime::effects::{Files, Runner};
use club_admin::runtime::event_loop::{Channels, Clock, EventLoop, LoopOptions};

use crate::common::buffer_text;

/// How long any wait may last before the test is declared hung.
const GUARD: Duration = Duration::from_secs(20);

/// The terminal: a `TestBackend` the test shares with the loop; every flush is a frame the
/// test is told of.
#[derive(Clone)]
struct Screen {
    backend: Arc<Mutex<TestBackend>>,
    frames: Arc<watch::Sender<u64>>,
}

impl Screen {
    fn new(width: u16, height: u16) -> Screen {
        Screen {
            backend: Arc::new(Mutex::new(TestBackend::new(width, height))),
            frames: Arc::new(watch::channel(0).0),
        }
    }

    fn backend(&self) -> MutexGuard<'_, TestBackend> {
        self.backend.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The last frame's text, one line per row.
    fn text(&self) -> String {
        buffer_text(self.backend().buffer())
    }

    /// Waits for a frame that satisfies `pred` (the last one first) and returns its text.
    async fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let mut rx = self.frames.subscribe();
        let found = tokio::time::timeout(GUARD, async {
            loop {
                let text = self.text();
                if pred(&text) {
                    return text;
                }
                if rx.changed().await.is_err() {
                    return String::new();
                }
            }
        })
        .await;
        match found {
            Ok(text) if pred(&text) => text,
            _ => panic!("never drawn: {what}; last frame:\n{}", self.text()),
        }
    }
}

impl Backend for Screen {
    type Error = std::convert::Infallible;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.backend().draw(content)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.backend().hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.backend().show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.backend().get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.backend().set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.backend().clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.backend().clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.backend().size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.backend().window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.backend().flush()?;
        self.frames.send_modify(|n| *n += 1);
        Ok(())
    }
}

/// A wall clock that moves only when the test moves it.
#[derive(Clone)]
struct TestClock {
    start: DateTime<Utc>,
    millis: Arc<AtomicI64>,
}

impl TestClock {
    fn new() -> TestClock {
        TestClock {
            start: Utc::now(),
            millis: Arc::new(AtomicI64::new(0)),
        }
    }

    fn now(&self) -> DateTime<Utc> {
        self.start + chrono::Duration::milliseconds(self.millis.load(Ordering::SeqCst))
    }

    fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).expect("millis");
        self.millis.fetch_add(ms, Ordering::SeqCst);
    }

    fn clock(&self) -> Clock {
        let c = self.clone();
        Clock::new(move || c.now())
    }
}

/// Everything `run_loop` takes, for the demo's moderator, with a grace period of 5 s.
struct Rig {
    d: DemoHandle,
    model: Model,
    runner: Runner,
    opts: LoopOptions,
    clock: TestClock,
    screen: Screen,
    terminal: ratatui::Terminal<Screen>,
    msg_tx: mpsc::UnboundedSender<club_admin::app::Msg>,
    /// Taken by the loop.
    msg_rx: Option<mpsc::UnboundedReceiver<club_admin::app::Msg>>,
    dir: tempfile::TempDir,
}

impl Rig {
    async fn new() -> Rig {
        let d = demo::start(DemoOptions::default()).await.expect("demo");
        let u = d.moderator().clone();
        let client = ApiClient::new(
            &d.base_url,
            Credentials::new(Some(u.api_key), Some(u.token)),
            ClientOptions {
                get_retries: 0,
                ..ClientOptions::default()
            },
        )
        .expect("client");
        let clock = TestClock::new();
        let model = Model::new(ModelOptions {
            now: clock.now(),
            server_key: Some("demo".into()),
            decision_delay: Duration::from_secs(5),
            ..ModelOptions::new(&d.base_url)
        });
        let opts = LoopOptions {
            auto_refresh: None,
            refresh_clock: None,
            spinners: None,
            theme: club_admin::ui::Theme::new(false),
            real_terminal: false,
            final_wait: Duration::from_secs(10),
            clock: clock.clock(),
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let files = Files {
            token_path: None,
            audit_path: Some(dir.path().join("audit.jsonl")),
            queue_path: Some(dir.path().join("queue.json")),
            recent: None,
        };
        let Dashboard {
            model,
            runner,
            tx: msg_tx,
            rx: msg_rx,
            opts,
        } = Builder::new(model, client, 4)
            .files(files)
            .loop_options(opts)
            .build();
        let screen = Screen::new(120, 40);
        let terminal = ratatui::Terminal::new(screen.clone()).expect("terminal");
        Rig {
            d,
            model,
            runner,
            opts,
            clock,
            screen,
            terminal,
            msg_tx,
            msg_rx: Some(msg_rx),
            dir,
        }
    }

    fn audit(&self) -> Vec<AuditEntry> {
        crate::common::outcomes_of(
            std::fs::read_to_string(self.dir.path().join("audit.jsonl"))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).expect("audit line"))
                .collect(),
        )
    }
}

/// The keyboard: key presses in the order the test sends them.
type Keys = futures::channel::mpsc::UnboundedSender<io::Result<Event>>;

fn press(keys: &Keys, code: KeyCode) {
    let ev = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
    keys.unbounded_send(Ok(ev)).expect("the loop reads keys");
}

/// `text` typed, `\r` as Enter.
fn typed(keys: &Keys, text: &str) {
    for c in text.chars() {
        press(
            keys,
            if c == '\r' {
                KeyCode::Enter
            } else {
                KeyCode::Char(c)
            },
        );
    }
}

/// A field of the detail pane ("id", "student", ...) as drawn.
fn detail(frame: &str, field: &str) -> String {
    frame
        .lines()
        .find_map(|l| {
            l.split('│').find_map(|cell| {
                let mut words = cell.split_whitespace();
                (words.next() == Some(field)).then(|| words.next().unwrap_or_default().to_owned())
            })
        })
        .unwrap_or_default()
}

/// The student numbers on the queue's rows, top to bottom.
fn queue_students(frame: &str) -> Vec<String> {
    frame
        .lines()
        .filter_map(|l| l.split('│').nth(1))
        .filter_map(|cell| cell.split_whitespace().find(|w| w.starts_with('#')))
        .map(str::to_owned)
        .collect()
}

/// The id of the one write the demo received, and its verb.
fn the_write(d: &DemoHandle) -> (uuid::Uuid, String) {
    let muts = d.mutations();
    assert_eq!(muts.len(), 1, "{muts:?}");
    let mut words = muts[0].split_whitespace();
    assert_eq!(words.next(), Some("update"), "{muts:?}");
    let id = words
        .next()
        .and_then(|w| w.parse().ok())
        .expect("request id");
    (id, words.next().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn keys_in_frames_and_writes_out_the_grace_period_on_a_moved_clock_and_q_ends_the_loop() {
    let mut r = Rig::new().await;
    let (keys, events) = futures::channel::mpsc::unbounded();
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let (screen, d, clock) = (r.screen.clone(), &r.d, r.clock.clone());
    let pending_before = d.pending_for("moderator").len();

    let script = async {
        let first = screen
            .wait_for("the moderator's queue", |t| t.contains("server: "))
            .await;
        assert!(first.contains("ton.jaidee@"), "{first}");
        assert!(!first.contains("z undo"), "{first}");
        let rows = queue_students(&first);
        assert!(rows.len() > 20, "{first}");
        assert_eq!(detail(&first, "student"), rows[0], "{first}");
        // `j` moves the cursor: the detail pane follows it to the second request.
        press(&keys, KeyCode::Char('j'));
        let moved = screen
            .wait_for("the detail of the second request", |t| {
                detail(t, "student") == rows[1]
            })
            .await;
        let selected: uuid::Uuid = detail(&moved, "id").parse().expect("the request's id");
        // `a`: held for the grace period. Nothing reaches the server while the clock
        // stands still, however many frames the countdown draws.
        press(&keys, KeyCode::Char('a'));
        let held = screen
            .wait_for("the countdown", |t| {
                t.contains("approving 5 s") && t.contains("z undo")
            })
            .await;
        assert!(held.contains(&format!("approving {}", rows[1])), "{held}");
        assert!(d.mutations().is_empty(), "{:?}", d.mutations());
        // Four seconds later by the loop's clock: its ticks count down, nothing is sent.
        clock.advance(Duration::from_secs(4));
        screen
            .wait_for("the countdown at 1 s", |t| {
                t.contains("approving 1 s") && t.contains("z undo")
            })
            .await;
        assert!(d.mutations().is_empty(), "sent before its time");
        // The grace period ends: the loop's next tick sends it, with no key pressed.
        clock.advance(Duration::from_secs(1));
        let done = screen
            .wait_for("the approval answered", |t| {
                t.contains(": approved") && !t.contains("z undo")
            })
            .await;
        let (id, verb) = the_write(d);
        assert_eq!(verb, "approved");
        assert_eq!(id, selected, "the request under the cursor");
        assert_eq!(d.request_status(id), Some(MembershipStatus::Approved));
        assert_eq!(d.pending_for("moderator").len(), pending_before - 1);
        assert!(done.contains("ton.jaidee@"), "{done}");
        // A filter typed just before quitting is saved on the way out.
        typed(&keys, ":filter chess\r");
        screen
            .wait_for("the filter in the queue's title", |t| t.contains("/chess"))
            .await;
        press(&keys, KeyCode::Char('q'));
        id
    };
    let tx = r.msg_tx.clone();
    let mut rx = r.msg_rx.take().expect("the receiver");
    let channels = Channels {
        tx: &tx,
        rx: &mut rx,
    };
    let looped = EventLoop::new(
        &mut r.terminal,
        &mut r.model,
        &mut r.runner,
        &r.opts,
        channels,
    )
    .run(
        events,
        Vec::new(),
        async {
            let _ = stop_rx.await;
            club_admin::app::EndedBy::HangUp
        },
        true,
    );
    let (result, id) = tokio::time::timeout(3 * GUARD, async { tokio::join!(looped, script) })
        .await
        .expect("the loop ended after q");
    result.expect("the loop ran without an error");
    drop(stop_tx);

    // Effects out: one audit line, the saved queue written on the way out.
    assert!(r.model.quitting());
    let audit = r.audit();
    assert_eq!(audit.len(), 1, "{audit:?}");
    assert_eq!(audit[0].action, "approve");
    assert_eq!(audit[0].target, id);
    assert_eq!(audit[0].outcome.as_str(), "ok");
    let saved = std::fs::read_to_string(r.dir.path().join("queue.json")).expect("saved queue");
    let saved: serde_json::Value = serde_json::from_str(&saved).expect("json");
    assert_eq!(saved["filter"], "chess", "{saved}");
    assert_eq!(saved["server"], "demo", "{saved}");
}

/// A hang-up or SIGTERM (the `stop` future) while a decision is held: it is sent at once,
/// its answer awaited and audited, and the loop ends without a key.
#[tokio::test]
async fn a_signal_sends_the_held_decision_and_ends_the_loop_once_answered() {
    let mut r = Rig::new().await;
    let (keys, events) = futures::channel::mpsc::unbounded();
    let (stop_tx, stop_rx) = oneshot::channel::<()>();
    let (screen, d) = (r.screen.clone(), &r.d);

    let script = async {
        screen
            .wait_for("the moderator's queue", |t| t.contains("server: "))
            .await;
        press(&keys, KeyCode::Char('a'));
        screen
            .wait_for("the countdown", |t| t.contains("z undo"))
            .await;
        assert!(d.mutations().is_empty());
        stop_tx.send(()).expect("the loop waits for a signal");
    };
    let tx = r.msg_tx.clone();
    let mut rx = r.msg_rx.take().expect("the receiver");
    let channels = Channels {
        tx: &tx,
        rx: &mut rx,
    };
    let looped = EventLoop::new(
        &mut r.terminal,
        &mut r.model,
        &mut r.runner,
        &r.opts,
        channels,
    )
    .run(
        events,
        Vec::new(),
        async {
            let _ = stop_rx.await;
            club_admin::app::EndedBy::HangUp
        },
        true,
    );
    let (result, ()) = tokio::time::timeout(3 * GUARD, async { tokio::join!(looped, script) })
        .await
        .expect("the loop ended after the signal");
    result.expect("the loop ran without an error");
    drop(keys);

    let (id, verb) = the_write(d);
    assert_eq!(verb, "approved");
    let audit = r.audit();
    assert_eq!(audit.len(), 1, "{audit:?}");
    assert_eq!(audit[0].target, id);
    assert_eq!(audit[0].outcome.as_str(), "ok", "the answer was awaited");
    assert!(r.model.held().is_empty());
}

/// The terminal resized (the event, and the backend's new size): the next frame is drawn
/// whole at the new size; the end of the input ends the loop.
#[tokio::test]
async fn a_resize_redraws_at_the_new_size_and_the_end_of_input_ends_the_loop() {
    let mut r = Rig::new().await;
    let (keys, events) = futures::channel::mpsc::unbounded();
    let (_stop_tx, stop_rx) = oneshot::channel::<()>();
    let screen = r.screen.clone();

    let script = async {
        let wide = screen
            .wait_for("the moderator's queue", |t| t.contains("server: "))
            .await;
        assert_eq!(wide.lines().count(), 40);
        screen.backend().resize(80, 24);
        keys.unbounded_send(Ok(Event::Resize(80, 24)))
            .expect("the loop reads events");
        let narrow = screen
            .wait_for("the queue at 80x24", |t| {
                t.lines().count() == 24 && t.contains("server: ")
            })
            .await;
        assert!(
            narrow.lines().all(|l| club_admin::text::width(l) <= 80),
            "{narrow}"
        );
        // The keyboard goes away (the terminal closed under the program): the loop ends.
        keys.close_channel();
    };
    let tx = r.msg_tx.clone();
    let mut rx = r.msg_rx.take().expect("the receiver");
    let channels = Channels {
        tx: &tx,
        rx: &mut rx,
    };
    let looped = EventLoop::new(
        &mut r.terminal,
        &mut r.model,
        &mut r.runner,
        &r.opts,
        channels,
    )
    .run(
        events,
        Vec::new(),
        async {
            let _ = stop_rx.await;
            club_admin::app::EndedBy::HangUp
        },
        true,
    );
    let (result, ()) = tokio::time::timeout(3 * GUARD, async { tokio::join!(looped, script) })
        .await
        .expect("the loop ended with its input");
    result.expect("the loop ran without an error");
    assert!(r.d.mutations().is_empty());
}
