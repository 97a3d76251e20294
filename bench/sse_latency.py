"""Commit -> SSE delivery: how long after a command is sent its events reach a live SSE stream.

    python bench/sse_latency.py [--quick] [--commands N] [--runs R] [--only TOPOLOGY ...]

Three topologies, each with real processes (``python -m dicelog.service.cli.main serve --port P``, i.e.
``dicelog serve``, and ``python -m dicelog.service.cli.main worker``, i.e. ``dicelog worker``), rate limits
off, ``DICELOG_LOG_LEVEL=warning``:

- ``embedded``: one ``dicelog serve``, the defaults (SQLite in a temp dir, no Redis, embedded
  worker on): the command and the stream go to the same process (in-process fan-out).
- ``redis-worker``: the production setup of docs/running.md: PostgreSQL (a fresh schema, dropped at the
  end), Redis, two API replicas with ``DICELOG_EMBEDDED_WORKER=false`` and one ``dicelog worker``.
  Commands go to replica A, the stream is read from replica B.
- ``redis-no-worker``: the same without the worker (A -> B again).

Redis is a ``redis-server`` this script starts on a free port (no persistence), unless
``--redis-url`` names one; PostgreSQL is ``--pg-*`` (default 127.0.0.1:5432, database ``test``,
user ``postgres``). The Redis topologies are skipped (and say so) when either is unavailable.

Each run creates a Chapter 1 game (server dice, default decisions) on A, opens
``GET /games/{id}/stream`` on B with ``Last-Event-ID`` = its version (only live events come) and
waits for the stream's first message, then sends commands one at a time, as ``http_roundtrip.py``
does (``Move``, then ``EndTurn``, for the mouse whose turn it is, with ``expected_version``; a new
game and stream when one ends), warm-up first. A command is sent once the previous one was
delivered and at least ``--interval`` seconds (default 0.05: 20 commands/s, far above a table's
pace) after the previous send: back to back (``--interval 0``) the five processes saturate two
cores and the figures measure the queueing for CPU rather than the delivery. Timed with
``perf_counter_ns`` in this process:

- **delivery**: from just before the ``POST /games/{id}/commands`` request is written until the
  SSE reader thread has read the blank line that ends the command's *last* event (a command
  writes 3-10 events in one transaction). This is send -> SSE, an upper bound of commit -> SSE:
  it includes the command's own processing (the round trip below);
- **POST round trip** (baseline, same commands): until the answer's body is read;
- **after the answer**: delivery minus round trip (negative when the stream was first);
- **after the wake-up** (Redis topologies): from the moment this script's own subscriber to
  ``dicelog:wake`` received replica A's wake-up for the command's last version (A publishes it
  right after the commit, so this is commit -> SSE give or take the bare PUBLISH round trip) to
  the event on B's stream;
- **bare Redis PUBLISH -> message** (baseline, Redis topologies): redis-py, a subscriber
  thread in this process, 500 round trips;
- ``redis-worker`` also: send -> the entry of the command's last event on the Redis stream
  ``dicelog:game:<id>`` (written by the worker's publisher), read by an ``XREAD BLOCK`` thread
  (the next command does not wait for it, as a player does not wait for the worker).

Also recorded: CPU milliseconds per command of each server process (``/proc/<pid>/stat``).

Figures per topology: p50 and p99 (nearest rank) of each run, and their medians over the runs.
Target: median p99 of delivery < 50 ms in every topology.
"""

from __future__ import annotations

import argparse
import http.client
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

TARGET_P99_MS = 50.0
TOPOLOGIES = ("embedded", "redis-worker", "redis-no-worker")
_decode = msgspec.json.decode
_encode = msgspec.json.encode


# --- processes -----------------------------------------------------------------------------


def _cli(*args: str) -> list[str]:
    """``dicelog ...`` as ``python -m dicelog.service.cli.main ...`` (the code of this tree)."""
    return [common.PYTHON, "-m", "dicelog.service.cli.main", *args]


class Processes:
    """The processes of one topology; all stopped at the end."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.stack = ExitStack()
        self.pids: dict[str, int] = {}

    def start(
        self, name: str, cmd: list[str], env: dict[str, str], health: str | None = None
    ) -> subprocess.Popen[bytes]:
        log = self.stack.enter_context(open(self.dir / f"{name}.log", "wb"))  # noqa: SIM115
        proc = subprocess.Popen(cmd, cwd=common.ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.stack.callback(common.stop, proc)
        self.pids[name] = proc.pid
        if health is not None:
            common.wait_http(health, proc=proc, timeout=60)
        return proc

    def serve(self, name: str, env: dict[str, str]) -> str:
        port = common.free_port()
        url = f"http://127.0.0.1:{port}"
        self.start(name, _cli("serve", "--host", "127.0.0.1", "--port", str(port)), env, url + "/health")
        return url

    def close(self) -> None:
        self.stack.close()


def _base_env(data_dir: Path) -> dict[str, str]:
    return {
        **common.clean_environ(),
        "PYTHONPATH": str(common.ROOT),
        "DICELOG_DATA_DIR": str(data_dir),
        "DICELOG_LOG_LEVEL": "warning",
        "DICELOG_RATE_LIMIT_CREATE": "off",
        "DICELOG_RATE_LIMIT_COMMANDS": "off",
    }


@contextmanager
def redis_server(url: str | None, directory: Path) -> Iterator[str | None]:
    """``url`` if given, else a private ``redis-server`` on a free port; ``None`` if neither."""
    import shutil

    if url is not None:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        yield None
        return
    port = common.free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(directory),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        client, deadline = redis.Redis(port=port), time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        common.stop(proc)


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
        name = f"bench_sse_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
    except Exception as e:  # noqa: BLE001 - any failure means: skip these topologies
        print(f"PostgreSQL unavailable ({e}): the Redis topologies are skipped", flush=True)
        yield None
        return
    try:
        yield name
    finally:
        with psycopg.connect(**conninfo) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")


# --- the SSE reader and the Redis stream reader (threads) -----------------------------------


class Arrivals:
    """perf_counter_ns at which each version arrived, shared with a reader thread."""

    def __init__(self) -> None:
        self.at: dict[int, int] = {}
        self.cond = threading.Condition()
        self.first = threading.Event()
        self.ended = threading.Event()

    def arrived(self, version: int, ns: int) -> None:
        with self.cond:
            self.at.setdefault(version, ns)
            self.cond.notify_all()

    def wait_for(self, version: int, timeout: float) -> int | None:
        with self.cond:
            self.cond.wait_for(lambda: version in self.at or self.ended.is_set(), timeout)
            return self.at.get(version)


class SSEReader:
    """``GET /games/{id}/stream`` on a blocking ``http.client`` connection, read in a thread;
    records when each event (by ``id``) is complete."""

    def __init__(self, url: str, game_id: str, after: int) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.conn.request(
            "GET",
            f"/games/{game_id}/stream",
            headers={"Accept": "text/event-stream", "Last-Event-ID": str(after)},
        )
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.arrivals = Arrivals()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.arrivals.first.wait(10):
            raise RuntimeError("the stream sent no first message")

    def _run(self) -> None:
        version: int | None = None
        try:
            while True:
                line = self.response.readline()
                if not line:
                    break
                if line in (b"\r\n", b"\n"):
                    now = time.perf_counter_ns()
                    self.arrivals.first.set()
                    if version is not None:
                        self.arrivals.arrived(version, now)
                    version = None
                elif line.startswith(b"id:"):
                    version = int(line[3:])
        except Exception:  # noqa: BLE001 - the stream ended, or close() cut it mid-line
            pass
        finally:
            self.arrivals.ended.set()
            with self.arrivals.cond:
                self.arrivals.cond.notify_all()

    def close(self) -> None:
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.close()
        self.thread.join(timeout=5)


class RedisStreamReader:
    """``XREAD BLOCK`` on a game's public Redis stream in a thread; records when each version's
    entry was read."""

    def __init__(self, redis_url: str, game_id: str) -> None:
        import redis

        self.client = redis.Redis.from_url(redis_url)
        self.key = f"dicelog:game:{game_id}"
        self.arrivals = Arrivals()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        last = "0-0"
        while not self.stop.is_set():
            found = self.client.xread({self.key: last}, block=200, count=100)
            now = time.perf_counter_ns()
            for _, entries in found:
                for entry_id, fields in entries:
                    last = entry_id
                    self.arrivals.arrived(int(fields[b"version"]), now)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.client.close()


class WakeWatcher:
    """Subscribes to the wake-up channel ``dicelog:wake`` (in a thread) and records when the
    wake-up of each version of one game arrived: about when replica A committed it (A publishes
    right after the commit; the bare PUBLISH round trip is the baseline)."""

    def __init__(self, redis_url: str) -> None:
        import redis

        from dicelog.service.store.fanout import WAKE_CHANNEL

        self.client = redis.Redis.from_url(redis_url)
        self.game_id = ""
        self.arrivals = Arrivals()
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(**{WAKE_CHANNEL: self._on_message})
        self.thread = self.pubsub.run_in_thread(sleep_time=0.2, daemon=True)

    def follow(self, game_id: str) -> None:
        self.game_id, self.arrivals = game_id, Arrivals()

    def _on_message(self, message: dict[str, Any]) -> None:
        now = time.perf_counter_ns()
        _, game_id, version = message["data"].decode().split(" ")
        if game_id == self.game_id:
            self.arrivals.arrived(int(version), now)

    def close(self) -> None:
        self.thread.stop()
        self.thread.join(timeout=5)
        self.client.close()


# --- the client -------------------------------------------------------------------------------


class Player:
    """Sends commands to replica A (blocking keep-alive ``http.client``), one game at a time."""

    def __init__(self, url: str) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.turn: str | None = None
        self.moved = False

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = _encode(body) if body is not None else None
        self.conn.request(
            method, path, body=data, headers={"content-type": "application/json", **(headers or {})}
        )
        r = self.conn.getresponse()
        return r.status, _decode(r.read())

    def create(self) -> dict[str, Any]:
        status, body = self.request(
            "POST",
            "/games",
            {
                "ruleset": "mice-and-mystics",
                "setup": {"chapter": "chapter-1", "mice": list(common.MICE)},
                "seats": list(common.SEATS),
                "dice_mode": "server",
                "decision_policy": "default",
            },
        )
        assert status == 201, body
        self.id, self.version, self.turn = body["game"]["id"], body["game"]["version"], body["game"]["turn"]
        self.auth = {t["seat"]: {"Authorization": f"Bearer {t['token']}"} for t in body["tokens"]}
        self.moved = False
        return body

    def next_command(self) -> dict[str, Any]:
        assert self.turn is not None
        return {"type": "EndTurn" if self.moved else "Move", "mouse": self.turn}

    def send(self, command: dict[str, Any]) -> tuple[int, int, dict[str, Any] | None]:
        """(t0 ns, answer ns, answer or None when refused); moves the game's state along."""
        t0 = time.perf_counter_ns()
        status, body = self.request(
            "POST",
            f"/games/{self.id}/commands",
            {"command": command, "expected_version": self.version},
            self.auth[common.SEAT_OF[command["mouse"]]],
        )
        t1 = time.perf_counter_ns()
        self.moved = command["type"] == "Move"  # tried: EndTurn next, even when the Move was refused
        if status != 201:
            if command["type"] == "EndTurn":
                self.turn = None  # a new game
            return t0, t1, None
        self.version, self.turn = body["version"], body["turn"]
        if body.get("result") is not None:
            self.turn = None
        return t0, t1, body

    def close(self) -> None:
        self.conn.close()


def one_run(
    url_a: str, url_b: str, args: argparse.Namespace, redis_url: str | None, watch: WakeWatcher | None
) -> dict[str, Any]:
    """``args.warmup`` then ``args.commands`` timed commands, one every ``args.interval`` seconds
    at most; delivery read from ``url_b``; with ``redis_url``, the Redis stream read too; with
    ``watch``, the wake-ups."""
    commands, warmup = args.commands, args.warmup
    player = Player(url_a)
    samples: dict[str, list[int]] = {
        "delivery": [],
        "round_trip": [],
        "after_answer": [],
        "after_wake": [],
        "redis_stream": [],
    }
    lost = refused = games = 0
    reader: SSEReader | None = None
    stream: RedisStreamReader | None = None
    sent: list[tuple[int, int]] = []  # (version, t0) of this game's timed commands, for the Redis stream

    def stream_samples() -> None:
        """The Redis stream figures of the game just played (not waited for command by command:
        the client does not wait for the worker, so neither does the next command)."""
        if stream is not None and sent:
            stream.arrivals.wait_for(sent[-1][0], timeout=10)
            samples["redis_stream"].extend(
                stream.arrivals.at[v] - t0 for v, t0 in sent if v in stream.arrivals.at
            )
        sent.clear()

    last_send: int | None = None
    try:
        done = 0
        while done < commands + warmup:
            if player.turn is None:
                stream_samples()
                for r in (reader, stream):
                    if r is not None:
                        r.close()
                player.create()
                games += 1
                reader = SSEReader(url_b, player.id, player.version)
                if watch is not None:
                    watch.follow(player.id)
                stream = RedisStreamReader(redis_url, player.id) if redis_url else None
            assert reader is not None
            if last_send is not None:  # the pace: a table sends a command every few seconds, not back to back
                time.sleep(max(0.0, args.interval - (time.perf_counter_ns() - last_send) / 1e9))
            t0, t1, answer = player.send(player.next_command())
            last_send = t0
            if answer is None:
                refused += 1
                if refused > 10 * (commands + warmup):
                    raise RuntimeError(f"{refused} commands refused: the player is stuck")
                continue
            done += 1
            got = reader.arrivals.wait_for(answer["version"], timeout=10)
            woke = watch.arrivals.wait_for(answer["version"], timeout=1) if watch is not None else None
            if done <= warmup:
                continue
            if got is None:
                lost += 1
                continue
            samples["delivery"].append(got - t0)
            samples["round_trip"].append(t1 - t0)
            samples["after_answer"].append(got - t1)
            if woke is not None:
                samples["after_wake"].append(got - woke)
            sent.append((answer["version"], t0))
        stream_samples()
    finally:
        for r in (reader, stream):
            if r is not None:
                r.close()
        player.close()
    out: dict[str, Any] = {"games": games, "refused": refused, "not_delivered_within_10_s": lost}
    for name, values in samples.items():
        if values:
            signed = name in ("after_answer", "after_wake")
            out[name] = _signed_summary(values) if signed else common.summarize_ms(values)
    return out


def _signed_summary(samples_ns: list[int]) -> dict[str, float]:
    """``summarize_ms`` for values that may be negative, plus the share of negative ones."""
    ms = sorted(s / 1e6 for s in samples_ns)
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 4),
        "p99_ms": round(common.percentile(ms, 99), 4),
        "share_before_answer": round(sum(1 for m in ms if m < 0) / len(ms), 3),
    }


def publish_round_trip(redis_url: str, n: int = 500) -> dict[str, float]:
    """Bare redis-py ``PUBLISH`` -> the message in a subscriber thread of this process."""
    import redis

    client = redis.Redis.from_url(redis_url)
    got = threading.Event()
    received: list[int] = []

    def handler(message: dict[str, Any]) -> None:
        received.append(time.perf_counter_ns())
        got.set()

    pubsub = client.pubsub()
    pubsub.subscribe(**{"bench:sse:baseline": handler})
    thread = pubsub.run_in_thread(sleep_time=0.5, daemon=True)
    time.sleep(0.2)
    out = []
    for _ in range(n):
        got.clear()
        t0 = time.perf_counter_ns()
        client.publish("bench:sse:baseline", "x")
        if got.wait(5):
            out.append(received[-1] - t0)
    thread.stop()
    thread.join(timeout=5)
    client.close()
    return common.summarize_ms(out)


# --- topologies -------------------------------------------------------------------------------


def topology(
    name: str, args: argparse.Namespace, tmp: Path, redis_url: str | None, schema: str | None
) -> dict[str, Any]:
    procs = Processes(tmp)
    try:
        env = _base_env(tmp / "data")
        if name == "embedded":
            url_a = url_b = procs.serve("serve", env)
            stream_redis = None
            layout = "one `dicelog serve` (SQLite, no Redis, embedded worker): command and stream on it"
        else:
            assert redis_url is not None and schema is not None
            env.update(
                DICELOG_STORE="postgres",
                DICELOG_POSTGRES_HOST=args.pg_host,
                DICELOG_POSTGRES_PORT=str(args.pg_port),
                DICELOG_POSTGRES_DBNAME=args.pg_dbname,
                DICELOG_POSTGRES_USER=args.pg_user,
                DICELOG_POSTGRES_SCHEMA=schema,
                DICELOG_REDIS_URL=redis_url,
                DICELOG_EMBEDDED_WORKER="false",
            )
            url_a = procs.serve("replica-a", env)  # first: creates the tables
            url_b = procs.serve("replica-b", env)
            if name == "redis-worker":
                procs.start("worker", _cli("worker"), env)
                layout = "PostgreSQL + Redis, replicas A and B, `dicelog worker`: command to A, stream from B"
                stream_redis = redis_url
            else:
                layout = "PostgreSQL + Redis, replicas A and B, no worker: command to A, stream from B"
                stream_redis = None
        watch = WakeWatcher(redis_url) if redis_url is not None and name != "embedded" else None
        cpu = {n: common.cpu_seconds(pid) for n, pid in procs.pids.items()}
        load_before = common.loadavg()
        try:
            runs = [one_run(url_a, url_b, args, stream_redis, watch) for _ in range(args.runs)]
        finally:
            if watch is not None:
                watch.close()
        commands = sum(r["delivery"]["n"] for r in runs)
        cpu = {
            n: round((common.cpu_seconds(pid) - cpu[n]) * 1e3 / commands, 2) for n, pid in procs.pids.items()
        }
    finally:
        procs.close()
    result: dict[str, Any] = {
        "layout": layout,
        "runs": runs,
        "cpu_ms_per_command": cpu,
        "loadavg_before_after": [load_before, common.loadavg()],
    }
    for figure in ("delivery", "round_trip", "after_answer", "after_wake", "redis_stream"):
        per_run = [r[figure] for r in runs if figure in r]
        if per_run:
            result[figure] = {
                k: round(statistics.median(r[k] for r in per_run), 3) for k in ("median_ms", "p99_ms")
            }
            result[figure]["worst_run_p99_ms"] = max(r["p99_ms"] for r in per_run)
    result["met"] = result["delivery"]["p99_ms"] < TARGET_P99_MS
    return result


def _line(label: str, figure: dict[str, float] | None) -> str:
    if not figure:
        return f"    {label:<34} -"
    return (
        f"    {label:<34} p50 {figure['median_ms']:7.2f} ms   p99 {figure['p99_ms']:7.2f} ms"
        f"   (worst run p99 {figure['worst_run_p99_ms']:.2f})"
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="few commands, one run (smoke run)")
    parser.add_argument("--commands", type=int, default=None, help="timed commands per run (default 300)")
    parser.add_argument("--warmup", type=int, default=None, help="warm-up commands per run (default 20)")
    parser.add_argument("--runs", type=int, default=None, help="runs per topology (default 3)")
    parser.add_argument(
        "--interval",
        type=float,
        default=0.05,
        help="seconds from one command's send to the next one's at least (default 0.05; 0: back to back)",
    )
    parser.add_argument("--only", nargs="+", choices=TOPOLOGIES, help="only these topologies")
    parser.add_argument(
        "--redis-url", default=None, help="an existing Redis (default: start a private redis-server)"
    )
    parser.add_argument("--pg-host", default="127.0.0.1")
    parser.add_argument("--pg-port", type=int, default=5432)
    parser.add_argument("--pg-dbname", default="test")
    parser.add_argument("--pg-user", default="postgres")
    args = parser.parse_args(argv)
    q = args.quick
    args.commands = args.commands or (30 if q else 300)
    args.warmup = args.warmup or (5 if q else 20)
    args.runs = args.runs or (1 if q else 3)
    names = args.only or TOPOLOGIES
    common.header(
        "sse_latency: commit -> SSE delivery (send of POST /commands -> event read from the stream)"
    )
    results: dict[str, Any] = {}
    baseline: dict[str, float] | None = None
    with tempfile.TemporaryDirectory(prefix="dicelog-sse-") as tmp_name:
        tmp = Path(tmp_name)
        needs_services = any(n != "embedded" for n in names)
        with ExitStack() as services:
            redis_url = services.enter_context(redis_server(args.redis_url, tmp)) if needs_services else None
            if needs_services and redis_url is None:
                print(
                    "no redis-server on PATH and no --redis-url: the Redis topologies are skipped", flush=True
                )
            if redis_url is not None:
                baseline = publish_round_trip(redis_url)
            for name in names:
                directory = tmp / name
                directory.mkdir()
                if name == "embedded":
                    results[name] = topology(name, args, directory, None, None)
                elif redis_url is None:
                    results[name] = {"skipped": "no Redis"}
                else:
                    with postgres_schema(args) as schema:
                        if schema is None:
                            results[name] = {"skipped": "no PostgreSQL"}
                            continue
                        results[name] = topology(name, args, directory, redis_url, schema)
    for name, r in results.items():
        print(f"{name}:")
        if "skipped" in r:
            print(f"    skipped: {r['skipped']}")
            continue
        print(f"    {r['layout']}")
        print(_line("delivery (send -> SSE)", r["delivery"]))
        print(_line("baseline: POST round trip", r["round_trip"]))
        after = r["after_answer"]
        print(
            f"    {'SSE after the answer':<34} p50 {after['median_ms']:7.2f} ms   p99 {after['p99_ms']:7.2f} "
            "ms"
        )
        if "after_wake" in r:
            wake = r["after_wake"]
            print(
                f"    {'SSE after the wake-up (~commit)':<34} p50 {wake['median_ms']:7.2f} ms   "
                f"p99 {wake['p99_ms']:7.2f} ms"
            )
        if "redis_stream" in r:
            print(_line("send -> Redis stream (worker)", r["redis_stream"]))
        lost = sum(run["not_delivered_within_10_s"] for run in r["runs"])
        print(
            f"    CPU ms per command (warm-up and refusals included): {r['cpu_ms_per_command']}; "
            f"load average before/after: {r['loadavg_before_after'][0][:1]} / "
            f"{r['loadavg_before_after'][1][:1]}"
        )
        refused = sum(run["refused"] for run in r["runs"])
        print(
            f"    runs {len(r['runs'])} x {args.commands} commands (+ {refused} refused by the rules, not "
            "timed); "
            f"not delivered within 10 s: {lost}"
        )
        print(f"    target p99 < {TARGET_P99_MS:.0f} ms: {common.verdict(r['met'])}")
    if baseline is not None:
        print(
            f"baseline: bare Redis PUBLISH -> message (redis-py, {baseline['n']} round trips): "
            f"p50 {baseline['median_ms']:.3f} ms, p99 {baseline['p99_ms']:.3f} ms"
        )
    result = {
        "quick": q,
        "settings": {k: getattr(args, k) for k in ("commands", "warmup", "runs", "interval")},
        "measured": (
            "from just before the POST is written to the end of the command's last event on the stream"
        ),
        "baseline_redis_publish_round_trip": baseline,
        "topologies": results,
        "target": {
            "p99_ms_max": TARGET_P99_MS,
            "met": all(r.get("met", False) for r in results.values() if "skipped" not in r),
        },
    }
    print(f"written {common.write_result('sse_latency', result)}")
    return result


if __name__ == "__main__":
    main()
