//! The detail pane: the selected club request in full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::block;
use super::queue::status_cell;
use crate::api::{ClubRequest, MultiLangText, Student};
use crate::app::model::{Model, Origin, QueueItem, RowState};
use crate::text::clean;
use crate::ui::Theme;

pub(super) fn ml(t: &Option<MultiLangText>) -> Option<String> {
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

pub(super) fn kv<'a>(key: &str, value: String, w: usize, theme: &Theme, style: Style) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{key:<9}"), theme.accent()),
        Span::styled(clean(&value, w.saturating_sub(9)), style),
    ])
}

pub(super) fn student_line(s: &Student) -> String {
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

/// Draws the detail pane: the selected row's id and status, its request (student, club,
/// year, when asked), where it came from, the levels, and its last errors.
pub(in crate::ui) fn detail(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
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
    let (st, st_style) = status_cell(m, item, true, theme);
    lines.push(kv("status", st, w, theme, st_style));
    if let Some(r) = &item.request {
        lines.extend(request_lines(m, r, w, theme));
    } else if matches!(item.state, RowState::Loading) {
        lines.push(Line::styled("loading…", theme.dim()));
    }
    lines.extend(trailer_lines(m, item, w, theme));
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// The request's lines: student, club (one language), academic year, when it was asked.
fn request_lines<'a>(m: &Model, r: &ClubRequest, w: usize, theme: &Theme) -> Vec<Line<'a>> {
    let plain = Style::default();
    let mut lines = Vec::new();
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
        let y = crate::i18n::dates::academic_year(m.year_style, y);
        lines.push(kv("year", y, w, theme, plain));
    }
    if let Some(t) = r.created_at {
        lines.push(kv(
            "asked",
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
    let mut lines = Vec::new();
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
    lines
}
