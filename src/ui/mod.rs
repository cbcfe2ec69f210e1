//! The view: draws the Model into a ratatui frame. Reads the model, never writes it.
//!
//! Every string from the server goes through [`crate::text::clean`] (sanitised, truncated by
//! display width) before it reaches a widget.

mod cells;
mod help;
mod hints;
mod history;
mod layout;
mod panes;
mod popups;
mod term;
pub mod theme;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::model::{Model, Pane, ScrollLimits, Severity, is_narrow};
use crate::app::{Action, Key, Scope};
use crate::i18n;
use crate::text;
pub use cells::settle_wide_cells;
use hints::{footer, footer_layout, shown_detail};
pub use layout::{Areas, NarrowPane, areas, narrow_pane};
pub use theme::Theme;

/// Smallest usable terminal (columns, rows); below it a notice is shown instead (the app's
/// [`crate::app::model::MIN_SIZE`], which also stops keys from acting there).
pub use crate::app::model::MIN_SIZE;

/// Spinner frames, advanced by ticks while calls are in flight.
const SPINNER: [&str; 4] = ["⠋", "⠙", "⠸", "⠴"];
/// Calls in flight are shown once they have lasted this long: a quick read (a listing page
/// on a good link) neither flickers nor costs bytes.
const SPINNER_DELAY_MS: i64 = 300;

/// What a tap (a left click) at (`x`, `y`) on a screen of `width` x `height` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tap {
    /// A pane and, in the queue, the row counted from the first row drawn (`Msg::Click`).
    Pane(Pane, Option<usize>),
    /// A key: a hint of the hint bar, or (narrow layout) the selected row, which opens its
    /// detail.
    Key(Key),
    /// Nothing that acts.
    Nothing,
}

/// What a tap at (`x`, `y`) hits, by the view's own geometry (the areas, the hint bar as
/// [`footer`] lays it out): a phone needs no Esc or Tab key when its hints can be tapped.
pub fn tap(m: &Model, width: u16, height: u16, x: u16, y: u16) -> Tap {
    let area = Rect::new(0, 0, width, height);
    if !crate::app::model::shows_queue(width, height) {
        return Tap::Nothing;
    }
    let a = areas(area, m.log.visible);
    let pos = ratatui::layout::Position::new(x, y);
    if a.footer.contains(pos) {
        return footer_layout(
            m,
            a.footer.width as usize,
            a.footer.height,
            shown_detail(m, &a),
        )
        .into_iter()
        .find(|h| a.footer.y + h.y == y && x >= h.x && x < h.x + h.width)
        .and_then(|h| h.key)
        .map_or(Tap::Nothing, Tap::Key);
    }
    if m.popup.is_some() {
        return Tap::Nothing;
    }
    let narrow = is_narrow(width);
    let queue_shown = !narrow || narrow_pane(m) == NarrowPane::Queue;
    if a.log.contains(pos) {
        Tap::Pane(Pane::Log, None)
    } else if queue_shown && a.queue.contains(pos) {
        let first = a.queue.y + QUEUE_FIRST_ROW;
        let row = (y >= first && y + 1 < a.queue.bottom()).then(|| usize::from(y - first));
        // A tap on the selected row of the narrow queue opens its detail, as Enter does.
        if narrow
            && row.is_some_and(|r| m.queue.offset() + r == m.queue.cursor())
            && let Some(k) = m.keymap.key_for(Scope::Queue, Action::Open)
        {
            return Tap::Key(k);
        }
        Tap::Pane(Pane::Queue, row)
    } else if (!narrow || narrow_pane(m) == NarrowPane::Club) && a.club.contains(pos) {
        Tap::Pane(Pane::Club, None)
    } else {
        Tap::Pane(Pane::Queue, None)
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
    let keys = i18n::tr(m.lang, "empty-terminal-too-small-keys");
    // The status line before the keys: a held decision's countdown (and `z undo`) or the
    // key just ignored is what a small window must not cut.
    let mut texts = vec![(msg, theme.bold())];
    if let Some((severity, said)) = m.status_line() {
        let style = match severity {
            Severity::Error => theme.error(),
            Severity::Success => theme.success(),
            Severity::Info => ratatui::style::Style::default(),
        };
        texts.push((said, style));
    }
    texts.push((keys, ratatui::style::Style::default()));
    // Wrapped by words, and a Thai run (no spaces) only where a line may break: never after
    // a leading vowel or inside a SARA AM (`text::wrap`).
    let lines: Vec<Line> = texts
        .into_iter()
        .flat_map(|(t, style)| {
            text::wrap(&text::sanitize(&t), area.width as usize)
                .into_iter()
                .map(move |l| Line::styled(l, style))
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// Draws the whole dashboard ([`view`]) and says how far each scrollable part can scroll
/// as drawn: the event loop hands it to `update` (`Msg::Scrolled`), which stops scrolling
/// at the last line.
pub fn view_scrolls(frame: &mut Frame, m: &Model, theme: &Theme) -> ScrollLimits {
    let mut limits = ScrollLimits::default();
    let area = frame.area();
    if !crate::app::model::shows_queue(area.width, area.height) {
        too_small(frame, area, m, theme);
        settle_wide_cells(frame.buffer_mut());
        return limits;
    }
    let a = areas(area, m.log.visible);
    panes::header(frame, a.header, m, theme);
    if is_narrow(area.width) {
        match narrow_pane(m) {
            NarrowPane::Queue => panes::queue(frame, a.queue, m, theme),
            NarrowPane::Detail => limits.detail = panes::detail(frame, a.detail, m, theme),
            NarrowPane::Club => limits.club = panes::club(frame, a.club, m, theme),
        }
    } else {
        panes::queue(frame, a.queue, m, theme);
        limits.detail = panes::detail(frame, a.detail, m, theme);
        limits.club = panes::club(frame, a.club, m, theme);
    }
    if m.log.visible {
        limits.log = panes::log(frame, a.log, m, theme);
    }
    status_line(frame, a.status, m, theme);
    footer(frame, a.footer, m, theme, shown_detail(m, &a));
    limits.help = popups::draw(frame, area, m, theme);
    settle_wide_cells(frame.buffer_mut());
    limits
}

/// The status line: the message on the left; while calls are in flight (for more than
/// [`SPINNER_DELAY_MS`]), their count and the spinner at the right end, so that their coming
/// and going never moves the message (each cell rewritten costs bytes on a slow link).
fn status_line(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let mut right = Vec::new();
    if m.busy()
        && m.busy_for()
            .is_some_and(|d| d.num_milliseconds() >= SPINNER_DELAY_MS)
    {
        let i = (m.now.timestamp_subsec_millis() / 250) as usize % SPINNER.len();
        // Calls on the wire; none there, the calls waiting (behind the limit of calls in
        // flight, or before a retry): "0 in flight" beside a spinner would be untrue.
        let count = match m.in_flight() {
            0 => crate::tr!(m.lang, "status-calls-waiting", n = m.awaited()),
            n => crate::tr!(m.lang, "status-in-flight", n = n),
        };
        right.push(Span::styled(format!("  {count} "), theme.dim()));
        right.push(Span::styled(SPINNER[i], theme.accent()));
    }
    let right_w: usize = right.iter().map(|s| s.width()).sum();
    let right_w = right_w.min(area.width as usize);
    if let Some((severity, full, label)) = m.status_line_labelled() {
        let style = match severity {
            Severity::Info => ratatui::style::Style::default(),
            Severity::Success => theme.success(),
            Severity::Error => theme.error(),
        };
        let room = (area.width as usize).saturating_sub(right_w);
        let notice = m.notice.as_ref().filter(|n| n.text == full);
        // A notice with a shorter form (a bulk's summary) shows that where it does not
        // fit: its counts stay whole, its words give way.
        let full = match notice.and_then(|n| n.short.clone()) {
            Some(short) if text::width(&full) > room => short,
            _ => full,
        };
        let shortened = notice.is_some_and(|n| n.text != full);
        let text = shorten_label(&full, label.as_deref(), room);
        let mut left = vec![Span::styled(crate::text::clean(&text, room), style)];
        // An error cut short: its full text is in the activity log, one key away (every
        // error goes there whole, `update::say`); so is any notice logged whole.
        let logged = notice.is_some_and(|n| n.logged);
        if (severity == Severity::Error || logged)
            && (text::width(&text) > room || shortened)
            && let Some(key) = m.keymap.key_for(m.focus.scope(), Action::ToggleLog)
        {
            let more = crate::tr!(m.lang, "status-full-text", key = key.to_string());
            let rest = room.saturating_sub(text::width(&more) + 1);
            let text = shorten_label(&full, label.as_deref(), rest);
            // A short form is never cut for the key: its counts come first.
            if rest >= 10 && !(shortened && text::width(&text) > rest) {
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

/// Fewest columns a request's label is cut to on the status line ("Somchai J…").
const LABEL_MIN: usize = 10;

/// `text` with the request's `label` in it cut first (to no fewer than [`LABEL_MIN`]
/// columns) when `text` is wider than `room`: "delete Nattawut S… failed: …" keeps what
/// happened in sight, where cutting the end would hide it.
fn shorten_label(text: &str, label: Option<&str>, room: usize) -> String {
    let width = text::width(text);
    let Some(label) = label.filter(|l| width > room && text.contains(*l)) else {
        return text.to_owned();
    };
    let label_w = text::width(label);
    let want = label_w.saturating_sub(width - room).max(LABEL_MIN);
    if want >= label_w {
        return text.to_owned();
    }
    text.replacen(label, &text::clean(label, want), 1)
}

/// `text` cut to `room` columns at the last space that fits, with `…` ("… fil…" would be
/// half a word); cut anywhere when no space fits.
fn cut_at_word(text: &str, room: usize) -> String {
    let cut = text::clean(text, room);
    // Cut just before a space: the last word is whole already.
    if let Some(head) = cut.strip_suffix('…')
        && text.strip_prefix(head).is_some_and(|r| r.starts_with(' '))
    {
        let head = head.trim_end();
        return match head.ends_with('…') {
            true => head.to_owned(),
            false => format!("{head}…"),
        };
    }
    match cut
        .strip_suffix('…')
        .and_then(|c| c.rfind(' ').map(|i| &c[..i]))
    {
        Some(head) if !head.trim().is_empty() => format!("{}…", head.trim_end()),
        _ => cut,
    }
}
