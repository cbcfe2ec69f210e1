//! The frame as a terminal will show it: no two-cell grapheme under something drawn later.

use ratatui::buffer::{Buffer, CellWidth};

/// Makes the frame in `buf` what a terminal shows of it: a two-cell grapheme whose second
/// cell holds something drawn after it, or that starts in the buffer's last column, becomes a
/// blank in its own style (as a terminal erases a wide character written over).
///
/// ratatui's diff assumes that no two-cell grapheme is followed by a drawn cell, but its word
/// wrapping lets a line run one cell past its area when the line ends in a two-cell grapheme
/// (an emoji of a student's name, a CJK character), and the paragraph draws it onto the pane's
/// border. The terminal then draws the emoji over the border while the diff believes the
/// border there, and the next frame that writes another character in place of the emoji
/// leaves the pane's edge blank until `Ctrl-L`. Run on every frame by
/// [`super::view_scrolls`]; a frame of the dashboard that is well formed is left as it is.
pub fn settle_wide_cells(buf: &mut Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let w = buf[(x, y)].symbol().cell_width();
            if w < 2 {
                continue;
            }
            let covered = (x + 1..x.saturating_add(w))
                .any(|next| next >= area.right() || !buf[(next, y)].symbol().starts_with(' '));
            if covered {
                buf[(x, y)].set_symbol(" ");
            }
        }
    }
}
