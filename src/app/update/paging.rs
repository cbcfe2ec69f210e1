//! `G` while the listing has more to come (issue 13 item 4): the wish is remembered, and each
//! page that arrives moves the cursor on to the true last row, loading the rest.

use crate::app::model::Model;

/// `G` was pressed (the cursor is on the last row loaded): with more pages to come, remember
/// the row it selected.
pub(super) fn want_bottom(m: &mut Model) {
    m.listing.bottom_wanted = if m.listing.has_more || m.listing.loading {
        m.queue.selected().map(|i| i.id)
    } else {
        None
    };
}

/// A page arrived: while the cursor is still where `G` left it, it moves on to the last row
/// (the prefetch after it then asks for the next page); the wish ends when nothing more is to
/// come, or when the cursor was moved meanwhile.
pub(super) fn honour_bottom(m: &mut Model) {
    let Some(wanted) = m.listing.bottom_wanted else {
        return;
    };
    if m.queue.selected().map(|i| i.id) != Some(wanted) {
        m.listing.bottom_wanted = None;
        return;
    }
    if let Some(last) = m.queue.visible().len().checked_sub(1) {
        m.queue.set_cursor(last);
    }
    m.listing.bottom_wanted = if m.listing.has_more {
        m.queue.selected().map(|i| i.id)
    } else {
        None
    };
}
