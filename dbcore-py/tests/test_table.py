"""Tables: a battlefield with elements on it, and the questions a table tool asks most.

These mirror the C tests of tests/c/test_dbcore.c (the same table, the same answers).
"""

import copy
import json
import math
import pathlib
import pickle
from collections.abc import Callable
from typing import Any

import pytest

import dbcore
from dbcore import PlacedElement, Table

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "data" / "table.json"


def table_data() -> dict[str, Any]:
    """A 15 BW board with a square wood from (1,10) to (4,13). Side 0 faces north (0), side 1
    south (180); a pose is the midpoint of the front edge.

    1 4Bd (general) and 2 4Wb front to front at y = 7; 3 4Bw 2 BW in front of 4 Cv; 5 3Kn
    1/2 BW in front of 6 4Sp; 7 Ps in the wood.
    """

    def el(i: int, side: int, kind: str, x: float, y: float, facing: float) -> dict[str, Any]:
        return {"id": i, "side": side, "kind": kind, "pose": {"x": x, "y": y, "facing": facing}}

    wood = [{"x": 1, "y": 10}, {"x": 4, "y": 10}, {"x": 4, "y": 13}, {"x": 1, "y": 13}]
    elements = [
        el(1, 0, "4Bd", 7.5, 7, 0),
        el(2, 1, "4Wb", 7.5, 7, 180),
        el(3, 0, "4Bw", 11.5, 4, 0),
        el(4, 1, "Cv", 11.5, 6, 180),
        el(5, 0, "3Kn", 4.5, 6.5, 0),
        el(6, 1, "4Sp", 4.5, 7, 180),
        el(7, 1, "Ps", 2.5, 11, 180),
    ]
    elements[0]["general"] = True
    return {
        "battlefield": {
            "board": {"width": 15, "depth": 15},
            "features": [
                {"area": {"kind": "wood", "outline": {"points": wood}, "straight_edged": False}}
            ],
        },
        "elements": elements,
    }


@pytest.fixture
def table() -> Table:
    return Table.from_json(json.dumps(table_data()))


def test_construction_from_elements_and_dicts() -> None:
    t = Table(
        [
            PlacedElement(1, 0, "4Bd", 7.5, 7.0, 0.0, general=True),
            {"id": 2, "side": 1, "kind": dbcore.ElementKind("4Wb"), "x": 7.5, "y": 7.0,
             "facing": 180.0},
        ],
        side=18.0,
    )
    assert (t.width, t.depth, len(t), t.feature_count) == (18.0, 18.0, 2, 0)
    assert t.element(2) == PlacedElement(2, 1, "4Wb", 7.5, 7.0, 180.0)
    assert t.element(1).general and t.element(1).kind == dbcore.ElementKind("4Bd")
    assert [e.id for e in t.elements] == [1, 2]
    assert Table() == Table([], 15.0)


def test_construction_errors() -> None:
    # DBA3.md §1.2: a board side is 15 to 20 BW.
    with pytest.raises(dbcore.ArgumentError) as info:
        Table([], side=12.0)
    assert info.value.code == 103 and info.value.rule == "§1.2"
    # An id used twice.
    with pytest.raises(dbcore.ArgumentError) as info:
        Table([PlacedElement(1, 0, "4Bd", 3, 3, 0), PlacedElement(1, 1, "4Bd", 9, 9, 0)])
    assert info.value.code == 103
    with pytest.raises(dbcore.ArgumentError):
        Table([{"id": 1, "side": 0, "kind": "4Bd", "x": 1.0, "y": 1.0}])  # no facing
    with pytest.raises(dbcore.ArgumentError):
        Table([{"id": 1, "side": 0, "kind": "4Bd", "x": 1, "y": 1, "facing": 0, "colour": 2}])
    with pytest.raises(dbcore.ElementCodeError):
        PlacedElement(1, 0, "9Zz", 1.0, 1.0, 0.0)
    with pytest.raises(dbcore.ArgumentError):
        PlacedElement(-1, 0, "4Bd", 1.0, 1.0, 0.0)
    with pytest.raises(TypeError):
        Table([42])  # type: ignore[list-item]


def test_bad_json() -> None:
    for text in ["{not json", "{}", json.dumps({**table_data(), "elements": [{"id": 1}]})]:
        with pytest.raises(dbcore.ArgumentError) as info:
            Table.from_json(text)
        assert info.value.code == 102
    data = table_data()
    data["elements"][1]["id"] = 1
    with pytest.raises(dbcore.ArgumentError) as info:
        Table.from_json(json.dumps(data))
    assert info.value.code == 103


def test_json_pickle_and_deepcopy(table: Table) -> None:
    again = Table.from_json(table.to_json())
    assert again == table
    assert pickle.loads(pickle.dumps(table)) == table
    assert copy.deepcopy(table) == table
    assert type(table).__module__ == "dbcore"
    e = table.element(1)
    assert pickle.loads(pickle.dumps(e)) == e and copy.deepcopy(e) == e
    assert PlacedElement.from_json(e.to_json()) == e
    assert json.loads(e.to_json())["pose"] == {"x": 7.5, "y": 7.0, "facing": 0.0}


def test_reprs(table: Table) -> None:
    assert repr(table) == "<Table 15x15 BW, 1 terrain feature, 7 elements (side 0: 3, side 1: 4)>"
    assert repr(Table()) == "<Table 15x15 BW, 0 terrain features, 0 elements>"
    assert repr(table.element(1)) == "PlacedElement(1, 0, '4Bd', 7.5, 7.0, 0.0, general=True)"
    assert repr(table.element(4)) == "PlacedElement(4, 1, 'Cv', 11.5, 6.0, 180.0)"


def test_unknown_ids_raise_code_104(table: Table) -> None:
    asks: list[Callable[[], object]] = [
        lambda: table.contacts(99),
        lambda: table.in_close_combat(99),
        lambda: table.threat_zones_on(99),
        lambda: table.in_enemy_threat_zone(99),
        lambda: table.shooting_targets(99),
        lambda: table.going_under(99),
        lambda: table.distance(1, 99),
        lambda: table.distance(0, 1),
        lambda: table.element(99),
    ]
    for ask in asks:
        with pytest.raises(dbcore.ArgumentError) as info:
            ask()
        assert info.value.code == 104 and info.value.rule is None


def test_contacts_and_close_combat(table: Table) -> None:
    # DBA3.md §8.2 (a), §10.2: 4Bd and 4Wb front to front, lined up, are in close combat.
    [c] = table.contacts(1)
    assert c["other"] == 2 and not c["friend"]
    assert c["contact"]["kind"] == "front_to_front" and c["contact"]["lined_up"]
    assert c["contact"]["a"] == {"edge": "front"} and c["contact"]["b"] == {"edge": "front"}
    assert c["contact"]["shared_length"] == pytest.approx(1.0)
    assert table.in_close_combat(1) and table.in_close_combat(2)
    assert table.distance(1, 2) == pytest.approx(0.0, abs=1e-3)
    # Bows 2 BW from the Cavalry touch nothing and fight nobody.
    assert table.contacts(3) == []
    assert not table.in_close_combat(3)
    assert table.distance(3, 4) == pytest.approx(2.0, abs=1e-3)


def test_threat_zones(table: Table) -> None:
    # DBA3.md §8.1: Knights 1/2 BW in front of Spears are in the Spears' threat zone.
    assert table.in_enemy_threat_zone(5)
    assert table.threat_zones_on(5) == [6]
    # DBA3.md §17.15: elements in close combat project no threat zone.
    assert table.threat_zones_on(1) == []
    # 2 BW from the Cavalry, beyond its 1 BW zone.
    assert not table.in_enemy_threat_zone(3)


def test_shooting_targets(table: Table) -> None:
    # DBA3.md §9.1: Bows shoot 3 BW; the Cavalry 2 BW in front is a target, outside the Bows'
    # own threat zone (§9.3).
    targets, blocked = table.shooting_targets(3)
    assert targets[0] == {"target": 4, "distance": 2.0, "in_threat_zone": False}
    assert list(targets[0]) == ["target", "distance", "in_threat_zone"]
    assert all(b["target"] != 4 for b in blocked)
    # Blades do not shoot (§9.1).
    assert table.shooting_targets(1) == ([], [])


def test_a_shot_blocked_by_a_friend() -> None:
    # DBA3.md §9.5: a friend standing between the Bows and the Cavalry blocks the shot.
    t = Table(
        [
            PlacedElement(1, 0, "4Bw", 7.5, 4.0, 0.0),
            PlacedElement(2, 0, "4Bd", 7.5, 5.5, 0.0),
            PlacedElement(3, 1, "Cv", 7.5, 6.5, 180.0),
        ]
    )
    assert t.shooting_targets(1) == ([], [{"target": 3, "by": "element", "id": 2}])


def test_a_shot_blocked_by_terrain() -> None:
    # DBA3.md §9.5: 1 BW of wood between the Bows and the Cavalry blocks sight.
    data = table_data()
    data["battlefield"]["features"][0]["area"]["outline"]["points"] = [
        {"x": 6.5, "y": 5}, {"x": 8.5, "y": 5}, {"x": 8.5, "y": 6}, {"x": 6.5, "y": 6}
    ]
    data["elements"] = [
        {"id": 1, "side": 0, "kind": "4Bw", "pose": {"x": 7.5, "y": 4, "facing": 0}},
        {"id": 2, "side": 1, "kind": "Cv", "pose": {"x": 7.5, "y": 6.8, "facing": 180}},
    ]
    targets, [blocked] = Table.from_json(json.dumps(data)).shooting_targets(1)
    assert targets == []
    assert list(blocked) == ["target", "by", "block"]  # the C layer's JSON, in its order
    assert blocked["target"] == 2 and blocked["by"] == "terrain"
    assert blocked["block"]["deep_feature"]["kind"] == "wood"
    assert blocked["block"]["deep_feature"]["depth"] == pytest.approx(1.0)


def test_going(table: Table) -> None:
    # DBA3.md §3.1: a wood is bad going; the open table is good.
    assert table.going_under(7) == "bad"
    assert table.going_under(1) == "good"
    assert table.going_at(2.5, 11.5) == "bad"
    assert table.going_at(12.0, 12.0) == "good"
    with pytest.raises(dbcore.ArgumentError):
        table.going_at(math.nan, 1.0)


def test_the_picture(table: Table) -> None:
    plain = table.svg()
    zones = table.svg(threat_zones=True)
    assert plain.startswith("<svg") and plain.rstrip().endswith("</svg>")
    assert ">4Bd</text>" in plain and 'class="general"' in plain
    assert len(zones) > len(plain)  # shaded threat zones
    assert table._repr_svg_() == plain


def test_the_example_table_loads() -> None:
    t = Table.from_json(EXAMPLE.read_text(encoding="utf-8"))
    assert len(t) == 7 and t.feature_count == 2
    # DBA3.md §8.2, §8.1, §9.1, §3.1: what examples/data/table.json was built to show.
    assert t.in_close_combat(1)
    assert t.threat_zones_on(5) == [6]
    assert t.shooting_targets(3)[0][0]["target"] == 4
    assert t.going_under(7) == "bad"


def test_a_house_rule_config_is_used() -> None:
    # Deeper Knights' bases reach the Spears: the same table asked with other numbers.
    data = json.loads(dbcore.RulesConfig().to_json())
    data["kinds"]["3Kn"]["depth"] = 3.0
    deep = dbcore.RulesConfig.from_json(json.dumps(data))
    t = Table(
        [PlacedElement(1, 0, "3Kn", 7.5, 7.0, 0.0), PlacedElement(2, 0, "4Bd", 7.5, 4.0, 0.0)]
    )
    assert t.distance(1, 2) > 0.1
    assert t.distance(1, 2, config=deep) == pytest.approx(0.0, abs=1e-3)


def test_the_draw_table_example_runs(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import runpy

    script = EXAMPLE.parents[1] / "python" / "draw_table.py"
    main = runpy.run_path(str(script))["main"]
    picture = tmp_path / "table.svg"
    assert main(["draw_table.py", str(EXAMPLE), str(picture)]) == 0
    out = capsys.readouterr().out
    assert "1: side 0 4Bd (general) at (7.50, 7.00) facing 0, good going, in close combat" in out
    assert "touches enemy 2: front_to_front, lined up" in out
    assert "can shoot at 4 (2.00 BW)" in out
    assert picture.read_text(encoding="utf-8").rstrip().endswith("</svg>")
