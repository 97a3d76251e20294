"""Vast at the web table, as people see it (issue 14): the cave is drawn as a grid of tiles (the Entrance, Lit
tiles with their rooms and walls, Dark tiles with their Tribe symbols, tokens and the Knight); the Knight's
page never shows what a Dark tile is, the Cave's page does; a seat plays from its page's controls."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.browser.conftest import screenshot
from tests.browser.support import (
    OUTSIDE_ITS_TILE,
    SIDEWAYS,
    SMALL_TARGETS,
    ApiGame,
    axe_violations,
    ready,
    wait_version,
)

TILES = "els => els.map(e => e.dataset.tile || '')"  # the tiles a page names (what a Dark tile hides)
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
    cells = knight.locator(".vast-cell")
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
    titles = " ".join(cave_page.locator(".vast-cell.dark").evaluate_all(TILES))
    assert all(t in titles for t in dark), (
        "the Cave examines every Dark tile (Vast rulebook §Tessere Caverna)"
    )
    # each tile's words (its room, what a Dark tile hides, "(Treasure Room)" the longest) stay inside it
    assert cave_page.locator(".vast-cell.dark .hidden-room").count() == len(dark)
    assert cave_page.evaluate(OUTSIDE_ITS_TILE) == []
    screenshot(cave_page, "vast-table-cave")
    grid = screenshot(cave_page, "vast-table-cave").with_name("vast-cave-grid.png")
    cave_page.locator(".vast-cave").screenshot(path=str(grid))


def test_the_knight_plays_from_her_page(live: str, context: Any) -> None:
    game = vast_game(live)
    # the game's own seed may open the Knight's first turn with something to answer first (a decision, an
    # Encounter on an Event token): answer it by the API until she may place a Hero cube
    for _ in range(20):
        legal = game.get("/legal-commands", "sir")["commands"]
        if any(c["type"] == "vast.PlaceHeroCube" and c.get("target") == "movement" for c in legal):
            break
        game.send("sir" if legal else "deep", (legal or game.get("/legal-commands", "deep")["commands"])[0])
    page = context.new_page()
    page.goto(game.url(live, "sir"))
    ready(page)
    before = game.get("")["version"]
    placed = game.get("/state", "sir")["state"]["knight"]["placed"]
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("?")[0].split(f"/games/{game.id}")[-1]))
    page.get_by_role("button", name="Hero cube on Movement").click()
    wait_version(page, before + 2)  # the command and its event
    assert game.get("/state", "sir")["state"]["knight"]["placed"] == {**placed, "movement": 1}
    # issue 32 item 6: the refresh after the click reads each read model once, the undo status (the game's
    # undo policy is all-seats) with the game's read: no GET /events?type=Undo...
    page.wait_for_timeout(300)  # any second read of the same refresh
    reads = [a for a in asked if not a.endswith(("/stream", "/commands"))]
    per_model = {path: reads.count(path) for path in set(reads)}
    assert set(per_model) == {"", "/state", "/legal-commands", "/board", "/initiative", "/log"}, per_model
    assert len(set(per_model.values())) == 1, per_model  # as many reads of each (one per refresh)
    screenshot(page, "vast-table-knight-controls")


SEATS4 = [{"name": r, "controls": [r]} for r in ("knight", "goblins", "dragon", "cave")]


def test_the_dragon_its_gems_and_its_hand_at_the_four_player_table(live: str, context: Any) -> None:
    """Knight, Goblins, Dragon and Cave: after its first turn the Dragon is drawn on the map, on every seat's
    page; the Knight's page never shows the Dragon's Power cards (Vast rulebook §Il Drago;
    docs/who-sees-what.md, Vast)."""
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
    """Knight vs Goblins (docs/vast/facts.md §7, no Cave player; Vast rulebook §Varianti): ending her turn,
    the Knight's page asks where the Dark tile drawn from the stack goes; she chooses from her page, the tile
    is placed, the Goblins' turn begins, and no seat's page names a Dark tile (nobody looked at it)."""
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
    choices = page.locator("#controls").get_by_role("button", name=re.compile(r"^-?\d+,-?\d+"))
    assert choices.count() == len(summary["pending"]["options"])
    places = page.locator(".vast-map .target")  # the same places, ringed on the cave: she clicks one
    assert places.count() == len(summary["pending"]["options"])
    places.first.click()
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


ROLES5 = ("knight", "goblins", "dragon", "cave", "thief")
SEATS5 = [{"name": r, "controls": [r]} for r in ROLES5]


def test_the_thief_his_piece_and_his_track_at_the_five_player_table(live: str, context: Any) -> None:
    """Knight, Goblins, Dragon, Cave and Thief (docs/vast/facts.md §7): once the Thief has entered the cave
    and looked at a Dark tile, every seat's page draws his piece on the map and his public board (Movement,
    Stealth with what he carries, Thievery, Action cubes, Loot Drop, stash) under the cave; his page names the
    tile he looked at, the Knight's never does (Vast rulebook §Il Ladro, 2. Muovi e Agisci)."""
    body = {"ruleset": "vast", "setup": {"roles": list(ROLES5)}, "seats": SEATS5, "visibility": "public"}
    game = ApiGame(live, body)
    rng = random.Random(5)
    for _ in range(600):
        thief = game.get("/state", "auditor")["state"]["thief"]
        turn = game.get("/legal-commands", "cave")["turn"]
        if thief["peeked"] and turn == "thief":
            break
        commands = game.get("/legal-commands", turn)["commands"]
        if turn == "thief":  # he heads for a Dark tile and looks at it
            peek = [c for c in commands if c["type"] == "vast.PeekTile"]
            moves = [c for c in commands if c["type"] == "vast.MoveThief" and not c.get("climb")]
            legal = peek or moves
        else:
            legal = [c for c in commands if c["type"] != "vast.EndTurn"]
        game.send(turn, rng.choice(legal or commands))
    full = game.get("/state", "auditor")["state"]
    peeked = set(full["thief"]["peeked"])
    assert peeked and full["thief"]["x"] is not None, full["thief"]
    dark = {c["tile"] for c in full["cells"] if not c["lit"]}
    version = game.get("")["version"]
    track = game.get("/initiative", "knight")["initiative"]["thief"]

    knight = context.new_page()
    knight.goto(game.url(live, "knight"))
    ready(knight)
    wait_version(knight, version)
    piece = knight.locator(".vast-cell .piece.thief")
    assert piece.count() == 1
    cell = knight.locator(f'.vast-cell[data-x="{full["thief"]["x"]}"][data-y="{full["thief"]["y"]}"]')
    assert cell.locator(".piece.thief").count() == 1
    assert f"Stealth {track['stealth']}" in (piece.locator("title").text_content() or "")
    board = knight.get_by_role("figure", name="The Thief's board")
    assert board.is_visible()
    assert board.locator('dd[data-key="stealth"]').inner_text().split(" ")[0] == str(track["stealth"])
    assert board.locator('dd[data-key="action-cubes"]').count() == 1
    assert board.locator('dd[data-key="action-cubes"]').inner_text() == str(track["cubes"])
    assert board.locator('dd[data-key="loot-drop"]').inner_text() == str(track["loot_drop"])
    assert board.locator('dd[data-key="stashed"]').inner_text() == f"{track['stashed']} of 6"
    log = knight.locator("#log").inner_text()
    assert "The Thief looks at the Dark tile at" in log
    html = knight.content()
    assert not [t for t in dark if f'"{t}"' in html or f">{t}<" in html or f" {t}" in html], (
        "Dark tiles are secret"
    )
    screenshot(knight, "vast-table-five-players-knight")

    thief_page = context.new_page()
    thief_page.goto(game.url(live, "thief"))
    ready(thief_page)
    wait_version(thief_page, version)
    titles = " ".join(thief_page.locator(".vast-cell.dark").evaluate_all(TILES))
    assert all(t in titles for t in peeked & dark), "he reads the Dark tiles he looked at"
    assert not [t for t in dark - peeked if t in titles], "and no other"
    assert thief_page.locator(".vast-cell .piece.thief").count() == 1
    assert thief_page.get_by_role("figure", name="The Thief's board").is_visible()
    shot = screenshot(thief_page, "vast-table-five-players-thief")
    cave, tracks = (
        thief_page.locator(".vast-cave").bounding_box(),
        thief_page.locator("#tracks").bounding_box(),
    )
    assert cave and tracks
    bottom = tracks["y"] + tracks["height"]
    clip = {
        "x": 0,
        "y": 0,
        "width": max(cave["x"] + cave["width"], tracks["x"] + tracks["width"]) + 8,
        "height": bottom + 8,
    }
    thief_page.screenshot(path=str(shot.with_name("vast-thief-close-up.png")), clip=clip)


def test_a_flare_s_dragon_die_is_entered_by_its_printed_pattern(live: str, context: Any) -> None:
    """Physical dice: the Knight's Flare rolls the Dragon die (Vast rulebook §Razzo; docs/vast/facts.md §4),
    and her page offers its faces as printed (a pattern of tiles: centre, diamond, cross, corners, saltire,
    all around), not as an index; tapping the cross records face 3."""
    body = {"ruleset": "vast", "setup": {"roles": ["knight", "cave"]}, "seats": SEATS, "dice_mode": "manual"}
    game = ApiGame(live, {**body, "visibility": "public"})
    for _ in range(30):  # the setup's draws (tiles, Sidequests, the Event deck's top three), as drawn
        pending = game.get("", "auditor")["pending"]
        if pending is None:
            break
        seat = "sir" if pending["piece"] == "knight" else "deep"
        game.send(seat, {"type": "Draw", "cards": pending["cards"][: pending.get("count", 1)]})
    game.send("sir", {"type": "vast.UseFlare", "x": 1, "y": 0})
    version = game.get("")["version"]
    page = context.new_page()
    page.goto(game.url(live, "sir"))
    ready(page)
    wait_version(page, version)
    faces = page.locator("#controls .die-face")
    assert faces.count() == 6
    labels = [faces.nth(i).get_attribute("aria-label") for i in range(6)]
    assert labels == [
        "Face 1 · centre",
        "Face 2 · diamond",
        "Face 3 · cross",
        "Face 4 · corners",
        "Face 5 · saltire",
        "Face 6 · all around",
    ]
    assert faces.nth(2).locator("rect.die-on").count() == 5, "the cross: the tile and its four neighbours"
    screenshot(page, "vast-dragon-die-manual")
    page.get_by_role("button", name="Face 3 · cross").click()
    page.locator("#submit-roll").click()
    wait_version(page, version + 2)
    rolled = [e for e in game.events("sir") if e["type"] == "DiceRolled"]
    assert rolled[-1]["payload"]["faces"] == [3]
    # the roll in the log and the status' last roll, drawn as the die shows it: the cross, five tiles lit
    page.wait_for_selector(".last-roll svg.die-icon")
    assert page.locator(".last-roll svg.die-icon rect.die-on").count() == 5, page.locator(
        ".last-roll"
    ).inner_text()
    logged = page.locator("#log li", has_text="Dragon die").last
    assert logged.locator("svg.die-icon rect.die-on").count() == 5, logged.inner_text()
    screenshot(page, "vast-dragon-die-rolled")


def test_the_cave_places_a_tile_by_keyboard_and_keeps_its_focus(live: str, context: Any) -> None:
    """The Cave picks a tile of its hand (drawn as tiles), then an open place ringed on the cave, with Tab and
    Enter alone; the focus stays on the picked tile when the table is drawn again."""
    game = vast_game(live)
    game.send("sir", {"type": "vast.EndTurn", "role": "knight"})
    legal = game.get("/legal-commands", "deep")
    tiles = sorted({c["tile"] for c in legal["commands"] if c["type"] == "vast.PlaceTile"})
    assert legal["turn"] == "cave" and tiles
    version = game.get("")["version"]
    page = context.new_page()
    page.goto(game.url(live, "deep"))
    ready(page)
    wait_version(page, version)
    assert page.locator("#controls .hand-pick").count() == len(tiles)
    first = page.locator("#controls .hand-pick").first
    tile = first.get_attribute("data-tile")
    first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#controls .hand-pick.chosen")
    assert page.evaluate("document.activeElement.dataset.key") == f"hand:{tile}", "the focus stayed"
    places = {
        (c["x"], c["y"]) for c in legal["commands"] if c["type"] == "vast.PlaceTile" and c["tile"] == tile
    }
    assert page.locator(".vast-map .target").count() == len(places)
    page.locator(".vast-map .target").first.focus()
    page.keyboard.press("Enter")
    wait_version(page, version + 1)
    sent = [e["payload"]["command"] for e in game.events("deep") if e["type"] == "CommandAccepted"]
    placed = [c for c in sent if c["type"] == "vast.PlaceTile"]
    assert len(placed) == 1 and placed[0]["tile"] == tile
    screenshot(page, "vast-cave-placed-by-keyboard")


def play_to_an_orient_decision(game: ApiGame, seed: int, limit: int = 300) -> dict[str, Any]:
    """Commands over the API (the Knight onto Dark tiles first) until a seat is asked how a revealed tile is
    turned; the game's summary then."""
    rng = random.Random(seed)
    for _ in range(limit):
        summary = game.get("")
        pending = summary["pending"]
        if pending and str(pending.get("decision", "")).startswith("orient:"):
            return summary
        seats = [s for s in ("sir", "deep") if game.get("/legal-commands", s)["commands"]]
        assert seats, summary
        legal = game.get("/legal-commands", seats[0])["commands"]
        chooses = [c for c in legal if c["type"] == "Choose"]  # a decision: its seat's options
        if chooses:
            game.send(seats[0], chooses[0])
            continue
        dark = {
            (c["x"], c["y"]) for c in game.get("/board", seats[0])["board"]["cells"] if c["side"] == "dark"
        }
        onto = [c for c in legal if c["type"] == "vast.MoveKnight" and (c["x"], c["y"]) in dark]
        moves = [c for c in legal if c["type"] not in ("vast.EndTurn", "vast.UseBomb")]
        game.send(seats[0], onto[0] if onto else rng.choice(moves or legal))
    raise AssertionError("no orient decision came")


def test_the_orientation_decision_draws_each_option_s_walls_as_the_tile_would_lie(
    live: str, context: Any
) -> None:
    """Vast rulebook §Rivelare e risolvere le tessere Buie: the revealer turns the revealed tile; each option
    (quarter turns clockwise) is drawn as the tile would lie, its walls turned, with its neighbours' edges."""
    from dicelog.domain.vast.cave import tile_walls

    body = {
        "ruleset": "vast",
        "setup": {"roles": ["knight", "cave"]},
        "seats": SEATS,
        "decision_policy": "ask",
    }
    game = ApiGame(live, body)
    summary = play_to_an_orient_decision(game, seed=5)
    seat = "sir" if summary["pending"].get("piece", "knight") == "knight" else "deep"
    pending = game.get("/legal-commands", seat)["pending"]  # the options as the asked seat reads them
    x, y = (int(v) for v in pending["decision"].removeprefix("orient:").split(","))
    tile = next(
        c["tile"] for c in game.get("/state", "auditor")["state"]["cells"] if (c["x"], c["y"]) == (x, y)
    )
    page = context.new_page()
    page.goto(game.url(live, seat))
    ready(page)
    wait_version(page, summary["version"])
    shot = screenshot(page, "vast-orient-decision")
    page.locator("#controls").screenshot(path=str(shot.with_name("vast-orient-options.png")))
    options = page.locator("#controls button.option")
    assert options.count() == len(pending["options"])
    for i, option in enumerate(pending["options"]):
        button = options.nth(i)
        assert button.get_attribute("data-option") == option
        icon = button.locator("svg.orient-icon")
        assert icon.count() == 1
        walls = sorted(tile_walls(tile, int(option)))
        assert sorted(icon.get_attribute("data-walls") or "") == walls, (option, tile)
        assert icon.locator("line.wall:not(.near)").count() == len(walls)
        words = {"N": "north", "E": "east", "S": "south", "W": "west"}
        text = button.inner_text()
        assert all(words[w] in text for w in walls) if walls else "no walls" in text, text
    before = summary["version"]
    options.last.click()
    wait_version(page, before + 1)
    turned = next(c for c in game.get("/board", seat)["board"]["cells"] if (c["x"], c["y"]) == (x, y))
    assert sorted(turned["walls"]) == sorted(tile_walls(tile, int(pending["options"][-1])))


def test_on_a_phone_the_cave_zooms_in_its_own_box(live: str, browser: Any) -> None:
    """Issue 32 item 5, the board zooms: at 390x844 the Knight's cave fits the width; + twice draws it at
    twice that width in a box of its own (the page does not scroll sideways), the focus stays on +, and Fit
    draws it at the width again. Item 3: the collapsible legend of the cave's marks."""
    game = vast_game(live)
    play_some(game, 25, seed=4)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = phone.new_page()
        page.goto(game.url(live, "sir"))
        ready(page)
        width = page.locator("svg.vast-map").bounding_box()["width"]
        assert width <= 390
        page.click("#board [data-zoom=in]")
        page.click("#board [data-zoom=in]")
        zoomed = page.locator("svg.vast-map").bounding_box()["width"]
        assert zoomed >= 1.9 * width, (width, zoomed)
        assert page.evaluate(SIDEWAYS) <= 0, "the zoomed cave scrolls in its own box, not the page"
        assert page.evaluate("() => document.activeElement.dataset.zoom") == "in", "the focus stays on +"
        assert page.locator("#board .zoom-level").inner_text() == "200%"
        assert page.evaluate(SMALL_TARGETS) == []
        screenshot(page, "vast-phone-zoomed")
        page.click("#board [data-zoom=fit]")
        assert page.locator("svg.vast-map").bounding_box()["width"] == width
        # the collapsible legend of the cave's marks, each drawn as on the cave
        page.click("#legend summary")
        marks = page.locator("#legend li")
        assert marks.count() >= 15 and marks.locator("svg.vast-key").count() == marks.count()
        assert "a Dark tile of the Fangs" in page.locator("#legend").inner_text()
        assert page.evaluate(SIDEWAYS) <= 0
        assert page.evaluate(SMALL_TARGETS) == []
        assert axe_violations(page) == [], "axe-core on the Knight's table on a phone, the legend open"
        screenshot(page, "vast-phone-legend")
    finally:
        phone.close()
