//! Pop-ups over the panes. Each pop-up is a small component: one table of its keys gives
//! what a key does ([`Popup::op_for`]), the hint bar ([`Popup::hints`]) and its lines in the
//! help ([`help_sections`]), so a hint can never offer a key that does nothing. Keys no
//! table names go to the pop-up's text field, when it has one with focus.
//!
//! The tables hold locale keys, not words: `assets/locales/{en,th}/popups.ftl` gives them in
//! the reader's language. The words that depend on a decision, a count or a name
//! (confirmations, the quit question, refusals) are built by the functions of `texts`,
//! re-exported here ([`confirm_many`], [`contact_refusal`] …).

mod texts;

use tui_input::Input;
use uuid::Uuid;

use super::row::RowAction;
use crate::api::ContactType;
use crate::app::key::{Key, KeyCode};
use crate::i18n::{Lang, tr};

pub use texts::*;

/// What a key does in a pop-up. `update` applies it (see `update::popups`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PopupOp {
    /// Close without doing anything (the filter goes back to what it was).
    Close,
    /// Run what the pop-up is for (add ids, sign in, run the command, keep the filter,
    /// add the contact).
    Submit,
    /// Confirmation: yes.
    Yes,
    /// Confirmation: no.
    No,
    /// Confirmation: press the button with focus.
    Press,
    /// Confirmation: move focus to the other button.
    Toggle,
    /// Sign-in: turn saving the token on or off.
    ToggleSave,
    /// Sign-in: copy the sign-in address to the clipboard (OSC 52, over SSH too): a phone
    /// user opens it in the phone's browser.
    CopyAddress,
    /// New contact: move focus between the type picker and the value.
    NextField,
    /// New contact: previous contact type.
    PrevKind,
    /// New contact: next contact type.
    NextKind,
    /// Help: scroll one line up.
    ScrollUp,
    /// Help: scroll one line down.
    ScrollDown,
    /// Help: scroll ten lines up.
    PageUp,
    /// Help: scroll ten lines down.
    PageDown,
    /// Help: to the first line.
    Home,
    /// Help: to the last line.
    End,
    /// Quitting with decisions held: send them now, quit once answered.
    SendHeld,
    /// Quitting with decisions held: discard them (never sent, audited `undone`) and quit.
    DiscardHeld,
    /// Back from a suspend with decisions whose time ran out: hold them for a new grace
    /// period.
    HoldAgain,
}

/// One row of a pop-up's key table. The words are locale keys (`popup-hint-*`,
/// `popup-help-*` in `assets/locales/*/popups.ftl`), looked up in the reader's language by
/// [`PopupKey::hint_in`] and [`PopupKey::help_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PopupKey {
    /// The keys (empty for typing into the field).
    pub keys: &'static [Key],
    /// The keys as the hint bar and help show them; empty for typing into the field (shown
    /// as the word for typing, see [`PopupKey::shown_in`]).
    pub shown: &'static str,
    /// Locale key of the short label for the hint bar; empty: not in the hint bar.
    pub hint: &'static str,
    /// Locale key of the longer text for the help.
    pub help: &'static str,
    /// What it does; `None` for typing into the field.
    pub op: Option<PopupOp>,
}

impl PopupKey {
    /// The keys as shown (`Enter`, `n/Esc`), or the word for typing ("type", "พิมพ์").
    pub fn shown_in(&self, lang: Lang) -> String {
        if self.shown.is_empty() {
            tr(lang, "popup-key-type")
        } else {
            self.shown.to_owned()
        }
    }

    /// The hint bar label in `lang`; `None` when the row is not in the hint bar.
    pub fn hint_in(&self, lang: Lang) -> Option<String> {
        (!self.hint.is_empty()).then(|| tr(lang, self.hint))
    }

    /// The help text in `lang`.
    pub fn help_in(&self, lang: Lang) -> String {
        tr(lang, self.help)
    }
}

const fn pk(
    keys: &'static [Key],
    shown: &'static str,
    hint: &'static str,
    help: &'static str,
    op: PopupOp,
) -> PopupKey {
    PopupKey {
        keys,
        shown,
        hint,
        help,
        op: Some(op),
    }
}

const fn typing(hint: &'static str, help: &'static str) -> PopupKey {
    PopupKey {
        keys: &[],
        shown: "",
        hint,
        help,
        op: None,
    }
}

const ESC: Key = Key::new(KeyCode::Esc);
const ENTER: Key = Key::new(KeyCode::Enter);
const TAB: Key = Key::new(KeyCode::Tab);
const BACKTAB: Key = Key::new(KeyCode::BackTab);
const LEFT: Key = Key::new(KeyCode::Left);
const RIGHT: Key = Key::new(KeyCode::Right);
const UP: Key = Key::new(KeyCode::Up);
const DOWN: Key = Key::new(KeyCode::Down);

/// The help's keys. `?` closes it only while the search is empty (once something is typed,
/// a `?` is part of the search: see [`Popup::op_for`]).
/// The keys of a searchable pop-up (the help, the history): typing searches, the arrows
/// and pages scroll, `$close` closes.
macro_rules! searchable_keys {
    ($close:expr) => {
        &[
            typing("popup-hint-search", "popup-help-type-search"),
            pk(
                &[UP],
                "↑/↓",
                "popup-hint-scroll",
                "popup-help-scroll-up",
                PopupOp::ScrollUp,
            ),
            pk(
                &[DOWN],
                "↓",
                "",
                "popup-help-scroll-down",
                PopupOp::ScrollDown,
            ),
            pk(
                &[Key::new(KeyCode::PageUp)],
                "PgUp",
                "",
                "popup-help-page-up",
                PopupOp::PageUp,
            ),
            pk(
                &[Key::new(KeyCode::PageDown)],
                "PgDn",
                "",
                "popup-help-page-down",
                PopupOp::PageDown,
            ),
            pk(
                &[Key::new(KeyCode::Home)],
                "Home",
                "",
                "popup-help-home",
                PopupOp::Home,
            ),
            pk(
                &[Key::new(KeyCode::End)],
                "End",
                "",
                "popup-help-end",
                PopupOp::End,
            ),
            $close,
        ]
    };
}

const HELP_KEYS: &[PopupKey] = searchable_keys!(pk(
    &[ESC, Key::char('?')],
    "Esc/?",
    "popup-hint-close",
    "popup-help-close-help",
    PopupOp::Close,
));
/// The history's keys: the help's, closed by Esc or `H` again.
const HISTORY_KEYS: &[PopupKey] = searchable_keys!(pk(
    &[ESC, Key::char('H')],
    "Esc/H",
    "popup-hint-close",
    "popup-help-close-history",
    PopupOp::Close,
));
/// The term view's keys: the arrows, `j`/`k` and pages scroll, Esc or `T` closes.
const TERM_KEYS: &[PopupKey] = &[
    pk(
        &[UP, Key::char('k')],
        "↑/↓",
        "popup-hint-scroll",
        "popup-help-scroll-up",
        PopupOp::ScrollUp,
    ),
    pk(
        &[DOWN, Key::char('j')],
        "↓",
        "",
        "popup-help-scroll-down",
        PopupOp::ScrollDown,
    ),
    pk(
        &[Key::new(KeyCode::PageUp)],
        "PgUp",
        "",
        "popup-help-page-up",
        PopupOp::PageUp,
    ),
    pk(
        &[Key::new(KeyCode::PageDown), Key::char(' ')],
        "PgDn",
        "",
        "popup-help-page-down",
        PopupOp::PageDown,
    ),
    pk(
        &[Key::new(KeyCode::Home), Key::char('g')],
        "Home",
        "",
        "popup-help-home",
        PopupOp::Home,
    ),
    pk(
        &[Key::new(KeyCode::End), Key::char('G')],
        "End",
        "",
        "popup-help-end",
        PopupOp::End,
    ),
    pk(
        &[ESC, Key::char('T'), Key::char('q')],
        "Esc/T",
        "popup-hint-close",
        "popup-help-close-term",
        PopupOp::Close,
    ),
];
const CONFIRM_KEYS: &[PopupKey] = &[
    pk(
        &[Key::char('y'), Key::char('Y')],
        "y",
        "popup-hint-confirm",
        "popup-help-confirm",
        PopupOp::Yes,
    ),
    pk(
        &[Key::char('n'), Key::char('N'), ESC],
        "n/Esc",
        "popup-hint-cancel",
        "popup-help-cancel",
        PopupOp::No,
    ),
    pk(
        &[LEFT, RIGHT, TAB, BACKTAB, Key::char('h'), Key::char('l')],
        "←/→",
        "popup-hint-choose",
        "popup-help-choose",
        PopupOp::Toggle,
    ),
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-press",
        "popup-help-press",
        PopupOp::Press,
    ),
];
const ADD_IDS_KEYS: &[PopupKey] = &[
    typing("popup-hint-ids", "popup-help-type-ids"),
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-add",
        "popup-help-add-ids",
        PopupOp::Submit,
    ),
    pk(
        &[ESC],
        "Esc",
        "popup-hint-cancel",
        "popup-help-close-no-add",
        PopupOp::Close,
    ),
];
const SIGN_IN_SUBMIT: PopupKey = pk(
    &[ENTER],
    "Enter",
    "popup-hint-sign-in",
    "popup-help-sign-in",
    PopupOp::Submit,
);
const SIGN_IN_CLOSE: PopupKey = pk(
    &[ESC],
    "Esc",
    "popup-hint-cancel",
    "popup-help-close-no-sign-in",
    PopupOp::Close,
);
const SIGN_IN_COPY: PopupKey = pk(
    &[Key::ctrl('y')],
    "Ctrl-Y",
    "popup-hint-copy-address",
    "popup-help-copy-address",
    PopupOp::CopyAddress,
);
const SIGN_IN_KEYS: &[PopupKey] = &[
    SIGN_IN_SUBMIT,
    pk(
        &[TAB],
        "Tab",
        "popup-hint-toggle-save",
        "popup-help-toggle-save",
        PopupOp::ToggleSave,
    ),
    SIGN_IN_COPY,
    SIGN_IN_CLOSE,
];
const SIGN_IN_KEYS_NO_SAVE: &[PopupKey] = &[SIGN_IN_SUBMIT, SIGN_IN_COPY, SIGN_IN_CLOSE];
const COMMAND_KEYS: &[PopupKey] = &[
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-run",
        "popup-help-run",
        PopupOp::Submit,
    ),
    pk(
        &[ESC],
        "Esc",
        "popup-hint-cancel",
        "popup-help-close-no-run",
        PopupOp::Close,
    ),
];
const FILTER_KEYS: &[PopupKey] = &[
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-keep",
        "popup-help-keep-filter",
        PopupOp::Submit,
    ),
    pk(
        &[ESC],
        "Esc",
        "popup-hint-undo",
        "popup-help-filter-before",
        PopupOp::Close,
    ),
];
const CONTACT_SWITCH: PopupKey = pk(
    &[TAB, BACKTAB],
    "Tab",
    "popup-hint-type-value",
    "popup-help-type-value",
    PopupOp::NextField,
);
const CONTACT_CLOSE: PopupKey = pk(
    &[ESC],
    "Esc",
    "popup-hint-cancel",
    "popup-help-close-no-add",
    PopupOp::Close,
);
const CONTACT_PICKER_KEYS: &[PopupKey] = &[
    CONTACT_SWITCH,
    pk(
        &[LEFT, UP, Key::char('h'), Key::char('k')],
        "←",
        "",
        "popup-help-prev-type",
        PopupOp::PrevKind,
    ),
    pk(
        &[RIGHT, DOWN, Key::char('l'), Key::char('j')],
        "→",
        "popup-hint-type",
        "popup-help-next-type",
        PopupOp::NextKind,
    ),
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-value",
        "popup-help-to-value",
        PopupOp::NextField,
    ),
    CONTACT_CLOSE,
];
const CONTACT_VALUE_KEYS: &[PopupKey] = &[
    CONTACT_SWITCH,
    pk(
        &[ENTER],
        "Enter",
        "popup-hint-add",
        "popup-help-add-contact",
        PopupOp::Submit,
    ),
    CONTACT_CLOSE,
];

const QUIT_HELD_KEYS: &[PopupKey] = &[
    pk(
        &[Key::char('s'), Key::char('S')],
        "s",
        "popup-hint-send-quit",
        "popup-help-send-held",
        PopupOp::SendHeld,
    ),
    pk(
        &[Key::char('d'), Key::char('D')],
        "d",
        "popup-hint-discard-quit",
        "popup-help-discard-held",
        PopupOp::DiscardHeld,
    ),
    pk(
        &[ESC, Key::char('n'), Key::char('N')],
        "Esc",
        "popup-hint-stay",
        "popup-help-stay",
        PopupOp::Close,
    ),
];

const RESUME_HELD_KEYS: &[PopupKey] = &[
    pk(
        &[Key::char('s'), Key::char('S')],
        "s",
        "popup-hint-send-now",
        "popup-help-resume-send",
        PopupOp::SendHeld,
    ),
    pk(
        &[Key::char('k'), Key::char('K'), ESC],
        "k/Esc",
        "popup-hint-hold-again",
        "popup-help-resume-hold",
        PopupOp::HoldAgain,
    ),
    pk(
        &[Key::char('d'), Key::char('D')],
        "d",
        "popup-hint-discard",
        "popup-help-resume-discard",
        PopupOp::DiscardHeld,
    ),
];

/// The help's sections for pop-ups: the locale key of a title (`popup-section-*`) and the
/// pop-up's key table. `can_save_token` is [`crate::app::Model::can_save_token`]: without a
/// token file the sign-in box has no `Tab` (saving on/off), so the help does not offer it.
pub fn help_sections(can_save_token: bool) -> [(&'static str, &'static [PopupKey]); 8] {
    let sign_in = if can_save_token {
        SIGN_IN_KEYS
    } else {
        SIGN_IN_KEYS_NO_SAVE
    };
    [
        ("popup-section-confirm", CONFIRM_KEYS),
        ("popup-section-quit-held", QUIT_HELD_KEYS),
        ("popup-section-resume-held", RESUME_HELD_KEYS),
        ("popup-section-filter", FILTER_KEYS),
        ("popup-section-command", COMMAND_KEYS),
        ("popup-section-add-ids", ADD_IDS_KEYS),
        ("popup-section-sign-in", sign_in),
        ("popup-section-contact", CONTACT_PICKER_KEYS),
    ]
}

/// A pop-up over the panes.
#[derive(Debug, Clone)]
pub enum Popup {
    /// Key help, searchable.
    Help {
        /// Search text.
        query: Input,
        /// Scroll, in lines.
        scroll: u16,
    },
    /// The team's history (`H`): who decided what, when, from where; searchable like the
    /// help (moderator, request, club, outcome, front end).
    History {
        /// Search text.
        query: Input,
        /// Scroll, in lines.
        scroll: u16,
    },
    /// The term at a glance (`T`): the scope's figures, in pictures and as text.
    Term {
        /// Scroll, in lines.
        scroll: u16,
    },
    /// Confirmation of a delete or a bulk action. Focus starts on Cancel.
    Confirm {
        /// The decision.
        action: RowAction,
        /// The club requests it applies to.
        ids: Vec<Uuid>,
        /// How many of `ids` the filter hides.
        hidden: usize,
        /// Focus on the confirming button (false: on Cancel).
        on_confirm: bool,
    },
    /// Paste or type request ids.
    AddIds {
        /// The text.
        input: Input,
    },
    /// Paste a token.
    SignIn {
        /// The token, drawn masked.
        input: Input,
        /// Save it to the token file.
        save: bool,
        /// There is a token file to save to (else Tab does nothing and is not offered).
        can_save: bool,
        /// Why the last token was refused, or why signing in is needed.
        error: Option<String>,
    },
    /// The `:` command line.
    Command {
        /// The command.
        input: Input,
    },
    /// The queue filter (applied as typed).
    Filter {
        /// The filter text.
        input: Input,
        /// The filter before editing (restored by Esc).
        before: String,
    },
    /// `q` with decisions still in their grace period: send them now, discard them, or
    /// stay. Their countdown waits while this is open.
    QuitHeld,
    /// Back from a suspend (Ctrl-Z, `fg`) with decisions whose grace period ran out while
    /// the dashboard was stopped: send them now, hold them again (a new grace period), or
    /// discard them. Nothing held is sent while this is open.
    ResumeHeld,
    /// New contact for a club.
    AddContact {
        /// The club.
        club_id: Uuid,
        /// Index into [`ContactType::KNOWN`].
        kind: usize,
        /// The value.
        value: Input,
        /// Focus on the value field (false: on the type picker).
        on_value: bool,
        /// Why the last try failed.
        error: Option<String>,
    },
}

impl Popup {
    /// This pop-up's key table in its current state.
    pub fn keys(&self) -> &'static [PopupKey] {
        match self {
            Popup::Help { .. } => HELP_KEYS,
            Popup::History { .. } => HISTORY_KEYS,
            Popup::Term { .. } => TERM_KEYS,
            Popup::Confirm { .. } => CONFIRM_KEYS,
            Popup::QuitHeld => QUIT_HELD_KEYS,
            Popup::ResumeHeld => RESUME_HELD_KEYS,
            Popup::AddIds { .. } => ADD_IDS_KEYS,
            Popup::SignIn { can_save: true, .. } => SIGN_IN_KEYS,
            Popup::SignIn { .. } => SIGN_IN_KEYS_NO_SAVE,
            Popup::Command { .. } => COMMAND_KEYS,
            Popup::Filter { .. } => FILTER_KEYS,
            Popup::AddContact {
                on_value: false, ..
            } => CONTACT_PICKER_KEYS,
            Popup::AddContact { .. } => CONTACT_VALUE_KEYS,
        }
    }

    /// What `key` does here; `None`: it goes to the text field (if any has focus).
    pub fn op_for(&self, key: &Key) -> Option<PopupOp> {
        if let Popup::Help { query, .. } | Popup::History { query, .. } = self
            && !query.value().is_empty()
            && key.is_text()
        {
            return None;
        }
        self.keys()
            .iter()
            .find(|k| k.keys.contains(key))
            .and_then(|k| k.op)
    }

    /// [`Popup::op_for`], and where no text field has focus (a confirmation, the quit
    /// question, the contact type picker) with `thai_keys` on, a Thai character the table
    /// does not name is tried as the key it sits on in the Kedmanee layout (`ั` is `y`, `ื`
    /// is `n`, `ก` is `d`), as on the main screen. A pop-up with a text
    /// field takes Thai as typed (the help's search included).
    pub fn op_for_layout(&self, key: &Key, thai_keys: bool) -> Option<PopupOp> {
        self.op_for(key).or_else(|| {
            let KeyCode::Char(c) = key.code else {
                return None;
            };
            if !thai_keys || !key.is_text() || self.takes_text() {
                return None;
            }
            let q = crate::i18n::kedmanee::qwerty_for(c)?;
            self.op_for(&Key::char(q))
        })
    }

    /// Hint bar entries `(keys, label)` in `lang`, from the key table.
    pub fn hints(&self, lang: Lang) -> Vec<(String, String)> {
        self.keys()
            .iter()
            .filter_map(|k| Some((k.shown_in(lang), k.hint_in(lang)?)))
            .collect()
    }

    /// The text field with focus, if any (printable keys and pastes go to it).
    pub fn input_mut(&mut self) -> Option<&mut Input> {
        match self {
            Popup::Help { query, .. } | Popup::History { query, .. } => Some(query),
            Popup::AddIds { input }
            | Popup::SignIn { input, .. }
            | Popup::Command { input }
            | Popup::Filter { input, .. } => Some(input),
            Popup::AddContact {
                value,
                on_value: true,
                ..
            } => Some(value),
            Popup::AddContact { .. }
            | Popup::Term { .. }
            | Popup::Confirm { .. }
            | Popup::QuitHeld
            | Popup::ResumeHeld => None,
        }
    }

    /// True when the pop-up has a text field with focus.
    pub fn takes_text(&self) -> bool {
        match self {
            Popup::Confirm { .. } | Popup::QuitHeld | Popup::ResumeHeld | Popup::Term { .. } => {
                false
            }
            Popup::AddContact { on_value, .. } => *on_value,
            Popup::Help { .. }
            | Popup::History { .. }
            | Popup::AddIds { .. }
            | Popup::SignIn { .. }
            | Popup::Command { .. }
            | Popup::Filter { .. } => true,
        }
    }

    /// The contact types in picker order (per api-notes.md, Contact `type`).
    pub fn contact_types() -> &'static [ContactType] {
        ContactType::KNOWN
    }
}
