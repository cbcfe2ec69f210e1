//! Nothing acts on what is not drawn: on a terminal too small to show the queue, no key,
//! paste, wheel or tap decides, marks, types or opens anything; only quit (when nothing
//! waits), Ctrl-C, Ctrl-Z, Ctrl-L and `z` (which takes back a held decision, sending
//! nothing) act, and the notice says a key was ignored. Checked at
//! every size from 20x8 up, in English and Thai, through `update` and the real view.

use crate::common::*;
use club_admin::app::model::{MIN_SIZE, shows_queue};
use club_admin::app::{ApiCall, Effect, Key, KeyCode, Model, Msg, Pane, Popup, update};
use club_admin::i18n::Lang;

/// Keys that decide, mark, open a pop-up or a prompt, or type, on the queue; with the Thai
/// keyboard's ฟ (`a`) and ป (`x`).
const ACTING: &[char] = &[
    'a', 'x', 'D', 'y', ' ', 'i', ':', '/', 'S', 's', 'm', 'r', 'c', 'j', 'k', 'G', 'ฟ', 'ป',
];

/// A call, an audit line, a quit or a save of the queue among `fx`, as text: what no
/// ignored key may cause.
fn acted(fx: &[Effect]) -> Option<String> {
    fx.iter()
        .find(|e| {
            matches!(
                e,
                Effect::Api { .. } | Effect::Audit(_) | Effect::Quit | Effect::SaveQueue(_)
            )
        })
        .map(|e| format!("{e:?}"))
}

/// What an ignored input must leave as it was.
fn state(m: &Model) -> (usize, usize, usize, bool, usize, Pane) {
    (
        m.queue().cursor(),
        m.queue().marked_ids().len(),
        m.held().len(),
        m.popup().is_some(),
        m.queue().len(),
        m.focus(),
    )
}

/// The sample requests that are pending (the cursor starts on one).
fn pending_rows() -> Vec<club_admin::api::ClubRequest> {
    sample_rows()
        .into_iter()
        .filter(|r| r.membership_status == Some(club_admin::api::MembershipStatus::Pending))
        .collect()
}

fn resized(m: &Model, w: u16, h: u16) -> Model {
    let mut m = m.clone();
    let _ = update(&mut m, Msg::Resize(w, h));
    m
}

#[test]
fn at_every_size_below_the_smallest_no_key_acts_and_above_it_a_approves() {
    for lang in [Lang::English, Lang::Thai] {
        let base = model_with_lang(pending_rows(), lang);
        for w in 20..=140u16 {
            for h in 8..=50u16 {
                let mut m = resized(&base, w, h);
                if shows_queue(w, h) {
                    // The gate lets keys through where the queue is drawn.
                    let fx = update(&mut m, key('a'));
                    assert!(
                        calls(&fx)
                            .iter()
                            .any(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. })),
                        "{w}x{h} shows the queue: a approves ({lang:?})"
                    );
                    continue;
                }
                let before = state(&m);
                let ignored =
                    club_admin::tr!(lang, "status-too-small-key-ignored", width = w, height = h);
                for &c in ACTING {
                    let fx = update(&mut m, key(c));
                    assert_eq!(acted(&fx), None, "{w}x{h}: {c:?} acted ({lang:?})");
                    assert_eq!(state(&m), before, "{w}x{h}: {c:?} changed the queue");
                    assert_eq!(status(&m), ignored, "{w}x{h}: {c:?} is said to be ignored");
                }
                let inputs = [
                    code(KeyCode::Enter),
                    code(KeyCode::Tab),
                    code(KeyCode::Down),
                    Msg::Paste("00000000-0000-0000-0000-000000000009".into()),
                    Msg::Wheel { down: true },
                    Msg::Click {
                        pane: Pane::Queue,
                        row: Some(1),
                    },
                ];
                for msg in inputs {
                    let said = format!("{msg:?}");
                    let fx = update(&mut m, msg);
                    assert_eq!(acted(&fx), None, "{w}x{h}: {said} acted");
                    assert_eq!(state(&m), before, "{w}x{h}: {said} changed the queue");
                }
            }
        }
    }
}

#[test]
fn no_printable_key_acts_on_a_small_screen() {
    let mut m = resized(&model_with(pending_rows()), 39, 30);
    let before = state(&m);
    let keys = (' '..='~').filter(|&c| c != 'q').map(Key::char).chain([
        Key::new(KeyCode::Esc),
        Key::new(KeyCode::BackTab),
        Key::new(KeyCode::Backspace),
        Key::new(KeyCode::Delete),
        Key::new(KeyCode::Home),
        Key::new(KeyCode::End),
        Key::new(KeyCode::PageDown),
        Key::new(KeyCode::F(1)),
        Key::ctrl('a'),
        Key::ctrl('d'),
        Key::ctrl('r'),
    ]);
    for k in keys {
        let fx = update(&mut m, Msg::Key(k));
        assert_eq!(acted(&fx), None, "{k:?} acted at 39x30");
        assert_eq!(state(&m), before, "{k:?} changed the queue at 39x30");
    }
}

#[test]
fn a_pop_up_or_prompt_left_open_when_the_window_shrinks_takes_no_key() {
    for lang in [Lang::English, Lang::Thai] {
        // A bulk confirmation open, then the window shrinks: y and Enter send nothing.
        let mut m = model_with_lang(pending_rows(), lang);
        let _ = update(&mut m, key(' '));
        let _ = update(&mut m, key(' '));
        let _ = update(&mut m, key('a'));
        assert!(
            matches!(m.popup(), Some(Popup::Confirm { .. })),
            "a on two marked rows asks first: {:?}",
            m.popup()
        );
        let _ = update(&mut m, Msg::Resize(39, 30));
        for msg in [key('y'), code(KeyCode::Enter), key('a')] {
            let fx = update(&mut m, msg);
            assert_eq!(acted(&fx), None, "the hidden confirmation took a key");
        }
        assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
        // Back to a size that shows it: the same question is there, and y answers it.
        let _ = update(&mut m, Msg::Resize(80, 24));
        let fx = update(&mut m, key('y'));
        assert_eq!(
            calls(&fx)
                .iter()
                .filter(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. }))
                .count(),
            2,
            "y on the drawn confirmation approves both"
        );

        // The `:` prompt open, then shrunk: typed text does not reach it, Enter runs nothing.
        let mut m = model_with_lang(pending_rows(), lang);
        let _ = update(&mut m, key(':'));
        let _ = update(&mut m, Msg::Resize(50, 12));
        let fx = typed(&mut m, "approve");
        assert_eq!(acted(&fx), None);
        let fx = update(&mut m, code(KeyCode::Enter));
        assert_eq!(acted(&fx), None);
        let _ = update(&mut m, Msg::Resize(120, 40));
        let fx = update(&mut m, code(KeyCode::Enter));
        assert_eq!(acted(&fx), None, "the prompt stayed empty: nothing to run");
    }
}

#[test]
fn q_quits_a_small_screen_only_when_nothing_waits_and_ctrl_c_always_does() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = resized(&model_with_lang(pending_rows(), lang), 30, 10);
        let fx = update(&mut m, key('q'));
        assert!(fx.iter().any(|e| matches!(e, Effect::Quit)), "q quits");

        // A decision held (its grace period running) when the window shrinks: q cannot ask
        // the quit question there, so it says what waits; Ctrl-C quits without sending.
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            pending_rows(),
        );
        let _ = update(&mut m, key('a'));
        assert_eq!(m.held().len(), 1, "a holds the decision");
        let _ = update(&mut m, Msg::Resize(40, 12));
        let fx = update(&mut m, key('q'));
        assert!(
            !fx.iter().any(|e| matches!(e, Effect::Quit)),
            "q does not quit"
        );
        assert!(m.popup().is_none(), "no question is opened off screen");
        let waiting = club_admin::tr!(lang, "status-too-small-quit-waiting", n = 1usize);
        assert_eq!(status(&m), waiting, "the notice says what waits");
        let fx = update(&mut m, ctrl('c'));
        assert!(fx.iter().any(|e| matches!(e, Effect::Quit)), "Ctrl-C quits");
        assert!(
            !calls(&fx)
                .iter()
                .any(|(_, c)| matches!(c, ApiCall::UpdateRequest { .. })),
            "nothing is sent on the way out"
        );
    }
}

#[test]
fn the_small_screen_says_its_size_that_keys_wait_and_that_one_was_ignored() {
    for lang in [Lang::English, Lang::Thai] {
        for (w, h) in [(39, 30), (20, 8), (39, 24), (80, 14)] {
            let mut m = resized(&model_with_lang(pending_rows(), lang), w, h);
            let _ = update(&mut m, key('a'));
            let s = screen(&m, w, h);
            let flat: String = s.split_whitespace().collect();
            let needs = format!("{}x{}", MIN_SIZE.0, MIN_SIZE.1);
            assert!(
                flat.contains(&needs),
                "{w}x{h} says the size it needs:\n{s}"
            );
            assert!(
                flat.contains(&format!("({w}x{h})")),
                "{w}x{h} says its size:\n{s}"
            );
            if w >= 39 && h >= 14 {
                // Room for all three lines: the size, the keys that act, the key ignored.
                let keys_line = club_admin::i18n::tr(lang, "empty-terminal-too-small-keys");
                let first: String = keys_line.split_whitespace().take(2).collect();
                assert!(flat.contains(&first), "{w}x{h} says keys wait:\n{s}");
                let ignored =
                    club_admin::tr!(lang, "status-too-small-key-ignored", width = w, height = h);
                let first: String = ignored.split_whitespace().take(2).collect();
                assert!(flat.contains(&first), "{w}x{h} says a was ignored:\n{s}");
            }
            // Ctrl-L redraws the same screen.
            let fx = update(&mut m, ctrl('l'));
            assert!(fx.iter().any(|e| matches!(e, Effect::Redraw)));
            assert_eq!(screen(&m, w, h), s, "{w}x{h}: the same after Ctrl-L");
        }
    }
}

/// The "key ignored" notice follows the window's size while it stays too small and goes
/// once the queue is drawn again; `z` takes back a held decision there (it sends nothing,
/// and its countdown is on the small screen's status line).
#[test]
fn the_small_screens_notice_follows_the_size_and_z_undoes_there() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = loaded(
            ModelOptions {
                lang,
                decision_delay: std::time::Duration::from_secs(5),
                ..options()
            },
            pending_rows(),
        );
        let _ = update(&mut m, key('a'));
        assert_eq!(m.held().len(), 1);
        let _ = update(&mut m, Msg::Resize(30, 12));
        let _ = update(&mut m, key('x'));
        assert_eq!(
            status(&m),
            club_admin::tr!(
                lang,
                "status-too-small-key-ignored",
                width = 30,
                height = 12
            )
        );
        let _ = update(&mut m, Msg::Resize(25, 10));
        assert_eq!(
            status(&m),
            club_admin::tr!(
                lang,
                "status-too-small-key-ignored",
                width = 25,
                height = 10
            )
        );
        let fx = update(&mut m, key('z'));
        assert!(m.held().is_empty(), "z took it back");
        assert!(acted(&fx).is_none_or(|e| e.contains("Audit")), "{fx:?}");
        let _ = update(&mut m, Msg::Resize(120, 40));
        let ignored = club_admin::tr!(
            lang,
            "status-too-small-key-ignored",
            width = 25,
            height = 10
        );
        assert_ne!(status(&m), ignored, "the notice went with the small window");
    }
}
