//! The project's rules reference (`docs/rules/`) has a heading for every section the code and the
//! documentation cite, every anchor is unique, and every section of the rules digest is covered.
//!
//! Anchors are Markdown headings whose text begins with the section number: `### \u{a7}11.2 Beaten`
//! for DBA 3.0, `### DBAix \u{a7}6 Close combat` for the DBAix variant (see `docs/rules/README.md`).
//! A citation is the section sign followed by a number (`11.2`, `17.7b`, `17.B.1`); one written
//! right after `DBAix` or `DBAIX.md` belongs to the DBAix namespace, and one right after `BUGS` or
//! `BUGS.md` to the BUGS! namespace (`## BUGS \u{a7}12 Reaction checks`). A range such as
//! `4.2\u{2013}4.3` after the sign cites both ends.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const SECTION_SIGN: char = '\u{a7}';

/// Which rules a section number belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Namespace {
    /// DBA 3.0, numbered as the digest `DBA3.md`.
    Dba3,
    /// The DBAix variant, numbered as `DBAIX.md`.
    Dbaix,
    /// BUGS!, the second game, numbered as `BUGS.md`.
    Bugs,
}

/// One section number found in a text, with the byte offset of its section sign.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Citation {
    ns: Namespace,
    number: String,
    at: usize,
}

/// Every section of the DBA 3.0 digest: its numbered headings and the numbered items of §17.
/// (Written with the sign spelled out so that this file itself cites nothing.)
const DIGEST_SECTIONS: &[&str] = &[
    "0", "0.1", "0.2", "0.3", "1", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "2.3", "2.4", "2.5",
    "2.6", "2.7", "3", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "4", "4.1", "4.2",
    "4.3", "4.4", "4.5", "4.6", "4.7", "5", "5.1", "5.2", "5.3", "5.4", "5.5", "6", "6.1", "6.2",
    "6.3", "6.4", "7", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "7.9", "8", "8.1",
    "8.2", "8.3", "8.4", "8.5", "9", "9.1", "9.2", "9.3", "9.4", "9.5", "9.6", "10", "10.1",
    "10.2", "10.3", "10.4", "11", "11.1", "11.2", "11.3", "11.4", "12", "12.1", "12.2", "12.3",
    "12.4", "12.5", "12.6", "13", "13.1", "13.2", "14", "14.1", "14.2", "14.3", "14.4", "14.5",
    "14.6", "15", "15.1", "15.2", "15.3", "16", "16.1", "16.2", "16.3", "16.4", "17", "17.A",
    "17.1", "17.2", "17.3", "17.4", "17.5", "17.6", "17.7", "17.7b", "17.8", "17.9", "17.10",
    "17.11", "17.12", "17.13", "17.14", "17.15", "17.16", "17.17", "17.18", "17.19", "17.20",
    "17.21", "17.22", "17.23", "17.24", "17.25", "17.26", "17.27", "17.28", "17.29", "17.30",
    "17.31", "17.32", "17.33", "17.34", "17.35", "17.36", "17.37", "17.38", "17.39", "17.40",
    "17.41", "17.42", "17.43", "17.44", "17.45", "17.46", "17.47", "17.48", "17.49", "17.50",
    "17.51", "17.52", "17.53", "17.54", "17.55", "17.56", "17.57", "17.58", "17.59", "17.60",
    "17.61", "17.62", "17.63", "17.64", "17.65", "17.66", "17.B", "17.B.1", "17.B.2",
];

/// Every section of the DBAix digest `DBAIX.md`.
const DBAIX_SECTIONS: &[&str] = &[
    "0", "1", "2", "3", "3.1", "4", "5", "6", "6.1", "6.2", "6.3", "7", "8", "8.1", "8.2", "9",
    "10", "11", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8", "11.9", "11.10",
    "11.11", "11.12", "11.13", "11.14", "11.15", "11.16",
];

/// Every section of the BUGS! digest `BUGS.md`.
const BUGS_SECTIONS: &[&str] = &[
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "10.1", "10.2", "10.3", "10.4", "11",
    "12", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "13", "13.1", "13.2", "13.3", "13.4",
    "13.5", "13.6", "13.7", "13.8", "13.9", "13.10", "14", "15", "16", "17", "17.1", "17.2",
    "17.3", "17.4", "17.5", "17.6", "17.7", "18", "19",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dbcore sits inside the workspace")
        .to_path_buf()
}

/// Reads a section number at the start of `s`: digits, then parts `.digits` or `.LETTER`, and a
/// lowercase letter straight after the last digits when no letter or digit follows it (`17.7b`).
/// Returns the number and its length in bytes.
fn parse_number(s: &str) -> Option<(String, usize)> {
    let b = s.as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut end = digits(0);
    if end == 0 {
        return None;
    }
    let mut last_was_digits = true;
    loop {
        if end + 1 < b.len() && b[end] == b'.' {
            let n = digits(end + 1);
            if n > 0 {
                end += 1 + n;
                last_was_digits = true;
                continue;
            }
            let letter_alone = b[end + 1].is_ascii_uppercase()
                && b.get(end + 2).is_none_or(|c| !c.is_ascii_alphanumeric());
            let letter_then_part = b[end + 1].is_ascii_uppercase()
                && b.get(end + 2) == Some(&b'.')
                && b.get(end + 3).is_some_and(|c| c.is_ascii_digit());
            if letter_alone || letter_then_part {
                end += 2;
                last_was_digits = false;
                continue;
            }
        }
        break;
    }
    if last_was_digits
        && b.get(end).is_some_and(|c| c.is_ascii_lowercase())
        && b.get(end + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
    {
        end += 1;
    }
    Some((s[..end].to_string(), end))
}

/// Whether the text just before a section sign names the DBAix digest (`DBAix `, `DBAIX.md `).
fn names_dbaix(before: &str) -> bool {
    let t = before.trim_end().to_ascii_lowercase();
    t.ends_with("dbaix") || t.ends_with("dbaix.md")
}

/// Whether the text just before a section sign names the BUGS! digest (`BUGS `, `BUGS.md `).
fn names_bugs(before: &str) -> bool {
    let t = before.trim_end().to_ascii_lowercase();
    t.ends_with("bugs") || t.ends_with("bugs.md")
}

/// Every section cited in one line of text.
fn citations(line: &str) -> Vec<Citation> {
    let mut out = Vec::new();
    for (at, c) in line.char_indices() {
        if c != SECTION_SIGN {
            continue;
        }
        let after = at + c.len_utf8();
        let Some((number, len)) = parse_number(&line[after..]) else {
            continue;
        };
        let ns = if names_dbaix(&line[..at]) {
            Namespace::Dbaix
        } else if names_bugs(&line[..at]) {
            Namespace::Bugs
        } else {
            Namespace::Dba3
        };
        out.push(Citation { ns, number, at });
        // A range: `4.2–4.3` (the sign of a second `§13` is found by the loop itself).
        let rest = &line[after + len..];
        let dash = rest
            .strip_prefix('\u{2013}')
            .or_else(|| rest.strip_prefix('-'));
        if let Some(tail) = dash {
            if let Some((end, _)) = parse_number(tail) {
                out.push(Citation {
                    ns,
                    number: end,
                    at,
                });
            }
        }
    }
    out
}

/// The anchor a Markdown line defines, if it is a heading that begins with a section number.
fn anchor(line: &str) -> Option<(Namespace, String)> {
    let text = line.strip_prefix('#')?.trim_start_matches('#');
    let text = text.strip_prefix(' ')?;
    let (ns, rest) = match (text.strip_prefix("DBAix "), text.strip_prefix("BUGS ")) {
        (Some(r), _) => (Namespace::Dbaix, r),
        (_, Some(r)) => (Namespace::Bugs, r),
        _ => (Namespace::Dba3, text),
    };
    let rest = rest.strip_prefix(SECTION_SIGN)?;
    let (number, len) = parse_number(rest)?;
    match rest[len..].chars().next() {
        None | Some(' ') => Some((ns, number)),
        _ => None,
    }
}

fn walk(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, exts, out);
        } else if p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(p);
        }
    }
}

/// The files whose citations must resolve: the sources of every crate, the Rust and C tests, the
/// Python package and stubs, the examples, the C header, the READMEs and the docs.
fn cited_files() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = Vec::new();
    let code = ["rs", "py", "pyi", "c", "h", "md", "sh"];
    for dir in [
        "dbcore/src",
        "dbcore/tests",
        "dbcore-ffi/src",
        "dbcore-py/src",
        "dbcore-py/python",
        "dbcore-cli/src",
        "xtask/src",
        "xtask/chores/src",
        "examples",
        "include",
        "tests/c",
        "docs",
    ] {
        walk(&root.join(dir), &code, &mut files);
    }
    for f in ["README.md", "dbcore-ffi/README.md", "dbcore-py/README.md"] {
        let p = root.join(f);
        if p.is_file() {
            files.push(p);
        }
    }
    files
}

/// Every anchor of the reference, with where it is defined (`file:line`).
fn reference_anchors() -> BTreeMap<(Namespace, String), Vec<String>> {
    let root = repo_root();
    let mut pages = Vec::new();
    walk(&root.join("docs/rules"), &["md"], &mut pages);
    let mut anchors: BTreeMap<(Namespace, String), Vec<String>> = BTreeMap::new();
    for page in pages {
        let text = fs::read_to_string(&page).expect("a page of the reference is readable");
        let name = page
            .strip_prefix(&root)
            .unwrap_or(&page)
            .display()
            .to_string();
        for (i, line) in text.lines().enumerate() {
            if let Some(key) = anchor(line) {
                anchors
                    .entry(key)
                    .or_default()
                    .push(format!("{name}:{}", i + 1));
            }
        }
    }
    anchors
}

fn label(ns: Namespace, number: &str) -> String {
    match ns {
        Namespace::Dba3 => format!("{SECTION_SIGN}{number}"),
        Namespace::Dbaix => format!("DBAix {SECTION_SIGN}{number}"),
        Namespace::Bugs => format!("BUGS {SECTION_SIGN}{number}"),
    }
}

#[test]
fn the_extractor_reads_every_citation_form() {
    let read = |s: &str| -> Vec<String> {
        citations(s)
            .into_iter()
            .map(|c| label(c.ns, &c.number))
            .collect()
    };
    let s = SECTION_SIGN;
    assert_eq!(read(&format!("// DBA3.md {s}11.2: Blades")), ["\u{a7}11.2"]);
    assert_eq!(
        read(&format!("({s}8.2 (a), {s}6.3.)")),
        ["\u{a7}8.2", "\u{a7}6.3"]
    );
    assert_eq!(read(&format!("{s}17.7b, {s}17.B.1 and {s}17.B")), {
        ["\u{a7}17.7b", "\u{a7}17.B.1", "\u{a7}17.B"]
    });
    assert_eq!(read(&format!("{s}4.2\u{2013}4.3 and {s}5\u{2013}{s}13")), {
        ["\u{a7}4.2", "\u{a7}4.3", "\u{a7}5", "\u{a7}13"]
    });
    assert_eq!(
        read(&format!("DBAIX.md {s}6, DBAix {s}11.3 and {s}7.3")),
        ["DBAix \u{a7}6", "DBAix \u{a7}11.3", "\u{a7}7.3"]
    );
    assert_eq!(
        read(&format!("'{s}' is two bytes, {s}\u{2026}")),
        Vec::<String>::new()
    );
    assert_eq!(read(&format!("{s}3.5's river")), ["\u{a7}3.5"]);
    assert_eq!(
        anchor(&format!("### {s}11.2 Beaten")),
        Some((Namespace::Dba3, "11.2".to_string()))
    );
    assert_eq!(
        anchor(&format!("## DBAix {s}6 Close combat")),
        Some((Namespace::Dbaix, "6".to_string()))
    );
    assert_eq!(
        read(&format!(
            "// BUGS.md {s}12.4: Shot At, and BUGS {s}13.10 beside {s}9"
        )),
        ["BUGS \u{a7}12.4", "BUGS \u{a7}13.10", "\u{a7}9"]
    );
    assert_eq!(
        anchor(&format!("### BUGS {s}13.10 The worked example")),
        Some((Namespace::Bugs, "13.10".to_string()))
    );
    assert_eq!(anchor(&format!("See {s}11.2")), None);
    assert_eq!(anchor(&format!("### {s}11.2: Beaten")), None);
}

// DBA3.md §0 (and issue #11): every section cited in the code or the docs is in the reference.
#[test]
fn every_cited_section_is_in_the_reference() {
    let anchors = reference_anchors();
    assert!(
        anchors.len() >= DIGEST_SECTIONS.len() + DBAIX_SECTIONS.len() + BUGS_SECTIONS.len(),
        "the reference has only {} anchors; is docs/rules/ there?",
        anchors.len()
    );
    let root = repo_root();
    let mut cited = 0;
    let mut missing = Vec::new();
    for file in cited_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (i, line) in text.lines().enumerate() {
            for c in citations(line) {
                cited += 1;
                if !anchors.contains_key(&(c.ns, c.number.clone())) {
                    missing.push(format!("{name}:{}: {}", i + 1, label(c.ns, &c.number)));
                }
            }
        }
    }
    assert!(
        cited > 500,
        "only {cited} citations found: is the walk right?"
    );
    assert!(
        missing.is_empty(),
        "{} citations have no heading in docs/rules/ (add `### {SECTION_SIGN}N.N Title` there, \
         or fix the citation):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

// DBA3.md §0: one anchor per section, so a citation leads to one place.
#[test]
fn every_anchor_is_unique() {
    let dups: Vec<String> = reference_anchors()
        .into_iter()
        .filter(|(_, at)| at.len() > 1)
        .map(|((ns, n), at)| format!("{} at {}", label(ns, &n), at.join(", ")))
        .collect();
    assert!(
        dups.is_empty(),
        "anchors defined twice:\n{}",
        dups.join("\n")
    );
}

// DBA3.md §0 to §17, DBAIX.md §0 to §11 and BUGS.md §0–19: the reference covers every section,
// cited or not.
#[test]
fn every_digest_section_has_an_anchor() {
    let anchors = reference_anchors();
    let missing: Vec<String> = DIGEST_SECTIONS
        .iter()
        .map(|n| (Namespace::Dba3, *n))
        .chain(DBAIX_SECTIONS.iter().map(|n| (Namespace::Dbaix, *n)))
        .chain(BUGS_SECTIONS.iter().map(|n| (Namespace::Bugs, *n)))
        .filter(|(ns, n)| !anchors.contains_key(&(*ns, n.to_string())))
        .map(|(ns, n)| label(ns, n))
        .collect();
    assert!(
        missing.is_empty(),
        "sections of the digests with no heading in docs/rules/: {}",
        missing.join(", ")
    );
}

// The index links every page of the reference, so each is reachable from docs/rules/README.md.
#[test]
fn the_index_links_every_page() {
    let root = repo_root();
    let index = fs::read_to_string(root.join("docs/rules/README.md")).expect("the index exists");
    let mut pages = Vec::new();
    walk(&root.join("docs/rules"), &["md"], &mut pages);
    // A page in a folder of its own (BUGS! in `bugs/`) is linked by its path from the index.
    let rules = root.join("docs/rules");
    let unlinked: Vec<String> = pages
        .iter()
        .filter_map(|p| p.strip_prefix(&rules).ok()?.to_str().map(str::to_string))
        .filter(|n| n != "README.md" && !index.contains(&format!("({n})")))
        .collect();
    assert!(
        pages.len() > 10,
        "only {} pages in docs/rules/",
        pages.len()
    );
    assert!(
        unlinked.is_empty(),
        "pages the index does not link: {unlinked:?}"
    );
}
