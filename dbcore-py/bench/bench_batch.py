"""How much the batch entry points save (#15): ``dbcore.resolve_many`` and ``dbcore.odds_many``
(the loop in Rust, the GIL released) against a Python loop of single ``resolve`` and ``odds``
calls, on the same situations and dice. A benchmark, not a test: it prints times as the minimum
of interleaved rounds and the ratio. Build the module in release first
(``maturin develop --release``), then::

    python dbcore-py/bench/bench_batch.py [--n 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable

import dbcore


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

    m = max(1, n // 36)
    odd_sits = sits[:m]

    def loop_odds() -> object:
        return [dbcore.odds(s) for s in odd_sits]

    def batch_odds() -> object:
        return dbcore.odds_many(odd_sits)

    assert loop_resolve() == batch_resolve()
    assert loop_resolve_one() == batch_resolve_one() == batch_resolve_bytes()
    assert loop_odds() == batch_odds()
    rows = [
        (f"resolve, {n} situations", loop_resolve, batch_resolve, n),
        (f"resolve, one situation x {n} dice", loop_resolve_one, batch_resolve_one, n),
        (f"the same, dice as bytes", loop_resolve_one, batch_resolve_bytes, n),
        (f"odds, {m} situations", loop_odds, batch_odds, m),
    ]
    # Interleaved rounds: each round times every variant once, and the minimum is kept.
    found: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, loop, batch, _count in rows:
            found.setdefault(name + " loop", []).append(best(loop, 1))
            found.setdefault(name + " batch", []).append(best(batch, 1))
    print(f"{'what':<40} {'Python loop':>14} {'batch':>14} {'ratio':>8}")
    for name, _loop, _batch, count in rows:
        lo = min(found[name + " loop"])
        ba = min(found[name + " batch"])
        print(
            f"{name:<40} {1e9 * lo / count:>11.0f} ns {1e9 * ba / count:>11.0f} ns"
            f" {lo / ba:>7.1f}x"
        )


if __name__ == "__main__":
    main()
