"""Group commit on the write lane and the command path's cached read (``service/store/write_lane.py``,
``Games.cached_game``; issue 12, throughput): saves of several threads share a transaction, each
caller still gets its own recordings, conflict or fault; the commands of one game take turns; a
command decided on a game another process has written since is decided again on the stored game."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.revocations import TokenRevokedOnSave
from dicelog.service.store.write_lane import GroupCommit
from tests.api.conftest import IN_PROCESS, NO_QUOTAS, Table
from tests.api.test_observability import _metrics, _value

# --- GroupCommit on its own -------------------------------------------------------------------


class Store:
    """A ``write`` for ``GroupCommit`` that records each transaction; the first one waits for
    ``release`` (so that other saves queue behind it), and events named in ``taken`` clash."""

    def __init__(
        self, taken: frozenset[str] = frozenset(), fault: bool = False, revoked: frozenset[str] = frozenset()
    ) -> None:
        self.transactions: list[list[str]] = []
        self.started, self.release = threading.Event(), threading.Event()
        self.taken, self.fault, self.revoked = taken, fault, revoked
        self.stored: list[str] = []

    def write(self, events: list[str], unrevoked: Sequence[str] = ()) -> list[str]:
        first = not self.transactions
        self.transactions.append(list(events))
        if first:
            self.started.set()
            assert self.release.wait(5)
        if len(events) > 1 and self.fault:
            raise OperationalError("disk I/O error")
        if self.taken & set(events):
            raise IntegrityError("UNIQUE constraint failed")
        if self.revoked & set(unrevoked):
            raise TokenRevokedOnSave("revoked")
        self.stored += events
        return [f"recorded {e}" for e in events]


def save_at_once(commit: GroupCommit, store: Store, saves: list[Any]) -> list[Any]:
    """The first save starts a transaction; the others are queued behind it before it ends."""
    with ThreadPoolExecutor(len(saves)) as pool:

        def outcome(save: list[str] | tuple[list[str], list[str]]) -> Any:
            events, unrevoked = save if isinstance(save, tuple) else (save, [])
            try:
                return commit.save(events, unrevoked)
            except Exception as e:  # noqa: BLE001 - the outcome under test
                return e

        first = pool.submit(outcome, saves[0])
        assert store.started.wait(5)
        rest = [pool.submit(outcome, s) for s in saves[1:]]
        while len(commit._queue) < len(rest):  # the others are queued behind the first transaction
            threading.Event().wait(0.005)
        store.release.set()
        return [first.result(5), *(f.result(5) for f in rest)]


def test_a_lone_save_is_written_at_once_in_its_own_transaction():
    store = Store()
    store.release.set()
    commit = GroupCommit(store.write)
    assert commit.save(["a1", "a2"]) == ["recorded a1", "recorded a2"]
    assert store.transactions == [["a1", "a2"]] and commit.groups == 0


def test_saves_queued_during_a_commit_share_the_next_transaction_and_each_gets_its_own_recordings():
    store = Store()
    commit = GroupCommit(store.write)
    outcomes = save_at_once(commit, store, [["a1"], ["b1", "b2"], ["c1"], ["d1", "d2", "d3"]])
    assert outcomes[0] == ["recorded a1"]
    assert outcomes[1:] == [
        ["recorded b1", "recorded b2"],
        ["recorded c1"],
        ["recorded d1", "recorded d2", "recorded d3"],
    ]
    assert len(store.transactions) == 2 and commit.groups == 1
    second = store.transactions[1]
    # each save's events contiguous and in order, whatever order the threads queued in
    for save in (["b1", "b2"], ["c1"], ["d1", "d2", "d3"]):
        at = second.index(save[0])
        assert second[at : at + len(save)] == save
    assert sorted(store.stored) == sorted(["a1", "b1", "b2", "c1", "d1", "d2", "d3"])


def test_a_group_that_meets_a_taken_version_is_written_again_one_save_at_a_time():
    store = Store(taken=frozenset({"c1"}))
    commit = GroupCommit(store.write)
    outcomes = save_at_once(commit, store, [["a1"], ["b1"], ["c1"], ["d1"]])
    assert outcomes[0] == ["recorded a1"]
    assert outcomes[1] == ["recorded b1"] and outcomes[3] == ["recorded d1"]
    assert isinstance(outcomes[2], IntegrityError)
    assert sorted(store.stored) == ["a1", "b1", "d1"]
    assert commit.groups == 0


def test_a_group_with_a_revoked_token_is_written_again_and_only_that_save_fails():
    """``unrevoked`` of every save of a group is checked in the group's transaction
    (``dicelog.service.store.revocations``); a revoked one fails alone, as a taken version does."""
    store = Store(revoked=frozenset({"token-c"}))
    commit = GroupCommit(store.write)
    outcomes = save_at_once(
        commit, store, [(["a1"], ["token-a"]), (["b1"], ["token-b"]), (["c1"], ["token-c"]), ["d1"]]
    )
    assert outcomes[0] == ["recorded a1"]
    assert outcomes[1] == ["recorded b1"] and outcomes[3] == ["recorded d1"]
    assert isinstance(outcomes[2], TokenRevokedOnSave)
    assert sorted(store.stored) == ["a1", "b1", "d1"]
    # the group asked for every save's tokens at once, then each save was written alone
    assert sorted(store.transactions[1]) == ["b1", "c1", "d1"] and len(store.transactions) == 5


def test_a_store_fault_of_a_group_is_raised_to_every_save_of_it():
    store = Store(fault=True)
    commit = GroupCommit(store.write)
    outcomes = save_at_once(commit, store, [["a1"], ["b1"], ["c1"]])
    assert outcomes[0] == ["recorded a1"]
    assert all(isinstance(o, OperationalError) for o in outcomes[1:])
    assert outcomes[1] is not outcomes[2]  # each thread raises its own copy
    assert store.stored == ["a1"]


def test_no_group_is_larger_than_max_group():
    store = Store()
    commit = GroupCommit(store.write, max_group=2)
    outcomes = save_at_once(commit, store, [["a"], ["b"], ["c"], ["d"], ["e"]])
    assert [o[0] for o in outcomes] == [f"recorded {x}" for x in "abcde"]
    assert all(len(t) <= 2 for t in store.transactions)


# --- through the API --------------------------------------------------------------------------


def play_turns(table: Table, turns: int) -> list[int]:
    """End ``turns`` turns one after another (server dice); the statuses."""
    statuses = []
    for _ in range(turns):
        mouse = table.summary()["turn"]
        if mouse is None:
            break
        statuses.append(table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code)
    return statuses


def test_commands_of_many_games_at_once_share_commits_and_every_game_verifies(client):
    games = client.app.state.runtime.games
    assert games.write_lane.threads > 1 or pytest.skip("one lane thread: nothing to group")
    tables = [Table(client) for _ in range(8)]
    before, metrics_before = games.group_commit.groups, _metrics(client)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda t: play_turns(t, 6), tables))
    assert all(status == 201 for statuses in results for status in statuses), results
    assert games.group_commit.groups > before
    metrics = _metrics(client)
    transactions = _value(metrics, "dicelog_commit_group_size_count") - _value(
        metrics_before, "dicelog_commit_group_size_count"
    )
    saves = _value(metrics, "dicelog_commit_group_size_sum") - _value(
        metrics_before, "dicelog_commit_group_size_sum"
    )
    assert saves >= 48 and transactions < saves  # 8 x 6 commands (and their bots: none here)
    for table in tables:
        events = table.events()
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert all(e["prev_hash"] == p["hash"] for p, e in itertools.pairwise(events))
        assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"]


def test_racing_commands_of_one_game_take_turns_and_none_is_a_version_conflict(client):
    table = Table(client)
    mouse = table.game["turn"]

    def end_turn(_: int) -> Any:
        return table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse})

    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(end_turn, range(6)))
    # one of them ends the mouse's turn; each other one is decided on the game as the one before it
    # left it, and refused by the rules (no longer its turn), never a version conflict
    assert [r.status_code for r in answers].count(201) == 1, [r.text for r in answers]
    refused = [r.json() for r in answers if r.status_code != 201]
    assert {p["type"] for p in refused} == {"urn:dicelog:rule:turn.not-your-turn"}, refused


def test_the_command_path_trusts_the_cache_only_where_one_process_writes(client, backend):
    # SQLite: one ``serve`` writes the games; PostgreSQL: replicas would make the cache often stale
    assert client.app.state.runtime.games.trust_cache is (backend == "sqlite")


def test_a_read_that_loaded_the_game_before_a_command_does_not_set_the_cache_back(client):
    games = client.app.state.runtime.games
    table = Table(client)
    game_id = UUID(table.id)
    before = games.game(game_id)  # as a read on another thread loaded it...
    mouse = table.game["turn"]
    assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
    after = games.repository.cache.get(game_id)
    assert after.version > before.version
    games._remember(before)  # ...and puts it in the cache after the command stored its events
    assert games.repository.cache.get(game_id).version == after.version


def test_a_serving_process_collects_cyclic_garbage_less_often(client):
    import gc

    from dicelog.service.http.app import GC_YOUNG_THRESHOLD

    assert gc.get_threshold()[0] >= GC_YOUNG_THRESHOLD > 700


# --- a second process writing the same store --------------------------------------------------


@pytest.fixture
def two_apps(tmp_path: Path) -> Any:
    """Two apps on one SQLite store, as two ``serve`` processes: each has its own aggregate cache."""
    settings = Settings(data_dir=tmp_path, snapshot_interval=10, **NO_QUOTAS, **IN_PROCESS)
    other = Settings(data_dir=tmp_path, snapshot_interval=10, embedded_worker="off", **NO_QUOTAS)
    with TestClient(create_app(settings)) as a, TestClient(create_app(other)) as b:
        yield a, b


def on(client: TestClient[Any], table: Table) -> Table:
    """``table`` played through ``client``."""
    twin = object.__new__(Table)
    twin.__dict__.update(table.__dict__, client=client)
    return twin


def test_a_command_decided_on_a_game_another_process_wrote_since_is_decided_on_the_stored_game(two_apps):
    a, b = two_apps
    table = Table(a)
    first = table.game["turn"]
    assert table.send(table.seat_of(first), {"type": "EndTurn", "mouse": first}).status_code == 201
    # ``a`` has the game cached; ``b`` plays the next turn: ``a``'s cached game is now behind the store
    written = on(b, table)
    mouse = written.summary()["turn"]
    assert written.send(written.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
    stored = written.summary()["version"]

    # the same command again through ``a``: on its cached game it would be legal (the mouse's turn);
    # on the stored game it is not, and that is the answer
    again = table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse})
    assert again.json()["type"] == "urn:dicelog:rule:turn.not-your-turn", again.text
    # a client that read the newest version elsewhere sends it as expected_version: accepted by ``a``
    nxt = written.summary()["turn"]
    r = table.send(table.seat_of(nxt), {"type": "EndTurn", "mouse": nxt}, expected_version=stored)
    assert r.status_code == 201, r.text
    assert r.json()["events"][0]["version"] == stored + 1
    events = table.events()
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert a.post(f"/games/{table.id}/verify").json()["verification"]["ok"]
