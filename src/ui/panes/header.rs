//! The header: who is signed in, the session, the link, the server.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::model::{Connection, Loadable, Model};
use crate::text::clean;
use crate::ui::{Theme, time_left};

pub(in crate::ui) fn header(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let w = area.width as usize;
    let mut left = vec![
        Span::styled(
            " club-admin ",
            theme.bold().add_modifier(Modifier::REVERSED),
        ),
        Span::raw(" "),
    ];
    match &m.user {
        Loadable::Loaded(u) => {
            let room = w.saturating_sub(62).clamp(12, 40);
            left.push(Span::styled(
                clean(u.email.as_deref().unwrap_or("(no e-mail)"), room),
                theme.bold(),
            ));
            let mut role = clean(u.role.as_deref().unwrap_or("?"), 14);
            if u.is_admin == Some(true) {
                role.push_str(", admin");
            }
            if u.onboarded == Some(false) {
                role.push_str(", not onboarded");
            }
            left.push(Span::styled(format!(" ({role})"), theme.dim()));
            if let Some(p) = u.permissions.as_ref().filter(|p| !p.is_empty()) {
                left.push(Span::styled(
                    format!(" [{}]", clean(&p.join(","), 30)),
                    theme.dim(),
                ));
            }
        }
        Loadable::Loading => left.push(Span::styled("signing in…", theme.dim())),
        // The reason is in the status line; the header keeps room for the session state.
        Loadable::Failed(_) => left.push(Span::styled("not signed in", theme.error())),
        Loadable::NotAsked => {}
    }
    let room: usize = w.saturating_sub(left.iter().map(|s| s.width()).sum());
    let mut right: Vec<Span> = capability_notice(m, theme, room).into_iter().collect();
    if !m.has_token {
        right.push(Span::styled("no token: S to sign in", theme.warn()));
    } else if m.session_expired {
        right.push(Span::styled("session expired: S to sign in", theme.error()));
    } else if let Some(exp) = m.token_expires {
        let left_s = time_left(m.now, exp);
        let style = if left_s == "expired" {
            theme.error()
        } else {
            theme.dim()
        };
        right.push(Span::styled(format!("token {left_s}"), style));
    }
    match &m.connection {
        Connection::Online => right.push(Span::styled("  ● online", theme.success())),
        Connection::Offline(_) => right.push(Span::styled("  ○ offline", theme.error())),
        Connection::Unknown => right.push(Span::styled("  ○ connecting", theme.dim())),
    }
    if let Some(v) = &m.api_version {
        right.push(Span::styled(format!("  API {v}"), theme.dim()));
    }
    let host = m.base_url.split("://").nth(1).unwrap_or(&m.base_url);
    right.push(Span::styled(format!("  {} ", clean(host, 40)), theme.dim()));
    let right_w: usize = right.iter().map(|s| s.width()).sum();
    let left_w: usize = left.iter().map(|s| s.width()).sum();
    let mut spans = left;
    // Right-hand items in order of importance; keep as many as fit.
    let mut kept = Vec::new();
    let mut used = left_w;
    for s in right {
        if used + s.width() < w {
            used += s.width();
            kept.push(s);
        }
    }
    let _ = right_w;
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used))));
    spans.extend(kept);
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// "this server cannot approve or decline" (or "this account ..."), once, in the header,
/// while the server or the account refuses decisions (issue 13 item 2); first of the
/// right-hand items, so it is the last to give way. Where `room` (columns right of the
/// user) leaves too little beside the connection state, the short form: "no approve/decline".
fn capability_notice<'a>(m: &Model, theme: &Theme, room: usize) -> Option<Span<'a>> {
    let text = m.capabilities.header_notice()?;
    // Keep about 12 columns for "● online" after it.
    let text = if text.len() + 2 + 12 <= room {
        text
    } else {
        "no approve/decline"
    };
    Some(Span::styled(format!("{text}  "), theme.warn()))
}
