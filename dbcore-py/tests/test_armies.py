"""The army lists through Python (DBA3.md §2.3, §16): look-ups, lists, choosing an army."""

import doctest

import pytest

import dbcore
from dbcore import armies


def test_module_docstring_examples() -> None:
    failures, tried = doctest.testmod(armies, raise_on_error=False)
    assert tried > 0 and failures == 0


def test_get_a_list() -> None:
    # DBA3.md §16: a list has its id, name, dates (BC negative), topography, aggression, entries.
    sumer = armies.get("I/1a")
    assert sumer["name"] == "Early Sumerian"
    assert sumer["dates"]["from"] == -3000
    assert sumer["troops"] == ["1x3Bd (Gen)", "8x4Bw", "3xPs"]
    assert "I/4a" in sumer["enemies"]
    assert sumer["allies"] == [{"lists": ["I/4a"]}, {"lists": ["I/5a"]}, {"lists": ["I/6a"]}]


def test_unknown_and_malformed_ids() -> None:
    # DBA3.md §16: an id no list has, or text that is no id, is an ArgumentError naming §16.
    for bad in ["IV/999", "not an id"]:
        with pytest.raises(dbcore.ArgumentError) as info:
            armies.get(bad)
        assert info.value.rule == "§16"
    with pytest.raises(dbcore.ArgumentError):
        armies.default_army("V/1")


def test_find() -> None:
    # DBA3.md §16, §16.3: by name fragment, year, topography, enemies; all conditions together.
    assert len(armies.find()) >= 600
    assert [l["id"] for l in armies.find(name="SUMERIAN", year=-2900)] == ["I/1a"]
    dry = armies.find(topography="dry")
    assert dry and all(
        "dry" == l["home"]["terrain"] or "dry" in l["home"].get("alternatives", []) for l in dry
    )
    assert "I/4a" in [l["id"] for l in armies.find(enemy_of="I/1a")]
    assert [l["id"] for l in armies.find(id="I/1")] == ["I/1a", "I/1b", "I/1c"]
    with pytest.raises(dbcore.ArgumentError):
        armies.find(year="soon")  # type: ignore[arg-type]


def test_entries_parse_and_errors_say_where() -> None:
    # DBA3.md §16.1: the lists' entry syntax; a malformed entry names the character.
    assert armies.entry("1x3Kn//4Pk (Gen)") == "1x3Kn//4Pk (Gen)"
    assert armies.entry("2x3/4Bd") == "2x3/4Bd"
    assert armies.entry("(1x7Hd + 1xSp) or 2xSp") == "(1x7Hd + 1xSp) or 2xSp"
    with pytest.raises(dbcore.ArgumentError) as info:
        armies.entry("2x4Zz or Ps")
    assert "at character 3" in info.value.detail
    assert info.value.rule == "§16.1"


def test_default_army() -> None:
    # DBA3.md §2.5: 12 elements, one general.
    army = armies.default_army("II/56")
    assert army["list"] == "II/56"
    assert len(army["elements"]) == 12
    assert [e["general"] for e in army["elements"]].count(True) == 1
    assert armies.choose(armies.default_choice("II/56")) == army


def test_every_problem_at_once() -> None:
    # DBA3.md §16.1, §2.5: a missing general, too many of one entry, a kind not offered.
    choice: armies.ArmyChoice = {
        "list": "I/1a",
        "entries": [
            {"elements": []},
            {"elements": ["4Bw"] * 9},
            {"elements": ["Ps", "Ps", "Cv"]},
        ],
    }
    with pytest.raises(dbcore.SetupError) as info:
        armies.choose(choice)
    found = {p["problem"] for p in info.value.problems}
    assert {"general_missing", "too_many_elements", "not_allowed"} <= found
    listed = armies.problems(choice)
    assert {p["problem"] for p in listed} == found
    assert all(p["rule"].startswith("§") for p in listed)
    entries = {p["entry"]["index"] for p in listed if "entry" in p}
    assert entries == {0, 1, 2}


def test_an_allied_contingent() -> None:
    # DBA3.md §16.4: 3 elements of an allowed list replace 3 of the main army's.
    choice: armies.ArmyChoice = {
        "list": "I/1a",
        "entries": [
            {"elements": ["3Bd"]},
            {"elements": ["4Bw"] * 5},
            {"elements": ["Ps"] * 3},
        ],
        "allies": [
            {
                "list": "I/4a",
                "entries": [{"elements": ["3Bd"]}, {"elements": ["3Ax"]}, {"elements": ["Ps"]}],
            }
        ],
    }
    army = armies.choose(choice)
    allied = [e for e in army["elements"] if e["contingent"] == 1]
    assert len(allied) == 3 and allied[0]["general"]
    assert armies.problems(choice) == []
