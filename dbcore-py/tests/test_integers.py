"""Every integer argument of every entry point, out of range (issue #44): -1, 2**63 and 2**64
raise a `dbcore` error or are accepted, never `OverflowError` or another foreign exception;
2**64, which fits no argument, is always refused with a `dbcore` error."""

from typing import Any, Callable

import pytest

import dbcore
import dbcore.ai


def _battle() -> dbcore.Battle:
    return dbcore.Battle(dbcore.demo_setup())


def _table() -> dbcore.Table:
    return dbcore.Table([dbcore.PlacedElement(1, 0, "4Bd", 5.0, 5.0, 0.0)])


def _situation() -> dbcore.Situation:
    return dbcore.Situation.close_combat("4Bd", "3Wb")


ENTRY_POINTS: dict[str, Callable[[int], Any]] = {
    "Dice(seed)": lambda n: dbcore.Dice(n),
    "resolve(dice a)": lambda n: dbcore.resolve(_situation(), (n, 1)),
    "resolve(dice b)": lambda n: dbcore.resolve(_situation(), (1, n)),
    "play(seed)": lambda n: dbcore.play(seed=n, max_bounds=1),
    "play(max_bounds)": lambda n: dbcore.play(max_bounds=n),
    "play_game(seed)": lambda n: dbcore.play_game(seed=n, max_bounds=1),
    "play_game(max_bounds)": lambda n: dbcore.play_game(max_bounds=n),
    "play_lists(seed)": lambda n: dbcore.play_lists("II/56", "II/53", seed=n, max_bounds=1),
    "play_lists(max_bounds)": lambda n: dbcore.play_lists("II/56", "II/53", max_bounds=n),
    "battle_seed(seed)": lambda n: dbcore.battle_seed(n, 0),
    "battle_seed(index)": lambda n: dbcore.battle_seed(0, n),
    "dbaix_play(seed)": lambda n: dbcore.dbaix_play(seed=n, max_actions=1),
    "dbaix_play(max_actions)": lambda n: dbcore.dbaix_play(max_actions=n),
    "dbaix_odds(a_mod)": lambda n: dbcore.dbaix_odds("legionary", n, "legionary", 0),
    "dbaix_odds(b_mod)": lambda n: dbcore.dbaix_odds("legionary", 0, "legionary", n),
    "Combatant(flank_rear_contacts)": lambda n: dbcore.Combatant("4Bd", flank_rear_contacts=n),
    "PlacedElement(id)": lambda n: dbcore.PlacedElement(n, 0, "4Bd", 5.0, 5.0, 0.0),
    "PlacedElement(side)": lambda n: dbcore.PlacedElement(1, n, "4Bd", 5.0, 5.0, 0.0),
    "Table.element": lambda n: _table().element(n),
    "Table.contacts": lambda n: _table().contacts(n),
    "Table.in_close_combat": lambda n: _table().in_close_combat(n),
    "Table.threat_zones_on": lambda n: _table().threat_zones_on(n),
    "Table.in_enemy_threat_zone": lambda n: _table().in_enemy_threat_zone(n),
    "Table.going_under": lambda n: _table().going_under(n),
    "Table.distance": lambda n: _table().distance(1, n),
    "Battle.from_lists(seed)": lambda n: dbcore.Battle.from_lists("II/56", "II/53", seed=n),
    "Battle.demo(seed)": lambda n: dbcore.Battle.demo(seed=n),
    "Battle.legal_actions(dice)": lambda n: _battle().legal_actions(dice=[n]),
    "Battle.legal_actions(element)": lambda n: _battle().legal_actions(element=n),
    "Battle.play(dice)": lambda n: _battle().play("end", dice=[n]),
    "Battle.describe(decimals)": lambda n: _battle().describe("end", decimals=n),
    "Battle.ai(nodes)": lambda n: _battle().ai(nodes=n, seed=0),
    "Battle.ai(seed)": lambda n: _battle().ai(nodes=1, seed=n),
    "Battle.narrate(since)": lambda n: _battle().narrate(since=n),
    "Battle.element": lambda n: _battle().element(n),
    "Battle.snap": lambda n: _battle().snap(n, {"x": 5.0, "y": 5.0, "facing": 0.0}),
    "Battle.outlines": lambda n: _battle().outlines(n),
    "Battle.outcome": lambda n: _battle().outcome(n, "recoil"),
    "Battle.contacts": lambda n: _battle().contacts(n),
    "ai.choose(nodes)": lambda n: dbcore.ai.choose(_battle(), nodes=n),
    "ai.choose(seed)": lambda n: dbcore.ai.choose(_battle(), nodes=1, seed=n),
    "ai.plan_bound(nodes)": lambda n: dbcore.ai.plan_bound(_battle(), nodes=n),
    "ai.plan_bound(seed)": lambda n: dbcore.ai.plan_bound(_battle(), nodes=1, seed=n),
}


@pytest.mark.parametrize("value", [-1, 2**63, 2**64])
@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_an_integer_out_of_range_is_a_dbcore_error(name: str, value: int) -> None:
    call = ENTRY_POINTS[name]
    try:
        call(value)
    except dbcore.DbcoreError as e:
        assert e.code > 0, name
        return
    # Accepted: only where the value is in the argument's range (no argument takes 2**64).
    assert value != 2**64, f"{name} accepted 2**64"
