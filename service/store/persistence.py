"""Stores msgspec events through the eventsourcing library (shaped like its ``aggregate7``).

The library's ``Mapper`` turns domain events into ``StoredEvent`` rows (id, version, topic,
state bytes). ``MsgspecMapper`` replaces its ``vars()``-and-transcoder path with msgspec:

- a game event (``dicelog.domain.core.game.Recorded``) is stored with the topic of its *payload* class
  (e.g. ``mice-and-mystics/MouseMoved``), so the store, the notification log and topic filters
  all speak in ruleset event types; its state is the canonical envelope JSON that the hash
  chain covers (``dicelog.domain.core.game.envelope_bytes``);
- any other msgspec Struct with ``originator_id``/``originator_version`` (snapshots, the
  service's own records) is stored with its own class topic and encoded whole.

Topics are stored names, never module paths (``dicelog.service.store.topics``): writes use the canonical
``<namespace>/<Name>`` topic; reads also accept the module-path topics release 0.1 wrote.

The library's compressor and cipher, if configured (``COMPRESSOR_TOPIC``, ``CIPHER_TOPIC``),
still apply to the state bytes.

``SharedPostgresFactory`` is the library's PostgreSQL factory with one connection pool per process
(and per set of connection settings) instead of one per application or projection: the games,
the three projections and the publisher's checkpoint of a process share it, so a process holds at
most ``DICELOG_POSTGRES_POOL_SIZE + DICELOG_POSTGRES_MAX_OVERFLOW`` connections (it held 21 with a
pool each, up to 32 under load).

A pool that cannot give a connection within ``DICELOG_POSTGRES_CONNECT_TIMEOUT`` (the server down
or unreachable, the pool exhausted) raises ``PoolUnavailable`` at once: the library retries its
``OperationalError`` ten times in each read and write, which made a request wait ten pool timeouts
(40 s) before its 503 (``dicelog.service.ops.faults``) when the server was gone.

Timeouts (issue 34: a silent network outage hung requests for its whole length), on every
connection of the pool, from ``DICELOG_POSTGRES_*`` (``dicelog.service.ops.settings``):

- ``statement_timeout`` (``POSTGRES_STATEMENT_TIMEOUT``): the server cancels a statement running
  longer (``QueryCanceled``, 503 ``timeout``);
- ``lock_timeout`` (the library's ``POSTGRES_LOCK_TIMEOUT``, whole seconds): a statement waiting
  longer for a lock fails, above all the library's ``LOCK TABLE ... IN EXCLUSIVE MODE`` of each
  insert (it was 0: a replica cut off while holding it could block every replica's writes);
- ``idle_in_transaction_session_timeout`` (the library's option): the server ends a session left
  idle inside a transaction (a client that vanished mid-transaction), releasing its locks;
- the socket timeout (``POSTGRES_SOCKET_TIMEOUT``): the longest wait for the server's answer on
  the client side (``TimedConnection``): when a server or a proxy goes silent, the server's own
  timeouts never reach the client; the connection is then closed (the pool replaces it) and the
  statement fails (503 ``timeout``). New connections use libpq's ``connect_timeout``
  (``POSTGRES_CONNECT_TIMEOUT``) and TCP keepalives, so a connection attempt to a silent server
  gives up too.

A statement that runs out of any of them raises ``StoreTimeout`` at once: the library would retry
it ten times, each time perhaps on another of the pool's connections to the same silent server.

Prepared statements (``POSTGRES_PREPARED_STATEMENTS``, ``DICELOG_POSTGRES_PREPARED_STATEMENTS``): the
library and ``dicelog.service.store.reads`` execute their statements with ``prepare=True`` (psycopg
names them ``_pg3_<n>`` per connection). A transaction-pooling PgBouncer older than 1.21 runs each
transaction on any server connection and keeps no prepared statement: a name prepared by one client
is found by another ("prepared statement "_pg3_2" already exists") or missing. With the setting
false, every connection of the pool has psycopg's ``prepare_threshold`` set to ``None``, which turns
preparing off whatever a call asks (each statement is parsed by the server each time).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from types import TracebackType
from typing import Any
from uuid import UUID

import msgspec
import psycopg
import psycopg_pool
from eventsourcing.persistence import (
    Mapper,
    MapperDeserialisationError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.postgres import BasePostgresFactory, PostgresDatastore, PostgresFactory
from eventsourcing.utils import Environment, EnvType

from dicelog.domain.core.errors import InvariantViolated
from dicelog.domain.core.events import Event
from dicelog.domain.core.game import Recorded, envelope_bytes
from dicelog.domain.core.verify import Divergence
from dicelog.service.store.topics import resolve, topic_of


class StoredEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    """Decoding shape of a stored game event: the payload is decoded in a second step."""

    timestamp: datetime
    seat: str
    command_id: str
    prev_hash: str
    payload: msgspec.Raw
    nonce: str | None = None
    salt: str | None = None


_envelope_decoder = msgspec.json.Decoder(StoredEnvelope)
_encode = msgspec.json.Encoder().encode


@cache
def _decoder(cls: type) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(cls)


def decode_recorded(originator_id: UUID, version: int, topic: str, state: bytes) -> Recorded:
    """A ``Recorded`` from the columns of a stored game event (``topic`` canonical or release 0.1).

    Raises ``msgspec.DecodeError``, and ``dicelog.service.store.topics.StoredNameError`` (a ``ValueError``)
    for an unknown topic."""
    envelope = _envelope_decoder.decode(state)
    payload = _decoder(resolve(topic)).decode(envelope.payload)
    return Recorded(
        originator_id=originator_id,
        originator_version=version,
        timestamp=envelope.timestamp,
        seat=envelope.seat,
        command_id=envelope.command_id,
        prev_hash=envelope.prev_hash,
        payload=payload,
        nonce=envelope.nonce,
        salt=envelope.salt,
    )


def decode_log(stored: Sequence[StoredEvent]) -> list[Recorded] | Divergence:
    """Every stored event of one aggregate's log decoded (``decode_recorded``), in order; or, at the
    first one that does not decode, the ``Divergence`` a verification reports for it (check ``chain``,
    expected "a decodable event", found the decoder's message)."""
    records: list[Recorded] = []
    for s in stored:
        try:
            originator = s.originator_id if isinstance(s.originator_id, UUID) else UUID(s.originator_id)
            records.append(decode_recorded(originator, s.originator_version, s.topic, s.state))
        except (msgspec.DecodeError, msgspec.ValidationError, ImportError, ValueError) as e:
            return Divergence(
                version=s.originator_version, check="chain", expected="a decodable event", found=str(e)
            )
    return records


class MsgspecMapper(Mapper[UUID]):
    """A library ``Mapper`` that encodes and decodes msgspec Structs (see module docstring)."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if isinstance(domain_event, Recorded):
            topic = topic_of(type(domain_event.payload))
            state = envelope_bytes(domain_event)
        else:
            topic = topic_of(type(domain_event))
            state = _encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = stored_event.state
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            cls = resolve(stored_event.topic)
            if issubclass(cls, Event):
                originator_id = stored_event.originator_id
                if not isinstance(originator_id, UUID):
                    originator_id = UUID(str(originator_id))
                version = stored_event.originator_version
                return decode_recorded(originator_id, version, stored_event.topic, state)
            return _decoder(cls).decode(state)  # type: ignore[arg-type]  # mypy: type[object] unhashable; a class is
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError) as e:
            msg = (
                f"Failed to deserialise stored event with topic {stored_event.topic!r}, "
                f"originator_id {stored_event.originator_id!r}, "
                f"originator_version {stored_event.originator_version}: {e}"
            )
            raise MapperDeserialisationError(msg) from e


POSTGRES_STATEMENT_TIMEOUT = "POSTGRES_STATEMENT_TIMEOUT"
"""Library environment key (ours): seconds before the server cancels a statement (0 or empty: none)."""
POSTGRES_SOCKET_TIMEOUT = "POSTGRES_SOCKET_TIMEOUT"
"""Library environment key (ours): seconds the client waits for the server's answer (0 or empty: none)."""
POSTGRES_PREPARED_STATEMENTS = "POSTGRES_PREPARED_STATEMENTS"
"""Library environment key (ours): ``no`` turns server-side prepared statements off (module docstring)."""
_POSTGRES_KEYS = tuple(
    sorted(
        {
            value
            for name, value in vars(BasePostgresFactory).items()
            if name.startswith("POSTGRES_") and isinstance(value, str)
        }
        | {POSTGRES_STATEMENT_TIMEOUT, POSTGRES_SOCKET_TIMEOUT, POSTGRES_PREPARED_STATEMENTS}
    )
)
_pools: dict[tuple[str | None, ...], tuple[PostgresDatastore, int]] = {}
_pools_lock = threading.Lock()


class PoolUnavailable(PersistenceError):
    """No connection from the pool within its timeout: not one of the errors the library retries
    (``OperationalError``, ``InterfaceError``), so the request fails after one timeout (503)."""


class StoreTimeout(PersistenceError):
    """A statement that ran out of one of the timeouts of the module docstring: not one of the errors
    the library retries, so the request fails after one timeout (503 ``timeout``), not ten (a silent
    server would otherwise be waited for again on each of the pool's other dead connections)."""


class NoAnswer(psycopg.OperationalError):
    """The server did not answer within the socket timeout (``TimedConnection``)."""


class SharedPostgresDatastore(PostgresDatastore):
    """A handle on the process's one ``PostgresDatastore`` for a set of connection settings: the
    same pool, schema and type adapters; ``close`` releases the handle, and the pool closes with
    the last handle (``SharedPostgresFactory``)."""

    def __init__(self, shared: PostgresDatastore, key: tuple[str | None, ...]) -> None:
        # Not ``super().__init__``: the handle takes the shared datastore's attributes (the pool
        # and the type adapter caches are the same objects, not copies).
        self.__dict__.update(vars(shared))
        self._key = key
        self._released = False

    def close(self) -> None:
        """Release this handle (once); the last release closes the pool."""
        with _pools_lock:
            if self.__dict__.get("_released", True):
                return
            self._released = True
            shared, users = _pools[self._key]
            if users > 1:
                _pools[self._key] = (shared, users - 1)
                return
            del _pools[self._key]
        shared.close()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def get_connection(self) -> Iterator[Any]:
        """The library's connection, with a pool timeout raised as ``PoolUnavailable`` (module
        docstring); every other error as the library raises it."""
        try:
            with super().get_connection() as conn:
                yield conn
        except OperationalError as e:
            if isinstance(e.__cause__, psycopg_pool.PoolTimeout):
                raise PoolUnavailable(str(e)) from e.__cause__
            if isinstance(
                e.__cause__, NoAnswer | psycopg.errors.QueryCanceled | psycopg.errors.LockNotAvailable
            ):
                raise StoreTimeout(str(e)) from e.__cause__
            raise


class TimedConnection(psycopg.Connection[Any]):
    """A psycopg connection that waits at most ``socket_timeout`` seconds (``None``: forever) for the
    server in each step of a statement (sending, then each part of the answer); past it the
    connection is closed (its state is unknown) and ``NoAnswer`` is raised (module docstring). The
    pool discards a closed connection when it is given back."""

    socket_timeout: float | None = None

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        try:
            return super().wait(gen, interval, self.socket_timeout if timeout is None else timeout)
        except psycopg.errors._WaitTimeout:  # psycopg's own timeout: the server never answered
            self.pgconn.finish()
            raise NoAnswer(
                f"no answer from the server within {self.socket_timeout} s: connection closed"
            ) from None


def _seconds(value: str | None) -> float:
    return float(value) if value and value.strip() else 0.0


def harden(datastore: PostgresDatastore, env: Environment) -> None:
    """Set the timeouts of the module docstring on ``datastore``'s pool (not opened yet): libpq's
    connect timeout and TCP keepalives for new connections, ``statement_timeout`` and a session
    ``lock_timeout`` on each (after the library's own settings), prepared statements off when
    ``POSTGRES_PREPARED_STATEMENTS`` is ``no``, and ``TimedConnection`` with the socket timeout."""
    pool = datastore.pool
    connect = max(1, round(_seconds(env.get(BasePostgresFactory.POSTGRES_CONNECT_TIMEOUT)) or 5))
    socket_timeout = _seconds(env.get(POSTGRES_SOCKET_TIMEOUT))
    statement_ms = int(_seconds(env.get(POSTGRES_STATEMENT_TIMEOUT)) * 1000)
    lock_ms = int(datastore.lock_timeout * 1000)
    prepare = env.get(POSTGRES_PREPARED_STATEMENTS) != "no"  # Settings.library_env: yes or no
    if not isinstance(pool.kwargs, dict):
        raise InvariantViolated("postgres-pool", f"the pool's kwargs are a {type(pool.kwargs).__name__}")
    pool.kwargs.update(
        connect_timeout=connect, keepalives=1, keepalives_idle=10, keepalives_interval=5, keepalives_count=3
    )
    pool.connection_class = type(
        "TimedConnection", (TimedConnection,), {"socket_timeout": socket_timeout or None}
    )
    configure = pool._configure

    def after_connect(conn: Any) -> None:
        if configure is not None:
            configure(conn)  # the library's: autocommit, idle_in_transaction_session_timeout
        conn.execute(f"SET statement_timeout = {statement_ms}")
        conn.execute(f"SET lock_timeout = {lock_ms}")
        if not prepare:
            conn.prepare_threshold = None  # psycopg: never prepare, even when a call asks for it

    pool._configure = after_connect


class SharedPostgresFactory(PostgresFactory):
    """The library's ``PostgresFactory`` (``PERSISTENCE_MODULE=service.persistence:SharedPostgresFactory``)
    whose datastore is shared by every factory of the process built with the same ``POSTGRES_*``
    settings (``Settings.library_env`` gives every component the same ones)."""

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        own = self.datastore  # its pool was never opened: it holds no connection
        harden(own, self.env)
        key = tuple(self.env.get(name) for name in _POSTGRES_KEYS)
        with _pools_lock:
            shared, users = _pools.get(key, (own, 0))
            _pools[key] = (shared, users + 1)
        if shared is not own:
            own.close()
        self.datastore = SharedPostgresDatastore(shared, key)


def shared_pools() -> int:
    """How many shared PostgreSQL pools this process has open (for tests and diagnostics)."""
    with _pools_lock:
        return len(_pools)
