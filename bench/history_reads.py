"""What a step of the history page costs: ``GET /games/{id}/state?version=N`` against the reads no quota
counts, and against the operations the ``expensive`` quota was made for.

    python bench/history_reads.py [--quick] [--lengths 1000 10000] [--samples S] [--ruleset vast]

For each length L, a game of >= L events (``common.LongGame``, as ``bench/reads.py``: Chapter 1, server
dice, random legal commands, with undo when the chapter ends sooner) is stored in a fresh SQLite data
directory as the API stores it (snapshots every 100 events) and read through the real app (Litestar's
``TestClient``, quotas off, embedded worker off, the projections run once). Timed, median and p99 of
``samples`` requests after a warm-up:

- ``state?version=N`` for seeded random N in 1..L, each N asked once (the history slider: the newest
  snapshot at or below N, then at most 99 events folded, through the reader's lens);
- ``state`` (the latest, from the aggregate cache), ``board`` (a projection's document) and the last
  page of events: reads no quota counts;
- ``POST /verify`` (the whole log re-checked) and ``GET /export``: what ``expensive`` was made for.

With ``--ruleset vast``: a five-role Vast game of server bot seats (``vast_game``; it may end before L),
whose state is larger and whose reads go through a lens with secrets.

The figure that decides: the replay's median over the latest state's, and over verify's.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from reads import build, project, settings, store, timed


def replays(client: Any, base: str, versions: list[int]) -> dict[str, Any]:
    for v in versions[:5]:
        client.get(f"{base}/state", params={"version": v})
    spent = []
    for v in versions:
        t0 = time.perf_counter_ns()
        r = client.get(f"{base}/state", params={"version": v})
        spent.append(time.perf_counter_ns() - t0)
        assert r.status_code == 200 and r.json()["version"] == v, (v, r.status_code)
    return common.summarize_ms(spent)


def vast_game(length: int) -> tuple[Any, dict[str, Any]]:
    """A public five-role Vast game of at least ``length`` events (or until it ends), every seat a server
    bot (``dicelog.service.app.seat_bots.next_bot_command``), server dice, default decisions; in the
    shape of ``common.LongGame`` so that it is stored the same way."""
    from datetime import UTC, datetime
    from uuid import uuid4

    import msgspec

    from dicelog.domain.core.dice import commitment
    from dicelog.domain.core.events import GameCreated, Seat
    from dicelog.domain.core.game import create, fold, run_command_and_auto_answers_records
    from dicelog.domain.core.registry import rules_revision
    from dicelog.domain.core.visibility import Lens
    from dicelog.service.app.seat_bots import next_bot_command

    roles = ("knight", "goblins", "dragon", "cave", "thief")
    game_: Any = object.__new__(common.LongGame)
    game_.seed, game_.id = bytes(range(32)), uuid4()
    created = GameCreated(
        ruleset="vast",
        setup=msgspec.Raw(msgspec.json.encode({"roles": list(roles)})),
        seats=tuple(Seat(name=r, controls=(r,), bot=True) for r in roles),
        dice_mode="server",
        decision_policy="default",
        dice_commitment=commitment(game_.seed),
        rules_revision=rules_revision("vast"),
        visibility="public",
    )
    at = datetime.now(UTC)
    first = create(game_.id, created, at=at, seed=game_.seed, command_id=f"create-{game_.id}")
    game_.batches, game_.records, game = [(None, first)], list(first), fold(None, first)
    for i in range(20_000):
        if game.result is not None or len(game_.records) >= length:
            break
        move = next_bot_command(game, lambda g, viewer: Lens(g.ruleset, viewer))
        if move is None:
            break
        seat, command = move
        records = run_command_and_auto_answers_records(
            game, command, seat=seat, command_id=f"c{i}", at=at, seed=game_.seed
        )
        game_.batches.append((game, list(records)))
        game_.records.extend(records)
        game = fold(game, records)
    game_.final = game
    return game_, {"ruleset": "vast", "events": len(game_.records), "ended": game.result}


def measure(length: int, samples: int, ruleset: str = "mice-and-mystics") -> dict[str, Any]:
    from litestar.testing import TestClient

    from dicelog.service.http.app import create_app

    game, info = build(length) if ruleset == "mice-and-mystics" else vast_game(length)
    n = info["events"]
    base = f"/games/{game.id}"
    versions = random.Random(1).sample(range(1, n + 1), min(samples, n))
    out: dict[str, Any] = {"game": info}
    with tempfile.TemporaryDirectory(prefix="dicelog-bench-") as d:
        data_dir = Path(d)
        store(data_dir, [game])
        project(data_dir)
        with TestClient(create_app(settings(data_dir))) as client:
            out["state?version=N"] = replays(client, base, versions)
            for name, (method, url) in {
                "state (latest)": ("GET", f"{base}/state"),
                "board": ("GET", f"{base}/board"),
                "last page of events": ("GET", f"{base}/events?after={n - 10}&limit=10"),
                "verify": ("POST", f"{base}/verify"),
                "export": ("GET", f"{base}/export"),
            }.items():
                out[name] = timed(
                    client, method, url, max(5, samples // 10) if name in ("verify", "export") else samples
                )
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one game of 1,000 events, 30 samples")
    parser.add_argument("--lengths", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--ruleset", choices=["mice-and-mystics", "vast"], default="mice-and-mystics")
    args = parser.parse_args(argv)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    lengths, samples = ([1_000], 30) if args.quick else (args.lengths, args.samples)
    results = {}
    for length in lengths:
        results[str(length)] = r = measure(length, samples, args.ruleset)
        print(f"L={r['game']['events']}")
        for k, v in r.items():
            if k != "game":
                print(f"  {k:22s} median {v['median_ms']:8.2f} ms  p99 {v['p99_ms']:8.2f} ms")
    return results


if __name__ == "__main__":
    main()
