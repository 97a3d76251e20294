"""Partition leases and the follower's partitioned pass, in one process on the real PostgreSQL
(``dicelog.service.store.partitions``, ``dicelog.service.worker.follower``; issue 34, item 3).

The slow tests (``test_partitioned_workers.py``, ``test_pgbouncer.py``) run whole ``dicelog worker``
processes; these drive the same code directly and quickly: two ``Leases`` (two "workers" with fixed
ids, ``a`` before ``b``) on one fresh schema, their heartbeats called by the test, a dead worker
simulated by moving its rows' ``expires_at`` into the past (the server's ``now()`` is the leases'
only clock), and two ``Follower`` objects sharing the projections of one app, each with its own
leases, each pass run by the test (``run_once``), so what each processed is known exactly.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from eventsourcing.postgres import PostgresDatastore
from litestar.testing import TestClient

from dicelog.domain.core.errors import InvariantViolated
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.partitions import (
    LEASES_TABLE,
    WORKERS_TABLE,
    Leases,
    create_statements,
    partition_of,
)
from dicelog.service.worker.follower import Follower
from tests.services import PG

pytestmark = pytest.mark.postgres

MICE = ["collin", "filch", "maginos", "nez"]
SEATS = [{"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]}]
QUOTAS_OFF = {"rate_limit_create": "off", "rate_limit_commands": "off", "rate_limit_expensive": "off"}


@pytest.fixture
def datastore(schema: str) -> Iterator[PostgresDatastore]:
    """A datastore on the fresh schema with the lease tables alone (what the lease tests need)."""
    store = PostgresDatastore(PG["dbname"], PG["host"], PG["port"], PG["user"], "", schema=schema)
    try:
        with store.transaction(commit=True) as c:
            for statement in create_statements(schema):
                c.execute(statement)
        yield store
    finally:
        store.close()


@pytest.fixture
def client(schema: str, tmp_path: Path) -> Iterator[TestClient[Any]]:
    """The app on PostgreSQL with 2 partitions and no worker of its own (the tests run the followers)."""
    settings = Settings(
        store="postgres",
        postgres_host=PG["host"],
        postgres_port=PG["port"],
        postgres_dbname=PG["dbname"],
        postgres_user=PG["user"],
        postgres_schema=schema,
        data_dir=tmp_path,
        partitions=2,
        embedded_worker="off",
        **QUOTAS_OFF,
    )
    with TestClient(create_app(settings)) as c:
        yield c


def sql(schema: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(**PG, autocommit=True) as conn:
        conn.execute(f"SET search_path TO {schema}")
        cursor = conn.execute(query)
        return cursor.fetchall() if cursor.description else []


def leases_of(schema: str) -> dict[int, str]:
    """Partition -> owner of every lease of the 4-partition tests, expired or not."""
    return dict(sql(schema, f"SELECT partition, owner FROM {LEASES_TABLE} WHERE partitions = 4"))  # type: ignore[arg-type]


def kill(schema: str, worker: str) -> None:
    """``worker`` died ``ttl`` seconds ago: its heartbeat and leases have expired."""
    sql(
        schema,
        f"UPDATE {WORKERS_TABLE} SET expires_at = now() - interval '1 second' WHERE worker = '{worker}'",
    )
    sql(
        schema, f"UPDATE {LEASES_TABLE} SET expires_at = now() - interval '1 second' WHERE owner = '{worker}'"
    )


class Drains:
    """The ``drained`` callback of ``Leases.heartbeat``: records the partitions asked about; their
    passes have ended once ``done`` is set."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.done = False

    def __call__(self, partition: int) -> Callable[[], bool]:
        self.asked.append(partition)
        return lambda: self.done


def test_two_workers_share_release_and_take_over_partitions(
    datastore: PostgresDatastore, schema: str
) -> None:
    a, b = Leases(datastore, 4, ttl=30, worker="a"), Leases(datastore, 4, ttl=30, worker="b")
    drains_a, drains_b = Drains(), Drains()

    assert a.heartbeat(drains_a) == {0, 1, 2, 3}  # alone: every partition
    assert (a.generation, leases_of(schema)) == (1, dict.fromkeys(range(4), "a"))
    assert b.heartbeat(drains_b) == frozenset()  # its share (2) is held by a's live leases
    assert b.generation == 0

    # a sees b: it stops working on its two highest partitions, keeps their leases until drained
    assert a.heartbeat(drains_a) == {0, 1} == a.held()
    assert (sorted(drains_a.asked), a.generation) == ([2, 3], 2)
    assert a.heartbeat(drains_a) == {0, 1} and sorted(drains_a.asked) == [2, 3]  # asked once per release
    assert leases_of(schema) == dict.fromkeys(range(4), "a")
    assert b.heartbeat(drains_b) == frozenset()  # not yet let go
    drains_a.done = True
    assert a.heartbeat(drains_a) == {0, 1}
    assert leases_of(schema) == {0: "a", 1: "a"}  # released once drained
    assert b.heartbeat(drains_b) == {2, 3}
    assert leases_of(schema) == {0: "a", 1: "a", 2: "b", 3: "b"}

    # a dies: once its leases expire, b takes its partitions
    kill(schema, "a")
    assert b.heartbeat(drains_b) == {0, 1, 2, 3}
    assert leases_of(schema) == dict.fromkeys(range(4), "b")
    # a comes back after a pause longer than the TTL: its leases are lost, it works on nothing
    generation = a.generation
    assert a.heartbeat(drains_a) == frozenset()
    assert a.generation == generation + 1  # the follower rereads its checkpoints
    # b sees a again and lets 2 and 3 go; a takes them once b's passes have ended
    assert b.heartbeat(drains_b) == {0, 1} and sorted(drains_b.asked) == [2, 3]
    drains_b.done = True
    b.heartbeat(drains_b)
    assert a.heartbeat(drains_a) == {2, 3}
    assert leases_of(schema) == {0: "b", 1: "b", 2: "a", 3: "a"}

    # a clean stop deletes b's leases and heartbeat: a takes everything at its next heartbeat
    b.release_all()
    assert b.held() == frozenset()
    assert sql(schema, f"SELECT count(*) FROM {WORKERS_TABLE} WHERE worker = 'b'") == [(0,)]
    assert a.heartbeat(drains_a) == {0, 1, 2, 3}
    assert leases_of(schema) == dict.fromkeys(range(4), "a")

    # the store unreachable: a forgets what it held (once: the generation moves once)
    generation = a.generation
    a.expire()
    a.expire()
    assert (a.held(), a.generation) == (frozenset(), generation + 1)


def test_a_release_waiting_for_its_passes_is_dropped_when_the_lease_expires_first(
    datastore: PostgresDatastore, schema: str
) -> None:
    a, b = Leases(datastore, 4, ttl=30, worker="a"), Leases(datastore, 4, ttl=30, worker="b")
    drains = Drains()  # never drained
    a.heartbeat(drains)
    b.heartbeat(Drains())
    assert a.heartbeat(drains) == {0, 1} and sorted(drains.asked) == [2, 3]
    kill(schema, "a")  # a pauses past the TTL while 2 and 3 wait to be let go
    sql(schema, f"UPDATE {WORKERS_TABLE} SET expires_at = now() + interval '30 seconds' WHERE worker = 'b'")
    assert b.heartbeat(Drains()) == {0, 1, 2, 3}  # alone among the live workers
    assert a.heartbeat(drains) == frozenset()  # nothing renewed: nothing left to release either
    drains.done = True
    a.heartbeat(drains)
    assert leases_of(schema) == dict.fromkeys(range(4), "b")  # a deleted none of b's leases


def test_a_worker_without_an_id_is_named_by_its_host_and_process(datastore: PostgresDatastore) -> None:
    one, other = Leases(datastore, 4), Leases(datastore, 4)
    assert re.fullmatch(rf"[^:]+:{os.getpid()}:[0-9a-f]{{6}}", one.worker), one.worker
    assert one.worker != other.worker


def create_games(client: TestClient[Any], partitions: int) -> None:
    """Games until every partition has one (a game's partition is its random id's)."""
    seen: set[int] = set()
    while seen != set(range(partitions)):
        body = {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": MICE},
            "seats": SEATS,
        }
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        seen.add(partition_of(r.json()["game"]["id"], partitions))


def by_partition(client: TestClient[Any], partitions: int, after: int = 0) -> dict[int, int]:
    """How many notifications after ``after`` each partition has."""
    notes = client.app.state.runtime.games.recorder.select_notifications(start=after + 1, limit=100_000)
    counts = dict.fromkeys(range(partitions), 0)
    for note in notes:
        counts[partition_of(note.originator_id, partitions)] += 1
    return counts


def tracking(schema: str, consumer: str) -> dict[str, int]:
    rows = dict(sql(schema, f"SELECT application_name, notification_id FROM {consumer}_tracking"))
    rows.pop("__migration__", None)
    return rows  # type: ignore[return-value]


class Interrupted:
    """A consumer that runs ``then`` after each batch it processed (a heartbeat during a pass)."""

    def __init__(self, inner: Any, then: Callable[[], None]) -> None:
        self.inner, self.then = inner, then
        self.name, self.view = inner.name, inner.view

    def process_batch(self, items: Any, checkpoint: Any) -> None:
        self.inner.process_batch(items, checkpoint)
        self.then()


def split(a: Follower, b: Follower) -> None:
    """a and b's heartbeats until a holds partition 0 and b partition 1."""
    assert a.leases is not None and b.leases is not None
    a._heartbeat()  # alone: both
    b._heartbeat()
    a._heartbeat()  # lets 1 go: no pass of a's has started (not started), so it is drained at once
    a._heartbeat()
    b._heartbeat()
    assert (a.leases.held(), b.leases.held()) == ({0}, {1})
    assert not a.errors and not b.errors


def test_two_followers_process_each_notification_once_with_a_tracking_record_per_partition(
    client: TestClient[Any], schema: str
) -> None:
    runtime = client.app.state.runtime
    datastore, consumers = runtime.games.recorder.datastore, runtime.follower.consumers
    create_games(client, 2)
    newest = runtime.games.recorder.max_notification_id()
    counts = by_partition(client, 2)
    # batches of 20: a game's notifications (tens) are consecutive, so some batches hold none of a
    # follower's partitions (their checkpoint moves all the same)
    a = Follower(runtime.games, consumers, batch=20, leases=Leases(datastore, 2, ttl=30, worker="a"))
    b = Follower(runtime.games, consumers, batch=20, leases=Leases(datastore, 2, ttl=30, worker="b"))
    split(a, b)

    assert a.run_once() == counts[0] * len(consumers)
    for consumer in consumers:
        assert tracking(schema, consumer.name) == {"Games#0/2": newest}
        assert a.checkpoint(consumer) == 0  # not started: every partition counts, 1 is untouched
    assert not a.caught_up()
    assert b.run_once() == counts[1] * len(consumers)
    for consumer in consumers:
        assert tracking(schema, consumer.name) == {"Games#0/2": newest, "Games#1/2": newest}
    assert a.caught_up() and b.caught_up()
    assert {behind for _, _, behind in a.lags()} == {0}
    assert sql(schema, "SELECT count(DISTINCT game_id) FROM board_documents") == sql(
        schema, "SELECT count(*) FROM games_events WHERE topic = 'core/GameCreated'"
    )
    assert (a.run_once(), b.run_once()) == (0, 0)  # nothing new: nothing processed twice

    # a takes over b's partition when b dies: from b's checkpoint, not from the start
    create_games(client, 2)
    more = by_partition(client, 2, after=newest)
    kill(schema, "b")
    a._heartbeat()
    assert a.leases is not None and a.leases.held() == {0, 1}
    assert a.run_once() == (more[0] + more[1]) * len(consumers)
    latest = runtime.games.recorder.max_notification_id()
    assert tracking(schema, "board") == {"Games#0/2": latest, "Games#1/2": latest}


def test_a_pass_ends_when_the_partitions_held_change_and_resumes_from_the_stored_checkpoints(
    client: TestClient[Any], schema: str
) -> None:
    runtime = client.app.state.runtime
    datastore, consumers = runtime.games.recorder.datastore, runtime.follower.consumers
    create_games(client, 2)
    newest = runtime.games.recorder.max_notification_id()
    leases = Leases(datastore, 2, ttl=30, worker="a")
    board, rest = consumers[0], consumers[1:]
    follower = Follower(runtime.games, [Interrupted(board, leases.expire), *rest], batch=2, leases=leases)
    follower._heartbeat()
    assert leases.held() == {0, 1}

    # the store "unreachable" after the first batch: the pass ends there, the other consumers wait
    processed = follower.run_once()
    assert 0 < processed <= 2
    assert tracking(schema, board.name) == {"Games#0/2": 2, "Games#1/2": 2}
    for consumer in rest:
        assert tracking(schema, consumer.name) == {}
    assert follower.run_once() == 0  # nothing held: nothing read

    # leases back (a new generation): the checkpoints are read again from the store
    follower.consumers, follower.batch = consumers, 100
    follower._heartbeat()
    assert follower.run_once() == newest * len(consumers) - processed
    for consumer in consumers:
        assert tracking(schema, consumer.name) == {"Games#0/2": newest, "Games#1/2": newest}


def test_a_started_follower_holds_leases_works_and_releases_them_when_stopped(
    client: TestClient[Any], schema: str
) -> None:
    runtime = client.app.state.runtime
    datastore, consumers = runtime.games.recorder.datastore, runtime.follower.consumers
    create_games(client, 2)
    newest = runtime.games.recorder.max_notification_id()
    leases = Leases(datastore, 2, ttl=0.3, worker="a")  # a heartbeat every 0.1 s
    follower = Follower(runtime.games, consumers, poll_interval=0.05, leases=leases)
    follower.start()
    try:
        deadline = time.monotonic() + 20
        while not follower.caught_up() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert follower.caught_up()
        assert leases.held() == {0, 1} and set(follower.alive()) == {"leases", "projections"}
        assert all(follower.checkpoint(c) == newest for c in consumers)
        leases.expire()  # e.g. the store away for a moment: a started follower holds nothing, lags nothing
        assert all(follower.checkpoint(c) == newest for c in consumers)
    finally:
        follower.stop()
    assert not any(follower.alive().values())
    assert sql(schema, f"SELECT count(*) FROM {LEASES_TABLE}") == [(0,)]  # released: others take over at once
    assert sql(schema, f"SELECT count(*) FROM {WORKERS_TABLE}") == [(0,)]
    for consumer in consumers:
        assert tracking(schema, consumer.name) == {"Games#0/2": newest, "Games#1/2": newest}


def test_a_partitioned_pass_without_leases_is_a_bug(client: TestClient[Any]) -> None:
    runtime = client.app.state.runtime
    follower = Follower(runtime.games, runtime.follower.consumers)
    consumer = runtime.follower.consumers[0]
    for call in (
        lambda: follower._feed_partitions(consumer, frozenset({0}), {}, {}),
        lambda: follower._checkpoints(consumer, frozenset({0})),
        follower._heartbeat,
        follower._lease_loop,
    ):
        with pytest.raises(InvariantViolated, match="partition-leases"):
            call()


def test_leases_that_cannot_be_renewed_leave_the_follower_working_on_nothing_until_they_can(
    client: TestClient[Any], schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    runtime = client.app.state.runtime
    datastore, consumers = runtime.games.recorder.datastore, runtime.follower.consumers
    create_games(client, 2)
    leases = Leases(datastore, 2, ttl=30, worker="a")
    follower = Follower(runtime.games, consumers, leases=leases)
    follower._heartbeat()
    assert leases.held() == {0, 1}
    sql(schema, f"ALTER TABLE {WORKERS_TABLE} RENAME TO away")  # the heartbeat's statement fails
    follower._heartbeat()
    follower._heartbeat()
    assert WORKERS_TABLE in follower.errors["leases"] and leases.held() == frozenset()
    assert [r.message for r in caplog.records].count(
        f"partition leases could not be renewed: {follower.errors['leases']}"
    ) == 1  # the same error is logged once
    assert follower.run_once() == 0  # nothing held: nothing processed
    assert all(tracking(schema, c.name) == {} for c in consumers)
    sql(schema, f"ALTER TABLE away RENAME TO {WORKERS_TABLE}")
    follower._heartbeat()
    assert "leases" not in follower.errors and leases.held() == {0, 1}
    assert follower.run_once() > 0


def test_a_follower_stopped_while_its_leases_cannot_be_deleted_stops_all_the_same(
    client: TestClient[Any], schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    runtime = client.app.state.runtime
    leases = Leases(runtime.games.recorder.datastore, 2, ttl=30, worker="a")
    follower = Follower(runtime.games, runtime.follower.consumers, poll_interval=0.05, leases=leases)
    follower.start()
    assert leases.held() == {0, 1}
    sql(schema, f"ALTER TABLE {LEASES_TABLE} RENAME TO away")
    follower.stop()
    assert not any(follower.alive().values())
    assert any(
        r.message.startswith("partition leases not released (they expire in 30 s)") for r in caplog.records
    )
    assert sql(schema, "SELECT partition, owner FROM away ORDER BY 1") == [(0, "a"), (1, "a")]
