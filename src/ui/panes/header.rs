//! The header: who is signed in, the session, the link, the server.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::model::{Connection, Loadable, Model};
use crate::text::clean;
use crate::tr;
use crate::ui::theme::Theme;

/// One item of the header: how readily it gives way (lower priorities are kept first),
/// whether it sits on the right, and its forms, longest first (the shortest is used where
/// the longer do not fit).
struct Item<'a> {
    priority: u8,
    right: bool,
    forms: Vec<Span<'a>>,
}

impl<'a> Item<'a> {
    fn new(priority: u8, right: bool, forms: Vec<Span<'a>>) -> Item<'a> {
        Item {
            priority,
            right,
            forms,
        }
    }

    /// The width of its shortest form.
    fn min_width(&self) -> usize {
        self.forms.iter().map(Span::width).min().unwrap_or(0)
    }
}

/// Items of this priority or less are kept before any other gets room: the user, the
/// capability notice, the session's state and the link (priority 2), the token's time
/// left (3).
const ESSENTIAL: u8 = 3;
/// The longest the user's e-mail is shown.
const EMAIL_MAX: usize = 40;
/// The shortest the user's e-mail is cut to, where the header is that narrow: enough to
/// tell whose session it is ("ton.…").
const EMAIL_MIN: usize = 5;

/// Draws the header in one line: the title, the user's items on the left, the session, the
/// link and the server on the right. The user's e-mail has the room first (cut only where it
/// would leave no room for the session and the link), then the other items by priority;
/// what does not fit is left out, lowest priority first. Who is signed in, the link and what
/// the account cannot do stay at every width from the narrowest supported: the e-mail is cut
/// first (to [`EMAIL_MIN`]), then the title and the token's time left give way. The narrow
/// layout ([`crate::app::model::is_narrow`]) has no title and counts the pending requests.
pub(in crate::ui) fn header(frame: &mut Frame, area: Rect, m: &Model, theme: &Theme) {
    let w = area.width as usize;
    let narrow = crate::app::model::is_narrow(area.width);
    let title = Span::styled(
        " club-admin ",
        theme.bold().add_modifier(Modifier::REVERSED),
    );
    let mut left = Vec::new();
    // `--read-only` is said where the session is named, not only in the hint bar.
    if m.read_only {
        left.push(Span::styled(
            format!("{} ", crate::i18n::tr(m.lang, "header-read-only")),
            theme.warn().add_modifier(Modifier::BOLD),
        ));
    }
    let mut right = right_items(m, theme, narrow);
    // The narrow header counts the pending requests; the e-mail is cut for it where both
    // fit beside the essential items.
    let essential = |items: &[Item]| {
        items
            .iter()
            .filter(|i| i.priority <= ESSENTIAL)
            .map(Item::min_width)
            .sum::<usize>()
    };
    let mut kept_w = 0;
    if narrow {
        right.insert(0, pending_item(m, theme));
        // The e-mail keeps 12 columns where it can: the items that are not essential (the
        // pending count, which the queue's title shows too; the capability notice while
        // there is no session) give way for it, the least needed first, and the e-mail is
        // cut for those that stay.
        let shown = |right: &[Item]| {
            right
                .iter()
                .filter(|i| i.priority <= 5)
                .map(Item::min_width)
                .sum::<usize>()
        };
        while 1 + shown(&right) + 12 + 1 >= w {
            let Some(pos) = right
                .iter()
                .enumerate()
                .filter(|(_, i)| i.priority > ESSENTIAL && i.priority <= 5)
                .max_by_key(|(n, i)| (i.priority, usize::MAX - n))
                .map(|(n, _)| n)
            else {
                break;
            };
            right.remove(pos);
        }
        kept_w = shown(&right) - essential(&right);
    }
    // The title stays where the e-mail keeps 12 columns and every essential item its
    // shortest form beside it (and a blank, which `fit` keeps).
    let base: usize = left.iter().map(Span::width).sum::<usize>() + 1;
    if !narrow && base + title.width() + 1 + 12 + essential(&right) < w {
        left.insert(0, Span::raw(" "));
        left.insert(0, title);
    } else {
        left.insert(0, Span::raw(" "));
    }
    // The e-mail's room: all but the title, the shortest forms of the session, the
    // capability notice and the link, and the blank `fit` keeps.
    let taken = left.iter().map(Span::width).sum::<usize>() + essential(&right) + kept_w + 1;
    let email_room = w.saturating_sub(taken).clamp(EMAIL_MIN, EMAIL_MAX);
    let mut items = user_items(m, theme, email_room, narrow);
    items.extend(right);
    frame.render_widget(Paragraph::new(fit(left, items, w)), area);
}

/// The narrow header's count of pending requests ("3 pending"; as the queue's title counts
/// them), on the right: the e-mail is cut for it, but where even the shortest e-mail leaves
/// no room it gives way (the queue's title counts them too), never the essential items.
///
/// While the listing has pages not loaded yet, the count is the server's (as the window's
/// title says it: "64 pending", not the 50 loaded rows); once all is loaded, the queue's own.
fn pending_item<'a>(m: &Model, theme: &Theme) -> Item<'a> {
    let loaded = super::queue::pending_count(m);
    let n = match m.listing.total {
        Some(total) if m.listing.has_more => usize::try_from(total).unwrap_or(loaded).max(loaded),
        _ => loaded,
    };
    let text = format!("{}  ", tr!(m.lang, "queue-count-pending", n = n));
    Item::new(5, true, vec![Span::styled(text, theme.warn())])
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

/// The left-hand items: the user's e-mail in at most `email_room` columns (priority 1),
/// role (4) and permissions (7); or "signing in…" / "not signed in" while there is no user.
/// The role, "admin" and "not onboarded" are in the reader's language ([`role_text`]); where
/// the role does not fit, its short form leaves out the server's role word: "(admin)".
fn user_items<'a>(m: &Model, theme: &Theme, email_room: usize, narrow: bool) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    match &m.user {
        Loadable::Loaded(u) => {
            // Cut further where even `email_room` leaves no room for the essential items.
            let forms: Vec<String> = match u.email.as_deref() {
                Some(e) => {
                    let mut forms = vec![clean(e, email_room)];
                    for room in [12, 8, EMAIL_MIN] {
                        if room < email_room {
                            forms.push(clean(e, room));
                        }
                    }
                    forms.dedup();
                    forms
                }
                None => vec![tr!(m.lang, "header-no-email")],
            };
            let forms = forms.into_iter().map(|f| Span::styled(f, theme.bold()));
            items.push(Item::new(1, false, forms.collect()));
            if narrow {
                return items;
            }
            let mut extra = Vec::new();
            if u.is_admin == Some(true) {
                extra.push(tr!(m.lang, "header-role-admin"));
            }
            if u.onboarded == Some(false) {
                extra.push(tr!(m.lang, "header-role-not-onboarded"));
            }
            let role = role_text(m.lang, u.role.as_deref());
            let full = std::iter::once(role).chain(extra.iter().cloned());
            let mut forms = vec![format!(" ({})", full.collect::<Vec<_>>().join(", "))];
            if !extra.is_empty() {
                forms.push(format!(" ({})", extra.join(", ")));
            }
            let forms = forms.into_iter().map(|f| Span::styled(f, theme.dim()));
            items.push(Item::new(4, false, forms.collect()));
            if let Some(p) = u.permissions.as_ref().filter(|p| !p.is_empty()) {
                let perms = format!(" [{}]", clean(&p.join(","), 30));
                items.push(Item::new(7, false, vec![Span::styled(perms, theme.dim())]));
            }
        }
        Loadable::Loading => {
            let text = tr!(m.lang, "header-signing-in");
            items.push(Item::new(1, false, vec![Span::styled(text, theme.dim())]));
        }
        // The reason is in the status line; the header keeps room for the session state.
        Loadable::Failed(_) => {
            let text = tr!(m.lang, "header-not-signed-in");
            items.push(Item::new(1, false, vec![Span::styled(text, theme.error())]));
        }
        Loadable::NotAsked => {}
    }
    items
}

/// The right-hand items: the capability notice, the session's state and the link
/// (priority 2), the token's time left (3), the API version (5), the host (6); the narrow
/// layout leaves out the version and the host.
fn right_items<'a>(m: &Model, theme: &Theme, narrow: bool) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    if let Some(mut forms) = capability_notice(m, theme) {
        // A phone's header has room for the short form only; with no session (expired, no
        // token: nothing can be done before a sign-in) the notice gives way to who and the
        // session's state where all three do not fit.
        let mut priority = 2;
        if narrow {
            forms.remove(0);
            if !m.has_session() {
                priority = 4;
            }
        }
        items.push(Item::new(priority, true, forms));
    }
    if let Some((state, mut forms)) = session(m, theme) {
        // A phone's header says the state in its short form ("expired"; the status line
        // says to press S).
        if narrow && state && forms.len() > 1 {
            forms.remove(0);
        }
        // On a phone the token's time gives way to the pending count.
        let time = if narrow { 6 } else { 3 };
        items.push(Item::new(if state { 2 } else { time }, true, forms));
    }
    let (mark, key, style) = match &m.connection {
        Connection::Online => ("●", "header-online", theme.success()),
        Connection::Offline(_) => ("○", "header-offline", theme.error()),
        Connection::Unknown => ("○", "header-connecting", theme.dim()),
    };
    let link = Span::styled(format!("  {mark} {}", tr!(m.lang, key)), style);
    items.push(Item::new(2, true, vec![link]));
    if narrow {
        return items;
    }
    // "API" is the same word in both languages.
    if let Some(v) = &m.api_version {
        let version = Span::styled(format!("  API {v}"), theme.dim());
        items.push(Item::new(5, true, vec![version]));
    }
    let host = m.base_url.split("://").nth(1).unwrap_or(&m.base_url);
    let host = Span::styled(format!("  {} ", clean(host, 40)), theme.dim());
    items.push(Item::new(6, true, vec![host]));
    items
}

/// Fits `items` after `left` into `w` columns, leaving at least one blank: kept by priority
/// while they fit, each in its longest form that fits beside the shortest forms of the
/// essential items ([`ESSENTIAL`]) not yet placed; shown in their order, the left-hand ones
/// after `left`, the right-hand ones flush right. Once an item does not fit, no item of a
/// lower priority takes its place: the role is not left out for the API version when
/// longer (Thai) words take the room.
fn fit<'a>(left: Vec<Span<'a>>, items: Vec<Item<'a>>, w: usize) -> Line<'a> {
    let mut used: usize = left.iter().map(Span::width).sum();
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| items[i].priority);
    let mut chosen: Vec<Option<usize>> = vec![None; items.len()];
    let mut dropped: Option<u8> = None;
    for (n, &i) in order.iter().enumerate() {
        let priority = items[i].priority;
        if dropped.is_some_and(|d| priority > d) {
            break;
        }
        let reserve: usize = order[n + 1..]
            .iter()
            .filter(|&&j| items[j].priority <= ESSENTIAL)
            .map(|&j| items[j].min_width())
            .sum();
        let form = items[i]
            .forms
            .iter()
            .position(|f| used + f.width() + reserve < w);
        match form {
            Some(f) => {
                used += items[i].forms[f].width();
                chosen[i] = Some(f);
            }
            // An essential item that cannot fit (the token's time beside a long notice)
            // does not take the others with it.
            None if priority <= ESSENTIAL => {}
            None => dropped = Some(priority),
        }
    }
    let (mut l, mut r) = (Vec::new(), Vec::new());
    for (item, form) in items.into_iter().zip(chosen) {
        let Some(span) = form.and_then(|f| item.forms.into_iter().nth(f)) else {
            continue;
        };
        if item.right {
            r.push(span)
        } else {
            l.push(span)
        }
    }
    let mut spans = left;
    spans.extend(l);
    spans.push(Span::raw(" ".repeat(w.saturating_sub(used))));
    spans.extend(r);
    Line::from(spans)
}

/// The session: its state (`true`: no token, or expired as the server says or by the
/// token's own expiry, in a long and a short form) or the time the token has left
/// (`false`).
fn session<'a>(m: &Model, theme: &Theme) -> Option<(bool, Vec<Span<'a>>)> {
    let state = |long: &str, short: &str, style| {
        let forms = [tr!(m.lang, long), tr!(m.lang, short)].map(|t| Span::styled(t, style));
        Some((true, forms.into()))
    };
    if !m.has_token {
        return state("header-no-token", "header-no-token-short", theme.warn());
    }
    // The server said so, or the token's own expiry has passed (every call would be
    // refused now): the same state, with the key that signs in.
    if !m.has_session() {
        return state(
            "header-session-expired",
            "header-session-expired-short",
            theme.error(),
        );
    }
    let exp = m.token_expires?;
    let left = crate::i18n::dates::time_left(m.lang, m.now, exp);
    let text = tr!(m.lang, "header-token", left = left);
    Some((false, vec![Span::styled(text, theme.dim())]))
}

/// "this server cannot approve or decline" (or "this account ..."), once, in the header,
/// while the server or the account refuses decisions; first of the
/// right-hand items, so it is the last to give way. Its forms: the long one, and the short
/// one for a narrow header ("no approve/decline"). The words are
/// [`crate::app::model::Capabilities::header_notice_in`]'s.
///
/// An account the service's rules never let decide ([`Model::permit`]: a teacher, an
/// administrator, a student on the staff of no club) is shown first, before any key:
/// "review only: teachers and administrators review; only club staff students decide"
/// (short: "review only").
fn capability_notice<'a>(m: &Model, theme: &Theme) -> Option<Vec<Span<'a>>> {
    use crate::ops::permit::Write;
    if let Err(why) = m.permit(Write::Decide, None) {
        let why = crate::i18n::tr(m.lang, why.key(Write::Decide));
        let long = tr!(m.lang, "header-review-only", why = why);
        let short = tr!(m.lang, "header-review-only-short");
        let forms = [long, short].map(|t| Span::styled(format!("{t}  "), theme.warn()));
        return Some(forms.into());
    }
    let long = m.capabilities.header_notice_in(m.lang)?;
    let short = tr!(m.lang, "header-cannot-decide-short");
    let forms = [long, short].map(|t| Span::styled(format!("{t}  "), theme.warn()));
    Some(forms.into())
}
