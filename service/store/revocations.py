"""The check that a command's token is not revoked, made inside the transaction that stores the command.

A revoked (or rotated) token must open nothing, at once, on every replica (docs/api-contract.md, Tokens):
its ``TokenRevoked`` record (``dicelog.service.store.records``) is in the shared store, and every request
that presents the token must see it. Reads ask the store for that record before they answer
(``Games.audience``). A command need not ask first: the write that stores its events asks, in the same
transaction, whether the record exists (``unrevoked``, the ids of the ``TokenRevoked`` records that must
not exist), and stores nothing if it does. That is the same guarantee, one store round trip fewer on the
hottest path (the revocation read on every command cost about 0.7 ms of the API's CPU per command at 32
clients on SQLite, ``bench/README.md`` §1), and a stronger one: no command is stored after its token's
revocation was committed, where a read before the write left a window between the two.

These are the library's own application recorders with that one check added (the library's
``APPLICATION_RECORDER_TOPIC`` names them, ``recorder_topic``); what they store, and how, is the library's.
A group commit (``dicelog.service.store.write_lane.GroupCommit``) asks for the records of every save of its
group at once, in one query; when one of them exists the group is written again save by save, and only the
save whose token was revoked fails (``TokenRevokedOnSave``, an ``IntegrityError``: nothing of it stored).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

UNREVOKED = "unrevoked"
"""The keyword argument of ``Application.save`` (passed on to the recorder's ``insert_events``): the ids of
the ``TokenRevoked`` records that must not exist for the events to be stored (a sequence of ``UUID``)."""


class TokenRevokedOnSave(IntegrityError):
    """The token of a save was revoked (one of its ``unrevoked`` records exists): nothing was stored (HTTP
    401, as for any revoked token). An ``IntegrityError``, so that a group commit writes its other saves
    again on their own, as for a version taken by another writer."""


class RevocationCheckingSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder; ``insert_events(..., unrevoked=ids)`` stores nothing and
    raises ``TokenRevokedOnSave`` when a record of ``ids`` exists (checked in the write's own transaction,
    which SQLite runs one at a time: no revocation can be committed between the check and the insert)."""

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids: Sequence[UUID] = kwargs.get(UNREVOKED) or ()
        if ids:
            marks = ",".join("?" * len(ids))
            c.execute(
                f"SELECT originator_id FROM {self.events_table_name} WHERE originator_id IN ({marks})",
                [i.hex for i in ids],
            )
            if c.fetchall():
                raise TokenRevokedOnSave("the token of this command was revoked: nothing was stored")
        return super()._insert_events(c, stored_events, **kwargs)


class RevocationCheckingPostgresRecorder(PostgresApplicationRecorder):
    """The library's PostgreSQL application recorder; ``insert_events(..., unrevoked=ids)`` stores nothing and
    raises ``TokenRevokedOnSave`` when a record of ``ids`` exists, read in the write's own transaction (read
    committed: a revocation committed before the check is seen; one committed while the insert runs was
    concurrent with the command, which then counts as sent before it)."""

    def _insert_events(
        self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        ids: Sequence[UUID] = kwargs.get(UNREVOKED) or ()
        if ids:
            curs.execute(
                SQL("SELECT originator_id FROM {schema}.{table} WHERE originator_id = ANY(%s)").format(
                    schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name)
                ),
                (list(ids),),
            )
            if curs.fetchall():
                raise TokenRevokedOnSave("the token of this command was revoked: nothing was stored")
        super()._insert_events(curs, stored_events, **kwargs)


def recorder_topic(persistence_module: str | None) -> str | None:
    """The ``APPLICATION_RECORDER_TOPIC`` of the games' store for the library's ``PERSISTENCE_MODULE``
    (``None``: a store they do not cover, whose saves read the revocations first, ``Games.save``)."""
    if persistence_module == "eventsourcing.sqlite":
        return f"{__name__}:RevocationCheckingSQLiteRecorder"
    if persistence_module and persistence_module.endswith(":SharedPostgresFactory"):
        return f"{__name__}:RevocationCheckingPostgresRecorder"
    return None
