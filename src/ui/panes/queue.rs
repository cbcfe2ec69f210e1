//! The queue pane: counts, filter and sort, one row per club request.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Borders, Cell, Paragraph, Row, Table, Wrap};

use super::pane::block;
use crate::api::MembershipStatus;
use crate::app::keymap::{Action, Scope};
use crate::app::model::words;
use crate::app::model::{
    ListingSupport, Loadable, Model, Pane, Popup, QueueItem, RowAction, RowState,
};
use crate::i18n::Lang;
use crate::ops::decision::Stage;
use crate::text::{clean, fit_width, width};
use crate::tr;
use crate::ui::theme::Theme;

/// Narrowest status column: room for every status word ("approving…" is 10 columns).
const STATUS_MIN_W: usize = 11;
/// Widest status column, whatever the grace period and the language.
const STATUS_MAX_W: usize = 16;
/// Width of the year column ("2569").
const YEAR_W: usize = 4;

/// The status cell of a row, in the reader's language: its membership status, or what is
/// under way. A decision in its grace period counts down: "approving in 4 s · z undo"
/// (`long`, the detail pane), "approving 4 s" (the queue's column, [`status_width`]).
pub(super) fn status_cell(
    m: &Model,
    item: &QueueItem,
    long: bool,
    theme: &Theme,
) -> (String, Style) {
    let word = |key: &str| tr!(m.lang, key);
    if let Some(a) = m.deciding(item.id) {
        return deciding_cell(m, item, a, long, theme);
    }
    match &item.state {
        // A decision whose answer was lost: not an ordinary pending row.
        _ if m.outcome_unknown(item.id) => (
            word(if long {
                "row-outcome-unknown"
            } else {
                "row-outcome-unknown-short"
            }),
            theme.warn(),
        ),
        RowState::Deleted => (
            word("row-deleted"),
            theme.dim().add_modifier(Modifier::CROSSED_OUT),
        ),
        RowState::Gone if item.request.is_none() => (word("row-not-found"), theme.dim()),
        RowState::Gone => (word("row-gone"), theme.dim()),
        RowState::Loading if item.request.is_none() => (word("row-loading"), theme.dim()),
        RowState::Failed => (word("row-error"), theme.error()),
        RowState::Unloaded | RowState::Loading | RowState::Ready => match item.status() {
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

/// The status cell of a row whose decision `a` is held or on its way: a countdown while
/// held, "approving…" once sent.
fn deciding_cell(
    m: &Model,
    item: &QueueItem,
    a: RowAction,
    long: bool,
    theme: &Theme,
) -> (String, Style) {
    let progress = words::progress(m.lang, a);
    let verb = progress.trim_end_matches('…');
    // The decision's own stage, not the held batches: this runs for every row drawn.
    let send_at = match m.decisions().get(item.id).map(|d| d.stage()) {
        Some(Stage::Held { send_at }) => Some(*send_at),
        Some(Stage::Queued | Stage::Sending | Stage::Lost { .. } | Stage::Settled(_)) | None => {
            None
        }
    };
    let left = |t| crate::app::model::grace::seconds_until(t, m.now);
    let text = match send_at {
        // Held while the quit (or resume) question is open, or until the sign-in:
        // not sent, so "held", never "approving…" or a countdown.
        Some(t)
            if left(t) == 0
                || m.session_expired()
                || !m.has_token()
                || matches!(m.popup(), Some(Popup::QuitHeld | Popup::ResumeHeld)) =>
        {
            tr!(m.lang, "row-held-unsent", action = a.verb())
        }
        Some(t) if long => {
            let undo = m
                .keymap
                .key_for(Scope::Queue, Action::Undo)
                .map(|k| format!(" · {}", tr!(m.lang, "row-held-undo", key = k.to_string())))
                .unwrap_or_default();
            tr!(m.lang, "row-held", verb = verb, n = left(t)) + &undo
        }
        Some(t) => tr!(m.lang, "row-held-short", verb = verb, n = left(t)),
        None => progress.clone(),
    };
    (text, theme.accent().add_modifier(Modifier::BOLD))
}

pub(in crate::ui) fn queue(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Queue && m.popup.is_none();
    let q = &m.queue;
    let narrow = crate::app::model::is_narrow(frame.area().width);
    let title = title(m, area.width.saturating_sub(2) as usize);
    let mut blk = block(title, focused, theme);
    if narrow {
        // Every column counts on a phone: the rows run from edge to edge.
        blk = blk.borders(Borders::TOP | Borders::BOTTOM);
    }
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
    let cols = if narrow {
        Columns::narrow(m, inner.width as usize)
    } else {
        Columns::new(m, inner.width as usize)
    };
    let drawn = &q.visible()[offset..(offset + rows_room).min(q.visible().len())];
    let rows: Vec<Row> = drawn
        .iter()
        .enumerate()
        .map(|(n, &i)| row(m, &q.items()[i], offset + n == q.cursor(), &cols, theme))
        .collect();
    let col = |key: &str, w: usize| fit_width(&tr!(m.lang, key), w);
    let mut head = vec![
        String::new(),
        col("queue-col-status", cols.status),
        col("queue-col-student", cols.student),
    ];
    if let Some(w) = cols.club {
        head.push(col("queue-col-club", w));
    }
    if cols.age > 0 {
        head.push(col("queue-col-year", YEAR_W));
        head.push(col("queue-col-age", cols.age));
    }
    let table = Table::new(rows, cols.constraints())
        .header(Row::new(head).style(theme.dim().add_modifier(Modifier::UNDERLINED)))
        .column_spacing(1);
    frame.render_widget(table, inner);
}

/// The pane's title in at most `room` columns: "Queue 7", with a filter "3 shown", then
/// the counts of the whole queue by membership status and the marks. Parts are kept whole
/// and in order; where the room is short (Thai words are longer, a filter adds a part), the
/// least needed go first: counts of zero, then gone, declined, approved, marked. The row
/// count, the rows shown and the pending count stay.
fn title(m: &Model, room: usize) -> String {
    let q = &m.queue;
    let (_, approved, declined, other) = q.counts();
    let unknown = unknown_count(m);
    let pending = pending_count(m);
    let marked = q.stats().marked;
    let lang = m.lang;
    // (how readily it gives way, text); 0 and 1 never do.
    let mut parts = vec![(0, tr!(lang, "queue-title", n = q.items().len()))];
    if q.visible().len() != q.items().len() {
        parts.push((0, tr!(lang, "queue-shown", n = q.visible().len())));
    }
    parts.push((1, tr!(lang, "queue-count-pending", n = pending)));
    if unknown > 0 {
        parts.push((1, tr!(lang, "queue-count-unknown", n = unknown)));
    }
    // A count of zero says least: it goes before any other.
    let zero_first = |rank: u8, n: usize| if n == 0 { rank + 10 } else { rank };
    parts.push((
        zero_first(3, approved),
        tr!(lang, "queue-count-approved", n = approved),
    ));
    parts.push((
        zero_first(4, declined),
        tr!(lang, "queue-count-declined", n = declined),
    ));
    let unread = q.stats().unread;
    if unread > 0 {
        parts.push((5, tr!(lang, "queue-count-reading", n = unread)));
    }
    if other > 0 {
        parts.push((5, tr!(lang, "queue-count-gone", n = other)));
    }
    if marked > 0 {
        parts.push((2, tr!(lang, "queue-count-marked", n = marked)));
    }
    let total = |p: &[(u8, String)]| p.iter().map(|(_, t)| width(t) + 3).sum::<usize>();
    while total(&parts) > room {
        let Some(pos) = parts
            .iter()
            .enumerate()
            .filter(|(_, (rank, _))| *rank > 1)
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

/// Pending rows whose decision's answer was lost: counted as unknown, not pending, until a
/// re-read settles them.
fn unknown_count(m: &Model) -> usize {
    // From the (few) decisions whose answer was lost, not from every row: drawn every frame
    // over a queue that may hold 100,000 requests.
    m.decisions()
        .lost()
        .iter()
        .filter(|d| {
            m.queue
                .get(d.id)
                .is_some_and(|i| i.status() == Some(&crate::api::MembershipStatus::Pending))
        })
        .count()
}

/// The queue's pending requests as its title counts them ([`unknown_count`] apart).
pub(super) fn pending_count(m: &Model) -> usize {
    m.queue.counts().0.saturating_sub(unknown_count(m))
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
    // A sort that covers only the loaded rows (the listing is past the sort's cap, a page
    // failed, or the sort was restored at start) says so plainly.
    let (sort, sort_style) = if m.sorts_loaded_only() {
        let text = tr!(
            m.lang,
            "queue-sort-loaded-only",
            order = q.sort().label_in(m.lang),
            n = q.stats().pending
        );
        (text, theme.warn())
    } else {
        let text = tr!(m.lang, "queue-sort", order = q.sort().label_in(m.lang));
        (text, theme.dim())
    };
    bottom.push((1, Span::styled(format!(" {sort} "), sort_style)));
    if let Some(at) = m.listing.refreshed_at {
        // Minutes, not seconds: a text that changed every second would be rewritten with
        // every key pressed, costing bytes on a slow link.
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

/// The table's columns in terminal cells: the mark (1), status, student, club (on a pane
/// at least [`Columns::WIDE`] wide), year ([`YEAR_W`]) and age, one blank between each. Every
/// width is fixed before a row is drawn and every cell is cut to its column by
/// [`crate::text::fit_width`] (with `…`), so ratatui never clips a cell silently; no width
/// depends on what the rows hold or on a decision being held.
struct Columns {
    /// The status column: [`status_width`].
    status: usize,
    /// The student column.
    student: usize,
    /// The club column, when the pane is wide enough.
    club: Option<usize>,
    /// The age column: Thai ages are words ("3 สัปดาห์"), English ones a number and a
    /// letter ("3w").
    age: usize,
}

impl Columns {
    /// Inner widths from which the club gets a column of its own.
    const WIDE: usize = 56;

    /// The columns of a table `width` cells wide: the fixed ones first, the rest shared by
    /// the student and the club (the student gets the odd cell).
    fn new(m: &Model, width: usize) -> Columns {
        let status = status_width(m);
        let age = if m.lang == Lang::Thai { 10 } else { 4 };
        let wide = width >= Self::WIDE;
        let gaps = if wide { 5 } else { 4 };
        let rest = width.saturating_sub(1 + status + YEAR_W + age + gaps);
        let (student, club) = if wide {
            (rest - rest / 2, Some(rest / 2))
        } else {
            (rest, None)
        };
        Columns {
            status,
            student,
            club,
            age,
        }
    }

    /// The narrow layout's columns ([`crate::app::model::is_narrow`]): the mark, status,
    /// student and the club's short name ([`short_club`]), no year and no age (the detail
    /// has both); the club gets a third of what the status leaves, at least 6 cells.
    fn narrow(m: &Model, width: usize) -> Columns {
        let status = status_width(m);
        let rest = width.saturating_sub(1 + status + 3);
        let club = (rest / 3).clamp(6, 14).min(rest / 2);
        Columns {
            status,
            student: rest - club,
            club: Some(club),
            age: 0,
        }
    }

    /// The widths as ratatui constraints, in the order of the cells (year and age only where
    /// the age has a column).
    fn constraints(&self) -> Vec<Constraint> {
        let len = |w: usize| Constraint::Length(u16::try_from(w).unwrap_or(u16::MAX));
        let mut widths = vec![len(1), len(self.status), len(self.student)];
        widths.extend(self.club.map(len));
        if self.age > 0 {
            widths.push(len(YEAR_W));
            widths.push(len(self.age));
        }
        widths
    }
}

/// Width of the status column for this session: the widest text it can show in the
/// reader's language (membership statuses, "approving…", the held countdown "approving 5 s"
/// at the full grace period, the column's name), between [`STATUS_MIN_W`] and
/// [`STATUS_MAX_W`]. Depends on the language and the grace period only.
fn status_width(m: &Model) -> usize {
    let lang = m.lang;
    let mut texts: Vec<String> = ["row-deleted", "row-not-found", "row-gone", "row-loading"]
        .into_iter()
        .chain(["row-error", "queue-col-status"])
        .map(|k| tr!(lang, k))
        .collect();
    texts.extend(
        MembershipStatus::KNOWN
            .iter()
            .map(|s| words::status_word(lang, s)),
    );
    let held = m.decision_delay.as_secs();
    for action in [RowAction::Approve, RowAction::Decline, RowAction::Delete] {
        let progress = words::progress(lang, action);
        if held > 0 && action != RowAction::Delete {
            let verb = progress.trim_end_matches('…');
            texts.push(tr!(lang, "row-held-short", verb = verb, n = held));
        }
        texts.push(progress);
    }
    let widest = texts.iter().map(|t| width(t)).max().unwrap_or(0);
    widest.clamp(STATUS_MIN_W, STATUS_MAX_W)
}

/// One row of the table, each cell cut to its column.
fn row<'a>(m: &Model, item: &QueueItem, selected: bool, cols: &Columns, theme: &Theme) -> Row<'a> {
    let (st, st_style) = status_cell(m, item, false, theme);
    let st = fit_width(&st, cols.status);
    let club = item
        .club_name_for(m.lang == Lang::Thai)
        .map(str::to_owned)
        .or_else(|| {
            let club = item.request.as_ref().and_then(|r| r.club.as_ref())?;
            // At fetch level id_only the club is an id: its short form, as the student's.
            Some(
                m.listing
                    .club_names
                    .get(&club.id)
                    .cloned()
                    .unwrap_or_else(|| crate::app::model::short_id(club.id)),
            )
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
    // The markers are explained in the help (`?`, "row markers").
    let mark = match (item.marked, item.shown_error().is_some()) {
        (true, true) => Span::styled("✱", theme.error().add_modifier(Modifier::BOLD)),
        (true, false) => Span::styled("●", theme.accent().add_modifier(Modifier::BOLD)),
        (false, _) if m.outcome_unknown(item.id) => {
            Span::styled("?", theme.warn().add_modifier(Modifier::BOLD))
        }
        (false, true) => Span::styled("!", theme.error()),
        (false, false) if item.held_elsewhere.is_some() => Span::styled("~", theme.warn()),
        (false, false) if item.is_new => Span::styled("+", theme.accent()),
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
        Cell::from(student_cell(m.lang, item, cols.student)),
    ];
    if let Some(w) = cols.club {
        let club = if cols.age == 0 {
            short_club(&club)
        } else {
            &club
        };
        cells.push(Cell::from(clean(club, w)));
    }
    if cols.age > 0 {
        cells.push(Cell::from(fit_width(&year, YEAR_W)));
        cells.push(Cell::from(fit_width(&ago, cols.age)));
    }
    let mut row = Row::new(cells);
    if selected {
        row = row.style(theme.selected());
    } else if matches!(item.state, RowState::Deleted | RowState::Gone) {
        row = row.style(theme.dim());
    }
    row
}

/// A club's short name for the narrow queue: its name without the word every club name
/// carries ("Robotics Club" is "Robotics", "ชุมนุมหุ่นยนต์" is "หุ่นยนต์", "ชมรมหมากรุก" is
/// "หมากรุก"); the name as it is where nothing would be left.
fn short_club(name: &str) -> &str {
    let name = name.trim();
    let mut short = name;
    for prefix in ["ชุมนุม", "ชมรม", "Club of ", "club of "] {
        short = short.strip_prefix(prefix).unwrap_or(short);
    }
    for suffix in [" Club", " club", " CLUB"] {
        short = short.strip_suffix(suffix).unwrap_or(short);
    }
    let short = short.trim();
    if short.is_empty() { name } else { short }
}

/// The student cell in at most `room` cells: "name #number". Where the room is short the
/// name is cut ("Premruedee Sr… #50335"), never the number: a number cut short would read
/// as another student's. A number alone that does not fit ends in `…`.
fn student_cell(lang: Lang, item: &QueueItem, room: usize) -> String {
    let number = item.school_number().map(|no| format!("#{}", clean(no, 20)));
    // The school number at the cell's right edge (display width): the numbers of every row
    // line up in one column, whatever the name before them.
    let right = |no: &str, left: &str| {
        let gap = room.saturating_sub(width(left) + width(no));
        format!("{left}{}{no}", " ".repeat(gap))
    };
    match (item.student_name_for(lang == Lang::Thai), number) {
        (Some(name), Some(no)) => {
            let name_room = room.saturating_sub(width(&no) + 1);
            if name_room >= 2 {
                right(&no, &format!("{} ", clean(&name, name_room)))
            } else {
                fit_width(&no, room)
            }
        }
        (Some(name), None) => clean(&name, room),
        (None, Some(no)) if width(&no) <= room => right(&no, ""),
        (None, Some(no)) => fit_width(&no, room),
        (None, None) => fit_width(&unnamed_student(lang, item), room),
    }
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
        // Never read and not found on the server: the id it was asked by, so the moderator
        // knows which one.
        None if item.state == RowState::Gone => tr!(
            lang,
            "row-request-id",
            id = crate::app::model::short_id(item.id)
        ),
        None => "·".to_owned(),
    }
}
