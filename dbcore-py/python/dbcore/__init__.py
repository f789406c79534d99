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

The rules live in the Rust crate ``dbcore``; this package only translates. Enum values are
plain strings spelled as dbcore's JSON spells them (see the ``Literal`` aliases re-exported
here), every class pickles through that JSON, and every error is a ``DbcoreError`` carrying
``.code``, ``.rule`` and ``.detail``.
"""

from ._dbcore import (
    OUTCOMES,
    ArgumentError,
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
    Pursuit,
    RuleError,
    RulesConfig,
    SetupError,
    SideResult,
    Situation,
    __version__,
    odds,
    resolve,
    version,
)
from ._types import (
    Band,
    Engagement,
    FactorName,
    FootClass,
    Going,
    Holding,
    Outcome,
    PursuitRule,
    Side,
    Stronghold,
    TroopType,
)

__all__ = [
    "OUTCOMES",
    "ArgumentError",
    "Band",
    "CombatResult",
    "Combatant",
    "DbcoreError",
    "Dice",
    "DiceError",
    "ElementCodeError",
    "ElementKind",
    "Engagement",
    "Factor",
    "FactorName",
    "FootClass",
    "Going",
    "Holding",
    "InternalError",
    "Margins",
    "Odds",
    "Outcome",
    "Pursuit",
    "PursuitRule",
    "RuleError",
    "RulesConfig",
    "SetupError",
    "Side",
    "SideResult",
    "Situation",
    "Stronghold",
    "TroopType",
    "__version__",
    "odds",
    "resolve",
    "version",
]
