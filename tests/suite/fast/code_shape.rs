//! The shape of the code as `docs/src/architecture.md` promises it: every file the document
//! names exists (a newcomer who follows it lands in a real file), and no function is longer
//! than 80 lines, so each can be read whole. A file is as long as its one concern: there is
//! no cap on files (a cap of 600 lines had code squeezed in by size). No source file cites
//! an issue number: a comment says what and why; the history is CHANGELOG.md's and git's.
//! A `match` on the crate's own enums names their variants rather than ending in `_ =>`.

use std::path::{Path, PathBuf};

/// The longest function, in lines from its signature to its closing brace.
const MAX_FN_LINES: usize = 80;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folders of the crate's sources: the root package's and the shared library's
/// (core/), whose modules the root package re-exports under the same paths (`crate::ops`).
const SOURCE_ROOTS: [&str; 2] = ["src", "core/src"];

/// Every `.rs` file of both [`SOURCE_ROOTS`].
fn source_files(out: &mut Vec<PathBuf>) {
    for r in SOURCE_ROOTS {
        rust_files(&root().join(r), out);
    }
}

/// The source root `file` is under.
fn source_root(file: &Path) -> PathBuf {
    let core = root().join("core/src");
    if file.starts_with(&core) {
        core
    } else {
        root().join("src")
    }
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

/// The file paths a Markdown text names in backticks (`app/update/keypress.rs`,
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
/// one of its folders or is a file of the root, a Fluent file under `assets/locales/en`,
/// else under `src/`.
fn resolve(path: &str) -> PathBuf {
    let top = [
        "src/",
        "core/",
        "tests/",
        "docs/",
        "assets/",
        "benches/",
        "examples/",
        "packaging/",
    ];
    // The files at the repository's root the document may name.
    let at_root = [
        "README.md",
        "CHANGELOG.md",
        "CONTRIBUTING.md",
        "Cargo.toml",
        "build.rs",
    ];
    if top.iter().any(|t| path.starts_with(t)) || at_root.contains(&path) {
        root().join(path)
    } else if path.ends_with(".ftl") {
        root().join("assets/locales/en").join(path)
    } else {
        SOURCE_ROOTS
            .iter()
            .map(|r| root().join(r).join(path))
            .find(|p| p.is_file())
            .unwrap_or_else(|| root().join("src").join(path))
    }
}

#[test]
fn every_file_the_architecture_names_exists() {
    let doc =
        std::fs::read_to_string(root().join("docs/src/architecture.md")).expect("the document");
    let named = named_paths(&doc);
    assert!(named.len() > 50, "too few paths found: {named:?}");
    let missing: Vec<&String> = named.iter().filter(|p| !resolve(p).is_file()).collect();
    assert!(
        missing.is_empty(),
        "docs/src/architecture.md names files that do not exist: {missing:?}"
    );
}

#[test]
fn the_check_reads_paths_in_backticks() {
    let found = named_paths("`ui/help.rs` and `a::b`, `tests/x.rs::t`, `ui/panes/<pane>.rs`");
    assert_eq!(found, ["ui/help.rs", "tests/x.rs"]);
}

/// Functions of `text` longer than `max` lines: `(name, first line, lines)`, read from its
/// syntax tree (syn), so no way of writing a function escapes: any visibility (`pub(in
/// crate::app)`), free, in an `impl` or a trait, nested in another function or a module. A
/// function runs from its signature's first line (attributes and doc comments left out) to
/// its closing brace. Functions inside a macro's input (`tokio::select!`) are the macro's.
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    use syn::spanned::Spanned;
    use syn::visit::Visit;
    struct Fns {
        max: usize,
        out: Vec<(String, usize, usize)>,
    }
    impl Fns {
        fn measure(&mut self, sig: &syn::Signature, body: proc_macro2::Span) {
            let first = sig.span().start().line;
            let last = body.end().line;
            let n = last + 1 - first;
            if n > self.max {
                self.out.push((sig.ident.to_string(), first, n));
            }
        }
    }
    impl<'a> Visit<'a> for Fns {
        fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
            self.measure(&f.sig, f.block.span());
            syn::visit::visit_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
            self.measure(&f.sig, f.block.span());
            syn::visit::visit_impl_item_fn(self, f);
        }
        fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
            if let Some(b) = &f.default {
                self.measure(&f.sig, b.span());
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
    }
    let file = syn::parse_file(text).expect("a source file syn can read");
    let mut fns = Fns {
        max,
        out: Vec::new(),
    };
    fns.visit_file(&file);
    fns.out.sort_by_key(|f| f.1);
    fns.out
}

#[test]
fn no_function_is_too_long() {
    let mut files = Vec::new();
    source_files(&mut files);
    assert!(files.len() > 50, "too few source files: {}", files.len());
    let mut too_long = Vec::new();
    for p in files {
        let text = std::fs::read_to_string(&p).expect("a source file");
        let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
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
    // The gap the line-by-line checker had: a path in the visibility, a method,
    // a function inside a function, a trait's default body.
    let scoped = format!("pub(in crate::app) fn scoped() {{\n{body}}}\n");
    assert_eq!(
        long_functions(&scoped, 100),
        [("scoped".to_owned(), 1, 122)]
    );
    let method = format!("impl X {{\n    pub(super) async fn method(&self) {{\n{body}    }}\n}}\n");
    assert_eq!(
        long_functions(&method, 100),
        [("method".to_owned(), 2, 122)]
    );
    let nested = format!("fn outer() {{\n    fn inner() {{\n{body}    }}\n}}\n");
    let names: Vec<String> = long_functions(&nested, 100)
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(names, ["outer", "inner"]);
    let default = format!("trait T {{\n    fn d(&self) {{\n{body}    }}\n}}\n");
    assert_eq!(long_functions(&default, 100), [("d".to_owned(), 2, 122)]);
}

/// Issue 34, item 6: one name, one meaning. Two source files share a name only when
/// `docs/src/architecture.md`'s "Files that share a name" says they are one concept's faces; a
/// new file that takes another's name for something else fails here.
#[test]
fn files_that_share_a_name_are_one_concept_s_faces() {
    let doc =
        std::fs::read_to_string(root().join("docs/src/architecture.md")).expect("the document");
    let section = doc
        .split("## Files that share a name")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/src/architecture.md has a section \"Files that share a name\"");
    // Each entry opens a line: "- **club.rs**: ...".
    let explained: std::collections::BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- **"))
        .filter_map(|l| l.split("**").next())
        .map(str::to_owned)
        .collect();
    let mut files = Vec::new();
    source_files(&mut files);
    let mut by_name: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for f in &files {
        let name = f
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        by_name.entry(name).or_default().push(rel);
    }
    let shared: Vec<(String, Vec<String>)> = by_name
        .into_iter()
        .filter(|(name, paths)| paths.len() > 1 && !explained.contains(name))
        .collect();
    assert!(
        shared.is_empty(),
        "files that share a name with no word in docs/src/architecture.md: {shared:?}"
    );
    assert!(explained.len() >= 5, "the section was read: {explained:?}");
}

/// Issue 34: `docs/src/architecture.md` places every source file: a file added that it does not
/// name fails here, so a newcomer given the document finds every room's every file.
#[test]
fn the_architecture_names_every_source_file() {
    let doc =
        std::fs::read_to_string(root().join("docs/src/architecture.md")).expect("the document");
    let named: std::collections::HashSet<PathBuf> =
        named_paths(&doc).iter().map(|p| resolve(p)).collect();
    let mut files = Vec::new();
    source_files(&mut files);
    let mut unnamed: Vec<String> = files
        .iter()
        .filter(|f| !named.contains(*f))
        .map(|f| f.strip_prefix(root()).unwrap_or(f).display().to_string())
        .collect();
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "docs/src/architecture.md does not name: {unnamed:?}"
    );
}

/// The module path of a source file (`src/app/model/mod.rs` is `app::model`,
/// `src/app/call.rs` is `app::call`, `src/lib.rs` the crate's root).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(source_root(file)).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// Every path a file names (in `use` trees, types and expressions), as the file's own module
/// reads it: inside an inline module (`mod tolerant_ts { use super::*; }`), `super` is the
/// file's module, so it is written `self` here.
fn paths_named(file: &syn::File) -> Vec<Vec<String>> {
    use syn::visit::Visit;
    /// The paths found, and how many inline modules deep the visit is.
    struct Paths(Vec<Vec<String>>, usize);
    impl Paths {
        fn push(&mut self, mut p: Vec<String>) {
            let ups = p.iter().take_while(|s| *s == "super").count();
            if self.1 > 0 && ups > 0 {
                let inner = ups.min(self.1);
                p.drain(..inner);
                if ups <= self.1 {
                    p.insert(0, "self".to_owned());
                }
            }
            self.0.push(p);
        }
    }
    fn flatten(prefix: &mut Vec<String>, tree: &syn::UseTree, out: &mut Vec<Vec<String>>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                flatten(prefix, &p.tree, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut p = prefix.clone();
                p.push(n.ident.to_string());
                out.push(p);
            }
            syn::UseTree::Rename(r) => {
                let mut p = prefix.clone();
                p.push(r.ident.to_string());
                out.push(p);
            }
            syn::UseTree::Glob(_) => out.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    flatten(prefix, t, out);
                }
            }
        }
    }
    impl<'a> Visit<'a> for Paths {
        // `pub(in crate::app)` says who may see an item: it imports nothing.
        fn visit_vis_restricted(&mut self, _: &'a syn::VisRestricted) {}
        // A test module inline (`#[cfg(test)] mod tests { use super::*; }`): test code, and
        // its `super` is the file's own module.
        fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
            let test = m.attrs.iter().any(|a| {
                a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
            });
            if !test {
                self.1 += 1;
                syn::visit::visit_item_mod(self, m);
                self.1 -= 1;
            }
        }
        fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
            let mut found = Vec::new();
            flatten(&mut Vec::new(), &u.tree, &mut found);
            for p in found {
                self.push(p);
            }
        }
        fn visit_path(&mut self, p: &'a syn::Path) {
            self.push(p.segments.iter().map(|s| s.ident.to_string()).collect());
            syn::visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            // `crate::tr!(...)` names its path; paths inside a macro's input are read as
            // tokens: `crate::x::y` and `super::x` sequences count too.
            self.visit_path(&m.path);
            let words: Vec<String> = m
                .tokens
                .clone()
                .into_iter()
                .map(|t| t.to_string())
                .collect();
            for (i, w) in words.iter().enumerate() {
                if w == "crate" || w == "super" {
                    let mut p = vec![w.clone()];
                    let mut j = i + 1;
                    while j + 2 < words.len() + 1 && words.get(j).is_some_and(|c| c == ":") {
                        // `::` comes as two ':' punctuation tokens.
                        match words.get(j + 2) {
                            Some(next) if words.get(j + 1).is_some_and(|c| c == ":") => {
                                p.push(next.clone());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    self.push(p);
                }
            }
        }
    }
    let mut v = Paths(Vec::new(), 0);
    v.visit_file(file);
    v.0
}

/// The import graph of `src/` by file: `a` imports `b` when a path `a` names resolves into
/// `b`'s module (`crate::…`, `super::…`, `self::…`, or a child module's name), the longest
/// prefix that is a file; a `mod` declaration is not an import (a parent owns its children);
/// a re-export counts as the re-exporting file. `main.rs` (the binary) is left out.
fn import_graph() -> (Vec<PathBuf>, Vec<Vec<usize>>) {
    let mut files = Vec::new();
    source_files(&mut files);
    files.retain(|f| !f.ends_with("main.rs"));
    files.sort();
    let modules: Vec<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let index: std::collections::HashMap<Vec<String>, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| (m.clone(), i))
        .collect();
    let mut edges = vec![Vec::new(); files.len()];
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).expect("a source file");
        let syntax = syn::parse_file(&text).expect("a source file syn can read");
        let here = &modules[i];
        for p in paths_named(&syntax) {
            let Some(first) = p.first() else { continue };
            let mut abs: Vec<String> = match first.as_str() {
                "crate" => p[1..].to_vec(),
                "self" => here.iter().cloned().chain(p[1..].iter().cloned()).collect(),
                "super" => {
                    let ups = p.iter().take_while(|s| *s == "super").count();
                    let base = &here[..here.len().saturating_sub(ups)];
                    base.iter()
                        .cloned()
                        .chain(p[ups..].iter().cloned())
                        .collect()
                }
                _ => {
                    let mut child = here.clone();
                    child.push(first.clone());
                    if !index.contains_key(&child) {
                        continue;
                    }
                    here.iter().cloned().chain(p.iter().cloned()).collect()
                }
            };
            while !abs.is_empty() {
                if let Some(&j) = index.get(&abs) {
                    if j != i && !edges[i].contains(&j) {
                        edges[i].push(j);
                    }
                    break;
                }
                abs.pop();
            }
        }
    }
    (files, edges)
}

/// The strongly connected components of `edges` (Tarjan), largest first.
fn cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct T<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &t.edges[v] {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(comp);
        }
    }
    let n = edges.len();
    let mut t = T {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    t.out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.out
}

/// The largest set of source files that import each other, as `docs/src/architecture.md`
/// counts it ([`import_graph`]): 36 once, 7 now (`api/`; none inside `app/update/`).
/// Issue 34 asks for 12 at most; this holds the count where it is, so it can only shrink.
const LARGEST_CYCLE: usize = 7;

#[test]
fn the_largest_import_cycle_does_not_grow() {
    let (files, edges) = import_graph();
    let all = cycles(&edges);
    let largest = &all[0];
    let mut names: Vec<String> = largest
        .iter()
        .map(|&i| {
            files[i]
                .strip_prefix(source_root(&files[i]))
                .unwrap_or(&files[i])
                .display()
                .to_string()
        })
        .collect();
    names.sort();
    if std::env::var_os("CYCLE_EDGES").is_some() {
        let name = |i: usize| {
            files[i]
                .strip_prefix(source_root(&files[i]))
                .unwrap_or(&files[i])
                .display()
                .to_string()
        };
        // The edges inside the three largest cycles.
        for cycle in all.iter().take(3) {
            for &a in cycle {
                for &b in &edges[a] {
                    if cycle.contains(&b) {
                        println!("EDGE {} -> {}", name(a), name(b));
                    }
                }
            }
        }
    }
    println!(
        "largest import cycle: {} of {} files: {names:?}",
        largest.len(),
        files.len()
    );
    assert!(
        largest.len() <= LARGEST_CYCLE,
        "{} files import each other (at most {LARGEST_CYCLE}): {names:?}",
        largest.len()
    );
}

#[test]
fn super_inside_an_inline_module_is_the_file_s_own_module() {
    let file = syn::parse_file(
        "mod inner { use super::*; use super::super::x::Y; fn f() { super::g(); } }",
    )
    .expect("a file syn can read");
    let paths = paths_named(&file);
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(paths.contains(&path(&["self"])), "{paths:?}");
    assert!(paths.contains(&path(&["self", "g"])), "{paths:?}");
    assert!(paths.contains(&path(&["super", "x", "Y"])), "{paths:?}");
    assert!(!paths.contains(&path(&["super"])), "{paths:?}");
}

#[test]
fn the_cycle_count_sees_a_cycle_and_a_line() {
    // 0 -> 1 -> 2 -> 0, and 3 -> 0: one cycle of three.
    let edges = vec![vec![1], vec![2], vec![0], vec![0]];
    let c = cycles(&edges);
    let mut first = c[0].clone();
    first.sort();
    assert_eq!(first, vec![0, 1, 2]);
    assert_eq!(c.len(), 2);
}

/// Where `text` cites an issue of the tracker: `(line, the line)` for every "issue 34",
/// "issues 31 to 33", "Issue #12" or "issue-13", in any case. A word that only ends in
/// "issue" ("tissue 3") and a school number ("#12345") are not citations.
fn issue_citations(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let cites = lower.match_indices("issue").any(|(at, _)| {
            let word_start = lower[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            let rest = lower[at + "issue".len()..].trim_start_matches('s');
            let rest = rest.trim_start_matches(|c: char| c.is_whitespace() || "#-_:".contains(c));
            word_start && rest.starts_with(|c: char| c.is_ascii_digit())
        });
        if cites {
            out.push((n + 1, line.trim().to_owned()));
        }
    }
    out
}

#[test]
fn no_source_file_cites_an_issue_number() {
    let mut files = Vec::new();
    source_files(&mut files);
    assert!(files.len() > 50, "too few source files: {}", files.len());
    let mut cited = Vec::new();
    for p in files {
        let text = std::fs::read_to_string(&p).expect("a source file");
        let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
        for (line, what) in issue_citations(&text) {
            cited.push(format!("{name}:{line}: {what}"));
        }
    }
    assert!(
        cited.is_empty(),
        "comments say what and why, not which issue asked (the history is CHANGELOG.md's):\n{}",
        cited.join("\n")
    );
}

#[test]
fn the_check_finds_an_issue_cited_in_any_form() {
    let text = "// issue 34\n/// (issue 33, item 4)\n//! Issues #12 and 13\n// issue-13 \
                merged\n/* ISSUE: 7 */\n// the issue at hand\n// tissue 3\n// #12345 → Robotics\n";
    let lines: Vec<usize> = issue_citations(text).into_iter().map(|c| c.0).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
}

/// Documents comments cite by name that live outside this repository: the service's own
/// notes and its published interface.
const EXTERNAL_DOCS: [&str; 2] = ["api-notes.md", "interface-spec.md"];

/// The file of the module `parts` under `src/` (`["ops", "decision"]`:
/// `src/ops/decision.rs`; `["config"]`: `src/config/mod.rs`), if there is one.
fn module_file(parts: &[&str]) -> Option<PathBuf> {
    SOURCE_ROOTS.iter().find_map(|r| {
        let base = parts.iter().fold(root().join(r), |p, s| p.join(s));
        [base.with_extension("rs"), base.join("mod.rs")]
            .into_iter()
            .find(|f| f.is_file())
    })
}

/// True when `text` starts with the identifier `ident`, whole.
fn starts_with_ident(text: &str, ident: &str) -> bool {
    text.strip_prefix(ident)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// A line of Rust without its visibility (`pub`, `pub(crate)`, `pub(in path)`) and, before
/// `fn`, its qualifiers (`async`, `unsafe`, `const`).
fn without_visibility(line: &str) -> &str {
    let mut l = line.trim_start();
    if let Some(rest) = l.strip_prefix("pub") {
        l = match rest.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')').map_or("", |(_, r)| r),
            None => rest,
        }
        .trim_start();
    }
    for qualifier in ["async ", "unsafe ", "const "] {
        if l.starts_with(qualifier) && l[qualifier.len()..].starts_with("fn ") {
            l = &l[qualifier.len()..];
        }
    }
    l
}

/// The `use` statements of `text`, each whole (a `use` over several lines joined).
fn use_statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        let l = without_visibility(line);
        match open.as_mut() {
            Some(stmt) => stmt.push_str(line),
            None if l.starts_with("use ") => open = Some(l.to_owned()),
            None => continue,
        }
        if line.contains(';')
            && let Some(stmt) = open.take()
        {
            out.push(stmt);
        }
    }
    out
}

/// True when the Rust source `text` (the file `file`) defines `ident`: an item (a function,
/// type, constant, module, macro), a `use` that brings it in (a re-export), a variant or a
/// field; through a `use child::*` into the child's file too.
fn defines(text: &str, ident: &str, file: &Path) -> bool {
    let kinds = [
        "fn ",
        "struct ",
        "enum ",
        "const ",
        "static ",
        "type ",
        "trait ",
        "mod ",
        "union ",
        "macro_rules! ",
    ];
    let declared = text.lines().any(|line| {
        let l = without_visibility(line);
        let item = kinds.iter().any(|k| {
            l.strip_prefix(k)
                .is_some_and(|r| starts_with_ident(r, ident))
        });
        let member = starts_with_ident(l, ident)
            && l[ident.len()..]
                .trim_start()
                .starts_with([',', '(', '{', ':']);
        item || member
    });
    declared
        || use_statements(text).iter().any(|stmt| {
            let named = stmt
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == ident);
            let glob = stmt
                .strip_prefix("use ")
                .and_then(|r| r.trim().strip_suffix("::*;"))
                .filter(|child| child.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .is_some_and(|child| {
                    let dir = if file.ends_with("mod.rs") {
                        file.parent().map(Path::to_path_buf)
                    } else {
                        Some(file.with_extension(""))
                    };
                    dir.map(|d| d.join(format!("{child}.rs")))
                        .and_then(|f| std::fs::read_to_string(&f).ok().map(|t| (f, t)))
                        .is_some_and(|(f, t)| defines(&t, ident, &f))
                });
            named || glob
        })
}

/// True when a module path named in prose (`ops::decision::backoff`,
/// `crate::app::Model`) leads somewhere in `src/`: its longest prefix that is a module's
/// file defines the next name. A path that does not start with one of the crate's rooms
/// (`std::fs`, `Model::lang`) is not the crate's to check.
fn module_path_exists(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    if parts.first() == Some(&"crate") {
        parts.remove(0);
    }
    if parts.len() < 2 || module_file(&parts[..1]).is_none() {
        return true;
    }
    for n in (1..=parts.len()).rev() {
        if let Some(file) = module_file(&parts[..n]) {
            if n == parts.len() {
                return true;
            }
            let text = std::fs::read_to_string(&file).expect("a source file");
            return defines(&text, parts[n], &file);
        }
    }
    false
}

/// The module paths a line names in backticks (`ops::run::decide`, `crate::api::ApiClient`),
/// each cut where it stops being a path (`ops::run::{a, b}` is `ops::run`).
fn named_module_paths(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|part| {
            let path: String = part
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let path = path.trim_end_matches(':');
            (path.contains("::") && path.starts_with(|c: char| c.is_ascii_lowercase()))
                .then(|| path.to_owned())
        })
        .collect()
}

/// Where the prose of the project names a file or a module path that is not there: the
/// comments of `src/` (a file path, a module path) and the documents for its engineers
/// (their module paths everywhere in the manual, their file paths in CONTRIBUTING.md and
/// the pages about the code).
fn stale_names() -> Vec<String> {
    let mut stale = Vec::new();
    let mut sources = Vec::new();
    source_files(&mut sources);
    for f in &sources {
        let text = std::fs::read_to_string(f).expect("a source file");
        let name = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        for (n, line) in text.lines().enumerate() {
            if !line.trim_start().starts_with("//") {
                continue;
            }
            let files = named_paths(line).into_iter().filter(|p| {
                !EXTERNAL_DOCS.contains(&p.as_str()) && !p.starts_with('.') && !resolve(p).is_file()
            });
            let modules = named_module_paths(line)
                .into_iter()
                .filter(|p| !module_path_exists(p));
            for p in files.chain(modules) {
                stale.push(format!("{name}:{}: {p}", n + 1));
            }
        }
    }
    let mut docs = Vec::new();
    for d in [
        "docs/src",
        "docs/src/moderators",
        "docs/src/operators",
        "docs/src/scripts",
    ] {
        for e in std::fs::read_dir(root().join(d))
            .into_iter()
            .flatten()
            .flatten()
        {
            // The history of the code names what was, not what is.
            if e.path().ends_with("code-history.md") {
                continue;
            }
            if e.path().extension().is_some_and(|x| x == "md") {
                docs.push(e.path());
            }
        }
    }
    docs.push(root().join("CONTRIBUTING.md"));
    docs.push(root().join("README.md"));
    let about_code = ["CONTRIBUTING.md", "architecture.md", "development.md"];
    for f in &docs {
        let text = std::fs::read_to_string(f).expect("a document");
        let name = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        let check_files = about_code.iter().any(|a| name.ends_with(a));
        for (n, line) in text.lines().enumerate() {
            let files = named_paths(line).into_iter().filter(|p| {
                check_files && !EXTERNAL_DOCS.contains(&p.as_str()) && !resolve(p).is_file()
            });
            let modules = named_module_paths(line)
                .into_iter()
                .filter(|p| !module_path_exists(p));
            for p in files.chain(modules) {
                stale.push(format!("{name}:{}: {p}", n + 1));
            }
        }
    }
    stale
}

#[test]
fn every_file_and_module_the_comments_and_docs_name_exists() {
    let stale = stale_names();
    assert!(
        stale.is_empty(),
        "named but not there (a moved file, a renamed module or function):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_check_follows_a_module_path_to_its_item() {
    assert!(module_path_exists("ops::decision::backoff"));
    assert!(module_path_exists("crate::app::keymap::Keymap"));
    // A function re-exported through `pub use texts::*;`.
    assert!(module_path_exists("app::model::popup::contact_type_name"));
    // Gone or never there.
    assert!(!module_path_exists("ops::lost"));
    assert!(!module_path_exists("ops::decision::no_such_function"));
    assert!(!module_path_exists("ui::age"));
    // Not the crate's.
    assert!(module_path_exists("std::fs::read"));
    assert_eq!(
        named_module_paths("see `ops::run::{a, b}`, `Model::lang` and `crate::ui::view()`"),
        ["ops::run", "crate::ui::view"]
    );
}

/// The enums this crate defines: every `enum` item, and those `open_enum!` makes
/// (`MembershipStatus`, `ContactType`, ...), whose first name is the enum's.
fn project_enums(files: &[syn::File]) -> std::collections::HashSet<String> {
    use syn::visit::Visit;
    struct Enums(std::collections::HashSet<String>);
    impl<'a> Visit<'a> for Enums {
        fn visit_item_enum(&mut self, e: &'a syn::ItemEnum) {
            self.0.insert(e.ident.to_string());
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            if m.path.is_ident("open_enum") {
                let first = m.tokens.clone().into_iter().find_map(|t| match t {
                    proc_macro2::TokenTree::Ident(i) => Some(i.to_string()),
                    _ => None,
                });
                self.0.extend(first);
            }
        }
    }
    let mut enums = Enums(Default::default());
    for f in files {
        enums.visit_file(f);
    }
    enums.0
}

/// The names a file's `use` items bring in: `(name, from this crate)`, a rename by its new
/// name (`use crossterm::event::KeyCode as CtKeyCode` is `("CtKeyCode", false)`).
fn used_names(file: &syn::File) -> Vec<(String, bool)> {
    fn walk(tree: &syn::UseTree, ours: Option<bool>, out: &mut Vec<(String, bool)>) {
        let root =
            |i: &syn::Ident| ours.unwrap_or(["crate", "super", "self"].contains(&&*i.to_string()));
        match tree {
            syn::UseTree::Path(p) => walk(&p.tree, Some(root(&p.ident)), out),
            syn::UseTree::Name(n) => out.push((n.ident.to_string(), root(&n.ident))),
            syn::UseTree::Rename(r) => out.push((r.rename.to_string(), root(&r.ident))),
            syn::UseTree::Glob(_) => {}
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| walk(t, ours, out)),
        }
    }
    let mut out = Vec::new();
    for item in &file.items {
        if let syn::Item::Use(u) = item {
            walk(&u.tree, None, &mut out);
        }
    }
    out
}

/// True when `body` is the variable `name` alone.
fn is_the_binding(body: &syn::Expr, name: &syn::Ident) -> bool {
    matches!(body, syn::Expr::Path(p) if p.path.is_ident(name))
}

/// Where a `match` on one of `enums` (a pattern names `Enum::Variant`, alone, in an `|`,
/// behind `&` or in `Some(...)`, `Ok(...)`, `Err(...)`) ends in a catch-all arm (`_` or a
/// lowercase binding, without a guard): `(line, enum)` for each such arm. A name the file
/// brings in from another crate (crossterm's `Event`) is not the crate's enum.
fn catch_alls_on_own_enums(
    file: &syn::File,
    enums: &std::collections::HashSet<String>,
) -> Vec<(usize, String)> {
    use syn::spanned::Spanned;
    use syn::visit::Visit;
    let foreign: Vec<String> = used_names(file)
        .into_iter()
        .filter(|(_, ours)| !ours)
        .map(|(n, _)| n)
        .collect();
    struct Matches<'e> {
        enums: &'e std::collections::HashSet<String>,
        foreign: Vec<String>,
        out: Vec<(usize, String)>,
    }
    impl Matches<'_> {
        fn own_enum(&self, path: &syn::Path) -> Option<String> {
            let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            let name = match segs.as_slice() {
                [e, _] if !self.foreign.contains(e) => e,
                [first, .., e, _] if ["crate", "super", "self"].contains(&first.as_str()) => e,
                _ => return None,
            };
            self.enums.contains(name).then(|| name.clone())
        }
        fn enum_of(&self, pat: &syn::Pat) -> Option<String> {
            match pat {
                syn::Pat::Path(p) => self.own_enum(&p.path),
                syn::Pat::Struct(s) => self.own_enum(&s.path),
                syn::Pat::TupleStruct(t) if self.own_enum(&t.path).is_some() => {
                    self.own_enum(&t.path)
                }
                syn::Pat::TupleStruct(t)
                    if ["Some", "Ok", "Err"].iter().any(|w| t.path.is_ident(w)) =>
                {
                    t.elems.iter().find_map(|p| self.enum_of(p))
                }
                syn::Pat::Or(o) => o.cases.iter().find_map(|p| self.enum_of(p)),
                syn::Pat::Reference(r) => self.enum_of(&r.pat),
                syn::Pat::Paren(p) => self.enum_of(&p.pat),
                _ => None,
            }
        }
    }
    impl<'a> Visit<'a> for Matches<'_> {
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            if let Some(name) = m.arms.iter().find_map(|a| self.enum_of(&a.pat)) {
                for arm in m.arms.iter().filter(|a| a.guard.is_none()) {
                    let catch_all = match &arm.pat {
                        syn::Pat::Wild(_) => true,
                        // `e => e` hands every other value on as it is: nothing to decide.
                        syn::Pat::Ident(i) => {
                            i.subpat.is_none()
                                && i.ident.to_string().starts_with(char::is_lowercase)
                                && !is_the_binding(&arm.body, &i.ident)
                        }
                        _ => false,
                    };
                    if catch_all {
                        self.out.push((arm.pat.span().start().line, name.clone()));
                    }
                }
            }
            syn::visit::visit_expr_match(self, m);
        }
    }
    let mut found = Matches {
        enums,
        foreign,
        out: Vec::new(),
    };
    found.visit_file(file);
    found.out
}

/// The catch-all arms a match on the crate's own enums keeps, by file and enum, each with
/// why a new variant needs no decision there. Any other is refused.
const CATCH_ALLS_KEPT: &[(&str, &str, usize, &str)] = &[
    (
        "core/src/ops/decision.rs",
        "Stage",
        1,
        "a decision starts held or sending; every other stage is illegal",
    ),
    (
        "src/app/model/words.rs",
        "MembershipStatus",
        1,
        "every known status is its own word",
    ),
    (
        "src/app/update/focus.rs",
        "Action",
        1,
        "run_action names every action and sends only the pane actions",
    ),
    (
        "src/app/update/actions.rs",
        "Action",
        4,
        "run_action names every action; these are its sub-dispatchers",
    ),
    (
        "src/app/update/club.rs",
        "Action",
        2,
        "run_action names every action and sends only the moves",
    ),
    (
        "src/app/update/keypress.rs",
        "Action",
        1,
        "a screen too small takes three keys and ignores every other",
    ),
    (
        "src/app/update/club.rs",
        "KeyCode",
        1,
        "every other key edits the club field",
    ),
    (
        "src/app/update/mod.rs",
        "Answer",
        1,
        "only a listing page is a listing page",
    ),
    (
        "src/app/update/club.rs",
        "ApiError",
        1,
        "not found has its words; every other error its own",
    ),
    (
        "src/app/update/rows.rs",
        "ApiError",
        1,
        "not found has its words; every other error its own",
    ),
    (
        "src/app/update/decisions.rs",
        "ApiError",
        1,
        "not found is gone; else the row is as it was read",
    ),
    (
        "core/src/api/error.rs",
        "ApiError",
        1,
        "the status of every other error is its answer's",
    ),
    (
        "src/demo/state.rs",
        "MembershipStatus",
        1,
        "only a pending request can be decided",
    ),
    (
        "src/demo/listing_params.rs",
        "MembershipStatus",
        1,
        "every known status is a filter value",
    ),
    (
        "src/script/history.rs",
        "Format",
        1,
        "only a table has a width",
    ),
    (
        "src/script/mod.rs",
        "ApiError",
        1,
        "an unauthorised answer says which; every other its status",
    ),
];

#[test]
fn a_match_on_the_crate_s_own_enums_names_every_variant() {
    let mut paths = Vec::new();
    source_files(&mut paths);
    let files: Vec<(String, syn::File)> = paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("a source file");
            let name = p.strip_prefix(root()).unwrap_or(p).display().to_string();
            (
                name,
                syn::parse_file(&text).expect("a source file syn can read"),
            )
        })
        .collect();
    let syntax: Vec<syn::File> = files.iter().map(|f| f.1.clone()).collect();
    let enums = project_enums(&syntax);
    assert!(
        enums.contains("Msg") && enums.contains("MembershipStatus"),
        "{enums:?}"
    );
    let mut found: std::collections::BTreeMap<(String, String), Vec<usize>> = Default::default();
    for (name, file) in &files {
        for (line, e) in catch_alls_on_own_enums(file, &enums) {
            found.entry((name.clone(), e)).or_default().push(line);
        }
    }
    let mut wrong = Vec::new();
    for ((file, e), lines) in &found {
        let kept = CATCH_ALLS_KEPT
            .iter()
            .find(|k| k.0 == file && k.1 == e)
            .map_or(0, |k| k.2);
        if lines.len() > kept {
            wrong.push(format!(
                "{file}:{lines:?}: a match on {e} ends in a catch-all arm ({} kept there)",
                kept
            ));
        }
    }
    for (file, e, n, _) in CATCH_ALLS_KEPT {
        let now = found
            .get(&(file.to_string(), e.to_string()))
            .map_or(0, Vec::len);
        if now < *n {
            wrong.push(format!(
                "{file}: {now} catch-all arms on {e}, {n} kept: lower CATCH_ALLS_KEPT"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "name the variants (`A | B | C =>`), so that a new variant must be decided where it \
         matters; a catch-all that is honestly \"anything else\" goes in CATCH_ALLS_KEPT with why:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_check_sees_a_catch_all_on_the_crate_s_enum_and_not_on_another_crate_s() {
    let file = syn::parse_file(
        "use crossterm::event::Event;\n\
         fn f(m: Msg, e: Event, n: u8) {\n\
             match m { Msg::Quit => {}\n _ => {} }\n\
             match e { Event::Key(_) => {}\n _ => {} }\n\
             match Some(m) { Some(crate::app::Msg::Quit) => {}\n other => drop(other) }\n\
             match m { Msg::Tick => {}\n m => m }\n\
             match n { 0 => {}\n _ => {} }\n\
         }",
    )
    .expect("syn reads it");
    let enums = ["Msg", "Event"].map(String::from).into_iter().collect();
    assert_eq!(
        catch_alls_on_own_enums(&file, &enums),
        [(4, "Msg".to_owned()), (8, "Msg".to_owned())]
    );
}

/// The layers `docs/src/architecture.md` draws, read from its table under "## Layers": each
/// row is `` | `module` | crate | `uses`, `uses` | … | ``, lowest first ("—" for none).
fn layers_of(doc: &str) -> Vec<(String, Vec<String>)> {
    let section = doc
        .split("\n## Layers")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/src/architecture.md has a section \"## Layers\"");
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    section
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let module = ticked(cells.get(1)?).into_iter().next()?;
            Some((module, ticked(cells.get(3)?)))
        })
        .collect()
}

/// The module a source file belongs to at the top (`ops` for `core/src/ops/run.rs`,
/// `cli` for `src/cli/man.rs`); `None` for a crate's root.
fn top_module(files: &[PathBuf], i: usize) -> Option<String> {
    module_of(&files[i]).into_iter().next()
}

/// Every import of one top-level module by another is one the page's layer table allows,
/// and the table is one-way (a module uses only modules above it in the table, lower
/// layers). The page's statements about imports are these rows; this keeps them true.
#[test]
fn the_layers_the_architecture_draws_hold() {
    let doc =
        std::fs::read_to_string(root().join("docs/src/architecture.md")).expect("the document");
    let layers = layers_of(&doc);
    assert!(layers.len() >= 10, "too few layers read: {layers:?}");
    for (i, (module, uses)) in layers.iter().enumerate() {
        for u in uses {
            let below = layers[..i].iter().any(|(m, _)| m == u);
            assert!(below, "{module} uses {u}, which is not a row above it");
        }
    }
    let (files, edges) = import_graph();
    let mut broken = Vec::new();
    for (i, out) in edges.iter().enumerate() {
        let Some(from) = top_module(&files, i) else {
            continue;
        };
        let allowed = layers.iter().find(|(m, _)| *m == from);
        let Some((_, uses)) = allowed else {
            broken.push(format!("{from} is not in the table"));
            continue;
        };
        for &j in out {
            match top_module(&files, j) {
                Some(to) if to != from && !uses.contains(&to) => broken.push(format!(
                    "{} imports {}",
                    files[i].strip_prefix(root()).unwrap_or(&files[i]).display(),
                    files[j].strip_prefix(root()).unwrap_or(&files[j]).display()
                )),
                Some(_) | None => {}
            }
        }
    }
    broken.dedup();
    assert!(
        broken.is_empty(),
        "imports against the layers:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_layer_table_is_read_row_by_row() {
    let doc = "# x\n## Layers\n| module | crate | uses |\n| --- | --- | --- |\n| `text` | core | — |\n| `i18n` | core | `text` |\n## Next\n| `no` | x | `y` |\n";
    assert_eq!(
        layers_of(doc),
        [
            ("text".to_owned(), vec![]),
            ("i18n".to_owned(), vec!["text".to_owned()])
        ]
    );
}

/// Inside `app/update` no file imports (directly or through others) one that imports it
/// back: `mod.rs` dispatches to the files of each concern, and they import only files
/// below them ([`import_graph`], [`cycles`]).
#[test]
fn no_file_in_app_update_imports_one_that_imports_it_back() {
    let (files, edges) = import_graph();
    let dir = root().join("src/app/update");
    let inside = |i: usize| files[i].starts_with(&dir);
    let local: Vec<Vec<usize>> = edges
        .iter()
        .enumerate()
        .map(|(i, out)| {
            out.iter()
                .copied()
                .filter(|&j| inside(i) && inside(j))
                .collect()
        })
        .collect();
    let named = |c: &Vec<usize>| -> Vec<String> {
        c.iter()
            .map(|&i| {
                files[i]
                    .strip_prefix(&dir)
                    .unwrap_or(&files[i])
                    .display()
                    .to_string()
            })
            .collect()
    };
    let found: Vec<Vec<String>> = cycles(&local)
        .iter()
        .filter(|c| c.len() > 1)
        .map(named)
        .collect();
    assert!(
        found.is_empty(),
        "files of app/update that import each other: {found:?}"
    );
}

/// The path of one approval on `docs/src/architecture.md` counts its files: the table under
/// "## The path of one approval" names them (its last column), and "Files on this path:
/// **N**" says how many different files that is.
#[test]
fn the_approval_path_counts_its_files() {
    let doc =
        std::fs::read_to_string(root().join("docs/src/architecture.md")).expect("the document");
    let section = doc
        .split("\n## The path of one approval")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a section \"## The path of one approval\"");
    let files: std::collections::BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.trim_end().strip_suffix('|')?.rsplit('|').next())
        .flat_map(named_paths)
        .collect();
    let said: usize = section
        .split("Files on this path: **")
        .nth(1)
        .and_then(|s| s.split("**").next())
        .and_then(|n| n.parse().ok())
        .expect("\"Files on this path: **N**\"");
    assert!(files.len() > 10, "too few files read: {files:?}");
    assert_eq!(
        said,
        files.len(),
        "the page says {said}; its table names {files:?}"
    );
}
