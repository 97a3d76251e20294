"""Infrastructure faults answered clearly (issue 12): 503 problem+json with ``Retry-After``, and the
store's write probe of ``GET /ready``.

**What is a 503.** The store or another piece of infrastructure failed, not the code: the
eventsourcing library's wrappers of the drivers' errors (``OperationalError``, ``InterfaceError``,
``InternalError``, the generic ``DatabaseError`` and ``PersistenceError``), the same errors of the
drivers when they escape unwrapped (``sqlite3``, ``psycopg``, ``psycopg_pool.PoolTimeout``), and
Redis connection errors and timeouts. SQLite: *database is locked* (another writer held the lock
longer than ``DICELOG_SQLITE_LOCK_TIMEOUT``), *attempt to write a readonly database*, *database or
disk is full*, *disk I/O error*. PostgreSQL: a connection killed or lost, the server unreachable, no
free connection in the pool within ``DICELOG_POSTGRES_CONNECT_TIMEOUT``, disk full, a read-only
server. ``STORE_ERRORS`` lists them; ``STORE_BUGS`` the store errors that stay 500s (a conflict the
code failed to handle, bad SQL, bad data: bugs, logged with their traceback by the app).

The answer: ``503`` ``application/problem+json``, ``type`` ``urn:dicelog:problem:store-unavailable``,
``Retry-After: 2`` (seconds; ``RETRY_AFTER``), ``reason`` (``locked``, ``read-only``, ``disk-full``,
``io-error``, ``connection-lost``, ``pool-timeout``, ``pooler``, ``redis``, ``busy`` (a write that
waited too long for the write lane and was not run, ``dicelog.service.store.write_lane``),
``unavailable``). The driver's message is logged (one warning line, no traceback), never sent: it
may name hosts. For a request that writes (every ``POST`` but ``/verify``), ``outcome`` says what
happened to it:

- ``not-stored`` (SQLite, and ``busy`` on any store): a SQLite transaction that failed was rolled
  back, or the write never ran; nothing changed.
- ``unknown`` (PostgreSQL): the connection may have died while the server committed. Retrying
  with the same ``Idempotency-Key`` is safe: a stored command is answered with its first answer
  (the answer is stored in the same transaction as the events), an unstored one runs once.
  Without a key, ``expected_version`` makes the retry safe (409 if the first attempt was stored).

Every request writes in one transaction (``Games.save``); a snapshot taken after it is an
optimisation whose failure is logged and does not fail the request (``Games._saved``).

**The write probe** (``probe_store``, used by ``GET /ready``), within ``PROBE_TIMEOUT`` seconds
(Kubernetes waits 2 s for ``/ready``):

- SQLite: on a connection of its own, ``BEGIN IMMEDIATE`` (the write lock: fails while another
  connection holds it), ``PRAGMA user_version`` set to its own value and ``COMMIT``: a real write
  of one page to the WAL that changes nothing, so a read-only file (at start or gone read-only
  since), a full disk or an I/O error fail it too;
- PostgreSQL: a pool connection (waiting at most ``PROBE_TIMEOUT``), then, in a transaction rolled
  back, an insert of one row into the games' events table itself, as the service's role: a role
  whose ``INSERT`` grant was revoked, a read-only or recovering server (or
  ``default_transaction_read_only``), a lock held too long (``lock_timeout``) or a silent server
  fail it (issue 34: ``SELECT pg_current_xact_id()`` needed no privilege, and ``/ready`` stayed 200
  while every write failed). The row has a negative notification id of its own (never one of the
  sequence's, so no id is used up and no gap is left in the notification log) and a random
  originator id; nobody ever sees it. A connection found dead is replaced once (the pool
  reconnects), so only a lasting loss fails the probe. A full disk on PostgreSQL shows at the first
  failed write (503), not here.

**Permission errors** (PostgreSQL ``insufficient_privilege``, SQLSTATE 42501: a grant revoked from
the service's role) are faults of the deployment, not bugs of the code: 503 ``permission-denied``,
although the library wraps them in its ``ProgrammingError``. **Timeouts** (``statement_timeout``,
``lock_timeout``, the client's socket timeout: ``dicelog.service.store.persistence``) are 503
``timeout``.

**A pooler's prepared statements** (PostgreSQL ``duplicate_prepared_statement``, 42P05, and
``invalid_sql_statement_name``, 26000: a transaction-pooling PgBouncer older than 1.21 hands one
client's prepared statement names to another, docs/operations.md, "PgBouncer") are faults of the
deployment too: 503 ``pooler`` (the library wraps them in its ``ProgrammingError``); the warning line
names the setting that ends them (``DICELOG_POSTGRES_PREPARED_STATEMENTS=false``).
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import uuid
from typing import Any

from eventsourcing.persistence import (
    DataError,
    IntegrityError,
    NotSupportedError,
    PersistenceError,
    ProgrammingError,
)
from litestar import Request, Response
from litestar.plugins.problem_details import ProblemDetailsException
from litestar.types import ExceptionHandlersMap

log = logging.getLogger("dicelog")

STORE_UNAVAILABLE = "urn:dicelog:problem:store-unavailable"
RETRY_AFTER = 2
"""Seconds a client should wait before retrying a request answered 503."""
PROBE_TIMEOUT = 1.0
"""Seconds the write probe waits for the store (a lock, a pool connection, a statement)."""


def _driver_errors() -> tuple[list[type[Exception]], list[type[Exception]]]:
    """(infrastructure errors, bugs) of the drivers: sqlite3 always, psycopg and redis if installed."""
    faults: list[type[Exception]] = [sqlite3.Error]
    bugs: list[type[Exception]] = [
        sqlite3.IntegrityError,
        sqlite3.ProgrammingError,
        sqlite3.DataError,
        sqlite3.NotSupportedError,
        sqlite3.InterfaceError,
    ]
    try:
        import psycopg
        import psycopg_pool

        faults += [psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout]
    except ImportError:  # pragma: no cover - psycopg comes with eventsourcing[postgres]
        pass
    try:
        import redis

        faults += [redis.ConnectionError, redis.TimeoutError]
    except ImportError:  # pragma: no cover - redis is a dependency
        pass
    return faults, bugs


_faults, _bugs = _driver_errors()
STORE_ERRORS: tuple[type[Exception], ...] = (PersistenceError, *_faults)
"""Answered 503 (with their subclasses, except ``STORE_BUGS``)."""
STORE_BUGS: tuple[type[Exception], ...] = (
    IntegrityError,
    ProgrammingError,
    DataError,
    NotSupportedError,
    *_bugs,
)
"""Store errors that are bugs of the code: answered 500 like any other bug."""

_REASONS = (
    ("permission denied", "permission-denied"),
    ("statement timeout", "timeout"),
    ("lock timeout", "timeout"),
    ("no answer from the server", "timeout"),
    ("database is locked", "locked"),
    ("database table is locked", "locked"),
    ("readonly database", "read-only"),
    ("read-only transaction", "read-only"),
    ("during recovery", "read-only"),
    ("disk is full", "disk-full"),
    ("no space left", "disk-full"),
    ("disk i/o error", "io-error"),
    ("couldn't get a connection", "pool-timeout"),
    ("pool timeout", "pool-timeout"),
    ("terminating connection", "connection-lost"),
    ("server closed the connection", "connection-lost"),
    ("connection is closed", "connection-lost"),
    ("consuming input failed", "connection-lost"),
    ("connection failed", "connection-lost"),
    ("connection refused", "connection-lost"),
    ("the connection is lost", "connection-lost"),
)


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it wraps (``raise ... from``: the library wraps each driver error so)."""
    seen: list[BaseException] = []
    node: BaseException | None = exc
    while node is not None and node not in seen and len(seen) < 10:
        seen.append(node)
        node = node.__cause__
    return seen


PERMISSION_DENIED = "42501"
"""PostgreSQL's SQLSTATE ``insufficient_privilege`` (``psycopg.errors.InsufficientPrivilege``)."""


POOLER_PREPARED = ("42P05", "26000")
"""PostgreSQL's SQLSTATEs ``duplicate_prepared_statement`` and ``invalid_sql_statement_name``: met
only behind a pooler that keeps no prepared statements (module docstring)."""


def _permission_denied(node: BaseException) -> bool:
    return getattr(node, "sqlstate", None) == PERMISSION_DENIED


def _pooler(node: BaseException) -> bool:
    return getattr(node, "sqlstate", None) in POOLER_PREPARED


def _deployment_fault(node: BaseException) -> bool:
    """A store error that is the deployment's, not the code's, though the library wraps it as a
    programming error: a revoked grant, a pooler's prepared statements."""
    return _permission_denied(node) or _pooler(node)


def is_store_fault(exc: BaseException) -> bool:
    """Whether ``exc`` is an infrastructure fault (503), not a bug: one of ``STORE_ERRORS`` that
    neither is nor wraps one of ``STORE_BUGS`` (the library wraps ``sqlite3.InterfaceError``, a bad
    parameter, in its ``InterfaceError``, as it wraps a database it cannot open), or a permission
    error of PostgreSQL or a pooler's prepared-statement error however wrapped (module docstring)."""
    chain = _chain(exc)
    if isinstance(exc, STORE_ERRORS) and any(_deployment_fault(node) for node in chain):
        return True
    return isinstance(exc, STORE_ERRORS) and not any(isinstance(node, STORE_BUGS) for node in chain)


def reason_of(exc: BaseException) -> str:
    """A short, stable word for what failed (never the driver's message: it may name hosts)."""
    chain = _chain(exc)
    for node in chain:
        module = type(node).__module__ or ""
        if module.startswith("redis"):
            return "redis"
        if type(node).__name__ in ("PoolTimeout", "ConnectionUnavailableError"):
            return "pool-timeout"
        if type(node).__name__ == "DiskFull":
            return "disk-full"
        if type(node).__name__ == "WriteLaneBusy":
            return "busy"
        if _permission_denied(node):
            return "permission-denied"
        if _pooler(node):
            return "pooler"
    text = " ".join(str(node) for node in chain).lower()
    for needle, reason in _REASONS:
        if needle in text:
            return reason
    if any(
        isinstance(node, Exception)
        and type(node).__module__.startswith("psycopg")
        and type(node).__name__ == "InterfaceError"
        for node in chain
    ):
        return "connection-lost"  # psycopg: "the connection is closed", whatever the words
    return "unavailable"


def _writes(request: Request[Any, Any, Any]) -> bool:
    return request.method == "POST" and not request.url.path.rstrip("/").endswith("/verify")


def store_unavailable(request: Request[Any, Any, Any], exc: Exception, *, store: str) -> Response[Any]:
    """The 503 problem+json answer to an infrastructure fault (module docstring), for ``store``
    (``sqlite`` or ``postgres``): one warning line in the log, no traceback."""
    reason = reason_of(exc)
    first_line = str(exc).splitlines()[0] if str(exc) else ""
    if reason == "pooler":
        first_line += (
            " (a transaction-pooling PgBouncer older than 1.21: "
            "set DICELOG_POSTGRES_PREPARED_STATEMENTS=false)"
        )
    log.warning(
        "store unavailable (503, %s) for %s %s: %s: %s",
        reason,
        request.method,
        request.url.path,
        type(exc).__name__,
        first_line,
    )
    extra: dict[str, Any] = {"reason": reason, "retry_after": RETRY_AFTER}
    what = "the Redis server" if reason == "redis" else "the event store"
    detail = f"{what} is unavailable ({reason})"
    if _writes(request):
        if (store == "sqlite" and reason != "redis") or reason == "busy":
            extra["outcome"] = "not-stored"
            detail += "; nothing was stored"
        else:
            extra["outcome"] = "unknown"
            detail += (
                "; the request may have been stored before the connection failed: a retry with the same "
                "Idempotency-Key is safe (a stored command is answered as it was, an unstored one runs once)"
            )
    detail += f"; retry in {RETRY_AFTER} s"
    return ProblemDetailsException(
        status_code=503,
        type_=STORE_UNAVAILABLE,
        title="Service unavailable",
        detail=detail,
        extra=extra,
        headers={"Retry-After": str(RETRY_AFTER)},
    ).to_response(request)


def exception_handlers(store: str, bug: Any) -> ExceptionHandlersMap:
    """Litestar exception handlers for ``STORE_ERRORS`` and ``STORE_BUGS``: a fault
    (``is_store_fault``) is answered 503 (``store_unavailable``), a bug by ``bug(request, exc)`` (the
    app's 500). Litestar finds a handler along the exception's MRO, so subclasses are covered."""

    def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
        if is_store_fault(exc):
            return store_unavailable(request, exc, store=store)
        return bug(request, exc)

    return dict.fromkeys((*STORE_ERRORS, *STORE_BUGS), handle)


# --- the write probe of GET /ready --------------------------------------------------------------


class StoreNotWritable(Exception):
    """The write probe failed (``probe_store``): ``reason`` (as ``reason_of``) and the message why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


def probe_store(recorder: Any) -> None:
    """Check that the event store of ``recorder`` (the games' application recorder) can write now.

    Raises ``StoreNotWritable`` (module docstring)."""
    from eventsourcing.postgres import PostgresRecorder
    from eventsourcing.sqlite import SQLiteRecorder

    try:
        if isinstance(recorder, SQLiteRecorder):
            _probe_sqlite(recorder.datastore.pool.db_name)
        elif isinstance(recorder, PostgresRecorder):
            _probe_postgres(recorder)
        else:  # another recorder (in-memory): reading is all there is to check
            recorder.max_notification_id()
    except StoreNotWritable:
        raise
    except Exception as e:  # whatever fails, the store cannot write
        first_line = str(e).splitlines()[0] if str(e) else ""
        raise StoreNotWritable(reason_of(e), f"{type(e).__name__}: {first_line}") from e


def _probe_sqlite(path: str) -> None:
    """A committed write that changes nothing: ``PRAGMA user_version`` set to its own value (the
    header of the file; dicelog does not use it) in a ``BEGIN IMMEDIATE`` transaction, on a
    connection of its own that never checkpoints. The commit appends a frame to the WAL: a locked
    store, a read-only file, a full disk or a file system gone read-only fail it."""
    db = sqlite3.connect(path, uri=True, timeout=PROBE_TIMEOUT, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA wal_autocheckpoint = 0")
        db.execute("BEGIN IMMEDIATE")
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            db.execute(f"PRAGMA user_version = {version}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    finally:
        db.close()


def _probe_postgres(recorder: Any) -> None:
    import psycopg
    from psycopg.sql import SQL, Identifier

    datastore = recorder.datastore
    insert = SQL(
        "INSERT INTO {}.{} (notification_id, originator_id, originator_version, topic, state) "
        "VALUES (%s, %s, 0, 'dicelog/write-probe', ''::bytea)"
    ).format(Identifier(datastore.schema), Identifier(recorder.events_table_name))
    timeout_ms = int(PROBE_TIMEOUT * 1000)
    for attempt in (1, 2):
        try:
            with datastore.pool.connection(timeout=PROBE_TIMEOUT) as conn:
                # a silent server: wait PROBE_TIMEOUT for its answer, not the requests' socket
                # timeout (``dicelog.service.store.persistence.TimedConnection``)
                timed = hasattr(conn, "socket_timeout")
                usual = conn.socket_timeout if timed else None
                if timed:
                    conn.socket_timeout = PROBE_TIMEOUT
                try:
                    with conn.transaction(force_rollback=True):
                        conn.execute(f"SET LOCAL statement_timeout = {timeout_ms}")
                        conn.execute(f"SET LOCAL lock_timeout = {timeout_ms}")
                        conn.execute(insert, (-1 - secrets.randbelow(2**62), uuid.uuid4()))
                finally:
                    if timed:
                        conn.socket_timeout = usual
            return
        except (psycopg.OperationalError, psycopg.InterfaceError) as e:
            if attempt == 2 or not _connection_lost(e):
                raise
            # A connection killed while idle in the pool: the pool drops it; try a fresh one once.


def _connection_lost(exc: BaseException) -> bool:
    return reason_of(exc) == "connection-lost"
