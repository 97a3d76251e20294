"""A seat's page shows only what its token may see: with the test ruleset with secret hands
(tests/rulesets/secret_hand_dist), the red seat's table never shows a card of the blue seat's
hand or discards, nor the deck, while the game runs (everything is public after the end)."""

from __future__ import annotations

import random
from typing import Any

from tests.browser.conftest import screenshot
from tests.browser.support import ApiGame, ready, wait_version

SEATS = [{"name": "red", "controls": ["ann"]}, {"name": "blue", "controls": ["bob"]}]


def secret_from_red(game: ApiGame) -> set[str]:
    """Card ids red may not see, computed from the auditor's view (never from the page)."""
    state = game.get("/state", "auditor")["state"]
    cards = set(state["deck"]) | set(state["hands"]["bob"]) | set(state["discards"]["bob"])
    return cards - set(state["played"])


def test_a_seat_page_never_shows_another_seats_cards(live_secret_hand: str, context: Any) -> None:
    base = live_secret_hand
    game = ApiGame(
        base,
        {
            "ruleset": "secret-hand",
            "setup": {"players": ["ann", "bob"], "hand_size": 3, "rounds": 3},
            "seats": SEATS,
            "dice_mode": "server",
            "decision_policy": "ask",
            "visibility": "public",
        },
    )
    page = context.new_page()
    seen: list[tuple[str, str]] = []

    def keep(response: Any) -> None:
        if "/games/" in response.url and "text/event-stream" not in response.headers.get("content-type", ""):
            try:
                seen.append((response.url, response.text()))
            except Exception:  # noqa: BLE001 - a body gone with a navigation
                pass

    page.on("response", keep)
    page.goto(game.url(base, "red"))
    ready(page)
    assert page.locator("#who").inner_text() == "Seat red"
    rng = random.Random(3)
    scans = answers = 0
    for _ in range(60):
        summary = game.get("")
        if summary["result"] is not None:
            break
        wait_version(page, summary["version"])
        secret = secret_from_red(game)
        html = page.content()
        leaked = sorted(card for card in secret if card in html)
        assert not leaked, f"v{summary['version']}: red's page shows {leaked}"
        # What red could see once stays visible to red, so an answer the page read earlier is
        # scanned soundly against today's secrets.
        for url, text in seen[answers:]:
            leaked = sorted(card for card in secret if card in text)
            assert not leaked, f"v{summary['version']}: {url} answered red's page with {leaked}"
        answers = len(seen)
        scans += 1
        if scans == 5:
            screenshot(page, "table-secret-hand")
        legal = game.get("/legal-commands", "red")
        if legal["pending"] is not None:
            pending = legal["pending"]
            assert pending["type"] == "DecisionRequested", pending
            seat = legal["pending_seat"] or "red"
            if seat == "red":
                page.click(f"#controls .option[data-option='{pending['options'][0]}']")
            else:
                game.send(
                    seat,
                    {"type": "Choose", "option": game.get("/legal-commands", seat)["pending"]["options"][0]},
                )
        elif legal["commands"]:
            choices = [c for c in legal["commands"] if c["type"] in ("Begin", "hand.Play", "hand.Discard")]
            command = rng.choice(choices)
            page.locator(f"#controls button[data-command-type='{command['type']}']").first.click()
        else:
            blue = game.get("/legal-commands", "blue")
            choices = [c for c in blue["commands"] if c["type"] in ("hand.Play", "hand.Discard")]
            game.send("blue", rng.choice(choices))
        wait_version(page, summary["version"] + 1)
    else:
        raise AssertionError("the game did not end")
    assert scans >= 6 and answers > scans
    print(f"\nsecret-hand: red's page scanned at {scans} versions, {len(seen)} API answers read by the page")
