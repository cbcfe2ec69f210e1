//! club-admin: a terminal dashboard for the moderators of a school's club administration
//! service. See `README.md` for use; `docs/src/architecture.md` for the shape of the code.
//!
//! Layers (arrows point one way): [`cli`] parses and hands plain values to [`runtime`],
//! [`ssh`] (the dashboard served over SSH, built on [`runtime`]) and [`script`]; [`ui`]
//! reads [`app`]; [`runtime`] drives [`app`] and [`api`]; [`app`] knows neither the terminal
//! nor HTTP. [`api`], [`ops`], [`config`], [`i18n`] and [`text`] live in the library crate
//! `club-admin-core` (`core/`), re-exported below; it uses nothing of this crate.

#![warn(missing_docs)]

pub mod app;
pub mod cli;
pub mod demo;
pub mod runtime;
pub mod script;
pub mod ssh;
pub mod ui;

// The shared library (core/), under the paths the rest of the crate uses.
pub use club_admin_core::{api, config, i18n, ops, text, tr};

/// The crate's top-level modules (those of `core/` included) and the modules each may use
/// (`docs/src/architecture.md`): a one-way graph, lowest first. `tests` below keeps the
/// code to it.
pub const ROOMS: &[(&str, &[&str])] = &[
    ("text", &[]),
    ("i18n", &["text"]),
    ("api", &["i18n", "text"]),
    ("ops", &["api", "i18n", "text"]),
    ("config", &["api", "i18n", "ops", "text"]),
    ("demo", &["api", "i18n", "text"]),
    ("app", &["api", "config", "i18n", "ops", "text"]),
    ("ui", &["api", "app", "i18n", "ops", "text"]),
    ("script", &["api", "config", "i18n", "ops", "text"]),
    (
        "runtime",
        &["api", "app", "config", "demo", "i18n", "ops", "text", "ui"],
    ),
    (
        "ssh",
        &[
            "api", "app", "config", "i18n", "ops", "runtime", "script", "text", "ui",
        ],
    ),
    (
        "cli",
        &[
            "api", "config", "demo", "i18n", "ops", "runtime", "script", "ssh", "text",
        ],
    ),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::ROOMS;

    /// Every `crate::<module>` a file names (in `use` lines, paths and doc links alike), and
    /// the modules inside `use crate::{a, b::c}` groups.
    fn rooms_named(text: &str) -> BTreeSet<String> {
        let names: Vec<&str> = ROOMS.iter().map(|(r, _)| *r).collect();
        let mut out = BTreeSet::new();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let head = part.trim().split("::").next().unwrap_or("").trim();
                    if names.contains(&head) {
                        out.insert(head.to_owned());
                    }
                }
                continue;
            }
            let head: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if names.contains(&head.as_str()) {
                out.insert(head);
            }
        }
        out
    }

    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn the_rooms_form_a_one_way_graph() {
        // The table itself is one-way: each module uses only modules listed before it.
        for (i, (room, uses)) in ROOMS.iter().enumerate() {
            for u in *uses {
                let j = ROOMS.iter().position(|(r, _)| r == u);
                assert!(
                    j.is_some_and(|j| j < i),
                    "{room} uses {u}, which is not below it"
                );
            }
        }
        // And the code keeps to the table.
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut broken = Vec::new();
        for (room, uses) in ROOMS {
            let mut paths = Vec::new();
            // The shared library's modules are in core/src, the rest in src.
            let src = if root.join("core/src").join(room).exists()
                || root.join("core/src").join(format!("{room}.rs")).exists()
            {
                root.join("core/src")
            } else {
                root.join("src")
            };
            let dir = src.join(room);
            if dir.is_dir() {
                files(&dir, &mut paths);
            }
            let file = src.join(format!("{room}.rs"));
            if file.is_file() {
                paths.push(file);
            }
            assert!(!paths.is_empty(), "no source for the room {room}");
            for p in paths {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for named in rooms_named(&text) {
                    if named != *room && !uses.contains(&named.as_str()) {
                        broken.push(format!("{} uses crate::{named}", p.display()));
                    }
                }
            }
        }
        assert!(
            broken.is_empty(),
            "arrows against the graph:\n{}",
            broken.join("\n")
        );
    }

    #[test]
    fn the_check_sees_grouped_and_plain_paths() {
        let found = rooms_named("use crate::{api::X, ui};\nlet x = crate::app::y;");
        let want: BTreeSet<String> = ["api", "ui", "app"].iter().map(|s| s.to_string()).collect();
        assert_eq!(found, want);
    }
}
