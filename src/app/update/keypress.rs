//! Keys: where a key goes (pop-up, text field, keymap) and the actions of the keymap.

use crate::app::model::words;
use tui_input::Input;
use uuid::Uuid;

use super::connection::sign_in_popup;
use super::tell::say;
use super::{club, decisions, held, ids, listing, marking, popups, rows};
use crate::app::key::{Key, KeyCode};
use crate::app::keymap::{Action, Scope};
use crate::app::model::{Model, Pane, Popup, RowAction, Severity};
use crate::app::msg::Effect;
use crate::i18n::tr;

/// A key press: Ctrl-C (force quit) and Ctrl-Z (suspend) first, then the pop-up, the club
/// field, Esc, the keymap.
pub(super) fn on_key(m: &mut Model, k: Key) -> Vec<Effect> {
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::ForceQuit) {
        return quit(m, true);
    }
    // Ctrl-Z suspends from anywhere, as in any terminal program (a text field included).
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::Suspend) {
        return vec![Effect::Suspend];
    }
    // Ctrl-L redraws from anywhere too (a pop-up, a text field): a garbled screen is no
    // less garbled under a pop-up.
    if m.keymap.lookup(Scope::Global, &k) == Some(Action::Redraw) {
        return vec![Effect::Redraw];
    }
    if m.popup.is_some() {
        return popups::on_popup_key(m, k);
    }
    if m.focus == Pane::Club && m.club.editing {
        return club::on_club_input_key(m, k);
    }
    if k.code == KeyCode::Esc {
        // In the narrow layout Esc first closes what is shown over the queue: the request's
        // detail, the club lookup, then the log (as `L` does).
        if m.narrow() && (m.detail_open || m.focus != Pane::Queue) {
            if m.focus == Pane::Log {
                m.log.visible = false;
            }
            m.detail_open = false;
            m.focus = Pane::Queue;
            return Vec::new();
        }
        if m.narrow() && m.log.visible {
            m.log.visible = false;
            return Vec::new();
        }
        // Esc only cancels: a pending quit, a range anchor, the status message.
        m.quit_armed = false;
        m.queue.set_anchor(None);
        m.notice = None;
        return Vec::new();
    }
    match lookup(m, &k) {
        Some(a) => {
            if a != Action::Quit {
                m.quit_armed = false;
            }
            run_action(m, a)
        }
        None => Vec::new(),
    }
}

/// A key while the terminal is too small to show the queue ([`Model::shows_queue`]): Ctrl-C
/// quits, Ctrl-Z suspends, Ctrl-L redraws and `q` quits when nothing waits to be sent or
/// answered (with decisions held or writes in flight it says how to go on, since the quit
/// question cannot be drawn); every other key is ignored and the notice says so. No row,
/// pop-up or prompt the moderator cannot see is acted on.
pub(super) fn on_key_unseen(m: &mut Model, k: Key) -> Vec<Effect> {
    match m.keymap.lookup(Scope::Global, &k) {
        Some(Action::ForceQuit) => return quit(m, true),
        Some(Action::Suspend) => return vec![Effect::Suspend],
        Some(Action::Redraw) => return vec![Effect::Redraw],
        _ => {}
    }
    // `z` takes back a held decision: it sends nothing, and the countdown it answers is on
    // the small screen's status line.
    if m.popup.is_none() && m.keymap.lookup(Scope::Queue, &k) == Some(Action::Undo) {
        return held::undo(m);
    }
    let quit_key = m.keymap.lookup(Scope::Global, &k) == Some(Action::Quit)
        || m.keymap.lookup(m.focus.scope(), &k) == Some(Action::Quit);
    if !quit_key {
        return ignore_unseen(m);
    }
    let waiting = m.held().len() + m.calls.iter().filter(|c| c.is_mutation()).count();
    if waiting > 0 {
        let text = crate::tr!(m.lang, "status-too-small-quit-waiting", n = waiting);
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    quit(m, false)
}

/// An input (key, paste, wheel, tap) ignored because the terminal is too small to show the
/// queue: the notice says so, and nothing else changes.
pub(super) fn ignore_unseen(m: &mut Model) -> Vec<Effect> {
    let (width, height) = m.size;
    let text = crate::tr!(
        m.lang,
        "status-too-small-key-ignored",
        width = width,
        height = height
    );
    say(m, Severity::Error, &text);
    if let Some(n) = m.notice.as_mut() {
        n.too_small = true;
    }
    Vec::new()
}

/// After a resize: a notice that a key was ignored on a small screen follows the window's
/// size while it stays too small, and goes once the queue is drawn again.
pub(super) fn resized(m: &mut Model) {
    if !m.notice.as_ref().is_some_and(|n| n.too_small) {
        return;
    }
    if m.shows_queue() {
        m.notice = None;
    } else if let Some(n) = m.notice.as_mut() {
        n.text = crate::tr!(
            m.lang,
            "status-too-small-key-ignored",
            width = m.size.0,
            height = m.size.1
        );
    }
}

/// The action of `k` in the focused pane; with `thai_keys`, a Thai character no binding
/// names is tried as the key it sits on in the Kedmanee layout (ฟ is `a`, ป is `x`), so a
/// keyboard left on the Thai layout does not get in the way. Only ever outside text fields.
pub(super) fn lookup(m: &Model, k: &Key) -> Option<Action> {
    let scope = m.focus.scope();
    m.keymap.lookup(scope, k).or_else(|| {
        let KeyCode::Char(c) = k.code else {
            return None;
        };
        let q = crate::i18n::kedmanee::qwerty_for(c).filter(|_| m.thai_keys && k.is_text())?;
        m.keymap.lookup(scope, &Key::char(q))
    })
}

/// A click placed by the view: focus the pane; in the queue, select the row.
pub(super) fn on_click(m: &mut Model, pane: Pane, row: Option<usize>) -> Vec<Effect> {
    if m.popup.is_some() {
        return Vec::new();
    }
    m.club.editing = false;
    m.focus = if pane == Pane::Log && !m.log.visible {
        Pane::Queue
    } else {
        pane
    };
    match row {
        Some(r) if pane == Pane::Queue && m.queue.offset() + r < m.queue.visible().len() => {
            m.queue.set_cursor(m.queue.offset() + r);
            listing::prefetch(m)
        }
        _ => Vec::new(),
    }
}

/// Quits: with decisions still waiting for the server, the first `q` only warns (`force`
/// skips that). Writes still unanswered are audited with outcome `unknown`, never as done.
pub(super) fn quit(m: &mut Model, force: bool) -> Vec<Effect> {
    // Decisions still in their grace period: `q` asks; a force quit discards them.
    let mut fx = Vec::new();
    if !m.held().is_empty() {
        if !force {
            return held::ask_on_quit(m);
        }
        fx = held::discard_all(m, held::Why::ForceQuit);
    }
    let running = m.calls.iter().filter(|c| c.is_mutation()).count();
    if running > 0 && !force && !m.quit_armed {
        m.quit_armed = true;
        let text = crate::tr!(m.lang, "status-quit-armed", n = running);
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    m.quitting = true;
    // Every write still waiting for its answer ends through the machine (`Abandon`:
    // audited `unknown`; the next start re-reads and settles it): decisions and contacts.
    let sending = |b: &crate::ops::book::Book| -> Vec<Uuid> {
        b.iter()
            .filter(|d| matches!(d.stage(), crate::ops::decision::Stage::Sending))
            .map(|d| d.id)
            .collect()
    };
    for id in sending(&m.decisions) {
        fx.extend(super::decisions::step(
            m,
            id,
            crate::ops::decision::Event::Abandon,
        ));
    }
    for club in sending(&m.club.writes) {
        fx.extend(super::club::contact_step(
            m,
            club,
            crate::ops::decision::Event::Abandon,
        ));
    }
    fx.push(Effect::Quit);
    fx
}

/// Runs an action of the keymap.
pub(super) fn run_action(m: &mut Model, a: Action) -> Vec<Effect> {
    if a.mutates() && m.read_only {
        let text = tr(m.lang, "status-read-only");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    match a {
        Action::Quit => quit(m, false),
        Action::ForceQuit => quit(m, true),
        Action::Help | Action::CommandLine | Action::AddIds | Action::SignIn | Action::Filter => {
            open_popup(m, a)
        }
        Action::NextPane | Action::PrevPane | Action::ToggleLog | Action::ClubLookup => {
            pane_action(m, a);
            Vec::new()
        }
        Action::Refresh => listing::refresh(m),
        Action::Redraw => vec![Effect::Redraw],
        Action::Suspend => vec![Effect::Suspend],
        Action::Down
        | Action::Up
        | Action::Top
        | Action::Bottom
        | Action::PageDown
        | Action::PageUp => navigate(m, a),
        Action::Approve => decisions::on_key(m, RowAction::Approve),
        Action::Decline => decisions::on_key(m, RowAction::Decline),
        Action::Delete => decisions::on_key(m, RowAction::Delete),
        Action::Undo => held::undo(m),
        Action::Mark | Action::MarkRange | Action::MarkAll | Action::ClearMarks => mark(m, a),
        Action::Sort => next_sort(m),
        Action::ClearFilter => ids::clear_filter(m),
        Action::Open => open_selected(m),
        Action::RaiseLevel | Action::LowerLevel => change_level(m, a == Action::RaiseLevel),
        Action::Copy => copy(m),
        Action::NewContact => club::new_contact(m),
        Action::DetailDown | Action::DetailUp => {
            let s = m.detail_scroll_now();
            m.detail_row = m.queue.selected().map(|i| i.id);
            m.detail_scroll = if a == Action::DetailDown {
                s.saturating_add(1)
            } else {
                s.saturating_sub(1)
            };
            clamp_scrolls(m);
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
        _ => return Vec::new(),
    };
    open(m, popup)
}

/// The pane actions: cycle the focus, show or hide the log (focus leaves a hidden log; a
/// shown log starts at its newest line), edit the club lookup. Any other action does nothing.
fn pane_action(m: &mut Model, a: Action) {
    match a {
        Action::NextPane | Action::PrevPane => cycle_pane(m, a == Action::NextPane),
        Action::ToggleLog => {
            m.log.visible = !m.log.visible;
            if !m.log.visible && m.focus == Pane::Log {
                m.focus = Pane::Queue;
            }
            if m.log.visible {
                m.log.scroll = 0;
            }
        }
        Action::ClubLookup => {
            m.focus = Pane::Club;
            m.club.editing = true;
        }
        _ => {}
    }
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

fn cycle_pane(m: &mut Model, forward: bool) {
    let order: &[Pane] = if m.log.visible {
        &[Pane::Queue, Pane::Club, Pane::Log]
    } else {
        &[Pane::Queue, Pane::Club]
    };
    let pos = order.iter().position(|p| *p == m.focus).unwrap_or(0);
    let n = order.len();
    m.focus = if forward {
        order[(pos + 1) % n]
    } else {
        order[(pos + n - 1) % n]
    };
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
    let fx = listing::refresh(m);
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
                _ => c,
            });
            if a == Action::Bottom {
                super::listing::want_bottom(m);
            }
            listing::prefetch(m)
        }
        Pane::Club => {
            club::navigate(m, a);
            clamp_scrolls(m);
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
        _ => match m.queue.selected().map(|i| i.id) {
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

/// True when the signed-in account is a student's (role `student`, or a student id in its
/// `meta`): the service limits what such an account may read (api-notes.md).
pub(super) fn is_student(m: &Model) -> bool {
    m.user.get().is_some_and(|u| {
        u.role.as_deref() == Some("student")
            || u.meta.as_ref().is_some_and(|x| x.student_id.is_some())
    })
}

/// Keeps every scroll within what was last drawn: nothing scrolls past its
/// last line, so the way back is as long as the way there.
pub(super) fn clamp_scrolls(m: &mut Model) {
    let Some(l) = m.scroll_limits else {
        return;
    };
    if let Some(Popup::Help { scroll, .. }) = m.popup.as_mut() {
        *scroll = (*scroll).min(l.help);
    }
    m.club.scroll = m.club.scroll.min(l.club);
    m.detail_scroll = m.detail_scroll.min(l.detail);
    m.log.scroll = m.log.scroll.min(l.log);
}
