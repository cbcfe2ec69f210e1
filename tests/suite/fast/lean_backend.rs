//! The lean backend draws the same screens as ratatui's crossterm backend,
//! in fewer bytes: the dashboard's own frames (a cursor move, a page jump) and random ones
//! (colours, attributes, Thai and wide characters), each parsed by a terminal emulator
//! (vt100) and compared cell by cell.

use crate::common;

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use club_admin::app::{KeyCode, Model, update};
use club_admin::runtime::lean::LeanBackend;
use club_admin::ui::{Theme, view};
use common::*;
use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend, TestBackend};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

type Look = (
    String,
    vt100::Color,
    vt100::Color,
    bool,
    bool,
    bool,
    bool,
    bool,
);

fn looks(p: &vt100::Parser) -> Vec<Look> {
    let s = p.screen();
    let (rows, cols) = s.size();
    let mut out = Vec::new();
    for r in 0..rows.get() {
        for c in 0..cols.get() {
            if let Some(cell) = s.cell(r, c) {
                // A cell never written and a written space look the same.
                let text = match cell.contents() {
                    "" => " ",
                    t => t,
                };
                out.push((
                    text.to_owned(),
                    cell.fgcolor(),
                    cell.bgcolor(),
                    cell.bold(),
                    cell.dim(),
                    cell.italic(),
                    cell.underline(),
                    cell.inverse(),
                ));
            }
        }
    }
    out
}

/// Draws `frames` one after the other through both backends (each frame as ratatui's diff
/// against the one before) and checks that a terminal shows the same after each; returns
/// the bytes each backend wrote per frame (lean, crossterm).
fn through_both(frames: &[Buffer]) -> Vec<(usize, usize)> {
    let area = frames[0].area;
    let (lean_out, plain_out) = (Sink::default(), Sink::default());
    let mut lean = LeanBackend::new(lean_out.clone());
    let mut plain = CrosstermBackend::new(plain_out.clone());
    let parser = || {
        vt100::Parser::new(
            std::num::NonZero::new(area.height).expect("rows"),
            std::num::NonZero::new(area.width).expect("cols"),
            0,
        )
    };
    let (mut lp, mut pp) = (parser(), parser());
    let mut prev = Buffer::empty(area);
    let mut sizes = Vec::new();
    for (n, next) in frames.iter().enumerate() {
        let diff = prev.diff(next);
        lean.draw(diff.iter().copied()).expect("lean draw");
        plain.draw(diff.iter().copied()).expect("plain draw");
        let (lb, pb) = (lean_out.take(), plain_out.take());
        lp.process(&lb);
        pp.process(&pb);
        let (l, p) = (looks(&lp), looks(&pp));
        // A cell both bold and dim: a real terminal keeps both (SGR 1 and 2 are apart; 22
        // clears both), but vt100 keeps one intensity, the last set, which depends on the
        // path each backend took to the cell. There only the intensity's two flags may differ.
        let both = Modifier::BOLD | Modifier::DIM;
        let same = |i: usize, a: &Look, b: &Look| {
            let ambiguous = next
                .content
                .get(i)
                .is_some_and(|c| c.modifier.contains(both));
            let flags = |x: &Look| (x.0.clone(), x.1, x.2, x.5, x.6, x.7);
            a == b || (ambiguous && flags(a) == flags(b) && (a.3 || a.4) && (b.3 || b.4))
        };
        let first = l
            .iter()
            .zip(&p)
            .enumerate()
            .position(|(i, (a, b))| !same(i, a, b));
        assert!(
            first.is_none(),
            "frame {n}: the screens differ at cell {:?} (row, col {:?}): lean {:?}, crossterm {:?}\nlean:\n{}\ncrossterm:\n{}",
            first,
            first.map(|i| (i / usize::from(area.width), i % usize::from(area.width))),
            first.map(|i| &l[i]),
            first.map(|i| &p[i]),
            lp.screen().contents(),
            pp.screen().contents()
        );
        sizes.push((lb.len(), pb.len()));
        prev = next.clone();
    }
    sizes
}

fn frame_of(m: &Model, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view(f, m, &Theme::new(true))).expect("draw");
    t.backend().buffer().clone()
}

#[test]
fn the_dashboards_frames_look_the_same_in_fewer_bytes() {
    let rows: Vec<_> = (1..=60u128)
        .map(|n| {
            request(
                uuid::Uuid::from_u128(n),
                "pending",
                &format!("5{n:04}"),
                Some(("Somchai", "สมชาย")),
                if n % 3 == 0 {
                    ("Robotics Club", "ชุมนุมหุ่นยนต์")
                } else {
                    ("Thai Classical Music", "ดนตรีไทย")
                },
                2026,
                (n % 40) as i64,
            )
        })
        .collect();
    let mut m = model_with(rows);
    let _ = update(&mut m, club_admin::app::Msg::Layout { queue_rows: 33 });
    let mut frames = vec![frame_of(&m, 120, 40)];
    for _ in 0..5 {
        let _ = update(&mut m, key('j'));
        frames.push(frame_of(&m, 120, 40));
    }
    let _ = update(&mut m, code(KeyCode::PageDown));
    frames.push(frame_of(&m, 120, 40));
    let sizes = through_both(&frames);
    for (n, (lean, plain)) in sizes.iter().enumerate() {
        assert!(lean < plain, "frame {n}: {lean} bytes, crossterm {plain}");
    }
    let moves: Vec<usize> = sizes[1..6].iter().map(|s| s.0).collect();
    println!(
        "first frame {:?}, cursor moves (lean, crossterm) {:?}, page jump {:?}",
        sizes[0],
        &sizes[1..6],
        sizes[6]
    );
    assert!(moves.iter().all(|&b| b > 0), "every move writes something");
}

fn color(i: u8) -> Color {
    [
        Color::Reset,
        Color::Red,
        Color::Yellow,
        Color::DarkGray,
        Color::Cyan,
        Color::Indexed(200),
        Color::Rgb(1, 2, 3),
    ][usize::from(i) % 7]
}

fn style(fg: u8, bg: u8, m: u8) -> Style {
    let mods = [
        Modifier::empty(),
        Modifier::BOLD,
        Modifier::REVERSED,
        Modifier::DIM | Modifier::UNDERLINED,
        Modifier::BOLD | Modifier::CROSSED_OUT,
    ];
    Style::default()
        .fg(color(fg))
        .bg(color(bg))
        .add_modifier(mods[usize::from(m) % mods.len()])
}

/// One random frame: strings put at random places, in random styles.
fn frame(w: u16, h: u16, puts: &[(u16, u16, usize, u8, u8, u8)]) -> Buffer {
    const WORDS: [&str; 6] = ["approve", "ab", "ชุมนุม", "コード", "x y", "  "];
    let mut b = Buffer::empty(Rect::new(0, 0, w, h));
    for &(x, y, word, fg, bg, m) in puts {
        b.set_string(x % w, y % h, WORDS[word % WORDS.len()], style(fg, bg, m));
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_frames_look_the_same(
        frames in prop::collection::vec(
            prop::collection::vec((0u16..24, 0u16..5, 0usize..6, 0u8..7, 0u8..7, 0u8..5), 0..25),
            2..6,
        )
    ) {
        let buffers: Vec<Buffer> = frames.iter().map(|p| frame(24, 5, p)).collect();
        let sizes = through_both(&buffers);
        let lean: usize = sizes.iter().map(|s| s.0).sum();
        let plain: usize = sizes.iter().map(|s| s.1).sum();
        prop_assert!(lean <= plain, "{lean} > {plain}");
    }
}

/// A terminal left on the alternate screen with text on it (an SSH client killed while a
/// dashboard was drawn, then connecting again): the terminal taken and the first frame
/// drawn, nothing of the old text shows (the trial found `/keys` and a command line inside
/// the header and the lookup box).
#[test]
fn a_terminal_left_on_the_alternate_screen_shows_none_of_its_old_text() {
    let m = model_with(sample_rows());
    let mut p = vt100::Parser::new(
        std::num::NonZero::new(24).expect("rows"),
        std::num::NonZero::new(80).expect("cols"),
        0,
    );
    p.process(b"\x1b[?1049h");
    for row in 1..=24 {
        p.process(
            format!("\x1b[{row};1HLEFTOVER{row:02}")
                .repeat(8)
                .as_bytes(),
        );
    }
    assert!(p.screen().contents().contains("LEFTOVER"));
    let sink = Sink::default();
    club_admin::runtime::terminal::take(&mut sink.clone(), false).expect("take");
    let mut term = Terminal::new(LeanBackend::new(sink.clone())).expect("terminal");
    term.draw(|f| view(f, &m, &Theme::new(false)))
        .expect("draw");
    // A terminal on the alternate screen already ignores the request to enter it (tmux
    // does; vt100 would clear the screen on it).
    let bytes = String::from_utf8(sink.take()).expect("utf-8");
    assert!(bytes.contains("\x1b[?1049h"), "{bytes:?}");
    p.process(bytes.replace("\x1b[?1049h", "").as_bytes());
    let shown = p.screen().contents();
    // Any piece of it (the frame's borders write over some letters).
    assert!(!shown.contains("TOVER"), "{shown}");
    assert!(shown.contains("Queue"), "the dashboard is drawn: {shown}");
}
