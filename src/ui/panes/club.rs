//! The club lookup pane: the field, search results, the club and its contacts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::detail::{field, kv, ml, student_line};
use super::pane::block;
use crate::api::{Club, Contact, ContactType};
use crate::app::model::{Loadable, Model, Pane};
use crate::i18n::Lang;
use crate::text::{clean, width};
use crate::tr;
use crate::ui::theme::Theme;

/// A contact's type in the reader's language (the new-contact form's words,
/// [`crate::app::model::popup::contact_type_name`]); `?` when the server gave none.
fn contact_kind(lang: Lang, kind: Option<&ContactType>) -> String {
    kind.map_or_else(
        || "?".into(),
        |k| crate::app::model::popup::contact_type_name(lang, k),
    )
}

/// "contacts (2)" and one line per contact: its type (padded to 10 columns by display
/// width), value and name.
fn contact_lines<'a>(contacts: &[Contact], lang: Lang, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let mut lines = vec![Line::styled(
        tr!(lang, "club-contacts", n = contacts.len()),
        theme.accent(),
    )];
    for ct in contacts {
        let kind = clean(&contact_kind(lang, ct.kind.as_ref()), 10);
        let pad = " ".repeat(10usize.saturating_sub(width(&kind)));
        let value = ct.value.clone().unwrap_or_else(|| ct.id.to_string());
        let name = ml(lang, &ct.name)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        lines.push(Line::from(vec![
            Span::styled(format!("  {kind}{pad}"), theme.dim()),
            Span::raw(clean(&format!("{value}{name}"), w.saturating_sub(12))),
        ]));
    }
    lines
}

/// The club's lines: id, names and description in both languages (the reader's first),
/// counts, colours, contacts, staff and members (at the levels that carry them), and the
/// pane's fetch level.
fn club_lines<'a>(c: &Club, m: &Model, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let plain = Style::default();
    let lang = m.lang;
    let label = |name: &str| match name {
        "id" => field(lang, "id"),
        _ => crate::i18n::tr(lang, &format!("club-field-{name}")),
    };
    let mut lines = kv(&label("id"), c.id.to_string(), w, theme, theme.dim());
    if let Some(n) = ml(lang, &c.name) {
        lines.extend(kv(&label("name"), n, w, theme, theme.bold()));
    }
    if let Some(d) = ml(lang, &c.description) {
        lines.extend(kv(&label("about"), d, w, theme, plain));
    }
    let mut counts = Vec::new();
    if let Some(n) = c.member_count {
        counts.push(tr!(lang, "club-members", n = n));
    }
    if let Some(n) = c.staff_count {
        counts.push(tr!(lang, "club-staff-count", n = n));
    }
    if !counts.is_empty() {
        lines.extend(kv(&label("people"), counts.join(", "), w, theme, plain));
    }
    let colours: Vec<String> = [&c.background_color, &c.accent_color]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    if !colours.is_empty() {
        lines.extend(kv(
            &label("colours"),
            colours.join(" "),
            w,
            theme,
            theme.dim(),
        ));
    }
    if let Some(contacts) = &c.contacts {
        lines.extend(contact_lines(contacts, lang, w, theme));
    }
    for (key, list) in [
        ("club-staff-list", &c.staffs),
        ("club-member-list", &c.members),
    ] {
        if let Some(list) = list {
            lines.push(Line::styled(tr!(lang, key, n = list.len()), theme.accent()));
            for s in list {
                lines.push(Line::raw(format!(
                    "  {}",
                    clean(&student_line(lang, s), w.saturating_sub(2))
                )));
            }
        }
    }
    let level = crate::app::model::words::level(lang, m.club.level());
    // `n` only where the account may add this club's contacts (ops::permit).
    let footer = match m.permit_contact(Some(c.id)) {
        Ok(()) => "club-footer",
        Err(_) => "club-footer-read",
    };
    lines.push(Line::styled(tr!(lang, footer, level = level), theme.dim()));
    lines
}

/// Draws the club pane; returns how far a club shown can scroll.
pub(in crate::ui) fn club(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) -> u16 {
    let focused = m.focus == Pane::Club && m.popup.is_none();
    let lang = m.lang;
    let blk = block(format!(" {} ", tr!(lang, "club-title")), focused, theme);
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    if inner.height < 2 {
        return 0;
    }
    let w = inner.width as usize;
    let field = Rect::new(inner.x, inner.y, inner.width, 1);
    let label = format!("{} ", tr!(lang, "club-field-label"));
    let label_w = width(&label);
    let room = w.saturating_sub(label_w + 1);
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
        let x =
            field.x + label_w as u16 + (m.club.input.visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position((x.min(field.right().saturating_sub(1)), field.y));
    }
    let body = Rect::new(inner.x, inner.y + 1, inner.width, inner.height - 1);
    let lines = body_lines(m, w, theme);
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    let room = super::pane::scroll_room(&text, body);
    let (scroll, room) = if matches!(m.club.club, Loadable::Loaded(_)) {
        (m.club.scroll.min(room), room)
    } else {
        let at = (m.club.result_cursor as u16).saturating_sub(body.height.saturating_sub(1));
        (at, 0)
    };
    frame.render_widget(text.scroll((scroll, 0)), body);
    more_sign(frame, area, m, scroll, room, theme);
    room
}

/// On the pane's bottom border while the club's lines go past its edge: " ↓ j " (more
/// below), " ↑ k " once scrolled to the end, as the detail pane shows its own.
fn more_sign(frame: &mut Frame, area: Rect, m: &Model, at: u16, room: u16, theme: &Theme) {
    use crate::app::keymap::{Action, Scope};
    let (action, arrow) = if at < room {
        (Action::Down, "↓")
    } else if at > 0 {
        (Action::Up, "↑")
    } else {
        return;
    };
    let Some(key) = m.keymap.key_for(Scope::Club, action) else {
        return;
    };
    let sign = format!(" {arrow} {key} ");
    let w = width(&sign) as u16;
    if area.width < w + 2 || area.height < 2 {
        return;
    }
    let r = Rect::new(area.right() - 1 - w, area.bottom() - 1, w, 1);
    frame.render_widget(Paragraph::new(Line::styled(sign, theme.accent())), r);
}

/// The pane's lines under its field: the club, or the search's results (the one under the
/// cursor highlighted), or what is happening, or how to start.
fn body_lines<'a>(m: &Model, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let lang = m.lang;
    match (&m.club.club, &m.club.results) {
        (Loadable::Loaded(c), _) => club_lines(c, m, w, theme),
        (Loadable::Loading, _) => vec![Line::styled(tr!(lang, "club-loading"), theme.dim())],
        (Loadable::Failed(e), _) => vec![Line::styled(clean(e, 500), theme.error())],
        (Loadable::NotAsked, Loadable::Loaded(results)) => {
            if results.is_empty() {
                vec![Line::styled(tr!(lang, "empty-no-club-match"), theme.dim())]
            } else {
                results
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let name = ml(lang, &c.name).unwrap_or_else(|| c.id.to_string());
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
        (Loadable::NotAsked, Loadable::Loading) => {
            vec![Line::styled(tr!(lang, "club-searching"), theme.dim())]
        }
        (Loadable::NotAsked, Loadable::Failed(e)) => {
            vec![Line::styled(clean(e, 500), theme.error())]
        }
        (Loadable::NotAsked, Loadable::NotAsked) => {
            vec![Line::styled(tr!(lang, "empty-club-hint"), theme.dim())]
        }
    }
}
