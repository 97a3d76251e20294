"""The application on its store: snapshots for long games, concurrent writers, secrets kept apart, one
connection pool per process."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from dicelog.domain.core.game import fold
from dicelog.service.app.games import Games
from tests.api.conftest import Table


def _end_turns(table: Table, n: int) -> None:
    for _ in range(n):
        mouse = table.summary()["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201


def test_long_games_are_snapshotted_and_any_version_still_equals_the_replay(client):
    table = Table(client)  # snapshot interval 10 in the test settings
    _end_turns(table, 8)
    games = client.app.state.runtime.games
    game_id = UUID(table.id)
    snapshots = list(games.snapshots.get(game_id))
    assert snapshots, "a snapshot was taken"
    records = games.records(game_id)
    key = lambda g: (g.version, g.state, g.pending, g.chance_count, g.result, g.head_hash)  # noqa: E731
    for version in range(1, len(records) + 1):
        assert key(games.game(game_id, version)) == key(fold(None, records[:version]))


def test_two_concurrent_commands_on_the_same_version_one_wins_one_gets_409(client):
    table = Table(client)
    mouse = table.summary()["turn"]
    seat = table.seat_of(mouse)
    version = table.summary()["version"]
    n = len(table.events())
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def send() -> None:
        barrier.wait()
        statuses.append(
            table.send(seat, {"type": "EndTurn", "mouse": mouse}, expected_version=version).status_code
        )

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201, 409]
    events = table.events()
    assert [e["version"] for e in events] == list(range(1, len(events) + 1)) and len(events) > n


def test_the_seed_and_token_hashes_never_appear_in_public_views(client):
    table = Table(client)
    secret = client.app.state.runtime.games.secret(UUID(table.id))
    for path in ("", "/events?limit=1000", "/state", "/dice"):
        body = client.get(f"/games/{table.id}{path}").text
        assert secret.seed not in body
        assert not any(h in body for h in secret.token_hashes.values())


def test_reading_a_game_folds_only_the_events_since_the_last_read(client, monkeypatch):
    import dicelog.domain.core.game as core

    table = Table(client)
    _end_turns(table, 3)
    games = client.app.state.runtime.games
    game_id = UUID(table.id)
    games.game(game_id)
    folded = []
    real = core.apply
    me = threading.get_ident()  # the embedded projections fold in their own thread: not counted

    def counting(game, record):
        if threading.get_ident() == me:
            folded.append(record)
        return real(game, record)

    monkeypatch.setattr(core, "apply", counting)
    games.game(game_id)
    assert folded == [], "a cached game is not folded again"
    _end_turns(table, 1)
    folded.clear()
    before = games.game(game_id).version
    folded.clear()
    games.game(game_id)
    assert folded == [] and games.game(game_id).version == before


@pytest.mark.parametrize("backend", [pytest.param("postgres", marks=pytest.mark.postgres)])
def test_on_postgresql_the_games_and_every_projection_share_one_pool_closed_with_its_last_user(client):
    from dicelog.service.store.persistence import SharedPostgresDatastore, shared_pools

    runtime = client.app.state.runtime
    datastores = [runtime.games.factory.datastore, *(view.datastore for view in runtime.views.values())]
    assert all(isinstance(d, SharedPostgresDatastore) for d in datastores)
    assert len({id(d.pool) for d in datastores}) == 1
    settings = runtime.settings
    assert datastores[0].pool.min_size == settings.postgres_pool_size
    assert datastores[0].pool.max_size == settings.postgres_pool_size + settings.postgres_max_overflow
    pools = shared_pools()
    other = Games(settings.library_env("games"), snapshot_interval=0)  # e.g. a CLI command in the process
    assert other.factory.datastore.pool is datastores[0].pool and shared_pools() == pools
    other.close()
    assert not datastores[0].pool.closed, "closing one user leaves the pool to the others"
    table = Table(client)
    assert table.summary()["version"] >= 1
