//! The keymap's actions, whatever asked for them (a key, the `:` line, a click, a pop-up):
//! [`run_action`] runs one, by what it does: a pop-up opened, the focus moved
//! ([`super::focus`]), the queue navigated, marked or sorted, a decision asked
//! ([`decision_key`]: one row held, marked rows confirmed), the fetch level changed, a row
//! copied or opened, quitting ([`super::held::quit`]).

use tui_input::Input;
use uuid::Uuid;

use super::connection::sign_in_popup;
use super::focus::pane_action;
use super::tell::{label_of, say, say_about};
use super::{bulk, club, decisions, held, ids, listing, lost, marking, refresh, rows};
use crate::app::keymap::Action;
use crate::app::model::words::{self, verb};
use crate::app::model::{Model, Pane, Popup, RowAction, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;
use crate::ops::decision;

/// Runs an action of the keymap.
pub(super) fn run_action(m: &mut Model, a: Action) -> Vec<Effect> {
    if a.mutates() && m.read_only {
        let text = tr(m.lang, "status-read-only");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    match a {
        Action::Quit => held::quit(m, false),
        Action::ForceQuit => held::quit(m, true),
        Action::Help | Action::CommandLine | Action::AddIds | Action::SignIn | Action::Filter => {
            open_popup(m, a)
        }
        Action::NextPane | Action::PrevPane | Action::ToggleLog | Action::ClubLookup => {
            pane_action(m, a);
            Vec::new()
        }
        Action::Refresh => refresh::refresh(m),
        Action::Redraw => vec![Effect::Redraw],
        Action::Suspend => vec![Effect::Suspend],
        Action::Down
        | Action::Up
        | Action::Top
        | Action::Bottom
        | Action::PageDown
        | Action::PageUp => navigate(m, a),
        Action::Approve => decision_key(m, RowAction::Approve),
        Action::Decline => decision_key(m, RowAction::Decline),
        Action::Delete => decision_key(m, RowAction::Delete),
        Action::Undo => held::undo(m),
        Action::Mark | Action::MarkRange | Action::MarkAll | Action::ClearMarks => mark(m, a),
        Action::Sort => next_sort(m),
        Action::ClearFilter => ids::clear_filter(m),
        Action::Open => open_selected(m),
        Action::RaiseLevel | Action::LowerLevel => change_level(m, a == Action::RaiseLevel),
        Action::Copy => copy(m),
        Action::NewContact => club::new_contact(m),
        Action::History => super::history::open(m),
        Action::Term => super::term::open(m),
        Action::DetailDown | Action::DetailUp => {
            let s = m.detail_scroll_now();
            m.detail_row = m.queue.selected().map(|i| i.id);
            m.detail_scroll = if a == Action::DetailDown {
                s.saturating_add(1)
            } else {
                s.saturating_sub(1)
            };
            m.clamp_scrolls();
            Vec::new()
        }
    }
}

/// The actions that open a pop-up: help, the command line, add ids, sign in, the filter
/// (filled with the current one). Any other action does nothing here.
fn open_popup(m: &mut Model, a: Action) -> Vec<Effect> {
    let popup = match a {
        Action::Help => Popup::Help {
            query: Input::default(),
            scroll: 0,
        },
        Action::CommandLine => Popup::Command {
            input: Input::default(),
        },
        Action::AddIds => Popup::AddIds {
            input: Input::default(),
        },
        Action::SignIn => {
            // Opened after the session ended: the pop-up says why it is asked.
            let why = m
                .session_expired
                .then(|| tr(m.lang, "status-session-expired"));
            sign_in_popup(m, why)
        }
        Action::Filter => {
            let before = m.queue.filter().to_owned();
            Popup::Filter {
                input: Input::new(before.clone()),
                before,
            }
        }
        // `run_action` names every action and sends only these five here.
        _ => return Vec::new(),
    };
    open(m, popup)
}

/// Moves to the next sort order and says which it is; a sort other than the server's order
/// loads the rest of the listing first ([`super::sorting`]).
fn next_sort(m: &mut Model) -> Vec<Effect> {
    m.queue.set_sort(m.queue.sort().next());
    super::sorting::sorted(m)
}

fn open(m: &mut Model, popup: Popup) -> Vec<Effect> {
    m.popup = Some(popup);
    Vec::new()
}

fn mark(m: &mut Model, a: Action) -> Vec<Effect> {
    let cur = m.queue.cursor();
    match a {
        Action::Mark => {
            if let Some(&i) = m.queue.visible().get(cur) {
                let marked = m.queue.items()[i].marked;
                m.queue.set_marked(i, !marked);
                m.queue.set_anchor(Some(cur));
                return navigate(m, Action::Down);
            }
            return Vec::new();
        }
        Action::MarkRange => {
            let from = m.queue.anchor().unwrap_or(cur);
            let (lo, hi) = (from.min(cur), from.max(cur));
            for pos in lo..=hi {
                if let Some(&i) = m.queue.visible().get(pos) {
                    m.queue.set_marked(i, true);
                }
            }
            m.queue.set_anchor(Some(cur));
        }
        Action::MarkAll => return marking::mark_all(m),
        // `ClearMarks`: `run_action` names every action and sends only the four marks here.
        _ => {
            m.activities.marking_all = None;
            m.queue.clear_marks();
            m.queue.set_anchor(None);
            let text = tr(m.lang, "status-marks-cleared");
            say(m, Severity::Info, &text);
            return Vec::new();
        }
    }
    let text = crate::tr!(m.lang, "status-marked", n = m.queue.stats().marked);
    say(m, Severity::Info, &text);
    Vec::new()
}

fn change_level(m: &mut Model, up: bool) -> Vec<Effect> {
    if m.focus == Pane::Club {
        let l = m.club.level();
        m.club.level = Some(if up { l.raise() } else { l.lower() });
        let text = crate::tr!(
            m.lang,
            "status-club-level",
            level = words::level(m.lang, m.club.level())
        );
        say(m, Severity::Info, &text);
        return match m.club.club_id {
            Some(id) => club::load_club(m, id),
            None => Vec::new(),
        };
    }
    let d = m.levels.descendant_fetch_level;
    let nd = if up { d.raise() } else { d.lower() };
    if nd > crate::api::FetchLevel::Compact && is_student(m) {
        // The service refuses `default` students to a student outside their own classroom,
        // for the whole request (deployed behaviour, api-notes.md): every read would fail.
        let text = tr(m.lang, "status-student-level");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    m.levels = crate::api::Levels::new(crate::api::FetchLevel::Default, nd);
    // Every row is read again at the new level (one listing call per 50 rows where the
    // server lists).
    let fx = refresh::refresh(m);
    let text = crate::tr!(
        m.lang,
        "status-request-level",
        level = words::level(m.lang, nd)
    );
    say(m, Severity::Info, &text);
    fx
}

fn copy(m: &mut Model) -> Vec<Effect> {
    let ids: Vec<String> = if m.focus == Pane::Club {
        m.club
            .club_id
            .map(|i| vec![i.to_string()])
            .unwrap_or_default()
    } else {
        let marked = m.queue.marked_ids();
        if marked.is_empty() {
            m.queue
                .selected()
                .map(|i| vec![i.id.to_string()])
                .unwrap_or_default()
        } else {
            marked.iter().map(Uuid::to_string).collect()
        }
    };
    if ids.is_empty() {
        return Vec::new();
    }
    let text = crate::tr!(m.lang, "status-copied", n = ids.len());
    say(m, Severity::Success, &text);
    vec![Effect::Copy(ids.join("\n"))]
}

/// Moves in the focused pane: rows of the queue, club results or details, the log.
pub(super) fn navigate(m: &mut Model, a: Action) -> Vec<Effect> {
    match m.focus {
        Pane::Queue => {
            let n = m.queue.visible().len();
            if n == 0 {
                return Vec::new();
            }
            let page = m.page_rows.max(1);
            let c = m.queue.cursor();
            m.queue.set_cursor(match a {
                Action::Down => (c + 1).min(n - 1),
                Action::Up => c.saturating_sub(1),
                Action::Top => 0,
                Action::Bottom => n - 1,
                Action::PageDown => (c + page).min(n - 1),
                Action::PageUp => c.saturating_sub(page),
                // `run_action` names every action and sends only the moves here.
                _ => c,
            });
            if a == Action::Bottom {
                super::listing::want_bottom(m);
            }
            listing::prefetch(m)
        }
        Pane::Club => {
            club::navigate(m, a);
            m.clamp_scrolls();
            Vec::new()
        }
        Pane::Log => {
            // As far as the drawn pane lets the oldest entry reach its top.
            let max = match m.scroll_limits {
                Some(l) => l.log,
                None => m.log.entries().len().saturating_sub(1),
            };
            let s = m.log.scroll;
            m.log.scroll = match a {
                Action::Up => (s + 1).min(max),
                Action::Down => s.saturating_sub(1),
                Action::PageUp => (s + 10).min(max),
                Action::PageDown => s.saturating_sub(10),
                Action::Top => max,
                Action::Bottom => 0,
                _ => s,
            };
            Vec::new()
        }
    }
}

/// `Enter`: in the club pane, open the result or reload the club; in the queue, read the
/// selected request again (saying so).
fn open_selected(m: &mut Model) -> Vec<Effect> {
    match m.focus {
        Pane::Club => club::club_open(m),
        Pane::Queue | Pane::Log => match m.queue.selected().map(|i| i.id) {
            Some(id) => {
                // The narrow layout shows the request over the queue (read again, as here).
                if m.narrow() && m.focus == Pane::Queue {
                    m.detail_open = true;
                }
                let label = super::tell::label_of(m, id);
                let fx = rows::fetch_rows(m, &[id]);
                let reading = !fx.is_empty();
                let text = if reading {
                    crate::tr!(m.lang, "status-reading-row", label = label)
                } else {
                    crate::tr!(m.lang, "status-busy-row", label = label)
                };
                say(m, Severity::Info, &text);
                if reading && let Some(n) = m.notice.as_mut() {
                    n.reading = Some(id);
                }
                fx
            }
            None => Vec::new(),
        },
    }
}

/// True when the signed-in account is a student's, by the shared one rule
/// ([`crate::ops::permit::is_student`]): the service limits what such an account may read
/// (api-notes.md).
pub(super) fn is_student(m: &Model) -> bool {
    m.user.get().is_some_and(crate::ops::permit::is_student)
}

/// Approve, decline or delete on the selected row (delete always asks); with rows marked,
/// the confirmation of all of them ([`bulk::ask`]).
pub(super) fn decision_key(m: &mut Model, action: RowAction) -> Vec<Effect> {
    if decisions::refuse_before_call(m, action) {
        return Vec::new();
    }
    let marked = m.queue.marked_ids();
    if action == RowAction::Delete && decisions::refuse_delete(m, &marked) {
        return Vec::new();
    }
    if !marked.is_empty() {
        return bulk::ask(m, action, marked);
    }
    let Some(item) = m.queue.selected() else {
        let text = tr(m.lang, "status-queue-empty");
        say(m, Severity::Info, &text);
        return Vec::new();
    };
    let id = item.id;
    if let Some(earlier) = m.decisions.lost_action(id) {
        return lost::reread_instead(m, id, earlier);
    }
    if !m.actionable(item) && action != RowAction::Delete {
        let why = bulk::why_not_actionable(m, item);
        cannot_act(m, action, id, &why);
        return Vec::new();
    }
    if !decision::may_send(action, item.status()) {
        // Never read (added by id, its read failed or on its way): read it first, as the
        // command line does; the key works once the row shows pending.
        let why = tr(m.lang, "status-why-not-read");
        cannot_act(m, action, id, &why);
        return rows::fetch_rows(m, &[id]);
    }
    if action == RowAction::Delete {
        if m.deciding(id).is_some() || item.state == RowState::Deleted {
            let text = tr(m.lang, "status-already-changing");
            say(m, Severity::Error, &text);
            return Vec::new();
        }
        return bulk::ask(m, action, vec![id]);
    }
    if item.held_elsewhere.is_some() {
        // Another session holds a decision on it in its grace period: ask first (the
        // confirmation says who, and what).
        return bulk::ask(m, action, vec![id]);
    }
    let mut fx = decisions::hold(m, action, vec![id]);
    decisions::advance(m);
    fx.extend(listing::prefetch(m));
    fx
}

/// Says that `action` cannot be taken on the request `id`, and `why`.
fn cannot_act(m: &mut Model, action: RowAction, id: Uuid, why: &str) {
    let label = label_of(m, id);
    let text = crate::tr!(
        m.lang,
        "status-cannot-act",
        action = verb(m.lang, action),
        label = label.as_str(),
        why = why
    );
    say_about(m, Severity::Error, &text, &label);
}
