"""The table's log is a read model that may trail the game (projected apart from the board and the
initiative): a first paint that finds no log yet reads it again shortly, so the log panel fills
without waiting for the next event."""

from __future__ import annotations

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
