//! Pop-ups: help, confirmation, add ids, sign in, command line, filter, new contact.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use tui_input::Input;

use super::Theme;
use crate::app::keymap::Scope;
use crate::app::model::{Model, Popup, RowAction, popup};
use crate::app::update::COMMANDS;
use crate::text::clean;

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let [r] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(r);
    r
}

/// One text field: label, value (masked when `mask`), cursor placed when focused.
fn field(
    frame: &mut Frame,
    area: Rect,
    label: &str,
    input: &Input,
    mask: bool,
    focused: bool,
    theme: &Theme,
) {
    let lw = crate::text::width(label) as u16;
    let room = area.width.saturating_sub(lw + 1) as usize;
    let scroll = input.visual_scroll(room);
    let shown: String = if mask {
        "•".repeat(
            input
                .value()
                .chars()
                .count()
                .saturating_sub(scroll)
                .min(room),
        )
    } else {
        crate::text::fit_width(
            &crate::text::sanitize(&input.value().chars().skip(scroll).collect::<String>()),
            room,
        )
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(label.to_owned(), theme.accent()),
            Span::styled(shown, Style::default().add_modifier(Modifier::UNDERLINED)),
        ])),
        area,
    );
    if focused {
        let x = area.x + lw + input.visual_cursor().saturating_sub(scroll) as u16;
        frame.set_cursor_position((x.min(area.right().saturating_sub(1)), area.y));
    }
}

fn frame_box(frame: &mut Frame, area: Rect, title: &str, theme: &Theme) -> Rect {
    frame.render_widget(Clear, area);
    let blk = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(format!(" {title} "), theme.bold()));
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    inner
}

/// The keymap's help rows `(scope, keys, config name, description)` with the description in
/// the reader's language; the search matches keys, names and the description in either
/// language.
fn help_rows(m: &Model, query: &str) -> Vec<(Scope, String, &'static str, String)> {
    let q = query.trim().trim_start_matches('/').to_lowercase();
    m.keymap
        .help_rows_offered("", m.offered())
        .into_iter()
        .map(|(scope, keys, name, desc)| {
            let said = crate::i18n::tr(m.lang, &crate::i18n::action_key("action", name));
            (scope, keys, name, desc, said)
        })
        .filter(|(_, keys, name, desc, said)| {
            q.is_empty()
                || keys.to_lowercase().contains(&q)
                || name.contains(&q)
                || desc.to_lowercase().contains(&q)
                || said.to_lowercase().contains(&q)
        })
        .map(|(scope, keys, name, _, said)| (scope, keys, name, said))
        .collect()
}

/// The locale key part of a scope (`scope-queue`).
fn scope_key(scope: Scope) -> &'static str {
    match scope {
        Scope::Global => "global",
        Scope::Queue => "queue",
        Scope::Club => "club",
        Scope::Log => "log",
    }
}

/// Width of a centred pop-up: the screen less a margin, at most 90 columns.
fn popup_width(area: Rect) -> u16 {
    area.width.saturating_sub(4).min(90)
}

/// Draws the open pop-up, if any, over the panes.
pub(super) fn draw(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let Some(p) = &m.popup else { return };
    match p {
        Popup::Help { .. } => help(frame, area, m, p, theme),
        Popup::Confirm { .. } => confirm(frame, area, m, p, theme),
        Popup::QuitHeld => quit_held(frame, area, m, theme),
        Popup::AddIds { .. } => add_ids(frame, area, p, theme),
        Popup::SignIn { .. } => sign_in(frame, area, m, p, theme),
        Popup::Command { .. } => command_line(frame, area, p, theme),
        Popup::Filter { .. } => filter_line(frame, area, m, p, theme),
        Popup::AddContact { .. } => add_contact(frame, area, m, p, theme),
    }
}

fn help(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::Help { query, scroll } = p else {
        return;
    };
    let r = centered(area, w, area.height.saturating_sub(2));
    let inner = frame_box(frame, r, "Keys (? or Esc to close)", theme);
    field(
        frame,
        Rect::new(inner.x, inner.y, inner.width, 1),
        "search: ",
        query,
        false,
        true,
        theme,
    );
    let mut lines = Vec::new();
    let mut last: Option<Scope> = None;
    for (scope, keys, name, desc) in help_rows(m, query.value()) {
        if last != Some(scope) {
            let title = crate::i18n::tr(m.lang, &format!("scope-{}", scope_key(scope)));
            lines.push(Line::styled(
                title,
                theme.bold().add_modifier(Modifier::UNDERLINED),
            ));
            last = Some(scope);
        }
        lines.push(Line::from(vec![
            Span::styled(format!("  {keys:<16}"), theme.accent()),
            Span::raw(format!("{desc}  ")),
            Span::styled(name, theme.dim()),
        ]));
    }
    lines.extend(popup_help_lines(query.value(), theme));
    let body = Rect::new(
        inner.x,
        inner.y + 2,
        inner.width,
        inner.height.saturating_sub(2),
    );
    frame.render_widget(Paragraph::new(lines).scroll((*scroll, 0)), body);
}

/// The help's lines for the pop-ups' keys (from their key tables), the commands and the
/// filter terms, filtered by the search text `query`.
fn popup_help_lines(query: &str, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let q = query.trim().trim_start_matches('/').to_lowercase();
    for (title, keys) in popup::help_sections() {
        let rows: Vec<_> = keys
            .iter()
            .filter(|k| k.op.is_some())
            .filter(|k| {
                q.is_empty()
                    || k.help.to_lowercase().contains(&q)
                    || k.shown.to_lowercase().contains(&q)
                    || title.to_lowercase().contains(&q)
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        lines.push(Line::styled(
            title,
            theme.bold().add_modifier(Modifier::UNDERLINED),
        ));
        for k in rows {
            let keys: Vec<String> = k.keys.iter().map(|k| k.to_string()).collect();
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<16}", keys.join(" ")), theme.accent()),
                Span::raw(k.help),
            ]));
        }
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Commands (:)",
        theme.bold().add_modifier(Modifier::UNDERLINED),
    ));
    for chunk in COMMANDS.chunks(4) {
        lines.push(Line::styled(
            format!("  {}", chunk.join(" · ")),
            theme.dim(),
        ));
    }
    lines.push(Line::styled(
        "Filter terms: status:pending club:robot year:2026 -term, any text (Thai too)",
        theme.dim(),
    ));
    lines
}

fn confirm(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::Confirm {
        action,
        ids,
        hidden,
        on_confirm,
    } = p
    else {
        return;
    };
    let extra = u16::from(ids.len() == 1 || *hidden > 0) + u16::from(*action == RowAction::Delete);
    let r = centered(area, w.min(74), 6 + extra);
    let verb = match action {
        RowAction::Approve => "Approve",
        RowAction::Decline => "Decline",
        RowAction::Delete => "Delete",
    };
    let inner = frame_box(frame, r, &format!("{verb}?"), theme);
    let mut lines = Vec::new();
    if ids.len() == 1 {
        let id = ids[0];
        let who = m
            .queue
            .get(id)
            .map(|i| i.label_for(m.lang == crate::i18n::Lang::Thai))
            .unwrap_or_default();
        lines.push(Line::raw(format!("{verb} club request {id}?")));
        lines.push(Line::styled(
            clean(&who, inner.width as usize),
            theme.bold(),
        ));
    } else {
        let of = m
            .one_club(ids)
            .map(|c| format!(" of {c}"))
            .unwrap_or_default();
        lines.push(Line::styled(
            format!("{verb} {} marked club requests{of}?", ids.len()),
            theme.bold(),
        ));
        if *hidden > 0 {
            lines.push(Line::styled(
                format!("{hidden} of them are hidden by the current filter."),
                theme.warn(),
            ));
        }
    }
    if *action == RowAction::Delete {
        lines.push(Line::styled("Deleting cannot be undone.", theme.error()));
    }
    lines.push(Line::raw(""));
    let btn = |label: &str, active: bool| {
        let s = if active {
            theme.selected()
        } else {
            Style::default()
        };
        Span::styled(format!("[ {label} ]"), s)
    };
    lines.push(Line::from(vec![
        btn("Cancel", !on_confirm),
        Span::raw("   "),
        btn(verb, *on_confirm),
    ]));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// Quitting with decisions held: what is held, and the three ways out.
fn quit_held(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    const SHOWN: usize = 4;
    let w = popup_width(area).min(74);
    let held: Vec<_> = m.held().iter().collect();
    let shown = held.len().min(SHOWN);
    let extra = u16::from(held.len() > SHOWN);
    let r = centered(area, w, 7 + shown as u16 + extra);
    let inner = frame_box(frame, r, "Quit?", theme);
    let mut lines = vec![Line::styled(
        format!(
            "{} decision(s) on {} request(s) not sent yet:",
            held.len(),
            m.held().requests()
        ),
        theme.bold(),
    )];
    for d in held.iter().rev().take(SHOWN) {
        let what = match d.ids.as_slice() {
            [id] => m
                .queue
                .get(*id)
                .map(|i| i.label())
                .unwrap_or_else(|| id.to_string()),
            ids => format!("{} requests", ids.len()),
        };
        lines.push(Line::raw(clean(
            &format!("  {} {what}", d.action.verb()),
            inner.width as usize,
        )));
    }
    if held.len() > SHOWN {
        lines.push(Line::styled(
            format!("  … and {} more", held.len() - SHOWN),
            theme.dim(),
        ));
    }
    lines.push(Line::raw(""));
    let mut keys = Vec::new();
    for k in Popup::QuitHeld.keys() {
        keys.push(Span::styled(
            k.shown,
            theme.accent().add_modifier(Modifier::BOLD),
        ));
        keys.push(Span::raw(format!(" {}   ", k.hint)));
    }
    lines.push(Line::from(keys));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn add_ids(frame: &mut Frame, area: Rect, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::AddIds { input } = p else {
        return;
    };
    let r = centered(area, w, 6);
    let inner = frame_box(frame, r, "Add club request ids", theme);
    frame.render_widget(
        Paragraph::new("Paste or type ids: spaces, commas or new lines between them.")
            .style(theme.dim()),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
    field(
        frame,
        Rect::new(inner.x, inner.y + 2, inner.width, 1),
        "ids: ",
        input,
        false,
        true,
        theme,
    );
}

fn sign_in(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::SignIn {
        input, save, error, ..
    } = p
    else {
        return;
    };
    let r = centered(area, w, 11);
    let inner = frame_box(frame, r, "Sign in", theme);
    let lines = vec![
        Line::raw("Open this address in a browser on your own computer and sign in:"),
        Line::styled(
            clean(&m.sign_in_url, inner.width as usize),
            theme.accent().add_modifier(Modifier::BOLD),
        ),
        Line::raw("Then paste the token, or the whole JSON page it ends on:"),
    ];
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(inner.x, inner.y, inner.width, 3),
    );
    field(
        frame,
        Rect::new(inner.x, inner.y + 4, inner.width, 1),
        "token: ",
        input,
        true,
        true,
        theme,
    );
    let save_line = if m.can_save_token {
        Line::from(vec![
            Span::raw(if *save { "[x]" } else { "[ ]" }),
            Span::raw(" save the token to a private file (0600) for next time  "),
            Span::styled("Tab", theme.accent()),
        ])
    } else {
        Line::styled("The token is kept in memory only.", theme.dim())
    };
    frame.render_widget(
        Paragraph::new(save_line),
        Rect::new(inner.x, inner.y + 6, inner.width, 1),
    );
    if let Some(e) = error {
        frame.render_widget(
            Paragraph::new(Line::styled(clean(e, inner.width as usize), theme.error())),
            Rect::new(inner.x, inner.y + 8, inner.width, 1),
        );
    }
}

fn command_line(frame: &mut Frame, area: Rect, p: &Popup, theme: &Theme) {
    let Popup::Command { input } = p else {
        return;
    };
    let r = Rect::new(area.x, area.bottom().saturating_sub(3), area.width, 1);
    frame.render_widget(Clear, r);
    field(frame, r, ":", input, false, true, theme);
}

fn filter_line(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let Popup::Filter { input, .. } = p else {
        return;
    };
    let r = Rect::new(area.x, area.bottom().saturating_sub(3), area.width, 1);
    frame.render_widget(Clear, r);
    let label = format!("filter ({} match): /", m.queue.visible().len());
    field(frame, r, &label, input, false, true, theme);
}

fn add_contact(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::AddContact {
        club_id,
        kind,
        value,
        on_value,
        error,
    } = p
    else {
        return;
    };
    let r = centered(area, w.min(70), 10);
    let inner = frame_box(frame, r, "New club contact", theme);
    let club = m
        .club
        .club
        .get()
        .and_then(|c| c.name.as_ref())
        .and_then(|n| n.best())
        .map(|n| clean(n, 40))
        .unwrap_or_else(|| club_id.to_string());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("club: ", theme.accent()),
            Span::raw(club),
        ])),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
    let mut spans = vec![Span::styled("type: ", theme.accent())];
    for (i, t) in Popup::contact_types().iter().enumerate() {
        let s = if i == *kind {
            if *on_value {
                theme.bold().add_modifier(Modifier::UNDERLINED)
            } else {
                theme.selected()
            }
        } else {
            theme.dim()
        };
        spans.push(Span::styled(t.to_string(), s));
        spans.push(Span::raw(" "));
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans)).wrap(Wrap { trim: true }),
        Rect::new(inner.x, inner.y + 2, inner.width, 2),
    );
    field(
        frame,
        Rect::new(inner.x, inner.y + 5, inner.width, 1),
        "value: ",
        value,
        false,
        *on_value,
        theme,
    );
    if let Some(e) = error {
        frame.render_widget(
            Paragraph::new(Line::styled(clean(e, inner.width as usize), theme.error())),
            Rect::new(inner.x, inner.y + 7, inner.width, 1),
        );
    }
}
