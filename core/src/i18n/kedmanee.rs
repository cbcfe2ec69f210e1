//! The Thai Kedmanee keyboard: which US QWERTY key a Thai character is
//! typed with, so that a moderator whose keyboard is still on Thai can press `a` (and the
//! terminal sends "ฟ") and still approve.
//!
//! The table is the standard layout, TIS 820-2538, as xkeyboard-config ships it
//! (`symbols/th`, variant `tis`, "Thai (TIS-820.2538)", by Theppitak Karoonboonyanan),
//! checked key by key against the keysym names there and the code points of its `olpc`
//! variant. The older Kedmanee of Microsoft Windows (`kbdth0`) and of xkeyboard-config's
//! default `th` differs only on the `` ` ``, `1`, shifted `7` and `\` keys, none of which the
//! keymap binds; every letter and every bound punctuation key is the same in both.
//!
//! Only the shift level is covered (no AltGr), and only characters a US layout cannot type:
//! the ASCII characters the Thai layout leaves on some keys (`/` `-` `"` `,` `.` `(` `)` `?`)
//! are what they are on any layout.

/// One key: its US QWERTY characters (unshifted, shifted) and its Thai ones; `None` where the
/// Thai layout types an ASCII character there.
struct Key {
    qwerty: (char, char),
    thai: (Option<char>, Option<char>),
}

const fn key(q: char, qs: char, t: Option<char>, ts: Option<char>) -> Key {
    Key {
        qwerty: (q, qs),
        thai: (t, ts),
    }
}

/// TIS 820-2538, in the order of the US keyboard rows. Comments: the xkb key name and the
/// keysyms of the `tis` variant (unshifted, shifted).
const LAYOUT: [Key; 47] = [
    key('`', '~', Some('\u{0E4F}'), Some('\u{0E5B}')), // TLDE ๏ ๛ (fongman, khomut)
    key('1', '!', Some('\u{0E3F}'), Some('\u{0E45}')), // AE01 Thai_baht ฿, Thai_lakkhangyao ๅ
    key('2', '@', None, Some('\u{0E51}')),             // AE02 slash, Thai_leknung ๑
    key('3', '#', None, Some('\u{0E52}')),             // AE03 minus, Thai_leksong ๒
    key('4', '$', Some('\u{0E20}'), Some('\u{0E53}')), // AE04 Thai_phosamphao ภ, Thai_leksam ๓
    key('5', '%', Some('\u{0E16}'), Some('\u{0E54}')), // AE05 Thai_thothung ถ, Thai_leksi ๔
    key('6', '^', Some('\u{0E38}'), Some('\u{0E39}')), // AE06 Thai_sarau ุ, Thai_sarauu ู
    key('7', '&', Some('\u{0E36}'), Some('\u{0E4E}')), // AE07 Thai_saraue ึ, U0E4E yamakkan ๎
    key('8', '*', Some('\u{0E04}'), Some('\u{0E55}')), // AE08 Thai_khokhwai ค, Thai_lekha ๕
    key('9', '(', Some('\u{0E15}'), Some('\u{0E56}')), // AE09 Thai_totao ต, Thai_lekhok ๖
    key('0', ')', Some('\u{0E08}'), Some('\u{0E57}')), // AE10 Thai_chochan จ, Thai_lekchet ๗
    key('-', '_', Some('\u{0E02}'), Some('\u{0E58}')), // AE11 Thai_khokhai ข, Thai_lekpaet ๘
    key('=', '+', Some('\u{0E0A}'), Some('\u{0E59}')), // AE12 Thai_chochang ช, Thai_lekkao ๙
    key('q', 'Q', Some('\u{0E46}'), Some('\u{0E50}')), // AD01 Thai_maiyamok ๆ, Thai_leksun ๐
    key('w', 'W', Some('\u{0E44}'), None),             // AD02 Thai_saraaimaimalai ไ, quotedbl
    key('e', 'E', Some('\u{0E33}'), Some('\u{0E0E}')), // AD03 Thai_saraam ำ, Thai_dochada ฎ
    key('r', 'R', Some('\u{0E1E}'), Some('\u{0E11}')), // AD04 Thai_phophan พ, Thai_thonangmontho ฑ
    key('t', 'T', Some('\u{0E30}'), Some('\u{0E18}')), // AD05 Thai_saraa ะ, Thai_thothong ธ
    key('y', 'Y', Some('\u{0E31}'), Some('\u{0E4D}')), // AD06 Thai_maihanakat ั, Thai_nikhahit ํ
    key('u', 'U', Some('\u{0E35}'), Some('\u{0E4A}')), // AD07 Thai_saraii ี, Thai_maitri ๊
    key('i', 'I', Some('\u{0E23}'), Some('\u{0E13}')), // AD08 Thai_rorua ร, Thai_nonen ณ
    key('o', 'O', Some('\u{0E19}'), Some('\u{0E2F}')), // AD09 Thai_nonu น, Thai_paiyannoi ฯ
    key('p', 'P', Some('\u{0E22}'), Some('\u{0E0D}')), // AD10 Thai_yoyak ย, Thai_yoying ญ
    key('[', '{', Some('\u{0E1A}'), Some('\u{0E10}')), // AD11 Thai_bobaimai บ, Thai_thothan ฐ
    key(']', '}', Some('\u{0E25}'), None),             // AD12 Thai_loling ล, comma
    key('a', 'A', Some('\u{0E1F}'), Some('\u{0E24}')), // AC01 Thai_fofan ฟ, Thai_ru ฤ
    key('s', 'S', Some('\u{0E2B}'), Some('\u{0E06}')), // AC02 Thai_hohip ห, Thai_khorakhang ฆ
    key('d', 'D', Some('\u{0E01}'), Some('\u{0E0F}')), // AC03 Thai_kokai ก, Thai_topatak ฏ
    key('f', 'F', Some('\u{0E14}'), Some('\u{0E42}')), // AC04 Thai_dodek ด, Thai_sarao โ
    key('g', 'G', Some('\u{0E40}'), Some('\u{0E0C}')), // AC05 Thai_sarae เ, Thai_chochoe ฌ
    key('h', 'H', Some('\u{0E49}'), Some('\u{0E47}')), // AC06 Thai_maitho ้, Thai_maitaikhu ็
    key('j', 'J', Some('\u{0E48}'), Some('\u{0E4B}')), // AC07 Thai_maiek ่, Thai_maichattawa ๋
    key('k', 'K', Some('\u{0E32}'), Some('\u{0E29}')), // AC08 Thai_saraaa า, Thai_sorusi ษ
    key('l', 'L', Some('\u{0E2A}'), Some('\u{0E28}')), // AC09 Thai_sosua ส, Thai_sosala ศ
    key(';', ':', Some('\u{0E27}'), Some('\u{0E0B}')), // AC10 Thai_wowaen ว, Thai_soso ซ
    key('\'', '"', Some('\u{0E07}'), None),            // AC11 Thai_ngongu ง, period
    key('\\', '|', Some('\u{0E05}'), Some('\u{0E03}')), // BKSL Thai_khokhon ฅ, Thai_khokhuat ฃ
    key('z', 'Z', Some('\u{0E1C}'), None),             // AB01 Thai_phophung ผ, parenleft
    key('x', 'X', Some('\u{0E1B}'), None),             // AB02 Thai_popla ป, parenright
    key('c', 'C', Some('\u{0E41}'), Some('\u{0E09}')), // AB03 Thai_saraae แ, Thai_choching ฉ
    key('v', 'V', Some('\u{0E2D}'), Some('\u{0E2E}')), // AB04 Thai_oang อ, Thai_honokhuk ฮ
    key('b', 'B', Some('\u{0E34}'), Some('\u{0E3A}')), // AB05 Thai_sarai ิ, Thai_phinthu ฺ
    key('n', 'N', Some('\u{0E37}'), Some('\u{0E4C}')), // AB06 Thai_sarauee ื, Thai_thanthakhat ์
    key('m', 'M', Some('\u{0E17}'), None),             // AB07 Thai_thothahan ท, question
    key(',', '<', Some('\u{0E21}'), Some('\u{0E12}')), // AB08 Thai_moma ม, Thai_thophuthao ฒ
    key('.', '>', Some('\u{0E43}'), Some('\u{0E2C}')), // AB09 Thai_saraaimaimuan ใ, Thai_lochula ฬ
    key('/', '?', Some('\u{0E1D}'), Some('\u{0E26}')), // AB10 Thai_fofa ฝ, Thai_lu ฦ
];

/// The US QWERTY character of the key that types `c` on the Kedmanee layout, with the same
/// shift state: `ฟ` → `a`, `ฤ` → `A`, `ฦ` → `?`, `ซ` → `:`, `ฝ` → `/`. `None` for anything
/// the Thai layout does not type, and for ASCII (a `?` is a `?` on every layout).
pub fn qwerty_for(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    LAYOUT.iter().find_map(|k| {
        if k.thai.0 == Some(c) {
            Some(k.qwerty.0)
        } else if k.thai.1 == Some(c) {
            Some(k.qwerty.1)
        } else {
            None
        }
    })
}

/// Every `(thai, qwerty)` pair of the layout, unshifted then shifted per key, in the order
/// of the US keyboard rows (for help screens and tests).
pub fn pairs() -> impl Iterator<Item = (char, char)> {
    LAYOUT.iter().flat_map(|k| {
        [(k.thai.0, k.qwerty.0), (k.thai.1, k.qwerty.1)]
            .into_iter()
            .filter_map(|(t, q)| t.map(|t| (t, q)))
    })
}
