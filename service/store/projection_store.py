"""Opens the projections' views for the configured store, and reads them for the API."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.postgres import PostgresFactory
from eventsourcing.sqlite import SQLiteFactory

from dicelog.domain.core.errors import InvariantViolated
from dicelog.projections.audit_index import stored_index
from dicelog.projections.game_index import GameIndex
from dicelog.projections.recorders import (
    PostgresDocumentView,
    PostgresLogView,
    SQLiteDocumentView,
    SQLiteLogView,
)
from dicelog.service.ops.settings import Settings

DOCUMENT_KINDS = ("initiative", "board", "audit_index")


def open_views(settings: Settings, *, create: bool | None = None) -> dict[str, Any]:
    """The views by projection name (``initiative``, ``board``, ``audit_index``, ``log``); their tables
    are created (if missing) when ``create``, by default when ``settings.auto_migrate`` (else ``dicelog
    migrate`` created them: ``dicelog.service.store.migrations``).

    SQLite: one database file per projection in the data directory (each holds its own
    ``tracking`` table). PostgreSQL: tables prefixed with the projection name.
    """
    create = settings.auto_migrate if create is None else create
    views: dict[str, Any] = {}
    for name in (*DOCUMENT_KINDS, "log"):
        factory = InfrastructureFactory.construct(_env(settings, name))
        view: SQLiteLogView | SQLiteDocumentView | PostgresLogView | PostgresDocumentView
        if isinstance(factory, SQLiteFactory):
            view = (SQLiteLogView if name == "log" else SQLiteDocumentView)(datastore=factory.datastore)
        else:
            if not isinstance(factory, PostgresFactory):
                kind = type(factory).__name__
                raise InvariantViolated("store-factory", f"{kind}: neither SQLite nor PostgreSQL")
            view = (PostgresLogView if name == "log" else PostgresDocumentView)(
                datastore=factory.datastore, name=name
            )
        if create:
            view.create_table()
        views[name] = view
    return views


def _env(settings: Settings, name: str) -> Any:
    from eventsourcing.utils import Environment

    return Environment(name, settings.library_env(f"projection_{name}"))


class ReadModels:
    """Reads the projections' documents and log lines (``None`` when a game has none yet)."""

    def __init__(self, views: dict[str, Any]) -> None:
        self.views = views

    def document(self, kind: str, game_id: UUID) -> dict[str, Any] | None:
        found = self.views[kind].document(game_id)
        return None if found is None else msgspec.json.decode(found[1])

    def stored_index(self, game_id: UUID, ruleset: Any) -> GameIndex | None:
        """The game's audit index as the audit index projection stored it (``None`` when it has none,
        or one this code cannot read: then the index is built from the events)."""
        return stored_index(self.views["audit_index"], game_id, ruleset)

    def log_lines(self, game_id: UUID, *, after: int, limit: int) -> tuple[int, list[dict[str, Any]]] | None:
        """The game version the log has reached (every line up to it is stored) and its lines after
        ``after``, at most ``limit``; ``None`` when the log has nothing of the game yet."""
        found = self.views["log"].lines(game_id, after, limit)
        if found is None:
            return None
        reached, rows = found
        return reached, [{"version": v, "seat": s, "type": t, "line": line} for v, s, t, line in rows]


def open_tracking(settings: Settings, name: str, *, create: bool | None = None) -> Any:
    """A plain eventsourcing tracking recorder (the publisher's checkpoint); its table is created
    (if missing) when ``create``, by default when ``settings.auto_migrate``."""
    create = settings.auto_migrate if create is None else create
    factory = InfrastructureFactory.construct(_env(settings, name))
    if isinstance(factory, SQLiteFactory):
        from eventsourcing.sqlite import SQLiteTrackingRecorder

        recorder: Any = SQLiteTrackingRecorder(datastore=factory.datastore)
    elif isinstance(factory, PostgresFactory):
        from eventsourcing.postgres import PostgresTrackingRecorder

        recorder = PostgresTrackingRecorder(
            datastore=factory.datastore, tracking_table_name=f"{name}_tracking"
        )
    else:
        kind = type(factory).__name__
        raise InvariantViolated("store-factory", f"{kind}: neither SQLite nor PostgreSQL")
    if create:
        recorder.create_table()
    return recorder
