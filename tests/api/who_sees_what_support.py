"""Support for ``test_who_sees_what``: secret-hand games played through the real API, the secrets
each audience may not see at each step (computed from the auditor's view, never from the
service's own masking), and a scanner that reads every read path and looks for them.

A card id is secret from a seat at a moment when it is in the deck, or in the hand or face-down
discards of a player the seat does not control, and the seat has never legitimately known it
(held it, drawn it, discarded it, given it or received it by ``hand.Pass``). Played cards are
public. Knowledge only grows, so a view of an older version may be scanned against the secrets
of now. The spectator knows nothing: every hand, discard and deck card is secret from it. The
auditor sees everything (and must never be shown a hidden event). After the end (and, for a
fork, after its original's end too) nothing is secret.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

import anyio
import msgspec
from litestar.testing import TestClient

from dicelog.service.ops.settings import Settings
from dicelog_secret_hand import bot as secret_hand_bot

CARD = re.compile(r"card-\d\d")
HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
RULESETS = ("secret-hand",)
"""The app serves only secret-hand: these tests must not depend on Mice and Mystics."""
PLAYER_POOL = ("ann", "bob", "cat", "dan")
SEAT_POOL = ("red", "blue", "green")
SPECTATOR, AUDITOR, ANONYMOUS = "spectator", "auditor", "anonymous"
"""Audiences besides the seats; ``anonymous`` is a reader without a token (a spectator)."""


def unlimited(settings: Settings) -> Settings:
    """``settings`` without the request quotas (the tests create many games and forks)."""
    off = {
        k: "off"
        for k in ("rate_limit_create", "rate_limit_commands", "rate_limit_expensive")
        if hasattr(settings, k)
    }
    return msgspec.structs.replace(settings, **off)


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def assert_same_export(file: bytes, document: bytes) -> dict[str, Any]:
    """An export's two forms hold the same export: the JSON document (``Accept: application/json``) is the
    file's header line (without its event count) with the file's event lines, in order, as ``events``.
    Returns the document."""
    lines = [json.loads(line) for line in file.splitlines() if line.strip()]
    header, events = lines[0], lines[1:]
    doc = json.loads(document)
    assert header.pop("events") == len(events) == len(doc["events"]), (header, len(events))
    assert {k: v for k, v in doc.items() if k != "events"} == header, (doc.get("format"), header)
    assert doc["events"] == events, "the JSON export's events differ from the file's lines"
    return dict(doc)


# --- counting ----------------------------------------------------------------------------------


class Tally:
    """What the scans saw: responses scanned, secret ids checked, leaks (with where and what)."""

    def __init__(self) -> None:
        self.responses = 0
        self.ids_checked = 0
        self.leaks: list[dict[str, Any]] = []
        self.by_path: Counter[str] = Counter()
        self.games = 0
        self.steps = 0
        self.oracle_checks = 0
        self.events: Counter[str] = Counter()
        """Types of the events played (as the auditor saw them): what the games exercised."""
        self.hidden_stubs = 0
        self.masked_cards = 0
        """Hidden event stubs and masked cards (``"?"``) shown to seats and spectators."""

    def check(
        self, text: str, secret: Iterable[str], *, where: str, audience: str, sent: Iterable[str] = ()
    ) -> None:
        """Scan ``text`` (a whole raw response, SSE body or stream entry) for ``secret`` ids."""
        secret = set(secret) - set(sent)
        self.responses += 1
        self.ids_checked += len(secret)
        self.by_path[where] += 1
        self.hidden_stubs += text.count('"hidden":true') + text.count('"hidden": true')
        self.masked_cards += text.count('"?"')
        found = sorted(set(CARD.findall(text)) & secret)
        if found:
            at = text.find(found[0])
            self.leaks.append(
                {
                    "where": where,
                    "audience": audience,
                    "ids": found,
                    "excerpt": text[max(0, at - 300) : at + 200],
                }
            )

    def leak(self, where: str, audience: str, what: str, excerpt: str = "") -> None:
        """A leak found by a structural check (a hidden stub with a payload, a seed shown early...)."""
        self.leaks.append({"where": where, "audience": audience, "ids": [what], "excerpt": excerpt[:500]})

    def add(self, other: Tally) -> None:
        self.responses += other.responses
        self.ids_checked += other.ids_checked
        self.leaks += other.leaks
        self.by_path.update(other.by_path)
        self.games += other.games
        self.steps += other.steps
        self.oracle_checks += other.oracle_checks
        self.events.update(other.events)
        self.hidden_stubs += other.hidden_stubs
        self.masked_cards += other.masked_cards

    def counts(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "steps": self.steps,
            "responses_scanned": self.responses,
            "secret_ids_checked": self.ids_checked,
            "oracle_checks": self.oracle_checks,
            "leaks": len(self.leaks),
            "hidden_stubs_seen": self.hidden_stubs,
            "masked_cards_seen": self.masked_cards,
            "events_played": dict(sorted(self.events.items())),
            "responses_by_path": dict(sorted(self.by_path.items())),
        }


# --- server-sent events ------------------------------------------------------------------------


def _complete_ids(text: str) -> list[int]:
    """The ``id`` of every complete (blank-line terminated) server-sent event in ``text``."""
    blocks = text.replace("\r\n", "\n").split("\n\n")[:-1]
    ids = []
    for block in blocks:
        for line in block.split("\n"):
            if line.startswith("id:"):
                ids.append(int(line[3:].strip()))
    return ids


def sse_events(text: str) -> list[dict[str, str]]:
    """The events of an SSE body: ``{"event", "id", "data"}`` per event."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            name, sep, value = line.partition(":")
            if sep and name:
                fields[name] = fields.get(name, "") + value.removeprefix(" ")
        if fields:
            events.append(fields)
    return events


async def _read_live_sse(app: Any, scope: dict[str, Any], upto: int, seconds: float) -> tuple[int, str]:
    """Call the ASGI app for a running game's stream, collect it until event ``upto`` is
    complete, then disconnect (the test client would wait for a stream that never ends)."""
    done = anyio.Event()
    chunks: list[bytes] = []
    status = [0]
    asked = [False]

    async def receive() -> dict[str, Any]:
        if not asked[0]:
            asked[0] = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            ids = _complete_ids(b"".join(chunks).decode())
            if not message.get("more_body", False) or (ids and max(ids) >= upto):
                done.set()

    with anyio.move_on_after(seconds):
        await app(scope, receive, send)
    done.set()
    return status[0], b"".join(chunks).decode()


def read_live_stream(
    client: TestClient[Any], path: str, token: str | None, upto: int, last_event_id: int | None = None
) -> tuple[int, str]:
    """``GET path`` (a game's ``/stream``) as a real ASGI request through the test client's event
    loop, read until the event with id ``upto``; returns (status, raw body)."""
    headers = [(b"host", b"testserver.local"), (b"accept", b"text/event-stream")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if last_event_id is not None:
        headers.append((b"last-event-id", str(last_event_id).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("testclient", 50000),
        "server": ("testserver.local", 80),
        "extensions": {},
    }
    return client.blocking_portal.call(_read_live_sse, client.app, scope, upto, 15.0)


def read_ended_stream(client: TestClient[Any], path: str, token: str | None) -> tuple[int, str]:
    """The whole stream of an ended game (it ends after ``GameEnded``), line by line."""
    lines = []
    with client.stream("GET", path, headers=bearer(token)) as response:
        for line in response.iter_lines():
            lines.append(line)
        status = response.status_code
    return status, "\n".join(lines)


# --- a game through the API ----------------------------------------------------------------------


def random_config(rng: random.Random) -> dict[str, Any]:
    """A random table: 2-4 players shared among 2-3 seats, hand size, rounds, policies."""
    players = list(PLAYER_POOL[: rng.randint(2, 4)])
    seat_count = rng.randint(2, min(3, len(players)))
    order = players[:]
    rng.shuffle(order)
    controls: list[list[str]] = [[p] for p in order[:seat_count]]
    for p in order[seat_count:]:
        rng.choice(controls).append(p)
    hand_size = rng.randint(2, min(4, 24 // len(players)))
    return {
        "players": players,
        "seats": [{"name": SEAT_POOL[i], "controls": c} for i, c in enumerate(controls)],
        "hand_size": hand_size,
        "rounds": rng.randint(2, min(hand_size, 3)),
        "decision_policy": rng.choice(["ask", "default"]),
        "visibility": rng.choice(["public", "unlisted", "private"]),
        "undo_policy": rng.choice(["none", "all-seats"]),
    }


class HandTable:
    """One secret-hand game through the API, with every audience's token and the truth (the
    auditor's view) needed to know what each audience may not see."""

    def __init__(
        self,
        client: TestClient[Any],
        tally: Tally,
        created: dict[str, Any],
        config: dict[str, Any],
        *,
        origin: HandTable | None = None,
    ) -> None:
        self.client, self.tally, self.config, self.origin = client, tally, config, origin
        self.game = created["game"]
        self.id: str = self.game["id"]
        self.tokens: dict[str, str | None] = {t["seat"]: t["token"] for t in created["tokens"]}
        self.tokens[SPECTATOR] = created.get("spectator_token")
        self.tokens[AUDITOR] = created.get("auditor_token")
        self.tokens[ANONYMOUS] = None
        self.seats = [s["name"] for s in self.game["seats"]]
        self.controls = {s["name"]: set(s["controls"]) for s in self.game["seats"]}
        self.owner = {p: s for s, ps in self.controls.items() for p in ps}
        self.known: dict[str, set[str]] = {s: set() for s in self.seats}
        self.public: set[str] = set()
        """Cards ever played face up: public, even when an undo took the play back."""
        self.events: list[dict[str, Any]] = []
        self.truth: dict[str, Any] = {}
        self.history: list[tuple[int, dict[str, frozenset[str]]]] = []
        self.hex_seen: set[str] = set()
        self.keyed: list[tuple[str, str, dict[str, Any], bytes]] = []
        self.undo_open = False
        self.step_count = 0
        self.on_step: Any = None
        """Called after each accepted command (and the truth's refresh): the scans of a step."""
        self.rewrite: Any = None
        """``rewrite(seat, command) -> command``: lets a test script a bot's choice."""

    # creating ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls, client: TestClient[Any], tally: Tally, config: dict[str, Any], dice_mode: str
    ) -> HandTable:
        body = {
            "ruleset": "secret-hand",
            "setup": {k: config[k] for k in ("players", "hand_size", "rounds")},
            "seats": config["seats"],
            "dice_mode": dice_mode,
            "decision_policy": config.get("decision_policy", "ask"),
            "undo_policy": config.get("undo_policy", "none"),
            "visibility": config.get("visibility", "unlisted"),
        }
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        table = cls(client, tally, r.json(), config)
        tally.games += 1
        table.refresh()
        # The creation's answer (the first seat's view of the dealt game) is a read path too.
        table.scan(r.text, table.seats[0], "POST /games")
        return table

    # requests ---------------------------------------------------------------------------------

    def url(self, tail: str = "") -> str:
        return f"/games/{self.id}{tail}"

    def get(self, tail: str, audience: str, **params: Any) -> Any:
        return self.client.get(self.url(tail), params=params or None, headers=bearer(self.tokens[audience]))

    def post(self, tail: str, audience: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        headers = {**bearer(self.tokens[audience]), **(headers or {})}
        return self.client.post(self.url(tail), json=body, headers=headers)

    def send(self, seat: str, command: dict[str, Any], key: str | None = None, **extra: Any) -> Any:
        headers = {"Idempotency-Key": key} if key else None
        return self.post("/commands", seat, {"command": command, **extra}, headers)

    # the truth --------------------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        return self.truth["state"]

    @property
    def version(self) -> int:
        return int(self.truth["version"])

    @property
    def ended(self) -> bool:
        return self.truth.get("result") is not None

    def turn_piece(self) -> str | None:
        s = self.state
        return s["players"][s["turn"]] if s["phase"] == "play" else None

    def revealed(self) -> bool:
        """Whether everything is public: the game ended (and so did a fork's original)."""
        return self.ended and (self.origin is None or self.origin.revealed())

    def refresh(self) -> None:
        """Read the truth as the auditor (who must see everything) and update who knows what."""
        r = self.get("/state", AUDITOR)
        assert r.status_code == 200, r.text
        self.truth = r.json()
        self.collect_hex(r.text)
        if "?" in json.dumps(self.truth):
            self.tally.leak("GET /state", AUDITOR, "auditor shown a masked card", r.text)
        r = self.get("/events", AUDITOR, after=len(self.events), limit=1000)
        assert r.status_code == 200, r.text
        self.collect_hex(r.text)
        for event in r.json()["events"]:
            if event["hidden"]:
                what = f"auditor shown hidden v{event['version']}"
                self.tally.leak("GET /events", AUDITOR, what, json.dumps(event))
            self.events.append(event)
            self.tally.events[event["type"]] += 1
            self.learn(event)
        assert [e["version"] for e in self.events] == list(range(1, self.version + 1))
        for seat, pieces in self.controls.items():
            for p in pieces:
                self.known[seat] |= set(self.state["hands"].get(p, ()))
                self.known[seat] |= set(self.state["discards"].get(p, ()))
        self.history.append((self.version, {a: self.secret(a) for a in self.audiences()}))

    def learn(self, event: dict[str, Any]) -> None:
        """What an event (as the auditor sees it) makes known to which seat."""
        payload = event["payload"]
        kind = payload["type"]
        if kind == "CardPlayed":
            self.public.add(payload["card"])
        elif kind == "CardPassed":
            for piece in (payload["player"], payload["to"]):
                self.known[self.owner[piece]].add(payload["card"])
        elif kind == "CardsDrawn":
            player = payload["reason"].partition(":")[2]
            self.known[self.owner[player]] |= set(payload["cards"])
        elif kind == "DecisionRequested" and payload["decision"].startswith("discard:"):
            self.known[self.owner[payload["piece"]]] |= set(payload["options"])
        elif kind == "CardDiscarded":
            self.known[self.owner[payload["player"]]].add(payload["card"])
        elif kind == "CommandAccepted" and event["seat"] in self.known:
            self.known[event["seat"]] |= set(CARD.findall(json.dumps(payload["command"])))

    def audiences(self) -> list[str]:
        return [*self.seats, SPECTATOR, AUDITOR]

    def secret(self, audience: str) -> frozenset[str]:
        """The card ids ``audience`` may not see now."""
        if audience == AUDITOR or self.revealed():
            return frozenset()
        pieces = self.controls.get(audience, set())
        s = self.state
        cards = set(s["deck"])
        for player, hand in s["hands"].items():
            if player not in pieces:
                cards |= set(hand)
        for player, down in s["discards"].items():
            if player not in pieces:
                cards |= set(down)
        return frozenset(cards - self.known.get(audience, set()) - set(s["played"]) - self.public)

    def secret_at(self, version: int, audience: str) -> frozenset[str]:
        """The secrets of ``audience`` right after the command that wrote ``version`` (for views
        written then and never revealed since, like the Redis streams). Within one command an
        event may only show less than the end of the command makes known: knowledge grows."""
        audience = SPECTATOR if audience == ANONYMOUS else audience
        for at, secrets in self.history:
            if at >= version:
                return secrets[audience]
        return self.history[-1][1][audience]

    def collect_hex(self, text: str) -> None:
        """Remember every 64-hex string shown before the end (the seed must not be one)."""
        if not self.ended:
            self.hex_seen |= set(HEX64.findall(text))

    def scan(self, text: str, audience: str, where: str, sent: Iterable[str] = ()) -> None:
        reader = SPECTATOR if audience == ANONYMOUS else audience
        self.tally.check(text, self.secret(reader), where=where, audience=audience, sent=sent)
        self.collect_hex(text)
        if audience != AUDITOR and not self.revealed() and '"nonce"' in text:
            self.tally.leak(where, audience, "an event nonce (salt of a chain hash)", text)

    def scan_events(self, body: dict[str, Any], audience: str, where: str) -> None:
        """Structural checks of an event list: a hidden event is a stub; the auditor sees all."""
        for event in body.get("events", []):
            if event["hidden"] and (audience == AUDITOR or event["payload"] is not None):
                self.tally.leak(
                    where,
                    audience,
                    f"v{event['version']} hidden but not a stub for {audience}",
                    json.dumps(event),
                )

    # reading every path -----------------------------------------------------------------------

    def read(self, audience: str, *, full: bool, rng: random.Random) -> None:
        """Read the read paths as ``audience`` and scan each answer (``full``: every path, else
        the cheap ones)."""
        token = self.tokens[audience]
        paths: list[tuple[str, str, dict[str, Any]]] = [
            ("GET /games/{id}", "", {}),
            ("GET /state", "/state", {}),
            ("GET /events", "/events", {"limit": 1000}),
            ("GET /board", "/board", {}),
            ("GET /initiative", "/initiative", {}),
        ]
        if audience in self.controls:
            paths.append(("GET /legal-commands", "/legal-commands", {}))
        if full:
            paths += [
                ("GET /state?version", "/state", {"version": rng.randint(1, self.version)}),
                ("GET /dice", "/dice", {}),
                ("GET /log", "/log", {"limit": 1000}),
                ("GET /export", "/export", {}),
                ("GET /events?after", "/events", {"after": rng.randint(0, self.version - 1)}),
                ("GET /events?type", "/events", {"type": rng.choice(self.events)["type"], "limit": 1000}),
                ("GET /events?seat", "/events", {"seat": rng.choice(self.seats), "limit": 1000}),
            ]
            turns = sum(e["type"] == "TurnStarted" for e in self.events)
            rounds = sum(e["type"] == "RoundStarted" for e in self.events)
            for n in {turns, rng.randint(1, max(turns, 1))} if turns else ():
                paths.append(("GET /turns/{n}", f"/turns/{n}", {}))
            for n in {rounds, rng.randint(1, max(rounds, 1))} if rounds else ():
                paths.append(("GET /rounds/{n}", f"/rounds/{n}", {}))
        log: list[dict[str, Any]] = []
        for where, tail, params in paths:
            r = self.client.get(self.url(tail), params=params or None, headers=bearer(token))
            assert r.status_code == 200, (where, audience, r.status_code, r.text)
            self.scan(r.text, audience, where)
            if where == "GET /events":
                log = r.json()["events"]
            if where == "GET /export":  # its typed JSON form: the same export, scanned as well
                typed = self.client.get(
                    self.url(tail), headers={**bearer(token), "Accept": "application/json"}
                )
                assert typed.status_code == 200, (audience, typed.status_code, typed.text)
                assert typed.headers["content-type"].startswith("application/json"), typed.headers
                self.scan(typed.text, audience, "GET /export (JSON)")
                assert_same_export(r.content, typed.content)
            if tail == "/events" or tail.startswith(("/turns/", "/rounds/")):
                self.scan_events(r.json(), audience, where)
        if not full:
            return
        r = self.client.get("/games", params={"limit": 200}, headers=bearer(token))
        assert r.status_code == 200, r.text
        listed = {g["id"] for g in r.json()["games"]}
        assert (self.id in listed) == (self.config.get("visibility") == "public" or token is not None)
        self.scan(r.text, audience, "GET /games")
        r = self.client.post(self.url("/verify"), headers=bearer(token))
        assert r.status_code == 200 and r.json()["verification"]["ok"], r.text
        self.scan(r.text, audience, "POST /verify")
        start = rng.choice([None, rng.randint(0, self.version - 1)])
        status, text = read_live_stream(self.client, self.url("/stream"), token, self.version, start)
        assert status == 200, text
        ids = [int(e["id"]) for e in sse_events(text) if "id" in e]
        assert ids == list(range((start or 0) + 1, self.version + 1)), ids
        self.scan(text, audience, "GET /stream (live)")
        streamed = [json.loads(e["data"]) for e in sse_events(text) if "data" in e]
        self.scan_events({"events": streamed}, audience, "GET /stream (live)")
        # the live channel carries each event exactly as GET /events shows it (round and undone too)
        assert streamed == log[start or 0 :], (audience, streamed[:2], log[(start or 0) : (start or 0) + 2])

    def read_all(self, *, full: bool, rng: random.Random) -> None:
        for audience in [*self.seats, SPECTATOR]:
            self.read(audience, full=full, rng=rng)
        if self.config.get("visibility") != "private":
            self.read(ANONYMOUS, full=full, rng=rng)

    # probing errors ---------------------------------------------------------------------------

    def probe(self, seat: str, rng: random.Random) -> None:
        """Commands a rule refuses, sent by ``seat``: every problem+json body is scanned (minus
        the ids the request itself named), and a refusal reads the same wherever the card is."""
        s = self.state
        pieces = sorted(self.controls[seat])
        piece = self.turn_piece() if self.turn_piece() in pieces else rng.choice(pieces)
        hand = list(s["hands"][piece])
        probes: list[dict[str, Any]] = []
        assert not self.undo_open
        elsewhere = {
            "deck": sorted(s["deck"]),
            "hand": sorted(c for p, h in s["hands"].items() if p not in self.controls[seat] for c in h),
            "discard": sorted(c for p, d in s["discards"].items() if p not in self.controls[seat] for c in d),
            "played": sorted(s["played"]),
        }
        refusals: dict[str, str] = {}
        for where, cards in elsewhere.items():
            if not cards:
                continue
            card = rng.choice(cards)
            for command in (
                {"type": "hand.Play", "player": piece, "card": card},
                {
                    "type": "hand.Pass",
                    "player": piece,
                    "card": card,
                    "to": rng.choice([p for p in s["players"] if p != piece]),
                },
            ):
                r = self.send(seat, command)
                assert r.status_code in (403, 409, 422), (command, r.status_code, r.text)
                assert r.headers["content-type"].startswith("application/problem+json"), r.headers
                self.scan(r.text, seat, f"problem {r.status_code} {command['type']}", sent=[card])
                refusals.setdefault(command["type"], "")
                same = r.text.replace(card, "card-XX")
                if refusals[command["type"]] and refusals[command["type"]] != same:
                    self.tally.leak(
                        "problem+json",
                        seat,
                        f"refusal differs for a card in the {where}",
                        f"{refusals[command['type']]}\n---\n{same}",
                    )
                refusals[command["type"]] = same
                self.tally.oracle_checks += 1
        pending = self.truth.get("pending")
        if hand:
            probes.append({"type": "hand.Pass", "player": piece, "card": rng.choice(hand), "to": piece})
        probes += [{"type": "Choose", "option": "nope"}, {"type": "Draw", "cards": ["nope"]}]
        for command in probes:
            r = self.send(seat, command)
            assert r.status_code in (403, 409, 422), (command, r.status_code, r.text)
            assert r.headers["content-type"].startswith("application/problem+json"), r.headers
            named = CARD.findall(json.dumps(command))
            self.scan(r.text, seat, f"problem {r.status_code} {command['type']}", sent=named)
        if pending is None and hand:  # legal now, perhaps, but stale: 409 whatever the rules say
            command = {"type": "hand.Discard", "player": piece}
            r = self.send(seat, command, expected_version=self.version - 1)
            assert r.status_code in (403, 409), (command, r.status_code, r.text)
            self.scan(r.text, seat, f"problem {r.status_code} stale {command['type']}")
        if self.keyed:
            key_seat, key, command, first = rng.choice(self.keyed)
            r = self.send(key_seat, command, key)
            assert r.status_code == 201 and r.content == first, (r.status_code, r.text)
            self.scan(r.text, key_seat, "idempotent replay")

    # playing ----------------------------------------------------------------------------------

    def legal(self, seat: str) -> dict[str, Any]:
        r = self.get("/legal-commands", seat)
        assert r.status_code == 200, r.text
        self.scan(r.text, seat, "GET /legal-commands")
        return r.json()

    def next_command(self, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
        """(seat, command) a bot plays next, chosen among the legal commands the API lists for
        the seat, or the answer to the pending draw or decision (``None`` after the end)."""
        if self.ended:
            return None
        pending = self.truth.get("pending")
        if pending is not None:
            seat = self.owner[pending["piece"]]
            legal = self.legal(seat)
            assert legal["pending_seat"] == seat, legal
            # a pending decision is listed as one ready-to-send Choose per option; a draw is not
            listed = [{"type": "Choose", "option": o} for o in pending.get("options", ())]
            assert legal["commands"] == (listed if pending["type"] == "DecisionRequested" else []), legal
            if pending["type"] == "DrawRequested":
                deck = self.state["deck"]  # the physical deck: the bot draws from it blind
                count = min(pending.get("count", 1), len(deck))
                return seat, {"type": "Draw", "cards": rng.sample(deck, count)}
            shown = legal["pending"]
            assert shown["options"] == pending["options"], (shown, pending)  # its own piece: not masked
            return seat, {"type": "Choose", "option": rng.choice(shown["options"])}
        choices = {seat: self.legal(seat)["commands"] for seat in self.seats}
        acting = [seat for seat, commands in choices.items() if commands]
        assert len(acting) == 1, choices
        seat = acting[0]
        if self.config.get("undo_policy") == "all-seats" and rng.random() < 0.12:
            boundaries = self.command_boundaries()
            if boundaries:
                return seat, {"type": "RequestUndo", "to_version": rng.choice(boundaries)}
        by_type: dict[str, list[dict[str, Any]]] = {}
        for command in choices[seat]:
            by_type.setdefault(command["type"], []).append(command)
        # A random legal command, its type first (else a Pass, having the most variants, wins).
        return seat, secret_hand_bot.choose(by_type[rng.choice(sorted(by_type))], rng)

    def command_boundaries(self) -> list[int]:
        """Versions right before a player's command (where an undo or a fork may go)."""
        return [
            e["version"] - 1
            for e in self.events
            if e["type"] == "CommandAccepted" and e["seat"] in self.controls and e["version"] > 1
        ]

    def play_step(self, rng: random.Random) -> bool:
        """One command by a bot (and the answers to an undo request it opens); ``False`` when the
        game had already ended."""
        chosen = self.next_command(rng)
        if chosen is None:
            return False
        seat, command = chosen
        if self.rewrite is not None:
            command = self.rewrite(seat, command)
        self.command(seat, command, rng)
        if command["type"] == "RequestUndo" and self.undo_open:
            for other in self.seats:
                if other != seat and self.undo_open:
                    answer = "ApproveUndo" if rng.random() < 0.8 else "RejectUndo"
                    self.command(other, {"type": answer}, rng)
            assert not self.undo_open
        return True

    def command(self, seat: str, command: dict[str, Any], rng: random.Random) -> None:
        key = f"k-{self.step_count}-{rng.randrange(10**9)}" if rng.random() < 0.25 else None
        r = self.send(seat, command, key)
        assert r.status_code == 201, (seat, command, r.status_code, r.text)
        self.step_count += 1
        self.tally.steps += 1
        types = [e["type"] for e in r.json()["events"]]
        if "UndoRequested" in types:
            self.undo_open = True
        if "UndoApplied" in types or "UndoRejected" in types:
            self.undo_open = False
        self.refresh()
        self.scan(r.text, seat, "POST /commands (answer)")
        self.scan_events(r.json(), seat, "POST /commands (answer)")
        if key is not None:
            again = self.send(seat, command, key)
            assert again.status_code == 201 and again.content == r.content, again.text
            self.scan(again.text, seat, "idempotent replay")
            self.keyed.append((seat, key, command, r.content))
        if self.on_step is not None:
            self.on_step()
