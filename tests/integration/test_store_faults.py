"""PostgreSQL faults answered clearly (issue 12: "a PostgreSQL connection killed" was a 500).

A real ``dicelog serve`` (embedded worker) on a fresh schema, its connections named by
``PGAPPNAME`` so that only they are touched (other tests share the server):

- **connections killed mid-run**: while clients play (commands with an ``Idempotency-Key``, reads of
  the log, the board and the state), the app's backends are terminated every 150 ms
  (``pg_terminate_backend``) for several seconds. Every answer is a success, a rule's 4xx, or 503
  problem+json with ``Retry-After`` (then sent again with the same key), never a 500; every
  acknowledged command is in the log once and every game verifies; ``/ready`` is 200 after.
- **the server lost**: the app reaches PostgreSQL through a TCP proxy of the test, which is cut
  (open connections closed, new ones refused). ``/ready`` is 503 within 3 s; a command is 503 with
  ``outcome: unknown`` within one pool timeout (4 s; ``dicelog.service.store.persistence.PoolUnavailable``),
  never a 500; after the proxy is restored ``/ready`` is 200 again, the same
  command with the same key is stored once, and the game verifies.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dicelog.domain.mice_and_mystics.bot import choose_command as choose
from tests.faults.support import (
    PROBLEM,
    Ledger,
    Server,
    bearer,
    check_game,
    create_game,
    postgres_env,
    record,
    wait_for,
)
from tests.services import PG

# kills, loses and freezes PostgreSQL servers: the slow profile (docs/testing.md)
pytestmark = [pytest.mark.postgres, pytest.mark.faults, pytest.mark.slow]

GAMES = 4
KILL_SECONDS = 8.0


def _is_503(r: httpx.Response) -> bool:
    if r.status_code != 503:
        return False
    assert r.headers["content-type"].startswith(PROBLEM), r.text[:300]
    assert int(r.headers["retry-after"]) >= 1, r.headers
    assert r.json()["type"] == "urn:dicelog:problem:store-unavailable", r.text[:300]
    return True


def _get(http: httpx.Client, path: str, token: str, ledger: Ledger) -> httpx.Response | None:
    """A read: 2xx/4xx is returned; 503 is counted (``None``); anything else is unexpected."""
    r = http.get(path, headers=bearer(token))
    if _is_503(r):
        ledger.count(503)
        return None
    if r.status_code >= 500:
        ledger.unexpected.append(f"GET {path}: {r.status_code} {r.text[:300]}")
    return r


def _send(http: httpx.Client, game: str, token: str, body: dict[str, Any], ledger: Ledger) -> httpx.Response:
    """A command with its own key, sent again with the same key while it is answered 503."""
    headers = {**bearer(token), "Idempotency-Key": str(uuid.uuid4())}
    deadline = time.monotonic() + 120
    while True:
        r = http.post(f"/games/{game}/commands", json=body, headers=headers)
        if not _is_503(r):
            return r
        ledger.count(503)
        assert time.monotonic() < deadline, f"503 for {body} for 120 s"
        time.sleep(0.05)


def _play(
    url: str, game: str, token: str, seed: int, ledger: Ledger, stop: threading.Event, timeout: float = 60
) -> None:
    rng = random.Random(seed)
    try:
        with httpx.Client(base_url=url, timeout=timeout) as http:
            while not stop.is_set():
                for path in (f"/games/{game}/events?limit=5", f"/games/{game}/board", f"/games/{game}/state"):
                    _get(http, path, token, ledger)
                lc = _get(http, f"/games/{game}/legal-commands", token, ledger)
                if lc is None:
                    time.sleep(0.05)
                    continue
                if lc.status_code != 200:
                    ledger.unexpected.append(f"legal-commands {lc.status_code}: {lc.text[:200]}")
                    return
                legal = lc.json()
                if not legal["commands"]:
                    return  # the game ended (one seat plays every mouse: never waits for another)
                body = {"command": choose(legal["commands"], rng), "expected_version": legal["version"]}
                r = _send(http, game, token, body, ledger)
                if r.status_code >= 500:
                    ledger.unexpected.append(f"command: {r.status_code} {r.text[:300]}")
                else:
                    record(ledger, game, r)
    except Exception as e:  # noqa: BLE001 - reported by the test
        ledger.unexpected.append(f"client crashed: {e!r}")


def _terminate(app_name: str) -> int:
    import psycopg

    with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s AND pid <> pg_backend_pid()",
            (app_name,),
        ).fetchone()
    return int(row[0]) if row else 0


def test_backends_killed_mid_run_give_503_or_success_never_500_and_lose_nothing(schema, tmp_path: Path):
    app_name = f"dicelog-faults-{schema}"
    server = Server({**postgres_env(schema), "PGAPPNAME": app_name}, tmp_path / "serve.log")
    ledger, stop = Ledger(), threading.Event()
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            games = [create_game(http) for _ in range(GAMES)]
            clients = [
                threading.Thread(target=_play, args=(server.url, game, token, n, ledger, stop), daemon=True)
                for n, (game, token) in enumerate(games)
            ]
            for client in clients:
                client.start()
            killed, deadline = 0, time.monotonic() + KILL_SECONDS
            while time.monotonic() < deadline:
                time.sleep(0.15)
                killed += _terminate(app_name)
            stop.set()
            for client in clients:
                client.join(timeout=180)
            assert not any(c.is_alive() for c in clients), "a client hung"
            assert killed >= 10, f"only {killed} backends terminated: the test did not bite"
            assert not ledger.unexpected, ledger.unexpected[:10]
            assert wait_for(lambda: http.get("/ready").status_code == 200, 30), http.get("/ready").text
            acked = sum(len(events) for events in ledger.acked.values())
            assert acked > 0, "no command was acknowledged"
            for game, token in games:
                check_game(http, game, token, ledger.acked.get(game, []))
        assert server.alive(), server.tail()
        assert "unexpected error" not in server.tail(100_000), "a 500 was logged"
        print(
            f"\n{killed} backends terminated; answers {dict(sorted(ledger.statuses.items()))}; "
            f"{acked} acknowledged events all in the logs"
        )
    finally:
        stop.set()
        server.stop()


class Proxy:
    """A TCP proxy to PostgreSQL that can be cut (every connection closed, new ones closed at once)
    and restored: the server lost, as the app sees it, without touching anyone else's connections;
    or frozen (nothing forwarded, nothing closed) and thawed: a silent network."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = True
        self.frozen = False
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            while self.frozen:  # a new connection is accepted, and then nothing answers it
                time.sleep(0.02)
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self.lock:
                self.sockets |= {client, server}
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                while self.frozen:  # held, neither forwarded nor refused: a silent network
                    time.sleep(0.02)
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            with self.lock:
                self.sockets -= {source, target}

    def cut(self) -> None:
        self.open = False
        with self.lock:
            for s in list(self.sockets):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        self.open = True

    def freeze(self) -> None:
        """Forward nothing more, close nothing: every connection stays open and silent."""
        self.frozen = True

    def thaw(self) -> None:
        self.frozen = False

    def close(self) -> None:
        self.thaw()
        self.cut()
        self.listener.close()


def test_the_server_lost_fails_ready_and_commands_with_503_then_the_same_key_is_stored_once(schema, tmp_path):
    proxy = Proxy((PG["host"], PG["port"]))
    env = {**postgres_env(schema), "DICELOG_POSTGRES_PORT": str(proxy.port)}
    server = Server(env, tmp_path / "serve.log")
    ledger = Ledger()
    try:
        server.start()
        with httpx.Client(base_url=server.url, timeout=120) as http:
            game, token = create_game(http)
            legal = http.get(f"/games/{game}/legal-commands", headers=bearer(token)).json()
            command = choose(legal["commands"], random.Random(1))
            body = {"command": command, "expected_version": legal["version"]}
            headers = {**bearer(token), "Idempotency-Key": "lost-1"}

            proxy.cut()
            started = time.monotonic()
            ready = http.get("/ready")
            assert _is_503(ready), ready.text
            assert time.monotonic() - started < 3, "/ready took too long to fail"
            started = time.monotonic()
            r = http.post(f"/games/{game}/commands", json=body, headers=headers)
            took = time.monotonic() - started
            assert _is_503(r), r.text
            assert r.json()["outcome"] == "unknown" and "Idempotency-Key" in r.json()["detail"]
            # One pool timeout (DICELOG_POSTGRES_CONNECT_TIMEOUT, 4 s), not the library's ten retries.
            assert took < 4 + 3, f"the command was answered after {took:.1f} s"
            read = http.get(f"/games/{game}", headers=bearer(token))
            assert read.status_code == 200 or _is_503(read), read.text

            proxy.restore()
            assert wait_for(lambda: http.get("/ready").status_code == 200, 30), http.get("/ready").text
            first = http.post(f"/games/{game}/commands", json=body, headers=headers)
            assert first.status_code == 201, first.text
            again = http.post(f"/games/{game}/commands", json=body, headers=headers)
            assert again.status_code == 201 and again.json() == first.json()
            record(ledger, game, first)
            version = check_game(http, game, token, ledger.acked[game])
            assert version == legal["version"] + len(first.json()["events"]), "the command was stored once"
        assert "unexpected error" not in server.tail(100_000), "a 500 was logged"
        print(f"\na command during the outage was answered 503 after {took:.1f} s")
    finally:
        server.stop()
        proxy.close()


# --- issue 34: every store fault a 503, never a 500 or a hang -------------------------------------

FAULT_CLIENTS = 3
HANG = 20.0
"""Seconds an answer may take during a fault: the socket timeout (7 s) and a pool timeout (4 s) at
most, with room for a loaded machine; a request still unanswered then hung."""


def _fault_under_load(server: Server, name: str, on: Any, off: Any, seconds: float) -> dict[str, Any]:
    """Clients play (reads and commands, each command sent again with its key while it is 503) while
    ``on()`` .. ``off()`` lasts ``seconds``; ``/ready`` is polled throughout. Returns the figures;
    asserts: no answer but 2xx, a rule's 4xx or 503 problem+json with ``Retry-After``, none slower
    than ``HANG``; ``/ready`` 503 during the fault and 200 after; nothing acknowledged lost."""
    ledger, stop = Ledger(), threading.Event()
    ready: dict[int, int] = {}
    with httpx.Client(base_url=server.url, timeout=HANG) as http:
        games = [create_game(http) for _ in range(FAULT_CLIENTS)]
        clients = [
            threading.Thread(target=_play, args=(server.url, game, token, n, ledger, stop, HANG), daemon=True)
            for n, (game, token) in enumerate(games)
        ]
        for client in clients:
            client.start()
        assert wait_for(lambda: ledger.statuses.get(201, 0) >= 5, 30), ledger.statuses
        on()
        deadline = time.monotonic() + seconds
        slowest = 0.0
        while time.monotonic() < deadline:
            asked = time.monotonic()
            r = http.get("/ready")
            slowest = max(slowest, time.monotonic() - asked)
            ready[r.status_code] = ready.get(r.status_code, 0) + 1
            assert r.status_code == 200 or _is_503(r), r.text
            time.sleep(0.25)
        off()
        assert wait_for(lambda: http.get("/ready").status_code == 200, 30), http.get("/ready").text
        acked = ledger.statuses.get(201, 0)
        assert wait_for(lambda: ledger.statuses.get(201, 0) > acked + 3, 60), "the clients did not recover"
        stop.set()
        for client in clients:
            client.join(timeout=HANG * 3)
        assert not any(c.is_alive() for c in clients), "a client hung"
        assert not ledger.unexpected, ledger.unexpected[:10]
        assert ready.get(503, 0) > 0, f"/ready never failed during {name}: {ready}"
        # the probe waits 1 s for a connection and 1 s for each answer (Kubernetes waits 2 s)
        assert slowest < 5.0, f"/ready took {slowest:.1f} s during {name}"
        assert ledger.statuses.get(503, 0) > 0, f"no request met {name}: {ledger.statuses}"
        for game, token in games:
            check_game(http, game, token, ledger.acked.get(game, []))
    assert "unexpected error" not in server.tail(100_000), "a 500 was logged"
    fives = sum(n for status, n in ledger.statuses.items() if status >= 500 and status != 503)
    figures = {
        "fault": name,
        "5xx but 503": fives,
        "503": ledger.statuses.get(503, 0),
        "ready": ready,
        "slowest ready s": round(slowest, 1),
    }
    print(f"\n{figures}; answers {dict(sorted(ledger.statuses.items()))}")
    return figures


def test_a_frozen_server_is_503_within_the_timeouts_never_a_hang(schema, tmp_path):
    proxy = Proxy((PG["host"], PG["port"]))
    server = Server(
        {**postgres_env(schema), "DICELOG_POSTGRES_PORT": str(proxy.port)}, tmp_path / "serve.log"
    )
    try:
        server.start()
        _fault_under_load(server, "frozen proxy 15 s", proxy.freeze, proxy.thaw, 15.0)
    finally:
        server.stop()
        proxy.close()


def _admin(*statements: str) -> None:
    import psycopg

    with psycopg.connect(**PG, connect_timeout=3, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


@pytest.fixture
def runtime_role(schema) -> Iterator[tuple[str, str]]:
    """A schema migrated by the owner and a role with only the runtime's grants on it (``SELECT``,
    ``INSERT``, ``UPDATE``, ``DELETE`` on its tables, its sequences): (schema, role)."""
    from dicelog.service.ops.settings import Settings
    from dicelog.service.store.migrations import migrate

    migrate(Settings.from_env(postgres_env(schema)))
    role = f"dicelog_rt_{schema}"
    _admin(
        f"CREATE ROLE {role} LOGIN",
        f"GRANT USAGE ON SCHEMA {schema} TO {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
    )
    try:
        yield schema, role
    finally:
        _admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'")
        _admin(f"DROP OWNED BY {role}", f"DROP ROLE {role}")


def _as_role(schema: str, role: str, log: Path) -> Server:
    env = {**postgres_env(schema), "DICELOG_POSTGRES_USER": role, "DICELOG_AUTO_MIGRATE": "false"}
    return Server(env, log)


def test_revoked_write_grants_are_503_and_fail_ready_never_500(runtime_role, tmp_path):
    schema, role = runtime_role
    server = _as_role(schema, role, tmp_path / "serve.log")
    tables = f"ALL TABLES IN SCHEMA {schema}"
    try:
        server.start()
        _fault_under_load(
            server,
            "write grants revoked 5 s",
            lambda: _admin(f"REVOKE INSERT, UPDATE, DELETE ON {tables} FROM {role}"),
            lambda: _admin(f"GRANT INSERT, UPDATE, DELETE ON {tables} TO {role}"),
            5.0,
        )
    finally:
        server.stop()


def test_a_read_only_server_is_503_and_fails_ready_never_500(runtime_role, tmp_path):
    """``default_transaction_read_only`` for the service's role (what a server in recovery or set
    read-only does to every write), its sessions ended so that new ones take it."""
    schema, role = runtime_role
    server = _as_role(schema, role, tmp_path / "serve.log")
    ended = f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{role}'"
    try:
        server.start()
        _fault_under_load(
            server,
            "read-only 5 s",
            lambda: _admin(f"ALTER ROLE {role} SET default_transaction_read_only = on", ended),
            lambda: _admin(f"ALTER ROLE {role} RESET default_transaction_read_only", ended),
            5.0,
        )
    finally:
        server.stop()
