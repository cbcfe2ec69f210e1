//! Where each part of the screen goes: the header, the panes, the activity log, the status
//! line and the hint bar, by the terminal's size. A leaf of the view.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::app::model::{Model, Pane, is_narrow};

/// The areas of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// Header line.
    pub header: Rect,
    /// Queue pane (with border).
    pub queue: Rect,
    /// Detail pane.
    pub detail: Rect,
    /// Club pane.
    pub club: Rect,
    /// Activity log (zero-sized when hidden).
    pub log: Rect,
    /// Status line.
    pub status: Rect,
    /// Key hints.
    pub footer: Rect,
}

/// Splits the screen. Wide terminals (>= 110 columns) put detail and club to the right of
/// the queue; narrower ones put them side by side below it; the narrow layout (below
/// [`crate::app::model::NARROW_WIDTH`] columns) gives the queue, the detail and the club the
/// same area, one of them drawn at a time ([`super::narrow_pane`]).
pub fn areas(area: Rect, log_visible: bool) -> Areas {
    let [header, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(footer_lines(area)),
    ])
    .areas(area);
    let (main, log) = if log_visible {
        let log_h = (body.height / 4).clamp(4, 10);
        let [m, l] = Layout::vertical([Constraint::Min(4), Constraint::Length(log_h)]).areas(body);
        (m, l)
    } else {
        (body, Rect::new(body.x, body.bottom(), body.width, 0))
    };
    let (queue, detail, club) = if is_narrow(area.width) {
        (main, main, main)
    } else if main.width >= 110 {
        let [q, right] =
            Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
                .areas(main);
        let [d, c] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(right);
        (q, d, c)
    } else {
        let [q, bottom] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(main);
        let [d, c] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(bottom);
        (q, d, c)
    };
    Areas {
        header,
        queue,
        detail,
        club,
        log,
        status,
        footer,
    }
}

/// Lines of the hint bar: two in the narrow layout on a screen of 20 rows or more (a phone
/// held upright: its few keys with their words), else one.
fn footer_lines(area: Rect) -> u16 {
    if is_narrow(area.width) && area.height >= 20 {
        2
    } else {
        1
    }
}

/// The pane the narrow layout draws in its one area: the club lookup while it has the
/// focus, the selected request's detail while it is open ([`Model::detail_open`]), else the
/// queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NarrowPane {
    /// The queue.
    Queue,
    /// The selected request's detail.
    Detail,
    /// The club lookup.
    Club,
}

/// See [`NarrowPane`]. (`m.detail_open` is read as set: the view draws at the frame's
/// size, which tests may choose apart from the model's.)
pub fn narrow_pane(m: &Model) -> NarrowPane {
    if m.focus == Pane::Club {
        NarrowPane::Club
    } else if m.detail_open {
        NarrowPane::Detail
    } else {
        NarrowPane::Queue
    }
}
