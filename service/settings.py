"""Configuration, from ``DICELOG_*`` environment variables only (DESIGN.md, Runtime).

| variable | default | meaning |
|---|---|---|
| ``DICELOG_DATA_DIR`` | ``./dicelog-data`` | directory of the SQLite files (embedded default) |
| ``DICELOG_STORE`` | ``sqlite`` | ``sqlite`` (embedded) or ``postgres`` |
| ``DICELOG_POSTGRES_HOST`` / ``_PORT`` / ``_DBNAME`` / ``_USER`` / ``_PASSWORD`` | ``127.0.0.1`` / ``5432`` / ``dicelog`` / ``postgres`` / empty | PostgreSQL event store |
| ``DICELOG_POSTGRES_SCHEMA`` | ``public`` | schema of the tables |
| ``DICELOG_REDIS_URL`` | unset | Redis for notification streams; unset: in-process fan-out |
| ``DICELOG_STREAM_MAXLEN`` | ``10000`` | per-game Redis streams (public, per seat, auditor): length cap, at least this many entries kept (``MAXLEN ~``; 0: no cap) |
| ``DICELOG_STREAM_RETENTION`` | ``off`` | per-game Redis streams: entries younger than this are kept (``MINID ~``; ``off``: no age limit) |
| ``DICELOG_GLOBAL_STREAM_MAXLEN`` | ``1000000`` | ``dicelog:games``: length cap, as above (0: no cap) |
| ``DICELOG_GLOBAL_STREAM_RETENTION`` | ``24h`` | ``dicelog:games``: entries younger than this are kept (``off``: no age limit) |
| ``DICELOG_SNAPSHOT_INTERVAL`` | ``100`` | a snapshot every N events of a game (0: none) |
| ``DICELOG_EMBEDDED_WORKER`` | ``true`` | run projections and the publisher inside the API process |
| ``DICELOG_LOG_LEVEL`` | ``info`` | log level |
| ``DICELOG_RATE_LIMIT_CREATE`` | ``30/minute`` | creations (games, campaigns, forks) per client address |
| ``DICELOG_RATE_LIMIT_COMMANDS`` | ``120/minute`` | commands per bearer token (else per client address) |
| ``DICELOG_SSE_HEARTBEAT`` | ``15`` | seconds of silence after which an SSE stream sends a ``: keep-alive`` comment |
| ``DICELOG_SSE_POLL_INTERVAL`` | ``2`` | seconds between store reads of an idle SSE stream when no wake-up came (the safety net) |
| ``DICELOG_CORS_ORIGINS`` | empty (CORS off) | origins a browser app may call the API from, comma-separated (``https://app.example.org``), or ``*`` for any |

A rate limit is ``<count>/<unit>`` (unit ``second``, ``minute``, ``hour`` or ``day``) or ``off``
(see ``service/quotas.py``).
A retention is ``<count><unit>`` (unit ``s``, ``m``, ``h`` or ``d``: ``90m``, ``24h``, ``7d``), a
number of seconds, or ``off``; an origin is ``scheme://host[:port]`` (see ``service/publisher.py`` for
the trimming policy, ``service/http_guards.py`` for CORS).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, cast

from msgspec import Struct


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "y", "on"}


def _count(value: str, variable: str) -> int:
    """A count of 0 or more (0 means: no cap). Raises ``ValueError`` naming ``variable``."""
    if not value.strip().isdigit():
        raise ValueError(f"{variable} must be a whole number, 0 or more; not {value!r}")
    return int(value)


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


def parse_origins(value: str, variable: str) -> tuple[str, ...]:
    """Comma-separated origins (``scheme://host[:port]``, no path) as a tuple; ``*`` alone allows
    any origin; empty: none (CORS off). Raises ``ValueError`` naming ``variable`` when malformed."""
    origins = tuple(o.strip() for o in value.split(",") if o.strip())
    if "*" in origins and len(origins) > 1:
        raise ValueError(f"{variable}: * allows every origin and must stand alone; not {value!r}")
    for origin in origins:
        if origin != "*" and not re.fullmatch(r"https?://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?", origin):
            raise ValueError(f"{variable}: {origin!r} is not an origin (scheme://host[:port], no path, or *)")
    return origins


class Settings(Struct, frozen=True, kw_only=True):
    """The service's configuration (see the module docstring for the variables)."""

    data_dir: Path = Path("dicelog-data")
    store: Literal["sqlite", "postgres"] = "sqlite"
    postgres_host: str = "127.0.0.1"
    postgres_port: int = 5432
    postgres_dbname: str = "dicelog"
    postgres_user: str = "postgres"
    postgres_password: str = ""
    postgres_schema: str = "public"
    redis_url: str | None = None
    stream_maxlen: int = 10_000
    stream_retention: int = 0
    """Seconds; 0: no age limit (see ``parse_retention``)."""
    global_stream_maxlen: int = 1_000_000
    global_stream_retention: int = 86_400
    """Seconds; 0: no age limit."""
    snapshot_interval: int = 100
    embedded_worker: bool = True
    log_level: str = "info"
    rate_limit_create: str = "30/minute"
    rate_limit_commands: str = "120/minute"
    sse_heartbeat: float = 15.0
    """Seconds of silence before an SSE stream sends a ``: keep-alive`` comment."""
    sse_poll_interval: float = 2.0
    """Seconds between store reads of an idle SSE stream that got no wake-up."""
    cors_origins: tuple[str, ...] = ()
    """Origins allowed by CORS; empty: CORS off; ``("*",)``: any origin."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the ``DICELOG_*`` variables of ``environ`` (default ``os.environ``).

        Raises ``ValueError`` naming the variable when a value is malformed.
        """
        env = os.environ if environ is None else environ
        get = lambda name, default: env.get(f"DICELOG_{name}", default)  # noqa: E731
        store = get("STORE", "sqlite")
        if store not in ("sqlite", "postgres"):
            raise ValueError(f"DICELOG_STORE must be sqlite or postgres, not {store!r}")
        rate_limit_create = get("RATE_LIMIT_CREATE", "30/minute")
        parse_rate_limit(rate_limit_create, "DICELOG_RATE_LIMIT_CREATE")
        rate_limit_commands = get("RATE_LIMIT_COMMANDS", "120/minute")
        parse_rate_limit(rate_limit_commands, "DICELOG_RATE_LIMIT_COMMANDS")
        try:
            return cls(
                data_dir=Path(get("DATA_DIR", "dicelog-data")),
                store=store,  # type: ignore[arg-type]
                postgres_host=get("POSTGRES_HOST", "127.0.0.1"),
                postgres_port=int(get("POSTGRES_PORT", "5432")),
                postgres_dbname=get("POSTGRES_DBNAME", "dicelog"),
                postgres_user=get("POSTGRES_USER", "postgres"),
                postgres_password=get("POSTGRES_PASSWORD", ""),
                postgres_schema=get("POSTGRES_SCHEMA", "public"),
                redis_url=get("REDIS_URL", "") or None,
                stream_maxlen=_count(get("STREAM_MAXLEN", "10000"), "DICELOG_STREAM_MAXLEN"),
                stream_retention=parse_retention(get("STREAM_RETENTION", "off"), "DICELOG_STREAM_RETENTION"),
                global_stream_maxlen=_count(get("GLOBAL_STREAM_MAXLEN", "1000000"), "DICELOG_GLOBAL_STREAM_MAXLEN"),
                global_stream_retention=parse_retention(
                    get("GLOBAL_STREAM_RETENTION", "24h"), "DICELOG_GLOBAL_STREAM_RETENTION"
                ),
                snapshot_interval=int(get("SNAPSHOT_INTERVAL", "100")),
                embedded_worker=_bool(get("EMBEDDED_WORKER", "true")),
                log_level=get("LOG_LEVEL", "info"),
                rate_limit_create=rate_limit_create,
                rate_limit_commands=rate_limit_commands,
                sse_heartbeat=_seconds(get("SSE_HEARTBEAT", "15"), "DICELOG_SSE_HEARTBEAT"),
                sse_poll_interval=_seconds(get("SSE_POLL_INTERVAL", "2"), "DICELOG_SSE_POLL_INTERVAL"),
                cors_origins=parse_origins(get("CORS_ORIGINS", ""), "DICELOG_CORS_ORIGINS"),
            )
        except ValueError as e:
            raise ValueError(f"bad DICELOG_* setting: {e}") from None

    def library_env(self, name: str, *, pool_size: int = 8) -> dict[str, str]:
        """Environment for the eventsourcing library's infrastructure factory, for the
        application or projection called ``name`` (its SQLite file or its PostgreSQL tables)."""
        if self.store == "sqlite":
            self.data_dir.mkdir(parents=True, exist_ok=True)
            return {
                "PERSISTENCE_MODULE": "eventsourcing.sqlite",
                "SQLITE_DBNAME": str(self.data_dir / f"{name.lower()}.sqlite"),
                "SQLITE_LOCK_TIMEOUT": "10",
            }
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": self.postgres_dbname,
            "POSTGRES_HOST": self.postgres_host,
            "POSTGRES_PORT": str(self.postgres_port),
            "POSTGRES_USER": self.postgres_user,
            "POSTGRES_PASSWORD": self.postgres_password,
            "POSTGRES_SCHEMA": self.postgres_schema,
            "POSTGRES_POOL_SIZE": str(pool_size),
            "POSTGRES_MAX_OVERFLOW": str(pool_size),
        }
