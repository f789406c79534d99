"""dbcore: a referee for DBA 3.0 (De Bellis Antiquitatis).

Resolve a close combat or a shot for two die scores, or count its exact odds over all 36
pairs of dice::

    >>> import dbcore
    >>> sit = dbcore.Situation.close_combat("3Kn", "4Bd")
    >>> r = dbcore.resolve(sit, dice=(4, 4))
    >>> r.a.outcome, r.a.rule[:6]
    ('destroyed', '§11.1:')
    >>> dbcore.odds(sit).margins.tied
    6

Many at once, the loop in Rust with the GIL released: ``dbcore.resolve_many(sit, dice_pairs)``
and ``dbcore.odds_many(situations)`` give the same results as one call each, in order.
Packed, with no Python object an item: ``dbcore.resolve_packed(records, dice_bytes)`` and
``dbcore.odds_packed(records)`` take situations as 36-byte records (``pack_situations``, or a
numpy structured array of ``dbcore.packed.SITUATION_FIELDS``) and return bytes
(``dbcore.packed`` reads them).

Ask a table (a battlefield with elements on it) what touches what, who is in whose threat zone,
who can shoot whom, and what the going is::

    >>> t = dbcore.Table([
    ...     dbcore.PlacedElement(1, 0, "4Bd", 7.5, 7.0, 0.0),
    ...     dbcore.PlacedElement(2, 1, "4Wb", 7.5, 7.0, 180.0),
    ... ])
    >>> t.in_close_combat(1), t.contacts(1)[0]["contact"]["kind"]
    (True, 'front_to_front')

Play a battle: ``dbcore.Battle(setup)`` starts one from a set-up dict; ``apply`` takes actions
as dicts (``dbcore.actions`` builds them: ``roll_pips``, ``move_element``, ``into_contact``,
``end_movement``) and returns the events as dicts; ``Battle.replay(record)`` plays a saved
battle again; ``narrate()`` tells it as a player would. A DBAix set-up
(``dbaix_demo_setup()``) gives the same ``Battle`` class playing the three-sided Asterix
variant. See examples/python/bound.py.

Play a whole game from two army lists, pre-battle included (aggression, terrain, base edges,
camps, deployment): ``dbcore.play_lists("II/56", "II/53", seed=1)``; ``dbcore.replay_game``
replays its record and ``dbcore.prebattle_step`` plays a pre-battle one action at a time.

Play many: ``dbcore.simulate("II/56", "II/5a", battles=10000, seed=1)`` on every core with the
GIL released, giving records as dicts (``.to_dataframe()`` with pandas), win rates with Wilson
intervals, a tqdm bar on a terminal; ``executor=`` spreads it over a ``concurrent.futures``
executor or a Dask client with the same records (examples/python/simulate_dask.py).

Logs: ``dbcore.enable_logging(logging.DEBUG)`` hands dbcore's ``tracing`` logs (a battle
starting, each simulated battle, ...) to Python's ``logging`` under the ``dbcore`` logger; they
are off until then.

The rules live in the Rust crate ``dbcore``; this package only translates. Enum values are
plain strings spelled as dbcore's JSON spells them (see the ``Literal`` aliases re-exported
here), every class pickles through that JSON, and every error is a ``DbcoreError`` carrying
``.code``, ``.rule`` and ``.detail``.
"""

from . import actions, ai, armies, packed
from ._simulate import Simulation, SimulationStream, simulate, simulate_iter
from ._dbcore import (
    BANDS,
    ODDS_SIZE,
    OUTCOMES,
    RESULT_SIZE,
    SITUATION_SIZE,
    ArgumentError,
    Battle,
    CombatResult,
    Combatant,
    DbcoreError,
    Dice,
    DiceError,
    ElementCodeError,
    ElementKind,
    Factor,
    InternalError,
    Margins,
    Odds,
    PlacedElement,
    Pursuit,
    RuleError,
    RulesConfig,
    SetupError,
    SideResult,
    Situation,
    Table,
    __version__,
    battle_seed,
    call,
    demo_armies,
    dbaix_demo_setup,
    dbaix_odds,
    dbaix_play,
    demo_setup,
    disable_logging,
    enable_logging,
    narrate,
    odds,
    odds_many,
    odds_packed,
    pack_situations,
    play,
    play_game,
    play_lists,
    prebattle_step,
    replay_game,
    resolve,
    resolve_many,
    resolve_packed,
    unpack_situations,
    version,
)
from ._types import (
    Action,
    Band,
    BattleData,
    BlockedShot,
    Class,
    Contact,
    ContactGeometry,
    ContactKind,
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
    "BANDS",
    "ODDS_SIZE",
    "OUTCOMES",
    "RESULT_SIZE",
    "SITUATION_SIZE",
    "Action",
    "ArgumentError",
    "Band",
    "Battle",
    "BattleData",
    "BlockedShot",
    "Class",
    "CombatResult",
    "Combatant",
    "Contact",
    "ContactGeometry",
    "ContactKind",
    "DbcoreError",
    "Dice",
    "DiceError",
    "ElementCodeError",
    "ElementKind",
    "Engagement",
    "Event",
    "Factor",
    "FactorName",
    "FootClass",
    "Going",
    "Holding",
    "InternalError",
    "KindInfo",
    "Margins",
    "Odds",
    "Outcome",
    "PlacedElement",
    "Pursuit",
    "PursuitRule",
    "RuleError",
    "RulesConfig",
    "SetupError",
    "ShootingTarget",
    "Side",
    "SideResult",
    "Simulation",
    "SimulationStream",
    "Situation",
    "Stronghold",
    "Table",
    "TerrainGoing",
    "TroopType",
    "__version__",
    "actions",
    "ai",
    "armies",
    "battle_seed",
    "call",
    "demo_armies",
    "dbaix_demo_setup",
    "dbaix_odds",
    "dbaix_play",
    "demo_setup",
    "disable_logging",
    "enable_logging",
    "narrate",
    "odds",
    "odds_many",
    "odds_packed",
    "pack_situations",
    "packed",
    "play",
    "play_game",
    "play_lists",
    "prebattle_step",
    "replay_game",
    "resolve",
    "resolve_many",
    "resolve_packed",
    "simulate",
    "simulate_iter",
    "unpack_situations",
    "version",
]
