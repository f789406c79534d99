//! The layers of dbcore: no import circle between its modules (issue #48).
//!
//! The check reads `dbcore/src/**.rs` itself, so it needs no tool beyond the test run. It takes
//! every path that starts with `crate::`, `super::` or `self::` (in `use` lines and in code),
//! and the `use` lines that name a child module, leaves out comments, strings and
//! `#[cfg(test)]` items (a test may build a battle to exercise a ground module) and `#[cfg(doc)]`
//! imports (kept so that doc links resolve), and turns each
//! into an edge between two nodes: the top-level modules (`combat`, `terrain`, ...), and inside
//! `battle` its files (`battle::bound`, `battle::movement`, ...; `battle` alone is `battle/mod.rs`
//! with the items it re-exports). A circle of nodes fails the test unless all of its nodes lie in
//! one entry of [`ALLOWED`], whose module doc gives the reason (the test checks that it says
//! "import circle").
//!
//! `cargo test -p dbcore --test suite module_graph -- --nocapture` prints the graph: each node
//! with its line count, the imports between nodes and the circles.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The circles kept for now, each as the nodes it may span and the file whose module doc says
/// why. An entry that no longer matches a circle fails the test too, so the list only shrinks.
const ALLOWED: &[Allowed] = &[Allowed {
    prefixes: &["battle::cache", "battle::engagement", "battle::movement"],
    reason_in: "battle/cache.rs",
}];

/// The modules whose files are nodes of their own.
const LOOK_INSIDE: &[&str] = &["battle"];

struct Allowed {
    prefixes: &'static [&'static str],
    reason_in: &'static str,
}

impl Allowed {
    fn covers(&self, node: &str) -> bool {
        self.prefixes
            .iter()
            .any(|p| node == *p || node.starts_with(&format!("{p}::")))
    }
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `battle/movement/engine.rs` is `battle::movement::engine`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The source with comments, string and character literals blanked (line breaks kept).
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                }
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (c.get(i + 1) == Some(&'"') || c.get(i + 1) == Some(&'#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c[i] == '"' {
            out.push(' ');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('a', '\n', '\u{..}'), or else a lifetime, left alone.
            if c.get(i + 1) == Some(&'\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                for _ in i..=j.min(c.len() - 1) {
                    out.push(' ');
                }
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                out.push_str("   ");
                i += 3;
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Path, // `::`
    Punct(char),
}

fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// One reference from a file to a module path (`["battle", "Action"]`), with its line.
struct Reference {
    path: Vec<String>,
    line: usize,
}

fn is_ident(t: Option<&(Tok, usize)>, name: &str) -> bool {
    matches!(t, Some((Tok::Ident(s), _)) if s == name)
}

/// Reads a use tree or a path starting at `toks[i]`, pushing every full path it names onto
/// `out` (relative to `base`, already resolved). Returns the index after it.
fn read_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    base: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = base;
    loop {
        match toks.get(i) {
            Some((Tok::Ident(s), _)) => {
                if s == "super" {
                    path.pop();
                } else if s != "self" {
                    path.push(s.clone());
                }
                i += 1;
                if matches!(toks.get(i), Some((Tok::Path, _))) {
                    i += 1;
                } else {
                    if is_ident(toks.get(i), "as") {
                        i += 2; // `as name`
                    }
                    break;
                }
            }
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some((Tok::Punct('}'), _)) => {
                            i += 1;
                            break;
                        }
                        Some((Tok::Punct(','), _)) => i += 1,
                        None => break,
                        _ => {
                            let before = i;
                            i = read_tree(toks, i, path.clone(), out);
                            if i == before {
                                i += 1;
                            }
                        }
                    }
                }
                return i;
            }
            _ => break,
        }
    }
    out.push(path);
    i
}

/// Every module path a file refers to, outside comments, strings, `#[cfg(test)]` items and
/// `#[cfg(doc)]` imports.
fn references(src: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Reference> {
    let toks = tokens(&strip(src));
    let mut refs = Vec::new();
    // The inline modules we are inside: (their path, the brace depth at which they close).
    let mut stack: Vec<(Vec<String>, usize)> = vec![(module.to_vec(), 0)];
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let current = stack.last().expect("the file's module").0.clone();
        let line = toks[i].1;
        match &toks[i].0 {
            Tok::Punct('#') if matches!(toks.get(i + 1), Some((Tok::Punct('['), _))) => {
                let mut j = i + 2;
                let mut bracket = 1;
                let mut words = Vec::new();
                while j < toks.len() && bracket > 0 {
                    match &toks[j].0 {
                        Tok::Punct('[') => bracket += 1,
                        Tok::Punct(']') => bracket -= 1,
                        Tok::Ident(s) => words.push(s.clone()),
                        _ => {}
                    }
                    j += 1;
                }
                // `#[cfg(test)]` items, and `#[cfg(doc)]` imports kept only so that doc links
                // resolve: neither is a dependency of the compiled library.
                let test_or_doc_only = words.first().is_some_and(|w| w == "cfg")
                    && words.iter().any(|w| w == "test" || w == "doc")
                    && !words.iter().any(|w| w == "not");
                // Other attributes are read like code (`#[error("..", crate::x::f(..))]`).
                i = if test_or_doc_only {
                    skip_item(&toks, j)
                } else {
                    i + 2
                };
            }
            Tok::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if stack.len() > 1 && stack.last().expect("a module").1 == depth {
                    stack.pop();
                }
                i += 1;
            }
            Tok::Ident(s) if s == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Punct('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    let mut inner = current.clone();
                    inner.push(name.clone());
                    stack.push((inner, depth));
                    depth += 1;
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Tok::Ident(s)
                if (s == "crate" || s == "super" || s == "self")
                    && matches!(toks.get(i + 1), Some((Tok::Path, _)))
                    && !matches!(toks.get(i.wrapping_sub(1)), Some((Tok::Path, _))) =>
            {
                // `pub(in crate::x)` names a visibility, and `$crate::` a macro's own crate.
                let after_in = is_ident(toks.get(i.wrapping_sub(1)), "in");
                let after_dollar =
                    matches!(toks.get(i.wrapping_sub(1)), Some((Tok::Punct('$'), _)));
                let base = if s == "crate" {
                    Vec::new()
                } else {
                    current.clone()
                };
                let start = if s == "crate" { i + 2 } else { i };
                let mut paths = Vec::new();
                i = read_tree(&toks, start, base, &mut paths);
                if !after_in && !after_dollar {
                    refs.extend(paths.into_iter().map(|path| Reference { path, line }));
                }
            }
            Tok::Ident(s) if s == "use" => {
                // `use child::Item;` in a module with that child (2018 paths).
                if let Some((Tok::Ident(first), _)) = toks.get(i + 1) {
                    if current.len() == module.len() && children.contains(first) {
                        let mut paths = Vec::new();
                        i = read_tree(&toks, i + 1, current.clone(), &mut paths);
                        refs.extend(paths.into_iter().map(|path| Reference { path, line }));
                        continue;
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    refs
}

/// The index after the item that starts at `toks[i]`: up to its `;` or its closing brace.
fn skip_item(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut nest = 0i32; // ( and [
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('(') | Tok::Punct('[') => nest += 1,
            Tok::Punct(')') | Tok::Punct(']') => nest -= 1,
            Tok::Punct(';') if nest == 0 => return i + 1,
            Tok::Punct('{') if nest == 0 => {
                let mut braces = 0;
                while i < toks.len() {
                    match &toks[i].0 {
                        Tok::Punct('{') => braces += 1,
                        Tok::Punct('}') => {
                            braces -= 1;
                            if braces == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

struct Graph {
    /// Each node with its line count.
    nodes: BTreeMap<String, usize>,
    /// (from, to) with the places it happens (file:line).
    edges: BTreeMap<(String, String), Vec<String>>,
}

fn graph() -> Graph {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: Vec<(PathBuf, Vec<String>)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).expect("under src").to_path_buf();
            let m = module_of(&rel);
            (rel, m)
        })
        .collect();
    // Files of tests (`#[cfg(test)] mod measure_tests;`) are left out like inline test modules.
    let mut tests_only: BTreeSet<Vec<String>> = BTreeSet::new();
    for (rel, module) in &modules {
        let text = std::fs::read_to_string(src.join(rel)).expect("a source file");
        let toks = tokens(&strip(&text));
        for w in toks.windows(6) {
            if let [(Tok::Punct('#'), _), (Tok::Punct('['), _), (Tok::Ident(cfg), _), (Tok::Punct('('), _), (Tok::Ident(test), _), (Tok::Punct(')'), _)] =
                w
            {
                if cfg == "cfg" && test == "test" {
                    // The item after the attribute, past any visibility: `mod name;`.
                    let at = toks
                        .iter()
                        .position(|t| std::ptr::eq(t, &w[5]))
                        .expect("in toks");
                    let rest = &toks[at + 2..];
                    let m = rest
                        .iter()
                        .take(6)
                        .position(|t| t.0 == Tok::Ident("mod".into()));
                    if let Some(k) = m {
                        if let (Some((Tok::Ident(name), _)), Some((Tok::Punct(';'), _))) =
                            (rest.get(k + 1), rest.get(k + 2))
                        {
                            let mut child = module.clone();
                            child.push(name.clone());
                            tests_only.insert(child);
                        }
                    }
                }
            }
        }
    }
    let modules: Vec<(PathBuf, Vec<String>)> = modules
        .into_iter()
        .filter(|(_, m)| !tests_only.iter().any(|t| m.starts_with(t)))
        .collect();
    let known: BTreeSet<Vec<String>> = modules.iter().map(|(_, m)| m.clone()).collect();
    let node_of = |path: &[String]| -> Option<String> {
        let top = path.first()?;
        if !known.contains(&vec![top.clone()]) {
            return None;
        }
        if LOOK_INSIDE.contains(&top.as_str()) && path.len() > 1 {
            let child = vec![top.clone(), path[1].clone()];
            if known.contains(&child) {
                return Some(format!("{top}::{}", path[1]));
            }
        }
        Some(top.clone())
    };
    // The items lib.rs re-exports (`crate::Going` is `combat::Going`).
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut root_items: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in references(
        &lib.replace("pub use ", "pub use crate::"),
        &[],
        &BTreeSet::new(),
    ) {
        if let Some(last) = r.path.last() {
            root_items.insert(last.clone(), r.path.clone());
        }
    }
    let mut g = Graph {
        nodes: BTreeMap::new(),
        edges: BTreeMap::new(),
    };
    for (rel, module) in &modules {
        let text = std::fs::read_to_string(src.join(rel)).expect("a source file");
        let Some(from) = node_of(module) else {
            continue; // lib.rs
        };
        *g.nodes.entry(from.clone()).or_default() += text.lines().count();
        let children: BTreeSet<String> = known
            .iter()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m.last().expect("a child").clone())
            .collect();
        for r in references(&text, module, &children) {
            let path = match r.path.first() {
                Some(first) if !known.contains(&vec![first.clone()]) => {
                    match root_items.get(first) {
                        Some(p) => p.clone(),
                        None => continue,
                    }
                }
                Some(_) => r.path,
                None => continue,
            };
            if let Some(to) = node_of(&path) {
                if to != from {
                    g.edges.entry((from.clone(), to)).or_default().push(format!(
                        "{}:{}",
                        rel.display(),
                        r.line
                    ));
                }
            }
        }
    }
    g
}

/// The strongly connected components with more than one node (Tarjan), each sorted.
fn circles(g: &Graph) -> Vec<Vec<String>> {
    let names: Vec<&String> = g.nodes.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); names.len()];
    for (a, b) in g.edges.keys() {
        if let (Some(&x), Some(&y)) = (index_of.get(a), index_of.get(b)) {
            next[x].push(y);
        }
    }
    struct State {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(v: usize, next: &[Vec<usize>], s: &mut State) {
        s.index[v] = Some(s.counter);
        s.low[v] = s.counter;
        s.counter += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &next[v] {
            match s.index[w] {
                None => {
                    visit(w, next, s);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().expect("on the stack");
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        index: vec![None; names.len()],
        low: vec![0; names.len()],
        on_stack: vec![false; names.len()],
        stack: Vec::new(),
        counter: 0,
        found: Vec::new(),
    };
    for v in 0..names.len() {
        if s.index[v].is_none() {
            visit(v, &next, &mut s);
        }
    }
    let mut out: Vec<Vec<String>> = s
        .found
        .into_iter()
        .map(|c| {
            let mut c: Vec<String> = c.into_iter().map(|i| names[i].clone()).collect();
            c.sort();
            c
        })
        .collect();
    out.sort();
    out
}

fn report(g: &Graph, found: &[Vec<String>]) -> String {
    let mut s = String::new();
    let top = |n: &str| n.split("::").next().expect("a name").to_string();
    let _ = writeln!(
        s,
        "nodes (lines), and the nodes each imports (number of references):"
    );
    for (node, lines) in &g.nodes {
        let outs: Vec<String> = g
            .edges
            .iter()
            .filter(|((a, _), _)| a == node)
            .map(|((_, b), at)| format!("{b} {}", at.len()))
            .collect();
        let _ = writeln!(s, "  {node} ({lines}) -> {}", outs.join(", "));
    }
    let _ = writeln!(s, "circles: {}", found.len());
    for c in found {
        let _ = writeln!(s, "  {} nodes: {}", c.len(), c.join(" "));
        // The edges of the circle that leave one top-level module for another.
        for ((a, b), at) in &g.edges {
            if c.contains(a) && c.contains(b) && top(a) != top(b) {
                let _ = writeln!(s, "    {a} -> {b}: {}", at.join(" "));
            }
        }
    }
    s
}

#[test]
fn no_import_circle_outside_the_allowed_ones() {
    let g = graph();
    let found = circles(&g);
    let text = report(&g, &found);
    println!("{text}");
    let mut problems = Vec::new();
    for c in &found {
        if !ALLOWED.iter().any(|a| c.iter().all(|n| a.covers(n))) {
            problems.push(format!("an import circle: {}", c.join(" ")));
        }
    }
    for a in ALLOWED {
        if !found.iter().any(|c| c.iter().all(|n| a.covers(n))) {
            problems.push(format!(
                "the allowed circle {:?} is gone: take it off ALLOWED in {}",
                a.prefixes,
                file!()
            ));
        }
        let doc = std::fs::read_to_string(src_dir().join(a.reason_in)).expect("the reason's file");
        let said = doc
            .lines()
            .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
            .any(|l| l.to_lowercase().contains("import circle"));
        if !said {
            problems.push(format!(
                "{}'s module doc should say why the import circle {:?} is kept",
                a.reason_in, a.prefixes
            ));
        }
    }
    assert!(problems.is_empty(), "{}\n\n{text}", problems.join("\n"));
}

#[test]
fn the_reader_sees_paths_and_skips_tests_and_comments() {
    let src = "use crate::{a::B, c::{self, d::E as F}};\n\
               // use crate::zz::Y;\n\
               const S: &str = \"crate::yy::X\";\n\
               fn f() { super::g::h(); let c = 'x'; }\n\
               #[cfg(test)]\nmod tests { use crate::tt::T; }\n\
               mod inner { use super::k::L; }\n";
    let refs = references(src, &["m".to_string(), "n".to_string()], &BTreeSet::new());
    let paths: Vec<String> = refs.iter().map(|r| r.path.join("::")).collect();
    assert_eq!(paths, ["a::B", "c", "c::d::E", "m::g::h", "m::n::k::L"]);
}
