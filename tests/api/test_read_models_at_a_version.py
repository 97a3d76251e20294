"""The read models at any version (docs/api.md; issue 32): ``GET /games/{id}/board?version=N`` and
``GET /games/{id}/initiative?version=N`` are the ruleset's views of the game after its first ``N`` events,
rebuilt by replay and shown through the reader's lens as ``GET /state?version=N`` is; a version the game has
not reached is a 404 problem, a version under 1 a 400 problem; the answers carry an ETag and revalidate
while the game runs; the ``expensive`` quota counts them as replays."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.domain.core import registry
from dicelog.domain.core.visibility import Lens, Viewer
from dicelog.domain.vast.bot import choose, decode_state
from dicelog.domain.vast.commands import VastCommandUnion
from tests.api.conftest import Table
from tests.api.test_vast_api import VastTable

KINDS = ("board", "initiative")


def _as_api(ruleset: str, view: Any) -> Any:
    """A ruleset's view as the API shows it: JSON, tagged by ``ruleset``."""
    return {"ruleset": ruleset, **msgspec.json.decode(msgspec.json.encode(view))}


def _play(table: VastTable, commands: int, seed: int) -> None:
    """``commands`` commands of the Knight and the Cave by the seat bots' rules (server dice)."""
    rng = random.Random(seed)
    for _ in range(commands):
        seat = {"knight": "sir", "cave": "deep"}[table.get("", None).json()["turn"]]
        legal = table.get("/legal-commands", seat).json()
        if legal["pending"] is not None:
            option = rng.choice(legal["pending"]["options"])
            assert table.send(seat, {"type": "Choose", "option": option}).status_code == 201
            continue
        view = decode_state(table.get("/state", seat).json()["state"])
        commands_ = [msgspec.convert(c, VastCommandUnion) for c in legal["commands"]]
        chosen = legal["commands"][commands_.index(choose(view, commands_, rng))]
        assert table.send(seat, chosen).status_code == 201, chosen


def test_a_vast_board_and_initiative_at_a_version_are_the_views_of_that_version_through_the_lens(
    client: TestClient[Any],
) -> None:
    table = VastTable(client)
    _play(table, 30, seed=7)
    latest = table.get("", None).json()["version"]
    games = client.app.state.runtime.games
    ruleset = registry.get("vast")
    readers = {
        "sir": Viewer(kind="seat", seat="sir", pieces=frozenset({"knight"})),
        "deep": Viewer(kind="seat", seat="deep", pieces=frozenset({"cave"})),
        None: Viewer(kind="spectator"),
        "auditor": Viewer(kind="auditor"),
    }
    checked = 0
    for version in sorted({1, 2, latest // 3, latest // 2, latest - 1, latest}):
        game = games.game(UUID(table.id), version)
        assert game.version == version
        full = table.get(f"/state?version={version}", "auditor").json()["state"]
        dark = {c["tile"] for c in full["cells"] if not c["lit"]} - {"?"}
        for who, viewer in readers.items():
            lens = Lens(ruleset, viewer)
            for kind in KINDS:
                r = table.get(f"/{kind}?version={version}", who)
                assert r.status_code == 200, (who, kind, version, r.text)
                body = r.json()
                assert body["version"] == version and body["game_id"] == table.id
                view = ruleset.board_view if kind == "board" else ruleset.initiative_view
                assert body[kind] == _as_api("vast", view(lens.state(game.state))), (who, kind, version)
                checked += 1
            # what the reader's board names of the Dark tiles: all of them for the Cave and the auditor only
            cells = table.get(f"/board?version={version}", who).json()["board"]["cells"]
            named = {c["tile"] for c in cells if c["side"] == "dark"} - {"?"}
            assert named == (dark if who in ("deep", "auditor") else set()), (who, version)
    assert checked == 4 * 2 * len({1, 2, latest // 3, latest // 2, latest - 1, latest})
    # the latest version asked for is the latest view (the one GET /board and /initiative answer)
    for kind in KINDS:
        for who in ("sir", "deep"):
            at = table.get(f"/{kind}?version={latest}", who).json()
            assert at == table.get(f"/{kind}", who).json(), (kind, who)


def test_a_mice_and_mystics_board_and_initiative_at_a_version_are_that_versions_views(
    client: TestClient[Any],
) -> None:
    table = Table(client)
    for _ in range(3):
        mouse = table.summary()["turn"]
        assert table.send(table.seat_of(mouse), {"type": "EndTurn", "mouse": mouse}).status_code == 201
    latest = table.summary()["version"]
    ruleset = registry.get("mice-and-mystics")
    seen = set()
    for version in range(1, latest + 1):
        game = client.app.state.runtime.games.game(UUID(table.id), version)
        for kind in KINDS:
            body = client.get(f"/games/{table.id}/{kind}", params={"version": version}).json()
            view = ruleset.board_view if kind == "board" else ruleset.initiative_view
            assert body["version"] == version
            assert body[kind] == _as_api("mice-and-mystics", view(game.state)), (kind, version)
            seen.add(msgspec.json.encode(body[kind]))
    assert len(seen) > 2, "the views change along the game"


@pytest.mark.parametrize("kind", KINDS)
def test_a_version_beyond_the_latest_is_a_404_problem_and_one_under_1_a_400_problem(
    client: TestClient[Any], kind: str
) -> None:
    table = Table(client)
    latest = table.summary()["version"]
    beyond = client.get(f"/games/{table.id}/{kind}", params={"version": latest + 1})
    assert beyond.status_code == 404, beyond.text
    assert beyond.headers["content-type"].startswith("application/problem+json")
    assert f"no version {latest + 1}" in beyond.json()["detail"]
    for bad in ("0", "-1", "two", "1.5", str(10**16)):
        r = client.get(f"/games/{table.id}/{kind}", params={"version": bad})
        assert r.status_code == 400, (bad, r.text)
        assert r.headers["content-type"].startswith("application/problem+json"), bad
    unknown = client.get(f"/games/{UUID(int=1)}/{kind}", params={"version": 1})
    assert unknown.status_code == 404
    assert unknown.headers["content-type"].startswith("application/problem+json")


def test_a_read_model_at_a_version_has_an_etag_and_revalidates_while_the_game_runs(
    client: TestClient[Any],
) -> None:
    table = Table(client)
    for kind in KINDS:
        path = f"/games/{table.id}/{kind}?version=1"
        first = client.get(path)
        assert first.status_code == 200
        etag = first.headers["etag"]
        assert etag.startswith('"') and not etag.startswith("W/")
        assert first.headers["cache-control"] == "public, no-cache"
        assert "Authorization" in first.headers["vary"]
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        seat = client.get(path, headers=table.auth("red"))
        assert seat.headers["cache-control"] == "private, no-cache"


def test_the_expensive_quota_counts_a_read_model_at_a_version_as_a_replay(tmp_path: Any) -> None:
    from dicelog.service.http.app import create_app
    from dicelog.service.ops.settings import Settings

    settings = Settings(data_dir=tmp_path, embedded_worker="thread", rate_limit_expensive="3/minute")
    with TestClient(create_app(settings)) as client:
        table = Table(client)
        for kind in KINDS:  # the latest view is not a replay: never counted
            r = client.get(f"/games/{table.id}/{kind}", headers=table.auth("red"))
            assert r.status_code in (200, 404) and "ratelimit-limit" not in r.headers, kind
        counted = [
            client.get(f"/games/{table.id}/{tail}", params={"version": 1}, headers=table.auth("red"))
            for tail in ("board", "initiative", "state")
        ]
        assert [r.headers["ratelimit-remaining"] for r in counted] == ["2", "1", "0"]
        refused = client.get(f"/games/{table.id}/board", params={"version": 1}, headers=table.auth("red"))
        assert refused.status_code == 429 and refused.json()["quota"] == "expensive"
