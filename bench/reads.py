"""Reads vs game length: a page of events, a turn, a round, the dice proof, the games list, verify.

    python bench/reads.py [--quick] [--lengths 300 3000 10000] [--runs R] [--listed G]

For each length L, a game of >= L events (``common.LongGame``: Chapter 1, server dice, default
decisions, random legal commands; with undo when Chapter 1 ends sooner) is stored in a fresh
SQLite data directory exactly as the API would have stored it (``Games.save`` in chunks, and the
snapshots of ``Games._saved``, every 100 events), and read through the real app
(``dicelog.service.http.app.create_app`` with the embedded worker off, Litestar's ``TestClient``: the HTTP
stack in process, no network):

- first page: ``GET /games/{id}/events?limit=10``;
- last page: ``GET /games/{id}/events?after=<L - 10>&limit=10``;
- a turn and a round in the middle of the game: ``GET /games/{id}/turns/{n}``, ``/rounds/{n}``;
- the dice proof: ``GET /games/{id}/dice`` (it lists every roll, so it grows with the game);
- cold first page: the first page as the first request of a freshly started app (nothing of the
  game in memory yet), once before the projections ran over the store (the audit index is built from
  the game's whole log) and once after (it starts from the audit index projection's stored index, as
  in a service whose worker is caught up);
- verify: ``POST /games/{id}/verify``, in events/s.

Each read is timed ``runs`` times after one warm-up (median reported); cold reads are one app
start each, 3 of them. ``GET /games?limit=50`` is timed with ``listed`` public games of about
300 events each (plus the long ones), warm and as the first request after a start.

Baselines measured in the same run: ``GET /games/{id}`` (a read that does not depend on the
length: the game's summary from the aggregate cache) for the reads, and a full replay of the same
game (``games.game(id)`` with no snapshot and no cache, as ``bench/replay.py``) for verify. The
figure that matters for the reads is the growth: the read at L events over the same read at the
shortest L (1.0: does not grow).

Targets: first page, last page and a turn at the longest game within 2x of the shortest
(warm); verify >= 20,000 events/s on the longest game.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGET_VERIFY_EVENTS_PER_S = 20_000
TARGET_GROWTH = 2.0
COLD_STARTS = 3


def _public(created: Any) -> Any:
    import msgspec

    return msgspec.structs.replace(created, visibility="public")


def build(length: int) -> tuple[common.LongGame, dict[str, Any]]:
    """A public game of at least ``length`` events (``common.LongGame.at_least``)."""
    original = common.game_created
    common.game_created = lambda *a, **k: _public(original(*a, **k))  # type: ignore[assignment]
    try:
        game, info, _ = common.LongGame.at_least(length)
    finally:
        common.game_created = original  # type: ignore[assignment]
    names = [type(r.payload).__name__ for r in game.records]
    chances = sum(n in ("DiceRolled", "CardsShuffled", "CardsDrawn") for n in names)
    info = {
        **info,
        "events": len(game.records),
        "turns": names.count("TurnStarted"),
        "rounds": names.count("RoundStarted"),
        "chances": chances,
    }
    return game, info


def settings(data_dir: Path) -> Any:
    from dicelog.service.ops.settings import Settings

    return Settings(
        data_dir=data_dir,
        snapshot_interval=100,
        embedded_worker=False,
        rate_limit_create="off",
        rate_limit_commands="off",
        rate_limit_expensive="off",  # verify runs many times per game
    )


def store(data_dir: Path, games_: list[common.LongGame]) -> None:
    from dicelog.service.app.games import Games

    s = settings(data_dir)
    app = Games(s.library_env("games"), snapshot_interval=s.snapshot_interval)
    for game in games_:
        game.store(app, snapshots=True)
    app.close()


def project(data_dir: Path) -> None:
    """Run the projections over everything stored, as the worker of a running service has done
    (the audit index projection among them: a cold read starts from its stored index)."""
    from litestar.testing import TestClient

    from dicelog.service.http.app import create_app

    with TestClient(create_app(settings(data_dir))) as client:
        client.app.state.runtime.follower.run_once()


def timed(client: Any, method: str, url: str, runs: int) -> dict[str, Any]:
    """Median (and the others) of ``runs`` requests after one warm-up; each must answer 2xx."""

    def once() -> int:
        t0 = time.perf_counter_ns()
        r = client.request(method, url)
        spent = time.perf_counter_ns() - t0
        assert r.status_code < 300, (url, r.status_code, r.text[:300])
        return spent

    once()
    return common.summarize_ms([once() for _ in range(runs)])


def cold(data_dir: Path, method: str, url: str) -> dict[str, Any]:
    """The request as the first one of a freshly started app, ``COLD_STARTS`` times."""
    from litestar.testing import TestClient

    from dicelog.service.http.app import create_app

    samples = []
    for _ in range(COLD_STARTS):
        with TestClient(create_app(settings(data_dir))) as client:
            t0 = time.perf_counter_ns()
            r = client.request(method, url)
            samples.append(time.perf_counter_ns() - t0)
            assert r.status_code < 300, (url, r.status_code, r.text[:300])
    return common.summarize_ms(samples)


def replay_speed(data_dir: Path, game: common.LongGame, runs: int) -> dict[str, Any]:
    """Full replay of the game from the store (no snapshots, no cache): the verify baseline."""
    from dicelog.service.app.games import Games

    s = settings(data_dir)
    env = {**s.library_env("games"), "AGGREGATE_CACHE_MAXSIZE": ""}
    games = Games(env, snapshot_interval=0)
    assert games.repository.cache is None and games.snapshots is None
    n = len(game.records)
    games.game(game.id)
    seconds = []
    for _ in range(runs):
        t0 = time.perf_counter()
        assert games.game(game.id).version == n
        seconds.append(time.perf_counter() - t0)
    games.close()
    median = statistics.median(seconds)
    return {"median_s": round(median, 4), "events_per_s": round(n / median)}


def measure_length(length: int, runs: int, verify_runs: int) -> dict[str, Any]:
    from litestar.testing import TestClient

    from dicelog.service.http.app import create_app

    game, info = build(length)
    n, turns, rounds = info["events"], info["turns"], info["rounds"]
    base = f"/games/{game.id}"
    out: dict[str, Any] = {"game": info}
    with tempfile.TemporaryDirectory(prefix="dicelog-bench-") as d:
        data_dir = Path(d)
        store(data_dir, [game])
        out["cold_first_page_unprojected"] = cold(data_dir, "GET", f"{base}/events?limit=10")
        project(data_dir)
        out["cold_first_page"] = cold(data_dir, "GET", f"{base}/events?limit=10")
        with TestClient(create_app(settings(data_dir))) as client:
            reads = {
                "summary (baseline)": ("GET", base),
                "first page": ("GET", f"{base}/events?limit=10"),
                "last page": ("GET", f"{base}/events?after={n - 10}&limit=10"),
                "a turn": ("GET", f"{base}/turns/{max(1, turns // 2)}"),
                "a round": ("GET", f"{base}/rounds/{max(1, rounds // 2)}"),
                "dice proof": ("GET", f"{base}/dice"),
            }
            out["reads"] = {name: timed(client, m, url, runs) for name, (m, url) in reads.items()}
            seconds = []
            for _ in range(verify_runs):
                t0 = time.perf_counter()
                r = client.post(f"{base}/verify")
                seconds.append(time.perf_counter() - t0)
                assert r.status_code == 200 and r.json()["verification"]["ok"], r.text[:500]
        median = statistics.median(seconds)
        out["verify"] = {
            "runs_s": [round(s, 4) for s in seconds],
            "median_s": round(median, 4),
            "events_per_s": round(n / median),
        }
        out["replay"] = replay_speed(data_dir, game, verify_runs)
    v = out["verify"]
    v["ratio_to_replay"] = common.ratio(v["events_per_s"], out["replay"]["events_per_s"])
    return out


def measure_list(lengths: list[int], listed: int, runs: int) -> dict[str, Any]:
    """``GET /games?limit=50`` over ``listed`` public games of each length, each followed by an
    unlisted game of the same length (stored in creation order, as the API would have)."""
    from litestar.testing import TestClient

    from dicelog.service.http.app import create_app

    out: dict[str, Any] = {"listed": listed, "lengths": {}}
    for length in lengths:
        built = []
        for i in range(listed):
            original = common.game_created
            common.game_created = lambda *a, _made=original, **k: _public(_made(*a, **k))  # type: ignore[assignment]
            try:
                built.append(common.LongGame(length, undo=True, rng_seed=i))
            finally:
                common.game_created = original  # type: ignore[assignment]
            built.append(common.LongGame(length, undo=True, rng_seed=10_000 + i))  # unlisted
        with tempfile.TemporaryDirectory(prefix="dicelog-bench-") as d:
            data_dir = Path(d)
            store(data_dir, built)
            r = {
                "events_per_game": round(statistics.fmean(len(g.records) for g in built)),
                "cold": cold(data_dir, "GET", "/games?limit=50"),
            }
            with TestClient(create_app(settings(data_dir))) as client:
                r["warm"] = timed(client, "GET", "/games?limit=50", runs)
                r["one game (baseline)"] = timed(client, "GET", f"/games/{built[0].id}", runs)
        out["lengths"][str(length)] = r
        print(
            f"-- GET /games?limit=50, {listed} public and {listed} unlisted games of"
            f" ~{r['events_per_game']:,} events: warm median {r['warm']['median_ms']:.2f} ms,"
            f" cold {r['cold']['median_ms']:.2f} ms"
            f" (GET /games/{{id}}: {r['one game (baseline)']['median_ms']:.2f} ms)",
            flush=True,
        )
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="300 and 1,000 events, 5 runs (smoke run)")
    parser.add_argument("--lengths", type=int, nargs="+", default=None)
    parser.add_argument("--runs", type=int, default=None)
    parser.add_argument("--listed", type=int, default=None, help="public games listed by GET /games")
    args = parser.parse_args(argv)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the test client logs every request at INFO
    lengths = sorted(args.lengths or ([300, 1_000] if args.quick else [300, 3_000, 10_000]))
    runs = args.runs or (5 if args.quick else 21)
    verify_runs = 3 if args.quick else 5
    listed = args.listed or (20 if args.quick else 50)
    common.header(f"reads: pages, turns, dice and verify vs game length ({', '.join(map(str, lengths))})")
    by_length: dict[int, dict[str, Any]] = {}
    for length in lengths:
        by_length[length] = r = measure_length(length, runs, verify_runs)
        g = r["game"]
        print(
            f"-- {g['events']:,} events ({g['turns']} turns, {g['rounds']} rounds,"
            f" {g['chances']} rolls/shuffles/draws, {g.get('undos', 0)} undos)",
            flush=True,
        )
        for name, s in r["reads"].items():
            print(f"   {name:<20} median {s['median_ms']:8.2f} ms  p90 {s['p90_ms']:8.2f} ms")
        print(
            f"   {'cold first page':<20} median {r['cold_first_page']['median_ms']:8.2f} ms"
            "  (first request of a fresh app; the projections caught up)"
        )
        print(
            f"   {'  unprojected':<20} median {r['cold_first_page_unprojected']['median_ms']:8.2f} ms"
            "  (the same before the projections ran: the index built from the whole log)"
        )
        v = r["verify"]
        print(
            f"   verify               median {v['median_s'] * 1e3:8.1f} ms  {v['events_per_s']:>9,}/s"
            f"  (replay {r['replay']['events_per_s']:,} events/s, x{v['ratio_to_replay']})",
            flush=True,
        )
    shortest, longest = by_length[lengths[0]], by_length[lengths[-1]]
    growth = {
        name: common.ratio(longest["reads"][name]["median_ms"], shortest["reads"][name]["median_ms"])
        for name in longest["reads"]
    }
    for key, name in (
        ("cold_first_page", "cold first page"),
        ("cold_first_page_unprojected", "  unprojected"),
    ):
        growth[name] = common.ratio(longest[key]["median_ms"], shortest[key]["median_ms"])
    print(f"growth {lengths[-1]:,} / {lengths[0]:,} events (median latency ratio; 1.0 = does not grow):")
    for name, value in growth.items():
        print(f"   {name:<20} x{value}")
    list_lengths = [300, 1_000] if args.quick else [300, 3_000]
    games_list = measure_list(list_lengths, listed, runs)
    short, long = (games_list["lengths"][str(n)] for n in list_lengths)
    for kind in ("warm", "cold"):
        growth[f"games list, {kind}"] = common.ratio(long[kind]["median_ms"], short[kind]["median_ms"])
        print(
            f"   games list, {kind:<8}  x{growth[f'games list, {kind}']}"
            f" ({list_lengths[-1]:,} / {list_lengths[0]:,} events per game)"
        )
    reads_ok = all(growth[name] <= TARGET_GROWTH for name in ("first page", "last page", "a turn"))
    speed = longest["verify"]["events_per_s"]
    verify_ok = speed >= TARGET_VERIFY_EVENTS_PER_S
    print(
        f"target first/last page and a turn within x{TARGET_GROWTH} of the shortest game:"
        f" {common.verdict(reads_ok)}"
    )
    print(
        f"target verify >= {TARGET_VERIFY_EVENTS_PER_S:,} events/s ({longest['game']['events']:,} events):"
        f" {common.verdict(verify_ok)} ({speed:,}/s)"
    )
    result = {
        "quick": args.quick,
        "runs": runs,
        "lengths": {str(k): v for k, v in by_length.items()},
        "growth": growth,
        "games_list": games_list,
        "targets": {
            "growth_max": {"limit": TARGET_GROWTH, "met": reads_ok},
            "verify_events_per_s_min": {
                "limit": TARGET_VERIFY_EVENTS_PER_S,
                "value": speed,
                "met": verify_ok,
            },
        },
    }
    print(f"written {common.write_result('reads', result)}")
    return result


if __name__ == "__main__":
    main()
