//! The bytes a client types, as crossterm events: parsed by termina's [`Parser`] (the
//! parser of the Helix editor, adapted from crossterm's own, which crossterm does not make
//! public), then each event turned into crossterm's shape, so a session's keys reach
//! [`crate::runtime::event_loop::to_msg`] exactly as the local dashboard's do.

use crossterm::event as ct;
use termina::Parser;
use termina::event as tm;

/// The parser of one session's input. Bytes go in as they arrive; an escape sequence split
/// between two packets is kept until its end arrives.
#[derive(Debug, Default)]
pub struct Input {
    parser: Parser,
}

impl Input {
    /// The events `bytes` complete, in order; those crossterm has no shape for (focus
    /// reports, replies to queries) are left out.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<ct::Event> {
        // `false`: a lone ESC is the Esc key now, not the start of a sequence that may come
        // in the next packet (crossterm reads its terminal the same way).
        self.parser.parse(bytes, false);
        let mut out = Vec::new();
        while let Some(ev) = self.parser.pop() {
            if let Some(ev) = event(ev) {
                out.push(ev);
            }
        }
        out
    }
}

/// crossterm's shape of a termina event; `None` for events the dashboard does not take.
pub fn event(ev: tm::Event) -> Option<ct::Event> {
    match ev {
        tm::Event::Key(k) => key(k).map(ct::Event::Key),
        tm::Event::Mouse(m) => mouse(m).map(ct::Event::Mouse),
        tm::Event::Paste(text) => Some(ct::Event::Paste(text)),
        tm::Event::FocusIn => Some(ct::Event::FocusGained),
        tm::Event::FocusOut => Some(ct::Event::FocusLost),
        _ => None,
    }
}

fn modifiers(m: tm::Modifiers) -> ct::KeyModifiers {
    let mut out = ct::KeyModifiers::NONE;
    for (from, to) in [
        (tm::Modifiers::SHIFT, ct::KeyModifiers::SHIFT),
        (tm::Modifiers::ALT, ct::KeyModifiers::ALT),
        (tm::Modifiers::CONTROL, ct::KeyModifiers::CONTROL),
        (tm::Modifiers::SUPER, ct::KeyModifiers::SUPER),
    ] {
        if m.contains(from) {
            out |= to;
        }
    }
    out
}

fn key(k: tm::KeyEvent) -> Option<ct::KeyEvent> {
    let code = match k.code {
        tm::KeyCode::Char(c) => ct::KeyCode::Char(c),
        tm::KeyCode::Enter => ct::KeyCode::Enter,
        tm::KeyCode::Backspace => ct::KeyCode::Backspace,
        tm::KeyCode::Tab => ct::KeyCode::Tab,
        tm::KeyCode::BackTab => ct::KeyCode::BackTab,
        tm::KeyCode::Escape => ct::KeyCode::Esc,
        tm::KeyCode::Left => ct::KeyCode::Left,
        tm::KeyCode::Right => ct::KeyCode::Right,
        tm::KeyCode::Up => ct::KeyCode::Up,
        tm::KeyCode::Down => ct::KeyCode::Down,
        tm::KeyCode::Home => ct::KeyCode::Home,
        tm::KeyCode::End => ct::KeyCode::End,
        tm::KeyCode::PageUp => ct::KeyCode::PageUp,
        tm::KeyCode::PageDown => ct::KeyCode::PageDown,
        tm::KeyCode::Insert => ct::KeyCode::Insert,
        tm::KeyCode::Delete => ct::KeyCode::Delete,
        tm::KeyCode::Function(n) => ct::KeyCode::F(n),
        tm::KeyCode::Null => ct::KeyCode::Null,
        _ => return None,
    };
    let kind = match k.kind {
        tm::KeyEventKind::Press => ct::KeyEventKind::Press,
        tm::KeyEventKind::Repeat => ct::KeyEventKind::Repeat,
        tm::KeyEventKind::Release => ct::KeyEventKind::Release,
    };
    Some(ct::KeyEvent::new_with_kind(
        code,
        modifiers(k.modifiers),
        kind,
    ))
}

fn button(b: tm::MouseButton) -> ct::MouseButton {
    match b {
        tm::MouseButton::Left => ct::MouseButton::Left,
        tm::MouseButton::Right => ct::MouseButton::Right,
        tm::MouseButton::Middle => ct::MouseButton::Middle,
    }
}

fn mouse(m: tm::MouseEvent) -> Option<ct::MouseEvent> {
    let kind = match m.kind {
        tm::MouseEventKind::Down(b) => ct::MouseEventKind::Down(button(b)),
        tm::MouseEventKind::Up(b) => ct::MouseEventKind::Up(button(b)),
        tm::MouseEventKind::Drag(b) => ct::MouseEventKind::Drag(button(b)),
        tm::MouseEventKind::Moved => ct::MouseEventKind::Moved,
        tm::MouseEventKind::ScrollDown => ct::MouseEventKind::ScrollDown,
        tm::MouseEventKind::ScrollUp => ct::MouseEventKind::ScrollUp,
        tm::MouseEventKind::ScrollLeft => ct::MouseEventKind::ScrollLeft,
        tm::MouseEventKind::ScrollRight => ct::MouseEventKind::ScrollRight,
    };
    Some(ct::MouseEvent {
        kind,
        column: m.column,
        row: m.row,
        modifiers: modifiers(m.modifiers),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<ct::Event> {
        Input::default().feed(bytes)
    }

    #[test]
    fn letters_control_keys_arrows_and_a_paste_arrive_as_crossterm_events() {
        let evs = keys(b"a\x03\x1b[A\x1b[200~tok en\x1b[201~\r");
        let want = vec![
            ct::Event::Key(ct::KeyEvent::new(
                ct::KeyCode::Char('a'),
                ct::KeyModifiers::NONE,
            )),
            ct::Event::Key(ct::KeyEvent::new(
                ct::KeyCode::Char('c'),
                ct::KeyModifiers::CONTROL,
            )),
            ct::Event::Key(ct::KeyEvent::new(ct::KeyCode::Up, ct::KeyModifiers::NONE)),
            ct::Event::Paste("tok en".into()),
            ct::Event::Key(ct::KeyEvent::new(
                ct::KeyCode::Enter,
                ct::KeyModifiers::NONE,
            )),
        ];
        assert_eq!(evs, want);
    }

    #[test]
    fn thai_letters_and_a_sequence_split_between_packets_arrive_whole() {
        let mut input = Input::default();
        let mut evs = input.feed("ก".as_bytes());
        evs.extend(input.feed(b"\x1b[200~abc"));
        assert_eq!(evs.len(), 1, "the paste waits for its end: {evs:?}");
        evs.extend(input.feed(b"def\x1b[201~"));
        assert_eq!(
            evs,
            vec![
                ct::Event::Key(ct::KeyEvent::new(
                    ct::KeyCode::Char('ก'),
                    ct::KeyModifiers::NONE
                )),
                ct::Event::Paste("abcdef".into()),
            ]
        );
    }

    #[test]
    fn a_lone_escape_is_the_escape_key() {
        assert_eq!(
            keys(b"\x1b"),
            vec![ct::Event::Key(ct::KeyEvent::new(
                ct::KeyCode::Esc,
                ct::KeyModifiers::NONE
            ))]
        );
    }
}
