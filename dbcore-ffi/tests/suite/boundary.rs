//! Every exported function's body is one call to the panic boundary helper, and every exported
//! function's doc has a `# Safety` section and a C example.
//!
//! The test reads `src/*.rs` as text: an `extern "C" fn` whose body is anything but
//! `boundary(...)` fails it, unless it is on the small allowlist below of functions that return a
//! constant or a static string and so cannot panic.

use std::fs;
use std::path::Path;

/// Trivially infallible getters: no allocation, no arithmetic that can overflow, no indexing.
const ALLOWLIST: &[&str] = &[
    "dbcore_version",
    "dbcore_status_name",
    "dbcore_element_kind_count",
];

struct Exported {
    file: String,
    name: String,
    doc: String,
    body: String,
}

fn exported() -> Vec<Exported> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(at) = line.find("extern \"C\" fn ") else {
                continue;
            };
            let rest = &line[at + "extern \"C\" fn ".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // The doc: the `///` lines above, skipping attributes.
            let mut doc = Vec::new();
            let mut j = i;
            while j > 0 {
                j -= 1;
                let l = lines[j].trim();
                if let Some(d) = l.strip_prefix("///") {
                    doc.push(d.to_string());
                } else if l.starts_with("#[") {
                    continue;
                } else {
                    break;
                }
            }
            doc.reverse();
            // The body: from the first `{` after the signature to its matching `}`.
            let from: String = lines[i..].join("\n");
            let open = from.find('{').expect("a body");
            let mut depth = 0usize;
            let mut end = None;
            for (k, ch) in from[open..].char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(open + k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let body = from[open + 1..end.expect("a closed body")].to_string();
            out.push(Exported {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                name,
                doc: doc.join("\n"),
                body,
            });
        }
    }
    out
}

/// `body` is exactly `boundary(...)`: the call's closing parenthesis is its last character, so
/// nothing runs before or after it. Parentheses inside string and char literals are skipped.
fn is_one_boundary_call(body: &str) -> bool {
    let Some(args) = body.strip_prefix("boundary(") else {
        return false;
    };
    let mut depth = 1usize;
    let mut chars = args.char_indices();
    while let Some((i, ch)) = chars.next() {
        match ch {
            '"' => {
                // Skip a string literal, honouring backslash escapes.
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == args.len();
                }
            }
            _ => {}
        }
    }
    false
}

#[test]
fn the_checker_refuses_work_outside_the_boundary() {
    assert!(is_one_boundary_call("boundary(|| { f(\")(\"); Ok(()) })"));
    assert!(!is_one_boundary_call("let x = 1;\n    boundary(|| Ok(()))"));
    assert!(!is_one_boundary_call("boundary(|| Ok(()));\n    g()"));
    assert!(!is_one_boundary_call("g(); boundary(|| Ok(()))"));
}

#[test]
fn every_exported_body_runs_inside_the_boundary() {
    let all = exported();
    assert!(
        all.len() >= 20,
        "found only {} exported functions",
        all.len()
    );
    let mut bad = Vec::new();
    for f in &all {
        let body = f.body.trim();
        if ALLOWLIST.contains(&f.name.as_str()) {
            assert!(
                !body.contains("boundary("),
                "{} is allowlisted but uses the boundary: drop it from the list",
                f.name
            );
            continue;
        }
        if !is_one_boundary_call(body) {
            bad.push(format!("{}: {}", f.file, f.name));
        }
    }
    assert!(
        bad.is_empty(),
        "exported functions not wrapped in boundary(): {bad:?}"
    );
    for name in ALLOWLIST {
        assert!(
            all.iter().any(|f| f.name == *name),
            "allowlisted {name} is not exported any more"
        );
    }
}

#[test]
fn every_exported_function_documents_safety_and_a_c_example() {
    for f in exported() {
        assert!(
            f.doc.contains("# Safety"),
            "{}: {} has no # Safety section",
            f.file,
            f.name
        );
        // The doc becomes a /** */ comment in the header: a nested comment would end it early.
        assert!(
            !f.doc.contains("/*") && !f.doc.contains("*/"),
            "{}: {} has a C comment in its doc; use // in examples",
            f.file,
            f.name
        );
        assert!(
            f.doc.contains("```c"),
            "{}: {} has no C example",
            f.file,
            f.name
        );
    }
}
