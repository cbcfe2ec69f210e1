//! The app's own key type. The runtime converts terminal events into [`Key`]s (see
//! `runtime::event_loop`), so `app` never sees a terminal library; bindings in the config file
//! parse into the same type ([`Key::parse`]).

use std::fmt;

use tui_input::InputRequest;

/// The keys the dashboard can tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCode {
    /// A printable character (case matters: `G` is shift-g).
    Char(char),
    /// Enter / Return.
    Enter,
    /// Escape: only ever cancels, never bindable.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Backspace (text fields only).
    Backspace,
    /// Delete.
    Delete,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Function key `F1`..`F24`.
    F(u8),
}

/// A key press with the modifiers that matter (Shift is part of the character, or
/// [`KeyCode::BackTab`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Control held.
    pub ctrl: bool,
    /// Alt (Meta) held.
    pub alt: bool,
}

impl Key {
    /// A key without modifiers.
    pub const fn new(code: KeyCode) -> Key {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }

    /// A character without modifiers.
    pub const fn char(c: char) -> Key {
        Key::new(KeyCode::Char(c))
    }

    /// Control and a (lower-case) character.
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    /// True for a character typed without Control or Alt (what a text field takes).
    pub fn is_text(&self) -> bool {
        matches!(self.code, KeyCode::Char(_)) && !self.ctrl && !self.alt
    }

    /// Parses a binding from the config file: `a`, `G`, `space`, `enter`, `tab`,
    /// `shift-tab`, `ctrl-l`, `alt-x`, `up`, `pagedown`, `f5`, ...
    ///
    /// Errors: a message naming the part that is not a key; `esc` is refused (it only
    /// cancels).
    pub fn parse(text: &str) -> Result<Key, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") || lower.starts_with("ctrl+") {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") || lower.starts_with("alt+") {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let lower = rest.to_ascii_lowercase();
        let code = match lower.as_str() {
            "space" => KeyCode::Char(' '),
            "enter" | "return" => KeyCode::Enter,
            "tab" => KeyCode::Tab,
            "shift-tab" | "backtab" => KeyCode::BackTab,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "pageup" | "pgup" => KeyCode::PageUp,
            "pagedown" | "pgdn" => KeyCode::PageDown,
            "delete" | "del" => KeyCode::Delete,
            "esc" | "escape" => return Err("Esc only cancels and cannot be bound".into()),
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCode::F(f[1..].parse().unwrap_or(1))
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_control() => {
                        KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c })
                    }
                    _ => return Err(format!("{text:?} is not a key")),
                }
            }
        };
        Ok(Key { code, ctrl, alt })
    }

    /// The edit this key makes in a text field (tui-input's requests; the same bindings as
    /// tui-input's own crossterm backend: Ctrl-W word, Ctrl-U line, Ctrl-A/E ends, ...).
    /// `None` for keys a text field ignores.
    pub fn input_request(&self) -> Option<InputRequest> {
        use InputRequest::*;
        Some(match (self.code, self.ctrl, self.alt) {
            (KeyCode::Backspace, false, false) | (KeyCode::Char('h'), true, false) => {
                DeletePrevChar
            }
            (KeyCode::Delete, false, false) => DeleteNextChar,
            (KeyCode::Left, false, false) | (KeyCode::Char('b'), true, false) => GoToPrevChar,
            (KeyCode::Left, true, _) | (KeyCode::Char('b'), false, true) => GoToPrevWord,
            (KeyCode::Right, false, false) | (KeyCode::Char('f'), true, false) => GoToNextChar,
            (KeyCode::Right, true, _) | (KeyCode::Char('f'), false, true) => GoToNextWord,
            // A line feed typed into a field (Ctrl-J: terminals send it for a newline that
            // is not Enter) separates words, as a space does: ids never run together.
            (KeyCode::Char('j'), true, false) => InsertChar(' '),
            (KeyCode::Char('u'), true, false) => DeleteLine,
            (KeyCode::Char('w'), true, false)
            | (KeyCode::Char('d'), false, true)
            | (KeyCode::Backspace, _, true) => DeletePrevWord,
            (KeyCode::Delete, true, _) => DeleteNextWord,
            (KeyCode::Char('k'), true, false) => DeleteTillEnd,
            (KeyCode::Char('y'), true, false) => Yank,
            (KeyCode::Char('a'), true, false) | (KeyCode::Home, false, false) => GoToStart,
            (KeyCode::Char('e'), true, false) | (KeyCode::End, false, false) => GoToEnd,
            (KeyCode::Char(c), false, false) | (KeyCode::Char(c), true, true) => InsertChar(c),
            _ => return None,
        })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) if self.ctrl => write!(f, "{}", c.to_ascii_uppercase()),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Backspace => f.write_str("Backspace"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Delete => f.write_str("Del"),
            KeyCode::F(n) => write!(f, "F{n}"),
        }
    }
}

/// Applies `key` to a text field; true when it was an edit (or cursor move).
pub fn edit(input: &mut tui_input::Input, key: &Key) -> bool {
    match key.input_request() {
        Some(r) => {
            input.handle(r);
            true
        }
        None => false,
    }
}
