"""dbcore.simulate on a Dask cluster: a LocalCluster of two worker processes on this machine
gives the records of the local run."""

from __future__ import annotations

import pytest

import dbcore


def test_a_dask_local_cluster_gives_the_local_records() -> None:
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
    )
    local = dbcore.simulate("II/56", "II/5a", battles=6, seed=3, max_bounds=10, progress=False)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        spread = dbcore.simulate(
            "II/56", "II/5a", battles=6, seed=3, max_bounds=10, progress=False,
            executor=client, chunk_size=2,
        )
    assert spread.records == local.records
    assert spread.summary == local.summary
