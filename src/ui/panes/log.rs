//! The activity log pane, in the reader's language (keys `log-*`): what ran, the request,
//! the label, and how it ended with why.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane::block;
use crate::app::Outcome;
use crate::app::model::log::what_text;
use crate::app::model::{Model, Pane};
use crate::i18n::tr;
use crate::text::{clean, width};
use crate::ui::theme::Theme;

/// Columns of the "what" column (an action in either language fits).
const WHAT_COLS: usize = 11;

/// Draws the log, newest at the bottom, each entry whole (wrapped to the pane's width, never
/// cut); returns how far it can scroll up, in lines from the newest.
pub(in crate::ui) fn log(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) -> usize {
    let focused = m.focus == Pane::Log && m.popup.is_none();
    let title = crate::tr!(m.lang, "log-title", n = m.log.entries().len());
    let blk = block(format!(" {title} "), focused, theme);
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    if m.log.entries().is_empty() {
        let empty = Span::styled(tr(m.lang, "log-empty"), theme.dim());
        frame.render_widget(Paragraph::new(Line::from(empty)), inner);
        return 0;
    }
    let lines: Vec<Line> = m
        .log
        .entries()
        .iter()
        .map(|e| {
            let (mark, style) = outcome_mark(e.outcome, theme);
            // A notice or an error said on the status line is its own words: no outcome
            // word after it ("... failed").
            let said = matches!(e.what.as_str(), "error" | "notice");
            let mark = if said {
                String::new()
            } else {
                tr(m.lang, mark)
            };
            let extra = e
                .detail
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            let target = e
                .target
                .map(crate::app::model::short_id)
                .unwrap_or_default();
            let what = clean(&what_text(m.lang, &e.what), WHAT_COLS);
            let pad = " ".repeat(WHAT_COLS.saturating_sub(width(&what)) + 1);
            let target = if target.is_empty() {
                String::new()
            } else {
                format!("{target} ")
            };
            Line::from(vec![
                Span::styled(e.at.format("%H:%M:%S ").to_string(), theme.dim()),
                Span::styled(format!("{what}{pad}"), theme.bold()),
                Span::styled(target, theme.dim()),
                Span::raw(clean(&e.label, 2000)),
                Span::raw(" "),
                Span::styled(clean(&format!("{mark}{extra}"), 4000), style),
            ])
        })
        .collect();
    // Each entry wrapped once: where it starts, and the whole text's height.
    let (starts, total) = entry_starts(&lines, inner.width);
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let room = total.saturating_sub(inner.height);
    let mut from_top = room - m.log.scroll.min(room as usize) as u16;
    if m.log.scroll == 0 {
        // Following the newest: the top entry whole (on a phone it had begun
        // mid-sentence), the last one from its start when it alone is taller than the pane.
        let last = starts.last().copied().unwrap_or(0);
        from_top = starts
            .iter()
            .copied()
            .find(|&s| s >= from_top)
            .unwrap_or(last)
            .min(last);
    }
    frame.render_widget(text.scroll((from_top, 0)), inner);
    room as usize
}

/// The line, wrapped to `cols`, each entry of `lines` starts on, and the lines of all of
/// them (the wrapped text's height: an entry wraps on its own).
fn entry_starts(lines: &[Line], cols: u16) -> (Vec<u16>, u16) {
    let mut at = 0u16;
    let starts = lines
        .iter()
        .map(|l| {
            let start = at;
            let n = Paragraph::new(l.clone())
                .wrap(Wrap { trim: false })
                .line_count(cols);
            at = at.saturating_add(u16::try_from(n).unwrap_or(u16::MAX));
            start
        })
        .collect();
    (starts, at)
}

/// An outcome's word (its locale key) and colour, for the activity log and the team's
/// history alike.
pub(in crate::ui) fn outcome_mark(outcome: Outcome, theme: &Theme) -> (&'static str, Style) {
    match outcome {
        Outcome::Ok => ("log-outcome-ok", theme.success()),
        Outcome::Failed => ("log-outcome-failed", theme.error()),
        Outcome::Unknown => ("log-outcome-unknown", theme.warn()),
        Outcome::Undone => ("log-outcome-undone", theme.dim()),
        Outcome::Already => ("log-outcome-already", theme.dim()),
        Outcome::Conflict => ("log-outcome-conflict", theme.error()),
        Outcome::Overwritten => ("log-outcome-overwritten", theme.error()),
        Outcome::NotSent => ("log-outcome-not-sent", theme.dim()),
        // An open write: never in the activity log (the write-ahead line is the audit
        // file's), in the history until a later line settles it.
        Outcome::Sending => ("log-outcome-sending", theme.warn()),
        Outcome::Queued => ("log-outcome-queued", theme.warn()),
    }
}
