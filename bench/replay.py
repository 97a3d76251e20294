"""Replay speed: events/s of a full replay of a 10,000-event game from SQLite, no snapshots.

    /work/venv/bin/python bench/replay.py [--quick] [--events N] [--runs R]

dicelog: a game of >= N events played with
``dicelog.domain.core.game.run_command_and_auto_answers_records`` (server dice, default
decisions, random legal commands; see ``common.LongGame``: a Chapter 1 game if it lasts that
long, else Chapter 1 with undo whenever every legal command would end it; a whole plain Chapter 1
game is then replayed too, for comparison), saved with
``Games.save`` into a SQLite file; ``Games(env, snapshot_interval=0)`` with the aggregate cache
disabled (``AGGREGATE_CACHE_MAXSIZE=""``: the library builds no cache, so every
``games.game(id)`` reads and folds the whole log). Each run is timed separately; the median is
reported.

Baseline: the library's own replay of N events of a minimal ``eventsourcing.domain.Aggregate``
(one ``@event`` method, one int field) with its default JSON transcoder in SQLite, via
``app.repository.get(id)`` (the plain ``Application`` has no cache).

Breakdown of the dicelog replay (same run, median of R): the bare SQL query and fetch with
``sqlite3`` (same file, same statement, no objects built), the library's select
(``recorder.select_events``: the query plus one ``UUID`` and one ``StoredEvent`` per row),
decoding (``mapper.to_domain_event``: msgspec to ``Recorded``), and the pure in-memory fold
(``dicelog.domain.core.game.fold`` over decoded records).

Target: >= 100,000 events/s for the dicelog full replay.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGET_EVENTS_PER_S = 100_000


def timed_runs(fn: Any, runs: int) -> list[float]:
    """Seconds per call of ``fn`` for ``runs`` calls (after one untimed warm-up call)."""
    fn()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - t0) / 1e9)
    return out


def baseline(events: int, runs: int, tmp: Path) -> dict[str, Any]:
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event

    class Counter(Aggregate):
        def __init__(self) -> None:
            self.count = 0

        @event("Incremented")
        def increment(self, by: int) -> None:
            self.count += by

    app: Application[Any] = Application(common.sqlite_env(tmp / "baseline.sqlite"))
    assert app.repository.cache is None
    counter = Counter()
    for i in range(events - 1):  # the Created event counts as one
        counter.increment(by=1)
        if i % 1000 == 999:
            app.save(counter)
    app.save(counter)
    bytes_per_event = statistics.fmean(len(s.state) for s in app.recorder.select_events(counter.id))

    def replay() -> None:
        got = app.repository.get(counter.id)
        assert got.version == events

    seconds = timed_runs(replay, runs)
    app.close()
    median = statistics.median(seconds)
    return {
        "events": events,
        "runs_s": [round(s, 5) for s in seconds],
        "median_s": round(median, 5),
        "events_per_s": round(events / median),
        "stored_bytes_per_event": round(bytes_per_event, 1),
    }


def replay_game(game: common.LongGame, runs: int, path: Path, *, breakdown: bool) -> dict[str, Any]:
    """Store ``game`` in a fresh SQLite file and time full replays (and, with ``breakdown``,
    their parts)."""
    from dicelog.domain.core.game import fold
    from dicelog.service.app.games import Games

    n = len(game.records)
    games = Games(common.sqlite_env(path, AGGREGATE_CACHE_MAXSIZE=""), snapshot_interval=0)
    assert games.repository.cache is None and games.snapshots is None, "cache or snapshots still on"
    t0 = time.perf_counter()
    game.store(games, snapshots=False)
    stored_s = time.perf_counter() - t0
    stored = list(games.recorder.select_events(game.id))
    assert len(stored) == n
    bytes_per_event = statistics.fmean(len(s.state) for s in stored)

    def replay() -> None:
        got = games.game(game.id)
        assert got.version == n and got.state == game.final.state

    out: dict[str, Any] = {
        "events": n,
        "undos": game.undos,
        "commands": game.commands,
        "store_s": round(stored_s, 3),
        "stored_bytes_per_event": round(bytes_per_event, 1),
    }
    full = timed_runs(replay, runs)
    median = statistics.median(full)
    out.update(runs_s=[round(s, 5) for s in full], median_s=round(median, 5), events_per_s=round(n / median))
    if breakdown:
        raw = sqlite3.connect(path)

        def sql_fetch() -> None:
            rows = raw.execute(
                "SELECT * FROM stored_events WHERE originator_id=? ORDER BY originator_version ASC",
                (game.id.hex,),
            ).fetchall()
            assert len(rows) == n

        def select() -> None:
            games.recorder.select_events(game.id)

        decoded = [games.mapper.to_domain_event(s) for s in stored]

        def decode() -> None:
            to = games.mapper.to_domain_event
            for s in stored:
                to(s)

        def fold_only() -> None:
            fold(None, decoded)

        parts = {
            name: timed_runs(fn, runs)
            for name, fn in (
                ("sql_fetch_raw", sql_fetch),
                ("select", select),
                ("decode", decode),
                ("fold", fold_only),
            )
        }
        raw.close()
        out["breakdown"] = {
            name: {
                "median_s": round(statistics.median(s), 5),
                "events_per_s": round(n / statistics.median(s)),
            }
            for name, s in parts.items()
        }
    games.close()
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="1,000 events, 3 runs (smoke run)")
    parser.add_argument("--events", type=int, default=None)
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args(argv)
    events = args.events or (1_000 if args.quick else 10_000)
    runs = args.runs or (3 if args.quick else 15)
    common.header(f"replay: full replay of a {events:,}-event game (SQLite, no snapshots, no cache)")
    t0 = time.perf_counter()
    game, built, chapter_1 = common.LongGame.at_least(events)
    built["build_s"] = round(time.perf_counter() - t0, 3)
    if built.get("note"):
        print(
            f"note: {built['note']} ({built['undos']} undos; the plain Chapter 1 game lasted"
            f" {built['plain_chapter_1_game_events']:,} events: {built['plain_stopped']})"
        )
    with tempfile.TemporaryDirectory(prefix="dicelog-bench-") as d:
        base = baseline(events, runs, Path(d))
        dl = replay_game(game, runs, Path(d) / "games.sqlite", breakdown=True)
        real = None
        if chapter_1 is not game:
            real = replay_game(chapter_1, runs, Path(d) / "chapter-1.sqlite", breakdown=False)
    speed = dl["events_per_s"]
    ok = speed >= TARGET_EVENTS_PER_S
    print(
        f"baseline (library Aggregate, JSON)  median {base['median_s'] * 1e3:8.1f} ms  "
        f"{base['events_per_s']:>9,} events/s"
        f"  ({base['stored_bytes_per_event']:.0f} B/event)"
    )
    print(
        f"dicelog  games.game(id)             median {dl['median_s'] * 1e3:8.1f} ms  {speed:>9,} events/s"
        f"  ({dl['stored_bytes_per_event']:.0f} B/event, {dl['events']:,} events)"
    )
    for name, part in dl["breakdown"].items():
        print(
            f"  part: {name:<28}      median {part['median_s'] * 1e3:8.1f} ms  {part['events_per_s']:>9,} "
            "events/s"
        )
    if real is not None:
        print(
            f"dicelog  a plain Chapter 1 game      median {real['median_s'] * 1e3:8.1f} ms  "
            f"{real['events_per_s']:>9,} events/s"
            f"  ({real['stored_bytes_per_event']:.0f} B/event, {real['events']:,} events)"
        )
    print(f"ratio dicelog / baseline (events/s): {common.ratio(speed, base['events_per_s'])}")
    print(f"target >= {TARGET_EVENTS_PER_S:,} events/s: {common.verdict(ok)}")
    result = {
        "quick": args.quick,
        "runs": runs,
        "baseline": base,
        "game": built,
        "dicelog": dl,
        "dicelog_chapter_1_game": real,
        "ratio_to_baseline": common.ratio(speed, base["events_per_s"]),
        "target": {"events_per_s_min": TARGET_EVENTS_PER_S, "value": speed, "met": ok},
    }
    print(f"written {common.write_result('replay', result)}")
    return result


if __name__ == "__main__":
    main()
