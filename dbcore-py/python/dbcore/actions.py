"""Helpers that build battle actions as the plain dicts ``Battle.apply`` and ``Battle.check``
take (dbcore's JSON form, tagged by ``"action"``). They only spell dicts: every rule is the
referee's. Any action dbcore knows may also be written out by hand, including ones added after
these helpers::

    >>> from dbcore import actions
    >>> actions.roll_pips(4)
    {'action': 'roll_pips', 'die': 4}
    >>> actions.move_element(2, 6.5, 5.0, 0.0)["order"]["path"]
    [{'x': 6.5, 'y': 5.0, 'facing': 0.0}]

Section numbers refer to the rules digest, shared/rules/DBA3.md.
"""

from collections.abc import Iterable
from typing import Any, Union

from ._types import Action

__all__ = [
    "ContactWanted",
    "advance_group",
    "dice_river",
    "dismount",
    "end_movement",
    "into_contact",
    "move_element",
    "move_path",
    "roll_pips",
]

ContactWanted = Union[str, dict[str, str]]
"""The contact a mover wants with its target (§8.2): ``'front'``, ``'rear'``,
``'flank_left'``, ``'flank_right'``, ``'overlap_left'``, ``'overlap_right'``, or dbcore's own
form (``{'flank': 'left'}``)."""


def _ids(ids: int | Iterable[int]) -> list[int]:
    return [ids] if isinstance(ids, int) else list(ids)


def roll_pips(die: int) -> Action:
    """The moving army's PIP die, 1 to 6 (§6.2)."""
    return {"action": "roll_pips", "die": die}


def dice_river(die: int) -> Action:
    """The river's die, at the first off-road crossing attempt (§3.5)."""
    return {"action": "dice_river", "die": die}


def move_path(id: int, path: Iterable[tuple[float, float, float]]) -> Action:
    """Element ``id`` moving through the poses ``(x, y, facing)`` in turn: straight legs, the
    last pose is where it ends and which way it faces (§7.2). A pose is the midpoint of the
    front edge, BW from the south-west corner, and a compass bearing (0 up the table)."""
    return {
        "action": "move",
        "order": {
            "type": "element",
            "id": id,
            "path": [{"x": x, "y": y, "facing": facing} for x, y, facing in path],
        },
    }


def move_element(id: int, x: float, y: float, facing: float) -> Action:
    """Element ``id`` moving straight to the pose ``(x, y, facing)`` (§7.2)."""
    return move_path(id, [(x, y, facing)])


def advance_group(ids: Iterable[int], distance: float) -> Action:
    """A group moving straight ahead ``distance`` BW, or back if negative (§7.4)."""
    return {
        "action": "move",
        "order": {
            "type": "group",
            "ids": list(ids),
            "steps": [{"step": "advance", "distance": distance}],
        },
    }


_CONTACTS: dict[str, Any] = {
    "front": "front",
    "rear": "rear",
    "flank_left": {"flank": "left"},
    "flank_right": {"flank": "right"},
    "overlap_left": {"overlap": "left"},
    "overlap_right": {"overlap": "right"},
}


def into_contact(ids: int | Iterable[int], target: int, contact: ContactWanted = "front") -> Action:
    """An element or group moving into contact with enemy ``target``, lined up as ``contact``
    asks (§8.2-8.4); the referee finds where it ends."""
    wanted = _CONTACTS.get(contact, contact) if isinstance(contact, str) else contact
    return {
        "action": "move",
        "order": {"type": "into_contact", "ids": _ids(ids), "target": target, "contact": wanted},
    }


def dismount(id: int) -> Action:
    """Element ``id`` dismounts, its whole move (§7.9)."""
    return {"action": "move", "order": {"type": "dismount", "id": id}}


def end_movement() -> Action:
    """The moving army ends its tactical moves."""
    return {"action": "end_movement"}
