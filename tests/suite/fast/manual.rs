//! The manual (`docs/src/`, an mdBook readable as plain Markdown) names everything a user can
//! type: every long flag of every subcommand (clap's own definitions), every key of the
//! config file (its structs, read from their source with `syn`), every default key binding
//! (the keymap's table). And every relative link of the project's Markdown resolves to a file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::CommandFactory;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// The manual's pages, whole, one text.
fn manual() -> String {
    let mut pages = Vec::new();
    markdown_files(&root().join("docs/src"), &mut pages);
    assert!(pages.len() >= 10, "the manual's pages: {pages:?}");
    // The index of flags is made from the other pages: it proves nothing about them.
    pages.retain(|p| !p.ends_with(INDEX_OF_FLAGS));
    pages
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a page"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The manual's index of flags, under `docs/src`: made by [`index_of_flags`].
const INDEX_OF_FLAGS: &str = "flags.md";

/// Every long flag of `cmd` and its subcommands, as `(the command's path, --flag)`; flags
/// clap hides are left out.
fn long_flags(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
    for arg in cmd.get_arguments() {
        if let Some(long) = arg.get_long()
            && !arg.is_hide_set()
        {
            out.push((path.to_owned(), format!("--{long}")));
        }
    }
    for sub in cmd.get_subcommands() {
        long_flags(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

/// True when `flag` stands in `text` as a whole flag (`--json`, not the start of
/// `--json-lines`).
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag).any(|(at, _)| {
        text[at + flag.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    })
}

#[test]
fn every_flag_of_every_subcommand_is_in_the_manual() {
    let text = manual();
    let mut cmd = club_admin::cli::Cli::command();
    cmd.build();
    let mut flags = Vec::new();
    long_flags(&cmd, "club-admin", &mut flags);
    assert!(flags.len() > 40, "too few flags found: {flags:?}");
    let missing: Vec<String> = flags
        .iter()
        .filter(|(_, f)| !names_flag(&text, f))
        .map(|(p, f)| format!("{p} {f}"))
        .collect();
    assert!(
        missing.is_empty(),
        "flags the manual does not name: {missing:?}"
    );
}

#[test]
fn the_flag_check_wants_the_whole_flag() {
    assert!(names_flag("use `--json`.", "--json"));
    assert!(!names_flag("use `--json-lines`", "--json"));
    assert!(!names_flag("nothing here", "--json"));
}

/// The field names of the structs `names` in the Rust source `text`, as serde reads them
/// (no struct here renames a field).
fn struct_fields(text: &str, names: &[&str]) -> BTreeSet<String> {
    let file = syn::parse_file(text).expect("a source file syn can read");
    let mut out = BTreeSet::new();
    for item in file.items {
        if let syn::Item::Struct(s) = item
            && names.contains(&s.ident.to_string().as_str())
        {
            for f in s.fields {
                if let Some(id) = f.ident {
                    out.insert(id.to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_config_file_key_is_in_the_manual() {
    let source = std::fs::read_to_string(root().join("core/src/config/mod.rs")).expect("config");
    let keys = struct_fields(&source, &["FileConfig", "ServeSshFile"]);
    assert!(
        keys.len() > 25 && keys.contains("base_url") && keys.contains("idle_minutes"),
        "the config file's keys were read: {keys:?}"
    );
    let page = std::fs::read_to_string(root().join("docs/src/operators/config.md"))
        .expect("the config file's page");
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !page.contains(&format!("`{k}`")) && !page.contains(&format!("`[{k}]`")))
        .collect();
    assert!(
        missing.is_empty(),
        "config keys docs/src/operators/config.md does not name: {missing:?}"
    );
}

#[test]
fn every_default_key_binding_is_in_the_manual() {
    let page =
        std::fs::read_to_string(root().join("docs/src/moderators/keys.md")).expect("the keys page");
    let table = club_admin::app::keymap::Keymap::default();
    assert!(table.bindings.len() > 40, "the keymap's table was read");
    let mut missing = Vec::new();
    for b in &table.bindings {
        let name = format!("`{}`", b.action.name());
        let keys: Vec<String> = b.keys.iter().map(|k| format!("`{k}`")).collect();
        // One row of the page's table of bindings: the scope, the action's name, its keys.
        let found = page.lines().any(|l| {
            l.starts_with('|')
                && l.contains(b.scope.title())
                && l.contains(&name)
                && keys.iter().all(|k| l.contains(k.as_str()))
        });
        if !found {
            missing.push(format!("{} {name} {}", b.scope.title(), keys.join(" ")));
        }
    }
    assert!(
        missing.is_empty(),
        "bindings docs/src/moderators/keys.md has no row for:\n{}",
        missing.join("\n")
    );
}

/// The targets of the Markdown links in `text` (`[a](target)`, `![a](target)`), and the
/// line each is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        if fence {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((n + 1, after[..end].to_owned()));
            rest = &after[end..];
        }
    }
    out
}

/// Where a relative link of the file `from` leads, without its `#fragment`; `None` for a
/// link to another site, a mail address or an anchor of the same page.
fn link_target(from: &Path, link: &str) -> Option<PathBuf> {
    let path = link.split('#').next().unwrap_or("");
    let external = ["http://", "https://", "mailto:"]
        .iter()
        .any(|s| link.starts_with(s));
    if external || path.is_empty() {
        return None;
    }
    Some(from.parent().unwrap_or(from).join(path))
}

#[test]
fn every_relative_link_resolves_to_a_file() {
    let mut files: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    markdown_files(&root().join("docs"), &mut files);
    let mut broken = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Markdown file");
        for (line, link) in links(&text) {
            if let Some(target) = link_target(f, &link) {
                checked += 1;
                if !target.exists() {
                    let name = f.strip_prefix(root()).unwrap_or(f).display().to_string();
                    broken.push(format!("{name}:{line}: {link}"));
                }
            }
        }
    }
    assert!(checked > 50, "too few links checked: {checked}");
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_link_check_reads_links_and_leaves_other_sites() {
    let text = "[a](x.md) and ![b](../img.png#top)\n```\n[c](in-code.md)\n```\n[d](https://e.org) [f](#here)";
    let found: Vec<String> = links(text).into_iter().map(|l| l.1).collect();
    assert_eq!(found, ["x.md", "../img.png#top", "https://e.org", "#here"]);
    let from = Path::new("/r/docs/page.md");
    assert_eq!(
        link_target(from, "../img.png#top"),
        Some(PathBuf::from("/r/docs/../img.png"))
    );
    assert_eq!(link_target(from, "https://e.org"), None);
    assert_eq!(link_target(from, "#here"), None);
}

#[test]
fn the_summary_lists_every_page_of_the_manual() {
    let summary =
        std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let mut pages = Vec::new();
    markdown_files(&root().join("docs/src"), &mut pages);
    let listed: BTreeSet<String> = links(&summary).into_iter().map(|l| l.1).collect();
    let unlisted: Vec<String> = pages
        .iter()
        .map(|p| {
            p.strip_prefix(root().join("docs/src"))
                .unwrap_or(p)
                .display()
                .to_string()
        })
        .filter(|p| p != "SUMMARY.md" && !listed.contains(p))
        .collect();
    assert!(
        unlisted.is_empty(),
        "pages SUMMARY.md does not list: {unlisted:?}"
    );
}

/// The anchor GitHub and mdBook give a heading: lower case, the punctuation dropped, spaces
/// as hyphens (`## The self-check and the status` is `the-self-check-and-the-status`). Thai
/// letters and their marks are kept; a few marks of punctuation beyond ASCII are dropped.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| {
            c.is_alphanumeric()
                || "-_ ".contains(*c)
                || (!c.is_ascii() && !"—–→…“”‘’·«»".contains(*c))
        })
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A heading's anchor in the built book: mdBook's `normalize_id` (letters, digits, `_` and
/// `-` kept, ASCII lowercased, white space as `-`, anything else dropped: a Thai tone mark
/// is no letter there, where GitHub keeps it).
fn book_anchor_of(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c.to_ascii_lowercase()),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings (outside code blocks) that GitHub and the
/// built book (mdBook) both make, and the ids of its `<a id="...">` anchors: the fragments
/// a link may name and find on the forge, in the tarball and in the book.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        let heading = line.trim_start_matches('#');
        if !fence && heading.len() < line.len() && heading.starts_with(' ') {
            let plain = heading.replace('`', "");
            if anchor_of(heading) == book_anchor_of(&plain) {
                out.insert(anchor_of(heading));
            }
        }
        if let Some((id, _)) = line
            .trim()
            .strip_prefix("<a id=\"")
            .and_then(|rest| rest.split_once('"'))
        {
            out.insert(id.to_owned());
        }
    }
    out
}

#[test]
fn a_thai_heading_s_anchor_differs_in_the_book_so_it_needs_an_id() {
    let heading = "## ภาษาไทย: เริ่มใช้งาน";
    assert_ne!(
        anchor_of(heading.trim_start_matches('#')),
        book_anchor_of(heading.trim_start_matches('#'))
    );
    assert!(anchors(heading).is_empty());
    assert!(anchors("<a id=\"thai-start\"></a>\n\n## ภาษาไทย: เริ่มใช้งาน").contains("thai-start"));
    assert!(anchors("## Upgrade and removal").contains("upgrade-and-removal"));
}

#[test]
fn every_link_to_a_heading_finds_it() {
    let mut files: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        .iter()
        .map(|f| root().join(f))
        .collect();
    markdown_files(&root().join("docs"), &mut files);
    let mut lost = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Markdown file");
        for (line, link) in links(&text) {
            let Some((path, fragment)) = link.split_once('#') else {
                continue;
            };
            let target = if path.is_empty() {
                f.clone()
            } else {
                match link_target(f, &link) {
                    Some(t) if t.extension().is_some_and(|x| x == "md") => t,
                    _ => continue,
                }
            };
            let Ok(target_text) = std::fs::read_to_string(&target) else {
                continue; // a missing file is the other test's
            };
            checked += 1;
            if !anchors(&target_text).contains(fragment) {
                let name = f.strip_prefix(root()).unwrap_or(f).display().to_string();
                lost.push(format!("{name}:{line}: {link}"));
            }
        }
    }
    assert!(checked > 10, "too few links to headings checked: {checked}");
    assert!(lost.is_empty(), "links to no heading:\n{}", lost.join("\n"));
}

#[test]
fn a_heading_s_anchor_is_github_s() {
    assert_eq!(
        anchor_of(" Serving the dashboard over SSH (`serve-ssh`)"),
        "serving-the-dashboard-over-ssh-serve-ssh"
    );
    assert_eq!(anchor_of("ภาษาไทย: เริ่มใช้งาน"), "ภาษาไทย-เริ่มใช้งาน");
    let found = anchors("# Top\n```\n# not a heading\n```\n## The `[keys]` table\n#no");
    let want: BTreeSet<String> = ["top", "the-keys-table"].map(String::from).into();
    assert_eq!(found, want);
}

/// The index of flags as it must read: every long flag, the commands that take it (a
/// global flag: every command), and the page of the manual that says the most of it.
fn index_of_flags() -> String {
    let mut cmd = club_admin::cli::Cli::command();
    cmd.build();
    let mut flags = Vec::new();
    long_flags(&cmd, "club-admin", &mut flags);
    let globals: BTreeSet<String> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    let mut by_flag: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for (command, flag) in flags {
        by_flag.entry(flag).or_default().insert(command);
    }
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).expect("SUMMARY");
    let pages: Vec<(String, String)> = links(&summary)
        .into_iter()
        .map(|(_, page)| page)
        .filter(|page| page != INDEX_OF_FLAGS)
        .map(|page| {
            let text = std::fs::read_to_string(root().join("docs/src").join(&page))
                .expect("a page SUMMARY.md lists");
            (page, text)
        })
        .collect();
    let mut out = String::from(
        "# Every flag\n\nEach long flag of `club-admin` and its subcommands, the commands that \
         take it, and the page that says what it does. Made from the program's own definitions \
         (`tests/suite/fast/manual.rs` checks it; `CLUB_ADMIN_WRITE_INDEX=1 cargo test --test \
         suite fast::manual` writes it again).\n\n| flag | taken by | where it is said |\n| --- | --- | --- |\n",
    );
    for (flag, commands) in by_flag {
        let taken = if globals.contains(&flag) {
            "every command".to_owned()
        } else {
            commands
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The reference that names it most: the pages for scripts and operators and the
        // demo's first, then the moderators' (in English), then the rest; of those that tie,
        // the first in SUMMARY.md's order.
        let uses = |text: &str| {
            text.match_indices(flag.as_str())
                .filter(|(at, _)| names_flag(&text[*at..], &flag))
                .count()
        };
        let tier = |page: &str| match page.split('/').next() {
            Some("scripts" | "operators" | "demo.md") => 2,
            Some("moderators") if page != "moderators/thai.md" => 1,
            _ => 0,
        };
        let page = pages
            .iter()
            .rev()
            .filter(|(_, text)| uses(text) > 0)
            .max_by_key(|(page, text)| (tier(page), uses(text)))
            .map(|(page, _)| format!("[{page}]({page})"))
            .unwrap_or_default();
        out.push_str(&format!("| `{flag}` | {taken} | {page} |\n"));
    }
    out
}

#[test]
fn the_index_of_flags_is_current() {
    let path = root().join("docs/src").join(INDEX_OF_FLAGS);
    let want = index_of_flags();
    if std::env::var_os("CLUB_ADMIN_WRITE_INDEX").is_some() {
        std::fs::write(&path, &want).expect("write the index");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(want.lines().count() > 40, "{want}");
    assert!(
        have == want,
        "docs/src/{INDEX_OF_FLAGS} is not current: CLUB_ADMIN_WRITE_INDEX=1 cargo test --test \
         suite fast::manual writes it again"
    );
}

/// The shell lines of the code blocks of `text` (```` ```sh ````, `bash`, `shell`, and the
/// `$ ` lines of `console`), with the line each starts on; a line ending in `\` goes on.
fn shell_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut lang: Option<String> = None;
    let mut go_on = false;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            lang = match lang {
                Some(_) => None,
                None => Some(fence.trim().to_owned()),
            };
            go_on = false;
            continue;
        }
        let body = match lang.as_deref() {
            Some("sh" | "bash" | "shell") => Some(trimmed),
            Some("console") if go_on => Some(trimmed),
            Some("console") => trimmed.strip_prefix("$ "),
            Some(_) | None => None,
        };
        let Some(body) = body else { continue };
        if body.starts_with('#') || body.is_empty() {
            continue;
        }
        let (body, more) = match body.strip_suffix('\\') {
            Some(b) => (b, true),
            None => (body, false),
        };
        match out.last_mut() {
            Some((_, last)) if go_on => {
                last.push(' ');
                last.push_str(body);
            }
            Some(_) | None => out.push((n + 1, body.to_owned())),
        }
        go_on = more;
    }
    out
}

/// The arguments of every club-admin command in a shell line: after a `club-admin` word
/// (a path ending in it too), or after the destination of an `ssh` (its options skipped),
/// up to the end of that simple command (`|`, `&&`, `;`, a redirection). `None` for a line
/// the shell could not split.
fn club_admin_commands(line: &str) -> Option<Vec<Vec<String>>> {
    let words = shell_words::split(line).ok()?;
    let mut out = Vec::new();
    let mut simple: Vec<Vec<String>> = vec![Vec::new()];
    for w in words {
        if ["|", "||", "&&", ";", "&"].contains(&w.as_str()) {
            simple.push(Vec::new());
        } else if let Some(cur) = simple.last_mut() {
            cur.push(w);
        }
    }
    for words in simple {
        // Redirections and what they name end the arguments.
        let end = words
            .iter()
            .position(|w| w.starts_with('>') || w.starts_with('<') || w.starts_with("2>"))
            .unwrap_or(words.len());
        let words = &words[..end];
        // The program's name, not the user of `sudo -u club-admin`.
        let program = |i: usize, w: &String| {
            (w == "club-admin" || w.ends_with("/club-admin"))
                && !(i > 0 && ["-u", "--user", "-g"].contains(&words[i - 1].as_str()))
        };
        if let Some(i) = words.iter().enumerate().position(|(i, w)| program(i, w)) {
            out.push(words[i + 1..].to_vec());
        } else if let Some(i) = words.iter().position(|w| w == "ssh") {
            let with_arg = [
                "-p", "-o", "-i", "-F", "-l", "-J", "-L", "-R", "-D", "-E", "-c",
            ];
            let mut j = i + 1;
            while j < words.len() && words[j].starts_with('-') {
                j += if with_arg.contains(&words[j].as_str()) {
                    2
                } else {
                    1
                };
            }
            // The destination, then the command: one quoted word is split as sshd's shell does.
            let rest: Vec<String> = words.get(j + 1..).unwrap_or(&[]).to_vec();
            let rest = match rest.as_slice() {
                [one] => shell_words::split(one).unwrap_or_else(|_| rest.clone()),
                _ => rest,
            };
            let rest = match rest.first().map(String::as_str) {
                Some("club-admin") => rest[1..].to_vec(),
                _ => rest,
            };
            if !rest.is_empty() {
                out.push(rest);
            }
        }
    }
    Some(out)
}

/// Every club-admin command the README and the manual show in a code block parses as the
/// program's own command line (an ssh line's command as the subcommand it runs): a renamed
/// flag or subcommand, or a value of the wrong kind, fails here with the page and line.
#[test]
fn every_command_the_manual_shows_parses() {
    use clap::Parser;
    let mut pages = Vec::new();
    markdown_files(&root().join("docs/src"), &mut pages);
    pages.push(root().join("README.md"));
    let mut seen = 0;
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("a page");
        let name = page
            .strip_prefix(root())
            .unwrap_or(page)
            .display()
            .to_string();
        for (n, line) in shell_lines(&text) {
            let Some(commands) = club_admin_commands(&line) else {
                broken.push(format!("{name}:{n}: the shell cannot split: {line}"));
                continue;
            };
            for args in commands {
                seen += 1;
                let argv = std::iter::once("club-admin".to_owned()).chain(args);
                if let Err(e) = club_admin::cli::Cli::try_parse_from(argv) {
                    use clap::error::ErrorKind;
                    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                        let why = e.to_string();
                        let why = why.lines().next().unwrap_or_default().to_owned();
                        broken.push(format!("{name}:{n}: {line}\n    {why}"));
                    }
                }
            }
        }
    }
    assert!(seen > 50, "too few commands found: {seen}");
    assert!(
        broken.is_empty(),
        "commands of the manual the program refuses:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_command_check_finds_club_admin_after_ssh_pipes_and_paths() {
    let got = club_admin_commands(
        "cut -d, -f1 a.csv | ssh -p 2222 -o SetEnv=X=1 host \"requests approve -\" > out && sudo -u club-admin /usr/bin/club-admin whoami --json",
    );
    let want: Vec<Vec<String>> = vec![
        vec!["requests".into(), "approve".into(), "-".into()],
        vec!["whoami".into(), "--json".into()],
    ];
    assert_eq!(got, Some(want));
    let block = "```sh\nclub-admin requests list \\\n  --json\n```\n```console\n$ club-admin whoami\nton\n```\n";
    let lines: Vec<String> = shell_lines(block).into_iter().map(|(_, l)| l).collect();
    assert_eq!(
        lines,
        ["club-admin requests list  --json", "club-admin whoami"]
    );
}
