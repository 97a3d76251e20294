"""A Vast game as people play it (issue 32): created from the lobby with the five roles (the Knight and the
Cave two people, each in a browser context of their own; the Goblins, the Dragon and the Thief server bots;
every choice the rules leave to the players asked), then played by clicking only until the game ends: a
target on the cave, a tile of the Cave's hand then an open place, a button of the action bar, a decision's
option. What the two people click is chosen as a person could choose it, from their own page's view: the
rules of the seat bots (``dicelog.domain.vast.bot``: the Knight heads for the best goal in reach, Crystals,
Treasure, the Dragon; the Cave lays Crystal tiles far from her), read from the seat's own state and legal
commands; the test then finds that command on the page and clicks it, and never sends one for them. At each
step every command and option the seat may play has its control on the page, not only the one played. After
each step neither page shows what its seat may not know (the strings ``Demo.secrets`` names from the
auditor's state, by id and by printed name). axe-core finds nothing serious or critical on the lobby and on
both tables; at 390x844 nothing scrolls sideways, the action bar is on the screen and its tap targets are
at least 24 px."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any
from uuid import UUID

import httpx
import msgspec
import pytest

from dicelog.domain.vast.bot import choose, decide, decode_state
from dicelog.domain.vast.commands import VastCommandUnion
from dicelog.domain.vast.demo import secrets
from dicelog.service.app import games as games_module
from dicelog.service.http import routes
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.browser.support import OUTSIDE_ITS_TILE, SIDEWAYS, SMALL_TARGETS, axe_violations, ready

PHONE_AT = 10
"""After this many clicks (the game going on), the two tables and the lobby are opened on a phone."""
CLICKS = 800
"""The most clicks the two people may make before the test calls the game stuck. Measured with the same
policies in the domain (30 games of the 5-role row, decisions asked, server dice, seeds 1-30): the people's
commands plus one click per tile picked from the hand took 33 to 314 clicks (median 77); the Thief won 22 of
them, the Goblins 4, the Dragon 3, the Knight 1 (``play_game``'s loop of tests/property/test_vast_games.py
with ``decision_policy: ask``, each decision answered by the bots' ``decide``)."""
SEED = bytes(range(32))
"""The game's dice seed (server dice): with the game id (``GAME_IDS``) and the people's seeds, every run plays
the same game."""
GAME_IDS = 32
"""The seed of the ids the service gives the game (the bots' tie-breaks are seeded by the game id and version,
``dicelog.service.app.seat_bots.bot_rng``) and its first commands while it is created."""
PLACE = re.compile(r"^-?\d+,-?\d+$")
CONTROLS = """() => ({
  buttons: [...document.querySelectorAll('#controls button.command')].map((b) => b.dataset.command),
  targets: [...document.querySelectorAll('.vast-map .target')].map((t) => `${t.dataset.x},${t.dataset.y}`),
  tiles: [...document.querySelectorAll('#controls .hand-pick')].map((b) => b.dataset.tile),
  options: [...document.querySelectorAll('#controls .option')].map((b) => b.dataset.option),
})"""
"""What a seat's page offers to click now: the action bar's commands, the places ringed on the cave, the
tiles of the Cave's hand to place, a decision's options."""


def create_from_the_lobby(page: Any, base: str) -> dict[str, str]:
    page.goto(f"{base}/")
    ready(page)
    page.select_option("#ruleset", "vast")
    page.wait_for_selector("#vast-row")
    page.select_option("#vast-row", "knight-goblins-dragon-cave-thief")
    for role in ("goblins", "dragon", "thief"):
        page.select_option(f"#vast-who-{role}", "bot")
    page.select_option("#decision", "ask")  # every choice the rules leave to a player is the person's
    page.fill("#vast-seat-knight", "Sir Knight")  # refused: a seat name is lowercase
    page.click("#create-game")
    error = page.locator("#vast-seat-knight-error")
    error.wait_for()
    assert "seat name" in error.inner_text(), "the refusal is shown next to the Knight's seat name"
    screenshot(page, "vast-lobby-refused")
    page.fill("#vast-seat-knight", "sir")
    page.click("#create-game")
    page.wait_for_selector("#created .seat-link")
    screenshot(page, "vast-lobby-created")
    return {a.inner_text(): a.get_attribute("href") or "" for a in page.locator("#created a.join").all()}


def names_of(base: str) -> dict[str, str]:
    """Card and Monster id -> printed name (a page names cards by their names)."""
    out: dict[str, str] = {}
    for path in ("cards", "monsters"):
        for item in httpx.get(f"{base}/content/vast/{path}").json():
            out[item["id"]] = item["name"]
    return out


def leaks(page: Any, hidden: set[str], names: dict[str, str]) -> list[str]:
    html = page.content()
    by_id = [s for s in hidden if f'"{s}"' in html or f">{s}<" in html]
    by_name = [s for s in hidden if s in names and f">{names[s]}<" in html]
    return sorted(by_id + by_name)


class Person:
    """One of the two people: their page, their seat's token, and how they choose what to click (the seat
    bot's rules, reading only what their own seat reads through the API)."""

    def __init__(self, role: str, page: Any, base: str, game_id: str, link: str, seed: int) -> None:
        self.role = role
        self.page = page
        self.http = httpx.Client(base_url=f"{base}/games/{game_id}", timeout=60)
        self.http.headers["Authorization"] = f"Bearer {link.split('token=')[1]}"
        self.rng = random.Random(seed)
        self.clicks = 0
        self.kinds: dict[str, int] = {}
        self.sent = 0
        self.legal: dict[str, Any] = {}

    def unreachable(self) -> list[Any]:
        """What the seat may play now (``self.legal``, as ``choice`` read it) that its page offers no control
        for: a decision's option without its button, a command neither ringed on the cave (or a tile of the
        hand, for a tile to place) nor a button of the action bar."""
        shown = self.page.evaluate(CONTROLS)
        pending = self.legal["pending"]
        if pending is not None:
            return sorted(set(pending["options"]) - set(shown["options"]))
        buttons = [json.loads(b) for b in shown["buttons"]]
        missing = []
        for c in self.legal["commands"]:
            if c["type"] == "vast.PlaceTile":
                reached = c["tile"] in shown["tiles"]
            elif on_the_cave(c):
                reached = f"{c['x']},{c['y']}" in shown["targets"]
            else:
                reached = c in buttons
            if not reached:
                missing.append(c)
        return missing

    def choice(self) -> tuple[str, Any] | None:
        """What this person plays now: ``("choose", option)`` for a decision asked of their seat,
        ``("command", command)`` (as ``legal-commands`` lists it) on their move, ``None`` when it is not
        their move."""
        legal = self.legal = self.http.get("/legal-commands").raise_for_status().json()
        pending = legal["pending"]
        if pending is not None:
            if pending["type"] != "DecisionRequested" or legal["pending_seat"] not in (None, legal["seat"]):
                return None
            view = decode_state(self.http.get("/state").raise_for_status().json()["state"])
            return "choose", decide(view, pending, pending["options"], self.rng)
        if not legal["commands"]:
            return None
        view = decode_state(self.http.get("/state").raise_for_status().json()["state"])
        commands = [msgspec.convert(c, VastCommandUnion) for c in legal["commands"]]
        chosen = choose(view, commands, self.rng)
        return "command", legal["commands"][commands.index(chosen)]

    def click(self, what: tuple[str, Any], legal: list[dict[str, Any]]) -> None:
        """Play ``what`` by clicking, as a person would; one command is sent."""
        kind, value = what
        page = self.page
        if kind == "choose":
            if PLACE.match(value):  # a place of the cave: its highlighted tile
                x, y = value.split(",")
                ringed = page.locator(f".vast-map .target[data-x='{x}'][data-y='{y}']")
                self.press(ringed, "option on the cave")
            else:
                self.press(page.locator(f"#controls .option[data-option='{value}']"), "option button")
            return
        if value["type"] == "vast.PlaceTile":  # a tile of the hand, then an open place
            self.press(page.locator(f"#controls .hand-pick[data-tile='{value['tile']}']"), "tile of the hand")
            page.locator("#controls .hand-pick.chosen").wait_for()
        if on_the_cave(value):
            x, y = value["x"], value["y"]
            self.press(page.locator(f".vast-map .target[data-x='{x}'][data-y='{y}']"), "place on the cave")
            here = [c for c in legal if on_the_cave(c) and (c["x"], c["y"]) == (x, y)]
            if value["type"] == "vast.PlaceTile":
                here = [c for c in here if c["type"] == "vast.PlaceTile" and c["tile"] == value["tile"]]
            if len(here) > 1:  # several things to do there: the choice box names them
                self.press(button_of(page.locator(".vast-choice button.command"), value), "choice at a place")
        else:
            self.press(button_of(page.locator("#controls button.command"), value), "action-bar button")

    def press(self, locator: Any, kind: str) -> None:
        assert locator.count() == 1, f"the {self.role}'s page offers {locator} {locator.count()} times"
        locator.click()
        self.clicks += 1
        self.kinds[kind] = self.kinds.get(kind, 0) + 1


def on_the_cave(command: dict[str, Any]) -> bool:
    """A command played on the cave (it names a place), as the table module draws it (``onTheCave``)."""
    if command.get("x") is None:
        return False
    return command["type"] != "vast.CrystalCurse" or command["effect"] in ("rotate", "event-token")


def button_of(buttons: Any, command: dict[str, Any]) -> Any:
    """The button among ``buttons`` that sends ``command``."""
    found = [b for b in buttons.all() if json.loads(b.get_attribute("data-command") or "null") == command]
    assert len(found) == 1, f"{len(found)} buttons send {command}"
    return found[0]


def settled(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v && !document.body.dataset.busy",
        arg=version,
        timeout=30_000,
    )


def events_of(base: str, game_id: str, audit: dict[str, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    after = 0
    while True:
        query = {"after": after, "limit": 1000}
        page = httpx.get(f"{base}/games/{game_id}/events", headers=audit, params=query, timeout=60).json()
        out.extend(page["events"])
        if page["next_after"] is None:
            return out
        after = page["next_after"]


# Slow: a whole game in Chromium (two pages refreshed and scanned after every click), minutes on a busy
# machine; the browser folder is in the slow profile anyway (tests/conftest.py).
@pytest.mark.slow
def test_a_five_role_game_from_the_lobby_played_by_clicking_to_its_end(
    live: str, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = time.monotonic()
    people = {
        "knight": browser.new_context(viewport={"width": 1300, "height": 1000}),
        "cave": browser.new_context(viewport={"width": 1300, "height": 1000}),
    }
    lobby = people["knight"].new_page()
    assert axe_violations_after(lobby, live) == []
    # the same game every run: the service's random sources fixed while the lobby creates it (the server runs
    # in this process), the people's choices seeded (``Person``)
    with monkeypatch.context() as fixed:
        ids = random.Random(GAME_IDS)
        fixed.setattr(routes, "_new_seed", lambda: SEED)
        fixed.setattr(games_module, "uuid4", lambda: UUID(int=ids.getrandbits(128), version=4))
        links = create_from_the_lobby(lobby, live)
    assert set(links) >= {"Join as seat sir", "Join as seat cave"}
    game_id = lobby.locator("#created").get_attribute("data-game") or ""
    auditor = links["Auditor link (sees every secret: for disputes)"]
    audit = {"Authorization": f"Bearer {auditor.split('token=')[1]}"}
    seat_link = {"knight": links["Join as seat sir"], "cave": links["Join as seat cave"]}
    persons = {}
    for n, (role, context) in enumerate(people.items()):
        page = context.new_page()
        page.goto(f"{live}{seat_link[role]}")
        persons[role] = Person(role, page, live, game_id, seat_link[role], seed=11 + n)
    for person in persons.values():
        ready(person.page)
        assert person.page.title().startswith("Vast: The Crystal Caverns")
    names = names_of(live)
    steps = scans = idle = 0
    phoned = False
    while True:
        game = httpx.get(f"{live}/games/{game_id}", headers=audit, timeout=60).json()
        if game["result"] is not None:
            break
        clicks = sum(p.clicks for p in persons.values())
        assert clicks < CLICKS, f"no end after {clicks} clicks: {game}"
        for person in persons.values():
            settled(person.page, game["version"])
        state = httpx.get(f"{live}/games/{game_id}/state", headers=audit, timeout=60).json()["state"]
        for role, person in persons.items():
            shown = leaks(person.page, secrets(state, role), names)
            assert shown == [], f"v{game['version']}: the {role}'s page shows {shown}"
        scans += 1
        for person in persons.values():
            assert person.page.evaluate(OUTSIDE_ITS_TILE) == [], f"v{game['version']}: words outside a tile"
        if clicks >= PHONE_AT and not phoned:
            for role, person in persons.items():  # a table in the middle of a game
                screenshot(person.page, f"vast-playing-{role}")
                assert axe_violations(person.page) == [], f"axe-core on the {role}'s table"
            phoned = on_a_phone(browser, live, links)
        moves = [(p, p.choice()) for p in persons.values()]
        mover = next(((p, what) for p, what in moves if what is not None), None)
        if mover is None:  # the bots play within the people's requests: nobody to wait for but the pages
            idle += 1
            assert idle < 20, f"neither person may play and the game goes on: {game}"
            time.sleep(0.5)
            continue
        idle = 0
        person, what = mover
        # not only what the person plays: everything the seat may play now has its control on the page
        assert person.unreachable() == [], f"v{game['version']}: the {person.role}'s page lacks a control"
        person.click(what, person.legal["commands"])
        settled(person.page, game["version"] + 1)
        assert person.page.locator("#problem").is_hidden(), person.page.locator("#problem").inner_text()
        person.sent += 1
        steps += 1
    elapsed = time.monotonic() - started
    assert phoned, "the phone checks ran while the game went on"
    sent_by: dict[str, int] = {}
    for event in events_of(live, game_id, audit):
        if event["type"] == "CommandAccepted":
            sent_by[event["seat"]] = sent_by.get(event["seat"], 0) + 1
    # every command of the two people's seats came from a click on their page, and every click was taken
    assert sent_by.get("sir") == persons["knight"].sent, sent_by
    assert sent_by.get("cave") == persons["cave"].sent, sent_by
    assert persons["knight"].sent and persons["cave"].sent
    for role, person in persons.items():
        person.page.wait_for_selector("#controls .result")
        assert "The game has ended" in person.page.locator("#controls").inner_text()
        # the end reveals every secret (docs/who-sees-what.md): no player board holds a face-down card or
        # tile, the Goblins' Secrets hand among them, and every Dark tile shows what it hides
        settled(person.page, game["version"])
        assert person.page.locator("#tracks .face-down, #tracks .tile.back").count() == 0, role
        assert "face down" not in person.page.locator("#tracks").inner_text(), role
        assert person.page.locator(".vast-cell.dark:not([data-tile])").count() == 0, role
        assert person.page.evaluate(OUTSIDE_ITS_TILE) == [], role
        screenshot(person.page, f"vast-played-{role}")
        assert axe_violations(person.page) == [], role
    by_role = {role: p.clicks for role, p in persons.items()}
    print(
        f"\nvast by clicking: {game['result']} at v{game['version']} after {steps} commands "
        f"({by_role} clicks), {scans} scans of both pages, {elapsed:.0f} s; "
        f"{ {role: p.kinds for role, p in persons.items()} }"
    )
    for context in people.values():
        context.close()


def click_something(page: Any, rng: random.Random, turn_clicks: int) -> bool:
    """One click of what the page offers now; False when it offers nothing."""
    options = page.locator("#controls .option")
    if options.count():
        options.nth(rng.randrange(options.count())).click()
        return True
    pick = page.locator("#controls .hand-pick:not(.chosen)")
    chosen = page.locator("#controls .hand-pick.chosen")
    targets = page.locator(".vast-map .target")
    if pick.count() and not chosen.count():
        pick.nth(rng.randrange(pick.count())).click()
        page.locator(".vast-map .target").first.wait_for()
        targets = page.locator(".vast-map .target")
    buttons = page.locator("#controls button.command:not(.end-turn)")
    end = page.locator("#controls button.end-turn")
    if targets.count() and (turn_clicks < 4 or not end.count()):
        targets.nth(rng.randrange(targets.count())).click()
        choice = page.locator(".vast-choice button.command")
        if choice.count():
            choice.nth(rng.randrange(choice.count())).click()
        return True
    if buttons.count() and turn_clicks < 3 and rng.random() < 0.5:
        buttons.nth(rng.randrange(buttons.count())).click()
        return True
    if end.count():
        end.first.click()
        return True
    return False


def axe_violations_after(page: Any, base: str) -> list[dict[str, Any]]:
    """The lobby with the Vast form shown, checked by axe-core."""
    page.goto(f"{base}/")
    ready(page)
    page.select_option("#ruleset", "vast")
    page.wait_for_selector("#vast-row")
    return axe_violations(page)


def on_a_phone(browser: Any, base: str, links: dict[str, str]) -> bool:
    """At 390x844: no page scrolls sideways, the action bar is on the screen, no tap target under 24 px."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    for role, link in (("knight", links["Join as seat sir"]), ("cave", links["Join as seat cave"])):
        small = phone.new_page()
        small.goto(f"{base}{link}")
        ready(small)
        assert small.evaluate(SIDEWAYS) <= 0, f"the {role}'s table scrolls sideways on a phone"
        assert small.evaluate("document.documentElement.scrollWidth") <= 390
        bar = small.locator("#controls").bounding_box()
        assert bar is not None and bar["y"] < 844, "the action bar is on the screen"
        assert small.evaluate(SMALL_TARGETS) == [], f"tap targets under 24 px on the {role}'s table"
        screenshot(small, f"vast-phone-{role}")
        small.screenshot(path=str(SCREENSHOTS / f"vast-phone-{role}-screen.png"))
    lobby_phone = phone.new_page()
    lobby_phone.goto(f"{base}/")
    ready(lobby_phone)
    lobby_phone.select_option("#ruleset", "vast")
    lobby_phone.wait_for_selector("#vast-row")
    assert lobby_phone.evaluate(SIDEWAYS) <= 0, "the lobby scrolls sideways on a phone"
    assert lobby_phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert lobby_phone.evaluate(SMALL_TARGETS) == [], "tap targets under 24 px on the lobby"
    screenshot(lobby_phone, "vast-lobby-phone")
    phone.close()
    return True


def test_hot_seat_roles_share_one_seat_played_from_one_page(live: str, context: Any) -> None:
    """The lobby's hot-seat: the Knight and the Cave share one seat (``hotseat``), played from one page,
    which plays whichever of them has the turn; the Dragon is a server bot. Two people given the same
    seat name are told so next to the roles."""
    page = context.new_page()
    page.goto(f"{live}/")
    ready(page)
    page.select_option("#ruleset", "vast")
    page.wait_for_selector("#vast-row")
    page.select_option("#vast-row", "knight-dragon-cave")
    page.fill("#vast-seat-knight", "same")
    page.fill("#vast-seat-cave", "same")
    page.select_option("#vast-who-dragon", "bot")
    page.click("#create-game")
    page.locator("#vast-roles-error").wait_for()
    assert "same seat name" in page.locator("#vast-roles-error").inner_text()
    page.select_option("#vast-who-knight", "hotseat")
    page.select_option("#vast-who-cave", "hotseat")
    page.click("#create-game")
    page.wait_for_selector("#created .seat-link")
    links = {a.inner_text(): a.get_attribute("href") or "" for a in page.locator("#created a.join").all()}
    assert "Join as seat hotseat" in links and "Join as seat dragon-bot" in links
    game_id = page.locator("#created").get_attribute("data-game")
    table = context.new_page()
    table.goto(f"{live}{links['Join as seat hotseat']}")
    ready(table)
    rng = random.Random(2)
    played = set()
    for _ in range(40):
        version = httpx.get(f"{live}/games/{game_id}").json()["version"]
        table.wait_for_function(
            "v => Number(document.body.dataset.version) >= v && !document.body.dataset.busy",
            arg=version,
            timeout=15_000,
        )
        turn = table.locator("#status dd").first.inner_text()
        if click_something(table, rng, 0 if turn not in played else 5):
            played.add(turn)
        else:
            table.wait_for_timeout(300)
        if {"Knight", "Cave"} <= played:
            break
    assert {"Knight", "Cave"} <= played, f"one page played both roles: {played}"
    screenshot(table, "vast-hot-seat")
