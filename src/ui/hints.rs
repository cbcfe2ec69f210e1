//! The hint bar's hints for the narrow layout and the detail pane's scroll key, and which
//! of them fit: the rest of the hint bar ([`super::footer_hints`], [`super::footer_layout`])
//! is in `ui/mod.rs`.

use super::*;

/// The narrow layout's hints: what a moderator on a phone needs in the pane shown. Without a
/// session, sign in first. Over the queue: undo (while a decision is held), approve,
/// decline, the detail, the club lookup;
/// over the detail: undo, approve, decline, back; over the club lookup: look up, back.
/// Help and quit always (pinned). Only what this session offers ([`Model::offered`]).
pub(super) fn narrow_hints(m: &Model, detail: Rect) -> Vec<Hint> {
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
    // words on a phone): its key first, pinned, and a tap on it opens the pop-up.
    if !m.has_token || m.session_expired {
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
        }
        NarrowPane::Detail => {
            decide(&mut hints);
            hints.push(hint(Action::Delete, "hint-delete", false));
            hints.push(detail_hint(m, detail));
            hints.push(Some(back));
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
pub(super) fn detail_hint(m: &Model, detail: Rect) -> Option<Hint> {
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
pub(super) fn fit_hints(mut hints: Vec<Hint>, width: usize) -> Vec<Hint> {
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
