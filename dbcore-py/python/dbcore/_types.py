"""The string vocabularies of dbcore, as ``typing.Literal`` aliases.

Every enum value crosses between Rust and Python as the name dbcore's JSON form uses, so the
same strings appear in results, in arguments and in ``to_json()`` output.
"""

from typing import Literal, Union

# Each alias is written as a Union of one-value Literals, which means the same to a type checker
# as Literal["a", "b"], because mypy.stubtest checks that an alias of several literal values is
# a Union at runtime.

Outcome = Union[
    Literal["no_effect"],
    Literal["recoil"],
    Literal["flee"],
    Literal["destroyed"],
]
"""What happens to an element after a combat (DBA3.md §11), least to most severe."""

Band = Union[
    Literal["higher"],
    Literal["equal"],
    Literal["beaten"],
    Literal["doubled"],
]
"""How a side's total compares with its opponent's (§11): won, tied, beaten, doubled."""

Going = Union[
    Literal["good"],
    Literal["rough"],
    Literal["bad"],
]
"""The going an element counts as being in (§3.1)."""

Stronghold = Union[
    Literal["city"],
    Literal["fort"],
    Literal["camp"],
]
"""A city, fort or camp (§4)."""

Holding = (
    tuple[Literal["defending"], Stronghold]
    | tuple[Literal["defending"], Stronghold, int]
    | tuple[Literal["assaulting"], Stronghold]
    | None
)
"""Where an element fights (§4.7): None in the open, ``('defending', place)`` or
``('defending', place, extra_assaulters)`` inside a city, fort or camp (``extra_assaulters``
counts the enemy assaulting it besides the one fighting now, 0-2), or ``('assaulting', place)``.
Combatant.holding always reports a defender with its ``extra_assaulters``."""

Side = Union[
    Literal["a"],
    Literal["b"],
]
"""One of the two combatants of a Situation."""

Engagement = Union[
    Literal["close_combat"],
    Literal["shooting"],
]
"""Close combat or a distant shot."""

FootClass = Union[
    Literal["Fast"],
    Literal["Solid"],
]
"""Fast or Solid foot (§2.2)."""

PursuitRule = Union[
    Literal["Never"],
    Literal["OneBw"],
    Literal["HalfBwAfterFoot"],
]
"""How an element follows up a beaten opponent (§12.5)."""

TroopType = Union[
    Literal["El"],
    Literal["Kn"],
    Literal["Cv"],
    Literal["LH"],
    Literal["SCh"],
    Literal["Cm"],
    Literal["Sp"],
    Literal["Pk"],
    Literal["Bd"],
    Literal["Ax"],
    Literal["Bw"],
    Literal["Ps"],
    Literal["Wb"],
    Literal["Hd"],
    Literal["Art"],
    Literal["WWg"],
    Literal["CP"],
    Literal["Lit"],
    Literal["CWg"],
    Literal["CampFollowers"],
    Literal["Denizens"],
]
"""The basic troop types to which the rules tables are written (§2.1)."""

FactorName = Union[
    Literal["vs_foot"],
    Literal["vs_mounted"],
    Literal["shot_at"],
    Literal["artillery_in_city_or_fort"],
    Literal["garrison"],
    Literal["camp_or_city_defenders"],
    Literal["general"],
    Literal["cin_c"],
    Literal["uphill"],
    Literal["river_bank"],
    Literal["side_support"],
    Literal["rear_support"],
    Literal["double_element"],
    Literal["flank_or_rear"],
    Literal["extra_assaulters"],
    Literal["support_shooters"],
    Literal["bad_going"],
    Literal["demoralised"],
]
"""The name of a combat or tactical factor (§10.1, §10.3)."""

__all__ = [
    "Band",
    "Engagement",
    "FactorName",
    "FootClass",
    "Going",
    "Holding",
    "Outcome",
    "PursuitRule",
    "Side",
    "Stronghold",
    "TroopType",
]
