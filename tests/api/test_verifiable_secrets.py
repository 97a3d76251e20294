"""Verifiable secrets (issue 16; docs/who-sees-what.md, Hidden information): every seat checks the log during
play, and every hidden card after the end, through the real REST API on SQLite and PostgreSQL.

A five-role Vast game is played by the bots from outside (each reading only its own seat's view); midway,
each seat and the spectator take their own export (``GET /games/{id}/export``): each verifies offline (the
chain across every event, hidden ones included, and every payload it sees whole), naming the events it
could check only by digest. After the end, each of those exports is checked against the full export the
ended game gives everyone: every hidden payload matches the digest the seat already held, and every salt
derives from the view key ``GameEnded`` revealed. A hidden payload altered in the store after the seat's
export is named at its version; a view key that does not match its commitment is refused."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
from eventsourcing.sqlite import SQLiteRecorder
from litestar.testing import TestClient

from dicelog.domain.core.dice import commitment
from dicelog.domain.vast.bot import choose, decode_state
from dicelog.domain.vast.commands import VastCommandUnion
from dicelog.service.app.export import FORMAT_2, VIEW_FORMAT_2, verify_file
from dicelog.service.cli.main import EXIT_FILE, EXIT_OK, main
from tests.api.conftest import Table
from tests.api.test_vast_api import RESULTS, SEAT_OF, VastTable
from tests.api.who_sees_what_support import assert_same_export

PROBLEM = "application/problem+json"

ROLES = ("knight", "goblins", "dragon", "cave", "thief")
SEATS = tuple(SEAT_OF[r] for r in ROLES)
MIDWAY = 60
"""Commands played before the seats take their exports."""


def _bot_move(table: VastTable, rng: random.Random) -> None:
    """One command of the seat whose role has the turn, chosen by the bot from that seat's own view."""
    turn = table.get("/legal-commands", table.first).json()["turn"]
    seat = SEAT_OF[turn]
    legal = table.get("/legal-commands", seat).json()
    view = decode_state(table.get("/state", seat).json()["state"])
    commands = [msgspec.convert(c, VastCommandUnion) for c in legal["commands"]]
    r = table.send(seat, msgspec.to_builtins(choose(view, commands, rng)))
    assert r.status_code == 201, r.text


def _export(table: VastTable, who: str | None) -> bytes:
    r = table.get("/export", who)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/jsonl")
    return r.content


def _lines(export: bytes) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in export.splitlines()]


def _check(export: bytes, against: bytes | None = None) -> Any:
    return verify_file(io.BytesIO(export), io.BytesIO(against) if against is not None else None)


def _alter_stored(client: TestClient[Any], game_id: str, version: int, old: bytes, new: bytes) -> None:
    """Edit one stored event's bytes in place, as a server changing its store would (either store)."""
    recorder = client.app.state.runtime.games.recorder
    table = recorder.events_table_name
    mark = "?"
    if not isinstance(recorder, SQLiteRecorder):  # PostgreSQL: the store's schema, psycopg's marks
        table, mark = f'"{recorder.datastore.schema}".{table}', "%s"
    with recorder.datastore.transaction(commit=True) as cursor:
        cursor.execute(
            f"SELECT originator_id, state FROM {table} WHERE originator_version = {mark}", (version,)
        )
        found = [
            (r["originator_id"], r["state"]) if isinstance(r, dict) else tuple(r) for r in cursor.fetchall()
        ]
        rows = [
            (oid, bytes(state))
            for oid, state in found
            if str(oid).replace("-", "") == game_id.replace("-", "")
        ]
        assert len(rows) == 1, rows
        oid, state = rows[0]
        assert old in state, state
        cursor.execute(
            f"UPDATE {table} SET state = {mark} WHERE originator_id = {mark} AND originator_version = {mark}",
            (state.replace(old, new, 1), oid, version),
        )
    cache = client.app.state.runtime.games.repository.cache
    if cache is not None and hasattr(cache, "cache"):
        cache.cache.clear()


def _play(client: TestClient[Any]) -> dict[str, Any]:
    """A five-role game played by the bots: each seat's and the spectator's export taken midway, the
    seats' answers to ``POST /verify`` then, and the full export after the end."""
    table = VastTable(client, ROLES)
    rng = random.Random(16)
    for _ in range(MIDWAY):
        _bot_move(table, rng)
    assert table.get("", None).json()["result"] is None, "the game ended before the exports were taken"
    midway = {who: _export(table, who) for who in (*SEATS, "spectator")}
    posted = {
        who: client.post(
            f"/games/{table.id}/verify", headers={"Authorization": f"Bearer {table.tokens[who]}"}
        ).json()["verification"]
        for who in SEATS
    }
    for _ in range(3_000):
        if table.get("", None).json()["result"] is not None:
            break
        _bot_move(table, rng)
    assert table.get("", None).json()["result"] in RESULTS
    return {"table": table, "midway": midway, "posted": posted, "final": _export(table, None)}


@pytest.fixture(scope="module")
def played(module_client: TestClient[Any]) -> dict[str, Any]:
    """One played game (``_play``) the module's tests share, on the module's app and store (``SHARED_APP``,
    tests/api/conftest.py): a whole five-role game through the API costs seconds. A test that edits a stored
    event puts it back (``_edited``)."""
    return _play(module_client)


@contextmanager
def _edited(client: TestClient[Any], game_id: str, version: int, old: bytes, new: bytes) -> Iterator[None]:
    """``_alter_stored`` for the block, the stored bytes put back after it (the game is the module's)."""
    _alter_stored(client, game_id, version, old, new)
    try:
        yield
    finally:
        _alter_stored(client, game_id, version, new, old)


def test_a_seats_export_taken_mid_game_verifies_the_chain_and_names_the_events_checked_by_digest_only(
    played: dict[str, Any],
):
    for who, export in played["midway"].items():
        lines = _lines(export)
        assert lines[0]["format"] == VIEW_FORMAT_2 and lines[0]["audience"] == (
            "spectator" if who == "spectator" else f"seat:{who}"
        )
        report = _check(export)
        assert report.ok, (who, report)
        assert report.events == len(lines) - 1 and report.chain_format == 2
        hidden = [e["version"] for e in lines[1:] if e["shown"] != "full"]
        assert report.digest_only == tuple(hidden) and hidden, who
        # an event shown masked carries what its link needs, and no salt: its digest cannot be guessed
        masked = [e for e in lines[1:] if e["shown"] == "masked"]
        assert masked and all(e["salt"] is None and len(e["digest"]) == 64 for e in masked), who
        assert all(len(e["salt"]) == 64 for e in lines[1:] if e["shown"] == "full")
    # the Cave draws tiles no other seat sees: those are digests to every other reader, and not to her
    knight, cave = (_lines(played["midway"][SEAT_OF[r]])[1:] for r in ("knight", "cave"))
    tiles = [e["version"] for e in knight if e["type"] == "vast.DarkTilePlaced" and e["shown"] == "masked"]
    assert tiles and all(cave[v - 1]["shown"] == "full" for v in tiles)


def test_post_verify_tells_a_seat_which_events_it_can_check_only_by_digest(played: dict[str, Any]):
    for who in SEATS:
        posted = played["posted"][who]
        own = _check(played["midway"][who])
        assert posted["ok"] is True and posted["chain_format"] == 2
        assert tuple(posted["digest_only"]) == own.digest_only, who


def test_after_the_end_each_mid_game_export_plus_the_final_log_verifies_in_full(played: dict[str, Any]):
    final = played["final"]
    assert _lines(final)[0]["format"] == FORMAT_2
    full = _check(final)
    assert full.ok and full.view_key_revealed and full.seed_revealed and full.digest_only == ()
    for who, export in played["midway"].items():
        report = _check(export, final)
        assert report.ok, (who, report)
        assert report.view_key_revealed and report.events == full.events
    # after the end every reader's export is the full log
    table = played["table"]
    for who in (*SEATS, "spectator", None):
        assert _lines(_export(table, who))[0]["format"] == FORMAT_2


def test_a_hidden_payload_altered_in_the_store_after_a_seats_export_is_detected_at_that_version(
    client: TestClient[Any], played: dict[str, Any]
):
    table = played["table"]
    knight = played["midway"][SEAT_OF["knight"]]
    # an event the Knight held only by digest: a card drawn that she did not see
    drawn = next(e for e in _lines(knight)[1:] if e["shown"] == "masked" and e["type"] == "CardsDrawn")
    version = drawn["version"]
    stored = _lines(_export(table, None))[version]
    cards = stored["state"]["payload"]["cards"]
    old = msgspec.json.encode(cards)
    new = msgspec.json.encode(list(reversed(cards)) if len(cards) > 1 else [cards[0] + "x"])
    with _edited(client, table.id, version, old, new):
        final = _export(table, None)
        report = _check(knight, final)
        assert not report.ok
        assert report.divergence.version == version and report.divergence.check == "digest"
        assert report.divergence.expected == drawn["digest"]
        # the server's own verify finds the store edited too (its chain no longer holds there)
        mine = client.post(f"/games/{table.id}/verify").json()["verification"]
        assert not mine["ok"] and mine["divergence"]["version"] == version
    assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"], "put back as it was"


def test_a_view_key_that_does_not_match_its_commitment_is_refused(
    client: TestClient[Any], played: dict[str, Any]
):
    table = played["table"]
    lines = _lines(played["final"])
    ended = next(n for n, line in enumerate(lines[1:], start=1) if line["topic"].endswith("GameEnded"))
    key = lines[ended]["state"]["payload"]["view_key"]
    created = lines[1]["state"]["payload"]
    assert created["view_key_commitment"] == commitment(bytes.fromhex(key))
    other = "00" * 32
    with _edited(client, table.id, ended, f'"view_key":"{key}"'.encode(), f'"view_key":"{other}"'.encode()):
        report = _check(_export(table, None))
        assert not report.ok and report.divergence.check == "digest" and report.divergence.version == ended
        assert report.divergence.found == other
    assert _check(_export(table, None)).ok, "put back as it was"


@pytest.mark.parametrize("backend", ["sqlite"])  # the CLI reads the store named by DICELOG_* settings
def test_dicelog_export_with_a_seats_token_and_verify_against_the_final_export(
    client: TestClient[Any], tmp_path, monkeypatch, capsys
):
    table = VastTable(client, ("knight", "cave"))
    rng = random.Random(3)
    for _ in range(20):
        _bot_move(table, rng)
    monkeypatch.setenv("DICELOG_DATA_DIR", str(client.app.state.runtime.settings.data_dir))
    mine, final = tmp_path / "knight.jsonl", tmp_path / "final.jsonl"
    assert (
        main(["export", table.id, f"--token={table.tokens[SEAT_OF['knight']]}", "-o", str(mine)]) == EXIT_OK
    )
    assert mine.read_bytes() == _export(table, SEAT_OF["knight"])  # the CLI and the API give the same view
    assert main(["verify", str(mine)]) == EXIT_OK
    out = capsys.readouterr().out
    assert "payloads checked by digest only (versions" in out and "--against" in out
    for _ in range(3_000):
        if table.get("", None).json()["result"] is not None:
            break
        _bot_move(table, rng)
    assert main(["export", table.id, "-o", str(final)]) == EXIT_OK
    assert main(["verify", str(mine), "--against", str(final)]) == EXIT_OK
    assert "every salt derived from the revealed view key" in capsys.readouterr().out
    # a full export cannot stand for the reader's view
    assert main(["verify", str(final), "--against", str(final)]) == EXIT_FILE
    assert "dicelog-view/2" in capsys.readouterr().err


def test_a_fork_of_a_running_game_keeps_its_copied_salts_and_proves_its_own_with_its_own_view_key(
    client: TestClient[Any],
):
    """A fork copies the original's events with their salts (proven by the original's key once it ends)
    and salts its own events with a view key of its own, committed in its ``GameCreated``."""
    table = VastTable(client, ("knight", "cave"))
    rng = random.Random(5)
    for _ in range(15):
        _bot_move(table, rng)
    version = table.get("", None).json()["version"]
    r = client.post(
        f"/games/{table.id}/forks",
        json={"version": version},
        headers={"Authorization": f"Bearer {table.tokens['auditor']}"},
    )
    assert r.status_code == 201, r.text
    fork = VastTable.__new__(VastTable)
    fork.client, fork.id, fork.first = client, r.json()["game"]["id"], table.first
    fork.tokens = {"auditor": r.json()["auditor_token"], "spectator": r.json()["spectator_token"]}
    created = _lines(_export(fork, "auditor"))[1]["state"]["payload"]
    original = _lines(_export(table, "auditor"))[1]["state"]["payload"]
    assert created["chain_format"] == 2 and created["view_key_commitment"] != original["view_key_commitment"]
    # the fork is sealed (the auditor's alone) until the original ends (docs/api-contract.md)
    for _ in range(3_000):
        if table.get("", None).json()["result"] is not None:
            break
        _bot_move(table, rng)
    for seat in (SEAT_OF["knight"], SEAT_OF["cave"]):
        claim = client.post(
            f"/games/{fork.id}/claims", headers={"Authorization": f"Bearer {table.tokens[seat]}"}
        )
        assert claim.status_code == 201, claim.text
        fork.tokens[seat] = claim.json()["token"]
    for _ in range(5):
        _bot_move(fork, rng)
    seen = _export(fork, SEAT_OF["knight"])
    assert _check(seen).ok
    # the fork's own secrets stay hidden until the fork ends
    assert _lines(_export(fork, None))[0]["format"] == VIEW_FORMAT_2
    for _ in range(3_000):
        if fork.get("", None).json()["result"] is not None:
            break
        _bot_move(fork, rng)
    final = _export(fork, None)
    report = _check(final)
    assert report.ok and report.view_key_revealed, report
    assert _check(seen, final).ok


def test_a_mice_and_mystics_game_keeps_chain_format_1_and_every_reader_exports_the_full_log(
    client: TestClient[Any],
):
    """A ruleset without secrets keeps the chain it always had: no view key, no salts, no digests; every
    reader sees everything, so every reader's export is the full log and verifies in full, mid-game."""
    table = Table(client)
    mouse = table.summary()["turn"]
    assert table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}).status_code == 201
    events = client.get(f"/games/{table.id}/events", headers=table.auth("red")).json()["events"]
    created = events[0]["payload"]
    assert "chain_format" not in created and "view_key_commitment" not in created
    assert all(e["digest"] is None and e["salt"] is None for e in events)
    for headers in (table.auth("red"), {"Authorization": f"Bearer {table.spectator_token}"}, {}):
        r = client.get(f"/games/{table.id}/export", headers=headers)
        assert r.status_code == 200 and _lines(r.content)[0]["format"] == "dicelog-export/1"
        report = _check(r.content)
        assert (
            report.ok
            and report.chain_format == 1
            and report.digest_only == ()
            and not report.view_key_revealed
        )
    verification = client.post(f"/games/{table.id}/verify", headers=table.auth("red")).json()["verification"]
    assert verification["ok"] and verification["chain_format"] == 1 and verification["digest_only"] == []


def test_the_json_export_holds_the_same_events_as_the_file_for_every_token(client: TestClient[Any]):
    """``Accept: application/json`` gives each token the same export as the file, one typed document (the
    host seat's, another seat's and the spectator's views, the auditor's full log); the file stays the
    default (no ``Accept``, ``*/*``), and still verifies; an ``Accept`` matching neither form is 406."""
    table = VastTable(client, ROLES[:3])
    rng = random.Random(33)
    for _ in range(20):
        _bot_move(table, rng)
    assert table.get("", None).json()["result"] is None
    url = f"/games/{table.id}/export"
    formats = {}
    for who in (table.first, SEAT_OF["dragon"], "spectator", "auditor"):
        auth = {"Authorization": f"Bearer {table.tokens[who]}"}
        file = _export(table, who)
        assert client.get(url, headers={**auth, "Accept": "*/*"}).content == file
        r = client.get(url, headers={**auth, "Accept": "application/json"})
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json"), r.text
        assert "accept" in r.headers["vary"].lower()
        formats[who] = assert_same_export(file, r.content)["format"]
        preferred = client.get(url, headers={**auth, "Accept": "application/jsonl;q=0.5, application/json"})
        assert preferred.json() == r.json()
        assert _check(file).ok  # dicelog verify: the file form as before
        refused = client.get(url, headers={**auth, "Accept": "text/html"})
        assert refused.status_code == 406 and refused.headers["content-type"].startswith(PROBLEM), refused
        assert refused.json()["type"] == "urn:dicelog:problem:not-acceptable"
    assert formats == {
        table.first: VIEW_FORMAT_2,
        SEAT_OF["dragon"]: VIEW_FORMAT_2,
        "spectator": VIEW_FORMAT_2,
        "auditor": FORMAT_2,
    }
