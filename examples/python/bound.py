"""Set up a small battle, roll each army's PIPs from seeded dice, move, and print the events.

    python examples/python/bound.py [SEED]

Every rule is dbcore's: the program only says what it wants to do (actions as dicts, built by
``dbcore.actions``) and prints what the referee answers (events as dicts). A move the rules
forbid is refused with the section that forbids it, and changes nothing. Needs the dbcore Python
module (``bash dbcore-py/run_tests.sh VENV`` builds it into VENV).
"""

import json
import sys
from typing import Any

import dbcore
from dbcore import actions


def element(i: int, kind: str, x: float, y: float, facing: float) -> dict[str, Any]:
    """An element as deployed: a pose is the midpoint of its front edge, BW from the south-west
    corner, and the compass bearing it faces (0 up the table)."""
    return {"id": i, "kind": kind, "pose": {"x": x, "y": y, "facing": facing}}


SETUP: dict[str, Any] = {
    "format": "dbcore-battle",
    "version": 1,
    "variant": "standard",
    "battlefield": {"board": {"width": 15, "depth": 15}, "features": []},
    "sandbox": True,
    "free_army_size": True,
    "first": 0,
    "armies": [
        {
            "name": "Romans",
            "base_edge": "south",
            "elements": [
                {**element(1, "Cv", 7.5, 3, 0), "general": True},
                element(2, "4Bd", 6.5, 3, 0),
                element(3, "4Bd", 8.5, 3, 0),
                element(4, "LH", 3.0, 3, 0),
            ],
        },
        {
            "name": "Gauls",
            "base_edge": "north",
            "elements": [
                {**element(101, "3Kn", 7.5, 12, 180), "general": True},
                element(102, "4Wb", 6.5, 12, 180),
                element(103, "4Wb", 8.5, 12, 180),
            ],
        },
    ],
}


def show(what: str, events: list[dbcore.Event]) -> None:
    print(what)
    for e in events:
        print("   ", json.dumps(e))


def attempt(battle: dbcore.Battle, what: str, action: dbcore.Action) -> None:
    """Apply `action`, or print why the rules refuse it (the battle is then unchanged)."""
    try:
        show(f"{what}:", battle.apply(action))
    except dbcore.DbcoreError as e:
        print(f"{what}: refused ({e.code}, {e.rule}): {e.detail}")


def main(argv: list[str]) -> int:
    dice = dbcore.Dice(int(argv[1]) if len(argv) > 1 else 7)
    battle = dbcore.Battle(SETUP)
    print(repr(battle))

    # The Romans' bound: PIPs, then the line advances as a group and the Light Horse ride on.
    show("Romans roll their PIP die:", battle.roll_pips(dice))
    attempt(battle, "Romans: the battle line advances 2 BW", actions.advance_group([2, 1, 3], 2))
    attempt(battle, "Romans: the Light Horse ride 4 BW", actions.move_element(4, 3, 7, 0))
    attempt(battle, "Romans: the Light Horse ride on", actions.move_element(4, 3, 9, 0))
    show("Romans end their moves:", battle.apply(actions.end_movement()))

    # The Gauls' bound: a warband surges 2 BW; their Knights try for 6 BW, which is too far.
    show("Gauls roll their PIP die:", battle.roll_pips(dice))
    attempt(battle, "Gauls: the warband surges", actions.move_element(102, 6.5, 10, 180))
    attempt(battle, "Gauls: the Knights charge 6 BW", actions.move_element(101, 7.5, 6, 180))
    show("Gauls end their moves:", battle.apply(actions.end_movement()))

    print(repr(battle))
    # The record replays to the same battle: the dice are in it.
    again, events = dbcore.Battle.replay(battle.record())
    assert again == battle
    print(f"replayed {len(battle.record()['actions'])} actions: {len(events)} events, same battle")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
