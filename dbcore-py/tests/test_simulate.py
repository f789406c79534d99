"""dbcore.simulate: many seeded battles, the same records on any thread count or executor."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import dbcore

LISTS = ("II/56", "II/5a")


def batch(**kw: Any) -> dbcore.Simulation:
    args: dict[str, Any] = {"battles": 4, "seed": 1, "max_bounds": 10, "progress": False}
    args.update(kw)
    sim: dbcore.Simulation = dbcore.simulate(*LISTS, **args)
    return sim


def test_one_and_two_threads_give_the_same_records() -> None:
    one = batch(threads=1)
    two = batch(threads=2)
    assert one.records == two.records
    assert [r["index"] for r in one] == [0, 1, 2, 3]
    assert not one.cancelled
    r = one[0]
    assert set(r) >= {"index", "seed", "winner", "bounds", "losses", "camp_sacked",
                      "general_lost", "ended"}
    assert r["seed"] == dbcore.battle_seed(1, 0)
    assert len(r["losses"]) == 2


def test_a_record_replays_alone_from_its_seed() -> None:
    r = batch(battles=1, first_index=7)[0]
    assert r["index"] == 7
    game = dbcore.play_lists(*LISTS, seed=r["seed"], max_bounds=10)
    winner = game["verdict"]["winner"] if game["verdict"] else None
    assert winner == r["winner"]


def test_the_summary_carries_wilson_intervals() -> None:
    sim = batch()
    s = sim.summary
    assert s["battles"] == 4 and s["fought"] + s["failed"] == 4
    wins = sum(w["count"] for w in s["wins"]) + s["draws"]["count"]
    assert wins == s["fought"]
    for name, rate, low, high in sim.win_rates():
        assert isinstance(name, str)
        assert 0.0 <= low <= rate <= high <= 1.0
    assert "Simulation of 4 battles" in repr(sim)


def test_an_executor_gives_the_local_records_in_index_order() -> None:
    local = batch(battles=5)
    with ThreadPoolExecutor(max_workers=2) as ex:
        spread = batch(battles=5, executor=ex, chunk_size=2)
    assert spread.records == local.records
    assert spread.summary == local.summary


def test_progress_is_reported_to_a_callable() -> None:
    seen: list[tuple[int, int]] = []
    batch(battles=2, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (2, 2)
    assert all(t == 2 and 0 <= d <= 2 for d, t in seen)


def test_progress_true_without_tqdm_warns_and_still_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A None entry in sys.modules makes `from tqdm import tqdm` raise ImportError, as on a
    # machine where the dbcore[progress] extra was not installed.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    with pytest.warns(UserWarning, match=r"tqdm is not installed .*dbcore\[progress\]") as w:
        sim = batch(battles=2, progress=True)
    assert len(w) == 1
    # The warning points at the caller's line, not into dbcore.
    assert w[0].filename.endswith("test_simulate.py")
    assert [r["index"] for r in sim] == [0, 1]


def test_progress_left_unsaid_without_tqdm_is_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(batch(battles=1, progress=None)) == 1


# A process that presses Ctrl-C on itself (SIGINT, as a terminal sends it) from a progress report:
# the interrupt is raised inside the callback or seen by the wait loop's signal check, and either
# way cancels the batch, whatever the speed of the battles (a timer could fire after a fast batch
# had finished). The batch reports as it starts (done = 0), then every 50 ms.
CTRL_C = """
import json, os, signal, sys
import dbcore
# A program started in the background by a non-interactive shell (as CI runs the tests) inherits
# SIGINT ignored, and Python then installs no handler for it; a user at a terminal has Python's
# own, which is what this test is about, so it is put back.
signal.signal(signal.SIGINT, signal.default_int_handler)
at_least = int(sys.argv[1])
reports = []
sent = []
def progress(done, total):
    reports.append([done, total])
    if done >= at_least and not sent:  # the first report with `at_least` battles done
        sent.append(done)
        os.kill(os.getpid(), signal.SIGINT)
sim = dbcore.simulate("II/56", "II/5a", battles=20000, seed=1, max_bounds=60, threads=2,
                      progress=progress)
print(json.dumps({"cancelled": sim.cancelled, "records": sim.records, "reports": reports,
                  "battles": sim.summary["battles"]}))
"""


@pytest.mark.parametrize("at_least", [0, 1], ids=["at_the_start", "after_a_battle"])
def test_ctrl_c_stops_the_batch_and_returns_what_finished(at_least: int) -> None:
    out = subprocess.run(
        [sys.executable, "-c", CTRL_C, str(at_least)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["cancelled"] is True
    records = got["records"]
    assert at_least <= len(records) < 20000 and got["battles"] == len(records)
    if at_least == 0:
        assert got["reports"][0] == [0, 20000]
    # Battles under way finish and none starts after: the first n indices, each the same as
    # in a batch of n that was not interrupted.
    assert [r["index"] for r in records] == list(range(len(records)))
    if records:
        whole = batch(battles=len(records), max_bounds=60)
        assert not whole.cancelled and whole.records == records


def test_a_data_frame_when_pandas_is_installed() -> None:
    pd = pytest.importorskip("pandas", reason="pandas is optional; the frame needs it")
    df = batch(battles=3, as_dataframe=True)
    assert isinstance(df, pd.DataFrame)
    assert len(df) == 3
    assert {"index", "seed", "winner", "losses_0", "losses_1", "general_lost_1"} <= set(df.columns)


def test_refusals_are_dbcore_errors() -> None:
    # DBA3.md §16: a list id naming no bundled list.
    with pytest.raises(dbcore.ArgumentError):
        dbcore.simulate("II/56", "IV/999", battles=1, progress=False)
    with pytest.raises(dbcore.ArgumentError):
        dbcore.simulate("II/56", "II/5a", battles=1, threads=100000, progress=False)
    with pytest.raises(dbcore.ArgumentError):
        dbcore.simulate("II/56", battles=1, progress=False)
    with pytest.raises(dbcore.DbcoreError):
        dbcore.simulate(*LISTS, battles=2, executor=ThreadPoolExecutor(1), chunk_size=0)


def test_a_setup_varies_only_the_dice() -> None:
    sim = dbcore.simulate(setup=dbcore.demo_setup(), battles=2, max_bounds=8, progress=False,
                          full_records=True)
    assert len(sim) == 2
    for r in sim:
        assert r["record"]["battle"]["setup"] == dbcore.demo_setup()


def test_on_battle_is_given_each_record_in_order_and_none_is_kept() -> None:
    whole = batch(threads=2, battles=6)
    given: list[dict[str, Any]] = []
    streamed = batch(threads=2, battles=6, on_battle=given.append)
    assert given == whole.records
    assert streamed.records == []
    assert streamed.summary == whole.summary
    assert not streamed.cancelled


def test_on_battle_returning_false_stops_the_batch() -> None:
    given: list[dict[str, Any]] = []

    def take_two(r: dict[str, Any]) -> bool:
        given.append(r)
        return len(given) < 2

    sim = batch(threads=1, battles=50, on_battle=take_two)
    assert [r["index"] for r in given] == [0, 1]
    assert sim.cancelled
    assert 2 <= sim.summary["battles"] < 50


def test_an_exception_in_on_battle_stops_the_batch_and_is_raised() -> None:
    def fail(_r: dict[str, Any]) -> None:
        raise ValueError("no more")

    with pytest.raises(ValueError, match="no more"):
        batch(threads=1, battles=50, on_battle=fail)


def test_on_battle_with_an_executor_gives_the_local_records_and_summary() -> None:
    whole = batch(threads=1, battles=5)
    given: list[dict[str, Any]] = []
    with ThreadPoolExecutor(2) as pool:
        sim = batch(battles=5, executor=pool, chunk_size=2, on_battle=given.append)
    assert given == whole.records
    assert sim.records == []
    assert sim.summary == whole.summary


def test_simulate_iter_yields_the_records_of_simulate_then_its_summary() -> None:
    whole = batch(threads=2, battles=5)
    stream = dbcore.simulate_iter(*LISTS, battles=5, seed=1, max_bounds=10, threads=2)
    assert stream.summary is None
    records = list(stream)
    assert records == whole.records
    assert stream.summary == whole.summary
    assert not stream.cancelled


def test_closing_a_simulate_iter_stops_its_batch() -> None:
    with dbcore.simulate_iter(*LISTS, battles=100_000, seed=1, max_bounds=6, threads=1) as stream:
        first = [next(stream), next(stream)]
    assert [r["index"] for r in first] == [0, 1]
    assert stream.cancelled
    assert stream.summary is not None and 2 <= stream.summary["battles"] < 100_000
    assert list(stream) == []


def test_simulate_iter_refuses_an_unknown_list_at_once() -> None:
    with pytest.raises(dbcore.DbcoreError):
        dbcore.simulate_iter("II/56", "IV/999", battles=1)


class _ForgingExecutor:
    """An executor whose workers send back a record no battle could have written."""

    def submit(self, fn: Any, *args: Any) -> Any:
        from concurrent.futures import Future

        records = fn(*args)
        records[0]["losses"] = [4_000_000_000, 0]
        done: Future[Any] = Future()
        done.set_result(records)
        return done


def test_a_forged_record_from_an_executor_is_refused_before_it_sizes_anything() -> None:
    # Issue #44: a loss count of four billion once sized the summary's losses histogram.
    with pytest.raises(dbcore.ArgumentError) as e:
        batch(battles=2, executor=_ForgingExecutor())
    assert "losses" in e.value.detail
    with pytest.raises(dbcore.ArgumentError):
        batch(battles=2, executor=_ForgingExecutor(), on_battle=lambda r: None)
