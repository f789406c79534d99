"""Type stubs for the native module ``dbcore._dbcore`` (hand-written; checked by stubtest).

Import from ``dbcore``, which re-exports everything here. Strings that name enum values are
spelled as dbcore's JSON spells them; the ``Literal`` aliases in ``dbcore._types`` list them.
"""

from collections.abc import Callable, Sequence
from typing import Any, Iterator, Literal, final

from ._types import (
    Action,
    Band,
    BattleData,
    BlockedShot,
    Contact,
    Engagement,
    Event,
    FactorName,
    FootClass,
    Going,
    Holding,
    KindInfo,
    Outcome,
    PursuitRule,
    ShootingTarget,
    Side,
    Stronghold,
    TerrainGoing,
    TroopType,
)

__all__ = [
    "DbcoreError",
    "ArgumentError",
    "ElementCodeError",
    "RuleError",
    "DiceError",
    "SetupError",
    "InternalError",
    "ElementKind",
    "RulesConfig",
    "Combatant",
    "Situation",
    "Factor",
    "SideResult",
    "Pursuit",
    "CombatResult",
    "Margins",
    "Odds",
    "Dice",
    "PlacedElement",
    "Table",
    "Battle",
    "narrate",
    "call",
    "enable_logging",
    "disable_logging",
    "dbaix_play",
    "dbaix_demo_setup",
    "dbaix_odds",
    "resolve",
    "resolve_many",
    "odds_many",
    "resolve_packed",
    "odds_packed",
    "pack_situations",
    "unpack_situations",
    "SITUATION_SIZE",
    "RESULT_SIZE",
    "ODDS_SIZE",
    "BANDS",
    "demo_setup",
    "demo_armies",
    "odds",
    "play",
    "play_game",
    "play_lists",
    "prebattle_step",
    "replay_game",
    "battle_seed",
    "_simulate",
    "_simulation_summary",
    "_simulation_tally",
    "version",
    "_factor_names",
    "_army_find",
    "_army_list",
    "_army_choose",
    "_army_problems",
    "_army_default_choice",
    "_army_default",
    "_army_entry",
    "_ai_choose",
    "_ai_plan_bound",
    "__version__",
    "OUTCOMES",
]

__version__: str
OUTCOMES: list[Outcome]
"""The outcome names from least to most severe."""

def version() -> str:
    """The dbcore version."""

def enable_logging(level: int | str | None = None) -> None:
    """Hand dbcore's logs to Python's ``logging`` (logger ``dbcore`` and its children, named
    after the Rust modules: ``dbcore.simulate``, ``dbcore.driver``), setting the ``dbcore``
    logger's level when ``level`` is given. Off until called. Call it again after changing a
    ``dbcore`` logger's level: the bridge caches levels, and each call forgets them."""

def disable_logging() -> None:
    """Stop handing dbcore's logs to Python (``enable_logging`` turns them on again)."""

def _factor_names() -> list[FactorName]:
    """Every factor name dbcore counts, in its order (for the tests of the FactorName alias)."""

# Errors ---------------------------------------------------------------------------------------

class DbcoreError(Exception):
    """Root of every error dbcore raises.

    ``code`` is the stable dbcore error number (100s arguments, 200s rule refusals, 300s dice,
    400s set-up, 900s internal), ``rule`` the section of the rules digest that refuses (e.g.
    ``'§9.1'``) or None, and ``detail`` the message.
    """

    code: int
    rule: str | None
    detail: str

class ArgumentError(DbcoreError):
    """A bad argument: out of range, an unknown name, or unreadable JSON (codes 100-199)."""

class ElementCodeError(ArgumentError):
    """Text that is not an element code (code 110, §2.1)."""

class RuleError(DbcoreError):
    """A situation the rules forbid (codes 200-299)."""

class DiceError(DbcoreError):
    """A die score outside 1..6 (codes 300-399)."""

class SetupError(DbcoreError):
    """Set-up data that breaks the rules (codes 400-499).

    ``problems`` lists every problem found, as dicts tagged by ``'problem'`` (the message lists
    them too).
    """

    problems: list[dict[str, Any]]

class InternalError(DbcoreError):
    """A fault inside dbcore (codes 900-999)."""

# Vocabulary -----------------------------------------------------------------------------------

@final
class ElementKind:
    """An element kind as army lists write it: '4Bd', '3Kn', 'Mtd-4Bw', 'CF' (§2.1).

    Raises ElementCodeError (code 110) for text that is not a code. Numbers (depth, moves,
    factors, range) are those of the default RulesConfig.
    """

    def __new__(cls, code: str) -> ElementKind: ...
    @staticmethod
    def all() -> list[ElementKind]:
        """Every kind: plain kinds in table order, then mounted infantry."""
    @property
    def code(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def troop_type(self) -> TroopType: ...
    @property
    def mounted_infantry(self) -> bool: ...
    @property
    def mounted(self) -> bool: ...
    @property
    def foot(self) -> bool: ...
    @property
    def fast(self) -> bool: ...
    @property
    def solid(self) -> bool: ...
    @property
    def moves_as(self) -> FootClass | None: ...
    @property
    def fights_as(self) -> FootClass | None: ...
    @property
    def double(self) -> bool: ...
    @property
    def camel_mounted(self) -> bool: ...
    @property
    def shoots(self) -> bool: ...
    @property
    def general_only(self) -> bool: ...
    @property
    def civilian(self) -> bool: ...
    @property
    def pursuit(self) -> PursuitRule: ...
    @property
    def depth(self) -> float: ...
    @property
    def move_good(self) -> float: ...
    @property
    def move_rough(self) -> float: ...
    @property
    def factor_vs_foot(self) -> int: ...
    @property
    def factor_vs_mounted(self) -> int: ...
    @property
    def factor_shot_at(self) -> int | None: ...
    @property
    def shooting_range(self) -> float | None: ...
    def info(self, config: RulesConfig | None = None) -> KindInfo:
        """Everything about the kind (dbcore's KindInfo), with the numbers of ``config``."""
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> ElementKind: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class RulesConfig:
    """Every number a house rule might change, as one JSON-backed value.

    ``RulesConfig()`` is the default (DBA 3.0). Edit the JSON of ``to_json()`` and read it back
    with ``from_json()``, which checks it (ArgumentError).
    """

    def __new__(cls) -> RulesConfig: ...
    @staticmethod
    def default() -> RulesConfig: ...
    @property
    def is_default(self) -> bool: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> RulesConfig: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

# Situations -----------------------------------------------------------------------------------

@final
class Combatant:
    """One element in a combat, as the table shows it (§10).

    ``holding`` is None in the open, ``('defending', place)`` or
    ``('defending', place, extra_assaulters)`` inside a city, fort or camp, or
    ``('assaulting', place)`` from outside (§4.7). Supporters are kinds or ``(kind, going)``
    pairs. Legality is checked by ``resolve`` and ``odds`` (RuleError).
    """

    def __new__(
        cls,
        kind: ElementKind | str,
        *,
        general: bool = False,
        cinc_bonus: bool = False,
        going: Going = "good",
        uphill: bool = False,
        defending_bank: bool = False,
        holding: Holding = None,
        side_supporters: list[ElementKind | str | tuple[ElementKind | str, Going]] = ...,
        rear_supporter: ElementKind | str | tuple[ElementKind | str, Going] | None = None,
        flank_rear_contacts: int = 0,
        demoralised: bool = False,
    ) -> Combatant: ...
    @property
    def kind(self) -> ElementKind: ...
    @property
    def general(self) -> bool: ...
    @property
    def cinc_bonus(self) -> bool: ...
    @property
    def going(self) -> Going: ...
    @property
    def uphill(self) -> bool: ...
    @property
    def defending_bank(self) -> bool: ...
    @property
    def holding(self) -> Holding:
        """None, ('defending', place, extra_assaulters) or ('assaulting', place)."""
    @property
    def side_supporters(self) -> list[tuple[ElementKind, Going]]: ...
    @property
    def rear_supporter(self) -> tuple[ElementKind, Going] | None: ...
    @property
    def flank_rear_contacts(self) -> int: ...
    @property
    def demoralised(self) -> bool: ...
    def replace(
        self,
        *,
        kind: ElementKind | str = ...,
        general: bool = ...,
        cinc_bonus: bool = ...,
        going: Going = ...,
        uphill: bool = ...,
        defending_bank: bool = ...,
        holding: Holding = ...,
        side_supporters: list[ElementKind | str | tuple[ElementKind | str, Going]] = ...,
        rear_supporter: ElementKind | str | tuple[ElementKind | str, Going] | None = ...,
        flank_rear_contacts: int = ...,
        demoralised: bool = ...,
    ) -> Combatant:
        """A copy with the given arguments changed, as dataclasses.replace does."""
    def __replace__(
        self,
        *,
        kind: ElementKind | str = ...,
        general: bool = ...,
        cinc_bonus: bool = ...,
        going: Going = ...,
        uphill: bool = ...,
        defending_bank: bool = ...,
        holding: Holding = ...,
        side_supporters: list[ElementKind | str | tuple[ElementKind | str, Going]] = ...,
        rear_supporter: ElementKind | str | tuple[ElementKind | str, Going] | None = ...,
        flank_rear_contacts: int = ...,
        demoralised: bool = ...,
    ) -> Combatant: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Combatant: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Situation:
    """Two elements about to fight (``close_combat``) or shoot (``shooting``).

    Each combatant may be a Combatant, or a kind (ElementKind or code) in the open.
    """

    @staticmethod
    def close_combat(a: Combatant | ElementKind | str, b: Combatant | ElementKind | str) -> Situation: ...
    @staticmethod
    def shooting(
        shooter: Combatant | ElementKind | str,
        target: Combatant | ElementKind | str,
        support_shooters: int = 0,
        target_shoots_back: bool = False,
        from_behind: bool = False,
    ) -> Situation: ...
    @property
    def a(self) -> Combatant: ...
    @property
    def b(self) -> Combatant: ...
    @property
    def engagement(self) -> Engagement: ...
    @property
    def shooter(self) -> Side | None: ...
    @property
    def support_shooters(self) -> int: ...
    @property
    def target_shoots_back(self) -> bool: ...
    @property
    def from_behind(self) -> bool: ...
    def swapped(self) -> Situation: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Situation: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

# Results --------------------------------------------------------------------------------------

@final
class Factor:
    """One factor counted in a total; unpacks as ``(name, value)``."""

    @property
    def name(self) -> FactorName: ...
    @property
    def label(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __iter__(self) -> Iterator[str | int]: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Factor: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class SideResult:
    """One side's part of a CombatResult."""

    @property
    def kind(self) -> ElementKind: ...
    @property
    def die(self) -> int: ...
    @property
    def factors(self) -> list[Factor]: ...
    @property
    def factor(self) -> int:
        """The sum of the factors, without the die."""
    @property
    def total(self) -> int: ...
    @property
    def band(self) -> Band: ...
    @property
    def outcome(self) -> Outcome: ...
    @property
    def rule(self) -> str:
        """The rule (section and row) that gave the outcome."""
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> SideResult: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Pursuit:
    """A winner following up (§12.5)."""

    @property
    def side(self) -> Side: ...
    @property
    def distance(self) -> float: ...
    @property
    def into(self) -> Stronghold | None: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Pursuit: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class CombatResult:
    """The result of one close combat or shot."""

    @property
    def a(self) -> SideResult: ...
    @property
    def b(self) -> SideResult: ...
    @property
    def pursuit(self) -> Pursuit | None: ...
    def explain(self) -> str:
        """Each side's die, factors, total, outcome and rule, and any pursuit, as text."""
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> CombatResult: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Margins:
    """The five margins of §11, each counted out of 36."""

    @property
    def a_doubled_b(self) -> int: ...
    @property
    def a_won(self) -> int: ...
    @property
    def tied(self) -> int: ...
    @property
    def b_won(self) -> int: ...
    @property
    def b_doubled_a(self) -> int: ...
    def as_dict(self) -> dict[str, int]: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Margins: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Odds:
    """Exact odds over the 36 pairs of dice."""

    @property
    def outcomes(self) -> list[tuple[Outcome, Outcome, int]]:
        """(a_outcome, b_outcome, count) triples, most frequent first; counts sum to 36."""
    @property
    def margins(self) -> Margins: ...
    @property
    def a(self) -> dict[Outcome, int]: ...
    @property
    def b(self) -> dict[Outcome, int]: ...
    @property
    def a_factor(self) -> int: ...
    @property
    def b_factor(self) -> int: ...
    def count(self, a: Outcome | None = None, b: Outcome | None = None) -> int: ...
    def probability(self, a: Outcome | None = None, b: Outcome | None = None) -> float: ...
    def table(self) -> str: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Odds: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

def resolve(
    situation: Situation, dice: tuple[int, int], config: RulesConfig | None = None
) -> CombatResult:
    """Resolve one combat or shot for ``dice = (die_a, die_b)``, each 1 to 6."""

def odds(situation: Situation, config: RulesConfig | None = None) -> Odds:
    """Exact odds over all 36 pairs of dice."""

def resolve_many(
    situations: Situation | Sequence[Situation],
    dice: Sequence[tuple[int, int]] | bytes,
    config: RulesConfig | None = None,
) -> list[CombatResult]:
    """Resolve one combat a pair of ``dice`` (pairs, or bytes two scores a pair), the loop in
    Rust with the GIL released: ``situations`` is one Situation for every pair or one a pair.
    The results ``resolve`` gives, in order (repeats of a situation object and its dice share
    one frozen result); the first refusal raises, naming its item."""

def odds_many(
    situations: Sequence[Situation], config: RulesConfig | None = None
) -> list[Odds]:
    """The exact odds of each situation, the loop in Rust with the GIL released (and shared
    among the cores for long batches). The results ``odds`` gives, in order."""

def resolve_packed(
    situations: bytes | bytearray,
    dice: bytes | bytearray,
    config: RulesConfig | None = None,
) -> bytes:
    """Resolve many combats given packed, the loop in Rust with the GIL released:
    ``situations`` holds one 36-byte record an item (or one for all), ``dice`` two scores an
    item. Returns 9 bytes an item (``dbcore.packed.RESULT_FIELDS``): the totals, outcomes,
    bands and pursuit ``resolve_many`` gives. A record met often is counted once and each of
    its pairs of dice resolved once. The first item that fails raises, naming it."""

def odds_packed(
    situations: bytes | bytearray, config: RulesConfig | None = None
) -> bytes:
    """Exact odds of many situations given packed (36 bytes each), the loop in Rust with the
    GIL released: 31 bytes a situation (``dbcore.packed.ODDS_FIELDS``), the counts
    ``odds_many`` gives; each distinct record is counted once and its odds written for every
    item repeating it. The first situation that fails raises, naming its item."""

def pack_situations(situations: Sequence[Situation]) -> bytes:
    """The situations as packed records, 36 bytes each, in order."""

def unpack_situations(data: bytes | bytearray) -> list[Situation]:
    """The situations of packed records; a record that is not one raises ArgumentError."""

SITUATION_SIZE: int
RESULT_SIZE: int
ODDS_SIZE: int
BANDS: list[Band]

# Dice -----------------------------------------------------------------------------------------

@final
class Dice:
    """Seeded dice (dbcore's SeededDice): the same seed gives the same scores everywhere."""

    def __new__(cls, seed: int) -> Dice: ...
    @property
    def seed(self) -> int: ...
    def roll(self) -> int: ...
    def roll_pair(self) -> tuple[int, int]: ...
    def __reduce__(self) -> tuple[object, tuple[int, int]]: ...

# Tables ---------------------------------------------------------------------------------------

@final
class PlacedElement:
    """An element standing on a table (§1.3).

    ``x``, ``y``: the midpoint of its front edge, BW from the south-west corner of the board
    (y up the table); ``facing``: the compass bearing it faces (0 up the table, clockwise).
    """

    def __new__(
        cls,
        id: int,
        side: int,
        kind: ElementKind | str,
        x: float,
        y: float,
        facing: float,
        general: bool = False,
    ) -> PlacedElement: ...
    @property
    def id(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def kind(self) -> ElementKind: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def facing(self) -> float: ...
    @property
    def general(self) -> bool: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> PlacedElement: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

@final
class Table:
    """A battlefield with elements on it, and the questions a table tool asks most.

    ``Table(elements, side=15.0)`` puts ``PlacedElement``s (or dicts with the same keys) on an
    empty square board; ``Table.from_json`` reads one with terrain. An unknown element id raises
    ArgumentError (code 104). In a notebook the table draws itself.
    """

    def __new__(
        cls,
        elements: list[PlacedElement | dict[str, object]] = ...,
        side: float = 15.0,
        plough_is_rough: bool = False,
    ) -> Table: ...
    @property
    def elements(self) -> list[PlacedElement]: ...
    @property
    def width(self) -> float: ...
    @property
    def depth(self) -> float: ...
    @property
    def feature_count(self) -> int: ...
    @property
    def plough_is_rough(self) -> bool: ...
    def element(self, id: int) -> PlacedElement: ...
    def contacts(self, id: int, config: RulesConfig | None = None) -> list[Contact]:
        """Every element touching element ``id``, seen from ``id`` (§8.2)."""
    def in_close_combat(self, id: int, config: RulesConfig | None = None) -> bool:
        """Front edge lined up against an enemy, or an enemy's against it (§8.2, §10.2)."""
    def threat_zones_on(self, id: int, config: RulesConfig | None = None) -> list[int]:
        """The enemies whose threat zone element ``id`` is in or on the edge of (§8.1)."""
    def in_enemy_threat_zone(self, id: int, config: RulesConfig | None = None) -> bool: ...
    def shooting_targets(
        self, id: int, config: RulesConfig | None = None
    ) -> tuple[list[ShootingTarget], list[BlockedShot]]:
        """(targets nearest first, shots blocked and why) (§9.1-9.5)."""
    def going_under(self, id: int, config: RulesConfig | None = None) -> TerrainGoing:
        """The worst going element ``id`` touches (§3.1)."""
    def going_at(self, x: float, y: float) -> TerrainGoing: ...
    def distance(self, a: int, b: int, config: RulesConfig | None = None) -> float: ...
    def svg(self, threat_zones: bool = False, config: RulesConfig | None = None) -> str: ...
    def _repr_svg_(self) -> str: ...
    def to_json(self) -> str: ...
    @classmethod
    def from_json(cls, s: str) -> Table: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __len__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...

# Battles --------------------------------------------------------------------------------------

@final
class Battle:
    """A game in progress of any kind dbcore plays: a DBA 3.0 battle (Big Battle and Giant
    included), its pre-battle when it starts from two army lists, or the three-sided Asterix
    variant DBAix (DBAIX.md §2), held as one ``dbcore::surface::Session`` with its events, its
    history (``pop``) and a seeded dice tray for dice nobody typed.

    ``Battle(setup)`` starts one from a set-up (a dict or JSON text): one with
    ``"variant": "dbaix"`` gives a DBAix game (``dbaix_demo_setup()``), any other a DBA battle
    in dbcore's ``BattleSetup`` form, at the first side's first bound, awaiting its PIP die; a
    bad set-up raises SetupError (code 400) listing every problem. ``Battle.from_lists(a, b)``
    starts a game from two army lists (by id or name), the pre-battle left to the caller;
    ``Battle.load(record)`` plays a game record again. Actions and events are dicts tagged by
    ``'action'`` and ``'event'`` (``dbcore.actions`` builds DBA actions; ``legal_actions()``
    lists them; ``play("3 move 1.5")`` reads the notation). A refused action raises the
    DbcoreError of its family (RuleError 201-204, ArgumentError 102/104, ...) and changes
    nothing. Questions only a DBA battle answers (``legal``, ``table``, ``snap``, ``outlines``,
    ``outcome``, ``contacts``, ``element``, ``config``) raise ArgumentError (code 103) on a DBAix
    game or in the pre-battle. Pickles and copies go through the compact state JSON (a game in
    its pre-battle through its record); in a notebook the battle draws itself.
    """

    def __new__(cls, setup: BattleData | str) -> Battle: ...
    @classmethod
    def from_lists(
        cls,
        first: str,
        second: str,
        variant: Literal["standard", "big_battle", "giant"] = "standard",
        seed: int = ...,
        prebattle: Literal["caller", "driver", "ai"] = "caller",
    ) -> Battle:
        """A game between two army lists, by id ("II/56") or name ("Ancient British"; a name
        that matches none raises ArgumentError with suggestions). The pre-battle is the caller's
        (``awaiting()``, ``legal_actions()``, ``apply``), or played whole by the demonstration
        driver ('driver') or the opponent ('ai'). ``seed`` seeds the dice tray."""
    @classmethod
    def load(cls, record: dict[str, Any] | str, seed: int = ...) -> Battle:
        """A game from its record (``record()``, what ``dbcore play --json`` writes, or an
        earlier spelling), played again action by action so that ``pop`` can take any back."""
    @classmethod
    def demo(
        cls, which: Literal["battle", "armies", "dbaix"] = "battle", seed: int = ...
    ) -> Battle:
        """The demonstration battle, its armies from their pre-battle, or the DBAix game."""
    @classmethod
    def bugs(
        cls,
        tables: dict[str, Any] | str | None = None,
        encounter: int = ...,
        setup: dict[str, Any] | str | None = None,
        seed: int = ...,
    ) -> Battle:
        """A BUGS! encounter: a demonstration encounter (1, 2 or 3) on your tables file, or your
        own ``setup``; played like a battle (``legal_actions``, ``apply``, ``pop``, ``ai``)."""
    @classmethod
    def from_json(cls, state: BattleData | str) -> Battle:
        """A battle from its state: the compact ``to_json()`` text, checked by its digest, or the
        full ``state()``, checked by replaying its record; a hand-edited one is refused (code 103).
        A game record (a game pickled in its pre-battle) is loaded as ``Battle.load`` loads it."""
    @classmethod
    def replay(cls, record: BattleData | str) -> tuple[Battle, list[Event]]:
        """The battle after the record's last action, and every event in order."""
    def legal_actions(
        self, dice: Sequence[int] | None = None, element: int | None = None
    ) -> list[Action]:
        """The concrete legal actions now, each accepted as it stands: the dice awaited (from
        ``dice`` or the tray), each mover's farthest steps on documented bearings, every legal
        contact, groups, columns, roads, shots, combats, ending the phase; in the pre-battle its
        dice, edges, quarters and the computer's choices. ``element`` lists one element's."""
    def play(self, text: str, dice: Sequence[int] | None = None) -> dict[str, Any]:
        """Apply an action written in the notation (``"3 move 1.5 @ 90"``, ``"fight 3 104"``);
        dice left out come from ``dice`` or the tray. ``{'action', 'text', 'events', 'revision'}``."""
    def parse(self, text: str, dice: Sequence[int] | None = None) -> Action:
        """The notation read as an action; changes nothing."""
    def describe(self, action: Action | str, decimals: int | None = None) -> str:
        """An action in the notation: exact (``parse`` reads it back), or rounded for people."""
    def pop(self) -> Action:
        """Take back the last action (events and dice too) and return it; RuleError if none."""
    def ai(self, nodes: int | None = None, seed: int | None = None) -> Action:
        """The computer opponent's choice now (in the pre-battle, its or the demonstration's)."""
    def call(self, method: str, **params: Any) -> Any:
        """Any method of the game by name, with keyword parameters (``dbcore.call("methods")``
        lists them): ``battle.call("reach", element=5)``."""
    @property
    def verdict(self) -> dict[str, Any] | None:
        """``{'winners': [army, ...]}`` once the battle is over (empty: no winner), else None."""
    @property
    def winner(self) -> int | None:
        """The winning army once the battle is over with a winner, else None."""
    @property
    def stage(self) -> Literal["prebattle", "battle", "finished"]: ...
    @property
    def revision(self) -> int:
        """Actions applied so far, the pre-battle's included."""
    def check(self, action: Action | str) -> list[Event]:
        """The events ``action`` would cause; changes nothing."""
    def apply(self, action: Action | str) -> list[Event]:
        """Do ``action``: its events. A refusal raises and changes nothing."""
    def roll_pips(self, dice: Dice) -> list[Event]:
        """Roll the PIP die with ``dice`` and apply it (§6.2); in Big Battle and Giant one die
        per command the battle asks for (§14.4). A refusal draws nothing."""
    def awaiting(self) -> dict[str, Any] | None:
        """What the game waits for: the battle's dice (``{'for': 'pips', 'army': 0}``) or the
        pre-battle's request, or None."""
    def legal(self) -> dict[str, Any]:
        """What the side to move may do now: dice, movers and their cost, shots, combats."""
    def record(self) -> dict[str, Any]:
        """The game record (format 'dbcore-game'): its start, every action with its dice, its
        tags and how it stands. ``Battle.load``, ``Battle.replay``, ``dbcore replay`` read it."""
    def state(self) -> BattleData:
        """The whole state as plain data."""
    def to_json(self) -> str:
        """The state as compact JSON text with its digest (what ``Battle.from_json`` reads
        fastest); a DBAix game's full state."""
    def narrate(self, since: int = 0) -> list[str]:
        """The story as a player tells it, one line an event (empty for an untold one), from
        action number ``since`` on (0: all of it)."""
    @property
    def variant(self) -> str:
        """The game played: 'standard', 'big_battle', 'giant' or 'dbaix'."""
    @property
    def phase(self) -> str:
        """'awaiting_pips', 'movement', 'close_combat', 'finished', 'prebattle', or a phase the
        rules add later."""
    @property
    def active_army(self) -> int:
        """The moving army by number (DBAix: 0 Romans, 1 Gauls, 2 Pirates)."""
    @property
    def active_side(self) -> str:
        """The moving army's name as set up (DBAix: 'romans', 'gauls' or 'pirates')."""
    @property
    def bound(self) -> int: ...
    @property
    def pips(self) -> int: ...
    @property
    def config(self) -> RulesConfig: ...
    def elements(self) -> list[dict[str, Any]]:
        """Every element as a dict (DBAix: every figure)."""
    def figures(self) -> list[dict[str, Any]]:
        """DBAix's name for ``elements()``."""
    def element(self, id: int) -> dict[str, Any]: ...
    def table(self) -> Table:
        """The battle now as a Table (elements in play; side = army). A copy."""
    def snap(
        self, id: int, pose: dict[str, float] | str, within: float = 0.5
    ) -> dict[str, Any]:
        """The legal pose element ``id`` would take if dropped at ``pose`` (§8.2), with the
        order to send; raises the refusal when none exists."""
    def outlines(self, id: int) -> dict[str, Any]:
        """Polygons to draw: base, threat zone, shooting zone, command distance, move reach."""
    def outcome(self, id: int, outcome: dict[str, Any] | str) -> list[dict[str, Any]]:
        """What a recoil, flight or pursuit from here would do (§12); changes nothing."""
    def contacts(self, id: int) -> list[Contact]:
        """Every element touching element ``id`` now, edges and corners named (§8.2)."""
    def svg(self, threat_zones: bool = False) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...
    def __eq__(self, value: object, /) -> bool: ...

def play(
    setup: BattleData | str | None = None, seed: int = 0, max_bounds: int = 40
) -> dict[str, Any]:
    """Play a whole battle with dbcore's demonstration driver and return its record, events,
    bounds and verdict."""
    ...

def narrate(record: BattleData | str) -> list[str]:
    """The story of a game record of either game in any spelling (``Battle.record()``, what
    ``dbcore play --json`` writes), one line an event as a player tells it: "The Romans roll 1
    PIP.", "... recoils 0.50 BW"."""
    ...

def call(method: str, **params: Any) -> Any:
    """A method that needs no game, by name, with keyword parameters: ``call("methods")`` lists
    every method of the surface; ``call("armies.lookup", text="ancient british")``."""
    ...

def demo_setup() -> BattleData:
    """The set-up of the demonstration battle (Romans against Ancient Britons)."""
    ...

def play_game(
    armies: dict[str, Any] | str | None = None, seed: int = 0, max_bounds: int = 40
) -> dict[str, Any]:
    """Play a whole game (pre-battle and battle) with dbcore's demonstration driver from two
    entering armies (default: demo_armies()) and return its record, pre-battle events, set-up,
    events, bounds and verdict."""
    ...

def play_lists(
    first: str, second: str, seed: int = 0, max_bounds: int = 40
) -> dict[str, Any]:
    """As play_game, between the default armies of two bundled lists named by id ("II/56")."""
    ...

def battle_seed(seed: int, index: int) -> int:
    """The seed battle `index` of a batch with master seed `seed` is played with (SplitMix64 of
    the two): a record's "seed" replays it alone, play_lists(first, second, seed=...)."""
    ...

def _simulate(
    request: dict[str, Any] | str,
    progress: Callable[[int, int], object] | None = None,
    on_battle: Callable[[dict[str, Any]], object] | None = None,
) -> dict[str, Any]:
    """One batch with the GIL released: {"records": [...], "summary": {...}, "cancelled": bool};
    with on_battle, each record is given to it as its battle finishes and none is kept.
    Use dbcore.simulate or dbcore.simulate_iter."""
    ...

def _simulation_summary(
    source: dict[str, Any] | str,
    records: list[dict[str, Any]] | str,
    tally: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The summary (Wilson intervals included) of records merged from chunks, and of a tally."""
    ...

def _simulation_tally(
    source: dict[str, Any] | str,
    records: list[dict[str, Any]] | str,
    tally: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The running counts of records added to a tally: a summary without keeping records."""
    ...

def replay_game(record: dict[str, Any] | str) -> dict[str, Any]:
    """Replay a whole game's record: its pre-battle events, set-up and battle events."""
    ...

def prebattle_step(
    record: dict[str, Any] | str,
    action: dict[str, Any] | str | None = None,
    apply: bool = True,
) -> dict[str, Any]:
    """Replay a pre-battle record, then check (and with apply, apply) one action: the record,
    the events, what is awaited next and, once done, the battle set-up."""
    ...

def demo_armies() -> dict[str, Any]:
    """The demonstration armies before the battle (Romans and Ancient Britons)."""
    ...

# DBAix, the three-sided Asterix variant -------------------------------------------------------

def dbaix_play(
    setup: dict[str, Any] | str | None = None, seed: int = 0, max_actions: int = 5000
) -> dict[str, Any]:
    """Play a whole DBAix game with the demonstration driver: record, events, bounds, winner."""
    ...

def dbaix_demo_setup() -> dict[str, Any]:
    """The DBAix demonstration scenario."""
    ...

def dbaix_odds(a: str, a_mod: int, b: str, b_mod: int) -> dict[str, Any]:
    """Exact odds of a DBAix combat (DBAIX.md §7), counted out of 36."""
    ...

# The native half of ``dbcore.armies`` (use that module: it types what these return).
def _ai_choose(
    battle: Battle, nodes: int, seed: int, dice: tuple[int, int] | None = None
) -> Any: ...
def _ai_plan_bound(battle: Battle, nodes: int, seed: int) -> Any: ...
def _army_find(query: dict[str, Any] | str | None = None) -> Any: ...
def _army_list(id: str) -> Any: ...
def _army_choose(choice: Any) -> Any: ...
def _army_problems(choice: Any) -> Any: ...
def _army_default_choice(id: str) -> Any: ...
def _army_default(id: str) -> Any: ...
def _army_entry(text: str) -> str: ...
