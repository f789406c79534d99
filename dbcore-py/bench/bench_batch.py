"""How much the batch entry points save (#15): ``dbcore.resolve_many`` and ``dbcore.odds_many``
(the loop in Rust, the GIL released), and their packed forms ``dbcore.resolve_packed`` and
``dbcore.odds_packed`` (situations as 36-byte records, results as bytes, packed before the
clock starts: the form a numpy user holds them in), against a Python loop of single ``resolve``
and ``odds`` calls, on the same situations and dice. "Different situations" are ``n`` objects
cycling through every ordered pair of kinds (3,364 distinct values, each met about six times in
20,000); "all distinct" are ``n`` situations no two alike (kinds and both goings varied). A benchmark, not a test: it prints times as the minimum
of interleaved rounds and the ratio. Build the module in release first
(``maturin develop --release``), then::

    python dbcore-py/bench/bench_batch.py [--n 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import baseline  # noqa: E402

import dbcore  # noqa: E402


# How many distinct situations a "few distinct" batch cycles through.
FEW = 8


def situations(n: int) -> list[dbcore.Situation]:
    """``n`` close combats and shots between every pair of element kinds, in turn."""
    kinds = [k.code for k in dbcore.ElementKind.all()]
    pairs = list(itertools.product(kinds, kinds))
    out: list[dbcore.Situation] = []
    for a, b in itertools.cycle(pairs):
        if len(out) == n:
            break
        out.append(dbcore.Situation.close_combat(a, b))
    return out


def distinct_situations(n: int) -> list[dbcore.Situation]:
    """``n`` close combats no two alike: every pair of kinds in every pair of goings."""
    kinds = [k.code for k in dbcore.ElementKind.all()]
    goings = ["good", "rough", "bad"]
    out: list[dbcore.Situation] = []
    for ga, gb, a, b in itertools.product(goings, goings, kinds, kinds):
        if len(out) == n:
            break
        out.append(
            dbcore.Situation.close_combat(
                dbcore.Combatant(a, going=ga), dbcore.Combatant(b, going=gb)  # type: ignore[arg-type]
            )
        )
    return out


def best(f: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=20000, help="resolutions per round")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    n = args.n
    sits = situations(n)
    dice = [(1 + i % 6, 1 + (i // 6) % 6) for i in range(n)]
    one = sits[0]

    def loop_resolve() -> object:
        return [dbcore.resolve(s, d) for s, d in zip(sits, dice)]

    def batch_resolve() -> object:
        return dbcore.resolve_many(sits, dice)

    packed = bytes(x for pair in dice for x in pair)

    def batch_resolve_bytes() -> object:
        return dbcore.resolve_many(one, packed)

    def loop_resolve_one() -> object:
        return [dbcore.resolve(one, d) for d in dice]

    def batch_resolve_one() -> object:
        return dbcore.resolve_many(one, dice)

    packed_sits = dbcore.pack_situations(sits)
    packed_dice = bytes(x for pair in dice for x in pair)

    def batch_resolve_packed() -> object:
        return dbcore.resolve_packed(packed_sits, packed_dice)

    uniq = distinct_situations(n)
    packed_uniq = dbcore.pack_situations(uniq)

    def loop_resolve_uniq() -> object:
        return [dbcore.resolve(s, d) for s, d in zip(uniq, dice)]

    def batch_resolve_uniq() -> object:
        return dbcore.resolve_packed(packed_uniq, packed_dice)

    m = max(1, n // 36)
    odd_sits = sits[:m]

    def loop_odds() -> object:
        return [dbcore.odds(s) for s in odd_sits]

    def batch_odds() -> object:
        return dbcore.odds_many(odd_sits)

    packed_odd = dbcore.pack_situations(odd_sits)

    def batch_odds_packed() -> object:
        return dbcore.odds_packed(packed_odd)

    def as_packed(r: dbcore.CombatResult) -> dbcore.packed.PackedResult:
        p = r.pursuit
        return dbcore.packed.PackedResult(
            r.a.total, r.b.total, r.a.outcome, r.b.outcome, r.a.band, r.b.band,
            p.side if p else None, p.distance if p else 0.0, p.into if p else None,
        )

    assert loop_resolve() == batch_resolve()
    assert loop_resolve_one() == batch_resolve_one() == batch_resolve_bytes()
    assert loop_odds() == batch_odds()
    unpack = dbcore.packed.unpack_results
    assert unpack(dbcore.resolve_packed(packed_sits, packed_dice)) == [
        as_packed(r) for r in loop_resolve()  # type: ignore[attr-defined]
    ]
    assert unpack(batch_resolve_uniq()) == [as_packed(r) for r in loop_resolve_uniq()]  # type: ignore[arg-type, attr-defined]
    assert len(set(packed_uniq[i : i + 36] for i in range(0, len(packed_uniq), 36))) == n
    assert [o.margins.as_dict() for o in loop_odds()] == [  # type: ignore[attr-defined]
        o.margins for o in dbcore.packed.unpack_odds(batch_odds_packed())  # type: ignore[arg-type]
    ]
    # Monte Carlo studies ask the same few situations many times: the same record for every
    # item, and FEW distinct records in turn, through the packed path (the Python loops call
    # the same objects).
    same_packed = dbcore.pack_situations([one] * n)

    def batch_resolve_same() -> object:
        return dbcore.resolve_packed(same_packed, packed_dice)

    few = [sits[(i * 101) % len(sits)] for i in range(FEW)]
    few_sits = [few[i % FEW] for i in range(n)]
    few_packed = dbcore.pack_situations(few_sits)

    def loop_resolve_few() -> object:
        return [dbcore.resolve(s, d) for s, d in zip(few_sits, dice)]

    def batch_resolve_few() -> object:
        return dbcore.resolve_packed(few_packed, packed_dice)

    uniq_odd = uniq[:m]
    packed_uniq_odd = dbcore.pack_situations(uniq_odd)

    def loop_odds_uniq() -> object:
        return [dbcore.odds(s) for s in uniq_odd]

    def batch_odds_uniq() -> object:
        return dbcore.odds_packed(packed_uniq_odd)

    same_odd = [one] * m
    packed_same_odd = dbcore.pack_situations(same_odd)

    def loop_odds_same() -> object:
        return [dbcore.odds(s) for s in same_odd]

    def batch_odds_same() -> object:
        return dbcore.odds_packed(packed_same_odd)

    few_odd = few_sits[:m]
    packed_few_odd = dbcore.pack_situations(few_odd)

    def loop_odds_few() -> object:
        return [dbcore.odds(s) for s in few_odd]

    def batch_odds_few() -> object:
        return dbcore.odds_packed(packed_few_odd)

    assert unpack(batch_resolve_same()) == [as_packed(r) for r in loop_resolve_one()]  # type: ignore[arg-type, attr-defined]
    assert unpack(batch_resolve_few()) == [as_packed(r) for r in loop_resolve_few()]  # type: ignore[arg-type, attr-defined]
    for loop, batch in [
        (loop_odds_uniq, batch_odds_uniq),
        (loop_odds_same, batch_odds_same),
        (loop_odds_few, batch_odds_few),
    ]:
        assert [o.margins.as_dict() for o in loop()] == [  # type: ignore[attr-defined]
            o.margins for o in dbcore.packed.unpack_odds(batch())  # type: ignore[arg-type]
        ]
    # Against pure Python (baseline.py, which knows one matchup, checked by bench_resolve.py):
    # the same combat for every item, as a Python program without dbcore would resolve it.
    pa = baseline.Side("4Bd", general=True, uphill=True)
    pb = baseline.Side("3Kn", flank_rear_contacts=1)
    pure_sit = dbcore.Situation.close_combat(
        dbcore.Combatant("4Bd", general=True, uphill=True),
        dbcore.Combatant("3Kn", flank_rear_contacts=1),
    )
    pure_packed = dbcore.pack_situations([pure_sit] * n)
    pure_odd = dbcore.pack_situations([pure_sit] * m)

    def pure_resolve() -> object:
        return [baseline.resolve(pa, pb, d) for d in dice]

    def batch_resolve_pure() -> object:
        return dbcore.resolve_packed(pure_packed, packed_dice)

    def pure_odds() -> object:
        return [baseline.odds(pa, pb) for _ in range(m)]

    def batch_odds_pure() -> object:
        return dbcore.odds_packed(pure_odd)

    pure_want = [(p["a"]["total"], p["b"]["outcome"]) for p in pure_resolve()]  # type: ignore[attr-defined, index]
    assert [(r.a_total, r.b_outcome) for r in unpack(batch_resolve_pure())] == pure_want  # type: ignore[arg-type]
    rows = [
        (f"pure Python resolve x {n}, packed", pure_resolve, batch_resolve_pure, n),
        (f"pure Python odds x {m}, packed", pure_odds, batch_odds_pure, m),
        (f"resolve, {n} situations", loop_resolve, batch_resolve, n),
        (f"resolve, {n} situations, packed", loop_resolve, batch_resolve_packed, n),
        (f"resolve, {n} all distinct, packed", loop_resolve_uniq, batch_resolve_uniq, n),
        (f"resolve, {FEW} distinct x {n // FEW}, packed", loop_resolve_few, batch_resolve_few, n),
        (f"resolve, one record x {n}, packed", loop_resolve_one, batch_resolve_same, n),
        (f"resolve, one situation x {n} dice", loop_resolve_one, batch_resolve_one, n),
        (f"the same, dice as bytes", loop_resolve_one, batch_resolve_bytes, n),
        (f"odds, {m} situations", loop_odds, batch_odds, m),
        (f"odds, {m} situations, packed", loop_odds, batch_odds_packed, m),
        (f"odds, {m} all distinct, packed", loop_odds_uniq, batch_odds_uniq, m),
        (f"odds, {FEW} distinct x {m // FEW}, packed", loop_odds_few, batch_odds_few, m),
        (f"odds, one record x {m}, packed", loop_odds_same, batch_odds_same, m),
    ]
    # Interleaved rounds: each round times every variant once, and the minimum is kept.
    found: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, loop, batch, _count in rows:
            found.setdefault(name + " loop", []).append(best(loop, 1))
            found.setdefault(name + " batch", []).append(best(batch, 1))
    print(f"{'what':<44} {'Python loop':>14} {'batch':>14} {'ratio':>8}")
    for name, _loop, _batch, count in rows:
        lo = min(found[name + " loop"])
        ba = min(found[name + " batch"])
        print(
            f"{name:<44} {1e9 * lo / count:>11.0f} ns {1e9 * ba / count:>11.0f} ns"
            f" {lo / ba:>7.1f}x"
        )


if __name__ == "__main__":
    main()
