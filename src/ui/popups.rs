//! Pop-ups: confirmation, held decisions, add ids, sign in, command line, filter, new
//! contact (the help is drawn by [`super::help`]). Their words come from
//! `assets/locales/*/popups.ftl` in the reader's language (`m.lang`); texts that may be long
//! are wrapped before drawing ([`crate::text::wrap`]) so a box grows to hold them.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use tui_input::Input;
use uuid::Uuid;

use super::theme::Theme;
use crate::app::model::{Model, Popup, RowAction, popup};
use crate::i18n::{Lang, tr};
use crate::text::{clean, wrap};

pub(super) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let [r] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(r);
    r
}

/// One text field: label, value (masked when `mask`), cursor placed when focused.
pub(super) fn field(
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

pub(super) fn frame_box(frame: &mut Frame, area: Rect, title: &str, theme: &Theme) -> Rect {
    // A box over Thai text can cover the SARA AA of a SARA AM drawn as NIKHAHIT + SARA AA:
    // the NIKHAHIT left of the box goes too, so no half of ำ stays on screen.
    if let Some(x) = area.x.checked_sub(1) {
        let buf = frame.buffer_mut();
        for y in area.top()..area.bottom() {
            let Some(cell) = buf.cell_mut((x, y)) else {
                continue;
            };
            if let Some(base) = cell.symbol().strip_suffix('\u{e4d}') {
                let base = base.to_owned();
                cell.set_symbol(if base.is_empty() { " " } else { &base });
            }
        }
    }
    frame.render_widget(Clear, area);
    let blk = Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(format!(" {title} "), theme.bold()));
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    inner
}

/// `text` wrapped to `cols` columns, each line in `style`.
pub(super) fn wrapped(text: &str, cols: u16, style: Style) -> Vec<Line<'static>> {
    wrap(text, cols as usize)
        .into_iter()
        .map(|l| Line::styled(l, style))
        .collect()
}

/// A field label: the locale text of `key` and a space ("search: ").
pub(super) fn label(lang: Lang, key: &str) -> String {
    format!("{} ", tr(lang, key))
}

/// A searchable pop-up's box (the help, the history): nearly the whole screen (all of it in
/// the narrow layout), titled by `title_key`, its search field on the first line; returns
/// the box's inside.
pub(super) fn search_box(
    frame: &mut Frame,
    area: Rect,
    lang: Lang,
    title_key: &str,
    query: &Input,
    theme: &Theme,
) -> Rect {
    let h = if crate::app::model::is_narrow(area.width) {
        area.height
    } else {
        area.height.saturating_sub(2)
    };
    let r = centered(area, popup_width(area), h);
    let inner = frame_box(frame, r, &tr(lang, title_key), theme);
    field(
        frame,
        Rect::new(inner.x, inner.y, inner.width, 1),
        &label(lang, "popup-help-search"),
        query,
        false,
        true,
        theme,
    );
    inner
}

/// Draws a searchable pop-up's `text` below its search field (the box's `inner` area from
/// [`search_box`]), scrolled to `scroll` (at most its last line); while lines are below the
/// box's edge its bottom border says "more below". Returns how far it can scroll as drawn.
pub(super) fn scrolled_body(
    frame: &mut Frame,
    inner: Rect,
    text: Paragraph,
    scroll: u16,
    lang: Lang,
    theme: &Theme,
) -> u16 {
    let body = Rect::new(
        inner.x,
        inner.y + 2,
        inner.width,
        inner.height.saturating_sub(2),
    );
    scrolled_in(frame, inner, body, text, scroll, lang, theme)
}

/// `text` drawn in `body`, a part of the box whose inside is `inner`, scrolled by `scroll`
/// (at most to its last line), "more below" on the box's bottom border while lines are
/// below; returns how far it can scroll.
pub(super) fn scrolled_in(
    frame: &mut Frame,
    inner: Rect,
    body: Rect,
    text: Paragraph,
    scroll: u16,
    lang: Lang,
    theme: &Theme,
) -> u16 {
    let room = super::panes::pane::scroll_room(&text, body);
    let at = scroll.min(room);
    frame.render_widget(text.scroll((at, 0)), body);
    if at < room {
        let sign = format!(" {} ↓ ", tr(lang, "queue-more-below"));
        let w = crate::text::width(&sign) as u16;
        if w + 2 <= inner.width {
            let x = inner.right().saturating_sub(w + 1);
            frame.render_widget(
                Paragraph::new(Span::styled(sign, theme.dim())),
                Rect::new(x, inner.bottom(), w, 1),
            );
        }
    }
    room
}

/// Width of a centred pop-up: the screen less a margin, at most 90 columns; the whole width
/// in the narrow layout (a phone has no column to spare).
pub(super) fn popup_width(area: Rect) -> u16 {
    if crate::app::model::is_narrow(area.width) {
        area.width
    } else {
        area.width.saturating_sub(4).min(90)
    }
}

/// The lines of a pop-up's text kept in `room` lines: all when they fit; else without its
/// blank lines, then cut at the end (the last line kept says what is left out: `…`).
fn fit_lines(mut lines: Vec<Line<'static>>, room: usize) -> Vec<Line<'static>> {
    if lines.len() <= room {
        return lines;
    }
    lines.retain(|l| l.width() > 0);
    if lines.len() > room && room > 0 {
        lines.truncate(room);
        if let Some(last) = lines.last_mut() {
            last.spans.push(Span::raw("…"));
        }
    }
    lines
}

/// Draws the open pop-up, if any, over the panes.
/// Draws the pop-up; returns how far the help can scroll (0 for any other pop-up).
pub(super) fn draw(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) -> u16 {
    let Some(p) = &m.popup else { return 0 };
    // On a phone a pop-up leaves the header (who, online) and the hint bar (its keys can be
    // tapped) in sight.
    let area = if crate::app::model::is_narrow(area.width) {
        let footer = super::layout::areas(area, m.log.visible).footer;
        Rect {
            y: area.y + 1,
            height: area.height.saturating_sub(footer.height + 1),
            ..area
        }
    } else {
        area
    };
    match p {
        Popup::Help { .. } => return super::help::draw(frame, area, m, p, theme),
        Popup::History { .. } => return super::history::draw(frame, area, m, p, theme),
        Popup::Term { .. } => return super::term::draw(frame, area, m, p, theme),
        Popup::Confirm { .. } => confirm(frame, area, m, p, theme),
        Popup::QuitHeld | Popup::ResumeHeld => held(frame, area, m, p, theme),
        Popup::AddIds { .. } => add_ids(frame, area, m.lang, p, theme),
        Popup::SignIn { .. } => sign_in(frame, area, m, p, theme),
        Popup::Command { .. } => command_line(frame, area, p, theme),
        Popup::Filter { .. } => filter_line(frame, area, m, p, theme),
        Popup::AddContact { .. } => add_contact(frame, area, m, p, theme),
    }
    0
}

/// `text` wrapped in `cols` columns less two blanks before each line.
pub(super) fn indented(text: &str, cols: usize, style: Style) -> Vec<Line<'static>> {
    wrap(text, cols.saturating_sub(2))
        .into_iter()
        .map(|l| Line::styled(format!("  {l}"), style))
        .collect()
}

/// The confirmation's text lines above its buttons: the question (and the request's label
/// for one), how many the filter hides, that a delete is final; wrapped to `cols`.
fn confirm_lines(m: &Model, p: &Popup, cols: u16, theme: &Theme) -> Vec<Line<'static>> {
    let Popup::Confirm {
        action,
        ids,
        hidden,
        ..
    } = p
    else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if let [id] = ids.as_slice() {
        let who = m
            .queue
            .get(*id)
            .map(|i| i.label_for(m.lang == Lang::Thai))
            .unwrap_or_default();
        let question = popup::confirm_one(m.lang, *action, *id);
        lines.extend(wrapped(&question, cols, Style::default()));
        // The request named whole, on as many lines as it takes (a phone's box is narrow).
        lines.extend(wrapped(&who, cols, theme.bold()));
        if let Some((by, other)) = m.queue.get(*id).and_then(|i| i.held_elsewhere.clone()) {
            let text = held_elsewhere_text(m.lang, by.as_deref(), other);
            lines.extend(wrapped(&text, cols, theme.warn()));
        }
    } else {
        let club = m.one_club(ids);
        let question = popup::confirm_many(m.lang, *action, ids.len(), club.as_deref());
        lines.extend(wrapped(&question, cols, theme.bold()));
        if *hidden > 0 {
            let text = popup::confirm_hidden(m.lang, *hidden);
            lines.extend(wrapped(&text, cols, theme.warn()));
        }
        if let Some(text) = held_elsewhere_among(m, ids) {
            lines.extend(wrapped(&text, cols, theme.warn()));
        }
    }
    if *action == RowAction::Delete {
        let text = tr(m.lang, "confirm-delete-final");
        lines.extend(wrapped(&text, cols, theme.error()));
    }
    lines
}

/// "2 of them are held in another session (s1@school): whichever reaches the server first
/// decides each": the marked requests another session holds in its grace period (their `~`
/// mark hides under the `●` of a marked row), or None.
fn held_elsewhere_among(m: &Model, ids: &[Uuid]) -> Option<String> {
    /// Requests named, at most; more are counted ("and 2 more").
    const NAMED: usize = 3;
    let someone = tr(m.lang, "others-someone");
    let thai = m.lang == Lang::Thai;
    let mut by: Vec<String> = Vec::new();
    let mut which: Vec<String> = Vec::new();
    let mut n = 0;
    for item in ids.iter().filter_map(|id| m.queue.get(*id)) {
        let Some((who, _)) = &item.held_elsewhere else {
            continue;
        };
        n += 1;
        let who = who.clone().unwrap_or_else(|| someone.clone());
        if !by.contains(&who) {
            by.push(who);
        }
        if which.len() < NAMED {
            which.push(item.label_for(thai));
        }
    }
    if n > NAMED {
        which.push(crate::tr!(m.lang, "confirm-held-more", n = n - NAMED));
    }
    (n > 0).then(|| {
        crate::tr!(
            m.lang,
            "confirm-held-elsewhere",
            n = n,
            by = by.join(", "),
            which = which.join(", ")
        )
    })
}

/// "s1@school is about to approve it in another session (held, not sent yet)".
pub(super) fn held_elsewhere_text(lang: Lang, by: Option<&str>, action: RowAction) -> String {
    let someone = tr(lang, "others-someone");
    crate::tr!(
        lang,
        "others-holding",
        by = by.unwrap_or(someone.as_str()),
        verb = crate::app::model::words::verb(lang, action)
    )
}

fn confirm(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let Popup::Confirm {
        action, on_confirm, ..
    } = p
    else {
        return;
    };
    let w = popup_width(area).min(74);
    let mut lines = confirm_lines(m, p, w.saturating_sub(2), theme);
    // One spare line under the buttons.
    let r = centered(area, w, lines.len() as u16 + 5);
    let inner = frame_box(frame, r, &popup::confirm_title(m.lang, *action), theme);
    lines.push(Line::raw(""));
    let btn = |label: String, active: bool| {
        let s = if active {
            theme.selected()
        } else {
            Style::default()
        };
        Span::styled(format!("[ {label} ]"), s)
    };
    lines.push(Line::from(vec![
        btn(tr(m.lang, "confirm-cancel"), !on_confirm),
        Span::raw("   "),
        btn(popup::confirm_button(m.lang, *action), *on_confirm),
    ]));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Quitting with decisions held (what is held), or back from a suspend with decisions whose
/// time ran out (those): the decisions, and the three ways out.
fn held(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    const SHOWN: usize = 4;
    let w = popup_width(area).min(74);
    let cols = w.saturating_sub(2);
    let resume = matches!(p, Popup::ResumeHeld);
    let all = m.held();
    let held: Vec<_> = all
        .iter()
        .filter(|d| !resume || d.send_at <= m.now())
        .collect();
    let requests = held.iter().map(|d| d.ids.len()).sum();
    let summary = if resume {
        crate::tr!(
            m.lang,
            "popup-resume-held",
            n = held.len(),
            requests = requests
        )
    } else {
        popup::quit_held_summary(m.lang, held.len(), requests)
    };
    let mut lines = wrapped(&summary, cols, theme.bold());
    for d in held.iter().rev().take(SHOWN) {
        let what = match d.ids.as_slice() {
            [id] => m
                .queue
                .get(*id)
                .map(|i| i.label_for(m.lang == Lang::Thai))
                .unwrap_or_else(|| id.to_string()),
            ids => popup::quit_held_requests(m.lang, ids.len()),
        };
        let row = popup::quit_held_row(m.lang, d.action, &what);
        lines.extend(indented(&row, cols as usize, Style::default()));
    }
    if held.len() > SHOWN {
        let more = popup::quit_held_more(m.lang, held.len() - SHOWN);
        lines.push(Line::styled(format!("  {more}"), theme.dim()));
    }
    // On a short screen the ways out keep their lines; the list is cut first (with `…`).
    let mut lines = fit_lines(lines, usize::from(area.height.saturating_sub(7)).max(2));
    lines.push(Line::raw(""));
    let mut keys = Vec::new();
    for k in p.keys() {
        keys.push(Span::styled(
            k.shown_in(m.lang),
            theme.accent().add_modifier(Modifier::BOLD),
        ));
        keys.push(Span::raw(format!(
            " {}   ",
            k.hint_in(m.lang).unwrap_or_default()
        )));
    }
    lines.push(Line::from(keys));
    // Two spare lines: the keys' line may wrap.
    let r = centered(area, w, (lines.len() as u16 + 4).min(area.height));
    let title = if resume {
        "popup-resume-title"
    } else {
        "popup-quit-title"
    };
    let inner = frame_box(frame, r, &tr(m.lang, title), theme);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

fn add_ids(frame: &mut Frame, area: Rect, lang: Lang, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::AddIds { input } = p else {
        return;
    };
    let text = wrapped(
        &tr(lang, "popup-add-ids-text"),
        w.saturating_sub(2),
        theme.dim(),
    );
    let n = text.len() as u16;
    let r = centered(area, w, 5 + n);
    let inner = frame_box(frame, r, &tr(lang, "popup-add-ids-title"), theme);
    frame.render_widget(
        Paragraph::new(text),
        Rect::new(inner.x, inner.y, inner.width, n),
    );
    field(
        frame,
        Rect::new(inner.x, inner.y + n + 1, inner.width, 1),
        &label(lang, "popup-add-ids-label"),
        input,
        false,
        true,
        theme,
    );
}

/// The sign-in box's lines above the token field: where to sign in (the address whole,
/// broken only where the box ends) and what to paste, wrapped to `cols`.
fn sign_in_intro(m: &Model, cols: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = wrapped(&tr(m.lang, "popup-sign-in-open"), cols, Style::default());
    // The address whole, on as many lines as it takes: it is copied from the screen.
    let url = crate::text::sanitize(&m.sign_in_url);
    lines.extend(wrapped(
        &url,
        cols,
        theme.accent().add_modifier(Modifier::BOLD),
    ));
    lines.extend(wrapped(
        &tr(m.lang, "popup-sign-in-paste"),
        cols,
        Style::default(),
    ));
    lines
}

/// The line(s) on saving the token: the check box, its words and `Tab` after the last
/// line; or that the token stays in memory.
fn sign_in_save(m: &Model, save: bool, cols: u16, theme: &Theme) -> Vec<Line<'static>> {
    if !m.can_save_token {
        return wrapped(&tr(m.lang, "popup-sign-in-memory"), cols, theme.dim());
    }
    let text = format!(
        "{} {}",
        if save { "[x]" } else { "[ ]" },
        tr(m.lang, "popup-sign-in-save")
    );
    let mut lines: Vec<Line> = wrap(&text, cols.saturating_sub(5) as usize)
        .into_iter()
        .map(Line::raw)
        .collect();
    if let Some(last) = lines.last_mut() {
        last.spans.push(Span::raw("  "));
        last.spans.push(Span::styled("Tab", theme.accent()));
    }
    lines
}

fn sign_in(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area);
    let Popup::SignIn {
        input, save, error, ..
    } = p
    else {
        return;
    };
    let cols = w.saturating_sub(2);
    let intro = sign_in_intro(m, cols, theme);
    let saving = sign_in_save(m, *save, cols, theme);
    let mut why: Vec<Line> = error
        .as_deref()
        .map(|e| wrapped(&crate::text::sanitize(e), cols, theme.error()))
        .unwrap_or_default();
    why.truncate(3);
    // intro, blank, token, blank, saving, blank, error (one line kept for it); where the
    // screen is shorter (a phone), without the blank lines, then with the intro cut at its
    // end (the address, copied from the screen, comes first).
    let n_why = (why.len() as u16).max(1);
    let room = area.height.saturating_sub(2);
    let gap = u16::from(intro.len() as u16 + 3 + saving.len() as u16 + 1 + n_why <= room);
    let intro_room = room.saturating_sub(1 + saving.len() as u16 + n_why + 3 * gap);
    let intro = fit_lines(intro, intro_room as usize);
    let (n_intro, n_save) = (intro.len() as u16, saving.len() as u16);
    let h = n_intro + 1 + n_save + n_why + 3 * gap;
    let r = centered(area, w, h + 2);
    let inner = frame_box(frame, r, &tr(m.lang, "popup-sign-in-title"), theme);
    let at = |dy: u16, height: u16| Rect::new(inner.x, inner.y + dy, inner.width, height);
    frame.render_widget(Paragraph::new(intro), at(0, n_intro));
    field(
        frame,
        at(n_intro + gap, 1),
        &label(m.lang, "popup-sign-in-token"),
        input,
        true,
        true,
        theme,
    );
    frame.render_widget(Paragraph::new(saving), at(n_intro + 1 + 2 * gap, n_save));
    if !why.is_empty() {
        let n = why.len() as u16;
        frame.render_widget(Paragraph::new(why), at(n_intro + n_save + 1 + 3 * gap, n));
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
    let n = m.queue.visible().len();
    let label = crate::tr!(m.lang, "popup-filter-label", n = n);
    field(frame, r, &label, input, false, true, theme);
}

fn add_contact(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) {
    let w = popup_width(area).min(70);
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
    let cols = w.saturating_sub(2);
    let mut why: Vec<Line> = error
        .as_deref()
        .map(|e| wrapped(&crate::text::sanitize(e), cols, theme.error()))
        .unwrap_or_default();
    why.truncate(3);
    let r = centered(area, w, 9 + (why.len() as u16).max(1));
    let inner = frame_box(frame, r, &tr(m.lang, "form-contact-title"), theme);
    let at = |dy: u16, height: u16| Rect::new(inner.x, inner.y + dy, inner.width, height);
    let thai = m.lang == Lang::Thai;
    let club = m
        .club
        .club
        .get()
        .and_then(|c| c.name.as_ref())
        .and_then(|n| if thai { n.thai_first() } else { n.best() })
        .map(|n| clean(n, 40))
        .unwrap_or_else(|| club_id.to_string());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(label(m.lang, "form-contact-club"), theme.accent()),
            Span::raw(club),
        ])),
        at(0, 1),
    );
    let mut spans = vec![Span::styled(
        label(m.lang, "form-contact-type-label"),
        theme.accent(),
    )];
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
        spans.push(Span::styled(popup::contact_type_name(m.lang, t), s));
        spans.push(Span::raw(" "));
    }
    frame.render_widget(
        Paragraph::new(Line::from(spans)).wrap(Wrap { trim: true }),
        at(2, 2),
    );
    field(
        frame,
        at(5, 1),
        &label(m.lang, "form-contact-value"),
        value,
        false,
        *on_value,
        theme,
    );
    if !why.is_empty() {
        let n = why.len() as u16;
        frame.render_widget(Paragraph::new(why), at(7, n));
    }
}
