"""Vast at the web table, as people see it (issue 14): the cave is drawn as a grid of tiles (the Entrance, Lit
tiles with their rooms and walls, Dark tiles with their Tribe symbols, tokens and the Knight); the Knight's
page never shows what a Dark tile is, the Cave's page does; a seat plays from its page's controls."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.browser.conftest import screenshot
from tests.browser.support import ApiGame, ready, wait_version

SEATS = [{"name": "sir", "controls": ["knight"]}, {"name": "deep", "controls": ["cave"]}]


def vast_game(base: str) -> ApiGame:
    body = {"ruleset": "vast", "setup": {"roles": ["knight", "cave"]}, "seats": SEATS, "visibility": "public"}
    return ApiGame(base, body)


def play_some(game: ApiGame, commands: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(commands):
        turn = game.get("/legal-commands", "sir")["turn"]
        seat = "sir" if turn == "knight" else "deep"
        legal = [c for c in game.get("/legal-commands", seat)["commands"] if c["type"] != "vast.EndTurn"]
        legal = legal or game.get("/legal-commands", seat)["commands"]
        game.send(seat, rng.choice(legal))


def test_the_cave_is_drawn_as_a_grid_and_the_knight_never_sees_a_dark_tile(live: str, context: Any) -> None:
    game = vast_game(live)
    play_some(game, 25, seed=4)
    full = game.get("/state", "auditor")["state"]
    dark = {c["tile"] for c in full["cells"] if not c["lit"]}
    assert dark
    version = game.get("")["version"]

    knight = context.new_page()
    knight.goto(game.url(live, "sir"))
    ready(knight)
    wait_version(knight, version)
    cave = knight.locator(".vast-cave")
    assert cave.is_visible()
    cells = knight.locator(".vast-cell:not(.empty)")
    assert cells.count() == len(full["cells"])
    assert knight.locator(".vast-cell.entrance").count() == 1
    assert knight.locator(".vast-cell .piece.knight").count() == 1
    assert knight.locator(".vast-cell.dark").count() == len(dark)
    html = knight.content()
    assert not sorted(t for t in dark if f'"{t}"' in html or f">{t}<" in html or f" {t}" in html)
    screenshot(knight, "vast-table-knight")

    cave_page = context.new_page()
    cave_page.goto(game.url(live, "deep"))
    ready(cave_page)
    wait_version(cave_page, version)
    titles = " ".join(cave_page.locator(".vast-cell.dark").evaluate_all("els => els.map(e => e.title)"))
    assert all(t in titles for t in dark), "the Cave examines every Dark tile (004 §Tessere Caverna)"
    screenshot(cave_page, "vast-table-cave")
    grid = screenshot(cave_page, "vast-table-cave").with_name("vast-cave-grid.png")
    cave_page.locator(".vast-cave").screenshot(path=str(grid))


def test_the_knight_plays_from_her_page(live: str, context: Any) -> None:
    game = vast_game(live)
    page = context.new_page()
    page.goto(game.url(live, "sir"))
    ready(page)
    before = game.get("")["version"]
    page.get_by_role("button", name="Knight: Hero cube on movement").click()
    wait_version(page, before + 2)  # the command and its event
    assert game.get("/state", "sir")["state"]["knight"]["placed"] == {"movement": 1}
    screenshot(page, "vast-table-knight-controls")


SEATS4 = [{"name": r, "controls": [r]} for r in ("knight", "goblins", "dragon", "cave")]


def test_the_dragon_its_gems_and_its_hand_at_the_four_player_table(live: str, context: Any) -> None:
    """Knight, Goblins, Dragon and Cave: after its first turn the Dragon is drawn on the map, on every seat's
    page; the Knight's page never shows the Dragon's Power cards (004 §Il Drago; VAST-DESIGN.md §3.10)."""
    body = {"ruleset": "vast", "setup": {"roles": ["knight", "goblins", "dragon", "cave"]}, "seats": SEATS4}
    game = ApiGame(live, {**body, "visibility": "public"})
    rng = random.Random(3)
    for _ in range(400):
        if game.get("/state", "auditor")["state"]["dragon"]["x"] is not None:
            break
        turn = game.get("/legal-commands", "cave")["turn"]
        legal = [c for c in game.get("/legal-commands", turn)["commands"] if c["type"] != "vast.EndTurn"]
        game.send(turn, rng.choice(legal or game.get("/legal-commands", turn)["commands"]))
    full = game.get("/state", "auditor")["state"]
    hand = set(full["dragon"]["hand"])
    assert full["dragon"]["x"] is not None and hand
    version = game.get("")["version"]

    knight = context.new_page()
    knight.goto(game.url(live, "knight"))
    ready(knight)
    wait_version(knight, version)
    assert knight.locator(".vast-cell .piece.dragon").count() == 1
    html = knight.content()
    assert not [c for c in hand if f'"{c}"' in html or f">{c}<" in html], "the Dragon's hand is its secret"
    screenshot(knight, "vast-table-four-players-knight")

    dragon = context.new_page()
    dragon.goto(game.url(live, "dragon"))
    ready(dragon)
    wait_version(dragon, version)
    assert dragon.locator(".vast-cell .piece.dragon").count() == 1
    screenshot(dragon, "vast-table-four-players-dragon")


SEATS_KG = [{"name": "sir", "controls": ["knight"]}, {"name": "horde", "controls": ["goblins"]}]


def test_without_a_cave_player_the_knight_places_her_end_of_turn_dark_tile_from_her_page(
    live: str, context: Any
) -> None:
    """Knight vs Goblins (VF §7, no Cave player; 004 §Varianti): ending her turn, the Knight's page asks where
    the Dark tile drawn from the stack goes; she chooses from her page, the tile is placed, the Goblins'
    turn begins, and no seat's page names a Dark tile (nobody looked at it)."""
    body = {
        "ruleset": "vast",
        "setup": {"roles": ["knight", "goblins"]},
        "seats": SEATS_KG,
        "visibility": "public",
        "decision_policy": "ask",
    }
    game = ApiGame(live, body)
    game.send("sir", {"type": "vast.EndTurn", "role": "knight"})
    summary = game.get("")
    assert summary["pending"]["decision"] == "shape"
    cells_before = len(game.get("/state", "auditor")["state"]["cells"])

    page = context.new_page()
    page.goto(game.url(live, "sir"))
    ready(page)
    wait_version(page, summary["version"])
    assert "choose where the end-of-turn Dark tile goes" in page.content()
    screenshot(page, "vast-no-cave-knight-asked")
    choices = page.get_by_role("button", name=re.compile(r"^-?\d+,-?\d+"))
    assert choices.count() == len(summary["pending"]["options"])
    choices.first.click()
    wait_version(page, summary["version"] + 4)  # the choice, the draw, the tile, the end of turn...
    full = game.get("/state", "auditor")["state"]
    assert len(full["cells"]) == cells_before + 1 and full["turn"] == "goblins"
    dark = {c["tile"] for c in full["cells"] if not c["lit"]}
    for seat in ("sir", "horde"):
        other = context.new_page()
        other.goto(game.url(live, seat))
        ready(other)
        wait_version(other, game.get("")["version"])
        html = other.content()
        assert not [t for t in dark if f'"{t}"' in html or f">{t}<" in html], seat
        assert other.locator(".vast-cell.dark").count() == len(dark)
    screenshot(page, "vast-no-cave-after-the-tile")
