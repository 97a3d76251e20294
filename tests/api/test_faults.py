"""Faults answered clearly (issue 12), through the real app on SQLite.

- a store fault is 503 ``application/problem+json`` ``urn:dicelog:problem:store-unavailable`` with
  ``Retry-After`` (``service/ops/faults.py``): SQLite locked by another writer (within the lock timeout),
  a full database, a read-only file; nothing is stored, and the same command sent again with the
  same ``Idempotency-Key`` once the fault is gone is stored once;
- ``/ready`` is 503 while the store cannot write (locked, read-only), 200 again after;
- every infrastructure error class the store's drivers and the library raise maps to 503, and the
  store errors that are bugs (and any other bug) stay 500 with one traceback logged;
- bodies nested deeper than 64 levels are 400 ``body-too-deep`` (no traceback), bodies over
  ``DICELOG_MAX_BODY_BYTES`` 413 ``body-too-large`` (``service/http/guards.py``), nothing stored.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from eventsourcing import persistence as es
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.http.guards import BODY_TOO_DEEP, BODY_TOO_LARGE, MAX_DEPTH, json_depth
from dicelog.service.ops.faults import RETRY_AFTER, STORE_UNAVAILABLE, is_store_fault, reason_of
from dicelog.service.store.persistence import NoAnswer, StoreTimeout
from tests.api.conftest import MICE, Table, settings_for

PROBLEM_JSON = "application/problem+json"
LOCK_TIMEOUT = 1


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient[Any]]:
    settings, _ = settings_for("sqlite", tmp_path)
    settings = msgspec.structs.replace(settings, sqlite_lock_timeout=LOCK_TIMEOUT)
    with TestClient(create_app(settings)) as client:
        yield client


def _games_file(client: TestClient[Any]) -> Path:
    return Path(client.app.state.runtime.games.recorder.datastore.pool.db_name)


def _stored_rows(path: Path) -> int:
    """Every row of the games store (events, secrets, idempotency records), read on the side."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return db.execute("SELECT count(*) FROM stored_events").fetchone()[0]


@contextlib.contextmanager
def _write_locked(path: Path) -> Iterator[None]:
    """Another connection holds the SQLite write lock (``BEGIN IMMEDIATE``) for the block."""
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _end_turn(table: Table, seat: str) -> dict[str, Any]:
    legal = table.client.get(f"/games/{table.id}/legal-commands", headers=table.auth(seat)).json()
    command = next(c for c in legal["commands"] if c["type"] in ("EndTurn", "Move"))
    return {"command": command, "expected_version": legal["version"]}


def _turn_seat(table: Table) -> str:
    for seat in table.tokens:
        legal = table.client.get(f"/games/{table.id}/legal-commands", headers=table.auth(seat)).json()
        if legal["commands"]:
            return seat
    raise AssertionError("no seat may act")


def _assert_503(r: Any, reason: str | None = None) -> dict[str, Any]:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith(PROBLEM_JSON)
    assert r.headers["retry-after"] == str(RETRY_AFTER)
    body = r.json()
    assert body["type"] == STORE_UNAVAILABLE and body["status"] == 503 and body["retry_after"] == RETRY_AFTER
    if reason is not None:
        assert body["reason"] == reason, body
    return body


# --- SQLite locked by another writer ----------------------------------------------------------------


def test_a_command_while_another_writer_holds_the_lock_is_503_then_the_same_key_is_stored_once(app):
    table = Table(app)
    seat = _turn_seat(table)
    body = _end_turn(table, seat)
    key = {"Idempotency-Key": "fault-1"}
    store = _games_file(app)
    before = _stored_rows(store)
    with _write_locked(store):
        started = time.monotonic()
        r = table.client.post(f"/games/{table.id}/commands", json=body, headers={**table.auth(seat), **key})
        waited = time.monotonic() - started
        problem = _assert_503(r, "locked")
        assert problem["outcome"] == "not-stored" and "nothing was stored" in problem["detail"]
        assert waited < LOCK_TIMEOUT + 2, f"answered after {waited:.1f} s, lock timeout {LOCK_TIMEOUT} s"
        ready = app.get("/ready")
        _assert_503(ready, "locked")
        assert app.get(f"/games/{table.id}").status_code == 200, "reads go on while a writer holds the lock"
    assert _stored_rows(store) == before, "a command answered 503 stored something"
    assert table.summary()["version"] == body["expected_version"]

    first = table.client.post(f"/games/{table.id}/commands", json=body, headers={**table.auth(seat), **key})
    assert first.status_code == 201, first.text
    again = table.client.post(f"/games/{table.id}/commands", json=body, headers={**table.auth(seat), **key})
    assert again.status_code == 201 and again.content == first.content, "the retry is answered as the first"
    events = first.json()["events"]
    assert table.summary()["version"] == body["expected_version"] + len(events)
    assert _stored_rows(store) == before + len(events) + 1, "the events and one idempotency record, once"
    assert app.get("/ready").status_code == 200
    assert app.post(f"/games/{table.id}/verify", headers=table.auth(seat)).json()["verification"]["ok"]


def test_creating_a_game_while_the_store_is_locked_is_503_and_creates_nothing(app):
    Table(app)
    store = _games_file(app)
    before = _stored_rows(store)
    with _write_locked(store):
        r = app.post(
            "/games",
            json={
                "ruleset": "mice-and-mystics",
                "setup": {"chapter": "chapter-1", "mice": MICE},
                "seats": [{"name": "red", "controls": MICE}],
            },
        )
        assert _assert_503(r, "locked")["outcome"] == "not-stored"
    assert _stored_rows(store) == before
    assert app.get("/games", params={"limit": 100}).status_code == 200


# --- a full database, a read-only file ---------------------------------------------------------------


def _limit_pages(client: TestClient[Any], extra_pages: int | None) -> None:
    """``PRAGMA max_page_count`` on every connection of the games' pool: SQLite then refuses to grow
    the file with SQLITE_FULL (*database or disk is full*), as on a full disk. ``None``: no limit."""
    pool = client.app.state.runtime.games.recorder.datastore.pool
    with contextlib.closing(sqlite3.connect(pool.db_name)) as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    limit = 2**31 - 2 if extra_pages is None else pages + extra_pages
    connections = [pool.get_connection(is_writer=False) for _ in range(pool.num_in_pool)]
    try:
        for conn in connections:
            conn._sqlite_conn.execute(f"PRAGMA max_page_count = {limit}")
    finally:
        for conn in connections:
            pool.put_connection(conn)


def test_a_full_database_answers_503_and_stores_nothing(app):
    table = Table(app)
    seat = _turn_seat(table)
    store = _games_file(app)
    with contextlib.closing(sqlite3.connect(store)) as db:  # move the WAL's frames into the file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _limit_pages(app, 0)
    try:
        before = _stored_rows(store)
        body = _end_turn(table, seat)
        # A keyed command stores its answer too: enough bytes to need a new page of the file.
        headers = {**table.auth(seat), "Idempotency-Key": "x" * 150}
        statuses = []
        for _ in range(20):  # each command's events need room; soon there is none
            r = table.client.post(f"/games/{table.id}/commands", json=body, headers=headers)
            statuses.append(r.status_code)
            if r.status_code != 201:
                break
            seat = _turn_seat(table)  # the turn may have passed to another seat's mouse
            body = _end_turn(table, seat)
            headers = {**table.auth(seat), "Idempotency-Key": f"{len(statuses)}" + "x" * 150}
            before = _stored_rows(store)
        assert statuses[-1] == 503, statuses
        assert _assert_503(r, "disk-full")["outcome"] == "not-stored"
        assert _stored_rows(store) == before
    finally:
        _limit_pages(app, None)
    r = table.client.post(f"/games/{table.id}/commands", json=body, headers=headers)
    assert r.status_code == 201, r.text
    assert app.post(f"/games/{table.id}/verify", headers=table.auth(seat)).json()["verification"]["ok"]


@contextlib.contextmanager
def _read_only(store: Path) -> Iterator[None]:
    """The store read-only for the running app, as a file system remounted read-only: its file and
    its WAL made immutable (``chattr +i``), which fails writes even through the descriptors the app
    holds open. Needs root (file modes do not stop root, nor descriptors already open)."""
    files = [store, store.with_name(store.name + "-wal")]
    if os.geteuid() != 0:
        pytest.skip("making the open store read-only needs chattr +i, as root")
    done = subprocess.run(["chattr", "+i", *map(str, files)], capture_output=True, check=False)
    if done.returncode != 0:
        subprocess.run(["chattr", "-i", *map(str, files)], capture_output=True, check=False)
        pytest.skip(f"chattr +i is not possible here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, files)], check=True)


def test_ready_fails_while_the_store_is_read_only_and_commands_are_503(app):
    table = Table(app)
    seat = _turn_seat(table)
    store = _games_file(app)
    assert app.get("/ready").status_code == 200
    before = _stored_rows(store)
    body = _end_turn(table, seat)
    headers = {**table.auth(seat), "Idempotency-Key": "read-only-1"}
    with _read_only(store):
        problem = _assert_503(app.get("/ready"))
        assert problem["reason"] in ("read-only", "io-error"), problem
        r = table.client.post(f"/games/{table.id}/commands", json=body, headers=headers)
        assert _assert_503(r)["outcome"] == "not-stored"
    assert _stored_rows(store) == before
    assert app.get("/ready").status_code == 200
    # Writable again: the client retries as the 503 told it (same Idempotency-Key). A request thread's
    # connection that met the immutable file may answer 503 once or twice more before SQLite reopens it
    # writable (seen about 1 run in 6); the retry then stores the command, once.
    for _ in range(10):
        r = table.client.post(f"/games/{table.id}/commands", json=body, headers=headers)
        if r.status_code != 503:
            break
        assert _stored_rows(store) == before
        time.sleep(0.2)
    assert r.status_code == 201, r.text
    assert app.post(f"/games/{table.id}/verify", headers=table.auth(seat)).json()["verification"]["ok"]


# --- what maps to 503, what stays 500 ----------------------------------------------------------------


def _wrapped(outer: type[Exception], inner: BaseException) -> Exception:
    try:
        raise outer(str(inner)) from inner
    except Exception as e:  # noqa: BLE001 - built to be inspected
        return e


def _faults() -> list[tuple[str, BaseException, str]]:
    import psycopg
    import psycopg_pool
    import redis

    lib_op, lib_if = es.OperationalError, es.InterfaceError
    pool_timeout = "couldn't get a connection after 4.00 sec"
    return [
        ("sqlite locked", _wrapped(lib_op, sqlite3.OperationalError("database is locked")), "locked"),
        ("sqlite full", _wrapped(lib_op, sqlite3.OperationalError("database or disk is full")), "disk-full"),
        ("sqlite io", _wrapped(lib_op, sqlite3.OperationalError("disk I/O error")), "io-error"),
        ("sqlite read-only", sqlite3.OperationalError("attempt to write a readonly database"), "read-only"),
        (
            "sqlite cannot open",
            _wrapped(lib_if, sqlite3.OperationalError("unable to open database file")),
            "unavailable",
        ),
        ("sqlite pool", es.ConnectionUnavailableError("Timed out waiting for connection"), "pool-timeout"),
        (
            "pg killed",
            _wrapped(lib_op, psycopg.OperationalError("terminating connection due to administrator command")),
            "connection-lost",
        ),
        (
            "pg closed",
            _wrapped(lib_if, psycopg.InterfaceError("the connection is closed")),
            "connection-lost",
        ),
        (
            "pg unwrapped",
            psycopg.OperationalError("server closed the connection unexpectedly"),
            "connection-lost",
        ),
        ("pg pool", _wrapped(lib_op, psycopg_pool.PoolTimeout(pool_timeout)), "pool-timeout"),
        ("pg pool unwrapped", psycopg_pool.PoolTimeout(pool_timeout), "pool-timeout"),
        ("pg disk full", _wrapped(lib_op, psycopg.errors.DiskFull("could not extend file")), "disk-full"),
        (
            "pg read-only",
            _wrapped(
                es.InternalError,
                psycopg.errors.ReadOnlySqlTransaction("cannot execute INSERT in a read-only transaction"),
            ),
            "read-only",
        ),
        (
            "pg grant revoked",
            _wrapped(
                es.ProgrammingError,
                psycopg.errors.InsufficientPrivilege("permission denied for table games_events"),
            ),
            "permission-denied",
        ),
        (
            "pg pooler duplicate prepared statement",
            _wrapped(
                es.ProgrammingError,
                psycopg.errors.DuplicatePreparedStatement('prepared statement "_pg3_2" already exists'),
            ),
            "pooler",
        ),
        (
            "pg pooler missing prepared statement",
            _wrapped(
                es.ProgrammingError,
                psycopg.errors.InvalidSqlStatementName('prepared statement "_pg3_4" does not exist'),
            ),
            "pooler",
        ),
        (
            "pg statement timeout",
            _wrapped(
                StoreTimeout,
                psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
            ),
            "timeout",
        ),
        (
            "pg lock timeout",
            _wrapped(
                StoreTimeout,
                psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"),
            ),
            "timeout",
        ),
        (
            "pg silent",
            _wrapped(StoreTimeout, NoAnswer("no answer from the server within 7.0 s: connection closed")),
            "timeout",
        ),
        ("library generic", es.PersistenceError("something of the store"), "unavailable"),
        ("redis down", redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379"), "redis"),
        ("redis slow", redis.TimeoutError("Timeout reading from socket"), "redis"),
    ]


def _bugs() -> list[tuple[str, BaseException]]:
    return [
        ("integrity", _wrapped(es.IntegrityError, sqlite3.IntegrityError("UNIQUE constraint failed"))),
        ("bad sql", _wrapped(es.ProgrammingError, sqlite3.ProgrammingError("Incorrect number of bindings"))),
        ("bad parameter", _wrapped(es.InterfaceError, sqlite3.InterfaceError("Error binding parameter 1"))),
        ("data", es.DataError("value out of range")),
        ("plain bug", ZeroDivisionError("division by zero")),
    ]


@pytest.mark.parametrize(("name", "exc", "reason"), _faults(), ids=[f[0] for f in _faults()])
def test_every_infrastructure_error_is_503_with_retry_after(app, monkeypatch, caplog, name, exc, reason):
    assert is_store_fault(exc) and reason_of(exc) == reason
    table = Table(app)
    games = app.app.state.runtime.games

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    monkeypatch.setattr(games, "game", fail)
    with caplog.at_level(logging.WARNING, logger="dicelog"):
        read = app.get(f"/games/{table.id}")
        write = app.post(
            f"/games/{table.id}/commands",
            json={"command": {"type": "EndTurn", "mouse": "filch"}},
            headers=table.auth("red"),
        )
    assert "outcome" not in _assert_503(read, reason), "a read changes nothing: no outcome to tell"
    assert _assert_503(write, reason)["outcome"] in ("not-stored", "unknown")
    assert not [r for r in caplog.records if r.exc_info], "a 503 logs one line, no traceback"
    assert "Error 111" not in read.text and "127.0.0.1" not in read.text, "driver messages stay in the log"


@pytest.mark.parametrize(("name", "exc"), _bugs(), ids=[b[0] for b in _bugs()])
def test_a_bug_stays_500_with_its_traceback_logged_once(app, monkeypatch, caplog, name, exc):
    assert not is_store_fault(exc)
    table = Table(app)

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    monkeypatch.setattr(app.app.state.runtime.games, "game", fail)
    with caplog.at_level(logging.ERROR):
        r = app.get(f"/games/{table.id}")
    assert r.status_code == 500 and r.json()["type"] == "urn:dicelog:problem:internal", r.text
    assert "retry-after" not in r.headers
    assert len([rec for rec in caplog.records if rec.exc_info]) == 1, "one traceback per bug"


def test_an_outcome_unknown_on_postgresql_says_so_and_how_to_retry(tmp_path, monkeypatch):
    import psycopg

    from dicelog.service.ops.faults import store_unavailable

    class Request:
        method = "POST"

        class url:  # the shape of a Litestar request's url
            path = "/games/x/commands"

    exc = _wrapped(es.OperationalError, psycopg.OperationalError("server closed the connection unexpectedly"))
    response = store_unavailable(Request(), exc, store="postgres")  # type: ignore[arg-type]
    body = response.content
    assert response.status_code == 503 and body["outcome"] == "unknown"
    assert "Idempotency-Key" in body["detail"] and "may have been stored" in body["detail"]
    Request.url.path = "/games/x/verify"
    assert "outcome" not in store_unavailable(Request(), exc, store="postgres").content  # type: ignore[arg-type]


# --- body limits -----------------------------------------------------------------------------------


def test_json_depth_counts_brackets_outside_strings_without_recursion():
    assert json_depth(b'{"a": [1, {"b": []}]}', 0) == 4
    assert json_depth(b'["[[[[", "\\"[[[[", {"k]": "}}}"}]', 0) == 2
    assert json_depth(b"1", 0) == 0
    assert json_depth(b"[" * 100_000 + b"]" * 100_000) == 100_000
    assert json_depth(b"[]" * 50_000) == 1
    assert json_depth(b"[[],[],[]]") == 4, "within the limit: not scanned, the count of opening brackets"


def _deep(depth: int, kind: str) -> str:
    if kind == "arrays":
        return "[" * depth + "]" * depth
    return '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("kind", ["arrays", "objects"])
@pytest.mark.parametrize("route", ["/games", "/games/{id}/commands", "/games/{id}/forks", "/campaigns"])
def test_a_body_nested_10000_deep_is_400_without_a_traceback(app, caplog, kind, route):
    table = Table(app)
    store = _games_file(app)
    before = _stored_rows(store)
    body = '{"command": ' + _deep(10_000, kind) + "}"
    with caplog.at_level(logging.WARNING):
        r = app.post(
            route.format(id=table.id),
            content=body,
            headers={**table.auth("red"), "Content-Type": "application/json"},
        )
    assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text[:300]
    assert r.json()["type"] == BODY_TOO_DEEP and r.json()["max_depth"] == MAX_DEPTH
    assert not [rec for rec in caplog.records if rec.exc_info or rec.levelno >= logging.ERROR]
    assert _stored_rows(store) == before


def test_the_depth_limit_is_64_levels(app):
    table = Table(app)
    url, headers = f"/games/{table.id}/commands", {**table.auth("red"), "Content-Type": "application/json"}
    # {"command": <value>} is one level: the value may nest 63 more.
    at_limit = app.post(url, content='{"command": ' + _deep(MAX_DEPTH - 1, "arrays") + "}", headers=headers)
    assert at_limit.status_code == 400 and at_limit.json()["type"] != BODY_TOO_DEEP, at_limit.text[:300]
    over = app.post(url, content='{"command": ' + _deep(MAX_DEPTH, "arrays") + "}", headers=headers)
    assert over.status_code == 400 and over.json()["type"] == BODY_TOO_DEEP


def test_a_3_mib_body_is_413(app):
    table = Table(app)
    store = _games_file(app)
    before = _stored_rows(store)
    pad = "y" * (3 * 1024 * 1024)
    body = msgspec.json.encode({"command": {"type": "EndTurn", "mouse": "filch"}, "pad": pad})
    r = app.post(
        f"/games/{table.id}/commands",
        content=body,
        headers={**table.auth("red"), "Content-Type": "application/json"},
    )
    assert r.status_code == 413 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text[:300]
    assert r.json()["type"] == BODY_TOO_LARGE and r.json()["max_bytes"] == 2 * 1024 * 1024
    assert _stored_rows(store) == before


def test_a_body_without_content_length_is_cut_at_the_limit(tmp_path):
    settings, _ = settings_for("sqlite", tmp_path)
    with TestClient(create_app(msgspec.structs.replace(settings, max_body_bytes=64 * 1024))) as client:
        table = Table(client)

        def chunks() -> Iterator[bytes]:
            yield b'{"command": {"type": "EndTurn", "mouse": "filch"}, "pad": "'
            for _ in range(100):
                yield b"y" * 1024
            yield b'"}'

        r = client.post(
            f"/games/{table.id}/commands",
            content=chunks(),
            headers={**table.auth("red"), "Content-Type": "application/json"},
        )
        assert r.status_code == 413 and r.json()["max_bytes"] == 64 * 1024, r.text[:300]
        small = client.post(
            f"/games/{table.id}/commands", json={"command": {"type": "Nope"}}, headers=table.auth("red")
        )
        assert small.status_code in (400, 422), small.text
