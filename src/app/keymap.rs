//! The keymap: one table drives key handling, the footer hints and the `?` help.

use std::collections::BTreeMap;

use super::key::{Key, KeyCode};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Everywhere (when no text field has focus).
    Global,
    /// The review queue.
    Queue,
    /// The club lookup pane.
    Club,
    /// The activity log.
    Log,
}

impl Scope {
    /// Heading in the help.
    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::Queue => "Review queue",
            Scope::Club => "Club lookup",
            Scope::Log => "Activity log",
        }
    }
}

/// Something a key can do. The names are what the config file's `[keys]` table uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Leave (asks first while decisions wait for the server, or are held).
    Quit,
    /// Leave at once, from anywhere, even a text field; writes still unanswered are audited
    /// with outcome `unknown`, decisions still held are discarded (`undone`).
    ForceQuit,
    /// Show the help.
    Help,
    /// Next pane.
    NextPane,
    /// Previous pane.
    PrevPane,
    /// Reload the listing and re-read every row.
    Refresh,
    /// Show or hide the activity log.
    ToggleLog,
    /// Open the `:` command line.
    CommandLine,
    /// Paste or type request ids.
    AddIds,
    /// Go to the club lookup field.
    ClubLookup,
    /// Sign in (paste a token).
    SignIn,
    /// Redraw the screen.
    Redraw,
    /// Suspend to the shell (`fg` resumes).
    Suspend,
    /// Move down.
    Down,
    /// Move up.
    Up,
    /// First row.
    Top,
    /// Last row.
    Bottom,
    /// One page down.
    PageDown,
    /// One page up.
    PageUp,
    /// Approve the selected (or marked) requests.
    Approve,
    /// Decline the selected (or marked) requests.
    Decline,
    /// Delete the selected (or marked) requests, after confirmation.
    Delete,
    /// Take back the latest approve or decline while it is held (the grace period).
    Undo,
    /// Mark or unmark the selected row.
    Mark,
    /// Mark from the last mark to the cursor.
    MarkRange,
    /// Mark every request matching the filter (the rest of the listing loads first).
    MarkAll,
    /// Clear all marks.
    ClearMarks,
    /// Filter the queue.
    Filter,
    /// Clear the filter (offered when an id added by hand is hidden by it).
    ClearFilter,
    /// Cycle the sort order.
    Sort,
    /// Re-read the selected request.
    Open,
    /// Raise the fetch level.
    RaiseLevel,
    /// Lower the fetch level.
    LowerLevel,
    /// Copy the selected (or marked) ids to the clipboard.
    Copy,
    /// New contact for the shown club.
    NewContact,
    /// Scroll the detail pane down (its text is longer than the pane).
    DetailDown,
    /// Scroll the detail pane up.
    DetailUp,
    /// The team's history: who decided what, from the audit (`club-admin history`'s rows).
    History,
    /// The term at a glance: the scope's figures (`club-admin stats`'s), in pictures and
    /// as text.
    Term,
}

impl Action {
    /// Config name and help text.
    pub fn info(self) -> (&'static str, &'static str) {
        match self {
            Action::Quit => ("quit", "quit"),
            Action::ForceQuit => ("force_quit", "quit at once, from anywhere"),
            Action::Help => ("help", "this help"),
            Action::NextPane => ("next_pane", "next pane"),
            Action::PrevPane => ("prev_pane", "previous pane"),
            Action::Refresh => ("refresh", "reload the queue from the server"),
            Action::ToggleLog => ("toggle_log", "show or hide the activity log"),
            Action::CommandLine => ("command_line", "command line (:help for commands)"),
            Action::AddIds => ("add_ids", "add club request ids"),
            Action::ClubLookup => ("club_lookup", "look up a club"),
            Action::SignIn => ("sign_in", "sign in (paste a token)"),
            Action::Redraw => ("redraw", "redraw the screen"),
            Action::Suspend => ("suspend", "suspend to the shell (fg resumes)"),
            Action::Down => ("down", "down"),
            Action::Up => ("up", "up"),
            Action::Top => ("top", "first row"),
            Action::Bottom => ("bottom", "last row"),
            Action::PageDown => ("page_down", "page down"),
            Action::PageUp => ("page_up", "page up"),
            Action::Approve => ("approve", "approve (marked rows, else the selected one)"),
            Action::Decline => ("decline", "decline (marked rows, else the selected one)"),
            Action::Delete => ("delete", "delete, after confirmation"),
            Action::Undo => (
                "undo",
                "take back the latest approve/decline before it is sent",
            ),
            Action::Mark => ("mark", "mark or unmark the row"),
            Action::MarkRange => ("mark_range", "mark from the last mark to here"),
            Action::MarkAll => (
                "mark_all",
                "mark all matching the filter (loads every page)",
            ),
            Action::ClearMarks => ("clear_marks", "clear marks"),
            Action::Filter => ("filter", "filter (status: club: year: or any text)"),
            Action::ClearFilter => ("clear_filter", "clear the filter"),
            Action::Sort => (
                "sort",
                "cycle the sort: server order, oldest first, club, status",
            ),
            Action::Open => ("open", "re-read the selected request / load the club"),
            Action::RaiseLevel => ("raise_level", "raise the fetch level"),
            Action::LowerLevel => ("lower_level", "lower the fetch level"),
            Action::Copy => ("copy", "copy the id(s) to the clipboard (OSC 52)"),
            Action::NewContact => ("new_contact", "add a contact to the club"),
            Action::DetailDown => ("detail_down", "scroll the detail pane down"),
            Action::DetailUp => ("detail_up", "scroll the detail pane up"),
            Action::History => (
                "history",
                "the team's history: who decided what, when, from where",
            ),
            Action::Term => (
                "term",
                "the term at a glance: pending per club, requests and decisions per day, waits",
            ),
        }
    }

    /// The config name.
    pub fn name(self) -> &'static str {
        self.info().0
    }

    /// True for approve and decline (`PUT /v1/clubs/requests/{id}`), which a server or an
    /// account may not allow.
    pub fn needs_update_route(self) -> bool {
        matches!(self, Action::Approve | Action::Decline)
    }

    /// True for actions that change data on the server (refused in `--read-only`).
    pub fn mutates(self) -> bool {
        matches!(
            self,
            Action::Approve | Action::Decline | Action::Delete | Action::NewContact
        )
    }
}

/// What the hint bar and the help offer ([`crate::app::Model::offered`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offered {
    /// `--read-only`: actions that change data are left out of the hints and the help.
    pub read_only: bool,
    /// Approve and decline are possible here (false when the server lacks the update route
    /// or refuses it to this account's role): left out of the hints and the help.
    pub decisions: bool,
    /// A club is shown in the club pane: without one, "new contact" is left out of the hints
    /// (the help still lists it).
    pub club_shown: bool,
    /// The account may add a contact to the club shown (or, with none shown, to some club;
    /// [`crate::app::Model::permit_contact`]): without it, "new contact" is left out of
    /// the hints and the help.
    pub contact: bool,
    /// The server may let this account delete the selected request (a student only their
    /// own request; no other account, [`crate::ops::permit::check`]): without it,
    /// delete is left out of the hints and the help.
    pub delete: bool,
    /// No session (no token, or the server said it is over): the sign-in key leads the
    /// hints.
    pub signed_out: bool,
    /// Ctrl-Z suspends to a shell ([`crate::app::ModelOptions::can_suspend`]): without
    /// one (a `serve-ssh` session), suspend is left out of the hints and the help.
    pub suspend: bool,
}

impl Offered {
    /// True when `action` is offered: in `--read-only` nothing that changes data, where
    /// decisions are not possible no approve or decline; undo (`z`, which takes back a held
    /// approve or decline) only where approve and decline are offered, since nothing can be
    /// held otherwise.
    pub fn offers(self, action: Action) -> bool {
        let decision = action.needs_update_route() || action == Action::Undo;
        !(self.read_only && (action.mutates() || decision))
            && (self.decisions || !decision)
            && (self.delete || action != Action::Delete)
            && (self.contact || action != Action::NewContact)
            && (self.suspend || action != Action::Suspend)
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub scope: Scope,
    /// The action.
    pub action: Action,
    /// Keys, the first one shown in hints.
    pub keys: Vec<Key>,
    /// Shown in the footer of this scope.
    pub hint: bool,
}

/// The keymap table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    /// Every binding, in help order.
    pub bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        use Action::*;
        use KeyCode as K;
        let p = Key::char;
        let k = Key::new;
        let c = Key::ctrl;
        let b = |scope, action, keys: Vec<Key>, hint| Binding {
            scope,
            action,
            keys,
            hint,
        };
        let nav = |scope: Scope| {
            vec![
                b(scope, Down, vec![p('j'), k(K::Down)], false),
                b(scope, Up, vec![p('k'), k(K::Up)], false),
                b(scope, Top, vec![p('g'), k(K::Home)], false),
                b(scope, Bottom, vec![p('G'), k(K::End)], false),
                b(scope, PageDown, vec![c('d'), k(K::PageDown)], false),
                b(scope, PageUp, vec![c('u'), k(K::PageUp)], false),
            ]
        };
        let mut bindings = vec![
            b(Scope::Queue, Approve, vec![p('a')], true),
            b(Scope::Queue, Decline, vec![p('x')], true),
            b(Scope::Queue, Delete, vec![p('D'), k(K::Delete)], true),
            // Shown in the hint bar only while a decision is held (`ui/hints.rs`: `footer_hints`).
            b(Scope::Queue, Undo, vec![p('z')], false),
            b(Scope::Queue, Mark, vec![p(' ')], true),
            b(Scope::Queue, MarkRange, vec![p('V')], false),
            b(Scope::Queue, MarkAll, vec![p('*')], false),
            b(Scope::Queue, ClearMarks, vec![p('u')], false),
            b(Scope::Queue, Filter, vec![p('/')], true),
            b(Scope::Queue, ClearFilter, vec![k(K::Backspace)], false),
            b(Scope::Queue, Sort, vec![p('s')], false),
            b(Scope::Queue, Open, vec![k(K::Enter)], false),
            b(Scope::Queue, RaiseLevel, vec![p('f')], false),
            b(Scope::Queue, LowerLevel, vec![p('F')], false),
            b(Scope::Queue, Copy, vec![p('y')], false),
            b(Scope::Queue, DetailDown, vec![p('J')], false),
            b(Scope::Queue, DetailUp, vec![p('K')], false),
        ];
        bindings.extend(nav(Scope::Queue));
        bindings.extend([
            b(Scope::Club, Open, vec![k(K::Enter)], true),
            b(Scope::Club, NewContact, vec![p('n')], true),
            b(Scope::Club, RaiseLevel, vec![p('f')], true),
            b(Scope::Club, LowerLevel, vec![p('F')], true),
            b(Scope::Club, Copy, vec![p('y')], false),
        ]);
        bindings.extend(nav(Scope::Club));
        bindings.extend(nav(Scope::Log));
        bindings.extend([
            b(Scope::Global, Help, vec![p('?')], true),
            b(Scope::Global, NextPane, vec![k(K::Tab)], true),
            b(Scope::Global, PrevPane, vec![k(K::BackTab)], false),
            b(Scope::Global, ClubLookup, vec![p('c')], true),
            b(Scope::Global, AddIds, vec![p('i')], true),
            b(Scope::Global, CommandLine, vec![p(':')], true),
            b(Scope::Global, Refresh, vec![p('r')], false),
            b(Scope::Global, ToggleLog, vec![p('L')], false),
            b(Scope::Global, History, vec![p('H')], true),
            b(Scope::Global, Term, vec![p('T')], false),
            b(Scope::Global, SignIn, vec![p('S')], false),
            b(Scope::Global, Redraw, vec![c('l')], false),
            b(Scope::Global, Suspend, vec![c('z')], false),
            b(Scope::Global, Quit, vec![p('q')], true),
            b(Scope::Global, ForceQuit, vec![c('c')], false),
        ]);
        Keymap { bindings }
    }
}

impl Keymap {
    /// The action bound to `key` in `scope` (scope bindings first, then global).
    pub fn lookup(&self, scope: Scope, combo: &Key) -> Option<Action> {
        let combo = *combo;
        let find = |s: Scope| {
            self.bindings
                .iter()
                .find(|b| b.scope == s && b.keys.contains(&combo))
                .map(|b| b.action)
        };
        find(scope).or_else(|| find(Scope::Global))
    }

    /// The first key of `action` in `scope` (or global), for hints.
    pub fn key_for(&self, scope: Scope, action: Action) -> Option<Key> {
        self.bindings
            .iter()
            .find(|b| b.action == action && (b.scope == scope || b.scope == Scope::Global))
            .and_then(|b| b.keys.first().copied())
    }

    /// The actions in the hint bar of `scope` with their first key, in order, without what
    /// is not `offered`: for a view that names them in the reader's language.
    pub fn hint_actions(&self, scope: Scope, offered: Offered) -> Vec<(String, Action)> {
        let sign_in = self
            .bindings
            .iter()
            .filter(|b| offered.signed_out && b.action == Action::SignIn && !b.hint)
            .filter_map(|b| b.keys.first().map(|k| (k.to_string(), b.action)));
        let hinted = self
            .bindings
            .iter()
            .filter(|b| b.hint && (b.scope == scope || b.scope == Scope::Global))
            .filter(|b| offered.offers(b.action))
            .filter(|b| offered.club_shown || b.action != Action::NewContact)
            // Marking serves only decisions: `--read-only` leaves it out of the hints.
            .filter(|b| !offered.read_only || b.action != Action::Mark)
            .filter_map(|b| b.keys.first().map(|k| (k.to_string(), b.action)));
        sign_in.chain(hinted).collect()
    }

    /// Help rows `(scope, keys, action name, description)` in help order, without what is
    /// not `offered` ([`Offered::offers`]: approve, decline and undo where the server or the
    /// account does not allow decisions; every change and undo in `--read-only`). The help
    /// pop-up names them in the reader's language and filters them by its search.
    pub fn help_rows_offered(
        &self,
        offered: Offered,
    ) -> Vec<(Scope, String, &'static str, &'static str)> {
        let mut rows: Vec<_> = self
            .bindings
            .iter()
            .filter(|b| offered.offers(b.action))
            .map(|b| {
                let keys = b
                    .keys
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" ");
                let (name, desc) = b.action.info();
                (b.scope, keys, name, desc)
            })
            .collect();
        rows.sort_by_key(|r| r.0);
        rows
    }

    /// Applies overrides from the config file's `[keys]` table: `action = "key"` or
    /// `action = ["key", "key"]`, replacing that action's keys in every scope.
    ///
    /// Errors: every unknown action name, unparseable key, and key now bound to two actions
    /// in one scope or in a pane and everywhere, each with a message (reported at start, never
    /// ignored: the program does not start).
    pub fn with_overrides(
        mut self,
        overrides: &BTreeMap<String, Vec<String>>,
    ) -> Result<Keymap, Vec<String>> {
        let mut errors = Vec::new();
        for (name, keys) in overrides {
            let matching: Vec<usize> = self
                .bindings
                .iter()
                .enumerate()
                .filter(|(_, b)| b.action.name() == name)
                .map(|(i, _)| i)
                .collect();
            if matching.is_empty() {
                errors.push(format!("[keys] {name}: no such action"));
                continue;
            }
            let mut parsed = Vec::new();
            for k in keys {
                match Key::parse(k) {
                    Ok(c) => parsed.push(c),
                    Err(e) => errors.push(format!("[keys] {name}: {e}")),
                }
            }
            if parsed.is_empty() {
                errors.push(format!("[keys] {name}: needs at least one key"));
                continue;
            }
            for i in matching {
                self.bindings[i].keys = parsed.clone();
            }
        }
        for (i, a) in self.bindings.iter().enumerate() {
            for bnd in &self.bindings[i + 1..] {
                // Two actions on one key are a mistake within one scope, and between a pane
                // and the global keys (the pane's would silently win there, and the hint
                // bar would offer both).
                let related =
                    a.scope == bnd.scope || a.scope == Scope::Global || bnd.scope == Scope::Global;
                if !related || a.action == bnd.action {
                    continue;
                }
                for k in &a.keys {
                    if bnd.keys.contains(k) {
                        let place = if a.scope == bnd.scope {
                            a.scope.title().to_owned()
                        } else {
                            format!("{} and {}", a.scope.title(), bnd.scope.title())
                        };
                        errors.push(format!(
                            "[keys] {k} is bound to both {} and {} ({place})",
                            a.action.name(),
                            bnd.action.name(),
                        ));
                    }
                }
            }
        }
        errors.sort();
        errors.dedup();
        if errors.is_empty() {
            Ok(self)
        } else {
            Err(errors)
        }
    }
}
