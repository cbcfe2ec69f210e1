//! The standard streams of a command an SSH client runs (`ssh -p 2222 HOST requests list`):
//! its standard output and standard error go to the channel (in the client's order), its
//! standard input is the client's, it is interrupted by the client's hang-up or the
//! operator's time limit instead of a signal, and it ends its own task, never the server's
//! process ([`Channel`]'s [`Streams::leave`]).

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use futures::future::BoxFuture;
use tokio::sync::{mpsc, watch};

use crate::script::stdio::Streams;

/// The most of standard input the server passes on to a run (16 MiB), whatever the run's
/// own bound ([`crate::ops::parse::IdStream`]), which stops it far sooner.
pub const INPUT_LIMIT: usize = 16 * 1024 * 1024;

/// What a run writes: a chunk of standard output or of standard error, in the order
/// written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chunk {
    /// Bytes of standard output.
    Out(Vec<u8>),
    /// Bytes of standard error (the channel's extended data, type 1).
    Err(Vec<u8>),
}

/// The streams of one run over an SSH channel, made for each exec request.
pub struct Channel {
    sink: mpsc::UnboundedSender<Chunk>,
    input: tokio::sync::Mutex<mpsc::UnboundedReceiver<Vec<u8>>>,
    /// The client's terminal width when it asked for one (`ssh -t`), else `None`.
    terminal: Option<u16>,
    /// The client's `COLUMNS` (`SetEnv`), for a table without a terminal.
    columns: Option<u16>,
    interrupts: watch::Receiver<u8>,
    past_limit: Arc<AtomicBool>,
    leave: watch::Sender<Option<u8>>,
}

/// The server's ends of a [`Channel`]: what the run wrote, how to interrupt it, and the
/// exit code it asked to leave with.
pub struct ChannelEnds {
    /// The run's output, in order; closed when the run and its tasks are over.
    pub output: mpsc::UnboundedReceiver<Chunk>,
    /// The client's bytes to the run's standard input (take it). At the client's end of
    /// file send an empty chunk, then drop it; dropped without that empty chunk (the client
    /// hung up), the input is broken: the run reads an error, not a shorter input.
    pub input: Option<mpsc::UnboundedSender<Vec<u8>>>,
    /// Raise to 1 to interrupt the run as a first Ctrl-C does (nothing more is sent), to 2
    /// as a second one (stop waiting for answers in flight).
    pub interrupt: watch::Sender<u8>,
    /// Set before [`Self::interrupt`] when the interruption is the server's time limit.
    pub past_limit: Arc<AtomicBool>,
    /// The code the run asked to leave with, before its end (its task should then be
    /// dropped, as the command line's process would exit).
    pub left: watch::Receiver<Option<u8>>,
}

impl Channel {
    /// The streams of a run with a terminal `terminal` columns wide when the client asked
    /// for one, and the client's `COLUMNS` when it sent one; and the server's ends of them.
    pub fn new(terminal: Option<u16>, columns: Option<u16>) -> (Arc<Channel>, ChannelEnds) {
        let (sink, output) = mpsc::unbounded_channel();
        let (input_tx, input) = mpsc::unbounded_channel();
        let (interrupt, interrupts) = watch::channel(0);
        let (leave, left) = watch::channel(None);
        let past_limit = Arc::new(AtomicBool::new(false));
        let channel = Channel {
            sink,
            input: tokio::sync::Mutex::new(input),
            terminal,
            columns,
            interrupts,
            past_limit: past_limit.clone(),
            leave,
        };
        let ends = ChannelEnds {
            output,
            input: Some(input_tx),
            interrupt,
            past_limit,
            left,
        };
        (Arc::new(channel), ends)
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

    /// One line typed by the client. With a terminal the server is the line discipline:
    /// each key is echoed, Backspace rubs out, Enter ends the line and Ctrl-C or Ctrl-D
    /// gives an empty answer.
    async fn line(&self) -> String {
        let mut input = self.input.lock().await;
        let mut line: Vec<u8> = Vec::new();
        while let Some(chunk) = input.recv().await {
            if chunk.is_empty() {
                break;
            }
            for b in chunk {
                match b {
                    b'\r' | b'\n' => {
                        self.write_err(b"\n");
                        return String::from_utf8_lossy(&line).into_owned();
                    }
                    0x03 | 0x04 => {
                        self.write_err(b"\n");
                        return String::new();
                    }
                    0x7f | 0x08 if self.terminal.is_some() && line.pop().is_some() => {
                        self.write_err(b"\x08 \x08");
                    }
                    0x7f | 0x08 => {
                        line.pop();
                    }
                    b if b >= 0x20 && line.len() < 256 => {
                        line.push(b);
                        if self.terminal.is_some() {
                            let _ = self.sink.send(Chunk::Err(vec![b]));
                        }
                    }
                    _ => {}
                }
            }
        }
        String::from_utf8_lossy(&line).into_owned()
    }
}

impl Streams for Channel {
    /// Errors: the client is gone ([`io::ErrorKind::BrokenPipe`], as a closed pipe).
    fn write_out(&self, bytes: &[u8]) -> io::Result<()> {
        self.sink
            .send(Chunk::Out(self.shaped(bytes)))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }

    fn write_err(&self, text: &[u8]) {
        let _ = self.sink.send(Chunk::Err(self.shaped(text)));
    }

    /// All three when the client asked for a terminal (`ssh -t`).
    fn terminals(&self) -> [bool; 3] {
        [self.terminal.is_some(); 3]
    }

    /// The client's terminal's, else its `COLUMNS`, as the command line's.
    fn terminal_width(&self) -> Option<usize> {
        self.terminal
            .or(self.columns)
            .map(usize::from)
            .filter(|w| *w > 0)
    }

    /// Never: the channel is no terminal of this process's.
    fn draws_progress(&self) -> bool {
        false
    }

    /// Only with a terminal (`ssh -t`: the key is read by the server).
    fn can_press_ctrl_c(&self) -> bool {
        self.terminal.is_some()
    }

    /// Never: the client's hang-up interrupts the run instead.
    fn reader_gone(&self) -> bool {
        false
    }

    /// The client's further bytes are dropped as they come, never buffered, once `each`
    /// says stop. Errors: the client hung up before the end of its input.
    fn read_chunks<'a>(
        &'a self,
        each: &'a mut (dyn FnMut(&[u8]) -> bool + Send),
    ) -> BoxFuture<'a, io::Result<()>> {
        Box::pin(async move {
            let mut input = self.input.lock().await;
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
        })
    }

    fn read_line(&self) -> BoxFuture<'_, String> {
        Box::pin(self.line())
    }

    /// The client's hang-up, the operator's time limit or the server's stop
    /// ([`ChannelEnds::interrupt`]); false once the server's end is gone.
    fn interrupted(&self, seen: u8) -> BoxFuture<'_, bool> {
        Box::pin(async move {
            let mut rx = self.interrupts.clone();
            rx.wait_for(|n| *n > seen).await.is_ok()
        })
    }

    fn past_time_limit(&self) -> bool {
        self.past_limit.load(Ordering::SeqCst)
    }

    /// Asks the server to end the run's task with `code` ([`ChannelEnds::left`]).
    fn leave(&self, code: u8) {
        let _ = self.leave.send(Some(code));
    }
}
