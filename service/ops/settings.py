"""Configuration, from ``DICELOG_*`` environment variables only (docs/architecture.md, Runtime).

| variable | default | meaning |
|---|---|---|
| ``DICELOG_DATA_DIR`` | ``$XDG_DATA_HOME/dicelog``, else ``~/.local/share/dicelog`` | directory of the SQLite files (embedded default); a relative value is resolved against the working directory at start-up |
| ``DICELOG_STORE`` | ``sqlite`` | ``sqlite`` (embedded) or ``postgres`` |
| ``DICELOG_SQLITE_LOCK_TIMEOUT`` | ``10`` | seconds a SQLite write waits for another writer's lock before the request is answered 503 |
| ``DICELOG_AUTO_MIGRATE`` | ``true`` | ``serve``/``worker`` create or upgrade the tables at start-up; ``false`` (production): they refuse to start unless ``dicelog migrate`` ran |
| ``DICELOG_POSTGRES_HOST`` / ``_PORT`` / ``_DBNAME`` / ``_USER`` / ``_PASSWORD`` | ``127.0.0.1`` / ``5432`` / ``dicelog`` / ``postgres`` / empty | PostgreSQL event store |
| ``DICELOG_POSTGRES_SCHEMA`` | ``public`` | schema of the tables |
| ``DICELOG_POSTGRES_POOL_SIZE`` | ``2`` | connections each process keeps open (one pool per process, shared by the games, projections and publisher) |
| ``DICELOG_POSTGRES_MAX_OVERFLOW`` | ``4`` | connections a process may open beyond the pool size under load (closed after 10 idle minutes) |
| ``DICELOG_POSTGRES_CONNECT_TIMEOUT`` | ``4`` | seconds to wait for a connection: at start-up for the server to answer (so an unreachable server is named within 5 s), later for a free one from the pool |
| ``DICELOG_POSTGRES_STATEMENT_TIMEOUT`` | ``5`` | seconds the server lets one statement run before it cancels it (503 ``timeout``; 0: no limit) |
| ``DICELOG_POSTGRES_LOCK_TIMEOUT`` | ``3`` | seconds a statement waits for a lock, above all each insert's lock of the events table (0: forever) |
| ``DICELOG_POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT`` | ``5`` | seconds the server keeps a session idle inside a transaction before it ends it (its locks released; 0: forever) |
| ``DICELOG_POSTGRES_SOCKET_TIMEOUT`` | ``7`` | seconds the client waits for the server's answer before it closes the connection (a silent server or network; 503 ``timeout``; 0: forever) |
| ``DICELOG_POSTGRES_MAX_WAITING`` | ``0`` | requests that may queue for a connection before new ones fail at once (0: no limit) |
| ``DICELOG_POSTGRES_CONN_MAX_AGE`` | ``3600`` | seconds after which a connection is replaced |
| ``DICELOG_POSTGRES_PRE_PING`` | ``false`` | check each connection before use (survives a restarted server or proxy, one round trip more) |
| ``DICELOG_POSTGRES_PREPARED_STATEMENTS`` | ``true`` | let the driver prepare statements on the server; ``false`` behind a transaction-pooling PgBouncer older than 1.21, which keeps no prepared statements (docs/operations.md, "PgBouncer") |
| ``DICELOG_REDIS_URL`` | unset | Redis for notification streams; unset: in-process fan-out |
| ``DICELOG_STREAM_MAXLEN`` | ``10000`` | per-game Redis streams (public, per seat, auditor): length cap, at least this many entries kept (``MAXLEN ~``; 0: no cap) |
| ``DICELOG_STREAM_RETENTION`` | ``off`` | per-game Redis streams: entries younger than this are kept (``MINID ~``; ``off``: no age limit) |
| ``DICELOG_GLOBAL_STREAM_MAXLEN`` | ``1000000`` | ``dicelog:games``: length cap, as above (0: no cap) |
| ``DICELOG_GLOBAL_STREAM_RETENTION`` | ``24h`` | ``dicelog:games``: entries younger than this are kept (``off``: no age limit) |
| ``DICELOG_ENDED_STREAM_RETENTION`` | ``24h`` | an ended game's Redis streams expire this long after its end (``EXPIRE``; ``off``: kept until trimmed) |
| ``DICELOG_SNAPSHOT_INTERVAL`` | ``100`` | a snapshot every N events of a game (0: none) |
| ``DICELOG_WRITE_THREADS`` | ``auto`` | threads that run the requests that write (``service/store/write_lane.py``); ``auto``: 4 for SQLite (their saves share commits), ``POOL_SIZE + MAX_OVERFLOW`` for PostgreSQL |
| ``DICELOG_EMBEDDED_WORKER`` | ``process`` | where the API runs the projections and the Redis publisher: ``process`` (a child process it starts and stops, ``service/worker/embedded.py``), ``thread`` (in the API process), ``off`` (not at all: a ``dicelog worker`` does); ``true``/``false`` mean ``process``/``off`` |
| ``DICELOG_PARTITIONS`` | ``1`` | partitions of games the projections and the Redis publisher are split into, shared by every ``dicelog worker`` (and embedded worker) of the store through leases (``service/store/partitions.py``); more than 1 needs PostgreSQL; a stored setting: change it only with every worker stopped |
| ``DICELOG_LEASE_TTL`` | ``10`` | seconds a worker's partition lease lasts unless renewed (every third of it): how long a dead worker's partitions wait before another worker takes them |
| ``DICELOG_LOG_LEVEL`` | ``info`` | log level |
| ``DICELOG_RATE_LIMIT_CREATE`` | ``30/minute`` | creations (games, campaigns, forks) per client address |
| ``DICELOG_RATE_LIMIT_COMMANDS`` | ``120/minute`` | commands per bearer token (else per client address) |
| ``DICELOG_RATE_LIMIT_EXPENSIVE`` | ``60/minute`` | verifications, exports, claims and replays (``state``, ``board`` and ``initiative`` with ``?version=``) per bearer token (else per client address) |
| ``DICELOG_FORWARDED_ALLOW_IPS`` | empty (none) | addresses or networks of the reverse proxies whose ``X-Forwarded-For``/``-Proto`` ``dicelog serve`` trusts, comma-separated (``10.0.0.0/8,127.0.0.1``), or ``*`` for any; empty: the socket's peer is the client address |
| ``DICELOG_SSE_HEARTBEAT`` | ``15`` | seconds of silence after which an SSE stream sends a ``: keep-alive`` comment |
| ``DICELOG_SSE_POLL_INTERVAL`` | ``2`` | seconds between store reads of an idle SSE stream when no wake-up came (the safety net) |
| ``DICELOG_MAX_BODY_BYTES`` | ``2097152`` (2 MiB) | largest request body; a larger one is refused with 413 (``service/http/guards.py``) |
| ``DICELOG_CORS_ORIGINS`` | empty (CORS off) | origins a browser app may call the API from, comma-separated (``https://app.example.org``), or ``*`` for any |

Every malformed value raises ``ValueError`` naming its variable (``Settings.from_env``). Booleans are
``true``/``false`` (also ``1``/``0``, ``yes``/``no``, ``on``/``off``).

The SQLite data directory defaults to an absolute path (XDG base directories), so every command
reads the same store whatever its working directory: ``dicelog export`` run from another directory
finds the games ``dicelog serve`` wrote (releases up to 0.1 used ``./dicelog-data``: set
``DICELOG_DATA_DIR`` to it to keep using such a store).

Connections: each process opens one PostgreSQL pool: at most ``POOL_SIZE + MAX_OVERFLOW`` (6)
connections, ``POOL_SIZE`` (2) when idle. Ten API replicas and a worker then hold at most 66 of a
default server's 100 ``max_connections`` (3 of which are reserved for superusers), leaving room for
``dicelog migrate``/``backup``, ``psql`` and monitoring.

A rate limit is ``<count>/<unit>`` (unit ``second``, ``minute``, ``hour`` or ``day``) or ``off``
(see ``service/http/quotas.py``).
A retention is ``<count><unit>`` (unit ``s``, ``m``, ``h`` or ``d``: ``90m``, ``24h``, ``7d``), a
number of seconds, or ``off``; an origin is ``scheme://host[:port]`` (see ``service/worker/publisher.py`` for
the trimming policy, ``service/http/guards.py`` for CORS).
"""  # noqa: E501 - the table above has one variable a row

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, cast

from msgspec import Struct, field

TRUE = ("1", "true", "yes", "y", "on")
FALSE = ("0", "false", "no", "n", "off")
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
LOG_FORMATS = ("json", "console")
SQLITE_WRITE_THREADS = 4
"""The write lane's threads on SQLite with ``DICELOG_WRITE_THREADS=auto`` (``Settings.write_concurrency``)."""


def _bool(value: str, variable: str) -> bool:
    """``true``/``false`` (and ``1``/``0``, ``yes``/``no``, ``on``/``off``, any case). Raises
    ``ValueError`` naming ``variable``."""
    text = value.strip().lower()
    if text not in TRUE + FALSE:
        raise ValueError(f"{variable} must be true or false; not {value!r}")
    return text in TRUE


def _count(value: str, variable: str, *, least: int = 0, most: int | None = None) -> int:
    """A whole number from ``least`` to ``most`` (``None``: no upper bound). Raises ``ValueError``
    naming ``variable``."""
    text = value.strip()
    number = int(text) if text.isascii() and text.isdigit() else least - 1
    if number < least or (most is not None and number > most):
        bounds = f"from {least} to {most}" if most is not None else f"{least} or more"
        raise ValueError(f"{variable} must be a whole number, {bounds}; not {value!r}")
    return number


def _threads(value: str, variable: str) -> int:
    """``auto`` (0) or a whole number from 1 to 64. Raises ``ValueError`` naming ``variable``."""
    if value.strip().lower() == "auto":
        return 0
    try:
        return _count(value, variable, least=1, most=64)
    except ValueError:
        raise ValueError(f"{variable} must be auto or a whole number from 1 to 64; not {value!r}") from None


def _worker_mode(value: str, variable: str) -> str:
    """``process``, ``thread`` or ``off``; ``true`` is read as ``process`` and ``false`` as ``off`` (the
    values of releases where the embedded worker was a thread). Raises ``ValueError`` naming ``variable``."""
    text = value.strip().lower()
    if text in ("process", "thread", "off"):
        return text
    if text in TRUE + FALSE:
        return "process" if text in TRUE else "off"
    raise ValueError(f"{variable} must be process, thread or off (or true/false); not {value!r}")


def _choice(value: str, variable: str, *, choices: tuple[str, ...]) -> Any:
    """One of ``choices`` (any case, spaces around ignored). Raises ``ValueError`` naming ``variable``."""
    text = value.strip().lower()
    if text not in choices:
        raise ValueError(f"{variable} must be one of {', '.join(choices)}; not {value!r}")
    return text


def _text(value: str, variable: str) -> str:
    """A non-empty value. Raises ``ValueError`` naming ``variable``."""
    if not value.strip():
        raise ValueError(f"{variable} must not be empty")
    return value.strip()


def default_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The SQLite data directory when ``DICELOG_DATA_DIR`` is unset: ``$XDG_DATA_HOME/dicelog``, or
    ``~/.local/share/dicelog`` when ``XDG_DATA_HOME`` is unset or relative (as the XDG base directory
    specification says). Always absolute."""
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "dicelog"


def _data_dir(value: str, variable: str) -> Path:
    """``value`` as an absolute directory (``~`` expanded, resolved against the working directory)."""
    if "\x00" in value:
        raise ValueError(f"{variable} is not a path: {value!r}")
    return Path(value).expanduser().resolve()


def _redis_url(value: str, variable: str) -> str | None:
    """A Redis URL (``redis://``, ``rediss://`` or ``unix://``), or ``None`` when empty."""
    text = value.strip()
    if not text:
        return None
    if not re.match(r"(redis|rediss|unix)://", text):
        raise ValueError(f"{variable} must be a redis://, rediss:// or unix:// URL; not {value!r}")
    return text


def _seconds(value: str, variable: str) -> float:
    """A positive number of seconds. Raises ``ValueError`` naming ``variable``."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"{variable} must be a positive number of seconds; not {value!r}")
    return seconds


RateUnit = Literal["second", "minute", "hour", "day"]
RATE_UNITS: tuple[RateUnit, ...] = ("second", "minute", "hour", "day")
# Litestar's rate-limit middleware keeps one timestamp per request of the current window in the
# stored value, so the count is bounded to keep that value small.
MAX_RATE_COUNT = 10_000


def parse_rate_limit(value: str, variable: str) -> tuple[RateUnit, int] | None:
    """``"<count>/<unit>"`` as ``(unit, count)`` (the shape of Litestar's ``RateLimitConfig``), or
    ``None`` for ``"off"``. Raises ``ValueError`` naming ``variable`` when malformed."""
    text = value.strip().lower()
    if text == "off":
        return None
    match = re.fullmatch(r"(\d{1,9})\s*/\s*([a-z]+)", text, re.ASCII)
    if match is None or match[2] not in RATE_UNITS or not 1 <= int(match[1]) <= MAX_RATE_COUNT:
        raise ValueError(
            f"{variable} must be <count>/<unit> with a count from 1 to {MAX_RATE_COUNT} and a unit among "
            f"{', '.join(RATE_UNITS)} (e.g. 30/minute), or off; not {value!r}"
        )
    return cast(RateUnit, match[2]), int(match[1])


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86_400}


def parse_retention(value: str, variable: str) -> int:
    """A retention (``"24h"``, ``"90m"``, ``"7d"``, ``"3600"``, ``"off"``) in seconds, ``0`` for
    ``off`` (or ``0``). Raises ``ValueError`` naming ``variable`` when malformed."""
    text = value.strip().lower()
    if text in ("off", "0"):
        return 0
    match = re.fullmatch(r"(\d{1,9})\s*([smhd]?)", text, re.ASCII)
    if match is None or int(match[1]) == 0:
        raise ValueError(f"{variable} must be <count><s|m|h|d> (e.g. 24h), seconds, or off; not {value!r}")
    return int(match[1]) * DURATION_UNITS[match[2] or "s"]


def parse_proxies(value: str, variable: str) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks (``10.0.0.0/8``) as a tuple; ``*`` alone trusts any
    peer; empty: none. Raises ``ValueError`` naming ``variable`` when malformed."""
    proxies = tuple(p.strip() for p in value.split(",") if p.strip())
    if "*" in proxies and len(proxies) > 1:
        raise ValueError(f"{variable}: * trusts every peer and must stand alone; not {value!r}")
    for proxy in proxies:
        if proxy == "*":
            continue
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ValueError(f"{variable}: {proxy!r} is not an IP address or network") from None
    return proxies


def parse_origins(value: str, variable: str) -> tuple[str, ...]:
    """Comma-separated origins (``scheme://host[:port]``, no path) as a tuple; ``*`` alone allows
    any origin; empty: none (CORS off). Raises ``ValueError`` naming ``variable`` when malformed."""
    origins = tuple(o.strip() for o in value.split(",") if o.strip())
    if "*" in origins and len(origins) > 1:
        raise ValueError(f"{variable}: * allows every origin and must stand alone; not {value!r}")
    for origin in origins:
        if origin != "*" and not re.fullmatch(
            r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?", origin
        ):
            raise ValueError(f"{variable}: {origin!r} is not an origin (scheme://host[:port], no path, or *)")
    return origins


class Settings(Struct, frozen=True, kw_only=True):
    """The service's configuration (see the module docstring for the variables)."""

    data_dir: Path = field(default_factory=default_data_dir)
    """Directory of the SQLite files (absolute when read from the environment)."""
    store: Literal["sqlite", "postgres"] = "sqlite"
    sqlite_lock_timeout: int = 10
    """Seconds a SQLite write waits for another writer's lock (then 503, ``dicelog.service.ops.faults``)."""
    auto_migrate: bool = True
    """Create or upgrade the tables at start-up (``dicelog.service.store.migrations.ensure_schema``)."""
    postgres_host: str = "127.0.0.1"
    postgres_port: int = 5432
    postgres_dbname: str = "dicelog"
    postgres_user: str = "postgres"
    postgres_password: str = ""
    postgres_schema: str = "public"
    postgres_pool_size: int = 2
    """Connections kept open by the process's one pool."""
    postgres_max_overflow: int = 4
    """Connections opened beyond ``postgres_pool_size`` under load (closed again when idle)."""
    postgres_connect_timeout: int = 4
    """Seconds to wait for a connection: for the server at start-up, for a free one from the pool."""
    postgres_statement_timeout: int = 5
    """Seconds before the server cancels a statement (0: no limit; ``dicelog.service.store.persistence``)."""
    postgres_lock_timeout: int = 3
    """Seconds a statement waits for a lock (0: forever)."""
    postgres_idle_in_transaction_timeout: int = 5
    """Seconds a session may stay idle inside a transaction before the server ends it (0: forever)."""
    postgres_socket_timeout: int = 7
    """Seconds the client waits for the server's answer before it closes the connection (0: forever)."""
    postgres_max_waiting: int = 0
    """Requests that may wait for a connection at once (0: no limit)."""
    postgres_conn_max_age: float = 3600.0
    """Seconds after which a connection is closed and replaced."""
    postgres_pre_ping: bool = False
    """Check a connection before each use."""
    postgres_prepared_statements: bool = True
    """Let the driver prepare statements on the server (``dicelog.service.store.persistence``)."""
    redis_url: str | None = None
    stream_maxlen: int = 10_000
    stream_retention: int = 0
    """Seconds; 0: no age limit (see ``parse_retention``)."""
    global_stream_maxlen: int = 1_000_000
    global_stream_retention: int = 86_400
    """Seconds; 0: no age limit."""
    ended_stream_retention: int = 86_400
    """Seconds an ended game's streams are kept in Redis (0: until trimmed,
    ``service/worker/publisher.py``)."""
    snapshot_interval: int = 100
    write_threads: int = 0
    """Threads of the write lane (``dicelog.service.store.write_lane``); 0 (``auto``):
    ``write_concurrency()``."""
    embedded_worker: Literal["process", "thread", "off"] = "process"
    """Where the API runs the projections and the publisher (``dicelog.service.worker.embedded``)."""
    log_level: str = "info"
    log_format: str = "json"
    """``json``: one JSON object per log line (``dicelog.service.ops.logs``); ``console``: aligned text."""
    worker_port: int = 8001
    """``dicelog worker``: the port of its probes and metrics (``/live``, ``/ready``, ``/metrics``)."""
    partitions: int = 1
    """Partitions of games shared by the workers through leases (``dicelog.service.store.partitions``)."""
    lease_ttl: float = 10.0
    """Seconds a partition lease lasts unless renewed."""
    rate_limit_create: str = "30/minute"
    rate_limit_commands: str = "120/minute"
    rate_limit_expensive: str = "60/minute"
    forwarded_allow_ips: tuple[str, ...] = ()
    """Reverse proxies trusted for ``X-Forwarded-*`` by ``dicelog serve``; empty: none."""
    sse_heartbeat: float = 15.0
    """Seconds of silence before an SSE stream sends a ``: keep-alive`` comment."""
    sse_poll_interval: float = 2.0
    """Seconds between store reads of an idle SSE stream that got no wake-up."""
    cors_origins: tuple[str, ...] = ()
    """Origins allowed by CORS; empty: CORS off; ``("*",)``: any origin."""
    max_body_bytes: int = 2 * 1024 * 1024
    """Largest request body in bytes (413 above it, ``dicelog.service.http.guards.BodyLimits``)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the ``DICELOG_*`` variables of ``environ`` (default ``os.environ``).

        Raises ``ValueError`` naming the variable when a value is malformed.
        """
        env = os.environ if environ is None else environ

        def read(name: str, default: str, parse: Callable[..., Any] = lambda v, _: v, **bounds: Any) -> Any:
            """``DICELOG_<name>`` (``default`` when unset) through ``parse(value, variable, **bounds)``."""
            return parse(env.get(f"DICELOG_{name}", default), f"DICELOG_{name}", **bounds)

        try:
            store = read("STORE", "sqlite", _choice, choices=("sqlite", "postgres"))
            rate_limit_create = read("RATE_LIMIT_CREATE", "30/minute")
            parse_rate_limit(rate_limit_create, "DICELOG_RATE_LIMIT_CREATE")
            rate_limit_commands = read("RATE_LIMIT_COMMANDS", "120/minute")
            parse_rate_limit(rate_limit_commands, "DICELOG_RATE_LIMIT_COMMANDS")
            rate_limit_expensive = read("RATE_LIMIT_EXPENSIVE", "60/minute")
            parse_rate_limit(rate_limit_expensive, "DICELOG_RATE_LIMIT_EXPENSIVE")
            data_dir = read("DATA_DIR", "")
            partitions = read("PARTITIONS", "1", _count, least=1, most=1024)
            if partitions > 1 and store != "postgres":
                raise ValueError(
                    f"DICELOG_PARTITIONS={env.get('DICELOG_PARTITIONS')!r}: more than 1 partition needs "
                    "DICELOG_STORE=postgres"
                )
            return cls(
                data_dir=read("DATA_DIR", "", _data_dir) if data_dir.strip() else default_data_dir(env),
                store=store,
                sqlite_lock_timeout=read("SQLITE_LOCK_TIMEOUT", "10", _count, least=1, most=3600),
                auto_migrate=read("AUTO_MIGRATE", "true", _bool),
                postgres_host=read("POSTGRES_HOST", "127.0.0.1", _text),
                postgres_port=read("POSTGRES_PORT", "5432", _count, least=1, most=65535),
                postgres_dbname=read("POSTGRES_DBNAME", "dicelog", _text),
                postgres_user=read("POSTGRES_USER", "postgres", _text),
                postgres_password=read("POSTGRES_PASSWORD", ""),
                postgres_schema=read("POSTGRES_SCHEMA", "public", _text),
                postgres_pool_size=read("POSTGRES_POOL_SIZE", "2", _count, least=1),
                postgres_max_overflow=read("POSTGRES_MAX_OVERFLOW", "4", _count),
                postgres_connect_timeout=read("POSTGRES_CONNECT_TIMEOUT", "4", _count, least=1),
                postgres_statement_timeout=read("POSTGRES_STATEMENT_TIMEOUT", "5", _count),
                postgres_lock_timeout=read("POSTGRES_LOCK_TIMEOUT", "3", _count),
                postgres_idle_in_transaction_timeout=read(
                    "POSTGRES_IDLE_IN_TRANSACTION_TIMEOUT", "5", _count
                ),
                postgres_socket_timeout=read("POSTGRES_SOCKET_TIMEOUT", "7", _count),
                postgres_max_waiting=read("POSTGRES_MAX_WAITING", "0", _count),
                postgres_conn_max_age=read("POSTGRES_CONN_MAX_AGE", "3600", _seconds),
                postgres_pre_ping=read("POSTGRES_PRE_PING", "false", _bool),
                postgres_prepared_statements=read("POSTGRES_PREPARED_STATEMENTS", "true", _bool),
                redis_url=read("REDIS_URL", "", _redis_url),
                stream_maxlen=read("STREAM_MAXLEN", "10000", _count),
                stream_retention=read("STREAM_RETENTION", "off", parse_retention),
                global_stream_maxlen=read("GLOBAL_STREAM_MAXLEN", "1000000", _count),
                global_stream_retention=read("GLOBAL_STREAM_RETENTION", "24h", parse_retention),
                ended_stream_retention=read("ENDED_STREAM_RETENTION", "24h", parse_retention),
                snapshot_interval=read("SNAPSHOT_INTERVAL", "100", _count),
                write_threads=read("WRITE_THREADS", "auto", _threads),
                embedded_worker=read("EMBEDDED_WORKER", "process", _worker_mode),
                log_level=read("LOG_LEVEL", "info", _choice, choices=LOG_LEVELS),
                log_format=read("LOG_FORMAT", "json", _choice, choices=LOG_FORMATS),
                worker_port=read("WORKER_PORT", "8001", _count, least=1, most=65535),
                partitions=partitions,
                lease_ttl=read("LEASE_TTL", "10", _seconds),
                rate_limit_create=rate_limit_create,
                rate_limit_commands=rate_limit_commands,
                rate_limit_expensive=rate_limit_expensive,
                forwarded_allow_ips=read("FORWARDED_ALLOW_IPS", "", parse_proxies),
                sse_heartbeat=read("SSE_HEARTBEAT", "15", _seconds),
                sse_poll_interval=read("SSE_POLL_INTERVAL", "2", _seconds),
                cors_origins=read("CORS_ORIGINS", "", parse_origins),
                max_body_bytes=read("MAX_BODY_BYTES", str(2 * 1024 * 1024), _count, least=1024),
            )
        except ValueError as e:
            raise ValueError(f"bad DICELOG_* setting: {e}") from None

    def describe_store(self) -> str:
        """Where the store is, for messages: ``SQLite in <data dir>`` or ``PostgreSQL at
        <host>:<port>, database <name>, schema <schema>`` (never the password)."""
        if self.store == "sqlite":
            return f"SQLite in {self.data_dir}"
        return (
            f"PostgreSQL at {self.postgres_host}:{self.postgres_port}, database {self.postgres_dbname}, "
            f"schema {self.postgres_schema}"
        )

    def write_concurrency(self) -> int:
        """Threads of the write lane: ``write_threads``, or by store when it is 0 (``auto``): 4 for
        SQLite (it writes one transaction at a time, so more threads gain by sharing its commits,
        ``GroupCommit``: 4 measured best with 32 clients on two cores, ``bench/README.md`` §1), the
        most connections the pool opens for PostgreSQL (``pool_size + max_overflow``)."""
        if self.write_threads:
            return self.write_threads
        return (
            SQLITE_WRITE_THREADS
            if self.store == "sqlite"
            else self.postgres_pool_size + self.postgres_max_overflow
        )

    def write_wait(self) -> float:
        """Seconds a write may wait for the write lane before it is refused with 503 ``busy``: what it
        would wait for the store anyway (the SQLite lock timeout, the PostgreSQL connect timeout)."""
        return float(self.sqlite_lock_timeout if self.store == "sqlite" else self.postgres_connect_timeout)

    def library_env(self, name: str) -> dict[str, str]:
        """Environment for the eventsourcing library's infrastructure factory, for the
        application or projection called ``name`` (its SQLite file or its PostgreSQL tables).

        SQLite: one file per name in ``data_dir`` (created). PostgreSQL: every name of a process
        shares one connection pool (``dicelog.service.store.persistence.SharedPostgresFactory``), sized by
        ``postgres_pool_size`` and ``postgres_max_overflow``. Tables are created by the library
        only with ``auto_migrate`` (otherwise ``dicelog migrate`` creates them)."""
        create = "yes" if self.auto_migrate else "no"
        if self.store == "sqlite":
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.data_dir / f"{name.lower()}.sqlite"),
                "SQLITE_LOCK_TIMEOUT": str(self.sqlite_lock_timeout),
                "CREATE_TABLE": create,
            }
        return {
            "PERSISTENCE_MODULE": "dicelog.service.store.persistence:SharedPostgresFactory",
            "POSTGRES_DBNAME": self.postgres_dbname,
            "POSTGRES_HOST": self.postgres_host,
            "POSTGRES_PORT": str(self.postgres_port),
            "POSTGRES_USER": self.postgres_user,
            "POSTGRES_PASSWORD": self.postgres_password,
            "POSTGRES_SCHEMA": self.postgres_schema,
            "POSTGRES_POOL_SIZE": str(self.postgres_pool_size),
            "POSTGRES_MAX_OVERFLOW": str(self.postgres_max_overflow),
            "POSTGRES_CONNECT_TIMEOUT": str(self.postgres_connect_timeout),
            "POSTGRES_MAX_WAITING": str(self.postgres_max_waiting),
            "POSTGRES_STATEMENT_TIMEOUT": str(self.postgres_statement_timeout),
            "POSTGRES_LOCK_TIMEOUT": str(self.postgres_lock_timeout),
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(self.postgres_idle_in_transaction_timeout),
            "POSTGRES_SOCKET_TIMEOUT": str(self.postgres_socket_timeout),
            "POSTGRES_CONN_MAX_AGE": str(self.postgres_conn_max_age),
            "POSTGRES_PRE_PING": "yes" if self.postgres_pre_ping else "no",
            "POSTGRES_PREPARED_STATEMENTS": "yes" if self.postgres_prepared_statements else "no",
            "CREATE_TABLE": create,
        }
