//! `dbcore play --human red`: a person typing orders against the opponent, scripted on stdin.

use std::io::Write;
use std::process::{Command, Stdio};

fn play_human(args: &[&str], script: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dbcore program runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the script is written");
    let out = child.wait_with_output().expect("dbcore ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_scripted_person_moves_is_refused_and_the_opponent_answers() {
    let dir = std::env::temp_dir().join(format!("dbcore-human-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("table.svg");
    // Seed 2 between II/56 and II/53: the Britons move first, then the Romans (red) with the
    // river still to be diced.
    let saved = dir.join("game.json");
    // The End key's escape sequence, typed by mistake, is no order.
    let script = "help\nlegal\n3 move 1.5\n3 contact 104 sideways\n2 move 9\nundo\n3 move 1.5\n\u{1b}[F\nriver\nend\ntable\nquit\n";
    let (ok, out, err) = play_human(
        &[
            "play",
            "II/56",
            "II/53",
            "--human",
            "red",
            "--seed",
            "2",
            "--max-bounds",
            "6",
            "--nodes",
            "60",
            "--svg",
            svg.to_str().expect("utf-8 path"),
            "--save",
            saved.to_str().expect("utf-8 path"),
        ],
        script,
    );
    assert!(ok, "{err}");
    // The help and the legal moves.
    assert!(out.contains("IDS contact T HOW"), "{out}");
    assert!(out.contains("may move (move 1"), "{out}");
    // DBA3.md §7.2: a legal move is made and told.
    assert!(out.contains("4Bd #3 moves 1.50 BW"), "{out}");
    // A typing mistake is explained; an illegal move shows the rule that refuses it.
    assert!(out.contains("\"sideways\" is not front"), "{out}");
    assert!(out.contains("refused: §"), "{out}");
    // DBA3.md §3.5: the river is diced when asked.
    assert!(out.contains("river"), "{out}");
    // The opponent plays its bound and says what it does.
    assert!(out.contains("blue: "), "{out}");
    // The table is drawn as text, and the picture written after a bound.
    assert!(out.contains("+----"), "{out}");
    assert!(out.contains("You leave the field."), "{out}");
    // `undo` takes the move back; the hint says what to type; the board has a legend.
    assert!(out.contains("taken back: move"), "{out}");
    assert!(out.contains("then `end`"), "{out}");
    assert!(out.contains("legend:") && out.contains("= river"), "{out}");
    // `quit` saves the game as a record the other tools read back.
    assert!(out.contains("The game is saved to"), "{out}");
    let record = std::fs::read_to_string(&saved).expect("the game is saved");
    let file = dbcore::record::GameFile::from_json(&record).expect("a game record");
    file.replay().expect("the saved game replays");
    let picture = std::fs::read_to_string(&svg).expect("the picture is written");
    assert!(
        picture.starts_with("<svg") || picture.contains("<svg"),
        "{picture}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_input_may_end_at_any_moment_and_a_wrong_side_is_refused() {
    let (ok, out, err) = play_human(
        &[
            "play",
            "--human",
            "blue",
            "--max-bounds",
            "4",
            "--nodes",
            "40",
            "--no-svg",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("you play blue"), "{out}");
    let (ok, _, err) = play_human(&["play", "--human", "green", "--no-svg"], "");
    assert!(!ok);
    assert!(err.contains("red (the first army) or blue"), "{err}");
}
