"""Vast through the real REST API (issue 14): whole Knight vs Cave games on SQLite and PostgreSQL, played by
the bots with server dice and by a table with manual dice; every read path read with each seat's token and
without one is scanned for the secrets of others (computed from the auditor's view of the state, never from
the service's own masking); after the end the log is public and verifies."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dicelog.domain.vast.bot import choose, decode_state
from dicelog.domain.vast.commands import VastCommandUnion
from dicelog.domain.vast.content import tiles
from dicelog.domain.vast.rules.setup import SETUPS as SETUP_ROWS
from dicelog.domain.vast.state import HIDDEN

SEATS = [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}]
SEAT_OF = {"knight": "sir", "cave": "deep", "goblins": "horde", "dragon": "wyrm", "thief": "rogue"}
SETUPS = [
    ("knight", "cave"),
    ("knight", "goblins", "cave"),
    ("knight", "goblins", "dragon", "cave"),
    ("dragon", "cave"),
    ("knight", "dragon", "cave"),
    ("goblins", "dragon", "cave"),
    ("goblins", "cave"),
    ("knight", "goblins", "dragon"),
    ("knight", "goblins"),
    ("knight", "dragon"),
    ("goblins", "dragon"),
]
THIEF_SETUPS = [row.roles for row in SETUP_ROWS.values() if "thief" in row.roles]
"""Every docs/vast/facts.md §7 setup with the Thief this release plays."""
RESULTS = ("won:knight", "won:goblins", "won:dragon", "won:cave", "won:thief", "lost:everyone")
TILE_IDS = set(tiles())


CAUSE_NAMED_LIKE_A_CARD = re.compile(r'"by"\s*:\s*"trap"')
"""``ThiefAttacked``/``ThiefKilled`` ``by: "trap"``: a Gem's trap struck the Thief, a cause that shares its
name with the Goblins' Secrets card ``trap`` and tells nothing of their hand."""


def _cards_only(text: str) -> str:
    """A response's text without the event causes that are named like a card (``CAUSE_NAMED_LIKE_A_CARD``)."""
    return CAUSE_NAMED_LIKE_A_CARD.sub('"by":"gem-trap"', text)


class VastTable:
    def __init__(
        self,
        client: TestClient[Any],
        roles: tuple[str, ...] = ("knight", "cave"),
        row: str | None = None,
        **body: Any,
    ) -> None:
        self.client = client
        seats = [{"name": SEAT_OF[r], "controls": [r]} for r in roles]
        setup = {"roles": list(roles)} if row is None else {"setup": row}
        body = {"ruleset": "vast", "setup": setup, "seats": seats, **body}
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        self.id = created["game"]["id"]
        self.tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        self.first = seats[0]["name"]
        self.tokens["spectator"] = created["spectator_token"]
        self.tokens["auditor"] = created["auditor_token"]
        self.scanned = 0
        self.checked = 0
        self.leaks: list[str] = []
        self._log: list[dict[str, Any]] = []  # the auditor's events read so far (the log only grows)

    def get(self, tail: str, who: str | None) -> Any:
        headers = {"Authorization": f"Bearer {self.tokens[who]}"} if who else {}
        return self.client.get(f"/games/{self.id}{tail}", headers=headers)

    def send(self, who: str, command: dict[str, Any]) -> Any:
        return self.client.post(
            f"/games/{self.id}/commands",
            json={"command": command},
            headers={"Authorization": f"Bearer {self.tokens[who]}"},
        )

    def full_state(self) -> dict[str, Any]:
        return self.get("/state", "auditor").json()["state"]

    def secrets(self, reader: str | None, state: dict[str, Any] | None = None) -> set[str]:
        """Tile and card ids ``reader`` may not know now, from the auditor's state (docs/who-sees-what.md,
        Vast); ``state``: that state when the caller has just read it (a scan reads it once for every
        reader)."""
        s = self.full_state() if state is None else state
        self.auditor_log()  # read once here: ``shown_cards`` below reads what it holds
        out = set(s["stack"]) | set(s["crystals"])
        if s.get("goblins") and reader != "horde":
            # Secrets and Monsters cycle (their discards are shuffled back): a card played or assigned face
            # up before is public history, even when the Goblins hold it again.
            shown = self.shown_cards(("vast.SecretPlayed", "vast.MonsterAssigned"), "card")
            out |= (set(s["goblins"]["hand"]) | set(s["goblins"]["drawn"])) - shown
            if s["offer_to"] == "goblins":
                out |= set(s["offer"])
        if reader != "deep":
            out |= {c["tile"] for c in s["cells"] if not c["lit"]} | set(
                s["cave"]["hand"] if s["cave"] else ()
            )
            out |= set(s["treasure_bottom"]) | set(s["event_bottom"])
            out |= set(s.get("event_top", ()))  # the Event deck's top 3, the Cave's to read (revision 6)
            if s["offer_to"] == "cave" and (len(s["offer"]) > 1 or reader != "sir"):
                out |= set(s["offer"])
        if s.get("knight") and reader not in ("sir", "deep"):
            out |= set(s["knight"]["treasures"])
            if s["offer_to"] == "knight":  # the Treasure card given to her
                out |= set(s["offer"])
        if s.get("dragon") and reader != "wyrm":
            # Power cards are reshuffled whole every Dragon turn: a card that paid a Power before (public) may
            # be in the hand again; the property tests judge every event against the hand of its own time.
            out |= set(s["dragon"]["hand"]) - self.shown_cards(("vast.PowerUsed",), "cards")
        # A Lit tile Wrath or Cave-In sent back under the stack was seen by everyone (and a Dark one by the
        # Cave): its name is public history even once it is drawn again and lies Dark side up elsewhere.
        # The property tests judge each event against the secrets of its own time.
        seen = self.shown_cards(("vast.TileCollapsed",), "tile", unless="dark")
        if reader == "deep":
            seen |= self.shown_cards(("vast.TileCollapsed",), "tile")
        # the Dark tiles he looked at (Vast rulebook §2. Muovi e Agisci)
        if reader == "rogue" and s.get("thief"):
            seen |= set(s["thief"]["peeked"])
        # A Treasure card the Thief took from the Knight, or the Gnome's Ambush made her discard, lies at the
        # deck's bottom: she (and the Cave) knew it, and a face-up one everybody saw (Vast rulebook
        # §Borseggiare; docs/vast/facts.md §3).
        lost = ("vast.ThiefStole", "vast.TreasureCardDiscarded")
        seen |= self.shown_cards(lost, "card", unless="hidden")
        if reader in ("sir", "deep"):
            seen |= self.shown_cards(lost, "card")
        return out - {HIDDEN} - seen

    def scan_seat(self, seat: str, hidden: set[str], name: str) -> None:
        """Every read of ``seat`` (state, legal commands, events, board, log) checked for ``hidden``; what
        shows is added to ``leaks`` under ``name``."""
        for tail in ("", "/state", "/legal-commands", "/events?limit=1000", "/board", "/log"):
            r = self.get(tail, seat)
            assert r.status_code == 200, (tail, r.text)
            self.scanned += 1
            self.checked += len(hidden)
            text = _cards_only(r.text)
            shown = sorted(i for i in hidden if f'"{i}"' in text)
            if shown:
                self.leaks.append(f"{tail} as {name}: {shown}")

    def auditor_log(self) -> list[dict[str, Any]]:
        """Every event of the game as the auditor reads it, oldest first: the pages after the last one read
        are fetched (the log only grows; an undo appends)."""
        after: int | None = self._log[-1]["version"] if self._log else 0
        while after is not None:
            page = self.get(f"/events?limit=1000&after={after}", "auditor").json()
            self._log += page["events"]
            after = page["next_after"]
        return self._log

    def shown_cards(self, kinds: tuple[str, ...], field: str, unless: str = "") -> set[str]:
        """Cards named face up by events of ``kinds`` so far (``field``: one id or a list of ids), but not by
        those whose field ``unless`` is true; from the auditor's events read so far (``auditor_log``)."""
        out: set[str] = set()
        for e in self._log:
            if e["payload"]["type"] in kinds and not (unless and e["payload"].get(unless)):
                value = e["payload"].get(field, [])
                out |= set(value) if isinstance(value, list) else {value}
        return out

    def scan(self) -> None:
        if self.get("", None).json().get("result"):
            return  # after the end everything is public (test_after_the_end... in test_who_sees_what)
        readers = (*(t for t in self.tokens if t not in ("spectator", "auditor")), "spectator", None)
        state = self.full_state()
        for reader in readers:
            hidden = self.secrets(reader, state)
            for tail in (
                "",
                "/state",
                "/events?limit=1000",
                "/board",
                "/initiative",
                "/log",
                "/dice",
                "/turns/1",
                "/export",
            ):
                r = self.get(tail, reader)
                if tail == "/legal-commands" and reader is None:
                    continue
                assert r.status_code == 200, (tail, r.status_code, r.text)
                self.scanned += 1
                self.checked += len(hidden)
                text = _cards_only(r.text)
                shown = {i for i in hidden if f'"{i}"' in text}
                if shown:
                    where = ""
                    if tail.startswith("/events"):  # name the events that show it
                        where = str(
                            [
                                (e["version"], e["payload"]["type"])
                                for e in r.json()["events"]
                                if any(f'"{i}"' in json.dumps(e) for i in shown)
                            ]
                        )
                    self.leaks.append(f"{tail} as {reader}: {sorted(shown)} {where}")
            if reader is not None:
                r = self.get("/legal-commands", reader)
                self.scanned += 1
                text = _cards_only(r.text)
                if {i for i in hidden if f'"{i}"' in text}:
                    self.leaks.append(f"/legal-commands as {reader}")


SOLO_ROWS = [name for name, row in SETUP_ROWS.items() if len(row.roles) == 1 and row.roles != ("thief",)]
"""The solo rows the roles alone do not choose (the levels of Alone in the Dark), chosen by id."""


DEFAULT_PROFILE_GAMES = {
    ("knight", "goblins", "dragon", "cave", "thief"),
    ("knight", "cave"),
    ("goblins", "dragon"),
    ("knight",),
}
"""The bot games the default profile plays (every role together; the Knight, the Goblins, the Dragon and
the Cave without the Thief; a table without the Cave; a solo row); the other rows are in the slow profile
(docs/testing.md): each is a whole game of 5-25 s."""


def _game(roles: tuple[str, ...], row: str | None) -> Any:
    slow = () if roles in DEFAULT_PROFILE_GAMES and row in (None, "knight-solo-hard") else (pytest.mark.slow,)
    return pytest.param(roles, row, marks=slow)


@pytest.mark.parametrize(
    "roles,row",
    [
        *(_game(r, None) for r in (*SETUPS, *THIEF_SETUPS)),
        *(_game(SETUP_ROWS[n].roles, n) for n in SOLO_ROWS),
    ],
    ids=lambda v: "-".join(v) if isinstance(v, tuple) else (v or "by-roles"),
)
def test_a_bot_game_with_server_dice_ends_verifies_and_shows_nobody_another_roles_secret(client, roles, row):
    """Every docs/vast/facts.md §7 setup this release plays, on SQLite and PostgreSQL: the game ends,
    verifies, and no seat ever reads another role's secret."""
    table = VastTable(client, roles, row)
    rng = random.Random(14)
    for step in range(1_500):
        summary = table.get("", None).json()
        if summary.get("result"):
            break
        turn = table.get("/legal-commands", table.first).json()["turn"]
        seat = SEAT_OF[turn]
        legal = table.get("/legal-commands", seat).json()
        view = decode_state(table.get("/state", seat).json()["state"])
        commands = [msgspec.convert(c, VastCommandUnion) for c in legal["commands"]]
        # bots with a random legal command one time in four: random legal games on both stores
        command = rng.choice(commands) if rng.random() < 0.25 else choose(view, commands, rng)
        r = table.send(seat, msgspec.to_builtins(command))
        assert r.status_code == 201, r.text
        if step % 10 == 0:
            table.scan()
    summary = table.get("", None).json()
    assert summary["result"] in RESULTS
    # short setups (2-3 roles) have fewer secrets and fewer turns to scan; a solo seat fewer still
    least = 10_000 if len(roles) >= 4 else 3_000 if len(roles) > 1 else 500
    assert table.scanned > (100 if len(roles) > 1 else 30) and table.checked > least
    assert table.leaks == []
    assert table.client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True
    log = table.get("/events?limit=1000", None).json()["events"]
    assert any(
        e["payload"]["type"] == "vast.DarkTilePlaced" and e["payload"]["tile"] in TILE_IDS for e in log
    )
    # each event's turn, from Vast's own turn start: the events GET /turns/{n} holds carry n, and only they
    turns: dict[int, list[int]] = {}
    for e in log:
        if e["turn"] is not None:
            turns.setdefault(e["turn"], []).append(e["version"])
    assert len(turns) > 2, "a Vast game's events carry their turn"
    for number in (1, 2, max(turns) - 1):  # the last turn of the page may run past it
        held = table.get(f"/turns/{number}", None).json()
        assert turns[number] == list(range(held["from_version"], held["to_version"] + 1))
        assert log[held["from_version"] - 1]["payload"]["type"] == "vast.TurnStarted"


@pytest.mark.parametrize(
    "roles",
    [
        ("knight", "cave"),
        pytest.param(("knight", "goblins", "dragon", "cave"), marks=pytest.mark.slow),  # a whole 4-role game
        pytest.param(("dragon", "cave"), marks=pytest.mark.slow),  # the Cave's decisions: as knight-cave's
        ("knight", "goblins"),
    ],
)
def test_a_whole_game_at_a_real_table_with_manual_dice_and_every_decision_asked(client, roles):
    """Manual dice and ``decision_policy: ask``: the Cave's seat names the tiles it draws, the Knight's the
    Sidequests, either seat rolls the Dragon die; every decision goes to the seat of its role."""
    table = VastTable(client, roles, dice_mode="manual", decision_policy="ask")
    rng = random.Random(7)
    seen_decisions: set[str] = set()
    for _ in range(4_000):
        if table.get("", None).json().get("result"):
            break
        pending = table.get("/legal-commands", table.first).json()
        node = pending["pending"]
        who = pending["pending_seat"] or table.first
        if node is None:
            seat = SEAT_OF[pending["turn"]]
            legal = table.get("/legal-commands", seat).json()["commands"]
            r = table.send(seat, rng.choice(legal))
        elif node["type"] == "DecisionRequested":
            seen_decisions.add(node["decision"].partition(":")[0])
            options = table.get("/legal-commands", who).json()["commands"]
            assert options, node
            r = table.send(who, rng.choice(options))
        elif node["type"] == "RollRequested":
            r = table.send(
                who, {"type": "Roll", "faces": [rng.randint(1, node.get("sides", 6))] * node["dice"]}
            )
        else:  # a draw: the table draws real cards; the test reads which are left from the auditor's view
            cards = table.get("", "auditor").json()["pending"]["cards"]
            count = min(node.get("count", 1), len(cards))
            r = table.send(who, {"type": "Draw", "cards": rng.sample(list(cards), count)})
        assert r.status_code == 201, (node, r.text)
    assert table.get("", None).json()["result"] in RESULTS
    if "cave" in roles:
        assert {"orient", "fill", *(["event-choice"] if "knight" in roles else [])} <= seen_decisions
    else:  # Vast rulebook §Varianti: each turn ends with the player's Dark tile
        assert "shape" in seen_decisions
    assert table.client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True


def test_a_post_games_body_without_ruleset_is_a_mice_and_mystics_game(client):
    mice = ["collin", "filch", "maginos", "nez"]
    body = {"setup": {"chapter": "chapter-1", "mice": mice}, "seats": [{"name": "a", "controls": mice}]}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["game"]["ruleset"] == "mice-and-mystics"


@pytest.mark.fresh_app  # lists the games: an empty store
def test_a_vast_setup_this_release_does_not_play_is_a_422(client):
    r = client.post(
        "/games",
        json={
            "ruleset": "vast",
            "setup": {"roles": ["cave"]},
            "seats": [{"name": "deep", "controls": ["cave"]}],
        },
    )
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert "the Cave cannot be played solo" in detail and "/content/vast/setups" in detail
    assert client.get("/games").json()["games"] == []  # nothing stored


def test_a_vast_game_takes_no_content_pack_and_its_results_are_in_the_schema(client):
    """Vast ships no content packs: ``content_pack`` is no field of its create body (400, nothing stored),
    as the OpenAPI document says; its results (``won:<role>``, ``lost:everyone``) are documented there."""
    body = {
        "ruleset": "vast",
        "setup": {"roles": ["knight", "cave"]},
        "seats": [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}],
    }
    r = client.post("/games", json={**body, "content_pack": {"tiles.json": []}})
    assert r.status_code == 400 and "content_pack" in r.text, r.text
    assert client.get("/games").json()["games"] == []
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    assert "content_pack" not in schemas["NewVastGame"]["properties"]
    assert "content_pack" in schemas["NewMiceAndMysticsGame"]["properties"]
    for name in ("GameSummary", "CommandResult", "StateAt"):
        result = schemas[name]["properties"]["result"]["description"]
        assert "won:<role>" in result and "lost:everyone" in result


def test_vast_content_is_served_under_content_vast(client):
    tiles_served = client.get("/content/vast/tiles").json()
    assert len(tiles_served) == 52 and {"id", "kind", "shape", "symbol"} <= set(tiles_served[0])
    assert len(client.get("/content/vast/cards").json()) == 32
    die = client.get("/content/vast/dragon-die").json()
    assert [f["name"] for f in die if f["center_hit"]] == ["center", "cross", "saltire"]
    setups = client.get("/content/vast/setups").json()
    assert setups[0]["id"] == "knight-vs-cave" and setups[0]["roles"] == ["knight", "cave"]
    assert {s["id"] for s in setups} >= {"knight-goblins-dragon-cave", "dragon-vs-cave"}
    monsters = {m["id"]: m for m in client.get("/content/vast/monsters").json()}
    assert len(monsters) == 10 and monsters["flame-giant"]["ambush_strength"] == 4
    assert monsters["troll"]["ambush_provisional"] and not monsters["blob"].get("ambush_provisional")
    rows = {s["id"]: s for s in setups}
    assert rows["knight-vs-thief"]["variants"] == ["infestation:C", "flare:thief", "crystals:5"]
    assert "Ogre" in rows["knight-solo-hard"]["provisional"]
    powers = {p["power"]: p for p in client.get("/content/vast/powers").json()}
    assert len(powers) == 14 and powers["burn"]["cost"] == ["flame", "wing"] and powers["wrath"]["rolls"]
    served = {r["name"]: r["content"] for r in client.get("/rulesets").json()}
    assert served["vast"] == "/content/vast"


def test_the_mice_and_mystics_table_is_its_rulesets_module_not_the_shells(client):
    tables = {r["name"]: r["table"] for r in client.get("/rulesets").json()}
    assert tables["mice-and-mystics"] == "/web/rulesets/mice-and-mystics/table.js"
    module = client.get(tables["mice-and-mystics"])
    assert module.status_code == 200 and module.headers["content-type"].startswith("text/javascript")
    assert "export function renderTable" in module.text and 'from "./board.js"' in module.text
    assert "/web/rulesets/" not in client.get("/static/js/table.js").text


def test_its_web_table_module_is_served_from_the_ruleset_package(client):
    tables = {r["name"]: r["table"] for r in client.get("/rulesets").json()}
    assert tables["vast"] == "/web/rulesets/vast/vast.js"
    lobbies = {r["name"]: r["lobby"] for r in client.get("/rulesets").json()}
    assert lobbies["vast"] == "/web/rulesets/vast/lobby.js"
    assert "export async function setupForm" in client.get(lobbies["vast"]).text
    module = client.get(tables["vast"])
    assert module.status_code == 200 and module.headers["content-type"].startswith("text/javascript")
    assert "export function renderTable" in module.text
    assert module.headers["content-security-policy"].startswith("default-src 'self'")
    for missing in (
        "/web/rulesets/vast/nothing.js",
        "/web/rulesets/vast/../ruleset.py",
        "/web/rulesets/vast/x.py",
        "/web/rulesets/no-such-game/vast.js",
    ):
        answer = client.get(missing)
        assert answer.status_code == 404, missing
        assert answer.headers["content-type"].startswith("application/problem+json"), missing


def test_the_dragon_die_faces_may_be_named_in_a_roll(client):
    table = VastTable(client, dice_mode="manual", decision_policy="default")
    # Set up by hand: the Cave names the 4 tiles round the Entrance, the Knight her Sidequests, the Cave
    # its hand, and the Event deck's top three come up (rules revision 6).
    for _ in range(20):
        pending = table.get("", "auditor").json()["pending"]
        if pending is None:
            break
        seat = SEAT_OF[pending["piece"]]
        cards = pending["cards"][: pending.get("count", 1)]
        assert table.send(seat, {"type": "Draw", "cards": cards}).status_code == 201
    r = table.send("sir", {"type": "vast.UseFlare", "x": 1, "y": 0})
    assert r.status_code == 201, r.text
    assert table.get("", "sir").json()["pending"]["die"] == "dragon"  # the pending roll names its die
    r = table.send("sir", {"type": "Roll", "faces": ["cross"]})
    assert r.status_code == 201, r.text
    rolled = [
        e
        for e in table.get("/events?limit=1000", "sir").json()["events"]
        if e["payload"]["type"] == "DiceRolled"
    ]
    assert rolled[-1]["payload"]["faces"] == [3]


def test_a_sandbox_table_is_laid_through_the_api_and_a_bad_one_is_a_422(client):
    sandbox = {
        "cells": [{"x": 0, "y": 0, "tile": "entrance"}, {"x": 1, "y": 0, "tile": "crystal-01", "lit": True}],
        "cave": {"hand": ["event-01", "event-02"]},
        "turn": "cave",
        "round": 3,
    }
    body = {"ruleset": "vast", "setup": {"roles": ["knight", "cave"], "sandbox": sandbox}, "seats": SEATS}
    r = client.post("/games", json=body)
    assert r.status_code == 201, r.text
    game_id = r.json()["game"]["id"]
    board = client.get(f"/games/{game_id}/board").json()["board"]
    cells = [(c["x"], c["y"], c["side"]) for c in board["cells"]]
    assert (0, 0, "entrance") in cells and (1, 0, "lit") in cells
    # the laid table's open edges were filled by the Cave at once (Vast rulebook §Tessere Caverna): Dark tiles
    # round
    assert all(side == "dark" for x, y, side in cells if (x, y) not in ((0, 0), (1, 0)))
    assert board["cave_hand"] == ["?", "?"]  # the Cave's hand is its own, even on a laid table
    initiative = client.get(f"/games/{game_id}/initiative").json()["initiative"]
    assert initiative["turn"] == "cave" and initiative["round"] == 3
    bad = {
        **body,
        "setup": {"roles": ["knight", "cave"], "sandbox": {**sandbox, "cells": sandbox["cells"][1:]}},
    }
    r = client.post("/games", json=bad)
    assert r.status_code == 422 and r.json()["rule"] == "setup.sandbox-entrance", r.text


def test_undo_with_every_seats_approval_returns_a_vast_game_to_before_a_command(client):
    """docs/event-model.md, Undo never deletes: the undo is an event; the state comes back as it was."""
    table = VastTable(client, undo_policy="all-seats")
    before = table.get("", None).json()["version"]
    state_before = table.get("/state", "auditor").json()["state"]
    assert table.send("sir", {"type": "vast.PlaceHeroCube", "target": "movement"}).status_code == 201
    assert table.send("sir", {"type": "vast.MoveKnight", "x": 1, "y": 0}).status_code == 201
    r = table.send("sir", {"type": "RequestUndo", "to_version": before})
    assert r.status_code == 201, r.text
    r = table.send("deep", {"type": "ApproveUndo"})
    assert r.status_code == 201, r.text
    assert table.get("/state", "auditor").json()["state"] == state_before
    assert table.client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True


def test_a_running_vast_game_is_forked_only_by_the_auditor_and_gives_no_seat_the_others_secrets(client):
    """A fork of a running game with secrets would hand its forker every seat's token: refused to a seat
    (``fork.secrets-in-play``), allowed to the auditor, whose fork gets a fresh seed and is sealed (the
    auditor's alone) until the original ends."""
    table = VastTable(client)
    version = table.get("", None).json()["version"]
    r = client.post(
        f"/games/{table.id}/forks",
        json={"version": version},
        headers={"Authorization": f"Bearer {table.tokens['sir']}"},
    )
    assert r.status_code == 422 and r.json()["rule"] == "fork.secrets-in-play", r.text
    r = client.post(
        f"/games/{table.id}/forks",
        json={"version": version},
        headers={"Authorization": f"Bearer {table.tokens['auditor']}"},
    )
    assert r.status_code == 201, r.text
    fork = r.json()
    assert fork["tokens"] == []
    assert fork["game"]["dice_commitment"] != table.get("", None).json()["dice_commitment"]
    # sealed while the original runs: no seat claims a place, nobody but the auditor reads it
    fork_url = f"/games/{fork['game']['id']}"
    r = client.post(f"{fork_url}/claims", headers={"Authorization": f"Bearer {table.tokens['sir']}"})
    assert r.status_code == 422 and r.json()["rule"] == "fork.sealed", r.text
    for tail in ("/board", "/events", "/state"):
        assert client.get(fork_url + tail).status_code == 401
        r = client.get(fork_url + tail, headers={"Authorization": f"Bearer {fork['spectator_token']}"})
        assert r.status_code == 403, r.text
        r = client.get(fork_url + tail, headers={"Authorization": f"Bearer {fork['auditor_token']}"})
        assert r.status_code == 200, r.text


def test_difficulty_cards_are_set_at_creation_and_a_level_not_built_is_a_422(client):
    roles = ("knight", "goblins", "dragon", "cave")
    table = VastTable(client, roles, setup={"roles": list(roles), "difficulty": {"knight": 1, "dragon": 2}})
    initiative = table.get("/initiative", "sir").json()["initiative"]
    assert initiative["dragon"]["health"] == 3 and initiative["dragon"]["awake_at"] == 9
    assert initiative["knight"]["max_health"] == 7
    seats = [{"name": SEAT_OF[r], "controls": [r]} for r in roles]
    bad = {"roles": list(roles), "difficulty": {"cave": 5}}
    r = client.post("/games", json={"ruleset": "vast", "setup": bad, "seats": seats})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    assert "cave" in r.json()["detail"]


@pytest.mark.parametrize(
    "seats",
    [
        [{"name": "sir", "controls": ["knight"]}],  # nobody plays the Cave
        [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave", "thief"]}],
        [{"name": "sir", "controls": ["knight", "cave"]}, {"name": "deep", "controls": ["cave"]}],
    ],
)
@pytest.mark.fresh_app  # lists the games: an empty store
def test_a_vast_table_with_a_role_nobody_or_two_seats_play_is_a_422_and_nothing_is_stored(client, seats):
    r = client.post(
        "/games", json={"ruleset": "vast", "setup": {"roles": ["knight", "cave"]}, "seats": seats}
    )
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json"), r.text
    assert r.json()["rule"] == "setup.seat-controls"
    assert client.get("/games").json()["games"] == []
