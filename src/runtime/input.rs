//! Terminal input to the app's messages: crossterm's events become [`Msg`]s with the app's
//! own [`Key`] type; clicks are placed by the view's geometry ([`crate::ui::hit_test`]).

use crossterm::event::{
    Event, KeyCode as CtKeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};

use crate::app::{Key, KeyCode, Msg};

/// The app's key for a crossterm key event; `None` for releases and keys the app does not
/// use (media keys, lone modifiers, ...).
pub fn key(ev: &KeyEvent) -> Option<Key> {
    if ev.kind == KeyEventKind::Release {
        return None;
    }
    let code = match ev.code {
        CtKeyCode::Char(c) => KeyCode::Char(c),
        CtKeyCode::Enter => KeyCode::Enter,
        CtKeyCode::Esc => KeyCode::Esc,
        CtKeyCode::Tab if ev.modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        CtKeyCode::Tab => KeyCode::Tab,
        CtKeyCode::BackTab => KeyCode::BackTab,
        CtKeyCode::Backspace => KeyCode::Backspace,
        CtKeyCode::Delete => KeyCode::Delete,
        CtKeyCode::Up => KeyCode::Up,
        CtKeyCode::Down => KeyCode::Down,
        CtKeyCode::Left => KeyCode::Left,
        CtKeyCode::Right => KeyCode::Right,
        CtKeyCode::Home => KeyCode::Home,
        CtKeyCode::End => KeyCode::End,
        CtKeyCode::PageUp => KeyCode::PageUp,
        CtKeyCode::PageDown => KeyCode::PageDown,
        CtKeyCode::F(n) => KeyCode::F(n),
        _ => return None,
    };
    Some(Key {
        code,
        ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
        alt: ev
            .modifiers
            .intersects(KeyModifiers::ALT | KeyModifiers::META),
    })
}

/// The message for a terminal event, on a screen of `size` (columns, rows) with the
/// activity log shown or not (for placing clicks). `None` for events the app ignores.
pub fn to_msg(ev: Event, size: (u16, u16), log_visible: bool) -> Option<Msg> {
    tracing::trace!(?ev, "terminal event");
    match ev {
        Event::Key(k) => key(&k).map(Msg::Key),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Mouse(me) => match me.kind {
            MouseEventKind::ScrollDown => Some(Msg::Wheel { down: true }),
            MouseEventKind::ScrollUp => Some(Msg::Wheel { down: false }),
            MouseEventKind::Down(MouseButton::Left) => {
                let (pane, row) =
                    crate::ui::hit_test(size.0, size.1, log_visible, me.column, me.row);
                Some(Msg::Click { pane, row })
            }
            _ => None,
        },
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}
