//! Keys: where a key goes (pop-up, text field, keymap) and the actions of the keymap.

use super::tell::say;
use super::{actions, club, held, listing, popups};
use crate::app::key::{Key, KeyCode};
use crate::app::keymap::{Action, Scope};
use crate::app::model::{Model, Pane, Severity};
use crate::app::msg::Effect;

/// A key press: Ctrl-C (force quit) and Ctrl-Z (suspend) first, then the pop-up, the club
/// field, Esc, the keymap.
pub(super) fn on_key(m: &mut Model, k: Key) -> Vec<Effect> {
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::ForceQuit) {
        return held::quit(m, true);
    }
    // Ctrl-Z suspends from anywhere, as in any terminal program (a text field included).
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::Suspend) {
        return vec![Effect::Suspend];
    }
    // Ctrl-L redraws from anywhere too (a pop-up, a text field): a garbled screen is no
    // less garbled under a pop-up.
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::Redraw) {
        return vec![Effect::Redraw];
    }
    if m.popup.is_some() {
        return popups::on_popup_key(m, k);
    }
    if m.focus == Pane::Club && m.club.editing {
        return club::on_club_input_key(m, k);
    }
    if k.code == KeyCode::Esc {
        // In the narrow layout Esc first closes what is shown over the queue: the request's
        // detail, the club lookup, then the log (as `L` does).
        if m.narrow() && (m.detail_open || m.focus != Pane::Queue) {
            if m.focus == Pane::Log {
                m.log.visible = false;
            }
            m.detail_open = false;
            m.focus = Pane::Queue;
            return Vec::new();
        }
        if m.narrow() && m.log.visible {
            m.log.visible = false;
            return Vec::new();
        }
        // Esc only cancels: a pending quit, a range anchor, the status message.
        m.quit_armed = false;
        m.queue.set_anchor(None);
        m.notice = None;
        return Vec::new();
    }
    match m.action_for(&k) {
        Some(a) => {
            if a != Action::Quit {
                m.quit_armed = false;
            }
            actions::run_action(m, a)
        }
        None => Vec::new(),
    }
}

/// A key while the terminal is too small to show the queue ([`Model::shows_queue`]): Ctrl-C
/// quits, Ctrl-Z suspends, Ctrl-L redraws and `q` quits when nothing waits to be sent or
/// answered (with decisions held or writes in flight it says how to go on, since the quit
/// question cannot be drawn); every other key is ignored and the notice says so. No row,
/// pop-up or prompt the moderator cannot see is acted on.
pub(super) fn on_key_unseen(m: &mut Model, k: Key) -> Vec<Effect> {
    match m.keymap.lookup(Scope::Global, &k) {
        Some(Action::ForceQuit) => return held::quit(m, true),
        Some(Action::Suspend) => return vec![Effect::Suspend],
        Some(Action::Redraw) => return vec![Effect::Redraw],
        _ => {}
    }
    // `z` takes back a held decision: it sends nothing, and the countdown it answers is on
    // the small screen's status line.
    if m.popup.is_none() && m.keymap.lookup(Scope::Queue, &k) == Some(Action::Undo) {
        return held::undo(m);
    }
    let quit_key = m.keymap.lookup(Scope::Global, &k) == Some(Action::Quit)
        || m.keymap.lookup(m.focus.scope(), &k) == Some(Action::Quit);
    if !quit_key {
        return ignore_unseen(m);
    }
    let waiting = m.held().len() + m.calls.iter().filter(|c| c.is_mutation()).count();
    if waiting > 0 {
        let text = crate::tr!(m.lang, "status-too-small-quit-waiting", n = waiting);
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    held::quit(m, false)
}

/// An input (key, paste, wheel, tap) ignored because the terminal is too small to show the
/// queue: the notice says so, and nothing else changes.
pub(super) fn ignore_unseen(m: &mut Model) -> Vec<Effect> {
    let (width, height) = m.size;
    let text = crate::tr!(
        m.lang,
        "status-too-small-key-ignored",
        width = width,
        height = height
    );
    say(m, Severity::Error, &text);
    if let Some(n) = m.notice.as_mut() {
        n.too_small = true;
    }
    Vec::new()
}

/// After a resize: a notice that a key was ignored on a small screen follows the window's
/// size while it stays too small, and goes once the queue is drawn again.
pub(super) fn resized(m: &mut Model) {
    if !m.notice.as_ref().is_some_and(|n| n.too_small) {
        return;
    }
    if m.shows_queue() {
        m.notice = None;
    } else if let Some(n) = m.notice.as_mut() {
        n.text = crate::tr!(
            m.lang,
            "status-too-small-key-ignored",
            width = m.size.0,
            height = m.size.1
        );
    }
}

/// A click placed by the view: focus the pane; in the queue, select the row.
pub(super) fn on_click(m: &mut Model, pane: Pane, row: Option<usize>) -> Vec<Effect> {
    if m.popup.is_some() {
        return Vec::new();
    }
    m.club.editing = false;
    m.focus = if pane == Pane::Log && !m.log.visible {
        Pane::Queue
    } else {
        pane
    };
    match row {
        Some(r) if pane == Pane::Queue && m.queue.offset() + r < m.queue.visible().len() => {
            m.queue.set_cursor(m.queue.offset() + r);
            listing::prefetch(m)
        }
        _ => Vec::new(),
    }
}
