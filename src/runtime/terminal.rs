//! Entering and restoring the terminal, on every way out: normal exit, panic, SIGTERM, SIGHUP.

use std::io::{self, BufWriter, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// The program's terminal: frames go through a `BufWriter` on stdout.
pub type Tui = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode, alternate screen, bracketed paste (and mouse capture when asked).
///
/// Errors: the terminal refuses (stdout is not a terminal, ...).
pub fn enter(mouse: bool) -> io::Result<Tui> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = io::stdout();
    execute!(
        out,
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
    }
    Terminal::new(CrosstermBackend::new(BufWriter::new(io::stdout())))
}

/// Leaves raw mode and the alternate screen; safe to call more than once.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Restores the terminal before the panic message is printed, so it is readable.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Turns mouse capture on or off.
pub fn set_mouse(on: bool) {
    let mut out = io::stdout();
    let _ = if on {
        execute!(out, EnableMouseCapture)
    } else {
        execute!(out, DisableMouseCapture)
    };
}
