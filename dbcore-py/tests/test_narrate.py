"""Narration from Python (#11): ``Battle.narrate`` and ``dbcore.narrate`` tell a battle as
``dbcore::battle::narrate`` does, one line an event, in a player's words."""

from __future__ import annotations

import json
import pathlib
import re

import dbcore
from dbcore import Battle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden"


def test_a_golden_battle_is_told_event_by_event() -> None:
    golden = json.loads((GOLDEN / "whole_battle_seed_1.json").read_text(encoding="utf-8"))
    battle, events = Battle.replay(golden["record"])
    lines = battle.narrate()
    assert len(lines) == len(events) == len(golden["events"])
    assert lines == dbcore.narrate(golden["record"])
    assert dbcore.narrate(json.dumps(golden["record"])) == lines
    # DBA3.md §6.2: the PIP die is told in correct English ("1 PIP", "3 PIPs").
    rolls = [line for line in lines if " roll" in line and "PIP" in line]
    assert rolls
    assert not any(re.search(r"\b1 PIPs\b", line) for line in lines)
    # DBA3.md §12: outcome moves after a combat are told as what they are.
    assert any("recoils" in line or "flees" in line or "destroyed" in line for line in lines)


def test_narrate_since_tells_only_the_later_actions() -> None:
    golden = json.loads((GOLDEN / "whole_battle_seed_1.json").read_text(encoding="utf-8"))
    record = golden["record"]
    battle, _ = Battle.replay(record)
    whole = battle.narrate()
    k = len(record["actions"]) // 2
    first, _ = Battle.replay({"setup": record["setup"], "actions": record["actions"][:k]})
    head = len(first.narrate())
    assert battle.narrate(since=k) == whole[head:]
    assert battle.narrate(since=len(record["actions"])) == []
    assert battle.narrate(since=10**6) == []
    assert Battle(dbcore.demo_setup()).narrate() == []


def test_narration_follows_a_battle_as_it_is_played() -> None:
    # DBA3.md §6.2: the first thing told is the first army's PIP roll.
    battle = Battle(dbcore.demo_setup())
    events = battle.roll_pips(dbcore.Dice(1))
    lines = battle.narrate()
    assert len(lines) == len(events)
    assert any("PIP" in line for line in lines)
    battle.apply({"action": "end_movement"})
    assert battle.narrate(since=1) == battle.narrate()[len(lines):]
