//! Terminal input to the app's messages: crossterm's events become [`Msg`]s with the app's
//! own [`Key`] type; taps are placed by the view's geometry ([`crate::ui::tap`]).

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

/// The message for a terminal event, on a screen of `size` (columns, rows) showing `model`
/// (taps are placed by the view's geometry, [`crate::ui::tap`]). `None` for events the app
/// ignores.
///
/// Taps are keys (a phone has no Esc or Tab without an extra key row): a tap on a hint of
/// the hint bar presses its key, a tap on a queue row selects it (on the selected row of the
/// narrow queue, opens its detail); the wheel (or a swipe, which phone terminals send as
/// wheel notches) scrolls the help while it is open, the detail while the narrow layout shows
/// it, else moves in the focused pane.
pub fn to_msg(ev: Event, size: (u16, u16), model: &crate::app::Model) -> Option<Msg> {
    tracing::trace!(?ev, "terminal event");
    match ev {
        Event::Key(k) => key(&k).map(Msg::Key),
        Event::Paste(s) => Some(Msg::Paste(s)),
        Event::Mouse(me) => match me.kind {
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = me.kind == MouseEventKind::ScrollDown;
                Some(wheel(model, down))
            }
            MouseEventKind::Down(MouseButton::Left) => {
                match crate::ui::tap(model, size.0, size.1, me.column, me.row) {
                    crate::ui::Tap::Key(k) => Some(Msg::Key(k)),
                    crate::ui::Tap::Pane(pane, row) => Some(Msg::Click { pane, row }),
                    crate::ui::Tap::Nothing => None,
                }
            }
            _ => None,
        },
        Event::Resize(w, h) => Some(Msg::Resize(w, h)),
        _ => None,
    }
}

/// One notch of the wheel: the help's scroll keys while it is open, the detail's while the
/// narrow layout shows it, else [`Msg::Wheel`].
fn wheel(model: &crate::app::Model, down: bool) -> Msg {
    use crate::app::{Action, Popup, Scope};
    if matches!(model.popup(), Some(Popup::Help { .. })) {
        return Msg::Key(Key::new(if down { KeyCode::Down } else { KeyCode::Up }));
    }
    if model.detail_open() {
        let action = if down {
            Action::DetailDown
        } else {
            Action::DetailUp
        };
        if let Some(k) = model.keymap.key_for(Scope::Queue, action) {
            return Msg::Key(k);
        }
    }
    Msg::Wheel { down }
}
