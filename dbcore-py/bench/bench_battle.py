"""Whole battles per second with the demonstration driver, through Python.

Run: python dbcore-py/bench/bench_battle.py (after building the module into the environment).
"""

import time

import dbcore


def main() -> None:
    setup = dbcore.demo_setup()
    n = 30
    t0 = time.perf_counter()
    bounds = 0
    for seed in range(n):
        d = dbcore.play(setup, seed=seed, max_bounds=40)
        bounds += d["bounds"]
    dt = time.perf_counter() - t0
    print(f"{n} driven battles in {dt:.2f} s: {n / dt:.1f} battles/s, {bounds / n:.1f} bounds each")
    d = dbcore.play(setup, seed=1, max_bounds=40)
    t0 = time.perf_counter()
    for _ in range(n):
        dbcore.Battle.replay(d["record"])
    dt = time.perf_counter() - t0
    print(f"replaying one battle: {dt / n * 1000:.2f} ms")


if __name__ == "__main__":
    main()
