"""The pre-battle and whole games through Python (DBA3.md §3.7, §3.8, §4.6, §5)."""

import json
import pathlib

import pytest

import dbcore

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "golden"


def whole_games() -> list[pathlib.Path]:
    files = sorted(GOLDEN.glob("*game_*.json"))
    assert len(files) >= 2, f"expected two golden whole games in {GOLDEN}"
    return files


@pytest.mark.parametrize("path", whole_games(), ids=lambda p: p.stem)
def test_golden_whole_games_replay_from_their_armies(path: pathlib.Path) -> None:
    # DBA3.md §5: the two armies and the dice replay the pre-battle and the battle.
    golden = json.loads(path.read_text(encoding="utf-8"))
    r = dbcore.replay_game(golden["game"])
    assert r["prebattle_events"] == golden["prebattle_events"]
    assert r["events"] == golden["events"]
    assert r["setup"] == golden["record"]["setup"]


def test_a_whole_game_from_two_list_ids_is_the_golden_one() -> None:
    golden = json.loads((GOLDEN / "whole_game_II_56_v_II_53.json").read_text(encoding="utf-8"))
    g = dbcore.play_lists("II/56", "II/53", seed=1, max_bounds=40)
    # The golden's game record also carries how the game ended.
    assert g["record"] == {k: v for k, v in golden["game"].items() if k != "result"}
    assert g["events"] == golden["events"]


def test_unknown_lists_are_argument_errors() -> None:
    with pytest.raises(dbcore.ArgumentError):
        dbcore.play_lists("II/999", "II/53")


def test_prebattle_one_step_at_a_time() -> None:
    # DBA3.md §5.1: the lower total defends; a refusal names its rule and changes nothing.
    record = {"setup": dbcore.demo_armies(), "actions": []}
    start = dbcore.prebattle_step(record)
    assert start["awaiting"] == {"for": "aggression_dice", "armies": 2}
    with pytest.raises(dbcore.RuleError) as e:
        dbcore.prebattle_step(record, {"action": "no_camp"})
    assert e.value.rule == "§5.3"
    checked = dbcore.prebattle_step(record, {"action": "roll_aggression", "dice": [1, 6]}, False)
    assert checked["record"]["actions"] == []
    step = dbcore.prebattle_step(record, {"action": "roll_aggression", "dice": [1, 6]})
    # Romans 1 + 3 = 4, Britons 6 + 1 = 7.
    assert step["events"][-1] == {"event": "roles_decided", "defender": 0, "invader": 1}
    assert step["awaiting"]["for"] == "features"
    assert step["setup"] is None


def test_play_game_yields_a_battle_that_starts_with_the_defender() -> None:
    g = dbcore.play_game(seed=3, max_bounds=2)
    ready = [e for e in g["prebattle_events"] if e["event"] == "battle_ready"]
    assert ready and g["setup"]["first"] == ready[0]["first"]
    dbcore.Battle(g["setup"])


def test_a_big_battle_pre_battle_goes_through_the_same_entry_points() -> None:
    # DBA3.md §14.3, §14.4: Big Battle armies in commands enter the pre-battle through the same
    # JSON; the PIP ranking is declared after the base edges and must name every non-allied
    # command once.
    golden = json.loads(
        (GOLDEN / "big_battle_game_II_56_v_II_53.json").read_text(encoding="utf-8")
    )
    armies = golden["game"]["prebattle"]["setup"]
    assert armies["variant"] == "big_battle"
    assert [len(a["commands"]) for a in armies["armies"]] == [3, 3]
    g = dbcore.play_game(armies, seed=1, max_bounds=40)
    assert g["record"] == {k: v for k, v in golden["game"].items() if k != "result"}
    actions = golden["game"]["prebattle"]["actions"]
    k = next(i for i, a in enumerate(actions) if a["action"] == "declare_pip_allocation")
    record = {"setup": armies, "actions": actions[:k]}
    here = dbcore.prebattle_step(record)
    assert here["awaiting"]["for"] == "pip_allocation"
    assert here["awaiting"]["ranked"] == [0, 1, 2]
    with pytest.raises(dbcore.RuleError) as e:
        dbcore.prebattle_step(
            record,
            {"action": "declare_pip_allocation", "allocation": {"allocation": "ranked", "order": [0, 1]}},
        )
    assert e.value.rule == "§14.4"
    step = dbcore.prebattle_step(record, actions[k])
    assert step["events"][0]["event"] == "pip_allocation_declared"
