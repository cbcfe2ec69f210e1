//! The standard streams of a scripting run. Whoever starts the run hands them in
//! ([`super::run`]): the command line the process's own ([`Process`]), `serve-ssh` an SSH
//! channel's (`ssh/streams.rs`). The subcommands reach them through [`streams`], never the
//! process's own, so a command prints the same bytes wherever it runs.

use std::future::Future;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::Arc;

use futures::future::BoxFuture;

/// What a run reads, writes and is interrupted through, and how it ends early. The waits
/// return a boxed future so that the run can hold any implementation as `dyn Streams`.
pub trait Streams: Send + Sync {
    /// Writes `bytes` to standard output and flushes it.
    ///
    /// Errors: the write failed; a reader that is gone is [`io::ErrorKind::BrokenPipe`].
    fn write_out(&self, bytes: &[u8]) -> io::Result<()>;
    /// Writes `text` to standard error as it is; a closed standard error is ignored.
    fn write_err(&self, text: &[u8]);
    /// Whether standard input, output and error are each a terminal: `[stdin, stdout, stderr]`.
    fn terminals(&self) -> [bool; 3];
    /// The width in cells a table must fit, when it is known.
    fn terminal_width(&self) -> Option<usize>;
    /// True when a progress bar may be drawn on standard error.
    fn draws_progress(&self) -> bool;
    /// True when the reader can press Ctrl-C to interrupt the run.
    fn can_press_ctrl_c(&self) -> bool;
    /// True when the reader of standard output is gone (a `| head -1` that has ended).
    fn reader_gone(&self) -> bool;
    /// Standard input, chunk by chunk, handed to `each` until the input ends or `each`
    /// returns false (then nothing more is read).
    ///
    /// Errors: the input could not be read, or was cut off before its end.
    fn read_chunks<'a>(
        &'a self,
        each: &'a mut (dyn FnMut(&[u8]) -> bool + Send),
    ) -> BoxFuture<'a, io::Result<()>>;
    /// One line of standard input without its end; empty at the end of input.
    fn read_line(&self) -> BoxFuture<'_, String>;
    /// Waits for the interruption after the first `seen` ones; false when none can come.
    fn interrupted(&self, seen: u8) -> BoxFuture<'_, bool>;
    /// True when the interruption is the server's time limit (a command over SSH), not a
    /// Ctrl-C: the server says so and chooses the exit code; the run says no Ctrl-C words.
    fn past_time_limit(&self) -> bool {
        false
    }
    /// Ends the run now with exit code `code`. The caller does nothing after it: the
    /// process's streams exit the process; an SSH channel's end the run's task and close
    /// the channel with the code.
    fn leave(&self, code: u8);
}

/// The process's own standard streams: a run of the command line.
pub struct Process;

impl Streams for Process {
    fn write_out(&self, bytes: &[u8]) -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(bytes).and_then(|()| out.flush())
    }

    fn write_err(&self, text: &[u8]) {
        let mut err = io::stderr().lock();
        let _ = err.write_all(text);
        let _ = err.flush();
    }

    fn terminals(&self) -> [bool; 3] {
        [
            io::stdin().is_terminal(),
            io::stdout().is_terminal(),
            io::stderr().is_terminal(),
        ]
    }

    /// The terminal's width (standard output's, or the controlling terminal's when
    /// `--table` goes into a pipe), else `$COLUMNS`.
    fn terminal_width(&self) -> Option<usize> {
        crossterm::terminal::size()
            .ok()
            .map(|(w, _)| w as usize)
            .filter(|w| *w > 0)
            .or_else(|| {
                std::env::var("COLUMNS")
                    .ok()
                    .and_then(|c| c.trim().parse::<usize>().ok())
                    .filter(|w| *w > 0)
            })
    }

    fn draws_progress(&self) -> bool {
        io::stderr().is_terminal()
    }

    /// Always: the terminal sends the signal.
    fn can_press_ctrl_c(&self) -> bool {
        true
    }

    /// Standard output is a pipe or socket whose reader has closed it.
    fn reader_gone(&self) -> bool {
        let mut p = libc::pollfd {
            fd: 1,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd, a zero timeout: poll only reads the descriptor's state.
        let r = unsafe { libc::poll(&mut p, 1, 0) };
        r > 0 && p.revents & (libc::POLLERR | libc::POLLHUP) != 0
    }

    fn read_chunks<'a>(
        &'a self,
        each: &'a mut (dyn FnMut(&[u8]) -> bool + Send),
    ) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let mut stdin = io::stdin().lock();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let n = match stdin.read(&mut buf) {
                    Ok(0) => return Ok(()),
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if !each(&buf[..n]) {
                    return Ok(());
                }
            }
        })
    }

    fn read_line(&self) -> BoxFuture<'_, String> {
        Box::pin(async {
            let mut answer = String::new();
            let _ = io::stdin().lock().read_line(&mut answer);
            answer.trim_end_matches(['\r', '\n']).to_owned()
        })
    }

    /// The next Ctrl-C (a signal counts once, whatever came before).
    fn interrupted(&self, _seen: u8) -> BoxFuture<'_, bool> {
        Box::pin(async { tokio::signal::ctrl_c().await.is_ok() })
    }

    fn leave(&self, code: u8) {
        std::process::exit(i32::from(code))
    }
}

tokio::task_local! {
    static STREAMS: Arc<dyn Streams>;
}

/// The streams of this task's run; the process's outside any run (the command line's own
/// messages before a run starts).
pub fn streams() -> Arc<dyn Streams> {
    STREAMS
        .try_with(Arc::clone)
        .unwrap_or_else(|_| Arc::new(Process))
}

/// Runs `fut` with the streams `streams`.
pub async fn scoped<F: Future>(streams: Arc<dyn Streams>, fut: F) -> F::Output {
    STREAMS.scope(streams, fut).await
}

/// `tokio::spawn` of a task of this run: the task keeps the run's streams.
pub fn spawn<F>(fut: F) -> tokio::task::JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    tokio::spawn(STREAMS.scope(streams(), fut))
}

/// The interruptions of a run: Ctrl-C, or what the streams' owner counts as one
/// ([`Streams::interrupted`]).
#[derive(Debug, Default)]
pub struct Interrupts {
    seen: u8,
}

impl Interrupts {
    /// Waits for the next interruption; false when none can come.
    pub async fn next(&mut self) -> bool {
        let more = streams().interrupted(self.seen).await;
        self.seen = self.seen.saturating_add(u8::from(more));
        more
    }
}
