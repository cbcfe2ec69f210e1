//! `update`: the only writer of the Model. Msg in, Model changed, Effects out.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEventKind};
use tui_input::backend::crossterm::EventHandler;
use tui_input::{Input, InputRequest};
use uuid::Uuid;

use super::filter::parse_ids;
use super::keymap::Action;
use super::model::*;
use super::msg::{ApiCall, ApiOutcome, AuditEntry, Effect, Msg};
use crate::api::{
    ApiError, AuthErrorKind, ClubQuery, ClubRequest, FetchLevel, Levels, MembershipStatus,
    NewContact, Page, RequestFilter, Sort, parse_pasted_token,
};

/// Rows re-read per listing call when refreshing (the `ids` filter of the listing).
pub const REREAD_CHUNK: usize = 50;
/// Rows ahead of the cursor whose details are prefetched.
pub const PREFETCH_AHEAD: usize = 4;
/// Load the next listing page when the cursor is this close to the end.
pub const PAGE_AHEAD: usize = 15;

/// The effects to run at start: read the current user (which then scopes the listing).
pub fn start(m: &mut Model) -> Vec<Effect> {
    let mut fx = Vec::new();
    m.user = Loadable::Loading;
    fx.push(call(m, Pending::User, ApiCall::CurrentUser));
    if !m.has_token {
        m.popup = Some(sign_in_popup(m, None));
        status(
            m,
            Level::Info,
            "no token: reads that need only the API key work; sign in to review requests",
        );
    }
    fx
}

/// Applies one message.
pub fn update(m: &mut Model, msg: Msg) -> Vec<Effect> {
    let fx = dispatch(m, msg);
    m.queue.settle();
    scroll_into_view(m);
    fx
}

/// Keeps the cursor inside the drawn window of the queue, scrolling as little as possible.
fn scroll_into_view(m: &mut Model) {
    let rows = m.page_rows.max(1);
    let q = &mut m.queue;
    q.clamp();
    if q.cursor < q.offset {
        q.offset = q.cursor;
    } else if q.cursor >= q.offset + rows {
        q.offset = q.cursor + 1 - rows;
    }
    let max_offset = q.visible.len().saturating_sub(rows);
    q.offset = q.offset.min(max_offset);
}

fn dispatch(m: &mut Model, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Layout { queue_rows } => {
            m.page_rows = queue_rows.max(1);
            Vec::new()
        }
        Msg::Key(k) => {
            if k.kind == KeyEventKind::Release {
                return Vec::new();
            }
            on_key(m, k)
        }
        Msg::Paste(text) => on_paste(m, &text),
        Msg::Mouse(ev) => match ev.kind {
            MouseEventKind::ScrollDown => run_action(m, Action::Down),
            MouseEventKind::ScrollUp => run_action(m, Action::Up),
            _ => Vec::new(),
        },
        Msg::Click { pane, row } => {
            if m.popup.is_some() {
                return Vec::new();
            }
            m.club.editing = false;
            m.focus = if pane == Pane::Log && !m.log_visible {
                Pane::Queue
            } else {
                pane
            };
            match row {
                Some(r) if pane == Pane::Queue && m.queue.offset + r < m.queue.visible.len() => {
                    m.queue.cursor = m.queue.offset + r;
                    prefetch(m)
                }
                _ => Vec::new(),
            }
        }
        Msg::Resize(w, h) => {
            m.size = (w, h);
            Vec::new()
        }
        Msg::Tick(now) => {
            m.now = now;
            Vec::new()
        }
        Msg::AutoRefresh => {
            if m.listing.loading || m.session_expired {
                Vec::new()
            } else {
                refresh(m)
            }
        }
        Msg::AddIds { text, origin } => add_ids(m, &text, &origin),
        Msg::Restore(saved) => restore(m, saved),
        Msg::History(entries) => {
            let earlier: Vec<LogEntry> = entries
                .into_iter()
                .map(|e| LogEntry {
                    at: e.at,
                    what: e.action,
                    target: Some(e.target),
                    label: "(earlier session)".into(),
                    outcome: match (e.outcome.as_str(), e.detail) {
                        ("ok", _) => Outcome::Ok,
                        ("unknown", d) => Outcome::Unknown(crate::text::clean(
                            d.as_deref().unwrap_or("no answer seen"),
                            300,
                        )),
                        (_, Some(d)) => Outcome::Failed(crate::text::clean(&d, 300)),
                        (_, None) => Outcome::Failed("failed".into()),
                    },
                })
                .collect();
            m.log.splice(0..0, earlier);
            Vec::new()
        }
        Msg::Notice(text) => {
            log(
                m,
                "start",
                None,
                crate::text::clean(&text, 200),
                Outcome::Failed("warning".into()),
            );
            status(m, Level::Error, &text);
            Vec::new()
        }
        Msg::Api {
            request_id,
            outcome,
        } => match m.inflight.remove(&request_id) {
            Some(p) => on_api(m, p, outcome),
            None => Vec::new(),
        },
        Msg::EffectDone { what, result } => {
            if let Err(e) = result {
                status(m, Level::Error, &format!("{what} failed: {e}"));
            }
            Vec::new()
        }
    }
}

// ---------------------------------------------------------------------------------------
// helpers

fn call(m: &mut Model, pending: Pending, call: ApiCall) -> Effect {
    let request_id = m.next_request_id;
    m.next_request_id += 1;
    m.inflight.insert(request_id, pending);
    Effect::Api { request_id, call }
}

fn status(m: &mut Model, level: Level, text: &str) {
    m.status = Some(Status {
        text: text.to_owned(),
        level,
    });
}

fn short(id: Uuid) -> String {
    id.to_string()[..8].to_owned()
}

/// "student → club" for messages, sanitised.
fn label_of(m: &Model, id: Uuid) -> String {
    let Some(item) = m.queue.get(id) else {
        return short(id);
    };
    let who = item
        .student_name()
        .or_else(|| item.school_number().map(|n| format!("#{n}")))
        .unwrap_or_else(|| short(id));
    let club = item.club_name().unwrap_or("?");
    crate::text::clean(&format!("{who} → {club}"), 60)
}

fn log(m: &mut Model, what: &str, target: Option<Uuid>, label: String, outcome: Outcome) {
    m.log.push(LogEntry {
        at: m.now,
        what: what.to_owned(),
        target,
        label,
        outcome,
    });
    if m.log.len() > 5000 {
        m.log.drain(..1000);
    }
}

fn audit(m: &Model, action: &str, target: Uuid, result: Result<(), String>) -> Effect {
    let outcome = if result.is_ok() { "ok" } else { "failed" };
    audit_entry(m, action, target, outcome, result.err())
}

/// An audit line: `outcome` is `ok`, `failed` or `unknown`.
fn audit_entry(
    m: &Model,
    action: &str,
    target: Uuid,
    outcome: &str,
    detail: Option<String>,
) -> Effect {
    Effect::Audit(AuditEntry {
        at: m.now,
        server: m.server_key.clone(),
        user: m.user.get().and_then(|u| u.email.clone()),
        action: action.to_owned(),
        target,
        outcome: outcome.to_owned(),
        detail,
        via: Some("dashboard".to_owned()),
    })
}

/// Records what an error says about the connection and the session.
fn note_error(m: &mut Model, e: &ApiError) {
    match e {
        ApiError::Connect { message } => m.connection = Connection::Offline(message.clone()),
        ApiError::Timeout { .. } => m.connection = Connection::Offline(e.to_string()),
        _ => m.connection = Connection::Online,
    }
    if let ApiError::Unauthorized { kind, .. } = e
        && kind.needs_sign_in()
    {
        let first = !m.session_expired;
        m.session_expired = true;
        if first && m.popup.is_none() {
            let why = match kind {
                AuthErrorKind::MissingToken => "this needs a sign-in token",
                _ => "session expired: sign in again",
            };
            m.popup = Some(sign_in_popup(m, Some(why.to_owned())));
        }
    }
}

fn note_ok(m: &mut Model, api_version: &Option<String>) {
    m.connection = Connection::Online;
    if let Some(v) = api_version {
        m.api_version = Some(crate::text::clean(v, 20));
    }
}

fn error_text(e: &ApiError) -> String {
    crate::text::truncate_chars(&e.to_string(), 300)
}

fn sign_in_popup(m: &Model, error: Option<String>) -> Popup {
    Popup::SignIn {
        input: Input::default(),
        save: m.save_token,
        error,
    }
}

// ---------------------------------------------------------------------------------------
// keys

fn on_key(m: &mut Model, k: KeyEvent) -> Vec<Effect> {
    if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
        return quit(m, true);
    }
    if let Some(popup) = m.popup.take() {
        return on_popup_key(m, popup, k);
    }
    if m.focus == Pane::Club && m.club.editing {
        return on_club_input_key(m, k);
    }
    if k.code == KeyCode::Esc {
        // Esc only cancels: a pending quit, a range anchor, the status message.
        m.quit_armed = false;
        m.queue.anchor = None;
        m.status = None;
        return Vec::new();
    }
    match m.keymap.lookup(m.focus.scope(), &k) {
        Some(a) => {
            if a != Action::Quit {
                m.quit_armed = false;
            }
            run_action(m, a)
        }
        None => Vec::new(),
    }
}

fn quit(m: &mut Model, force: bool) -> Vec<Effect> {
    let running = m
        .inflight
        .values()
        .filter(|p| matches!(p, Pending::Act(..) | Pending::Contact(_)))
        .count();
    if running > 0 && !force && !m.quit_armed {
        m.quit_armed = true;
        status(
            m,
            Level::Error,
            &format!(
                "{running} action(s) still waiting for the server: press q again to quit anyway"
            ),
        );
        return Vec::new();
    }
    m.quitting = true;
    // Writes still unanswered are recorded as such: sent, outcome unknown (never as done).
    let mut fx: Vec<Effect> = m
        .inflight
        .values()
        .filter_map(|p| match p {
            Pending::Act(id, action) => Some((*id, action.verb())),
            Pending::Contact(club) => Some((*club, "add-contact")),
            _ => None,
        })
        .map(|(target, action)| {
            let detail = "quit before the server answered; check the request's state";
            audit_entry(m, action, target, "unknown", Some(detail.into()))
        })
        .collect();
    fx.push(Effect::SaveQueue(m.saved_queue()));
    fx.push(Effect::Quit);
    fx
}

fn run_action(m: &mut Model, a: Action) -> Vec<Effect> {
    if a.mutates() && m.read_only {
        status(
            m,
            Level::Error,
            "read-only mode: nothing can be changed (started with --read-only)",
        );
        return Vec::new();
    }
    match a {
        Action::Quit => quit(m, false),
        Action::Help => {
            m.popup = Some(Popup::Help {
                query: Input::default(),
                scroll: 0,
            });
            Vec::new()
        }
        Action::NextPane | Action::PrevPane => {
            let order: Vec<Pane> = if m.log_visible {
                vec![Pane::Queue, Pane::Club, Pane::Log]
            } else {
                vec![Pane::Queue, Pane::Club]
            };
            let pos = order.iter().position(|p| *p == m.focus).unwrap_or(0);
            let n = order.len();
            m.focus = if a == Action::NextPane {
                order[(pos + 1) % n]
            } else {
                order[(pos + n - 1) % n]
            };
            Vec::new()
        }
        Action::Refresh => refresh(m),
        Action::ToggleLog => {
            m.log_visible = !m.log_visible;
            if !m.log_visible && m.focus == Pane::Log {
                m.focus = Pane::Queue;
            }
            if m.log_visible {
                m.log_scroll = 0;
            }
            Vec::new()
        }
        Action::CommandLine => {
            m.popup = Some(Popup::Command {
                input: Input::default(),
            });
            Vec::new()
        }
        Action::AddIds => {
            m.popup = Some(Popup::AddIds {
                input: Input::default(),
            });
            Vec::new()
        }
        Action::ClubLookup => {
            m.focus = Pane::Club;
            m.club.editing = true;
            Vec::new()
        }
        Action::SignIn => {
            m.popup = Some(sign_in_popup(m, None));
            Vec::new()
        }
        Action::Redraw => vec![Effect::Redraw],
        Action::Down
        | Action::Up
        | Action::Top
        | Action::Bottom
        | Action::PageDown
        | Action::PageUp => navigate(m, a),
        Action::Approve => decide(m, RowAction::Approve),
        Action::Decline => decide(m, RowAction::Decline),
        Action::Delete => decide(m, RowAction::Delete),
        Action::Mark => {
            let cur = m.queue.cursor;
            if let Some(&i) = m.queue.visible.get(cur) {
                let marked = m.queue.items[i].marked;
                m.queue.set_marked(i, !marked);
                m.queue.anchor = Some(cur);
                return navigate(m, Action::Down);
            }
            Vec::new()
        }
        Action::MarkRange => {
            let cur = m.queue.cursor;
            let from = m.queue.anchor.unwrap_or(cur);
            let (lo, hi) = (from.min(cur), from.max(cur));
            for pos in lo..=hi {
                if let Some(&i) = m.queue.visible.get(pos) {
                    m.queue.set_marked(i, true);
                }
            }
            m.queue.anchor = Some(cur);
            status(m, Level::Info, &format!("{} marked", m.queue.stats.marked));
            Vec::new()
        }
        Action::MarkAll => {
            for pos in 0..m.queue.visible.len() {
                let i = m.queue.visible[pos];
                if m.queue.items[i].is_actionable() {
                    m.queue.set_marked(i, true);
                }
            }
            status(m, Level::Info, &format!("{} marked", m.queue.stats.marked));
            Vec::new()
        }
        Action::ClearMarks => {
            m.queue.clear_marks();
            m.queue.anchor = None;
            status(m, Level::Info, "marks cleared");
            Vec::new()
        }
        Action::Filter => {
            let before = m.queue.filter.clone();
            m.popup = Some(Popup::Filter {
                input: Input::new(before.clone()),
                before,
            });
            Vec::new()
        }
        Action::Sort => {
            m.queue.sort = m.queue.sort.next();
            m.queue.refresh_view();
            status(m, Level::Info, &format!("sorted: {}", m.queue.sort.label()));
            vec![Effect::SaveQueue(m.saved_queue())]
        }
        Action::Open => match m.focus {
            Pane::Club => club_open(m),
            _ => match m.queue.selected().map(|i| i.id) {
                Some(id) => fetch_rows(m, &[id]),
                None => Vec::new(),
            },
        },
        Action::RaiseLevel | Action::LowerLevel => {
            let up = a == Action::RaiseLevel;
            if m.focus == Pane::Club {
                let l = m.club.level();
                m.club.level = Some(if up { l.raise() } else { l.lower() });
                status(
                    m,
                    Level::Info,
                    &format!("club fetch level: {}", m.club.level()),
                );
                match m.club.club_id {
                    Some(id) => load_club(m, id),
                    None => Vec::new(),
                }
            } else {
                let d = m.levels.descendant_fetch_level;
                let nd = if up { d.raise() } else { d.lower() };
                m.levels = Levels::new(FetchLevel::Default, nd);
                // Every row is read again at the new level (one listing call per 50 rows
                // where the server lists).
                let fx = refresh(m);
                status(
                    m,
                    Level::Info,
                    &format!("request fetch level: default, student and club at {nd}: reloading…"),
                );
                fx
            }
        }
        Action::Copy => {
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
            status(
                m,
                Level::Success,
                &format!("copied {} id(s) to the clipboard", ids.len()),
            );
            vec![Effect::Copy(ids.join("\n"))]
        }
        Action::NewContact => match m.club.club.get().map(|c| c.id) {
            Some(club_id) => {
                m.popup = Some(Popup::AddContact {
                    club_id,
                    kind: 0,
                    value: Input::default(),
                    on_value: false,
                    error: None,
                });
                Vec::new()
            }
            None => {
                status(m, Level::Error, "look up a club first (c)");
                Vec::new()
            }
        },
    }
}

fn navigate(m: &mut Model, a: Action) -> Vec<Effect> {
    match m.focus {
        Pane::Queue => {
            let n = m.queue.visible.len();
            if n == 0 {
                return Vec::new();
            }
            let page = m.page_rows.max(1);
            let c = m.queue.cursor;
            m.queue.cursor = match a {
                Action::Down => (c + 1).min(n - 1),
                Action::Up => c.saturating_sub(1),
                Action::Top => 0,
                Action::Bottom => n - 1,
                Action::PageDown => (c + page).min(n - 1),
                Action::PageUp => c.saturating_sub(page),
                _ => c,
            };
            prefetch(m)
        }
        Pane::Club => {
            if let (Loadable::Loaded(results), true) = (&m.club.results, m.club.club_id.is_none()) {
                let n = results.len();
                if n > 0 {
                    let c = m.club.result_cursor;
                    m.club.result_cursor = match a {
                        Action::Down => (c + 1).min(n - 1),
                        Action::Up => c.saturating_sub(1),
                        Action::Top => 0,
                        Action::Bottom => n - 1,
                        _ => c,
                    };
                }
            } else {
                m.club.scroll = match a {
                    Action::Down => m.club.scroll.saturating_add(1),
                    Action::Up => m.club.scroll.saturating_sub(1),
                    Action::PageDown => m.club.scroll.saturating_add(10),
                    Action::PageUp => m.club.scroll.saturating_sub(10),
                    Action::Top => 0,
                    _ => m.club.scroll,
                };
            }
            Vec::new()
        }
        Pane::Log => {
            let max = m.log.len().saturating_sub(1);
            m.log_scroll = match a {
                Action::Up => (m.log_scroll + 1).min(max),
                Action::Down => m.log_scroll.saturating_sub(1),
                Action::PageUp => (m.log_scroll + 10).min(max),
                Action::PageDown => m.log_scroll.saturating_sub(10),
                Action::Top => max,
                Action::Bottom => 0,
                _ => m.log_scroll,
            };
            Vec::new()
        }
    }
}

/// Reads unread rows at and just after the cursor, and the next listing page near the end.
fn prefetch(m: &mut Model) -> Vec<Effect> {
    let mut ids = Vec::new();
    let start = m.queue.cursor;
    for pos in start..(start + 1 + PREFETCH_AHEAD).min(m.queue.visible.len()) {
        let item = &m.queue.items[m.queue.visible[pos]];
        if item.state == RowState::Unloaded {
            ids.push(item.id);
        }
    }
    let mut fx = fetch_rows(m, &ids);
    if m.queue.cursor + PAGE_AHEAD >= m.queue.visible.len()
        && !m.listing.loading
        && m.listing.has_more
    {
        fx.extend(load_more(m));
    }
    fx
}

/// Reads rows. Where the server lists, through the listing's `ids` filter, 50 rows a call
/// (one round trip instead of fifty on a slow link); else one GET per row. While the first
/// answers are still awaited at start (whether the server lists is not known yet), a long
/// list waits, except the rows near the cursor: [`fetch_unloaded`] reads it once known.
fn fetch_rows(m: &mut Model, ids: &[Uuid]) -> Vec<Effect> {
    let ids: Vec<Uuid> = ids
        .iter()
        .copied()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                !matches!(
                    i.state,
                    RowState::Acting(_) | RowState::Loading | RowState::Deleted
                )
            })
        })
        .collect();
    if ids.is_empty() {
        return Vec::new();
    }
    let batch = m.listing.support == ListingSupport::Available && ids.len() > 1;
    if !batch
        && m.listing.support == ListingSupport::Unknown
        && matches!(m.user, Loadable::Loading)
        && ids.len() > PREFETCH_AHEAD + 1
    {
        return Vec::new();
    }
    for id in &ids {
        if let Some(item) = m.queue.get_mut(*id) {
            item.state = RowState::Loading;
        }
    }
    let levels = m.levels;
    let mut fx = Vec::new();
    if batch {
        for chunk in ids.chunks(REREAD_CHUNK) {
            let c = ApiCall::ListRequests {
                filter: RequestFilter {
                    ids: chunk.to_vec(),
                    ..RequestFilter::default()
                },
                sort: Sort::default(),
                page: Page::new(1, REREAD_CHUNK as u32),
                levels,
            };
            fx.push(call(m, Pending::Reread(chunk.to_vec()), c));
        }
    } else {
        for id in ids {
            fx.push(call(
                m,
                Pending::Fetch(id),
                ApiCall::GetRequest { id, levels },
            ));
        }
    }
    fx
}

/// Reads every row not read yet (once the server's listing support is known).
fn fetch_unloaded(m: &mut Model) -> Vec<Effect> {
    let ids: Vec<Uuid> = m
        .queue
        .items
        .iter()
        .filter(|i| i.state == RowState::Unloaded)
        .map(|i| i.id)
        .collect();
    fetch_rows(m, &ids)
}

/// Approve, decline or delete: marked rows after one confirmation; else the selected row
/// (delete always asks).
fn decide(m: &mut Model, action: RowAction) -> Vec<Effect> {
    let marked = m.queue.marked_ids();
    if !marked.is_empty() {
        let visible: std::collections::HashSet<usize> = m.queue.visible.iter().copied().collect();
        let hidden = marked
            .iter()
            .filter(|id| m.queue.index.get(id).is_some_and(|i| !visible.contains(i)))
            .count();
        m.popup = Some(Popup::Confirm {
            action,
            ids: marked,
            hidden,
            on_confirm: false,
        });
        return Vec::new();
    }
    let Some(item) = m.queue.selected() else {
        status(m, Level::Info, "the queue is empty: add request ids with i");
        return Vec::new();
    };
    let id = item.id;
    if !item.is_actionable() && action != RowAction::Delete {
        let why = match (&item.state, item.status()) {
            (RowState::Acting(a), _) => format!("already {}", a.progress()),
            (RowState::Deleted, _) => "it was deleted".to_owned(),
            (RowState::Gone, _) => "the server does not know it".to_owned(),
            (_, Some(s)) => format!("it is already {s}"),
            _ => "it cannot change".to_owned(),
        };
        status(
            m,
            Level::Error,
            &format!("cannot {} {}: {why}", action.verb(), label_of(m, id)),
        );
        return Vec::new();
    }
    if action == RowAction::Delete {
        if matches!(item.state, RowState::Acting(_) | RowState::Deleted) {
            status(
                m,
                Level::Error,
                "that request is already being changed or deleted",
            );
            return Vec::new();
        }
        m.popup = Some(Popup::Confirm {
            action,
            ids: vec![id],
            hidden: 0,
            on_confirm: false,
        });
        return Vec::new();
    }
    let mut fx = act(m, id, action);
    advance(m);
    fx.extend(prefetch(m));
    fx
}

/// Moves the cursor to the next actionable row after it (the moderator never waits).
fn advance(m: &mut Model) {
    let n = m.queue.visible.len();
    for pos in m.queue.cursor + 1..n {
        if m.queue.items[m.queue.visible[pos]].is_actionable() {
            m.queue.cursor = pos;
            return;
        }
    }
}

fn act(m: &mut Model, id: Uuid, action: RowAction) -> Vec<Effect> {
    let Some(item) = m.queue.get_mut(id) else {
        return Vec::new();
    };
    if matches!(item.state, RowState::Acting(_) | RowState::Deleted) {
        return Vec::new();
    }
    item.state = RowState::Acting(action);
    item.error = None;
    let levels = m.levels;
    let c = match action.status() {
        Some(status) => ApiCall::UpdateRequest { id, status, levels },
        None => ApiCall::DeleteRequest { id },
    };
    if m.bulk.is_none() {
        let label = label_of(m, id);
        status(m, Level::Info, &format!("{} {label}", action.progress()));
    }
    vec![call(m, Pending::Act(id, action), c)]
}

fn refresh(m: &mut Model) -> Vec<Effect> {
    let mut fx = Vec::new();
    if !matches!(m.user, Loadable::Loaded(_) | Loadable::Loading) {
        m.user = Loadable::Loading;
        fx.push(call(m, Pending::User, ApiCall::CurrentUser));
    }
    m.listing.generation += 1;
    m.listing.loading = false;
    if m.listing.support != ListingSupport::Unavailable
        && matches!(m.listing.scope, ListScope::Clubs(_) | ListScope::All)
    {
        fx.extend(load_page(m, 1));
    }
    let ids: Vec<Uuid> = m
        .queue
        .items
        .iter()
        .filter(|i| {
            !matches!(
                i.state,
                RowState::Acting(_) | RowState::Deleted | RowState::Loading
            )
        })
        .map(|i| i.id)
        .collect();
    fx.extend(fetch_rows(m, &ids));
    status(m, Level::Info, "refreshing…");
    fx
}

/// Loads the next stretch of the listing. The listing is filtered to pending requests, so
/// every decision shifts later pages left: the page asked for is computed from how many
/// listed requests are still pending here, which never skips a request (an overlap is merged).
fn load_more(m: &mut Model) -> Vec<Effect> {
    let still_pending = listed_pending(m);
    load_page(m, still_pending / m.page_size.max(1) + 1)
}

/// Listed requests that are still pending here (the server's pending listing holds them
/// before any request this dashboard has not seen yet).
fn listed_pending(m: &Model) -> u32 {
    m.queue
        .items
        .iter()
        .filter(|i| {
            i.origin == Origin::Listing
                && !matches!(i.state, RowState::Deleted | RowState::Gone)
                && i.status() == Some(&MembershipStatus::Pending)
        })
        .count() as u32
}

fn load_page(m: &mut Model, page: u32) -> Vec<Effect> {
    let filter = match &m.listing.scope {
        ListScope::Clubs(ids) => RequestFilter {
            club_ids: ids.clone(),
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        },
        ListScope::All => RequestFilter {
            membership_status: Some(MembershipStatus::Pending),
            ..RequestFilter::default()
        },
        _ => return Vec::new(),
    };
    m.listing.loading = true;
    let generation = m.listing.generation;
    let c = ApiCall::ListRequests {
        filter,
        sort: Sort::default(),
        page: Page::new(page, m.page_size),
        levels: m.levels,
    };
    vec![call(m, Pending::ListPage { page, generation }, c)]
}

fn add_ids(m: &mut Model, text: &str, origin: &str) -> Vec<Effect> {
    let (ids, bad) = parse_ids(text);
    let mut added = Vec::new();
    for id in ids {
        if m.queue.push(QueueItem::new(id, Origin::Manual)) {
            added.push(id);
        } else if let Some(item) = m.queue.get_mut(id) {
            item.origin = Origin::Manual;
        }
    }
    m.queue.refresh_view();
    let mut msg = format!("{origin}: added {} request id(s)", added.len());
    if !bad.is_empty() {
        msg.push_str(&format!(
            "; skipped {} that are not UUIDs ({})",
            bad.len(),
            bad.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    status(
        m,
        if bad.is_empty() {
            Level::Info
        } else {
            Level::Error
        },
        &msg,
    );
    let mut fx = fetch_rows(m, &added);
    fx.push(Effect::SaveQueue(m.saved_queue()));
    fx
}

fn restore(m: &mut Model, saved: SavedQueue) -> Vec<Effect> {
    if saved.server != m.server_key {
        return Vec::new();
    }
    m.queue.set_filter(&saved.filter);
    m.queue.sort = saved.sort;
    let mut added = Vec::new();
    for id in saved.manual_ids {
        if m.queue.push(QueueItem::new(id, Origin::Manual)) {
            added.push(id);
        }
    }
    m.queue.refresh_view();
    if !added.is_empty() {
        status(
            m,
            Level::Info,
            &format!(
                "restored {} request id(s) from the last session",
                added.len()
            ),
        );
    }
    fetch_rows(m, &added)
}

// ---------------------------------------------------------------------------------------
// pop-ups and text fields

fn input_key(input: &mut Input, k: KeyEvent) {
    input.handle_event(&Event::Key(k));
}

fn on_paste(m: &mut Model, text: &str) -> Vec<Effect> {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let put = |input: &mut Input| {
        for c in flat.chars() {
            input.handle(InputRequest::InsertChar(c));
        }
    };
    match m.popup.as_mut() {
        Some(Popup::AddIds { input })
        | Some(Popup::SignIn { input, .. })
        | Some(Popup::Command { input })
        | Some(Popup::Help { query: input, .. }) => put(input),
        Some(Popup::Filter { input, .. }) => {
            put(input);
            m.queue.set_filter(input.value());
        }
        Some(Popup::AddContact { value, .. }) => put(value),
        Some(Popup::Confirm { .. }) => {}
        None if m.focus == Pane::Club && m.club.editing => put(&mut m.club.input),
        None => {
            // Pasting ids anywhere adds them: the quickest way to build a queue.
            return add_ids(m, text, "pasted");
        }
    }
    Vec::new()
}

fn on_popup_key(m: &mut Model, popup: Popup, k: KeyEvent) -> Vec<Effect> {
    let esc = k.code == KeyCode::Esc;
    let enter = k.code == KeyCode::Enter;
    match popup {
        Popup::Help {
            mut query,
            mut scroll,
        } => {
            if esc || (k.code == KeyCode::Char('?') && query.value().is_empty()) {
                return Vec::new();
            }
            match k.code {
                KeyCode::Down => scroll = scroll.saturating_add(1),
                KeyCode::Up => scroll = scroll.saturating_sub(1),
                KeyCode::PageDown => scroll = scroll.saturating_add(10),
                KeyCode::PageUp => scroll = scroll.saturating_sub(10),
                _ => {
                    input_key(&mut query, k);
                    scroll = 0;
                }
            }
            m.popup = Some(Popup::Help { query, scroll });
            Vec::new()
        }
        Popup::Confirm {
            action,
            ids,
            hidden,
            mut on_confirm,
        } => {
            let decision = match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => Some(true),
                KeyCode::Enter => Some(on_confirm),
                KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => Some(false),
                KeyCode::Left
                | KeyCode::Right
                | KeyCode::Tab
                | KeyCode::BackTab
                | KeyCode::Char('h')
                | KeyCode::Char('l') => {
                    on_confirm = !on_confirm;
                    None
                }
                _ => None,
            };
            let Some(confirm) = decision else {
                m.popup = Some(Popup::Confirm {
                    action,
                    ids,
                    hidden,
                    on_confirm,
                });
                return Vec::new();
            };
            if !confirm {
                status(m, Level::Info, &format!("{} cancelled", action.verb()));
                return Vec::new();
            }
            run_confirmed(m, action, ids)
        }
        Popup::AddIds { mut input } => {
            if esc {
                return Vec::new();
            }
            if enter {
                let text = input.value().to_owned();
                let (ids, bad) = parse_ids(&text);
                if ids.is_empty() {
                    // Nothing usable: say so and keep the text for correcting.
                    let msg = if bad.is_empty() {
                        "type or paste at least one club request id".to_owned()
                    } else {
                        format!("not a club request id (UUID): {}", bad.join(", "))
                    };
                    status(m, Level::Error, &msg);
                    m.popup = Some(Popup::AddIds { input });
                    return Vec::new();
                }
                return add_ids(m, &text, "added");
            }
            input_key(&mut input, k);
            m.popup = Some(Popup::AddIds { input });
            Vec::new()
        }
        Popup::SignIn {
            mut input,
            mut save,
            ..
        } => {
            if esc {
                if m.session_expired {
                    status(m, Level::Error, "not signed in: press S to sign in");
                }
                return Vec::new();
            }
            if k.code == KeyCode::Tab {
                save = !save && m.can_save_token;
                m.popup = Some(Popup::SignIn {
                    input,
                    save,
                    error: None,
                });
                return Vec::new();
            }
            if enter {
                return match parse_pasted_token(input.value()) {
                    Ok(token) => sign_in(m, token, save),
                    Err(e) => {
                        m.popup = Some(Popup::SignIn {
                            input: Input::default(),
                            save,
                            error: Some(e.to_string()),
                        });
                        Vec::new()
                    }
                };
            }
            input_key(&mut input, k);
            m.popup = Some(Popup::SignIn {
                input,
                save,
                error: None,
            });
            Vec::new()
        }
        Popup::Command { mut input } => {
            if esc {
                return Vec::new();
            }
            if enter {
                let text = input.value().to_owned();
                return run_command(m, &text);
            }
            input_key(&mut input, k);
            m.popup = Some(Popup::Command { input });
            Vec::new()
        }
        Popup::Filter { mut input, before } => {
            if esc {
                m.queue.set_filter(&before);
                return Vec::new();
            }
            if enter {
                m.queue.set_filter(input.value().trim());
                m.queue.cursor = m.queue.cursor.min(m.queue.visible.len().saturating_sub(1));
                let mut fx = prefetch(m);
                fx.push(Effect::SaveQueue(m.saved_queue()));
                return fx;
            }
            input_key(&mut input, k);
            m.queue.set_filter(input.value());
            m.popup = Some(Popup::Filter { input, before });
            Vec::new()
        }
        Popup::AddContact {
            club_id,
            mut kind,
            mut value,
            mut on_value,
            error,
        } => {
            if esc {
                return Vec::new();
            }
            let n = Model::contact_types().len();
            match k.code {
                KeyCode::Tab | KeyCode::BackTab => on_value = !on_value,
                KeyCode::Left | KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('h')
                    if !on_value =>
                {
                    kind = (kind + n - 1) % n
                }
                KeyCode::Right | KeyCode::Down | KeyCode::Char('j') | KeyCode::Char('l')
                    if !on_value =>
                {
                    kind = (kind + 1) % n
                }
                KeyCode::Enter if !on_value => on_value = true,
                KeyCode::Enter => {
                    let v = value.value().trim().to_owned();
                    if v.is_empty() {
                        m.popup = Some(Popup::AddContact {
                            club_id,
                            kind,
                            value,
                            on_value,
                            error: Some("type a value".into()),
                        });
                        return Vec::new();
                    }
                    let contact = NewContact {
                        kind: Model::contact_types()[kind].clone(),
                        value: v,
                    };
                    status(m, Level::Info, "adding contact…");
                    m.popup = Some(Popup::AddContact {
                        club_id,
                        kind,
                        value,
                        on_value,
                        error: None,
                    });
                    let c = ApiCall::CreateContact {
                        club_id,
                        contact,
                        levels: Levels::new(FetchLevel::Default, FetchLevel::IdOnly),
                    };
                    return vec![call(m, Pending::Contact(club_id), c)];
                }
                _ if on_value => input_key(&mut value, k),
                _ => {}
            }
            m.popup = Some(Popup::AddContact {
                club_id,
                kind,
                value,
                on_value,
                error,
            });
            Vec::new()
        }
    }
}

fn run_confirmed(m: &mut Model, action: RowAction, ids: Vec<Uuid>) -> Vec<Effect> {
    let ids: Vec<Uuid> = ids
        .into_iter()
        .filter(|id| {
            m.queue.get(*id).is_some_and(|i| {
                !matches!(i.state, RowState::Acting(_) | RowState::Deleted)
                    && (action == RowAction::Delete || i.is_actionable())
            })
        })
        .collect();
    if ids.is_empty() {
        status(
            m,
            Level::Error,
            "nothing to do: those requests are no longer pending",
        );
        return Vec::new();
    }
    if ids.len() > 1 {
        m.bulk = Some(BulkTask {
            action,
            ids: ids.iter().copied().collect(),
            total: ids.len(),
            done: 0,
            failed: 0,
        });
        status(
            m,
            Level::Info,
            &format!("{} 0/{}", action.progress(), ids.len()),
        );
    }
    let single = ids.len() == 1 && m.queue.selected().map(|i| i.id) == ids.first().copied();
    let mut fx = Vec::new();
    for id in ids {
        fx.extend(act(m, id, action));
    }
    if single && action != RowAction::Delete {
        advance(m);
    }
    fx.extend(prefetch(m));
    fx
}

fn sign_in(m: &mut Model, token: secrecy::SecretString, save: bool) -> Vec<Effect> {
    use secrecy::ExposeSecret;
    m.token_expires = crate::api::jwt_expiry(token.expose_secret());
    m.has_token = true;
    m.session_expired = false;
    m.save_token = save;
    m.user = Loadable::Loading;
    log(m, "sign-in", None, "token pasted".into(), Outcome::Ok);
    status(m, Level::Info, "signed in: checking the token…");
    let mut fx = vec![Effect::SetToken(token.clone())];
    if save {
        fx.push(Effect::SaveToken(token));
    }
    fx.push(call(m, Pending::User, ApiCall::CurrentUser));
    // Rows that failed for want of a token are read again.
    let failed: Vec<Uuid> = m
        .queue
        .items
        .iter()
        .filter(|i| matches!(i.state, RowState::Failed | RowState::Unloaded))
        .map(|i| i.id)
        .take(50)
        .collect();
    fx.extend(fetch_rows(m, &failed));
    fx
}

fn on_club_input_key(m: &mut Model, k: KeyEvent) -> Vec<Effect> {
    match k.code {
        KeyCode::Esc => {
            m.club.editing = false;
            Vec::new()
        }
        KeyCode::Tab | KeyCode::BackTab => {
            m.club.editing = false;
            run_action(
                m,
                if k.code == KeyCode::Tab {
                    Action::NextPane
                } else {
                    Action::PrevPane
                },
            )
        }
        KeyCode::Enter => {
            m.club.editing = false;
            let text = m.club.input.value().trim().to_owned();
            lookup_club(m, &text)
        }
        _ => {
            input_key(&mut m.club.input, k);
            Vec::new()
        }
    }
}

fn lookup_club(m: &mut Model, text: &str) -> Vec<Effect> {
    if text.is_empty() {
        status(m, Level::Error, "type a club id, or a name to search");
        return Vec::new();
    }
    if let Ok(id) = Uuid::parse_str(text) {
        m.club.results = Loadable::NotAsked;
        return load_club(m, id);
    }
    if looks_like_uuid_attempt(text) {
        status(
            m,
            Level::Error,
            &format!(
                "{:?} is not a valid club id (UUID)",
                crate::text::clean(text, 40)
            ),
        );
        return Vec::new();
    }
    if m.listing.support == ListingSupport::Unavailable {
        status(
            m,
            Level::Error,
            "this server cannot search clubs by name: enter a club id",
        );
        return Vec::new();
    }
    m.club.results = Loadable::Loading;
    m.club.club_id = None;
    m.club.club = Loadable::NotAsked;
    m.club.result_cursor = 0;
    let c = ApiCall::SearchClubs {
        query: ClubQuery::Text(text.to_owned()),
        page: Page::new(1, 50),
        levels: Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
    };
    vec![call(m, Pending::ClubSearch, c)]
}

/// Hex and dashes only, long enough to be meant as an id: refused before any request.
fn looks_like_uuid_attempt(text: &str) -> bool {
    text.len() >= 8 && text.contains('-') && text.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

fn load_club(m: &mut Model, id: Uuid) -> Vec<Effect> {
    m.club.club_id = Some(id);
    m.club.club = Loadable::Loading;
    m.club.scroll = 0;
    let levels = m.club.levels();
    vec![call(m, Pending::Club(id), ApiCall::GetClub { id, levels })]
}

fn club_open(m: &mut Model) -> Vec<Effect> {
    if m.club.club_id.is_none()
        && let Loadable::Loaded(results) = &m.club.results
        && let Some(c) = results.get(m.club.result_cursor)
    {
        let id = c.id;
        return load_club(m, id);
    }
    match m.club.club_id {
        Some(id) => load_club(m, id),
        None => {
            m.club.editing = true;
            Vec::new()
        }
    }
}

fn run_command(m: &mut Model, text: &str) -> Vec<Effect> {
    let text = text.trim().trim_start_matches(':');
    let (cmd, arg) = match text.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (text, ""),
    };
    match cmd {
        "" => Vec::new(),
        "q" | "quit" => quit(m, false),
        "q!" | "quit!" => quit(m, true),
        "help" | "h" => run_action(m, Action::Help),
        "add" | "ids" => add_ids(m, arg, "added"),
        "club" => {
            m.focus = Pane::Club;
            m.club.input = Input::new(arg.to_owned());
            lookup_club(m, arg)
        }
        "signin" | "sign-in" | "login" => run_action(m, Action::SignIn),
        "refresh" => refresh(m),
        "filter" => {
            m.queue.set_filter(arg);
            vec![Effect::SaveQueue(m.saved_queue())]
        }
        "sort" => {
            let s = match arg {
                "age" => Some(QueueSort::Age),
                "club" => Some(QueueSort::Club),
                "status" => Some(QueueSort::Status),
                "server" => Some(QueueSort::Server),
                _ => None,
            };
            match s {
                Some(s) => {
                    m.queue.sort = s;
                    m.queue.refresh_view();
                    vec![Effect::SaveQueue(m.saved_queue())]
                }
                None => {
                    status(m, Level::Error, "sort takes age, club, status or server");
                    Vec::new()
                }
            }
        }
        "level" => {
            let parts: Vec<&str> = arg.split_whitespace().collect();
            let parsed: Result<Vec<FetchLevel>, String> = parts
                .iter()
                .map(|p| crate::api::query::parse_level(p))
                .collect();
            match parsed {
                Ok(l) if l.len() == 1 || l.len() == 2 => {
                    let desc = if l.len() == 2 {
                        l[1]
                    } else {
                        m.levels.descendant_fetch_level
                    };
                    m.levels = Levels::new(l[0], desc);
                    status(
                        m,
                        Level::Info,
                        &format!("request fetch level {} / descendants {}", l[0], desc),
                    );
                    Vec::new()
                }
                Ok(_) => {
                    status(m, Level::Error, "level takes one or two fetch levels");
                    Vec::new()
                }
                Err(e) => {
                    status(m, Level::Error, &e);
                    Vec::new()
                }
            }
        }
        "club-level" => match crate::api::query::parse_level(arg) {
            Ok(l) => {
                m.club.level = Some(l);
                match m.club.club_id {
                    Some(id) => load_club(m, id),
                    None => Vec::new(),
                }
            }
            Err(e) => {
                status(m, Level::Error, &e);
                Vec::new()
            }
        },
        "scope" => {
            let scope = match arg {
                "mine" => None,
                "all" => Some(ListScope::All),
                other => match Uuid::parse_str(other) {
                    Ok(id) => Some(ListScope::Clubs(vec![id])),
                    Err(_) => {
                        status(m, Level::Error, "scope takes mine, all or a club id");
                        return Vec::new();
                    }
                },
            };
            match scope {
                Some(s) => {
                    m.listing.scope = s;
                    refresh(m)
                }
                None => {
                    m.listing.scope = ListScope::Undecided;
                    m.user = Loadable::Loading;
                    vec![call(m, Pending::User, ApiCall::CurrentUser)]
                }
            }
        }
        "mouse" => {
            let on = match arg {
                "on" => true,
                "off" => false,
                _ => !m.mouse,
            };
            m.mouse = on;
            status(m, Level::Info, if on { "mouse on" } else { "mouse off" });
            vec![Effect::SetMouse(on)]
        }
        "clear-done" => {
            m.queue.retain(|i| {
                matches!(i.state, RowState::Acting(_))
                    || (!matches!(i.state, RowState::Deleted | RowState::Gone)
                        && i.status().is_none_or(|s| *s == MembershipStatus::Pending))
            });
            vec![Effect::SaveQueue(m.saved_queue())]
        }
        "log" => run_action(m, Action::ToggleLog),
        other => {
            status(
                m,
                Level::Error,
                &format!(
                    "unknown command {:?}: try add, club, scope, level, club-level, filter, sort, signin, mouse, refresh, clear-done, log, quit",
                    crate::text::clean(other, 20)
                ),
            );
            Vec::new()
        }
    }
}

// ---------------------------------------------------------------------------------------
// answers

/// Drops what no row or detail shows (club descriptions, logos, nested lists), so a queue of
/// many thousand requests stays small.
fn slim(mut r: ClubRequest) -> ClubRequest {
    if let Some(c) = r.club.as_mut() {
        c.description = None;
        c.logo_url = None;
        c.background_color = None;
        c.accent_color = None;
        c.contacts = None;
        c.staffs = None;
        c.members = None;
    }
    if let Some(s) = r.student.as_mut() {
        s.contacts = None;
    }
    r
}

fn merge_row(m: &mut Model, r: ClubRequest) {
    let r = slim(r);
    let id = r.id;
    if let Some(item) = m.queue.get_mut(id) {
        match &mut item.request {
            Some(old) => old.merge_from(r),
            None => item.request = Some(r),
        }
        if !matches!(item.state, RowState::Acting(_)) {
            item.state = RowState::Ready;
        }
        item.read_error = None;
        item.reindex();
    }
}

/// A listing call failed: a 404 means the server has no listing (api-notes.md: fall back to
/// request ids); anything else is reported with `what`.
fn listing_failed(m: &mut Model, e: &ApiError, what: &str) -> Vec<Effect> {
    note_error(m, e);
    if matches!(e, ApiError::OperationUnavailable(_) | ApiError::NotFound(_)) {
        m.listing.support = ListingSupport::Unavailable;
        m.listing.scope = ListScope::None;
        status(
            m,
            Level::Info,
            "this server has no listing: add request ids with i (or pass them as arguments)",
        );
        // Rows given by id are read one by one now that the listing is known to be missing.
        fetch_unloaded(m)
    } else {
        status(m, Level::Error, &format!("{what}: {}", error_text(e)));
        Vec::new()
    }
}

fn on_api(m: &mut Model, pending: Pending, outcome: ApiOutcome) -> Vec<Effect> {
    let mut fx = Vec::new();
    match (pending, outcome) {
        (Pending::User, ApiOutcome::User(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                m.session_expired = false;
                let user = reply.data;
                let email = user.email.clone().unwrap_or_default();
                log(
                    m,
                    "signed in",
                    Some(user.id),
                    crate::text::clean(&email, 60),
                    Outcome::Ok,
                );
                if m.listing.scope == ListScope::Undecided {
                    let student = user.meta.as_ref().and_then(|x| x.student_id);
                    match (student, user.is_admin.unwrap_or(false)) {
                        (Some(sid), false) => {
                            let c = ApiCall::SearchClubs {
                                query: ClubQuery::StaffIds(vec![sid]),
                                page: Page::new(1, 100),
                                levels: Levels::new(FetchLevel::Compact, FetchLevel::IdOnly),
                            };
                            fx.push(call(m, Pending::StaffedClubs, c));
                        }
                        _ => {
                            m.listing.scope = ListScope::All;
                            fx.extend(load_page(m, 1));
                        }
                    }
                }
                m.user = Loadable::Loaded(user);
                if m.status
                    .as_ref()
                    .is_some_and(|s| s.text.starts_with("signed in: checking"))
                {
                    status(m, Level::Success, "signed in");
                }
            }
            Err(e) => {
                note_error(m, &e);
                m.user = Loadable::Failed(error_text(&e));
                status(
                    m,
                    Level::Error,
                    &format!("could not read the current user: {}", error_text(&e)),
                );
            }
        },
        (Pending::StaffedClubs, ApiOutcome::Clubs(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                m.listing.support = ListingSupport::Available;
                fx.extend(fetch_unloaded(m));
                let ids: Vec<Uuid> = reply.data.iter().map(|c| c.id).collect();
                for c in &reply.data {
                    if let Some(n) = c.name.as_ref().and_then(|n| n.best()) {
                        m.listing.club_names.insert(c.id, crate::text::clean(n, 60));
                    }
                }
                if ids.is_empty() {
                    m.listing.scope = ListScope::None;
                    status(
                        m,
                        Level::Info,
                        "you are not on the staff of any club: add request ids with i, or :scope <club id>",
                    );
                } else {
                    m.listing.scope = ListScope::Clubs(ids);
                    fx.extend(load_page(m, 1));
                }
            }
            Err(e) => {
                fx.extend(listing_failed(m, &e, "could not find your clubs"));
            }
        },
        (Pending::ListPage { page, generation }, ApiOutcome::Listing(res)) => {
            if generation != m.listing.generation {
                return fx;
            }
            m.listing.loading = false;
            match res {
                Ok(reply) => {
                    note_ok(m, &reply.api_version);
                    let newly_known = m.listing.support != ListingSupport::Available;
                    m.listing.support = ListingSupport::Available;
                    if newly_known {
                        fx.extend(fetch_unloaded(m));
                    }
                    let pag = reply.meta.as_ref().and_then(|x| x.pagination.clone());
                    let last_page = pag.as_ref().and_then(|p| p.last_p).unwrap_or(page);
                    m.listing.total = pag.as_ref().and_then(|p| p.total);
                    let first_load = m.listing.refreshed_at.is_none();
                    if page == 1 {
                        m.listing.refreshed_at = Some(m.now);
                    }
                    let mut added = 0;
                    for r in reply.data {
                        let id = r.id;
                        if m.queue.get(id).is_none() {
                            m.queue.push(QueueItem::new(id, Origin::Listing));
                            added += 1;
                        }
                        merge_row(m, r);
                    }
                    m.queue.refresh_view();
                    // More to load while the server counts more pending requests than this
                    // dashboard has seen (decisions shift pages; see `load_more`).
                    let seen = u64::from(listed_pending(m));
                    let more = m.listing.total.is_some_and(|t| t > seen);
                    m.listing.has_more = more;
                    if added == 0 && more && page < last_page {
                        // Everything on this page was known already (pages shifted): go on.
                        return load_page(m, page + 1);
                    }
                    if first_load || m.status.as_ref().is_some_and(|s| s.text == "refreshing…") {
                        let total = m
                            .listing
                            .total
                            .map(|t| format!(" of {t}"))
                            .unwrap_or_default();
                        status(
                            m,
                            Level::Info,
                            &format!("{} pending request(s) loaded{total}", m.queue.counts().0),
                        );
                    }
                    fx.extend(prefetch(m));
                }
                Err(e) => {
                    fx.extend(listing_failed(m, &e, "could not load the queue"));
                }
            }
        }
        (Pending::Reread(ids), ApiOutcome::Listing(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                let found: std::collections::HashSet<Uuid> =
                    reply.data.iter().map(|r| r.id).collect();
                for r in reply.data {
                    merge_row(m, r);
                }
                for id in ids {
                    if found.contains(&id) {
                        continue;
                    }
                    if let Some(item) = m.queue.get_mut(id)
                        && item.state == RowState::Loading
                    {
                        item.state = RowState::Gone;
                        item.read_error =
                            Some("not on the server any more (deleted elsewhere?)".into());
                        item.marked = false;
                        item.reindex();
                    }
                }
                if m.status.as_ref().is_some_and(|s| s.text == "refreshing…") {
                    status(m, Level::Success, "refreshed");
                }
            }
            Err(e) => {
                note_error(m, &e);
                for id in &ids {
                    if let Some(item) = m.queue.get_mut(*id)
                        && item.state == RowState::Loading
                    {
                        item.state = if item.request.is_some() {
                            RowState::Ready
                        } else {
                            RowState::Failed
                        };
                        item.read_error = Some(error_text(&e));
                    }
                }
                status(
                    m,
                    Level::Error,
                    &format!("refresh failed: {}", error_text(&e)),
                );
            }
        },
        (Pending::Fetch(id), ApiOutcome::Request(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                merge_row(m, reply.data);
            }
            Err(e) => {
                note_error(m, &e);
                if let Some(item) = m.queue.get_mut(id) {
                    if !matches!(item.state, RowState::Acting(_)) {
                        item.state = match (&e, item.request.is_some()) {
                            (ApiError::NotFound(_), _) => RowState::Gone,
                            (_, true) => RowState::Ready,
                            (_, false) => RowState::Failed,
                        };
                    }
                    item.read_error = Some(match &e {
                        ApiError::NotFound(_) => {
                            "not found on the server (deleted elsewhere, or a wrong id)".to_owned()
                        }
                        _ => error_text(&e),
                    });
                    item.reindex();
                }
            }
        },
        (Pending::Act(id, action), outcome) => fx.extend(on_action_answer(m, id, action, outcome)),
        (Pending::Club(id), ApiOutcome::Club(res)) => {
            if m.club.club_id != Some(id) {
                return fx;
            }
            match res {
                Ok(reply) => {
                    note_ok(m, &reply.api_version);
                    m.club.club = Loadable::Loaded(reply.data);
                }
                Err(e) => {
                    note_error(m, &e);
                    let text = match &e {
                        ApiError::NotFound(_) => format!("no club with id {id}"),
                        _ => error_text(&e),
                    };
                    m.club.club = Loadable::Failed(text);
                }
            }
        }
        (Pending::ClubSearch, ApiOutcome::Clubs(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                let one = (reply.data.len() == 1).then(|| reply.data[0].id);
                let n = reply.data.len();
                m.club.results = Loadable::Loaded(reply.data);
                match one {
                    Some(id) => fx.extend(load_club(m, id)),
                    None => status(
                        m,
                        Level::Info,
                        &format!("{n} club(s) found: j/k and Enter to open"),
                    ),
                }
            }
            Err(e) => {
                note_error(m, &e);
                if matches!(e, ApiError::OperationUnavailable(_) | ApiError::NotFound(_)) {
                    m.club.results = Loadable::Failed(
                        "this server cannot search clubs by name: enter a club id".into(),
                    );
                } else {
                    m.club.results = Loadable::Failed(error_text(&e));
                }
            }
        },
        (Pending::Contact(club_id), ApiOutcome::ContactCreated(res)) => match res {
            Ok(reply) => {
                note_ok(m, &reply.api_version);
                let c = reply.data;
                let label = format!(
                    "{} {}",
                    c.kind.as_ref().map(|k| k.to_string()).unwrap_or_default(),
                    c.value.as_deref().unwrap_or("")
                );
                let label = crate::text::clean(&label, 60);
                if let Loadable::Loaded(club) = &mut m.club.club
                    && club.id == club_id
                {
                    club.contacts.get_or_insert_with(Vec::new).push(c);
                }
                if matches!(m.popup, Some(Popup::AddContact { .. })) {
                    m.popup = None;
                }
                log(m, "add-contact", Some(club_id), label.clone(), Outcome::Ok);
                status(m, Level::Success, &format!("contact added: {label}"));
                fx.push(audit(m, "add-contact", club_id, Ok(())));
            }
            Err(e) => {
                note_error(m, &e);
                let text = error_text(&e);
                if let Some(Popup::AddContact { error, .. }) = m.popup.as_mut() {
                    *error = Some(text.clone());
                }
                log(
                    m,
                    "add-contact",
                    Some(club_id),
                    String::new(),
                    Outcome::Failed(text.clone()),
                );
                status(m, Level::Error, &format!("contact not added: {text}"));
                fx.push(audit(m, "add-contact", club_id, Err(text)));
            }
        },
        (p, o) => {
            tracing::warn!("answer of the wrong kind for {p:?}: {o:?}");
        }
    }
    fx
}

fn on_action_answer(
    m: &mut Model,
    id: Uuid,
    action: RowAction,
    outcome: ApiOutcome,
) -> Vec<Effect> {
    let mut fx = Vec::new();
    let result: Result<Option<ClubRequest>, ApiError> = match outcome {
        ApiOutcome::Updated(r) => r.map(|reply| {
            note_ok(m, &reply.api_version);
            Some(reply.data)
        }),
        ApiOutcome::Deleted(r) => r.map(|reply| {
            note_ok(m, &reply.api_version);
            None
        }),
        other => {
            tracing::warn!("unexpected answer to an action: {other:?}");
            return fx;
        }
    };
    let label = label_of(m, id);
    let ok = result.is_ok();
    match result {
        Ok(answer) => {
            let was_listed_pending = m.queue.get(id).is_some_and(|i| {
                i.origin == Origin::Listing && i.status() == Some(&MembershipStatus::Pending)
            });
            if was_listed_pending && let Some(t) = m.listing.total.as_mut() {
                // The server's pending count shrinks with each confirmed decision.
                *t = t.saturating_sub(1);
            }
            if let Some(item) = m.queue.get_mut(id) {
                item.error = None;
                item.read_error = None;
                item.marked = false;
                match answer {
                    Some(r) => {
                        item.state = RowState::Ready;
                        match &mut item.request {
                            Some(old) => old.merge_from(r),
                            None => item.request = Some(r),
                        }
                    }
                    None => item.state = RowState::Deleted,
                }
                item.reindex();
            }
            log(m, action.verb(), Some(id), label.clone(), Outcome::Ok);
            fx.push(audit(m, action.verb(), id, Ok(())));
            if m.bulk.is_none() {
                let shown = m
                    .queue
                    .get(id)
                    .and_then(|i| i.status().map(|s| s.to_string()))
                    .unwrap_or_else(|| {
                        if action == RowAction::Delete {
                            "deleted".into()
                        } else {
                            "done".into()
                        }
                    });
                status(m, Level::Success, &format!("{label}: {shown}"));
            }
        }
        Err(e) => {
            note_error(m, &e);
            let text = error_text(&e);
            let uncertain = matches!(
                e,
                ApiError::Connect { .. }
                    | ApiError::Timeout { .. }
                    | ApiError::Server(_)
                    | ApiError::Decode { .. }
            );
            if let Some(item) = m.queue.get_mut(id) {
                item.state = match e {
                    ApiError::NotFound(_) => RowState::Gone,
                    _ if item.request.is_some() => RowState::Ready,
                    _ => RowState::Failed,
                };
                item.error = Some(if uncertain {
                    format!("{text} — outcome unknown, re-reading")
                } else {
                    text.clone()
                });
                item.reindex();
            }
            log(
                m,
                action.verb(),
                Some(id),
                label.clone(),
                Outcome::Failed(text.clone()),
            );
            fx.push(audit(m, action.verb(), id, Err(text.clone())));
            if m.bulk.is_none() {
                status(
                    m,
                    Level::Error,
                    &format!("{} {label} failed: {text}", action.verb()),
                );
            }
            // Learn the request's true state: approved or deleted elsewhere, or a write whose
            // answer was lost. Never resend the write.
            if !matches!(e, ApiError::NotFound(_) | ApiError::Unauthorized { .. }) {
                fx.extend(fetch_rows(m, &[id]));
            }
        }
    }
    if let Some(b) = m.bulk.as_mut()
        && b.ids.contains(&id)
    {
        b.done += 1;
        if !ok {
            b.failed += 1;
        }
        let (done, total, failed, act) = (b.done, b.total, b.failed, b.action);
        if done >= total {
            m.bulk = None;
            let lvl = if failed == 0 {
                Level::Success
            } else {
                Level::Error
            };
            let tail = if failed == 0 {
                String::new()
            } else {
                format!(
                    ", {failed} failed (still marked: press {} to retry)",
                    m.keymap
                        .key_for(
                            super::keymap::Scope::Queue,
                            match act {
                                RowAction::Approve => Action::Approve,
                                RowAction::Decline => Action::Decline,
                                RowAction::Delete => Action::Delete,
                            }
                        )
                        .map(|k| k.to_string())
                        .unwrap_or_default()
                )
            };
            status(
                m,
                lvl,
                &format!("{}: {} of {total} done{tail}", act.verb(), done - failed),
            );
        } else {
            status(
                m,
                Level::Info,
                &format!(
                    "{} {done}/{total}{}",
                    act.progress(),
                    if failed > 0 {
                        format!(" ({failed} failed)")
                    } else {
                        String::new()
                    }
                ),
            );
        }
    }
    fx
}
