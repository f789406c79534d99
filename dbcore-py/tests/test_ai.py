"""dbcore.ai: the opponent from Python (issue #16)."""

import pytest

import dbcore
from dbcore import ai


def test_the_opponent_plays_a_whole_battle_without_a_refusal() -> None:
    # DBA3.md §6.1-§13.2: every action it gives is accepted, to the end of the battle.
    b = dbcore.Battle(dbcore.demo_setup())
    steps = 0
    while b.phase != "finished" and steps < 400:
        action = ai.choose(b, nodes=40, seed=3)
        b.check(action)
        b.apply(action)
        steps += 1
    assert steps > 10


def test_the_same_battle_budget_and_seed_give_the_same_choice() -> None:
    b = dbcore.Battle(dbcore.demo_setup())
    b.apply(ai.choose(b, nodes=40, seed=1))
    assert ai.choose(b, nodes=40, seed=9) == ai.choose(b, nodes=40, seed=9)


def test_a_planned_bound_ends_the_movement() -> None:
    # DBA3.md §6.2: the plan opens with the PIP roll and every action applies in turn.
    b = dbcore.Battle(dbcore.demo_setup())
    plan = ai.plan_bound(b, nodes=40, seed=2)
    assert plan[0]["action"] == "roll_pips"
    assert any(a["action"] == "end_movement" for a in plan)
    for a in plan:
        b.apply(a)
    assert b.active_army == 1


def test_bad_arguments_raise_dbcore_errors() -> None:
    b = dbcore.Battle(dbcore.demo_setup())
    with pytest.raises(dbcore.DbcoreError):
        ai.choose(b, nodes=-1)
    with pytest.raises(dbcore.DiceError):
        ai.choose(b, nodes=10, dice=(7, 1))
