//! The detail pane: the selected club request in full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane::block;
use super::queue::status_cell;
use crate::api::{ClubRequest, MultiLangText, Student};
use crate::app::model::{Model, Origin, QueueItem, RowState, words};
use crate::i18n::Lang;
use crate::text::{clean, width};
use crate::tr;
use crate::ui::theme::Theme;

/// Both names, the reader's language first: "Robotics Club / ชุมนุมหุ่นยนต์" in English,
/// "ชุมนุมหุ่นยนต์ / Robotics Club" in Thai; one name where the other is missing or the same.
pub(super) fn both(lang: Lang, en: Option<String>, th: Option<String>) -> Option<String> {
    let (first, second) = match lang {
        Lang::Thai => (th, en),
        Lang::English => (en, th),
    };
    match (first, second) {
        (Some(a), Some(b)) if a != b => Some(format!("{a} / {b}")),
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}

/// A text the server gives in both languages: both, the reader's first (see [`both`]);
/// blank texts count as missing.
pub(super) fn ml(lang: Lang, t: &Option<MultiLangText>) -> Option<String> {
    let t = t.as_ref()?;
    let some = |s: &Option<String>| {
        s.as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    both(lang, some(&t.en), some(&t.th))
}

/// Width of the field-name column of the detail and club panes.
const KEY_W: usize = 9;

/// The cells a value has beside the field name `key` in a pane `w` cells wide (at least 8).
fn value_room(key: &str, w: usize) -> usize {
    let indent = width(key) + KEY_W.saturating_sub(width(key)).max(1);
    w.saturating_sub(indent).max(8)
}

/// A "name    value" line: the field name (already in the reader's language) padded to
/// [`KEY_W`] columns by display width, the value whole, wrapped under itself to what is left
/// of `w` (an id, a name or a club's "about" is never cut for good).
pub(super) fn kv<'a>(
    key: &str,
    value: String,
    w: usize,
    theme: &Theme,
    style: Style,
) -> Vec<Line<'a>> {
    let pad = " ".repeat(KEY_W.saturating_sub(width(key)).max(1));
    let indent = width(key) + pad.chars().count();
    let room = value_room(key, w);
    let value = clean(&value, 4000);
    // Broken at spaces, and inside a Thai run only where a line may break (a leading vowel
    // stays with its consonant, SARA AM whole: `text::wrap`).
    crate::text::wrap(&value, room)
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let head = if i == 0 {
                Span::styled(format!("{key}{pad}"), theme.accent())
            } else {
                Span::raw(" ".repeat(indent))
            };
            Line::from(vec![head, Span::styled(part, style)])
        })
        .collect()
}

/// The most lines a name typed by a student takes in the detail pane: a real name (both
/// languages, a nickname, the number in class) fits in three down to a phone's 45 columns.
const NAME_LINES: usize = 3;

/// [`kv`] for a name typed by a student (the student's line, the club's names): whole when
/// it takes at most [`NAME_LINES`] lines; a longer one is cut to `max_lines` (1 to
/// [`NAME_LINES`]), the last ending in `…`, so that a name of thousands of characters never
/// pushes the club, the year and the date out of view.
fn kv_name<'a>(
    key: &str,
    value: String,
    (w, max_lines): (usize, usize),
    theme: &Theme,
    style: Style,
) -> Vec<Line<'a>> {
    let mut lines = kv(key, value, w, theme, style);
    if lines.len() > NAME_LINES {
        lines.truncate(max_lines.clamp(1, NAME_LINES));
        if let Some(part) = lines.last_mut().and_then(|l| l.spans.last_mut()) {
            // The line as wrapped, cut a cell short when full, then the ellipsis.
            let room = value_room(key, w);
            let kept = crate::text::fit_width(&part.content, room - 1);
            let kept = if kept.ends_with('…') {
                kept
            } else {
                format!("{kept}…")
            };
            part.content = kept.into();
        }
    }
    lines
}

/// The field name `detail-field-<name>` in the reader's language.
pub(super) fn field(lang: Lang, name: &str) -> String {
    crate::i18n::tr(lang, &format!("detail-field-{name}"))
}

/// A student in one line: `#` school number first (a line cut at the pane's edge never cuts
/// it into another student's), both names (the reader's first), nickname, number in class
/// ("no. 12" / "เลขที่ 12"); the id when nothing else is known.
pub(super) fn student_line(lang: Lang, s: &Student) -> String {
    let mut out = s
        .student_id
        .as_ref()
        .map(|n| format!("#{n} "))
        .unwrap_or_default();
    if let Some(names) = s
        .person
        .as_ref()
        .and_then(|p| both(lang, p.full_name(false), p.full_name(true)))
    {
        out.push_str(&names);
    }
    if let Some(nick) = s.person.as_ref().and_then(|p| ml(lang, &p.nickname)) {
        out.push_str(&format!(" ({nick})"));
    }
    if let Some(no) = s.class_no {
        out.push_str(&format!(" · {}", tr!(lang, "detail-class-no", n = no)));
    }
    if out.trim().is_empty() {
        out = s.id.to_string();
    }
    out.trim().to_owned()
}

/// Draws the detail pane: the selected row's id and status, its request (student, club,
/// year, when asked), where it came from, the levels, and its last errors. While lines are
/// below its edge (or above, scrolled), its bottom border says so with the key that
/// reveals them ("↓ J", "↑ K"). Returns how far its text can scroll (`J`/`K`).
pub(in crate::ui) fn detail(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) -> u16 {
    let lang = m.lang;
    let mut blk = block(format!(" {} ", tr!(lang, "detail-title")), false, theme);
    let inner = blk.inner(area);
    let Some(text) = detail_text(m, inner, theme) else {
        frame.render_widget(blk, area);
        frame.render_widget(
            Paragraph::new(tr!(lang, "empty-nothing-selected")).style(theme.dim()),
            inner,
        );
        return 0;
    };
    let room = super::pane::scroll_room(&text, inner);
    let at = m.detail_scroll_now().min(room);
    if let Some(sign) = more_sign(m, at, room) {
        blk = blk.title_bottom(Line::styled(sign, theme.accent()).right_aligned());
    }
    frame.render_widget(blk, area);
    frame.render_widget(text.scroll((at, 0)), inner);
    room
}

/// How far the detail pane drawn in `area` can scroll (as [`detail`] returns), without
/// drawing it: for the hint bar, which offers the scroll key while lines are hidden.
pub(in crate::ui) fn detail_room(m: &Model, area: Rect, theme: &Theme) -> u16 {
    let inner = ratatui::widgets::Block::bordered().inner(area);
    detail_text(m, inner, theme).map_or(0, |t| super::pane::scroll_room(&t, inner))
}

/// The bottom border's sign while lines are hidden: " ↓ J " below (more to read), " ↑ K "
/// above once at the end; `None` when the whole text is in view.
fn more_sign(m: &Model, at: u16, room: u16) -> Option<String> {
    use crate::app::keymap::{Action, Scope};
    let (action, arrow) = if at < room {
        (Action::DetailDown, "↓")
    } else if at > 0 {
        (Action::DetailUp, "↑")
    } else {
        return None;
    };
    let key = m.keymap.key_for(Scope::Queue, action)?;
    Some(format!(" {arrow} {key} "))
}

/// The selected row's text as the pane shows it (`inner`: the pane inside its border);
/// `None` when no row is selected.
fn detail_text<'a>(m: &Model, inner: Rect, theme: &Theme) -> Option<Paragraph<'a>> {
    let lang = m.lang;
    let item = m.queue.selected()?;
    let w = inner.width as usize;
    let plain = Style::default();
    let mut lines = kv(&field(lang, "id"), item.id.to_string(), w, theme, plain);
    let (st, st_style) = status_cell(m, item, true, theme);
    lines.extend(kv(&field(lang, "status"), st, w, theme, st_style));
    if let Some(r) = &item.request {
        // The request's fields all in view when the pane can hold them: a name cut for its
        // length gives up lines first (down to one), never the id, the year or the date.
        let rows = (inner.height as usize).saturating_sub(lines.len());
        let mut request = Vec::new();
        for name_lines in (1..=NAME_LINES).rev() {
            request = request_lines(m, r, (w, name_lines), theme);
            if request.len() <= rows {
                break;
            }
        }
        lines.extend(request);
    } else if matches!(item.state, RowState::Loading) {
        lines.push(Line::styled(tr!(lang, "row-loading"), theme.dim()));
    }
    lines.extend(trailer_lines(m, item, w, theme));
    lines.extend(crate::ui::history::own_lines(m, item.id, theme));
    Some(Paragraph::new(lines).wrap(Wrap { trim: false }))
}

/// The request's lines: student and club (both names, each at most `name_lines` lines),
/// academic year, when it was asked; `w` is the pane's inner width.
fn request_lines<'a>(
    m: &Model,
    r: &ClubRequest,
    (w, name_lines): (usize, usize),
    theme: &Theme,
) -> Vec<Line<'a>> {
    let plain = Style::default();
    let lang = m.lang;
    let mut lines = Vec::new();
    if let Some(s) = &r.student {
        let who = student_line(lang, s);
        lines.extend(kv_name(
            &field(lang, "student"),
            who,
            (w, name_lines),
            theme,
            theme.bold(),
        ));
    }
    if let Some(c) = &r.club {
        // Both names, the reader's first (a Thai reader and an English one see the same club).
        let name = ml(lang, &c.name)
            .or_else(|| m.listing.club_names.get(&c.id).cloned())
            .unwrap_or_else(|| c.id.to_string());
        lines.extend(kv_name(
            &field(lang, "club"),
            name,
            (w, name_lines),
            theme,
            plain,
        ));
    }
    if let Some(y) = r.year {
        let y = crate::i18n::dates::academic_year(m.year_style, y);
        lines.extend(kv(&field(lang, "year"), y, w, theme, plain));
    }
    if let Some(t) = r.created_at {
        lines.extend(kv(
            &field(lang, "asked"),
            format!(
                "{} ({})",
                crate::i18n::dates::date_time_utc(m.lang, m.year_style, t),
                crate::i18n::dates::ago(m.lang, m.now, t)
            ),
            w,
            theme,
            plain,
        ));
    }
    lines
}

/// The row's closing lines: where it came from, the fetch levels, and its last action and
/// read errors (after a blank line).
fn trailer_lines<'a>(m: &Model, item: &QueueItem, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let lang = m.lang;
    let mut lines = Vec::new();
    let source = match item.origin {
        Origin::Listing => tr!(lang, "detail-source-listing"),
        Origin::Manual => tr!(lang, "detail-source-manual"),
    };
    lines.extend(kv(&field(lang, "source"), source, w, theme, theme.dim()));
    let levels = format!(
        "{} / {} (f/F)",
        words::level(lang, m.levels.fetch_level),
        words::level(lang, m.levels.descendant_fetch_level)
    );
    lines.extend(kv(&field(lang, "levels"), levels, w, theme, theme.dim()));
    if item.error.is_some()
        || item.read_error.is_some()
        || item.decided_elsewhere.is_some()
        || item.held_elsewhere.is_some()
    {
        lines.push(Line::raw(""));
    }
    if let (Some(s), Some((by, at))) = (&item.decided_elsewhere, &item.decided_by) {
        // Reported by another session: who and when ("approved by s1@… 4 s ago").
        let someone = tr!(lang, "others-someone");
        let text = tr!(
            lang,
            "detail-decided-by",
            status = words::status_word(lang, s),
            by = by.as_deref().unwrap_or(someone.as_str()),
            ago = crate::i18n::dates::ago(lang, m.now, *at)
        );
        lines.push(Line::styled(clean(&text, 300), theme.dim()));
    } else if let Some(s) = &item.decided_elsewhere {
        let text = tr!(
            lang,
            "detail-decided-elsewhere",
            status = words::status_word(lang, s)
        );
        lines.push(Line::styled(clean(&text, 300), theme.dim()));
    }
    if let Some((by, action)) = &item.held_elsewhere {
        let text = crate::ui::popups::held_elsewhere_text(lang, by.as_deref(), *action);
        lines.push(Line::styled(clean(&text, 300), theme.warn()));
    }
    if let Some(e) = &item.error {
        let text = tr!(lang, "detail-last-action", error = e.as_str());
        lines.push(Line::styled(clean(&text, 2000), theme.error()));
    }
    if let Some(e) = &item.read_error {
        let text = tr!(lang, "detail-last-read", error = e.as_str());
        lines.push(Line::styled(clean(&text, 2000), theme.error()));
    }
    if let Some(crate::ops::decision::Stage::Lost { next_read, .. }) =
        m.decisions().get(item.id).map(|d| d.stage())
    {
        // Counted down from the model's clock: ticks come while a write is unsettled.
        let text = match next_read {
            Some(at) => {
                let ms = (*at - m.now).num_milliseconds().max(0);
                let secs = (ms + 999) / 1000;
                tr!(lang, "detail-reread-in", secs = secs)
            }
            None => tr!(lang, "detail-reread-now"),
        };
        lines.push(Line::styled(clean(&text, 200), theme.dim()));
    }
    lines
}
