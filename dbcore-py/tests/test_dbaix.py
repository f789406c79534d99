"""DBAix from Python (DBAIX.md §2), through the one ``dbcore.Battle`` class every variant uses:
the three-sided golden trace replays to its events, action by action too; refusals raise a
DbcoreError naming their DBAix section and change nothing; the same methods answer on a DBA
battle and a DBAix game; odds are counted out of 36."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import dbcore
from dbcore import Battle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden" / "dbaix"


def golden_files() -> list[pathlib.Path]:
    files = sorted(GOLDEN.glob("*.json"))
    assert files, f"expected the DBAix golden traces in {GOLDEN}"
    return files


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_dbaix_golden_trace_replays(path: pathlib.Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    game, events = Battle.replay(golden["record"])
    assert events == golden["events"]
    record = game.record()
    assert record["game"] == "dbaix" and record["setup"] == golden["record"]["setup"]
    assert record["actions"] == golden["record"]["actions"]
    assert game.phase == "finished"
    stepped = Battle(golden["record"]["setup"])
    got: list[dict[str, Any]] = []
    for action in golden["record"]["actions"]:
        checked = stepped.check(action)
        applied = stepped.apply(action)
        assert checked == applied
        got.extend(applied)
    assert got == golden["events"]
    assert stepped == game


def test_dbaix_refusal_names_its_section_and_changes_nothing() -> None:
    game = Battle(dbcore.dbaix_demo_setup())
    assert game.active_side == "romans"
    before = game.state()
    # DBAIX.md §2: moving before the PIP die is rolled.
    with pytest.raises(dbcore.DbcoreError) as err:
        game.apply({"action": "move", "figures": [1], "bearing": 0.0, "distance": 1.0})
    assert err.value.rule == "DBAIX.md §2"
    assert game.state() == before
    game.apply({"action": "roll_pips", "die": 6})
    # DBAIX.md §3: a move is at most 4 in.
    with pytest.raises(dbcore.DbcoreError) as err:
        game.apply({"action": "move", "figures": [1], "bearing": 0.0, "distance": 5.0})
    assert err.value.rule == "DBAIX.md §3"
    assert "<svg" in game.svg() and "Obelix" in game.svg()


def test_dbaix_odds_count_to_36_and_the_driver_plays() -> None:
    # DBAIX.md §7: beaten by Obelix is always "half or less".
    o = dbcore.dbaix_odds("legionary", 0, "obelix", 0)
    assert sum(e["count"] for e in o["outcomes"]) == 36
    assert all(e["a"] in ("stays", "sent_to_camp") for e in o["outcomes"])
    played = dbcore.dbaix_play(seed=1)
    path = golden_files()[0]
    assert played["events"] == json.loads(path.read_text(encoding="utf-8"))["events"]


def test_dbaix_state_round_trips_and_pickles() -> None:
    import copy
    import pickle

    golden = json.loads(golden_files()[0].read_text(encoding="utf-8"))
    game, _ = Battle.replay(golden["record"])
    assert game.variant == "dbaix"
    assert Battle.from_json(game.to_json()) == game
    assert Battle.from_json(game.state()) == game
    assert pickle.loads(pickle.dumps(game)) == game
    assert copy.deepcopy(game) == game
    # A hand-edited position is refused, as for DBA.
    state = game.state()
    state["figures"][0]["pose"]["x"] += 1.0
    with pytest.raises(dbcore.ArgumentError):
        Battle.from_json(state)


def test_the_same_methods_answer_on_both_games() -> None:
    # DBAIX.md §2 and DBA3.md §6.2: either game starts with the first side awaiting its PIP die.
    dba = Battle(dbcore.demo_setup())
    dbaix = Battle(dbcore.dbaix_demo_setup())
    assert type(dba) is type(dbaix)
    assert (dba.variant, dbaix.variant) == ("standard", "dbaix")
    dice = dbcore.Dice(3)
    for b in (dba, dbaix):
        assert b.phase == "awaiting_pips"
        assert b.awaiting() is not None
        assert b.bound == 1 and b.active_army == 0
        events = b.roll_pips(dice)
        assert events and b.phase == "movement" and b.awaiting() is None
        assert b.record()["actions"][0]["action"] == "roll_pips"
        again, replayed = Battle.replay(b.record())
        assert again == b and replayed == events
        assert "<svg" in b.svg() and b._repr_svg_() == b.svg()
        assert b.elements() and b.narrate()
        assert "Battle" in repr(b)
    assert dbaix.active_side == "romans" and dba.active_side == dbcore.demo_setup()["armies"][0]["name"]
    assert dbaix.figures() == dbaix.elements()
    assert dba.legal()["moves"], "DBA3.md §7: after the PIP roll some element may move"
    # Questions only DBA answers are refused on a DBAix game, naming the question.
    for ask in (dbaix.legal, dbaix.table, lambda: dbaix.config, lambda: dbaix.element(1)):
        with pytest.raises(dbcore.ArgumentError, match="DBAix"):
            ask()
    # An action of the other game is refused as such, and changes nothing.
    before = dbaix.state()
    with pytest.raises(dbcore.DbcoreError):
        dbaix.apply({"action": "move_element", "id": 1, "distance": 1.0, "bearing": 0.0})
    assert dbaix.state() == before


def test_dbaix_golden_game_narrates() -> None:
    golden = json.loads(golden_files()[0].read_text(encoding="utf-8"))
    game, _ = Battle.replay(golden["record"])
    lines = game.narrate()
    assert lines == dbcore.narrate(golden["record"])
    assert len(lines) == len(golden["events"])
    assert any("Obelix" in line for line in lines)
    assert game.narrate(since=len(golden["record"]["actions"])) == []
