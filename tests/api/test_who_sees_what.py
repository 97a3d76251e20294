"""Who sees what is one function; a leak test proves it (docs/who-sees-what.md, Hidden information).

Random games of ``secret-hand`` (tests/rulesets/secret_hand_dist) are played through the real API by
bots choosing among the legal commands ``/legal-commands`` lists for their seat. After every
command, the card ids secret from each seat and from the spectator are computed from the
auditor's view (``who_sees_what_support``: never from the service's own masking), and the read
paths are read with each audience's token (the cheap ones after every command, all of them every
few commands): game, state (latest and older), events, legal commands, turns, rounds, dice,
board, initiative, log, the live SSE stream, verify, the listing, command answers, idempotent
replays, refusals (problem+json). Each whole raw answer is scanned for the secret ids.

Run with ``-s`` to see the counts; they are also written to a JSON file in pytest's temporary
directory (its path is printed).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.service.http.app import create_app
from dicelog_secret_hand.ruleset import register
from tests.api.conftest import settings_for
from tests.api.who_sees_what_support import (
    ANONYMOUS,
    AUDITOR,
    CARD,
    RULESETS,
    SPECTATOR,
    HandTable,
    Tally,
    bearer,
    random_config,
    read_ended_stream,
    sse_events,
    unlimited,
)
from tests.services import drop_postgres_schema

register()

GAMES = {"server": (101, 102, 103, 104, 105), "manual": (201, 202, 203, 204, 205)}
"""Seeds of the random games of the leak test: five per dice mode, so ten per backend."""
FULL_READ_EVERY = 3
"""Every read path is read every this many commands (and at the start); the cheap ones always."""
TOTALS: dict[str, Tally] = {}
PROBLEM_JSON = "application/problem+json"


@pytest.fixture
def make_client(backend: str, tmp_path: Path) -> Iterator[Any]:
    """A factory of test clients of the real app (secret-hand only), on ``backend``."""
    schemas: list[str] = []

    @contextmanager
    def make(**overrides: Any) -> Iterator[TestClient[Any]]:
        directory = tmp_path / f"app{len(schemas)}"
        directory.mkdir()
        settings, schema = settings_for(backend, directory)
        if schema:
            schemas.append(schema)
        settings = msgspec.structs.replace(unlimited(settings), **overrides)
        with TestClient(create_app(settings, rulesets=RULESETS)) as client:
            yield client

    try:
        yield make
    finally:
        for schema in schemas:
            drop_postgres_schema(schema)


def record(tally: Tally, backend: str, name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Add a test's counts to its backend's totals, print them and write them all to a JSON file."""
    TOTALS.setdefault(backend, Tally()).add(tally)
    path = tmp_path_factory.getbasetemp() / "who_sees_what_counts.json"
    document = {b: t.counts() for b, t in sorted(TOTALS.items())}
    path.write_text(json.dumps(document, indent=2))
    counts = tally.counts()
    print(
        f"\n[{backend}] {name}: {counts['responses_scanned']} responses scanned, "
        f"{counts['secret_ids_checked']} secret ids checked, {counts['leaks']} leaks "
        f"({counts['games']} games, {counts['steps']} commands, {counts['oracle_checks']} oracle checks, "
        f"{counts['hidden_stubs_seen']} hidden stubs and {counts['masked_cards_seen']} masked cards seen)"
    )
    print(f"[{backend}] {name}: events played {counts['events_played']}")
    total = TOTALS[backend].counts()
    print(
        f"[{backend}] so far: {total['responses_scanned']} responses, {total['secret_ids_checked']} ids, "
        f"{total['leaks']} leaks; counts written to {path}"
    )


def assert_no_leaks(tally: Tally) -> None:
    assert not tally.leaks, json.dumps(tally.leaks[:5], indent=1)


def play_and_scan(table: HandTable, rng: random.Random, *, every: int = FULL_READ_EVERY) -> None:
    """Play ``table`` to its end, reading (and scanning) after every command."""

    def scan_step() -> None:
        if table.ended:
            return
        full = table.step_count % every == 0 or _last_turn(table)
        table.read_all(full=full, rng=rng)
        if full and not table.undo_open:
            probe(table, rng)

    table.on_step = scan_step
    table.read_all(full=True, rng=rng)
    probe(table, rng)
    for _ in range(400):
        if not table.play_step(rng):
            break
    table.on_step = None
    assert table.ended, table.truth


def probe(table: HandTable, rng: random.Random) -> None:
    """Refused commands by the seat on turn (if any) and by another seat."""
    on_turn = table.owner.get(table.turn_piece() or "")
    for seat in dict.fromkeys([on_turn or rng.choice(table.seats), rng.choice(table.seats)]):
        table.probe(seat, rng)


def play_to_end(table: HandTable, rng: random.Random) -> None:
    """Play ``table`` to its end without scanning (the auditor's view is still checked)."""
    for _ in range(400):
        if not table.play_step(rng):
            return
    raise AssertionError("the game did not end")


def _last_turn(table: HandTable) -> bool:
    s = table.state
    return s["phase"] == "play" and s["round"] == s["rounds"] and s["turn"] == len(s["players"]) - 1


def check_everything_public(table: HandTable) -> None:
    """After the end: every reader sees the whole log, the state, the board; verify is ok; the
    dice proof re-derives; the seed was never shown before the end."""
    assert table.revealed()
    auditor_state = table.get("/state", AUDITOR).json()
    readers = [*table.seats, SPECTATOR] + ([ANONYMOUS] if table.config.get("visibility") != "private" else [])
    for audience in readers:
        events = table.get("/events", audience, limit=1000).json()["events"]
        assert len(events) == table.version and not [e for e in events if e["hidden"]], audience
        assert events == table.get("/events", AUDITOR, limit=1000).json()["events"]
        assert table.get("/state", audience).json() == auditor_state
        assert "?" not in json.dumps(table.get("/board", audience).json())
        r = table.post("/verify", audience)
        assert r.status_code == 200 and r.json()["verification"]["ok"], r.text
        status, text = read_ended_stream(table.client, table.url("/stream"), table.tokens[audience])
        assert status == 200
        shown = [json.loads(e["data"]) for e in sse_events(text) if "data" in e]
        assert [e["version"] for e in shown] == list(range(1, table.version + 1))
        assert not [e for e in shown if e["hidden"]]
        proof = table.get("/dice", audience).json()
        if table.game["dice_mode"] == "server":
            seed = proof["seed"]
            assert seed and proof["seed_matches_commitment"], proof
            inherited = (table.events[0]["payload"].get("forked_from") or {}).get("version", 0)
            assert all(
                c["rederived"]
                for c in proof["chances"]
                if c["source"] == "server" and c["version"] > inherited
            ), proof
            assert seed not in table.hex_seen, "the seed was shown before the end"
        else:
            assert proof["seed"] is None
        assert not [c for c in proof["chances"] if c["hidden"]]


# --- 1. the leak test ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice_mode", ["server", "manual"])
def test_no_read_path_shows_any_audience_a_secret_at_any_step(
    backend: str, dice_mode: str, make_client: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tally = Tally()
    with make_client() as client:
        for seed in GAMES[dice_mode]:
            rng = random.Random(seed)
            table = HandTable.create(client, tally, random_config(rng), dice_mode)
            play_and_scan(table, rng)
            check_everything_public(table)
    record(tally, backend, f"leak test, {dice_mode} dice", tmp_path_factory)
    assert tally.games == len(GAMES[dice_mode]) and tally.responses > 0
    assert_no_leaks(tally)


# --- 2. after the end ---------------------------------------------------------------------------


@pytest.mark.parametrize("dice_mode", ["server", "manual"])
def test_after_the_end_every_reader_sees_the_whole_log_and_it_verifies(
    backend: str, dice_mode: str, make_client: Any
) -> None:
    """The auditor's view is read after every command (no hidden event, no masked card, ever);
    after the end every token (and no token) sees everything and verify is ok."""
    tally = Tally()
    config = {
        "players": ["ann", "bob", "cat"],
        "hand_size": 3,
        "rounds": 3,
        "decision_policy": "ask",
        "seats": [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob", "cat"]}],
        "visibility": "public",
        "undo_policy": "all-seats",
    }
    with make_client() as client:
        table = HandTable.create(client, tally, config, dice_mode)
        masked: list[int] = []
        table.on_step = lambda: masked.append(table.get("/state", "red").text.count('"?"'))
        play_to_end(table, random.Random(7))
        assert masked[:-1] and min(masked[:-1]) > 0  # before the end, red never sees the others' hands
        check_everything_public(table)
        assert table.step_count > 0 and len(table.history) == table.step_count + 1
    assert_no_leaks(tally)  # the auditor was never shown a hidden event or a masked card


# --- 3. read access -----------------------------------------------------------------------------


def _read_paths(game_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    base = f"/games/{game_id}"
    return [
        ("GET", base, None),
        ("GET", f"{base}/events?limit=1000", None),
        ("GET", f"{base}/state", None),
        ("GET", f"{base}/state?version=1", None),
        ("GET", f"{base}/legal-commands", None),
        ("GET", f"{base}/turns/1", None),
        ("GET", f"{base}/rounds/1", None),
        ("GET", f"{base}/dice", None),
        ("GET", f"{base}/board", None),
        ("GET", f"{base}/initiative", None),
        ("GET", f"{base}/log", None),
        ("GET", f"{base}/export", None),
        ("GET", f"{base}/stream", None),
        ("POST", f"{base}/verify", None),
        ("POST", f"{base}/forks", {"version": 1}),
        ("POST", f"{base}/commands", {"command": {"type": "hand.Discard", "player": "ann"}}),
    ]


def _assert_401(r: Any, what: str) -> None:
    assert r.status_code == 401, (what, r.status_code, r.text)
    assert r.headers["content-type"].startswith(PROBLEM_JSON), (what, r.headers)
    assert r.json()["status"] == 401 and not CARD.search(r.text), (what, r.text)


def test_read_access_follows_the_visibility_and_the_token(
    backend: str, make_client: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tally = Tally()
    base = {
        "players": ["ann", "bob"],
        "hand_size": 3,
        "rounds": 2,
        "seats": [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob"]}],
    }
    with make_client() as client:
        tables = {
            v: HandTable.create(client, tally, {**base, "visibility": v}, "server")
            for v in ("public", "unlisted", "private")
        }
        listed = {g["id"] for g in client.get("/games", params={"limit": 200}).json()["games"]}
        assert listed == {tables["public"].id}
        for v, table in tables.items():
            for audience in ("red", SPECTATOR, AUDITOR):
                r = client.get("/games", params={"limit": 200}, headers=bearer(table.tokens[audience]))
                assert r.status_code == 200, r.text
                assert {g["id"] for g in r.json()["games"]} == {tables["public"].id, table.id}, (v, audience)
                table.scan(r.text, audience, "GET /games")
        _assert_401(client.get("/games", headers=bearer("not-a-token")), "GET /games, wrong token")
        for reserved in ("spectator", "auditor", "server", "policy"):
            seats = [{"name": "red", "controls": ["ann"]}, {"name": reserved, "controls": ["bob"]}]
            r = client.post(
                "/games",
                json={"ruleset": "secret-hand", "setup": {"players": ["ann", "bob"]}, "seats": seats},
            )
            assert r.status_code == 400 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text
        private, unlisted = tables["private"], tables["unlisted"]
        for method, path, body in _read_paths(private.id):
            _assert_401(client.request(method, path, json=body), f"{method} {path} without a token")
        for table in tables.values():
            other = next(t for t in tables.values() if t is not table)
            for token in ("not-a-token", other.tokens["red"], other.tokens[AUDITOR]):
                for method, path, body in _read_paths(table.id):
                    _assert_401(
                        client.request(method, path, json=body, headers=bearer(token)),
                        f"{method} {path} with a wrong token",
                    )
        for table in (tables["public"], unlisted):
            for tail in ("", "/events", "/state", "/board", "/initiative", "/log", "/dice", "/turns/1"):
                r = table.get(tail, ANONYMOUS)
                assert r.status_code == 200, (tail, r.text)
                table.scan(r.text, ANONYMOUS, f"GET {tail or '/games/{id}'} (no token)")
            assert table.post("/verify", ANONYMOUS).json()["verification"]["ok"]
        for audience in ("red", SPECTATOR, AUDITOR):
            for tail in ("", "/events", "/state", "/board"):
                r = private.get(tail, audience)
                assert r.status_code == 200, r.text
                private.scan(r.text, audience, f"GET {tail or '/games/{id}'} (private)")
        turn = unlisted.truth["state"]["players"][unlisted.truth["state"]["turn"]]
        play = {"type": "hand.Play", "player": turn, "card": unlisted.state["hands"][turn][0]}
        for audience in (SPECTATOR, AUDITOR):
            r = unlisted.send(audience, play)
            assert r.status_code == 403 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text
            assert unlisted.get("/legal-commands", audience).status_code == 403
        _assert_401(unlisted.send(ANONYMOUS, play), "a command without a token")
        assert unlisted.get("", AUDITOR).json()["version"] == unlisted.version
    record(tally, backend, "read access", tmp_path_factory)
    assert_no_leaks(tally)


# --- 4. idempotency across seats ------------------------------------------------------------------


TWO = {
    "players": ["ann", "bob"],
    "hand_size": 3,
    "rounds": 3,
    "decision_policy": "ask",
    "seats": [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob"]}],
}


def _accepted(table: HandTable, seat: str) -> int:
    return sum(e["type"] == "CommandAccepted" and e["seat"] == seat for e in table.events)


def test_an_idempotency_key_answers_only_the_seat_that_used_it(
    backend: str, make_client: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tally = Tally()
    with make_client() as client:
        table = HandTable.create(client, tally, {**TWO, "undo_policy": "all-seats"}, "server")
        card = table.state["hands"]["ann"][0]
        play = {"type": "hand.Play", "player": "ann", "card": card}
        first = table.send("red", play, "key-1")
        assert first.status_code == 201, first.text
        table.refresh()
        table.scan(first.text, "red", "POST /commands (answer)")
        # Another seat, same key, same body: its own command (ann is not blue's piece), not red's answer.
        r = table.send("blue", play, "key-1")
        assert r.status_code == 403 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text
        assert r.content != first.content and "events" not in r.json()
        table.scan(r.text, "blue", "idempotency key of another seat")
        # The same key with a different body by the same seat is refused; the same body replays.
        other = {"type": "hand.Discard", "player": "ann"}
        r = table.send("red", other, "key-1")
        assert r.status_code == 422, r.text
        assert r.json()["type"] == "urn:dicelog:problem:idempotency-key-reused", r.text
        table.scan(r.text, "red", "problem 422 idempotency")
        again = table.send("red", play, "key-1")
        assert again.status_code == 201 and again.content == first.content
        # A command about no piece (an undo request): the same key and body by another seat are
        # run as that seat's own command: refused while red's request is open, then accepted.
        undo = {"type": "RequestUndo", "to_version": table.command_boundaries()[0]}
        asked = table.send("red", undo, "key-2")
        assert asked.status_code == 201 and asked.json()["events"][-1]["payload"]["by"] == "red", asked.text
        r = table.send("blue", undo, "key-2")
        assert r.status_code == 422 and r.json()["rule"] == "undo.already-requested", r.text
        assert table.send("blue", {"type": "RejectUndo"}).status_code == 201
        r = table.send("blue", undo, "key-2")
        assert r.status_code == 201 and r.content != asked.content, r.text
        assert r.json()["events"][-1]["payload"]["by"] == "blue"
        assert table.send("blue", undo, "key-2").content == r.content
        assert table.send("red", undo, "key-2").content == asked.content
        assert table.send("red", {"type": "RejectUndo"}).status_code == 201
        table.refresh()
        for answer, seat in ((asked, "red"), (r, "blue")):
            table.scan(answer.text, seat, "POST /commands (answer)")
        assert [e["payload"]["by"] for e in table.events if e["type"] == "UndoRequested"] == ["red", "blue"]
        assert _accepted(table, "red") == 3 and _accepted(table, "blue") == 2
    record(tally, backend, "idempotency across seats", tmp_path_factory)
    assert_no_leaks(tally)


def test_concurrent_retries_of_one_key_apply_one_command(backend: str, make_client: Any) -> None:
    tally = Tally()
    with make_client() as client:
        table = HandTable.create(client, tally, TWO, "server")
        before, accepted = table.version, _accepted(table, "red")
        play = {"type": "hand.Play", "player": "ann", "card": table.state["hands"]["ann"][-1]}
        with ThreadPoolExecutor(max_workers=10) as pool:
            answers = list(pool.map(lambda _: table.send("red", play, "retry-me"), range(10)))
        refused = [a.text for a in answers if a.status_code != 201]
        assert not refused, refused
        assert len({a.content for a in answers}) == 1
        body = answers[0].json()
        table.refresh()
        assert _accepted(table, "red") == accepted + 1
        assert table.version == before + len(body["events"]) == body["version"]
        assert [e["version"] for e in body["events"]] == list(range(before + 1, table.version + 1))
        table.scan(answers[0].text, "red", "POST /commands (answer)")
    assert_no_leaks(tally)


# --- 5. forks ------------------------------------------------------------------------------------


THREE = {
    "players": ["ann", "bob", "cat"],
    "hand_size": 3,
    "rounds": 3,
    "decision_policy": "ask",
    "visibility": "unlisted",
    "undo_policy": "none",
    "seats": [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob", "cat"]}],
}


def _sealed_fork_refuses_everyone_but_its_auditor(
    original: HandTable, fork_id: str, fork_tokens: dict[str, str]
) -> None:
    """Every read path of a sealed fork, with every token of the original, none, and the fork's
    own spectator token: refused (401/403), each answer scanned against the original's secrets;
    every claim but the auditor's refused (422 ``fork.sealed``); the fork is not listed."""
    client = original.client
    readers: list[tuple[str, str, str | None]] = [
        (a, a, original.tokens[a]) for a in [*original.seats, SPECTATOR, AUDITOR, ANONYMOUS]
    ]
    readers.append(("fork spectator", SPECTATOR, fork_tokens[SPECTATOR]))
    for name, audience, token in readers:
        for method, path, body in _read_paths(fork_id):
            if method == "POST" and path.endswith("/commands"):
                continue
            r = client.request(method, path, json=body, headers=bearer(token))
            expected = (401,) if name != "fork spectator" else (403, 422)
            if path.endswith("/forks") and name == "fork spectator":
                assert r.status_code == 422 and r.json()["rule"].startswith("fork."), r.text
            else:
                assert r.status_code in expected, (name, method, path, r.status_code, r.text)
            assert r.headers["content-type"].startswith(PROBLEM_JSON), (name, path, r.headers)
            original.scan(r.text, audience, f"{method} {path.rsplit('/', 1)[-1]} (sealed fork, {name})")
        r = client.get("/games", params={"limit": 200}, headers=bearer(token))
        if r.status_code == 200:
            assert fork_id not in {g["id"] for g in r.json()["games"]}, (name, r.text)
        original.scan(r.text, audience, f"GET /games (sealed fork, {name})")
    for audience in [*original.seats, SPECTATOR]:
        r = client.post(f"/games/{fork_id}/claims", headers=bearer(original.tokens[audience]))
        assert r.status_code == 422 and r.json()["rule"] == "fork.sealed", (audience, r.text)
        original.scan(r.text, audience, "POST /claims (sealed fork)")
    r = client.post(f"/games/{fork_id}/claims", headers=bearer(original.tokens[AUDITOR]))
    assert r.status_code == 422, r.text  # the auditor's place is the forker's already
    r = client.get(f"/games/{fork_id}/state", headers=bearer(fork_tokens[AUDITOR]))
    assert r.status_code == 200, r.text
    original.tally.oracle_checks += 1


def test_a_fork_of_a_running_game_is_sealed_until_the_original_ends(
    backend: str, make_client: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A fork of a running game with secrets copies the hidden deck and hands: a seat playing or
    reading it would learn the original's unseen cards. So only the auditor may fork such a game,
    and the fork is the auditor's alone (no claim, no other reader, not listed) until the original
    ends; then each place is claimed once and the fork is played, scanned at every step."""
    tally = Tally()
    rng = random.Random(5)
    with make_client() as client:
        config = {**THREE, "visibility": "public"}  # a public game: its fork is public too, once unsealed
        original = HandTable.create(client, tally, config, "server")
        while original.step_count < 4 or original.truth["pending"] is not None:
            assert original.play_step(rng)
        at = original.version
        hands_at_fork = {c for p in ("bob", "cat") for c in original.state["hands"][p]}
        hands_at_fork -= original.known["red"]
        assert hands_at_fork and hands_at_fork <= original.secret("red")
        # A seat may not fork a running game with secrets: drawing in the fork would sample the
        # original's hidden deck. Only the auditor, who sees everything, may.
        r = original.post("/forks", "red", {"version": at})
        assert r.status_code == 422 and r.json()["rule"] == "fork.secrets-in-play", r.text
        original.scan(r.text, "red", "POST /forks (refused)")
        r = client.post(
            f"/games/{original.id}/forks", json={"version": at}, headers=bearer(original.tokens[AUDITOR])
        )
        assert r.status_code == 201, r.text
        created = r.json()
        assert created["game"]["id"] != original.id
        assert created["game"]["dice_commitment"] not in (None, original.game["dice_commitment"])
        assert created["tokens"] == [] and created["spectator_token"] and created["auditor_token"]
        assert created["game"]["version"] == at
        fork_id = created["game"]["id"]
        fork_tokens = {SPECTATOR: created["spectator_token"], AUDITOR: created["auditor_token"]}
        # Sealed while the original runs: checked now and after each further command of the original.
        _sealed_fork_refuses_everyone_but_its_auditor(original, fork_id, fork_tokens)
        for _ in range(400):
            if original.ended or (original.step_count > 6 and _last_turn(original)):
                break
            assert original.play_step(rng)
            if original.step_count % 3 == 0:
                _sealed_fork_refuses_everyone_but_its_auditor(original, fork_id, fork_tokens)
        _sealed_fork_refuses_everyone_but_its_auditor(original, fork_id, fork_tokens)
        play_to_end(original, rng)
        # The original ended: its whole log is public, so the fork is no longer sealed.
        claims: dict[str, str] = {}
        for audience in ("red", "blue"):
            r = client.post(f"/games/{fork_id}/claims", headers=bearer(original.tokens[audience]))
            assert r.status_code == 201, r.text
            claim = r.json()
            assert claim["game_id"] == fork_id and claim["audience"] == f"seat:{audience}"
            claims[audience] = claim["token"]
            r = client.post(f"/games/{fork_id}/claims", headers=bearer(original.tokens[audience]))
            assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM_JSON), r.text
        for audience in (AUDITOR, SPECTATOR):
            r = client.post(f"/games/{fork_id}/claims", headers=bearer(original.tokens[audience]))
            assert r.status_code == 422, r.text
        # Tokens do not cross between the original and the fork.
        fork_red = claims["red"]
        assert client.get(f"/games/{original.id}/state", headers=bearer(fork_red)).status_code == 401
        r = client.get(f"/games/{fork_id}/state", headers=bearer(original.tokens["red"]))
        assert r.status_code == 401
        fork = HandTable(
            client,
            tally,
            {
                **created,
                "tokens": [{"seat": "red", "token": fork_red}, {"seat": "blue", "token": claims["blue"]}],
                "auditor_token": created["auditor_token"],
            },
            config,
            origin=original,
        )
        fork.refresh()
        assert fork.version == at
        # Play the fork to its end, scanning at every step; blue discards face down on its first turn.
        forced = {"done": False}

        def discard_first(seat: str, command: dict[str, Any]) -> dict[str, Any]:
            if seat == "blue" and not forced["done"] and command["type"].startswith("hand."):
                forced["done"] = True
                return {"type": "hand.Discard", "player": command["player"]}
            return command

        fork.rewrite = discard_first
        play_and_scan(fork, rng)
        assert forced["done"] and fork.revealed()
        check_everything_public(fork)
        fork_seed = next(e for e in fork.events if e["type"] == "GameEnded")["payload"]["seed"]
        assert hashlib.sha256(bytes.fromhex(fork_seed)).hexdigest() == created["game"]["dice_commitment"]
        original_seed = next(e for e in original.events if e["type"] == "GameEnded")["payload"]["seed"]
        assert original_seed != fork_seed
        assert hashlib.sha256(bytes.fromhex(original_seed)).hexdigest() == original.game["dice_commitment"]
    record(tally, backend, "forks", tmp_path_factory)
    assert_no_leaks(tally)


# --- 6. Redis: one stream per audience ---------------------------------------------------------------


REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def shared_redis() -> Iterator[Any]:
    """The machine's Redis at 127.0.0.1:6379 (skipped when unreachable, failed when
    ``REQUIRE_SERVICES=1``); the test deletes only the keys of its own games."""
    import redis

    from tests.services import _unavailable

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as e:
        _unavailable("Redis at 127.0.0.1:6379", e)
    yield client
    client.close()


@pytest.mark.redis
def test_redis_audience_streams_carry_no_secret_of_another_audience(
    backend: str, make_client: Any, shared_redis: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import time

    from dicelog.service.worker.publisher import GLOBAL_STREAM, game_stream

    tally = Tally()
    rng = random.Random(9)
    with make_client(redis_url=REDIS_URL) as client:
        table = HandTable.create(client, tally, {**THREE, "visibility": "public"}, "server")
        try:
            play_to_end(table, rng)
            audiences = {None: SPECTATOR, "auditor": AUDITOR, **{f"seat:{s}": s for s in table.seats}}
            keys = {audience: game_stream(table.id, audience) for audience in audiences}
            pattern = f"dicelog:game:{table.id}*"
            deadline = time.monotonic() + 30
            while not all(shared_redis.xlen(k) >= table.version for k in keys.values()):
                assert time.monotonic() < deadline, {k: shared_redis.xlen(k) for k in keys.values()}
                time.sleep(0.1)
            found = {k.decode() for k in shared_redis.scan_iter(match=pattern, count=1000)}
            assert found == set(keys.values()), found
            for audience, key in keys.items():
                reader = audiences[audience]
                entries = shared_redis.xrange(key)
                versions = [int(fields[b"version"]) for _, fields in entries]
                assert sorted(set(versions)) == list(range(1, table.version + 1)), (key, versions)
                for _, fields in entries:
                    version = int(fields[b"version"])
                    text = b" ".join(fields.values()).decode()
                    secret = table.secret_at(version, reader)
                    tally.check(text, secret, where=f"redis {key.rsplit(':', 1)[-1]}", audience=reader)
                    shown = json.loads(fields[b"event"])
                    assert shown["version"] == version
                    if shown["hidden"] and (reader == AUDITOR or shown["payload"] is not None):
                        tally.leak(f"redis {key}", reader, f"hidden v{version} not a stub", text)
                    if reader == AUDITOR:
                        assert not shown["hidden"] and "?" not in json.dumps(shown["payload"]), shown
                        truth = table.events[version - 1]
                        assert shown["payload"] == truth["payload"] and shown["hash"] == truth["hash"], shown
            # The global stream carries the public view (it is shared: only this game's entries).
            ours = [
                f
                for _, f in shared_redis.xrevrange(GLOBAL_STREAM, count=20_000)
                if f[b"game_id"].decode() == table.id
            ]
            assert ours
            for fields in ours:
                text = b" ".join(fields.values()).decode()
                secret = table.secret_at(int(fields[b"version"]), SPECTATOR)
                tally.check(text, secret, where="redis dicelog:games", audience=SPECTATOR)
        finally:
            ours_keys = list(shared_redis.scan_iter(match=f"dicelog:game:{table.id}*", count=1000))
            if ours_keys:
                shared_redis.delete(*ours_keys)
    record(tally, backend, "redis streams", tmp_path_factory)
    assert_no_leaks(tally)


# --- the scanner itself, and leaks found by inference (known, reported) ------------------------------


def test_the_scanner_finds_a_planted_leak(backend: str, make_client: Any) -> None:
    """The auditor's state read as if it were red's view is a leak (else the scans prove nothing)."""
    tally = Tally()
    with make_client() as client:
        table = HandTable.create(client, tally, TWO, "server")
        assert not tally.leaks
        r = table.get("/state", AUDITOR)
        table.scan(r.text, "red", "planted")
        assert {c for leak in tally.leaks for c in leak["ids"]} == table.secret("red") != frozenset()
        table.scan(json.dumps({"payload": {"nonce": "00"}}), "red", "planted nonce")
        assert tally.leaks[-1]["ids"] == ["an event nonce (salt of a chain hash)"]


def _bob_hand_as_red_infers_it(red_hand: list[str], in_deck: set[str], played: list[str]) -> list[str]:
    from dicelog_secret_hand.ruleset import CARDS

    return sorted(set(CARDS) - set(red_hand) - in_deck - set(played))


def test_forks_of_a_running_game_do_not_let_a_seat_rebuild_another_hand(
    backend: str, make_client: Any
) -> None:
    """A fork copies the hidden deck: a seat that forked and drew there would sample the original's
    secrets. So a seat's fork of a running game with secrets is refused, and nothing is created."""
    tally = Tally()
    with make_client() as client:
        table = HandTable.create(client, tally, TWO, "server")
        before = client.get("/games", headers=bearer(table.tokens["red"])).json()["games"]
        for seat in ("red", "blue", SPECTATOR):
            r = client.post(
                f"/games/{table.id}/forks",
                json={"version": table.version},
                headers=bearer(table.tokens[seat]),
            )
            assert r.status_code == 422 and r.json()["rule"] == "fork.secrets-in-play", r.text
            table.scan(r.text, seat if seat != SPECTATOR else "red", "POST /forks (refused)")
        table.refresh()
        assert table.step_count == 0 and table.get("", "red").json()["version"] == table.version
        assert client.get("/games", headers=bearer(table.tokens["red"])).json()["games"] == before
        assert not tally.leaks


def test_manual_draw_refusals_do_not_tell_a_seat_what_the_deck_holds(backend: str, make_client: Any) -> None:
    """A refused manual draw names no card: a probe of a wrong size (a card and a dummy) is refused on
    its count, and a refusal for a card not in the deck does not say which card."""
    from dicelog_secret_hand.ruleset import CARDS

    tally = Tally()
    with make_client() as client:
        table = HandTable.create(client, tally, TWO, "manual")
        deal = (("red", ["card-01", "card-02", "card-03"]), ("blue", ["card-10", "card-11", "card-12"]))
        for seat, cards in deal:
            assert table.send(seat, {"type": "Draw", "cards": cards}).status_code == 201
        assert table.send("red", {"type": "hand.Play", "player": "ann", "card": "card-01"}).status_code == 201
        table.refresh()
        assert table.truth["pending"]["type"] == "DrawRequested"
        in_deck = set()
        for card in CARDS:
            r = table.send("red", {"type": "Draw", "cards": [card, "nope"]})
            assert r.status_code == 422, r.text
            if "'nope'" in r.json()["detail"]:
                in_deck.add(card)
        table.refresh()
        assert table.step_count == 0 and table.truth["pending"]["type"] == "DrawRequested"
        hand = table.get("/state", "red").json()["state"]["hands"]["ann"]
        assert _bob_hand_as_red_infers_it(hand, in_deck, ["card-01"]) != ["card-10", "card-11", "card-12"]
