"""A person plays Vast's Thief through the real REST API against four bots (docs/vast/facts.md §7, 5 players):
the test posts the Thief's commands and decisions over HTTP with a simple scripted policy (Stat tokens, walk
toward Treasure, Loot, Pick Lock, carry it home to stash), the bots (``dicelog.domain.vast.bot``) play the
Knight, Goblins, Dragon and Cave, each reading only its own seat's view, and answer their decisions out of
turn (``decision_policy: ask``). Every read of the Thief's seat is scanned for the others' secrets, computed
from the auditor's view (the Dark tiles he looked at are his to read).

Here the bots are driven from outside, through the same HTTP API a person's client uses (as a table companion
app would); ``tests/api/test_seat_bots.py`` has the server play them (``seats[].bot``)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from dicelog.domain.vast.bot import choose, decide, decode_state
from dicelog.domain.vast.commands import VastCommandUnion
from dicelog.service.http import routes
from tests.api.test_vast_api import VastTable

ROLES = ("knight", "goblins", "dragon", "cave", "thief")
SEAT_OF = {"knight": "sir", "goblins": "horde", "dragon": "wyrm", "cave": "deep", "thief": "me"}
PERSON = "me"
ROUNDS = 12
"""The rounds played at most (a whole 5-player game takes a few hundred commands)."""


class ThiefTable(VastTable):
    """A 5-player game whose Thief is ``me``."""

    def __init__(self, client: Any) -> None:
        self.client = client
        seats = [{"name": SEAT_OF[r], "controls": [r]} for r in ROLES]
        body = {"ruleset": "vast", "setup": {"roles": list(ROLES)}, "seats": seats, "decision_policy": "ask"}
        r = client.post("/games", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        self.id = created["game"]["id"]
        self.tokens = {t["seat"]: t["token"] for t in created["tokens"]}
        self.tokens["auditor"] = created["auditor_token"]
        self.first = "sir"
        self.scanned = 0
        self.checked = 0
        self.leaks: list[str] = []
        self._log: list[dict[str, Any]] = []

    def thief_secrets(self) -> set[str]:
        """What the Thief may not know now: every other role's secrets, less the Dark tiles he looked at."""
        state = self.full_state()
        hidden = self.secrets(PERSON, state)
        return (hidden - set(state["thief"]["peeked"])) | set(state["vaults"])

    def scan_thief(self) -> None:
        self.scan_seat(PERSON, self.thief_secrets(), "the Thief")


def _manhattan(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def person_decides(state: dict[str, Any], pending: dict[str, Any], options: list[str]) -> str:
    """The person's answer: Stat tokens on Thievery on loot, else on Movement; reveal a Treasure Room or
    Vault he looked at; otherwise the default."""
    kind, _, where = pending["decision"].partition(":")
    th = state["thief"]
    here = (th["x"], th["y"])
    if kind == "thief-stats":
        on_loot = any((c["x"], c["y"]) == here and (c["treasure"] or c["vault"]) for c in state["cells"])
        split = {o: tuple(int(v) for v in o.split("-")) for o in options}  # movement, stealth, thievery
        if on_loot:
            return max(options, key=lambda o: (split[o][2], split[o][0]))
        return max(options, key=lambda o: (split[o][0], split[o][2]))
    if kind == "peek":
        cell = next(c for c in state["cells"] if f"{c['x']},{c['y']}" == where)
        return "reveal" if cell["tile"].startswith(("treasure-room", "vault")) else "keep"
    return pending["default"] if pending.get("default") in options else options[0]


def person_plays(state: dict[str, Any], legal: list[dict[str, Any]], visited: set[tuple[int, int]]) -> dict:
    """The person's command: Loot, Pick Lock with 2 cubes, walk toward the nearest Treasure token or Vault
    (home to the Entrance when carrying), look at the Dark tile he stops on, Hide Loot, end the turn."""
    th = state["thief"]
    here = (th["x"], th["y"])
    by_type: dict[str, list[dict[str, Any]]] = {}
    for c in legal:
        by_type.setdefault(c["type"], []).append(c)
    for c in by_type.get("vast.Loot", []):
        if not c.get("gem"):
            return c
    for c in by_type.get("vast.PickLock", []):
        if c["cubes"] == 2:
            return c
    if th["carried"]:
        targets = [(0, 0)]
    else:
        targets = [(c["x"], c["y"]) for c in state["cells"] if c["treasure"] or c["vault"]]
        targets = targets or [(c["x"], c["y"]) for c in state["cells"] if not c["lit"]] or [(0, 0)]
    now = min(_manhattan(here, t) for t in targets)
    moves = [c for c in by_type.get("vast.MoveThief", []) if not c.get("climb")]
    moves = [c for c in moves if (c["x"], c["y"]) not in visited]
    if moves and now > 0:
        best = min(moves, key=lambda c: min(_manhattan((c["x"], c["y"]), t) for t in targets))
        if min(_manhattan((best["x"], best["y"]), t) for t in targets) <= now:
            return best
    if by_type.get("vast.PeekTile"):
        return by_type["vast.PeekTile"][0]
    for c in by_type.get("vast.HideLoot", []):
        if c["cubes"] == 1 and th["carried"]:
            return c
    return by_type["vast.EndTurn"][0]


@pytest.fixture
def fixed_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Server dice from a fixed seed, so the bounded game is the same every run."""
    monkeypatch.setattr(routes, "_new_seed", lambda: bytes(range(32)))


def test_a_person_plays_the_thief_over_rest_against_four_bots(client, fixed_dice):
    table = ThiefTable(client)
    rng = random.Random(5)
    visited: set[tuple[int, int]] = set()
    person_sent = 0
    start = table.get("", None).json()["version"]
    stashed_seen = 0
    for _ in range(3_000):
        game = table.get("", "auditor").json()
        if game["result"] is not None:
            break
        if table.full_state()["round"] > ROUNDS:
            break
        pending = game["pending"]
        deciding = pending is not None and pending["type"] == "DecisionRequested"
        assert pending is None or deciding, pending  # server dice: rolls and draws never wait
        role = pending["piece"] if deciding else game["turn"]
        seat = SEAT_OF[role]
        legal = table.get("/legal-commands", seat).json()
        state = table.get("/state", seat).json()["state"]
        if seat == PERSON:
            table.scan_thief()
            if deciding:
                options = [c["option"] for c in legal["commands"]]
                command: dict[str, Any] = {
                    "type": "Choose",
                    "option": person_decides(state, legal["pending"], options),
                }
            else:
                if state["thief"]["moves"] == 0:
                    visited = set()
                visited.add((state["thief"]["x"], state["thief"]["y"]))
                command = person_plays(state, legal["commands"], visited)
            person_sent += 1
            stashed_seen = max(stashed_seen, state["thief"]["stashed"])
        elif deciding:
            options = [c["option"] for c in legal["commands"]]
            command = {
                "type": "Choose",
                "option": decide(decode_state(state), legal["pending"], options, rng),
            }
        else:
            commands = [msgspec.convert(c, VastCommandUnion) for c in legal["commands"]]
            command = msgspec.to_builtins(choose(decode_state(state), commands, rng))
        r = table.send(seat, command)
        assert r.status_code == 201, (seat, command, r.text)

    assert table.get("", None).json()["version"] > start + 200  # the game went on
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = table.get(f"/events?limit=1000&after={after}", PERSON).json()
        events += page["events"]
        after = page["next_after"]
    mine = [e for e in events if e.get("seat") == PERSON and e["payload"] is not None]
    kinds = {e["payload"]["type"] for e in mine}
    # the loot and stash flow, every step posted over REST by the person's seat
    assert {"vast.ThiefStatsAssigned", "vast.ThiefMoved", "vast.ThiefLooted", "vast.TreasureStashed"} <= kinds
    stashed = table.get("/state", PERSON).json()["state"]["thief"]["stashed"]
    assert stashed >= 1 and stashed >= stashed_seen
    assert person_sent > 30
    assert table.scanned > 100 and table.checked > 1_000
    assert table.leaks == []
    assert table.client.post(f"/games/{table.id}/verify").json()["verification"]["ok"] is True
