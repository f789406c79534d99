"""Many battles: ``dbcore.simulate`` on every core, or on a ``concurrent.futures``-style
executor or a Dask ``distributed.Client``, with the same records either way.

Battle ``i`` of a batch with master seed ``m`` is played with dice seeded by
``dbcore.battle_seed(m, i)``, which depends on ``(m, i)`` alone: a batch split into chunks of
indices, run anywhere, gives the records of one local run once the chunks are put back in index
order. The rules and the arithmetic (Wilson intervals included) are the Rust crate's.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, Protocol

from ._dbcore import ArgumentError, _simulate, _simulation_summary, _simulation_tally

__all__ = ["Simulation", "SimulationStream", "simulate", "simulate_iter"]


class _Future(Protocol):
    def result(self) -> Any: ...


class Executor(Protocol):
    """What ``executor=`` takes: ``concurrent.futures.Executor``, ``distributed.Client``, or
    anything with ``submit(fn, *args)`` returning an object with ``result()``."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


Progress = Callable[[int, int], object]
OnBattle = Callable[[dict[str, Any]], object]


class Simulation:
    """The records of a batch (a list of dicts, in index order), its summary and whether it was
    cancelled before the end (Ctrl-C)."""

    def __init__(self, records: list[dict[str, Any]], summary: dict[str, Any], cancelled: bool) -> None:
        self.records = records
        self.summary = summary
        self.cancelled = cancelled

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.records)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.records[i]

    def win_rates(self) -> list[tuple[str, float, float, float]]:
        """``(army, rate, low, high)`` for each army: the rate of wins with its 95% Wilson
        interval."""
        return [
            (name, w["rate"], w["low"], w["high"])
            for name, w in zip(self.summary["armies"], self.summary["wins"])
        ]

    def to_dataframe(self) -> Any:
        """The records as a pandas DataFrame, one row a battle, per-army fields as columns
        ``losses_0``, ``losses_1``, ... (pandas is needed for this, not for dbcore)."""
        try:
            import pandas as pd  # type: ignore[import-untyped,unused-ignore]
        except ImportError as e:
            raise ArgumentError(
                f"to_dataframe needs pandas, which is not installed ({e}): pip install pandas"
            ) from None
        rows = []
        for r in self.records:
            row = {k: v for k, v in r.items() if not isinstance(v, list) and k != "record"}
            for field in ("losses", "camp_sacked", "general_lost"):
                for a, v in enumerate(r[field]):
                    row[f"{field}_{a}"] = v
            rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        s = self.summary
        parts = [
            f"{name} {100 * rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            for name, rate, lo, hi in self.win_rates()
        ]
        d = s["draws"]
        parts.append(f"no winner {100 * d['rate']:.1f}%")
        tail = ", cancelled" if self.cancelled else ""
        return f"<Simulation of {s['battles']} battles: {'; '.join(parts)}{tail}>"


def _source(
    first: str | None,
    second: str | None,
    setup: dict[str, Any] | str | None,
    armies: dict[str, Any] | str | None,
) -> dict[str, Any]:
    given = [x is not None for x in (setup, armies)] + [first is not None or second is not None]
    if sum(given) != 1:
        raise ArgumentError("name two lists (first, second), or give setup= or armies=, not both")
    if setup is not None:
        return {"setup": json.loads(setup) if isinstance(setup, str) else setup}
    if armies is not None:
        return {"armies": json.loads(armies) if isinstance(armies, str) else armies}
    if first is None or second is None:
        raise ArgumentError("two army lists are needed: simulate('II/56', 'II/5a', ...)")
    return {"lists": [first, second]}


def _request(
    source: dict[str, Any],
    battles: int,
    seed: int,
    first_index: int,
    max_bounds: int,
    threads: int,
    full_records: bool,
) -> dict[str, Any]:
    """The batch request (dbcore::simulate::Request's JSON) of ``simulate``'s arguments."""
    return {
        "source": source,
        "battles": battles,
        "seed": seed,
        "first": first_index,
        "max_bounds": max_bounds,
        "threads": threads,
        "full_records": full_records,
    }


def _progress_bar(progress: bool | Progress | None, total: int) -> tuple[Progress | None, Any]:
    """The callback to report progress through, and a bar to close (tqdm when installed and
    stderr is a terminal, unless progress=False; progress=True insists on it)."""
    if progress is False:
        return None, None
    if callable(progress):
        return progress, None
    if progress is None and not sys.stderr.isatty():
        return None, None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        if progress is True:
            # Asked for a bar by name: say why none is drawn rather than run on in silence.
            warnings.warn(
                "progress=True draws a tqdm bar, but tqdm is not installed "
                "(pip install 'dbcore[progress]'); running without one",
                stacklevel=3,
            )
        return None, None
    bar = tqdm(total=total, unit="battle", file=sys.stderr)

    def update(done: int, _total: int) -> None:
        bar.update(done - bar.n)

    return update, bar


def _run_chunk(request: str) -> list[dict[str, Any]]:
    """One task of an executor: the records of a batch's index range (module level, so that it
    pickles for process pools and Dask workers)."""
    records: list[dict[str, Any]] = _simulate(request)["records"]
    return records


def simulate(
    first: str | None = None,
    second: str | None = None,
    *,
    battles: int = 1000,
    seed: int = 0,
    setup: dict[str, Any] | str | None = None,
    armies: dict[str, Any] | str | None = None,
    max_bounds: int = 60,
    threads: int = 0,
    first_index: int = 0,
    full_records: bool = False,
    progress: bool | Progress | None = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    as_dataframe: bool = False,
    on_battle: OnBattle | None = None,
) -> Any:
    """Play ``battles`` seeded battles with dbcore's demonstration driver and return a
    ``Simulation`` (or, with ``as_dataframe=True``, its records as a pandas DataFrame).

    The battles are between the default armies of two bundled lists (``simulate("II/56",
    "II/5a")``), or from a deployed ``setup=`` (only the dice vary), or from two ``armies=``
    (a pre-battle set-up). ``threads`` Rust threads play them with the GIL released (0: one per
    core). Ctrl-C stops the batch and returns the battles that finished (``.cancelled``).
    ``progress``: None draws a tqdm bar when tqdm is installed and stderr is a terminal, False
    never, True always (tqdm is the ``dbcore[progress]`` extra; without it a ``UserWarning`` says
    no bar is drawn), or a callable ``progress(done, total)``.

    ``executor``: a ``concurrent.futures`` executor or a Dask ``distributed.Client`` (anything
    with ``submit``): the batch is split into chunks of ``chunk_size`` consecutive indices, each
    chunk one task running the Rust batch for its indices on ``threads`` threads (1 unless
    given), and the records are merged in index order: the same records as a local run.

    ``on_battle``: a callable given each record (a dict) in index order as its battle finishes,
    from the calling thread; the records are then not kept (the ``Simulation`` has none, its
    summary counts them all), so a batch of any size takes the same memory. Returning ``False``
    from it stops the batch (``.cancelled``); an exception it raises stops the batch and is
    raised. With an executor, each chunk's records are given as the chunk comes back, in index
    order. ``simulate_iter`` is the same stream as an iterator.
    """
    if on_battle is not None and as_dataframe:
        raise ArgumentError("on_battle= keeps no records, so there is no data frame to make")
    request = _request(
        _source(first, second, setup, armies), battles, seed, first_index, max_bounds, threads, full_records
    )
    report, bar = _progress_bar(progress, battles)
    try:
        if executor is None:
            out = _simulate(request, report, on_battle)
            sim = Simulation(out["records"], out["summary"], out["cancelled"])
        else:
            sim = _on_executor(request, executor, chunk_size, report, on_battle)
    finally:
        if bar is not None:
            bar.close()
    return sim.to_dataframe() if as_dataframe else sim


def _chunks(first: int, battles: int, size: int) -> Sequence[tuple[int, int]]:
    return [(first + o, min(size, battles - o)) for o in range(0, battles, size)]


def _on_executor(
    request: dict[str, Any],
    executor: Executor,
    chunk_size: int | None,
    report: Progress | None,
    on_battle: OnBattle | None = None,
) -> Simulation:
    battles = int(request["battles"])
    if chunk_size is None:
        chunk_size = max(1, -(-battles // 32))
    if chunk_size < 1:
        raise ArgumentError(f"chunk_size must be at least 1, not {chunk_size}")
    if request["threads"] == 0:
        request = {**request, "threads": 1}
    futures = []
    for start, count in _chunks(int(request["first"]), battles, chunk_size):
        chunk = json.dumps({**request, "first": start, "battles": count})
        futures.append(executor.submit(_run_chunk, chunk))
    records: list[dict[str, Any]] = []
    # Streaming: each chunk's records are given to on_battle and counted, then dropped.
    tally: dict[str, Any] | None = None
    finished = 0
    cancelled = False
    try:
        for f in futures:
            chunk = f.result()
            finished += len(chunk)
            if on_battle is None:
                records.extend(chunk)
            else:
                given = []
                for r in chunk:
                    given.append(r)
                    if on_battle(r) is False:
                        cancelled = True
                        break
                tally = _simulation_tally(request["source"], given, tally)
            if report is not None:
                report(finished, battles)
            if cancelled:
                break
    except KeyboardInterrupt:
        cancelled = True
    if cancelled:
        for f in futures:
            cancel = getattr(f, "cancel", None)
            if cancel is not None:
                cancel()
    summary = _simulation_summary(request["source"], records, tally)
    return Simulation(records, summary, cancelled)


_END = object()


class SimulationStream:
    """The records of a batch one at a time, in index order, as their battles finish
    (``simulate_iter``): the batch plays on a thread of its own and at most a few hundred
    records wait to be read, so a batch of any size takes the same memory. Once the iteration
    has ended, ``summary`` is the batch's summary and ``cancelled`` whether it stopped early.
    ``close()`` (or leaving a ``with`` block) stops the batch: battles under way finish, none
    starts after, and the summary counts the battles that finished."""

    summary: dict[str, Any] | None
    cancelled: bool

    def __init__(self, request: dict[str, Any]) -> None:
        self.summary = None
        self.cancelled = False
        self._queue: queue.Queue[object] = queue.Queue(maxsize=64)
        self._stop = threading.Event()
        self._end: tuple[dict[str, Any] | None, bool, BaseException | None] = (None, True, None)
        self._ended = False
        self._thread = threading.Thread(
            target=self._run, args=(request,), name="dbcore-simulate-iter", daemon=True
        )
        self._thread.start()

    def _offer(self, item: object) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _run(self, request: dict[str, Any]) -> None:
        try:
            out = _simulate(request, None, self._offer)
            self._end = (out["summary"], out["cancelled"], None)
        except BaseException as e:  # handed to the reader, raised there
            self._end = (None, True, e)
        finally:
            self._offer(_END)

    def _finish(self) -> None:
        self._ended = True
        self._thread.join()
        summary, cancelled, error = self._end
        self.summary = summary
        self.cancelled = cancelled
        if error is not None:
            raise error

    def __iter__(self) -> SimulationStream:
        return self

    def __next__(self) -> dict[str, Any]:
        if self._ended:
            raise StopIteration
        item = self._queue.get()
        if item is _END:
            self._finish()
            raise StopIteration
        record: dict[str, Any] = item  # type: ignore[assignment]
        return record

    def close(self) -> None:
        """Stop the batch (if it still runs) and wait for the battles under way."""
        if self._ended:
            return
        self._stop.set()
        self._finish()

    def __enter__(self) -> SimulationStream:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:
        # Unread and forgotten: let the batch's thread stop rather than wait on a full queue.
        self._stop.set()


def simulate_iter(
    first: str | None = None,
    second: str | None = None,
    *,
    battles: int = 1000,
    seed: int = 0,
    setup: dict[str, Any] | str | None = None,
    armies: dict[str, Any] | str | None = None,
    max_bounds: int = 60,
    threads: int = 0,
    first_index: int = 0,
    full_records: bool = False,
) -> SimulationStream:
    """The batch of ``simulate`` (the same arguments, the same records) as an iterator of its
    records, each given as its battle finishes and then forgotten: memory stays flat however
    many battles. ``.summary`` is set once the iteration ends::

        stream = dbcore.simulate_iter("II/56", "II/5a", battles=10**6, seed=1)
        for record in stream:
            ...
        print(stream.summary["wins"])
    """
    request = _request(
        _source(first, second, setup, armies), battles, seed, first_index, max_bounds, threads, full_records
    )
    # An unknown list or a bad set-up is refused here, not at the first record.
    _simulation_summary(request["source"], [])
    return SimulationStream(request)
