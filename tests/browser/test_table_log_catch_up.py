"""The table's log is a read model that may trail the game (projected apart from the board and the
initiative): a first paint that finds no log yet reads it again shortly, so the log panel fills
without waiting for the next event."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.support import play_demo_game, ready


def test_a_log_missing_at_first_paint_is_read_again_without_a_new_event(live: str, context: Any) -> None:
    game = play_demo_game(live, max_commands=6)
    version = game.get("")["version"]
    page = context.new_page()
    answers: list[int] = []

    def trailing_once(route: Any) -> None:
        # the first read finds the log read model not caught up yet ("no log for game (yet)": 404)
        if not answers:
            answers.append(404)
            route.fulfill(
                status=404,
                content_type="application/problem+json",
                body='{"status": 404, "title": "Not Found", "detail": "no log for game (yet)"}',
            )
        else:
            answers.append(200)
            route.continue_()

    page.route("**/games/*/log?*", trailing_once)
    page.goto(game.url(live))
    ready(page)
    page.wait_for_selector("#log-list li", timeout=5000)
    assert game.get("")["version"] == version, "no event was added while the page caught up"
    assert answers[0] == 404 and 200 in answers
    newest = page.locator("#log-list li").first.get_attribute("data-version")
    assert newest is not None and int(newest) <= version


def test_a_log_that_names_an_older_version_is_read_again_without_a_new_event(live: str, context: Any) -> None:
    """The log's answer says which game version it has reached (``version``): a log behind the game is
    read again, though the board and the initiative are up to date."""
    game = play_demo_game(live, max_commands=6)
    version = game.get("")["version"]
    log = game.get("/log", limit=1000)
    for _ in range(100):  # the read model catches up with the game played just now
        if log["version"] == version:
            break
        time.sleep(0.05)
        log = game.get("/log", limit=1000)
    told = [line["version"] for line in log["lines"]]
    page = context.new_page()
    answers: list[int] = []

    def trailing_once(route: Any) -> None:
        if answers:
            answers.append(version)
            route.continue_()
            return
        # the first read: the log read model one line behind the game
        body = route.fetch().json()
        body["lines"] = [line for line in body["lines"] if line["version"] < told[-1]]
        body["version"] = told[-1] - 1
        answers.append(body["version"])
        route.fulfill(status=200, content_type="application/json", json=body)

    page.route("**/games/*/log?*", trailing_once)
    page.goto(game.url(live))
    ready(page)
    page.wait_for_selector(f'#log-list li[data-version="{told[-1]}"]', timeout=5000)
    assert game.get("")["version"] == version, "no event was added while the page caught up"
    assert answers[0] < version and answers[-1] == version
