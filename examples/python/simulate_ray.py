"""Many battles on Ray: ``dbcore.simulate(..., executor=...)`` takes anything with
``submit(fn, *args)`` returning an object with ``result()``; this wraps Ray's remote functions in
that shape. Not run by the tests (Ray is not installed there).

    pip install ray
    python examples/python/simulate_ray.py [BATTLES]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import ray  # type: ignore[import-not-found, unused-ignore]

import dbcore


class RayFuture:
    def __init__(self, ref: Any) -> None:
        self.ref = ref

    def result(self) -> Any:
        return ray.get(self.ref)

    def cancel(self) -> None:
        ray.cancel(self.ref)


class RayExecutor:
    """The small part of ``concurrent.futures.Executor`` that dbcore.simulate uses."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> RayFuture:
        return RayFuture(ray.remote(fn).remote(*args))


def main() -> None:
    battles = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    ray.init()
    sim = dbcore.simulate("II/56", "II/5a", battles=battles, seed=1, executor=RayExecutor(),
                          chunk_size=max(1, battles // 20))
    print(sim)
    # The same records as a local run: every battle's seed depends on (seed, index) alone.
    assert sim.records == dbcore.simulate("II/56", "II/5a", battles=battles, seed=1).records


if __name__ == "__main__":
    main()
