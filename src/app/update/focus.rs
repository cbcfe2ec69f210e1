//! Which pane has the focus: cycled by Tab and Shift-Tab (the log among them while it is
//! shown), the activity log shown or hidden, the club lookup's field taken. A leaf of
//! `update`: the keys, the actions and the club pane's field all move the focus here.

use crate::app::keymap::Action;
use crate::app::model::{Model, Pane};

/// The pane actions: cycle the focus, show or hide the log (focus leaves a hidden log; a
/// shown log starts at its newest line), edit the club lookup. Any other action does nothing.
pub(super) fn pane_action(m: &mut Model, a: Action) {
    match a {
        Action::NextPane | Action::PrevPane => cycle_pane(m, a == Action::NextPane),
        Action::ToggleLog => {
            m.log.visible = !m.log.visible;
            if !m.log.visible && m.focus == Pane::Log {
                m.focus = Pane::Queue;
            }
            if m.log.visible {
                m.log.scroll = 0;
            }
        }
        Action::ClubLookup => {
            m.focus = Pane::Club;
            m.club.editing = true;
        }
        // Only the four above are sent here: `actions::run_action` names every action.
        _ => {}
    }
}

fn cycle_pane(m: &mut Model, forward: bool) {
    let order: &[Pane] = if m.log.visible {
        &[Pane::Queue, Pane::Club, Pane::Log]
    } else {
        &[Pane::Queue, Pane::Club]
    };
    let pos = order.iter().position(|p| *p == m.focus).unwrap_or(0);
    let n = order.len();
    m.focus = if forward {
        order[(pos + 1) % n]
    } else {
        order[(pos + n - 1) % n]
    };
}
