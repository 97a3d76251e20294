"""The Mice and Mystics table and its history page as people use them (issue 32): axe-core finds no serious
or critical violation; on a phone (390x844) nothing scrolls sideways, the controls are in reach without
scrolling past the board, the board zooms and every tap target is at least 24 px; the focus stays where
it was when the table is drawn again; the die faces are the content's; tokens sharing a space never overlap;
the dispute view is compact with the payloads behind toggles. Screenshots in tests/browser/screenshots/."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.browser.conftest import screenshot
from tests.browser.support import (
    SIDEWAYS,
    SMALL_TARGETS,
    ApiGame,
    axe_violations,
    mice_game,
    play_demo_game,
    ready,
    wait_version,
)

ONE_SEAT = [{"name": "table", "controls": ["collin", "filch", "maginos", "nez"]}]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def rolled_to_move(live: str) -> ApiGame:
    """A manual-dice game at the first mouse's move: the initiative shuffled, Move sent, the die rolled (a
    bow, move number 2), so the table shows reachable spaces and the controls' move buttons."""
    game = mice_game(live, dice_mode="manual", seats=ONE_SEAT, undo_policy="own-turn")
    pending = game.get("/legal-commands", "table")["pending"]
    game.send("table", {"type": "Shuffle", "order": pending["cards"]})
    mouse = game.get("")["turn"]
    game.send("table", {"type": "Move", "mouse": mouse})
    game.send("table", {"type": "Roll", "faces": ["bow"]})
    return game


def undo_the_roll(game: ApiGame) -> None:
    """Take back the last Roll (own-turn undo: applied at once): the die is asked for again."""
    accepted = [e for e in game.events() if e["type"] == "CommandAccepted" and not e["undone"]]
    roll = next(e for e in reversed(accepted) if e["payload"]["command"]["type"] == "Roll")
    game.send("table", {"type": "RequestUndo", "to_version": roll["version"] - 1})


def test_axe_finds_no_serious_or_critical_violation_on_the_table_and_the_history_page(
    live: str, context: Any, browser: Any
) -> None:
    game = rolled_to_move(live)
    page = context.new_page()
    page.goto(game.url(live, "table"))
    ready(page)
    page.click("#legend summary")  # the legend open, too
    assert axe_violations(page) == []
    ended = play_demo_game(live, seed=3)
    history = context.new_page()
    history.goto(ended.url(live, tail="/history"))
    ready(history)
    history.click("#all-events > summary")
    assert axe_violations(history) == []
    phone = browser.new_context(**PHONE)
    try:
        small = phone.new_page()
        small.goto(game.url(live, "table"))
        ready(small)
        assert axe_violations(small) == []
        small.goto(ended.url(live, tail="/history"))
        ready(small)
        assert axe_violations(small) == []
    finally:
        phone.close()


def test_on_a_phone_the_table_fits_its_controls_are_in_reach_and_the_board_zooms(
    live: str, browser: Any
) -> None:
    game = rolled_to_move(live)
    phone = browser.new_context(**PHONE)
    try:
        page = phone.new_page()
        page.goto(game.url(live, "table"))
        ready(page)
        assert page.evaluate(SIDEWAYS) <= 0, "no sideways scroll"
        # the controls: in the action bar on screen without scrolling, whatever the board's height
        first = page.locator("#controls button").first
        box = first.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        move = page.locator("#controls button.move").first
        move.scroll_into_view_if_needed()
        assert page.evaluate("() => window.scrollY") == 0, "the move buttons scroll in the bar, not the page"
        assert page.evaluate(SMALL_TARGETS) == []
        screenshot(page, "table-phone")
        width = page.locator("#board svg.board").bounding_box()["width"]
        page.click("#board [data-zoom=in]")
        page.click("#board [data-zoom=in]")
        zoomed = page.locator("#board svg.board").bounding_box()["width"]
        assert zoomed >= 1.9 * width, (width, zoomed)
        assert page.evaluate(SIDEWAYS) <= 0, "the zoomed board scrolls in its own box, not the page"
        zoom_in = page.locator("#board [data-zoom=in]")
        assert zoom_in.evaluate("b => document.activeElement === b || b.disabled"), "the focus stays on +"
        screenshot(page, "table-phone-zoomed")
        page.goto(play_demo_game(live, seed=5).url(live, tail="/history"))
        ready(page)
        assert page.evaluate(SIDEWAYS) <= 0, "the history page: no sideways scroll"
        # in the middle of the screen, as a person scrolls it there: at the edge, the page's sticky bar may
        # cover it (the history's length differs with the game's dice; seen once in a clean-clone CI run)
        summary = page.locator("#all-events > summary")
        summary.evaluate("e => e.scrollIntoView({block: 'center'})")
        summary.click()
        assert page.evaluate(SMALL_TARGETS) == []
        screenshot(page, "history-phone")
    finally:
        phone.close()


def test_the_focus_stays_where_it_was_when_the_table_is_drawn_again(live: str, context: Any) -> None:
    game = rolled_to_move(live)
    page = context.new_page()
    page.goto(game.url(live, "table"))
    ready(page)
    version = game.get("")["version"]
    # a space on the board, focused by keyboard; another device sends a command: the table is drawn again
    spaces = page.eval_on_selector_all("#board .space.reachable", "ns => ns.map(n => n.dataset.space)")
    assert spaces
    page.focus("#board [data-zoom=in]")
    undo_the_roll(game)
    wait_version(page, version + 1)
    focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.zoom")
    assert focused == "in", "the zoom button keeps the focus across the re-render"
    # the log list: focusable, and keeps the focus when new lines arrive
    page.focus("#log ol.log")
    game.send("table", {"type": "Roll", "faces": ["cheese"]})
    wait_version(page, game.get("")["version"])
    assert page.evaluate("() => document.activeElement.matches('#log ol.log')")
    # a die face: tapping it keeps the focus on that face, so a second die showing the same is one more tap
    undo_the_roll(game)
    wait_version(page, game.get("")["version"])
    face = page.locator("#controls .die-face[data-face-name='bow']")
    face.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.faceName") in ("bow", None)
    assert page.locator("#controls .chosen").inner_text().endswith("bow · 2")


def test_the_die_faces_at_the_table_are_the_contents_and_a_roll_is_sent_by_their_names(
    live: str, context: Any
) -> None:
    """A player who reads a bow and the number 2 on the die taps "bow · 2": the page's faces are the content's
    (/content/mice-and-mystics/dice: name, symbols, move number), and the Roll sends the face's name, which
    the API reads as that face (``bow`` is face 4)."""
    game = rolled_to_move(live)
    undo_the_roll(game)
    page = context.new_page()
    page.goto(game.url(live, "table"))
    ready(page)
    die = httpx.get(f"{live}/content/mice-and-mystics/dice").json()
    shown = page.eval_on_selector_all(
        "#controls .die-face",
        "ns => ns.map(n => [Number(n.dataset.face), n.dataset.faceName,"
        " n.querySelector('.face-text').textContent])",
    )
    assert [(face, name) for face, name, _ in shown] == [(f["face"], f["name"]) for f in die]
    for (_, _, text), face in zip(shown, die, strict=True):
        assert text.endswith(f" · {face['move']}"), (text, face)
    version = game.get("")["version"]
    page.locator("#controls").get_by_role("button", name="bow, printed 2", exact=True).click()
    page.click("#submit-roll")
    wait_version(page, version + 1)
    rolled = [e for e in game.events() if e["type"] == "DiceRolled"][-1]
    assert rolled["payload"]["faces"] == [4] and rolled["payload"]["source"] == "manual"
    log = page.locator("#log").inner_text()
    assert "Rolled bow · 2 for movement" in log and "Rolled [" not in log
    assert page.locator("#status .last-roll svg.die-icon").count() == 1


def test_tokens_that_share_a_space_never_overlap(live: str, context: Any) -> None:
    game = mice_game(live, dice_mode="server", seats=ONE_SEAT)
    page = context.new_page()
    page.goto(game.url(live, "table"))
    ready(page)
    overlaps = page.evaluate(
        """() => {
          const found = [];
          for (const space of document.querySelectorAll('#board .space')) {
            const id = space.dataset.space;
            const tokens = document.querySelectorAll(`#board .figure[data-space="${id}"] .token`);
            const boxes = [...tokens].map(t => t.getBoundingClientRect());
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
              const a = boxes[i], b = boxes[j];
              const apart = a.right - 0.5 <= b.left || b.right - 0.5 <= a.left
                || a.bottom - 0.5 <= b.top || b.bottom - 0.5 <= a.top;
              if (!apart) found.push(id);
            }
          }
          return found;
        }"""
    )
    assert overlaps == []
    shared = max(
        page.eval_on_selector_all("#board .figure", "ns => ns.map(n => n.dataset.space)").count(space)
        for space in set(page.eval_on_selector_all("#board .figure", "ns => ns.map(n => n.dataset.space)"))
    )
    assert shared >= 4, "the four mice start on one space"
    # any crowd, up to a whole unlimited area: the layout's tokens (discs of the returned size) stay apart
    crowded = page.evaluate(
        """async () => {
          const { figureLayout } = await import('/web/rulesets/mice-and-mystics/board.js');
          const bad = [];
          for (let n = 2; n <= 16; n++) {
            const { size, at } = figureLayout(n, 100, 100, 40);
            for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++)
              if (Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]) < 2.12 * size) bad.push([n, i, j]);
          }
          return bad;
        }"""
    )
    assert crowded == []


def test_the_dispute_view_is_compact_with_the_payloads_behind_toggles(live: str, context: Any) -> None:
    game = play_demo_game(live, seed=9)
    page = context.new_page()
    page.goto(game.url(live, tail="/history"))
    ready(page)
    turn = game.get("/turns/1")
    page.locator("#version").fill(str(turn["to_version"]))
    page.wait_for_selector("#turn li[data-version]")
    panel = page.locator("#turn")
    text = panel.inner_text()
    assert "{" not in text, "no payload JSON until a toggle is opened"
    assert not re.search(r"\b[A-Z]{2,3}-\d+\b", text), text
    assert not re.search(r"\b[a-z]+(?:-[a-z]+)+-\d+\b", text), text
    toggle = panel.locator("details.payload-toggle").first
    toggle.locator("summary").click()
    assert toggle.locator("pre.payload").inner_text().lstrip().startswith("{")
    page.click("#all-events > summary")
    lines = page.eval_on_selector_all(
        "#events > li", "ns => ns.map(n => n.firstChild.textContent + n.childNodes[1].textContent)"
    )
    assert lines and max(len(line) for line in lines) < 400, max(lines, key=len)
    draws = [line for line in lines if "DrawRequested" in line]
    assert all("items" in line or "cards: " not in line for line in draws), draws[:2]
    screenshot(page, "history")


def test_a_refresh_reads_each_read_model_once_undo_status_included(live: str, context: Any) -> None:
    """Issue 32 item 6: a game with an undo policy no longer adds four ``/events?type=Undo…`` reads to every
    refresh; the open undo request comes with the game's read."""
    game = rolled_to_move(live)
    page = context.new_page()
    page.goto(game.url(live, "table"))
    ready(page)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("?")[0].split(f"/games/{game.id}")[-1]))
    version = game.get("")["version"]
    undo_the_roll(game)
    wait_version(page, version + 1)
    page.wait_for_timeout(300)  # any second read of the same refresh
    reads = [a for a in asked if not a.endswith("/stream")]
    per_model = {path: reads.count(path) for path in set(reads)}
    assert set(per_model) == {"", "/state", "/legal-commands", "/board", "/initiative", "/log"}, per_model
    assert len(set(per_model.values())) == 1, per_model  # as many reads of each (one per refresh)
    assert page.locator("#controls .die-face").count() == 6  # the undone roll is asked for again
