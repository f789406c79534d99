"""JSON, pickling and deep copies all go through dbcore's serde form."""

import copy
import json
import pickle
from typing import Any

import pytest

import dbcore
from dbcore import Combatant, Situation


def samples() -> list[Any]:
    sit = Situation.close_combat(
        Combatant(
            "4Bd",
            general=True,
            uphill=True,
            going="rough",
            side_supporters=["4Bd", ("Sp", "rough")],
            rear_supporter="4Bd",
        ),
        Combatant("3Kn", flank_rear_contacts=1, demoralised=True),
    )
    camp = Situation.close_combat(
        Combatant("3Kn", holding=("assaulting", "camp")),
        Combatant("CF", holding=("defending", "camp", 2)),
    )
    shot = Situation.shooting("4Bw", "4Bd", support_shooters=1, from_behind=True)
    result = dbcore.resolve(camp, dice=(6, 1))
    o = dbcore.odds(sit)
    assert result.pursuit is not None
    return [
        dbcore.ElementKind("Mtd-4Bw"),
        dbcore.RulesConfig(),
        sit.a,
        sit,
        camp,
        shot,
        result,
        result.a,
        result.a.factors[0],
        result.pursuit,
        o,
        o.margins,
    ]


@pytest.mark.parametrize("value", samples(), ids=lambda v: type(v).__name__)
def test_pickle_and_deepcopy_round_trip(value: Any) -> None:
    again = pickle.loads(pickle.dumps(value))
    assert type(again) is type(value) and again == value
    assert copy.deepcopy(value) == value
    assert copy.copy(value) == value
    assert type(value).__module__ == "dbcore"


@pytest.mark.parametrize("value", samples(), ids=lambda v: type(v).__name__)
def test_json_round_trip(value: Any) -> None:
    text = value.to_json()
    json.loads(text)
    assert type(value).from_json(text) == value


def test_situation_json_is_dbcores_serde_form() -> None:
    # The same JSON the C layer reads: defaults may be left out.
    text = json.dumps(
        {
            "a": {"kind": "4Bd", "general": True, "uphill": True},
            "b": {"kind": "3Kn", "flank_rear_contacts": 1},
            "engagement": {"type": "close_combat"},
        }
    )
    sit = Situation.from_json(text)
    assert sit == Situation.close_combat(
        Combatant("4Bd", general=True, uphill=True), Combatant("3Kn", flank_rear_contacts=1)
    )
    data = json.loads(sit.to_json())
    assert data["a"]["kind"] == "4Bd" and data["b"]["going"] == "good"
    assert data["a"]["holding"] == {"role": "field"}
    shot = json.loads(Situation.shooting("4Bw", "4Bd", support_shooters=2).to_json())
    assert shot["engagement"]["type"] == "shooting"
    assert shot["engagement"]["support_shooters"] == 2


def test_result_json_names_outcomes_as_python_does() -> None:
    r = dbcore.resolve(Situation.close_combat("3Kn", "4Bd"), dice=(4, 4))
    data = json.loads(r.to_json())
    assert data["a"]["outcome"] == r.a.outcome == "destroyed"
    assert data["a"]["band"] == r.a.band == "equal"
    assert data["a"]["factors"] == [{"name": "vs_foot", "value": 3}]


def test_reprs_show_the_object() -> None:
    c = Combatant("4Bd", general=True, holding=("defending", "city", 1), rear_supporter="4Bd")
    assert repr(c) == (
        "Combatant('4Bd', general=True, holding=('defending', 'city', 1), rear_supporter='4Bd')"
    )
    assert repr(Combatant("Sp", side_supporters=[("Sp", "rough")])) == (
        "Combatant('Sp', side_supporters=[('Sp', 'rough')])"
    )
    sit = Situation.shooting("4Bw", "4Bd", support_shooters=1)
    assert repr(sit) == (
        "Situation.shooting(Combatant('4Bw'), Combatant('4Bd'), support_shooters=1)"
    )
    assert repr(dbcore.RulesConfig()) == "RulesConfig.default()"
    f = dbcore.resolve(Situation.close_combat("3Kn", "4Bd"), dice=(4, 4)).a.factors[0]
    assert repr(f) == "Factor('vs_foot', +3)"
    name, value = f
    assert (name, value) == ("vs_foot", 3)
    assert "SideResult('3Kn', die=4, total=7, band='equal', outcome='destroyed')" in repr(
        dbcore.resolve(Situation.close_combat("3Kn", "4Bd"), dice=(4, 4))
    )


def test_combatant_replace_keeps_everything_else() -> None:
    c = Combatant("4Bd", general=True, holding=("defending", "city", 1), side_supporters=["Sp"])
    d = c.replace(going="rough", flank_rear_contacts=2)
    assert (d.going, d.flank_rear_contacts) == ("rough", 2)
    assert d.general and d.holding == ("defending", "city", 1)
    assert d.side_supporters == [(dbcore.ElementKind("Sp"), "good")]
    assert c.replace() == c
    assert c.replace(kind="3Bd").kind == dbcore.ElementKind("3Bd")
    with pytest.raises(TypeError):
        c.replace(colour="red")  # type: ignore[call-arg]
