//! Pop-up keys: the pop-up's own key table says what a key does ([`Popup::op_for`]); keys
//! it does not name go to its text field. Submitting runs what the pop-up is for.

use super::tell::say;
use super::{bulk, club, commands, held, ids, listing};
use crate::api::parse_pasted_token;
use crate::app::key::{Key, edit};
use crate::app::model::{Model, Popup, PopupOp, Severity, popup};
use crate::app::msg::Effect;
use crate::app::msg::IdsFrom;

/// A key while a pop-up is open.
pub(super) fn on_popup_key(m: &mut Model, k: Key) -> Vec<Effect> {
    let Some(popup) = m.popup.as_mut() else {
        return Vec::new();
    };
    match popup.op_for_layout(&k, m.thai_keys) {
        Some(op) => {
            let fx = apply(m, op);
            m.clamp_scrolls();
            fx
        }
        None if starts_token_with_sign_in_key(m, &k) => Vec::new(),
        None => {
            let Some(popup) = m.popup.as_mut() else {
                return Vec::new();
            };
            let edited = popup.input_mut().is_some_and(|input| edit(input, &k));
            if edited {
                after_edit(m);
            }
            Vec::new()
        }
    }
}

/// True for the key that opens the sign-in pop-up (`S`) typed into its empty token field:
/// the moderator pressed it twice, or before the pop-up was drawn. A token never starts with
/// it (a JWT starts `eyJ`, the sign-in page's JSON with `{`), so it is not typed.
fn starts_token_with_sign_in_key(m: &Model, k: &Key) -> bool {
    let Some(Popup::SignIn { input, .. }) = m.popup.as_ref() else {
        return false;
    };
    input.value().is_empty() && m.action_for(k) == Some(crate::app::keymap::Action::SignIn)
}

/// Keeps what follows the text as it is typed: the filter applies at once, the help
/// scrolls back to the top, the sign-in error goes.
fn after_edit(m: &mut Model) {
    match m.popup.as_mut() {
        Some(Popup::Filter { input, .. }) => {
            let text = input.value().to_owned();
            m.queue.set_filter(&text);
        }
        Some(Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => *scroll = 0,
        Some(Popup::SignIn { error, .. }) => *error = None,
        Some(
            Popup::AddIds { .. }
            | Popup::Command { .. }
            | Popup::AddContact { .. }
            | Popup::Confirm { .. }
            | Popup::Term { .. }
            | Popup::QuitHeld
            | Popup::ResumeHeld,
        )
        | None => {}
    }
}

fn apply(m: &mut Model, op: PopupOp) -> Vec<Effect> {
    let Some(popup) = m.popup.as_mut() else {
        return Vec::new();
    };
    match (op, popup) {
        (PopupOp::ScrollUp, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => {
            *scroll = scroll.saturating_sub(1)
        }
        (PopupOp::ScrollDown, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => {
            *scroll = scroll.saturating_add(1)
        }
        (PopupOp::PageUp, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => {
            *scroll = scroll.saturating_sub(10)
        }
        (PopupOp::PageDown, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => {
            *scroll = scroll.saturating_add(10)
        }
        (PopupOp::Home, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => *scroll = 0,
        (PopupOp::End, Popup::Help { scroll, .. } | Popup::History { scroll, .. }) => {
            *scroll = u16::MAX
        }
        (op, Popup::Term { scroll }) if op != PopupOp::Close => super::term::scroll(op, scroll),
        (PopupOp::Toggle, Popup::Confirm { on_confirm, .. }) => *on_confirm = !*on_confirm,
        (PopupOp::Press, Popup::Confirm { on_confirm, .. }) => {
            let yes = *on_confirm;
            return apply(m, if yes { PopupOp::Yes } else { PopupOp::No });
        }
        (PopupOp::Yes, Popup::Confirm { .. }) => {
            if let Some(Popup::Confirm { action, ids, .. }) = m.popup.take() {
                return bulk::run_confirmed(m, action, ids);
            }
        }
        (PopupOp::No, Popup::Confirm { action, .. }) => {
            let text = popup::confirm_cancelled(m.lang, *action);
            m.popup = None;
            say(m, Severity::Info, &text);
        }
        (
            PopupOp::ToggleSave,
            Popup::SignIn {
                save,
                can_save,
                error,
                ..
            },
        ) => {
            *save = !*save && *can_save;
            *error = None;
        }
        (PopupOp::CopyAddress, Popup::SignIn { .. }) => {
            let url = m.sign_in_url.clone();
            let text = crate::tr!(m.lang, "status-copied-address", url = url.as_str());
            say(m, Severity::Info, &text);
            return vec![Effect::Copy(url)];
        }
        (PopupOp::NextField, Popup::AddContact { on_value, .. }) => *on_value = !*on_value,
        (PopupOp::PrevKind, Popup::AddContact { kind, .. }) => {
            let n = Popup::contact_types().len();
            *kind = (*kind + n - 1) % n;
        }
        (PopupOp::NextKind, Popup::AddContact { kind, .. }) => {
            *kind = (*kind + 1) % Popup::contact_types().len();
        }
        (PopupOp::SendHeld, Popup::QuitHeld) => return held::send_now_and_quit(m),
        (PopupOp::DiscardHeld, Popup::QuitHeld) => return held::discard_and_quit(m),
        (PopupOp::SendHeld, Popup::ResumeHeld) => return held::resume_send(m),
        (PopupOp::HoldAgain, Popup::ResumeHeld) => return held::resume_hold(m),
        (PopupOp::DiscardHeld, Popup::ResumeHeld) => return held::resume_discard(m),
        (PopupOp::Close, _) => close(m),
        (PopupOp::Submit, _) => return submit(m),
        (op, p) => tracing::warn!("pop-up op {op:?} has no meaning in {p:?}"),
    }
    Vec::new()
}

/// Closes the pop-up without doing anything.
fn close(m: &mut Model) {
    match m.popup.take() {
        Some(Popup::Filter { before, .. }) => m.queue.set_filter(&before),
        Some(Popup::SignIn { .. }) if m.session_expired => {
            let text = crate::i18n::tr(m.lang, "popup-not-signed-in");
            say(m, Severity::Error, &text);
        }
        Some(
            Popup::SignIn { .. }
            | Popup::Help { .. }
            | Popup::History { .. }
            | Popup::Term { .. }
            | Popup::Confirm { .. }
            | Popup::AddIds { .. }
            | Popup::Command { .. }
            | Popup::AddContact { .. }
            | Popup::QuitHeld
            | Popup::ResumeHeld,
        )
        | None => {}
    }
}

/// Runs what the pop-up is for.
fn submit(m: &mut Model) -> Vec<Effect> {
    match m.popup.as_mut() {
        Some(Popup::AddIds { input }) => {
            let text = input.value().to_owned();
            let (found, bad) = crate::app::filter::parse_ids(&text);
            if found.is_empty() {
                // Nothing usable: say so and keep the text for correcting.
                let msg = popup::add_ids_refusal(m.lang, &bad);
                say(m, Severity::Error, &msg);
                return Vec::new();
            }
            m.popup = None;
            ids::add_ids(m, &text, &IdsFrom::Dialog)
        }
        Some(Popup::SignIn { input, save, .. }) => {
            let save = *save;
            match parse_pasted_token(input.value()) {
                Ok(token) => {
                    m.popup = None;
                    super::signin::sign_in(m, token, save)
                }
                Err(e) => {
                    let why = popup::token_refusal(m.lang, &e);
                    if let Some(Popup::SignIn { input, error, .. }) = m.popup.as_mut() {
                        *input = tui_input::Input::default();
                        *error = Some(why);
                    }
                    Vec::new()
                }
            }
        }
        Some(Popup::Command { input }) => {
            let text = input.value().to_owned();
            m.popup = None;
            commands::run_command(m, &text)
        }
        Some(Popup::Filter { input, .. }) => {
            let text = input.value().trim().to_owned();
            m.popup = None;
            m.queue.set_filter(&text);
            if text.is_empty() {
                let said = crate::i18n::tr(m.lang, "status-filter-cleared");
                say(m, Severity::Info, &said);
            } else {
                let said = super::tell::filter_applied(m);
                say(m, Severity::Info, &said);
                if let Some(n) = m.notice.as_mut() {
                    n.about_filter = Some(m.queue.filter().to_owned());
                }
            }
            listing::prefetch(m)
        }
        Some(Popup::AddContact { .. }) => club::submit_contact(m),
        Some(
            Popup::Help { .. }
            | Popup::History { .. }
            | Popup::Term { .. }
            | Popup::Confirm { .. }
            | Popup::QuitHeld
            | Popup::ResumeHeld,
        )
        | None => Vec::new(),
    }
}
