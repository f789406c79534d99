"""The one surface from Python: concrete legal actions, the notation, undo, the verdict, games
from two army lists (by name too), the game record every tool reads, and any method by name."""

from __future__ import annotations

import copy
import json
import pathlib
import pickle
import random
from typing import Any

import pytest

import dbcore
from dbcore import Battle

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden"


def test_a_whole_battle_is_played_from_the_legal_actions_with_no_refused_try() -> None:
    # DBA3.md §6-§13: each listed action is accepted as it stands; choosing among them alone
    # plays the battle on (dice from the battle's seeded tray).
    battle = Battle.demo("battle", seed=4)
    rng = random.Random(4)
    tries = 0
    while battle.stage != "finished" and battle.bound <= 30:
        actions = battle.legal_actions()
        assert actions, battle
        battle.apply(rng.choice(actions))  # never raises: no refused try
        tries += 1
    assert tries > 50
    assert battle.bound > 3


def test_the_pre_battle_from_two_lists_is_played_from_its_legal_actions() -> None:
    # DBA3.md §5: aggression, terrain, edges, camps and deployment, each step from the list.
    battle = Battle.from_lists("Early Imperial Roman", "II/53", seed=3)
    assert battle.stage == "prebattle" and battle.phase == "prebattle"
    assert battle.awaiting() == {"for": "aggression_dice", "armies": 2}
    steps = 0
    while battle.stage == "prebattle":
        actions = battle.legal_actions()
        assert actions, battle.awaiting()
        battle.apply(actions[-1])
        steps += 1
    assert steps > 20
    assert battle.stage == "battle" and battle.phase == "awaiting_pips"
    record = battle.record()
    assert record["format"] == "dbcore-game" and "prebattle" in record
    assert record["tags"]["red"].startswith("Early Imperial Roman")


def test_army_names_are_accepted_and_a_near_miss_gets_suggestions() -> None:
    # DBA3.md §16: a list by name as well as by id.
    with pytest.raises(dbcore.ArgumentError) as e:
        Battle.from_lists("Early Imperial Romen", "II/53")
    assert "did you mean II/56 Early Imperial Roman" in e.value.detail
    assert e.value.rule == "§16"
    found = dbcore.call("armies.lookup", text="ancient british")
    assert found == {"id": "II/53", "name": found["name"]}


def test_the_notation_reads_and_prints_every_action_exactly() -> None:
    battle = Battle.demo("battle")
    done = battle.play("pips 4")
    assert done["text"] == "pips 4" and battle.pips == 4
    # Blades 5 stand at (7.5, 4) facing north: a step straight ahead, printed exactly.
    action = battle.parse("5 move 1")
    assert battle.describe(action) == "5 to 7.5 5 @ 0"
    assert battle.parse(battle.describe(action)) == action
    assert battle.describe(action, decimals=2) == "5 to 7.5 5 @ 0"
    with pytest.raises(dbcore.ArgumentError):
        battle.play("5 sideways 3")
    with pytest.raises(dbcore.RuleError) as e:
        battle.play("5 move 9")
    assert e.value.rule is not None and e.value.rule.startswith("§")
    assert battle.revision == 1  # the refusals changed nothing


def test_pop_takes_back_the_last_action_dice_included() -> None:
    battle = Battle.demo("battle", seed=9)
    before = battle.to_json()
    first = battle.legal_actions()[0]
    battle.apply(first)
    assert battle.pop() == first
    assert battle.to_json() == before
    # The dice tray is back where it was: the same roll is offered again.
    assert battle.legal_actions()[0] == first
    with pytest.raises(dbcore.RuleError):
        battle.pop()


def test_the_verdict_is_a_property() -> None:
    golden = json.loads((GOLDEN / "whole_battle_seed_1.json").read_text(encoding="utf-8"))
    battle = Battle.load(golden["game"])
    assert battle.stage == "finished"
    assert battle.verdict == {"winners": golden["game"]["result"]["winners"]}
    assert battle.winner == golden["game"]["result"]["winners"][0]
    assert Battle.demo("battle").verdict is None


def test_the_game_record_round_trips_through_every_reader() -> None:
    # What `dbcore play --json` writes (a whole game) is read by narrate, load and replay_game.
    game = dbcore.play_lists("II/56", "II/53", seed=2, max_bounds=6)
    record = game["record"]
    assert record["format"] == "dbcore-game"
    lines = dbcore.narrate(record)
    assert any("Aggression" in line for line in lines)
    loaded = Battle.load(record)
    assert loaded.record()["actions"] == record["actions"]
    assert dbcore.replay_game(json.dumps(record))["events"] == game["events"]
    # Pickles and copies of a game in its pre-battle go through its record.
    pre = Battle.from_lists("II/56", "II/53")
    pre.apply(pre.legal_actions()[0])
    again = pickle.loads(pickle.dumps(pre))
    assert again == pre and copy.deepcopy(pre) == pre


def test_any_method_by_name_and_the_list_of_methods() -> None:
    methods: dict[str, Any] = dbcore.call("methods")
    names = {m["name"] for m in methods["session"]}
    assert {"legal_actions", "play", "undo", "record", "reach"} <= names
    battle = Battle.demo("battle")
    battle.play("pips 3")
    steps = battle.call("reach", element=5, bearings=8)["steps"]
    assert len(steps) == 8 and steps[0]["distance"] == pytest.approx(2.0)
    with pytest.raises(dbcore.ArgumentError) as e:
        battle.call("no_such_method")
    assert "legal_actions" in e.value.detail
    with pytest.raises(dbcore.ArgumentError):
        battle.call("reach", element=5, sideways=True)


def test_a_dbaix_game_lists_its_legal_actions_too() -> None:
    game = Battle.demo("dbaix", seed=2)
    rng = random.Random(2)
    for _ in range(60):
        if game.stage == "finished":
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.revision > 10
