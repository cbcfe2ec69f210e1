//! The shape of the code as `docs/architecture.md` promises it: every file the document
//! names exists (a newcomer who follows it lands in a real file), no source file is longer
//! than 600 lines and no function longer than 80, so each room stays readable whole.

use std::path::{Path, PathBuf};

/// The largest source file, in lines.
const MAX_FILE_LINES: usize = 600;
/// The longest function, in lines from its signature to its closing brace.
const MAX_FN_LINES: usize = 80;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The file paths a Markdown text names in backticks (`app/update/keys.rs`,
/// `tests/suite/flows/flow.rs::name`, `main.ftl`), without a placeholder such as `<pane>`.
fn named_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let path = part.split("::").next().unwrap_or("").trim();
        let is_file = [".rs", ".md", ".ftl", ".toml"]
            .iter()
            .any(|ext| path.ends_with(ext));
        let plain = path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
        if is_file && plain && !path.is_empty() {
            out.push(path.to_owned());
        }
    }
    out
}

/// Where a path named in the document is: from the repository's root when it starts with
/// one of its folders, a Fluent file under `assets/locales/en`, else under `src/`.
fn resolve(path: &str) -> PathBuf {
    let top = [
        "src/",
        "tests/",
        "docs/",
        "assets/",
        "benches/",
        "examples/",
    ];
    if top.iter().any(|t| path.starts_with(t)) || path == "README.md" {
        root().join(path)
    } else if path.ends_with(".ftl") {
        root().join("assets/locales/en").join(path)
    } else {
        root().join("src").join(path)
    }
}

#[test]
fn every_file_the_architecture_names_exists() {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("the document");
    let named = named_paths(&doc);
    assert!(named.len() > 50, "too few paths found: {named:?}");
    let missing: Vec<&String> = named.iter().filter(|p| !resolve(p).is_file()).collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md names files that do not exist: {missing:?}"
    );
}

#[test]
fn the_check_reads_paths_in_backticks() {
    let found = named_paths("`ui/help.rs` and `a::b`, `tests/x.rs::t`, `ui/panes/<pane>.rs`");
    assert_eq!(found, ["ui/help.rs", "tests/x.rs"]);
}

/// Functions of `text` longer than `max` lines: `(name, first line, lines)`. A function runs
/// from its `fn` line to the brace that closes its body (braces in strings, characters and
/// comments are not counted).
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let Some(at) = t.find("fn ") else { continue };
        let head = &t[..at];
        let is_fn = head
            .split_whitespace()
            .all(|w| ["pub", "async", "const", "unsafe"].contains(&w) || w.starts_with("pub("));
        if !is_fn || t.starts_with("//") {
            continue;
        }
        let name: String = t[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (mut depth, mut opened) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            for c in code_of(l).chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth <= 0 {
                if j - i + 1 > max {
                    out.push((name.clone(), i + 1, j - i + 1));
                }
                break;
            }
            if !opened && code_of(l).trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

/// A line without its comment, string and character literals (enough to count braces).
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => break,
            '"' => {
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '\'' => {
                // A character literal ('{', '\''), not a lifetime ('a).
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.nth(2);
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.nth(1);
                }
            }
            _ => out.push(c),
        }
    }
    out
}

#[test]
fn no_source_file_or_function_is_too_long() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    assert!(files.len() > 50, "too few source files: {}", files.len());
    let mut too_long = Vec::new();
    for p in files {
        let text = std::fs::read_to_string(&p).expect("a source file");
        let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            too_long.push(format!("{name}: {n} lines (at most {MAX_FILE_LINES})"));
        }
        for (f, line, n) in long_functions(&text, MAX_FN_LINES) {
            too_long.push(format!(
                "{name}:{line} fn {f}: {n} lines (at most {MAX_FN_LINES})"
            ));
        }
    }
    assert!(too_long.is_empty(), "{}", too_long.join("\n"));
}

#[test]
fn the_check_measures_a_function_to_its_closing_brace() {
    let body = "    let s = \"}\";\n    let c = '{';\n".repeat(60);
    let text = format!("/// x\npub(crate) fn long() {{\n{body}}}\n\nfn short() {{}}\n");
    assert_eq!(long_functions(&text, 100), [("long".to_owned(), 2, 122)]);
    assert!(long_functions(&text, 122).is_empty());
}
