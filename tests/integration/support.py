"""What the integration tests of several workers share: clients that play Mice and Mystics games
one after the other through a real ``dicelog serve`` (``play``), ``dicelog worker`` as a child process
read through its probe port (``Worker``), and the check that the read models, the Redis streams and
the partitions' tracking records are complete (``check_read_models``)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import psycopg
from prometheus_client.parser import text_string_to_metric_families

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import (
    ROOT,
    Ledger,
    RedisServer,
    create_game,
    free_port,
    get_until_answered,
    record,
    send_until_answered,
)
from tests.services import PG

CONSUMERS = ("board", "initiative", "log", "audit_index", "publisher")


def play(
    url: str,
    seed: int,
    ledger: Ledger,
    stop: threading.Event,
    tokens: dict[str, str] | None = None,
) -> None:
    """Play games one after the other, a new one every 10 commands (so the games, and the work,
    fall into every partition), until ``stop``; each game's token goes into ``tokens``."""
    rng = random.Random(seed)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            game, token = create_game(http)
            if tokens is not None:
                tokens[game] = token
            moves = 0
            while not stop.is_set():
                legal = get_until_answered(http, f"/games/{game}/legal-commands", token).json()
                moves += 1
                if not legal["commands"] or moves % 10 == 0:
                    game, token = create_game(http)
                    if tokens is not None:
                        tokens[game] = token
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


def sql(schema: str, query: str) -> list[tuple]:
    """Rows of ``query`` run on PostgreSQL itself (never through a pooler) in ``schema``."""
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {schema}")
        return conn.execute(query).fetchall()


def check_read_models(schema: str, redis: RedisServer, partitions: int, games_at_least: int) -> int:
    """Every game's board, initiative track, audit index and log are at its last version, its public
    Redis stream holds every version, and each consumer has one tracking record per partition at the
    newest notification; returns the number of notifications."""
    games = dict(
        sql(
            schema,
            "SELECT originator_id, max(originator_version) FROM games_events WHERE originator_id IN "
            "(SELECT originator_id FROM games_events WHERE originator_version = 1 "
            "AND topic = 'core/GameCreated') "
            "GROUP BY 1",
        )
    )
    assert len(games) >= games_at_least, games
    for kind in ("board", "initiative", "audit_index"):
        documents = dict(sql(schema, f"SELECT game_id, version FROM {kind}_documents"))
        assert {g: documents.get(g) for g in games} == games, kind
    for game, version in games.items():
        assert redis.client.xlen(f"dicelog:game:{game}") == version, game
        (lines,) = sql(schema, f"SELECT max(version) FROM log_lines WHERE game_id = '{game}'")
        assert lines[0] == version, game  # a row per event, those without a line included
    ((newest,),) = sql(schema, "SELECT max(notification_id) FROM games_events")
    for consumer in CONSUMERS:
        rows = dict(sql(schema, f"SELECT application_name, notification_id FROM {consumer}_tracking"))
        rows.pop("__migration__", None)
        assert set(rows) == {f"Games#{k}/{partitions}" for k in range(partitions)}, (consumer, rows)
        assert set(rows.values()) == {newest}, (consumer, rows, newest)
    ((count,),) = sql(schema, "SELECT count(*) FROM games_events")
    return int(count)
