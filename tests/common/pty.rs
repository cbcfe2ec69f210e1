//! The one pseudo-terminal harness: a program in a pseudo-terminal, everything it writes kept
//! and read back through a terminal emulator (`vt100`). Used by the end-to-end tests
//! (through `tests/common`) and by `examples/pty_harness.rs` (through `#[path]`; an example
//! cannot see `tests/common`), so it knows no test-only path: the caller names the program.
//!
//! Waiting is event-driven: a reader thread appends the output and wakes the waiters, a
//! waiter thread reaps the child. Deadlines are only a guard against a hang, never what a
//! test measures.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use portable_pty::{
    ChildKiller, CommandBuilder, ExitStatus, MasterPty, PtySize, native_pty_system,
};

/// How long any wait may last before the test is declared hung.
pub const GUARD: Duration = Duration::from_secs(20);

/// What the reader and waiter threads share with the harness.
#[derive(Default)]
struct State {
    out: Vec<u8>,
    /// The program's side of the terminal is closed: no byte will follow.
    eof: bool,
    exit: Option<ExitStatus>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn update(&self, f: impl FnOnce(&mut State)) {
        f(&mut self.lock());
        self.changed.notify_all();
    }

    /// Waits until `f` gives a value, the state being re-read at every change; `None` once
    /// `limit` has passed.
    fn wait<T>(&self, limit: Duration, mut f: impl FnMut(&State) -> Option<T>) -> Option<T> {
        let deadline = Instant::now() + limit;
        let mut st = self.lock();
        loop {
            if let Some(v) = f(&st) {
                return Some(v);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            st = self
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// A program running in a pseudo-terminal.
pub struct Pty {
    shared: Arc<Shared>,
    writer: Box<dyn Write + Send>,
    master: Box<dyn MasterPty + Send>,
    killer: Box<dyn ChildKiller + Send + Sync>,
    pid: u32,
    size: (u16, u16),
    started: Instant,
    _dir: Option<tempfile::TempDir>,
}

/// `program` as the dashboard is started in a terminal: `TERM=xterm-256color`, its state
/// and configuration under `dir` (`dir/state`, `dir/config`), colours allowed.
pub fn command(program: impl AsRef<std::ffi::OsStr>, dir: &Path) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(program);
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_STATE_HOME", dir.join("state"));
    cmd.env("XDG_CONFIG_HOME", dir.join("config"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// The screen `bytes` draw on a `rows` x `cols` terminal.
pub fn parse(bytes: &[u8], rows: u16, cols: u16) -> vt100::Parser {
    let size = |n: u16| std::num::NonZero::new(n.max(1)).unwrap_or(std::num::NonZero::<u16>::MIN);
    let mut p = vt100::Parser::new(size(rows), size(cols), 0);
    p.process(bytes);
    p
}

impl Pty {
    /// Starts `cmd` in a new `rows` x `cols` pseudo-terminal.
    pub fn spawn(cmd: CommandBuilder, rows: u16, cols: u16) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("openpty");
        let started = Instant::now();
        let mut child = pair.slave.spawn_command(cmd).expect("spawn in the pty");
        drop(pair.slave);
        let pid = child.process_id().expect("pid");
        let killer = child.clone_killer();
        let shared = Arc::new(Shared::default());
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let sink = shared.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            // A read error is the end too: Linux answers EIO once the last slave is closed.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.update(|s| s.out.extend_from_slice(&buf[..n]));
            }
            sink.update(|s| s.eof = true);
        });
        let reaper = shared.clone();
        std::thread::spawn(move || {
            if let Ok(st) = child.wait() {
                reaper.update(|s| s.exit = Some(st));
            }
        });
        let writer = pair.master.take_writer().expect("pty writer");
        Pty {
            shared,
            writer,
            master: pair.master,
            killer,
            pid,
            size: (rows, cols),
            started,
            _dir: None,
        }
    }

    /// Keeps `dir` (removed with the session).
    pub fn owning(mut self, dir: tempfile::TempDir) -> Pty {
        self._dir = Some(dir);
        self
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn started(&self) -> Instant {
        self.started
    }

    pub fn master(&self) -> &dyn MasterPty {
        self.master.as_ref()
    }

    /// Everything written so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.shared.lock().out.clone()
    }

    /// How many bytes were written so far.
    pub fn len(&self) -> usize {
        self.shared.lock().out.len()
    }

    /// The terminal emulator after everything written so far, at the terminal's size.
    pub fn parser(&self) -> vt100::Parser {
        parse(&self.shared.lock().out, self.size.0, self.size.1)
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.parser().screen().contents()
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write to the pty");
        self.writer.flush().expect("flush the pty");
    }

    /// Resizes the terminal (the program gets SIGWINCH); the screen is read at the new size.
    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize");
        self.size = (rows, cols);
    }

    /// Waits until the screen satisfies `pred` and returns it; `None` after `limit`, or
    /// once the program's output has ended without it.
    pub fn wait_within(&self, limit: Duration, pred: impl Fn(&str) -> bool) -> Option<String> {
        let (rows, cols) = self.size;
        let mut seen = None;
        self.shared
            .wait(limit, |st| {
                if seen == Some(st.out.len()) {
                    return None;
                }
                seen = Some(st.out.len());
                let s = parse(&st.out, rows, cols).screen().contents();
                if pred(&s) {
                    Some(Some(s))
                } else if st.eof {
                    Some(None)
                } else {
                    None
                }
            })
            .flatten()
    }

    /// Waits until the screen satisfies `pred` and returns it; fails the test, with the
    /// screen, when it does not come within [`GUARD`] or the output ends first.
    pub fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        match self.wait_within(GUARD, pred) {
            Some(s) => s,
            None => panic!(
                "never saw {what} ({}); screen:\n{}",
                if self.shared.lock().eof {
                    "the output ended"
                } else {
                    "guard against hangs expired"
                },
                self.screen()
            ),
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for_text(&self, text: &str) -> String {
        self.wait_for(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until nothing has been written for `quiet` (at most `limit` in all); false
    /// if the output never went quiet.
    pub fn quiesce(&self, quiet: Duration, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let len = self.len();
            let moved = self
                .shared
                .wait(quiet, |st| (st.out.len() != len || st.eof).then_some(()));
            match moved {
                None => return true,
                Some(()) if self.shared.lock().eof => return true,
                Some(()) if Instant::now() >= deadline => return false,
                Some(()) => {}
            }
        }
    }

    /// The exit status, if the program has exited.
    pub fn exited(&self) -> Option<ExitStatus> {
        self.shared.lock().exit.clone()
    }

    /// Waits (at most `limit`) for the program to exit, then for everything it wrote to be
    /// read: until the terminal's end is seen (at most 2 s more: a descriptor of the
    /// terminal inherited by another process would hold it open).
    pub fn wait_exit_within(&self, limit: Duration) -> Option<ExitStatus> {
        let st = self.shared.wait(limit, |st| st.exit.clone())?;
        self.shared
            .wait(Duration::from_secs(2), |st| st.eof.then_some(()));
        Some(st)
    }

    /// Waits for the program to exit and everything it wrote to be read; fails the test,
    /// with the screen, after [`GUARD`].
    pub fn wait_exit(&self) -> ExitStatus {
        match self.wait_exit_within(GUARD) {
            Some(st) => st,
            None => panic!(
                "did not exit (guard against hangs: {GUARD:?}); screen:\n{}",
                self.screen()
            ),
        }
    }

    pub fn kill(&mut self) {
        let _ = self.killer.kill();
    }
}

impl Drop for Pty {
    /// A session a failed test leaves behind does not outlive it.
    fn drop(&mut self) {
        if self.exited().is_none() {
            let _ = self.killer.kill();
        }
    }
}
