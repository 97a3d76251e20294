"""dicelog behind a live PgBouncer in transaction pooling mode (issue 34, item 6; docs/operations.md,
"PgBouncer"), the way ``k8s/pgbouncer.yaml`` runs it.

A private PgBouncer is started with the ``[pgbouncer]`` settings of the manifest's ConfigMap
(``pool_mode = transaction``, the pool sizes, ``query_wait_timeout``, ``max_prepared_statements`` when
the binary knows it), listening on 127.0.0.1 with ``auth_type = trust`` in front of the test
database. ``dicelog migrate`` runs against PostgreSQL directly (its advisory lock is session state),
then ``dicelog serve`` and two ``dicelog worker`` processes with ``DICELOG_PARTITIONS=4`` connect
through PgBouncer only (``DICELOG_AUTO_MIGRATE=false``, as in production). Three clients play games;
the test asserts that no request failed (no 5xx, no 503), that every game verifies with everything
acknowledged in its log, that the read models and Redis streams are complete, that the workers hold
2 + 2 partitions and processed every notification once between them, and that the survivor takes the
4 partitions over after the other is killed with SIGKILL (``DICELOG_LEASE_TTL=3``) and keeps the
read models complete. PgBouncer's own statistics (its admin
console) show that the transactions went through it.

PgBouncer before 1.21 (Debian 12 ships 1.18) keeps no prepared statements in transaction mode and
refuses ``max_prepared_statements``: the test then runs dicelog with
``DICELOG_POSTGRES_PREPARED_STATEMENTS=false``, as docs/operations.md tells an operator to.

Slow profile (docs/testing.md): it starts PgBouncer, a server and two workers and waits for a lease
to expire.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psycopg
import pytest
import yaml

from tests.faults.support import (
    ROOT,
    Ledger,
    RedisServer,
    Server,
    check_game,
    free_port,
    postgres_env,
    wait_for,
)
from tests.integration.support import CONSUMERS, Worker, check_read_models, play
from tests.services import PG, pgbouncer_binary

# slow: it starts PgBouncer, a server and two workers, and waits for a dead worker's leases to expire
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PARTITIONS, CLIENTS = 4, 3
MANIFEST = ROOT / "k8s" / "pgbouncer.yaml"
PREPARED_STATEMENTS_SINCE = (1, 21)
"""PgBouncer keeps protocol-level prepared statements in transaction mode from 1.21 on."""


def _manifest_settings() -> dict[str, str]:
    """The ``[pgbouncer]`` section of the ConfigMap's ``pgbouncer.ini`` in ``k8s/pgbouncer.yaml``."""
    config_map = next(
        doc for doc in yaml.safe_load_all(MANIFEST.read_text()) if doc and doc["kind"] == "ConfigMap"
    )
    ini = configparser.ConfigParser(inline_comment_prefixes=(";",))
    ini.read_string(config_map["data"]["pgbouncer.ini"])
    return dict(ini["pgbouncer"])


class PgBouncer:
    """A private PgBouncer on a free port in front of the test database (as ``test``), with the
    manifest's pooling settings; its log goes to ``log``. As root it drops to ``nobody`` (PgBouncer
    refuses to run as root)."""

    def __init__(self, log: Path) -> None:
        self.binary = pgbouncer_binary()
        out = subprocess.run([self.binary, "--version"], capture_output=True, text=True, check=True).stdout
        found = re.search(r"PgBouncer (\d+)\.(\d+)", out)
        assert found, out
        self.version = (int(found[1]), int(found[2]))
        self.port = free_port()
        self.log = log
        settings = _manifest_settings()
        assert settings["pool_mode"] == "transaction", settings
        if self.version < PREPARED_STATEMENTS_SINCE:
            del settings["max_prepared_statements"]  # unknown before 1.21: PgBouncer would not start
        self.dir = Path(tempfile.mkdtemp(prefix="dicelog-pgbouncer-"))
        self.dir.chmod(0o755)  # readable by nobody
        (self.dir / "userlist.txt").write_text(f'"{PG["user"]}" ""\n')
        settings.update(
            listen_addr="127.0.0.1",
            listen_port=str(self.port),
            unix_socket_dir="",
            auth_type="trust",
            auth_file=str(self.dir / "userlist.txt"),
            admin_users=PG["user"],
            stats_users=PG["user"],
        )
        lines = ["[databases]", f"{PG['dbname']} = host={PG['host']} port={PG['port']} dbname={PG['dbname']}"]
        lines += ["", "[pgbouncer]", *(f"{k} = {v}" for k, v in settings.items())]
        ini = self.dir / "pgbouncer.ini"
        ini.write_text("\n".join(lines) + "\n")
        for path in self.dir.iterdir():
            path.chmod(0o644)
        user = ["-u", "nobody"] if os.geteuid() == 0 else []
        with log.open("ab") as out_log:
            self.proc = subprocess.Popen(
                [self.binary, *user, str(ini)], stdout=out_log, stderr=subprocess.STDOUT
            )
        try:
            assert wait_for(self._answers, 30), f"PgBouncer did not start:\n{self.text()}"
        except BaseException:
            self.stop()  # nothing left running nor on disk
            raise

    def _answers(self) -> bool:
        assert self.proc.poll() is None, f"PgBouncer exited with {self.proc.returncode}:\n{self.text()}"
        try:
            with psycopg.connect(**{**PG, "port": self.port}, connect_timeout=2, autocommit=True) as conn:
                return conn.execute("SELECT 1").fetchone() == (1,)
        except psycopg.OperationalError:
            return False

    def stats(self) -> dict[str, int]:
        """The admin console's ``SHOW STATS`` row of the test database."""
        conn = psycopg.connect(
            host="127.0.0.1", port=self.port, dbname="pgbouncer", user=PG["user"], autocommit=True
        )
        try:
            cur = conn.cursor()
            cur.execute("SHOW STATS")
            names = [c.name for c in cur.description or ()]
            rows = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        finally:
            conn.close()
        row = next(r for r in rows if r["database"] == PG["dbname"])
        return {k: int(v) for k, v in row.items() if k != "database"}

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # PgBouncer: SIGINT is a fast shutdown
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _play_until(server: Server, ledger: Ledger, tokens: dict[str, str], commands: int, games: int) -> None:
    """Play from ``CLIENTS`` clients until ``commands`` more commands are acknowledged and at least
    ``games`` games exist (a count, not a time: the machine may be slow), within 300 s."""
    start = ledger.statuses.get(201, 0)
    stop = threading.Event()
    threads = [
        threading.Thread(target=play, args=(server.url, n + len(tokens), ledger, stop, tokens))
        for n in range(CLIENTS)
    ]
    for t in threads:
        t.start()
    try:
        assert wait_for(
            lambda: (
                ledger.unexpected
                or (ledger.statuses.get(201, 0) - start >= commands and len(tokens) >= games)
            ),
            300,
            interval=0.5,
        ), (ledger.statuses, len(tokens), server.tail())
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=120)


def test_serve_and_workers_through_a_transaction_pooling_pgbouncer(tmp_path: Path, schema: str) -> None:
    pgbouncer_binary()  # first: if missing, the test fails (REQUIRE_SERVICES=1) or skips at once
    direct = {k: v for k, v in os.environ.items() if not k.startswith(("DICELOG_", "PG"))}
    direct.update(postgres_env(schema))
    migrated = subprocess.run(
        [sys.executable, "-m", "dicelog.service.cli.main", "migrate"],
        cwd=ROOT,
        env=direct,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr

    bouncer = PgBouncer(tmp_path / "pgbouncer.log")
    try:
        redis = RedisServer()
    except BaseException:
        bouncer.stop()
        raise
    env = {
        **postgres_env(schema),
        "DICELOG_POSTGRES_PORT": str(bouncer.port),
        "DICELOG_AUTO_MIGRATE": "false",
        "DICELOG_REDIS_URL": redis.url,
        "DICELOG_EMBEDDED_WORKER": "off",
        "DICELOG_PARTITIONS": str(PARTITIONS),
        "DICELOG_LEASE_TTL": "3",
    }
    if bouncer.version < PREPARED_STATEMENTS_SINCE:
        env["DICELOG_POSTGRES_PREPARED_STATEMENTS"] = "false"
    server = Server(env, tmp_path / "serve.log")
    ledger, tokens = Ledger(), dict[str, str]()
    workers: list[Worker] = []
    try:
        before = bouncer.stats()
        server.start(timeout=240)  # generous: a loaded machine starts it slowly
        workers = [Worker(server.env, tmp_path / f"worker{n}.log") for n in range(2)]
        assert wait_for(lambda: sorted(w.held() for w in workers) == [2, 2], 120), (
            [w.held() for w in workers],
            workers[0].text()[-2000:],
        )
        _play_until(server, ledger, tokens, commands=40, games=8)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert set(ledger.statuses) <= {201, 409, 422}, ledger.statuses  # no 503, no 5xx
        assert ledger.interrupted == 0, ledger.interrupted
        assert wait_for(lambda: all(w.caught_up() for w in workers), 120), [
            httpx.get(f"{w.base}/ready", timeout=5).text for w in workers
        ]
        count = check_read_models(schema, redis, PARTITIONS, CLIENTS)
        shares = [w.processed() for w in workers]
        for consumer in CONSUMERS:  # every notification processed once, by one of the two
            assert sum(share[consumer] for share in shares) == count, (consumer, shares, count)
        assert all(share["board"] > 0 for share in shares), shares
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for game, token in tokens.items():
                check_game(http, game, token, ledger.acked.get(game, []))

        # kill -9 one worker: the other takes its partitions once their leases expire
        workers[0].proc.send_signal(signal.SIGKILL)
        workers[0].proc.wait(timeout=10)
        killed_at = time.monotonic()
        assert wait_for(lambda: workers[1].held() == PARTITIONS, 60), workers[1].text()[-3000:]
        takeover = time.monotonic() - killed_at
        _play_until(server, ledger, tokens, commands=20, games=len(tokens) + 2)
        assert not ledger.unexpected, ledger.unexpected[:5]
        assert set(ledger.statuses) <= {201, 409, 422}, ledger.statuses
        assert wait_for(workers[1].caught_up, 120), workers[1].text()[-3000:]
        check_read_models(schema, redis, PARTITIONS, CLIENTS)

        after = bouncer.stats()
        assert after["total_xact_count"] - before["total_xact_count"] > count, (before, after)
        for log in (server.log, *(w.log for w in workers)):
            text = log.read_text(errors="replace")
            for sign in ("Traceback", "prepared statement", "Failed to record tracking"):
                assert sign not in text, f"{log.name}: {sign}\n{text[-3000:]}"
        assert workers[1].proc.poll() is None, workers[1].text()[-3000:]
        print(
            f"PgBouncer {bouncer.version}: {count} notifications, {len(tokens)} games, "
            f"statuses {ledger.statuses}, shares {shares}, takeover after {takeover:.1f} s, "
            f"{after['total_xact_count'] - before['total_xact_count']} transactions through PgBouncer"
        )
    finally:
        for w in workers:
            w.stop()
        server.stop()
        redis.stop()
        bouncer.stop()
