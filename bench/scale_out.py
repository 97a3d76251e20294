"""Beyond one machine (issue 34, items 3 and 4): projection workers and API replicas on PostgreSQL.

Two parts, each on a fresh PostgreSQL schema (127.0.0.1:5432, database ``test``) with a private
``redis-server``; every process is a real ``dicelog`` process; the clients are threads of this
script playing Mice and Mystics games with legal commands (a new game every 20 commands), one game
per client at a time.

1. **Workers** (``DICELOG_PARTITIONS``, default 8; ``DICELOG_LEASE_TTL=3``). The store is first
   filled by ``--clients`` clients for ``--prefill`` seconds through one ``serve`` (no worker). Then,
   for one worker with one partition (the baseline: the unpartitioned follower; ``--no-baseline``
   skips it) and for each count of ``--workers`` (1, 2, 4) with the partitions:

   - *catch-up*: the read models, their checkpoints, the leases and Redis are emptied, that many
     ``dicelog worker`` processes are started, and the time from the last one answering ``/live`` to
     every consumer's checkpoint (board, initiative, log, audit index, publisher; every partition)
     reaching the newest notification gives the events/s (the events still to do at that moment over
     the time), and over the CPU seconds the workers used meanwhile (events per worker CPU second:
     what a worker does with a core of its own, less sensitive to a loaded machine);
   - *steady lag*: ``--clients`` clients play for ``--seconds`` seconds (each at most
     ``--client-rate`` commands/s if given: the same offered load for every worker count; without it
     the clients go as fast as they are answered, and on a machine short of cores the workers take
     CPU from the server, so each row gets a different load); every 0.2 s the script reads
     the newest notification id and the lowest checkpoint; a sample's lag is the time until the
     lowest checkpoint reached that sample's newest id (median, p90, max), and the events behind.

2. **Replicas**: 1, 2 and 4 ``serve`` replicas (``--replicas``; no worker) on one store take
   ``--write-clients`` clients (spread over the replicas) for ``--seconds`` seconds each: accepted
   commands/s, and the share of the replicas' busy PostgreSQL sessions seen waiting
   (``pg_stat_activity`` every 0.1 s; each process's sessions are told apart by ``PGAPPNAME``, so a
   ``COMMIT`` counts too): for any lock, for the event store's ``LOCK TABLE ... IN EXCLUSIVE MODE``
   of each insert (``relation``), for the server-wide lock PostgreSQL takes at the commit of a
   transaction that sent a ``NOTIFY`` (``object``: the library notifies on every insert, though
   dicelog never listens), and for the write-ahead log. Whether the table lock is the limit reads
   from these: a high table-lock share while the CPU is not saturated.

The machine is shared (2 cores, other work running): every figure is a median of one short run,
with the ratio to the 1-worker or 1-replica run of the same invocation and the load average.
Writes ``bench/results/scale_out.json``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import (
    PYTHON,
    ROOT,
    clean_environ,
    cpu_seconds,
    free_port,
    header,
    loadavg,
    percentile,
    ratio,
    stop,
    wait_http,
    write_result,
)

PG = {"host": "127.0.0.1", "port": 5432, "dbname": "test", "user": "postgres"}
CONSUMERS = ("board", "initiative", "log", "audit_index", "publisher")
MICE = ["collin", "filch", "maginos", "nez"]
NEW_GAME = {
    "ruleset": "mice-and-mystics",
    "setup": {"chapter": "chapter-1", "mice": MICE},
    "seats": [{"name": "red", "controls": MICE}],
}


def sql(schema: str, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {schema}")
        cursor = conn.execute(query, params)  # type: ignore[arg-type]
        return cursor.fetchall() if cursor.description else []


class Stack:
    """A schema, a redis-server, and the dicelog processes started on them."""

    def __init__(self, tmp: Path, partitions: int) -> None:
        import psycopg

        self.schema = f"bench_{random.getrandbits(40):010x}"
        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {self.schema}")
        self.redis_port = free_port()
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.tmp = tmp
        self.env = {
            **clean_environ(),
            "DICELOG_STORE": "postgres",
            "DICELOG_POSTGRES_HOST": PG["host"],
            "DICELOG_POSTGRES_DBNAME": PG["dbname"],
            "DICELOG_POSTGRES_USER": PG["user"],
            "DICELOG_POSTGRES_SCHEMA": self.schema,
            "DICELOG_REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DICELOG_EMBEDDED_WORKER": "off",
            "DICELOG_PARTITIONS": str(partitions),
            "DICELOG_LEASE_TTL": "3",
            "DICELOG_RATE_LIMIT_CREATE": "off",
            "DICELOG_RATE_LIMIT_COMMANDS": "off",
            "DICELOG_LOG_LEVEL": "warning",
        }
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str, probe: str, **env: str) -> subprocess.Popen[bytes]:
        port = free_port()
        log = (self.tmp / f"{args[0]}-{port}.log").open("wb")
        proc = subprocess.Popen(
            [PYTHON, "-m", "dicelog.service.cli.main", *args, "--port", str(port)],
            cwd=ROOT,
            env={**self.env, "PGAPPNAME": f"{self.schema}-{args[0]}-{port}", **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        proc.url = f"http://127.0.0.1:{port}"  # type: ignore[attr-defined]
        proc.probe = f"{proc.url}{probe}"  # type: ignore[attr-defined]
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in self.procs:
            stop(proc)
        stop(self.redis)
        import psycopg

        with psycopg.connect(**PG, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")


def play(urls: list[str], n: int, stop_at: threading.Event, counts: list[int], pace: float = 0.0) -> None:
    """Client ``n``: legal commands on its own game, a new game every 20 commands, until ``stop_at``;
    with ``pace`` > 0, at most that many commands a second (each sent no earlier than its turn in a
    fixed schedule, so a slow answer is not made up by a burst)."""
    import httpx

    from dicelog.domain.mice_and_mystics.bot import choose_command

    rng = random.Random(n)
    next_at = time.monotonic()
    with httpx.Client(base_url=urls[n % len(urls)], timeout=30) as http:

        def new() -> tuple[str, dict[str, str]]:
            r = http.post("/games", json=NEW_GAME)
            r.raise_for_status()
            return r.json()["game"]["id"], {"Authorization": f"Bearer {r.json()['tokens'][0]['token']}"}

        game, auth = new()
        moves = 0
        while not stop_at.is_set():
            legal = http.get(f"/games/{game}/legal-commands", headers=auth)
            if legal.status_code != 200:
                continue
            body = legal.json()
            if not body["commands"] or moves >= 20:
                game, auth, moves = (*new(), 0)
                continue
            command = {"command": choose_command(body["commands"], rng), "expected_version": body["version"]}
            if pace > 0:
                next_at = max(next_at + 1 / pace, time.monotonic() - 1 / pace)
                if stop_at.wait(max(0.0, next_at - time.monotonic())):
                    break
            r = http.post(f"/games/{game}/commands", json=command, headers=auth)
            if r.status_code == 201:
                counts[n] += 1
                moves += 1


def load(
    urls: list[str],
    clients: int,
    seconds: float,
    during: Callable[[], None] | None = None,
    pace: float = 0.0,
) -> float:
    """Run ``clients`` clients for ``seconds`` (each at most ``pace`` commands/s, 0: as fast as
    answered); call ``during`` repeatedly meanwhile; commands/s."""
    stop_at, counts = threading.Event(), [0] * clients
    threads = [
        threading.Thread(target=play, args=(urls, n, stop_at, counts, pace), daemon=True)
        for n in range(clients)
    ]
    for t in threads:
        t.start()
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if during is not None:
            during()
        else:
            time.sleep(0.2)
    stop_at.set()
    elapsed = time.monotonic() - start
    for t in threads:
        t.join(timeout=30)
    return sum(counts) / elapsed


def newest(schema: str) -> int:
    return int(sql(schema, "SELECT coalesce(max(notification_id), 0) FROM games_events")[0][0])


def lowest_checkpoint(schema: str, partitions: int) -> int:
    """The lowest checkpoint of every consumer and partition (0 while a partition has none)."""
    low: int | None = None
    name = "Games" if partitions == 1 else f"Games#%/{partitions}"
    for consumer in CONSUMERS:
        ((count, least),) = sql(
            schema,
            f"SELECT count(*), min(notification_id) FROM {consumer}_tracking WHERE application_name LIKE %s",
            (name,),
        )
        at = int(least) if count == partitions else 0
        low = at if low is None else min(low, at)
    return low or 0


def reset_read_models(stack: Stack) -> None:
    """Empty the read models, their checkpoints (the library's ``__migration__`` marker kept), the
    leases and Redis: the next workers rebuild everything from the first notification."""
    tables = [
        "board_documents",
        "initiative_documents",
        "audit_index_documents",
        "log_lines",
        "dicelog_partition_leases",
        "dicelog_workers",
    ]
    sql(stack.schema, f"TRUNCATE {', '.join(tables)}")
    for consumer in CONSUMERS:
        sql(stack.schema, f"DELETE FROM {consumer}_tracking WHERE application_name <> '__migration__'")
    import redis

    redis.Redis(port=stack.redis_port).flushall()


def workers_part(args: argparse.Namespace, tmp: Path) -> list[dict[str, Any]]:
    stack = Stack(tmp / "workers", args.partitions)
    rows: list[dict[str, Any]] = []
    try:
        serve = stack.start("serve", probe="/ready")
        wait_http(serve.probe, proc=serve)  # type: ignore[attr-defined]
        rate = load([serve.url], args.clients, args.prefill)  # type: ignore[attr-defined]
        filled = newest(stack.schema)
        print(f"prefill: {filled} notifications ({rate:.0f} commands/s, {args.clients} clients, no worker)")
        runs = [(1, 1)] if args.baseline else []  # (workers, partitions)
        runs += [(count, args.partitions) for count in args.workers]
        for count, partitions in runs:
            for proc in [p for p in stack.procs if p is not serve]:
                stop(proc)
                stack.procs.remove(proc)
            reset_read_models(stack)
            workers = [
                stack.start("worker", probe="/live", DICELOG_PARTITIONS=str(partitions)) for _ in range(count)
            ]
            for w in workers:
                wait_http(w.probe, proc=w)  # type: ignore[attr-defined]
            t0, todo = time.monotonic(), newest(stack.schema) - lowest_checkpoint(stack.schema, partitions)
            target = newest(stack.schema)
            cpu0 = sum(cpu_seconds(w.pid) for w in workers)
            while lowest_checkpoint(stack.schema, partitions) < target:
                time.sleep(0.1)
            catch_up = todo / (time.monotonic() - t0)
            cpu = sum(cpu_seconds(w.pid) for w in workers) - cpu0
            samples: list[tuple[float, int, int]] = []

            def sample(samples: list[tuple[float, int, int]] = samples, partitions: int = partitions) -> None:
                samples.append(
                    (time.monotonic(), newest(stack.schema), lowest_checkpoint(stack.schema, partitions))
                )
                time.sleep(0.2)

            rate = load([serve.url], args.clients, args.seconds, sample, args.client_rate)  # type: ignore[attr-defined]
            top = samples[-1][1] if samples else 0
            deadline = time.monotonic() + 120
            while samples and samples[-1][2] < top and time.monotonic() < deadline:  # the load stopped
                sample()
            lags_s, behind = [], []
            for t, top, low in samples:
                behind.append(max(0, top - low))
                later = next((t2 for t2, _, low2 in samples if t2 >= t and low2 >= top), None)
                if later is not None:
                    lags_s.append(later - t)
            row = {
                "workers": count,
                "partitions": partitions,
                "catch_up_events": todo,
                "catch_up_events_per_s": round(catch_up),
                "catch_up_events_per_worker_cpu_s": round(todo / cpu) if cpu else None,
                "steady_lag_s_median": round(statistics.median(lags_s), 3) if lags_s else None,
                "steady_lag_s_p90": round(percentile(lags_s, 90), 3) if lags_s else None,
                "steady_lag_s_max": round(max(lags_s), 3) if lags_s else None,
                "steady_lag_events_median": statistics.median(behind),
                "samples": len(samples),
                "unresolved_samples": len(samples) - len(lags_s),
                "commands_per_s": round(rate, 1),
                "clients": args.clients,
                "client_rate": args.client_rate,
                "loadavg": loadavg(),
            }
            rows.append(row)
            print(row)
    finally:
        stack.close()
    return rows


WAIT_KINDS = ("lock_wait", "table_lock", "notify_lock", "wal")
"""What the replicas' busy sessions wait for (``wait_shares``)."""


def wait_shares(rows: list[tuple[Any, ...]]) -> dict[str, int]:
    """From ``(wait_event_type, wait_event, sessions)`` rows of ``pg_stat_activity``: the sessions
    waiting for any heavyweight lock (``lock_wait``); for a table lock (``table_lock``: ``relation``,
    the events table's ``LOCK TABLE ... IN EXCLUSIVE MODE`` of each insert); for the lock PostgreSQL
    takes at the commit of every transaction that sent a ``NOTIFY`` (``notify_lock``: ``object``, one
    lock for the whole server, which the library's insert sends); for the write-ahead log at commit
    (``wal``: ``WalSync``, ``WALWrite``, ``WalWrite``...)."""
    out = dict.fromkeys(WAIT_KINDS, 0)
    for kind, event, n in rows:
        if kind == "Lock":
            out["lock_wait"] += n
            if event == "relation":
                out["table_lock"] += n
            elif event == "object":
                out["notify_lock"] += n
        elif event and event.lower().startswith("wal"):
            out["wal"] += n
    return out


def replicas_part(args: argparse.Namespace, tmp: Path) -> list[dict[str, Any]]:
    stack = Stack(tmp / "replicas", 1)
    rows: list[dict[str, Any]] = []
    try:
        first = stack.start("serve", probe="/ready")  # migrates the schema
        wait_http(first.probe, proc=first)  # type: ignore[attr-defined]
        stop(first)
        stack.procs.remove(first)
        for count in args.replicas:
            for proc in list(stack.procs):
                stop(proc)
                stack.procs.remove(proc)
            replicas = [stack.start("serve", probe="/ready") for _ in range(count)]
            for r in replicas:
                wait_http(r.probe, proc=r)  # type: ignore[attr-defined]
            waits: dict[str, list[float]] = {kind: [] for kind in WAIT_KINDS}

            def sample(waits: dict[str, list[float]] = waits) -> None:
                rows_ = sql(
                    stack.schema,
                    "SELECT wait_event_type, wait_event, count(*) FROM pg_stat_activity "
                    "WHERE state <> 'idle' AND pid <> pg_backend_pid() AND application_name LIKE %s "
                    "GROUP BY 1, 2",
                    (f"{stack.schema}-%",),
                )
                active = sum(n for _, _, n in rows_)
                if active:
                    for kind, share in wait_shares(rows_).items():
                        waits[kind].append(share / active)
                time.sleep(0.1)

            urls = [r.url for r in replicas]  # type: ignore[attr-defined]
            rate = load(urls, args.write_clients, args.seconds, sample, args.write_client_rate)
            row = {
                "replicas": count,
                "clients": args.write_clients,
                "client_rate": args.write_client_rate,
                "commands_per_s": round(rate, 1),
                **{
                    f"{kind}_share": round(statistics.fmean(shares), 3) if shares else None
                    for kind, shares in waits.items()
                },
                "samples": len(waits["lock_wait"]),
                "loadavg": loadavg(),
            }
            rows.append(row)
            print(row)
    finally:
        stack.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The lag at 8 clients with 1, 2 and 4 workers (issue 34): "
        "python bench/scale_out.py --only workers --workers 1 2 4 --clients 8 "
        "(add --client-rate R to offer every row the same load, --no-baseline to skip the "
        "unpartitioned row). Commands/s with 1, 2 and 4 replicas: "
        "python bench/scale_out.py --only replicas --replicas 1 2 4 --write-clients 16.",
    )
    parser.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2, 4], help="worker counts of the worker part (1 2 4)"
    )
    parser.add_argument(
        "--replicas",
        type=int,
        nargs="+",
        default=[1, 2, 4],
        help="serve replica counts of the replica part (1 2 4)",
    )
    parser.add_argument(
        "--clients", type=int, default=8, help="clients of the worker part: prefill and steady lag (8)"
    )
    parser.add_argument(
        "--client-rate",
        type=float,
        default=0.0,
        help="commands/s each client of the worker part sends at most, so that every worker count gets the "
        "same load (0: as fast as answered; then the load a row gets depends on the CPU its workers leave)",
    )
    parser.add_argument("--write-clients", type=int, default=16, help="clients of the replica part (16)")
    parser.add_argument(
        "--write-client-rate",
        type=float,
        default=0.0,
        help="commands/s each client of the replica part sends at most (0: as fast as answered)",
    )
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="length of each steady-lag run and each replica run (15)"
    )
    parser.add_argument(
        "--prefill", type=float, default=20.0, help="seconds of load before the catch-up runs (20)"
    )
    parser.add_argument(
        "--partitions", type=int, default=8, help="DICELOG_PARTITIONS of the partitioned worker runs (8)"
    )
    parser.add_argument(
        "--baseline",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="first run one worker with one partition (the unpartitioned follower), the ratios' base",
    )
    parser.add_argument("--only", choices=["workers", "replicas"], help="run one part only")
    parser.add_argument("--quick", action="store_true", help="5 s runs, 5 s prefill")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.prefill = 5.0, 5.0
    import tempfile

    header("Beyond one machine: workers sharing partitions, API replicas (PostgreSQL + Redis)")
    print(f"load average before: {loadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "workers").mkdir()
        (Path(tmp) / "replicas").mkdir()
        workers = workers_part(args, Path(tmp)) if args.only != "replicas" else []
        replicas = replicas_part(args, Path(tmp)) if args.only != "workers" else []
    if workers:
        base = workers[0]
        print(
            "\nworkers (partitions) | catch-up events/s (ratio) | steady lag s median / p90 / max "
            "| events behind (median) | commands/s"
        )
        for row in workers:
            print(
                f"{row['workers']:>7} ({row['partitions']}) | {row['catch_up_events_per_s']:>8} "
                f"[{row['catch_up_events_per_worker_cpu_s']}/CPU s] "
                f"({ratio(row['catch_up_events_per_s'], base['catch_up_events_per_s'])}) "
                f"| {row['steady_lag_s_median']} / {row['steady_lag_s_p90']} / {row['steady_lag_s_max']} "
                f"| {row['steady_lag_events_median']} | {row['commands_per_s']}"
            )
    if replicas:
        base = replicas[0]
        print(
            "\nreplicas | commands/s (ratio) | busy sessions waiting for: any lock | the table lock "
            "| NOTIFY's commit lock | the WAL"
        )
        for row in replicas:
            print(
                f"{row['replicas']:>8} | {row['commands_per_s']:>7} "
                f"({ratio(row['commands_per_s'], base['commands_per_s'])}) "
                f"| {row['lock_wait_share']} | {row['table_lock_share']} | {row['notify_lock_share']} "
                f"| {row['wal_share']}"
            )
    path = write_result(
        "scale_out",
        {"args": vars(args), "workers": workers, "replicas": replicas, "loadavg_after": loadavg()},
    )
    print(f"\nwritten to {path}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
