//! A Thai keyboard does not get in the way: outside text fields a Thai
//! character works as the key it sits on; inside them it is typed as it is.

use crate::common;

use club_admin::app::{ApiCall, KeyCode, Msg, Popup, update};
use common::*;

fn puts(fx: &[club_admin::app::Effect]) -> usize {
    api_ids(fx, |c| matches!(c, ApiCall::UpdateRequest { .. })).len()
}

#[test]
fn thai_characters_act_as_their_keys_outside_text_fields() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('่')); // j on the Thai layout
    assert_eq!(m.queue().cursor(), 1);
    update(&mut m, key('า')); // k
    assert_eq!(m.queue().cursor(), 0);
    update(&mut m, key('่'));
    let fx = update(&mut m, key('ฟ')); // a: approve
    assert_eq!(puts(&fx), 1);
}

#[test]
fn text_fields_take_thai_as_typed() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('/'));
    let fx = club_admin::app::update(&mut m, Msg::Key(club_admin::app::Key::char('ฟ')));
    assert_eq!(puts(&fx), 0);
    assert!(matches!(&m.popup(), Some(Popup::Filter { input, .. }) if input.value() == "ฟ"));
    update(&mut m, code(KeyCode::Esc));
}

#[test]
fn thai_keys_can_be_turned_off() {
    let mut m = loaded(
        ModelOptions {
            thai_keys: false,
            ..options()
        },
        sample_rows(),
    );
    let fx = update(&mut m, key('ฟ'));
    assert_eq!(puts(&fx), 0);
    assert_eq!(m.queue().cursor(), 0);
}

/// The delete confirmation: with the keyboard on Thai, `ั` (the `y` key) confirms and sends
/// the delete, `ื` (the `n` key) cancels; the pop-up is gone from the frame either way.
#[test]
fn a_confirmation_takes_the_thai_characters_of_y_and_n() {
    let deletes = |fx: &[club_admin::app::Effect]| {
        api_ids(fx, |c| matches!(c, ApiCall::DeleteRequest { .. })).len()
    };
    let mut m = model_with_lang(sample_rows(), club_admin::i18n::Lang::Thai);
    update(&mut m, key('D'));
    assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
    let asking = screen(&m, 120, 40);
    let fx = update(&mut m, key('ั'));
    assert_eq!(deletes(&fx), 1, "ั is y: the delete is sent");
    assert!(m.popup().is_none());
    assert_ne!(screen(&m, 120, 40), asking);

    update(&mut m, key('D'));
    let fx = update(&mut m, key('ื'));
    assert_eq!(deletes(&fx), 0, "ื is n: nothing is sent");
    assert!(m.popup().is_none(), "ื cancels");
    let s = screen(&m, 120, 40);
    assert!(s.contains("ยกเลิกการลบแล้ว"), "the status line says so:\n{s}");
}

/// With `thai_keys = false` a Thai character in a confirmation does nothing.
#[test]
fn a_confirmation_ignores_thai_characters_when_thai_keys_is_off() {
    let mut m = loaded(
        ModelOptions {
            thai_keys: false,
            ..options()
        },
        sample_rows(),
    );
    update(&mut m, key('D'));
    let fx = update(&mut m, key('ั'));
    assert!(fx.is_empty());
    assert!(matches!(m.popup(), Some(Popup::Confirm { .. })));
}

/// The quit question with a held decision: `ก` (the `d` key) discards and quits, `ห` (the
/// `s` key) sends and waits for the answer; `่` `ฟ` `ๆ` (j, a, q) got there.
#[test]
fn the_quit_question_takes_the_thai_characters_of_d_and_s() {
    let quits = |fx: &[club_admin::app::Effect]| {
        fx.iter()
            .any(|e| matches!(e, club_admin::app::Effect::Quit))
    };
    let mut m = held_model(sample_rows(), 5);
    update(&mut m, key('่')); // j: a pending row (the first is approved)
    update(&mut m, key('ฟ')); // a: held
    assert_eq!(m.held().len(), 1);
    update(&mut m, key('ๆ')); // q: asks
    assert!(matches!(m.popup(), Some(Popup::QuitHeld)));
    let fx = update(&mut m, key('ก')); // d: discard
    assert!(quits(&fx), "{fx:?}");
    assert!(m.held().is_empty());
    assert_eq!(puts(&fx), 0, "a discarded decision is never sent");

    let mut m = held_model(sample_rows(), 5);
    update(&mut m, key('่'));
    update(&mut m, key('ฟ'));
    update(&mut m, key('ๆ'));
    let asking = screen(&m, 120, 40);
    let fx = update(&mut m, key('ห')); // s: send now
    assert_eq!(puts(&fx), 1, "ห is s: the held approve is sent now");
    assert!(m.popup().is_none());
    assert_ne!(screen(&m, 120, 40), asking);
}

/// The help's search is a text field: Thai goes into it as typed, even `ฦ` (Shift-/, the
/// `?` that closes the help while its search is empty) and `ั`.
#[test]
fn the_help_search_takes_thai_as_typed() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('?'));
    update(&mut m, key('ฦ'));
    update(&mut m, key('ั'));
    assert!(matches!(&m.popup(), Some(Popup::Help { query, .. }) if query.value() == "ฦั"));
}

/// The new-contact form's type picker has no text field: `่` and `้` (j, h) move the
/// choice as → and ← do; on the value field Thai is typed.
#[test]
fn the_contact_type_picker_takes_thai_characters_as_keys() {
    let mut m = model_with(sample_rows());
    show_club(
        &mut m,
        serde_json::from_value(serde_json::json!({"id": uuid::Uuid::from_u128(7)})).expect("club"),
    );
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('n'));
    assert!(matches!(
        m.popup(),
        Some(Popup::AddContact { club_id, kind: 0, on_value: false, error: None, .. })
            if *club_id == uuid::Uuid::from_u128(7)
    ));
    update(&mut m, key('่'));
    assert!(matches!(m.popup(), Some(Popup::AddContact { kind: 1, .. })));
    update(&mut m, key('้'));
    assert!(matches!(m.popup(), Some(Popup::AddContact { kind: 0, .. })));
    update(&mut m, code(KeyCode::Tab));
    update(&mut m, key('่'));
    assert!(matches!(
        &m.popup(),
        Some(Popup::AddContact { kind: 0, value, .. }) if value.value() == "่"
    ));
}
