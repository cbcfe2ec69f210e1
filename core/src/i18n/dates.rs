//! Dates and ages in Thai or English.
//!
//! Thai schools write dates with Thai month names and the Buddhist Era year, CE + 543
//! ("22 พ.ย. 2569" for 22 November 2026); academic years likewise (2569). Month names are
//! CLDR's Gregorian `th` names (wide and abbreviated). Relative ages keep today's English
//! forms ("5m", "3d", "2w") and read "5 นาที", "3 วัน", "2 สัปดาห์" in Thai; the
//! words come from the `age-*` keys of the locale files.

use chrono::{DateTime, Datelike, Timelike, Utc};

use super::{Lang, tr, tr_args};

/// How years are written: Buddhist Era (CE + 543, the default in Thai) or Common Era.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum YearStyle {
    /// พุทธศักราช: 2026 is written 2569.
    Be,
    /// Common Era: 2026.
    Ce,
}

impl YearStyle {
    /// The config value: `"be"` or `"ce"` (case-insensitive); `None` for anything else.
    pub fn parse(value: &str) -> Option<YearStyle> {
        match value.trim().to_ascii_lowercase().as_str() {
            "be" => Some(YearStyle::Be),
            "ce" => Some(YearStyle::Ce),
            _ => None,
        }
    }

    /// The default for a language: BE in Thai, CE in English.
    pub fn default_for(lang: Lang) -> YearStyle {
        match lang {
            Lang::Thai => YearStyle::Be,
            Lang::English => YearStyle::Ce,
        }
    }
}

/// Difference between the Buddhist Era and the Common Era year numbers.
pub const BE_OFFSET: i32 = 543;

/// Month names: wide or abbreviated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MonthForm {
    /// "พฤศจิกายน", "November".
    Full,
    /// "พ.ย.", "Nov".
    Short,
}

const THAI_MONTHS: [&str; 12] = [
    "มกราคม",
    "กุมภาพันธ์",
    "มีนาคม",
    "เมษายน",
    "พฤษภาคม",
    "มิถุนายน",
    "กรกฎาคม",
    "สิงหาคม",
    "กันยายน",
    "ตุลาคม",
    "พฤศจิกายน",
    "ธันวาคม",
];

const THAI_MONTHS_SHORT: [&str; 12] = [
    "ม.ค.",
    "ก.พ.",
    "มี.ค.",
    "เม.ย.",
    "พ.ค.",
    "มิ.ย.",
    "ก.ค.",
    "ส.ค.",
    "ก.ย.",
    "ต.ค.",
    "พ.ย.",
    "ธ.ค.",
];

const ENGLISH_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const ENGLISH_MONTHS_SHORT: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The name of `month` (1 = January … 12 = December); `None` outside 1..=12.
pub fn month_name(lang: Lang, form: MonthForm, month: u32) -> Option<&'static str> {
    let i = usize::try_from(month).ok()?.checked_sub(1)?;
    let table = match (lang, form) {
        (Lang::Thai, MonthForm::Full) => &THAI_MONTHS,
        (Lang::Thai, MonthForm::Short) => &THAI_MONTHS_SHORT,
        (Lang::English, MonthForm::Full) => &ENGLISH_MONTHS,
        (Lang::English, MonthForm::Short) => &ENGLISH_MONTHS_SHORT,
    };
    table.get(i).copied()
}

/// The year number of CE year `ce` in `style`: 2026 → 2569 (BE) or 2026 (CE).
pub fn year(style: YearStyle, ce: i32) -> i32 {
    match style {
        YearStyle::Be => ce + BE_OFFSET,
        YearStyle::Ce => ce,
    }
}

/// An academic year as the API gives it (CE, e.g. `year: 2026`) written in `style`:
/// "2569" or "2026".
pub fn academic_year(style: YearStyle, ce: i32) -> String {
    year(style, ce).to_string()
}

/// The date of `d` (any chrono date or date-time, in its own time zone): "22 พ.ย. 2569",
/// "22 พฤศจิกายน 2569" in Thai; "22 Nov 2026", "22 November 2026" in English. In English a BE
/// year is marked: "22 Nov 2569 BE".
pub fn date<D: Datelike>(lang: Lang, style: YearStyle, form: MonthForm, d: &D) -> String {
    let month = month_name(lang, form, d.month()).unwrap_or("?");
    let y = year(style, d.year());
    match (lang, style) {
        (Lang::English, YearStyle::Be) => format!("{} {month} {y} BE", d.day()),
        (Lang::Thai, _) | (Lang::English, YearStyle::Ce) => format!("{} {month} {y}", d.day()),
    }
}

/// Date and time of a UTC timestamp, abbreviated month: "22 พ.ย. 2569 09:00 UTC",
/// "22 Nov 2026 09:00 UTC" (what the detail pane shows as `%Y-%m-%d %H:%M UTC` today).
pub fn date_time_utc(lang: Lang, style: YearStyle, t: DateTime<Utc>) -> String {
    format!(
        "{} {:02}:{:02} UTC",
        date(lang, style, MonthForm::Short, &t),
        t.hour(),
        t.minute()
    )
}

/// The age of `t` at `now`: "now" "5m" "3h" "2d" "3w" "1y" in English (the dashboard's
/// short forms: whole units rounded down, weeks from 14 days, years of 365 days);
/// "เมื่อครู่" "5 นาที" "3 ชม." "2 วัน" "3 สัปดาห์" "1 ปี" in Thai. A `t` after `now` is "now".
pub fn age(lang: Lang, now: DateTime<Utc>, t: DateTime<Utc>) -> String {
    let s = (now - t).num_seconds().max(0);
    let (key, n) = match s {
        0..60 => return tr(lang, "age-now"),
        60..3600 => ("age-minutes", s / 60),
        3600..86400 => ("age-hours", s / 3600),
        86400..1_209_600 => ("age-days", s / 86400),
        1_209_600..31_536_000 => ("age-weeks", s / 604_800),
        _ => ("age-years", s / 31_536_000),
    };
    tr_args(lang, key, &[("n", n.into())])
}

/// "5m ago" / "5 นาทีที่แล้ว": [`age`] with the word for the past ("now" stays "now":
/// "เมื่อครู่").
pub fn ago(lang: Lang, now: DateTime<Utc>, t: DateTime<Utc>) -> String {
    if (now - t).num_seconds() < 60 {
        return tr(lang, "age-now");
    }
    let a = age(lang, now, t);
    tr_args(lang, "age-ago", &[("age", a.into())])
}

/// Time left until `t`: "3d 4h", "7h 59m", "12m", "45s" (under a minute), "expired" in
/// English (the header's short form); "3 วัน 4 ชม.", "7 ชม. 59 นาที", "12 นาที",
/// "45 วินาที", "หมดอายุแล้ว" in Thai.
pub fn time_left(lang: Lang, now: DateTime<Utc>, t: DateTime<Utc>) -> String {
    let s = (t - now).num_seconds();
    if s <= 0 {
        return tr(lang, "age-expired");
    }
    let (d, h, m) = (s / 86400, (s % 86400) / 3600, (s % 3600) / 60);
    if d > 0 {
        tr_args(
            lang,
            "age-left-days-hours",
            &[("days", d.into()), ("hours", h.into())],
        )
    } else if h > 0 {
        tr_args(
            lang,
            "age-left-hours-minutes",
            &[("hours", h.into()), ("minutes", m.into())],
        )
    } else if m > 0 {
        tr_args(lang, "age-left-minutes", &[("minutes", m.into())])
    } else {
        tr_args(lang, "age-left-seconds", &[("seconds", s.into())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, NaiveDate, TimeZone};

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0)
            .single()
            .expect("valid time")
    }

    #[test]
    fn thai_dates_with_buddhist_era() {
        let t = at(2026, 11, 22, 9, 0);
        let (th, en) = (Lang::Thai, Lang::English);
        assert_eq!(
            date(th, YearStyle::Be, MonthForm::Short, &t),
            "22 พ.ย. 2569"
        );
        assert_eq!(
            date(th, YearStyle::Be, MonthForm::Full, &t),
            "22 พฤศจิกายน 2569"
        );
        assert_eq!(
            date(th, YearStyle::Ce, MonthForm::Short, &t),
            "22 พ.ย. 2026"
        );
        assert_eq!(date(en, YearStyle::Ce, MonthForm::Short, &t), "22 Nov 2026");
        assert_eq!(
            date(en, YearStyle::Ce, MonthForm::Full, &t),
            "22 November 2026"
        );
        assert_eq!(
            date(en, YearStyle::Be, MonthForm::Short, &t),
            "22 Nov 2569 BE"
        );
        assert_eq!(
            date_time_utc(th, YearStyle::Be, at(2025, 1, 5, 7, 3)),
            "5 ม.ค. 2568 07:03 UTC"
        );
        assert_eq!(
            date_time_utc(en, YearStyle::Ce, at(2025, 1, 5, 7, 3)),
            "5 Jan 2025 07:03 UTC"
        );
        let leap = NaiveDate::from_ymd_opt(2024, 2, 29).expect("date");
        assert_eq!(
            date(th, YearStyle::Be, MonthForm::Full, &leap),
            "29 กุมภาพันธ์ 2567"
        );
        let months: Vec<_> = (1..=12)
            .filter_map(|m| month_name(th, MonthForm::Short, m))
            .collect();
        assert_eq!(
            months.join(" "),
            "ม.ค. ก.พ. มี.ค. เม.ย. พ.ค. มิ.ย. ก.ค. ส.ค. ก.ย. ต.ค. พ.ย. ธ.ค."
        );
        assert_eq!(month_name(th, MonthForm::Full, 0), None);
        assert_eq!(month_name(th, MonthForm::Full, 13), None);
    }

    #[test]
    fn academic_years() {
        assert_eq!(academic_year(YearStyle::Be, 2026), "2569");
        assert_eq!(academic_year(YearStyle::Ce, 2026), "2026");
        assert_eq!(year(YearStyle::Be, 2025), 2568);
        assert_eq!(YearStyle::parse("BE"), Some(YearStyle::Be));
        assert_eq!(YearStyle::parse(" ce "), Some(YearStyle::Ce));
        assert_eq!(YearStyle::parse("ad"), None);
        assert_eq!(YearStyle::default_for(Lang::Thai), YearStyle::Be);
        assert_eq!(YearStyle::default_for(Lang::English), YearStyle::Ce);
    }

    #[test]
    fn ages_in_both_languages_english_as_the_ui_writes_them() {
        // The English column is what the dashboard showed before `age` and `time_left`
        // moved here (checked against its own functions when this module was written).
        let now = at(2026, 11, 22, 9, 0);
        let cases = [
            (Duration::seconds(-30), "now", "เมื่อครู่"),
            (Duration::seconds(59), "now", "เมื่อครู่"),
            (Duration::minutes(5), "5m", "5 นาที"),
            (Duration::minutes(59), "59m", "59 นาที"),
            (Duration::hours(3), "3h", "3 ชม."),
            (Duration::days(3), "3d", "3 วัน"),
            (Duration::days(13), "13d", "13 วัน"),
            (Duration::days(14), "2w", "2 สัปดาห์"),
            (Duration::days(364), "52w", "52 สัปดาห์"),
            (Duration::days(365), "1y", "1 ปี"),
            (Duration::days(800), "2y", "2 ปี"),
        ];
        for (back, en, th) in cases {
            let t = now - back;
            assert_eq!(age(Lang::English, now, t), en, "{back:?}");
            assert_eq!(age(Lang::Thai, now, t), th, "{back:?}");
        }
        let t = now - Duration::days(3);
        assert_eq!(ago(Lang::English, now, t), "3d ago");
        assert_eq!(ago(Lang::Thai, now, t), "3 วันที่แล้ว");
        assert_eq!(ago(Lang::Thai, now, now), "เมื่อครู่");
    }

    #[test]
    fn time_left_in_both_languages() {
        let now = at(2026, 11, 22, 9, 0);
        let cases = [
            (
                Duration::days(3) + Duration::hours(4),
                "3d 4h",
                "3 วัน 4 ชม.",
            ),
            (
                Duration::hours(7) + Duration::minutes(59),
                "7h 59m",
                "7 ชม. 59 นาที",
            ),
            (Duration::minutes(12), "12m", "12 นาที"),
            // A token of a minute or less counts its seconds, never "0m".
            (Duration::seconds(59), "59s", "59 วินาที"),
            (Duration::seconds(1), "1s", "1 วินาที"),
            (Duration::seconds(0), "expired", "หมดอายุแล้ว"),
            (Duration::seconds(-5), "expired", "หมดอายุแล้ว"),
        ];
        for (ahead, en, th) in cases {
            let t = now + ahead;
            assert_eq!(time_left(Lang::English, now, t), en);
            assert_eq!(time_left(Lang::Thai, now, t), th);
        }
    }
}
