"""Partitions of games shared by several workers through leases in PostgreSQL (issue 34, item 3).

With ``DICELOG_PARTITIONS=N`` (N > 1, PostgreSQL only) the notification log is split into N
partitions by the originator of each notification (a game, a campaign, a service record):
``partition_of(originator_id, N)``, the UUID as an integer modulo N, so all of a game's events are in
one partition, in order. Every process that follows the log (``dicelog worker``, an API's embedded
worker) runs the projections and the Redis publisher for the partitions it holds a lease on, and
only those; the same ``Follower`` (``dicelog.service.worker.follower``) reads the log through the
eventsourcing library's recorder and feeds the library's ``Projection`` objects with their
``Tracking`` records, as with one partition.

Checkpoints: each projection (and the publisher) keeps one tracking record per partition in its
eventsourcing tracking table, under the application name ``Games#<k>/<N>`` (``tracking_name``); the
record and the rows it covers commit in one transaction, as before. A partition with no tracking
record of its own starts from the unpartitioned checkpoint (``Games``), so a store followed by one
worker is taken over where it stands.

Leases (``Leases``): two tables of the store's schema (``dicelog migrate``, migration 4):

- ``dicelog_workers`` (``worker``, ``expires_at``): each follower's heartbeat, every
  ``ttl / 3`` seconds; a worker whose row has expired is gone;
- ``dicelog_partition_leases`` (``partitions``, ``partition``, ``owner``, ``expires_at``): who
  holds which partition, until when; renewed by each heartbeat.

At each heartbeat a worker counts the live workers and takes its fair share of the N partitions
(the live workers sorted by id: the first ``N mod W`` get one more); it claims partitions that no
live lease holds (an ``INSERT ... ON CONFLICT DO UPDATE ... WHERE expires_at < now()``: of two
workers claiming one partition at once, one gets it), and lets go of those above its share once
every lane of its follower has finished the pass that may have held them. The server's clock
(``now()``) is the only clock. A worker that dies stops renewing: ``ttl`` seconds later its
partitions are claimed by the others (``DICELOG_LEASE_TTL``, 10 s). A worker that stops cleanly
deletes its leases first, so the others take its partitions at their next heartbeat.

Safety does not rest on the lease alone: the library's single-row tracking record of a partition
is updated only forwards (``... WHERE notification_id < new``), in the same transaction as the rows
(``dicelog.projections.recorders``). A worker that lost a lease while it was still working (a pause
longer than the TTL) cannot commit older rows over the new holder's: its transaction fails
("Failed to record tracking") and rolls back. The Redis publisher delivers at least once, as
ever (``dicelog.service.worker.publisher``).

Nothing here is a session-level lock: each statement runs in its own short transaction on a
connection of the process's pool, so the leases work unchanged behind a transaction-pooling
PgBouncer (docs/operations.md).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable
from uuid import UUID

from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

from dicelog.service.ops.metrics import PARTITION_LEASES, PARTITIONS_HELD

log = logging.getLogger("dicelog.worker")

WORKERS_TABLE = "dicelog_workers"
LEASES_TABLE = "dicelog_partition_leases"


def partition_of(originator_id: UUID | str, partitions: int) -> int:
    """The partition (0 to ``partitions - 1``) of a notification whose originator is ``originator_id``
    (a UUID, or its text): the UUID as a 128-bit integer modulo ``partitions``. Stored checkpoints
    depend on it: never change it."""
    uuid = originator_id if isinstance(originator_id, UUID) else UUID(originator_id)
    return uuid.int % partitions


def tracking_name(application: str, partition: int, partitions: int) -> str:
    """The tracking records' application name of one partition: ``<application>#<partition>/<partitions>``
    (a stored name: checkpoints are kept under it)."""
    return f"{application}#{partition}/{partitions}"


def create_statements(schema: str) -> list[Composed]:
    """The DDL of the two lease tables in ``schema`` (idempotent)."""
    return [
        SQL(
            "CREATE TABLE IF NOT EXISTS {0} (worker text PRIMARY KEY, expires_at timestamptz NOT NULL)"
        ).format(Identifier(schema, WORKERS_TABLE)),
        SQL(
            "CREATE TABLE IF NOT EXISTS {0} (partitions integer, partition integer, owner text NOT NULL, "
            "expires_at timestamptz NOT NULL, PRIMARY KEY (partitions, partition))"
        ).format(Identifier(schema, LEASES_TABLE)),
    ]


def new_worker_id() -> str:
    """``<host>:<pid>:<random>``: unique per follower, readable in the lease table."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Leases:
    """This process's partition leases (see the module docstring).

    ``datastore``: the library's PostgreSQL datastore (the process's pool); ``partitions``: N;
    ``ttl``: seconds a lease or a heartbeat lasts; ``worker``: this follower's id in the tables.
    """

    def __init__(
        self,
        datastore: PostgresDatastore,
        partitions: int,
        *,
        ttl: float = 10.0,
        worker: str | None = None,
    ) -> None:
        self.datastore = datastore
        self.partitions = partitions
        self.ttl = ttl
        self.worker = worker or new_worker_id()
        self._held: frozenset[int] = frozenset()
        self._releasing: dict[int, Callable[[], bool] | None] = {}
        self._lock = threading.Lock()
        schema = datastore.schema
        self._workers = Identifier(schema, WORKERS_TABLE)
        self._leases = Identifier(schema, LEASES_TABLE)
        self.generation = 0
        """Incremented whenever the partitions held change (the follower reloads their checkpoints)."""

    def held(self) -> frozenset[int]:
        """The partitions this process works on now (those being released excluded)."""
        return self._held

    def heartbeat(self, drained: Callable[[int], Callable[[], bool]]) -> frozenset[int]:
        """Renew this worker's heartbeat and leases, release what is above its share once drained
        (``drained(k)``, called once ``k`` is no longer in ``held()``, returns a check that is true
        once every pass that may have seen ``k`` has ended), claim free
        or expired partitions up to its share; returns the partitions held. Raises the driver's
        errors when the store cannot be reached (the leases then expire: nothing is held)."""
        ttl = f"{self.ttl} seconds"
        with self._lock, self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL(
                    "INSERT INTO {0} VALUES (%s, now() + %s::interval) "
                    "ON CONFLICT (worker) DO UPDATE SET expires_at = excluded.expires_at"
                ).format(self._workers),
                (self.worker, ttl),
            )
            workers = self._workers
            c.execute(SQL("DELETE FROM {0} WHERE expires_at < now() - interval '1 hour'").format(workers))
            c.execute(SQL("SELECT worker FROM {0} WHERE expires_at >= now() ORDER BY worker").format(workers))
            live = [row["worker"] for row in c.fetchall()]
            index = live.index(self.worker) if self.worker in live else 0
            share = self.partitions // len(live) + (1 if index < self.partitions % len(live) else 0)
            c.execute(
                SQL(
                    "UPDATE {0} SET expires_at = now() + %s::interval WHERE partitions = %s AND owner = %s "
                    "AND expires_at >= now() RETURNING partition"
                ).format(self._leases),
                (ttl, self.partitions, self.worker),
            )
            renewed = {row["partition"] for row in c.fetchall()}
            lost = self._held - renewed
            if lost:
                log.warning("partition leases lost (expired before renewal): %s", sorted(lost))
                PARTITION_LEASES.labels("lost").inc(len(lost))
            working = renewed - set(self._releasing)
            # above the share: stop working on the highest partitions; let go once their passes ended
            for k in sorted(working, reverse=True)[: max(0, len(working) - share)]:
                working.discard(k)
                self._releasing[k] = None
            for k, done in list(self._releasing.items()):
                if k not in renewed:
                    del self._releasing[k]
                elif done is not None and done():
                    c.execute(
                        SQL("DELETE FROM {0} WHERE partitions = %s AND partition = %s AND owner = %s").format(
                            self._leases
                        ),
                        (self.partitions, k, self.worker),
                    )
                    del self._releasing[k]
                    PARTITION_LEASES.labels("released").inc()
            wanted = share - len(working) - len(self._releasing)
            if wanted > 0:
                c.execute(
                    SQL(
                        "INSERT INTO {0} (partitions, partition, owner, expires_at) "
                        "SELECT %(n)s, k, %(me)s, now() + %(ttl)s::interval "
                        "FROM generate_series(0, %(n)s - 1) k WHERE k NOT IN "
                        "(SELECT partition FROM {0} WHERE partitions = %(n)s AND expires_at >= now()) "
                        "ORDER BY k LIMIT %(wanted)s "
                        "ON CONFLICT (partitions, partition) DO UPDATE SET owner = excluded.owner, "
                        "expires_at = excluded.expires_at WHERE {0}.expires_at < now() RETURNING partition"
                    ).format(self._leases),
                    {"n": self.partitions, "me": self.worker, "ttl": ttl, "wanted": wanted},
                )
                claimed = {row["partition"] for row in c.fetchall()}
                if claimed:
                    PARTITION_LEASES.labels("acquired").inc(len(claimed))
                working |= claimed
        held = frozenset(working)
        if held != self._held or lost:
            log.info("partitions held: %s of %d (%d live workers)", sorted(held), self.partitions, len(live))
            self.generation += 1
        self._held = held
        for k, done in self._releasing.items():  # after ``_held``: no pass started from now sees k
            if done is None:
                self._releasing[k] = drained(k)
        PARTITIONS_HELD.set(len(held))
        return held

    def expire(self) -> None:
        """Forget the partitions held (the store could not be reached: the leases may have expired)."""
        if self._held:
            self._held = frozenset()
            self.generation += 1
            PARTITIONS_HELD.set(0)

    def release_all(self) -> None:
        """Delete this worker's leases and heartbeat (a clean stop: the others take over at once)."""
        with self._lock, self.datastore.transaction(commit=True) as c:
            c.execute(SQL("DELETE FROM {0} WHERE owner = %s").format(self._leases), (self.worker,))
            c.execute(SQL("DELETE FROM {0} WHERE worker = %s").format(self._workers), (self.worker,))
        if self._held or self._releasing:
            PARTITION_LEASES.labels("released").inc(len(self._held) + len(self._releasing))
        self._held = frozenset()
        self._releasing.clear()
        PARTITIONS_HELD.set(0)
