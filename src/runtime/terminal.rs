//! Entering and restoring the terminal, on every way out: normal exit, panic, SIGTERM, SIGHUP;
//! and the local terminal as the effect runner's screen (`TermScreen`: redraw, mouse,
//! clipboard, title, suspend).

use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::style::ResetColor;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute, queue};
use ratatui::Terminal;

use super::lean::LeanBackend;

/// The program's terminal: frames go through a `BufWriter` on stdout, written by
/// [`LeanBackend`] (fewer bytes per frame than ratatui's crossterm backend).
pub type Tui = Terminal<LeanBackend<BufWriter<Stdout>>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Mouse capture is on (restored with the rest of the terminal after a suspend).
static MOUSE: AtomicBool = AtomicBool::new(false);

/// Takes a terminal reached through `out` (the process's own, or a `serve-ssh` client's):
/// alternate screen (cleared), bracketed paste, cursor hidden, and mouse capture when `mouse`. The one
/// way in, for both; raw mode is the local terminal's own affair ([`enter`]); over SSH the
/// client's terminal is raw already.
///
/// Errors: writing to `out` failed.
pub fn take(out: &mut impl Write, mouse: bool) -> io::Result<()> {
    // The terminal's title is pushed on its stack (xterm's CSI 22 t; terminals without one
    // ignore it) and popped by `give_back`: the pending count club-admin puts there goes.
    out.write_all(PUSH_TITLE)?;
    // The alternate screen cleared: a terminal left on it (an SSH client killed while a
    // dashboard was drawn, then connecting again) keeps what was there, and the first
    // frame, drawn on a blank screen, writes no blank cell.
    queue!(
        out,
        EnterAlternateScreen,
        Clear(ClearType::All),
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        queue!(out, EnableMouseCapture)?;
    }
    out.flush()
}

/// Gives a terminal taken by [`take`] back: colours reset, mouse capture and bracketed paste
/// off, the main screen and the cursor back. The one way out, for both terminals.
///
/// Errors: writing to `out` failed.
pub fn give_back(out: &mut impl Write) -> io::Result<()> {
    queue!(
        out,
        ResetColor,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    )?;
    out.write_all(POP_TITLE)?;
    out.flush()
}

/// Saves the window title on the terminal's title stack (xterm, VTE, kitty, iTerm2, tmux).
const PUSH_TITLE: &[u8] = b"\x1b[22;0t";
/// Gives back the title saved by [`PUSH_TITLE`].
const POP_TITLE: &[u8] = b"\x1b[23;0t";

/// The local terminal: raw mode, then [`take`].
///
/// Errors: the terminal refuses (stdout is not a terminal, ...).
pub fn enter(mouse: bool) -> io::Result<Tui> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    take(&mut io::stdout(), mouse)?;
    MOUSE.store(mouse, Ordering::SeqCst);
    #[cfg(feature = "test-hooks")]
    if std::env::var_os("CLUB_ADMIN_TEST_PANIC").is_some() {
        // Test builds only: proves the panic hook restores the terminal.
        panic!("test panic requested by CLUB_ADMIN_TEST_PANIC");
    }
    Terminal::new(LeanBackend::new(BufWriter::new(io::stdout())))
}

/// Leaves raw mode and gives the local terminal back ([`give_back`]); safe to call more
/// than once.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = give_back(&mut io::stdout());
    let _ = disable_raw_mode();
}

/// Set when SIGCONT arrives: the process was continued after a stop (registered once, by
/// signal-hook; SIGCONT still continues the process, the flag only notes it).
#[cfg(unix)]
static CONTINUED: std::sync::OnceLock<std::sync::Arc<AtomicBool>> = std::sync::OnceLock::new();

/// How long [`suspend`] waits for its stop to land when no SIGCONT comes (a dropped signal).
#[cfg(unix)]
const STOP_LANDS: std::time::Duration = std::time::Duration::from_millis(500);

/// The SIGCONT flag, its handler registered on first use (if that fails, the flag is never
/// set and [`suspend`]'s wait ends after [`STOP_LANDS`]).
#[cfg(unix)]
fn continued() -> &'static AtomicBool {
    CONTINUED.get_or_init(|| {
        let flag = std::sync::Arc::new(AtomicBool::new(false));
        if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGCONT, flag.clone()) {
            tracing::warn!("could not watch SIGCONT: {e}");
        }
        flag
    })
}

/// Ctrl-Z: gives the terminal back as on exit, stops the process group with
/// SIGTSTP as the terminal's own suspend character would (the shell then shows its prompt),
/// and once continued (`fg`) takes the terminal again: raw mode, alternate screen, bracketed
/// paste, hidden cursor, mouse capture as it was. The caller redraws everything (the screen
/// is blank on return).
///
/// Where nothing can continue the process (a process group no shell controls: the kernel
/// drops the signal), the call returns at once and the dashboard simply comes back.
///
/// Errors: the terminal could not be taken again (the dashboard then stops, restored).
pub fn suspend() -> io::Result<()> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return Ok(());
    }
    let mouse = MOUSE.load(Ordering::SeqCst);
    restore();
    #[cfg(unix)]
    {
        let flag = continued();
        flag.store(false, Ordering::SeqCst);
        // SAFETY: kill(2) with pid 0 signals this process's group; no memory is involved.
        unsafe {
            libc::kill(0, libc::SIGTSTP);
        }
        // The stop may land a moment after kill(2) returns (another thread can take the
        // signal): wait for SIGCONT, so that what follows (the caller's `Msg::Resumed` and
        // its time) comes after `fg`. A signal the kernel dropped (no shell controls the
        // group) ends the wait after STOP_LANDS.
        let asked = std::time::Instant::now();
        while !flag.load(Ordering::SeqCst) && asked.elapsed() < STOP_LANDS {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    // Here after SIGCONT (or soon when the signal was dropped).
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    take(&mut io::stdout(), mouse)
}

/// Restores the terminal before the panic message is printed, so it is readable. A panic
/// the worker catches ([`super::effects::panic_is_caught`]: its call is answered as failed
/// and the dashboard goes on) leaves the terminal as it is and goes to the log only.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if super::effects::panic_is_caught() {
            tracing::error!("{info}");
            return;
        }
        restore();
        previous(info);
    }));
}

/// Turns mouse capture on or off.
pub fn set_mouse(on: bool) {
    MOUSE.store(on, Ordering::SeqCst);
    let mut out = io::stdout();
    let _ = if on {
        execute!(out, EnableMouseCapture)
    } else {
        execute!(out, DisableMouseCapture)
    };
}

/// Resolves when the terminal hangs up (the SSH connection dropped, the terminal window
/// closed): `POLLHUP` on the terminal, watched by a thread blocked in `poll` that asks for no
/// events, so it never wakes while the terminal is alive. Without this, a closed terminal
/// that sends no SIGHUP (no controlling terminal) would leave the program running.
pub async fn hangup() {
    #[cfg(unix)]
    {
        use std::io::IsTerminal;
        use std::os::fd::AsRawFd;
        let tty = if io::stdin().is_terminal() {
            None
        } else {
            match std::fs::File::open("/dev/tty") {
                Ok(f) => Some(f),
                Err(_) => return std::future::pending().await,
            }
        };
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("tty-hangup".into())
            .spawn(move || {
                let fd = tty
                    .as_ref()
                    .map(|f| f.as_raw_fd())
                    .unwrap_or(libc::STDIN_FILENO);
                loop {
                    let mut p = libc::pollfd {
                        fd,
                        events: 0,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd, for the length of the call.
                    let r = unsafe { libc::poll(&mut p, 1, -1) };
                    if r > 0 && p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                        let _ = tx.send(());
                        return;
                    }
                    if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                        return;
                    }
                }
            });
        if spawned.is_ok() && rx.await.is_ok() {
            tracing::info!("the terminal hung up");
            return;
        }
        std::future::pending::<()>().await
    }
    #[cfg(not(unix))]
    std::future::pending::<()>().await
}

/// The terminal as the runner's [`Screen`].
pub(super) struct TermScreen<'a, B: ratatui::backend::Backend> {
    pub(super) terminal: &'a mut Terminal<B>,
    pub(super) real: bool,
}

/// Clears the screen and makes the next frame draw everything. Unlike `Terminal::clear`, it
/// does not ask the terminal where its cursor is (a round trip over SSH, and a 2 s wait
/// where the terminal does not answer).
pub(super) fn full_redraw<B: ratatui::backend::Backend>(terminal: &mut Terminal<B>) {
    let _ = terminal
        .backend_mut()
        .clear_region(ratatui::backend::ClearType::All);
    // After a draw the current buffer is empty; this empties the last frame too, so the
    // next frame is compared with nothing.
    terminal.swap_buffers();
}

impl<B: ratatui::backend::Backend> super::effects::Screen for TermScreen<'_, B> {
    fn redraw(&mut self) {
        full_redraw(self.terminal);
    }

    fn set_mouse(&mut self, on: bool) {
        if self.real {
            set_mouse(on);
        }
    }

    fn suspend(&mut self) {
        if self.real {
            if let Err(e) = suspend() {
                tracing::error!("could not take the terminal back after a suspend: {e}");
            }
            // Everything is drawn again on the next frame.
            full_redraw(self.terminal);
        }
    }

    fn copy(&mut self, text: &str) {
        if self.real {
            let mut o = io::stdout();
            let _ = crossterm::execute!(
                o,
                crossterm::clipboard::CopyToClipboard::to_clipboard_from(text.as_bytes())
            );
            let _ = o.flush();
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        if self.real {
            let mut o = io::stdout();
            let _ = o.write_all(bytes);
            let _ = o.flush();
        }
    }

    fn set_title(&mut self, title: &str) {
        if self.real {
            let mut o = io::stdout();
            let _ = crossterm::execute!(o, crossterm::terminal::SetTitle(title));
            let _ = o.flush();
        }
    }
}
