"""``kill -9`` under load (issue 12: "10 kill -9 restarts: 0 acknowledged commands lost, 0 gaps").

A real ``dicelog serve`` (embedded worker) is started on a fresh store, SQLite in a temporary data
directory and PostgreSQL in a fresh schema. 12 clients (two per game, so they also race on
``expected_version``) send legal commands read from ``/legal-commands``, each with an
``Idempotency-Key``. The server is killed with SIGKILL at random moments, 5 times, and restarted on
the same store; a command that got no answer is sent again with the same key and body until it is
answered. At the end, for every game: every acknowledged (201) event is in the log at its version
with its hash, no version gap, ``verify`` ok, and ``/board`` catches up with the game's version.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import httpx
import pytest

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import (
    Ledger,
    Server,
    check_game,
    create_game,
    get_until_answered,
    postgres_env,
    record,
    send_until_answered,
    sqlite_env,
)
from tests.services import drop_postgres_schema, postgres_schema

pytestmark = pytest.mark.faults

GAMES, CLIENTS_PER_GAME, KILLS = 6, 2, 5


def _client(url: str, game: str, token: str, seed: int, ledger: Ledger, stop: threading.Event) -> None:
    rng = random.Random(seed)
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            while not stop.is_set():
                lc = get_until_answered(http, f"/games/{game}/legal-commands", token)
                if lc.status_code != 200:
                    ledger.unexpected.append(f"legal-commands {lc.status_code}: {lc.text[:200]}")
                    return
                legal = lc.json()
                if not legal["commands"]:
                    summary = get_until_answered(http, f"/games/{game}", token).json()
                    if summary["result"] is not None:
                        return  # the game ended
                    time.sleep(0.05)
                    continue
                body = {"command": choose(legal["commands"], rng), "expected_version": legal["version"]}
                record(ledger, game, send_until_answered(http, game, token, body, ledger))
    except Exception as e:  # noqa: BLE001 - reported by the test
        ledger.unexpected.append(f"client crashed: {e!r}")


def _kill9_under_load(server: Server, seed: int) -> None:
    rng = random.Random(seed)
    server.start()
    ledger, stop = Ledger(), threading.Event()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        games = [create_game(http) for _ in range(GAMES)]
        threads = [
            threading.Thread(
                target=_client, args=(server.url, game, token, seed * 100 + n * 10 + c, ledger, stop)
            )
            for n, (game, token) in enumerate(games)
            for c in range(CLIENTS_PER_GAME)
        ]
        for t in threads:
            t.start()
        try:
            acked_before = 0
            for _ in range(KILLS):
                time.sleep(rng.uniform(0.5, 2.0))
                server.kill9()
                server.start()
                acked = sum(len(v) for v in ledger.acked.values())
                assert acked > acked_before, "no command was acknowledged between two kills"
                acked_before = acked
            time.sleep(1.0)
        finally:
            stop.set()
            for t in threads:
                t.join(timeout=150)
        assert not any(t.is_alive() for t in threads), "a client never got its answer"
        assert server.alive(), f"the server died by itself:\n{server.tail()}"
        assert not ledger.unexpected, ledger.unexpected[:10]
        assert ledger.interrupted > 0, "no request was in flight at any kill: the test proved nothing"
        assert ledger.statuses.get(201, 0) > 0
        for game, token in games:
            check_game(http, game, token, ledger.acked.get(game, []))
    print(
        f"kill -9 x{KILLS}: statuses {ledger.statuses}, {ledger.interrupted} attempts without an answer, "
        "sent again"
    )


def test_kill9_under_load_on_sqlite_loses_no_acknowledged_command(tmp_path: Path) -> None:
    server = Server(sqlite_env(tmp_path / "data"), tmp_path / "serve.log")
    try:
        _kill9_under_load(server, seed=1)
    finally:
        server.stop()


@pytest.mark.postgres
def test_kill9_under_load_on_postgresql_loses_no_acknowledged_command(tmp_path: Path) -> None:
    schema = postgres_schema()
    server = Server(postgres_env(schema), tmp_path / "serve.log")
    try:
        _kill9_under_load(server, seed=2)
    finally:
        server.stop()
        drop_postgres_schema(schema)
