//! `dbcore bugs`: a BUGS! encounter from a seed and the tables file (BUGS.md §15, §17).

use std::process::Command;

fn dbcore(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(args)
        .output()
        .expect("the dbcore program runs")
}

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn synthetic() -> String {
    root()
        .join("tests/bugs/synthetic-tables.json")
        .to_string_lossy()
        .into_owned()
}

// BUGS.md §17: without the tables file the program names what is lost and where the format is.
#[test]
fn bugs_without_tables_names_the_lost_tables() {
    let out = dbcore(&["bugs", "--seed", "1"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    for want in [
        "Impact Table",
        "Wound Table",
        "ranges",
        "dbcore-bugs-tables",
        "docs/bugs.md",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
}

// BUGS.md §17: the template, every value empty, is refused with every problem named.
#[test]
fn bugs_refuses_the_empty_template_naming_every_value() {
    let template = root().join("examples/bugs/tables-template.json");
    let out = dbcore(&["bugs", "--tables", &template.to_string_lossy()]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("103 problems"), "{err}");
    assert!(err.contains("impact.12.12: empty") && err.contains("sheets.little_un.will"));
}

// BUGS.md §15: an encounter plays from a seed and the tables, narrated and drawn; --json gives a
// record that replays.
#[test]
fn bugs_plays_narrates_and_draws() {
    let dir = std::env::temp_dir().join(format!("dbcore-bugs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("bugs.svg");
    let tables = synthetic();
    let out = dbcore(&[
        "bugs",
        "--tables",
        &tables,
        "--seed",
        "2",
        "--encounter",
        "2",
        "--svg",
        &svg.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("the defence of the settlement begins"),
        "{text}"
    );
    assert!(text.contains("Result: "));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("Legend"));
    let out = dbcore(&[
        "bugs",
        "--tables",
        &tables,
        "--seed",
        "2",
        "--encounter",
        "3",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let record: dbcore::bugs::BugsRecord = serde_json::from_value(v["record"].clone()).unwrap();
    let (_, events) = dbcore::bugs::Encounter::replay(&record).unwrap();
    assert_eq!(serde_json::to_value(events).unwrap(), v["events"]);
    let _ = std::fs::remove_dir_all(dir);
}

// `dbcore bugs --help` describes the tables file.
#[test]
fn bugs_help_describes_the_tables_file() {
    let out = dbcore(&["bugs", "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "THE TABLES FILE",
        "impact",
        "wound",
        "being_charged_passed_none",
        "tables-template.json",
    ] {
        assert!(text.contains(want), "{want}");
    }
}
