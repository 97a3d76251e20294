"""Command round trip over HTTP: latency of ``POST /games/{id}/commands`` and throughput.

    python bench/http_roundtrip.py [--quick] [--commands N] [--per-client M] [--repeats R]

Servers (each its own process, same uvicorn options: 127.0.0.1, a free port, one worker, the
auto-selected uvloop/httptools, ``--no-access-log --log-level warning``):

- dicelog: ``uvicorn --factory dicelog.service.http.app:create_app`` with ``DICELOG_DATA_DIR`` a temp dir,
  i.e. SQLite, snapshots every 100 events, aggregate cache on, the write lane (4 threads on
  SQLite, their saves group-committed), the embedded worker (projections) on, in its child
  process: the defaults. "Server CPU" is the API process's; the child's is not in it (a third of
  the API's before it moved there).
- baseline: ``baseline_app`` below, a bare Litestar app whose one POST handler appends one
  event of a minimal ``eventsourcing.domain.Aggregate`` per request (``repository.get`` from the
  library's aggregate cache, the ``@event`` method, ``Application.save``; SQLite file in the
  same temp dir; same ``sync_to_thread`` handler style, same JSON-in/JSON-out shape, the same
  ``expected_version`` check).

Client: this process; one keep-alive connection per simulated player; latency =
``perf_counter_ns`` around each request including reading the body. The one-client runs use the
standard library's ``http.client`` (about 0.5 ms of client time per request), the 32-client runs
``httpx.AsyncClient`` on one event loop (about 2-3 ms per request). Each run also reports the
"floor": ``GET /health`` (an async handler with no I/O) with the same client. Workloads:

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
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

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

    env = {**json.loads(os.environ["BENCH_BASELINE_ENV"]), "AGGREGATE_CACHE_MAXSIZE": "1000"}
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


PG_POOL = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "4"}  # dicelog's defaults, for both


@contextmanager
def postgres_schema(args: argparse.Namespace) -> Iterator[str | None]:
    """A fresh schema in the ``--pg-*`` database (dropped at the end), or ``None`` if unreachable."""
    try:
        import psycopg

        conninfo: dict[str, Any] = {
            "host": args.pg_host,
            "port": args.pg_port,
            "dbname": args.pg_dbname,
            "user": args.pg_user,
            "connect_timeout": 3,
            "autocommit": True,
        }
        name = f"bench_http_{uuid4().hex[:10]}"
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
    except Exception as e:  # noqa: BLE001 - any failure means: skip the PostgreSQL runs
        print(f"PostgreSQL unavailable ({e}): its runs are skipped", flush=True)
        yield None
        return
    try:
        yield name
    finally:
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


@contextmanager
def server(
    kind: str,
    data_dir: Path,
    *,
    worker: bool = True,
    store: str = "sqlite",
    pg: dict[str, str] | None = None,
    worker_process: bool = False,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``pg`` (store ``postgres``): host, port, dbname, user and a fresh schema. With
    ``worker_process`` (dicelog, ``worker=False``) a ``dicelog worker`` runs the projections
    beside the server, as in production (its pid is in ``WORKERS[url]``)."""
    port = common.free_port()
    env = {**common.clean_environ(), "PYTHONPATH": str(common.ROOT)}
    uvicorn = [
        common.PYTHON,
        "-m",
        "uvicorn",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    if kind == "dicelog":
        env.update(
            DICELOG_DATA_DIR=str(data_dir),
            DICELOG_STORE=store,
            DICELOG_EMBEDDED_WORKER="true" if worker else "false",
            DICELOG_RATE_LIMIT_CREATE="off",
            DICELOG_RATE_LIMIT_COMMANDS="off",
        )
        if store == "postgres":
            assert pg is not None
            env.update({f"DICELOG_POSTGRES_{k.upper()}": v for k, v in pg.items()})
        cmd = [*uvicorn, "dicelog.service.http.app:create_app"]
    else:
        if store == "postgres":
            assert pg is not None
            library = {
                "PERSISTENCE_MODULE": "eventsourcing.postgres",
                "POSTGRES_PASSWORD": "",
                **PG_POOL,
                **{f"POSTGRES_{k.upper()}": v for k, v in pg.items()},
            }
        else:
            library = common.sqlite_env(data_dir / "baseline.sqlite")
        env["BENCH_BASELINE_ENV"] = json.dumps(library)
        cmd = [*uvicorn, "--app-dir", str(common.BENCH), "http_roundtrip:baseline_app"]
    log = open(data_dir / f"{kind}-server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, cwd=common.ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    side = None
    try:
        common.wait_http(url + "/health", proc=proc)
        if kind == "dicelog" and worker_process:
            side = subprocess.Popen(
                [common.PYTHON, "-m", "dicelog.service.cli.main", "worker"],
                cwd=common.ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            WORKERS[url] = side.pid
        yield proc, url
    finally:
        if side is not None:
            common.stop(side)
        common.stop(proc)
        log.close()


WORKERS: dict[str, int] = {}


# --- players -------------------------------------------------------------------------------


class _Answer:
    def __init__(self, status: int, content: bytes) -> None:
        self.status_code, self.content = status, content

    @property
    def text(self) -> str:
        return self.content.decode(errors="replace")


class StdlibHTTP:
    """One blocking keep-alive ``http.client`` connection behind the async interface the
    players use. For the one-client runs only (nothing else runs on the loop, so blocking is
    harmless): it costs the client about 0.5 ms per request where ``httpx.AsyncClient`` costs
    about 2-3 ms, so more of the measured latency is the server's."""

    def __init__(self, url: str) -> None:
        import http.client

        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)

    def _do(self, method: str, path: str, json: Any, headers: dict[str, str] | None) -> _Answer:
        body = msgspec.json.encode(json) if json is not None else b""
        self.conn.request(
            method, path, body=body, headers={"content-type": "application/json", **(headers or {})}
        )
        r = self.conn.getresponse()
        return _Answer(r.status, r.read())

    async def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> _Answer:
        return self._do("POST", path, json, headers)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> _Answer:
        return self._do("GET", path, None, headers)

    async def aclose(self) -> None:
        self.conn.close()


class Player:
    """One simulated client on its own game (or counter), with its own connection."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.latencies: dict[str, list[int]] = {}
        self.refused: dict[str, list[int]] = {}
        self.errors: dict[str, int] = {}
        self.events = 0
        self.games = 0

    def _record(self, kind: str, ns: int) -> None:
        self.latencies.setdefault(kind, []).append(ns)

    def _refused(self, kind: str, ns: int, status: int, body: bytes, record: bool) -> None:
        try:
            problem = _decode(body)
            why = problem.get("rule") or problem.get("type", "")
        except (msgspec.DecodeError, AttributeError):
            why = ""
        key = f"{kind} {status} {why}".strip()
        self.errors[key] = self.errors.get(key, 0) + 1
        if record:
            self.refused.setdefault(kind, []).append(ns)


class DicelogPlayer(Player):
    async def create(self) -> None:
        r = await self.http.post(
            "/games",
            json={
                "setup": {"chapter": "chapter-1", "mice": list(common.MICE)},
                "seats": list(common.SEATS),
                "dice_mode": "server",
                "decision_policy": "default",
            },
        )
        assert r.status_code == 201, r.text
        body = _decode(r.content)
        self.id = body["game"]["id"]
        self.version = body["game"]["version"]
        self.turn = body["game"]["turn"]
        self.auth = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in body["tokens"]}
        self.moved = False
        self.games += 1

    async def send(self, command: dict[str, Any], *, record: bool) -> dict[str, Any] | None:
        """POST one command; ``None`` if it was refused (the refusal is counted)."""
        kind = command["type"]
        t0 = time.perf_counter_ns()
        r = await self.http.post(
            f"/games/{self.id}/commands",
            json={"command": command, "expected_version": self.version},
            headers=self.auth[common.SEAT_OF[command["mouse"]]],
        )
        elapsed = time.perf_counter_ns() - t0
        if r.status_code != 201:
            self._refused(kind, elapsed, r.status_code, r.content, record)
            return None
        body = _decode(r.content)
        if record:
            self._record(kind, elapsed)
            self.events += len(body["events"])
        self.version, self.turn = body["version"], body["turn"]
        if body.get("result") is not None:
            self.turn = None
        return body

    async def step(self, *, record: bool) -> None:
        """``Move`` then ``EndTurn`` for the mouse whose turn it is. When the game has ended (or
        nobody's turn is open), a new game is created first (not counted as a command)."""
        if self.turn is None:
            await self.create()
        if not self.moved:
            done = await self.send({"type": "Move", "mouse": self.turn}, record=record)
            if done is not None:
                self.moved = True
                return
        done = await self.send({"type": "EndTurn", "mouse": self.turn}, record=record)
        self.moved = False
        if done is None:
            self.turn = None

    async def full_turn(self, rng: random.Random) -> None:
        """Move, GET legal-commands, MoveTo on a random legal path (if any), EndTurn."""
        if self.turn is None:
            await self.create()
        mouse = self.turn
        auth = self.auth[common.SEAT_OF[mouse]]
        moved = await self.send({"type": "Move", "mouse": mouse}, record=True)
        if moved is not None and self.turn == mouse:
            t0 = time.perf_counter_ns()
            r = await self.http.get(f"/games/{self.id}/legal-commands", headers=auth)
            self._record("GET legal-commands", time.perf_counter_ns() - t0)
            paths = [c for c in _decode(r.content)["commands"] if c["type"] == "MoveTo"]
            if paths:
                await self.send(rng.choice(paths), record=True)
        if self.turn == mouse and await self.send({"type": "EndTurn", "mouse": mouse}, record=True) is None:
            self.turn = None


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
            self._refused("increment", elapsed, r.status_code, r.content, record)
            return
        self.version = _decode(r.content)["version"]
        if record:
            self._record("increment", elapsed)
            self.events += 1


# --- measuring -----------------------------------------------------------------------------


def _client_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


async def _players(kind: str, url: str, n: int, *, stdlib: bool = False) -> list[Player]:
    import httpx

    cls = DicelogPlayer if kind == "dicelog" else BaselinePlayer
    players = [
        cls(StdlibHTTP(url) if stdlib else httpx.AsyncClient(base_url=url, timeout=60.0)) for _ in range(n)
    ]
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


def _refused(players: list[Player]) -> dict[str, Any]:
    out: dict[str, list[int]] = {}
    for p in players:
        for kind, values in p.refused.items():
            out.setdefault(kind, []).extend(values)
    return {k: common.summarize_ms(v) for k, v in out.items()}


def _errors(players: list[Player]) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in players:
        for k, v in p.errors.items():
            out[k] = out.get(k, 0) + v
    return out


def _phase(
    players: list[Player], wall: float, cpu_server: float, cpu_client: float, before: dict[str, int]
) -> dict[str, Any]:
    """Counts and rates of one timed phase (``before``: counters at its start)."""
    accepted = sum(len(v) for v in _pool(players).values()) - before["accepted"]
    refused = sum(sum(p.errors.values()) for p in players) - before["refused"]
    games = sum(p.games for p in players) - before["games"]
    return {
        "commands": accepted,
        "refused": refused,
        "games_created": games,
        "wall_s": round(wall, 3),
        "commands_per_s": round(accepted / wall, 1),
        "server_cpu_share": round(cpu_server / wall, 3),
        "client_cpu_share": round(cpu_client / wall, 3),
        "server_cpu_ms_per_command": round(cpu_server / accepted * 1e3, 3),
        "client_cpu_ms_per_command": round(cpu_client / accepted * 1e3, 3),
    }


def _counters(players: list[Player]) -> dict[str, int]:
    return {
        "accepted": sum(len(v) for v in _pool(players).values()),
        "refused": sum(sum(p.errors.values()) for p in players),
        "games": sum(p.games for p in players),
    }


async def _timed(players: list[Player], pid: int, steps: int) -> dict[str, Any]:
    """Every player takes ``steps`` steps at once; returns the phase's counts and rates."""

    async def run(p: Player) -> None:
        for _ in range(steps):
            await p.step(record=True)

    before = _counters(players)
    cpu_s, cpu_c, t0 = common.cpu_seconds(pid), _client_cpu(), time.perf_counter()
    await asyncio.gather(*(run(p) for p in players))
    wall = time.perf_counter() - t0
    return _phase(players, wall, common.cpu_seconds(pid) - cpu_s, _client_cpu() - cpu_c, before)


def _summary(players: list[Player], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    by_kind = _pool(players)
    every = [v for values in by_kind.values() for v in values]
    events = sum(p.events for p in players)
    med = lambda key: statistics.median(r[key] for r in rounds)  # noqa: E731
    return {
        "clients": len(players),
        "commands": len(every),
        "rounds": rounds,
        "commands_per_s": med("commands_per_s"),
        "events_per_command": round(events / len(every), 2),
        "events_per_s": round(med("commands_per_s") * events / len(every), 1),
        "latency": common.summarize_ms(every),
        "latency_by_command": {k: common.summarize_ms(v) for k, v in by_kind.items()},
        "refused_latency": _refused(players),
        "server_cpu_share": med("server_cpu_share"),
        "client_cpu_share": med("client_cpu_share"),
        "server_cpu_ms_per_command": med("server_cpu_ms_per_command"),
        "client_cpu_ms_per_command": med("client_cpu_ms_per_command"),
        "errors": _errors(players),
        "games_created": sum(r["games_created"] for r in rounds),
    }


async def _floor(http: Any, n: int = 300) -> dict[str, float]:
    """Latency of ``GET /health`` (an async handler, no I/O) with the same client: what the
    client, the loopback and the HTTP stack cost on their own."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter_ns()
        r = await http.get("/health")
        out.append(time.perf_counter_ns() - t0)
        assert r.status_code == 200
    return common.summarize_ms(out)


async def sequential(kind: str, url: str, pid: int, commands: int, warmup: int) -> dict[str, Any]:
    players = await _players(kind, url, 1, stdlib=True)
    for _ in range(warmup):
        await players[0].step(record=False)
    players[0].errors.clear()
    rounds = [await _timed(players, pid, commands)]
    floor = await _floor(players[0].http)
    await _close(players)
    return {**_summary(players, rounds), "client": "http.client", "health_floor": floor}


async def concurrent(
    kind: str, url: str, pid: int, per_client: int, warmup: int, repeats: int
) -> dict[str, Any]:
    players = await _players(kind, url, CLIENTS)

    async def warm(p: Player) -> None:
        for _ in range(warmup):
            await p.step(record=False)

    await asyncio.gather(*(warm(p) for p in players))
    for p in players:
        p.errors.clear()
    rounds = [await _timed(players, pid, per_client) for _ in range(repeats)]
    floor = await _floor(players[0].http)
    await _close(players)
    return {**_summary(players, rounds), "client": "httpx.AsyncClient", "health_floor": floor}


async def full_turns(url: str, turns: int) -> dict[str, Any]:
    (player,) = await _players("dicelog", url, 1, stdlib=True)
    rng = random.Random(3)
    for _ in range(3):
        await player.full_turn(rng)
    player.latencies.clear()
    player.errors.clear()
    for _ in range(turns):
        await player.full_turn(rng)
    await _close([player])
    return {
        "turns": turns,
        "latency_by_request": {k: common.summarize_ms(v) for k, v in player.latencies.items()},
        "errors": player.errors,
    }


def projection_lag(url: str, limit_s: float = 60.0) -> dict[str, Any]:
    """How far the embedded projections are behind now, and how long they take to catch up."""
    import httpx

    t0 = time.perf_counter()
    first = httpx.get(url + "/ready", timeout=30).json()["checks"]
    while time.perf_counter() - t0 < limit_s:
        checks = httpx.get(url + "/ready", timeout=30).json()["checks"]
        if all(v == "ok" for v in checks.values()):
            return {"right_after": first, "caught_up_after_s": round(time.perf_counter() - t0, 2)}
        time.sleep(0.1)
    return {"right_after": first, "caught_up_after_s": None, "still": checks}


def measure(
    kind: str,
    args: argparse.Namespace,
    *,
    worker: bool = True,
    only_sequential: bool = False,
    store: str = "sqlite",
    full_turns_too: bool = True,
    worker_process: bool = False,
) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        d = stack.enter_context(tempfile.TemporaryDirectory(prefix=f"dicelog-bench-{kind}-"))
        pg = None
        if store == "postgres":
            schema = stack.enter_context(postgres_schema(args))
            if schema is None:
                raise RuntimeError("PostgreSQL unavailable")
            pg = {
                "host": args.pg_host,
                "port": str(args.pg_port),
                "dbname": args.pg_dbname,
                "user": args.pg_user,
                "schema": schema,
            }
        proc, url = stack.enter_context(
            server(kind, Path(d), worker=worker, store=store, pg=pg, worker_process=worker_process)
        )
        out: dict[str, Any] = {}
        if worker_process:  # only the concurrent phase, the worker's CPU per command beside it
            wpid = WORKERS[url]
            w0 = common.cpu_seconds(wpid)
            out["concurrent"] = asyncio.run(
                concurrent(kind, url, proc.pid, args.per_client, max(2, args.warmup // 10), args.repeats)
            )
            out["concurrent"]["worker_process_cpu_ms_per_command"] = round(
                (common.cpu_seconds(wpid) - w0) / out["concurrent"]["commands"] * 1e3, 3
            )
            return out
        out["sequential"] = asyncio.run(sequential(kind, url, proc.pid, args.commands, args.warmup))
        if kind == "dicelog" and worker:
            out["sequential"]["projections"] = projection_lag(url)
        if only_sequential:
            return out
        if kind == "dicelog" and full_turns_too:
            out["full_turn_sequential"] = asyncio.run(full_turns(url, args.turns))
            projection_lag(url)
        out["concurrent"] = asyncio.run(
            concurrent(kind, url, proc.pid, args.per_client, max(2, args.warmup // 10), args.repeats)
        )
        if kind == "dicelog" and worker:
            out["concurrent"]["projections"] = projection_lag(url)
        out["server_status_kb"] = common.proc_status(proc.pid)
        return out


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def over_runs(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the runs of one store (each run: a baseline and a dicelog server, one after
    the other), and the median of each run's own ratio dicelog / baseline."""
    out: dict[str, Any] = {"runs": len(runs)}
    for kind in ("baseline", "dicelog"):
        seq = [r[kind]["sequential"] for r in runs]
        con = [r[kind]["concurrent"] for r in runs]
        out[kind] = {
            "p50_1_client_ms": _median([s["latency"]["median_ms"] for s in seq]),
            "p99_1_client_ms": _median([s["latency"]["p99_ms"] for s in seq]),
            "commands_per_s_32_clients": _median([c["commands_per_s"] for c in con]),
            "p50_32_clients_ms": _median([c["latency"]["median_ms"] for c in con]),
            "p99_32_clients_ms": _median([c["latency"]["p99_ms"] for c in con]),
            "server_cpu_ms_per_command_32_clients": _median([c["server_cpu_ms_per_command"] for c in con]),
            "server_cpu_share_32_clients": _median([c["server_cpu_share"] for c in con]),
            "client_cpu_ms_per_command_32_clients": _median([c["client_cpu_ms_per_command"] for c in con]),
            "events_per_command_32_clients": _median([c["events_per_command"] for c in con]),
            "per_run_commands_per_s_32_clients": [c["commands_per_s"] for c in con],
            "per_run_p99_1_client_ms": [s["latency"]["p99_ms"] for s in seq],
        }
    per_run = [
        common.ratio(
            r["dicelog"]["concurrent"]["commands_per_s"], r["baseline"]["concurrent"]["commands_per_s"]
        )
        for r in runs
    ]
    out["throughput_ratio_per_run"] = per_run
    out["throughput_ratio"] = _median(per_run)
    out["p50_1_client_ratio"] = _median(
        [
            common.ratio(
                r["dicelog"]["sequential"]["latency"]["median_ms"],
                r["baseline"]["sequential"]["latency"]["median_ms"],
            )
            for r in runs
        ]
    )
    out["p99_1_client_ratio"] = _median(
        [
            common.ratio(
                r["dicelog"]["sequential"]["latency"]["p99_ms"],
                r["baseline"]["sequential"]["latency"]["p99_ms"],
            )
            for r in runs
        ]
    )
    return out


def _line(label: str, s: dict[str, Any]) -> str:
    lat = s["latency"]
    return (
        f"{label:<34} median {lat['median_ms']:7.2f} ms  p99 {lat['p99_ms']:8.2f} ms  "
        f"{s['commands_per_s']:7.1f} cmd/s  (n={lat['n']}, server CPU {s['server_cpu_ms_per_command']:.2f} "
        "ms/cmd,"
        f" client CPU {s['client_cpu_ms_per_command']:.2f} ms/cmd)"
    )


def _kinds(s: dict[str, Any]) -> None:
    f = s["health_floor"]
    print(
        f"    {'(floor: GET /health)':<30} median {f['median_ms']:7.2f} ms  p99 {f['p99_ms']:8.2f} ms  "
        f"({s['client']})"
    )
    for kind, k in s["latency_by_command"].items():
        print(f"    {kind:<30} median {k['median_ms']:7.2f} ms  p99 {k['p99_ms']:8.2f} ms  (n={k['n']})")
    for kind, k in s.get("refused_latency", {}).items():
        print(
            f"    {kind + ' (refused)':<30} median {k['median_ms']:7.2f} ms  p99 {k['p99_ms']:8.2f} ms  "
            f"(n={k['n']})"
        )
    if s["errors"]:
        print(f"    refusals: {s['errors']}")
    if s.get("games_created"):
        print(f"    games ended and replaced during the timed phase: {s['games_created']}")


def _details(base: dict[str, Any], dl: dict[str, Any], diag: dict[str, Any] | None) -> None:
    """Every figure of one run (a baseline and a dicelog server of the same store)."""
    print("1 client, sequential:")
    print(_line("  baseline", base["sequential"]))
    _kinds(base["sequential"])
    print(_line("  dicelog", dl["sequential"]))
    _kinds(dl["sequential"])
    print(f"    projections right after: {dl['sequential']['projections']}")
    if diag is not None:
        print(_line("  dicelog, embedded worker off", diag["sequential"]))
        _kinds(diag["sequential"])
    print(f"{CLIENTS} clients, each on its own game:")
    print(_line("  baseline", base["concurrent"]))
    _kinds(base["concurrent"])
    print(_line("  dicelog", dl["concurrent"]))
    _kinds(dl["concurrent"])
    if diag is not None and "concurrent" in diag:
        print(_line("  dicelog, embedded worker off", diag["concurrent"]))
        w = diag["with_worker_process"]
        print(
            _line("  dicelog + dicelog worker process", w)
            + f"\n    (the worker process: {w['worker_process_cpu_ms_per_command']} ms CPU per command)"
        )
    print(
        f"    per round (cmd/s): baseline {[r['commands_per_s'] for r in base['concurrent']['rounds']]}"
        f"  dicelog {[r['commands_per_s'] for r in dl['concurrent']['rounds']]}"
    )
    print(
        f"    dicelog events/command {dl['concurrent']['events_per_command']}, events/s "
        f"{dl['concurrent']['events_per_s']}"
    )
    print(f"    projections right after: {dl['concurrent']['projections']}")
    if "full_turn_sequential" in dl:
        print("dicelog full turn, 1 client (Move, GET legal-commands, MoveTo, EndTurn):")
        for kind, s in dl["full_turn_sequential"]["latency_by_request"].items():
            print(f"    {kind:<30} median {s['median_ms']:7.2f} ms  p99 {s['p99_ms']:8.2f} ms  (n={s['n']})")


def _store_line(store: str, m: dict[str, Any]) -> None:
    b, d = m["baseline"], m["dicelog"]
    print(
        f"  {store:<9} 1 client p50/p99: dicelog {d['p50_1_client_ms']:.2f}/{d['p99_1_client_ms']:.2f} ms, "
        f"baseline {b['p50_1_client_ms']:.2f}/{b['p99_1_client_ms']:.2f} ms (p99 x{m['p99_1_client_ratio']})"
    )
    print(
        f"  {'':<9} {CLIENTS} clients: dicelog {d['commands_per_s_32_clients']} cmd/s "
        f"({d['events_per_command_32_clients']} events/cmd, server CPU "
        f"{d['server_cpu_ms_per_command_32_clients']} ms/cmd), "
        f"baseline {b['commands_per_s_32_clients']} cmd/s: ratio {m['throughput_ratio']:.1%} "
        f"(per run {m['throughput_ratio_per_run']})"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="few commands (smoke run)")
    parser.add_argument("--commands", type=int, default=None, help="sequential steps (default 1000)")
    parser.add_argument(
        "--per-client", type=int, default=None, help="steps per client per round, concurrent (default 50)"
    )
    parser.add_argument("--repeats", type=int, default=None, help="concurrent rounds (default 3)")
    parser.add_argument("--warmup", type=int, default=None, help="warm-up steps, sequential (default 50)")
    parser.add_argument("--turns", type=int, default=None, help="full turns with MoveTo (default 100)")
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="runs per store, each a baseline then a dicelog server; medians over them (default 3)",
    )
    parser.add_argument(
        "--stores",
        nargs="+",
        choices=("sqlite", "postgres"),
        default=["sqlite", "postgres"],
        help="stores to run on (default both; PostgreSQL is skipped, and said so, if unreachable)",
    )
    parser.add_argument(
        "--no-diagnostic", action="store_true", help="skip the dicelog run without embedded worker"
    )
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--pg-port", type=int, default=5432)
    parser.add_argument("--pg-dbname", default="test")
    parser.add_argument("--pg-user", default="postgres")
    args = parser.parse_args(argv)
    q = args.quick
    args.commands = args.commands or (40 if q else 1000)
    args.per_client = args.per_client or (4 if q else 50)
    args.repeats = args.repeats or (1 if q else 3)
    args.warmup = args.warmup or (20 if q else 50)
    args.turns = args.turns or (5 if q else 100)
    args.runs = args.runs or (1 if q else 3)
    stores: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    first: dict[str, Any] = {}
    for store in args.stores:
        if store == "postgres":
            with postgres_schema(args) as probe:
                if probe is None:
                    skipped[store] = "PostgreSQL unreachable"
                    continue
        runs: list[dict[str, Any]] = []
        for n in range(args.runs):
            common.header(
                f"http_roundtrip: POST /games/{{id}}/commands over HTTP (uvicorn, {store}), "
                f"run {n + 1}/{args.runs}"
            )
            base = measure("baseline", args, store=store)
            dl = measure("dicelog", args, store=store, full_turns_too=n == 0)
            diag = None
            if store == "sqlite" and n == 0 and not args.no_diagnostic:
                diag = measure("dicelog", args, worker=False, store=store, full_turns_too=False)
                diag["with_worker_process"] = measure(
                    "dicelog", args, worker=False, store=store, worker_process=True
                )["concurrent"]
            runs.append({"baseline": base, "dicelog": dl})
            if n == 0:
                _details(base, dl, diag)
                first.setdefault(
                    store, {"baseline": base, "dicelog": dl, "dicelog_without_embedded_worker": diag}
                )
            else:
                print(
                    f"  32 clients: dicelog {dl['concurrent']['commands_per_s']} cmd/s, "
                    f"baseline {base['concurrent']['commands_per_s']} cmd/s; 1-client p99 dicelog "
                    f"{dl['sequential']['latency']['p99_ms']} ms, baseline "
                    f"{base['sequential']['latency']['p99_ms']} ms"
                )
        stores[store] = {**over_runs(runs), "first_run": first[store]}
    common.header(f"http_roundtrip: medians over {args.runs} run(s) per store")
    for store, m in stores.items():
        _store_line(store, m)
    for store, why in skipped.items():
        print(f"  {store}: skipped ({why})")
    result: dict[str, Any] = {
        "quick": q,
        "settings": {
            k: getattr(args, k) for k in ("commands", "per_client", "repeats", "warmup", "turns", "runs")
        },
        "stores": {k: {kk: vv for kk, vv in v.items() if kk != "first_run"} for k, v in stores.items()},
        "skipped": skipped,
        "runs_detail": {k: v["first_run"] for k, v in stores.items()},
    }
    if "sqlite" in stores:  # the targets (and the keys run_all.py reads) are SQLite's
        m = stores["sqlite"]
        f = m["first_run"]
        seq_p99, tput_ratio = m["dicelog"]["p99_1_client_ms"], m["throughput_ratio"]
        seq_ok, tput_ok = seq_p99 <= TARGET_P99_MS, tput_ratio >= TARGET_THROUGHPUT_RATIO
        print(f"target 1-client p99 <= {TARGET_P99_MS} ms (SQLite): {common.verdict(seq_ok)} ({seq_p99} ms)")
        print(
            f"target {CLIENTS}-client throughput >= {TARGET_THROUGHPUT_RATIO:.0%} of baseline (SQLite): "
            f"{common.verdict(tput_ok)} ({tput_ratio:.1%})"
        )
        result.update(
            {
                "baseline": f["baseline"],
                "dicelog": f["dicelog"],
                "dicelog_without_embedded_worker": f["dicelog_without_embedded_worker"],
                "ratios": {
                    "p99_1_client": m["p99_1_client_ratio"],
                    "median_1_client": m["p50_1_client_ratio"],
                    "throughput_32_clients": tput_ratio,
                },
                "targets": {
                    "p99_1_client_ms_max": {"target": TARGET_P99_MS, "value": seq_p99, "met": seq_ok},
                    "throughput_ratio_min": {
                        "target": TARGET_THROUGHPUT_RATIO,
                        "value": tput_ratio,
                        "met": tput_ok,
                    },
                },
            }
        )
    print(f"written {common.write_result('http_roundtrip', result)}")
    return result


if __name__ == "__main__":
    main()
