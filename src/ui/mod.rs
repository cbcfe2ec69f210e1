//! The view: draws the Model into a ratatui frame. Reads the model, never writes it.
//!
//! Every string from the server goes through [`crate::text::clean`] (sanitised, truncated by
//! display width) before it reaches a widget.

mod panes;
mod popups;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::Action;
use crate::app::model::{Model, Pane, ScrollLimits, Severity};
use crate::i18n;
use crate::text;
pub use theme::Theme;

/// Smallest usable terminal (columns, rows); below it a notice is shown instead (the app's
/// [`crate::app::model::MIN_SIZE`], which also stops keys from acting there).
pub use crate::app::model::MIN_SIZE;

/// Spinner frames, advanced by ticks while calls are in flight.
const SPINNER: [&str; 4] = ["⠋", "⠙", "⠸", "⠴"];
/// Calls in flight are shown once they have lasted this long: a quick read (a listing page
/// on a good link) neither flickers nor costs bytes.
const SPINNER_DELAY_MS: i64 = 300;

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
/// the queue; narrow ones put them side by side below it.
pub fn areas(area: Rect, log_visible: bool) -> Areas {
    let [header, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let (main, log) = if log_visible {
        let log_h = (body.height / 4).clamp(4, 10);
        let [m, l] = Layout::vertical([Constraint::Min(4), Constraint::Length(log_h)]).areas(body);
        (m, l)
    } else {
        (body, Rect::new(body.x, body.bottom(), body.width, 0))
    };
    let (queue, detail, club) = if main.width >= 110 {
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

/// What a click at (`x`, `y`) on a screen of `width` x `height` hits: the pane and, in the
/// queue, the row counted from the first row drawn (rows start below the border and the
/// column header, as [`view`] draws them).
pub fn hit_test(
    width: u16,
    height: u16,
    log_visible: bool,
    x: u16,
    y: u16,
) -> (Pane, Option<usize>) {
    let a = areas(Rect::new(0, 0, width, height), log_visible);
    let pos = ratatui::layout::Position::new(x, y);
    if a.queue.contains(pos) {
        let first = a.queue.y + QUEUE_FIRST_ROW;
        let row = (y >= first && y + 1 < a.queue.bottom()).then(|| usize::from(y - first));
        (Pane::Queue, row)
    } else if a.club.contains(pos) {
        (Pane::Club, None)
    } else if a.log.contains(pos) {
        (Pane::Log, None)
    } else {
        (Pane::Queue, None)
    }
}

/// Lines above the first queue row inside the queue's area: the border and the column
/// header.
const QUEUE_FIRST_ROW: u16 = 2;

/// Rows of the queue table for a terminal of this size (inside the border, below the
/// column header).
pub fn queue_rows(width: u16, height: u16, log_visible: bool) -> usize {
    let a = areas(Rect::new(0, 0, width, height), log_visible);
    // The bottom border is the third line that is not a row.
    a.queue.height.saturating_sub(QUEUE_FIRST_ROW + 1) as usize
}

/// Draws the whole dashboard.
pub fn view(frame: &mut Frame, m: &Model, theme: &Theme) {
    let _ = view_scrolls(frame, m, theme);
}

/// How far `lines` wrapped into `area` can scroll: lines past the top that still leave
/// the last one at the bottom.
fn scroll_room(p: &Paragraph, area: Rect) -> u16 {
    let n = p.line_count(area.width);
    u16::try_from(n.saturating_sub(area.height as usize)).unwrap_or(u16::MAX)
}

/// The notice drawn instead of the dashboard on a terminal too small for it: the size it
/// needs, that no key acts there but quit and redraw, and the status line's message (a key
/// just ignored says so), each wrapped by words.
fn too_small(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let msg = crate::tr!(
        m.lang,
        "empty-terminal-too-small",
        width = area.width,
        height = area.height,
        min_width = MIN_SIZE.0,
        min_height = MIN_SIZE.1
    );
    let mut lines = vec![
        Line::from(text::for_terminal(&msg).into_owned()),
        Line::from(
            text::for_terminal(&i18n::tr(m.lang, "empty-terminal-too-small-keys")).into_owned(),
        ),
    ];
    if let Some((severity, said)) = m.status_line() {
        let style = match severity {
            Severity::Error => theme.error(),
            Severity::Success => theme.success(),
            Severity::Info => ratatui::style::Style::default(),
        };
        lines.push(Line::from(Span::styled(
            text::for_terminal(&said).into_owned(),
            style,
        )));
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: true }),
        area,
    );
}

/// Draws the whole dashboard ([`view`]) and says how far each scrollable part can scroll
/// as drawn: the event loop hands it to `update` (`Msg::Scrolled`), which stops scrolling
/// at the last line (issue 18 item 2).
pub fn view_scrolls(frame: &mut Frame, m: &Model, theme: &Theme) -> ScrollLimits {
    let mut limits = ScrollLimits::default();
    let area = frame.area();
    if !crate::app::model::shows_queue(area.width, area.height) {
        too_small(frame, area, m, theme);
        return limits;
    }
    let a = areas(area, m.log.visible);
    panes::header(frame, a.header, m, theme);
    panes::queue(frame, a.queue, m, theme);
    limits.detail = panes::detail(frame, a.detail, m, theme);
    limits.club = panes::club(frame, a.club, m, theme);
    if m.log.visible {
        limits.log = panes::log(frame, a.log, m, theme);
    }
    status_line(frame, a.status, m, theme);
    footer(frame, a.footer, m, theme);
    limits.help = popups::draw(frame, area, m, theme);
    limits
}

/// The status line: the message on the left; while calls are in flight (for more than
/// [`SPINNER_DELAY_MS`]), their count and the spinner at the right end, so that their coming
/// and going never moves the message (each cell rewritten costs bytes on a slow link; issue
/// 13 item 3).
fn status_line(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let mut right = Vec::new();
    if m.busy()
        && m.busy_for()
            .is_some_and(|d| d.num_milliseconds() >= SPINNER_DELAY_MS)
    {
        let i = (m.now.timestamp_subsec_millis() / 250) as usize % SPINNER.len();
        right.push(Span::styled(
            format!(
                "  {} ",
                crate::tr!(m.lang, "status-in-flight", n = m.in_flight())
            ),
            theme.dim(),
        ));
        right.push(Span::styled(SPINNER[i], theme.accent()));
    }
    let right_w: usize = right.iter().map(|s| s.width()).sum();
    let right_w = right_w.min(area.width as usize);
    if let Some((severity, text)) = m.status_line() {
        let style = match severity {
            Severity::Info => ratatui::style::Style::default(),
            Severity::Success => theme.success(),
            Severity::Error => theme.error(),
        };
        let room = (area.width as usize).saturating_sub(right_w);
        let mut left = vec![Span::styled(crate::text::clean(&text, room), style)];
        // An error cut short: its full text is in the activity log, one key away (every
        // error goes there whole, `update::say`).
        if severity == Severity::Error
            && text::width(&text) > room
            && let Some(key) = m.keymap.key_for(m.focus.scope(), Action::ToggleLog)
        {
            let more = crate::tr!(m.lang, "status-full-text", key = key.to_string());
            let rest = room.saturating_sub(text::width(&more) + 1);
            if rest >= 10 {
                left = vec![
                    Span::styled(cut_at_word(&text, rest), style),
                    Span::raw(" "),
                    Span::styled(more, theme.accent()),
                ];
            }
        }
        frame.render_widget(Paragraph::new(Line::from(left)), area);
    }
    if right_w > 0 {
        let w = right_w as u16;
        let r = Rect::new(area.right() - w, area.y, w, 1);
        frame.render_widget(Paragraph::new(Line::from(right)), r);
    }
}

/// `text` cut to `room` columns at the last space that fits, with `…` ("… fil…" would be
/// half a word); cut anywhere when no space fits.
fn cut_at_word(text: &str, room: usize) -> String {
    let cut = text::clean(text, room);
    match cut
        .strip_suffix('…')
        .and_then(|c| c.rfind(' ').map(|i| &c[..i]))
    {
        Some(head) if !head.trim().is_empty() => format!("{}…", head.trim_end()),
        _ => cut,
    }
}

fn footer(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let hints = footer_hints(m);
    let read_only = m.read_only.then(|| i18n::tr(m.lang, "header-read-only"));
    let room = (area.width as usize).saturating_sub(read_only.as_deref().map_or(0, text::width));
    let hints = fit_hints(hints, room);
    let mut spans = Vec::new();
    for (k, label, _) in hints {
        spans.push(Span::styled(
            k,
            theme.accent().add_modifier(ratatui::style::Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {label}  ")));
    }
    if let Some(r) = read_only {
        spans.push(Span::styled(r, theme.warn()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The hint bar's `(keys, label, pinned)`: the pop-up's own keys, the club field's, or the
/// keymap's for the focused pane, named in the reader's language; help and quit are pinned.
fn footer_hints(m: &Model) -> Vec<(String, String, bool)> {
    if let Some(p) = &m.popup {
        return p
            .hints(m.lang)
            .into_iter()
            .map(|(k, l)| (k, l, false))
            .collect();
    }
    if m.club.editing && m.focus == Pane::Club {
        return vec![
            ("Enter".into(), i18n::tr(m.lang, "club-hint-look-up"), false),
            ("Esc".into(), i18n::tr(m.lang, "club-hint-cancel"), false),
        ];
    }
    let label = |a: Action| i18n::tr(m.lang, &i18n::action_key("hint", a.name()));
    let mut hints: Vec<(String, String, bool)> = m
        .keymap
        .hint_actions(m.focus.scope(), m.offered())
        .into_iter()
        .map(|(k, a)| (k, label(a), matches!(a, Action::Help | Action::Quit)))
        .collect();
    // Taking a decision back is offered first, and only while one is held.
    if !m.held().is_empty()
        && m.focus == Pane::Queue
        && let Some(k) = m.keymap.key_for(m.focus.scope(), Action::Undo)
    {
        hints.insert(0, (k.to_string(), label(Action::Undo), false));
    }
    hints
}

/// The hints that fit in `width` columns, in order: when some must go, the last ones go
/// first, but `help` and `quit` always stay (a moderator needs them first).
fn fit_hints(mut hints: Vec<(String, String, bool)>, width: usize) -> Vec<(String, String, bool)> {
    let cost = |h: &(String, String, bool)| text::width(&h.0) + text::width(&h.1) + 3;
    while hints.iter().map(cost).sum::<usize>() > width {
        match hints.iter().rposition(|h| !h.2) {
            Some(i) => {
                hints.remove(i);
            }
            None => break,
        }
    }
    hints
}
