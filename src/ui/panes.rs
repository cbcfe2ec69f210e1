//! The panes: header, queue, detail, club lookup, activity log.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, Wrap};

use super::{Theme, age, time_left};
use crate::api::{Club, MembershipStatus, MultiLangText, Student};
use crate::app::Outcome;
use crate::app::model::{
    Connection, ListingSupport, Loadable, Model, Origin, Pane, QueueItem, RowState,
};
use crate::text::clean;

fn block<'a>(title: String, focused: bool, theme: &Theme) -> Block<'a> {
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

pub(super) fn header(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let w = area.width as usize;
    let mut left = vec![
        Span::styled(
            " club-admin ",
            theme.bold().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    match &m.user {
        Loadable::Loaded(u) => {
            let room = w.saturating_sub(62).clamp(12, 40);
            left.push(Span::styled(
                clean(u.email.as_deref().unwrap_or("(no e-mail)"), room),
                theme.bold(),
            ));
            let mut role = clean(u.role.as_deref().unwrap_or("?"), 14);
            if u.is_admin == Some(true) {
                role.push_str(", admin");
            }
            if u.onboarded == Some(false) {
                role.push_str(", not onboarded");
            }
            left.push(Span::styled(format!(" ({role})"), theme.dim()));
            if let Some(p) = u.permissions.as_ref().filter(|p| !p.is_empty()) {
                left.push(Span::styled(
                    format!(" [{}]", clean(&p.join(","), 30)),
                    theme.dim(),
                ));
            }
        }
        Loadable::Loading => left.push(Span::styled("signing in…", theme.dim())),
        // The reason is in the status line; the header keeps room for the session state.
        Loadable::Failed(_) => left.push(Span::styled("not signed in", theme.error())),
        Loadable::NotAsked => {}
    }
    let mut right = Vec::new();
    if !m.has_token {
        right.push(Span::styled("no token: S to sign in", theme.warn()));
    } else if m.session_expired {
        right.push(Span::styled("session expired: S to sign in", theme.error()));
    } else if let Some(exp) = m.token_expires {
        let left_s = time_left(m.now, exp);
        let style = if left_s == "expired" {
            theme.error()
        } else {
            theme.dim()
        };
        right.push(Span::styled(format!("token {left_s}"), style));
    }
    match &m.connection {
        Connection::Online => right.push(Span::styled("  ● online", theme.success())),
        Connection::Offline(_) => right.push(Span::styled("  ○ offline", theme.error())),
        Connection::Unknown => right.push(Span::styled("  ○ connecting", theme.dim())),
    }
    if let Some(v) = &m.api_version {
        right.push(Span::styled(format!("  API {v}"), theme.dim()));
    }
    let host = m.base_url.split("://").nth(1).unwrap_or(&m.base_url);
    right.push(Span::styled(format!("  {} ", clean(host, 40)), theme.dim()));
    let right_w: usize = right.iter().map(|s| s.width()).sum();
    let left_w: usize = left.iter().map(|s| s.width()).sum();
    let mut spans = left;
    // Right-hand items in order of importance; keep as many as fit.
    let mut kept = Vec::new();
    let mut used = left_w;
    for s in right {
        if used + s.width() < w {
            used += s.width();
            kept.push(s);
        }
    }
    let _ = right_w;
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used))));
    spans.extend(kept);
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The status cell text and style of a row.
fn status_cell(item: &QueueItem, theme: &Theme) -> (String, Style) {
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

pub(super) fn queue(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Queue && m.popup.is_none();
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
    let mut blk = block(title, focused, theme);
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
        let secs = (m.now - at).num_seconds().max(0);
        let text = if secs < 60 {
            format!(" updated {secs} s ago ")
        } else {
            format!(" updated {} ago ", age(m.now, at))
        };
        bottom.push(Span::styled(text, theme.dim()));
    }
    if let Some(t) = m.listing.total {
        bottom.push(Span::styled(format!(" server: {t} pending "), theme.dim()));
    }
    if m.listing.loading {
        bottom.push(Span::styled(" loading more… ", theme.dim()));
    } else if m.listing.has_more {
        bottom.push(Span::styled(" more below ", theme.dim()));
    }
    blk = blk.title_bottom(Line::from(bottom));
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    if q.visible().is_empty() {
        let msg = if q.items().is_empty() {
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
                _ => {
                    "No pending requests. Press i to add club request ids, r to refresh.".to_owned()
                }
            }
        } else {
            format!(
                "No request matches the filter /{}  (/ to change, Esc in the filter to undo)",
                clean(q.filter(), 30)
            )
        };
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
            let item = &q.items()[i];
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
            let selected = offset + n == q.cursor();
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

fn ml(t: &Option<MultiLangText>) -> Option<String> {
    let t = t.as_ref()?;
    match (
        t.en.as_deref().filter(|s| !s.trim().is_empty()),
        t.th.as_deref().filter(|s| !s.trim().is_empty()),
    ) {
        (Some(en), Some(th)) if en != th => Some(format!("{en} / {th}")),
        (Some(en), _) => Some(en.to_owned()),
        (None, Some(th)) => Some(th.to_owned()),
        (None, None) => None,
    }
}

fn kv<'a>(key: &str, value: String, w: usize, theme: &Theme, style: Style) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{key:<9}"), theme.accent()),
        Span::styled(clean(&value, w.saturating_sub(9)), style),
    ])
}

fn student_line(s: &Student) -> String {
    let mut out = s
        .person
        .as_ref()
        .and_then(|p| {
            let en = p.full_name(false);
            let th = p.full_name(true);
            match (en, th) {
                (Some(a), Some(b)) if a != b => Some(format!("{a} / {b}")),
                (Some(a), _) => Some(a),
                (None, b) => b,
            }
        })
        .unwrap_or_default();
    if let Some(n) = &s.student_id {
        out.push_str(&format!(" #{n}"));
    }
    if let Some(nick) = s.person.as_ref().and_then(|p| ml(&p.nickname)) {
        out.push_str(&format!(" ({nick})"));
    }
    if let Some(no) = s.class_no {
        out.push_str(&format!(" · no. {no}"));
    }
    if out.trim().is_empty() {
        out = s.id.to_string();
    }
    out.trim().to_owned()
}

pub(super) fn detail(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let blk = block(" Request ".into(), false, theme);
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    let Some(item) = m.queue.selected() else {
        frame.render_widget(
            Paragraph::new("Nothing selected.").style(theme.dim()),
            inner,
        );
        return;
    };
    let w = inner.width as usize;
    let plain = Style::default();
    let mut lines = vec![kv("id", item.id.to_string(), w, theme, plain)];
    let (st, st_style) = status_cell(item, theme);
    lines.push(kv("status", st, w, theme, st_style));
    if let Some(r) = &item.request {
        if let Some(s) = &r.student {
            lines.push(kv("student", student_line(s), w, theme, theme.bold()));
        }
        if let Some(c) = &r.club {
            // One language here (the club pane shows both): less to redraw per cursor move.
            let name = c
                .name
                .as_ref()
                .and_then(|n| n.best())
                .map(str::to_owned)
                .or_else(|| m.listing.club_names.get(&c.id).cloned())
                .unwrap_or_else(|| c.id.to_string());
            lines.push(kv("club", name, w, theme, plain));
        }
        if let Some(y) = r.year {
            lines.push(kv("year", y.to_string(), w, theme, plain));
        }
        if let Some(t) = r.created_at {
            lines.push(kv(
                "asked",
                format!("{} ({} ago)", t.format("%Y-%m-%d %H:%M UTC"), age(m.now, t)),
                w,
                theme,
                plain,
            ));
        }
    } else if matches!(item.state, RowState::Loading) {
        lines.push(Line::styled("loading…", theme.dim()));
    }
    lines.push(kv(
        "source",
        match item.origin {
            Origin::Listing => "server listing".into(),
            Origin::Manual => "added by id".into(),
        },
        w,
        theme,
        theme.dim(),
    ));
    lines.push(kv(
        "levels",
        format!(
            "{} / {} (f/F)",
            m.levels.fetch_level, m.levels.descendant_fetch_level
        ),
        w,
        theme,
        theme.dim(),
    ));
    if item.error.is_some() || item.read_error.is_some() {
        lines.push(Line::raw(""));
    }
    if let Some(e) = &item.error {
        lines.push(Line::styled(
            clean(&format!("last action: {e}"), 2000),
            theme.error(),
        ));
    }
    if let Some(e) = &item.read_error {
        lines.push(Line::styled(
            clean(&format!("last read: {e}"), 2000),
            theme.error(),
        ));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn club_lines<'a>(c: &Club, m: &Model, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let plain = Style::default();
    let mut lines = vec![kv("id", c.id.to_string(), w, theme, theme.dim())];
    if let Some(n) = ml(&c.name) {
        lines.push(kv("name", n, w, theme, theme.bold()));
    }
    if let Some(d) = ml(&c.description) {
        lines.push(kv("about", d, w, theme, plain));
    }
    let mut counts = Vec::new();
    if let Some(n) = c.member_count {
        counts.push(format!("{n} members"));
    }
    if let Some(n) = c.staff_count {
        counts.push(format!("{n} staff"));
    }
    if !counts.is_empty() {
        lines.push(kv("people", counts.join(", "), w, theme, plain));
    }
    let colours: Vec<String> = [&c.background_color, &c.accent_color]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    if !colours.is_empty() {
        lines.push(kv("colours", colours.join(" "), w, theme, theme.dim()));
    }
    if let Some(contacts) = &c.contacts {
        lines.push(Line::styled(
            format!("contacts ({})", contacts.len()),
            theme.accent(),
        ));
        for ct in contacts {
            let kind = ct
                .kind
                .as_ref()
                .map(|k| k.to_string())
                .unwrap_or_else(|| "?".into());
            let value = ct.value.clone().unwrap_or_else(|| ct.id.to_string());
            let name = ml(&ct.name).map(|n| format!(" ({n})")).unwrap_or_default();
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<10}", clean(&kind, 10)), theme.dim()),
                Span::raw(clean(&format!("{value}{name}"), w.saturating_sub(12))),
            ]));
        }
    }
    for (label, list) in [("staff", &c.staffs), ("members", &c.members)] {
        if let Some(list) = list {
            lines.push(Line::styled(
                format!("{label} ({})", list.len()),
                theme.accent(),
            ));
            for s in list {
                lines.push(Line::raw(format!(
                    "  {}",
                    clean(&student_line(s), w.saturating_sub(2))
                )));
            }
        }
    }
    lines.push(Line::styled(
        format!("fetch level {} (f/F) · n new contact", m.club.level()),
        theme.dim(),
    ));
    lines
}

pub(super) fn club(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let focused = m.focus == Pane::Club && m.popup.is_none();
    let blk = block(" Club lookup (c) ".into(), focused, theme);
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    if inner.height < 2 {
        return;
    }
    let w = inner.width as usize;
    let field = Rect::new(inner.x, inner.y, inner.width, 1);
    let label = "id or name: ";
    let room = w.saturating_sub(label.len() + 1);
    let scroll = m.club.input.visual_scroll(room);
    let value: String = m.club.input.value().chars().skip(scroll).collect();
    let editing = m.club.editing && focused;
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(label, theme.accent()),
            Span::styled(
                crate::text::fit_width(&crate::text::sanitize(&value), room),
                if editing {
                    Style::default().add_modifier(Modifier::UNDERLINED)
                } else {
                    theme.dim()
                },
            ),
        ])),
        field,
    );
    if editing {
        let x = field.x
            + label.len() as u16
            + (m.club.input.visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position((x.min(field.right().saturating_sub(1)), field.y));
    }
    let body = Rect::new(inner.x, inner.y + 1, inner.width, inner.height - 1);
    let lines: Vec<Line> = match (&m.club.club, &m.club.results) {
        (Loadable::Loaded(c), _) => club_lines(c, m, w, theme),
        (Loadable::Loading, _) => vec![Line::styled("loading…", theme.dim())],
        (Loadable::Failed(e), _) => vec![Line::styled(clean(e, 500), theme.error())],
        (Loadable::NotAsked, Loadable::Loaded(results)) => {
            if results.is_empty() {
                vec![Line::styled("no club matches", theme.dim())]
            } else {
                results
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let name = ml(&c.name).unwrap_or_else(|| c.id.to_string());
                        let line = Line::raw(clean(&name, w));
                        if i == m.club.result_cursor {
                            line.style(theme.selected())
                        } else {
                            line
                        }
                    })
                    .collect()
            }
        }
        (Loadable::NotAsked, Loadable::Loading) => vec![Line::styled("searching…", theme.dim())],
        (Loadable::NotAsked, Loadable::Failed(e)) => {
            vec![Line::styled(clean(e, 500), theme.error())]
        }
        (Loadable::NotAsked, Loadable::NotAsked) => vec![Line::styled(
            "Press c, type a club id (or a name to search), Enter.",
            theme.dim(),
        )],
    };
    let scroll = if matches!(m.club.club, Loadable::Loaded(_)) {
        m.club.scroll
    } else {
        (m.club.result_cursor as u16).saturating_sub(body.height.saturating_sub(1))
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        body,
    );
}

pub(super) fn log(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
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
            };
            let extra = e
                .detail
                .as_ref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            let target = e
                .target
                .map(|t| t.to_string()[..8].to_owned())
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
