//! The queue pane: counts, filter and sort, one row per club request.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use super::block;
use crate::api::MembershipStatus;
use crate::app::keymap::{Action, Scope};
use crate::app::model::words;
use crate::app::model::{ListingSupport, Loadable, Model, Pane, QueueItem, RowState};
use crate::i18n::Lang;
use crate::text::clean;
use crate::tr;
use crate::ui::Theme;

/// Width of the status column: room for "approving in 4 s · z undo" while a decision is
/// held on a drawn row, else 11.
const STATUS_W: u16 = 11;
const STATUS_HELD_W: u16 = 25;

/// The status cell of a row, in the reader's language: its membership status, or what is
/// under way. A decision in its grace period counts down: "approving in 4 s · z undo"
/// (`long`), "approving 4 s" (narrow).
pub(super) fn status_cell(
    m: &Model,
    item: &QueueItem,
    long: bool,
    theme: &Theme,
) -> (String, Style) {
    let word = |key: &str| tr!(m.lang, key);
    match &item.state {
        RowState::Acting(a) => {
            let progress = words::progress(m.lang, *a);
            let verb = progress.trim_end_matches('…');
            let text = match m.held().for_request(item.id) {
                Some(d) if long => {
                    let undo = m
                        .keymap
                        .key_for(Scope::Queue, Action::Undo)
                        .map(|k| {
                            format!(" · {}", tr!(m.lang, "row-held-undo", key = k.to_string()))
                        })
                        .unwrap_or_default();
                    let n = d.seconds_left(m.now);
                    tr!(m.lang, "row-held", verb = verb, n = n) + &undo
                }
                Some(d) => tr!(
                    m.lang,
                    "row-held-short",
                    verb = verb,
                    n = d.seconds_left(m.now)
                ),
                None => progress.clone(),
            };
            (text, theme.accent().add_modifier(Modifier::BOLD))
        }
        RowState::Deleted => (
            word("row-deleted"),
            theme.dim().add_modifier(Modifier::CROSSED_OUT),
        ),
        RowState::Gone if item.request.is_none() => (word("row-not-found"), theme.dim()),
        RowState::Gone => (word("row-gone"), theme.dim()),
        RowState::Loading if item.request.is_none() => (word("row-loading"), theme.dim()),
        RowState::Failed => (word("row-error"), theme.error()),
        _ => match item.status() {
            Some(s) => {
                let style = match s {
                    MembershipStatus::Pending => theme.warn(),
                    MembershipStatus::Approved => theme.success(),
                    MembershipStatus::Declined => theme.error(),
                    MembershipStatus::Other(_) => Style::default(),
                };
                (words::status_word(m.lang, s), style)
            }
            None if item.state == RowState::Unloaded => ("·".into(), theme.dim()),
            None => ("?".into(), theme.dim()),
        },
    }
}

pub(in crate::ui) fn queue(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Queue && m.popup.is_none();
    let q = &m.queue;
    let title = title(m, area.width.saturating_sub(2) as usize);
    let mut blk = block(title, focused, theme);
    let bottom = bottom_line(m, theme, area.width.saturating_sub(2) as usize);
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
    let drawn = &q.visible()[offset..(offset + rows_room).min(q.visible().len())];
    // A held decision on a drawn row widens the status column for its countdown.
    let held_here = !m.held().is_empty()
        && drawn
            .iter()
            .any(|&i| m.held().for_request(q.items()[i].id).is_some());
    let long = inner.width >= 64;
    let status_w = match (held_here, long) {
        (true, true) => STATUS_HELD_W,
        (true, false) => STATUS_W + 2,
        _ => STATUS_W,
    };
    let extra = usize::from(status_w - STATUS_W);
    let name_w = if wide {
        (inner.width as usize).saturating_sub(26 + extra) / 2
    } else {
        (inner.width as usize).saturating_sub(22 + extra)
    };
    let rows: Vec<Row> = drawn
        .iter()
        .enumerate()
        .map(|(n, &i)| {
            let cells = Cells { wide, long, name_w };
            row(m, &q.items()[i], offset + n == q.cursor(), cells, theme)
        })
        .collect();
    let mut widths = vec![
        Constraint::Length(1),
        Constraint::Length(status_w),
        Constraint::Fill(1),
    ];
    let col = |key: &str| tr!(m.lang, key);
    let mut head = vec![
        String::new(),
        col("queue-col-status"),
        col("queue-col-student"),
    ];
    if wide {
        widths.push(Constraint::Fill(1));
        head.push(col("queue-col-club"));
    }
    widths.push(Constraint::Length(4));
    // Thai ages are words ("3 สัปดาห์"), English ones a number and a letter ("3w").
    widths.push(Constraint::Length(if m.lang == Lang::Thai {
        10
    } else {
        4
    }));
    head.push(col("queue-col-year"));
    head.push(col("queue-col-age"));
    let table = Table::new(rows, widths)
        .header(Row::new(head).style(theme.dim().add_modifier(Modifier::UNDERLINED)))
        .column_spacing(1);
    frame.render_widget(table, inner);
}

/// The pane's title in at most `room` columns: rows shown of all, counts by membership
/// status, marks. Parts are kept whole and in order; where the room is short (Thai words are
/// longer, a filter adds "shown of"), the least needed go first: declined, approved, gone,
/// then marked; the row count and the pending count stay.
fn title(m: &Model, room: usize) -> String {
    let q = &m.queue;
    let (pending, approved, declined, other) = q.counts();
    let marked = q.stats().marked;
    let lang = m.lang;
    // The counts are of the whole queue; with a filter the title says so.
    let head = if q.visible().len() == q.items().len() {
        tr!(lang, "queue-title", n = q.items().len())
    } else {
        tr!(
            lang,
            "queue-title-filtered",
            shown = q.visible().len(),
            total = q.items().len()
        )
    };
    // (how readily it gives way, text)
    let mut parts = vec![
        (0, head),
        (1, tr!(lang, "queue-count-pending", n = pending)),
        (4, tr!(lang, "queue-count-approved", n = approved)),
        (5, tr!(lang, "queue-count-declined", n = declined)),
    ];
    if other > 0 {
        parts.push((3, tr!(lang, "queue-count-gone", n = other)));
    }
    if marked > 0 {
        parts.push((2, tr!(lang, "queue-count-marked", n = marked)));
    }
    let width = |p: &[(u8, String)]| {
        p.iter()
            .map(|(_, t)| crate::text::width(t) + 3)
            .sum::<usize>()
    };
    while width(&parts) > room && parts.len() > 2 {
        let Some(pos) = parts
            .iter()
            .enumerate()
            .max_by_key(|(_, (rank, _))| *rank)
            .map(|(i, _)| i)
        else {
            break;
        };
        parts.remove(pos);
    }
    let texts: Vec<String> = parts.into_iter().map(|(_, t)| t).collect();
    format!(" {} ", texts.join(" · "))
}

/// The pane's bottom line: filter, sort, last refresh, the server's count, paging.
/// Parts are kept whole: where `room` is short, the least needed go first (the time of the
/// last refresh, then the server's count), never cut mid-word.
fn bottom_line<'a>(m: &Model, theme: &Theme, room: usize) -> Vec<Span<'a>> {
    let mut parts = bottom_parts(m, theme);
    let width = |p: &[(u8, Span)]| p.iter().map(|(_, s)| s.width()).sum::<usize>();
    while width(&parts) > room {
        let Some(pos) = parts
            .iter()
            .enumerate()
            .max_by_key(|(_, (rank, _))| *rank)
            .map(|(i, _)| i)
        else {
            break;
        };
        parts.remove(pos);
    }
    parts.into_iter().map(|(_, s)| s).collect()
}

/// The bottom line's parts with how readily each gives way (higher goes first).
fn bottom_parts<'a>(m: &Model, theme: &Theme) -> Vec<(u8, Span<'a>)> {
    let q = &m.queue;
    let mut bottom = Vec::new();
    if !q.filter().is_empty() {
        bottom.push((
            0,
            Span::styled(format!(" /{} ", clean(q.filter(), 30)), theme.warn()),
        ));
    }
    bottom.push((
        1,
        Span::styled(
            format!(
                " {} ",
                tr!(m.lang, "queue-sort", order = q.sort().label_in(m.lang))
            ),
            theme.dim(),
        ),
    ));
    if let Some(at) = m.listing.refreshed_at {
        // Minutes, not seconds: a text that changed every second would be rewritten with
        // every key pressed (issue 13 item 3).
        let ago = crate::i18n::dates::ago(m.lang, m.now, at);
        let text = format!(" {} ", tr!(m.lang, "queue-updated", ago = ago));
        bottom.push((4, Span::styled(text, theme.dim())));
    }
    if let Some(t) = m.listing.total {
        bottom.push((
            3,
            Span::styled(
                format!(" {} ", tr!(m.lang, "queue-server-total", n = t)),
                theme.dim(),
            ),
        ));
    }
    // One text while more is to come, loading or not (the status line's spinner shows a
    // page being loaded): the line does not flicker with every page.
    if m.listing.has_more || m.listing.loading {
        let text = format!(" {} ", tr!(m.lang, "queue-more-below"));
        bottom.push((2, Span::styled(text, theme.dim())));
    }
    bottom
}

/// What the empty queue says, in the reader's language: why it is empty and what to press.
fn empty_message(m: &Model) -> String {
    let q = &m.queue;
    let lang = m.lang;
    if !q.items().is_empty() {
        return tr!(lang, "empty-no-match", filter = clean(q.filter(), 30));
    }
    match (&m.user, m.listing.support) {
        (Loadable::Loading, _) => tr!(lang, "empty-loading"),
        (_, ListingSupport::Unavailable) => tr!(lang, "empty-no-listing"),
        _ if m.session_expired || !m.has_token => tr!(lang, "empty-not-signed-in"),
        (Loadable::Failed(_), _) => tr!(lang, "empty-user-failed"),
        _ if m.listing.loading => tr!(lang, "empty-loading-queue"),
        _ if m.listing.error.is_some() => {
            let error = clean(m.listing.error.as_deref().unwrap_or(""), 200);
            tr!(lang, "empty-queue-failed", error = error)
        }
        _ => tr!(lang, "empty-no-pending"),
    }
}

/// How the row's cells are laid out.
#[derive(Clone, Copy)]
struct Cells {
    /// A club column.
    wide: bool,
    /// Room for the long countdown.
    long: bool,
    /// Width of the name columns.
    name_w: usize,
}

/// One row of the table.
fn row<'a>(m: &Model, item: &QueueItem, selected: bool, cells: Cells, theme: &Theme) -> Row<'a> {
    let Cells { wide, long, name_w } = cells;
    let (st, st_style) = status_cell(m, item, long, theme);
    let student = item
        .student_name_for(m.lang == Lang::Thai)
        .map(|n| match item.school_number() {
            Some(no) => format!("{n} #{no}"),
            None => n,
        })
        .or_else(|| item.school_number().map(|no| format!("#{no}")))
        .unwrap_or_else(|| unnamed_student(m.lang, item));
    let club = item
        .club_name_for(m.lang == Lang::Thai)
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
        .map(|y| crate::i18n::dates::academic_year(m.year_style, y))
        .unwrap_or_default();
    let ago = item
        .request
        .as_ref()
        .and_then(|r| r.created_at)
        .map(|t| crate::i18n::dates::age(m.lang, m.now, t))
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

/// The student cell when the fetch level carried no name or number: the student's own id
/// (never the request's, which would read as a person), or a dot until the row is read.
fn unnamed_student(lang: Lang, item: &QueueItem) -> String {
    match item
        .request
        .as_ref()
        .map(|r| r.student.as_ref().map(|s| s.id))
    {
        Some(Some(id)) => tr!(lang, "row-student-id", id = crate::app::model::short_id(id)),
        Some(None) => "—".to_owned(),
        None => "·".to_owned(),
    }
}
