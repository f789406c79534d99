"""Element codes and what each kind is (DBA3.md §1.3, §2, §10.1)."""

import json
import typing

import pytest

import dbcore
from dbcore._dbcore import _factor_names


def test_every_code_parses_and_prints_back() -> None:
    # DBA3.md §2.1: every code the parser accepts prints as it is written in army lists.
    kinds = dbcore.ElementKind.all()
    assert len(kinds) == len({k.code for k in kinds})
    for k in kinds:
        again = dbcore.ElementKind(k.code)
        assert again == k
        assert again.code == k.code == str(k)
        assert repr(k) == f"ElementKind('{k.code}')"
        assert dbcore.ElementKind(f"  {k.code.lower()} ") == k


def test_plain_and_mounted_infantry_codes() -> None:
    # DBA3.md §2.1: 42 base codes, and Mtd- before a single foot code.
    codes = [k.code for k in dbcore.ElementKind.all()]
    assert codes[:3] == ["El", "3Kn", "4Kn"]
    assert "CF" in codes and "Dz" in codes and "Mtd-4Bw" in codes
    assert sum(1 for c in codes if not c.startswith("Mtd-")) == 42
    assert dbcore.ElementKind("4Sp") == dbcore.ElementKind("Sp")


def test_a_bad_code_raises_element_code_error_naming_the_text() -> None:
    with pytest.raises(dbcore.ElementCodeError) as info:
        dbcore.ElementKind("9Zz")
    e = info.value
    assert isinstance(e, dbcore.ArgumentError) and isinstance(e, dbcore.DbcoreError)
    assert e.code == 110
    assert e.rule == "§2.1"
    assert "9Zz" in e.detail and "9Zz" in str(e)


def test_mounted_infantry_only_for_single_foot() -> None:
    # DBA3.md §2.1: Mtd- is for single foot elements; no mounted Elephants or doubles.
    for text in ["Mtd-El", "Mtd-8Bw", "Mtd-"]:
        with pytest.raises(dbcore.ElementCodeError) as info:
            dbcore.ElementKind(text)
        assert info.value.code == 110
    mtd = dbcore.ElementKind("Mtd-4Bw")
    assert mtd.mounted_infantry and mtd.foot and not mtd.mounted
    assert mtd.troop_type == "Bw" and mtd.shoots
    assert mtd.name == "Mounted Bows (Solid)"


def test_fixed_facts_of_kinds() -> None:
    bd4, bd3, bd6 = (dbcore.ElementKind(c) for c in ["4Bd", "3Bd", "6Bd"])
    # DBA3.md §2.2: 4 figures Solid, 3 figures Fast; §2.4: 6Bd is a double element.
    assert bd4.solid and not bd4.fast and bd4.fights_as == "solid" and bd4.moves_as == "solid"
    assert bd3.fast and not bd3.solid
    assert bd6.double and bd6.fast and not bd4.double
    kn = dbcore.ElementKind("3Kn")
    assert kn.mounted and not kn.foot and kn.moves_as is None and kn.troop_type == "Kn"
    # DBA3.md §3.1: camel-mounted troops.
    assert dbcore.ElementKind("Cm").camel_mounted and dbcore.ElementKind("LCm").camel_mounted
    assert not kn.camel_mounted
    # DBA3.md §9.1: Bows, War Wagons and Artillery shoot; Psiloi do not.
    assert all(dbcore.ElementKind(c).shoots for c in ["4Bw", "3Lb", "8Cb", "WWg", "Art"])
    assert not dbcore.ElementKind("Ps").shoots
    # DBA3.md §2.1, §2.6: general-only and civilian elements.
    assert dbcore.ElementKind("CP").general_only and dbcore.ElementKind("Lit").general_only
    assert dbcore.ElementKind("CF").civilian and dbcore.ElementKind("Dz").civilian
    assert dbcore.ElementKind("CF").troop_type == "CF"
    # DBA3.md §2.2: camp followers move as Solid but fight as Fast foot.
    assert dbcore.ElementKind("CF").moves_as == "solid"
    assert dbcore.ElementKind("CF").fights_as == "fast"
    # DBA3.md §12.5: who pursues.
    assert kn.pursuit == "one_bw"
    assert bd4.pursuit == "half_bw_after_foot"
    assert dbcore.ElementKind("4Kn").pursuit == "never"


def test_default_numbers() -> None:
    bd = dbcore.ElementKind("4Bd")
    # DBA3.md §10.1: Blades +5 vs foot, +3 vs mounted, +4 when shot at.
    assert (bd.factor_vs_foot, bd.factor_vs_mounted, bd.factor_shot_at) == (5, 3, 4)
    # DBA3.md §7.3: Solid foot move 2 BW in good going, 1 BW in rough.
    assert (bd.move_good, bd.move_rough) == (2.0, 1.0)
    assert bd.depth > 0 and bd.shooting_range is None
    kn = dbcore.ElementKind("3Kn")
    assert (kn.factor_vs_foot, kn.factor_vs_mounted, kn.factor_shot_at) == (3, 4, None)
    # DBA3.md §9.1: Bows 3 BW, Artillery 5 BW.
    assert dbcore.ElementKind("4Bw").shooting_range == 3.0
    assert dbcore.ElementKind("Art").shooting_range == 5.0
    # DBA3.md §10.1: mounted infantry fight as their foot type.
    assert dbcore.ElementKind("Mtd-4Bw").factor_vs_mounted == 4


def test_info_is_dbcores_kind_info() -> None:
    info = dbcore.ElementKind("4Bd").info()
    # DBA3.md §10.1: Blades +5 vs foot, +3 vs mounted, +4 shot at; §12.5: pursue 1/2 BW of foot.
    assert (info["factor_vs_foot"], info["factor_vs_mounted"], info["factor_shot_at"]) == (5, 3, 4)
    assert info["code"] == "4Bd" and info["class"] == "foot" and info["troop_type"] == "Bd"
    assert info["pursuit"] == "half_bw_after_foot" and info["shooting_range"] is None
    # Every kind's info agrees with its properties.
    for k in dbcore.ElementKind.all():
        i = k.info()
        assert i["code"] == k.code and i["name"] == k.name
        assert (i["class"] == "mounted") == k.mounted
        assert i["double"] == k.double and i["shoots"] == k.shoots
        assert i["depth"] == k.depth and i["move_good"] == k.move_good
        assert i["shooting_range"] == k.shooting_range
    # With house rules, the numbers are those of the config.
    data = json.loads(dbcore.RulesConfig().to_json())
    data["kinds"]["4Bd"]["depth"] = 0.75
    house = dbcore.RulesConfig.from_json(json.dumps(data))
    assert dbcore.ElementKind("4Bd").info(house)["depth"] == 0.75


def test_kinds_are_hashable_and_compare_by_code() -> None:
    assert len({dbcore.ElementKind("4bd"), dbcore.ElementKind("4Bd")}) == 1
    assert dbcore.ElementKind("4Bd") != dbcore.ElementKind("3Bd")


def literal_values(alias: object) -> list[str]:
    """The strings of a Union of one-value Literals."""
    return [typing.get_args(member)[0] for member in typing.get_args(alias)]


def test_literal_vocabularies_match_the_module() -> None:
    assert dbcore.OUTCOMES == literal_values(dbcore.Outcome)
    troop_types = {k.troop_type for k in dbcore.ElementKind.all()}
    assert troop_types == set(literal_values(dbcore.TroopType))
    pursuits = {k.pursuit for k in dbcore.ElementKind.all()}
    assert pursuits == set(literal_values(dbcore.PursuitRule))
    # The factor names, in dbcore's own order (FactorName::ALL), both ways.
    assert _factor_names() == literal_values(dbcore.FactorName)
    classes = {k.info()["class"] for k in dbcore.ElementKind.all()}
    assert classes == set(literal_values(dbcore.Class))


def test_wrong_python_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        dbcore.ElementKind(4)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        dbcore.Combatant(4.5)  # type: ignore[arg-type]


def test_version() -> None:
    assert dbcore.version() == dbcore.__version__
    assert dbcore.__version__.count(".") == 2
