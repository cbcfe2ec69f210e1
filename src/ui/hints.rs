//! The hint bar, whole: its hints (the pop-up's, the club field's, the keymap's for the
//! focused pane; the narrow layout's few; the detail pane's scroll key), which of them fit,
//! where each is drawn ([`footer_layout`], which a tap reads too) and the drawing
//! ([`footer`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::layout::{Areas, NarrowPane, narrow_pane};
use super::panes;
use super::theme::Theme;
use crate::app::model::{Model, Pane, is_narrow};
use crate::app::{Action, Key, KeyCode};
use crate::i18n;
use crate::text;

/// The narrow layout's hints: what a moderator on a phone needs in the pane shown. Without a
/// session, sign in first. Over the queue: undo (while a decision is held), approve,
/// decline, the detail, the club lookup, the team's history (the first to go);
/// over the detail: undo, approve, decline, back, the history; over the club lookup: look up, back.
/// Help and quit always (pinned). Only what this session offers ([`Model::offered`]).
fn narrow_hints(m: &Model, detail: Rect) -> Vec<Hint> {
    let offered = m.offered();
    let scope = m.focus.scope();
    let hint = |a: Action, label: &str, pinned: bool| {
        let k = m.keymap.key_for(scope, a)?;
        offered.offers(a).then(|| Hint {
            keys: k.to_string(),
            label: i18n::tr(m.lang, label),
            pinned,
            key: Some(k),
        })
    };
    let back = Hint {
        keys: "Esc".into(),
        label: i18n::tr(m.lang, "hint-narrow-back"),
        pinned: true,
        key: Some(Key::new(KeyCode::Esc)),
    };
    let decide = |hints: &mut Vec<Option<Hint>>| {
        if !m.held().is_empty() {
            hints.push(hint(Action::Undo, "hint-undo", true));
        }
        hints.push(hint(Action::Approve, "hint-approve", false));
        hints.push(hint(Action::Decline, "hint-decline", false));
    };
    let mut hints: Vec<Option<Hint>> = Vec::new();
    // Without a session the first thing to do is to sign in (the header says so in few
    // words on a phone): its key first, pinned, and a tap on it opens the pop-up. A token
    // whose expiry has passed is no session either, before any call is refused.
    if !m.has_session() {
        hints.push(hint(Action::SignIn, "hint-sign-in", true));
    }
    match narrow_pane(m) {
        NarrowPane::Queue if m.focus == Pane::Log => {
            hints.push(Some(back));
        }
        NarrowPane::Queue => {
            decide(&mut hints);
            hints.push(hint(Action::Delete, "hint-delete", false));
            hints.push(hint(Action::Open, "hint-narrow-detail", false));
            hints.push(hint(Action::ClubLookup, "hint-club-lookup", false));
            hints.push(hint(Action::History, "hint-history", false));
        }
        NarrowPane::Detail => {
            decide(&mut hints);
            hints.push(hint(Action::Delete, "hint-delete", false));
            hints.push(detail_hint(m, detail));
            hints.push(Some(back));
            hints.push(hint(Action::History, "hint-history", false));
        }
        NarrowPane::Club => {
            hints.push(hint(Action::ClubLookup, "hint-narrow-look-up", false));
            if offered.club_shown {
                hints.push(hint(Action::NewContact, "hint-new-contact", false));
            }
            hints.push(Some(back));
        }
    }
    hints.push(hint(Action::Help, "hint-help", true));
    hints.push(hint(Action::Quit, "hint-quit", true));
    hints.into_iter().flatten().collect()
}

/// The detail pane drawn in `a` (its area; empty where the narrow layout shows another
/// pane in its place), for the hint bar's scroll key.
pub(super) fn shown_detail(m: &Model, a: &Areas) -> Rect {
    let shown = !is_narrow(a.footer.width) || narrow_pane(m) == NarrowPane::Detail;
    if shown { a.detail } else { Rect::default() }
}

/// The detail pane's scroll key while some of its lines are hidden (the pane drawn in
/// `detail`): "J more" while lines are below its edge, "K back up" once scrolled to the
/// end; the pane's bottom border shows the same sign. `None` when all is in view.
fn detail_hint(m: &Model, detail: Rect) -> Option<Hint> {
    if detail.is_empty() {
        return None;
    }
    let room = panes::detail_room(m, detail, &Theme::new(false));
    let at = m.detail_scroll_now().min(room);
    let (action, label) = if at < room {
        (Action::DetailDown, "hint-detail-more")
    } else if at > 0 {
        (Action::DetailUp, "hint-detail-back")
    } else {
        return None;
    };
    let k = m.keymap.key_for(crate::app::keymap::Scope::Queue, action)?;
    Some(Hint {
        keys: k.to_string(),
        label: i18n::tr(m.lang, label),
        pinned: false,
        key: Some(k),
    })
}

/// The hints that fit in `width` columns, in order: when some must go, the last ones go
/// first, but the pinned ones (`help`, `quit`; in the narrow layout also undo and back)
/// always stay (a moderator needs them first).
fn fit_hints(mut hints: Vec<Hint>, width: usize) -> Vec<Hint> {
    let cost = |h: &Hint| text::width(&h.keys) + text::width(&h.label) + 3;
    while hints.iter().map(cost).sum::<usize>() > width {
        match hints.iter().rposition(|h| !h.pinned) {
            Some(i) => {
                hints.remove(i);
            }
            None => break,
        }
    }
    hints
}

/// One hint of the hint bar as drawn: its keys and label, the key a tap on it presses (none
/// for typing into a field), and where it is (its line `y` of the bar, the columns `x` and
/// `width`, the blanks after it included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct DrawnHint {
    pub(super) keys: String,
    pub(super) label: String,
    pub(super) key: Option<Key>,
    pub(super) y: u16,
    pub(super) x: u16,
    pub(super) width: u16,
}

/// The hint bar in `width` columns and `lines` lines: the hints that fit ([`fit_hints`]),
/// in order, a line filled before the next, and where each is, for [`footer`] to draw and
/// [`tap`] to place a tap.
pub(super) fn footer_layout(m: &Model, width: usize, lines: u16, detail: Rect) -> Vec<DrawnHint> {
    let read_only = m.read_only.then(|| i18n::tr(m.lang, "header-read-only"));
    let room = width.saturating_sub(read_only.as_deref().map_or(0, text::width));
    let cost = |h: &Hint| text::width(&h.keys) + text::width(&h.label) + 3;
    let mut hints = footer_hints(m, width, detail);
    // All lines but the last are filled in order; the last keeps what fits of the rest.
    let mut lines_of: Vec<Vec<Hint>> = Vec::new();
    for _ in 1..lines.max(1) {
        let mut line = Vec::new();
        let mut used = 0;
        while let Some(h) = hints.first() {
            if used + cost(h) > room && !line.is_empty() {
                break;
            }
            used += cost(h);
            line.push(hints.remove(0));
        }
        lines_of.push(line);
    }
    lines_of.push(fit_hints(hints, room));
    let mut out = Vec::new();
    for (y, line) in lines_of.into_iter().enumerate() {
        let mut x = 0u16;
        for h in line {
            let w = cost(&h) as u16;
            out.push(DrawnHint {
                keys: h.keys,
                label: h.label,
                key: h.key,
                y: y as u16,
                x,
                width: w,
            });
            x = x.saturating_add(w);
        }
    }
    out
}

pub(super) fn footer(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme, detail: Rect) {
    let read_only = m.read_only.then(|| i18n::tr(m.lang, "header-read-only"));
    let mut lines = vec![Vec::new(); area.height as usize];
    for h in footer_layout(m, area.width as usize, area.height, detail) {
        let Some(spans) = lines.get_mut(h.y as usize) else {
            continue;
        };
        spans.push(Span::styled(
            h.keys,
            theme.accent().add_modifier(ratatui::style::Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {}  ", h.label)));
    }
    if let (Some(r), Some(last)) = (read_only, lines.last_mut()) {
        last.push(Span::styled(r, theme.warn()));
    }
    let lines: Vec<Line> = lines.into_iter().map(Line::from).collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// One hint: the keys as shown, the label in the reader's language, whether it is pinned
/// (kept when others must go) and the key a tap on it presses.
struct Hint {
    keys: String,
    label: String,
    pinned: bool,
    key: Option<Key>,
}

/// The hint bar's hints for a screen `width` columns wide: the pop-up's own keys, the club
/// field's, or the keymap's for the focused pane, named in the reader's language; help and
/// quit are pinned. The narrow layout offers the few keys that matter there
/// ([`narrow_hints`]).
fn footer_hints(m: &Model, width: usize, detail: Rect) -> Vec<Hint> {
    if let Some(p) = &m.popup {
        return p
            .keys()
            .iter()
            .filter_map(|k| {
                Some(Hint {
                    keys: k.shown_in(m.lang),
                    label: k.hint_in(m.lang)?,
                    pinned: false,
                    key: k.keys.first().copied(),
                })
            })
            .collect();
    }
    let esc = Key::new(KeyCode::Esc);
    if m.club.editing && m.focus == Pane::Club {
        return vec![
            Hint {
                keys: "Enter".into(),
                label: i18n::tr(m.lang, "club-hint-look-up"),
                pinned: false,
                key: Some(Key::new(KeyCode::Enter)),
            },
            Hint {
                keys: "Esc".into(),
                label: i18n::tr(m.lang, "club-hint-cancel"),
                pinned: false,
                key: Some(esc),
            },
        ];
    }
    if is_narrow(width.min(usize::from(u16::MAX)) as u16) {
        return narrow_hints(m, detail);
    }
    let label = |a: Action| i18n::tr(m.lang, &i18n::action_key("hint", a.name()));
    let scope = m.focus.scope();
    let mut hints: Vec<Hint> = m
        .keymap
        .hint_actions(scope, m.offered())
        .into_iter()
        .map(|(k, a)| Hint {
            keys: k,
            label: label(a),
            pinned: matches!(a, Action::Help | Action::Quit),
            key: m.keymap.key_for(scope, a),
        })
        .collect();
    // Lines of the detail below its edge: the key that reveals them, after approve and
    // decline (kept before the others when the bar is short).
    if m.focus == Pane::Queue
        && let Some(h) = detail_hint(m, detail)
    {
        let at = hints.iter().take(2).take_while(|h| !h.pinned).count();
        hints.insert(at, h);
    }
    // Taking a decision back is offered first, and only while one is held.
    if !m.held().is_empty()
        && m.focus == Pane::Queue
        && let Some(k) = m.keymap.key_for(scope, Action::Undo)
    {
        hints.insert(
            0,
            Hint {
                keys: k.to_string(),
                label: label(Action::Undo),
                pinned: false,
                key: Some(k),
            },
        );
    }
    hints
}
