"""BENCHMARK BASELINE ONLY -- not part of dbcore and not a rules implementation to use.

A pure-Python resolution of one matchup, 4Bd against 3Kn in the open in good going, written
the straightforward way so that bench_resolve.py can show what the native module costs or
saves. It knows only the factors (DBA3.md §10.1, §10.3), bands (§11), outcome rows (§11.1-§11.3)
and pursuit (§12.5) that these two kinds need; bench_resolve.py checks it against dbcore on all
36 pairs of dice before timing anything.
"""

from __future__ import annotations

from dataclasses import dataclass

# §10.1 combat factors of the two kinds this baseline knows.
FACTOR = {"4Bd": {"foot": 5, "mounted": 3}, "3Kn": {"foot": 3, "mounted": 4}}
MOUNTED = {"4Bd": False, "3Kn": True}


@dataclass(frozen=True)
class Side:
    kind: str
    general: bool = False
    uphill: bool = False
    flank_rear_contacts: int = 0


def factors(x: Side, w: Side) -> list[tuple[str, int]]:
    """§10.1 and §10.3 in close combat, in the open, good going."""
    vs = "mounted" if MOUNTED[w.kind] else "foot"
    out = [("vs_" + vs, FACTOR[x.kind][vs])]
    if x.general:
        out.append(("general", 1))
    if x.uphill:
        out.append(("uphill", 1))
    if x.flank_rear_contacts:
        out.append(("flank_or_rear", -x.flank_rear_contacts))
    return out


def band(x: int, w: int) -> str:
    """§11: higher, equal, beaten, or doubled (2x <= w)."""
    if x > w:
        return "higher"
    if x == w:
        return "equal"
    if 2 * x <= w:
        return "doubled"
    return "beaten"


def outcome(x: Side, w: Side, b: str) -> str:
    """§11.1-§11.3 rows for 4Bd and 3Kn fighting each other in good going."""
    if b == "higher":
        return "no_effect"
    if x.kind == "4Bd":
        if b == "equal":
            return "no_effect"  # §11.1 Solid foot tied
        if b == "beaten":
            return "destroyed" if w.kind == "3Kn" else "recoil"  # §11.2 Bd row, good going
        return "destroyed"  # §11.3
    if b == "equal":
        return "destroyed" if w.kind == "4Bd" else "no_effect"  # §11.1 Kn tied by Blades
    if b == "beaten":
        return "recoil"  # §11.2 Kn row: Blades are not El, SCh, Cm or LH
    return "destroyed"  # §11.3


def pursuit(a: Side, b: Side, oa: str, ob: str) -> tuple[str, float] | None:
    """§12.5: 3Kn follow up 1 BW; 4Bd ½ BW only after beating foot."""
    for side, p, o, o_out, p_out in (("a", a, b, ob, oa), ("b", b, a, oa, ob)):
        if p_out == "no_effect" and o_out != "no_effect":
            if p.kind == "3Kn":
                return (side, 1.0)
            if p.kind == "4Bd" and not MOUNTED[o.kind]:
                return (side, 0.5)
    return None


def resolve(a: Side, b: Side, dice: tuple[int, int]) -> dict[str, object]:
    for d in dice:
        if not 1 <= d <= 6:
            raise ValueError(f"a die shows 1 to 6, not {d}")
    fa, fb = factors(a, b), factors(b, a)
    ta = dice[0] + sum(v for _, v in fa)
    tb = dice[1] + sum(v for _, v in fb)
    ba, bb = band(ta, tb), band(tb, ta)
    oa, ob = outcome(a, b, ba), outcome(b, a, bb)
    return {
        "a": {"die": dice[0], "factors": fa, "total": ta, "band": ba, "outcome": oa},
        "b": {"die": dice[1], "factors": fb, "total": tb, "band": bb, "outcome": ob},
        "pursuit": pursuit(a, b, oa, ob),
    }


def odds(a: Side, b: Side) -> dict[tuple[str, str], int]:
    """Outcome pairs counted over the 36 pairs of dice."""
    counts: dict[tuple[str, str], int] = {}
    for da in range(1, 7):
        for db in range(1, 7):
            r = resolve(a, b, (da, db))
            key = (r["a"]["outcome"], r["b"]["outcome"])  # type: ignore[index]
            counts[key] = counts.get(key, 0) + 1
    return counts
