"""Memory: RSS of the API process after creating 1,000 games over HTTP, vs right after start-up.

    /work/venv/bin/python bench/memory.py [--quick] [--games N]

The API runs as the real entry point, ``dicelog serve`` (``python -m dicelog.service.cli.main serve``;
uvicorn,
SQLite in a temp ``DICELOG_DATA_DIR``, embedded worker on, ``DICELOG_LOG_LEVEL=warning``), in its own process.
RSS is ``VmRSS`` from ``/proc/<pid>/status`` (``VmHWM``, the peak, is reported too):

1. start-up (baseline): once ``/health`` answers and the process has idled 1 s;
2. after N games created with ``POST /games`` (Chapter 1, server dice; 8 clients at a time) and
   the embedded projections caught up (``/ready``);
3. (extra) after one ``Move`` in each of those games, which loads every game into the
   application's aggregate cache (1,000 entries): the memory of N games in play.

Target: RSS <= 200 MB after step 2.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGET_RSS_MB = 200.0
CONCURRENCY = 8


def _serve_command(port: int) -> list[str]:
    """``dicelog serve`` (the console script's ``dicelog.service.cli.main:main``), run as ``python -m
    dicelog.service.cli.main`` so that it imports the code of the tree this benchmark lives in."""
    return [
        common.PYTHON,
        "-m",
        "dicelog.service.cli.main",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]


def rss_mb(pid: int) -> dict[str, float]:
    status = common.proc_status(pid)
    return {
        "rss_mb": round(status["VmRSS"] / 1024, 1),
        "hwm_mb": round(status["VmHWM"] / 1024, 1),
        "threads": status["Threads"],
    }


def wait_ready(url: str, limit_s: float = 120.0) -> float:
    """Seconds until every projection has caught up (``/ready`` all ok)."""
    import httpx

    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit_s:
        checks = httpx.get(url + "/ready", timeout=30).json()["checks"]
        if all(v == "ok" for v in checks.values()):
            return round(time.perf_counter() - t0, 2)
        time.sleep(0.1)
    return float("nan")


async def create_games(url: str, n: int) -> list[dict[str, Any]]:
    import httpx

    made: list[dict[str, Any]] = []
    queue = list(range(n))

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            while queue:
                queue.pop()
                r = await http.post(
                    "/games",
                    json={
                        "setup": {"chapter": "chapter-1", "mice": list(common.MICE)},
                        "seats": list(common.SEATS),
                        "dice_mode": "server",
                    },
                )
                assert r.status_code == 201, r.text
                body = r.json()
                made.append(
                    {
                        "id": body["game"]["id"],
                        "turn": body["game"]["turn"],
                        "tokens": {t["seat"]: t["token"] for t in body["tokens"]},
                    }
                )

    await asyncio.gather(*(client() for _ in range(CONCURRENCY)))
    return made


async def move_once(url: str, games: list[dict[str, Any]]) -> int:
    import httpx

    queue = list(games)
    accepted = 0

    async def client() -> None:
        nonlocal accepted
        async with httpx.AsyncClient(base_url=url, timeout=60) as http:
            while queue:
                g = queue.pop()
                mouse = g["turn"]
                if mouse is None:
                    continue
                token = g["tokens"][common.SEAT_OF[mouse]]
                r = await http.post(
                    f"/games/{g['id']}/commands",
                    json={"command": {"type": "Move", "mouse": mouse}},
                    headers={"Authorization": f"Bearer {token}"},
                )
                accepted += r.status_code == 201

    await asyncio.gather(*(client() for _ in range(CONCURRENCY)))
    return accepted


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="50 games (smoke run)")
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args(argv)
    n = args.games or (50 if args.quick else 1000)
    common.header(f"memory: RSS of `dicelog serve` after creating {n:,} games over HTTP")
    port = common.free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="dicelog-bench-memory-") as d:
        env = {
            **common.clean_environ(),
            "PYTHONPATH": str(common.ROOT),
            "DICELOG_DATA_DIR": d,
            "DICELOG_STORE": "sqlite",
            "DICELOG_LOG_LEVEL": "warning",
            # it creates games far faster than a client may (the default quota: 429 after 30)
            "DICELOG_RATE_LIMIT_CREATE": "off",
            "DICELOG_RATE_LIMIT_COMMANDS": "off",
            "DICELOG_RATE_LIMIT_EXPENSIVE": "off",
        }
        with open(Path(d) / "server.log", "wb") as log:
            proc = subprocess.Popen(
                _serve_command(port), cwd=common.ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
            try:
                common.wait_http(url + "/health", proc=proc)
                time.sleep(1.0)
                startup = rss_mb(proc.pid)
                t0 = time.perf_counter()
                games = asyncio.run(create_games(url, n))
                create_s = time.perf_counter() - t0
                catch_up_s = wait_ready(url)
                created = rss_mb(proc.pid)
                t0 = time.perf_counter()
                moved = asyncio.run(move_once(url, games))
                move_s = time.perf_counter() - t0
                wait_ready(url)
                in_play = rss_mb(proc.pid)
                files = {
                    p.name: round(p.stat().st_size / 2**20, 2) for p in sorted(Path(d).glob("*.sqlite*"))
                }
            finally:
                common.stop(proc)
    delta = round(created["rss_mb"] - startup["rss_mb"], 1)
    ok = created["rss_mb"] <= TARGET_RSS_MB
    per_game_kb = round(delta * 1024 / n, 1)
    print(f"start-up (baseline)            RSS {startup['rss_mb']:7.1f} MB")
    print(
        f"after {n:>5,} games created      RSS {created['rss_mb']:7.1f} MB  (+{delta} MB, {per_game_kb} "
        "kB/game;"
        f" peak {created['hwm_mb']} MB; created in {create_s:.1f} s = {n / create_s:.0f} games/s,"
        f" projections caught up {catch_up_s} s later)"
    )
    print(
        f"after one Move in each game    RSS {in_play['rss_mb']:7.1f} MB  "
        f"(+{round(in_play['rss_mb'] - startup['rss_mb'], 1)} MB;"
        f" {moved} accepted in {move_s:.1f} s; peak {in_play['hwm_mb']} MB)"
    )
    print(f"SQLite files (MB): {files}")
    print(f"ratio to start-up: {common.ratio(created['rss_mb'], startup['rss_mb'])}")
    print(f"target RSS <= {TARGET_RSS_MB:.0f} MB after {n:,} games: {common.verdict(ok)}")
    result = {
        "quick": args.quick,
        "games": n,
        "startup": startup,
        "after_create": {**created, "create_s": round(create_s, 2), "projections_catch_up_s": catch_up_s},
        "after_one_move_each": {**in_play, "moves_accepted": moved, "move_s": round(move_s, 2)},
        "delta_mb": delta,
        "per_game_kb": per_game_kb,
        "sqlite_files_mb": files,
        "ratio_to_startup": common.ratio(created["rss_mb"], startup["rss_mb"]),
        "target": {"rss_mb_max": TARGET_RSS_MB, "value": created["rss_mb"], "met": ok},
    }
    print(f"written {common.write_result('memory', result)}")
    return result


if __name__ == "__main__":
    main()
