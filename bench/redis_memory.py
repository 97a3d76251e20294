"""Redis memory per 1,000 finished games: the streams kept forever (before) and after the ended games'
retention (``DICELOG_ENDED_STREAM_RETENTION``, ``service/worker/publisher.py``).

    python bench/redis_memory.py [--quick] [--games N] [--distinct K]

A private ``redis-server`` (no persistence) on a free port. K distinct Chapter 1 games are played to
their end with the core (``common.LongGame``: server dice, default decisions, random legal commands;
each ends in victory or defeat, ``GameEnded``); N finished games are then published, each a copy of
one of the K under a game id of its own, with the app's own publisher
(``RedisPublisher.process_batch``, default trimming: ``dicelog:games`` capped at 1,000,000 entries and
24 h, neither reached here), in batches of 500 events as the worker hands them over. Redis's
``used_memory`` (``INFO memory``) is read after a ``FLUSHALL``, then:

1. **kept** (ended retention ``off``, what every release before it did): after the N games;
   ``MEMORY USAGE`` of ``dicelog:games`` gives the global stream's share;
2. **expired** (ended retention 1 s, the default is 24 h): after the N games, once their streams have
   expired (2 s later; ``SCAN`` visits every key, so an expired one is removed then at the latest).
   What is left is ``dicelog:games``, bounded by its own cap and age.

Memory grows linearly with the games (one stream set each), so the figures are given per 1,000 games
(N is 100 by default, 20 with ``--quick``, to keep the machine's memory free: 1,000 real games take
over a gigabyte while kept).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from uuid import uuid4

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

BATCH = 500


class _NoCheckpoint:
    """The publisher's tracking view, unused here (nothing is followed from a store)."""

    def insert_tracking(self, tracking: Any) -> None:
        pass


def _redis() -> tuple[subprocess.Popen[bytes], Any]:
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not on PATH")
    port = common.free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    client = redis.Redis(port=port, socket_timeout=30)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            return proc, client
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _publish(client: Any, games: list[common.LongGame], n: int, ended: int) -> int:
    """Publish ``n`` finished games (copies of ``games`` under new ids); returns the events written."""
    import msgspec
    from eventsourcing.persistence import Tracking

    from dicelog.service.worker.publisher import RedisPublisher, Trimming

    finals = {}
    publisher = RedisPublisher(
        client, _NoCheckpoint(), trimming=Trimming(ended=ended), load_game=lambda game_id: finals[game_id]
    )
    notification, events = 0, 0
    for i in range(n):
        source = games[i % len(games)]
        game_id = uuid4()
        finals[game_id] = source.final
        items = []
        for record in source.records:
            notification += 1
            items.append(
                (msgspec.structs.replace(record, originator_id=game_id), Tracking("games", notification))
            )
        for start in range(0, len(items), BATCH):
            publisher.process_batch(items[start : start + BATCH])
        events += len(items)
    return events


def _used(client: Any) -> int:
    return int(client.info("memory")["used_memory"])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None, help="finished games published (default 100)")
    parser.add_argument("--distinct", type=int, default=5, help="distinct games played to their end")
    args = parser.parse_args(argv)
    n = args.games or (20 if args.quick else 100)
    common.header(f"redis_memory: Redis memory of {n:,} finished games, kept and after their retention")
    t0 = time.perf_counter()
    games = [common.LongGame(10**7, rng_seed=seed) for seed in range(1, args.distinct + 1)]
    for g in games:
        assert g.final.result is not None, f"game {g.id} did not end: {g.stopped}"
    build_s = time.perf_counter() - t0
    proc, client = _redis()
    try:
        client.flushall()
        empty = _used(client)
        t0 = time.perf_counter()
        events = _publish(client, games, n, ended=0)
        publish_s = time.perf_counter() - t0
        kept = _used(client) - empty
        global_kept = int(client.memory_usage("dicelog:games") or 0)
        streams_kept = client.dbsize()

        client.flushall()
        empty = _used(client)
        _publish(client, games, n, ended=1)
        time.sleep(2.0)
        for _ in client.scan_iter(count=1000):  # an expired key met by SCAN is removed
            pass
        expired = _used(client) - empty
        global_left = int(client.memory_usage("dicelog:games") or 0)
        streams_left = client.dbsize()
    finally:
        proc.terminate()
        proc.wait(timeout=10)

    def per_1000(value: int) -> float:
        return round(value / n * 1000 / 2**20, 1)

    per_game_events = round(events / n)
    bytes_per_entry = round(global_kept / events)
    print(
        f"{n:,} finished games ({args.distinct} distinct, {per_game_events:,} events each on average; "
        f"played in {build_s:.1f} s, published in {publish_s:.1f} s = {events / publish_s:,.0f} events/s)"
    )
    print(
        f"kept (no ended retention):    {per_1000(kept):8.1f} MB per 1,000 finished games "
        f"({streams_kept:,} streams; dicelog:games {per_1000(global_kept)} MB of it)"
    )
    print(
        f"after the ended retention:    {per_1000(expired):8.1f} MB per 1,000 finished games "
        f"({streams_left:,} stream left: dicelog:games, {per_1000(global_left)} MB, bounded by its own "
        f"cap: {bytes_per_entry:,} bytes an entry, so {bytes_per_entry * 100_000 / 2**20:,.0f} MB at the "
        "100,000 entries of k8s/configmap.yaml, "
        f"{bytes_per_entry * 1_000_000 / 2**20:,.0f} MB at the service's default 1,000,000)"
    )
    result = {
        "quick": args.quick,
        "games": n,
        "distinct_games": args.distinct,
        "events_per_game": per_game_events,
        "publish_events_per_s": round(events / publish_s),
        "kept_mb_per_1000_games": per_1000(kept),
        "kept_global_stream_mb_per_1000_games": per_1000(global_kept),
        "after_retention_mb_per_1000_games": per_1000(expired),
        "streams_kept": streams_kept,
        "streams_after_retention": streams_left,
        "global_stream_bytes_per_entry": bytes_per_entry,
    }
    print(f"written {common.write_result('redis_memory', result)}")
    return result


if __name__ == "__main__":
    main()
