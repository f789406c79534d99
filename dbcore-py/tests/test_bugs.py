"""BUGS!, the second game, from Python: the same Battle and the same surface as DBA."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

import dbcore
from dbcore import Battle

ROOT = Path(__file__).resolve().parents[2]


def synthetic_tables() -> Any:
    # Made-up values, as the file's note says (BUGS.md R6-R8): never the booklet's.
    return json.loads((ROOT / "tests/bugs/synthetic-tables.json").read_text())


def test_an_encounter_plays_whole_from_its_legal_actions_with_no_refused_try() -> None:
    # BUGS.md §5, §15: every listed action is accepted; the encounter ends with a verdict.
    game = Battle.bugs(synthetic_tables(), encounter=1, seed=5)
    rng = random.Random(3)
    for _ in range(100_000):
        if game.stage == "finished":
            break
        game.apply(rng.choice(game.legal_actions()))  # never raises: no refused try
    assert game.stage == "finished"
    assert game.winner in (0, 1)  # the humans (0) or the bugs (1)
    record = game.record()
    assert record["format"] == "dbcore-game" and record["game"] == "bugs"
    again = Battle.load(record)
    assert again.revision == game.revision
    assert again.call("events") == game.call("events")


def test_the_golden_encounter_replays_to_its_events() -> None:
    # BUGS.md §15: the same events as Rust and C give.
    golden = json.loads((ROOT / "tests/golden/bugs/bugs-encounter-1.json").read_text())
    game = Battle.load(golden)
    assert game.call("events") == golden["events"]
    lines = game.narrate()
    assert len(lines) == len(golden["events"])  # one line an event, the opening's included
    assert lines[0].startswith("BUGS!: the escort begins")
    assert game.svg().startswith("<svg")


def test_pop_and_the_demonstration_player() -> None:
    game = Battle.bugs(synthetic_tables(), encounter=2, seed=9)
    first = game.ai()
    game.apply(first)
    assert game.pop() == first
    assert game.ai() == first


def test_without_the_booklets_tables_nothing_starts() -> None:
    # BUGS.md §17: the template's empty cells are each named.
    template = json.loads((ROOT / "examples/bugs/tables-template.json").read_text())
    with pytest.raises(dbcore.DbcoreError) as e:
        Battle.bugs(template)
    assert e.value.rule == "BUGS §17"
    with pytest.raises(dbcore.ArgumentError):
        Battle.bugs()
    with pytest.raises(dbcore.ArgumentError):
        Battle.bugs(synthetic_tables(), encounter=2**64)
