"""Packed batches (#15): many combats in and out of Rust as ``bytes``, no Python object an item.

A situation is a 36-byte record, a result 9 bytes and an odds table 31 bytes; every byte is an
unsigned number except totals and factors, which are signed. The field lists below name each
byte in order, in the form ``numpy.dtype`` takes, so with numpy a batch is built and read as a
structured array::

    sits = numpy.zeros(n, dtype=dbcore.packed.SITUATION_FIELDS)
    sits["a_kind"] = dbcore.packed.kind_number("4Bd")
    ...
    out = dbcore.resolve_packed(sits.tobytes(), dice.astype("u1").tobytes())
    res = numpy.frombuffer(out, dtype=dbcore.packed.RESULT_FIELDS)

and without numpy, ``dbcore.pack_situations`` packs ``Situation`` objects and
``unpack_results`` / ``unpack_odds`` below read the output. The numbering:

- kinds: an index of ``KINDS`` (``dbcore.ElementKind.all()`` in order); 255 for no rear
  supporter;
- flags: 1 general, 2 cinc_bonus, 4 uphill, 8 defending_bank, 16 demoralised;
- going: 0 good, 1 rough, 2 bad; holding: 0 in the open, 1 defending, 2 assaulting, with place
  0 city, 1 fort, 2 camp (and extra_assaulters for a defender);
- side supporters: their count, then up to three kinds and three goings (unused slots 0);
- engagement: 0 close combat, 1 shooting, then the shooter (0 a, 1 b), support shooters and
  shot flags 1 target_shoots_back, 2 from_behind (all 0 in close combat);
- outcomes: indexes of ``dbcore.OUTCOMES``; bands: indexes of ``dbcore.BANDS``;
- pursuit: the pursuer 0 none, 1 a, 2 b; the distance in half base widths; ``into`` 0 none, or
  1 + the place (1 city, 2 fort, 3 camp).

Unused bytes must be 0 (a record with anything else raises ``ArgumentError`` naming its item and
byte), so equal situations have equal records.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from ._dbcore import BANDS, OUTCOMES, ElementKind
from ._types import Band, Outcome, Side, Stronghold

__all__ = [
    "KINDS",
    "SITUATION_FIELDS",
    "RESULT_FIELDS",
    "ODDS_FIELDS",
    "kind_number",
    "PackedResult",
    "PackedOdds",
    "unpack_results",
    "unpack_odds",
]

KINDS: tuple[str, ...] = tuple(k.code for k in ElementKind.all())
"""Every element code, in the order of the packed kind numbers."""

_NUMBER = {code: i for i, code in enumerate(KINDS)}


def kind_number(kind: str | ElementKind) -> int:
    """The packed number of a kind, given as its code or an ``ElementKind``."""
    code = kind.code if isinstance(kind, ElementKind) else ElementKind(kind).code
    return _NUMBER[code]


def _combatant_fields(p: str) -> list[tuple[str, str]]:
    names = [
        "kind",
        "flags",
        "going",
        "holding",
        "place",
        "extra_assaulters",
        "flank_rear_contacts",
        "side_count",
        "side_kind_0",
        "side_kind_1",
        "side_kind_2",
        "side_going_0",
        "side_going_1",
        "side_going_2",
        "rear_kind",
        "rear_going",
    ]
    return [(p + n, "u1") for n in names]


SITUATION_FIELDS: list[tuple[str, str]] = (
    _combatant_fields("a_")
    + _combatant_fields("b_")
    + [("engagement", "u1"), ("shooter", "u1"), ("support_shooters", "u1"), ("shot_flags", "u1")]
)
"""The 36 bytes of a situation record, ``(name, numpy type)`` in order."""

RESULT_FIELDS: list[tuple[str, str]] = [
    ("a_total", "i1"),
    ("b_total", "i1"),
    ("a_outcome", "u1"),
    ("b_outcome", "u1"),
    ("a_band", "u1"),
    ("b_band", "u1"),
    ("pursuer", "u1"),
    ("pursuit_half_bw", "u1"),
    ("pursuit_into", "u1"),
]
"""The 9 bytes of a result record."""

ODDS_FIELDS: list[tuple[str, str]] = (
    [(f"pair_{a}_{b}", "u1") for a in range(4) for b in range(4)]
    + [(f"a_{i}", "u1") for i in range(4)]
    + [(f"b_{i}", "u1") for i in range(4)]
    + [
        ("a_doubled_b", "u1"),
        ("a_won", "u1"),
        ("tied", "u1"),
        ("b_won", "u1"),
        ("b_doubled_a", "u1"),
        ("a_factor", "i1"),
        ("b_factor", "i1"),
    ]
)
"""The 31 bytes of an odds record: ``pair_i_j`` counts ``a`` suffering outcome i and ``b``
outcome j (out of 36), ``a_i`` / ``b_i`` each side's counts, then the five margins of §11 and
each side's total without its die."""

_SIDES: tuple[Side | None, ...] = (None, "a", "b")
_PLACES: tuple[Stronghold | None, ...] = (None, "city", "fort", "camp")


class PackedResult(NamedTuple):
    """One result record read back: what ``CombatResult`` says, without factors and rules."""

    a_total: int
    b_total: int
    a_outcome: Outcome
    b_outcome: Outcome
    a_band: Band
    b_band: Band
    pursuer: Side | None
    pursuit_distance: float
    pursuit_into: Stronghold | None


def unpack_results(data: bytes) -> list[PackedResult]:
    """Read the records ``resolve_packed`` returns."""
    return [
        PackedResult(
            ta,
            tb,
            OUTCOMES[oa],
            OUTCOMES[ob],
            BANDS[ba],
            BANDS[bb],
            _SIDES[side],
            halves / 2,
            _PLACES[into],
        )
        for ta, tb, oa, ob, ba, bb, side, halves, into in struct.iter_unpack("<2b7B", data)
    ]


class PackedOdds(NamedTuple):
    """One odds record read back: what ``Odds`` says."""

    pairs: dict[tuple[Outcome, Outcome], int]
    """Count out of 36 of each pair of outcomes (a, b) that happens."""
    a: dict[Outcome, int]
    b: dict[Outcome, int]
    margins: dict[str, int]
    a_factor: int
    b_factor: int


_MARGINS = ("a_doubled_b", "a_won", "tied", "b_won", "b_doubled_a")


def unpack_odds(data: bytes) -> list[PackedOdds]:
    """Read the records ``odds_packed`` returns."""
    out = []
    for rec in struct.iter_unpack("<29B2b", data):
        pairs = {
            (OUTCOMES[i // 4], OUTCOMES[i % 4]): rec[i] for i in range(16) if rec[i] > 0
        }
        out.append(
            PackedOdds(
                pairs,
                dict(zip(OUTCOMES, rec[16:20])),
                dict(zip(OUTCOMES, rec[20:24])),
                dict(zip(_MARGINS, rec[24:29])),
                rec[29],
                rec[30],
            )
        )
    return out
