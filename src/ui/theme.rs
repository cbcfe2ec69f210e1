//! Colours and styles. Colours come from the terminal's own 16-colour palette; with
//! `NO_COLOR` set there are none, and selection stays visible through reverse video and bold.

use ratatui::style::{Color, Modifier, Style};

/// The styles the view uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Colours on (false under `NO_COLOR`).
    pub color: bool,
}

impl Theme {
    /// Colours unless the `NO_COLOR` environment variable is set and not empty
    /// (<https://no-color.org>).
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    /// A theme with or without colour.
    pub fn new(color: bool) -> Theme {
        Theme { color }
    }

    /// Foreground colour, when colours are on.
    pub fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }

    /// The selected row: reverse video, visible with or without colour. (No bold: moving the
    /// cursor then rewrites only what it must; the pane border shows which pane has focus.)
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default().add_modifier(Modifier::DIM)
        }
    }

    /// Failures and refusals (red where colour is on; bold under `NO_COLOR`).
    pub fn error(&self) -> Style {
        if self.color {
            Style::default().fg(Color::Red)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        }
    }

    /// Good news.
    pub fn success(&self) -> Style {
        self.fg(Color::Green)
    }

    /// Pending / attention.
    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow)
    }

    /// Labels and keys.
    pub fn accent(&self) -> Style {
        self.fg(Color::Cyan)
    }

    /// Pane border: highlighted when focused.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            if self.color {
                Style::default().fg(Color::Cyan)
            } else {
                Style::default().add_modifier(Modifier::BOLD)
            }
        } else {
            self.dim()
        }
    }

    /// Emphasis that needs no colour (titles, names).
    pub fn bold(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
}
