"""Time one resolution and one odds table through dbcore against a pure-Python baseline.

    python dbcore-py/bench/bench_resolve.py [--number N]

The matchup: 4Bd general uphill against 3Kn overlapped on one flank, in good going. The
baseline (baseline.py, a benchmark baseline only) is checked against dbcore on all 36 pairs of
dice first, so both sides compute the same answers.
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import baseline  # noqa: E402

import dbcore  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=5000, help="calls per timing")
    parser.add_argument("--repeat", type=int, default=5, help="timings, best one kept")
    args = parser.parse_args()

    sit = dbcore.Situation.close_combat(
        dbcore.Combatant("4Bd", general=True, uphill=True),
        dbcore.Combatant("3Kn", flank_rear_contacts=1),
    )
    a = baseline.Side("4Bd", general=True, uphill=True)
    b = baseline.Side("3Kn", flank_rear_contacts=1)

    # The two must agree before their times mean anything.
    for da in range(1, 7):
        for db in range(1, 7):
            r = dbcore.resolve(sit, dice=(da, db))
            p = baseline.resolve(a, b, (da, db))
            for side, pr in (("a", r.a), ("b", r.b)):
                ps = p[side]
                assert isinstance(ps, dict)
                got = ([(f.name, f.value) for f in pr.factors], pr.total, pr.band, pr.outcome)
                assert got == (ps["factors"], ps["total"], ps["band"], ps["outcome"]), (da, db)
            want = None if r.pursuit is None else (r.pursuit.side, r.pursuit.distance)
            assert p["pursuit"] == want, (da, db)
    o = dbcore.odds(sit)
    assert {(x, y): c for x, y, c in o.outcomes} == baseline.odds(a, b)

    def best(stmt: object, number: int) -> float:
        times = timeit.repeat(stmt, number=number, repeat=args.repeat)  # type: ignore[arg-type]
        return min(times) / number

    n = args.number
    rows = [
        ("resolve, dbcore", best(lambda: dbcore.resolve(sit, dice=(3, 5)), n)),
        ("resolve, pure Python", best(lambda: baseline.resolve(a, b, (3, 5)), n)),
        ("odds, dbcore", best(lambda: dbcore.odds(sit), max(n // 5, 1))),
        ("odds, pure Python", best(lambda: baseline.odds(a, b), max(n // 5, 1))),
    ]
    print(f"dbcore {dbcore.__version__}, Python {sys.version.split()[0]}; best of {args.repeat}")
    for name, t in rows:
        print(f"{name:<22} {t * 1e6:9.2f} us per call")
    print(f"resolve: pure Python / dbcore = {rows[1][1] / rows[0][1]:.1f}x")
    print(f"odds:    pure Python / dbcore = {rows[3][1] / rows[2][1]:.1f}x")
    print()
    print(o.table())


if __name__ == "__main__":
    main()
