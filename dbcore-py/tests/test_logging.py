"""dbcore's `tracing` logs reach Python's `logging` (#16): off until `dbcore.enable_logging`,
then under the `dbcore` logger and its children, from the calling thread and from the Rust
threads of a batch alike."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest

import dbcore


@pytest.fixture
def bridge() -> Iterator[None]:
    level = logging.getLogger("dbcore").level
    yield
    dbcore.disable_logging()
    logging.getLogger("dbcore").setLevel(level)


def dbcore_messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("dbcore")]


def test_a_battle_logs_through_logging(caplog: pytest.LogCaptureFixture, bridge: None) -> None:
    caplog.set_level(logging.DEBUG, logger="dbcore")
    dbcore.enable_logging()
    dbcore.play(seed=1)
    records = [r for r in caplog.records if r.name == "dbcore.driver"]
    assert records and all(r.levelno == logging.DEBUG for r in records)
    messages = [r.getMessage() for r in records]
    assert any(m.startswith("driven battle starts") for m in messages)
    assert any(m.startswith("driven battle ends") and "bounds=16" in m for m in messages)


def test_a_batch_logs_from_its_threads(caplog: pytest.LogCaptureFixture, bridge: None) -> None:
    caplog.set_level(logging.DEBUG, logger="dbcore")
    dbcore.enable_logging()
    sim = dbcore.simulate("II/56", "II/5a", battles=4, seed=1, threads=2, progress=False)
    assert len(sim) == 4
    messages = dbcore_messages(caplog)
    starts = [m for m in messages if m.startswith("simulated battle starts")]
    assert sorted(starts) == sorted(
        f"simulated battle starts index={i} seed={dbcore.battle_seed(1, i)}" for i in range(4)
    )
    assert any(m.startswith("simulation ends played=4") for m in messages)


def test_the_level_is_honoured_and_logs_can_be_turned_off(
    caplog: pytest.LogCaptureFixture, bridge: None
) -> None:
    caplog.set_level(logging.DEBUG)
    dbcore.enable_logging(logging.INFO)
    dbcore.play(seed=1)
    assert dbcore_messages(caplog) == []  # dbcore logs these at DEBUG
    dbcore.enable_logging(logging.DEBUG)
    dbcore.play(seed=1)
    assert dbcore_messages(caplog)
    caplog.clear()
    dbcore.disable_logging()
    dbcore.play(seed=1)
    assert dbcore_messages(caplog) == []


def test_logs_are_off_until_asked_for() -> None:
    # A fresh interpreter, whose root logger takes everything: nothing comes from dbcore.
    code = (
        "import logging, dbcore\n"
        "logging.basicConfig(level=logging.DEBUG, format='%(name)s %(message)s')\n"
        "dbcore.play(seed=1)\n"
        "print('played')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "played"
    assert "dbcore" not in out.stderr
