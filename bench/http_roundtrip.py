"""Command round trip over HTTP: latency of ``POST /games/{id}/commands`` and throughput.

    /work/venv/bin/python bench/http_roundtrip.py [--quick] [--commands N] [--per-client M] [--repeats R]

Servers (each its own process, same uvicorn options: 127.0.0.1, a free port, one worker, the
auto-selected uvloop/httptools, ``--no-access-log --log-level warning``):

- dicelog: ``uvicorn --factory service.app:create_app`` with ``DICELOG_DATA_DIR`` a temp dir,
  i.e. SQLite, snapshots every 100 events, aggregate cache on, embedded worker (projections)
  on: the defaults.
- baseline: ``baseline_app`` below, a bare Litestar app whose one POST handler appends one
  event of a minimal ``eventsourcing.domain.Aggregate`` per request (``repository.get`` from the
  library's aggregate cache, the ``@event`` method, ``Application.save``; SQLite file in the
  same temp dir; same ``sync_to_thread`` handler style, same JSON-in/JSON-out shape, the same
  ``expected_version`` check).

Client: this process, ``httpx.AsyncClient`` (one client, i.e. one keep-alive connection, per
simulated player), latency = ``perf_counter_ns`` around ``await client.post(...)`` including
reading the body. Workloads:

- sequential: one client, one game, N commands one after the other;
- concurrent: 32 clients, each on its own game, each sending M commands back to back;
  throughput = all commands / wall time of the phase (repeated R times, median reported;
  latency percentiles over all repeats).

dicelog commands: the mouse whose turn it is (``turn`` of the previous answer), from the seat
controlling it, alternately ``Move`` (1 action die rolled by the server: 5 events) and
``EndTurn`` (the turn passes; minion turns and new rounds are resolved by the server: 3+
events), with ``expected_version``; the games are in ``server`` dice mode. ``MoveTo`` needs a
path that depends on the roll, so a client must read ``legal-commands`` first: it is measured
separately, sequentially ("full turn": Move, GET legal-commands, MoveTo on a random legal path,
EndTurn; latency per request type), not in the throughput figures. Warm-up before each phase.

Also reported: CPU seconds per command of the server process and of this client process during
the timed phases (on 2 cores, the client competes with the server), and how far the embedded
projections are behind right after the concurrent phase.

Targets: dicelog p99 <= 10 ms for one client; dicelog throughput >= 60 % of the baseline's at
32 clients.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager, contextmanager
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402

TARGET_P99_MS = 10.0
TARGET_THROUGHPUT_RATIO = 0.60
CLIENTS = 32
_decode = msgspec.json.decode


# --- the baseline server (runs in its own process, via uvicorn --factory) ------------------


class Counter(Aggregate):
    """The minimal library aggregate: one ``@event`` method."""

    def __init__(self) -> None:
        self.count = 0

    @event("Incremented")
    def increment(self) -> None:
        self.count += 1


class Increment(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    expected_version: int | None = None


class CounterOut(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    version: int


def baseline_app() -> Any:
    """Bare Litestar + eventsourcing: create a counter, append one event per request."""
    from litestar import Litestar, get, post
    from litestar.exceptions import HTTPException

    env = common.sqlite_env(Path(os.environ["BENCH_BASELINE_DB"]), AGGREGATE_CACHE_MAXSIZE="1000")
    holder: dict[str, Application[UUID]] = {}

    @asynccontextmanager
    async def lifespan(_: Any) -> AsyncIterator[None]:
        holder["app"] = Application(env)
        try:
            yield
        finally:
            holder["app"].close()

    @get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @post("/counters", sync_to_thread=True)
    def create() -> CounterOut:
        counter = Counter()
        holder["app"].save(counter)
        return CounterOut(id=counter.id, version=counter.version)

    @post("/counters/{counter_id:uuid}/increments", sync_to_thread=True)
    def increment(counter_id: UUID, data: Increment) -> CounterOut:
        app = holder["app"]
        counter: Counter = app.repository.get(counter_id)
        if data.expected_version is not None and data.expected_version != counter.version:
            raise HTTPException(status_code=409, detail="stale expected_version")
        counter.increment()
        app.save(counter)
        return CounterOut(id=counter.id, version=counter.version)

    return Litestar(route_handlers=[health, create, increment], lifespan=[lifespan])


# --- servers -------------------------------------------------------------------------------


@contextmanager
def server(kind: str, data_dir: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = common.free_port()
    env = dict(os.environ)
    uvicorn = [common.PYTHON, "-m", "uvicorn", "--factory", "--host", "127.0.0.1", "--port", str(port),
               "--no-access-log", "--log-level", "warning"]
    if kind == "dicelog":
        env.update(DICELOG_DATA_DIR=str(data_dir), DICELOG_STORE="sqlite")
        cmd = [*uvicorn, "service.app:create_app"]
    else:
        env["BENCH_BASELINE_DB"] = str(data_dir / "baseline.sqlite")
        cmd = [*uvicorn, "--app-dir", str(common.BENCH), "http_roundtrip:baseline_app"]
    log = open(data_dir / f"{kind}-server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=common.ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        common.wait_http(url + "/health", proc=proc)
        yield proc, url
    finally:
        common.stop(proc)
        log.close()


# --- players -------------------------------------------------------------------------------


class Player:
    """One simulated client on its own game (or counter), with its own connection."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.latencies: dict[str, list[int]] = {}
        self.errors: dict[str, int] = {}
        self.events = 0

    def _record(self, kind: str, ns: int) -> None:
        self.latencies.setdefault(kind, []).append(ns)

    def _error(self, kind: str, status: int) -> None:
        key = f"{kind} {status}"
        self.errors[key] = self.errors.get(key, 0) + 1


class DicelogPlayer(Player):
    async def create(self) -> None:
        r = await self.http.post("/games", json={
            "setup": {"chapter": "chapter-1", "mice": list(common.MICE)},
            "seats": list(common.SEATS),
            "dice_mode": "server",
        })
        assert r.status_code == 201, r.text
        body = _decode(r.content)
        self.id = body["game"]["id"]
        self.version = body["game"]["version"]
        self.turn = body["game"]["turn"]
        self.auth = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in body["tokens"]}
        self.moved = False

    async def send(self, command: dict[str, Any], *, record: bool) -> dict[str, Any] | None:
        kind = command["type"]
        t0 = time.perf_counter_ns()
        r = await self.http.post(
            f"/games/{self.id}/commands",
            json={"command": command, "expected_version": self.version},
            headers=self.auth[common.SEAT_OF[command["mouse"]]],
        )
        elapsed = time.perf_counter_ns() - t0
        if r.status_code != 201:
            self._error(kind, r.status_code)
            return None
        body = _decode(r.content)
        if record:
            self._record(kind, elapsed)
            self.events += len(body["events"])
        self.version, self.turn = body["version"], body["turn"]
        return body

    async def step(self, *, record: bool) -> None:
        """``Move`` then ``EndTurn`` for the mouse whose turn it is."""
        if not self.moved:
            done = await self.send({"type": "Move", "mouse": self.turn}, record=record)
            self.moved = done is not None
            if done is not None:
                return
        await self.send({"type": "EndTurn", "mouse": self.turn}, record=record)
        self.moved = False

    async def full_turn(self, rng: random.Random) -> None:
        """Move, GET legal-commands, MoveTo on a random legal path (if any), EndTurn."""
        mouse = self.turn
        auth = self.auth[common.SEAT_OF[mouse]]
        await self.send({"type": "Move", "mouse": mouse}, record=True)
        t0 = time.perf_counter_ns()
        r = await self.http.get(f"/games/{self.id}/legal-commands", headers=auth)
        self._record("GET legal-commands", time.perf_counter_ns() - t0)
        paths = [c for c in _decode(r.content)["commands"] if c["type"] == "MoveTo"]
        if paths:
            await self.send(rng.choice(paths), record=True)
        await self.send({"type": "EndTurn", "mouse": mouse}, record=True)


class BaselinePlayer(Player):
    async def create(self) -> None:
        r = await self.http.post("/counters")
        assert r.status_code == 201, r.text
        body = _decode(r.content)
        self.id, self.version = body["id"], body["version"]

    async def step(self, *, record: bool) -> None:
        t0 = time.perf_counter_ns()
        r = await self.http.post(f"/counters/{self.id}/increments", json={"expected_version": self.version})
        elapsed = time.perf_counter_ns() - t0
        if r.status_code != 201:
            self._error("increment", r.status_code)
            return
        self.version = _decode(r.content)["version"]
        if record:
            self._record("increment", elapsed)
            self.events += 1


# --- measuring -----------------------------------------------------------------------------


def _client_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


async def _players(kind: str, url: str, n: int) -> list[Player]:
    import httpx

    cls = DicelogPlayer if kind == "dicelog" else BaselinePlayer
    players = [cls(httpx.AsyncClient(base_url=url, timeout=60.0)) for _ in range(n)]
    for p in players:
        await p.create()
    return players


async def _close(players: list[Player]) -> None:
    for p in players:
        await p.http.aclose()


def _pool(players: list[Player]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for p in players:
        for kind, values in p.latencies.items():
            out.setdefault(kind, []).extend(values)
    return out


def _errors(players: list[Player]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in players:
        for k, v in p.errors.items():
            out[k] = out.get(k, 0) + v
    return out


async def sequential(kind: str, url: str, pid: int, commands: int, warmup: int) -> dict[str, Any]:
    (player,) = await _players(kind, url, 1)
    for _ in range(warmup):
        await player.step(record=False)
    cpu_s, cpu_c, t0 = common.cpu_seconds(pid), _client_cpu(), time.perf_counter()
    for _ in range(commands):
        await player.step(record=True)
    wall = time.perf_counter() - t0
    cpu_s, cpu_c = common.cpu_seconds(pid) - cpu_s, _client_cpu() - cpu_c
    await _close([player])
    by_kind = player.latencies
    every = [v for values in by_kind.values() for v in values]
    return {
        "commands": len(every),
        "wall_s": round(wall, 3),
        "commands_per_s": round(len(every) / wall, 1),
        "latency": common.summarize_ms(every),
        "latency_by_command": {k: common.summarize_ms(v) for k, v in by_kind.items()},
        "events_per_command": round(player.events / len(every), 2),
        "server_cpu_ms_per_command": round(cpu_s / len(every) * 1e3, 3),
        "client_cpu_ms_per_command": round(cpu_c / len(every) * 1e3, 3),
        "errors": player.errors,
    }


async def concurrent(kind: str, url: str, pid: int, per_client: int, warmup: int, repeats: int) -> dict[str, Any]:
    players = await _players(kind, url, CLIENTS)

    async def run(p: Player, n: int, record: bool) -> None:
        for _ in range(n):
            await p.step(record=record)

    await asyncio.gather(*(run(p, warmup, False) for p in players))
    rounds = []
    for _ in range(repeats):
        before = sum(len(v) for v in _pool(players).values())
        cpu_s, cpu_c, t0 = common.cpu_seconds(pid), _client_cpu(), time.perf_counter()
        await asyncio.gather(*(run(p, per_client, True) for p in players))
        wall = time.perf_counter() - t0
        cpu_s, cpu_c = common.cpu_seconds(pid) - cpu_s, _client_cpu() - cpu_c
        done = sum(len(v) for v in _pool(players).values()) - before
        rounds.append({
            "commands": done,
            "wall_s": round(wall, 3),
            "commands_per_s": round(done / wall, 1),
            "server_cpu_share": round(cpu_s / wall, 3),
            "client_cpu_share": round(cpu_c / wall, 3),
            "server_cpu_ms_per_command": round(cpu_s / done * 1e3, 3),
            "client_cpu_ms_per_command": round(cpu_c / done * 1e3, 3),
        })
    await _close(players)
    by_kind = _pool(players)
    every = [v for values in by_kind.values() for v in values]
    events = sum(p.events for p in players)
    return {
        "clients": CLIENTS,
        "commands": len(every),
        "rounds": rounds,
        "commands_per_s": statistics.median(r["commands_per_s"] for r in rounds),
        "events_per_s": round(statistics.median(r["commands_per_s"] for r in rounds) * events / len(every), 1),
        "latency": common.summarize_ms(every),
        "latency_by_command": {k: common.summarize_ms(v) for k, v in by_kind.items()},
        "events_per_command": round(events / len(every), 2),
        "server_cpu_share": statistics.median(r["server_cpu_share"] for r in rounds),
        "server_cpu_ms_per_command": statistics.median(r["server_cpu_ms_per_command"] for r in rounds),
        "client_cpu_ms_per_command": statistics.median(r["client_cpu_ms_per_command"] for r in rounds),
        "errors": _errors(players),
    }


async def full_turns(url: str, turns: int) -> dict[str, Any]:
    (player,) = await _players("dicelog", url, 1)
    rng = random.Random(3)
    for _ in range(3):
        await player.full_turn(rng)
    player.latencies.clear()
    for _ in range(turns):
        await player.full_turn(rng)
    await _close([player])
    return {
        "turns": turns,
        "latency_by_request": {k: common.summarize_ms(v) for k, v in player.latencies.items()},
        "errors": player.errors,
    }


def projection_lag(url: str) -> dict[str, Any]:
    """How far the embedded projections are behind now, and how long they take to catch up."""
    import httpx

    t0 = time.perf_counter()
    first = httpx.get(url + "/ready", timeout=30).json()["checks"]
    while time.perf_counter() - t0 < 120:
        checks = httpx.get(url + "/ready", timeout=30).json()["checks"]
        if all(v == "ok" for v in checks.values()):
            return {"right_after": first, "caught_up_after_s": round(time.perf_counter() - t0, 2)}
        time.sleep(0.1)
    return {"right_after": first, "caught_up_after_s": None}


def measure(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"dicelog-bench-{kind}-") as d, server(kind, Path(d)) as (proc, url):
        out: dict[str, Any] = {}
        out["sequential"] = asyncio.run(sequential(kind, url, proc.pid, args.commands, args.warmup))
        if kind == "dicelog":
            out["full_turn_sequential"] = asyncio.run(full_turns(url, args.turns))
            projection_lag(url)
        out["concurrent"] = asyncio.run(
            concurrent(kind, url, proc.pid, args.per_client, max(2, args.warmup // 10), args.repeats)
        )
        if kind == "dicelog":
            out["concurrent"]["projections"] = projection_lag(url)
        out["server_rss_kb"] = common.proc_status(proc.pid)
        return out


def _line(label: str, s: dict[str, Any]) -> str:
    lat = s["latency"]
    return (f"{label:<30} median {lat['median_ms']:7.2f} ms  p99 {lat['p99_ms']:7.2f} ms  "
            f"{s['commands_per_s']:8.1f} cmd/s  (n={lat['n']}, server CPU {s['server_cpu_ms_per_command']:.2f} ms/cmd)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="few commands (smoke run)")
    parser.add_argument("--commands", type=int, default=None, help="sequential commands (default 2000)")
    parser.add_argument("--per-client", type=int, default=None, help="commands per client, concurrent (default 100)")
    parser.add_argument("--repeats", type=int, default=None, help="concurrent phases (default 3)")
    parser.add_argument("--warmup", type=int, default=None, help="warm-up commands, sequential (default 100)")
    parser.add_argument("--turns", type=int, default=None, help="full turns with MoveTo (default 150)")
    args = parser.parse_args(argv)
    q = args.quick
    args.commands = args.commands or (60 if q else 2000)
    args.per_client = args.per_client or (5 if q else 100)
    args.repeats = args.repeats or (1 if q else 3)
    args.warmup = args.warmup or (20 if q else 100)
    args.turns = args.turns or (5 if q else 150)
    common.header("http_roundtrip: POST /games/{id}/commands over HTTP (uvicorn, SQLite)")
    base = measure("baseline", args)
    dl = measure("dicelog", args)
    seq_ok = dl["sequential"]["latency"]["p99_ms"] <= TARGET_P99_MS
    tput_ratio = common.ratio(dl["concurrent"]["commands_per_s"], base["concurrent"]["commands_per_s"])
    tput_ok = tput_ratio >= TARGET_THROUGHPUT_RATIO
    print(_line("baseline, 1 client", base["sequential"]))
    print(_line("dicelog,  1 client", dl["sequential"]))
    for kind, s in dl["sequential"]["latency_by_command"].items():
        print(f"  {kind:<28} median {s['median_ms']:7.2f} ms  p99 {s['p99_ms']:7.2f} ms")
    print(_line(f"baseline, {CLIENTS} clients", base["concurrent"]))
    print(_line(f"dicelog,  {CLIENTS} clients", dl["concurrent"]))
    for kind, s in dl["concurrent"]["latency_by_command"].items():
        print(f"  {kind:<28} median {s['median_ms']:7.2f} ms  p99 {s['p99_ms']:7.2f} ms")
    print(f"  per round (cmd/s): baseline {[r['commands_per_s'] for r in base['concurrent']['rounds']]}"
          f"  dicelog {[r['commands_per_s'] for r in dl['concurrent']['rounds']]}")
    print(f"  dicelog events/command {dl['concurrent']['events_per_command']}, events/s {dl['concurrent']['events_per_s']},"
          f" projections after the run: {dl['concurrent']['projections']}")
    print("dicelog full turn, 1 client (Move, GET legal-commands, MoveTo, EndTurn):")
    for kind, s in dl["full_turn_sequential"]["latency_by_request"].items():
        print(f"  {kind:<28} median {s['median_ms']:7.2f} ms  p99 {s['p99_ms']:7.2f} ms  (n={s['n']})")
    errors = {k: v for k, v in (("baseline", base), ("dicelog", dl)) for v in [
        {**v["sequential"]["errors"], **v["concurrent"]["errors"]}] if v}
    if errors:
        print(f"non-201 answers: {errors}")
    seq_ratio = common.ratio(dl["sequential"]["latency"]["p99_ms"], base["sequential"]["latency"]["p99_ms"])
    print(f"ratio dicelog / baseline: 1-client p99 x{seq_ratio}, "
          f"1-client median x{common.ratio(dl['sequential']['latency']['median_ms'], base['sequential']['latency']['median_ms'])}, "
          f"{CLIENTS}-client throughput {tput_ratio}")
    print(f"target 1-client p99 <= {TARGET_P99_MS} ms: {common.verdict(seq_ok)}"
          f" ({dl['sequential']['latency']['p99_ms']} ms)")
    print(f"target {CLIENTS}-client throughput >= {TARGET_THROUGHPUT_RATIO:.0%} of baseline: {common.verdict(tput_ok)}"
          f" ({tput_ratio:.1%})")
    result = {
        "quick": q,
        "settings": {k: getattr(args, k) for k in ("commands", "per_client", "repeats", "warmup", "turns")},
        "baseline": base,
        "dicelog": dl,
        "ratios": {"p99_1_client": seq_ratio, "throughput_32_clients": tput_ratio},
        "targets": {
            "p99_1_client_ms_max": {"target": TARGET_P99_MS, "value": dl["sequential"]["latency"]["p99_ms"], "met": seq_ok},
            "throughput_ratio_min": {"target": TARGET_THROUGHPUT_RATIO, "value": tput_ratio, "met": tput_ok},
        },
    }
    print(f"written {common.write_result('http_roundtrip', result)}")
    return result


if __name__ == "__main__":
    main()
