//! A request can be read whole at every supported size (issue 32, item 3): where the
//! detail pane cannot hold every line (a landscape phone, 60x15), its border says so ("↓ J")
//! and the hint bar offers the key ("J more ↓"); `J` brings the student, the club, the year
//! and when it was asked into view, and at the end the sign turns to "↑ K". Where all is in
//! view neither is shown. Through the real view on a `TestBackend` and `update`, in English
//! and Thai.

use crate::common::*;
use club_admin::app::{Model, Msg, update};
use club_admin::i18n::Lang;

/// Resizes `m` to `w` x `h` and draws it as the event loop does ([`crate::fast::edges::shown`]:
/// the drawn scroll limits handed back to `update`); returns the screen's text.
fn drawn(m: &mut Model, w: u16, h: u16) -> String {
    let _ = update(m, Msg::Resize(w, h));
    crate::fast::edges::shown(m, w, h)
}

#[test]
fn at_60x15_the_detail_says_there_is_more_and_j_reveals_every_line() {
    for lang in [Lang::English, Lang::Thai] {
        let mut m = loaded(options_in(lang), sample_rows());
        let first = drawn(&mut m, 60, 15);
        let more = club_admin::i18n::tr(lang, "hint-detail-more");
        let bar = first.lines().last().unwrap_or_default().to_owned();
        assert!(
            bar.contains(&format!("J {more}")),
            "{lang:?}: the hint bar offers J:\n{first}"
        );
        assert!(
            first.contains("↓ J"),
            "{lang:?}: the border says more is below:\n{first}"
        );
        // Scrolled line by line to the end: every field of the request came into view.
        let mut seen = first.clone();
        let mut last = first;
        for _ in 0..20 {
            let _ = update(&mut m, key('J'));
            let now = drawn(&mut m, 60, 15);
            seen.push_str(&now);
            if now == last {
                break;
            }
            last = now;
        }
        let (club, year) = match lang {
            Lang::English => ("Robotics Club", "2026"),
            Lang::Thai => ("ชุมนุมหุ่นยนต์", "2569"),
        };
        for what in ["51001", club, year] {
            assert!(
                seen.contains(what),
                "{lang:?}: {what} was never in view:\n{seen}"
            );
        }
        let asked = club_admin::i18n::tr(lang, "detail-field-asked");
        assert!(
            seen.contains(asked.trim()),
            "{lang:?}: 'asked' never in view"
        );
        let back = club_admin::i18n::tr(lang, "hint-detail-back");
        let bar = last.lines().last().unwrap_or_default();
        assert!(
            bar.contains(&format!("K {back}")),
            "{lang:?}: at the end K:\n{last}"
        );
        assert!(
            last.contains("↑ K"),
            "{lang:?}: the border says more is above:\n{last}"
        );
        assert!(
            !last.contains("↓ J"),
            "{lang:?}: nothing more below:\n{last}"
        );
        // Where everything is in view: no sign, no key.
        let mut wide = loaded(options_in(lang), sample_rows());
        let big = drawn(&mut wide, 120, 40);
        assert!(
            !big.contains("↓ J") && !big.contains(&more),
            "{lang:?}:\n{big}"
        );
    }
}
