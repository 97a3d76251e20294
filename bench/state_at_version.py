"""State at an arbitrary version: latency of ``games.game(id, version=N)`` for random N.

    /work/venv/bin/python bench/state_at_version.py [--quick] [--events N] [--samples S]

A game of >= 10,000 events (``dicelog.domain.core.game.run_command_and_auto_answers_records``, server dice,
default decisions, random
legal commands; ``common.LongGame``: Chapter 1 if it lasts that long, else Chapter 1 with undo
whenever every legal command would end it) is stored twice in SQLite, in two files:

- with snapshots: ``Games(env, snapshot_interval=100)``; the events are saved in chunks with
  ``Games.save``, then every command's events go through the app's own snapshot rule
  (``Games._saved``): a snapshot of the state after a command whose events cross a multiple of
  100, exactly what the API would have stored command by command;
- baseline, without snapshots: ``Games(env, snapshot_interval=0)``.

``games.game(id, version=N)`` always rebuilds (the library's repository skips its cache when a
version is given): the newest snapshot at or below N, then the events after it up to N. The
same 200 random N (seeded, uniform over 1..events) are asked of both stores; every answer is
checked to be at version N. Median and p99 are reported.

Target: median <= 20 ms with snapshots.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGET_MEDIAN_MS = 20.0


def measure(games: Any, game_id: Any, versions: list[int]) -> list[int]:
    for v in versions[:5]:  # warm-up: imports, statement caches
        games.game(game_id, version=v)
    out = []
    for v in versions:
        t0 = time.perf_counter_ns()
        got = games.game(game_id, version=v)
        out.append(time.perf_counter_ns() - t0)
        assert got.version == v, (got.version, v)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from dicelog.service.app.games import Games

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="2,000 events, 30 versions (smoke run)")
    parser.add_argument("--events", type=int, default=None)
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--interval", type=int, default=100)
    args = parser.parse_args(argv)
    events = args.events or (2_000 if args.quick else 10_000)
    samples = args.samples or (30 if args.quick else 200)
    common.header(
        f"state_at_version: games.game(id, version=N), {samples} random N of a {events:,}-event game"
    )
    game, built, _ = common.LongGame.at_least(events)
    if built.get("note"):
        print(
            f"note: {built['note']} ({built['undos']} undos; the plain Chapter 1 game lasted"
            f" {built['plain_chapter_1_game_events']:,} events)"
        )
    n = len(game.records)
    rng = random.Random(2)
    versions = [rng.randint(1, n) for _ in range(samples)]
    with tempfile.TemporaryDirectory(prefix="dicelog-bench-") as d:
        snap = Games(
            common.sqlite_env(Path(d) / "snap.sqlite", AGGREGATE_CACHE_MAXSIZE=""),
            snapshot_interval=args.interval,
        )
        assert snap.snapshots is not None
        game.store(snap, snapshots=True)
        stored_snapshots = [s.originator_version for s in snap.snapshots.get(game.id)]
        with_snap = measure(snap, game.id, versions)
        snap.close()
        plain = Games(
            common.sqlite_env(Path(d) / "plain.sqlite", AGGREGATE_CACHE_MAXSIZE=""), snapshot_interval=0
        )
        assert plain.snapshots is None
        game.store(plain, snapshots=False)
        without = measure(plain, game.id, versions)
        plain.close()
    s, b = common.summarize_ms(with_snap), common.summarize_ms(without)
    ok = s["median_ms"] <= TARGET_MEDIAN_MS
    gaps = [b2 - a for a, b2 in itertools.pairwise(stored_snapshots)]
    print(
        f"{len(stored_snapshots)} snapshots stored (versions {stored_snapshots[:3]} ... "
        f"{stored_snapshots[-1:]},"
        f" largest gap {max(gaps) if gaps else '-'} events)"
    )
    print(
        f"baseline, no snapshots      median {b['median_ms']:8.2f} ms  p99 {b['p99_ms']:8.2f} ms  max "
        f"{b['max_ms']:8.2f} ms"
    )
    print(
        f"snapshots every {args.interval:<4}       median {s['median_ms']:8.2f} ms  p99 {s['p99_ms']:8.2f} "
        f"ms  max {s['max_ms']:8.2f} ms"
    )
    print(
        f"ratio snapshots / baseline (median): {common.ratio(s['median_ms'], b['median_ms'])}"
        f"  (speed-up x{common.ratio(b['median_ms'], s['median_ms'])})"
    )
    print(f"target median <= {TARGET_MEDIAN_MS} ms: {common.verdict(ok)}")
    result = {
        "quick": args.quick,
        "events": n,
        "game": built,
        "samples": samples,
        "snapshot_interval": args.interval,
        "snapshots_stored": len(stored_snapshots),
        "largest_snapshot_gap": max(gaps) if gaps else None,
        "with_snapshots": s,
        "baseline_no_snapshots": b,
        "ratio_to_baseline_median": common.ratio(s["median_ms"], b["median_ms"]),
        "target": {"median_ms_max": TARGET_MEDIAN_MS, "value": s["median_ms"], "met": ok},
    }
    print(f"written {common.write_result('state_at_version', result)}")
    return result


if __name__ == "__main__":
    main()
