//! The header: who is signed in, the session, the link, the server.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::model::{Connection, Loadable, Model};
use crate::text::{clean, width};
use crate::tr;
use crate::ui::Theme;

/// One item of the header: (priority, on the right, span); lower priorities are kept first
/// when the line is short.
type Item<'a> = (u8, bool, Span<'a>);

/// Draws the header in one line: the title, the user's items on the left, the session, the
/// link and the server on the right; what does not fit is left out, lowest priority first.
pub(in crate::ui) fn header(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let w = area.width as usize;
    let left = vec![
        Span::styled(
            " club-admin ",
            theme.bold().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    let mut items = user_items(m, theme, w);
    // What is kept before the notice: the title, the user (the session is added there).
    let before: usize = left.iter().map(|s| s.width()).sum::<usize>()
        + items
            .iter()
            .filter(|i| i.0 == 1)
            .map(|i| i.2.width())
            .sum::<usize>();
    items.extend(right_items(m, theme, w, before));
    frame.render_widget(Paragraph::new(fit(left, items, w)), area);
}

/// The user's role in `lang`: one of `student`, `teacher`, `organization`, `staff`,
/// `management` (deployed behaviour, api-notes.md: User) as `header-role-*`; any other value
/// as the server wrote it (sanitised, at most 14 columns); `?` when the server gave none.
fn role_text(lang: crate::i18n::Lang, role: Option<&str>) -> String {
    match role {
        Some(r @ ("student" | "teacher" | "organization" | "staff" | "management")) => {
            tr!(lang, "header-role", role = r)
        }
        Some(other) => clean(other, 14),
        None => "?".into(),
    }
}

/// The left-hand items: the user's e-mail (priority 1), role (4) and permissions (7); or
/// "signing in…" / "not signed in" while there is no user. The role, "admin" and "not
/// onboarded" are in the reader's language ([`role_text`]).
fn user_items<'a>(m: &Model, theme: &Theme, w: usize) -> Vec<Item<'a>> {
    let mut items: Vec<Item> = Vec::new();
    match &m.user {
        Loadable::Loaded(u) => {
            let room = w.saturating_sub(62).clamp(12, 40);
            let email = match u.email.as_deref() {
                Some(e) => clean(e, room),
                None => tr!(m.lang, "header-no-email"),
            };
            items.push((1, false, Span::styled(email, theme.bold())));
            let mut role = role_text(m.lang, u.role.as_deref());
            if u.is_admin == Some(true) {
                role.push_str(", ");
                role.push_str(&tr!(m.lang, "header-role-admin"));
            }
            if u.onboarded == Some(false) {
                role.push_str(", ");
                role.push_str(&tr!(m.lang, "header-role-not-onboarded"));
            }
            items.push((4, false, Span::styled(format!(" ({role})"), theme.dim())));
            if let Some(p) = u.permissions.as_ref().filter(|p| !p.is_empty()) {
                let perms = format!(" [{}]", clean(&p.join(","), 30));
                items.push((7, false, Span::styled(perms, theme.dim())));
            }
        }
        Loadable::Loading => {
            let text = tr!(m.lang, "header-signing-in");
            items.push((1, false, Span::styled(text, theme.dim())));
        }
        // The reason is in the status line; the header keeps room for the session state.
        Loadable::Failed(_) => {
            let text = tr!(m.lang, "header-not-signed-in");
            items.push((1, false, Span::styled(text, theme.error())));
        }
        Loadable::NotAsked => {}
    }
    items
}

/// The right-hand items: the capability notice and the session (priority 2), the link (3),
/// the API version (5), the host (6). `before` is the width of the title and the user.
fn right_items<'a>(m: &Model, theme: &Theme, w: usize, before: usize) -> Vec<Item<'a>> {
    let mut items: Vec<Item> = Vec::new();
    let session = session(m, theme);
    let taken = before + session.as_ref().map_or(0, |s| s.width());
    if let Some(n) = capability_notice(m, theme, w.saturating_sub(taken)) {
        items.push((2, true, n));
    }
    if let Some(s) = session {
        items.push((2, true, s));
    }
    let (mark, key, style) = match &m.connection {
        Connection::Online => ("●", "header-online", theme.success()),
        Connection::Offline(_) => ("○", "header-offline", theme.error()),
        Connection::Unknown => ("○", "header-connecting", theme.dim()),
    };
    let link = Span::styled(format!("  {mark} {}", tr!(m.lang, key)), style);
    items.push((3, true, link));
    // "API" is the same word in both languages.
    if let Some(v) = &m.api_version {
        items.push((5, true, Span::styled(format!("  API {v}"), theme.dim())));
    }
    let host = m.base_url.split("://").nth(1).unwrap_or(&m.base_url);
    items.push((
        6,
        true,
        Span::styled(format!("  {} ", clean(host, 40)), theme.dim()),
    ));
    items
}

/// Fits `items` after `left` into `w` columns: kept by priority while they fit, in their
/// order, the left-hand ones after `left`, the right-hand ones flush right. Once an item
/// does not fit, no item of a lower priority takes its place: the role is not left out for
/// the API version when longer (Thai) words take the room.
fn fit<'a>(left: Vec<Span<'a>>, items: Vec<Item<'a>>, w: usize) -> Line<'a> {
    let mut used: usize = left.iter().map(|s| s.width()).sum();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| items[i].0);
    let mut keep = vec![false; items.len()];
    let mut dropped: Option<u8> = None;
    for i in order {
        let (priority, _, span) = &items[i];
        if dropped.is_some_and(|d| *priority > d) {
            break;
        }
        let sw = span.width();
        if used + sw < w {
            used += sw;
            keep[i] = true;
        } else {
            dropped = Some(*priority);
        }
    }
    let (mut l, mut r) = (Vec::new(), Vec::new());
    for (i, (_, right, span)) in items.into_iter().enumerate() {
        if keep[i] {
            if right { r.push(span) } else { l.push(span) }
        }
    }
    let mut spans = left;
    spans.extend(l);
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used))));
    spans.extend(r);
    Line::from(spans)
}

/// The session's state: no token, expired, or the time the token has left.
fn session<'a>(m: &Model, theme: &Theme) -> Option<Span<'a>> {
    if !m.has_token {
        return Some(Span::styled(tr!(m.lang, "header-no-token"), theme.warn()));
    }
    if m.session_expired {
        let text = tr!(m.lang, "header-session-expired");
        return Some(Span::styled(text, theme.error()));
    }
    let exp = m.token_expires?;
    let left = crate::i18n::dates::time_left(m.lang, m.now, exp);
    let style = if exp <= m.now {
        theme.error()
    } else {
        theme.dim()
    };
    Some(Span::styled(
        tr!(m.lang, "header-token", left = left),
        style,
    ))
}

/// "this server cannot approve or decline" (or "this account ..."), once, in the header,
/// while the server or the account refuses decisions (issue 13 item 2); first of the
/// right-hand items, so it is the last to give way. Where `room` (columns right of the
/// user) leaves too little beside the connection state, the short form: "no approve/decline".
/// The words are [`crate::app::model::Capabilities::header_notice_in`]'s.
fn capability_notice<'a>(m: &Model, theme: &Theme, room: usize) -> Option<Span<'a>> {
    let text = m.capabilities.header_notice_in(m.lang)?;
    // Keep about 12 columns for "● online" after it.
    let text = if width(&text) + 2 + 12 <= room {
        text
    } else {
        tr!(m.lang, "header-cannot-decide-short")
    };
    Some(Span::styled(format!("{text}  "), theme.warn()))
}
