"""The history view: the board at any version of a finished demo game is the state's board."""

from __future__ import annotations

import io
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from dicelog.service.app.export import FORMAT, verify_file
from tests.browser.conftest import screenshot
from tests.browser.support import play_demo_game, positions, ready


def shown_positions(page: Any) -> dict[str, str]:
    return page.eval_on_selector_all(
        "#board .figure", "nodes => Object.fromEntries(nodes.map(n => [n.dataset.figure, n.dataset.space]))"
    )


def test_the_history_slider_shows_the_figures_of_the_state_at_any_version(live: str, context: Any) -> None:
    game = play_demo_game(live)
    final = game.get("")
    assert final["result"] is not None, "the demo game ended"
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(game.url(live, tail="/history"))
    ready(page)
    assert page.locator("#verify-badge.ok").count() == 1, page.locator("#verify-badge").inner_text()
    rng = random.Random(5)
    versions = rng.sample(range(1, final["version"] + 1), 20)
    steps = []
    for version in versions:
        start = time.monotonic()
        page.locator("#version").fill(str(version))
        page.wait_for_selector(f"#board svg[data-version='{version}']", timeout=5000)
        steps.append(time.monotonic() - start)
        expected = positions(game.get("/state", version=version)["state"])
        assert shown_positions(page) == expected, f"version {version}"
        assert page.locator("#version-out").inner_text() == str(version)
    # step by turn and by round: the board then shows the end of that turn (or round)
    page.locator("#version").fill("1")
    page.wait_for_selector("#board svg[data-version='1']")
    first_turn = game.get("/turns/1")
    page.click("#next-turn")
    page.wait_for_selector(f"#board svg[data-version='{first_turn['to_version']}']")
    page.wait_for_selector("#turn h2:has-text('Turn 1 ')")
    round_1 = game.get("/rounds/1")
    page.click("#next-round")
    page.wait_for_selector(f"#board svg[data-version='{round_1['to_version']}']")
    assert shown_positions(page) == positions(round_1["state_after"])
    page.click("#next-turn")
    turn = page.locator("#turn h2").inner_text()
    assert turn.startswith("Turn "), turn
    assert page.locator("#dice .dice-table tbody tr").count() == len(game.get("/dice")["chances"])
    with page.expect_download() as download:
        page.click("#export")
    exported = Path(download.value.path()).read_bytes()
    # the download is the reader's export: the full log once the game ended, which verifies offline
    assert json.loads(exported.splitlines()[0])["format"] == FORMAT
    assert len(exported.splitlines()) == final["version"] + 1
    assert verify_file(io.BytesIO(exported)).ok
    page.locator("#version").fill(str(final["version"] // 2))
    page.wait_for_selector(f"#board svg[data-version='{final['version'] // 2}']")
    screenshot(page, "history")
    assert not errors, errors
    print(
        f"\nhistory slider: 20 versions of {final['version']}; step median "
        f"{statistics.median(steps) * 1000:.0f} ms, "
        f"max {max(steps) * 1000:.0f} ms"
    )
