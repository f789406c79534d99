# mypy: disable-error-code="no-untyped-call"
# (distributed's Client and LocalCluster carry no annotations.)
"""Many battles on a Dask cluster: II/56 (Early Imperial Roman) against II/5a (Later Hoplite
Spartan), split into chunks of consecutive battle indices, one task each, merged back in index
order: the same records as ``dbcore.simulate`` on this machine alone.

    python examples/python/simulate_dask.py [BATTLES] [SCHEDULER_ADDRESS]

Without an address it starts a LocalCluster of two worker processes here. Every worker needs
dbcore installed (``pip install dask[distributed]`` beside it).
"""

from __future__ import annotations

import sys

from distributed import Client, LocalCluster

import dbcore


def main() -> None:
    battles = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    address = sys.argv[2] if len(sys.argv) > 2 else None
    cluster = None if address else LocalCluster(n_workers=2, processes=True,
                                                dashboard_address=None)
    client = Client(address or cluster)
    try:
        sim = dbcore.simulate("II/56", "II/5a", battles=battles, seed=1, executor=client,
                              chunk_size=max(1, battles // 20))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    print(sim)
    for name, rate, low, high in sim.win_rates():
        print(f"{name}: wins {100 * rate:.1f}% (95% interval {100 * low:.1f}% to {100 * high:.1f}%)")


if __name__ == "__main__":
    main()
