//! The team's history (`H`): who decided what, when, from where, newest first, as the audit
//! file says ([`crate::ops::history`]'s rows of this server); a search box filters the rows
//! by any of their words (a moderator's e-mail, a request's name or id, a club, an
//! outcome, the front end). The detail pane shows its own request's rows with the same words
//! ([`row_line`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::popups::search_box;
use super::theme::Theme;
use crate::app::filter::fold;
use crate::app::model::words::past;
use crate::app::model::{Loadable, Model, Popup};
use crate::i18n::{dates, tr};
use crate::ops::history::Row;
use crate::ops::{Outcome, RowAction};
use crate::text::clean;

/// One row of the history in the reader's language: when, what happened to which request,
/// who, from where (`26 พ.ย. 2569 14:02 UTC · approved · Somchai → Robotics Club ·
/// somchai@school.ac.th · ssh`).
pub(super) fn row_line<'a>(m: &Model, r: &Row, with_target: bool, theme: &Theme) -> Line<'a> {
    let (word, style) = outcome_word(m, r, theme);
    let target = m
        .queue()
        .get(r.target)
        .map(|i| i.label_for(m.lang == crate::i18n::Lang::Thai))
        .or_else(|| r.label.clone())
        .unwrap_or_else(|| crate::app::model::short_id(r.target));
    let target = match &r.value {
        Some(v) => format!("{target} {}", clean(v, 60)),
        None => target,
    };
    let who = r
        .user
        .as_deref()
        .map(|u| clean(u, 60))
        .unwrap_or_else(|| "?".into());
    let via = match (&r.via, r.key_name()) {
        (Some(v), Some(k)) => format!("{} ({})", clean(v, 20), clean(k, 60)),
        (Some(v), None) => clean(v, 20),
        _ => String::new(),
    };
    let mut spans = vec![
        Span::styled(
            dates::date_time_utc(m.lang, m.year_style, r.settled_at),
            theme.dim(),
        ),
        Span::raw(" · "),
        Span::styled(word, style),
    ];
    if with_target {
        spans.push(Span::raw(format!(" · {}", clean(&target, 200))));
    }
    spans.push(Span::raw(" · "));
    spans.push(Span::styled(who, theme.bold()));
    if !via.is_empty() {
        spans.push(Span::styled(format!(" · {via}"), theme.dim()));
    }
    if r.settled_after_crash {
        spans.push(Span::styled(
            format!(" · {}", tr(m.lang, "history-after-crash")),
            theme.warn(),
        ));
    }
    Line::from(spans)
}

/// What happened, in the reader's language: the decision's past (`approved`) when it was
/// applied, else the outcome (`failed`, `outcome unknown`, ...) after the action's name.
fn outcome_word(m: &Model, r: &Row, theme: &Theme) -> (String, ratatui::style::Style) {
    let action = RowAction::from_verb(&r.action);
    let outcome = |key: &str| tr(m.lang, key);
    let what = || {
        action
            .map(|a| crate::app::model::words::verb(m.lang, a))
            .unwrap_or_else(|| crate::app::model::log::what_text(m.lang, &r.action))
    };
    match (r.outcome, action) {
        (Outcome::Ok, Some(a)) => (past(m.lang, a), theme.success()),
        // As the write wanted, by another's hand: this write changed nothing.
        (Outcome::Already, Some(a)) => (
            format!("{} ({})", past(m.lang, a), outcome("history-already")),
            theme.dim(),
        ),
        (Outcome::Ok, None) => (
            format!("{} {}", what(), outcome("log-outcome-ok")),
            theme.success(),
        ),
        // Kept from leaving by the server's stop: said so, not only "stopped".
        (Outcome::NotSent, _)
            if (r.detail.as_deref())
                .is_some_and(|d| d.contains(crate::api::error::why::SERVER_STOPPED)) =>
        {
            let why = outcome("log-why-server-stopped");
            (format!("{}: {why}", what()), theme.dim())
        }
        (o, _) => {
            let (key, style) = super::panes::log::outcome_mark(o, theme);
            (format!("{}: {}", what(), outcome(key)), style)
        }
    }
}

/// The most rows the pop-up draws (newest first): a frame's work does not grow with a
/// term's 20,000 decisions; older ones are found by the search, or `club-admin history`.
pub(crate) const DRAWN: usize = 200;

/// The first [`DRAWN`] rows `query` keeps, newest first, and whether there are more: a
/// row's line as shown, its request's whole id and its label in both languages (a club's
/// Thai and English names), folded, searched for the query. Only the rows up to the last
/// one drawn are looked at.
fn matching<'r>(m: &Model, rows: &'r [Row], query: &str, theme: &Theme) -> (Vec<Line<'r>>, bool) {
    let q = fold(query.trim());
    let mut kept = rows
        .iter()
        .map(|r| (r, row_line(m, r, true, theme)))
        .filter(|(r, l)| {
            q.is_empty() || {
                let mut text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
                text.push(' ');
                text.push_str(&r.target.to_string());
                if let Some(item) = m.queue().get(r.target) {
                    for thai in [false, true] {
                        text.push(' ');
                        text.push_str(&item.label_for(thai));
                    }
                }
                fold(&text).contains(&q)
            }
        })
        .map(|(_, l)| l);
    let found: Vec<Line<'r>> = kept.by_ref().take(DRAWN).collect();
    let more = kept.next().is_some();
    (found, more)
}

/// Draws the history in `area`; returns how far it can scroll as drawn.
pub(super) fn draw(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) -> u16 {
    let Popup::History { query, scroll } = p else {
        return 0;
    };
    let inner = search_box(frame, area, m.lang, "popup-history-title", query, theme);
    let lines: Vec<Line> = match m.history() {
        Loadable::NotAsked | Loadable::Loading => vec![Line::styled(
            tr(m.lang, "popup-history-loading"),
            theme.dim(),
        )],
        Loadable::Failed(why) => vec![Line::styled(
            crate::tr!(m.lang, "popup-history-failed", why = clean(why, 300)),
            theme.error(),
        )],
        Loadable::Loaded(rows) if rows.is_empty() => {
            vec![Line::styled(tr(m.lang, "popup-history-empty"), theme.dim())]
        }
        Loadable::Loaded(rows) => {
            let (found, more) = matching(m, rows, query.value(), theme);
            // The count says what the search kept, once there is one (past the rows drawn:
            // "200+", the search not taken further).
            let searching = !query.value().trim().is_empty();
            let count = if searching {
                let kept = if more {
                    format!("{}+", found.len())
                } else {
                    found.len().to_string()
                };
                crate::tr!(m.lang, "popup-history-found", found = kept, n = rows.len())
            } else {
                crate::tr!(
                    m.lang,
                    "popup-history-shown",
                    n = rows.len(),
                    command = m.command.as_str()
                )
            };
            let mut lines = vec![Line::styled(count, theme.dim())];
            if found.is_empty() {
                lines.push(Line::styled(
                    crate::tr!(
                        m.lang,
                        "popup-history-no-match",
                        query = clean(query.value(), 40)
                    ),
                    theme.warn(),
                ));
            }
            if more {
                let key = if searching {
                    "popup-history-more-found"
                } else {
                    "popup-history-more"
                };
                lines.push(Line::styled(
                    crate::tr!(m.lang, key, n = DRAWN, command = m.command.as_str()),
                    theme.dim(),
                ));
            }
            lines.extend(found);
            lines
        }
    };
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    super::popups::scrolled_body(frame, inner, text, *scroll, m.lang, theme)
}

/// The rows shown in a request's detail, newest first.
const OWN_SHOWN: usize = 5;

/// The history of request `id` for its detail: a title and its newest rows (who decided
/// it, when, from where); nothing while the history is not read or has none of it.
pub(super) fn own_lines<'a>(m: &Model, id: uuid::Uuid, theme: &Theme) -> Vec<Line<'a>> {
    let Some(rows) = m.history().get() else {
        return Vec::new();
    };
    let own: Vec<Line> = rows
        .iter()
        .filter(|r| r.target == id)
        .take(OWN_SHOWN)
        .map(|r| row_line(m, r, false, theme))
        .collect();
    if own.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::styled(tr(m.lang, "detail-history"), theme.bold())];
    lines.extend(own);
    lines
}
