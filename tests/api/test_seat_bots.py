"""Bot seats (``seats[].bot``, ``dicelog.service.app.seat_bots``) through the real REST API: a person plays
Vast's
Thief against four bot seats the server plays (their decisions answered out of turn, each bot reading only
its own seat's view), a bot seat that controls nothing or whose ruleset has no bot is refused with nothing
stored, and an all-bot game plays to its end on creation and verifies."""

from __future__ import annotations

import logging
import random
from types import SimpleNamespace
from typing import Any

import pytest
from litestar.testing import TestClient

from dicelog.domain.core import registry
from dicelog.domain.core.commands import Choose
from dicelog.service.app.seat_bots import bot_rng
from dicelog.service.http import routes
from tests.api.conftest import MICE
from tests.api.test_vast_api import RESULTS, SEAT_OF, VastTable

ROLES = ("knight", "goblins", "dragon", "cave", "thief")
PERSON = SEAT_OF["thief"]
BOTS = {SEAT_OF[r] for r in ROLES} - {PERSON}
AUTOMATIC = {"server", "policy"}
THIEF_TURNS = 4


class BotTable(VastTable):
    """A Vast game whose seats named in ``people`` are people's; every other seat is a bot."""

    def __init__(
        self, client: TestClient[Any], roles: tuple[str, ...], people: set[str], **body: Any
    ) -> None:
        self.client = client
        seats = [{"name": SEAT_OF[r], "controls": [r], "bot": SEAT_OF[r] not in people} for r in roles]
        body = {"ruleset": "vast", "setup": {"roles": list(roles)}, "seats": seats, **body}
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        self.created = r.json()
        self.id = self.created["game"]["id"]
        self.tokens = {t["seat"]: t["token"] for t in self.created["tokens"]}
        self.tokens["spectator"] = self.created["spectator_token"]
        self.tokens["auditor"] = self.created["auditor_token"]
        self.first = seats[0]["name"]
        self.scanned = 0
        self.checked = 0
        self.leaks: list[str] = []
        self._log: list[dict[str, Any]] = []

    def events(self, who: str = "auditor", after: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        cursor: int | None = after
        while cursor is not None:
            page = self.get(f"/events?limit=1000&after={cursor}", who).json()
            out += page["events"]
            cursor = page["next_after"]
        return out

    def scan_person(self) -> None:
        """Every read of the person's seat, scanned for the other roles' secrets (from the auditor's view),
        while the game goes on (after its end everything is public: test_who_sees_what)."""
        if self.get("", None).json()["result"] is not None:
            return
        hidden = self.secrets(PERSON) | set(self.full_state()["vaults"])  # the Vaults left are the Cave's
        self.scan_seat(PERSON, hidden, "the Thief")


@pytest.fixture
def fixed_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server dice from a fixed seed (the bots' tie-breaks still depend on the game id)."""
    monkeypatch.setattr(routes, "_new_seed", lambda: bytes(range(32)))


def _person_command(legal: dict[str, Any], rng: random.Random, sent_this_turn: int) -> dict[str, Any]:
    """The person's move: a decision's default; a few random Thief commands, then the end of the turn."""
    commands = legal["commands"]
    if legal["pending"] is not None:
        default = legal["pending"].get("default")
        return next((c for c in commands if c["option"] == default), commands[0])
    others = [c for c in commands if c["type"] != "vast.EndTurn"]
    if others and sent_this_turn < 3:
        return rng.choice(others)
    return next(c for c in commands if c["type"] == "vast.EndTurn")


def test_a_person_plays_the_thief_against_four_bot_seats_the_server_plays(client, fixed_dice):
    table = BotTable(client, ROLES, {PERSON}, decision_policy="ask")
    seats = {s["name"]: s for s in table.created["game"]["seats"]}
    assert {n for n, s in seats.items() if s.get("bot")} == BOTS and not seats[PERSON].get("bot")

    # right after creation the four bots have played their turns up to the Thief's: his Stat tokens wait
    legal = table.get("/legal-commands", PERSON).json()
    assert legal["turn"] == "thief" and legal["pending_seat"] == PERSON
    assert legal["pending"]["decision"] == "thief-stats" and legal["commands"]
    assert legal["version"] == table.created["game"]["version"]
    assert {e["seat"] for e in table.events()} >= BOTS
    for bot in BOTS:  # a bot seat's token still reads; it has nothing to do now
        assert table.get("/legal-commands", bot).json()["commands"] == []
    table.scan_person()

    rng = random.Random(11)
    turns = sent = 0
    while turns < THIEF_TURNS:
        legal = table.get("/legal-commands", PERSON).json()
        if table.get("", None).json()["result"] is not None:
            break
        assert legal["commands"], legal  # once the bots settle, the move is always the person's
        command = _person_command(legal, rng, sent)
        r = table.send(PERSON, command)
        assert r.status_code == 201, (command, r.text)
        answer = r.json()
        # the answer is the person's own command: its events, signed by the person's seat (and server dice)
        assert answer["version"] == answer["events"][-1]["version"]
        assert {e["seat"] for e in answer["events"]} <= {PERSON, *AUTOMATIC}
        sent += 1
        if command["type"] != "vast.EndTurn":
            continue
        turns, sent = turns + 1, 0
        now = table.get("", None).json()
        assert now["version"] > answer["version"]  # the bots took their turns after it
        followed = table.events(after=answer["version"])
        assert followed and followed[-1]["version"] == now["version"]
        assert {e["seat"] for e in followed} <= BOTS | AUTOMATIC
        if now["result"] is None:
            assert {e["seat"] for e in followed} >= BOTS  # each bot took its turn before the Thief's next
            assert now["turn"] == "thief"
        table.scan_person()

    assert turns == THIEF_TURNS or table.get("", None).json()["result"] in RESULTS
    events = table.events()
    mine = {e["payload"]["type"] for e in events if e["seat"] == PERSON}
    assert {"CommandAccepted", "DecisionMade", "vast.ThiefStatsAssigned", "vast.TurnEnded"} <= mine
    # the bots answered their own decisions (``decision_policy: ask``), some out of turn (the Cave fills the
    # Dark tile the Knight walks onto, the Goblins pick the Tribe the Cave's Spores strike...)
    turn: str | None = None
    out_of_turn: set[tuple[str, str]] = set()
    decided_by_bots = 0
    role_of = {SEAT_OF[r]: r for r in ROLES}
    for e in events:
        payload = e["payload"]
        if payload["type"] == "vast.TurnStarted":
            turn = payload["role"]
        elif payload["type"] == "DecisionMade" and payload["by"] in BOTS:
            decided_by_bots += 1
            assert e["seat"] == payload["by"]
            if role_of[payload["by"]] != turn:
                out_of_turn.add((payload["by"], payload["decision"].partition(":")[0]))
    assert decided_by_bots > 0 and out_of_turn, out_of_turn
    assert not any(e["payload"]["type"] == "DecisionMade" and e["payload"]["by"] == "policy" for e in events)
    assert table.scanned > 20 and table.checked > 1_000
    assert table.leaks == []
    verification = client.post(f"/games/{table.id}/verify").json()["verification"]
    assert verification["ok"] is True and verification["events"] == len(events)


def test_an_all_bot_game_plays_to_its_end_on_creation_and_verifies(client):
    table = BotTable(client, ("cave", "thief"), set())
    game = table.created["game"]
    assert game["result"] in RESULTS and game["turn"] is None
    events = table.events(who="spectator")  # after the end everything is public
    assert len(events) == game["version"]
    assert {"deep", "rogue"} <= {e["seat"] for e in events} <= {"deep", "rogue", *AUTOMATIC}
    assert events[-1]["payload"]["type"] == "GameEnded"
    verification = client.post(f"/games/{table.id}/verify").json()["verification"]
    assert verification["ok"] is True and verification["seed_revealed"] is True
    # the game is over: a bot seat's token sends nothing more
    r = table.send("deep", {"type": "Choose", "option": "keep"})
    assert r.status_code == 422 and r.json()["rule"] == "game.over", r.text


def test_a_mice_and_mystics_bot_seat_plays_its_mice_and_leaves_the_persons_to_the_person(client):
    seats = [
        {"name": "red", "controls": ["collin", "filch"]},
        {"name": "blue", "controls": ["maginos", "nez"], "bot": True},
    ]
    body = {"setup": {"chapter": "chapter-1", "mice": MICE}, "seats": seats}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    game_id, red = created["game"]["id"], created["tokens"][0]["token"]
    auth = {"Authorization": f"Bearer {red}"}
    for _ in range(200):  # the person ends each of their mice's turns; the bot plays its mice's turns
        legal = client.get(f"/games/{game_id}/legal-commands", headers=auth).json()
        if client.get(f"/games/{game_id}").json()["result"] is not None:
            break
        assert legal["commands"], legal
        assert legal["turn"] in ("collin", "filch") or legal["pending_seat"] == "red"
        command = next((c for c in legal["commands"] if c["type"] == "EndTurn"), legal["commands"][0])
        r = client.post(f"/games/{game_id}/commands", json={"command": command}, headers=auth)
        assert r.status_code == 201, r.text
        events = client.get(f"/games/{game_id}/events", params={"limit": 1000}).json()["events"]
        if "blue" in {e["seat"] for e in events}:
            break
    events = client.get(f"/games/{game_id}/events", params={"limit": 1000}).json()["events"]
    assert "blue" in {e["seat"] for e in events}
    assert client.post(f"/games/{game_id}/verify").json()["verification"]["ok"] is True


def _refused(client: TestClient[Any], body: dict[str, Any], rule: str) -> None:
    before = client.get("/games").json()
    r = client.post("/games", json={**body, "visibility": "public"})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"] == f"urn:dicelog:rule:{rule}" and r.json()["rule"] == rule
    assert client.get("/games").json() == before  # nothing stored


def test_a_bot_seat_that_controls_no_piece_is_refused_and_nothing_is_stored(client):
    seats = [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}]
    body = {"ruleset": "vast", "setup": {"roles": ["knight", "cave"]}}
    _refused(client, {**body, "seats": [*seats, {"name": "idle", "bot": True}]}, "seat.bot-controls-nothing")
    # and the same for a campaign's seats
    r = client.post(
        "/campaigns",
        json={
            "ruleset": "mice-and-mystics",
            "chapters": ["chapter-1"],
            "party": {"mice": MICE},
            "seats": [{"name": "ana", "controls": MICE}, {"name": "bob", "bot": True}],
        },
    )
    assert r.status_code == 422 and r.json()["rule"] == "seat.bot-controls-nothing", r.text


def test_a_bot_seat_in_a_ruleset_without_a_bot_is_refused_and_nothing_is_stored(race):
    seats = [{"name": "one", "controls": ["a"]}, {"name": "two", "controls": ["b"], "bot": True}]
    body = {"ruleset": "race", "setup": {"pieces": ["a", "b"], "goal": 12}, "seats": seats}
    _refused(race, body, "seat.no-bot-policy")
    # without the bot the same game is created, and its stored seats carry no ``bot`` field
    r = race.post("/games", json={**body, "seats": [seats[0], {"name": "two", "controls": ["b"]}]})
    assert r.status_code == 201, r.text
    created = race.get(f"/games/{r.json()['game']['id']}/events").json()["events"][0]["payload"]
    assert all("bot" not in s for s in created["seats"])


def test_the_bots_random_source_is_seeded_by_game_id_and_version():
    class At:
        def __init__(self, version: int) -> None:
            self.id, self.version = "0b7c2a55-5d1e-4f57-9d8e-3c8f0b0c1d2e", version

    again = [bot_rng(At(7)).random() for _ in range(2)]  # type: ignore[arg-type]
    assert again[0] == again[1] != bot_rng(At(8)).random()  # type: ignore[arg-type]


@pytest.mark.parametrize("failure", ["refused", "bug"])
def test_a_failing_bot_stops_the_bots_and_what_set_them_going_stands(client, monkeypatch, caplog, failure):
    def choose(view: Any, legal: Any, rng: random.Random) -> Any:
        if failure == "bug":
            raise RuntimeError("a bot bug")
        return Choose(option="nonsense")  # nothing is pending: choose.nothing-pending

    def decide(view: Any, pending: Any, options: Any, rng: random.Random) -> str:
        if failure == "bug":
            raise RuntimeError("a bot bug")
        return "not-an-option"  # choose.not-an-option

    monkeypatch.setattr(registry.get("vast"), "bot", SimpleNamespace(choose=choose, decide=decide))
    with caplog.at_level(logging.INFO, logger="dicelog.bots"):
        table = BotTable(client, ("knight", "cave"), {"sir"}, decision_policy="ask")
        # the person plays until it is the Cave bot's move: the command stands, the bot stops (logged)
        for _ in range(200):
            legal = table.get("/legal-commands", "sir").json()
            if not legal["commands"]:
                break
            ends = [c for c in legal["commands"] if c["type"] == "vast.EndTurn"]
            command = ends[0] if ends and legal["pending"] is None else legal["commands"][0]
            r = table.send("sir", command)
            assert r.status_code == 201, r.text
    assert table.get("", None).json()["result"] is None
    assert not legal["commands"] and (legal["turn"] == "cave" or legal["pending_seat"] == "deep")
    assert "deep" not in {e["seat"] for e in table.events()}  # nothing of the bot's was stored
    message = "bot command refused" if failure == "refused" else "bot failed"
    assert any(message in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True


@pytest.mark.parametrize("flag", [1, 0, "true", None])
def test_a_seat_bot_flag_that_is_not_a_json_boolean_is_a_400(client, flag):
    seats = [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"], "bot": flag}]
    before = client.get("/games").json()
    r = client.post(
        "/games",
        json={
            "ruleset": "vast",
            "setup": {"roles": ["knight", "cave"]},
            "seats": seats,
            "visibility": "public",
        },
    )
    assert r.status_code == 400, r.text
    assert r.headers["content-type"].startswith("application/problem+json") and "seats[1].bot" in r.text
    assert client.get("/games").json() == before


def test_a_bot_seat_approves_the_persons_undo_request(client):
    table = BotTable(client, ("knight", "cave"), {"sir"}, undo_policy="all-seats")
    legal = table.get("/legal-commands", "sir").json()
    before = legal["version"]
    command = next(c for c in legal["commands"] if c["type"] != "vast.EndTurn")
    assert table.send("sir", command).status_code == 201
    r = table.send("sir", {"type": "RequestUndo", "to_version": before})
    assert r.status_code == 201, r.text
    events = table.events(after=before)
    approvals = [e for e in events if e["payload"]["type"] == "UndoApproved"]
    assert [e["seat"] for e in approvals] == ["deep"]
    assert events[-1]["payload"]["type"] == "UndoApplied"
    legal = table.get("/legal-commands", "sir").json()
    assert legal["undo_request"] is None and command in legal["commands"]  # the Knight's move again
    assert client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True
