"""Hostile input from Python (issue #9): every fault raises a `dbcore.DbcoreError` subclass, as
the same fault does elsewhere, and nothing hangs.

Section numbers in comments refer to the rules digest, shared/rules/DBA3.md.
"""

import copy
import json
import math
import pickle
import time
from typing import Any, Callable, cast

import pytest

import dbcore


def _board(width: float) -> str:
    return json.dumps(
        {
            "battlefield": {"board": {"width": width, "depth": 15}, "features": []},
            "elements": [],
        }
    )


def test_s2_1_a_non_ascii_element_code_is_an_element_code_error() -> None:
    # DBA3.md §2.1: only the listed codes are element codes; this once raised PanicException.
    for code in ["Mtd\u00e94Bw", "Mt\u00e9-4Bw", "\U0001f600\U0001f600"]:
        with pytest.raises(dbcore.ElementCodeError) as e:
            dbcore.ElementKind(code)
        assert e.value.code == 110
    setup: dict[str, Any] = dbcore.demo_setup()
    setup["armies"][0]["elements"][0]["kind"] = "Mtd\u00e94Bw"
    with pytest.raises(dbcore.ArgumentError):
        dbcore.Battle(setup)


def test_a_huge_board_is_refused_before_any_drawing() -> None:
    # A board 1e16 BW wide once made drawing it loop for ever.
    with pytest.raises(dbcore.ArgumentError) as e:
        dbcore.Table.from_json(_board(1e16))
    assert e.value.code == 103
    assert "board.width" in e.value.detail
    setup: dict[str, Any] = dbcore.demo_setup()
    setup["battlefield"]["board"]["width"] = 1e9
    setup["sandbox"] = True
    with pytest.raises(dbcore.SetupError):
        dbcore.Battle(setup)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 1e6])
def test_non_finite_and_far_coordinates_are_refused(bad: float) -> None:
    with pytest.raises(dbcore.ArgumentError) as e:
        dbcore.PlacedElement(1, 0, "4Bd", bad, 5.0, 0.0)
    assert e.value.code == 103
    with pytest.raises(dbcore.ArgumentError):
        dbcore.PlacedElement(1, 0, "4Bd", 5.0, 5.0, bad)
    with pytest.raises(dbcore.ArgumentError):
        dbcore.Table([{"id": 1, "side": 0, "kind": "4Bd", "x": 5.0, "y": bad, "facing": 0.0}])


def test_a_facing_of_1e307_in_a_setup_is_refused() -> None:
    setup: dict[str, Any] = dbcore.demo_setup()
    setup["armies"][0]["elements"][0]["pose"]["facing"] = 1e307
    with pytest.raises(dbcore.SetupError):
        dbcore.Battle(setup)


def test_setup_problems_are_capped() -> None:
    # 2,000 elements at one spot once gave a 172 MiB message.
    setup: dict[str, Any] = dbcore.demo_setup()
    pile = [
        {"id": i, "kind": "4Bd", "pose": {"x": 7.5, "y": 7.5, "facing": 0}}
        for i in range(1000, 2900)
    ]
    setup["armies"][0]["elements"].extend(pile)
    setup["sandbox"] = True
    start = time.monotonic()
    with pytest.raises(dbcore.SetupError) as e:
        dbcore.Battle(setup)
    assert time.monotonic() - start < 20
    problems: list[dict[str, Any]] = e.value.problems
    assert len(problems) == 51
    assert problems[-1]["problem"] == "more"
    assert len(e.value.detail) < 16 * 1024


def test_a_huge_configuration_factor_is_refused() -> None:
    # A factor of 2**30 once overflowed the combat totals.
    cfg: dict[str, Any] = json.loads(dbcore.RulesConfig().to_json())
    cfg["kinds"]["4Bd"]["factor_vs_foot"] = 2**30
    with pytest.raises(dbcore.ArgumentError):
        dbcore.RulesConfig.from_json(json.dumps(cfg))


class _ForgedDice:
    """Pickles as dice that have taken `draws` draws."""

    def __init__(self, draws: int) -> None:
        self.draws = draws

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (getattr(dbcore.Dice, "_restore"), (7, self.draws))


def test_a_forged_dice_pickle_restores_at_once() -> None:
    # Restoring once replayed every draw: 2**64 - 1 draws held the interpreter for ever.
    start = time.monotonic()
    far = pickle.loads(pickle.dumps(_ForgedDice(2**64 - 1)))
    assert time.monotonic() - start < 1
    assert isinstance(far, dbcore.Dice)
    # The count cannot pass 2**64 - 1 (it overflowed in a debug build): a further draw is
    # refused, and neither the dice nor a battle rolling with them change.
    with pytest.raises(dbcore.ArgumentError, match="too many"):
        far.roll()
    with pytest.raises(dbcore.ArgumentError):
        far.roll_pair()
    assert repr(far) == f"<Dice seed=7 draws={2**64 - 1}>"
    battle = dbcore.Battle(dbcore.demo_setup())
    with pytest.raises(dbcore.ArgumentError):
        battle.roll_pips(far)
    assert battle.phase == "awaiting_pips" and battle.record()["actions"] == []
    near = pickle.loads(pickle.dumps(_ForgedDice(2**64 - 3)))
    assert 1 <= near.roll() <= 6
    with pytest.raises(dbcore.ArgumentError):
        pickle.loads(pickle.dumps(_ForgedDice(2**64)))
    # A restored pickle goes on with the same scores as the original.
    d = dbcore.Dice(7)
    d.roll()
    d.roll_pair()
    again = pickle.loads(pickle.dumps(d))
    twin = copy.deepcopy(d)
    want = [d.roll() for _ in range(10)]
    assert [again.roll() for _ in range(10)] == want
    assert [twin.roll() for _ in range(10)] == want


@pytest.mark.parametrize(
    "call",
    [
        lambda: dbcore.Dice(-1),
        lambda: dbcore.Dice(2**64),
        lambda: dbcore.play(seed=2**64),
        lambda: dbcore.play(seed=-1),
        lambda: dbcore.play(max_bounds=2**40),
        lambda: dbcore.Combatant("4Bd", flank_rear_contacts=2**70),
        lambda: dbcore.PlacedElement(2**63, 0, "4Bd", 5.0, 5.0, 0.0),
        lambda: dbcore.PlacedElement(1, -(2**80), "4Bd", 5.0, 5.0, 0.0),
    ],
)
def test_out_of_range_integers_raise_argument_error(call: Callable[[], object]) -> None:
    with pytest.raises(dbcore.ArgumentError) as e:
        call()
    assert e.value.code == 103


def test_out_of_range_element_ids_are_as_unknown_as_any_other() -> None:
    t = dbcore.Table([dbcore.PlacedElement(1, 0, "4Bd", 5.0, 5.0, 0.0)])
    for bad in [2**63, -(2**63) - 1, 2**200]:
        with pytest.raises(dbcore.ArgumentError) as e:
            t.element(bad)
        assert e.value.code == 103
        with pytest.raises(dbcore.ArgumentError):
            t.distance(1, bad)
    b = dbcore.Battle(dbcore.demo_setup())
    with pytest.raises(dbcore.ArgumentError) as e:
        b.element(2**64)
    assert e.value.code == 104


@pytest.mark.parametrize(
    "call",
    [
        lambda: dbcore.Battle("\ud800"),
        lambda: dbcore.ElementKind("4B\ud800"),
        lambda: dbcore.Table.from_json("\udfff"),
        lambda: dbcore.RulesConfig.from_json("\ud800"),
        lambda: dbcore.Combatant("4Bd", going=cast(Any, "\ud800")),
        lambda: dbcore.Combatant("\ud800"),
    ],
)
def test_lone_surrogates_raise_the_invalid_utf8_error(call: Callable[[], object]) -> None:
    with pytest.raises(dbcore.ArgumentError) as e:
        call()
    assert e.value.code == 101


def test_a_lone_surrogate_inside_plain_data_is_bad_json() -> None:
    setup: dict[str, Any] = dbcore.demo_setup()
    setup["armies"][0]["name"] = "\ud800"
    with pytest.raises(dbcore.ArgumentError) as e:
        dbcore.Battle(setup)
    assert e.value.code == 102
