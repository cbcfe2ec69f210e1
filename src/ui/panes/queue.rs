//! The queue pane: counts, filter and sort, one row per club request.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use super::block;
use crate::api::MembershipStatus;
use crate::app::model::{ListingSupport, Loadable, Model, Pane, QueueItem, RowState};
use crate::text::clean;
use crate::ui::{Theme, age};

pub(super) fn status_cell(item: &QueueItem, theme: &Theme) -> (String, Style) {
    match &item.state {
        RowState::Acting(a) => (
            a.progress().to_owned(),
            theme.accent().add_modifier(Modifier::BOLD),
        ),
        RowState::Deleted => (
            "deleted".into(),
            theme.dim().add_modifier(Modifier::CROSSED_OUT),
        ),
        RowState::Gone => ("gone".into(), theme.dim()),
        RowState::Loading if item.request.is_none() => ("loading…".into(), theme.dim()),
        RowState::Failed => ("error".into(), theme.error()),
        _ => match item.status() {
            Some(MembershipStatus::Pending) => ("pending".into(), theme.warn()),
            Some(MembershipStatus::Approved) => ("approved".into(), theme.success()),
            Some(MembershipStatus::Declined) => ("declined".into(), theme.error()),
            Some(MembershipStatus::Other(o)) => (clean(o, 10), Style::default()),
            None if item.state == RowState::Unloaded => ("·".into(), theme.dim()),
            None => ("?".into(), theme.dim()),
        },
    }
}

pub(in crate::ui) fn queue(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Queue && m.popup.is_none();
    let q = &m.queue;
    let title = title(m);
    let mut blk = block(title, focused, theme);
    let bottom = bottom_line(m, theme);
    blk = blk.title_bottom(Line::from(bottom));
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    if q.visible().is_empty() {
        let msg = empty_message(m);
        frame.render_widget(
            Paragraph::new(msg)
                .style(theme.dim())
                .wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    let rows_room = inner.height.saturating_sub(1) as usize;
    // The offset is kept by `update`; clamp here too so the cursor is always drawn.
    let mut offset = q.offset().min(q.cursor());
    if q.cursor() >= offset + rows_room.max(1) {
        offset = q.cursor() + 1 - rows_room.max(1);
    }
    let wide = inner.width >= 56;
    let name_w = if wide {
        (inner.width as usize).saturating_sub(26) / 2
    } else {
        (inner.width as usize).saturating_sub(22)
    };
    let rows: Vec<Row> = q.visible()[offset..(offset + rows_room).min(q.visible().len())]
        .iter()
        .enumerate()
        .map(|(n, &i)| {
            row(
                m,
                &q.items()[i],
                offset + n == q.cursor(),
                wide,
                name_w,
                theme,
            )
        })
        .collect();
    let mut widths = vec![
        Constraint::Length(1),
        Constraint::Length(11),
        Constraint::Fill(1),
    ];
    let mut head = vec!["", "status", "student"];
    if wide {
        widths.push(Constraint::Fill(1));
        head.push("club");
    }
    widths.push(Constraint::Length(4));
    widths.push(Constraint::Length(4));
    head.push("year");
    head.push("age");
    let table = Table::new(rows, widths)
        .header(Row::new(head).style(theme.dim().add_modifier(Modifier::UNDERLINED)))
        .column_spacing(1);
    frame.render_widget(table, inner);
}

/// The pane's title: rows shown of all, counts by membership status, marks.
fn title(m: &Model) -> String {
    let q = &m.queue;
    let (pending, approved, declined, _) = q.counts();
    let marked = q.stats().marked;
    let mut title = if q.visible().len() == q.items().len() {
        format!(" Queue {}", q.items().len())
    } else {
        format!(" Queue {}/{}", q.visible().len(), q.items().len())
    };
    title.push_str(&format!(
        " · {pending} pending · {approved} approved · {declined} declined"
    ));
    if marked > 0 {
        title.push_str(&format!(" · {marked} marked"));
    }
    title.push(' ');
    title
}

/// The pane's bottom line: filter, sort, last refresh, the server's count, paging.
fn bottom_line<'a>(m: &Model, theme: &Theme) -> Vec<Span<'a>> {
    let q = &m.queue;
    let mut bottom = Vec::new();
    if !q.filter().is_empty() {
        bottom.push(Span::styled(
            format!(" /{} ", clean(q.filter(), 30)),
            theme.warn(),
        ));
    }
    bottom.push(Span::styled(
        format!(" sort: {} ", q.sort().label()),
        theme.dim(),
    ));
    if let Some(at) = m.listing.refreshed_at {
        // Minutes, not seconds: a text that changed every second would be rewritten with
        // every key pressed (issue 13 item 3).
        let text = match age(m.now, at) {
            a if a == "now" => " updated just now ".to_owned(),
            a => format!(" updated {a} ago "),
        };
        bottom.push(Span::styled(text, theme.dim()));
    }
    if let Some(t) = m.listing.total {
        bottom.push(Span::styled(format!(" server: {t} pending "), theme.dim()));
    }
    // One text while more is to come, loading or not (the status line's spinner shows a
    // page being loaded): the line does not flicker with every page.
    if m.listing.has_more || m.listing.loading {
        bottom.push(Span::styled(" more below ", theme.dim()));
    }
    bottom
}

/// What the empty queue says: why it is empty and what to press.
fn empty_message(m: &Model) -> String {
    let q = &m.queue;
    if q.items().is_empty() {
        match (&m.user, m.listing.support) {
            (Loadable::Loading, _) => "Loading…".to_owned(),
            (_, ListingSupport::Unavailable) => {
                "No requests. This server has no listing: press i to add club request ids."
                    .to_owned()
            }
            _ if m.session_expired || !m.has_token => {
                "Not signed in: press S to sign in, and the queue loads.".to_owned()
            }
            (Loadable::Failed(_), _) => {
                "Could not read the signed-in user (see the status line): r to try again."
                    .to_owned()
            }
            _ if m.listing.loading => "Loading the queue…".to_owned(),
            _ => "No pending requests. Press i to add club request ids, r to refresh.".to_owned(),
        }
    } else {
        format!(
            "No request matches the filter /{}  (/ to change, Esc in the filter to undo)",
            clean(q.filter(), 30)
        )
    }
}

/// One row of the table.
fn row<'a>(
    m: &Model,
    item: &QueueItem,
    selected: bool,
    wide: bool,
    name_w: usize,
    theme: &Theme,
) -> Row<'a> {
    let (st, st_style) = status_cell(item, theme);
    let student = item
        .student_name()
        .map(|n| match item.school_number() {
            Some(no) => format!("{n} #{no}"),
            None => n,
        })
        .or_else(|| item.school_number().map(|no| format!("#{no}")))
        .unwrap_or_else(|| item.id.to_string()[..8].to_owned() + "…");
    let club = item
        .club_name()
        .map(str::to_owned)
        .or_else(|| {
            item.request
                .as_ref()
                .and_then(|r| r.club.as_ref())
                .and_then(|c| m.listing.club_names.get(&c.id).cloned())
        })
        .unwrap_or_default();
    let year = item
        .request
        .as_ref()
        .and_then(|r| r.year)
        .map(|y| y.to_string())
        .unwrap_or_default();
    let ago = item
        .request
        .as_ref()
        .and_then(|r| r.created_at)
        .map(|t| age(m.now, t))
        .unwrap_or_default();
    let mark = match (item.marked, item.shown_error().is_some()) {
        (true, true) => Span::styled("✱", theme.error().add_modifier(Modifier::BOLD)),
        (true, false) => Span::styled("●", theme.accent().add_modifier(Modifier::BOLD)),
        (false, true) => Span::styled("!", theme.error()),
        (false, false) => Span::raw(" "),
    };
    // The selected row is plain reverse video: readable in any palette, and moving
    // the cursor rewrites as few bytes as possible (a slow SSH link pays for each).
    let status = if selected {
        Span::raw(st)
    } else {
        Span::styled(st, st_style)
    };
    let mut cells = vec![
        Cell::from(mark),
        Cell::from(status),
        Cell::from(clean(&student, name_w)),
    ];
    if wide {
        cells.push(Cell::from(clean(&club, name_w)));
    }
    cells.push(Cell::from(year));
    cells.push(Cell::from(ago));
    let mut row = Row::new(cells);
    if selected {
        row = row.style(theme.selected());
    } else if matches!(item.state, RowState::Deleted | RowState::Gone) {
        row = row.style(theme.dim());
    }
    row
}
