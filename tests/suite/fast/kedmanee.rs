//! The Kedmanee table, checked exhaustively: against a second, row-by-row
//! transcription of TIS 820-2538 (xkeyboard-config `symbols/th`, variant `tis`), for
//! uniqueness both ways, for covering the whole Thai block, and for reaching every plain key
//! the default keymap binds.

use std::collections::{BTreeMap, BTreeSet};

use club_admin::app::KeyCode;
use club_admin::app::Keymap;
use club_admin::i18n::kedmanee::{pairs, qwerty_for};

/// The four rows of the US keyboard, unshifted then shifted, and what TIS 820-2538 types on
/// them (ASCII where the Thai layout leaves ASCII).
const ROWS: [(&str, &str); 8] = [
    ("`1234567890-=", "๏฿/-ภถุึคตจขช"),
    ("qwertyuiop[]\\", "ๆไำพะัีรนยบลฅ"),
    ("asdfghjkl;'", "ฟหกดเ้่าสวง"),
    ("zxcvbnm,./", "ผปแอิืทมใฝ"),
    ("~!@#$%^&*()_+", "๛ๅ๑๒๓๔ู๎๕๖๗๘๙"),
    ("QWERTYUIOP{}|", "๐\"ฎฑธํ๊ณฯญฐ,ฃ"),
    ("ASDFGHJKL:\"", "ฤฆฏโฌ็๋ษศซ."),
    ("ZXCVBNM<>?", "()ฉฮฺ์?ฒฬฦ"),
];

#[test]
fn matches_a_second_transcription_of_the_standard_row_by_row() {
    let mut checked = 0;
    for (qwerty, thai) in ROWS {
        assert_eq!(
            qwerty.chars().count(),
            thai.chars().count(),
            "row {qwerty} has one Thai character per key"
        );
        for (q, t) in qwerty.chars().zip(thai.chars()) {
            if t.is_ascii() {
                assert_eq!(qwerty_for(t), None, "ASCII {t:?} stays itself");
            } else {
                assert_eq!(qwerty_for(t), Some(q), "{t} (U+{:04X})", t as u32);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 86);
    assert_eq!(pairs().count(), 86);
    for (t, q) in pairs() {
        assert_eq!(qwerty_for(t), Some(q));
    }
}

#[test]
fn the_keys_the_issue_and_the_brief_name() {
    let expected = [
        ('ฟ', 'a'),
        ('ป', 'x'),
        ('่', 'j'),
        ('า', 'k'),
        ('ห', 's'),
        ('ก', 'd'),
        ('ด', 'f'),
        ('เ', 'g'),
        ('้', 'h'),
        ('ร', 'i'),
        ('น', 'o'),
        ('ย', 'p'),
        ('ผ', 'z'),
        ('แ', 'c'),
        ('อ', 'v'),
        ('ิ', 'b'),
        ('ื', 'n'),
        ('ท', 'm'),
        ('ๆ', 'q'),
        ('ไ', 'w'),
        ('ำ', 'e'),
        ('พ', 'r'),
        ('ะ', 't'),
        ('ั', 'y'),
        ('ี', 'u'),
        ('บ', '['),
        ('ล', ']'),
        ('ง', '\''),
        ('ว', ';'),
        ('ส', 'l'),
        ('ใ', '.'),
        ('ฝ', '/'),
        ('ม', ','),
        ('ฤ', 'A'),
        ('ฆ', 'S'),
        ('ฏ', 'D'),
        ('โ', 'F'),
        ('ฌ', 'G'),
        ('็', 'H'),
        ('๋', 'J'),
        ('ษ', 'K'),
        ('ศ', 'L'),
        ('ซ', ':'),
        ('ฉ', 'C'),
        ('ฮ', 'V'),
        ('ฺ', 'B'),
        ('์', 'N'),
        ('ฒ', '<'),
        ('ฬ', '>'),
        ('ฦ', '?'),
        ('๕', '*'),
    ];
    for (t, q) in expected {
        assert_eq!(qwerty_for(t), Some(q), "{t}");
    }
    // Shift-Z is "(" on the Thai layout, not a Thai letter; shift-M is "?" itself.
    assert_eq!(pairs().find(|&(_, q)| q == 'Z'), None);
    assert_eq!(pairs().find(|&(_, q)| q == 'M'), None);
    assert_eq!(qwerty_for('?'), None);
    assert_eq!(qwerty_for('a'), None);
    assert_eq!(qwerty_for('王'), None);
}

#[test]
fn every_letter_maps_back_uniquely() {
    let mut back: BTreeMap<char, Vec<char>> = BTreeMap::new();
    for (t, q) in pairs() {
        back.entry(q).or_default().push(t);
    }
    for (q, ts) in &back {
        assert_eq!(ts.len(), 1, "{q:?} is typed by {ts:?}");
    }
    let thai: Vec<char> = pairs().map(|(t, _)| t).collect();
    let unique: BTreeSet<char> = thai.iter().copied().collect();
    assert_eq!(unique.len(), thai.len(), "no Thai character on two keys");
    for q in 'a'..='z' {
        assert!(back.contains_key(&q), "{q} has a Thai character");
    }
    // W, Z, X and M type ASCII when shifted on the Thai layout: " ( ) ?
    for q in ('A'..='Z').filter(|q| !"WZXM".contains(*q)) {
        assert!(back.contains_key(&q), "{q} has a Thai character");
    }
}

#[test]
fn covers_the_thai_block_but_angkhankhu() {
    let typed: BTreeSet<char> = pairs().map(|(t, _)| t).collect();
    let block: BTreeSet<char> = (0x0E01..=0x0E5B)
        .filter_map(char::from_u32)
        .filter(|c| !matches!(*c as u32, 0x0E3B..=0x0E3E))
        .collect();
    let missing: Vec<char> = block.difference(&typed).copied().collect();
    // ๚ (ANGKHANKHU) is on AltGr-o only (the third level), which this table leaves out.
    assert_eq!(missing, ['\u{0E5A}']);
    assert!(typed.is_subset(&block));
}

#[test]
fn reaches_every_plain_key_the_keymap_binds() {
    let reachable: BTreeSet<char> = pairs().map(|(_, q)| q).collect();
    for b in Keymap::default().bindings {
        for k in &b.keys {
            if let KeyCode::Char(c) = k.code
                && !k.ctrl
                && !k.alt
                && c != ' '
            {
                assert!(
                    reachable.contains(&c),
                    "{c:?} ({}) cannot be typed on the Thai layout",
                    b.action.name()
                );
            }
        }
    }
}
