"""The string vocabularies of dbcore, as ``typing.Literal`` aliases.

Every enum value crosses between Rust and Python as the name dbcore's JSON form uses, so the
same strings appear in results, in arguments and in ``to_json()`` output.
"""

from typing import Any, Dict, Literal, Optional, TypedDict, Union

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
    Literal["fast"],
    Literal["solid"],
]
"""Fast or Solid foot (§2.2)."""

PursuitRule = Union[
    Literal["never"],
    Literal["one_bw"],
    Literal["half_bw_after_foot"],
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
    Literal["CF"],
    Literal["Dz"],
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

TerrainGoing = Union[
    Literal["good"],
    Literal["rough"],
    Literal["bad"],
    Literal["impassable"],
]
"""The going of terrain (§3.1), best to worst; 'impassable' is a waterway (§3.4)."""

Class = Union[
    Literal["mounted"],
    Literal["foot"],
]
"""Mounted or foot (§0.3); mounted infantry are foot."""

ContactKind = Union[
    Literal["front_to_front"],
    Literal["front_to_rear"],
    Literal["rear_to_front"],
    Literal["front_to_side"],
    Literal["side_to_front"],
    Literal["side_to_side"],
    Literal["other_edges"],
    Literal["corner_to_corner"],
    Literal["corner_to_edge"],
    Literal["edge_to_corner"],
    Literal["intersecting"],
]
"""How one element touches another, named from the first one's side (§8.2)."""


class ContactGeometry(TypedDict):
    """How two elements touch (``dbcore::contact::Contact``), named from the first one's side."""

    kind: ContactKind
    a: dict[str, str]
    """The first element's part that touches: ``{'edge': 'front'}`` or ``{'corner': 'front_left'}``."""
    b: dict[str, str]
    """The other element's part that touches."""
    shared_length: float
    """BW of edge the two share (0 for a corner contact)."""
    lined_up: bool
    """Squared up in one of the positions of §8.2 (a)-(c)."""


class Contact(TypedDict):
    """One contact of an element, as ``Table.contacts`` gives it: the JSON of
    ``dbcore::table::ElementContact``, the same shape C and the referee server give."""

    other: int
    """The other element's id."""
    friend: bool
    contact: ContactGeometry


class ShootingTarget(TypedDict):
    """An enemy an element can shoot at now (§9.1-9.3)."""

    target: int
    distance: float
    """From the nearest point of the shooting edge to the nearest point of the target, BW."""
    in_threat_zone: bool
    """The target is in the shooter's own threat zone, so it must be shot first (§9.3)."""


class _BlockedShotRequired(TypedDict):
    target: int
    by: Literal["element", "terrain"]


class BlockedShot(_BlockedShotRequired, total=False):
    """An enemy in range whose shot is blocked (§9.5): ``by`` an element (``id``) or by
    terrain (``block``, dbcore's SightBlock, e.g. ``{'DeepFeature': {...}}``)."""

    id: int
    block: dict[str, Any]


KindInfo = TypedDict(
    "KindInfo",
    {
        "code": str,
        "name": str,
        "troop_type": TroopType,
        "class": Class,
        "mounted_infantry": bool,
        "moves_as": Union[FootClass, None],
        "fights_as": Union[FootClass, None],
        "double": bool,
        "camel_mounted": bool,
        "general_only": bool,
        "civilian": bool,
        "shoots": bool,
        "extra_pip": bool,
        "never_contacts_enemy": bool,
        "pursuit": PursuitRule,
        "depth": float,
        "move_good": float,
        "move_rough": float,
        "factor_vs_foot": int,
        "factor_vs_mounted": int,
        "factor_shot_at": Union[int, None],
        "shooting_range": Union[float, None],
    },
)
"""Everything about an element kind (dbcore's KindInfo), as ``ElementKind.info()`` gives it."""

__all__ = [
    "Band",
    "BlockedShot",
    "Class",
    "Contact",
    "ContactGeometry",
    "ContactKind",
    "Engagement",
    "FactorName",
    "FootClass",
    "Going",
    "Holding",
    "KindInfo",
    "Outcome",
    "PursuitRule",
    "ShootingTarget",
    "Side",
    "Stronghold",
    "TerrainGoing",
    "TroopType",
]

Action = dict[str, Any]
"""A battle action as dbcore's JSON spells it, tagged by ``"action"``:
``{'action': 'roll_pips', 'die': 4}``, ``{'action': 'move', 'order': {...}}``,
``{'action': 'end_movement'}``. ``dbcore.actions`` builds the common ones."""

Event = dict[str, Any]
"""What happened, as dbcore's JSON spells it, tagged by ``"event"``:
``{'event': 'pips_rolled', 'army': 0, 'die': 4, 'pips': 4}``, ``{'event': 'moved', ...}``."""

BattleData = dict[str, Any]
"""A battle set-up, record or state as plain data (dbcore's JSON form)."""
