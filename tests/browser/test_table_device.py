"""One device for the whole table (issue 10, the table companion), as people see it: the web table opened
with the table token of a game created with ``table_device`` plays every seat's mice, each command recorded
as the seat controlling the mouse."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import screenshot
from tests.browser.support import ApiGame, ready, wait_version

SEATS = [{"name": "red", "controls": ["collin", "filch"]}, {"name": "blue", "controls": ["maginos", "nez"]}]
SEAT_OF = {m: s["name"] for s in SEATS for m in s["controls"]}


def test_the_table_page_with_the_table_token_ends_turns_for_both_seats(live: str, context: Any) -> None:
    game = ApiGame(
        live,
        {
            "ruleset": "mice-and-mystics",
            "setup": {"chapter": "chapter-1", "mice": list(SEAT_OF)},
            "seats": SEATS,
            "dice_mode": "manual",
            "table_device": True,
        },
    )
    token = game.table_token
    assert token
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live}/play/{game.id}#token={token}")
    ready(page)
    pending = game.get("/legal-commands", "red")["pending"]
    assert pending["type"] == "ShuffleRequested"
    version = game.get("")["version"]
    for card in pending["cards"]:
        page.click(f"#controls .shuffle-card[data-card='{card}']")
    page.click("#submit-shuffle")
    wait_version(page, version + 1)
    ended: dict[str, str] = {}
    for _ in range(8):  # end turns from the device until a mouse of each seat has played
        summary = game.get("")
        mouse = summary["turn"]
        if mouse in SEAT_OF and page.locator("#controls button[data-command-type='EndTurn']").count():
            before = summary["version"]
            page.click("#controls button[data-command-type='EndTurn']")
            wait_version(page, before + 1)
            last = [e for e in game.events() if e["type"] == "CommandAccepted"][-1]
            ended[mouse] = last["seat"]
        if set(ended.values()) == {"red", "blue"}:
            break
        page.wait_for_timeout(200)
    assert ended and all(SEAT_OF[m] == seat for m, seat in ended.items()), ended
    assert set(ended.values()) == {"red", "blue"}, ended
    screenshot(page, "table-device")
    assert not errors, errors
