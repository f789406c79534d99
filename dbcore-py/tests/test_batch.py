"""The batch entry points (#15): ``resolve_many`` and ``odds_many`` give what one call each gives,
in order, and refuse what a single call refuses, naming the item. Their speed is measured by
bench/bench_batch.py, not here."""

from __future__ import annotations

import itertools

import pytest

import dbcore
from dbcore import Combatant, Situation


def some_situations() -> list[Situation]:
    kinds = ["3Kn", "4Bd", "4Wb", "Ps", "4Bw", "Cv", "Sp", "El"]
    out = [Situation.close_combat(a, b) for a, b in itertools.product(kinds, kinds)]
    out.append(Situation.shooting("4Bw", "4Bd"))
    out.append(Situation.close_combat(Combatant("4Bd", going="rough"), "3Kn"))
    return out


ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_resolve_many_is_resolve_in_order() -> None:
    # DBA3.md §10, §11: the same combats give the same totals and outcomes however called.
    sits = some_situations()
    dice = [ALL_DICE[i % 36] for i in range(len(sits))]
    many = dbcore.resolve_many(sits, dice)
    assert many == [dbcore.resolve(s, d) for s, d in zip(sits, dice)]
    cfg = dbcore.RulesConfig()
    assert dbcore.resolve_many(sits, dice, cfg) == many
    # One situation for every pair of dice.
    one = Situation.close_combat("3Kn", "4Bd")
    assert dbcore.resolve_many(one, ALL_DICE) == [dbcore.resolve(one, d) for d in ALL_DICE]
    assert dbcore.resolve_many(one, []) == [] and dbcore.resolve_many([], []) == []
    # Dice as bytes, two scores a pair; a repeated situation object and pair share one result.
    packed = bytes(x for pair in ALL_DICE * 2 for x in pair)
    twice = dbcore.resolve_many(one, packed)
    assert twice == [dbcore.resolve(one, d) for d in ALL_DICE * 2]
    assert twice[0] is twice[36]
    mixed = dbcore.resolve_many([one, sits[1], one], [(3, 4), (3, 4), (3, 4)])
    assert mixed == [dbcore.resolve(s, (3, 4)) for s in (one, sits[1], one)]


def test_odds_many_is_odds_in_order() -> None:
    # DBA3.md §11: each combat's 36 pairs of dice counted exactly, as odds() counts them; enough
    # situations that the batch is shared among threads.
    sits = some_situations() * 10
    assert len(sits) >= 512
    many = dbcore.odds_many(sits)
    assert many == [dbcore.odds(s) for s in sits]
    assert all(sum(o.count(a=x) for x in dbcore.OUTCOMES) == 36 for o in many[:5])
    assert dbcore.odds_many([]) == []


def test_a_bad_item_is_refused_by_its_number() -> None:
    good = Situation.close_combat("3Kn", "4Bd")
    # DBA3.md §9.1: Spears do not shoot.
    bad = Situation.shooting("Sp", "4Bd")
    with pytest.raises(dbcore.RuleError, match="item 2") as err:
        dbcore.resolve_many([good, good, bad], [(1, 1)] * 3)
    assert err.value.rule is not None
    with pytest.raises(dbcore.RuleError, match="item 1"):
        dbcore.odds_many([good, bad])
    # DBA3.md §0.3: a die is 1 to 6, as in a single call (DiceError).
    with pytest.raises(dbcore.DiceError, match="item 1"):
        dbcore.resolve_many(good, [(1, 1), (7, 1)])
    with pytest.raises(dbcore.DiceError, match="item 2"):
        dbcore.resolve_many(good, bytes([1, 1, 6, 6, 0, 1]))
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_many(good, bytes([1, 1, 6]))
    with pytest.raises(dbcore.RuleError, match="item 0"):
        dbcore.resolve_many(bad, [(1, 1), (2, 2)])
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_many([good, good], [(1, 1)])
    with pytest.raises(dbcore.ArgumentError):
        dbcore.resolve_many(good, [(1, 2, 3)])  # type: ignore[list-item]
    with pytest.raises(dbcore.ArgumentError):
        dbcore.odds_many([good, "3Kn"])  # type: ignore[list-item]
