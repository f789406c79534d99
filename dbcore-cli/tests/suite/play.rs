//! `dbcore play`: a whole game from two army lists (DBA3.md §5.1 to §13) or a given set-up.

use std::process::Command;

fn dbcore(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dbcore"))
        .args(args)
        .output()
        .expect("the dbcore program runs")
}

#[test]
fn play_tells_the_pre_battle_then_the_battle() {
    // DBA3.md §5.1: a game between two lists opens with the aggression dice.
    let out = dbcore(&["play", "II/56", "II/53", "--max-bounds", "4", "--no-svg"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Aggression"), "{text}");
    assert!(text.contains("has deployed"), "{text}");
    assert!(text.contains("rolls"), "{text}");
}

#[test]
fn play_json_is_a_game_record_that_replays() {
    let out = dbcore(&[
        "play",
        "I/2a",
        "I/6a",
        "--seed",
        "3",
        "--max-bounds",
        "6",
        "--json",
        "--no-svg",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // One game record every tool reads: its format and version name it.
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let file = dbcore::record::GameFile::from_json(&text).expect("a game record");
    assert_eq!((file.format.as_str(), file.version), ("dbcore-game", 1));
    assert!(file.result.is_some() && file.tags.contains_key("seed"));
    let record = file.whole_game().expect("a whole game");
    let replayed = record.replay().expect("it replays");
    assert!(!replayed.prebattle_events.is_empty());
}

#[test]
fn play_refuses_an_unknown_list_on_stderr() {
    let out = dbcore(&["play", "IX/99", "II/53", "--no-svg"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(!out.stderr.is_empty());
}

#[test]
fn play_big_battle_and_giant_start_from_the_pre_battle() {
    // DBA3.md §14.3, §14.4: `--big-battle` and `--giant` play the pre-battle by command: the
    // PIP declaration and deployment command by command come before the first bound.
    for flag in ["--big-battle", "--giant"] {
        let out = dbcore(&[
            "play",
            flag,
            "II/56",
            "II/53",
            "--max-bounds",
            "2",
            "--no-svg",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Aggression"), "{text}");
        assert!(
            text.contains("how its PIP dice go to its commands"),
            "{text}"
        );
        assert!(text.contains("sets out command 0"), "{text}");
    }
    let out = dbcore(&[
        "play",
        "--big-battle",
        "II/56",
        "II/53",
        "--max-bounds",
        "2",
        "--json",
        "--no-svg",
    ]);
    let record = dbcore::record::GameFile::from_json(&String::from_utf8(out.stdout).unwrap())
        .expect("a game record")
        .whole_game()
        .expect("a whole game");
    assert_eq!(
        record.prebattle.setup.variant,
        dbcore::battlefield::Variant::BigBattle
    );
    let replayed = record.replay().expect("it replays");
    assert_eq!(replayed.battle.setup().armies[0].commands.len(), 3);
}

#[test]
fn render_marks_the_last_bound_and_writes_a_png() {
    // A whole game played and rendered from its record: the picture marks the last bound's
    // combats and losses (DBA3.md §10, §13.1) and explains them in its key.
    let dir = std::env::temp_dir().join(format!("dbcore-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("game.json");
    let out = dbcore(&["play", "--json", "--no-svg"]);
    assert!(out.status.success());
    std::fs::write(&game, &out.stdout).unwrap();
    let svg = dbcore(&["render", game.to_str().unwrap(), "--marks"]);
    assert!(
        svg.status.success(),
        "{}",
        String::from_utf8_lossy(&svg.stderr)
    );
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(svg.contains("class=\"mark-combat\""), "no combat marked");
    assert!(
        svg.contains("orange star: a close combat"),
        "the key explains the marks"
    );
    let unmarked = dbcore(&["render", game.to_str().unwrap()]);
    assert!(!String::from_utf8(unmarked.stdout)
        .unwrap()
        .contains("class=\"mark-"));
    let png = dir.join("game.png");
    let r = dbcore(&[
        "render",
        game.to_str().unwrap(),
        "--png",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR chunk: the picture's own size, 40 pixels a BW (a 12 BW board with its key).
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert!(width >= 12 * 40 && height >= 12 * 40, "{width} x {height}");
    std::fs::remove_dir_all(&dir).unwrap();
}
