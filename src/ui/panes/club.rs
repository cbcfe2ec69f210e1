//! The club lookup pane: the field, search results, the club and its contacts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::block;
use super::detail::{kv, ml, student_line};
use crate::api::Club;
use crate::app::model::{Loadable, Model, Pane};
use crate::text::clean;
use crate::ui::Theme;

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

pub(in crate::ui) fn club(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
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
