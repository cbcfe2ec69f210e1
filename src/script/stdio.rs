//! The standard streams of a scripting run: the process's own, or an SSH channel's when
//! `serve-ssh` runs the subcommand for a client (`ssh -p 2222 HOST requests list`).
//!
//! A run of the command line reads and writes the process's standard streams and leaves on a
//! second Ctrl-C; a run over SSH ([`Remote`], set for the run's task by [`scoped`]) writes
//! its standard output and standard error to the channel (in the client's order), reads the
//! client's standard input from it, is interrupted by the client's hang-up or the
//! operator's time limit instead of a signal, and ends its own task, never the server's
//! process, where the command line would leave ([`leave`]). The subcommands call the
//! functions here and never the process's streams, so the two faces print the same bytes.

use std::future::Future;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::Arc;

use tokio::sync::{mpsc, watch};

use crate::api::ApiClient;
use crate::config::Settings;
use crate::ops::audit::AfterWrite;

/// The most of standard input the server passes on to a run over SSH (16 MiB), whatever
/// the run's own bound ([`crate::ops::parse::IdStream`]), which stops it far sooner.
pub const INPUT_LIMIT: usize = 16 * 1024 * 1024;

/// What a run over SSH writes: a chunk of standard output or of standard error, in the
/// order written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Bytes of standard output.
    Out(Vec<u8>),
    /// Bytes of standard error (the channel's extended data, type 1).
    Err(Vec<u8>),
}

/// What the host lends a run over SSH in place of the command line's configuration: the
/// server's settings and a client with the key's token, and who the audit names.
pub struct HostRun {
    /// The server's settings (its state folder, so its audit; read-only; concurrency).
    pub settings: Settings,
    /// A client of the server's (its limiter, host budget and API key) with the key's
    /// token, when there is one.
    pub client: ApiClient,
    /// True when the client carries a token (remembered for the key, or sent by the SSH
    /// client as `CLUB_ADMIN_TOKEN`).
    pub has_token: bool,
    /// The SSH key's fingerprint (`SHA256:...`), stamped on the run's audit lines.
    pub key: String,
    /// The key's comment in the authorized keys file, stamped beside it.
    pub key_comment: Option<String>,
    /// Told each audit line once it is in the file (the server's live dashboards hear it).
    pub after_write: Option<AfterWrite>,
    /// How to sign in, said when the run has no token or its token is refused ("open the
    /// dashboard once: ssh -p 2222 HOST, then S").
    pub sign_in: String,
    /// The run's own id in the audit ([`crate::ops::audit::AuditLog::run`]), its lock
    /// held by the server while the run lives.
    pub run: String,
    /// The host audit's open writes as the server last read them: a run settles an ended
    /// run's open writes before its own, as the command line does, without parsing the
    /// whole audit again.
    pub open_writes: Arc<crate::ops::recover::OpenWrites>,
}

/// The streams of one run over SSH. Made by the server for each exec request; the run
/// reads it through this module's functions.
pub struct Remote {
    sink: mpsc::UnboundedSender<Chunk>,
    input: tokio::sync::Mutex<mpsc::UnboundedReceiver<Vec<u8>>>,
    /// The client's terminal width when it asked for one (`ssh -t`), else `None`.
    terminal: Option<u16>,
    interrupts: watch::Receiver<u8>,
    leave: watch::Sender<Option<u8>>,
    /// The host's part of the run.
    pub host: HostRun,
}

/// The server's ends of a [`Remote`]: what the run wrote, how to interrupt it, and the exit
/// code it asked to leave with ([`leave`]).
pub struct RemoteEnds {
    /// The run's output, in order; closed when the run and its tasks are over.
    pub output: mpsc::UnboundedReceiver<Chunk>,
    /// The client's bytes to the run's standard input (take it). At the client's end of
    /// file send an empty chunk, then drop it; dropped without that empty chunk (the client
    /// hung up), the input is broken: the run reads an error, not a shorter input.
    pub input: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// Raise to 1 to interrupt the run as a first Ctrl-C does (nothing more is sent), to 2
    /// as a second one (stop waiting for answers in flight).
    pub interrupt: watch::Sender<u8>,
    /// The code the run asked to leave with, before its end (its task should then be
    /// dropped, as the command line's process would exit).
    pub left: watch::Receiver<Option<u8>>,
}

impl Remote {
    /// The streams of a run for `host`, with a terminal `terminal` columns wide when the
    /// client asked for one; and the server's ends of them.
    pub fn new(host: HostRun, terminal: Option<u16>) -> (Arc<Remote>, RemoteEnds) {
        let (sink, output) = mpsc::unbounded_channel();
        let (input_tx, input) = mpsc::unbounded_channel();
        let (interrupt, interrupts) = watch::channel(0);
        let (leave, left) = watch::channel(None);
        let remote = Remote {
            sink,
            input: tokio::sync::Mutex::new(input),
            terminal,
            interrupts,
            leave,
            host,
        };
        let ends = RemoteEnds {
            output,
            input: Some(input_tx),
            interrupt,
            left,
        };
        (Arc::new(remote), ends)
    }

    /// `text` as the client's terminal needs it: with a terminal (no line discipline on the
    /// server's side, the client's in raw mode) each `\n` becomes `\r\n`.
    fn shaped(&self, text: &[u8]) -> Vec<u8> {
        if self.terminal.is_none() {
            return text.to_vec();
        }
        let mut out = Vec::with_capacity(text.len() + 8);
        for &b in text {
            if b == b'\n' {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    }
}

tokio::task_local! {
    static REMOTE: Arc<Remote>;
}

/// The run over SSH whose task this is, if any.
pub fn remote() -> Option<Arc<Remote>> {
    REMOTE.try_with(Arc::clone).ok()
}

/// Runs `fut` as a run over SSH with the streams `remote`.
pub async fn scoped<F: Future>(remote: Arc<Remote>, fut: F) -> F::Output {
    REMOTE.scope(remote, fut).await
}

/// `tokio::spawn` of a task of this run: over SSH the task keeps the run's streams.
pub fn spawn<F>(fut: F) -> tokio::task::JoinHandle<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    match remote() {
        Some(r) => tokio::spawn(REMOTE.scope(r, fut)),
        None => tokio::spawn(fut),
    }
}

/// Writes `text` to standard error as it is (no line added). Never panics when it is
/// closed.
pub fn write_err(text: &str) {
    match remote() {
        Some(r) => {
            let _ = r.sink.send(Chunk::Err(r.shaped(text.as_bytes())));
        }
        None => {
            let mut err = io::stderr().lock();
            let _ = err.write_all(text.as_bytes());
            let _ = err.flush();
        }
    }
}

/// Writes `bytes` to standard output and flushes it.
///
/// Errors: the write failed; over SSH, the client is gone ([`io::ErrorKind::BrokenPipe`], as a
/// closed pipe).
pub fn write_out(bytes: &[u8]) -> io::Result<()> {
    match remote() {
        Some(r) => r
            .sink
            .send(Chunk::Out(r.shaped(bytes)))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe)),
        None => {
            let mut out = io::stdout().lock();
            out.write_all(bytes).and_then(|()| out.flush())
        }
    }
}

/// True when standard input is a terminal (over SSH: the client asked for one, `ssh -t`).
pub fn stdin_is_terminal() -> bool {
    match remote() {
        Some(r) => r.terminal.is_some(),
        None => io::stdin().is_terminal(),
    }
}

/// True when standard output is a terminal (over SSH: the client asked for one).
pub fn stdout_is_terminal() -> bool {
    match remote() {
        Some(r) => r.terminal.is_some(),
        None => io::stdout().is_terminal(),
    }
}

/// True when standard error is a terminal (over SSH: the client asked for one).
pub fn stderr_is_terminal() -> bool {
    match remote() {
        Some(r) => r.terminal.is_some(),
        None => io::stderr().is_terminal(),
    }
}

/// The width in cells a table must fit: over SSH the client's terminal's, if it asked for
/// one, else none; here the terminal's (standard output's, or the controlling terminal's
/// when `--table` goes into a pipe), else `$COLUMNS`; none when neither is known.
pub fn terminal_width() -> Option<usize> {
    if let Some(r) = remote() {
        return r.terminal.map(usize::from).filter(|w| *w > 0);
    }
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

/// Standard input, chunk by chunk, each handed to `each` until the input ends or `each`
/// says stop (false): then nothing more is read (over SSH the client's further bytes are
/// dropped as they come, never buffered).
///
/// Errors: it could not be read; over SSH, the client hung up before the end of its input
/// ([`io::ErrorKind::UnexpectedEof`]: a part of the input is no input).
pub async fn read_input_chunks(mut each: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
    let Some(r) = remote() else {
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
    };
    let mut input = r.input.lock().await;
    loop {
        match input.recv().await {
            Some(chunk) if chunk.is_empty() => return Ok(()),
            Some(chunk) => {
                if !each(&chunk) {
                    // The rest is not wanted: the server's sender fails from now on.
                    input.close();
                    return Ok(());
                }
            }
            None => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the client hung up before the end of its input",
                ));
            }
        }
    }
}

/// The most ids a run reads ([`crate::ops::parse::IdStream`]): over SSH the host's
/// (`max_input_ids` in the server's config), here `local` (this command line's config).
pub fn input_bound(local: impl FnOnce() -> usize) -> usize {
    match remote() {
        Some(r) => r.host.settings.max_input_ids,
        None => local(),
    }
}

/// One line of standard input, without its end (empty at the end of input). Over SSH with a
/// terminal, the server is the line discipline: each key is echoed, Backspace rubs out,
/// Enter ends the line and Ctrl-C or Ctrl-D gives an empty answer.
pub async fn read_line() -> String {
    let Some(r) = remote() else {
        let mut answer = String::new();
        let _ = io::stdin().lock().read_line(&mut answer);
        return answer.trim_end_matches(['\r', '\n']).to_owned();
    };
    let mut input = r.input.lock().await;
    let mut line: Vec<u8> = Vec::new();
    while let Some(chunk) = input.recv().await {
        if chunk.is_empty() {
            break;
        }
        for b in chunk {
            match b {
                b'\r' | b'\n' => {
                    write_err("\n");
                    return String::from_utf8_lossy(&line).into_owned();
                }
                0x03 | 0x04 => {
                    write_err("\n");
                    return String::new();
                }
                0x7f | 0x08 if r.terminal.is_some() && line.pop().is_some() => {
                    write_err("\x08 \x08");
                }
                0x7f | 0x08 => {
                    line.pop();
                }
                b if b >= 0x20 && line.len() < 256 => {
                    line.push(b);
                    if r.terminal.is_some() {
                        let _ = r.sink.send(Chunk::Err(vec![b]));
                    }
                }
                _ => {}
            }
        }
    }
    String::from_utf8_lossy(&line).into_owned()
}

/// True when the run's reader can press Ctrl-C: on the command line always (a signal from
/// its terminal); over SSH only with a terminal (`ssh -t`: the key is read by the server).
pub fn can_press_ctrl_c() -> bool {
    remote().is_none_or(|r| r.terminal.is_some())
}

/// The interruptions of a run: Ctrl-C on the command line; over SSH the client's hang-up
/// or the operator's time limit ([`RemoteEnds::interrupt`]).
#[derive(Debug, Default)]
pub struct Interrupts {
    seen: u8,
}

impl Interrupts {
    /// Waits for the next interruption; false when none can come (the signal cannot be
    /// watched, or the run's server end is gone).
    pub async fn next(&mut self) -> bool {
        let Some(r) = remote() else {
            return tokio::signal::ctrl_c().await.is_ok();
        };
        let mut rx = r.interrupts.clone();
        let seen = self.seen;
        match rx.wait_for(|n| *n > seen).await {
            Ok(_) => {
                self.seen = seen + 1;
                true
            }
            Err(_) => false,
        }
    }
}

/// Leaves the run now with `code`: the command line's process exits; a run over SSH asks
/// its server to end it with that code ([`RemoteEnds::left`]) and returns.
pub fn leave(code: u8) {
    match remote() {
        Some(r) => {
            let _ = r.leave.send(Some(code));
        }
        None => std::process::exit(i32::from(code)),
    }
}
