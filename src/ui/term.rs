//! The term at a glance (`T`): the scope's figures ([`crate::ops::stats::Figures`], as
//! `club-admin stats` prints them) drawn in a scrolling pop-up: pending requests per club
//! as horizontal bars, longest first; requests per day and decisions per day by outcome as
//! column charts of block characters (a day a column, or several days a column when the
//! term is wider than the box: fewer, wider bars on a phone); the wait for a decision and
//! each moderator's decisions; then every figure of the last days as plain text, for a
//! screen reader or a copy. Every picture is text too (bars and blocks are characters),
//! so a copy of the screen keeps it.

use chrono::NaiveDate;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::theme::Theme;
use crate::app::model::{ListScope, Loadable, Model, Popup};
use crate::i18n::dates::{self, MonthForm};
use crate::i18n::{Lang, tr};
use crate::ops::stats::{ClubFigures, Figures, Wait, bar};
use crate::text::{clean, fit_width, width};

/// Days listed as text at the end of the view.
const DAYS_AS_TEXT: usize = 14;

/// Draws the view in `area`; returns how far it can scroll as drawn.
pub(super) fn draw(frame: &mut Frame, area: Rect, m: &Model, p: &Popup, theme: &Theme) -> u16 {
    let Popup::Term { scroll } = p else {
        return 0;
    };
    let h = if crate::app::model::is_narrow(area.width) {
        area.height
    } else {
        area.height.saturating_sub(2)
    };
    let r = super::popups::centered(area, super::popups::popup_width(area), h);
    let inner = super::popups::frame_box(frame, r, &tr(m.lang, "term-title"), theme);
    let cols = usize::from(inner.width);
    let lines: Vec<Line> = match m.term() {
        Loadable::NotAsked | Loadable::Loading => {
            vec![Line::styled(tr(m.lang, "term-loading"), theme.dim())]
        }
        Loadable::Failed(why) => vec![Line::styled(
            crate::tr!(m.lang, "term-failed", why = clean(why, 300)),
            theme.error(),
        )],
        Loadable::Loaded(f) => figure_lines(m, f, cols, theme),
    };
    let text = Paragraph::new(lines).wrap(Wrap { trim: false });
    super::popups::scrolled_in(frame, inner, inner, text, *scroll, m.lang, theme)
}

/// Every line of the view for figures `f` in `cols` columns.
fn figure_lines(m: &Model, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let lang = m.lang;
    let mut lines = vec![
        Line::styled(scope_words(m), theme.dim()),
        Line::raw(crate::tr!(
            lang,
            "term-counts",
            requests = f.requests,
            pending = f.pending,
            approved = f.approved,
            declined = f.declined
        )),
        Line::raw(wait_words(lang, f.wait, "term-wait", "term-wait-unknown")),
        Line::raw(""),
    ];
    lines.extend(club_bars(lang, f, cols, theme));
    lines.push(Line::raw(""));
    lines.extend(arrivals_chart(m, f, cols, theme));
    lines.push(Line::raw(""));
    lines.extend(decisions_chart(m, f, cols, theme));
    lines.push(Line::raw(""));
    lines.extend(waits_by_club(lang, f, cols, theme));
    lines.push(Line::raw(""));
    lines.extend(moderators(lang, f, cols, theme));
    lines.push(Line::raw(""));
    lines.extend(days_as_text(m, f, theme));
    lines
}

/// Whose requests the figures are: the queue's scope.
fn scope_words(m: &Model) -> String {
    match &m.listing.scope {
        ListScope::Clubs(ids) => crate::tr!(m.lang, "term-scope-clubs", n = ids.len()),
        ListScope::All | ListScope::Unknown | ListScope::None => tr(m.lang, "term-scope-all"),
    }
}

/// A wait in the reader's language, its two largest units: "3h 20m", "3 ชม. 20 นาที".
pub(super) fn duration(lang: Lang, secs: i64) -> String {
    let (d, h, mi) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    let unit = |key: &str, n: i64| crate::tr!(lang, key, n = n);
    match (d, h, mi) {
        (0, 0, 0) => unit("term-unit-s", secs),
        (0, 0, mi) => unit("term-unit-m", mi),
        (0, h, 0) => unit("term-unit-h", h),
        (0, h, mi) => format!("{} {}", unit("term-unit-h", h), unit("term-unit-m", mi)),
        (d, 0, _) => unit("term-unit-d", d),
        (d, h, _) => format!("{} {}", unit("term-unit-d", d), unit("term-unit-h", h)),
    }
}

fn wait_words(lang: Lang, wait: Option<Wait>, key: &str, unknown: &str) -> String {
    match wait {
        Some(w) => crate::tr!(
            lang,
            key,
            median = duration(lang, w.median_s),
            p90 = duration(lang, w.p90_s),
            n = w.decided
        ),
        None => tr(lang, unknown),
    }
}

/// A club's name in the reader's language first (the other when it has none), else its
/// short id; untrusted text made safe.
fn club_name(lang: Lang, c: &ClubFigures) -> String {
    let (first, other) = match lang {
        Lang::Thai => (&c.name_th, &c.name_en),
        Lang::English => (&c.name_en, &c.name_th),
    };
    let name = first
        .as_deref()
        .filter(|s| !s.trim().is_empty())
        .or(other.as_deref());
    match name {
        Some(n) => clean(n, 80),
        None => crate::app::model::short_id(c.id),
    }
}

/// `text` padded with spaces to `cols` cells (cut to fit first).
fn padded(text: &str, cols: usize) -> String {
    let cut = fit_width(text, cols);
    let pad = cols.saturating_sub(width(&cut));
    format!("{cut}{}", " ".repeat(pad))
}

fn heading(text: String, theme: &Theme) -> Line<'static> {
    Line::styled(text, theme.bold())
}

/// Pending requests per club, longest first: the name, a bar, the count.
fn club_bars(lang: Lang, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(lang, "term-pending-by-club"), theme)];
    if f.clubs.is_empty() {
        lines.push(Line::styled(tr(lang, "term-nothing"), theme.dim()));
        return lines;
    }
    let max = f.clubs.iter().map(|c| c.pending).max().unwrap_or(0);
    let count_w = max.to_string().len().max(1);
    let longest = f
        .clubs
        .iter()
        .map(|c| width(&club_name(lang, c)))
        .max()
        .unwrap_or(0);
    let name_w = longest.min(cols * 2 / 5).max(6);
    let bar_w = cols.saturating_sub(name_w + count_w + 2).max(1);
    for c in &f.clubs {
        lines.push(Line::from(vec![
            Span::raw(padded(&club_name(lang, c), name_w)),
            Span::raw(" "),
            Span::styled(padded(&bar(c.pending, max, bar_w), bar_w), theme.accent()),
            Span::raw(format!(" {:>count_w$}", c.pending)),
        ]));
    }
    lines
}

/// `values` as a column chart of `rows` lines in at most `cols` columns: each column sums
/// `per` values (the latest values kept whole at the right) and is up to 3 cells wide when
/// the columns are few (a short term, or a phone: fewer, wider bars); returns the lines, top
/// first, and `per`.
fn columns(values: &[u64], cols: usize, rows: usize) -> (Vec<String>, usize) {
    const EIGHTHS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if values.is_empty() || cols == 0 || rows == 0 {
        return (Vec::new(), 1);
    }
    let per = values.len().div_ceil(cols);
    let skip = values.len() % per;
    let mut sums: Vec<u64> = Vec::new();
    if skip > 0 {
        sums.push(values[..skip].iter().sum());
    }
    sums.extend(values[skip..].chunks(per).map(|c| c.iter().sum::<u64>()));
    let max = sums.iter().copied().max().unwrap_or(0).max(1);
    let total = (rows * 8) as u64;
    let heights: Vec<u64> = sums.iter().map(|v| (v * total).div_ceil(max)).collect();
    let wide = (cols / heights.len().max(1)).clamp(1, 3);
    let lines = (0..rows)
        .map(|r| {
            let floor = ((rows - 1 - r) * 8) as u64;
            heights
                .iter()
                .map(|h| {
                    let c = EIGHTHS[h.saturating_sub(floor).min(8) as usize];
                    std::iter::repeat_n(c, wide).collect::<String>()
                })
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect();
    (lines, per)
}

/// A day as the reader writes it: "29 พ.ย. 2569", "29 Nov 2026".
fn day(m: &Model, d: NaiveDate) -> String {
    dates::date(m.lang, m.year_style, MonthForm::Short, &d)
}

/// The chart's first and last day, and how many days a column holds.
fn span_line(
    m: &Model,
    first: NaiveDate,
    last: NaiveDate,
    per: usize,
    theme: &Theme,
) -> Line<'static> {
    let span = if first == last {
        day(m, first)
    } else {
        format!("{} – {}", day(m, first), day(m, last))
    };
    let text = if per > 1 {
        crate::tr!(m.lang, "term-span-per", span = span, n = per)
    } else {
        span
    };
    Line::styled(text, theme.dim())
}

/// The chart's height: 4 lines, 2 on a small screen.
fn chart_rows(cols: usize) -> usize {
    if cols < 60 { 2 } else { 4 }
}

/// Requests per day over the term.
fn arrivals_chart(m: &Model, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(m.lang, "term-arrivals"), theme)];
    let (Some(first), Some(last)) = (f.arrivals.first(), f.arrivals.last()) else {
        lines.push(Line::styled(tr(m.lang, "term-nothing"), theme.dim()));
        return lines;
    };
    let values: Vec<u64> = f.arrivals.iter().map(|d| d.requests).collect();
    let (chart, per) = columns(&values, cols, chart_rows(cols));
    lines.extend(chart.into_iter().map(|l| Line::styled(l, theme.accent())));
    lines.push(span_line(m, first.day, last.day, per, theme));
    lines
}

/// Decisions per day by outcome (approved above, declined below), from the audit; a note
/// where there is none.
fn decisions_chart(m: &Model, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(m.lang, "term-decisions"), theme)];
    if !f.audited {
        lines.push(Line::styled(tr(m.lang, "term-no-audit"), theme.warn()));
        return lines;
    }
    let (Some(first), Some(last)) = (f.decisions.first(), f.decisions.last()) else {
        lines.push(Line::styled(tr(m.lang, "term-no-decisions"), theme.dim()));
        lines.extend(unaudited(m.lang, f, theme));
        return lines;
    };
    let rows = (chart_rows(cols) / 2).max(1);
    for (key, style, values) in [
        (
            "term-approved",
            theme.success(),
            f.decisions.iter().map(|d| d.approved).collect::<Vec<u64>>(),
        ),
        (
            "term-declined",
            theme.error(),
            f.decisions.iter().map(|d| d.declined).collect(),
        ),
    ] {
        lines.push(Line::styled(
            format!("{} {}", tr(m.lang, key), values.iter().sum::<u64>()),
            style,
        ));
        let (chart, _) = columns(&values, cols, rows);
        lines.extend(chart.into_iter().map(|l| Line::styled(l, style)));
    }
    let per = f.decisions.len().div_ceil(cols.max(1));
    lines.push(span_line(m, first.day, last.day, per, theme));
    lines.extend(unaudited(m.lang, f, theme));
    lines
}

/// How many decided requests the audit does not know (decided elsewhere).
fn unaudited(lang: Lang, f: &Figures, theme: &Theme) -> Option<Line<'static>> {
    (f.decided_unaudited > 0).then(|| {
        Line::styled(
            crate::tr!(lang, "term-unaudited", n = f.decided_unaudited),
            theme.dim(),
        )
    })
}

/// The wait for a decision, per club that has one.
fn waits_by_club(lang: Lang, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(lang, "term-wait-by-club"), theme)];
    let known: Vec<&ClubFigures> = f.clubs.iter().filter(|c| c.wait.is_some()).collect();
    if known.is_empty() {
        lines.push(Line::styled(tr(lang, "term-wait-unknown"), theme.dim()));
        return lines;
    }
    for c in known {
        let name = fit_width(&club_name(lang, c), cols.saturating_sub(2).max(6));
        lines.push(Line::raw(name));
        lines.push(Line::styled(
            format!(
                "  {}",
                wait_words(lang, c.wait, "term-wait-club", "term-wait-unknown")
            ),
            theme.dim(),
        ));
    }
    lines
}

/// Each moderator's decisions, from the audit.
fn moderators(lang: Lang, f: &Figures, cols: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(lang, "term-moderators"), theme)];
    if !f.audited {
        lines.push(Line::styled(tr(lang, "term-no-audit"), theme.warn()));
        return lines;
    }
    if f.moderators.is_empty() {
        lines.push(Line::styled(tr(lang, "term-no-decisions"), theme.dim()));
    }
    for who in &f.moderators {
        let wait = who
            .median_wait_s
            .map(|s| duration(lang, s))
            .unwrap_or_else(|| "-".into());
        lines.push(Line::raw(fit_width(
            &clean(&who.moderator, 80),
            cols.max(6),
        )));
        lines.push(Line::styled(
            format!(
                "  {}",
                crate::tr!(
                    lang,
                    "term-moderator",
                    approved = who.approved,
                    declined = who.declined,
                    wait = wait
                )
            ),
            theme.dim(),
        ));
    }
    lines
}

/// The last days' figures as plain text, newest first: requests, approved, declined.
fn days_as_text(m: &Model, f: &Figures, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(tr(m.lang, "term-as-text"), theme)];
    let decided = |d: NaiveDate| {
        f.decisions
            .iter()
            .find(|x| x.day == d)
            .map_or((0, 0), |x| (x.approved, x.declined))
    };
    let mut days: Vec<NaiveDate> = f
        .arrivals
        .iter()
        .map(|d| d.day)
        .chain(f.decisions.iter().map(|d| d.day))
        .collect();
    days.sort_unstable();
    days.dedup();
    for d in days.into_iter().rev().take(DAYS_AS_TEXT) {
        let asked = f
            .arrivals
            .iter()
            .find(|x| x.day == d)
            .map_or(0, |x| x.requests);
        let (approved, declined) = decided(d);
        let words = if f.audited {
            crate::tr!(
                m.lang,
                "term-day",
                asked = asked,
                approved = approved,
                declined = declined
            )
        } else {
            crate::tr!(m.lang, "term-day-asked", asked = asked)
        };
        lines.push(Line::from(vec![
            Span::styled(day(m, d), Style::default()),
            Span::raw(": "),
            Span::raw(words),
        ]));
    }
    lines.push(Line::styled(
        crate::tr!(m.lang, "term-more-as-json", command = m.command.as_str()),
        theme.dim(),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four days in two columns: each column sums two days, the tallest full.
    #[test]
    fn columns_sum_days_when_the_term_is_wider_than_the_box() {
        let (lines, per) = columns(&[1, 1, 2, 2], 2, 1);
        assert_eq!(per, 2);
        assert_eq!(lines, vec!["▄█".to_owned()]);
        // Two days in four columns: each day two cells wide.
        let (lines, per) = columns(&[0, 8], 4, 2);
        assert_eq!(per, 1);
        assert_eq!(lines, vec!["  ██".to_owned(), "  ██".to_owned()]);
    }

    #[test]
    fn waits_read_in_the_reader_s_units() {
        assert_eq!(duration(Lang::English, 3 * 3600 + 20 * 60), "3h 20m");
        assert_eq!(duration(Lang::Thai, 2 * 86_400 + 4 * 3600), "2 วัน 4 ชม.");
    }
}
