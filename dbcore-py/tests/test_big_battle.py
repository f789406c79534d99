"""Big Battle and Giant DBA from Python (DBA3.md §14): commands and their state travel in the
same state JSON as everything else, and the battle asks for one PIP die per command."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

import dbcore
from dbcore import Battle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden"


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", ["big_battle_seed_1", "giant_seed_1"])
def test_s14_commands_and_their_state_are_in_the_state(name: str) -> None:
    # DBA3.md §14.1, §14.5: six commands, two C-in-Cs; the trace's verdict came from commands
    # demoralised or removed, which the state shows.
    g = golden(name)
    battle, events = Battle.replay(g["record"])
    assert events == g["events"]
    commands = battle.state()["commands"]
    assert len(commands) == 6
    assert sum(1 for c in commands if c.get("c_in_c")) == 2
    assert any(c.get("demoralised") or c.get("removed") for c in commands)
    assert all(c["original"] == 12 for c in commands)


def test_s14_4_the_battle_asks_for_one_die_per_command() -> None:
    # DBA3.md §14.4: roll_pips draws as many dice as the battle asks for.
    battle = Battle(golden("big_battle_seed_1")["record"]["setup"])
    wanted = battle.awaiting()
    assert wanted is not None and len(wanted["commands"]) == 3
    dice = dbcore.Dice(7)
    events = battle.roll_pips(dice)
    assert len(events[0]["rolls"]) == 3
    assert battle.pips == sum(r["pips"] for r in events[0]["rolls"])


def rect(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
    return {"points": [{"x": x0, "y": y0}, {"x": x1, "y": y0}, {"x": x1, "y": y1}, {"x": x0, "y": y1}]}


def allied_camp_setup() -> dict[str, Any]:
    """The golden Big Battle's table with the Romans' command 0 allied, its own camp and the
    army's camp in mid-table, the Britons' camp behind their line, and British Psiloi 1009 brought
    2.3 BW from the allied camp."""
    setup: dict[str, Any] = golden("big_battle_seed_1")["record"]["setup"]
    romans, britons = setup["armies"]
    romans["commands"][0]["allied"] = True
    romans["commands"][0]["camp"] = rect(9.0, 8.0, 11.0, 9.0)
    romans["pip_allocation"] = {"allocation": "ranked", "order": [1, 2]}
    romans["camp"] = rect(19.0, 8.0, 21.0, 9.0)
    britons["camp"] = rect(14.0, 13.6, 16.0, 14.6)
    for e in britons["elements"]:
        if e["id"] == 1009:
            e["pose"] = {"x": 9.8, "y": 10.5, "facing": 180.0}
    return setup


def test_s14_5_an_allied_camp_sacked_counts_for_its_command_through_the_state_json() -> None:
    # DBA3.md §14.3, §14.5: the Psiloi enter the undefended allied camp and sack it; the state
    # says so for that command alone, and a battle read back from its state JSON agrees.
    battle = Battle(allied_camp_setup())
    battle.apply({"action": "roll_command_pips", "dice": [1, 1, 1]})
    battle.apply({"action": "end_movement"})
    battle.apply({"action": "roll_command_pips", "dice": [6, 6, 6]})
    events = battle.apply(
        {"action": "move", "order": {"type": "element", "id": 1009,
                                     "path": [{"x": 10.0, "y": 8.2, "facing": 180.0}]}}
    )
    assert {"event": "camp_sacked", "army": 0, "command": 0} in events
    assert any("allied command 0's own camp is sacked" in line for line in battle.narrate())
    state = battle.state()
    assert [c.get("camp_sacked", False) for c in state["commands"]] == [True] + [False] * 5
    back = Battle.from_json(json.dumps(state))
    assert back == battle
    assert back.state()["commands"][0]["camp_sacked"] is True
    assert "camp of command 0 (sacked)" in back.svg()
