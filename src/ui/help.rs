//! The help screen (`?`): the keymap's bindings by scope, the pop-ups' keys from their key
//! tables, what the marks before a row mean, what a hang-up or a suspend does with held
//! decisions, the `:` commands and the filter terms; a search box filters all of it. Each row
//! is wrapped inside its columns (keys left, text right), so a long text (Thai ones are
//! longer) never starts at the box's edge.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::popups::{indented, search_box, wrapped};
use super::theme::Theme;
use crate::app::filter::fold;
use crate::app::keymap::Scope;
use crate::app::model::{Model, Popup, popup};
use crate::app::update::COMMANDS;
use crate::i18n::{Lang, tr};
use crate::text::{clean, width, wrap};

/// The help's search text as compared: without a `/` typed out of habit (as for the queue
/// filter), [`fold`]ed like the texts it is compared with (case-insensitive; SARA AM typed
/// on a Thai keyboard, U+0E33, matches the NIKHAHIT + SARA AA the locale texts are drawn
/// with).
fn search_text(query: &str) -> String {
    fold(query.trim().trim_start_matches('/'))
}

/// The keymap's help rows `(scope, keys, config name, description)` with the description in
/// the reader's language; the search matches keys, names and the description in either
/// language.
fn help_rows(m: &Model, query: &str) -> Vec<(Scope, String, &'static str, String)> {
    let q = search_text(query);
    m.keymap
        .help_rows_offered(m.offered())
        .into_iter()
        .map(|(scope, keys, name, desc)| {
            let said = crate::i18n::tr(m.lang, &crate::i18n::action_key("action", name));
            (scope, keys, name, desc, said)
        })
        .filter(|(_, keys, name, desc, said)| {
            q.is_empty()
                || fold(keys).contains(&q)
                || name.contains(&q)
                || fold(desc).contains(&q)
                || fold(said).contains(&q)
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

/// Draws the help in `area`; returns how far it can scroll as drawn.
pub(super) fn draw(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) -> u16 {
    let Popup::Help { query, scroll } = p else {
        return 0;
    };
    let inner = search_box(frame, area, m.lang, "popup-help-title", query, theme);
    let mut lines = Vec::new();
    let mut last: Option<Scope> = None;
    let cols = inner.width as usize;
    // A third of the box at most: keys wider than that take a line of their own.
    let col = key_column(m).min(cols / 3);
    for (scope, keys, name, desc) in help_rows(m, query.value()) {
        if last != Some(scope) {
            let title = tr(m.lang, &format!("scope-{}", scope_key(scope)));
            lines.push(Line::styled(
                title,
                theme.bold().add_modifier(Modifier::UNDERLINED),
            ));
            last = Some(scope);
        }
        lines.extend(hanging(
            &keys,
            col,
            vec![(desc, Style::default()), (name.to_owned(), theme.dim())],
            cols,
            theme,
        ));
    }
    lines.extend(popup_key_lines(
        m.lang,
        query.value(),
        (m.can_save_token, m.can_suspend),
        (col, cols),
        theme,
    ));
    if lines.is_empty() {
        let typed = clean(query.value(), 40);
        lines.push(Line::styled(
            crate::tr!(m.lang, "popup-help-no-match", query = typed),
            theme.warn(),
        ));
    }
    lines.extend(marker_lines(m.lang, query.value(), (col, cols), theme));
    lines.extend(dropped_lines(
        m.lang,
        query.value(),
        m.can_suspend,
        cols,
        theme,
    ));
    lines.extend(command_lines(m.lang, cols, theme));
    // Every line is wrapped already, inside its column: a long text (Thai ones are longer)
    // goes on under its own column, never at the box's left edge.
    let text = Paragraph::new(lines);
    super::popups::scrolled_body(frame, inner, text, *scroll, m.lang, theme)
}

/// The row markers the help explains.
const MARKERS: [&str; 6] = ["●", "✱", "!", "?", "+", "~"];

/// A pop-up key's keys as the help shows them: "← → Tab Shift-Tab h l".
fn popup_keys(k: &popup::PopupKey) -> String {
    let keys: Vec<String> = k.keys.iter().map(|k| k.to_string()).collect();
    keys.join(" ")
}

/// The help's key column: as wide as its longest keys (display width, of every row the help
/// can show, whatever the search: the column does not move as one types) and a space.
fn key_column(m: &Model) -> usize {
    let keymap = help_rows(m, "").into_iter().map(|(_, keys, ..)| keys);
    let popups = popup::help_sections(m.can_save_token)
        .into_iter()
        .flat_map(|(_, keys)| keys.iter())
        .filter(|k| k.op.is_some())
        .map(popup_keys);
    keymap
        .chain(popups)
        .chain(MARKERS.map(str::to_owned))
        .map(|k| crate::text::width(&k))
        .max()
        .unwrap_or(0)
        + 1
}

/// `keys` and spaces to `col` display columns (at least one space after them).
fn padded(keys: &str, col: usize) -> String {
    let w = crate::text::width(keys);
    format!("{keys}{}", " ".repeat(col.saturating_sub(w).max(1)))
}

/// The fewest columns a help text is wrapped in beside its keys; with fewer (a phone), the
/// keys stand on a line of their own and the text goes under them.
const HELP_TEXT_MIN: usize = 20;

/// One row of the help in `cols` columns: two blanks, `keys` padded to `col`, then `parts`
/// (each in its style, two blanks apart) wrapped in the columns right of the keys, every
/// line after the first starting under the text, never at the box's edge. Where that leaves
/// fewer than [`HELP_TEXT_MIN`] columns, the keys take a line and the text is wrapped under
/// them, four blanks in.
fn hanging(
    keys: &str,
    col: usize,
    parts: Vec<(String, Style)>,
    cols: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let lead = 2 + col;
    let (indent, mut line) = if width(keys) < col && cols >= lead + HELP_TEXT_MIN {
        let keys = Span::styled(format!("  {}", padded(keys, col)), theme.accent());
        (lead, vec![keys])
    } else {
        lines.push(Line::styled(
            clean(&format!("  {keys}"), cols),
            theme.accent(),
        ));
        (
            4.min(cols / 4),
            vec![Span::raw(" ".repeat(4.min(cols / 4)))],
        )
    };
    let room = cols.saturating_sub(indent).max(1);
    let mut used = 0;
    for (n, (text, style)) in parts.into_iter().enumerate() {
        let text = crate::text::for_terminal(&text).into_owned();
        // The words of a part go on the line while they fit, then on lines of their own.
        let sep = if n == 0 || used == 0 { 0 } else { 2 };
        if used > 0 && used + sep + width(&text) > room && width(&text) <= room {
            lines.push(Line::from(std::mem::take(&mut line)));
            line.push(Span::raw(" ".repeat(indent)));
            used = 0;
        }
        let first_room = room.saturating_sub(used + if used == 0 { 0 } else { 2 });
        let pieces = if width(&text) <= first_room {
            vec![text]
        } else {
            wrap(&text, room)
        };
        for (i, piece) in pieces.into_iter().enumerate() {
            if i > 0 {
                lines.push(Line::from(std::mem::take(&mut line)));
                line.push(Span::raw(" ".repeat(indent)));
                used = 0;
            }
            if used > 0 {
                line.push(Span::raw("  "));
                used += 2;
            }
            used += width(&piece);
            line.push(Span::styled(piece, style));
        }
    }
    lines.push(Line::from(line));
    lines
}

/// The help's lines for the pop-ups' keys (from their key tables), filtered by the search
/// text `query`, which matches the keys, the texts and the section titles in the reader's
/// language or in English. Without a token file (`can_save_token` false) the sign-in box's
/// `Tab` is left out: it does nothing there.
fn popup_key_lines(
    lang: Lang,
    query: &str,
    (can_save_token, can_suspend): (bool, bool),
    (col, cols): (usize, usize),
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let q = search_text(query);
    let has =
        |key: &str| fold(&tr(lang, key)).contains(&q) || fold(&tr(Lang::English, key)).contains(&q);
    for (title, keys) in popup::help_sections(can_save_token) {
        // Back from a suspend: only where Ctrl-Z suspends.
        if !can_suspend && title == "popup-section-resume-held" {
            continue;
        }
        let rows: Vec<_> = keys
            .iter()
            .filter(|k| k.op.is_some())
            .filter(|k| q.is_empty() || has(k.help) || fold(k.shown).contains(&q) || has(title))
            .collect();
        if rows.is_empty() {
            continue;
        }
        lines.push(Line::styled(
            tr(lang, title),
            theme.bold().add_modifier(Modifier::UNDERLINED),
        ));
        for k in rows {
            let text = vec![(k.help_in(lang), Style::default())];
            lines.extend(hanging(&popup_keys(k), col, text, cols, theme));
        }
    }
    lines
}

/// The help's last lines: the `:` commands (their names stay as typed) and the filter terms.
/// What the marks before a queue row mean, filtered by the search text.
fn marker_lines(
    lang: Lang,
    query: &str,
    (col, cols): (usize, usize),
    theme: &Theme,
) -> Vec<Line<'static>> {
    let q = search_text(query);
    let rows: Vec<(&str, String)> = MARKERS
        .into_iter()
        .zip([
            "help-marker-marked",
            "help-marker-marked-error",
            "help-marker-error",
            "help-marker-unknown",
            "help-marker-new",
            "help-marker-held-elsewhere",
        ])
        .map(|(mark, key)| (mark, tr(lang, key)))
        .filter(|(mark, text)| {
            q.is_empty()
                || fold(text).contains(&q)
                || fold(&tr(Lang::English, "help-markers")).contains(&q)
                || fold(&tr(lang, "help-markers")).contains(&q)
                || *mark == q
        })
        .collect();
    if rows.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![
        Line::raw(""),
        Line::styled(
            tr(lang, "help-markers"),
            theme.bold().add_modifier(Modifier::UNDERLINED),
        ),
    ];
    for (mark, text) in rows {
        lines.extend(hanging(
            mark,
            col,
            vec![(text, Style::default())],
            cols,
            theme,
        ));
    }
    lines
}

/// What a hang-up and a suspend do with held decisions (the suspend only where Ctrl-Z
/// suspends), shown unless the search text matches none of it.
fn dropped_lines(
    lang: Lang,
    query: &str,
    can_suspend: bool,
    cols: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let q = search_text(query);
    let all = [
        "help-dropped",
        "help-dropped-hangup",
        "help-dropped-suspend",
    ];
    let keys = &all[..if can_suspend { 3 } else { 2 }];
    let found = q.is_empty()
        || keys
            .iter()
            .any(|k| fold(&tr(lang, k)).contains(&q) || fold(&tr(Lang::English, k)).contains(&q));
    if !found {
        return Vec::new();
    }
    let mut lines = vec![
        Line::raw(""),
        Line::styled(
            tr(lang, keys[0]),
            theme.bold().add_modifier(Modifier::UNDERLINED),
        ),
    ];
    for key in &keys[1..] {
        lines.extend(indented(&tr(lang, key), cols, Style::default()));
    }
    lines
}

fn command_lines(lang: Lang, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::raw(""),
        Line::styled(
            tr(lang, "popup-help-commands"),
            theme.bold().add_modifier(Modifier::UNDERLINED),
        ),
    ];
    for chunk in COMMANDS.chunks(4) {
        lines.extend(indented(&chunk.join(" · "), cols, theme.dim()));
    }
    lines.extend(wrapped(
        &tr(lang, "help-filter-terms"),
        cols as u16,
        theme.dim(),
    ));
    lines
}
