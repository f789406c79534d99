"""Errors: one root, one subclass per family, each with code, rule and detail."""

import json
import pickle
from collections.abc import Callable

import pytest

import dbcore
from dbcore import Combatant, Situation, resolve


def test_the_hierarchy() -> None:
    assert issubclass(dbcore.DbcoreError, Exception)
    for family in [
        dbcore.ArgumentError,
        dbcore.RuleError,
        dbcore.DiceError,
        dbcore.SetupError,
        dbcore.InternalError,
    ]:
        assert issubclass(family, dbcore.DbcoreError)
        assert family.__module__ == "dbcore"
    assert issubclass(dbcore.ElementCodeError, dbcore.ArgumentError)


def test_argument_errors() -> None:
    # Unreadable JSON: code 102, no rule.
    with pytest.raises(dbcore.ArgumentError) as info:
        Situation.from_json("{not json")
    assert (info.value.code, info.value.rule) == (102, None)
    assert "Situation" in info.value.detail
    # An unknown going: code 103, naming the accepted values.
    with pytest.raises(dbcore.ArgumentError) as info:
        Combatant("4Bd", going="muddy")  # type: ignore[arg-type]
    assert info.value.code == 103 and "muddy" in info.value.detail and "rough" in info.value.detail
    with pytest.raises(dbcore.ArgumentError) as info:
        Combatant("4Bd", holding=("besieging", "city"))  # type: ignore[arg-type]
    assert info.value.code == 103
    with pytest.raises(dbcore.ArgumentError):
        Combatant("4Bd", holding=("assaulting", "city", 1))  # type: ignore[arg-type]
    with pytest.raises(dbcore.ArgumentError):
        Combatant("4Bd", flank_rear_contacts=-1)
    with pytest.raises(dbcore.ArgumentError):
        resolve(Situation.close_combat("4Bd", "4Bd"), dice=(1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(dbcore.ArgumentError):
        dbcore.odds(Situation.close_combat("4Bd", "4Bd")).count(a="routed")  # type: ignore[arg-type]
    # A house rule that cannot be used: code 103.
    data = json.loads(dbcore.RulesConfig().to_json())
    data["kinds"]["4Bd"]["depth"] = 0
    with pytest.raises(dbcore.ArgumentError) as info:
        dbcore.RulesConfig.from_json(json.dumps(data))
    assert info.value.code == 103 and "depth" in info.value.detail


def test_rule_errors_name_the_section() -> None:
    # DBA3.md §9.1: Spears do not shoot.
    with pytest.raises(dbcore.RuleError) as info:
        resolve(Situation.shooting("Sp", "4Bd"), dice=(3, 3))
    e = info.value
    assert (e.code, e.rule) == (200, "§9.1")
    assert "Sp" in e.detail and str(e) == e.detail
    # DBA3.md §10.3: an element has at most three edges to be overlapped or contacted.
    with pytest.raises(dbcore.RuleError) as info:
        dbcore.odds(Situation.close_combat(Combatant("4Bd", flank_rear_contacts=4), "3Kn"))
    assert info.value.rule == "§10.3"
    # DBA3.md §9.4: at most two support shooters.
    with pytest.raises(dbcore.RuleError) as info:
        resolve(Situation.shooting("4Bw", "4Bd", support_shooters=3), dice=(3, 3))
    assert info.value.rule == "§9.4"
    # DBA3.md §14.4: the C-in-C's bonus is for a general's element.
    with pytest.raises(dbcore.RuleError) as info:
        resolve(Situation.close_combat(Combatant("4Bd", cinc_bonus=True), "3Kn"), dice=(3, 3))
    assert info.value.rule == "§14.4"
    # DBA3.md §4.7: a defender fights an element assaulting its own place.
    with pytest.raises(dbcore.RuleError) as info:
        resolve(
            Situation.close_combat(Combatant("4Bd", holding=("defending", "city")), "3Kn"),
            dice=(3, 3),
        )
    assert info.value.rule == "§4.7"


@pytest.mark.parametrize("score", [0, 7, -1, 100])
def test_die_scores_outside_one_to_six_raise(score: int) -> None:
    # DBA3.md §0.3: every random event is one d6.
    with pytest.raises(dbcore.DiceError) as info:
        resolve(Situation.close_combat("4Bd", "3Kn"), dice=(3, score))
    e = info.value
    assert (e.code, e.rule) == (300, "§0.3")
    assert str(score) in e.detail


def test_every_error_is_a_dbcore_error() -> None:
    bads: list[Callable[[], object]] = [
        lambda: dbcore.ElementKind("x"),
        lambda: resolve(Situation.close_combat("4Bd", "3Kn"), dice=(0, 1)),
        lambda: resolve(Situation.shooting("Ps", "3Kn"), dice=(1, 1)),
        lambda: dbcore.RulesConfig.from_json("[]"),
    ]
    for bad in bads:
        with pytest.raises(dbcore.DbcoreError) as info:
            bad()
        assert isinstance(info.value.code, int) and info.value.detail


def test_errors_pickle_with_their_attributes() -> None:
    with pytest.raises(dbcore.RuleError) as info:
        resolve(Situation.shooting("Sp", "4Bd"), dice=(3, 3))
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is dbcore.RuleError
    assert (again.code, again.rule, again.detail) == (200, "§9.1", info.value.detail)
