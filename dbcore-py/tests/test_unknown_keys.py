"""Unknown keys are refused with their path (issue #44, strict input): a misspelt optional key
would otherwise be dropped without a word and the battle played without it."""

from typing import Any

import pytest

import dbcore


def test_a_misspelt_setup_key_is_refused_with_its_path() -> None:
    # DBA3.md §2.5: the general's element, misspelt, must not be quietly lost.
    setup: dict[str, Any] = dbcore.demo_setup()
    setup["armies"][0]["elements"][1]["generl"] = True
    with pytest.raises(dbcore.ArgumentError) as e:
        dbcore.Battle(setup)
    assert e.value.code == 102
    assert "armies[0].elements[1]" in e.value.detail
    assert "unknown field `generl`" in e.value.detail


def test_a_misspelt_action_key_is_refused_and_changes_nothing() -> None:
    battle = dbcore.Battle(dbcore.demo_setup())
    before = battle.to_json()
    for action in [
        {"action": "roll_pips", "die": 4, "dice": [4]},
        {"action": "end_movement", "army": 0},
    ]:
        with pytest.raises(dbcore.ArgumentError) as e:
            battle.apply(action)
        assert e.value.code == 102
        assert "unknown field" in e.value.detail
        assert battle.to_json() == before
    # Spelt right, it is played.
    assert battle.apply({"action": "roll_pips", "die": 4})
