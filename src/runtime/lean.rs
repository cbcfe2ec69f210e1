//! A crossterm backend that writes fewer bytes per frame (every byte of a
//! cursor move crosses a slow SSH link). It draws what ratatui's diff hands it, as
//! [`CrosstermBackend`] does, but:
//! - a short stretch of unchanged cells between two changed ones on a row is written again
//!   instead of moving the cursor over it, where that is shorter (`ESC[12;40H` is 8 bytes;
//!   two unchanged letters in the same style are 2), and a longer one is skipped with a
//!   relative move where that is shorter (`ESC[17C`, 5 bytes; to the next row, `LF CR`);
//! - the 16 colours of the terminal's own palette are set with their short codes (`ESC[33m`,
//!   not `ESC[38;5;3;49m`), and foreground and background only when each changes;
//! - a frame ends with one `ESC[0m`, and only when it left an attribute or colour set;
//! - the cursor is hidden only when it is not hidden already.
//!
//! Everything else is [`CrosstermBackend`]'s. It keeps what it wrote (a copy of the screen) to
//! know what an unchanged cell holds; it assumes the screen is blank when it starts (a freshly
//! entered alternate screen) and after a full clear, and stops filling gaps after any other
//! clear or scroll until the next full clear.

use std::io::{self, Write};

use crossterm::queue;
use crossterm::style::{Attribute, Colored, Print, SetAttribute};
use ratatui::backend::{Backend, ClearType, CrosstermBackend, IntoCrossterm, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

/// See the module documentation.
pub struct LeanBackend<W: Write> {
    inner: CrosstermBackend<W>,
    /// What each cell of the screen holds: rows of cells, `None` where unknown; cells past the
    /// end of a row, and rows past the last, are blank.
    screen: Vec<Vec<Option<Cell>>>,
    /// False after a clear or scroll this backend cannot follow: no gap is filled until the
    /// next full clear.
    known: bool,
    /// Whether the cursor is hidden, when known.
    cursor_hidden: Option<bool>,
    /// Where the screen's size is read: the process's terminal when `None`, else a size
    /// someone else keeps (a `serve-ssh` session's window).
    size: Option<SharedSize>,
}

/// A screen size (columns, rows) kept by one party and read by another: a `serve-ssh`
/// session's window, set on the client's `pty-req` and `window-change` and read by its
/// [`LeanBackend`] before every frame. Clones share the size.
#[derive(Debug, Clone, Default)]
pub struct SharedSize(std::sync::Arc<std::sync::atomic::AtomicU32>);

impl SharedSize {
    /// A size of `cols` x `rows` cells.
    pub fn new(cols: u16, rows: u16) -> SharedSize {
        let s = SharedSize::default();
        s.set(cols, rows);
        s
    }

    /// Sets the size to `cols` x `rows` cells.
    pub fn set(&self, cols: u16, rows: u16) {
        let packed = (u32::from(cols) << 16) | u32::from(rows);
        self.0.store(packed, std::sync::atomic::Ordering::Relaxed);
    }

    /// The size: (columns, rows).
    pub fn get(&self) -> (u16, u16) {
        let packed = self.0.load(std::sync::atomic::Ordering::Relaxed);
        ((packed >> 16) as u16, (packed & 0xffff) as u16)
    }
}

/// The colour and attributes the terminal writes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    underline: Color,
    modifier: Modifier,
}

impl Pen {
    const RESET: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        underline: Color::Reset,
        modifier: Modifier::empty(),
    };

    fn of(cell: &Cell) -> Pen {
        Pen {
            fg: cell.fg,
            bg: cell.bg,
            underline: cell.underline_color,
            modifier: cell.modifier,
        }
    }
}

impl<W: Write> LeanBackend<W> {
    /// A backend writing to `writer` (in the program, a `BufWriter` on standard output).
    pub fn new(writer: W) -> LeanBackend<W> {
        LeanBackend {
            inner: CrosstermBackend::new(writer),
            screen: Vec::new(),
            known: true,
            cursor_hidden: None,
            size: None,
        }
    }

    /// A backend writing to `writer` whose screen has the size `size` holds, not the
    /// process's terminal's (a `serve-ssh` session: the writer goes to its SSH channel).
    pub fn sized(writer: W, size: SharedSize) -> LeanBackend<W> {
        LeanBackend {
            size: Some(size),
            ..LeanBackend::new(writer)
        }
    }

    /// What the screen holds at (`x`, `y`), as far as known.
    fn cell_at(&self, x: u16, y: u16) -> Option<&Cell> {
        if !self.known {
            return None;
        }
        match self.screen.get(usize::from(y)) {
            None => Some(&Cell::EMPTY),
            Some(row) => match row.get(usize::from(x)) {
                None => Some(&Cell::EMPTY),
                Some(c) => c.as_ref(),
            },
        }
    }

    fn remember(&mut self, x: u16, y: u16, cell: &Cell, width: u16) {
        let (x, y) = (usize::from(x), usize::from(y));
        if self.screen.len() <= y {
            self.screen.resize_with(y + 1, Vec::new);
        }
        let row = &mut self.screen[y];
        let end = x + usize::from(width.max(1));
        if row.len() < end {
            row.resize(end, Some(Cell::EMPTY));
        }
        // Writing over the second half of a wide character breaks it: unknown now.
        if x > 0 && row[x - 1].as_ref().is_some_and(|c| c.symbol().width() > 1) {
            row[x - 1] = None;
        }
        row[x] = Some(cell.clone());
        for slot in &mut row[x + 1..end] {
            *slot = None;
        }
    }

    /// The unchanged cells from `from` up to `to` on row `y`, when writing them again in the
    /// current `pen` is shorter than moving the cursor to `to`.
    fn gap(&self, from: u16, to: u16, y: u16, pen: Pen) -> Option<Vec<Cell>> {
        let jump = jump(Some((from, y)), to, y).len();
        if usize::from(to - from) >= jump {
            return None;
        }
        let mut cells = Vec::new();
        let mut bytes = 0;
        for x in from..to {
            let c = self.cell_at(x, y)?;
            if c.symbol().width() != 1 || Pen::of(c) != pen {
                return None;
            }
            bytes += c.symbol().len();
            cells.push(c.clone());
        }
        (bytes < jump).then_some(cells)
    }
}

/// The shortest way from the cursor at `at` to (`x`, `y`): forward on the same row
/// (`ESC[nC`); to the next row with a line feed and a carriage return, then forward
/// (`LF CR ESC[nC`); else to the place itself (`ESC[row;colH`).
///
/// Forward moves never start in the last column (nothing lies right of it), so the
/// terminal's pending wrap there does not matter; the carriage return ends it in any case.
/// The line feed never scrolls: it leaves a row that has a row below it (raw mode sends it
/// as it is, and it moves straight down).
fn jump(at: Option<(u16, u16)>, x: u16, y: u16) -> String {
    let absolute = format!("\x1b[{};{}H", y + 1, x + 1);
    let forward = |n: u16| match n {
        0 => String::new(),
        1 => "\x1b[C".to_owned(),
        n => format!("\x1b[{n}C"),
    };
    let relative = match at {
        Some((ax, ay)) if ay == y && ax < x => Some(forward(x - ax)),
        Some((_, ay)) if y == ay + 1 => Some(format!("\n\r{}", forward(x))),
        _ => None,
    };
    match relative {
        Some(r) if r.len() < absolute.len() => r,
        _ => absolute,
    }
}

/// The short SGR code of a palette colour as foreground (background: add 10); `None` for
/// indexed and RGB colours.
fn palette_code(c: Color) -> Option<u8> {
    Some(match c {
        Color::Reset => 39,
        Color::Black => 30,
        Color::Red => 31,
        Color::Green => 32,
        Color::Yellow => 33,
        Color::Blue => 34,
        Color::Magenta => 35,
        Color::Cyan => 36,
        Color::Gray => 37,
        Color::DarkGray => 90,
        Color::LightRed => 91,
        Color::LightGreen => 92,
        Color::LightYellow => 93,
        Color::LightBlue => 94,
        Color::LightMagenta => 95,
        Color::LightCyan => 96,
        Color::White => 97,
        Color::Indexed(_) | Color::Rgb(..) => return None,
    })
}

/// The SGR parameters of a colour: the palette's short code, else crossterm's form
/// (`38;5;N`, `38;2;R;G;B`).
fn color_param(c: Color, background: bool) -> String {
    match palette_code(c) {
        Some(code) if background => (code + 10).to_string(),
        Some(code) => code.to_string(),
        None if background => Colored::BackgroundColor(c.into_crossterm()).to_string(),
        None => Colored::ForegroundColor(c.into_crossterm()).to_string(),
    }
}

fn attr(w: &mut impl Write, a: Attribute) -> io::Result<()> {
    queue!(w, SetAttribute(a))
}

/// Changes the attributes from `from` to `to` (as ratatui's crossterm backend does).
fn set_modifier(w: &mut impl Write, from: Modifier, to: Modifier) -> io::Result<()> {
    let removed = from - to;
    let added = to - from;
    if removed.contains(Modifier::REVERSED) {
        attr(w, Attribute::NoReverse)?;
    }
    let reset_intensity = removed.intersects(Modifier::BOLD | Modifier::DIM);
    if reset_intensity {
        attr(w, Attribute::NormalIntensity)?;
        if to.contains(Modifier::DIM) {
            attr(w, Attribute::Dim)?;
        }
        if to.contains(Modifier::BOLD) {
            attr(w, Attribute::Bold)?;
        }
    }
    let pairs = [
        (Modifier::ITALIC, Attribute::NoItalic, Attribute::Italic),
        (
            Modifier::UNDERLINED,
            Attribute::NoUnderline,
            Attribute::Underlined,
        ),
        (
            Modifier::CROSSED_OUT,
            Attribute::NotCrossedOut,
            Attribute::CrossedOut,
        ),
        (Modifier::HIDDEN, Attribute::NoHidden, Attribute::Hidden),
    ];
    for (m, off, _) in pairs {
        if removed.contains(m) {
            attr(w, off)?;
        }
    }
    if removed.intersects(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK) {
        attr(w, Attribute::NoBlink)?;
    }
    if added.contains(Modifier::REVERSED) {
        attr(w, Attribute::Reverse)?;
    }
    if !reset_intensity {
        if added.contains(Modifier::BOLD) {
            attr(w, Attribute::Bold)?;
        }
        if added.contains(Modifier::DIM) {
            attr(w, Attribute::Dim)?;
        }
    }
    for (m, _, on) in pairs {
        if added.contains(m) {
            attr(w, on)?;
        }
    }
    if added.contains(Modifier::SLOW_BLINK) {
        attr(w, Attribute::SlowBlink)?;
    }
    if added.contains(Modifier::RAPID_BLINK) {
        attr(w, Attribute::RapidBlink)?;
    }
    Ok(())
}

/// Writes one cell in its style, starting from `pen`; returns the pen after it.
fn put(w: &mut impl Write, cell: &Cell, pen: Pen) -> io::Result<Pen> {
    let next = Pen::of(cell);
    if next.modifier != pen.modifier {
        set_modifier(w, pen.modifier, next.modifier)?;
    }
    // Foreground and background in one sequence, each only when it changes.
    let mut colors = Vec::new();
    if next.fg != pen.fg {
        colors.push(color_param(next.fg, false));
    }
    if next.bg != pen.bg {
        colors.push(color_param(next.bg, true));
    }
    if !colors.is_empty() {
        write!(w, "\x1b[{}m", colors.join(";"))?;
    }
    if next.underline != pen.underline {
        queue!(
            w,
            crossterm::style::SetUnderlineColor(next.underline.into_crossterm())
        )?;
    }
    queue!(w, Print(cell.symbol()))?;
    Ok(next)
}

impl<W: Write> Backend for LeanBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut pen = Pen::RESET;
        // Where the terminal's cursor is after the last cell written.
        let mut at: Option<(u16, u16)> = None;
        for (x, y, cell) in content {
            let mut filled = Vec::new();
            if let Some((ax, ay)) = at
                && ay == y
                && ax < x
                && let Some(cells) = self.gap(ax, x, y, pen)
            {
                filled = cells;
            }
            // CrosstermBackend writes through to its writer.
            let w = &mut self.inner;
            for c in &filled {
                pen = put(w, c, pen)?;
            }
            if !filled.is_empty() {
                at = at.map(|(ax, ay)| (ax + filled.len() as u16, ay));
            }
            if at != Some((x, y)) {
                w.write_all(jump(at, x, y).as_bytes())?;
            }
            pen = put(w, cell, pen)?;
            let width = (cell.symbol().width() as u16).max(1);
            at = Some((x.saturating_add(width), y));
            self.remember(x, y, cell, width);
        }
        if pen != Pen::RESET {
            queue!(self.inner, SetAttribute(Attribute::Reset))?;
        }
        Ok(())
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.known = false;
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        if self.cursor_hidden == Some(true) {
            return Ok(());
        }
        self.cursor_hidden = Some(true);
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.cursor_hidden = Some(false);
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        if self.size.is_some() {
            // A remote terminal: asking would read the process's own terminal.
            return Err(io::Error::other(
                "the cursor of a remote screen is not asked for",
            ));
        }
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        if clear_type == ClearType::All {
            // Blank, and the terminal may have been given to something else meanwhile
            // (a suspend): nothing is assumed about the cursor either.
            self.screen.clear();
            self.known = true;
            self.cursor_hidden = None;
        } else {
            self.known = false;
        }
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        match &self.size {
            Some(s) => {
                let (width, height) = s.get();
                Ok(Size { width, height })
            }
            None => self.inner.size(),
        }
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        match &self.size {
            Some(_) => Ok(WindowSize {
                columns_rows: self.size()?,
                pixels: Size::default(),
            }),
            None => self.inner.window_size(),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}
