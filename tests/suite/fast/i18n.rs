//! The locale files: both parse cleanly, hold the same keys with the same `$placeholders`,
//! cover every action of the keymap, and every key resolves in both languages.

use std::collections::{BTreeMap, BTreeSet};

use club_admin::app::Keymap;
use club_admin::i18n::{FluentValue, Lang, action_key, tr, tr_args};
use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

/// Every `.ftl` file of a language folder under `assets/locales`, in file-name order, joined
/// (the loader reads them all; a key defined in two files is reported as defined twice).
fn locale(lang: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/locales")
        .join(lang);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("locale folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ftl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .ftl file in {}", dir.display());
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("readable .ftl"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Message id (and `id.attribute`) → the variables its pattern uses.
type Keys = BTreeMap<String, BTreeSet<String>>;

fn inline_vars(e: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match e {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_vars(a, out);
            }
            for a in &arguments.named {
                inline_vars(&a.value, out);
            }
        }
        InlineExpression::TermReference {
            arguments: Some(arguments),
            ..
        } => {
            for a in &arguments.positional {
                inline_vars(a, out);
            }
            for a in &arguments.named {
                inline_vars(&a.value, out);
            }
        }
        InlineExpression::Placeable { expression } => expr_vars(expression, out),
        _ => {}
    }
}

fn expr_vars(e: &Expression<&str>, out: &mut BTreeSet<String>) {
    match e {
        Expression::Inline(i) => inline_vars(i, out),
        Expression::Select { selector, variants } => {
            inline_vars(selector, out);
            for v in variants {
                pattern_vars(&v.value, out);
            }
        }
    }
}

fn pattern_vars(p: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for el in &p.elements {
        if let PatternElement::Placeable { expression } = el {
            expr_vars(expression, out);
        }
    }
}

/// Parses a Fluent file; errors and junk are reported, not skipped.
fn keys(name: &str, source: &str) -> Result<Keys, String> {
    let res = fluent_syntax::parser::parse(source)
        .map_err(|(_, errs)| format!("{name}: {} syntax error(s): {errs:?}", errs.len()))?;
    let mut out = Keys::new();
    for entry in &res.body {
        match entry {
            Entry::Message(m) => {
                let mut vars = BTreeSet::new();
                if let Some(v) = &m.value {
                    pattern_vars(v, &mut vars);
                }
                if out.insert(m.id.name.to_owned(), vars).is_some() {
                    return Err(format!("{name}: {} defined twice", m.id.name));
                }
                for a in &m.attributes {
                    let mut vars = BTreeSet::new();
                    pattern_vars(&a.value, &mut vars);
                    out.insert(format!("{}.{}", m.id.name, a.id.name), vars);
                }
            }
            Entry::Term(t) => {
                let mut vars = BTreeSet::new();
                pattern_vars(&t.value, &mut vars);
                out.insert(format!("-{}", t.id.name), vars);
            }
            Entry::Junk { content } => return Err(format!("{name}: junk {content:?}")),
            _ => {}
        }
    }
    Ok(out)
}

/// Every difference between two locale files, in words.
fn differences(en: &str, th: &str) -> Vec<String> {
    let (en, th) = match (keys("en", en), keys("th", th)) {
        (Ok(e), Ok(t)) => (e, t),
        (e, t) => {
            return [e.err(), t.err()].into_iter().flatten().collect();
        }
    };
    let mut out = Vec::new();
    for (k, vars) in &en {
        match th.get(k) {
            None => out.push(format!("{k}: missing in th")),
            Some(tv) if tv != vars => {
                out.push(format!("{k}: placeholders en {vars:?} but th {tv:?}"))
            }
            Some(_) => {}
        }
    }
    for k in th.keys().filter(|k| !en.contains_key(*k)) {
        out.push(format!("{k}: missing in en"));
    }
    out
}

#[test]
fn both_languages_have_the_same_keys_and_placeholders() {
    let (en, th) = (locale("en"), locale("th"));
    let diff = differences(&en, &th);
    assert!(
        diff.is_empty(),
        "locale files differ:\n  {}",
        diff.join("\n  ")
    );
    assert!(
        keys("en", &en).expect("en").len() >= 80,
        "the seed is there"
    );
}

#[test]
fn the_check_catches_a_missing_key_a_renamed_placeholder_and_a_syntax_error() {
    let en = "a = one\nb = { $n } rows\nc = x\n";
    assert_eq!(
        differences(en, "a = หนึ่ง\nb = { $count } แถว\nd = y\n"),
        [
            "b: placeholders en {\"n\"} but th {\"count\"}",
            "c: missing in th",
            "d: missing in en"
        ]
    );
    assert_eq!(
        differences(
            "p = { $n ->\n    [one] { $n } row\n   *[other] { $n } rows\n}\n",
            "p = { $n } แถว\n"
        ),
        Vec::<String>::new(),
        "a plural select and a plain Thai text use the same placeholder"
    );
    assert_eq!(differences(en, "a = { $n\n").len(), 1, "syntax error");
}

/// Placeholder values for every variable of a key.
fn dummy_args(vars: &BTreeSet<String>) -> Vec<(&str, FluentValue<'static>)> {
    vars.iter()
        .map(|v| (v.as_str(), FluentValue::from(2)))
        .collect()
}

#[test]
fn every_key_resolves_in_both_languages_without_falling_back() {
    let en = keys("en", &locale("en")).expect("en");
    let th = keys("th", &locale("th")).expect("th");
    for (k, vars) in en.iter().filter(|(k, _)| !k.starts_with('-')) {
        let args = dummy_args(vars);
        let e = tr_args(Lang::English, k, &args);
        let t = tr_args(Lang::Thai, k, &args);
        assert_ne!(&e, k, "{k} does not resolve in English");
        assert_ne!(&t, k, "{k} does not resolve in Thai");
        // Thai text comes from the Thai file: it holds Thai letters, or equals its English
        // only where the words are not translated (placeholders and symbols).
        if th.contains_key(k) && t == e {
            assert!(
                !e.chars().any(|c| c.is_ascii_alphabetic()),
                "{k}: the Thai text is the English one ({e:?})"
            );
        }
    }
}

#[test]
fn every_action_and_scope_of_the_keymap_has_its_words() {
    for b in Keymap::default().bindings {
        for prefix in ["action", "hint"] {
            let key = action_key(prefix, b.action.name());
            for lang in Lang::ALL {
                assert_ne!(tr(lang, &key), key, "{key} missing in {lang}");
            }
        }
    }
    for key in ["scope-global", "scope-queue", "scope-club", "scope-log"] {
        assert!(!tr(Lang::English, key).is_empty());
        assert_ne!(tr(Lang::Thai, key), tr(Lang::English, key), "{key}");
    }
    assert_eq!(tr(Lang::Thai, "scope-log"), "บันทึกกิจกรรม");
    assert_eq!(tr(Lang::English, "scope-log"), "Activity log");
}

/// The term view's counts agree in number in English ("1 request", "2 requests").
#[test]
fn the_term_view_s_counts_are_singular_for_one() {
    let en = Lang::English;
    assert_eq!(
        club_admin::tr!(en, "term-day-asked", asked = 1),
        "1 request"
    );
    assert_eq!(
        club_admin::tr!(en, "term-day-asked", asked = 2),
        "2 requests"
    );
    let day = club_admin::tr!(en, "term-day", asked = 1, approved = 0, declined = 1);
    assert_eq!(day, "1 request, 0 approved, 1 declined");
    let counts = club_admin::tr!(
        en,
        "term-counts",
        requests = 1,
        pending = 1,
        approved = 0,
        declined = 0
    );
    assert!(counts.starts_with("1 request: "), "{counts}");
}
