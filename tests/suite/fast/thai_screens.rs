//! A Thai moderator's screens hold no English words of the UI.
//!
//! A tour through the dashboard's states (queue, detail, held decision, bulk progress, a
//! refused decision, a timeout, pop-ups, help, sign-in, club lookup and pane, activity log,
//! filter without a match, an empty queue, the command line, a read-only session, a server
//! that cannot approve) is drawn by the real view on `TestBackend`s of 120x40 and 80x24 in
//! Thai. Every run of three or more ASCII letters on those screens must be data (ids, e-mail,
//! URL), a key name, or a word the Thai locale files themselves keep (filter syntax such as
//! `status:`, `OSC 52`). The same tour in English shows the English words, so the check is
//! not passing for want of text.

use crate::common;
use crate::common::answers::ApiAnswer;

use std::collections::BTreeSet;

use club_admin::api::*;
use club_admin::app::{KeyCode, Keymap, Model, update};
use club_admin::i18n::Lang;
use common::*;
use uuid::Uuid;

/// Words a Thai screen may show in Latin letters that are not in the data: key names and
/// units the terminal world writes that way.
const KEPT: &[&str] = &[
    "Enter",
    "Esc",
    "Tab",
    "Space",
    "Ctrl",
    "Shift",
    "Alt",
    "Home",
    "End",
    "PgUp",
    "PgDn",
    "Del",
    "Backspace",
    "Up",
    "Down",
    "Left",
    "Right",
    "UTC",
    "API",
    "OSC",
    "HTTP",
    "JSON",
    "URL",
    "UUID",
    // Contact types that are brand names, as the server names them.
    "line",
    "facebook",
    "instagram",
    "discord",
];

/// The server's reason for refusing an approval in the tour (its detail, in English).
const REFUSAL: &str = "Student must be a staff member of the club to update club requests";

/// Text of the tour's data (English names the detail pane shows beside the Thai ones, what
/// the moderator typed, what the server wrote: its error detail stays as written, see
/// docs/src/architecture.md "Words on screen"): taken off a screen before its words are read,
/// longest first.
const DATA: &[&str] = &[
    REFUSAL,
    "Robotics Club",
    "Chess Club",
    "Astronomy Club",
    "LINE group",
    "We build robots",
    "Somchai",
    "Pimchanok",
    "Jaidee",
    "Wang",
    "Robotics",
    "Astronomy",
    "not-a-uuid",
    "nonsense",
    "zzzz",
];

/// `screen` without `data`, whole or cut short with "…" where its column was too narrow.
fn strip_data(screen: &str, data: &str) -> String {
    (3..data.len())
        .filter(|&k| data.is_char_boundary(k))
        .rev()
        .fold(screen.replace(data, ""), |s, k| {
            s.replace(&format!("{}…", &data[..k]), "")
        })
}

/// The words of every `.ftl` file under `assets/locales/th`: Latin words Thai keeps on purpose.
fn thai_locale_words() -> BTreeSet<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/locales/th");
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir).expect("th locale folder").flatten() {
        let text = std::fs::read_to_string(entry.path()).expect("readable .ftl");
        for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
            // Only the values: "key = value" and continuation lines; placeholders are not text.
            let value = line.split_once(" = ").map(|(_, v)| v).unwrap_or(line);
            let value = strip_placeables(value);
            out.extend(latin_words(&value));
        }
    }
    out
}

/// The text without `{ ... }` placeables (variables, selectors).
fn strip_placeables(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Runs of three or more ASCII letters.
fn latin_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3)
        .map(str::to_owned)
        .collect()
}

/// Latin words that are data on this screen: parts of ids, e-mail addresses, URLs, hex
/// numbers. A word of hex letters is data only inside a token with digits (`0a1b2c3d`): on
/// its own it is a word ("add", "face").
fn is_data(word: &str, screen: &str) -> bool {
    let hex = word.chars().all(|c| c.is_ascii_hexdigit());
    screen.split_whitespace().any(|token| {
        token.contains(word)
            && (token.contains('@')
                || token.contains("://")
                || token.matches('-').count() >= 4
                || (hex && token.chars().any(|c| c.is_ascii_digit())))
    })
}

/// The rows of the tour: both names given, Thai and English, as the service sends them.
fn rows() -> Vec<ClubRequest> {
    sample_rows()
}

/// The ids of the API calls among the effects.
fn calls(fx: &[club_admin::app::Effect]) -> Vec<u64> {
    api_ids(fx, |_| true)
}

/// The id of the one API call among the effects: `what` was sent.
fn one_call(fx: &[club_admin::app::Effect], what: &str) -> u64 {
    match calls(fx)[..] {
        [id] => id,
        _ => panic!("{what}: one call sent: {fx:?}"),
    }
}

fn timeout() -> ApiError {
    ApiError::timeout(2500)
}

/// Every screen of the tour, named, at `w` x `h`, for a model in `lang`.
fn tour(lang: Lang, w: u16, h: u16) -> Vec<(String, String)> {
    let mut shots = Vec::new();
    let start = |lang: Lang| model_with_lang(rows(), lang);
    let held = |lang: Lang| {
        let o = ModelOptions {
            lang,
            decision_delay: std::time::Duration::from_secs(5),
            ..options()
        };
        loaded(o, rows())
    };
    let read_only = |lang: Lang| {
        let o = ModelOptions {
            lang,
            read_only: true,
            ..options()
        };
        loaded(o, rows())
    };
    let mut shot = |name: &str, m: &Model| shots.push((name.to_owned(), screen(m, w, h)));

    // The queue, a row selected, its detail.
    let mut m = start(lang);
    shot("queue", &m);
    update(&mut m, key('j'));
    shot("detail", &m);

    // A held approval ("approving … in 5 s · z undo"), then taken back.
    let mut m = held(lang);
    update(&mut m, key('a'));
    shot("held approval", &m);
    update(&mut m, key('z'));
    shot("approval taken back", &m);

    // Marked rows approved at once: asked first, then bulk progress, one refused, its
    // re-read timed out.
    let mut m = start(lang);
    update(&mut m, key(' '));
    update(&mut m, key('j'));
    update(&mut m, key(' '));
    update(&mut m, key('a'));
    shot("bulk confirmation", &m);
    let fx = update(&mut m, key('y'));
    shot("bulk in flight", &m);
    // One at a time: the second is sent once the first is answered.
    let first = one_call(&fx, "the first approval");
    let fx = answer(
        &mut m,
        first,
        ApiAnswer::Updated(Err(forbidden(
            "Student must be a staff member of the club to update club requests",
        ))),
    );
    shot("bulk one refused", &m);
    // The refused row is read again, and that read times out (an answer of the call it
    // answers: an approval's answer to a read would be a test's mistake).
    let reread = one_call(&fx, "the refused row's re-read");
    answer(&mut m, reread, ApiAnswer::Request(Err(timeout())));
    shot("bulk one timed out", &m);
    update(&mut m, key('L'));
    shot("activity log", &m);

    // Delete asks first.
    let mut m = start(lang);
    update(&mut m, key('D'));
    shot("delete confirmation", &m);
    update(&mut m, code(KeyCode::Esc));
    shot("delete cancelled", &m);

    // Mark all asks how many and of which club.
    update(&mut m, key('*'));
    shot("mark all", &m);
    update(&mut m, code(KeyCode::Esc));

    // Help, sign-in, add ids (with a bad id), command line.
    update(&mut m, key('?'));
    shot("help", &m);
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('S'));
    shot("sign-in", &m);
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key('i'));
    typed(&mut m, "not-a-uuid");
    shot("add ids", &m);
    update(&mut m, code(KeyCode::Enter));
    shot("add ids refused", &m);
    update(&mut m, code(KeyCode::Esc));
    update(&mut m, key(':'));
    shot("command line", &m);
    typed(&mut m, "nonsense");
    update(&mut m, code(KeyCode::Enter));
    shot("unknown command", &m);

    // Club lookup: the box, then a club loaded into its pane.
    let mut m = start(lang);
    update(&mut m, key('c'));
    shot("club lookup", &m);
    typed(&mut m, &Uuid::from_u128(5).to_string());
    let fx = update(&mut m, code(KeyCode::Enter));
    shot("club loading", &m);
    let id = one_call(&fx, "the club read");
    let club: Club = serde_json::from_value(serde_json::json!({
        "id": Uuid::from_u128(5), "name": {"en-US": "Robotics Club", "th": "ชุมนุมหุ่นยนต์"},
        "description": {"en-US": "We build robots", "th": "สร้างหุ่นยนต์"},
        "member_count": 22, "staff_count": 3,
        "contacts": [{"id": Uuid::from_u128(6), "type": "line", "value": "@robot",
                      "name": {"en-US": "LINE group", "th": "กลุ่มไลน์"}}]
    }))
    .expect("club");
    answer(&mut m, id, ApiAnswer::Club(Ok(reply(club))));
    shot("club pane", &m);

    // A club search that finds nothing.
    let mut m = start(lang);
    update(&mut m, key('c'));
    typed(&mut m, "zzzz");
    let fx = update(&mut m, code(KeyCode::Enter));
    let id = one_call(&fx, "the club search");
    answer(&mut m, id, ApiAnswer::Clubs(Ok(reply(Vec::new()))));
    shot("club search without a match", &m);

    // The connection drops while a row is read.
    let mut m = start(lang);
    let fx = update(&mut m, code(KeyCode::Enter));
    let id = one_call(&fx, "the row's read");
    let dropped = ApiError::Connect {
        failure: ConnectFailure::ClosedWithoutAnswer,
        host: "127.0.0.1:9".into(),
        cause: None,
    };
    answer(&mut m, id, ApiAnswer::Request(Err(dropped)));
    shot("connection dropped", &m);

    // A filter that matches nothing, then an empty queue.
    let mut m = start(lang);
    update(&mut m, key('/'));
    typed(&mut m, "zzzz");
    update(&mut m, code(KeyCode::Enter));
    shot("filter without a match", &m);
    let m = model_with_lang(Vec::new(), lang);
    shot("empty queue", &m);

    // A queue with a held decision, then q: send, discard or stay?
    let mut m = held(lang);
    update(&mut m, key('a'));
    update(&mut m, key('q'));
    shot("quit with a held decision", &m);

    // Read-only.
    let mut m = read_only(lang);
    update(&mut m, key('a'));
    shot("read-only", &m);

    // A server without approve and decline (service 0.9): the header says so, `a` is refused.
    let mut m = loaded_on(
        ModelOptions { lang, ..options() },
        rows(),
        UpdateRoute::Missing,
    );
    update(&mut m, key('a'));
    shot("server cannot approve", &m);
    shots
}

/// The screens of the tour, in its order: each is drawn and checked, none may go missing.
const SCREENS: [&str; 28] = [
    "queue",
    "detail",
    "held approval",
    "approval taken back",
    "bulk confirmation",
    "bulk in flight",
    "bulk one refused",
    "bulk one timed out",
    "activity log",
    "delete confirmation",
    "delete cancelled",
    "mark all",
    "help",
    "sign-in",
    "add ids",
    "add ids refused",
    "command line",
    "unknown command",
    "club lookup",
    "club loading",
    "club pane",
    "club search without a match",
    "connection dropped",
    "filter without a match",
    "empty queue",
    "quit with a held decision",
    "read-only",
    "server cannot approve",
];

/// The names of `shots`, in order.
fn names(shots: &[(String, String)]) -> Vec<&str> {
    shots.iter().map(|(name, _)| name.as_str()).collect()
}

/// The screens of `shots` holding English words of the UI: `(name, words, screen)`, in the
/// tour's order.
fn english_left(shots: &[(String, String)]) -> Vec<(String, BTreeSet<String>, String)> {
    // The help names each action as the config file's [keys] table does (`next_pane`).
    let config_names = Keymap::default()
        .bindings
        .iter()
        .flat_map(|b| latin_words(b.action.name()))
        .collect::<Vec<_>>();
    let kept: BTreeSet<String> = thai_locale_words()
        .into_iter()
        .chain(KEPT.iter().map(|s| (*s).to_owned()))
        .chain(config_names)
        .map(|w| w.to_lowercase())
        .collect();
    let mut out = Vec::new();
    for (name, screen) in shots {
        // The program's name in the header is not a word of the UI.
        let screen = DATA
            .iter()
            .fold(screen.replace("club-admin", ""), |s, d| strip_data(&s, d));
        let words: BTreeSet<String> = latin_words(&screen)
            .into_iter()
            .filter(|w| !kept.contains(&w.to_lowercase()) && !is_data(w, &screen))
            // The server's refusal, whole in the activity log, may be wrapped across lines
            // there (a wrapped piece is no longer found whole above).
            .filter(|w| !REFUSAL.split(' ').any(|r| r == w))
            .collect();
        if !words.is_empty() {
            out.push((name.clone(), words, screen));
        }
    }
    out
}

#[test]
fn thai_screens_hold_no_english_ui_words() {
    for (w, h) in [(120, 40), (80, 24)] {
        let shots = tour(Lang::Thai, w, h);
        assert_eq!(names(&shots), SCREENS, "the whole tour at {w}x{h}");
        let left: Vec<String> = english_left(&shots)
            .into_iter()
            .map(|(name, words, screen)| format!("{name}: {words:?}\n{screen}"))
            .collect();
        assert!(
            left.is_empty(),
            "English left on Thai screens at {w}x{h}:\n{}",
            left.join("\n")
        );
    }
}

#[test]
fn the_same_tour_in_english_is_caught_by_the_check() {
    // Every English screen shows English words of the UI (the hint bar at least): the check
    // must see them on each one, at both sizes.
    for (w, h) in [(120, 40), (80, 24)] {
        let shots = tour(Lang::English, w, h);
        assert_eq!(names(&shots), SCREENS, "the whole tour at {w}x{h}");
        let caught = english_left(&shots);
        let caught: Vec<&str> = caught.iter().map(|(name, _, _)| name.as_str()).collect();
        assert_eq!(caught, SCREENS, "English screens the check sees at {w}x{h}");
    }
}
