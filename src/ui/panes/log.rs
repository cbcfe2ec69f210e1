//! The activity log pane.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::block;
use crate::app::Outcome;
use crate::app::model::{Model, Pane};
use crate::text::clean;
use crate::ui::Theme;

pub(in crate::ui) fn log(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Log && m.popup.is_none();
    let blk = block(
        format!(" Activity ({}) ", m.log.entries().len()),
        focused,
        theme,
    );
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    let h = inner.height as usize;
    let end = m.log.entries().len().saturating_sub(m.log.scroll);
    let start = end.saturating_sub(h);
    let w = inner.width as usize;
    let lines: Vec<Line> = m.log.entries()[start..end]
        .iter()
        .map(|e| {
            let (mark, style) = match e.outcome {
                Outcome::Ok => ("ok", theme.success()),
                Outcome::Failed => ("failed", theme.error()),
                Outcome::Unknown => ("outcome unknown", theme.warn()),
                Outcome::Undone => ("undone", theme.dim()),
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
            Line::from(vec![
                Span::styled(e.at.format("%H:%M:%S ").to_string(), theme.dim()),
                Span::styled(format!("{:<11} ", clean(&e.what, 11)), theme.bold()),
                Span::styled(format!("{target} "), theme.dim()),
                Span::raw(clean(&e.label, 40)),
                Span::raw(" "),
                Span::styled(
                    clean(&format!("{mark}{extra}"), w.saturating_sub(70).max(20)),
                    style,
                ),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
