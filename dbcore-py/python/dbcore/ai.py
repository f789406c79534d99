"""The computer opponent (``dbcore::ai``, issue #16): a player that chooses the moving army's
moves, shots and close combats by trying them on clones of the battle and weighing the exact
combat odds.

    >>> import dbcore
    >>> from dbcore import ai
    >>> b = dbcore.Battle(dbcore.demo_setup())
    >>> action = ai.choose(b, nodes=50, seed=1)
    >>> action["action"]
    'roll_pips'
    >>> _ = b.apply(action)
    >>> b.check(ai.choose(b, nodes=50, seed=1)) is not None
    True

``choose`` gives the next action (a dict ``Battle.apply`` accepts; the PIP roll when it is
awaited, and the dice of a shot or combat drawn from ``seed`` unless ``dice`` are given);
``plan_bound`` gives the rest of the bound. The budget is ``nodes`` positions tried per decision;
the same battle, ``nodes`` and ``seed`` give the same choice. Errors are ``dbcore.DbcoreError``
subclasses (``RuleError`` with code 204 once the battle is over).
"""

from typing import Any, Optional, Tuple

from . import _dbcore
from ._dbcore import Battle

DEFAULT_NODES = 400
"""The budget of a decision when none is given: enough for every candidate of a usual one."""


def choose(
    battle: Battle,
    nodes: int = DEFAULT_NODES,
    seed: int = 0,
    dice: Optional[Tuple[int, int]] = None,
) -> dict[str, Any]:
    """The opponent's next action for the moving army of ``battle``, which is not changed."""
    result: dict[str, Any] = _dbcore._ai_choose(battle, nodes, seed, dice)
    return result


def plan_bound(
    battle: Battle, nodes: int = DEFAULT_NODES, seed: int = 0
) -> list[dict[str, Any]]:
    """Every action of the rest of the moving army's bound as the opponent would play it (on a
    copy of ``battle``, dice drawn from ``seed``), the PIP roll first when it is awaited."""
    result: list[dict[str, Any]] = _dbcore._ai_plan_bound(battle, nodes, seed)
    return result


__all__ = ["DEFAULT_NODES", "choose", "plan_bound"]
