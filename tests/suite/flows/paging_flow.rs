//! Paging the pending listing while decisions shift it (a tester's session, typed fast):
//! no request is skipped, and the listing is never asked for in a loop.

use crate::common;

use std::time::Duration;

use crate::common::headless::Headless;
use club_admin::app::{Key, KeyCode, Msg};
use club_admin::demo::{self, DemoOptions};
use common::*;

fn keys(h: &mut Headless, s: &str) {
    for c in s.chars() {
        let k = if c == '\n' {
            Key::new(KeyCode::Enter)
        } else {
            Key::char(c)
        };
        h.send(Msg::Key(k));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_typed_ahead_under_filters_never_skip_a_request_or_loop() {
    let d = demo::start(DemoOptions::default()).await.expect("demo");
    let u = d.user("moderator").expect("moderator");
    let client = crate::common::client_as(&d, u);
    let m = model_from(live_options_at(&d.base_url));
    let mut h = Headless::new(m, client, 8);
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("start");
    keys(&mut h, "f");
    h.run_until_idle(Duration::from_secs(10))
        .await
        .expect("raised level");
    // Sent without waiting for answers, as keys typed on a slow link arrive.
    keys(&mut h, &"j".repeat(40));
    keys(
        &mut h,
        "gaaxa/club:robot\njjaaxa/ status:pending\naxa:filter หุ่นยนต์\n   ay jjV",
    );
    let before = d.calls();
    h.run_until_idle(Duration::from_secs(20))
        .await
        .expect("every call answered: no listing loop");
    let listing_calls = d.calls() - before;
    assert!(
        listing_calls < 40,
        "{listing_calls} calls after the keys: the listing is not asked for in a loop"
    );
    // The rest of the listing loads as the cursor nears the end: under a filter that hides
    // most rows it may not have been asked for yet. `G` goes to the bottom, loading it all.
    h.send(Msg::Key(Key::new(KeyCode::Esc)));
    keys(&mut h, "G");
    h.run_until_idle(Duration::from_secs(20))
        .await
        .expect("the rest of the listing loaded");
    let total = h.model.listing().total.expect("server total");
    assert_eq!(
        h.model.queue().stats().pending as u64,
        total,
        "every pending request the server counts is in the queue"
    );
    assert!(!h.model.listing().loading && !h.model.listing().has_more);
}
