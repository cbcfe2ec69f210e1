//! A Thai keyboard does not get in the way (issue 11, item 5): outside text fields a Thai
//! character works as the key it sits on; inside them it is typed as it is.

mod common;

use club_admin::app::{ApiCall, KeyCode, Msg, Popup, update};
use common::*;

fn puts(fx: &[club_admin::app::Effect]) -> usize {
    api_ids(fx, |c| matches!(c, ApiCall::UpdateRequest { .. })).len()
}

#[test]
fn thai_characters_act_as_their_keys_outside_text_fields() {
    let mut m = model_with(sample_rows());
    update(&mut m, key('่')); // j on the Thai layout
    assert_eq!(m.queue.cursor(), 1);
    update(&mut m, key('า')); // k
    assert_eq!(m.queue.cursor(), 0);
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
    assert!(matches!(&m.popup, Some(Popup::Filter { input, .. }) if input.value() == "ฟ"));
    update(&mut m, code(KeyCode::Esc));
}

#[test]
fn thai_keys_can_be_turned_off() {
    let mut m = model_with(sample_rows());
    m.thai_keys = false;
    let fx = update(&mut m, key('ฟ'));
    assert_eq!(puts(&fx), 0);
    assert_eq!(m.queue.cursor(), 0);
}
