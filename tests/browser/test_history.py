"""The history view: the board at any version of a finished demo game is the state's board."""

from __future__ import annotations

import io
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from dicelog.domain.vast.demo import secrets
from dicelog.service.app.export import FORMAT, verify_file
from tests.browser.conftest import SCREENSHOTS, screenshot, settings_in
from tests.browser.support import (
    SIDEWAYS,
    SMALL_TARGETS,
    ApiGame,
    axe_violations,
    play_demo_game,
    positions,
    ready,
    wait_version,
)
from tests.browser.test_vast_lobby_play import names_of
from tests.browser.test_vast_table import ROLES5, SEATS5, play_some, vast_game


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


def test_stepping_quickly_waits_for_the_replay_quota_instead_of_failing(
    tmp_path_factory: Any, context: Any
) -> None:
    """Each step of the slider is ``GET /state?version=N``, which the ``expensive`` quota counts
    (docs/api-contract.md, Quotas): stepping faster than it allows, the page paces its replays and
    waits out a 429's Retry-After, shows no problem, and ends on the version last asked for."""
    from dicelog.service.cli.demo import running_service

    settings = replace(settings_in(tmp_path_factory.mktemp("quota")), rate_limit_expensive="6/second")
    with running_service(settings) as base:
        game = play_demo_game(base, max_commands=60)
        last = game.get("")["version"]
        assert last > 60
        page = context.new_page()
        replays: list[int] = []
        page.on(
            "response",
            lambda r: replays.append(r.status) if "/state?" in r.url and "version=" in r.url else None,
        )
        page.goto(game.url(base, tail="/history"))
        ready(page)
        # 60 steps, one every 15 ms: ten times what the quota allows
        page.evaluate(
            """async (last) => {
              const range = document.getElementById('version');
              for (let i = 0; i < 60; i++) {
                range.value = String(1 + ((i * 7) % last));
                range.dispatchEvent(new Event('input'));
                await new Promise((r) => setTimeout(r, 15));
              }
              range.value = String(last - 1);
              range.dispatchEvent(new Event('input'));
            }""",
            last,
        )
        page.wait_for_selector(f"#board svg[data-version='{last - 1}']", timeout=15000)
        assert page.locator("#problem").is_hidden(), page.locator("#problem").inner_text()
        assert page.locator("#pace").is_hidden()
        refused = replays.count(429)
        # the page read far fewer states than it was asked for, and was refused at most a few times
        assert len(replays) < 40 and refused <= 3, (len(replays), refused)
        time.sleep(1.1)  # the test's own replay below counts against the same quota
        assert shown_positions(page) == positions(game.get("/state", version=last - 1)["state"])
        print(f"\nquick steps: 61 asked, {len(replays)} replays read, {refused} refused (429)")


def test_a_vast_games_turns_are_found_by_the_events_turn_marks(live: str, context: Any) -> None:
    """Vast's turn events are ``VastTurnStarted``: the page steps by turn and shows a turn's dispute view
    by each event's ``turn`` (GET /events), as GET /turns/{n} counts them, never "Outside any turn" inside
    one."""
    game = vast_game(live)
    play_some(game, 30, seed=3)
    second = game.get("/turns/2")
    assert second["events"][0]["type"] == "VastTurnStarted" and second["events"][0]["turn"] == 2
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(game.url(live, tail="/history"))
    ready(page)
    inside = (second["from_version"] + second["to_version"]) // 2
    page.locator("#version").fill(str(inside))
    page.wait_for_selector(f"body[data-version='{inside}']")
    heading = f"Turn 2 · versions {second['from_version']}\N{EN DASH}{second['to_version']}"
    page.wait_for_selector(f"#turn h2:has-text('{heading}')")
    assert "turn 2 · by" in page.locator("#at-version").inner_text()
    # the cave at that version, drawn as the table draws it (an SVG of its tiles), read-only, and no raw dump
    cells = game.get("/state", version=inside)["state"]["cells"]
    page.wait_for_selector(f"#board svg.vast-map[data-version='{inside}']")
    assert page.locator("#board .vast-cell").count() == len(cells)
    assert page.locator("#board .vast-cell.entrance").count() == 1
    assert page.locator("#board .vast-cell .piece.knight").count() == 1
    assert page.locator("#board .target, #board [role=button]").count() == 0
    assert page.locator("#board .values, #board [data-name='state'], #board pre").count() == 0
    assert page.locator("#tracks .vast-board.board-knight").count() == 1
    assert page.locator("#initiative ol.initiative li").count() == 2
    screenshot(page, "vast-history")
    third = game.get("/turns/3")
    page.click("#next-turn")  # to the end of the turn shown, then of the next one
    page.wait_for_selector(f"body[data-version='{second['to_version']}']")
    page.click("#next-turn")
    page.wait_for_selector(f"body[data-version='{third['to_version']}']")
    page.wait_for_selector(f"#turn h2:has-text('Turn 3 · versions {third['from_version']}')")
    page.click("#prev-turn")
    page.wait_for_selector(f"body[data-version='{second['to_version']}']")
    page.wait_for_selector(f"#turn h2:has-text('{heading}')")
    assert errors == []
    # the Knight's history page names no Dark tile she may not examine (the Cave's page names them all)
    dark = {c["tile"] for c in game.get("/state", "auditor")["state"]["cells"] if not c["lit"]}
    assert dark
    knight = context.new_page()
    knight.goto(game.url(live, "sir", tail="/history"))
    ready(knight)
    last = game.get("")["version"]
    knight.wait_for_selector(f"#board svg.vast-map[data-version='{last}']")
    assert knight.locator("#board .vast-cell.dark").count() == len(dark)
    html = knight.content()
    assert not sorted(t for t in dark if f'"{t}"' in html or f">{t}<" in html or f" {t}" in html)
    screenshot(knight, "vast-history-knight")
    # at the latest version the history board says what the table says (both drawn from the server's read
    # models, the history page's at that version): each tile's words (walls, pieces, tokens) and the boards
    table = context.new_page()
    table.goto(game.url(live, "sir"))
    ready(table)
    wait_version(table, last)
    words = "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    assert knight.eval_on_selector_all("#board .vast-cell", words) == table.eval_on_selector_all(
        "#board .vast-cell", words
    )
    for role in ("knight", "cave"):
        shown = knight.locator(f"#tracks .board-{role}").inner_text()
        assert shown == table.locator(f"#tracks .board-{role}").inner_text(), role


def on_a_phone(browser: Any, url: str, last: int) -> None:
    """The Vast history page at 390x844: nothing scrolls sideways (the cave and the player boards fit or
    scroll in their own box), the slider and the step buttons are on the screen as the page opens, every tap
    target outside the cave's SVG is at least 24 px (the event list and the dispute view opened too), a step
    draws the cave of that version, and axe-core finds no serious or critical violation."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = phone.new_page()
        page.goto(url)
        ready(page)
        assert page.evaluate(SIDEWAYS) <= 0, "the Vast history page scrolls sideways on a phone"
        for control in ("#version", "#prev-version", "#next-version"):
            box = page.locator(control).first.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, (control, box)
        screenshot(page, "vast-history-phone")
        page.screenshot(path=str(SCREENSHOTS / "vast-history-phone-screen.png"))
        page.locator("#version").fill(str(last - 1))
        page.wait_for_selector(f"#board svg.vast-map[data-version='{last - 1}']")
        page.click("#all-events > summary")
        assert page.evaluate(SIDEWAYS) <= 0, "the opened event list scrolls sideways on a phone"
        assert page.evaluate(SMALL_TARGETS) == [], "tap targets under 24 px on the Vast history page"
        assert axe_violations(page) == [], "axe-core on the Vast history page on a phone"
    finally:
        phone.close()


def shown_secrets(page: Any, hidden: set[str], names: dict[str, str]) -> list[str]:
    """The ids (or printed names) of ``hidden`` that the page's board and player boards show."""
    html = page.eval_on_selector_all("#board, #tracks", "nodes => nodes.map(n => n.innerHTML).join(' ')")
    return sorted(s for s in hidden if f'"{s}"' in html or f">{s}<" in html or f">{names.get(s, s)}<" in html)


def test_the_vast_history_page_draws_all_five_player_boards_from_the_read_models_at_the_version(
    live: str, context: Any, browser: Any
) -> None:
    """Knight, Goblins, Dragon, Cave and Thief: at any version the history page draws the cave and the five
    player boards from ``GET /board?version=N`` and ``/initiative?version=N`` as its reader may see them (the
    Goblins' Secrets and the Dragon's Power cards face down on the Knight's page, the Dark tiles unnamed), and
    recomputes none of it; at the latest version it says what the table says."""
    body = {"ruleset": "vast", "setup": {"roles": list(ROLES5)}, "seats": SEATS5, "visibility": "public"}
    game = ApiGame(live, body)
    rng = random.Random(8)
    for _ in range(400):
        full = game.get("/state", "auditor")["state"]
        if full["thief"]["x"] is not None and full["dragon"]["x"] is not None and full["goblins"]["hand"]:
            break
        turn = game.get("/legal-commands", "cave")["turn"]
        commands = game.get("/legal-commands", turn)["commands"]
        legal = [c for c in commands if c["type"] != "vast.EndTurn" and not c.get("climb")]
        game.send(turn, rng.choice(legal if legal and rng.random() < 0.8 else commands))
    assert full["thief"]["x"] is not None and full["dragon"]["x"] is not None and full["goblins"]["hand"]
    last = game.get("")["version"]
    names = names_of(live)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "version=" in r.url else None)
    page.goto(game.url(live, "knight", tail="/history"))
    ready(page)
    for version in (last * 2 // 3, last):
        page.locator("#version").fill(str(version))
        page.wait_for_selector(f"#board svg.vast-map[data-version='{version}']")
        initiative = game.get("/initiative", "knight", version=version)["initiative"]
        board = game.get("/board", "knight", version=version)["board"]
        roles = page.eval_on_selector_all("#tracks .vast-board", "nodes => nodes.map(n => n.dataset.role)")
        assert sorted(roles) == sorted(r for r in ROLES5 if initiative[r] is not None), (version, roles)
        assert "shown at the table" not in page.locator("#tracks").inner_text()
        assert page.locator("#board .vast-cell").count() == len(board["cells"])
        knight = page.get_by_role("figure", name="The Knight's board")
        assert knight.locator('dd[data-key="movement"]').inner_text() == str(initiative["knight"]["movement"])
        goblins = page.get_by_role("figure", name="The Goblins' board")
        assert goblins.locator(".vast-card.face-down").count() == initiative["goblins"]["hand"], (
            goblins.inner_text(),
            initiative["goblins"],
        )
        dragon = page.get_by_role("figure", name="The Dragon's board")
        assert dragon.locator(".vast-card.face-down").count() == len(initiative["dragon"]["hand"])
        thief = page.get_by_role("figure", name="The Thief's board")
        assert thief.locator('dd[data-key="stealth"]').inner_text().split(" ")[0] == str(
            initiative["thief"]["stealth"]
        )
        hidden = secrets(game.get("/state", "auditor", version=version)["state"], "knight")
        assert shown_secrets(page, hidden, names) == [], version
    # the page read the state and the two read models at each version it showed, and nothing at the table's
    # own paths: what it draws is the server's
    for version in (last * 2 // 3, last):
        for kind in ("state", "board", "initiative"):
            assert any(f"/{kind}?version={version}" in url for url in reads), (kind, version)
    screenshot(page, "vast-history-five-roles-knight")
    assert axe_violations(page) == [], "axe-core on the Vast history page"
    # the event list in players' words: a choice the Knight may not see, or made by the default policy, is
    # said so, not "Seat policy chose ?"
    lines = page.eval_on_selector_all("#events li", "nodes => nodes.map(n => n.textContent)")
    assert lines and not [
        line for line in lines if "Seat policy" in line or " ? " in line or line.endswith("?")
    ]
    on_a_phone(browser, game.url(live, "knight", tail="/history"), last)
    table = context.new_page()
    table.goto(game.url(live, "knight"))
    ready(table)
    wait_version(table, last)
    for role in ROLES5:
        shown = page.locator(f"#tracks .board-{role}").inner_text()
        assert shown == table.locator(f"#tracks .board-{role}").inner_text(), role
    assert errors == []
