//! What every pane shares: its bordered block, titled and lit when it has the focus, and how
//! far its wrapped text can scroll. A leaf of the panes.

use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Block;

use crate::ui::theme::Theme;

/// A pane's bordered block: `title` bold and the border lit while `focused`.
pub(super) fn block<'a>(title: String, focused: bool, theme: &Theme) -> Block<'a> {
    Block::bordered()
        .border_style(theme.border(focused))
        .title(Span::styled(
            title,
            if focused {
                theme.bold()
            } else {
                Style::default()
            },
        ))
}

/// How far `lines` wrapped into `area` can scroll: lines past the top that still leave
/// the last one at the bottom.
pub(crate) fn scroll_room(p: &ratatui::widgets::Paragraph, area: ratatui::layout::Rect) -> u16 {
    let n = p.line_count(area.width);
    u16::try_from(n.saturating_sub(area.height as usize)).unwrap_or(u16::MAX)
}
