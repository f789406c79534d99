"""The bundled DBA 3.0 army lists of books I-IV (DBA3.md §2.3, §16), and choosing an army.

Look lists up and choose an army of 12 elements from one::

    >>> from dbcore import armies
    >>> rome = armies.get("II/56")
    >>> rome["name"], rome["home"]["terrain"], rome["aggression"]
    ('Early Imperial Roman Army', 'arable', 3)
    >>> [l["id"] for l in armies.find(name="sumerian", year=-2900)]
    ['I/1a']
    >>> army = armies.default_army("II/56")
    >>> len(army["elements"]), sum(e["general"] for e in army["elements"])
    (12, 1)

A choice names the list and, for every troop entry in order, the package taken (0 for the
first of an ``N×A or N×B`` entry) and how each element is fielded (``"4Bd"``, or ``"3Kn//4Bd"``
for a mounted element that may dismount). ``choose`` raises ``dbcore.SetupError`` with every
problem in ``.problems``; ``problems`` returns them instead. Lists, choices and armies are the
same JSON the Rust crate and the C ABI use; every rule is the Rust crate's.
"""

from typing import Any, Literal, TypedDict, Union

from . import _dbcore

HomeTerrain = Union[
    Literal["arable"],
    Literal["forest"],
    Literal["hilly"],
    Literal["steppe"],
    Literal["dry"],
    Literal["tropical"],
    Literal["littoral"],
]
"""A home topography (§3.7, §16.2)."""


Dates = TypedDict("Dates", {"from": int, "to": int, "text": str})
"""Years as numbers (BC negative, ``from`` to ``to``) and as the list prints them."""


class _HomeRequired(TypedDict):
    terrain: HomeTerrain
    littoral: bool


class Home(_HomeRequired, total=False):
    """A list's home topography: its own, any alternatives, whether it may have a waterway."""

    alternatives: list[HomeTerrain]
    note: str


class AllyOption(TypedDict):
    """One way to take allies: one contingent from one list, or from two named together."""

    lists: list[str]


class ArmyList(TypedDict):
    """One bundled list variant. ``troops`` are the entries as the lists write them."""

    id: str
    name: str
    dates: Dates
    home: Home
    aggression: int
    troops: list[str]
    enemies: list[str]
    allies: list[AllyOption]


class EntryChoice(TypedDict, total=False):
    """What is taken from one entry: the package (default 0) and each element's fielding."""

    package: int
    elements: list[str]


class ContingentChoice(TypedDict):
    """An allied contingent (§16.4): entries of its own list."""

    list: str
    entries: list[EntryChoice]


class _ArmyChoiceRequired(TypedDict):
    list: str
    entries: list[EntryChoice]


class ArmyChoice(_ArmyChoiceRequired, total=False):
    """A chosen army: its list, one choice per troop entry, any allied contingents."""

    allies: list[ContingentChoice]


class _ChosenElementRequired(TypedDict):
    kind: str
    general: bool
    contingent: int | None
    dismounts_as: str | None


class ChosenElement(_ChosenElementRequired, total=False):
    """One element of a chosen army, as a battle set-up needs it (without a position)."""

    mobile_tower: bool


class Army(TypedDict):
    """A legal army: 12 elements and what the pre-battle sequence needs of its list."""

    list: str
    name: str
    aggression: int
    home: Home
    elements: list[ChosenElement]


def find(
    *,
    id: str | None = None,
    name: str | None = None,
    year: int | None = None,
    topography: HomeTerrain | None = None,
    enemy_of: str | None = None,
    ally_of: str | None = None,
) -> list[ArmyList]:
    """The bundled lists meeting every condition given, in id order: ``id`` (``"I/4"`` for
    every variant), a ``name`` fragment (any case), a ``year`` they cover (BC negative), a
    home ``topography``, being an historical enemy (``enemy_of``) or allowed ally
    (``ally_of``) of a list. No condition: every list."""
    query: dict[str, Any] = {
        k: v
        for k, v in {
            "id": id,
            "name": name,
            "year": year,
            "topography": topography,
            "enemy_of": enemy_of,
            "ally_of": ally_of,
        }.items()
        if v is not None
    }
    found: list[ArmyList] = _dbcore._army_find(query)
    return found


def get(id: str) -> ArmyList:
    """The list with this exact id (``"II/56"``, ``"I/1a"``); ``ArgumentError`` if none."""
    found: ArmyList = _dbcore._army_list(id)
    return found


def choose(choice: ArmyChoice | str) -> Army:
    """Check a chosen army against its list and make it; ``SetupError`` (with ``.problems``)
    when it breaks the list, ``ArgumentError`` for an unknown list."""
    army: Army = _dbcore._army_choose(choice)
    return army


def problems(choice: ArmyChoice | str) -> list[dict[str, Any]]:
    """Every problem of a chosen army (empty when legal): dicts with ``problem``, ``rule``,
    ``message`` and the entry they concern."""
    found: list[dict[str, Any]] = _dbcore._army_problems(choice)
    return found


def default_choice(id: str) -> ArmyChoice:
    """The first choice of every entry of a list, no allies: a starting point to edit."""
    choice: ArmyChoice = _dbcore._army_default_choice(id)
    return choice


def default_army(id: str) -> Army:
    """The army ``default_choice`` makes."""
    army: Army = _dbcore._army_default(id)
    return army


def entry(text: str) -> str:
    """Read a troop entry as the lists write it (``"2xLCh or HCh"``) and print it back in
    dbcore's spelling; ``ArgumentError`` naming the character for a malformed one."""
    return _dbcore._army_entry(text)


__all__ = [
    "AllyOption",
    "Army",
    "ArmyChoice",
    "ArmyList",
    "ChosenElement",
    "ContingentChoice",
    "Dates",
    "EntryChoice",
    "Home",
    "HomeTerrain",
    "choose",
    "default_army",
    "default_choice",
    "entry",
    "find",
    "get",
    "problems",
]
