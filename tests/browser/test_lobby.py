"""The lobby: public games, the create form, join links with the token in the URL fragment; axe-core and the
phone checks (390x844) on the Mice and Mystics form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.browser.conftest import screenshot, settings_in
from tests.browser.support import SIDEWAYS, SMALL_TARGETS, axe_violations, mice_game, ready


def test_the_lobby_creates_a_game_and_hands_out_one_join_link_per_seat(
    tmp_path: Path, context: Any, browser: Any
) -> None:
    from dicelog.service.cli.demo import running_service

    with running_service(settings_in(tmp_path)) as base:
        listed = mice_game(
            base,
            dice_mode="server",
            seats=[{"name": "solo", "controls": ["collin", "filch", "maginos", "nez"]}],
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{base}/")
        ready(page)
        assert page.locator(f"#games tr[data-game='{listed.id}']").count() == 1, "the public game is listed"
        # Chapter 1 with four mice, two seats (red: Collin and Filch, blue: Maginos and Nez), manual dice
        mice = page.locator("#mice input[type=checkbox]")
        for i in range(mice.count()):
            box = mice.nth(i)
            if box.is_enabled():
                box.set_checked(box.get_attribute("value") in ("collin", "filch", "maginos", "nez"))
        page.check("input[name=dice_mode][value=manual]")
        page.select_option("#undo", "all-seats")
        page.select_option("#visibility", "private")
        page.check("input[aria-label='Seat red plays Prince Collin']")
        page.check("input[aria-label='Seat red plays Filch']")
        page.check("input[aria-label='Seat blue plays Maginos']")
        page.check("input[aria-label='Seat blue plays Nez Bellows']")
        page.click("#create-game")
        page.wait_for_selector("#created .seat-link")
        game_id = page.locator("#created").get_attribute("data-game")
        links = {a.inner_text(): a.get_attribute("href") for a in page.locator("#created a.join").all()}
        assert set(links) == {
            "Join as seat red",
            "Join as seat blue",
            "Spectator link",
            "Auditor link (sees every secret: for disputes)",
        }, links
        for label, href in links.items():
            path, _, fragment = href.partition("#")
            assert fragment.startswith("token="), (label, href)  # the token is in the fragment only
            assert "token" not in path
        game = httpx.get(
            f"{base}/games/{game_id}",
            headers={"Authorization": f"Bearer {links['Join as seat red'].split('token=')[1]}"},
        ).json()
        assert (
            game["dice_mode"] == "manual"
            and game["undo_policy"] == "all-seats"
            and game["visibility"] == "private"
        )
        assert game["seats"] == [
            {"name": "red", "controls": ["collin", "filch"]},
            {"name": "blue", "controls": ["maginos", "nez"]},
        ]
        screenshot(page, "lobby")
        # the Mice and Mystics form and the join links: axe-core finds nothing serious or critical, and on a
        # phone nothing scrolls sideways and no tap target is under 24 px (the Vast form is checked by
        # test_vast_lobby_play.py)
        assert axe_violations(page) == [], "axe-core on the lobby (Mice and Mystics form, join links)"
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        try:
            small = phone.new_page()
            small.goto(f"{base}/")
            ready(small)
            small.wait_for_selector("#mice input[type=checkbox]")
            assert small.evaluate(SIDEWAYS) <= 0, "the lobby scrolls sideways on a phone"
            assert small.evaluate(SMALL_TARGETS) == [], "tap targets under 24 px on the lobby"
            assert axe_violations(small) == [], "axe-core on the lobby on a phone"
            screenshot(small, "lobby-phone")
        finally:
            phone.close()
        # a join link opens the seat's table; the token never went into a request's URL
        page.click("#created a.join[data-label='Join as seat red']")
        ready(page)
        assert page.locator("#who").inner_text() == "Seat red"
        page.wait_for_selector(
            "#controls .shuffle-card"
        )  # manual dice: the initiative shuffle is red's to enter
        page.goto(f"{base}{links['Spectator link']}")
        ready(page)
        assert page.locator("#who").inner_text() == "Reading with a token (no seat)"
        tokens = [href.split("token=")[1] for href in links.values()]
        assert not [url for url in requests if any(t in url for t in tokens)]
        assert not errors, errors
        page.close()  # its live stream ends before the server stops
