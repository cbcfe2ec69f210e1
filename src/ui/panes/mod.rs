//! The panes: header, queue, detail, club lookup, activity log; one file each.

mod club;
mod detail;
mod header;
mod log;
mod queue;

use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Block;

pub(super) use club::club;
pub(super) use detail::{detail, detail_room};
pub(super) use header::header;
pub(super) use log::log;
pub(super) use queue::queue;

use super::Theme;

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
