"""A Vast game as people play it (issue 32): created from the lobby with the five roles (the Knight and the
Cave two people, each in a browser context of their own; the Goblins, the Dragon and the Thief server bots),
then played by clicking only (a target on the cave, a tile of the Cave's hand then an open place, a button
of the action bar) for a bounded number of clicks; after each click neither page shows what its seat may
not know (the strings ``Demo.secrets`` names from the auditor's state, by id and by printed name). axe-core
finds nothing serious or critical on the lobby and on both tables; at 390x844 nothing scrolls sideways, the
action bar is on the screen and its tap targets are at least 24 px."""

from __future__ import annotations

import random
from typing import Any

import httpx

from dicelog.domain.vast.demo import secrets
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.browser.support import SIDEWAYS, SMALL_TARGETS, axe_violations, ready

PHONE_AT = 10
"""After this many clicks (the game going on), the two tables and the lobby are opened on a phone."""
CLICKS = 60
"""Clicks the two people make (a whole 5-role game takes hundreds of turns: bounded here, honestly)."""


def create_from_the_lobby(page: Any, base: str) -> dict[str, str]:
    page.goto(f"{base}/")
    ready(page)
    page.select_option("#ruleset", "vast")
    page.wait_for_selector("#vast-row")
    page.select_option("#vast-row", "knight-goblins-dragon-cave-thief")
    for role in ("goblins", "dragon", "thief"):
        page.select_option(f"#vast-who-{role}", "bot")
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


def test_a_five_role_game_from_the_lobby_played_by_clicking(live: str, browser: Any) -> None:
    people = {
        "knight": browser.new_context(viewport={"width": 1300, "height": 1000}),
        "cave": browser.new_context(viewport={"width": 1300, "height": 1000}),
    }
    lobby = people["knight"].new_page()
    assert axe_violations_after(lobby, live) == []
    links = create_from_the_lobby(lobby, live)
    assert set(links) >= {"Join as seat sir", "Join as seat cave"}
    game_id = lobby.locator("#created").get_attribute("data-game")
    auditor = links["Auditor link (sees every secret: for disputes)"]
    audit = {"Authorization": f"Bearer {auditor.split('token=')[1]}"}
    pages = {"knight": people["knight"].new_page(), "cave": people["cave"].new_page()}
    pages["knight"].goto(f"{live}{links['Join as seat sir']}")
    pages["cave"].goto(f"{live}{links['Join as seat cave']}")
    for page in pages.values():
        ready(page)
        assert page.title().startswith("Vast: The Crystal Caverns")
    names = names_of(live)
    rng = random.Random(11)
    clicks = 0
    turn_clicks = 0
    last_turn = None
    phoned = False
    for _ in range(CLICKS * 3):
        game = httpx.get(f"{live}/games/{game_id}", headers=audit).json()
        if game["result"] is not None or clicks >= CLICKS:
            break
        for page in pages.values():
            page.wait_for_function(
                "v => Number(document.body.dataset.version) >= v && !document.body.dataset.busy",
                arg=game["version"],
                timeout=15_000,
            )
        state = httpx.get(f"{live}/games/{game_id}/state", headers=audit).json()["state"]
        for role, page in pages.items():
            assert leaks(page, secrets(state, role), names) == [], f"the {role}'s page shows a secret"
        if game["turn"] != last_turn:
            last_turn, turn_clicks = game["turn"], 0
        if clicks == PHONE_AT and not phoned:
            for role, page in pages.items():  # a table with targets to click
                assert axe_violations(page) == [], f"axe-core on the {role}'s table"
            phoned = on_a_phone(browser, live, links)
        playable = "#controls button, .vast-map .target"
        mover = next((p for p in pages.values() if p.locator(playable).count()), None)
        if mover is None:
            pages["knight"].wait_for_timeout(300)  # a bot is playing
            continue
        if click_something(mover, rng, turn_clicks):
            clicks += 1
            turn_clicks += 1
            mover.wait_for_function("() => !document.body.dataset.busy", timeout=15_000)
    controls = {role: page.locator("#controls").inner_text()[:300] for role, page in pages.items()}
    assert clicks >= 20, f"only {clicks} clicks were possible: {game}, {controls}"
    assert phoned, "the phone checks ran while the game went on"
    events = httpx.get(f"{live}/games/{game_id}/events", headers=audit, params={"limit": 1000})
    sent_by = {e["seat"] for e in events.json()["events"] if e["type"] == "CommandAccepted"}
    assert {"sir", "cave"} <= sent_by, "both people played by clicking"
    for role, page in pages.items():
        screenshot(page, f"vast-played-{role}")
        assert axe_violations(page) == [], role

    for context in people.values():
        context.close()


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
