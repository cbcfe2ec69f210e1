//! Ids added by hand: arguments, `--queue-file`, standard input, `i`, a paste anywhere;
//! and the saved queue restored at start.

use crate::app::msg::IdsFrom;
use tui_input::InputRequest;
use uuid::Uuid;

use super::tell::{log, say};
use super::{rows, scope};
use crate::app::filter::parse_ids;
use crate::app::model::{Model, Origin, Pane, Popup, QueueItem, SavedQueue, Severity};
use crate::app::msg::Effect;
use crate::i18n::Lang;

/// Invalid tokens quoted in the status line (the rest are counted).
const BAD_IDS_SHOWN: usize = 3;

/// Bracketed paste: into the focused text field, or, with none, as ids for the queue.
pub(super) fn on_paste(m: &mut Model, text: &str) -> Vec<Effect> {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let field = match m.popup.as_mut() {
        Some(p) => p.input_mut(),
        None if m.focus == Pane::Club && m.club.editing => Some(&mut m.club.input),
        // A pasted sign-in token (what the sign-in page shows) opens the sign-in pop-up
        // with it, for Enter to check: pasting it is asking to sign in. Nothing is sent yet.
        None if looks_like_token(text) => {
            let mut popup = super::connection::sign_in_popup(m, None);
            if let Some(input) = popup.input_mut() {
                for c in flat.trim().chars() {
                    input.handle(InputRequest::InsertChar(c));
                }
            }
            m.popup = Some(popup);
            return Vec::new();
        }
        // Pasting ids anywhere adds them: the quickest way to build a queue.
        None => return add_ids(m, text, &IdsFrom::Paste),
    };
    if let Some(input) = field {
        for c in flat.chars() {
            input.handle(InputRequest::InsertChar(c));
        }
    }
    if let Some(Popup::Filter { input, .. }) = m.popup.as_ref() {
        let text = input.value().to_owned();
        m.queue.set_filter(&text);
    }
    Vec::new()
}

/// True for a pasted sign-in token: a JWT (`eyJ…`, three parts), raw or after `Bearer `,
/// or the sign-in page's JSON with its `access_token` (api-notes.md), that the token parser
/// takes. Ids and other text are not.
fn looks_like_token(text: &str) -> bool {
    let t = text.trim();
    let raw = t.strip_prefix("Bearer ").unwrap_or(t);
    let jwt = raw.starts_with("eyJ") && raw.split('.').count() == 3;
    (jwt || t.starts_with('{')) && crate::api::parse_pasted_token(text).is_ok()
}

/// Adds the valid ids of `text` to the queue (a row already listed becomes one added by
/// hand) and reads them; the rest are reported, never sent.
pub(super) fn add_ids(m: &mut Model, text: &str, origin: &IdsFrom) -> Vec<Effect> {
    let (ids, bad) = parse_ids(text);
    let mut added = Vec::new();
    let mut already = 0;
    for id in ids {
        if m.queue.push(QueueItem::new(id, Origin::Manual)) {
            added.push(id);
        } else if let Some(item) = m.queue.get_mut(id) {
            already += 1;
            item.origin = Origin::Manual;
        }
    }
    m.queue.refresh_view();
    m.added_unread.extend(added.iter().copied());
    let source = origin_words(m.lang, origin);
    let mut msg = crate::tr!(
        m.lang,
        "status-ids-added",
        n = added.len(),
        origin = source.as_str()
    );
    if already > 0 {
        // Ids that were in the queue already are said to be there, not counted as added.
        let there = crate::tr!(m.lang, "status-ids-already", n = already);
        msg.push_str(&format!("; {there}"));
        // Those are read already: whether the filter hides them is known now (a new row is
        // judged once read, `hidden_words` from `fetch`).
        let queued: Vec<Uuid> = ids_there(m, text, &added);
        // First: it is what the moderator must act on, and a narrow status line cuts the end.
        if let Some(hidden) = rows::hidden_words(m, &queued) {
            msg = format!("{hidden}; {msg}");
        }
    }
    if !bad.is_empty() {
        let shown: Vec<String> = bad.iter().take(BAD_IDS_SHOWN).cloned().collect();
        let skipped = crate::tr!(
            m.lang,
            "status-ids-skipped",
            n = bad.len(),
            ids = shown.join(", ")
        );
        msg.push_str(&format!("; {skipped}"));
        // Kept in the activity log too: the status line moves on, the log does not.
        let detail = crate::tr!(m.lang, "log-ids-never-sent", ids = bad.join(", "));
        tracing::warn!("{}: {} invalid id(s) skipped", origin.english(), bad.len());
        // A sentence: "2 ids from the i dialog failed: not club request ids, never sent: …".
        let label = crate::tr!(
            m.lang,
            "log-ids-from",
            n = bad.len(),
            origin = source.as_str()
        );
        log(m, "add ids", None, label, Err(detail));
    }
    let severity = if bad.is_empty() {
        Severity::Info
    } else {
        Severity::Error
    };
    say(m, severity, &msg);
    rows::fetch_rows(m, &added)
}

/// The valid ids of `text` that were in the queue before (not in `added`).
fn ids_there(m: &Model, text: &str, added: &[Uuid]) -> Vec<Uuid> {
    parse_ids(text)
        .0
        .into_iter()
        .filter(|id| !added.contains(id) && m.queue.get(*id).is_some())
        .collect()
}

/// Clears the filter (the key offered when it hides rows added by hand): every row shows.
pub(super) fn clear_filter(m: &mut Model) -> Vec<Effect> {
    if m.queue.filter().is_empty() {
        return Vec::new();
    }
    m.queue.set_filter("");
    let text = crate::i18n::tr(m.lang, "status-filter-cleared");
    say(m, Severity::Info, &text);
    Vec::new()
}

/// Where ids came from, in `lang`; a file's path as it is (sanitised, at most 60 columns).
fn origin_words(lang: Lang, origin: &IdsFrom) -> String {
    let key = match origin {
        IdsFrom::Paste => "status-origin-paste",
        IdsFrom::Dialog => "status-origin-dialog",
        IdsFrom::Command => "status-origin-command",
        IdsFrom::Arguments => "status-origin-arguments",
        IdsFrom::Stdin => "status-origin-stdin",
        IdsFrom::File(path) => return crate::text::clean(path, 60),
    };
    crate::i18n::tr(lang, key)
}

/// Restores the saved queue of this server: ids added by hand, the filter and the sort; and
/// lists the remembered scope at once ([`scope::list_remembered`]).
pub(super) fn restore(m: &mut Model, saved: SavedQueue) -> Vec<Effect> {
    if saved.server != m.server_key {
        return Vec::new();
    }
    m.queue.set_filter(&saved.filter);
    m.queue.set_sort(saved.sort);
    let mut added = Vec::new();
    for id in &saved.manual_ids {
        if m.queue.push(QueueItem::new(*id, Origin::Manual)) {
            added.push(*id);
        }
    }
    m.queue.refresh_view();
    let filter = saved.filter.clone();
    let mut fx = scope::list_remembered(m, saved.scope.as_ref());
    // What was just read need not be written back.
    m.last_saved = Some(saved);
    // A filter nobody remembers setting would hide most of the queue without a word.
    let filter = crate::text::clean(&filter, 40);
    let text = match (added.len(), filter.trim().is_empty()) {
        (0, true) => None,
        (n, true) => Some(crate::tr!(m.lang, "status-restored-ids", n = n)),
        (0, false) => Some(crate::tr!(
            m.lang,
            "status-restored-filter",
            filter = filter
        )),
        (n, false) => Some(crate::tr!(
            m.lang,
            "status-restored-both",
            n = n,
            filter = filter
        )),
    };
    if let Some(text) = text {
        say(m, Severity::Info, &text);
    }
    fx.extend(rows::fetch_rows(m, &added));
    fx
}
