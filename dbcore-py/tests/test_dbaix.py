"""DBAix from Python (DBAIX.md §2): the three-sided golden trace replays to its events, action by
action too; refusals raise a DbcoreError naming their DBAix section and change nothing; odds are
counted out of 36."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import dbcore
from dbcore import DbaixBattle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden" / "dbaix"


def golden_files() -> list[pathlib.Path]:
    files = sorted(GOLDEN.glob("*.json"))
    assert files, f"expected the DBAix golden traces in {GOLDEN}"
    return files


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_dbaix_golden_trace_replays(path: pathlib.Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    game, events = DbaixBattle.replay(golden["record"])
    assert events == golden["events"]
    assert game.record() == golden["record"]
    assert game.phase == "finished"
    stepped = DbaixBattle(golden["record"]["setup"])
    got: list[dict[str, Any]] = []
    for action in golden["record"]["actions"]:
        checked = stepped.check(action)
        applied = stepped.apply(action)
        assert checked == applied
        got.extend(applied)
    assert got == golden["events"]
    assert stepped == game


def test_dbaix_refusal_names_its_section_and_changes_nothing() -> None:
    game = DbaixBattle(dbcore.dbaix_demo_setup())
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
