//! The `:` command line: less frequent commands, by name.

use tui_input::Input;
use uuid::Uuid;

use super::{call, club, fetch, ids, keys, say};
use crate::api::FetchLevel;
use crate::app::effect::{ApiCall, Effect};
use crate::app::keymap::Action;
use crate::app::model::{
    Awaiting, ListScope, Loadable, Model, Pane, QueueSort, RowState, Severity,
};

/// The commands, for the error message and the help (`name ARGS`).
pub const COMMANDS: &[&str] = &[
    "add IDS",
    "club ID|NAME",
    "scope mine|all|CLUB",
    "level L [D]",
    "club-level L",
    "filter TEXT",
    "sort age|club|status|server",
    "signin",
    "mouse on|off",
    "refresh",
    "clear-done",
    "log",
    "quit",
];

/// Runs one command line.
pub(super) fn run_command(m: &mut Model, text: &str) -> Vec<Effect> {
    let text = text.trim().trim_start_matches(':');
    let (cmd, arg) = match text.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (text, ""),
    };
    match cmd {
        "" => Vec::new(),
        "q" | "quit" => keys::quit(m, false),
        "q!" | "quit!" => keys::quit(m, true),
        "help" | "h" => keys::run_action(m, Action::Help),
        "add" | "ids" => ids::add_ids(m, arg, ":add"),
        "club" => {
            m.focus = Pane::Club;
            m.club.input = Input::new(arg.to_owned());
            club::lookup_club(m, arg)
        }
        "signin" | "sign-in" | "login" => keys::run_action(m, Action::SignIn),
        "refresh" => fetch::refresh(m),
        "filter" => {
            m.queue.set_filter(arg);
            Vec::new()
        }
        "sort" => sort(m, arg),
        "level" => level(m, arg),
        "club-level" => club_level(m, arg),
        "scope" => scope(m, arg),
        "mouse" => mouse(m, arg),
        "clear-done" => clear_done(m),
        "log" => log(m),
        other => unknown(m, other),
    }
}

/// `:mouse on|off` (no argument toggles): mouse capture on or off, said on the status line.
fn mouse(m: &mut Model, arg: &str) -> Vec<Effect> {
    let on = match arg {
        "on" => true,
        "off" => false,
        "" => !m.mouse,
        other => {
            let text = format!(
                "mouse takes on or off (not {:?})",
                crate::text::clean(other, 20)
            );
            say(m, Severity::Error, &text);
            return Vec::new();
        }
    };
    m.mouse = on;
    say(m, Severity::Info, if on { "mouse on" } else { "mouse off" });
    vec![Effect::SetMouse(on)]
}

/// `:clear-done`: drops decided, deleted and gone rows from the queue (rows being acted on
/// stay) and says how many went.
fn clear_done(m: &mut Model) -> Vec<Effect> {
    let before = m.queue.len();
    m.queue.retain(|i| {
        matches!(i.state, RowState::Acting(_))
            || (!matches!(i.state, RowState::Deleted | RowState::Gone)
                && i.status()
                    .is_none_or(|s| *s == crate::api::MembershipStatus::Pending))
    });
    let cleared = before - m.queue.len();
    say(
        m,
        Severity::Info,
        &format!("cleared {cleared} decided or deleted request(s) from the queue"),
    );
    Vec::new()
}

/// `:log`: shows or hides the activity log (as `L`) and says which.
fn log(m: &mut Model) -> Vec<Effect> {
    let fx = keys::run_action(m, Action::ToggleLog);
    let text = if m.log.visible {
        "activity log shown (L or :log hides it)"
    } else {
        "activity log hidden"
    };
    say(m, Severity::Info, text);
    fx
}

/// An unknown command: says so, with the names of the commands.
fn unknown(m: &mut Model, other: &str) -> Vec<Effect> {
    let names: Vec<&str> = COMMANDS
        .iter()
        .filter_map(|c| c.split_whitespace().next())
        .collect();
    let text = format!(
        "unknown command {:?}: try {}",
        crate::text::clean(other, 20),
        names.join(", ")
    );
    say(m, Severity::Error, &text);
    Vec::new()
}

fn sort(m: &mut Model, arg: &str) -> Vec<Effect> {
    let s = match arg {
        "age" => QueueSort::Age,
        "club" => QueueSort::Club,
        "status" => QueueSort::Status,
        "server" => QueueSort::Server,
        _ => {
            say(m, Severity::Error, "sort takes age, club, status or server");
            return Vec::new();
        }
    };
    m.queue.set_sort(s);
    say(m, Severity::Info, &format!("sorted: {}", s.label()));
    Vec::new()
}

/// `:club-level L`: the club pane's fetch level (the club is read again at it).
fn club_level(m: &mut Model, arg: &str) -> Vec<Effect> {
    if arg.is_empty() {
        say(
            m,
            Severity::Error,
            "club-level takes a fetch level: id_only, compact, default or detailed",
        );
        return Vec::new();
    }
    match crate::api::query::parse_level(arg) {
        Ok(l) => {
            m.club.level = Some(l);
            say(m, Severity::Info, &format!("club fetch level: {l}"));
            match m.club.club_id {
                Some(id) => club::load_club(m, id),
                None => Vec::new(),
            }
        }
        Err(e) => {
            say(m, Severity::Error, &e);
            Vec::new()
        }
    }
}

fn level(m: &mut Model, arg: &str) -> Vec<Effect> {
    let parsed: Result<Vec<FetchLevel>, String> = arg
        .split_whitespace()
        .map(crate::api::query::parse_level)
        .collect();
    match parsed {
        Ok(l) if l.len() == 1 || l.len() == 2 => {
            let desc = if l.len() == 2 {
                l[1]
            } else {
                m.levels.descendant_fetch_level
            };
            m.levels = crate::api::Levels::new(l[0], desc);
            say(
                m,
                Severity::Info,
                &format!("request fetch level {} / descendants {}", l[0], desc),
            );
        }
        Ok(_) => say(m, Severity::Error, "level takes one or two fetch levels"),
        Err(e) => say(m, Severity::Error, &e),
    }
    Vec::new()
}

fn scope(m: &mut Model, arg: &str) -> Vec<Effect> {
    let scope = match arg {
        "mine" => None,
        "all" => Some(ListScope::All),
        other => match Uuid::parse_str(other) {
            Ok(id) => Some(ListScope::Clubs(vec![id])),
            Err(_) => {
                say(m, Severity::Error, "scope takes mine, all or a club id");
                return Vec::new();
            }
        },
    };
    match scope {
        Some(s) => {
            m.listing.scope = s;
            fetch::apply_scope(m);
            fetch::refresh(m)
        }
        None => {
            m.listing.scope = ListScope::Undecided;
            m.user = Loadable::Loading;
            vec![call(m, Awaiting::User, ApiCall::CurrentUser)]
        }
    }
}
