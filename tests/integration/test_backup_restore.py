"""``dicelog backup`` / ``dicelog restore``: a whole store moves, byte for byte, and every game verifies.

The source is the store release 0.1 wrote (``tests/fixtures/release-0.1-store``: server and manual
dice, an ended game with its revealed seed, undo, a fork, a content pack, a campaign, a keyed
command), plus games written now (a secret-hand game with hidden hands, a fork, a private game, a
keyed command). It is backed up from SQLite and restored into PostgreSQL: every stored row is the
same, in the same order; every game verifies and reads the same (state and events, also through
the API with the original tokens); idempotent answers and projections come back.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from dicelog.service.app.games import Games
from dicelog.service.cli.main import EXIT_FILE, EXIT_NOT_EMPTY, EXIT_OK, main
from dicelog.service.http.app import create_app
from dicelog.service.ops.settings import Settings
from dicelog.service.store.backup import FORMAT, GAME_TOPICS
from dicelog.service.store.migrations import SCHEMA_VERSION
from dicelog_secret_hand.ruleset import register
from tests.api.conftest import NO_QUOTAS, settings_for
from tests.services import drop_postgres_schema

register()

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MANIFEST = json.loads((FIXTURES / "release-0.1-store" / "manifest.json").read_text())
RULESETS = ("mice-and-mystics", "secret-hand")
MICE = ["collin", "filch", "maginos", "nez"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _env(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    """Point the CLI (``Settings.from_env``) at ``settings``' store."""
    for name in (
        "STORE",
        "DATA_DIR",
        "POSTGRES_HOST",
        "POSTGRES_PORT",
        "POSTGRES_DBNAME",
        "POSTGRES_USER",
        "POSTGRES_SCHEMA",
    ):
        monkeypatch.delenv(f"DICELOG_{name}", raising=False)
    monkeypatch.setenv("DICELOG_STORE", settings.store)
    if settings.store == "sqlite":
        monkeypatch.setenv("DICELOG_DATA_DIR", str(settings.data_dir))
    else:
        monkeypatch.setenv("DICELOG_POSTGRES_HOST", settings.postgres_host)
        monkeypatch.setenv("DICELOG_POSTGRES_PORT", str(settings.postgres_port))
        monkeypatch.setenv("DICELOG_POSTGRES_DBNAME", settings.postgres_dbname)
        monkeypatch.setenv("DICELOG_POSTGRES_USER", settings.postgres_user)
        monkeypatch.setenv("DICELOG_POSTGRES_SCHEMA", settings.postgres_schema)


def _play_secret_hand(client: TestClient[Any]) -> dict[str, Any]:
    """A secret-hand game played a few commands, each by the seat whose turn it is."""
    r = client.post(
        "/games",
        json={
            "ruleset": "secret-hand",
            "setup": {"players": ["ann", "bob"]},
            "seats": [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob"]}],
            "visibility": "private",
        },
    )
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    for _ in range(4):
        for token in tokens.values():
            legal = client.get(
                f"/games/{created['game']['id']}/legal-commands", headers=_bearer(token)
            ).json()
            if legal["commands"]:
                r = client.post(
                    f"/games/{created['game']['id']}/commands",
                    headers=_bearer(token),
                    json={"command": legal["commands"][0]},
                )
                assert r.status_code == 201, r.text
                break
    return created


@pytest.fixture
def source(tmp_path: Path) -> Iterator[tuple[Settings, dict[str, Any]]]:
    """A copy of the release 0.1 store with games written now; yields its settings and what was written."""
    data = tmp_path / "source"
    data.mkdir()
    for path in (FIXTURES / "release-0.1-store").glob("*.sqlite"):
        shutil.copyfile(path, data / path.name)
    settings = Settings(data_dir=data, snapshot_interval=10, **NO_QUOTAS)
    written: dict[str, Any] = {}
    with TestClient(create_app(settings, rulesets=RULESETS)) as client:
        r = client.post(
            "/games",
            json={
                "ruleset": "mice-and-mystics",
                "setup": {"chapter": "chapter-1", "mice": MICE},
                "seats": [{"name": "red", "controls": MICE}],
                "visibility": "public",
            },
        )
        assert r.status_code == 201, r.text
        game, token = r.json()["game"]["id"], r.json()["tokens"][0]["token"]
        mouse = client.get(f"/games/{game}").json()["turn"]
        keyed = client.post(
            f"/games/{game}/commands",
            json={"command": {"type": "EndTurn", "mouse": mouse}},
            headers={**_bearer(token), "Idempotency-Key": "k-1"},
        )
        assert keyed.status_code == 201, keyed.text
        version = client.get(f"/games/{game}").json()["version"]
        fork = client.post(f"/games/{game}/forks", json={"version": version}, headers=_bearer(token))
        assert fork.status_code == 201, fork.text
        written.update(
            game=game,
            token=token,
            keyed=keyed.json(),
            mouse=mouse,
            fork=fork.json()["game"]["id"],
            hand=_play_secret_hand(client),
        )
    yield settings, written


@pytest.fixture
def postgres_target() -> Iterator[Settings]:
    settings, schema = settings_for("postgres", Path("/nonexistent"))
    try:
        yield settings
    finally:
        if schema:
            drop_postgres_schema(schema)


def _rows(settings: Settings) -> list[tuple[UUID, int, str, bytes]]:
    games = Games(settings.library_env("games"), snapshot_interval=0)
    try:
        notes = games.recorder.select_notifications(start=1, limit=1_000_000)
        return [(UUID(str(n.originator_id)), n.originator_version, n.topic, bytes(n.state)) for n in notes]
    finally:
        games.close()


def _key(game: Any) -> tuple[Any, ...]:
    return (game.version, game.state, game.pending, game.chance_count, game.result, game.head_hash)


@pytest.mark.postgres
def test_a_sqlite_backup_restored_into_postgresql_keeps_every_row_and_every_game_verifies_and_reads_the_same(
    source: tuple[Settings, dict[str, Any]],
    postgres_target: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    settings, written = source
    backup = tmp_path / "store.dicelog-backup.jsonl"
    _env(monkeypatch, settings)
    assert main(["backup", str(backup)]) == EXIT_OK
    lines = backup.read_bytes().splitlines()
    header, trailer = json.loads(lines[0]), json.loads(lines[-1])
    assert (
        header["format"] == FORMAT
        and header["schema_version"] == SCHEMA_VERSION
        and header["source"].startswith("SQLite in")
    )
    assert trailer["end"] == FORMAT and trailer["events"] == len(lines) - 2
    assert not backup.with_name(backup.name + ".partial").exists()

    _env(monkeypatch, postgres_target)
    capsys.readouterr()
    assert main(["restore", str(backup)]) == EXIT_OK
    out = capsys.readouterr().out
    n_games = trailer["games"]
    assert f"verified {n_games} of {n_games} games: all ok" in out, out

    # every stored row, byte for byte and in the same order (games, campaigns, secrets, token
    # index, claims, idempotent answers)
    before, after = _rows(settings), _rows(postgres_target)
    assert after == before and len(before) == trailer["events"]

    # every game: the same events and the same state at its last version, and it verifies
    game_ids = [row[0] for row in before if row[2] in GAME_TOPICS]
    assert len(game_ids) == n_games >= len(MANIFEST["games"]) + 3
    old = Games(settings.library_env("games"), snapshot_interval=0)
    new = Games(postgres_target.library_env("games"), snapshot_interval=10)
    try:
        for game_id in game_ids:
            assert new.records(game_id) == old.records(game_id)
            assert _key(new.game(game_id)) == _key(old.game(game_id))
            assert new.verify(game_id).ok
        long_game = UUID(MANIFEST["games"]["server-ended"]["id"])
        assert list(new.snapshots.get(long_game)), "restore snapshots long games again"
    finally:
        old.close()
        new.close()

    # through the API, with the tokens of the source: the same answers; keyed commands replay
    with (
        TestClient(create_app(settings, rulesets=RULESETS, start_worker=False)) as a,
        TestClient(create_app(postgres_target, rulesets=RULESETS)) as b,
    ):
        reads = [
            (entry["id"], _bearer(next(iter(entry["tokens"].values()))))
            for entry in MANIFEST["games"].values()
        ]
        hand = written["hand"]
        reads += [
            (written["game"], _bearer(written["token"])),
            (hand["game"]["id"], _bearer(hand["auditor_token"])),
            (hand["game"]["id"], _bearer(hand["tokens"][0]["token"])),
        ]
        for game_id, auth in reads:
            for path in ("", "/events?limit=1000", "/state", "/dice"):
                ra, rb = (
                    a.get(f"/games/{game_id}{path}", headers=auth),
                    b.get(f"/games/{game_id}{path}", headers=auth),
                )
                assert (rb.status_code, rb.json()) == (ra.status_code, ra.json()), (game_id, path)
        assert b.get(f"/games/{hand['game']['id']}").status_code == 401, "a private game stays private"
        assert b.get("/games").json() == a.get("/games").json(), "the listing (creation order, visibility)"
        retry = b.post(
            f"/games/{written['game']}/commands",
            headers={**_bearer(written["token"]), "Idempotency-Key": "k-1"},
            json={"command": {"type": "EndTurn", "mouse": written["mouse"]}},
        )
        assert (retry.status_code, retry.json()) == (201, written["keyed"]), "an idempotent answer survives"
        campaign = MANIFEST["campaign"]
        auth = _bearer(next(iter(campaign["tokens"].values())))
        assert (
            b.get(f"/campaigns/{campaign['id']}", headers=auth).json()
            == a.get(f"/campaigns/{campaign['id']}", headers=auth).json()
        )
        # projections are rebuilt from the restored log by the (embedded) worker
        runtime = b.app.state.runtime
        deadline = time.monotonic() + 120
        while not runtime.follower.caught_up():
            assert time.monotonic() < deadline, "the projections did not catch up"
            time.sleep(0.2)
        game_id = MANIFEST["games"]["manual"]["id"]
        assert b.get(f"/games/{game_id}/board").json() == a.get(f"/games/{game_id}/board").json()


def _backup_of_a_small_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Settings, Path]:
    settings = Settings(data_dir=tmp_path / "small", **NO_QUOTAS)
    with TestClient(create_app(settings, start_worker=False)) as client:
        for _ in range(2):
            r = client.post(
                "/games",
                json={
                    "ruleset": "mice-and-mystics",
                    "setup": {"chapter": "chapter-1", "mice": MICE},
                    "seats": [{"name": "red", "controls": MICE}],
                },
            )
            assert r.status_code == 201
    _env(monkeypatch, settings)
    backup = tmp_path / "small.jsonl"
    assert main(["backup", str(backup)]) == EXIT_OK
    return settings, backup


def test_restore_refuses_a_truncated_or_edited_backup_before_writing_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, backup = _backup_of_a_small_store(tmp_path, monkeypatch)
    lines = backup.read_bytes().splitlines(keepends=True)
    broken = {
        "truncated": b"".join(lines[:-3]),
        "edited": b"".join(lines).replace(b'"seat":"server"', b'"seat":"red"', 1),
        "not a backup": b"hello\n",
        "empty": b"",
    }
    for n, (what, content) in enumerate(broken.items()):
        path = tmp_path / f"broken-{n}.jsonl"
        path.write_bytes(content)
        target = Settings(data_dir=tmp_path / f"target-{n}")
        _env(monkeypatch, target)
        capsys.readouterr()
        assert main(["restore", str(path)]) == EXIT_FILE, what
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err, (what, err)
        assert not target.data_dir.exists(), f"{what}: nothing is written"
    _env(monkeypatch, Settings(data_dir=tmp_path / "target-x"))
    assert main(["restore", str(tmp_path / "missing.jsonl")]) == EXIT_FILE
    assert "cannot read" in capsys.readouterr().err


def test_restore_refuses_a_store_that_holds_events_and_backup_refuses_a_missing_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings, backup = _backup_of_a_small_store(tmp_path, monkeypatch)
    before = _rows(settings)
    capsys.readouterr()
    assert main(["restore", str(backup)]) == EXIT_NOT_EMPTY
    assert "already holds events" in capsys.readouterr().err
    assert _rows(settings) == before
    _env(monkeypatch, Settings(data_dir=tmp_path / "nothing-here"))
    assert main(["backup", str(tmp_path / "b.jsonl")]) == 6
    assert "no dicelog store in" in capsys.readouterr().err
    assert not (tmp_path / "nothing-here").exists() and not (tmp_path / "b.jsonl").exists()


def test_a_backup_restored_into_sqlite_again_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings, backup = _backup_of_a_small_store(tmp_path, monkeypatch)
    target = Settings(data_dir=tmp_path / "again")
    _env(monkeypatch, target)
    assert main(["restore", str(backup)]) == EXIT_OK
    assert "verified 2 of 2 games: all ok" in capsys.readouterr().out
    assert _rows(target) == _rows(settings)
