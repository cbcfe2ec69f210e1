//! The `:` command line: less frequent commands, by name.

use crate::app::model::words;
use crate::app::msg::IdsFrom;
use tui_input::Input;
use uuid::Uuid;

use super::connection::call;
use super::tell::say;
use super::{actions, club, held, ids, listing, refresh};
use crate::api::FetchLevel;
use crate::app::call::ApiCall;
use crate::app::keymap::Action;
use crate::app::model::{ListScope, Loadable, Model, Pane, QueueSort, RowState, Severity};
use crate::app::msg::Effect;
use crate::i18n::{Lang, tr};

/// A fetch level typed after `:level` or `:club-level`: a wire name (`detailed`), or its name
/// as the UI shows it in either language (`ละเอียด`); the error in `lang`.
fn parse_level(lang: Lang, text: &str) -> Result<FetchLevel, String> {
    let shown = |l: FetchLevel| {
        Lang::ALL.iter().any(|&g| {
            crate::app::filter::fold(&words::level(g, l)) == crate::app::filter::fold(text)
        })
    };
    FetchLevel::parse(text)
        .or_else(|| FetchLevel::ALL.into_iter().find(|&l| shown(l)))
        .ok_or_else(|| {
            let given = format!("\"{}\"", crate::text::clean(text, 20));
            crate::tr!(lang, "command-unknown-level", given = given)
        })
}

/// The commands, for the error message and the help (`name ARGS`; names and arguments as
/// typed, so English in every language; [`command_help`] gives them with their help text).
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

/// Every command of [`COMMANDS`] with its help text in `lang` (keys `command-help-<name>`):
/// "add IDS — add club request ids to the queue" / "add รหัส… — เพิ่มรหัสคำขอเข้าคิว". The
/// command names and fixed arguments stay as they are typed.
pub fn command_help(lang: Lang) -> Vec<String> {
    COMMANDS
        .iter()
        .filter_map(|c| c.split_whitespace().next())
        .map(|name| tr(lang, &format!("command-help-{name}")))
        .collect()
}

/// Runs one command line.
pub(super) fn run_command(m: &mut Model, text: &str) -> Vec<Effect> {
    let text = text.trim().trim_start_matches(':');
    let (cmd, arg) = match text.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (text, ""),
    };
    match cmd {
        "" => Vec::new(),
        "q" | "quit" => held::quit(m, false),
        "q!" | "quit!" => held::quit(m, true),
        "help" | "h" => actions::run_action(m, Action::Help),
        "add" | "ids" => ids::add_ids(m, arg, &IdsFrom::Command),
        "club" => {
            m.focus = Pane::Club;
            m.club.input = Input::new(arg.to_owned());
            club::lookup_club(m, arg)
        }
        "signin" | "sign-in" | "login" => actions::run_action(m, Action::SignIn),
        "refresh" => refresh::refresh(m),
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
            let given = format!("\"{}\"", crate::text::clean(other, 20));
            let text = crate::tr!(m.lang, "command-mouse-usage", given = given);
            say(m, Severity::Error, &text);
            return Vec::new();
        }
    };
    m.mouse = on;
    let text = tr(
        m.lang,
        if on {
            "command-mouse-on"
        } else {
            "command-mouse-off"
        },
    );
    say(m, Severity::Info, &text);
    vec![Effect::SetMouse(on)]
}

/// `:clear-done`: drops decided, deleted and gone rows from the queue (rows being acted on
/// stay) and says how many went.
fn clear_done(m: &mut Model) -> Vec<Effect> {
    let before = m.queue.len();
    let book = &m.decisions;
    m.queue.retain(|i| {
        book.alive(i.id).is_some()
            || (!matches!(i.state, RowState::Deleted | RowState::Gone)
                && i.status()
                    .is_none_or(|s| *s == crate::api::MembershipStatus::Pending))
    });
    let cleared = before - m.queue.len();
    let text = crate::tr!(m.lang, "command-cleared", n = cleared);
    say(m, Severity::Info, &text);
    Vec::new()
}

/// `:log`: shows or hides the activity log (as `L`) and says which.
fn log(m: &mut Model) -> Vec<Effect> {
    let fx = actions::run_action(m, Action::ToggleLog);
    let key = if m.log.visible {
        "command-log-shown"
    } else {
        "command-log-hidden"
    };
    let text = tr(m.lang, key);
    say(m, Severity::Info, &text);
    fx
}

/// An unknown command: says so, with the names of the commands.
fn unknown(m: &mut Model, other: &str) -> Vec<Effect> {
    let names: Vec<&str> = COMMANDS
        .iter()
        .filter_map(|c| c.split_whitespace().next())
        .collect();
    let text = crate::tr!(
        m.lang,
        "command-unknown",
        given = format!("\"{}\"", crate::text::clean(other, 20)),
        names = names.join(", ")
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
            let text = tr(m.lang, "command-sort-usage");
            say(m, Severity::Error, &text);
            return Vec::new();
        }
    };
    m.queue.set_sort(s);
    super::sorting::sorted(m)
}

/// `:club-level L`: the club pane's fetch level (the club is read again at it).
fn club_level(m: &mut Model, arg: &str) -> Vec<Effect> {
    if arg.is_empty() {
        let text = tr(m.lang, "command-club-level-usage");
        say(m, Severity::Error, &text);
        return Vec::new();
    }
    match parse_level(m.lang, arg) {
        Ok(l) => {
            m.club.level = Some(l);
            let text = crate::tr!(m.lang, "status-club-level", level = words::level(m.lang, l));
            say(m, Severity::Info, &text);
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
        .map(|a| parse_level(m.lang, a))
        .collect();
    match parsed {
        Ok(l) if l.len() == 1 || l.len() == 2 => {
            let desc = if l.len() == 2 {
                l[1]
            } else {
                m.levels.descendant_fetch_level
            };
            m.levels = crate::api::Levels::new(l[0], desc);
            let text = crate::tr!(
                m.lang,
                "command-level-set",
                level = words::level(m.lang, l[0]),
                descendants = words::level(m.lang, desc)
            );
            say(m, Severity::Info, &text);
        }
        Ok(_) => {
            let text = tr(m.lang, "command-level-usage");
            say(m, Severity::Error, &text);
        }
        Err(e) => say(m, Severity::Error, &e),
    }
    Vec::new()
}

fn scope(m: &mut Model, arg: &str) -> Vec<Effect> {
    let scope = match arg {
        "mine" => None,
        "all" => Some(ListScope::All),
        "" => {
            let text = tr(m.lang, "command-scope-usage");
            say(m, Severity::Error, &text);
            return Vec::new();
        }
        other => match Uuid::parse_str(other) {
            Ok(id) => Some(ListScope::Clubs(vec![id])),
            // A club's name, as `:club` takes it: among the clubs known
            // here (those you staff, those of the rows in the queue).
            Err(_) => match club_by_name(m, other) {
                Ok(id) => Some(ListScope::Clubs(vec![id])),
                Err(text) => {
                    say(m, Severity::Error, &text);
                    return Vec::new();
                }
            },
        },
    };
    match scope {
        Some(s) => {
            m.listing.scope = s;
            listing::apply_scope(m);
            refresh::refresh(m)
        }
        None => {
            m.listing.scope = ListScope::Unknown;
            m.user = Loadable::Loading;
            vec![call(m, ApiCall::CurrentUser)]
        }
    }
}

/// The one club known here whose name (in either language) holds `name`; else why not
/// (none, or several: their names).
fn club_by_name(m: &Model, name: &str) -> Result<Uuid, String> {
    use crate::text::fold;
    let want = fold(name);
    let mut found: std::collections::BTreeMap<Uuid, String> = std::collections::BTreeMap::new();
    for (id, n) in &m.listing.club_names {
        if fold(n).contains(&want) {
            found.insert(*id, n.clone());
        }
    }
    for item in m.queue.items() {
        let Some(c) = item.request.as_ref().and_then(|r| r.club.as_ref()) else {
            continue;
        };
        let Some(names) = c.name.as_ref() else {
            continue;
        };
        let both = [names.best(), names.thai_first()];
        if both.iter().flatten().any(|n| fold(n).contains(&want)) {
            let shown = if m.lang == crate::i18n::Lang::Thai {
                names.thai_first()
            } else {
                names.best()
            };
            found.insert(c.id, crate::text::clean(shown.unwrap_or_default(), 40));
        }
    }
    let name = crate::text::clean(name, 40);
    match found.len() {
        1 => Ok(*found.keys().next().expect("one")),
        0 => Err(crate::tr!(m.lang, "command-scope-no-club", name = name)),
        _ => {
            let names: Vec<String> = found.into_values().take(4).collect();
            Err(crate::tr!(
                m.lang,
                "command-scope-several",
                name = name,
                clubs = names.join(", ")
            ))
        }
    }
}
