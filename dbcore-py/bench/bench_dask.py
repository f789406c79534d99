"""Whether a Dask cluster pays off for ``dbcore.simulate`` (#47): the same batch run on one
thread here, and handed to a Dask LocalCluster of two worker processes in chunks of several
sizes. The cluster is started, and dbcore imported on every worker, before any clock starts;
each configuration is timed ``--rounds`` times, interleaved, and the minimum kept. A benchmark,
not a test: build the module in release first (``maturin develop --release``), then::

    python dbcore-py/bench/bench_dask.py [--battles 10000] [--rounds 3]

It prints each configuration's time and its speed against the one thread, and checks that
every configuration gave the one thread's summary.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import dbcore


def main() -> None:
    from distributed import Client, LocalCluster

    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lists", nargs=2, default=["II/56", "II/5a"])
    args = ap.parse_args()
    first, second = args.lists
    common: dict[str, Any] = {"battles": args.battles, "progress": False}
    print(f"{args.battles} battles of {first} v {second}; {os.cpu_count()} cores;"
          f" load {os.getloadavg()[0]:.2f}")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        # Warm the workers: dbcore imported and its army lists read on each.
        dbcore.simulate(first, second, battles=4, seed=0, progress=False, executor=client,
                        chunk_size=1)
        configs: dict[str, dict[str, Any]] = {"one thread": {"threads": 1}}
        for size in (None, 2_500, 1_250, 500, 100):
            name = "dask, chunk " + ("default" if size is None else str(size))
            configs[name] = {"executor": client, "chunk_size": size}
        best = {name: float("inf") for name in configs}
        # A seed of its own each round: Dask hands back the result of a task it still holds
        # when the same task is submitted again, which would time nothing.
        for seed in range(1, args.rounds + 1):
            reference = None
            for name, extra in configs.items():
                t = time.perf_counter()
                sim = dbcore.simulate(first, second, seed=seed, **common, **extra)
                best[name] = min(best[name], time.perf_counter() - t)
                if reference is None:
                    reference = sim.summary
                assert sim.summary == reference, name
    one = best["one thread"]
    for name, t in best.items():
        print(f"{name:>20}: {t:7.2f} s  x{one / t:.2f}")


if __name__ == "__main__":
    main()
