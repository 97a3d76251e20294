"""Two ``dicelog worker`` processes share the projections and the publishing by partitions of games
(issue 34, item 3; ``dicelog.service.store.partitions``), and one takes over when the other is killed.

A real ``dicelog serve`` (no embedded worker) on a fresh PostgreSQL schema with a private Redis takes
commands from 3 clients; two workers with ``DICELOG_PARTITIONS=8`` follow the store. They must split
the 8 partitions 4 and 4, process every notification exactly once between them (the sum of their
``dicelog_events_processed_total`` is the number of notifications; no "Failed to record tracking"),
keep one tracking record per partition, and leave complete read models and Redis streams. Then one
is killed with SIGKILL: the other takes its 4 partitions once their leases expire
(``DICELOG_LEASE_TTL=2``) and the read models are complete again.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import (
    ROOT,
    Ledger,
    RedisServer,
    Server,
    create_game,
    free_port,
    get_until_answered,
    postgres_env,
    record,
    send_until_answered,
    wait_for,
)
from tests.services import PG, drop_postgres_schema, postgres_schema

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

PARTITIONS, CLIENTS = 8, 3
CONSUMERS = ("board", "initiative", "log", "audit_index", "publisher")


def _play(url: str, seed: int, ledger: Ledger, stop: threading.Event) -> None:
    """Play games one after the other, a new one every 10 commands (so the games, and the work,
    fall into every partition), until ``stop``."""
    rng = random.Random(seed)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            game, token = create_game(http)
            moves = 0
            while not stop.is_set():
                legal = get_until_answered(http, f"/games/{game}/legal-commands", token).json()
                moves += 1
                if not legal["commands"] or moves % 10 == 0:
                    game, token = create_game(http)
                    continue
                body = {"command": choose(legal["commands"], rng), "expected_version": legal["version"]}
                record(ledger, game, send_until_answered(http, game, token, body, ledger))
    except Exception as e:  # noqa: BLE001 - reported by the test
        ledger.unexpected.append(f"client crashed: {e!r}")


class Worker:
    """``dicelog worker`` as a child process with its probe port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "dicelog.service.cli.main", "worker", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def metrics(self) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
        """Samples by name, then by their labels."""
        out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
        for family in text_string_to_metric_families(httpx.get(f"{self.base}/metrics", timeout=5).text):
            for sample in family.samples:
                out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
        return out

    def held(self) -> int:
        try:
            return int(self.metrics()["dicelog_partitions_held"][()])
        except (httpx.HTTPError, KeyError):
            return -1

    def processed(self) -> dict[str, float]:
        samples = self.metrics()["dicelog_events_processed_total"]
        return {dict(labels)["consumer"]: value for labels, value in samples.items()}

    def caught_up(self) -> bool:
        try:
            checks = httpx.get(f"{self.base}/ready", timeout=5).json()["checks"]
        except httpx.HTTPError:
            return False
        return all(checks.get(name) == "ok" for name in CONSUMERS)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def schema() -> Iterator[str]:
    name = postgres_schema()
    try:
        yield name
    finally:
        drop_postgres_schema(name)


def _sql(schema: str, query: str) -> list[tuple]:
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {schema}")
        return conn.execute(query).fetchall()


def _check_read_models(schema: str, redis: RedisServer) -> int:
    """Every game's board, initiative track, audit index and log are at its last version, its public
    Redis stream holds every version, and each consumer has one tracking record per partition at the
    newest notification; returns the number of notifications."""
    games = dict(
        _sql(
            schema,
            "SELECT originator_id, max(originator_version) FROM games_events WHERE originator_id IN "
            "(SELECT originator_id FROM games_events WHERE originator_version = 1 "
            "AND topic = 'core/GameCreated') "
            "GROUP BY 1",
        )
    )
    assert len(games) >= CLIENTS, games
    for kind in ("board", "initiative", "audit_index"):
        documents = dict(_sql(schema, f"SELECT game_id, version FROM {kind}_documents"))
        assert {g: documents.get(g) for g in games} == games, kind
    for game, version in games.items():
        assert redis.client.xlen(f"dicelog:game:{game}") == version, game
        (lines,) = _sql(schema, f"SELECT max(version) FROM log_lines WHERE game_id = '{game}'")
        assert lines[0] == version, game  # a row per event, those without a line included
    ((newest,),) = _sql(schema, "SELECT max(notification_id) FROM games_events")
    for consumer in CONSUMERS:
        rows = dict(_sql(schema, f"SELECT application_name, notification_id FROM {consumer}_tracking"))
        rows.pop("__migration__", None)
        assert set(rows) == {f"Games#{k}/{PARTITIONS}" for k in range(PARTITIONS)}, (consumer, rows)
        assert set(rows.values()) == {newest}, (consumer, rows, newest)
    ((count,),) = _sql(schema, "SELECT count(*) FROM games_events")
    return int(count)


def test_two_workers_share_the_partitions_and_one_takes_over_when_the_other_dies(
    tmp_path: Path, schema: str
) -> None:
    redis = RedisServer()
    env = {
        **postgres_env(schema),
        "DICELOG_REDIS_URL": redis.url,
        "DICELOG_EMBEDDED_WORKER": "off",
        "DICELOG_PARTITIONS": str(PARTITIONS),
        "DICELOG_LEASE_TTL": "2",
    }
    server = Server(env, tmp_path / "serve.log")
    ledger, stop = Ledger(), threading.Event()
    threads: list[threading.Thread] = []
    workers: list[Worker] = []
    try:
        server.start()
        workers = [Worker(server.env, tmp_path / f"worker{n}.log") for n in range(2)]
        threads = [threading.Thread(target=_play, args=(server.url, n, ledger, stop)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        # generous: a worker starts in ~2 s on an idle machine, far longer on a loaded one
        assert wait_for(lambda: [w.held() for w in workers] == [4, 4], 120), (
            [w.held() for w in workers],
            workers[0].text()[-2000:],
        )
        time.sleep(6)  # both at work under the load
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert wait_for(lambda: all(w.caught_up() for w in workers), 120), [
            httpx.get(f"{w.base}/ready", timeout=5).text for w in workers
        ]
        count = _check_read_models(schema, redis)
        shares = [w.processed() for w in workers]
        for consumer in CONSUMERS:  # every notification processed once, by one of the two
            assert sum(share[consumer] for share in shares) == count, (consumer, shares, count)
        assert all(share["board"] > 0 for share in shares), shares
        for w in workers:
            assert "Failed to record tracking" not in w.text(), w.text()[-3000:]
            assert w.proc.poll() is None, w.text()[-3000:]

        # kill -9 one worker: the other takes its partitions once their leases expire
        workers[0].proc.send_signal(signal.SIGKILL)
        workers[0].proc.wait(timeout=10)
        killed_at = time.monotonic()
        stop.clear()
        threads = [threading.Thread(target=_play, args=(server.url, n, ledger, stop)) for n in range(CLIENTS)]
        for t in threads:
            t.start()
        assert wait_for(lambda: workers[1].held() == PARTITIONS, 60), workers[1].text()[-3000:]
        takeover = time.monotonic() - killed_at
        time.sleep(3)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert wait_for(workers[1].caught_up, 120), workers[1].text()[-3000:]
        _check_read_models(schema, redis)
        assert "Failed to record tracking" not in workers[1].text()
        print(f"shares before the kill: {shares}; takeover after {takeover:.1f} s")
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
        for w in workers:
            w.stop()
        server.stop()
        redis.stop()
