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
