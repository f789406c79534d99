"""What a Python loop of random legal actions costs against the same loop in Rust (#41).

The demonstration battle is played to its end by choosing each action from
``Battle.legal_actions()`` with the same 64-bit generator as ``examples/rollout.rs``, so that
both play exactly the same games; the ratio of the best times of interleaved rounds is printed
(the target is at most 2). A benchmark, not a test. Build the module in release first
(``maturin develop --release``) and the Rust loop with ``cargo build --release -p dbcore
--example rollout``, then::

    python dbcore-py/bench/bench_rollout.py [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import time
from pathlib import Path

import dbcore

MAX_ACTIONS = 3000
MASK = (1 << 64) - 1
ROOT = Path(__file__).resolve().parents[2]


def rollout(seed: int) -> int:
    """One game from ``seed``: the actions played."""
    battle = dbcore.Battle.demo("battle", seed=seed)
    state = seed
    played = 0
    while played < MAX_ACTIONS and battle.stage != "finished":
        actions = battle.legal_actions()
        state = (state * 6364136223846793005 + 1442695040888963407) & MASK
        battle.apply(actions[(state >> 33) % len(actions)])
        played += 1
    return played


def python_round(games: int) -> tuple[float, int]:
    t = time.perf_counter()
    actions = sum(rollout(seed) for seed in range(1, games + 1))
    return time.perf_counter() - t, actions


def rust_round(games: int, exe: Path) -> tuple[float, int]:
    out = subprocess.run([str(exe), str(games)], check=True, capture_output=True, text=True)
    m = re.search(r"(\d+) actions, best of \d+: ([\d.]+) s", out.stdout)
    if m is None:
        raise SystemExit(f"unexpected output of {exe}: {out.stdout}")
    return float(m.group(2)), int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--rust",
        type=Path,
        default=ROOT / "target" / "release" / "examples" / "rollout",
        help="the Rust loop's program (examples/rollout.rs as built)",
    )
    args = ap.parse_args()
    py_best = rust_best = float("inf")
    py_actions = rust_actions = 0
    for _ in range(args.rounds):
        t, py_actions = python_round(args.games)
        py_best = min(py_best, t)
        t, rust_actions = rust_round(args.games, args.rust)
        rust_best = min(rust_best, t)
    if py_actions != rust_actions:
        raise SystemExit(f"the games differ: {py_actions} actions in Python, {rust_actions} in Rust")
    print(f"{args.games} games, {py_actions} actions each way")
    print(f"python: {py_best:.3f} s ({py_best * 1e6 / py_actions:.1f} us an action)")
    print(f"rust:   {rust_best:.3f} s ({rust_best * 1e6 / rust_actions:.1f} us an action)")
    print(f"ratio:  {py_best / rust_best:.2f}")


if __name__ == "__main__":
    main()
